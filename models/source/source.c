// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/source/source.c - port kinds, their defaults, and the protection timers.
 *
 * Sources of the defaults (docs/models.md, Charging port): Voc 5.10 V and Rout 0.13 ohm
 * from a measured 2 A adapter (5.134 V at 0 A, 4.868 V at 2 A; unpublished); v_shutdown
 * 2.0 V (BC1.2 VDCP_SHTDWN, chapter 5); t_trip 10 ms, t_off 1 s (hiccup) and the
 * host-port switch at 1.0 A on a 500 mA port with a 10 ms trip and auto-retry are
 * assumptions; port ratings from BC1.2 (SDP 500 mA, CDP 1.5 A, DCP up to
 * 1.5 A drawn), Apple/Samsung divider voltages as published for those chargers
 * (2.0/2.7, 2.7/2.0, 2.7/2.7, 1.2/1.2 V), ACA ID resistances from BC1.2 (RID_C
 * 36.5 kohm), Type-C Rp currents 0.5 (0.9) / 1.5 / 3.0 A and DCP D+/D- short 20 ohm
 * (spec allows up to 200 ohm). Host ports are assumed at 5.0 V behind 0.15 ohm.
 */
#include <math.h>
#include <string.h>
#include "models/source/source.h"
#include "sim/evlog.h"

const char *const source_kind_names[] = {
	"none", "sdp", "sdp-usb3", "cdp", "dcp", "apple-1a", "apple-2.1a", "apple-2.4a",
	"samsung-2a", "aca", "typec", "pd", NULL,
};
G_STATIC_ASSERT(G_N_ELEMENTS(source_kind_names) == SRC_KIND_COUNT + 1);

const char *const source_state_names[] = { "detached", "on", "limiting", "tripped", NULL };
G_STATIC_ASSERT(G_N_ELEMENTS(source_state_names) == SRC_STATE_COUNT + 1);

static const char *const overload_names[] = { "cc", "foldback", "hiccup", "latch", "none", NULL };
static const char *const rp_names[] = { "default", "1.5A", "3.0A", NULL };
/* The USB Type-C specification calls the lowest advertisement "Default USB Power";
 * "3A", "3000 mA" and "DEFAULT" match by themselves (sim/param.c). */
static const char *const rp_aliases[] = { "usb", "default", NULL };
static const char *const port_names[] = { "root", "hub", NULL };

/* "9V 3A", "9 V 3 A", "5V 1.5A": a fixed supply PDO. */
static bool parse_pdo(const char *s, struct source_pdo *pdo, GError **err)
{
	g_auto(GStrv) parts = NULL;
	g_autofree char *norm = g_strdup(s);
	char *vpos;

	/* Split at the boundary after the "V": "9V 3A" -> "9V", "3A". */
	vpos = strchr(norm, 'V');
	if (!vpos)
		return model_error(err, "no voltage in \"%s\"", s);
	vpos[0] = '\0';
	if (!units_parse(g_strstrip(norm), UNIT_VOLT, &pdo->v, err))
		return false;
	if (!units_parse(g_strstrip(vpos + 1), UNIT_AMP, &pdo->i, err))
		return false;
	return true;
}

/* "PPS 3.3-11V 3A", "PPS 3.3-21 V 3 A 45 W": a PPS APDO, with its power limit if
 * given. Ranges [USB PD 3.0, 6.4.1.2.4, Programmable Power Supply APDO]: voltages in
 * 100 mV units up to 21 V, the current in 50 mA units up to 5 A; SPR PPS up to 100 W. */
static bool parse_apdo(const char *s, struct source_apdo *a, GError **err)
{
	g_autoptr(GRegex) re = g_regex_new(
		"^\\s*PPS\\s+([0-9.]+)\\s*V?\\s*-\\s*([0-9.]+\\s*V)\\s+([0-9.]+\\s*m?A)"
		"(?:\\s+([0-9.]+\\s*W))?\\s*$", G_REGEX_CASELESS, 0, NULL);
	g_autoptr(GMatchInfo) m = NULL;
	g_autofree char *vmin = NULL, *vmax = NULL, *i = NULL, *pw = NULL;

	if (!g_regex_match(re, s, 0, &m))
		return model_error(err, "not an APDO \"PPS <min>-<max>V <amps>A [<watts>W]\"");
	vmin = g_match_info_fetch(m, 1);
	vmax = g_match_info_fetch(m, 2);
	i = g_match_info_fetch(m, 3);
	pw = g_match_info_fetch(m, 4);
	a->p = 0;
	if (!units_parse(vmin, UNIT_VOLT, &a->vmin, err) ||
	    !units_parse(vmax, UNIT_VOLT, &a->vmax, err) || !units_parse(i, UNIT_AMP, &a->i, err) ||
	    (pw && *pw && !units_parse(pw, UNIT_WATT, &a->p, err)))
		return false;
	if (a->vmin < 3 || a->vmax > 21 || a->vmin >= a->vmax || a->i < 0.05 || a->i > 5 ||
	    a->p < 0 || a->p > 100)
		return model_error(err, "an APDO covers 3-21 V (min below max), 50 mA to 5 A, at most 100 W");
	return true;
}

static bool is_apdo(const char *s)
{
	while (g_ascii_isspace(*s))
		s++;
	return g_ascii_strncasecmp(s, "PPS", 3) == 0;
}

/* A PPS APDO in the list: after the fixed PDOs (a source lists them first [USB PD
 * 3.0, 6.4.1]). */
static bool source_parse_apdo_item(const cJSON *it, const char *path, int n,
				   struct source_params *p, GError **err)
{
	g_autoptr(GError) e = NULL;

