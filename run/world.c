// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/world.c - one run: models + stack wired together, stepped in virtual time.
 *
 * Stepping (PHYSICS.md "Time stepping"): between discrete events the battery state
 * x = (SOC, V1, V2) advances with Heun steps in which the RC pairs are integrated
 * exactly for a current varying linearly over the step (predictor with the start
 * current, corrector with the mean of start and predicted end currents). The step
 * size follows the predictor/corrector difference of the terminal voltage and bounds
 * on the change of SOC and EMF. Every step ends at or before the next queued event.
 * A set of margin functions g_i (>= 0 means "condition holds": below UVLO, in CV, in
 * current limit, ...) is evaluated at both ends of a step; when one changes sign, the
 * step is bisected down to WORLD_CROSSING_TOL and cut at the crossing, where the
 * models react (start a deglitch timer, trip, terminate ...).
 *
 * After the events of an instant the world re-solves the operating point and lets
 * the models observe it until nothing changes (world_settle), writes a trace row if
 * anything moved, and samples probes.
 */
#include <math.h>
#include <string.h>
#include <gmodule.h>
#include <linux/usb/phy.h>
#include <chargesim/boot.h>
#include <chargesim/charger_ic.h>
#include <chargesim/kernel.h>
#include <chargesim/policy.h>
#include "run/board.h"
#include "sim/evlog.h"
#include "sim/outfile.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "run/world.h"

G_DEFINE_QUARK(cs-run-error-quark, cs_run_error)

int world_error_status(const GError *err)
{
	return err->domain == CS_RUN_ERROR && err->code == CS_RUN_ERROR_INTERNAL ? 3 : 2;
}

/* Stepping tunables. */
#define WORLD_CROSSING_TOL  (10 * SIM_US)  /* thresholds located to 10 us [PHYSICS.md] */
#define WORLD_DT_MIN        (1 * SIM_US)   /* smallest adaptive step */
#define WORLD_DT_MAX        (600 * SIM_S)  /* a step never spans more than 10 min */
#define WORLD_DT_AFTER_EVENT (10 * SIM_MS) /* restart small after a discrete change */
#define WORLD_TOL_V         3e-5           /* V: predictor/corrector terminal voltage difference */
#define WORLD_MAX_DSOC      0.005          /* SOC change per step */
#define WORLD_MAX_DEMF      0.004          /* V: EMF change per step */
#define WORLD_SETTLE_MAX    16             /* rounds of observe/re-solve after events */
#define WORLD_VBUS_OK_V     4.75           /* the USB 2.0 VBUS floor the metrics count against */
/* discharged_while_plugged_s: the port delivers more than WORLD_DELIVER_A while the
 * battery current is below WORLD_DISCHARGE_A - far above the solver's rounding and a
 * relaxing cell's currents, below any real system draw (a phone idles at tens of mA). */
#define WORLD_DELIVER_A     0.001
#define WORLD_DISCHARGE_A   (-0.010)

enum {
	COL_VSRC, COL_VBUS, COL_IBUS, COL_ILIM, COL_VBAT, COL_IBAT, COL_SOC, COL_ILOAD,
	COL_CHG_STATE, COL_SRC_STATE, COL_VSYS, COL_SRC_ILIM, COL_TEMP, NCOLS
};

static const struct trace_col trace_cols[NCOLS] = {
	[COL_VSRC] = { "vsrc_V", "V", 6, NULL, 0 },
	[COL_VBUS] = { "vbus_V", "V", 6, NULL, 0 },
	[COL_IBUS] = { "ibus_A", "A", 6, NULL, 0 },
	[COL_ILIM] = { "ilim_A", "A", 6, NULL, 0 },
	[COL_VBAT] = { "vbat_V", "V", 6, NULL, 0 },
	[COL_IBAT] = { "ibat_A", "A", 6, NULL, 0 },
	[COL_SOC] = { "soc", "", 6, NULL, 0 },
	[COL_ILOAD] = { "iload_A", "A", 6, NULL, 0 },
	[COL_CHG_STATE] = { "charger_state", "", 0, charger_state_names, CHG_STATE_COUNT },
	[COL_SRC_STATE] = { "source_state", "", 0, source_state_names, SRC_STATE_COUNT },
	[COL_VSYS] = { "vsys_V", "V", 6, NULL, 0 },
	[COL_SRC_ILIM] = { "src_ilim_A", "A", 6, NULL, 0 },
	[COL_TEMP] = { "temp_C", "C", 3, NULL, 0 },
};

const char *const world_trace_columns[] = {
	"time_s", "vsrc_V", "vbus_V", "ibus_A", "ilim_A", "vbat_V", "ibat_A", "soc", "iload_A",
	"charger_state", "source_state", "vsys_V", "src_ilim_A", "temp_C", NULL,
};

#define N_G (PMIC_N_MARGINS + 7)

struct world {
	struct world_options opt;
	char *name;
	char *outdir;
	sim_time_t duration;
	struct sim sim;
	struct cs_kernel kernel;
	struct evlog *log;
	struct trace *trace;

	/* parameters: the run's own copies */
	struct source_params src_p;
	struct cable_params cab_p;
	struct pmic_params chg_p;
	struct battery_params bat_p;
	struct load_params load_p;
	struct phy_params phy_p;
	struct gadget_params gad_p;
	struct kernel_params ker_p;

	/* models */
	struct source src;
	struct pmic chg;
	struct load load;
	struct boot bootm;
	struct cs_boot boot_hook;
	struct battery_state bat;
	struct battery_eff eff;
	struct phy phym;
	double r_cable;
	bool dropout;
	struct sim_event ev_dropout_end;
	bool vbus_seen;               /* what the PHY reports: a valid VBUS session */
	bool vbus_cond;               /* VBUS is on the other side of vbus_valid */
	struct sim_event ev_vbus;

	/* the operating point of the current state */
	struct net_in net;
	struct net_out op;
	double emf;
	bool dirty;
	double g[N_G];
	sim_time_t dt_next;

	/* scenario events */
	int n_sev;
	struct sim_event *sev;
	const struct scenario_event *sev_def;
	const struct param_desc **sev_desc;   /* resolved parameter of each `set` */

	/* the stack */
	struct device phy_dev;
	struct usb_phy phy;
	struct cs_charger_ic ic;
	struct board drv;             /* the drivers behind the policy's board */
	struct cs_board board;        /* what the policy is given */
	struct sim_event *sysfs_ev;
	const struct cs_policy_desc *pdesc;
	void *pparams;
	void *ppriv;
	GModule *module;
	char *policy_name;

	/* trace and probes */
	double last_row[NCOLS];
	sim_time_t last_row_t;
	bool have_row;
	double (*probe_vals)[NCOLS];
	int next_probe;

	struct world_metrics m;
	bool models_ready;            /* models and board initialised (world_free undoes them) */
	bool vindpm_hw;               /* the charger has a VINDPM loop */
	double rc_e0;
	bool failed;
	char *fail_msg;
};

/* ---- the operating point ---- */

