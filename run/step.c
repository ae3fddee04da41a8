// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/step.c - the run's continuous part: operating points and adaptive steps.
 *
 * Stepping (docs/models.md, "Time stepping"): between discrete events the battery
 * state x = (SOC, V1, V2) advances in implicit steps (world_try_step) whose size
 * follows their error (world_fit_step); every step ends at or before the next queued
 * event. The margins g_i (>= 0 means "condition holds": below UVLO, in CV, in current
 * limit, ...; each model's, then the metrics') are evaluated at both ends of a step;
 * when one changes sign, the step is bisected down to WORLD_CROSSING_TOL and cut at
 * the crossing, where the models react (start a deglitch timer, trip, terminate ...).
 *
 * After the events of an instant the models react to the re-solved state until nothing
 * changes (world_settle_state); then the probes and, if anything moved, a trace row.
 */
#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "run/linux_board.h"
#include "sim/fmax.h"
#include "run/world_priv.h"

#define WORLD_CROSSING_TOL  (10 * SIM_US)  /* thresholds located to 10 us */
#define WORLD_DT_MIN        (1 * SIM_US)   /* smallest adaptive step */
#define WORLD_DT_MAX        (600 * SIM_S)  /* a step never spans more than 10 min */
#define WORLD_DT_AFTER_EVENT (10 * SIM_MS) /* restart small after a discrete change */
#define WORLD_TOL_V         3e-5           /* V: trapezoidal/backward-Euler VBAT difference */
#define WORLD_MAX_DSOC      0.005          /* SOC change per step */
#define WORLD_MAX_DEMF      0.004          /* V: EMF change per step */
#define WORLD_SETTLE_MAX    16             /* rounds of observe/re-solve after events */
#define WORLD_LINE_PASSES   3              /* solves of a step's end: SOC may change OCV segment */

void world_fail(struct world *w, const char *fmt, ...)
{
	va_list ap;

	if (w->fail_msg)
		return;
	va_start(ap, fmt);
	w->fail_msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	sim_stop(&w->sim);
}

/* The circuit of the current state: each model's part, in registry order. A `set`
 * event (the OCV table among the parameters it may change) makes the world dirty,
 * which brings it here before the next solve: the memo of world_ocv() starts over. */
static void world_prepare_net(struct world *w)
{
	w->ocv_memo_soc[0] = w->ocv_memo_soc[1] = NAN;
	memset(&w->net, 0, sizeof(w->net));
	for (int k = 0; k < w->n_nets; k++)
		w->nets[k].net(w->nets[k].state, &w->op, &w->net);
	w->net_solve = w->net;
	net_prepare(&w->net, &w->net_side);
}

/* The operating point for battery state x with the circuit of the current state; the
 * state's OCV is kept for world_ocv(). world_solve(), world_ocv() and world_margins()
 * are inline: each runs once or twice a step (together 1.2 % of a full charge's
 * instructions went to their calls). */
static inline void world_solve(struct world *w, const struct battery_state *x,
			       struct net_out *op, double *emf_out)
{
	struct net_in *in = &w->net_solve;
	const struct battery *b = world_cell(w);
	double ocv = battery_ocv_from(b->p, x->soc, &w->ocv_seg);

	w->ocv_memo_soc[w->ocv_memo_next] = x->soc;
	w->ocv_memo_v[w->ocv_memo_next] = ocv;
	w->ocv_memo_next ^= 1;
	in->emf = ocv + x->v1 + x->v2;   /* battery_emf() */
	in->r0 = b->eff.r0;
	in->chg_on = w->net.chg_on;
	net_solve_prepared(in, &w->net_side, op);
	*emf_out = in->emf;
}

/* The OCV is a function of SOC alone while the parameters stay (world_prepare_net()),
 * so the value computed for the same SOC is the value. A NaN matches nothing. */
static inline double world_ocv(struct world *w, double soc)
{
	for (int i = 0; i < 2; i++)
		if (w->ocv_memo_soc[i] == soc)
			return w->ocv_memo_v[i];
	return battery_ocv_from(world_cell(w)->p, soc, &w->ocv_seg);
}

