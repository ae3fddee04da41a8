// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_regret.c - input-current policies against a hindsight oracle, on a seeded
 * population of realistic charging setups.
 *
 * Each setup is a scenario drawn from one of eight classes (see rg_draw()): healthy
 * adapters, a weak adapter with a full battery (the LWN article's overload), thin or
 * long cables, linear chargers, hiccup and latch adapters with overload timers, host
 * ports with their USB budget, Type-C Rp and USB PD sources. Every setup runs for
 * RG_HORIZON:
 *  - with the `fixed` policy at every input limit of a grid (RG_GRID_STEP_A steps,
 *    rounded to the charger's register, up to the charger's maximum and the port's USB
 *    budget); the oracle is the best of them in hindsight that causes no source trip,
 *    no UVLO event and no brownout: the shortest time to 80 % SOC, or where no limit
 *    reaches 80 % (or the cell starts above it) the highest final SOC;
 *  - with each policy under test.
 * A policy's regret on a setup is its time to 80 % over the oracle's, minus one (a run
 * that never reaches 80 % counts the whole horizon, the policy's or, where the policy
 * gets there, the oracle's; a cell that starts at 80 % or more is timed to full, the
 * charger's termination), or where neither gets there within the horizon the SOC
 * shortfall at its end relative to the oracle's SOC gain (at least RG_SOC_FLOOR).
 * Per policy the program prints the median, 90th percentile and maximum regret
 * (linear interpolation between ranks), the setups with a trip, UVLO or brownout, the
 * starved setups (SOC ended below its start where the oracle's did not, the charge
 * never having terminated, or the battery carried the phone - discharged_while_plugged_s
 * - more than RG_STARVE_EXTRA_S longer than under the oracle), and the
 * host, Type-C and PD setups where the input current exceeded the USB budget; then the
 * same against the best fixed limit that also keeps the port out of its current limit
 * (at most RG_IN_LIMIT_S in it: what a policy can reach that does not know whether the
 * adapter survives its limit, which an overload timer decides); then the first table
 * per class. Setups where no fixed limit avoids every trip, UVLO and brownout have no
 * oracle: they are counted and left out (of the second table, those where no limit out
 * of the port's limit does).
 *
 * Every run happens in this process (scenario_load_text, world_new/run/finish, no
 * output files) on a GLib thread pool. The same seed, size and mix give the same
 * table whatever the thread count. Options: --seed, --n, --mix, --policies, --jobs,
 * --csv FILE (one row per setup and policy), --write-scenarios DIR (each setup as a
 * scenario file for `chargesim run`). Run from anywhere; exits non-zero only when a
 * run fails or the options are bad.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <chargesim/policy.h>
#include "models/pmic/pmic.h"
#include "run/scenario.h"
#include "run/world.h"

#define RG_HORIZON         "3 h"
#define RG_HORIZON_S       (3 * 3600.0)
#define RG_SOC_TARGET      0.80    /* "time to 80 %", the figure phone makers quote */
#define RG_GRID_MIN_A      0.10    /* the oracle's grid: 100 mA ... */
#define RG_GRID_STEP_A     0.05    /* ... in 50 mA steps (bq25890's register step) */
#define RG_SOC_FLOOR       0.05    /* a shortfall is relative to at least 5 SOC points */
#define RG_STARVE_SOC      0.005   /* SOC "fell" when it ended 0.5 points below the start */
#define RG_STARVE_EXTRA_S  300.0   /* or the battery carried the phone 5 min longer */
#define RG_BUDGET_TOL_A    0.005   /* above the budget by more than a rounding */
#define RG_IN_LIMIT_S      1.0     /* a fixed limit "keeps the port out of its current
				    * limit" when the port spends at most this in it */
#define RG_DEFAULT_SEED    2       /* held out: safe-ramp was tuned on seed 1 */
#define RG_DEFAULT_N       200
#define RG_MAX_POLICIES    16

enum rg_class {
	RG_HEALTHY, RG_WEAK_FULL, RG_THIN_CABLE, RG_LINEAR, RG_HICCUP_LATCH, RG_HOST, RG_TYPEC,
	RG_PD, RG_NCLASS
};

static const char *const rg_class_names[RG_NCLASS] = {
	"healthy", "weak-full", "thin-cable", "linear", "hiccup-latch", "host", "typec", "pd",
};

/* Class weights of the default mix, and of the "hard" mix (the difficult classes). */
static const double rg_mix_default[RG_NCLASS] = { 25, 10, 15, 12, 12, 10, 8, 8 };
static const double rg_mix_hard[RG_NCLASS] = { 5, 20, 25, 20, 20, 4, 3, 3 };

static const char *const rg_default_policies[] = {
	"safe-ramp", "ec-ramp", "hw-ico", "twl4030", "usb-charger-fw", NULL,
};

struct rg_result {
	bool ok;
	double t80;            /* s, < 0: not reached */
	double t_full;         /* s: first termination, < 0: none */
	double soc_final;
	double starve_s;       /* discharged_while_plugged_s */
	double starve_mah;     /* discharged_while_plugged_mah */
	double limit_s;        /* time the port spent in its current limit */
	double ibus_max;
	int trips, uvlo, brownouts;
};

/* What the CSV says about a setup, beside its scenario. */
struct rg_desc {
	const char *kind, *overload, *pmic;
	double voc, rout, ilim, t_limit_max, r_cable, ichg, cap_ah, soc0, load, load2, load2_at;
};

struct rg_setup {
	int index;
	int cls;
	char *name;
	char *text;            /* the scenario without its closing brace and policy */
	struct rg_desc d;
	double budget;         /* A: the USB budget, 0 = none (a charger) */
	int n_grid;
	double *grid;          /* A, as the register applies them */
	struct rg_result *grid_res;
	struct rg_result *pol_res;
	int oracle;            /* index into grid, -1 = no feasible fixed limit */
	int oracle_out;        /* the same among limits that keep the port out of its
				* current limit */
};

struct rg_job {
	const struct rg_setup *s;
	char *policy_json;
	struct rg_result *out;
};

struct rg_opts {
	int seed, n, jobs;
	char *mix, *policies, *csv, *write_dir;
};

/* ---- the population ---- */

static double U(GRand *r, double lo, double hi)
{
	return lo + (hi - lo) * g_rand_double(r);
}

static bool coin(GRand *r, double p)
{
	return g_rand_double(r) < p;
}

static int pick(GRand *r, const double *w, int n)
{
	double sum = 0, x;

	for (int i = 0; i < n; i++)
		sum += w[i];
	x = g_rand_double(r) * sum;
	for (int i = 0; i < n; i++) {
		if (x < w[i])
			return i;
		x -= w[i];
	}
	return n - 1;
}

static void add_q(cJSON *o, const char *key, double v, const char *unit)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.4g %s", v, unit);
	cJSON_AddStringToObject(o, key, buf);
}

/*
 * One setup of class cls. The numbers are the population: adapters 0.5-3 A
 * with cc, hiccup and latch overload (5 V +- 5 % at no load, 50-300 mohm inside),
 * cables 0.05-0.8 ohm, switching and linear chargers, 1.5-5 Ah cells from 5 to 99 %,
 * system loads 0-1.5 A (a third of them change once during the charge), host ports,
 * Type-C and PD sources.
 */
static void rg_draw(GRand *r, int cls, struct rg_setup *s, cJSON *doc)
{
	static const char *const switching[] = { "bq25890", "bq24190", "generic-switching" };
	static const double w_switching[] = { 40, 30, 30 };
	static const char *const linear[] = { "twl4030", "generic-linear" };
	static const double w_linear[] = { 60, 40 };
	cJSON *src = cJSON_AddObjectToObject(doc, "source");
	cJSON *cab = cJSON_AddObjectToObject(doc, "cable");
	cJSON *dev = cJSON_AddObjectToObject(doc, "device");
	cJSON *pm = cJSON_AddObjectToObject(dev, "pmic");
	cJSON *bat = cJSON_AddObjectToObject(dev, "battery");
	cJSON *load = cJSON_AddObjectToObject(dev, "load");
	struct rg_desc *d = &s->d;
	double p_linear = 0.25, rc_lo = 0.05, rc_hi = 0.3, il_lo = 1.0, il_hi = 3.0;
	double w_ovl[3] = { 40, 40, 20 };   /* cc, hiccup, latch */
	double p_timer = 0.2;               /* hiccup/latch with an overload timer */
	static const char *const ovl_names[] = { "cc", "hiccup", "latch" };

	d->kind = "dcp";
	d->soc0 = U(r, 0.05, 0.70);
	d->cap_ah = U(r, 1.5, 5.0);
	d->load = U(r, 0, 1.5);
	d->load2_at = -1;
	if (coin(r, 1.0 / 3)) {
		d->load2 = U(r, 0, 1.5);
		d->load2_at = U(r, 10 * 60, 90 * 60);
	}
	d->voc = U(r, 4.95, 5.25);
	d->rout = U(r, 0.05, 0.3);
	switch (cls) {
	case RG_HEALTHY:
		il_lo = 1.5;
		rc_hi = 0.25;
		p_linear = 0;
		w_ovl[2] = 0;
		p_timer = 0;
		if (coin(r, 0.3))
			d->kind = (const char *[]){ "apple-2.1a", "apple-2.4a", "samsung-2a" }[g_rand_int_range(r, 0, 3)];
		break;
	case RG_WEAK_FULL:
		il_lo = 0.5;
		il_hi = 1.2;
		rc_hi = 0.4;
		p_linear = 0.6;
		w_ovl[0] = 0;
		w_ovl[1] = 60;
		w_ovl[2] = 40;
		d->soc0 = U(r, 0.90, 0.99);
		d->load = U(r, 0, 0.5);
		if (d->load2_at > 0)
			d->load2 = U(r, 0, 0.5);
		break;
	case RG_THIN_CABLE:
		rc_lo = 0.3;
		rc_hi = 0.8;
		p_linear = 0.3;
		break;
	case RG_LINEAR:
		il_lo = 0.5;
		il_hi = 2.5;
		rc_hi = 0.5;
		p_linear = 1;
		break;
	case RG_HICCUP_LATCH:
		il_lo = 0.5;
		il_hi = 2.5;
		rc_hi = 0.5;
		w_ovl[0] = 0;
		w_ovl[1] = 50;
		w_ovl[2] = 50;
		p_timer = 0.5;
		break;
	case RG_HOST:
		d->kind = (const char *[]){ "sdp", "sdp-usb3", "cdp" }[pick(r, (const double[]){ 40, 30, 30 }, 3)];
		d->voc = U(r, 4.9, 5.15);
		d->rout = U(r, 0.1, 0.25);
		rc_lo = 0.1;
		rc_hi = 0.6;
		break;
	case RG_TYPEC:
		d->kind = "typec";
		rc_hi = 0.4;
		p_linear = 0.1;
		break;
	case RG_PD:
		d->kind = "pd";
		rc_hi = 0.4;
		p_linear = 0;
		break;
	default:
		break;
	}
	d->r_cable = U(r, rc_lo, rc_hi);
	d->ilim = U(r, il_lo, il_hi);
	d->overload = ovl_names[pick(r, w_ovl, 3)];
	d->t_limit_max = strcmp(d->overload, "cc") != 0 && coin(r, p_timer) ? U(r, 0.2, 2.0) : 0;
	d->pmic = coin(r, p_linear) ? linear[pick(r, w_linear, 2)] : switching[pick(r, w_switching, 3)];

	cJSON_AddStringToObject(src, "kind", d->kind);
	add_q(src, "voc", d->voc, "V");
	add_q(src, "rout", d->rout, "ohm");
	s->budget = 0;
	if (cls == RG_HOST) {
		/* The host port's own switch and limit (kind defaults); the budget is what
		 * the host grants the gadget's configuration, or BC1.2's 1.5 A on a CDP. */
		cJSON *g = cJSON_AddObjectToObject(dev, "gadget");
		bool ss = strcmp(d->kind, "sdp-usb3") == 0;

		cJSON_AddItemToObject(g, "configs", cJSON_CreateStringArray((const char *[]){ ss ? "900 mA" : "500 mA" }, 1));
		if (ss)
			cJSON_AddBoolToObject(g, "usb3", true);
		s->budget = strcmp(d->kind, "cdp") == 0 ? 1.5 : ss ? 0.896 : 0.5;
		d->ilim = NAN;
		d->overload = "host";
	} else if (cls == RG_TYPEC) {
		bool hi = coin(r, 0.5);

		cJSON_AddStringToObject(src, "rp", hi ? "3.0A" : "1.5A");
		s->budget = hi ? 3.0 : 1.5;
		d->ilim = s->budget * U(r, 0.7, 1.1);   /* some adapters cannot give what they advertise */
	} else if (cls == RG_PD) {
		static const char *const offers[][2] = {
			{ "5V 3A", "9V 3A" }, { "5V 3A", "9V 2A" }, { "5V 2A", "9V 1.67A" },
		};
		static const double contract[] = { 3.0, 2.0, 1.67 };
		int k = g_rand_int_range(r, 0, 3);

		cJSON_AddItemToObject(src, "pdos", cJSON_CreateStringArray(offers[k], 2));
		s->budget = contract[k];
		d->ilim = s->budget * U(r, 0.8, 1.05);
	}
	if (isfinite(d->ilim))
		add_q(src, "ilim", d->ilim, "A");
	if (cls != RG_HOST)
		cJSON_AddStringToObject(src, "overload", d->overload);
	if (d->t_limit_max > 0)
		add_q(src, "t_limit_max", d->t_limit_max, "s");
	add_q(cab, "r_loop", d->r_cable, "ohm");

	cJSON_AddStringToObject(pm, "preset", d->pmic);
	cJSON_AddStringToObject(pm, "vreg", "4.35 V");
	d->ichg = d->cap_ah * U(r, 0.5, 1.0);      /* 0.5-1 C */
	d->ichg = fmin(fmax(d->ichg, 0.5), strcmp(d->pmic, "twl4030") == 0 ? 1.7 :
				       strcmp(d->pmic, "generic-linear") == 0 ? 1.5 : 3.0);
	add_q(pm, "ichg", d->ichg, "A");
	add_q(bat, "capacity", d->cap_ah * 1000, "mAh");
	add_q(bat, "soc", d->soc0 * 100, "%");
	if (d->load2_at > 0) {
		cJSON *prof = cJSON_AddArrayToObject(load, "profile");
		cJSON *a = cJSON_CreateObject(), *b = cJSON_CreateObject();

		cJSON_AddStringToObject(a, "at", "0 s");
		add_q(a, "current", d->load, "A");
		add_q(b, "at", d->load2_at, "s");
		add_q(b, "current", d->load2, "A");
		cJSON_AddItemToArray(prof, a);
		cJSON_AddItemToArray(prof, b);
	} else {
		add_q(load, "current", d->load, "A");
	}
}

static bool rg_parse_mix(const char *spec, double *w, GError **err)
{
	g_auto(GStrv) items = NULL;

	if (!spec || strcmp(spec, "default") == 0) {
		memcpy(w, rg_mix_default, sizeof(rg_mix_default));
		return true;
	}
	if (strcmp(spec, "hard") == 0) {
		memcpy(w, rg_mix_hard, sizeof(rg_mix_hard));
		return true;
	}
	memset(w, 0, sizeof(double) * RG_NCLASS);
	items = g_strsplit(spec, ",", -1);
	if (!items[0]) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--mix: empty");
		return false;
	}
	for (int i = 0; items[i]; i++) {
		char *eq = strchr(items[i], '=');
		char *end = NULL;
		int c;

		for (c = 0; c < RG_NCLASS; c++)
			if (eq && (size_t)(eq - items[i]) == strlen(rg_class_names[c]) &&
			    strncmp(items[i], rg_class_names[c], (size_t)(eq - items[i])) == 0)
				break;
		if (!eq || c == RG_NCLASS || (w[c] = g_ascii_strtod(eq + 1, &end), *end) || w[c] < 0) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--mix: '%s' is not CLASS=WEIGHT (classes: healthy, weak-full, thin-cable, "
				    "linear, hiccup-latch, host, typec, pd; or 'default', 'hard')", items[i]);
			return false;
		}
	}
	for (int c = 0; c < RG_NCLASS; c++)
		if (w[c] > 0)
			return true;
	g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--mix: every weight is 0");
	return false;
}