static void world_prepare_net(struct world *w)
{
	struct net_in *in = &w->net;

	memset(in, 0, sizeof(*in));
	in->src_on = source_output_on(&w->src) && !w->dropout;
	in->voc = source_voc_now(&w->src);
	in->r_src = w->src_p.rout;
	in->r_cable = w->r_cable;
	switch (w->src_p.overload) {
	case SRC_OVL_NONE: in->limit = NET_LIMIT_NONE; break;
	case SRC_OVL_FOLDBACK: in->limit = NET_LIMIT_FOLDBACK; break;
	default: in->limit = NET_LIMIT_BRICK; break;
	}
	in->ilim = source_ilim_now(&w->src);
	in->was_limiting = (w->op.flags & NET_F_LIMITING) != 0;
	in->ishort = w->src_p.ishort;
	pmic_net(&w->chg, in);
	/* Not yet running: the boot stage owns the draw. */
	w->load.override = boot_current(&w->bootm, &w->load.override_current);
	load_demand(&w->load, &in->iload, &in->pload);
}

static void world_solve(struct world *w, const struct battery_state *x, struct net_out *op,
			double *emf_out)
{
	struct net_in in = w->net;

	in.emf = battery_emf(&w->bat_p, x);
	in.r0 = w->eff.r0;
	net_solve(&in, op);
	if (emf_out)
		*emf_out = in.emf;
}

/* Re-solve now if a model changed since the last solution (e.g. a register write
 * followed by an ADC read in the same work function). */
static void world_refresh(struct world *w)
{
	if (!w->dirty)
		return;
	w->dirty = false;
	world_prepare_net(w);
	world_solve(w, &w->bat, &w->op, &w->emf);
}

static void world_changed_cb(void *ctx)
{
	struct world *w = ctx;

	w->dirty = true;
}

static void world_margins(const struct world *w, const struct net_out *op,
			  const struct battery_state *x, double *g)
{
	bool on = w->net.src_on;
	int k = pmic_margins(&w->chg, op, g);

	g[k++] = w->net.charging ? (op->flags & NET_F_CV ? 1 : op->vbat - w->chg_p.vreg) : -1;
	g[k++] = on ? w->src_p.v_shutdown - op->vsrc : -1;
	g[k++] = on && w->net.limit != NET_LIMIT_NONE ?
			 (op->flags & NET_F_LIMITING ? 1 : op->ibus - w->net.ilim) : -1;
	g[k++] = on && w->src_p.ocp > 0 ? op->ibus - w->src_p.ocp : -1;
	g[k++] = load_margin(&w->load, op->vsys, w->bootm.stage >= 0);
	g[k++] = x->soc - 0.8;
	g[k++] = w->src.attached ? op->vbus - w->phy_p.vbus_valid : -1;
	g_assert(k == N_G);
}

static bool margins_crossed(const double *g0, const double *g1)
{
	for (int i = 0; i < N_G; i++)
		if ((g0[i] >= 0) != (g1[i] >= 0))
			return true;
	return false;
}

/* ---- observing ---- */

static void world_fail(struct world *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void world_fail(struct world *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failed)
		return;
	w->failed = true;
	va_start(ap, fmt);
	w->fail_msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	sim_stop(&w->sim);
}

static bool op_finite(const struct net_out *o)
{
	return isfinite(o->vsrc) && isfinite(o->vbus) && isfinite(o->ibus) && isfinite(o->vsys) &&
	       isfinite(o->iload) && isfinite(o->vbat) && isfinite(o->ibat) && isfinite(o->p_emf) &&
	       isfinite(o->p_chg_loss) && isfinite(o->p_load);
}

static void world_observe(struct world *w)
{
	const struct net_out *op = &w->op;
	bool on = w->net.src_on;

	source_observe(&w->src, on && op->vsrc < w->src_p.v_shutdown,
		       on && (op->flags & NET_F_LIMITING),
		       on && w->src_p.ocp > 0 && op->ibus > w->src_p.ocp);
	pmic_observe(&w->chg, op, w->src.attached);
	if (load_observe(&w->load, op->vsys, w->bootm.stage >= 0))
		boot_brownout(&w->bootm);
	/* The system powers on from the charger's "power good": its input connected. */
	if (w->chg.connected != w->bootm.vbus)
		boot_vbus(&w->bootm, w->chg.connected);
	{
		/* The PHY's VBUS comparator, debounced: a trip or a collapse looks like
		 * an unplug to the device, a return like a new plug. */
		bool valid = w->src.attached && op->vbus >= w->phy_p.vbus_valid;
		bool other = valid != w->vbus_seen;

		if (other && !w->vbus_cond)
			sim_after(&w->sim, &w->ev_vbus, w->phy_p.t_vbus_debounce);
		else if (!other)
			sim_cancel(&w->sim, &w->ev_vbus);
		w->vbus_cond = other;
	}
	if (w->m.time_to_full_s < 0 && w->chg.state == CHG_DONE)
		w->m.time_to_full_s = sim_time_to_s(sim_now(&w->sim));
	if (w->m.time_to_soc_80_s < 0 && w->bat.soc >= 0.8)
		w->m.time_to_soc_80_s = sim_time_to_s(sim_now(&w->sim));
	if (w->chg.iindpm > w->m.ilim_max_a && w->src.attached)
		w->m.ilim_max_a = w->chg.iindpm;
}

/* Solve and let the models react until the discrete state stops changing. */
static void world_settle_state(struct world *w)
{
	world_prepare_net(w);
	for (int round = 0; round < WORLD_SETTLE_MAX; round++) {
		struct net_in before = w->net;

		world_solve(w, &w->bat, &w->op, &w->emf);
		w->dirty = false;
		world_observe(w);
		world_prepare_net(w);
		if (!w->dirty && memcmp(&before, &w->net, sizeof(before)) == 0)
			break;
	}
	world_solve(w, &w->bat, &w->op, &w->emf);
	w->dirty = false;
	pmic_report_state(&w->chg, &w->op, w->src.attached);
	if (w->m.time_to_full_s < 0 && w->chg.state == CHG_DONE)
		w->m.time_to_full_s = sim_time_to_s(sim_now(&w->sim));
	if (!op_finite(&w->op))
		world_fail(w, "the operating point is not finite at t = %.9g s (vbus %g V, ibat %g A)",
			   sim_time_to_s(sim_now(&w->sim)), w->op.vbus, w->op.ibat);
	world_margins(w, &w->op, &w->bat, w->g);
}

/* ---- trace rows and probes ---- */

static void world_row_values(const struct world *w, const struct net_out *op,
			     const struct battery_state *x, double *v)
{
	bool limiting = (op->flags & NET_F_LIMITING) && w->net.src_on;

	v[COL_VSRC] = op->vsrc;
	v[COL_VBUS] = op->vbus;
	v[COL_IBUS] = op->ibus;
	v[COL_ILIM] = w->chg.iindpm;
	v[COL_VBAT] = op->vbat;
	v[COL_IBAT] = op->ibat;
	v[COL_SOC] = x->soc;
	v[COL_ILOAD] = op->iload;
	v[COL_CHG_STATE] = w->chg.state;
	v[COL_SRC_STATE] = source_state_of(&w->src, limiting);
	v[COL_VSYS] = op->vsys;
	v[COL_SRC_ILIM] = w->src.attached ? source_ilim_now(&w->src) : 0;
	v[COL_TEMP] = x->temp_c;
}

