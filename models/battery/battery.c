// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/battery/battery.c - the two-RC cell, its presets and parameter table.
 *
 * Default cell: EB425161LU, a 1500 mAh 4.35 V-class Samsung cell. OCV table from the
 * Linux samsung-sdi-battery driver data for that cell; R0 0.10 ohm, R1 47 mohm /
 * C1 703 F, R2 50 mohm / C2 4475 F from the Chen & Rincon-Mora (2006) two-RC fit
 * (valid above ~20 % SOC); Arrhenius activation energy 20 kJ/mol as in PyBaMM's ECM
 * example; self-discharge ~2 %/month (typical Li-ion).
 */
#include <math.h>
#include <string.h>
#include "models/battery/battery.h"
#include "sim/evlog.h"

enum { BAT_PRESET_EB425161LU, BAT_PRESET_GENERIC_4V2 };
const char *const battery_preset_names[] = { "eb425161lu", "generic-4v2", NULL };

#define GAS_CONSTANT 8.314462618 /* J/(mol K) */

static bool battery_parse_ocv(const struct param_desc *d, const cJSON *v, void *field,
			      const char *path, GError **err)
{
	struct battery_params *p = (struct battery_params *)field; /* off is 0: whole struct */
	const cJSON *row;
	int n = 0;

	(void)d;
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 2)
		return model_error_found(err, path, v, "expected at least two [soc, volts] pairs");
	if (cJSON_GetArraySize(v) > BATTERY_OCV_MAX)
		return model_error(err, "%s: found %d points, expected at most %d", path,
				   cJSON_GetArraySize(v), BATTERY_OCV_MAX);
	cJSON_ArrayForEach(row, v) {
		g_autofree char *rp = g_strdup_printf("%s[%d]", path, n);
		double soc, volts;

		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 2)
			return model_error_found(err, rp, row, "expected [soc, volts]");
		if (!param_json_number(cJSON_GetArrayItem(row, 0), UNIT_FRACTION, &soc, rp, err) ||
		    !param_json_number(cJSON_GetArrayItem(row, 1), UNIT_VOLT, &volts, rp, err))
			return false;
		if (soc < 0 || soc > 1 || volts <= 0 || volts > 6 ||
		    (n > 0 && (soc <= p->ocv_soc[n - 1] || volts < p->ocv_v[n - 1])))
			return model_error(err, "%s: found [%g, %g], expected soc in 0..1 strictly ascending, 0 < volts <= 6 and volts not falling as soc rises",
					   rp, soc, volts);
		p->ocv_soc[n] = soc;
		p->ocv_v[n] = volts;
		n++;
	}
	p->ocv_n = n;
	return true;
}

#define OFF(f) offsetof(struct battery_params, f)
const struct param_desc battery_param_desc[] = {
	{ "preset", PARAM_ENUM, .off = OFF(preset), .choices = battery_preset_names,
	  .doc = "cell preset the other values default from" },
	/* 1 mAh (a hearing-aid coin cell) to 1000 Ah; with a unit, always: a bare
	 * 4000 reads as 4000 Ah to some and 4000 mAh to others. */
	{ "capacity", PARAM_NUM, UNIT_AH, OFF(capacity_ah), 1e-3, 1000, PARAM_F_UNIT_REQUIRED,
	  .doc = "rated capacity, with its unit (\"3000 mAh\"); a preset's own R and C scale with it" },
	{ "soc", PARAM_NUM, UNIT_FRACTION, OFF(soc), 0, 1, .doc = "initial state of charge" },
	/* 100 uohm: the series resistance of the largest cells; C from 1 uF (a time
	 * constant far below a millisecond) to 1 GF. */
	{ "r0", PARAM_NUM, UNIT_OHM, OFF(r0), 1e-4, 100, 0,
	  .doc = "series resistance at the reference temperature, used as written (a preset's default scales with capacity)" },
	{ "r1", PARAM_NUM, UNIT_OHM, OFF(r1), 1e-4, 100, 0, .doc = "first RC pair resistance" },
	{ "c1", PARAM_NUM, UNIT_FARAD, OFF(c1), 1e-6, 1e9, 0, .doc = "first RC pair capacitance" },
	{ "r2", PARAM_NUM, UNIT_OHM, OFF(r2), 1e-4, 100, 0, .doc = "second RC pair resistance" },
	{ "c2", PARAM_NUM, UNIT_FARAD, OFF(c2), 1e-6, 1e9, 0, .doc = "second RC pair capacitance" },
	{ "ocv", PARAM_CUSTOM, .parse = battery_parse_ocv,
	  .doc = "open-circuit voltage table [[soc, volts], ...], soc ascending" },
	{ "temperature", PARAM_NUM, UNIT_CELSIUS, OFF(temperature_c), -40, 85,
	  PARAM_F_RUNTIME, .doc = "cell / ambient temperature" },
	{ "thermal", PARAM_BOOL, .off = OFF(thermal),
	  .doc = "lumped thermal model (cell heats from its losses)" },
	/* 0.1 J/K: a 0.1 g cell (about 1 J/(g K)); 0.1 K/W: a cell bolted to a heat sink. */
	{ "thermal_mass", PARAM_NUM, UNIT_NONE, OFF(thermal_mass_j_k), 0.1, 1e6, 0,
	  .doc = "heat capacity, J/K" },
	{ "r_thermal", PARAM_NUM, UNIT_NONE, OFF(r_thermal_k_w), 0.1, 1e4, 0,
	  .doc = "thermal resistance to ambient, K/W" },
	{ "activation_energy", PARAM_NUM, UNIT_NONE, OFF(ea_j_mol), 0, 2e5,
	  .doc = "Arrhenius activation energy of the resistances, J/mol" },
	{ "self_discharge", PARAM_NUM, UNIT_FRACTION, OFF(self_discharge), 0, 1,
	  .doc = "capacity lost per 30 days at rest" },
	/* from 3 V, the lowest device.pmic.vreg, which must not exceed it */
	{ "v_max", PARAM_NUM, UNIT_VOLT, OFF(v_max), 3, 5, .doc = "highest safe charge voltage" },
	{ "uvp", PARAM_NUM, UNIT_VOLT, OFF(uvp), 0, 4,
	  .doc = "pack protection: discharge stops below this terminal voltage (and at SOC 0)" },
	PARAM_END,
};
#undef OFF