	if (n == 0 || !parse_apdo(it->valuestring, &p->apdos[p->n_apdos], &e)) {
		g_autofree char *found = param_describe_json(it);

		return model_error(err, "%s[%d]: found %s, expected a PPS APDO such as \"PPS 3.3-11V 3A\" after the fixed PDOs (the first is \"5V ...\")%s%s",
				   path, n, found, e ? ": " : "", e ? e->message : "");
	}
	p->n_apdos++;
	return true;
}

static bool source_parse_pdos(const struct param_desc *d, const cJSON *v, void *field,
			      const char *path, GError **err)
{
	struct source_params *p = field;
	const cJSON *it;
	int n = 0, idx = 0;

	(void)d;
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 ||
	    cJSON_GetArraySize(v) > SOURCE_MAX_PDOS)
		return model_error_found(err, path, v, "expected a list of 1 to %d PDOs such as [\"5V 3A\", \"9V 3A\"]",
					 SOURCE_MAX_PDOS);
	p->n_apdos = 0;
	cJSON_ArrayForEach(it, v) {
		g_autoptr(GError) e = NULL;
		struct source_pdo pdo;

		if (cJSON_IsString(it) && is_apdo(it->valuestring)) {
			if (!source_parse_apdo_item(it, path, idx++, p, err))
				return false;
			continue;
		}
		if (!cJSON_IsString(it) || p->n_apdos > 0 || !parse_pdo(it->valuestring, &pdo, &e) ||
		    pdo.v < 3 || pdo.v > 21 || pdo.i < 1e-3 || pdo.i > 5 ||
		    (n == 0 && fabs(pdo.v - 5.0) > 1e-9) || (n > 0 && pdo.v <= p->pdos[n - 1].v)) {
			g_autofree char *found = param_describe_json(it);

			return model_error(err, "%s[%d]: found %s, expected a PDO such as \"9V 3A\" (3-21 V, 1 mA to 5 A; the first is 5 V, voltages ascending, PPS APDOs last)%s%s",
					   path, idx, found, e ? ": " : "", e ? e->message : "");
		}
		p->pdos[n++] = pdo;
		idx++;
	}
	p->n_pdos = n;
	return true;
}

#define OFF(f) offsetof(struct source_params, f)
const struct param_desc source_param_desc[] = {
	{ "kind", PARAM_ENUM, .off = OFF(kind), .choices = source_kind_names,
	  .doc = "port kind; the other values default from it" },
	{ "voc", PARAM_NUM, UNIT_VOLT, OFF(voc), 0, 25, PARAM_F_RUNTIME, .doc = "open-circuit voltage" },
	{ "rout", PARAM_NUM, UNIT_OHM, OFF(rout), 0, 100, PARAM_F_RUNTIME, .doc = "output resistance" },
	/* A port gives at least 1 mA; a hiccup lasts at least 1 ms. */
	{ "ilim", PARAM_NUM, UNIT_AMP, OFF(ilim), 1e-3, 20, PARAM_F_RUNTIME,
	  .doc = "current limit (what the port really gives)" },
	{ "ishort", PARAM_NUM, UNIT_AMP, OFF(ishort), 0, 20, PARAM_F_RUNTIME,
	  .doc = "foldback: current into a short circuit" },
	{ "overload", PARAM_ENUM, .off = OFF(overload), .choices = overload_names,
	  .flags = PARAM_F_RUNTIME,
	  .doc = "cc (hold the limit), foldback, hiccup (trip, retry after t_off), latch, none (no limit)" },
	{ "v_shutdown", PARAM_NUM, UNIT_VOLT, OFF(v_shutdown), 0, 25, PARAM_F_RUNTIME,
	  .doc = "trip when the output stays below this for t_trip" },
	{ "t_trip", PARAM_TIME, .off = OFF(t_trip), .min = 0, .max = 3600, .flags = PARAM_F_RUNTIME,
	  .doc = "time below v_shutdown before a trip" },
	{ "t_limit_max", PARAM_TIME, .off = OFF(t_limit_max), .min = 0, .max = 86400,
	  .flags = PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "overload timer: trip after this long in current limit (none = never)" },
	{ "t_off", PARAM_TIME, .off = OFF(t_off), .min = 1e-3, .max = 3600,
	  .flags = PARAM_F_RUNTIME,
	  .doc = "hiccup off time before a restart" },
	{ "t_recover", PARAM_TIME, .off = OFF(t_recover), .min = 0, .max = 86400,
	  .flags = PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "latch: recover after this long (none = only on unplug)" },
	{ "ocp", PARAM_NUM, UNIT_AMP, OFF(ocp), 0, 20, PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "host-port power switch overcurrent threshold (none = no switch)" },
	{ "t_ocp", PARAM_TIME, .off = OFF(t_ocp), .min = 0, .max = 60, .flags = PARAM_F_RUNTIME,
	  .doc = "time above ocp before the switch trips" },
	{ "dcp_short", PARAM_NUM, UNIT_OHM, OFF(dcp_short_ohm), 0, 1e6,
	  .doc = "DCP: resistance between D+ and D-" },
	{ "dp_v", PARAM_NUM, UNIT_VOLT, OFF(dp_v), 0, 5, PARAM_F_NULL_ZERO,
	  .doc = "divider voltage on D+ (proprietary chargers)" },
	{ "dm_v", PARAM_NUM, UNIT_VOLT, OFF(dm_v), 0, 5, PARAM_F_NULL_ZERO,
	  .doc = "divider voltage on D- (proprietary chargers)" },
	{ "rid", PARAM_NUM, UNIT_OHM, OFF(rid_ohm), 0, 1e7, .doc = "ACA: ID pin resistance" },
	{ "rp", PARAM_ENUM, .off = OFF(rp), .choices = rp_names, .aliases = rp_aliases, .flags = PARAM_F_RUNTIME,
	  .doc = "Type-C Rp advertisement: default, 1.5A, 3.0A" },
	{ "pdos", PARAM_CUSTOM, .parse = source_parse_pdos,
	  .doc = "PD fixed supply PDOs, then any PPS APDOs, e.g. [\"5V 3A\", \"9V 2A\", \"PPS 3.3-11V 3A\"]" },
	{ "port", PARAM_ENUM, .off = OFF(port), .choices = port_names,
	  .doc = "host port budget: root (500 mA, 900 mA USB 3) or hub (bus-powered, 100 mA)" },
	{ "usb3", PARAM_BOOL, .off = OFF(usb3), .doc = "SuperSpeed host port" },
	{ "t_enumerate", PARAM_TIME, .off = OFF(t_enumerate), .min = 0, .max = 60,
	  .doc = "host enumerates the device this long after data contact" },
	{ "contract_limit", PARAM_BOOL, .off = OFF(contract_limit), .flags = PARAM_F_RUNTIME,
	  .doc = "PD: the output is limited to the contract's current (false: to ilim only, an adapter whose protection sits above its PDOs)" },
	/* A phone charger's rating is in watts as often as in amperes; 500 W is above
	 * any USB PD EPR contract (48 V 5 A = 240 W). */
	{ "pmax", PARAM_NUM, UNIT_WATT, OFF(pmax), 0, 500, PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "power limit at the port: above pmax/V the current folds so that V*I <= pmax (none = no power limit)" },
	/* Datasheets give a current limit as a typical value with a +-% band (or a
	 * min-max range); 50 % is far wider than any. */
	{ "ilim_tolerance", PARAM_NUM, UNIT_FRACTION, OFF(ilim_tolerance), 0, 0.5,
	  .doc = "the actual current limit is drawn once per run, uniformly within ilim +-this, from the scenario's seed" },
	{ "ilim_drift", PARAM_NUM, UNIT_FRACTION, OFF(ilim_drift), -0.5, 0.5,
	  .doc = "the current limit moves toward ilim*(1 + this) as the adapter warms while it delivers, and back while idle (negative: it falls)" },
	/* A PPS request carries the voltage in 20 mV and the current in 50 mA units [USB
	 * PD 3.0, 6.4.2, Programmable Request Data Object]. */
	{ "pps_v", PARAM_NUM, UNIT_VOLT, OFF(pps_v), 3, 21, PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "PD: the sink's PPS request, the output voltage (rounded to 20 mV) within a PPS APDO of pdos; in force once a PD contract is made (none = no PPS)" },
	{ "pps_i", PARAM_NUM, UNIT_AMP, OFF(pps_i), 0.05, 5, PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "PD: the PPS request's operating current (rounded to 50 mA), where the source holds its current (none = the APDO's)" },
	{ "drift_tau", PARAM_TIME, .off = OFF(drift_tau), .min = 1, .max = 86400,
	  .doc = "time constant of the adapter's warming (while it delivers) and cooling (while idle)" },
	PARAM_END,
};
#undef OFF