static void world_trace_row(struct world *w, bool at_event)
{
	double v[NCOLS];
	sim_time_t now = sim_now(&w->sim);
	bool labels_changed, changed;

	if (!w->trace)
		return;
	world_row_values(w, &w->op, &w->bat, v);
	labels_changed = !w->have_row || v[COL_CHG_STATE] != w->last_row[COL_CHG_STATE] ||
			 v[COL_SRC_STATE] != w->last_row[COL_SRC_STATE];
	changed = !w->have_row || memcmp(v, w->last_row, sizeof(v)) != 0;
	if (at_event && !changed)
		return;
	if (w->opt.trace_dt > 0 && w->have_row && !labels_changed &&
	    now - w->last_row_t < w->opt.trace_dt)
		return;
	trace_row(w->trace, now, v);
	memcpy(w->last_row, v, sizeof(v));
	w->last_row_t = now;
	w->have_row = true;
}

/* Probes strictly inside (t0, t1) are sampled from the step; a probe at t1 gets the
 * end-of-step value, which the events at t1 (if any) may then overwrite in settle. */
static void world_probe_step(struct world *w, sim_time_t t0, sim_time_t t1,
			     const struct net_out *op1, const struct battery_state *x1)
{
	for (int i = w->next_probe; i < w->opt.n_probes; i++) {
		sim_time_t tp = w->opt.probe_at[i];

		if (tp <= t0)
			continue;
		if (tp > t1)
			break;
		if (tp == t1) {
			world_row_values(w, op1, x1, w->probe_vals[i]);
		} else {
			double f = (double)(tp - t0) / (double)(t1 - t0);
			double i1 = w->op.ibat + (op1->ibat - w->op.ibat) * f;
			struct battery_state xp;
			struct net_out opp;

			battery_advance(&w->eff, &w->bat, w->op.ibat, i1,
					sim_time_to_s(tp - t0), &xp);
			world_solve(w, &xp, &opp, NULL);
			world_row_values(w, &opp, &xp, w->probe_vals[i]);
		}
	}
	while (w->next_probe < w->opt.n_probes && w->opt.probe_at[w->next_probe] < t1)
		w->next_probe++;
}

static void world_probe_instant(struct world *w, sim_time_t now)
{
	for (int i = w->next_probe; i < w->opt.n_probes && w->opt.probe_at[i] <= now; i++)
		if (w->opt.probe_at[i] == now)
			world_row_values(w, &w->op, &w->bat, w->probe_vals[i]);
	while (w->next_probe < w->opt.n_probes && w->opt.probe_at[w->next_probe] < now)
		w->next_probe++;
}

/* ---- stepping ---- */

/* One step of dt seconds from the committed state: Heun (trapezoidal) with the exact
 * RC solution for a linearly varying current, corrected twice (PE(CE)^2) so that the
 * current at the end of the step is the one the state was integrated with. *i1 is
 * that current, which the accounting integrates too. Returns the error ratio (<= 1
 * is acceptable): the predictor/corrector difference of the terminal voltage and of
 * the battery current (as a voltage across R0), and the SOC and EMF change. */
static double world_try_step(struct world *w, double dt, struct battery_state *x1,
			     struct net_out *op1, double *emf1, double *i1)
{
	struct battery_state xp;
	struct net_out opp;
	double i0 = w->op.ibat, ev, ei, es, ee;

	battery_advance(&w->eff, &w->bat, i0, i0, dt, &xp);
	world_solve(w, &xp, &opp, NULL);
	battery_advance(&w->eff, &w->bat, i0, opp.ibat, dt, x1);
	world_solve(w, x1, op1, emf1);
	*i1 = op1->ibat;
	battery_advance(&w->eff, &w->bat, i0, *i1, dt, x1);
	world_solve(w, x1, op1, emf1);
	ev = fabs(op1->vbat - opp.vbat) / WORLD_TOL_V;
	ei = fabs(op1->ibat - opp.ibat) * w->eff.r0 / WORLD_TOL_V;
	es = fabs(x1->soc - w->bat.soc) / WORLD_MAX_DSOC;
	ee = fabs(*emf1 - w->emf) / WORLD_MAX_DEMF;
	return fmax(fmax(ev, ei), fmax(es, ee));
}

static void world_accumulate(struct world *w, const struct net_out *o1,
			     const struct battery_state *x1, double i1, double dt)
{
	const struct net_out *o0 = &w->op;
	struct world_metrics *m = &w->m;
	double ocv0 = battery_ocv(&w->bat_p, w->bat.soc), ocv1 = battery_ocv(&w->bat_p, x1->soc);
	const struct battery_eff *e = &w->eff;
	double h = 0.5 * dt;

	m->e_emf += h * (o0->p_emf + o1->p_emf);
	m->e_src_loss += h * (o0->p_src_loss + o1->p_src_loss);
	m->e_cable += h * (o0->p_cable + o1->p_cable);
	m->e_chg_loss += h * (o0->p_chg_loss + o1->p_chg_loss);
	m->e_load += h * (o0->p_load + o1->p_load);
	m->e_chem += h * (ocv0 * o0->ibat + ocv1 * i1);
	m->e_r0 += h * e->r0 * (o0->ibat * o0->ibat + i1 * i1);
	m->e_rc_loss += h * (w->bat.v1 * w->bat.v1 / e->r1 + w->bat.v2 * w->bat.v2 / e->r2 +
			     x1->v1 * x1->v1 / e->r1 + x1->v2 * x1->v2 / e->r2);
	m->charge_in_mah += h * (fmax(o0->ibat, 0) + fmax(i1, 0)) / 3.6;
	if (o1->ibus > m->ibus_max_a)
		m->ibus_max_a = o1->ibus;
	if (w->net.src_on) {
		double a = o0->vbus, b = o1->vbus;

		if (b < m->vbus_min_v)
			m->vbus_min_v = b;
		if (a < WORLD_VBUS_OK_V && b < WORLD_VBUS_OK_V)
			m->time_below_4v75_s += dt;
		else if ((a < WORLD_VBUS_OK_V) != (b < WORLD_VBUS_OK_V))
			m->time_below_4v75_s += dt * (WORLD_VBUS_OK_V - fmin(a, b)) / fabs(b - a);
	}
	/* Starving: the port delivers, yet less than the phone draws, so the battery
	 * makes up the rest (an input limit or a source below the load). */
	if (w->net.src_on && o0->ibus > WORLD_DELIVER_A && o1->ibus > WORLD_DELIVER_A) {
		double a = o0->ibat, b = i1;

		if (a < WORLD_DISCHARGE_A && b < WORLD_DISCHARGE_A)
			m->discharged_while_plugged_s += dt;
		else if ((a < WORLD_DISCHARGE_A) != (b < WORLD_DISCHARGE_A))
			m->discharged_while_plugged_s += dt * (WORLD_DISCHARGE_A - fmin(a, b)) / fabs(b - a);
	}
}