/* EB425161LU OCV at 0/5/10/20/.../100 % (samsung-sdi-battery data). */
static const double eb425161lu_soc[] = { 0, .05, .10, .20, .30, .40, .50, .60, .70, .80, .90, .95, 1 };
static const double eb425161lu_v[] = { 3.300, 3.656, 3.690, 3.746, 3.776, 3.793, 3.829,
				       3.911, 3.978, 4.077, 4.183, 4.241, 4.328 };
G_STATIC_ASSERT(G_N_ELEMENTS(eb425161lu_soc) == G_N_ELEMENTS(eb425161lu_v));

void battery_params_default(void *params, int preset)
{
	struct battery_params *p = params;

	*p = (struct battery_params){
		.preset = preset, .capacity_ah = 1.5, .ref_capacity_ah = 1.5, .soc = 0.5,
		.r0 = 0.10, .r1 = 0.047, .c1 = 703, .r2 = 0.050, .c2 = 4475,
		.rc_scaled = BATTERY_RC_ALL, .ocv_n = G_N_ELEMENTS(eb425161lu_soc),
		.temperature_c = 25, .ref_temp_c = 25, .ea_j_mol = 20000,
		/* ~30 g pouch cell at ~1 J/(g K); ~25 K/W to air inside a phone (assumed). */
		.thermal_mass_j_k = 30, .r_thermal_k_w = 25,
		.self_discharge = 0.02, .v_max = 4.40,
		/* The battery depletion threshold at which TI's bq24190 opens its BATFET
		 * (VBAT_DPL 2.4 V falling, SLUSAW5); single-cell protection ICs cut off
		 * around 2.3-3.0 V. With the OCV at 3.3 V at 0 %, only a heavy load reaches
		 * it before the cell is empty. */
		.uvp = 2.4,
	};
	memcpy(p->ocv_soc, eb425161lu_soc, sizeof(eb425161lu_soc));
	memcpy(p->ocv_v, eb425161lu_v, sizeof(eb425161lu_v));
	if (preset == BAT_PRESET_GENERIC_4V2) {
		/* A 4.2 V-class cell: the same curve scaled so 100 % reads 4.2 V. */
		for (int i = 0; i < p->ocv_n; i++)
			p->ocv_v[i] = 3.3 + (p->ocv_v[i] - 3.3) * (4.2 - 3.3) / (4.328 - 3.3);
		p->v_max = 4.25;
	}
}

static bool battery_validate(const void *params, const struct model_lookup *others,
			     const char *path, GError **err)
{
	const struct battery_params *p = params;

	(void)others;
	if (p->ocv_soc[0] > 0 || p->ocv_soc[p->ocv_n - 1] < 1)
		return model_error(err, "%s.ocv: found a table covering %g..%g, expected it to cover soc 0 to 1",
				   path, p->ocv_soc[0], p->ocv_soc[p->ocv_n - 1]);
	return true;
}

/* A preset's value scaled to the capacity (bit set), or the value as given. */
static double rc_value(const struct battery_params *p, unsigned bit, double v, double k)
{
	return p->rc_scaled & bit ? v * k : v;
}