void source_params_default(void *params, int kind)
{
	/* proprietary chargers: current, D+ and D- divider voltages */
	static const struct { double ilim, dp_v, dm_v; } divider[SRC_KIND_COUNT] = {
		[SRC_KIND_APPLE_1A] = { 1.0, 2.0, 2.7 }, [SRC_KIND_APPLE_2_1A] = { 2.1, 2.7, 2.0 },
		[SRC_KIND_APPLE_2_4A] = { 2.4, 2.7, 2.7 }, [SRC_KIND_SAMSUNG_2A] = { 2.0, 1.2, 1.2 },
	};
	struct source_params *p = params;

	*p = (struct source_params){
		.kind = kind, .voc = 5.10, .rout = 0.13, .ilim = 2.0, .overload = SRC_OVL_HICCUP,
		.v_shutdown = 2.0, .t_trip = 10 * SIM_MS, .t_off = 1 * SIM_S, .t_ocp = 10 * SIM_MS,
		.t_enumerate = 100 * SIM_MS, .port = SRC_PORT_ROOT, .contract_limit = true,
		.drift_tau = 20 * 60 * SIM_S,
	};

	switch (kind) {
	case SRC_KIND_NONE:
		break;
	case SRC_KIND_SDP:
	case SRC_KIND_SDP_USB3:
	case SRC_KIND_CDP:
		p->voc = 5.0;
		p->rout = 0.15;
		p->data = true;
		p->usb3 = kind == SRC_KIND_SDP_USB3;
		p->cdp = kind == SRC_KIND_CDP;
		/* The switch limits a little above its trip threshold. */
		p->ocp = kind == SRC_KIND_SDP ? 1.0 : kind == SRC_KIND_SDP_USB3 ? 1.5 : 2.0;
		p->ilim = p->ocp * 1.2;
		break;
	case SRC_KIND_DCP:
		p->dcp_short_ohm = 20;
		break;
	case SRC_KIND_APPLE_1A:
	case SRC_KIND_APPLE_2_1A:
	case SRC_KIND_APPLE_2_4A:
	case SRC_KIND_SAMSUNG_2A:
		p->ilim = divider[kind].ilim;
		p->dp_v = divider[kind].dp_v;
		p->dm_v = divider[kind].dm_v;
		break;
	case SRC_KIND_ACA:
		p->ilim = 1.5;
		p->rid_ohm = 36500;
		break;
	case SRC_KIND_TYPEC:
	case SRC_KIND_PD:
		/* Type-C chargers short D+/D- like a DCP for legacy sinks. */
		p->dcp_short_ohm = 20;
		p->typec = true;
		p->rp = kind == SRC_KIND_PD ? SRC_RP_3A0 : SRC_RP_DEFAULT;
		p->ilim = kind == SRC_KIND_PD ? 3.0 : 0.5;
		if (kind == SRC_KIND_PD) {
			p->n_pdos = 2;
			p->pdos[0] = (struct source_pdo){ 5.0, 3.0 };
			p->pdos[1] = (struct source_pdo){ 9.0, 3.0 };
		}
		break;
	}
}