static void world_commit(struct world *w, sim_time_t t0, sim_time_t t1,
			 const struct battery_state *x1, const struct net_out *op1, double emf1,
			 double i1)
{
	double dt = sim_time_to_s(t1 - t0);
	struct battery_state x = *x1;

	world_accumulate(w, op1, x1, i1, dt);
	world_probe_step(w, t0, t1, op1, x1);
	if (w->bat_p.thermal) {
		double p0 = battery_loss_w(&w->eff, &w->bat, w->op.ibat);
		double p1 = battery_loss_w(&w->eff, x1, op1->ibat);

		x.temp_c = battery_thermal_advance(&w->bat_p, w->bat.temp_c, w->bat_p.temperature_c,
						   0.5 * (p0 + p1), dt);
	}
	w->bat = x;
	w->op = *op1;
	w->emf = emf1;
	w->m.steps++;
	if (w->bat_p.thermal)
		battery_effective(&w->bat_p, w->bat.temp_c, &w->eff);
	if (!op_finite(op1) || !isfinite(x.soc) || !isfinite(x.v1) || !isfinite(x.v2) ||
	    !isfinite(x.temp_c))
		world_fail(w, "a non-finite value appeared at t = %.9g s", sim_time_to_s(t1));
}

static sim_time_t world_advance_cb(void *ctx, sim_time_t from, sim_time_t to)
{
	struct world *w = ctx;
	sim_time_t t = from;

	cs_kernel_current = &w->kernel;
	world_refresh(w);
	while (t < to && !w->failed) {
		sim_time_t dt = w->opt.max_step > 0 ? w->opt.max_step : w->dt_next;
		struct battery_state x1;
		struct net_out op1;
		double emf1, i1, err, g1[N_G];

		if (dt > to - t)
			dt = to - t;
		for (;;) {
			err = world_try_step(w, sim_time_to_s(dt), &x1, &op1, &emf1, &i1);
			if (w->opt.max_step > 0 || err <= 1.0 || dt <= WORLD_DT_MIN)
				break;
			dt = (sim_time_t)((double)dt * fmax(0.2, 0.9 / sqrt(err)));
			if (dt < WORLD_DT_MIN)
				dt = WORLD_DT_MIN;
		}
		world_margins(w, &op1, &x1, g1);
		if (margins_crossed(w->g, g1)) {
			/* Bisect: lo has no crossing, hi has one; x1/op1 hold the step
			 * to `tried`, which must be hi when it is committed. */
			sim_time_t lo = 0, hi = dt, tried = dt;

			while (hi - lo > WORLD_CROSSING_TOL) {
				sim_time_t mid = lo + (hi - lo) / 2;

				world_try_step(w, sim_time_to_s(mid), &x1, &op1, &emf1, &i1);
				tried = mid;
				world_margins(w, &op1, &x1, g1);
				if (margins_crossed(w->g, g1))
					hi = mid;
				else
					lo = mid;
			}
			if (tried != hi)
				world_try_step(w, sim_time_to_s(hi), &x1, &op1, &emf1, &i1);
			world_commit(w, t, t + hi, &x1, &op1, emf1, i1);
			t += hi;
			sim_clock_set(&w->sim, t);
			/* The row just before the models react, then the one after: a step
			 * in the trace stays a step. */
			world_trace_row(w, false);
			world_settle_state(w);
			world_trace_row(w, true);
			w->dt_next = WORLD_DT_AFTER_EVENT;
			return t;
		}
		world_commit(w, t, t + dt, &x1, &op1, emf1, i1);
		t += dt;
		sim_clock_set(&w->sim, t);
		memcpy(w->g, g1, sizeof(g1));
		world_trace_row(w, false);
		if (w->opt.max_step <= 0) {
			double grow = err > 1e-12 ? 0.9 / sqrt(err) : 4.0;

			w->dt_next = (sim_time_t)((double)dt * fmin(4.0, fmax(0.5, grow)));
			if (w->dt_next < WORLD_DT_MIN)
				w->dt_next = WORLD_DT_MIN;
			if (w->dt_next > WORLD_DT_MAX)
				w->dt_next = WORLD_DT_MAX;
		}
	}
	return to;
}

static void world_settle_cb(void *ctx, sim_time_t now)
{
	struct world *w = ctx;
	struct net_in before = w->net;

	cs_kernel_current = &w->kernel;
	world_settle_state(w);
	if (memcmp(&before, &w->net, sizeof(before)) != 0)
		w->dt_next = WORLD_DT_AFTER_EVENT;
	world_probe_instant(w, now);
	world_trace_row(w, true);
}

static const struct sim_cont_ops world_cont_ops = {
	.advance = world_advance_cb,
	.settle = world_settle_cb,
};

/* ---- the board: what the stack sees ---- */

static struct world *ic_world(void *hw)
{
	return hw;
}

static int ic_set_ilim(void *hw, int ua)
{
	struct world *w = ic_world(hw);
	double applied = pmic_write_iindpm(&w->chg, ua * 1e-6);

	return (int)lround(applied * 1e6);
}

static int ic_get_ilim(void *hw)
{
	return (int)lround(ic_world(hw)->chg.iindpm * 1e6);
}

static void ic_range(void *hw, int *min_ua, int *max_ua, int *step_ua)
{
	const struct pmic_params *p = &ic_world(hw)->chg_p;

	*min_ua = (int)lround(p->iindpm_min * 1e6);
	*max_ua = (int)lround(p->iindpm_max * 1e6);
	*step_ua = p->ladder_n ? 0 : (int)lround(p->iindpm_step * 1e6);
}

static int ic_read_adc(void *hw, enum cs_adc_channel ch, int *val)
{
	struct world *w = ic_world(hw);
	double truth, x;

	world_refresh(w);
	switch (ch) {
	case CS_ADC_VBUS: truth = w->op.vbus; break;
	case CS_ADC_IBUS: truth = w->op.ibus; break;
	case CS_ADC_VBAT: truth = w->op.vbat; break;
	case CS_ADC_IBAT: truth = w->op.ibat; break;
	default: return -EINVAL;
	}
	x = pmic_adc_read(&w->chg, (enum pmic_adc_chan)ch, truth);
	*val = (int)lround(x * 1e6);
	return 0;
}

static int ic_charge_enable(void *hw, bool on)
{
	pmic_set_charge_enable(&ic_world(hw)->chg, on);
	return 0;
}

static int ic_input_enable(void *hw, bool on)
{
	pmic_set_hiz(&ic_world(hw)->chg, !on);
	return 0;
}

static int ic_set_ichg(void *hw, int ua)
{
	if (ua <= 0)
		return -EINVAL;
	pmic_write_ichg(&ic_world(hw)->chg, ua * 1e-6);
	return 0;
}

static int ic_set_vreg(void *hw, int uv)
{
	struct world *w = ic_world(hw);

	/* The chip refuses what the cell cannot take, as a register range would. */
	if (uv <= 3000000 || uv * 1e-6 > w->bat_p.v_max + 1e-9)
		return -EINVAL;
	pmic_write_vreg(&w->chg, uv * 1e-6);
	return 0;
}

static int ic_set_vindpm(void *hw, int uv)
{
	/* Only a chip that has a VINDPM loop (its preset or scenario set one) can take it. */
	if (!ic_world(hw)->vindpm_hw)
		return -EOPNOTSUPP;
	if (uv < 0)
		return -EINVAL;
	pmic_write_vindpm(&ic_world(hw)->chg, uv * 1e-6);
	return 0;
}

static int ic_start_ico(void *hw)
{
	struct world *w = ic_world(hw);

	if (!w->chg_p.ico)
		return -EOPNOTSUPP;
	pmic_start_ico(&w->chg);
	return 0;
}