/* 0 for the default mix, else a hash of its weights. */
static guint32 rg_mix_key(const double *mix)
{
	guint32 h = 0;

	if (memcmp(mix, rg_mix_default, sizeof(rg_mix_default)) == 0)
		return 0;
	for (int c = 0; c < RG_NCLASS; c++)
		h = h * 1000003u + (guint32)lround(mix[c] * 1000);
	return h ? h : 1;
}

/* The base scenario text of setup i: everything but the policy, closing brace left off. */
static bool rg_make(const struct rg_opts *o, const double *mix, int i, struct rg_setup *s,
		    GError **err)
{
	/* Setup i of a seed is the same whatever --n; another mix draws other setups
	 * (the default mix keeps the plain (seed, i) stream). */
	guint32 seeds[3] = { (guint32)o->seed, (guint32)i, rg_mix_key(mix) };
	g_autoptr(GRand) r = g_rand_new_with_seed_array(seeds, rg_mix_key(mix) ? 3 : 2);
	cJSON *doc = cJSON_CreateObject();
	g_autofree char *full = NULL, *check = NULL;
	g_autoptr(scenario) sc = NULL;
	char *text;
	const struct pmic_params *pmic;
	double cap;

	s->index = i;
	s->cls = pick(r, mix, RG_NCLASS);
	s->name = g_strdup_printf("regret-%d-%03d-%s", o->seed, i, rg_class_names[s->cls]);
	cJSON_AddStringToObject(doc, "name", s->name);
	cJSON_AddNumberToObject(doc, "seed", 1);
	cJSON_AddStringToObject(doc, "duration", RG_HORIZON);
	rg_draw(r, s->cls, s, doc);
	{
		g_autofree char *desc = g_strdup_printf(
			"bench_regret seed %d setup %d (%s): %s %s, %s; %.2f ohm cable; %s; "
			"%.1f Ah cell at %.0f %%; load %.2f A", o->seed, i, rg_class_names[s->cls],
			s->d.kind, s->d.overload, isfinite(s->d.ilim) ? "" : "host limits",
			s->d.r_cable, s->d.pmic, s->d.cap_ah, s->d.soc0 * 100, s->d.load);

		cJSON_AddStringToObject(doc, "description", desc);
	}
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	s->text = g_strndup(text, strlen(text) - 1);
	free(text);

	/* The charger's register range, as the scenario loader resolves the preset. */
	check = g_strdup_printf("%s,\"policy\":\"none\"}", s->text);
	sc = scenario_load_text(s->name, check, strlen(check), NULL, err);
	if (!sc)
		return false;
	pmic = scenario_params(sc, "device.pmic");
	cap = pmic->ladder_n > 0 ? pmic->ladder[pmic->ladder_n - 1] : pmic->iindpm_max;
	if (s->budget > 0)
		cap = fmin(cap, s->budget);
	s->grid = g_new(double, (int)(cap / RG_GRID_STEP_A) + 3);
	for (double a = RG_GRID_MIN_A;; a += RG_GRID_STEP_A) {
		double q = pmic_quantize_iindpm(pmic, fmin(a, cap));

		if (s->n_grid == 0 || q > s->grid[s->n_grid - 1] + 1e-9)
			s->grid[s->n_grid++] = q;
		if (a >= cap - 1e-9)
			break;
	}
	s->grid_res = g_new0(struct rg_result, s->n_grid);
	s->oracle = s->oracle_out = -1;
	return true;
}

