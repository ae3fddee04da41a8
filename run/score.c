// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/score.c - running the population's setups under the oracle's grid and every
 * policy, and the oracles (run/score.h).
 */
#include <math.h>
#include <string.h>
#include <cJSON.h>
#include <chargesim/policy.h>
#include "models/battery/battery.h"
#include "models/pmic/pmic.h"
#include "models/source/source.h"
#include "run/board.h"
#include "run/linux_board.h"
#include "run/scenario.h"
#include "run/score.h"
#include "run/world.h"
#include "stack/policies/loader.h"

G_DEFINE_QUARK(cs-score-error-quark, cs_score_error)

const struct score_oracle_def score_oracle_default = {
	.grid_min_a = 0.10, .grid_step_a = 0.05, .in_limit_s = 1.0,
};

const char *const score_oracle_names[SCORE_N_ORACLES] = { "oracle", "unbudgeted", "out-of-limit" };

/* ---- the policies under test ---- */

bool score_policy_parse(const char *spec, struct score_policy *pol, GError **err)
{
	struct cs_policy_spec ps = { 0 };
	cJSON *o;
	char *text;

	memset(pol, 0, sizeof(*pol));
	if (!*spec) {
		g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT,
			    "--policy: found \"\", expected a policy name or a plugin FILE.so");
		return false;
	}
	if (!cs_policy_spec_parse(spec, &ps, err))
		return false;
	pol->spec = g_strdup(spec);
	pol->name = g_steal_pointer(&ps.name);
	pol->params = g_steal_pointer(&ps.params);
	cs_policy_spec_clear(&ps);
	if (world_policy_is_plugin(pol->name)) {
		g_autofree char *real = cs_plugin_check(pol->name, true, err);

		if (!real)
			return false;
		pol->plugin = g_strdup(pol->name);
		pol->json = g_strdup("\"none\"");
		return true;
	}
	if (!cs_policy_find(pol->name)) {
		g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT,
			    "--policy %s: found \"%s\", expected a policy of this build "
			    "(`chargesim list policies`) or a plugin FILE.so", spec, pol->name);
		return false;
	}
	if (g_str_has_prefix(pol->name, "linux/"))
		pol->driver = g_strdup(pol->name);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", pol->name);
	if (pol->params)
		cJSON_AddItemToObject(o, "params", cJSON_Duplicate(pol->params, true));
	text = cJSON_PrintUnformatted(o);
	pol->json = g_strdup(text);
	free(text);
	cJSON_Delete(o);
	return true;
}

void score_policy_clear(struct score_policy *pol)
{
	g_free(pol->spec);
	g_free(pol->name);
	cJSON_Delete(pol->params);
	g_free(pol->json);
	g_free(pol->plugin);
	g_free(pol->driver);
	memset(pol, 0, sizeof(*pol));
}

/* ---- the setups and the grid ---- */

/*
 * A host port's budget is the configuration its host selects: the first of the
 * gadget's that the port can power (run/board.c), as bMaxPower carries it, in 2 mA
 * units, 8 mA at SuperSpeed (USB 2.0 9.6.3, USB 3.2 9.6.3: 900 mA is 896 mA), or the
 * unconfigured device's 100 mA (150 mA at SuperSpeed) when none fits. A charging
 * downstream port grants BC1.2's 1.5 A, a Type-C source its Rp current, a PD source
 * its highest-voltage offer's current (the contract a sink that wants power takes).
 */
double score_budget(const struct scenario *sc)
{
	const struct source_params *sp = scenario_params(sc, "source");
	const struct gadget_params *gp = scenario_params(sc, "device.gadget");
	bool ss = sp->usb3 && gp->usb3;
	double port = sp->port == SRC_PORT_HUB ? (ss ? 150 : 100) : (ss ? 900 : 500);
	double unit = ss ? 8 : 2;

	switch (sp->kind) {
	case SRC_KIND_SDP:
	case SRC_KIND_SDP_USB3:
		for (int i = 0; i < gp->n_configs; i++) {
			double mp = floor(gp->configs_ma[i] / unit + 1e-9) * unit;

			if (mp <= port)
				return mp / 1000;
		}
		return ss ? 0.15 : 0.1;
	case SRC_KIND_CDP:
		return 1.5;
	case SRC_KIND_TYPEC:
		return source_rated_current(sp);
	case SRC_KIND_PD:
		return sp->n_pdos > 0 ? sp->pdos[sp->n_pdos - 1].i : 0;
	default:
		return 0;
	}
}

