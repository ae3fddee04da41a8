// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/cable/cable.c - cable resistance and line presence.
 *
 * Copper resistance per conductor [Cirris wire tables]: 28 AWG 0.2129, 26 AWG 0.1339,
 * 24 AWG 0.0842, 22 AWG 0.0530, 20 AWG 0.0333 ohm/m. Contacts: 10 mohm new, 30 mohm
 * worn, 4 in the power loop (VBUS and GND at each end). 1 m of 28 AWG with new
 * contacts: 2*0.2129 + 4*0.010 = 0.466 ohm.
 */
#include <string.h>
#include "models/cable/cable.h"
#include "sim/evlog.h"

static bool cable_parse_data(const struct param_desc *d, const cJSON *v, void *field,
			     const char *path, GError **err)
{
	struct cable_params *p = field;

	(void)d;
	if (cJSON_IsString(v) && (strcmp(v->valuestring, "connected") == 0 ||
				  strcmp(v->valuestring, "floating") == 0)) {
		p->data = strcmp(v->valuestring, "connected") == 0 ? CABLE_DATA_CONNECTED :
								   CABLE_DATA_FLOATING;
		return true;
	}
	if (cJSON_IsObject(v) && cJSON_GetArraySize(v) == 1 &&
	    cJSON_GetObjectItemCaseSensitive(v, "late")) {
		g_autofree char *lp = g_strdup_printf("%s.late", path);

		if (!param_json_time(cJSON_GetObjectItemCaseSensitive(v, "late"), &p->data_late,
				     lp, err))
			return false;
		if (p->data_late < 0)
			return model_error(err, "%s: found a negative delay, expected a time of at least 0 s",
					   lp);
		p->data = CABLE_DATA_LATE;
		return true;
	}
	return model_error_found(err, path, v,
				 "expected \"connected\", \"floating\" or {\"late\": \"300 ms\"}");
}
static bool cable_parse_r_loop(const struct param_desc *d, const cJSON *v, void *field,
			       const char *path, GError **err)
{
	struct cable_params *p = field;
	double r;

	(void)d;
	if (!param_json_number(v, UNIT_OHM, &r, path, err))
		return false;
	if (r < 0 || r > 100)
		return model_error(err, "%s: found %g ohm, expected a resistance of at least 0 and at most 100 ohm",
				   path, r);
	p->r_loop = r;
	p->r_loop_given = true;
	return true;
}

#define OFF(f) offsetof(struct cable_params, f)
const struct param_desc cable_param_desc[] = {
	{ "length", PARAM_NUM, UNIT_METER, OFF(length_m), 0, 100, .doc = "cable length" },
	{ "awg", PARAM_INT, .off = OFF(awg), .min = 20, .max = 28,
	  .doc = "VBUS/GND wire gauge: 20, 22, 24, 26 or 28" },
	{ "contacts", PARAM_INT, .off = OFF(contacts), .min = 0, .max = 16,
	  .doc = "connector contacts in the power loop" },
	{ "r_contact", PARAM_NUM, UNIT_OHM, OFF(r_contact), 0, 10, .doc = "resistance of one contact" },
	{ "r_loop", PARAM_CUSTOM, .parse = cable_parse_r_loop, .flags = PARAM_F_RUNTIME,
	  .doc = "total loop resistance (overrides length/awg/contacts)" },
	{ "data", PARAM_CUSTOM, .parse = cable_parse_data,
	  .doc = "data lines: \"connected\", \"floating\" or {\"late\": TIME}" },
	{ "cc", PARAM_BOOL, .off = OFF(cc), .doc = "CC wire present (Type-C cable)" },
	PARAM_END,
};
#undef OFF

void cable_params_default(struct cable_params *p)
{
	*p = (struct cable_params){ .length_m = 1.0, .awg = 28, .contacts = 4, .r_contact = 0.010,
				    .data = CABLE_DATA_CONNECTED, .cc = true };
}

double cable_ohm_per_m(int awg)
{
	switch (awg) {
	case 20: return 0.0333;
	case 22: return 0.0530;
	case 24: return 0.0842;
	case 26: return 0.1339;
	case 28: return 0.2129;
	}
	return -1;
}

double cable_r_loop(const struct cable_params *p)
{
	return p->r_loop_given ? p->r_loop :
	       2.0 * cable_ohm_per_m(p->awg) * p->length_m + p->contacts * p->r_contact;
}

/* A gauge with a known resistance. */
static bool cable_validate(const void *params, const struct model_lookup *others,
			   const char *path, GError **err)
{
	const struct cable_params *p = params;

	(void)others;
	if (cable_ohm_per_m(p->awg) < 0)
		return model_error(err, "%s.awg: found %d, expected one of 20, 22, 24, 26, 28",
				   path, p->awg);
	return true;
}

static void cable_dropout_end_cb(struct sim_event *ev, void *data)
{
	struct cable *c = data;

	(void)ev;
	c->dropout = false;
	MODEL_NOTIFY(c);
	evlog_emit(c->log, sim_now(c->sim), "cable", "dropout_end", NULL, NULL);
}

void cable_init(struct cable *c, const struct cable_params *p, struct sim *sim,
		struct evlog *log, model_changed_fn *changed, void *ctx)
{
	*c = (struct cable){ .p = p, .sim = sim, .log = log, .changed = changed, .ctx = ctx,
			     .r_loop = cable_r_loop(p) };
	sim_event_init(&c->ev_dropout_end, cable_dropout_end_cb, c);
}

void cable_cleanup(void *cable)
{
	struct cable *c = cable;

	sim_cancel(c->sim, &c->ev_dropout_end);
}

void cable_dropout(struct cable *c, sim_time_t duration)
{
	model_log_number(c->log, c->sim, "cable", "dropout", "for_s", sim_time_to_s(duration));
	c->dropout = true;
	MODEL_NOTIFY(c);
	sim_reschedule(c->sim, &c->ev_dropout_end, sim_now(c->sim) + duration);
}

static void cable_defaults(void *params, int preset)
{
	(void)preset;
	cable_params_default(params);
}

static void cable_model_init(void *state, void *params, const struct model_env *env)
{
	cable_init(state, params, env->sim, env->log, env->changed, env->ctx);
}

static void cable_model_params_changed(void *state, const struct param_desc *changed)
{
	struct cable *c = state;

	(void)changed;
	c->r_loop = cable_r_loop(c->p);
}

/* The loop resistance in series with the port; a dropout opens the circuit the
 * source switched on. */
static void cable_net(void *state, const struct net_out *last, struct net_in *in)
{
	const struct cable *c = state;

	(void)last;
	in->r_cable = c->r_loop;
	if (c->dropout)
		in->src_on = false;
}

const struct model_desc model_cable = {
	MODEL_PARAMS("cable", cable_param_desc, struct cable_params),
	.defaults = cable_defaults,
	.validate = cable_validate,
	.state_size = sizeof(struct cable),
	.init = cable_model_init,
	.cleanup = cable_cleanup,
	.params_changed = cable_model_params_changed,
	.net = cable_net,
};