/* ---- running ---- */

static void rg_run(gpointer data, gpointer user)
{
	struct rg_job *j = data;
	g_autofree char *text = g_strdup_printf("%s,\"policy\":%s}", j->s->text, j->policy_json);
	g_autoptr(GError) err = NULL;
	g_autoptr(scenario) sc = scenario_load_text(j->s->name, text, strlen(text), NULL, &err);
	struct world_options wo = { .no_trace = true };
	struct world *w = NULL;
	const struct world_metrics *m;

	(void)user;
	if (!sc || !(w = world_new(sc, &wo, &err)) || !world_run(w, &err) || !world_finish(w, &err)) {
		fprintf(stderr, "bench_regret: %s with %s: %s\n", j->s->name, j->policy_json,
			err ? err->message : "failed");
		if (w)
			world_free(w);
		return;
	}
	m = world_metrics(w);
	j->out->ok = true;
	j->out->t80 = world_metric(m, "time_to_soc_80_s");
	j->out->t_full = world_metric(m, "time_to_full_s");
	j->out->soc_final = world_metric(m, "soc_final");
	j->out->starve_s = world_metric(m, "discharged_while_plugged_s");
	j->out->starve_mah = world_metric(m, "discharged_while_plugged_mAh");
	j->out->limit_s = world_metric(m, "time_source_limiting_s");
	j->out->ibus_max = world_metric(m, "ibus_max_A");
	j->out->trips = (int)world_metric(m, "source_trips");
	j->out->uvlo = (int)world_metric(m, "uvlo_events");
	j->out->brownouts = (int)world_metric(m, "brownouts");
	world_free(w);
}