double source_rated_current(const struct source_params *p)
{
	switch (p->kind) {
	case SRC_KIND_SDP: return p->port == SRC_PORT_HUB ? 0.1 : 0.5;
	case SRC_KIND_SDP_USB3: return p->port == SRC_PORT_HUB ? 0.15 : 0.9;
	case SRC_KIND_CDP: return 1.5;
	case SRC_KIND_DCP: return 1.5;
	case SRC_KIND_TYPEC:
		return p->rp == SRC_RP_3A0 ? 3.0 : p->rp == SRC_RP_1A5 ? 1.5 : p->usb3 ? 0.9 : 0.5;
	case SRC_KIND_NONE: return 0;
	default: return p->ilim;
	}
}

static void source_recover_cb(struct sim_event *ev, void *data)
{
	struct source *s = data;

	(void)ev;
	s->tripped = false;
	/* A PD source restarts at its default 5 V after a trip. */
	s->v_contract = 0;
	s->i_contract = 0;
	evlog_emit(s->log, sim_now(s->sim), "source", "source_recover", NULL, NULL);
	MODEL_NOTIFY(s);
}

/* Stop the protection timers; the next observation re-arms them. */
static void source_disarm(struct source *s)
{
	model_timer(s->sim, &s->cond_uv, false, &s->ev_uv, 0);
	model_timer(s->sim, &s->cond_limit, false, &s->ev_limit, 0);
	model_timer(s->sim, &s->cond_oc, false, &s->ev_oc, 0);
}

/* Turn the output off. A host-port switch (ocp) always auto-retries after t_off; an
 * adapter in hiccup restarts after t_off; a latched adapter stays off until unplug
 * or, when t_recover is set, until t_recover has passed. */
static void source_trip(struct source *s, const char *reason, bool by_switch)
{
	struct source_params *p = s->p;
	cJSON *rec;

	s->tripped = true;
	s->trips++;
	source_disarm(s);
	rec = evlog_begin(s->log, sim_now(s->sim), "source", "source_trip");
	evlog_put_string(rec, "reason", reason);
	evlog_put_string(rec, "mode", by_switch ? "switch" : overload_names[p->overload]);
	evlog_end(s->log, rec);
	if (by_switch || p->overload != SRC_OVL_LATCH)
		sim_after(s->sim, &s->ev_recover, p->t_off);
	else if (p->t_recover > 0)
		sim_after(s->sim, &s->ev_recover, p->t_recover);
	MODEL_NOTIFY(s);
}

/* ev_uv, ev_limit or ev_oc (the host switch's) fired */
static void source_trip_cb(struct sim_event *ev, void *data)
{
	struct source *s = data;

	source_trip(s, ev == &s->ev_uv ? "undervoltage" : ev == &s->ev_limit ? "overload_timer" :
		    "overcurrent", ev == &s->ev_oc);
}

static void source_drift_cb(struct sim_event *ev, void *data);

void source_init(struct source *s, struct source_params *p, struct sim *sim,
		 struct evlog *log, model_changed_fn *changed, void *ctx)
{
	*s = (struct source){ .p = p, .sim = sim, .log = log, .changed = changed, .ctx = ctx,
			     .host = { .config_ma = -1 } };
	sim_event_init(&s->ev_uv, source_trip_cb, s);
	sim_event_init(&s->ev_limit, source_trip_cb, s);
	sim_event_init(&s->ev_oc, source_trip_cb, s);
	sim_event_init(&s->ev_recover, source_recover_cb, s);
	sim_event_init(&s->ev_drift, source_drift_cb, s);
}

void source_cleanup(void *source)
{
	struct source *s = source;

	source_disarm(s);
	sim_cancel(s->sim, &s->ev_recover);
}

void source_attach(struct source *s, bool attached)
{
	if (s->p->kind == SRC_KIND_NONE)
		attached = false;
	if (attached == s->attached)
		return;
	s->attached = attached;
	if (attached) {
		s->t_attached = sim_now(s->sim);
	} else {
		/* Unplugging resets every protection state, latch included. */
		source_cleanup(s);
		s->tripped = false;
		s->v_contract = 0;
		s->i_contract = 0;
	}
	MODEL_NOTIFY(s);
}

static bool source_output_on(const struct source *s)
{
	return s->attached && !s->tripped;
}

/* The APDO covering a PPS request of v volts (20 mV units), or NULL. */
static const struct source_apdo *source_apdo_for(const struct source_params *p, double v)
{
	for (int k = 0; k < p->n_apdos; k++)
		if (v >= p->apdos[k].vmin - 1e-9 && v <= p->apdos[k].vmax + 1e-9)
			return &p->apdos[k];
	return NULL;
}

/* The request's voltage and current as the sink sends them: in 20 mV and 50 mA units. */
static double pps_request_v(const struct source_params *p)
{
	return round(p->pps_v / 0.02) * 0.02;
}

/* A PPS contract in force: a PD contract made and a PPS request within an APDO. Sets
 * *v and *i to the regulated voltage and the operating current. */
static const struct source_apdo *source_pps_contract(const struct source *s, double *v,
						     double *i)
{
	const struct source_apdo *a;

	*v = pps_request_v(s->p);
	a = source_apdo_for(s->p, *v);
	if (!a)
		return NULL;
	*i = s->p->pps_i > 0 ? fmin(fmax(1.0, round(s->p->pps_i / 0.05)) * 0.05, a->i) : a->i;
	return a;
}