void world_refresh(struct world *w)
{
	if (!w->dirty)
		return;
	w->dirty = false;
	world_prepare_net(w);
	world_solve(w, &world_cell(w)->x, &w->op, &w->emf);
}

static inline void world_margins(const struct world *w, const struct net_out *op,
				 const struct battery_state *x, double *g)
{
	struct model_point pt = { &w->net, op, &w->wires, x };
	const struct world_margins_hook *h = w->margins, *end = h + w->n_margins;

	for (; h < end; h++)
		h->margins(h->state, &pt, g + h->at);
	world_metrics_margins(w, &pt, g + w->n_g - w->n_cuts);
}

/* Checked after every step, and a crossing is rare: the whole array is compared
 * without an early exit, two margins at a time where SSE2 has it (its >= is C's: false
 * for a NaN). */
static inline bool margins_crossed(const struct world *w, const double *g0,
				   const double *g1)
{
	unsigned crossed = 0;
	int i = 0;

#ifdef __SSE2__
	const __m128d zero = _mm_setzero_pd();

	for (; i + 2 <= w->n_g; i += 2)
		crossed |= (unsigned)_mm_movemask_pd(_mm_xor_pd(
			_mm_cmpge_pd(_mm_loadu_pd(g0 + i), zero),
			_mm_cmpge_pd(_mm_loadu_pd(g1 + i), zero)));
#endif
	for (; i < w->n_g; i++)
		crossed |= (unsigned)(g0[i] >= 0) ^ (unsigned)(g1[i] >= 0);
	return crossed;
}

static inline bool world_op_finite(const struct net_out *o)
{
	return isfinite(o->vsrc) && isfinite(o->vbus) && isfinite(o->ibus) && isfinite(o->vsys) &&
	       isfinite(o->iload) && isfinite(o->vbat) && isfinite(o->ibat) && isfinite(o->p_emf) &&
	       isfinite(o->p_chg_loss) && isfinite(o->p_load);
}

void world_settle_state(struct world *w)
{
	struct battery_state *x = &world_cell(w)->x;
	struct model_point pt = { &w->net, &w->op, &w->wires, x };
	bool settled = false;

	world_prepare_net(w);
	for (int round = 0; round < WORLD_SETTLE_MAX && !settled; round++) {
		struct net_in before = w->net;

		world_solve(w, x, &w->op, &w->emf);
		w->dirty = false;
		for (int k = 0; k < w->n_observe; k++)
			w->observe[k].fn(w->observe[k].state, &pt);
		world_metrics_observe(w, &pt, false);
		world_prepare_net(w);
		settled = !w->dirty && memcmp(&before, &w->net, sizeof(before)) == 0;
	}
	/* Settled, the circuit is the one just solved (the same net, battery state and
	 * cell), so w->op is already its solution; else it is solved once more. */
	if (!settled)
		world_solve(w, x, &w->op, &w->emf);
	w->dirty = false;
	for (int k = 0; k < w->n_settled; k++)
		w->settled[k].fn(w->settled[k].state, &pt);
	world_metrics_observe(w, &pt, true);
	if (!world_op_finite(&w->op))
		world_fail(w, "the operating point is not finite at t = %.9g s (vbus %g V, ibat %g A)",
			   sim_time_to_s(sim_now(&w->sim)), w->op.vbus, w->op.ibat);
	world_margins(w, &w->op, x, w->g);
}

/* The end of a step from the committed state, the current ramping from the start
 * current i0 to the end current (ramp) or held at it: x1, the end current *i1 and the
 * operating point op with the cell as its end-of-step line (battery_end_line: the RC
 * voltages are affine in the end current, the OCV linear on its table segment). The end
 * current, the one the network draws in the end state, is then found in one solve (one
 * more when SOC ended on another segment than soc_at's), and an RC pair far faster than
 * the step simply follows the current (V = R*i): iterating the network with the cell as
 * EMF behind R0 instead multiplies an error by R1/R0 per round when the charger
 * regulates the battery voltage. Inlined into world_try_step()'s two calls, each with
 * its ramp a constant: 1.2 % fewer instructions on a full charge than one shared copy. */