/* ---- scoring ---- */

static bool rg_events(const struct rg_result *r)
{
	return r->trips + r->uvlo + r->brownouts > 0;
}

/*
 * The time a setup is scored on: to 80 % SOC, or for a cell that starts at 80 % or
 * above, to the charger's termination (full); < 0 when not reached.
 */
static double rg_goal(const struct rg_setup *s, const struct rg_result *r)
{
	return s->d.soc0 < RG_SOC_TARGET ? r->t80 : r->t_full;
}

/*
 * The oracle: the best fixed limit in hindsight without a trip, UVLO or brownout; with
 * out_of_limit, the best of those that also keep the port out of its current limit.
 * -1 when there is none.
 */
static int rg_pick_oracle(const struct rg_setup *s, bool out_of_limit)
{
	int best = -1;

	for (int k = 0; k < s->n_grid; k++) {
		const struct rg_result *r = &s->grid_res[k], *b = best >= 0 ? &s->grid_res[best] : NULL;
		bool better;

		if (!r->ok || rg_events(r) || (out_of_limit && r->limit_s > RG_IN_LIMIT_S))
			continue;
		if (!b)
			better = true;
		else if (rg_goal(s, r) >= 0)
			better = rg_goal(s, b) < 0 || rg_goal(s, r) < rg_goal(s, b);
		else
			better = rg_goal(s, b) < 0 && r->soc_final > b->soc_final + 1e-9;
		if (better)
			best = k;
	}
	return best;
}