/* The oracle's grid of setup s: the limits the charger's register applies, from
 * grid_min_a in grid_step_a steps, first up to the budget (its last point the budget
 * itself, rounded), then beyond it up to the charger's largest limit. */
static bool setup_grid(struct score_setup *s, const struct population *pop,
		       const struct score_oracle_def *def, GError **err)
{
	g_autofree char *text = pop_setup_scenario(&s->p, "\"none\"");
	g_autoptr(scenario) sc = scenario_load_text(s->p.name, text, strlen(text), NULL, err);
	const struct pmic_params *pmic;
	double cap, top;

	if (!sc)
		return false;
	pmic = scenario_params(sc, "device.pmic");
	/* the SOC the setup starts at: as drawn when the population drew it (the scenario
	 * has it to 4 digits; the benchmark's figures have always used the draw) */
	s->soc0 = pop_setup_number(pop, &s->p, "device.battery.soc");
	if (!isfinite(s->soc0))
		s->soc0 = ((const struct battery_params *)scenario_params(sc, "device.battery"))->soc;
	s->budget = score_budget(sc);
	s->preset = pmic_preset_names[pmic->preset];
	top = pmic->ladder_n > 0 ? pmic->ladder[pmic->ladder_n - 1] : pmic->iindpm_max;
	s->ilim_max = top;
	cap = s->budget > 0 ? fmin(top, s->budget) : top;
	s->grid = g_new(double, (int)(top / def->grid_step_a) + (int)(cap / def->grid_step_a) + 6);
	for (int part = 0; part < 2; part++) {
		double a = part == 0 ? def->grid_min_a : cap + def->grid_step_a;
		double end = part == 0 ? cap : top;

		for (; part == 0 || a < top + def->grid_step_a - 1e-9; a += def->grid_step_a) {
			double q = pmic_quantize_iindpm(pmic, fmin(a, end));

			if (s->n_grid == 0 || q > s->grid[s->n_grid - 1] + 1e-9)
				s->grid[s->n_grid++] = q;
			if (a >= end - 1e-9)
				break;
		}
		if (part == 0)
			s->n_grid_budget = s->n_grid;
	}
	s->grid_res = g_new0(struct score_result, s->n_grid);
	return true;
}

/* ---- running ---- */

struct score_ctx {
	GMutex lock;              /* guards failed, first_error and drivers */
	GHashTable *drivers;      /* "linux/NAME" -> the GMutex its runs hold */
	struct score *sc;
};

struct score_job {
	const struct score_setup *s;
	const struct score_policy *pol;   /* NULL: the fixed limit */
	double ilim;
	struct score_result *out;
};

static GMutex *driver_lock(struct score_ctx *c, const char *driver)
{
	GMutex *m;

	g_mutex_lock(&c->lock);
	m = g_hash_table_lookup(c->drivers, driver);
	if (!m) {
		m = g_new0(GMutex, 1);
		g_mutex_init(m);
		g_hash_table_insert(c->drivers, g_strdup(driver), m);
	}
	g_mutex_unlock(&c->lock);
	return m;
}

static void driver_lock_free(gpointer m)
{
	g_mutex_clear(m);
	g_free(m);
}

static void result_read(struct score_result *out, const struct score_setup *s,
			const struct world_metrics *m)
{
	out->ok = true;
	out->goal = world_metric(m, s->soc0 < SCORE_SOC_TARGET ? "time_to_soc_80_s" : "time_to_full_s");
	out->t_full = world_metric(m, "time_to_full_s");
	out->soc_final = world_metric(m, "soc_final");
	out->starve_s = world_metric(m, "discharged_while_plugged_s");
	out->starve_mah = world_metric(m, "discharged_while_plugged_mAh");
	out->limit_s = world_metric(m, "time_source_limiting_s");
	out->ibus_max = world_metric(m, "ibus_max_A");
	out->trips = (int)world_metric(m, "source_trips");
	out->uvlo = (int)world_metric(m, "uvlo_events");
	out->brownouts = (int)world_metric(m, "brownouts");
}

/* A fixed limit that trips the port, drops the charger out on UVLO or browns the
 * phone out is no candidate for any oracle, whatever else it does: its run ends at the
 * first such record (a limit far above a host port's would otherwise cycle through
 * thousands of trips for three hours). */
static const char *const unsafe_records[] = { "source_trip", "uvlo", "brownout" };

static void unsafe_seen(void *data, sim_time_t t, const char *src, const char *ev,
			const cJSON *rec)
{
	(void)t, (void)src, (void)ev, (void)rec;
	world_stop(data);
}