static inline __attribute__((always_inline))
void world_step_end(struct world *w, bool ramp, double soc_at, struct battery_state *x1,
		    struct net_out *op, double *i1)
{
	const struct battery *b = world_cell(w);
	struct net_in *in = &w->net_solve;
	double i0 = w->op.ibat;
	int seg_at = battery_ocv_segment_from(b->p, soc_at, w->ocv_seg), seg1;

	for (int pass = 0; pass < WORLD_LINE_PASSES; pass++) {
		battery_end_line_step(b->p, &b->eff, &w->rc, &b->x, i0, ramp, soc_at, seg_at,
				      &in->emf, &in->r0);
		/* A step that starts with the input collapsed is integrated collapsed (the
		 * charger's output side off): the network can then have a second consistent
		 * point, charging with a stiff pair's V1 = R1*i raised by the charge current,
		 * which the cell cannot reach without a current the collapsed input never
		 * delivers. Leaving the collapse is a margin crossing like any other. */
		in->chg_on = w->net.chg_on && !(w->op.flags & NET_F_COLLAPSE);
		net_solve_prepared(in, &w->net_side, op);
		*i1 = op->ibat;
		battery_advance_step(&b->eff, &w->rc, &b->x, ramp ? i0 : *i1, *i1, x1);
		seg1 = battery_ocv_segment_from(b->p, x1->soc, seg_at);
		if (seg1 == seg_at)
			break;
		soc_at = x1->soc;
		seg_at = seg1;
	}
	w->ocv_seg = seg_at;
}

/*
 * A cell with the thermal model heats within a step, and its resistances follow its
 * temperature (Arrhenius, battery_effective()). Taken at the step's start temperature
 * they lag behind it by the whole step: in a CV phase, where the current is the
 * voltage headroom over R0, that is a current error of the order of
 * (dlnR/dT)·dT per step, carried on by the next step's start current; at -10 °C
 * ambient with ~27 K of self-heating the time to full came out 0.12 % early. So a
 * step is taken with the resistances at the midpoint temperature predicted from the
 * start's losses (world_thermal_mid()); the end temperature then comes from the mean
 * of the start and end losses (world_thermal_end()), and the midpoint's miss, as the
 * voltage it moves across R0, is part of the step's error estimate, so the step
 * control sees the temperature as it sees the other states. (Without the thermal
 * model the temperature is a parameter and none of this runs.)
 */
static double world_thermal_mid(struct world *w, double dt)
{
	struct battery *b = world_cell(w);
	struct battery_eff e0;
	double t_end;

	battery_effective(b->p, b->x.temp_c, &e0);
	t_end = battery_thermal_advance(b->p, b->x.temp_c, b->p->temperature_c,
					battery_loss_w(&e0, &b->x, w->op.ibat), dt);
	battery_effective(b->p, 0.5 * (b->x.temp_c + t_end), &b->eff);
	return 0.5 * (b->x.temp_c + t_end);
}

/* The end temperature of a step taken at t_mid (world_thermal_mid()) into x1, and
 * the error of that midpoint as a voltage: what its miss moves across R0 at the end
 * current. */
static double world_thermal_end(struct world *w, double dt, struct battery_state *x1,
				const struct net_out *op1, double t_mid)
{
	const struct battery *b = world_cell(w);
	double p0 = battery_loss_w(&b->eff, &b->x, w->op.ibat);
	double p1 = battery_loss_w(&b->eff, x1, op1->ibat);
	double miss;

	x1->temp_c = battery_thermal_advance(b->p, b->x.temp_c, b->p->temperature_c,
					     0.5 * (p0 + p1), dt);
	miss = fabs(0.5 * (b->x.temp_c + x1->temp_c) - t_mid);
	return fabs(op1->ibat) * b->eff.r0 * battery_dlnr_dt(b->p, t_mid) * miss;
}

/* One step of dt seconds from the committed state: the trapezoidal step (the current
 * ramping linearly from start to end) or, with hold, the backward-Euler one (held at
 * its end value), which takes a transient far faster than the step (an RC pair of
 * microseconds after a discrete change) without carrying the start current into the
 * end state. Their difference, both consistent with the network, is the local error of
 * the first-order step; a stiff pair, which both bring to R*i1, adds nothing to it. x1
 * is then solved as any state (EMF behind R0), which gives the end current *i1 again up
 * to rounding: the network meets both lines of the cell at one point. Returns the error
 * ratio (<= 1 is acceptable): the difference of the terminal voltage and of the
 * battery current (as a voltage across R0), and the SOC and EMF change. */