/* Regret of result p on setup s against grid result `oracle` (>= 0); *timed: in time,
 * else SOC shortfall. A policy that gets to the goal where the oracle does not is timed
 * too, against the whole horizon for the oracle (as a policy that never gets there is
 * timed at the whole horizon): otherwise a charge that terminated at full would be
 * scored on the SOC it relaxed to, against a fixed limit that never let the charger
 * terminate and kept topping the cell up. */
static double rg_regret(const struct rg_setup *s, int oracle, const struct rg_result *p,
			bool *timed)
{
	const struct rg_result *o = &s->grid_res[oracle];
	double to = rg_goal(s, o), tp = rg_goal(s, p);

	*timed = to > 0 || tp > 0;
	if (*timed)
		return (tp >= 0 ? tp : RG_HORIZON_S) / (to > 0 ? to : RG_HORIZON_S) - 1;
	return (o->soc_final - p->soc_final) / fmax(fabs(o->soc_final - s->d.soc0), RG_SOC_FLOOR);
}

static bool rg_starved(const struct rg_setup *s, int oracle, const struct rg_result *p)
{
	const struct rg_result *o = &s->grid_res[oracle];
	double soc0 = s->d.soc0;

	/* A run that reached full and then relaxed to its recharge threshold (a linear
	 * charger has no power path after termination) is not starving, whatever phase
	 * of that cycle the horizon cuts. */
	return (p->soc_final < soc0 - RG_STARVE_SOC && o->soc_final >= soc0 - RG_STARVE_SOC &&
		p->t_full < 0) ||
	       p->starve_s > o->starve_s + RG_STARVE_EXTRA_S;
}