void battery_effective(const struct battery_params *p, double temp_c, struct battery_eff *e)
{
	double scale = p->ref_capacity_ah / p->capacity_ah;
	/* Arrhenius: R(T) = R(Tref) * exp(Ea/R * (1/T - 1/Tref)). */
	double arr = exp(p->ea_j_mol / GAS_CONSTANT *
			 (1.0 / (temp_c + 273.15) - 1.0 / (p->ref_temp_c + 273.15)));

	e->q_as = p->capacity_ah * 3600.0;
	e->r0 = rc_value(p, BATTERY_RC_R0, p->r0, scale) * arr;
	e->r1 = rc_value(p, BATTERY_RC_R1, p->r1, scale) * arr;
	e->r2 = rc_value(p, BATTERY_RC_R2, p->r2, scale) * arr;
	e->c1 = rc_value(p, BATTERY_RC_C1, p->c1, 1.0 / scale);
	e->c2 = rc_value(p, BATTERY_RC_C2, p->c2, 1.0 / scale);
	e->tau1 = e->r1 * e->c1;
	e->tau2 = e->r2 * e->c2;
	e->self_dis_per_s = p->self_discharge / (30.0 * 86400.0);
}

/* The table segment [lo, lo + 1] that serves soc: the one containing it, or an end
 * segment beyond the table's ends. */