/* source_pps_contract(), and NULL at once without a PD contract or a PPS request (most
 * ports: the circuit, the trace and the margins ask at every step). */
static inline const struct source_apdo *source_pps(const struct source *s, double *v, double *i)
{
	if (s->i_contract <= 0 || s->p->pps_v <= 0)
		return NULL;
	return source_pps_contract(s, v, i);
}

/* The open-circuit voltage under the PPS contract pps (NULL: none) at v_pps volts. */
static double source_voc_with(const struct source *s, const struct source_apdo *pps,
			      double v_pps)
{
	/* A PD contract moves the output to the PDO voltage (or a PPS request's),
	 * keeping the adapter's offset above the nominal level. */
	if (pps)
		return s->p->voc + (v_pps - 5.0);
	if (s->v_contract > 0)
		return s->p->voc + (s->v_contract - 5.0);
	return s->p->voc;
}

/* A PPS request came into force (or changed): the voltage and operating current. */
static void source_log_pps(struct source *s)
{
	double v, i;
	cJSON *rec;

	if (!source_pps(s, &v, &i))
		return;
	rec = evlog_begin(s->log, sim_now(s->sim), "source", "pps_request");
	evlog_put_number(rec, "V", v);
	evlog_put_number(rec, "A", i);
	evlog_end(s->log, rec);
}

void source_set_contract(struct source *s, double v, double i)
{
	s->v_contract = v;
	s->i_contract = i;
	source_log_pps(s);
	MODEL_NOTIFY(s);
}

/* The adapter's own limit now: ilim as this unit was built (its tolerance draw) and
 * as warm as it is (its drift). Exactly ilim when neither is set. */
static double source_adapter_ilim(const struct source *s)
{
	double ilim = s->p->ilim;

	if (s->p->ilim_tolerance > 0)
		ilim *= s->tol_factor;
	if (s->p->ilim_drift != 0)
		ilim *= 1.0 + s->p->ilim_drift * s->warm;
	return ilim;
}

/* The current limit in force under the PPS contract pps (NULL: none) at i_pps amperes:
 * ilim, or a PD contract's current. */
static double source_ilim_with(const struct source *s, const struct source_apdo *pps,
			       double i_pps)
{
	/* A PD source limits to its contract (unless told its protection sits above
	 * it); the model keeps the adapter's own ilim when that is lower. */
	double ilim = source_adapter_ilim(s);

	/* PPS: current-limit mode at the operating current, whatever contract_limit */
	if (pps)
		return fmin(i_pps, ilim);
	if (s->i_contract > 0 && s->p->contract_limit && s->i_contract < ilim)
		return s->i_contract;
	return ilim;
}

/* ---- the adapter warming up: the drift of its current limit ----
 *
 * The warm fraction w (0 cold, 1 warm) follows a first-order lag with time constant
 * drift_tau toward 1 while the port delivers and toward 0 while it is idle (nothing
 * drawn, off or unplugged): over a tick, toward the fraction of the tick it
 * delivered. The limit is ilim * (1 + ilim_drift * w). The lag is advanced exactly,
 * w <- target + (w - target) * exp(-dt / tau), once per tick of
 * drift_tau / SOURCE_DRIFT_TICKS: the limit is a staircase of those ticks, which at
 * a drift of 10 % moves by at most 0.16 % of ilim per tick. Delivering from a cold
 * start, w(tau) = 1 - 1/e. Any delivered current warms it alike: the model follows
 * the adapter's state (loaded or idle), not its losses. */
#define SOURCE_DRIFT_TICKS 64
/* A port delivers above this (A): far below any load, far above rounding. */
#define SOURCE_DELIVER_EPS_A 1e-3

static sim_time_t source_drift_tick(const struct source *s)
{
	sim_time_t dt = s->p->drift_tau / SOURCE_DRIFT_TICKS;

	return dt > 0 ? dt : 1;
}

static void source_drift_cb(struct sim_event *ev, void *data)
{
	struct source *s = data;
	sim_time_t tick = source_drift_tick(s);
	double dt = sim_time_to_s(tick);
	double target = fmin(1.0, fmax(0.0, s->drift_on_s / dt));
	double w0 = s->warm;

	(void)ev;
	s->warm = target + (w0 - target) * exp(-dt / sim_time_to_s(s->p->drift_tau));
	s->drift_on_s = 0;
	sim_after(s->sim, &s->ev_drift, tick);
	if (s->warm != w0)
		MODEL_NOTIFY(s);
}

/* ---- the budget ---- */

#define SOURCE_SUSPEND_A   0.0025   /* USB 2.0 7.2.3: a suspended device's draw */
#define SOURCE_BC12_A      1.5      /* BC1.2 ICDP: what a charging downstream port gives */
/* How long a device has to follow a drop of its allowance: into suspend current
 * within 10 ms of the bus going idle [USB 2.0 7.1.7.6]; a lower Rp within tSinkAdj,
 * 60 ms at most [Type-C]. */
#define SOURCE_SUSPEND_RESPONSE (10 * SIM_MS)
#define SOURCE_RP_RESPONSE      (60 * SIM_MS)
/* A draw counts as above the allowance past this: far above the solver's rounding
 * of a current held at its limit, far below the smallest allowance (2.5 mA). */
#define SOURCE_OVER_EPS_A 1e-6

/* Which rule gives each kind's allowance (models/source/source.h, Budget). */
enum budget_rule { BUDGET_NONE, BUDGET_HOST, BUDGET_BC12, BUDGET_RP, BUDGET_CONTRACT,
		   BUDGET_UNLIMITED };