static double world_try_step(struct world *w, double dt, bool hold, struct battery_state *x1,
			     struct net_out *op1, double *emf1, double *i1)
{
	const struct battery *b = world_cell(w);
	const struct battery_state *x0 = &b->x;
	struct battery_state xb, xt;
	struct net_out opb, opt;
	double i0 = w->op.ibat, q = b->eff.q_as, ib, it, ev, es, ee;
	double t_mid = b->p->thermal ? world_thermal_mid(w, dt) : x0->temp_c;

	/* both ends share the RC pairs' exponentials of dt (computed again only when dt
	 * or the time constants differ from the last trial's) */
	if (!battery_rc_step_fits(&w->rc, &b->eff, dt))
		battery_rc_step(&b->eff, dt, &w->rc);
	/* the OCV linearised where the start current would take SOC, then where the
	 * backward-Euler current takes it */
	world_step_end(w, false, x0->soc + i0 * dt / q, &xb, &opb, &ib);
	world_step_end(w, true, x0->soc + 0.5 * (i0 + ib) * dt / q, &xt, &opt, &it);
	*x1 = hold ? xb : xt;
	*i1 = hold ? ib : it;
	world_solve(w, x1, op1, emf1);
	if (((hold ? opb.flags : opt.flags) & NET_F_LIMITING) && !(op1->flags & NET_F_LIMITING) &&
	    !w->net_solve.was_limiting) {
		/* The step's end took the source into its limit (the cell's end-of-step
		 * line asks a little more than its EMF behind R0 does): the state is that
		 * of a source in its limit, as the step integrated it. */
		w->net_solve.was_limiting = true;
		world_solve(w, x1, op1, emf1);
		w->net_solve.was_limiting = w->net.was_limiting;
	}
	ev = fmax_inline(fabs(opt.vbat - opb.vbat), fabs(it - ib) * b->eff.r0) / WORLD_TOL_V;
	if (b->p->thermal)
		ev = fmax_inline(ev, world_thermal_end(w, dt, x1, op1, t_mid) / WORLD_TOL_V);
	es = fabs(x1->soc - x0->soc) / WORLD_MAX_DSOC;
	ee = fabs(*emf1 - w->emf) / WORLD_MAX_DEMF;
	return fmax_inline(ev, fmax_inline(es, ee));
}

/* Try a step of *dt, and shorter ones while the error is too large, down to
 * WORLD_DT_MIN. The step taken is in x1, op1, emf1, i1 and its size in *dt; *next is
 * the size to try next.
 * An error that does not come down as the step is cut is not one a shorter step
 * resolves: a truncation error falls at least in proportion to the step, but an RC
 * pair far faster than WORLD_DT_MIN moves the EMF as much in 1 us as in 10 ms, and a
 * network with no consistent operating point disagrees with itself at any step. So
 * when the shortest step's error is still above 1 and above err_first*sqrt(dt/dt_first)
 * (a loose bound: a first-order error would be at err_first*dt/dt_first), the step is
 * unresolved. The first time, the shortest step is taken: the fast transient is then
 * over (the pair ends at R*i), and in 1 us, so that the energy accounting does not
 * spread its jump over a long step; the next step tries the first size again.
 * Unresolved twice in a row, the error is the network's own: the first size is taken
 * and the next one doubled, so that the run does not crawl at 1 us for good. */
static void world_fit_step(struct world *w, sim_time_t *dt, struct battery_state *x1,
			   struct net_out *op1, double *emf1, double *i1, sim_time_t *next)
{
	sim_time_t dt_first = *dt;
	double err_first, err, grow;