static int ic_ico_result(void *hw)
{
	struct world *w = ic_world(hw);

	if (!w->chg_p.ico)
		return -EOPNOTSUPP;
	return w->chg.ico_running ? 0 : (int)lround(w->chg.ico_result * 1e6);
}

static enum cs_chg_status ic_status(void *hw)
{
	switch (ic_world(hw)->chg.state) {
	case CHG_PRECHARGE: return CS_CHG_STATUS_PRECHARGE;
	case CHG_CC: return CS_CHG_STATUS_FAST;
	case CHG_CV: return CS_CHG_STATUS_TAPER;
	case CHG_DONE: return CS_CHG_STATUS_DONE;
	case CHG_UVLO: return CS_CHG_STATUS_UVLO;
	case CHG_FAULT: return CS_CHG_STATUS_FAULT;
	default: return CS_CHG_STATUS_OFF;
	}
}

static bool ic_vbus_present(void *hw)
{
	struct world *w = ic_world(hw);

	world_refresh(w);
	return w->src.attached && w->op.vbus >= w->chg_p.uvlo_falling;
}

static const struct cs_charger_ic_ops world_ic_ops = {
	.set_input_current_limit = ic_set_ilim,
	.get_input_current_limit = ic_get_ilim,
	.input_current_range = ic_range,
	.read_adc = ic_read_adc,
	.set_charge_enable = ic_charge_enable,
	.set_input_enable = ic_input_enable,
	.set_charge_current = ic_set_ichg,
	.set_charge_voltage = ic_set_vreg,
	.set_vindpm = ic_set_vindpm,
	.start_ico = ic_start_ico,
	.get_ico_result = ic_ico_result,
	.get_status = ic_status,
	.vbus_present = ic_vbus_present,
};

/* ---- the policy ---- */

static bool world_load_policy(struct world *w, const struct scenario *sc, GError **err)
{
	const struct scenario_policy *cfg = &sc->policy;
	const char *name = w->opt.policy ? w->opt.policy : cfg->name;
	GError *inner = NULL;

	if (cfg->plugin && !w->opt.policy) {
		gpointer sym = NULL;

		w->module = g_module_open(cfg->plugin, G_MODULE_BIND_LOCAL);
		if (!w->module) {
			g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
				    "%s: policy.plugin: cannot load \"%s\": %s", sc->file, cfg->plugin,
				    g_module_error());
			return false;
		}
		if (!g_module_symbol(w->module, CS_POLICY_SYMBOL, &sym) || !sym) {
			g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
				    "%s: policy.plugin: \"%s\" has no symbol \"%s\", expected a chargesim policy plugin (see docs/policy-sdk.md)",
				    sc->file, cfg->plugin, CS_POLICY_SYMBOL);
			return false;
		}
		w->pdesc = sym;
		if (w->pdesc->abi != CS_POLICY_ABI) {
			g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
				    "%s: policy.plugin: \"%s\" was built for policy ABI %u, expected ABI %u (rebuild it against this chargesim)",
				    sc->file, cfg->plugin, w->pdesc->abi, CS_POLICY_ABI);
			return false;
		}
		if (!w->pdesc->name || !w->pdesc->probe) {
			g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
				    "%s: policy.plugin: \"%s\" has no name or no probe function",
				    sc->file, cfg->plugin);
			return false;
		}
	} else {
		w->pdesc = cs_policy_find(name);
		if (!w->pdesc) {
			g_autoptr(GPtrArray) names = g_ptr_array_new();
			g_autoptr(GString) list = g_string_new(NULL);
			const char *hint;

			for (int i = 0; cs_builtin_policies[i]; i++) {
				g_ptr_array_add(names, (gpointer)cs_builtin_policies[i]->name);
				g_string_append_printf(list, "%s%s", i ? ", " : "",
						       cs_builtin_policies[i]->name);
			}
			hint = cs_did_you_mean(name, (const char *const *)names->pdata, names->len);
			g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
				    "%s: policy: found \"%s\", expected one of %s%s%s%s", sc->file, name,
				    list->str, hint ? " (did you mean \"" : "", hint ? hint : "",
				    hint ? "\"?)" : "");
			return false;
		}
	}
	w->policy_name = g_strdup(w->pdesc->name);
	w->pparams = g_malloc0(w->pdesc->params_size ? w->pdesc->params_size : 1);
	if (w->pdesc->params_default)
		w->pdesc->params_default(w->pparams);
	/* The scenario's params belong to the scenario's policy: with --policy naming
	 * another one they are left out. */
	if (cfg->params && (!w->opt.policy || (cfg->name && strcmp(w->opt.policy, cfg->name) == 0))) {
		if (!w->pdesc->params && cJSON_GetArraySize(cfg->params) > 0) {
			g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
				    "%s: policy.params: found parameters, expected none (policy \"%s\" takes no parameters)",
				    sc->file, w->policy_name);
			return false;
		}
		if (w->pdesc->params &&
		    !param_load_object(w->pdesc->params, cfg->params, w->pparams, "policy.params",
				       NULL, &inner)) {
			g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT, "%s: %s", sc->file,
				    inner->message);
			g_error_free(inner);
			return false;
		}
	}
	return true;
}

/* ---- scenario events ---- */

static void world_plug(struct world *w, bool on)
{
	if (on == w->src.attached)
		return;
	source_attach(&w->src, on);
	if (w->src.attached != on)
		return;         /* a "none" source: there is nothing to plug in */
	evlog_emit(w->log, sim_now(&w->sim), "source", on ? "attach" : "detach", "kind",
		   source_kind_names[w->src_p.kind]);
	w->dirty = true;
}

static void world_vbus_cb(struct sim_event *ev, void *data)
{
	struct world *w = data;

	(void)ev;
	w->vbus_cond = false;
	w->vbus_seen = !w->vbus_seen;
	board_vbus(&w->drv, w->vbus_seen);
	phy_attach(&w->phym, w->vbus_seen);
}

static void world_boot_set_gate(void *hw, cs_boot_gate_fn fn, void *ctx)
{
	boot_set_gate(&((struct world *)hw)->bootm, fn, ctx);
}

static const char *world_boot_state(void *hw)
{
	return boot_stage_name(&((struct world *)hw)->bootm);
}

static void world_phy_result_cb(void *ctx, const struct phy_result *r)
{
	struct world *w = ctx;

	board_detected(&w->drv, r);
	if (w->drv.detected_type)
		w->m.detected_type = w->drv.detected_type;
}