int battery_ocv_segment(const struct battery_params *p, double soc)
{
	int lo = 0, hi = p->ocv_n - 1;

	if (soc <= p->ocv_soc[0])
		return 0;
	if (soc >= p->ocv_soc[hi])
		return hi - 1;
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (p->ocv_soc[mid] <= soc)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Piecewise-linear in SOC; beyond the table's ends the end segments are extended, so
 * a cell charged past its nominal 100 % (CV above the table's top voltage) keeps
 * rising instead of accepting charge at a constant voltage. */
double battery_ocv(const struct battery_params *p, double soc)
{
	return battery_ocv_on(p, battery_ocv_segment(p, soc), soc);
}

double battery_emf(const struct battery_params *p, const struct battery_state *s)
{
	return battery_ocv(p, s->soc) + s->v1 + s->v2;
}

void battery_advance(const struct battery_eff *e, const struct battery_state *s0, double i0,
		     double i1, double dt, struct battery_state *s1)
{
	struct battery_rc_step k;

	battery_rc_step(e, dt, &k);
	battery_advance_step(e, &k, s0, i0, i1, s1);
}

void battery_end_line(const struct battery_params *p, const struct battery_eff *e,
		      const struct battery_state *s0, double i0, double dt, bool ramp,
		      double soc_at, double *emf, double *r)
{
	struct battery_rc_step k;

	battery_rc_step(e, dt, &k);
	battery_end_line_step(p, e, &k, s0, i0, ramp, soc_at, battery_ocv_segment(p, soc_at), emf,
			      r);
}

double battery_thermal_advance(const struct battery_params *p, double temp_c, double ambient_c,
			       double p_loss_w, double dt)
{
	double tau = p->thermal_mass_j_k * p->r_thermal_k_w;
	double t_inf = ambient_c + p_loss_w * p->r_thermal_k_w;

	return t_inf + (temp_c - t_inf) * exp(-dt / tau);
}

double battery_dlnr_dt(const struct battery_params *p, double temp_c)
{
	double tk = temp_c + 273.15;

	return p->ea_j_mol / (GAS_CONSTANT * tk * tk);
}

double battery_loss_w(const struct battery_eff *e, const struct battery_state *s, double i)
{
	return e->r0 * i * i + s->v1 * s->v1 / e->r1 + s->v2 * s->v2 / e->r2;
}

double battery_rc_energy(const struct battery_eff *e, const struct battery_state *s)
{
	return 0.5 * e->c1 * s->v1 * s->v1 + 0.5 * e->c2 * s->v2 * s->v2;
}

/* The cell at the start of a run: SOC as given, the RC pairs relaxed. */
static void battery_model_init(void *state, void *params, const struct model_env *env)
{
	struct battery *b = state;
	struct battery_params *p = params;

	*b = (struct battery){ .p = p, .x = { .soc = p->soc, .temp_c = p->temperature_c },
			       .sim = env->sim, .log = env->log, .changed = env->changed,
			       .ctx = env->ctx };
	battery_effective(p, b->x.temp_c, &b->eff);
}

/* A `set` event: the derived values again; without the thermal model the cell is at
 * the (new) temperature at once. */
static void battery_model_params_changed(void *state, const struct param_desc *changed)
{
	struct battery *b = state;
	const struct battery_params *p = b->p;

	(void)changed;
	battery_effective(p, p->thermal ? b->x.temp_c : p->temperature_c, &b->eff);
	if (!p->thermal)
		b->x.temp_c = p->temperature_c;
}

/* ---- the pack's protection ---- */

/* Whether the pack's protection opens at this point: the cell discharging (ibat < 0)
 * with SOC at 0 or the terminal at uvp. As a margin (>= 0: it opens) for the
 * stepper, which locates it in time with the state x of the point. */
static double battery_cutoff_margin(const struct battery *b, const struct battery_state *x,
				    double vbat, double ibat)
{
	if (b->open || ibat >= 0)
		return -1;
	return fmax(b->p->uvp - vbat, -x->soc);
}

static void battery_protect(struct battery *b, bool open, const char *reason)
{
	b->open = open;
	if (b->log) {
		cJSON *rec = evlog_begin(b->log, sim_now(b->sim), "battery",
					 open ? "cutoff" : "cutoff_end");

		if (reason)
			evlog_put_string(rec, "reason", reason);
		evlog_end(b->log, rec);
	}
	MODEL_NOTIFY(b);
}

/* Open when the cell is empty or at uvp while discharging; close as soon as a charger
 * drives a charge current into it (protection ICs release on a connected charger). */
static void battery_model_observe(void *state, const struct model_point *pt)
{
	struct battery *b = state;

	if (!b->open && battery_cutoff_margin(b, &b->x, pt->op->vbat, pt->op->ibat) >= 0)
		battery_protect(b, true, b->x.soc <= 0 ? "empty" : "uvp");
	else if (b->open && pt->op->ibat > 0)
		battery_protect(b, false, NULL);
}

static void battery_model_net(void *state, const struct net_out *last, struct net_in *in)
{
	(void)last;
	in->bat_open = ((const struct battery *)state)->open;
}

/* A resistance or capacitance the scenario writes is the cell's own: only the preset's
 * values scale with capacity. */
static void battery_loaded(void *params, const cJSON *obj)
{
	static const struct {
		const char *key;
		unsigned bit;
	} rc[] = {
		{ "r0", BATTERY_RC_R0 }, { "r1", BATTERY_RC_R1 }, { "c1", BATTERY_RC_C1 },
		{ "r2", BATTERY_RC_R2 }, { "c2", BATTERY_RC_C2 },
	};
	struct battery_params *p = params;

	for (size_t i = 0; i < G_N_ELEMENTS(rc); i++)
		if (obj && cJSON_GetObjectItemCaseSensitive(obj, rc[i].key))
			p->rc_scaled &= ~rc[i].bit;
}

/* The cell's EMF behind R0 and its integration in time belong to the run's stepper;
 * the pack's protection is located in time like any threshold (the stepper's state x). */
static void battery_model_margins(const void *state, const struct model_point *pt, double *g)
{
	g[0] = battery_cutoff_margin(state, pt->x, pt->op->vbat, pt->op->ibat);
}

#define BATTERY_SOC_MARK 0.8   /* time_to_soc_80_s: the state of charge it times */

/* soc, temp_C: the stepper's state at the point */
static void battery_row(const void *state, const struct model_point *pt,
			const struct model_row *r)
{
	(void)state;
	model_row_set(r, 0, pt->x->soc);
	model_row_set(r, 1, pt->x->temp_c);
}

MODEL_STATE_FIELD(battery_soc_now, struct battery, x.soc)

/* >= 0 from the mark on; at the stepper's trial states too, which locates it in time */
static double battery_soc_past_mark(const void *state, const struct model_point *pt)
{
	(void)state;
	return pt->x->soc - BATTERY_SOC_MARK;
}

static const struct model_column battery_columns[] = {
	{ 6, "soc", "", 6, NULL, 0 },
	{ 12, "temp_C", "C", 3, NULL, 0 },
};

static const struct model_metric battery_metrics[] = {
	MODEL_METRIC(13, "soc_initial", DIGITS, 7, AT_START, false, battery_soc_now),
	MODEL_METRIC(14, "soc_final", DIGITS, 7, AT_END, false, battery_soc_now),
	MODEL_METRIC(15, "time_to_soc_80_s", TIME, 9, FIRST, true, battery_soc_past_mark),
};

const struct model_desc model_battery = {
	MODEL_PARAMS("device.battery", battery_param_desc, struct battery_params),
	.preset_key = "preset",
	.default_preset = "eb425161lu",
	.defaults = battery_params_default,
	.loaded = battery_loaded,
	.validate = battery_validate,
	.list_name = "batteries",
	.list_title = "Battery presets (\"device\": {\"battery\": {\"preset\": ...}}):",
	.state_size = sizeof(struct battery),
	.init = battery_model_init,
	.params_changed = battery_model_params_changed,
	.net = battery_model_net,
	.n_margins = 1,
	.margins = battery_model_margins,
	.observe = battery_model_observe,
	MODEL_TABLE(columns, battery_columns),
	.row = battery_row,
	MODEL_TABLE(metrics, battery_metrics),
};
