// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/load/load.c - constant current / power load with a profile; brownout.
 *
 * Default brownout threshold 3.4 V (assumed: just below the 3.5 V SYS_MIN the bq24190 and
 * bq25890 regulate to; docs/models.md, System load); default draw 250 mA
 * (a phone idling with the screen on, order of magnitude).
 */
#include <string.h>
#include "models/load/load.h"
#include "sim/evlog.h"

void load_profile_set(struct load_params *p, struct load_step *steps, int n)
{
	g_free(p->profile);
	p->profile = steps;
	p->n_profile = n;
}

/* What the profile's parameters own: its steps and the name of its file. */
static void load_release_profile(const struct param_desc *d, void *field)
{
	struct load_params *p = field;

	(void)d;
	load_profile_set(p, NULL, 0);
	g_free(p->profile_file);
	p->profile_file = NULL;
}

/* One step {"at": TIME, "current": A} or {"at": TIME, "power": W} of a JSON profile,
 * after the one before it (NULL for the first). */
static bool load_parse_step(const cJSON *it, const char *ip, const struct load_step *prev,
			    struct load_step *st, GError **err)
{
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(it, "at");
	const cJSON *cur = cJSON_GetObjectItemCaseSensitive(it, "current");
	const cJSON *pow = cJSON_GetObjectItemCaseSensitive(it, "power");
	const cJSON *k;

	if (!cJSON_IsObject(it) || !at || (!cur == !pow))
		return model_error_found(err, ip, it, "expected {\"at\": TIME, \"current\": A} or {\"at\": TIME, \"power\": W}");
	cJSON_ArrayForEach(k, it) {
		if (strcmp(k->string, "at") && strcmp(k->string, "current") &&
		    strcmp(k->string, "power"))
			return model_error(err, "%s.%s: found an unknown key \"%s\", expected at, current or power",
					   ip, k->string, k->string);
	}
	g_autofree char *atp = g_strdup_printf("%s.at", ip);
	g_autofree char *vp = g_strdup_printf("%s.%s", ip, cur ? "current" : "power");
	if (!param_json_time(at, &st->at, atp, err))
		return false;
	st->is_power = pow != NULL;
	if (!param_json_number(cur ? cur : pow, cur ? UNIT_AMP : UNIT_WATT, &st->value, vp, err))
		return false;
	if (st->at < 0 || (prev && st->at < prev->at) || st->value < 0 ||
	    st->value > (st->is_power ? LOAD_POWER_MAX_W : LOAD_CURRENT_MAX_A))
		return model_error(err, "%s: found a step at %g s of %g %s, expected times ascending from 0 and values from 0 to 100 W (power) or 20 A (current)",
				   ip, sim_time_to_s(st->at), st->value,
				   st->is_power ? "W" : "A");
	return true;
}

/* "profile": a JSON list of steps, or the name of a CSV file that the scenario loader
 * reads (run/load_profile.c): the model keeps the name only. */
static bool load_parse_profile(const struct param_desc *d, const cJSON *v, void *field,
			       const char *path, GError **err)
{
	struct load_params *p = field;
	g_autofree struct load_step *steps = NULL;
	const cJSON *it;
	int n = 0;

	load_release_profile(d, p);
	if (cJSON_IsString(v) && *v->valuestring) {
		p->profile_file = g_strdup(v->valuestring);
		return true;
	}
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > LOAD_PROFILE_MAX_STEPS)
		return model_error_found(err, path, v, "expected a list of at most %d {\"at\", \"current\"|\"power\"} steps or the name of a CSV file (time_s, current_A or power_W)",
					 LOAD_PROFILE_MAX_STEPS);
	steps = g_new(struct load_step, MAX(cJSON_GetArraySize(v), 1));
	cJSON_ArrayForEach(it, v) {
		g_autofree char *ip = g_strdup_printf("%s[%d]", path, n);

		if (!load_parse_step(it, ip, n > 0 ? &steps[n - 1] : NULL, &steps[n], err))
			return false;
		n++;
	}
	load_profile_set(p, g_steal_pointer(&steps), n);
	return true;
}

#define OFF(f) offsetof(struct load_params, f)
const struct param_desc load_param_desc[] = {
	{ "current", PARAM_NUM, UNIT_AMP, OFF(current), 0, 20, PARAM_F_RUNTIME,
	  .doc = "constant current drawn at VSYS" },
	{ "power", PARAM_NUM, UNIT_WATT, OFF(power), 0, 100, PARAM_F_RUNTIME | PARAM_F_NULL_ZERO,
	  .doc = "constant power drawn at VSYS (replaces current when set)" },
	{ "vsys_min", PARAM_NUM, UNIT_VOLT, OFF(vsys_min), 0, 5, PARAM_F_RUNTIME,
	  .doc = "brownout below this system voltage" },
	{ "profile", PARAM_CUSTOM, .parse = load_parse_profile, .release = load_release_profile,
	  .doc = "time profile [{\"at\": TIME, \"current\"|\"power\": VALUE}, ...] or a CSV file (time_s, current_A or power_W)" },
	{ "boot", PARAM_CUSTOM, .off = OFF(boot), .parse = boot_parse, .sub = boot_keys_desc,
	  .doc = "boot profile {\"stages\": [{\"name\", \"current\", \"for\"}], \"restart\", \"hold_current\", ...}" },
	PARAM_END,
};
#undef OFF

void load_params_default(struct load_params *p)
{
	*p = (struct load_params){ .current = 0.25, .vsys_min = 3.4 };
	boot_params_default(&p->boot);
}