static const enum budget_rule budget_rules[SRC_KIND_COUNT] = {
	[SRC_KIND_NONE] = BUDGET_NONE, [SRC_KIND_SDP] = BUDGET_HOST,
	[SRC_KIND_SDP_USB3] = BUDGET_HOST, [SRC_KIND_CDP] = BUDGET_BC12,
	[SRC_KIND_DCP] = BUDGET_UNLIMITED, [SRC_KIND_APPLE_1A] = BUDGET_UNLIMITED,
	[SRC_KIND_APPLE_2_1A] = BUDGET_UNLIMITED, [SRC_KIND_APPLE_2_4A] = BUDGET_UNLIMITED,
	[SRC_KIND_SAMSUNG_2A] = BUDGET_UNLIMITED, [SRC_KIND_ACA] = BUDGET_UNLIMITED,
	[SRC_KIND_TYPEC] = BUDGET_RP, [SRC_KIND_PD] = BUDGET_CONTRACT,
};

/* A USB host port: suspended, configured, or one unit load. */
static double host_budget(const struct source *s)
{
	if (s->host.suspended)
		return SOURCE_SUSPEND_A;
	if (s->host.config_ma >= 0)
		return s->host.config_ma / 1000.0;
	return s->host.superspeed ? 0.15 : 0.1;
}

/* A Type-C port's Rp advertisement; Default Rp is USB's own power (a host's rules,
 * BC1.2 where the port signals a charger on D+/D-, else 500 / 900 mA). */
static double rp_budget(const struct source *s)
{
	const struct source_params *p = s->p;

	if (p->rp == SRC_RP_3A0)
		return 3.0;
	if (p->rp == SRC_RP_1A5)
		return 1.5;
	if (p->data)
		return host_budget(s);
	if (p->dcp_short_ohm > 0 || p->dp_v > 0 || p->dm_v > 0)
		return INFINITY;
	return p->usb3 ? 0.9 : 0.5;
}

/* PD: the contract's current (a PPS request's operating current), or the Rp
 * advertisement before a contract. */
static double source_contract_budget(const struct source *s)
{
	double v, i;

	if (source_pps(s, &v, &i))
		return i;
	return s->i_contract > 0 ? s->i_contract : rp_budget(s);
}

double source_budget(const struct source *s)
{
	if (!s->attached)
		return 0;
	switch (budget_rules[s->p->kind]) {
	case BUDGET_HOST: return host_budget(s);
	case BUDGET_BC12: return SOURCE_BC12_A;
	case BUDGET_RP: return rp_budget(s);
	case BUDGET_CONTRACT: return source_contract_budget(s);
	case BUDGET_UNLIMITED: return INFINITY;
	default: return 0;
	}
}

double source_nominal_v(const struct source *s)
{
	double v, i;

	if (source_pps(s, &v, &i))
		return v;
	return s->v_contract > 0 ? s->v_contract : 5.0;
}

/* The VBUS floor: 95 % of the negotiated voltage (4.75 V at 5 V: exact, as 475 / 100). */
static double source_vbus_floor(const struct source *s)
{
	return source_nominal_v(s) * 95 / 100;
}

/* The allowance was `before` until now: a drop leaves the device `response` to follow. */
static void source_budget_moved(struct source *s, double before, sim_time_t response)
{
	sim_time_t now = sim_now(s->sim);

	if (source_budget(s) >= before || response <= 0)
		return;
	if (now < s->grace_until)
		before = fmax(before, s->budget_before);
	s->budget_before = before;
	s->grace_until = now + response;
}

void source_set_host(struct source *s, const struct source_host *h)
{
	double before = source_budget(s);
	bool suspends = h->suspended && !s->host.suspended;

	s->host = *h;
	source_budget_moved(s, before, suspends ? SOURCE_SUSPEND_RESPONSE : 0);
}

/* The time and charge above `level` of a current going linearly from a to b in dt. */
static void over_segment(struct source *s, double a, double b, double level, double dt)
{
	double t = model_time_below(-a, -b, -level, dt);

	s->over_s += t;
	if (a > level && b > level)
		s->over_c += dt * (0.5 * (a + b) - level);
	else if (t > 0)
		s->over_c += 0.5 * t * (fmax(a, b) - level);
}

/* The draw above the allowance over a step of dt from IBUS a to b (the allowance
 * before a drop while the device has time to follow it). */
static void source_integrate_budget(struct source *s, double a, double b, double dt)
{
	double budget = source_budget(s);
	sim_time_t t0 = sim_now(s->sim);

	if (t0 < s->grace_until && dt > 0) {
		double tg = fmin(dt, sim_time_to_s(s->grace_until - t0));
		double m = a + (b - a) * tg / dt;

		over_segment(s, a, m, fmax(budget, s->budget_before) + SOURCE_OVER_EPS_A, tg);
		a = m;
		dt -= tg;
	}
	if (dt > 0 && isfinite(budget))
		over_segment(s, a, b, budget + SOURCE_OVER_EPS_A, dt);
}

/* Every step: VBUS under its floor, the draw above the allowance. A kind with no USB
 * allowance (a dedicated charger, budget_rules[]; a run never changes the kind) has an
 * infinite one while plugged in and draws nothing unplugged (the circuit's IBUS is 0
 * with the port off): it is never over. */
static void source_integrate(void *state, const struct model_point *p0,
			     const struct model_point *p1, double dt, bool hold)
{
	struct source *s = state;
	double a = hold ? p1->op->ibus : p0->op->ibus, b = p1->op->ibus;

	/* VBUS as the phone sees it while the port is on, a cable's dropout included */
	if (source_output_on(s))
		s->below_s += model_time_below(p0->op->vbus, p1->op->vbus, source_vbus_floor(s), dt);
	if (budget_rules[s->p->kind] != BUDGET_UNLIMITED)
		source_integrate_budget(s, a, b, dt);
	/* the time the port delivered, which warms it (source_drift_cb()) */
	if (s->p->ilim_drift != 0 && source_output_on(s) && 0.5 * (a + b) > SOURCE_DELIVER_EPS_A)
		s->drift_on_s += dt;
}