	err = err_first = world_try_step(w, sim_time_to_s(*dt), false, x1, op1, emf1, i1);
	*next = *dt;
	if (w->opt.max_step > 0)
		return;
	while (err > 1.0 && *dt > WORLD_DT_MIN) {
		*dt = (sim_time_t)((double)*dt * fmax(0.2, 0.9 / sqrt(err)));
		if (*dt < WORLD_DT_MIN)
			*dt = WORLD_DT_MIN;
		err = world_try_step(w, sim_time_to_s(*dt), false, x1, op1, emf1, i1);
	}
	if (err > 1.0 && *dt < dt_first &&
	    err > err_first * sqrt((double)*dt / (double)dt_first)) {
		if (w->unresolved)
			*dt = dt_first;
		world_try_step(w, sim_time_to_s(*dt), true, x1, op1, emf1, i1);
		*next = w->unresolved ? 2 * dt_first : dt_first;
		w->unresolved = true;
		return;
	}
	w->unresolved = false;
	grow = err > 1e-12 ? 0.9 / sqrt(err) : 4.0;
	*next = (sim_time_t)((double)*dt * fmin(4.0, fmax_inline(0.5, grow)));
}

/* The state at probe time tp inside a step (t0, t1) from the committed state: the
 * current interpolated along the step, the cell advanced, the point solved. */
static void world_sample(struct world *w, sim_time_t t0, sim_time_t t1, sim_time_t tp,
			 const struct net_out *op1, struct net_out *op, struct battery_state *x)
{
	const struct battery *b = world_cell(w);
	double f = (double)(tp - t0) / (double)(t1 - t0);
	double i1 = w->op.ibat + (op1->ibat - w->op.ibat) * f, emf;

	battery_advance(&b->eff, &b->x, w->op.ibat, i1, sim_time_to_s(tp - t0), x);
	world_solve(w, x, op, &emf);
}

static void world_commit(struct world *w, sim_time_t t0, sim_time_t t1,
			 const struct battery_state *x1, const struct net_out *op1, double emf1,
			 double i1)
{
	struct battery *b = world_cell(w);
	double dt = sim_time_to_s(t1 - t0);

	world_metrics_step(w, op1, x1, i1, world_ocv(w, b->x.soc), world_ocv(w, x1->soc), dt,
			   w->unresolved, t1);
	if (world_probes_left(w))
		world_probe_step(w, t0, t1, op1, x1, world_sample);
	b->x = *x1;
	w->op = *op1;
	w->emf = emf1;
	w->net.was_limiting = w->net_solve.was_limiting = (op1->flags & NET_F_LIMITING) != 0;
	if (b->p->thermal) {
		/* the step ran at its midpoint temperature (world_thermal_mid()): the state
		 * at its end is that of the end temperature */
		battery_effective(b->p, x1->temp_c, &b->eff);
		world_solve(w, x1, &w->op, &w->emf);
	}
	if (!world_op_finite(&w->op) || !isfinite(x1->soc) || !isfinite(x1->v1) ||
	    !isfinite(x1->v2) || !isfinite(x1->temp_c))
		world_fail(w, "a non-finite value appeared at t = %.9g s", sim_time_to_s(t1));
}

static sim_time_t world_advance_cb(void *ctx, sim_time_t from, sim_time_t to)
{
	struct world *w = ctx;
	sim_time_t t = from;

	world_refresh(w);
	while (t < to && !w->fail_msg) {
		sim_time_t dt = w->opt.max_step > 0 ? w->opt.max_step : w->dt_next;
		struct battery_state x1;
		struct net_out op1;
		double emf1, i1, *g1 = w->g_try;
		sim_time_t next;
		bool crossed;

		if (dt > to - t)
			dt = to - t;
		world_fit_step(w, &dt, &x1, &op1, &emf1, &i1, &next);
		world_margins(w, &op1, &x1, g1);
		crossed = margins_crossed(w, w->g, g1);
		if (crossed) {
			/* Bisect: lo has no crossing, hi has one; x1/op1 hold the step
			 * to `tried`, which must be hi when it is committed. */
			sim_time_t lo = 0, hi = dt, tried = dt;

			while (hi - lo > WORLD_CROSSING_TOL) {
				sim_time_t mid = lo + (hi - lo) / 2;

				world_try_step(w, sim_time_to_s(mid), w->unresolved, &x1, &op1,
					       &emf1, &i1);
				tried = mid;
				world_margins(w, &op1, &x1, g1);
				if (margins_crossed(w, w->g, g1))
					hi = mid;
				else
					lo = mid;
			}
			if (tried != hi)
				world_try_step(w, sim_time_to_s(hi), w->unresolved, &x1, &op1,
					       &emf1, &i1);
			dt = hi;
		}
		world_commit(w, t, t + dt, &x1, &op1, emf1, i1);
		t += dt;
		sim_clock_set(&w->sim, t);
		world_trace_row(w, false);
		if (crossed) {
			/* The models react at the crossing, and their row follows the one
			 * before: a step in the trace stays a step. */
			world_settle_state(w);
			world_trace_row(w, true);
			w->dt_next = WORLD_DT_AFTER_EVENT;
			return t;
		}
		/* The trial's margins are the committed state's now. */
		w->g_try = w->g;
		w->g = g1;
		if (w->opt.max_step <= 0)
			w->dt_next = next < WORLD_DT_MIN ? WORLD_DT_MIN : MIN(next, WORLD_DT_MAX);
	}
	return to;
}