static bool rg_over_budget(const struct rg_setup *s, const struct rg_result *p)
{
	return s->budget > 0 && p->ibus_max > s->budget + RG_BUDGET_TOL_A;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile q of n sorted values, linear between ranks. */
static double quantile(const double *v, int n, double q)
{
	double x = q * (n - 1);
	int i = (int)floor(x);

	if (n == 0)
		return NAN;
	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (x - i) * (v[i + 1] - v[i]);
}

struct rg_stats {
	int n, events, starved, over;
	double med, p90, max;
};

/* Policy pol's figures on the setups of class cls (-1: all), against the oracle or,
 * with out_of_limit, the oracle that keeps the port out of its current limit. */
static struct rg_stats rg_collect(struct rg_setup *set, int n_set, int pol, int cls,
				  bool out_of_limit)
{
	struct rg_stats st = { 0 };
	double *v = g_new(double, n_set + 1);

	for (int i = 0; i < n_set; i++) {
		const struct rg_setup *s = &set[i];
		const struct rg_result *p = &s->pol_res[pol];
		int oracle = out_of_limit ? s->oracle_out : s->oracle;
		bool timed;

		if (oracle < 0 || !p->ok || (cls >= 0 && s->cls != cls))
			continue;
		v[st.n++] = rg_regret(s, oracle, p, &timed);
		st.events += rg_events(p);
		st.starved += rg_starved(s, oracle, p);
		st.over += rg_over_budget(s, p);
	}
	qsort(v, (size_t)st.n, sizeof(v[0]), cmp_double);
	st.med = quantile(v, st.n, 0.5);
	st.p90 = quantile(v, st.n, 0.9);
	st.max = st.n ? v[st.n - 1] : NAN;
	g_free(v);
	return st;
}

static void rg_print_row(const char *name, const struct rg_stats *st, int indent)
{
	printf("%*s%-*s %4d %8.1f %% %7.1f %% %8.1f %% %10d %8d %8d\n", indent, "", 16 - indent, name,
	       st->n, 100 * st->med, 100 * st->p90, 100 * st->max, st->events, st->starved, st->over);
}

static bool rg_write_csv(const char *path, const struct rg_opts *o, struct rg_setup *set,
			 int n_set, char **pols, int n_pol)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "bench_regret: cannot write %s: %s\n", path, g_strerror(errno));
		return false;
	}
	fprintf(f, "seed,setup,class,kind,overload,t_limit_max_s,voc_V,rout_ohm,ilim_A,r_cable_ohm,"
		   "pmic,ichg_A,capacity_Ah,soc0,load_A,load2_A,load2_at_s,budget_A,oracle_ilim_A,"
		   "oracle_goal_s,oracle_soc_final,policy,goal_s,soc_final,regret,regret_in,trips,uvlo,"
		   "brownouts,discharged_while_plugged_s,discharged_while_plugged_mAh,ibus_max_A,"
		   "starved,over_budget,"
		   "out_oracle_ilim_A,out_regret,out_starved\n");
	for (int i = 0; i < n_set; i++) {
		const struct rg_setup *s = &set[i];
		const struct rg_desc *d = &s->d;
		const struct rg_result *or = s->oracle >= 0 ? &s->grid_res[s->oracle] : NULL;

		for (int k = 0; k < n_pol; k++) {
			const struct rg_result *p = &s->pol_res[k];
			bool timed = false;
			double reg = or && p->ok ? rg_regret(s, s->oracle, p, &timed) : NAN;

			fprintf(f, "%d,%d,%s,%s,%s,%.4g,%.4g,%.4g,%.4g,%.4g,%s,%.4g,%.4g,%.4g,%.4g,",
				o->seed, s->index, rg_class_names[s->cls], d->kind, d->overload,
				d->t_limit_max, d->voc, d->rout, d->ilim, d->r_cable, d->pmic, d->ichg,
				d->cap_ah, d->soc0, d->load);
			if (d->load2_at > 0)
				fprintf(f, "%.4g,%.4g,", d->load2, d->load2_at);
			else
				fprintf(f, ",,");
			fprintf(f, "%.4g,", s->budget);
			if (or)
				fprintf(f, "%.4g,%.6g,%.6g,", s->grid[s->oracle], rg_goal(s, or), or->soc_final);
			else
				fprintf(f, ",,,");
			fprintf(f, "%s,%.6g,%.6g,%.6g,%s,%d,%d,%d,%.6g,%.6g,%.6g,%d,%d", pols[k],
				rg_goal(s, p), p->soc_final, reg, !or ? "" : timed ? "time" : "soc",
				p->trips, p->uvlo, p->brownouts, p->starve_s, p->starve_mah, p->ibus_max,
				or ? rg_starved(s, s->oracle, p) : 0, rg_over_budget(s, p));
			if (s->oracle_out >= 0 && p->ok)
				fprintf(f, ",%.4g,%.6g,%d\n", s->grid[s->oracle_out],
					rg_regret(s, s->oracle_out, p, &timed),
					rg_starved(s, s->oracle_out, p));
			else
				fprintf(f, ",,,\n");
		}
	}
	return fclose(f) == 0;
}