/* The hardware as the board's drivers read it (power_supply properties). */
static void world_board_read_cb(void *ctx, struct board_readings *r)
{
	struct world *w = ctx;
	static const int status_of[] = {
		[CHG_OFF] = POWER_SUPPLY_STATUS_DISCHARGING, [CHG_PRECHARGE] = POWER_SUPPLY_STATUS_CHARGING,
		[CHG_CC] = POWER_SUPPLY_STATUS_CHARGING, [CHG_CV] = POWER_SUPPLY_STATUS_CHARGING,
		[CHG_DONE] = POWER_SUPPLY_STATUS_FULL, [CHG_UVLO] = POWER_SUPPLY_STATUS_NOT_CHARGING,
		[CHG_FAULT] = POWER_SUPPLY_STATUS_NOT_CHARGING,
	};
	static const int type_of[] = {
		[CHG_OFF] = POWER_SUPPLY_CHARGE_TYPE_NONE, [CHG_PRECHARGE] = POWER_SUPPLY_CHARGE_TYPE_TRICKLE,
		[CHG_CC] = POWER_SUPPLY_CHARGE_TYPE_FAST, [CHG_CV] = POWER_SUPPLY_CHARGE_TYPE_FAST,
		[CHG_DONE] = POWER_SUPPLY_CHARGE_TYPE_NONE, [CHG_UVLO] = POWER_SUPPLY_CHARGE_TYPE_NONE,
		[CHG_FAULT] = POWER_SUPPLY_CHARGE_TYPE_NONE,
	};
	double soc = w->bat.soc;

	world_refresh(w);
	r->vbus_online = w->src.attached && w->op.vbus >= PMIC_VBUS_SESSION_V;
	r->vbus_uv = (int)lround(w->op.vbus * 1e6);
	r->ibus_ua = (int)lround(w->op.ibus * 1e6);
	r->ilim_ua = (int)lround(w->chg.iindpm * 1e6);
	r->ichg_ua = (int)lround(w->chg_p.ichg * 1e6);
	r->vreg_uv = (int)lround(w->chg_p.vreg * 1e6);
	r->status = status_of[w->chg.state];
	r->charge_type = type_of[w->chg.state];
	r->bat_uv = (int)lround(w->op.vbat * 1e6);
	r->bat_ua = (int)lround(w->op.ibat * 1e6);
	r->bat_capacity = (int)lround(fmin(fmax(soc, 0), 1) * 100);
	r->bat_temp_decic = (int)lround(w->bat.temp_c * 10);
	r->bat_full_design_uah = (int)lround(w->bat_p.capacity_ah * 1e6);
	r->chip = pmic_preset_names[w->chg_p.preset];
}

static void world_sysfs_cb(struct sim_event *ev, void *data)
{
	struct world *w = data;
	int i = (int)(ev - w->sysfs_ev);
	g_autofree char *dir = NULL;
	GError *err = NULL;

	if (!w->outdir)
		return;
	world_refresh(w);
	dir = g_strdup_printf("%s/sysfs-%s", w->outdir, w->opt.sysfs_labels[i]);
	if (!board_sysfs_dump(&w->drv, dir, &err)) {
		world_fail(w, "%s", err->message);
		g_error_free(err);
	}
}

static void world_dropout_end_cb(struct sim_event *ev, void *data)
{
	struct world *w = data;

	(void)ev;
	w->dropout = false;
	w->dirty = true;
	evlog_emit(w->log, sim_now(&w->sim), "cable", "dropout_end", NULL, NULL);
}

static void *world_obj_base(struct world *w, int obj)
{
	switch (obj) {
	case SCN_OBJ_SOURCE: return &w->src_p;
	case SCN_OBJ_CABLE: return &w->cab_p;
	case SCN_OBJ_PMIC: return &w->chg_p;
	case SCN_OBJ_BATTERY: return &w->bat_p;
	case SCN_OBJ_LOAD: return &w->load_p;
	case SCN_OBJ_PHY: return &w->phy_p;
	case SCN_OBJ_POLICY: return w->pparams;
	}
	return NULL;
}

static void world_apply_set(struct world *w, const struct scenario_event *e,
			    const struct param_desc *desc)
{
	GError *err = NULL;
	char *base = world_obj_base(w, e->obj);
	cJSON *rec;

	if (!param_load_value(desc, e->value, base + e->base_off, e->path, &err)) {
		/* Validated when the scenario was loaded: this cannot fail. */
		world_fail(w, "set %s failed: %s", e->path, err->message);
		g_error_free(err);
		return;
	}
	rec = evlog_begin(w->log, sim_now(&w->sim), "scenario", "set");
	cJSON_AddStringToObject(rec, "path", e->path);
	cJSON_AddItemToObject(rec, "value", cJSON_Duplicate(e->value, true));
	evlog_end(w->log, rec);
	switch (e->obj) {
	case SCN_OBJ_SOURCE:
		if (strcmp(desc->key, "rp") == 0) {
			if (w->src_p.ilim_from_rp)
				w->src_p.ilim = source_rated_current(&w->src_p);
			phy_rp_changed(&w->phym);
		}
		source_params_changed(&w->src);
		break;
	case SCN_OBJ_CABLE:
		w->r_cable = cable_r_loop(&w->cab_p);
		break;
	case SCN_OBJ_PMIC:
		pmic_params_changed(&w->chg);
		break;
	case SCN_OBJ_BATTERY:
		battery_effective(&w->bat_p, w->bat_p.thermal ? w->bat.temp_c : w->bat_p.temperature_c,
				  &w->eff);
		if (!w->bat_p.thermal)
			w->bat.temp_c = w->bat_p.temperature_c;
		break;
	case SCN_OBJ_POLICY:
		if (w->pdesc->params_changed)
			w->pdesc->params_changed(w->ppriv);
		break;
	}
	w->dirty = true;
}

static void world_scenario_event_cb(struct sim_event *ev, void *data)
{
	struct world *w = data;
	int idx = (int)(ev - w->sev);
	const struct scenario_event *e = &w->sev_def[idx];

	switch (e->kind) {
	case SCN_EV_PLUG:
		world_plug(w, true);
		break;
	case SCN_EV_UNPLUG:
		world_plug(w, false);
		break;
	case SCN_EV_SET:
		world_apply_set(w, e, w->sev_desc[idx]);
		break;
	case SCN_EV_SUSPEND:
	case SCN_EV_RESUME:
		board_suspend(&w->drv, e->kind == SCN_EV_SUSPEND);
		break;
	case SCN_EV_FAULT_DROPOUT: {
		cJSON *rec = evlog_begin(w->log, sim_now(&w->sim), "cable", "dropout");

		cJSON_AddNumberToObject(rec, "for_s", sim_time_to_s(e->duration));
		evlog_end(w->log, rec);
		w->dropout = true;
		w->dirty = true;
		sim_reschedule(&w->sim, &w->ev_dropout_end, sim_now(&w->sim) + e->duration);
		break;
	}
	case SCN_EV_FAULT_ADC_STUCK: {
		cJSON *rec = evlog_begin(w->log, sim_now(&w->sim), "pmic", "adc_stuck");

		cJSON_AddStringToObject(rec, "channel", pmic_adc_names[e->channel]);
		cJSON_AddNumberToObject(rec, "value", e->stuck_value);
		cJSON_AddNumberToObject(rec, "for_s", sim_time_to_s(e->duration));
		evlog_end(w->log, rec);
		pmic_adc_stick(&w->chg, e->channel, e->stuck_value, e->duration);
		break;
	}
	}
}

/* ---- life cycle ---- */

/* "policy.params.KEY": KEY must be one of the policy's parameters and the value must
 * load into it (validated on a scratch copy of the parameter struct). */