/*
 * Did the instant change the circuit as a discrete change does? Not when only the
 * port's current limit moved, by at most WORLD_ILIM_NUDGE of itself: a drifting
 * adapter's tick (models/source) moves it by at most 0.16 % of ilim, every
 * drift_tau / 64. That is a continuous change taken in steps, and restarting at
 * WORLD_DT_AFTER_EVENT after each tick made a demo with a 5 min drift_tau take 9,395
 * steps instead of 743. The step control follows what the nudge does to the state.
 */
#define WORLD_ILIM_NUDGE 0.01

static bool world_net_jumped(const struct net_in *before, const struct net_in *after)
{
	struct net_in same_ilim = *after;

	if (memcmp(before, after, sizeof(*before)) == 0)
		return false;
	same_ilim.ilim = before->ilim;
	return memcmp(before, &same_ilim, sizeof(*before)) != 0 ||
	       !(fabs(after->ilim - before->ilim) <= WORLD_ILIM_NUDGE * fabs(before->ilim));
}

static void world_settle_cb(void *ctx, sim_time_t now)
{
	struct world *w = ctx;
	struct net_in before = w->net;

	world_settle_state(w);
	if (world_net_jumped(&before, &w->net))
		w->dt_next = WORLD_DT_AFTER_EVENT;
	/* the probes at now: (now - 1 ns, now] has no inside to sample */
	if (world_probes_left(w))
		world_probe_step(w, now - 1, now, &w->op, &world_cell(w)->x, NULL);
	world_trace_row(w, true);
	linux_board_settled(w->lb);   /* chips raise their interrupts on the settled state */
}

static const struct sim_cont_ops world_cont_ops = {
	.advance = world_advance_cb,
	.settle = world_settle_cb,
};

void world_hooks_init(struct world *w)
{
	w->nets = g_new(struct world_net_hook, (gsize)w->n_models);
	w->margins = g_new(struct world_margins_hook, (gsize)w->n_models);
	w->observe = g_new(struct world_point_hook, (gsize)w->n_models);
	w->settled = g_new(struct world_point_hook, (gsize)w->n_models);
	for (int i = 0; i < w->n_models; i++) {
		const struct model_desc *d = model_registry[i];

		if (d->net)
			w->nets[w->n_nets++] = (struct world_net_hook){ d->net, w->state[i] };
		if (d->margins)
			w->margins[w->n_margins++] = (struct world_margins_hook){ d->margins,
										 w->state[i], w->n_g };
		w->n_g += d->n_margins;
		if (d->observe)
			w->observe[w->n_observe++] = (struct world_point_hook){ d->observe,
									       w->state[i] };
		if (d->settled)
			w->settled[w->n_settled++] = (struct world_point_hook){ d->settled,
									       w->state[i] };
	}
}

void world_step_init(struct world *w)
{
	w->n_g += w->n_cuts;   /* the metrics' last (resolved by world_metrics_start()) */
	w->g = g_new0(double, (gsize)w->n_g);
	w->g_try = g_new0(double, (gsize)w->n_g);
	w->dt_next = WORLD_DT_AFTER_EVENT;
	w->rc.dt = NAN;   /* no step size yet (the OCV memo starts in world_prepare_net()) */
	sim_set_cont(&w->sim, &world_cont_ops, w);
}