void source_watch_rp(struct source *s, void (*rp_changed)(void *ctx), void *ctx)
{
	s->rp_changed = rp_changed;
	s->rp_ctx = ctx;
}

/* A PPS request names a voltage some APDO of a PD source covers, and a current it
 * gives. */
static bool source_validate_pps(const struct source_params *p, const char *path, GError **err)
{
	const struct source_apdo *a;

	if (p->pps_i > 0 && p->pps_v <= 0)
		return model_error(err, "%s.pps_i: found %g A with no pps_v, expected a PPS request's voltage in pps_v too",
				   path, p->pps_i);
	if (p->pps_v <= 0)
		return true;
	if (p->kind != SRC_KIND_PD || p->n_apdos == 0)
		return model_error(err, "%s.pps_v: found %g V, expected a \"pd\" source with a PPS APDO in pdos, such as \"PPS 3.3-11V 3A\"",
				   path, p->pps_v);
	a = source_apdo_for(p, pps_request_v(p));
	if (!a) {
		g_autoptr(GString) ranges = g_string_new(NULL);

		for (int k = 0; k < p->n_apdos; k++)
			g_string_append_printf(ranges, "%s%g-%g V", k ? ", " : "", p->apdos[k].vmin,
					       p->apdos[k].vmax);
		return model_error(err, "%s.pps_v: found %g V, expected a voltage within a PPS APDO of pdos (%s)",
				   path, p->pps_v, ranges->str);
	}
	if (round(p->pps_i / 0.05) * 0.05 > a->i + 1e-9)
		return model_error(err, "%s.pps_i: found %g A, expected at most the APDO's %g A", path,
				   p->pps_i, a->i);
	return true;
}

static bool source_validate(const void *params, const struct model_lookup *others,
			    const char *path, GError **err)
{
	const struct source_params *p = params;

	(void)others;
	if (p->ishort > p->ilim)
		return model_error(err, "%s.ishort: found %g A, expected at most ilim (%g A)", path,
				   p->ishort, p->ilim);
	return source_validate_pps(p, path, err);
}

/* A Type-C port's current follows its Rp unless ilim was given. */
static void source_loaded(void *params, const cJSON *obj)
{
	struct source_params *p = params;

	if (p->kind == SRC_KIND_TYPEC && !(obj && cJSON_GetObjectItemCaseSensitive(obj, "ilim"))) {
		p->ilim = source_rated_current(p);
		p->ilim_from_rp = true;
	}
}

static void source_model_init(void *state, void *params, const struct model_env *env)
{
	struct source *s = state;

	source_init(s, params, env->sim, env->log, env->changed, env->ctx);
	s->rp_last = s->p->rp;
	env->wires->vbus_attached = &s->attached;
	/* This unit's limit within its datasheet band: one uniform draw from the run's
	 * seeded generator, taken only when a tolerance is given (so that no other
	 * scenario's random sequence moves). */
	s->tol_factor = 1.0;
	if (s->p->ilim_tolerance > 0)
		s->tol_factor += s->p->ilim_tolerance *
				 g_rand_double_range(sim_rng(env->sim), -1.0, 1.0);
}

static void source_model_start(void *state)
{
	struct source *s = state;

	if (s->p->ilim_tolerance > 0)
		model_log_number(s->log, s->sim, "source", "ilim_drawn", "A", source_adapter_ilim(s));

	if (s->p->ilim_drift != 0)
		sim_after(s->sim, &s->ev_drift, source_drift_tick(s));
}

static void source_model_cleanup(void *state)
{
	struct source *s = state;

	source_cleanup(s);
	sim_cancel(s->sim, &s->ev_drift);
}

static void source_model_params_changed(void *state, const struct param_desc *changed)
{
	struct source *s = state;

	if (strcmp(changed->key, "rp") == 0) {
		/* the allowance under the advertisement before the `set` */
		int rp = s->p->rp;
		double before;

		s->p->rp = s->rp_last;
		before = source_budget(s);
		s->p->rp = s->rp_last = rp;
		source_budget_moved(s, before, SOURCE_RP_RESPONSE);
		if (s->p->ilim_from_rp)
			s->p->ilim = source_rated_current(s->p);
		if (s->rp_changed)
			s->rp_changed(s->rp_ctx);
	}
	if (strcmp(changed->key, "pps_v") == 0 || strcmp(changed->key, "pps_i") == 0)
		source_log_pps(s);
	/* Re-arm the timers against the new thresholds at the next observation. */
	source_disarm(s);
	MODEL_NOTIFY(s);
}

/* The port as the circuit sees it: Voc behind Rout, with its current limit. */
static void source_net(void *state, const struct net_out *last, struct net_in *in)
{
	const struct source *s = state;
	const struct source_params *p = s->p;

	double v_pps = 0, i_pps = 0;
	const struct source_apdo *pps = source_pps(s, &v_pps, &i_pps);

	in->src_on = source_output_on(s);
	in->voc = source_voc_with(s, pps, v_pps);
	in->r_src = p->rout;
	in->limit = p->overload == SRC_OVL_NONE ? NET_LIMIT_NONE :
		    p->overload == SRC_OVL_FOLDBACK ? NET_LIMIT_FOLDBACK : NET_LIMIT_BRICK;
	if (pps)
		in->limit = NET_LIMIT_BRICK;   /* PPS current-limit mode holds the current */
	in->ilim = source_ilim_with(s, pps, i_pps);
	in->was_limiting = (last->flags & NET_F_LIMITING) != 0;
	/* a unit drawn or drifted below its short-circuit current folds back to its limit */
	in->ishort = fmin(p->ishort, in->ilim);
	in->pmax = p->pmax;
	if (pps && pps->p > 0 && (in->pmax <= 0 || pps->p < in->pmax))
		in->pmax = pps->p;
}