static void load_step_cb(struct sim_event *ev, void *data)
{
	struct load *l = data;
	struct load_params *p = l->p;

	(void)ev;
	while (l->next_step < p->n_profile && p->profile[l->next_step].at <= sim_now(l->sim)) {
		const struct load_step *st = &p->profile[l->next_step++];

		p->power = st->is_power ? st->value : 0;
		if (!st->is_power)
			p->current = st->value;
	}
	if (l->next_step < p->n_profile)
		sim_at(l->sim, &l->ev_step, p->profile[l->next_step].at);
	MODEL_NOTIFY(l);
}

void load_init(struct load *l, struct load_params *p, struct sim *sim, struct evlog *log,
	       model_changed_fn *changed, void *ctx)
{
	*l = (struct load){ .p = p, .sim = sim, .log = log, .changed = changed, .ctx = ctx };
	sim_event_init(&l->ev_step, load_step_cb, l);
}

void load_cleanup(struct load *l)
{
	sim_cancel(l->sim, &l->ev_step);
}

void load_demand(const struct load *l, double *iload, double *pload)
{
	bool power = !l->override && l->p->power > 0;

	*iload = l->override ? l->override_current : power ? 0 : l->p->current;
	*pload = power ? l->p->power : 0;
}

bool load_observe(struct load *l, double vsys, bool powered)
{
	if (!powered) {
		l->browned_out = false;
		return false;
	}

	if (!l->browned_out && vsys < l->p->vsys_min) {
		l->browned_out = true;
		l->brownouts++;
		model_log_number(l->log, l->sim, "load", "brownout", "vsys_V", vsys);
		return true;
	}
	if (l->browned_out && vsys >= l->p->vsys_min + LOAD_BROWNOUT_HYST_V)
		l->browned_out = false;
	return false;
}

double load_margin(const struct load *l, double vsys, bool powered)
{
	/* g >= 0: a brownout (or, once browned out, the re-arm) is due */
	if (!powered)
		return -1;
	if (!l->browned_out)
		return l->p->vsys_min - vsys;
	return vsys - (l->p->vsys_min + LOAD_BROWNOUT_HYST_V);
}

static void load_defaults(void *params, int preset)
{
	(void)preset;
	load_params_default(params);
}

static void load_model_init(void *state, void *params, const struct model_env *env)
{
	struct load_model *m = state;
	struct load_params *p = params;

	load_init(&m->load, p, env->sim, env->log, env->changed, env->ctx);
	boot_init(&m->boot, &p->boot, env->sim, env->log, env->changed, env->ctx);
}

static void load_model_start(void *state)
{
	struct load_model *m = state;

	if (m->load.p->n_profile > 0)
		sim_at(m->load.sim, &m->load.ev_step, m->load.p->profile[0].at);
	boot_start(&m->boot);
}

static void load_model_cleanup(void *state)
{
	struct load_model *m = state;

	load_cleanup(&m->load);
	boot_cleanup(&m->boot);
}

/* The draw at VSYS; until the system runs, the boot stage owns it. */
static void load_model_net(void *state, const struct net_out *last, struct net_in *in)
{
	struct load_model *m = state;

	(void)last;
	m->load.override = boot_current(&m->boot, &m->load.override_current);
	load_demand(&m->load, &in->iload, &in->pload);
}

static void load_model_margins(const void *state, const struct model_point *pt, double *g)
{
	const struct load_model *m = state;

	g[0] = load_margin(&m->load, pt->op->vsys, m->boot.stage >= 0);
}

/* A brownout resets the boot; the system powers on from the charger's "power good"
 * (its input connected). Without a boot model the system is taken to be running at
 * t = 0, and a VSYS below vsys_min then is where the run starts, not a brownout: an
 * empty cell (3.3 V at 0 %) before the charger's input connects and regulates SYS_MIN
 * has not brought the system up, as a power-on reset holds it; the detector arms once
 * VSYS reaches vsys_min + LOAD_BROWNOUT_HYST_V. With a boot model powering on is an
 * action, and a brownout at once is one. */
static void load_model_observe(void *state, const struct model_point *pt)
{
	struct load_model *m = state;
	bool power_good = model_wire(pt->wires->power_good);

	if (!m->boot.p->enabled && sim_now(m->load.sim) == 0)
		m->load.browned_out = pt->op->vsys < m->load.p->vsys_min;
	else if (load_observe(&m->load, pt->op->vsys, m->boot.stage >= 0))
		boot_brownout(&m->boot);
	if (power_good != m->boot.vbus)
		boot_vbus(&m->boot, power_good);
}

MODEL_STATE_FIELD(load_brownouts, struct load_model, load.brownouts)
MODEL_STATE_FIELD(load_boots, struct load_model, boot.boots)
MODEL_STATE_FIELD(load_t_running, struct load_model, boot.t_running)

static const struct model_metric load_metrics[] = {
	MODEL_METRIC(5, "brownouts", COUNT, 0, AT_END, false, load_brownouts),
	MODEL_METRIC(6, "boots", COUNT, 0, AT_END, false, load_boots),
	MODEL_METRIC(7, "time_to_running_s", TIME, 9, AT_END, false, load_t_running),
};

const struct model_desc model_load = {
	MODEL_PARAMS("device.load", load_param_desc, struct load_params),
	.defaults = load_defaults,
	.state_size = sizeof(struct load_model),
	.init = load_model_init,
	.start = load_model_start,
	.cleanup = load_model_cleanup,
	.net = load_model_net,
	.n_margins = 1,
	.margins = load_model_margins,
	.observe = load_model_observe,
	MODEL_TABLE(metrics, load_metrics),
};