static bool rg_write_scenarios(const char *dir, struct rg_setup *set, int n_set)
{
	if (g_mkdir_with_parents(dir, 0755) < 0) {
		fprintf(stderr, "bench_regret: cannot make %s: %s\n", dir, g_strerror(errno));
		return false;
	}
	for (int i = 0; i < n_set; i++) {
		g_autofree char *path = g_strdup_printf("%s/%s.json", dir, set[i].name);
		g_autofree char *text = g_strdup_printf("%s,\"policy\":\"safe-ramp\"}", set[i].text);
		cJSON *doc = cJSON_Parse(text);
		char *pretty = cJSON_Print(doc);
		g_autofree char *out = g_strconcat(pretty, "\n", NULL);
		g_autoptr(GError) err = NULL;

		free(pretty);
		cJSON_Delete(doc);
		if (!g_file_set_contents(path, out, -1, &err)) {
			fprintf(stderr, "bench_regret: %s\n", err->message);
			return false;
		}
	}
	return true;
}

/* "NAME" or "NAME:KEY=VALUE:..." as a scenario's policy object (VALUE as JSON when it
 * parses, else as a string such as "0.1 V"). */
static char *rg_policy_json(const char *spec)
{
	g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
	cJSON *o = cJSON_CreateObject(), *params = NULL;
	char *text, *out;

	cJSON_AddStringToObject(o, "name", parts[0]);
	for (int i = 1; parts[i]; i++) {
		char *eq = strchr(parts[i], '=');
		cJSON *v;

		if (!eq)
			continue;
		*eq = '\0';
		v = cJSON_Parse(eq + 1);
		if (!params)
			params = cJSON_AddObjectToObject(o, "params");
		cJSON_AddItemToObject(params, parts[i], v ? v : cJSON_CreateString(eq + 1));
	}
	text = cJSON_PrintUnformatted(o);
	out = g_strdup(text);
	free(text);
	cJSON_Delete(o);
	return out;
}