static bool world_resolve_policy_set(struct world *w, const struct scenario *sc,
				     const struct scenario_event *e, int i, GError **err)
{
	const char *key = e->path + strlen("policy.params.");
	const struct param_desc *d = w->pdesc->params ? param_find(w->pdesc->params, key) : NULL;
	g_autofree char *where = g_strdup_printf("events[%d].path", i);
	g_autofree char *vwhere = g_strdup_printf("events[%d].value", i);
	g_autofree void *scratch = NULL;
	GError *inner = NULL;

	if (!d || d->kind == PARAM_OBJECT) {
		param_error_unknown_key(w->pdesc->params, NULL, key, "policy.params", &inner);
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT, "%s: %s: %s", sc->file, where,
			    inner->message);
		g_error_free(inner);
		return false;
	}
	scratch = g_memdup2(w->pparams, w->pdesc->params_size ? w->pdesc->params_size : 1);
	if (!param_load_value(d, e->value, scratch, vwhere, &inner)) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT, "%s: %s", sc->file, inner->message);
		g_error_free(inner);
		return false;
	}
	if (d->kind == PARAM_STR)
		g_free(*PARAM_FIELD(scratch, d, char *));
	w->sev_desc[i] = d;
	return true;
}

struct world *world_new(const struct scenario *sc, const struct world_options *opt, GError **err)
{
	struct world *w = g_new0(struct world, 1);

	w->opt = *opt;
	w->name = g_strdup(sc->name);
	w->duration = sc->duration;
	w->src_p = sc->source;
	w->cab_p = sc->cable;
	w->chg_p = sc->pmic;
	w->bat_p = sc->battery;
	w->load_p = sc->load;
	w->phy_p = sc->phy;
	w->gad_p = sc->gadget;
	w->ker_p = sc->kernel;
	sim_init(&w->sim, sc->seed);
	w->kernel.sim = &w->sim;
	w->log = evlog_new();
	w->kernel.log = w->log;
	cs_kernel_current = &w->kernel;

	w->m.vbus_min_v = INFINITY;
	w->m.time_to_soc_80_s = -1;
	w->m.time_to_full_s = -1;

	if (opt->outdir) {
		g_autofree char *ev = NULL, *csv = NULL, *vcd = NULL;

		w->outdir = g_strdup(opt->outdir);
		if (!cs_mkdir_p(w->outdir, err))
			goto fail;
		ev = g_build_filename(w->outdir, "events.jsonl", NULL);
		if (!evlog_open(w->log, ev, err))
			goto fail;
		if (!opt->no_trace || opt->vcd) {
			csv = opt->no_trace ? NULL : g_build_filename(w->outdir, "trace.csv", NULL);
			vcd = opt->vcd ? g_build_filename(w->outdir, "trace.vcd", NULL) : NULL;
			w->trace = trace_new(trace_cols, NCOLS);
			if (!trace_open(w->trace, csv, vcd, err))
				goto fail;
		}
	}
	if (opt->n_probes > 0)
		w->probe_vals = g_malloc0_n((gsize)opt->n_probes, sizeof(*w->probe_vals));

	/* models */
	source_init(&w->src, &w->src_p, &w->sim, w->log, world_changed_cb, w);
	pmic_init(&w->chg, &w->chg_p, &w->sim, w->log, world_changed_cb, w);
	load_init(&w->load, &w->load_p, &w->sim, w->log, world_changed_cb, w);
	boot_init(&w->bootm, &w->load_p.boot, &w->sim, w->log, world_changed_cb, w);
	w->boot_hook.set_gate = world_boot_set_gate;
	w->boot_hook.state = world_boot_state;
	w->boot_hook.hw = w;
	battery_state_init(&w->bat_p, &w->bat);
	battery_effective(&w->bat_p, w->bat.temp_c, &w->eff);
	w->rc_e0 = battery_rc_energy(&w->eff, &w->bat);
	w->vindpm_hw = w->chg_p.vindpm > 0;
	w->r_cable = cable_r_loop(&w->cab_p);
	sim_event_init(&w->ev_dropout_end, world_dropout_end_cb, w);
	sim_event_init(&w->ev_vbus, world_vbus_cb, w);
	w->m.soc_initial = w->bat.soc;

	phy_init(&w->phym, &w->phy_p, &w->src_p, &w->cab_p, &w->src, &w->sim, w->log,
		 world_phy_result_cb, w);

	/* the stack's view */
	w->phy_dev.init_name = "usb-phy";
	w->phy.dev = &w->phy_dev;
	w->phy.label = "usb-phy";
	w->ic.name = pmic_preset_names[w->chg_p.preset];
	w->ic.ops = &world_ic_ops;
	w->ic.hw = w;
	board_init(&w->drv, &w->sim, w->log, &w->phy, &w->src_p, &w->gad_p, &w->ker_p,
		   world_board_read_cb, w);
	board_fill(&w->drv, &w->board);
	w->board.name = w->name;
	w->board.ic = &w->ic;
	w->board.boot = &w->boot_hook;
	w->models_ready = true;
	if (opt->n_sysfs > 0) {
		w->sysfs_ev = g_new0(struct sim_event, (gsize)opt->n_sysfs);
		for (int i = 0; i < opt->n_sysfs; i++)
			sim_event_init(&w->sysfs_ev[i], world_sysfs_cb, w);
	}
	if (!world_load_policy(w, sc, err))
		goto fail;

	/* scenario events; `set` on policy.params.* is checked against the policy now */
	w->n_sev = sc->n_events;
	w->sev_def = sc->events;
	w->sev_desc = g_new0(const struct param_desc *, (gsize)sc->n_events + 1);
	for (int i = 0; i < sc->n_events; i++) {
		const struct scenario_event *e = &sc->events[i];

		w->sev_desc[i] = e->desc;
		if (e->kind == SCN_EV_SET && e->obj == SCN_OBJ_POLICY &&
		    !world_resolve_policy_set(w, sc, e, i, err))
			goto fail;
	}
	w->sev = g_new0(struct sim_event, (gsize)sc->n_events + 1);
	for (int i = 0; i < sc->n_events; i++)
		sim_event_init(&w->sev[i], world_scenario_event_cb, w);
	w->dt_next = WORLD_DT_AFTER_EVENT;
	sim_set_cont(&w->sim, &world_cont_ops, w);
	return w;
fail:
	world_free(w);
	return NULL;
}

static void world_plug_at_start_cb(struct sim_event *ev, void *data)
{
	(void)ev;
	world_plug(data, true);
}

bool world_run(struct world *w, GError **err)
{
	struct sim_event plug0;
	int rc;

	cs_kernel_current = &w->kernel;
	rc = w->pdesc->probe(&w->board, w->pparams, &w->ppriv);
	if (rc < 0) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "policy \"%s\" failed to probe: error %d", w->policy_name, rc);
		return false;
	}
	evlog_emit(w->log, 0, "stack", "probe", "policy", w->policy_name);
	sim_event_init(&plug0, world_plug_at_start_cb, w);
	if (w->src_p.kind != SRC_KIND_NONE && (w->n_sev == 0 || w->sev_def[0].kind != SCN_EV_PLUG))
		sim_at(&w->sim, &plug0, 0);
	for (int i = 0; i < w->n_sev; i++)
		sim_at(&w->sim, &w->sev[i], w->sev_def[i].at);
	for (int i = 0; i < w->opt.n_sysfs; i++)
		if (w->opt.sysfs_at[i] <= w->duration)
			sim_at(&w->sim, &w->sysfs_ev[i], w->opt.sysfs_at[i]);
	load_start(&w->load);
	boot_start(&w->bootm);

	/* the state at t = 0, before anything happens */
	world_settle_state(w);
	world_trace_row(w, false);
	sim_run_until(&w->sim, w->duration);
	sim_cancel(&w->sim, &plug0);
	if (w->sim.stalled)
		world_fail(w, "time stopped advancing at t = %.9g s: more than %d events at one instant (zero delays feeding each other?)",
			   sim_time_to_s(sim_now(&w->sim)), SIM_MAX_EVENTS_PER_INSTANT);
	if (w->failed) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "internal error: %s", w->fail_msg);
		return false;
	}
	return true;
}