static bool job_run(const struct score_job *j, const char *json, GError **err)
{
	g_autofree char *text = pop_setup_scenario(&j->s->p, json);
	g_autoptr(scenario) sc = scenario_load_text(j->s->p.name, text, strlen(text), NULL, err);
	struct world_options wo = { .no_trace = true };
	struct world *w = NULL;
	bool ok;

	if (!sc)
		return false;
	if (j->pol) {
		wo.policy = j->pol->name;
		wo.policy_params = j->pol->params;
	}
	w = world_new(sc, &wo, err);
	if (w && !j->pol)
		for (size_t k = 0; k < G_N_ELEMENTS(unsafe_records); k++)
			world_add_event_listener_for(w, unsafe_records[k], unsafe_seen, w);
	ok = w && world_run(w, err) && world_finish(w, err);
	if (ok)
		result_read(j->out, j->s, world_metrics(w));
	if (w)
		world_free(w);
	return ok;
}

static void job_thread(gpointer data, gpointer user)
{
	struct score_job *j = data;
	struct score_ctx *c = user;
	g_autoptr(GError) err = NULL;
	g_autofree char *fixed = NULL;
	GMutex *lock = NULL;
	bool ok;

	if (!j->pol)
		fixed = g_strdup_printf("{\"name\":\"fixed\",\"params\":{\"ilim\":\"%.6f A\","
					"\"fullbatt_vchkdrop\":0}}", j->ilim);
	if (j->pol && j->pol->driver)
		lock = driver_lock(c, j->pol->driver);
	if (lock)
		g_mutex_lock(lock);
	ok = job_run(j, fixed ? fixed : "\"none\"", &err);
	if (lock)
		g_mutex_unlock(lock);
	if (ok)
		return;
	g_mutex_lock(&c->lock);
	c->sc->fail_status = MAX(c->sc->fail_status, world_error_status(err));
	if (!c->sc->failed++)
		c->sc->first_error = g_error_new(CS_SCORE_ERROR, CS_SCORE_ERROR_RUN,
						 "%s under %s: %s", j->s->p.name,
						 j->pol ? j->pol->spec : fixed, err->message);
	g_mutex_unlock(&c->lock);
}

/* Queue every run of setup s. */
static void queue_setup(GPtrArray *jobs, struct score_setup *s, const struct score_options *o)
{
	const char *preset = s->preset;

	s->pol_res = g_new0(struct score_result, o->n_pol);
	for (int k = 0; k < o->n_pol; k++) {
		struct score_job *j = g_new0(struct score_job, 1);

		s->pol_res[k].fits = linux_board_fits(o->pol[k].driver, preset);
		if (!s->pol_res[k].fits) {
			g_free(j);
			continue;
		}
		j->s = s;
		j->pol = &o->pol[k];
		j->out = &s->pol_res[k];
		g_ptr_array_add(jobs, j);
	}
	for (int k = 0; k < s->n_grid; k++) {
		struct score_job *j = g_new0(struct score_job, 1);

		j->s = s;
		j->ilim = s->grid[k];
		j->out = &s->grid_res[k];
		g_ptr_array_add(jobs, j);
	}
}

static bool run_jobs(GPtrArray *jobs, struct score *sc, int n_threads, GError **err)
{
	struct score_ctx c = { .sc = sc };
	GThreadPool *pool;

	g_mutex_init(&c.lock);
	c.drivers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, driver_lock_free);
	pool = g_thread_pool_new(job_thread, &c, n_threads, TRUE, err);
	if (pool) {
		for (guint k = 0; k < jobs->len; k++)
			g_thread_pool_push(pool, jobs->pdata[k], NULL);
		g_thread_pool_free(pool, FALSE, TRUE);
	}
	g_hash_table_destroy(c.drivers);
	g_mutex_clear(&c.lock);
	sc->n_runs = (int)jobs->len;
	return pool != NULL;
}

/* ---- the oracles ---- */

static bool has_events(const struct score_result *r)
{
	return r->trips + r->uvlo + r->brownouts > 0;
}