int main(int argc, char **argv)
{
	struct rg_opts o = { .seed = RG_DEFAULT_SEED, .n = RG_DEFAULT_N, .jobs = 2 };
	GOptionEntry entries[] = {
		{ "seed", 's', 0, G_OPTION_ARG_INT, &o.seed, "Population seed (default 2; safe-ramp was tuned on 1)", "N" },
		{ "n", 'n', 0, G_OPTION_ARG_INT, &o.n, "Number of setups (default 200)", "N" },
		{ "mix", 'm', 0, G_OPTION_ARG_STRING, &o.mix, "Class weights: 'default', 'hard' or CLASS=W,...", "MIX" },
		{ "policies", 'p', 0, G_OPTION_ARG_STRING, &o.policies, "Comma-separated policies, each NAME or NAME:KEY=VALUE:... (default safe-ramp, ec-ramp, hw-ico, twl4030, usb-charger-fw)", "LIST" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &o.jobs, "Threads (default 2)", "N" },
		{ "csv", 0, 0, G_OPTION_ARG_FILENAME, &o.csv, "Write one row per setup and policy", "FILE" },
		{ "write-scenarios", 0, 0, G_OPTION_ARG_FILENAME, &o.write_dir, "Write every setup as a scenario (policy safe-ramp)", "DIR" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- input-current policies against a hindsight oracle");
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) pols = NULL;
	double mix[RG_NCLASS];
	struct rg_setup *set;
	GPtrArray *jobs;
	GThreadPool *pool;
	int n_pol, infeasible = 0, n_runs = 0;
	gint64 t0 = g_get_monotonic_time();
	int status = 0;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err) || !rg_parse_mix(o.mix, mix, &err)) {
		fprintf(stderr, "bench_regret: %s\n", err->message);
		return 2;
	}
	if (o.n < 1 || o.jobs < 1 || argc > 1) {
		fprintf(stderr, "bench_regret: --n and --jobs must be at least 1, and no arguments are taken\n");
		return 2;
	}
	pols = o.policies ? g_strsplit(o.policies, ",", -1) : g_strdupv((char **)rg_default_policies);
	n_pol = (int)g_strv_length(pols);
	if (n_pol < 1 || n_pol > RG_MAX_POLICIES) {
		fprintf(stderr, "bench_regret: --policies takes 1 to %d names\n", RG_MAX_POLICIES);
		return 2;
	}
	for (int k = 0; k < n_pol; k++) {
		g_autofree char *name = g_strndup(pols[k], strcspn(pols[k], ":"));

		if (!cs_policy_find(name)) {
			fprintf(stderr, "bench_regret: --policies: '%s' is not a built-in policy "
				"(chargesim list policies names them)\n", name);
			return 2;
		}
	}

	set = g_new0(struct rg_setup, o.n);
	for (int i = 0; i < o.n; i++)
		if (!rg_make(&o, mix, i, &set[i], &err)) {
			fprintf(stderr, "bench_regret: setup %d: %s\n", i, err->message);
			return 1;
		}
	if (o.write_dir && !rg_write_scenarios(o.write_dir, set, o.n))
		return 1;

	jobs = g_ptr_array_new();
	for (int i = 0; i < o.n; i++) {
		struct rg_setup *s = &set[i];

		s->pol_res = g_new0(struct rg_result, n_pol);
		for (int k = 0; k < n_pol; k++) {
			struct rg_job *j = g_new0(struct rg_job, 1);

			j->s = s;
			j->policy_json = rg_policy_json(pols[k]);
			j->out = &s->pol_res[k];
			g_ptr_array_add(jobs, j);
		}
		for (int k = 0; k < s->n_grid; k++) {
			struct rg_job *j = g_new0(struct rg_job, 1);

			j->s = s;
			j->policy_json = g_strdup_printf(
				"{\"name\":\"fixed\",\"params\":{\"ilim\":\"%.6f A\",\"fullbatt_vchkdrop\":0}}",
				s->grid[k]);
			j->out = &s->grid_res[k];
			g_ptr_array_add(jobs, j);
		}
	}
	pool = g_thread_pool_new(rg_run, NULL, o.jobs, TRUE, &err);
	if (!pool) {
		fprintf(stderr, "bench_regret: %s\n", err->message);
		return 1;
	}
	for (guint k = 0; k < jobs->len; k++)
		g_thread_pool_push(pool, jobs->pdata[k], NULL);
	g_thread_pool_free(pool, FALSE, TRUE);
	for (guint k = 0; k < jobs->len; k++) {
		struct rg_job *j = jobs->pdata[k];

		if (!j->out->ok)
			status = 1;
		n_runs++;
		g_free(j->policy_json);
		g_free(j);
	}
	g_ptr_array_free(jobs, TRUE);

	for (int i = 0; i < o.n; i++) {
		set[i].oracle = rg_pick_oracle(&set[i], false);
		set[i].oracle_out = rg_pick_oracle(&set[i], true);
		infeasible += set[i].oracle < 0;
	}

	printf("bench_regret: seed %d, %d setups (mix %s), %d runs over %s each, %.1f s wall on %d thread%s\n",
	       o.seed, o.n, o.mix ? o.mix : "default", n_runs, RG_HORIZON,
	       (double)(g_get_monotonic_time() - t0) * 1e-6, o.jobs, o.jobs == 1 ? "" : "s");
	printf("oracle: best fixed input limit in hindsight (%.0f mA grid) with no trip, UVLO or brownout; "
	       "%d setup%s without one left out\n", RG_GRID_STEP_A * 1e3, infeasible, infeasible == 1 ? "" : "s");
	printf("regret: time to 80 %% over the oracle's - 1, or the SOC shortfall where 80 %% is out of reach\n\n");
	printf("%-16s %4s %10s %9s %10s %10s %8s %8s\n", "policy", "n", "median", "p90", "max",
	       "trip/UVLO/BO", "starved", "budget");
	for (int k = 0; k < n_pol; k++) {
		struct rg_stats st = rg_collect(set, o.n, k, -1, false);

		rg_print_row(pols[k], &st, 0);
	}
	printf("\nthe same against the best fixed limit that also keeps the port out of its current limit\n"
	       "(what a policy can reach that does not know whether the port survives its limit)\n");
	for (int k = 0; k < n_pol; k++) {
		struct rg_stats st = rg_collect(set, o.n, k, -1, true);

		rg_print_row(pols[k], &st, 0);
	}
	printf("\nper class (trip/UVLO/BO, starved, over budget: setups)\n");
	for (int c = 0; c < RG_NCLASS; c++) {
		int n = 0;

		for (int i = 0; i < o.n; i++)
			n += set[i].cls == c;
		if (!n)
			continue;
		printf("%s (%d setup%s)\n", rg_class_names[c], n, n == 1 ? "" : "s");
		for (int k = 0; k < n_pol; k++) {
			struct rg_stats st = rg_collect(set, o.n, k, c, false);

			rg_print_row(pols[k], &st, 2);
		}
	}
	if (o.csv && !rg_write_csv(o.csv, &o, set, o.n, pols, n_pol))
		status = 1;
	for (int i = 0; i < o.n; i++) {
		g_free(set[i].name);
		g_free(set[i].text);
		g_free(set[i].grid);
		g_free(set[i].grid_res);
		g_free(set[i].pol_res);
	}
	g_free(set);
	g_free(o.mix);
	g_free(o.policies);
	g_free(o.csv);
	g_free(o.write_dir);
	return status;
}