static void world_finish_metrics(struct world *w)
{
	struct world_metrics *m = &w->m;
	double stored, rhs, scale;

	m->source_trips = w->src.trips;
	m->uvlo_events = w->chg.uvlo_events;
	m->brownouts = w->load.brownouts;
	m->boots = w->bootm.boots;
	m->time_to_running_s = w->bootm.t_running;
	m->ilim_final_a = w->chg.iindpm;
	m->soc_final = w->bat.soc;
	m->energy_source_wh = m->e_emf / 3600.0;
	if (!isfinite(m->vbus_min_v))
		m->vbus_min_v = NAN;  /* reported as null: the source never delivered */
	m->e_rc_stored = battery_rc_energy(&w->eff, &w->bat) - w->rc_e0;
	stored = m->e_chem + m->e_r0 + m->e_rc_loss + m->e_rc_stored;
	rhs = m->e_src_loss + m->e_cable + m->e_chg_loss + m->e_load + stored;
	scale = fmax(fmax(fabs(m->e_emf), fabs(m->e_load)), fabs(m->e_chem));
	m->energy_balance_error = scale > 1e-9 ? fabs(m->e_emf - rhs) / scale : 0;
	m->events = evlog_count(w->log);
	m->detected_type = w->drv.detected_type;
	m->trace_rows = w->trace ? trace_rows(w->trace) : 0;
}

static void json_num(cJSON *o, const char *key, double v, int digits)
{
	char buf[64];

	if (!isfinite(v)) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*g", digits, v);
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	cJSON_AddRawToObject(o, key, buf);
}

cJSON *world_metrics_json(const struct world *w)
{
	return world_metrics_to_json(&w->m, w->policy_name);
}

cJSON *world_metrics_to_json(const struct world_metrics *m, const char *policy)
{
	cJSON *o = cJSON_CreateObject();

	json_num(o, "vbus_min_V", m->vbus_min_v, 7);
	json_num(o, "time_below_4v75_s", m->time_below_4v75_s, 7);
	json_num(o, "discharged_while_plugged_s", m->discharged_while_plugged_s, 7);
	cJSON_AddNumberToObject(o, "source_trips", m->source_trips);
	cJSON_AddNumberToObject(o, "uvlo_events", m->uvlo_events);
	cJSON_AddNumberToObject(o, "brownouts", m->brownouts);
	cJSON_AddNumberToObject(o, "boots", m->boots);
	json_num(o, "time_to_running_s", m->time_to_running_s >= 0 ? m->time_to_running_s : NAN, 9);
	json_num(o, "ilim_final_A", m->ilim_final_a, 7);
	json_num(o, "ilim_max_A", m->ilim_max_a, 7);
	json_num(o, "ibus_max_A", m->ibus_max_a, 7);
	json_num(o, "charge_in_mAh", m->charge_in_mah, 7);
	json_num(o, "energy_source_Wh", m->energy_source_wh, 7);
	json_num(o, "soc_initial", m->soc_initial, 7);
	json_num(o, "soc_final", m->soc_final, 7);
	json_num(o, "time_to_soc_80_s", m->time_to_soc_80_s >= 0 ? m->time_to_soc_80_s : NAN, 9);
	json_num(o, "time_to_full_s", m->time_to_full_s >= 0 ? m->time_to_full_s : NAN, 9);
	if (m->detected_type)
		cJSON_AddStringToObject(o, "detected_type", m->detected_type);
	else
		cJSON_AddNullToObject(o, "detected_type");
	json_num(o, "energy_balance_error", m->energy_balance_error, 3);
	cJSON_AddNumberToObject(o, "events", (double)m->events);
	cJSON_AddNumberToObject(o, "steps", (double)m->steps);
	cJSON_AddStringToObject(o, "policy", policy ? policy : "");
	return o;
}

bool world_finish(struct world *w, GError **err)
{
	bool ok = true;

	world_finish_metrics(w);
	if (!w->outdir)
		return true;
	if (w->trace) {
		ok = trace_close(w->trace, err);
	}
	if (ok)
		ok = evlog_close(w->log, err);
	if (ok) {
		cJSON *o = world_metrics_json(w);
		char *text = cJSON_Print(o);
		g_autofree char *path = g_build_filename(w->outdir, "metrics.json", NULL);
		g_autofree char *full = g_strconcat(text, "\n", NULL);

		ok = cs_outfile_write_all(path, full, strlen(full), err);
		cJSON_free(text);
		cJSON_Delete(o);
	}
	return ok;
}

void world_add_event_listener(struct world *w, evlog_listener_cb cb, void *data)
{
	evlog_add_listener(w->log, cb, data);
}

const struct world_metrics *world_metrics(const struct world *w)
{
	return &w->m;
}

const char *world_policy_name(const struct world *w)
{
	return w->policy_name;
}

bool world_probe_value(const struct world *w, int i, const char *column, double *value)
{
	for (int c = 0; c < NCOLS; c++)
		if (strcmp(trace_cols[c].name, column) == 0) {
			*value = w->probe_vals[i][c];
			return true;
		}
	if (strcmp(column, "time_s") == 0) {
		*value = sim_time_to_s(w->opt.probe_at[i]);
		return true;
	}
	return false;
}

void world_free(struct world *w)
{
	if (!w)
		return;
	cs_kernel_current = &w->kernel;
	if (w->pdesc && w->ppriv && w->pdesc->remove)
		w->pdesc->remove(w->ppriv);
	if (w->pdesc && w->pdesc->params && w->pparams)
		param_free_strings(w->pdesc->params, w->pparams);
	g_free(w->pparams);
	if (w->models_ready) {
		source_cleanup(&w->src);
		pmic_cleanup(&w->chg);
		load_cleanup(&w->load);
		boot_cleanup(&w->bootm);
		phy_cleanup(&w->phym);
		board_cleanup(&w->drv);
		sim_cancel(&w->sim, &w->ev_dropout_end);
		sim_cancel(&w->sim, &w->ev_vbus);
	}
	for (int i = 0; w->sysfs_ev && i < w->opt.n_sysfs; i++)
		sim_cancel(&w->sim, &w->sysfs_ev[i]);
	g_free(w->sysfs_ev);
	if (w->sev)
		for (int i = 0; i < w->n_sev; i++)
			sim_cancel(&w->sim, &w->sev[i]);
	trace_free(w->trace);
	evlog_free(w->log);
	sim_destroy(&w->sim);
	if (w->module)
		g_module_close(w->module);
	g_free(w->sev);
	g_free(w->sev_desc);
	g_free(w->probe_vals);
	g_free(w->policy_name);
	g_free(w->name);
	g_free(w->outdir);
	g_free(w->fail_msg);
	if (cs_kernel_current == &w->kernel)
		cs_kernel_current = NULL;
	g_free(w);
}