int score_pick_oracle(const struct score_setup *s, enum score_oracle_kind kind, double in_limit_s)
{
	int n = kind == SCORE_ORACLE_FREE ? s->n_grid : s->n_grid_budget;
	int best = -1;

	for (int k = 0; k < n; k++) {
		const struct score_result *r = &s->grid_res[k];
		const struct score_result *b = best >= 0 ? &s->grid_res[best] : NULL;
		bool better;

		if (!r->ok || has_events(r) || (kind == SCORE_ORACLE_OUT && r->limit_s > in_limit_s))
			continue;
		if (!b)
			better = true;
		else if (r->goal >= 0)
			better = b->goal < 0 || r->goal < b->goal;
		else
			better = b->goal < 0 && r->soc_final > b->soc_final + 1e-9;
		if (better)
			best = k;
	}
	return best;
}

/* A policy that gets to the goal where the oracle does not is timed too, against the
 * whole horizon for the oracle (as a policy that never gets there is timed at the whole
 * horizon): otherwise a charge that terminated at full would be scored on the SOC it
 * relaxed to, against a fixed limit that never let the charger terminate. */
double score_regret(const struct score_setup *s, enum score_oracle_kind o,
		    const struct score_result *p, bool *timed)
{
	const struct score_result *r = &s->grid_res[s->oracle[o]];
	double to = r->goal, tp = p->goal;

	*timed = to > 0 || tp > 0;
	if (*timed)
		return (tp >= 0 ? tp : POP_HORIZON_S) / (to > 0 ? to : POP_HORIZON_S) - 1;
	return (r->soc_final - p->soc_final) / fmax(fabs(r->soc_final - s->soc0), SCORE_SOC_FLOOR);
}

/* SOC ended below its start where the oracle's did not, the charge never having
 * terminated (a run that reached full and relaxed to its recharge threshold, a linear
 * charger having no power path after termination, is not starving), or the battery
 * carried the phone SCORE_STARVE_EXTRA_S longer than under the oracle. */
bool score_starved(const struct score_setup *s, enum score_oracle_kind o,
		   const struct score_result *p)
{
	const struct score_result *r = &s->grid_res[s->oracle[o]];
	double soc0 = s->soc0;

	return (p->soc_final < soc0 - SCORE_STARVE_SOC && r->soc_final >= soc0 - SCORE_STARVE_SOC &&
		p->t_full < 0) ||
	       p->starve_s > r->starve_s + SCORE_STARVE_EXTRA_S;
}

bool score_over_budget(const struct score_setup *s, const struct score_result *p)
{
	return s->budget > 0 && p->ibus_max > s->budget + SCORE_BUDGET_TOL_A;
}

static bool options_ok(const struct score_options *o, GError **err)
{
	const struct score_oracle_def *d = &o->oracle;

	if (o->n < 1 || o->jobs < 1 || o->shard_n < 1 || o->shard_i < 0 || o->shard_i >= o->shard_n ||
	    o->n_pol < 1 || o->n_pol > SCORE_MAX_POLICIES || !(d->grid_step_a >= 0.001) ||
	    !(d->grid_min_a > 0) || !(d->in_limit_s >= 0)) {
		g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT,
			    "bad score options: at least 1 setup and 1 job, 1 to %d policies, "
			    "a grid step of at least 1 mA from a positive first limit",
			    SCORE_MAX_POLICIES);
		return false;
	}
	return true;
}

struct score *score_run(const struct score_options *o, GError **err)
{
	g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func(g_free);
	struct score *sc;

	if (!options_ok(o, err))
		return NULL;
	sc = g_new0(struct score, 1);
	sc->set = g_new0(struct score_setup, (o->n + o->shard_n - 1) / o->shard_n);
	for (int i = o->shard_i; i < o->n; i += o->shard_n) {
		struct score_setup *s = &sc->set[sc->n_set++];

		population_setup(o->pop, o->seed, i, &s->p);
		if (!setup_grid(s, o->pop, &o->oracle, err)) {
			score_free(sc);
			return NULL;
		}
		queue_setup(jobs, s, o);
	}
	if (!run_jobs(jobs, sc, o->jobs, err)) {
		score_free(sc);
		return NULL;
	}
	for (int i = 0; i < sc->n_set; i++)
		for (int k = 0; k < SCORE_N_ORACLES; k++)
			sc->set[i].oracle[k] = score_pick_oracle(&sc->set[i], k, o->oracle.in_limit_s);
	return sc;
}

void score_free(struct score *sc)
{
	if (!sc)
		return;
	for (int i = 0; i < sc->n_set; i++) {
		pop_setup_clear(&sc->set[i].p);
		g_free(sc->set[i].grid);
		g_free(sc->set[i].grid_res);
		g_free(sc->set[i].pol_res);
	}
	g_free(sc->set);
	g_clear_error(&sc->first_error);
	g_free(sc);
}