#define SOURCE_N_MARGINS 3

/* Below v_shutdown, in current limit, above the host switch's ocp. */
static void source_margins(const void *state, const struct model_point *pt, double *g)
{
	const struct source *s = state;
	const struct net_in *in = pt->in;
	const struct net_out *op = pt->op;
	bool on = in->src_on;

	g[0] = on ? s->p->v_shutdown - op->vsrc : -1;
	g[1] = on && in->limit != NET_LIMIT_NONE ?
		       (op->flags & NET_F_LIMITING ? 1 : op->ibus - in->ilim) : -1;
	/* the power limit: the port's power against pmax, as a current at this voltage */
	if (on && in->pmax > 0)
		g[1] = op->flags & NET_F_LIMITING ? 1 :
		       fmax(g[1], op->ibus - in->pmax / fmax(op->vsrc, 1e-3));
	g[2] = on && s->p->ocp > 0 ? op->ibus - s->p->ocp : -1;
}

/* The conditions of the operating point start or cancel the protection timers. */
static void source_model_observe(void *state, const struct model_point *pt)
{
	struct source *s = state;
	const struct source_params *p = s->p;
	const struct net_out *op = pt->op;
	bool on = pt->in->src_on && source_output_on(s);
	bool protects = p->overload == SRC_OVL_HICCUP || p->overload == SRC_OVL_LATCH;
	double v_pps, i_pps;
	/* PPS current-limit mode is an operating mode, not an overload: no overload timer */
	bool cl_mode = source_pps(s, &v_pps, &i_pps) != NULL;

	model_timer(s->sim, &s->cond_uv, on && op->vsrc < p->v_shutdown && protects, &s->ev_uv,
		    p->t_trip);
	model_timer(s->sim, &s->cond_limit, on && (op->flags & NET_F_LIMITING) && protects &&
		    !cl_mode && p->t_limit_max > 0, &s->ev_limit, p->t_limit_max);
	model_timer(s->sim, &s->cond_oc, on && p->ocp > 0 && op->ibus > p->ocp, &s->ev_oc,
		    p->t_ocp);
}

/* source_state (limiting when the operating point has it in its limit while it is
 * on), src_ilim_A and budget_A: the allowance, or for a port with no USB budget its
 * own current limit. Detached, the port has neither (source_budget() is 0). The limit
 * is the one source_net() gave the circuit of this state, not worked out again. */
static void source_row(const void *state, const struct model_point *pt,
		       const struct model_row *r)
{
	const struct source *s = state;
	double ilim = pt->in->ilim, budget;

	if (!s->attached) {
		model_row_set(r, 0, SRC_DETACHED);
		model_row_set(r, 1, 0);
		model_row_set(r, 2, 0);
		return;
	}
	/* a kind with no USB allowance has an infinite one plugged in (source_budget()) */
	budget = budget_rules[s->p->kind] == BUDGET_UNLIMITED ? INFINITY : source_budget(s);
	if (s->tripped)
		model_row_set(r, 0, SRC_TRIPPED);
	else
		model_row_set(r, 0, (pt->op->flags & NET_F_LIMITING) && pt->in->src_on ?
					    SRC_LIMITING : SRC_ON);
	model_row_set(r, 1, ilim);
	model_row_set(r, 2, isfinite(budget) ? budget : ilim);
}

static double source_nominal_metric(const void *state, const struct model_point *pt)
{
	(void)pt;
	return source_nominal_v(state);
}

static double source_over_mah(const void *state, const struct model_point *pt)
{
	(void)pt;
	return ((const struct source *)state)->over_c / 3.6;
}

MODEL_STATE_FIELD(source_trips, struct source, trips)
MODEL_STATE_FIELD(source_below_s, struct source, below_s)
MODEL_STATE_FIELD(source_over_s, struct source, over_s)

static const struct model_column source_columns[] = {
	{ 9, "source_state", "", 0, source_state_names, SRC_STATE_COUNT },
	{ 11, "src_ilim_A", "A", 6, NULL, 0 },
	{ 13, "budget_A", "A", 6, NULL, 0 },
};

static const struct model_metric source_metrics[] = {
	MODEL_METRIC(1, "time_below_4v75_s", DIGITS, 7, AT_END, false, source_below_s),
	MODEL_METRIC(3, "source_trips", COUNT, 0, AT_END, false, source_trips),
	MODEL_METRIC(17, "over_budget_s", DIGITS, 7, AT_END, false, source_over_s),
	MODEL_METRIC(18, "over_budget_mAh", DIGITS, 7, AT_END, false, source_over_mah),
	MODEL_METRIC(19, "vbus_negotiated_V", DIGITS, 7, MAX, false, source_nominal_metric),
};

const struct model_desc model_source = {
	MODEL_PARAMS("source", source_param_desc, struct source_params),
	.preset_key = "kind",
	.default_preset = "dcp",
	.defaults = source_params_default,
	.loaded = source_loaded,
	.validate = source_validate,
	.list_name = "sources",
	.list_title = "Source kinds (\"source\": {\"kind\": ...}) and their defaults:",
	.state_size = sizeof(struct source),
	.init = source_model_init,
	.start = source_model_start,
	.cleanup = source_model_cleanup,
	.params_changed = source_model_params_changed,
	.net = source_net,
	.n_margins = SOURCE_N_MARGINS,
	.margins = source_margins,
	.observe = source_model_observe,
	.integrate = source_integrate,
	MODEL_TABLE(columns, source_columns),
	.row = source_row,
	MODEL_TABLE(metrics, source_metrics),
};
