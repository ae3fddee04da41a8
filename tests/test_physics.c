// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_physics.c - the models and the network solver against hand calculations.
 *
 * Every expected number below is derived in the comment next to it from the defaults
 * docs/models.md gives with their primary sources (EB425161LU OCV table, R0 0.10 ohm,
 * R1 47 mohm / C1 703 F, R2 50 mohm / C2 4475 F, Ea 20 kJ/mol, wire 0.2129 ohm/m at
 * 28 AWG, ...) or from the circuit laws written out here: an analytic solution, a
 * quadratic's root, Ohm's law. Nothing is compared
 * with an earlier output of the code. Tolerances are a few ulps of the arithmetic
 * involved unless a comment says otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "models/battery/battery.h"
#include "models/cable/cable.h"
#include "models/pmic/pmic.h"
#include "sim/fmax.h"
#include "sim/sim.h"
#include "sim/solver.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* Relative comparison: |a - b| <= rel * max(|b|, floor). */
static bool near_rel(double a, double b, double rel, double floor_abs)
{
	double scale = fmax(fabs(b), floor_abs);

	if (fabs(a - b) <= rel * scale)
		return true;
	fprintf(stderr, "\n  got %.17g, want %.17g (rel %.3g)\n", a, b, rel);
	return false;
}

static bool near_abs(double a, double b, double tol)
{
	if (fabs(a - b) <= tol)
		return true;
	fprintf(stderr, "\n  got %.17g, want %.17g (abs %.3g)\n", a, b, tol);
	return false;
}

#define ASSERT_REL(a, b, rel) CU_ASSERT(near_rel((a), (b), (rel), 0))
#define ASSERT_ABS(a, b, tol) CU_ASSERT(near_abs((a), (b), (tol)))

static void default_cell(struct battery_params *p, struct battery_eff *e)
{
	battery_params_default(p, 0); /* eb425161lu, the first preset */
	battery_effective(p, p->temperature_c, e);
}

/* ---- battery: RC pairs ---- */

/*
 * dV/dt = I/C - V/(R C) from V(0) = 0 with constant I has V(t) = I R (1 - exp(-t/tau)),
 * tau = R C. Default cell: tau1 = 0.047 * 703 = 33.041 s, tau2 = 0.050 * 4475 =
 * 223.75 s. At I = 1.5 A the asymptotes are I R1 = 70.5 mV and I R2 = 75 mV.
 * dt = 1 ns: V1 = 1.5 * 0.047 * 1e-9 / 33.041 = 2.1337e-12 V (1 - exp(-x) ~ x - x^2/2
 * here, which the expected value is computed as, so that no cancellation enters it).
 * dt = 10 tau: V = I R (1 - e^-10) = 0.9999546 I R.
 * Tolerance: 1e-9 relative from 1 ms up. At 1 ns (x = 3e-11) the code loses about
 * eps/x = 4e-6 of the increment because it forms i1 - i0*e with e = 1 - x rounded
 * (battery.c rc_advance; its comment says tiny steps lose no precision). That is an
 * absolute error of ~1e-18 V, physically nothing, so the 1 ns case is held to 1e-5.
 */
static void test_rc_step_response(void)
{
	struct battery_params p;
	struct battery_eff e;
	struct battery_state s0 = { .soc = 0.5, .v1 = 0, .v2 = 0, .temp_c = 25 }, s1;
	const double I = 1.5, tau1 = 33.041, tau2 = 223.75;
	const double dts[] = { 1e-9, 1e-3, 1.0, 33.041, 100.0, 10 * 33.041, 10 * 223.75 };

	default_cell(&p, &e);
	ASSERT_REL(e.tau1, tau1, 1e-12);
	ASSERT_REL(e.tau2, tau2, 1e-12);
	for (size_t k = 0; k < G_N_ELEMENTS(dts); k++) {
		double dt = dts[k], x1 = dt / tau1, x2 = dt / tau2;
		/* 1 - exp(-x) by its series for tiny x, directly otherwise */
		double f1 = x1 < 1e-4 ? x1 - x1 * x1 / 2 + x1 * x1 * x1 / 6 : 1 - exp(-x1);
		double f2 = x2 < 1e-4 ? x2 - x2 * x2 / 2 + x2 * x2 * x2 / 6 : 1 - exp(-x2);

		double rel = dt < 1e-6 ? 1e-5 : 1e-9;

		battery_advance(&e, &s0, I, I, dt, &s1);
		ASSERT_REL(s1.v1, I * 0.047 * f1, rel);
		ASSERT_REL(s1.v2, I * 0.050 * f2, rel);
	}
	/* 1 ns, written out: 1.5 * 0.047 * 1e-9 / 33.041 = 2.13371e-12 V */
	battery_advance(&e, &s0, I, I, 1e-9, &s1);
	ASSERT_REL(s1.v1, 2.1337126600284495e-12, 1e-5);
	/* 10 tau2 = 2237.5 s: V2 = 0.075 * (1 - 4.54e-5) = 0.0749966 V, V1 = 0.0705 V */
	battery_advance(&e, &s0, I, I, 2237.5, &s1);
	ASSERT_REL(s1.v2, 0.075 * (1 - 4.539992976248485e-05), 1e-9);
	ASSERT_REL(s1.v1, 0.0705, 1e-9);
}

/*
 * Linear ramp i(t) = i0 + a t (a = (i1 - i0)/dt) into dV/dt = i/C - V/tau.
 * Try the particular solution Vp = R (i0 + a t) - R a tau:
 *   dVp/dt = R a;  i/C - Vp/tau = (i0 + a t)/C - (i0 + a t)/C + R a tau/tau = R a.  OK.
 * General: V = Vp + K e^(-t/tau), V(0) = V0 gives K = V0 - R i0 + R a tau, so
 *   V(dt) = R (i1 - a tau) + (V0 - R i0 + R a tau) e^(-dt/tau).
 * Checked from rest and from a non-zero start, rising and falling ramps.
 */
static double ramp_expect(double r, double tau, double v0, double i0, double i1, double dt)
{
	double a = (i1 - i0) / dt;

	return r * (i1 - a * tau) + (v0 - r * i0 + r * a * tau) * exp(-dt / tau);
}

static void test_rc_ramp(void)
{
	struct battery_params p;
	struct battery_eff e;
	struct battery_state s0, s1;
	static const struct { double v1, v2, i0, i1, dt; } c[] = {
		{ 0, 0, 0, 2, 10 },
		{ 0, 0, 0, 2, 300 },
		{ 0.05, 0.07, 1.5, 0.1, 60 },
		{ -0.02, 0.01, -1.0, 1.0, 1000 },
		{ 0.03, 0.03, 0.5, 0.6, 0.5 },
	};

	default_cell(&p, &e);
	for (size_t k = 0; k < G_N_ELEMENTS(c); k++) {
		s0 = (struct battery_state){ .soc = 0.5, .v1 = c[k].v1, .v2 = c[k].v2, .temp_c = 25 };
		battery_advance(&e, &s0, c[k].i0, c[k].i1, c[k].dt, &s1);
		CU_ASSERT(near_rel(s1.v1, ramp_expect(0.047, 33.041, c[k].v1, c[k].i0, c[k].i1, c[k].dt),
				   1e-9, 1e-6));
		CU_ASSERT(near_rel(s1.v2, ramp_expect(0.050, 223.75, c[k].v2, c[k].i0, c[k].i1, c[k].dt),
				   1e-9, 1e-6));
	}
	/* 0 -> 2 A over 10 s, by hand: a = 0.2 A/s, R1 a tau1 = 0.047*0.2*33.041 = 0.3105854;
	 * exp(-10/33.041) = exp(-0.302654) = 0.740818*0.997350 = 0.738855;
	 * V1 = 0.094 - 0.3105854 + 0.3105854*0.738855 = 0.094 - 0.081108 = 0.012892 V */
	s0 = (struct battery_state){ .soc = 0.5, .temp_c = 25 };
	battery_advance(&e, &s0, 0, 2, 10, &s1);
	ASSERT_REL(s1.v1, 0.012892, 1e-4);
}

/*
 * The cell at the end of a step as the network sees it (battery_end_line): the
 * terminal voltage OCV(SOC1) + V1 + V2 + R0*i1 of the state battery_advance() reaches
 * is emf + r*i1 for every end current i1 on the OCV segment the line was made on
 * (checked at two currents, ramping and held, from 50 %: segment 50..60 %, slope
 * (3.911 - 3.829)/0.1 = 0.82 V).
 * Its slope by hand for the default cell from i0 = 1 A:
 *  - dt = 1 us: the pairs have no time to move, r = R0 + the OCV's 0.82*0.5e-6/5400
 *    (negligible): 0.1 to 1e-6;
 *  - a 1 uF, 1 ohm pair (tau 1 us) over 10 ms (1e4 tau): it follows the current,
 *    R1*(1 - phi) with phi = tau/dt = 1e-4: 0.9999 ohm; the second pair,
 *    tau 223.75 s: R2*(1 - phi2) ~ R2*dt/(2 tau2) = 0.05*0.01/447.5 = 1.117e-6 ohm;
 *    the OCV 0.82*0.005/5400 = 7.6e-7 ohm: r = 0.1 + 0.9999 + 1.9e-6 = 1.0999019;
 *    held at the end current instead: R1*(1 - e) = 1 ohm, R2*dt/tau2 and
 *    0.82*0.01/5400 twice as large: r = 1.1000038.
 */
static void test_end_line(void)
{
	struct battery_params p;
	struct battery_eff e;
	struct battery_state s0 = { .soc = 0.5, .v1 = 0.02, .v2 = 0.03, .temp_c = 25 }, s1;
	double emf, r;

	default_cell(&p, &e);
	for (int ramp = 0; ramp <= 1; ramp++) {
		battery_end_line(&p, &e, &s0, 1.0, 60, ramp, 0.51, &emf, &r);
		for (double i1 = 0.5; i1 <= 1.5; i1 += 1.0) {
			battery_advance(&e, &s0, ramp ? 1.0 : i1, i1, 60, &s1);
			ASSERT_REL(emf + r * i1, battery_emf(&p, &s1) + e.r0 * i1, 1e-12);
		}
	}
	battery_end_line(&p, &e, &s0, 1.0, 1e-6, true, 0.5, &emf, &r);
	CU_ASSERT(fabs(r - 0.1) < 1e-6);
	p.r1 = 1.0;
	p.c1 = 1e-6;
	battery_effective(&p, 25, &e);
	battery_end_line(&p, &e, &s0, 1.0, 0.01, true, 0.5, &emf, &r);
	ASSERT_REL(r, 1.0999019, 1e-7);
	battery_end_line(&p, &e, &s0, 1.0, 0.01, false, 0.5, &emf, &r);
	ASSERT_REL(r, 1.1000038, 1e-7);
}

/*
 * What the stepper (run/step.c) uses instead of battery_advance(), battery_end_line()
 * and battery_ocv(): the RC factors of a step size computed once, the OCV segment
 * looked up from a hint. Every bit as theirs, for steps from 1 ns to a day (the series
 * of 1 - phi below dt/tau = 1e-4, expm1 above), ramped and held, any hint (beyond the
 * table too), SOC below, on, between and above the table's points, and NaN.
 */
static void test_stepper_shortcuts(void)
{
	static const double dts[] = { 1e-9, 1e-3, 0.7, 60, 600, 86400 };
	static const double socs[] = { -0.1, 0, 1e-9, 0.05, 0.075, 0.2, 0.5, 0.95, 0.999, 1, 1.2,
				       NAN };
	struct battery_params p;
	struct battery_eff e;
	struct battery_state s0 = { .soc = 0.43, .v1 = 0.02, .v2 = -0.01, .temp_c = 25 };
	unsigned bad = 0;

	default_cell(&p, &e);
	for (size_t k = 0; k < G_N_ELEMENTS(dts); k++) {
		struct battery_rc_step rc;

		battery_rc_step(&e, dts[k], &rc);
		CU_ASSERT(battery_rc_step_fits(&rc, &e, dts[k]));
		CU_ASSERT(!battery_rc_step_fits(&rc, &e, 2 * dts[k]));
		for (int ramp = 0; ramp <= 1; ramp++)
			for (double i0 = -1; i0 <= 2; i0 += 1.5) {
				struct battery_state a, b;
				double line_a[2], line_b[2];

				battery_advance(&e, &s0, i0, 1.3, dts[k], &a);
				battery_advance_step(&e, &rc, &s0, i0, 1.3, &b);
				bad += memcmp(&a, &b, sizeof(a)) != 0;
				battery_end_line(&p, &e, &s0, i0, dts[k], ramp, 0.47, &line_a[0],
						 &line_a[1]);
				battery_end_line_step(&p, &e, &rc, &s0, i0, ramp, 0.47,
						      battery_ocv_segment(&p, 0.47), &line_b[0],
						      &line_b[1]);
				bad += memcmp(line_a, line_b, sizeof(line_a)) != 0;
			}
	}
	for (size_t k = 0; k < G_N_ELEMENTS(socs); k++)
		for (int hint = -2; hint <= p.ocv_n + 1; hint++) {
			int want = battery_ocv_segment(&p, socs[k]), seg = hint;
			double a = battery_ocv(&p, socs[k]), b = battery_ocv_from(&p, socs[k], &seg);

			bad += battery_ocv_segment_from(&p, socs[k], hint) != want;
			bad += seg != want || memcmp(&a, &b, sizeof(a)) != 0;
		}
	CU_ASSERT_EQUAL(bad, 0);
}

/*
 * SOC: dSOC/dt = I/(3600 Q) - sd with sd = 2 %/30 days = 0.02/2592000 = 7.716e-9 /s.
 * Q = 1.5 Ah = 5400 A s.
 *  - 0.75 A for 1200 s from 10 %: +0.75*1200/5400 = +0.1666667, -sd*1200 = -9.259e-6
 *    -> 0.2666574
 *  - ramp 0 -> 2 A over 1800 s (average 1 A): +1800/5400 = 0.3333333, -1.389e-5
 *  - discharge 1.5 A for 3600 s from 100 %: -1.0 - 2.778e-5 -> clamps at 0
 */
static void test_soc_integration(void)
{
	struct battery_params p;
	struct battery_eff e;
	struct battery_state s0 = { .soc = 0.1, .temp_c = 25 }, s1;
	const double sd = 0.02 / (30.0 * 86400.0);

	default_cell(&p, &e);
	ASSERT_REL(e.q_as, 5400, 1e-15);
	ASSERT_REL(e.self_dis_per_s, sd, 1e-12);
	battery_advance(&e, &s0, 0.75, 0.75, 1200, &s1);
	ASSERT_REL(s1.soc, 0.1 + 0.75 * 1200 / 5400 - sd * 1200, 1e-12);
	ASSERT_REL(s1.soc, 0.2666574, 1e-6);
	s0.soc = 0.2;
	battery_advance(&e, &s0, 0, 2, 1800, &s1);
	ASSERT_REL(s1.soc, 0.2 + 1.0 * 1800 / 5400 - sd * 1800, 1e-12);
	/* at rest only self-discharge: 30 days lose 2 % */
	s0.soc = 0.5;
	battery_advance(&e, &s0, 0, 0, 30 * 86400.0, &s1);
	ASSERT_REL(s1.soc, 0.48, 1e-12);
	s0.soc = 1.0;
	battery_advance(&e, &s0, -1.5, -1.5, 3600, &s1);
	CU_ASSERT(s1.soc >= 0 && s1.soc < 1e-9);
}

/* ---- battery: OCV ---- */

/* Points of the EB425161LU OCV table (docs/models.md, Battery; Linux
 * samsung-sdi-battery.c) and the midpoints of linear interpolation, e.g.
 * 85 %: (4.077 + 4.183)/2 = 4.130; 2.5 %: (3.300 + 3.656)/2 = 3.478;
 * 97.5 %: (4.241 + 4.328)/2 = 4.2845; 45 %: (3.793 + 3.829)/2 = 3.811;
 * a quarter of the way 20 -> 30 %: 3.746 + 0.25*0.030 = 3.7535. */
static void test_ocv_table(void)
{
	static const double soc[] = { 1.0, .95, .90, .80, .70, .60, .50, .40, .30, .20, .10, .05, 0 };
	static const double v[] = { 4.328, 4.241, 4.183, 4.077, 3.978, 3.911, 3.829, 3.793, 3.776,
				    3.746, 3.690, 3.656, 3.300 };
	struct battery_params p;

	battery_params_default(&p, 0);
	for (size_t k = 0; k < G_N_ELEMENTS(soc); k++)
		ASSERT_REL(battery_ocv(&p, soc[k]), v[k], 1e-12);
	for (size_t k = 0; k + 1 < G_N_ELEMENTS(soc); k++)
		ASSERT_REL(battery_ocv(&p, (soc[k] + soc[k + 1]) / 2), (v[k] + v[k + 1]) / 2, 1e-12);
	ASSERT_REL(battery_ocv(&p, 0.85), 4.130, 1e-12);
	ASSERT_REL(battery_ocv(&p, 0.025), 3.478, 1e-12);
	ASSERT_REL(battery_ocv(&p, 0.975), 4.2845, 1e-12);
	ASSERT_REL(battery_ocv(&p, 0.45), 3.811, 1e-12);
	ASSERT_REL(battery_ocv(&p, 0.225), 3.7535, 1e-12);
	/* the EMF adds the RC voltages: 3.811 + 0.01 + 0.02 */
	{
		struct battery_state s = { .soc = 0.45, .v1 = 0.01, .v2 = 0.02, .temp_c = 25 };

		ASSERT_REL(battery_emf(&p, &s), 3.841, 1e-12);
	}
}

/* ---- battery: scaling ---- */

/*
 * A 3000 mAh cell of the same chemistry: R halves, C doubles, tau unchanged.
 *   R0 0.05, R1 0.0235, R2 0.025 ohm; C1 1406, C2 8950 F; Q 10800 A s.
 * Arrhenius at 0 C against 25 C, Ea = 20000 J/mol, R = 8.314462618 J/(mol K):
 *   1/273.15 - 1/298.15 = 0.00366099 - 0.00335402 = 3.06968e-4 1/K
 *   20000/8.314462618 = 2405.45; times 3.06968e-4 = 0.738395; exp(0.738395) = 2.09261
 * so every resistance is 2.0926x at 0 C and the capacitances do not change.
 * (With R = 8.314 the factor is 2.09270; tolerance 1e-4 covers either constant.)
 */
static void test_capacity_temperature(void)
{
	struct battery_params p;
	struct battery_eff e;

	battery_params_default(&p, 0);
	p.capacity_ah = 3.0;
	battery_effective(&p, 25, &e);
	ASSERT_REL(e.r0, 0.05, 1e-12);
	ASSERT_REL(e.r1, 0.0235, 1e-12);
	ASSERT_REL(e.r2, 0.025, 1e-12);
	ASSERT_REL(e.c1, 1406, 1e-12);
	ASSERT_REL(e.c2, 8950, 1e-12);
	ASSERT_REL(e.tau1, 33.041, 1e-12);
	ASSERT_REL(e.tau2, 223.75, 1e-12);
	ASSERT_REL(e.q_as, 10800, 1e-12);

	battery_params_default(&p, 0);
	battery_effective(&p, 0, &e);
	ASSERT_REL(e.r0, 0.10 * 2.09261, 1e-4);
	ASSERT_REL(e.r1, 0.047 * 2.09261, 1e-4);
	ASSERT_REL(e.r2, 0.050 * 2.09261, 1e-4);
	ASSERT_REL(e.c1, 703, 1e-12);
	ASSERT_REL(e.c2, 4475, 1e-12);
	/* and at the reference temperature exactly the table values */
	battery_effective(&p, 25, &e);
	ASSERT_REL(e.r0, 0.10, 1e-12);
}

/* ---- cable ---- */

/* 1 m of 28 AWG, 4 contacts of 10 mohm: 2*0.2129*1 + 4*0.010 = 0.4258 + 0.04 = 0.4658.
 * 2 m of 24 AWG, worn 30 mohm contacts: 2*0.0842*2 + 4*0.030 = 0.3368 + 0.12 = 0.4568.
 * r_loop given: 0.25 ohm regardless of the rest. */
static void test_cable(void)
{
	struct cable_params c;

	cable_params_default(&c);
	CU_ASSERT_EQUAL(c.awg, 28);
	ASSERT_REL(cable_r_loop(&c), 0.4658, 1e-12);
	c.awg = 24;
	c.length_m = 2;
	c.r_contact = 0.030;
	ASSERT_REL(cable_r_loop(&c), 0.4568, 1e-12);
	ASSERT_REL(cable_ohm_per_m(20), 0.0333, 0);
	ASSERT_REL(cable_ohm_per_m(22), 0.0530, 0);
	ASSERT_REL(cable_ohm_per_m(26), 0.1339, 0);
	c.r_loop_given = true;
	c.r_loop = 0.25;
	ASSERT_REL(cable_r_loop(&c), 0.25, 0);
}

/* ---- solver ---- */

/* Every solver test below starts from tu_net_base() (tests/testutil.h): Voc 5 V
 * behind 0.2 + 0.3 ohm (R = 0.5), no source limit, eff 0.9, cell EMF 3.8 V behind R0
 * 0.1 ohm, CC 1 A, VREG 4.35 V, no load. */

/*
 * Linear charger, Voc 5.0 V, Rout 0.13, 1 m 28 AWG cable (0.4658), CC 1 A:
 *   ibus = 1 A, vbus = 5 - (0.13 + 0.4658)*1 = 4.4042 V, vsrc = 5 - 0.13 = 4.87 V,
 *   vbat = 3.8 + 0.1 = 3.9 V; losses: cable 0.4658 W, port 0.13 W,
 *   pass element (4.4042 - 3.9)*1 = 0.5042 W; Voc*I = 5 W.
 * The pass element can drop that: it saturates only below 3.9 + 0.3*1 = 4.2 V.
 */
static void test_net_cable_drop(void)
{
	struct net_in in;
	struct net_out o;

	tu_net_base(&in);
	in.linear = true;
	in.r_src = 0.13;
	in.r_cable = 0.4658;
	net_solve(&in, &o);
	ASSERT_REL(o.ibus, 1.0, 1e-12);
	ASSERT_REL(o.ibat, 1.0, 1e-12);
	ASSERT_REL(o.vbus, 4.4042, 1e-12);
	ASSERT_REL(o.vsrc, 4.87, 1e-12);
	ASSERT_REL(o.vbat, 3.9, 1e-12);
	ASSERT_REL(o.p_cable, 0.4658, 1e-12);
	ASSERT_REL(o.p_src_loss, 0.13, 1e-9);
	ASSERT_REL(o.p_chg_loss, 0.5042, 1e-9);
	ASSERT_REL(o.p_emf, 5.0, 1e-12);
	CU_ASSERT_FALSE(o.flags & (NET_F_COLLAPSE | NET_F_DROPOUT | NET_F_CV | NET_F_IINDPM));
}

/*
 * Switching charger as a constant-power load: Pout = vbat*ibat = 3.9 W, Pin = 3.9/0.9 =
 * 4.33333 W on Voc 5 V behind R = 0.5 ohm. V I = P with V = Voc - R I:
 *   R I^2 - Voc I + P = 0, stable (smaller-current) root I = 2P/(Voc + sqrt(Voc^2 - 4RP))
 *   = 8.66667/(5 + sqrt(25 - 8.66667)) = 8.66667/9.04145 = 0.958548 A, VBUS 4.520726 V.
 * With a 0.5 A system load (VSYS = VBAT = 3.9 V): Pout = 3.9*1.5 = 5.85 W, Pin 6.5 W,
 *   I = 13/(5 + sqrt(25 - 13)) = 1.535898 A, VBUS 4.232051 V.
 * In both vbus*ibus*eff equals the output power.
 */
static void test_net_constant_power(void)
{
	struct net_in in;
	struct net_out o;

	tu_net_base(&in);
	net_solve(&in, &o);
	ASSERT_REL(o.ibat, 1.0, 1e-12);
	ASSERT_REL(o.vbat, 3.9, 1e-12);
	ASSERT_REL(o.ibus, 2 * (3.9 / 0.9) / (5 + sqrt(25 - 4 * 0.5 * 3.9 / 0.9)), 1e-12);
	ASSERT_REL(o.ibus, 0.958548, 1e-6);
	ASSERT_REL(o.vbus, 4.520726, 1e-6);
	ASSERT_REL(o.vbus * o.ibus * 0.9, 3.9, 1e-12);
	CU_ASSERT_FALSE(o.flags & (NET_F_COLLAPSE | NET_F_IINDPM | NET_F_VINDPM));

	in.iload = 0.5;
	net_solve(&in, &o);
	ASSERT_REL(o.ibat, 1.0, 1e-12);
	ASSERT_REL(o.iload, 0.5, 1e-12);
	ASSERT_REL(o.vsys, 3.9, 1e-12);
	ASSERT_REL(o.ibus, 1.535898, 1e-6);
	ASSERT_REL(o.vbus, 4.232051, 1e-6);
	ASSERT_REL(o.vbus * o.ibus * 0.9, 3.9 * 1.5, 1e-12);
	ASSERT_REL(o.p_load + o.p_bat, 5.85, 1e-12);
}

/*
 * The maximum power point: Pin,max = Voc^2/(4R) = 25/2 = 12.5 W, i.e. an output
 * power of 0.9 * 12.5 = 11.25 W. A constant-power system load (charging off, so
 * Pin = pload/eff) with no input cap at all (iindpm 1e9, no VINDPM, no source limit):
 *   pload = 0.999 * 11.25: operating point exists, VBUS = (Voc + sqrt(Voc^2 - 4RP))/2
 *     = 2.5*(1 + sqrt(0.001)) = 2.579057 V, on the stable branch (VBUS > Voc/2);
 *   pload = 1.001 * 11.25: no operating point: NET_F_COLLAPSE and VBUS = 0.
 * So the collapse threshold is located within 0.1 % of the hand value.
 */
static void test_net_collapse_threshold(void)
{
	struct net_in in;
	struct net_out o;
	const double p_crit = 0.9 * 5.0 * 5.0 / (4 * 0.5);

	ASSERT_REL(p_crit, 11.25, 1e-15);
	tu_net_base(&in);
	in.charging = false;
	in.pload = 0.999 * p_crit;
	net_solve(&in, &o);
	CU_ASSERT_FALSE(o.flags & NET_F_COLLAPSE);
	ASSERT_REL(o.vbus, 2.5 * (1 + sqrt(0.001)), 1e-9);
	ASSERT_REL(o.vbus * o.ibus * 0.9, in.pload, 1e-9);
	CU_ASSERT(o.vbus > 2.5);

	in.pload = 1.001 * p_crit;
	net_solve(&in, &o);
	CU_ASSERT(o.flags & NET_F_COLLAPSE);
	CU_ASSERT_EQUAL(o.vbus, 0.0);

	/* the same threshold reached through the charge current: Pout = vbat * ichg with
	 * vbat = 3.8 + 0.1*I; 3.9 V * 2.8846 A = 11.25 W -> pick I with margin either side */
	tu_net_base(&in);
	in.ichg = 2.5;   /* (3.8 + 0.25)*2.5 = 10.125 W < 11.25 */
	net_solve(&in, &o);
	CU_ASSERT_FALSE(o.flags & NET_F_COLLAPSE);
	in.ichg = 3.0;   /* (3.8 + 0.30)*3.0 = 12.3 W > 11.25 */
	net_solve(&in, &o);
	CU_ASSERT(o.flags & NET_F_COLLAPSE);
	CU_ASSERT_EQUAL(o.vbus, 0.0);
}

/* tu_net_base() behind a brick wall at 1 A, with a 3 A input cap. */
static void net_brick(struct net_in *in)
{
	tu_net_base(in);
	in->limit = NET_LIMIT_BRICK;
	in->ilim = 1.0;
	in->iindpm = 3.0;
}

/* net_brick() with VINDPM 4.4 V holding the input at the wall: VBUS 4.4 V, IBUS 1 A,
 * and the cell's (3.8 + 0.1 y) y = 0.9 * 4.4 * 1 W -> y = 1.014994 A. */
static void check_on_vindpm(const struct net_out *o)
{
	CU_ASSERT(o->flags & NET_F_VINDPM);
	ASSERT_REL(o->vbus, 4.4, 1e-12);
	ASSERT_REL(o->ibus, 1.0, 1e-12);
	ASSERT_REL(o->ibat, 1.014994, 1e-6);
}

/*
 * Brick-wall source, ilim 1 A, Voc 5 V, R 0.5; switching charger asking CC 2 A at
 * emf 3.8 (Pin = 4.0*2/0.9 = 8.889 W -> 2.31 A on the resistive line, above ilim),
 * input cap 3 A > ilim:
 *  - no VINDPM: nothing holds the input below the limit -> collapse, VBUS 0;
 *  - VINDPM 4.4 V: the supply gives min((5 - 4.4)/0.5, 1) = 1 A at 4.4 V, so
 *    VBUS = 4.4, IBUS = ilim = 1 A. Output 0.9*4.4*1 = 3.96 W shared by the cell:
 *    (3.8 + 0.1 y) y = 3.96 -> y = (-3.8 + sqrt(3.8^2 + 0.4*3.96))/0.2 = 1.014994 A.
 */
static void test_net_brick_wall(void)
{
	struct net_in in;
	struct net_out o;

	net_brick(&in);
	in.ichg = 2.0;
	net_solve(&in, &o);
	CU_ASSERT(o.flags & NET_F_COLLAPSE);
	CU_ASSERT_EQUAL(o.vbus, 0.0);

	in.vindpm = 4.4;
	net_solve(&in, &o);
	CU_ASSERT_FALSE(o.flags & NET_F_COLLAPSE);
	check_on_vindpm(&o);
	ASSERT_REL(o.p_bat, 0.9 * 4.4 * 1.0, 1e-9);
	CU_ASSERT_FALSE(o.flags & NET_F_CV);
}

/*
 * A charger whose input limit equals the source's (a 9 V PD contract's 2 A, drawn in
 * full): Voc 9 V behind 0.15 + 0.3 ohm, a brick wall at 2 A, the charger's input limit
 * 2 A, asking CC 4 A at emf 3.8 V (Pin = 4.2 * 4 / 0.9 = 18.67 W, 2.35 A on the line).
 * The input is held at 2 A with VBUS on the line, 9 - 0.45 * 2 = 8.1 V: the source is
 * at its knee, not in its limit (with these numbers (Voc - VBUS) / R rounds to
 * 2.000000000000001 A). The cell gets (3.8 + 0.1 y) y = 0.9 * 8.1 * 2 W:
 * y = 3.512219 A.
 */
static void test_net_limit_equal(void)
{
	struct net_in in;
	struct net_out o;

	tu_net_base(&in);
	in.voc = 9.0;
	in.r_src = 0.15;
	in.limit = NET_LIMIT_BRICK;
	in.ilim = 2.0;
	in.iindpm = 2.0;
	in.ichg = 4.0;
	net_solve(&in, &o);
	CU_ASSERT(o.flags & NET_F_IINDPM);
	CU_ASSERT_FALSE(o.flags & (NET_F_LIMITING | NET_F_COLLAPSE));
	ASSERT_REL(o.ibus, 2.0, 1e-12);
	ASSERT_REL(o.vbus, 8.1, 1e-12);
	ASSERT_REL(o.ibat, 3.512219, 1e-6);
}

/*
 * The collapse onto VINDPM holds (sim/solver.c, solve_switching). Brick-wall source at
 * 9 V behind 0.5 ohm, ilim 1 A, input cap 3 A, VINDPM 4.4 V. On the line the port
 * gives at most (9 - 0.5) * 1 = 8.5 W before its wall; collapsed onto VINDPM it gives
 * 4.4 * 1 = 4.4 W. A charger asking CC 1.5 A at emf 3.8 (vbat 3.95 V) needs
 * 3.95 * 1.5 / 0.9 = 6.583 W, between the two:
 *  - not in the limit before: on the line, I = 2P / (9 + sqrt(81 - 2P)) = 0.763901 A,
 *    VBUS = 9 - 0.5 I = 8.618050 V, the cell gets its 1.5 A;
 *  - in the limit before (was_limiting): the charger's input loop keeps VBUS at
 *    VINDPM, IBUS = 1 A, and the cell gets what 0.9 * 4.4 W gives it,
 *    (3.8 + 0.1 y) y = 3.96 -> y = 1.014994 A.
 * At CC 1 A the charger needs 3.9 / 0.9 = 4.333 W, under 4.4 W: it leaves VINDPM
 * whatever came before, I = 0.495099 A on the line.
 */
static void test_net_collapse_holds(void)
{
	struct net_in in;
	struct net_out o;

	net_brick(&in);
	in.voc = 9.0;
	in.vindpm = 4.4;
	in.ichg = 1.5;
	net_solve(&in, &o);
	CU_ASSERT_FALSE(o.flags & NET_F_LIMITING);
	ASSERT_REL(o.ibus, 0.763901, 1e-6);
	ASSERT_REL(o.vbus, 8.618050, 1e-6);
	ASSERT_REL(o.ibat, 1.5, 1e-12);

	in.was_limiting = true;
	net_solve(&in, &o);
	CU_ASSERT(o.flags & NET_F_LIMITING);
	check_on_vindpm(&o);

	in.ichg = 1.0;
	net_solve(&in, &o);
	CU_ASSERT_FALSE(o.flags & NET_F_LIMITING);
	ASSERT_REL(o.ibus, 0.495099, 1e-6);
	ASSERT_REL(o.ibat, 1.0, 1e-12);
}

/*
 * VINDPM above the source's open-circuit voltage (a 3.9 V source, VINDPM 4.5 V, e.g.
 * the generic-switching preset on a weak port): the charger can draw nothing without
 * going below VINDPM, so IBUS = 0, and with no current there is no drop:
 * VBUS = Voc = 3.9 V. VBUS above Voc is impossible for a passive source.
 * Regression test for a fixed bug (sim/solver.c, solve_switching and solve_linear): icap becomes 0 and the
 * input-limited branch sets v = in->vindpm, reporting VBUS = 4.5 V > Voc.
 */
static void test_net_vindpm_above_voc(void)
{
	struct net_in in;
	struct net_out o;

	for (int lin = 0; lin < 2; lin++) {
		tu_net_base(&in);
		in.linear = lin;
		in.voc = 3.9;
		in.vindpm = 4.5;
		net_solve(&in, &o);
		ASSERT_ABS(o.ibus, 0.0, 1e-12);
		CU_ASSERT(o.vbus <= in.voc + 1e-12);
		ASSERT_REL(o.vbus, 3.9, 1e-12);
	}
}

/*
 * Source knee with a linear charger: Voc 5, R 0.5, brick ilim 0.8 A, CC 1.5 A wanted.
 * Unlimited, the saturated pass element would meet the line at
 *   I = (5 - 3.8)/(0.5 + r_on + r0) = 1.2/0.9 = 1.333 A > ilim,
 * so the port holds 0.8 A and VBUS sits at the pass element: vbat + r_on*I =
 * (3.8 + 0.1*0.8) + 0.3*0.8 = 3.88 + 0.24 = 4.12 V (dropout, limiting).
 */
static void test_net_knee_dropout(void)
{
	struct net_in in;
	struct net_out o;

	tu_net_base(&in);
	in.linear = true;
	in.limit = NET_LIMIT_BRICK;
	in.ilim = 0.8;
	in.iindpm = 2.0;
	in.ichg = 1.5;
	net_solve(&in, &o);
	ASSERT_REL(o.ibus, 0.8, 1e-12);
	ASSERT_REL(o.ibat, 0.8, 1e-12);
	ASSERT_REL(o.vbat, 3.88, 1e-12);
	ASSERT_REL(o.vbus, o.vbat + 0.3 * 0.8, 1e-12);
	ASSERT_REL(o.vbus, 4.12, 1e-12);
	CU_ASSERT(o.flags & NET_F_DROPOUT);
	CU_ASSERT(o.flags & NET_F_LIMITING);
	CU_ASSERT_FALSE(o.flags & NET_F_COLLAPSE);
}

/*
 * Foldback (source.h): I = Ishort + (Ilim - Ishort) * Vport / Vknee, Vknee the port
 * voltage at the knee = Voc - Rout*Ilim. Voc 5, Rout 0.2, cable 0.3, Ilim 2, Ishort 0.5:
 *   Vknee = 5 - 0.4 = 4.6 V, k = 1.5/4.6 = 0.326087 A/V.
 *  - At the knee (device at 5 - 0.5*2 = 4.0 V) the current is Ilim = 2 A.
 *  - Device at 3.0 V: Vport = 3.0 + 0.3 I, I = 0.5 + k (3 + 0.3 I)
 *      -> I = (0.5 + 3k)/(1 - 0.3k) = 1.478261/0.902174 = 1.638554 A.
 *  - Short (device at 0 V) through a 1 mohm cable: I = 0.5/(1 - 0.001k) = 0.500163 A,
 *    within 0.1 % of Ishort.
 *  - Through net_solve: a linear charger on a dead-short cell (emf 0, r0 + r_on =
 *    2 mohm), cable 1 mohm: I = 0.5/(1 - k*(0.001 + 0.002)) = 0.500490 A.
 */
static void test_net_foldback(void)
{
	struct net_in in;
	struct net_out o;
	const double k = 1.5 / 4.6;

	tu_net_base(&in);
	in.limit = NET_LIMIT_FOLDBACK;
	in.ilim = 2.0;
	in.ishort = 0.5;
	ASSERT_REL(net_supply_current(&in, 4.0), 2.0, 1e-12);
	ASSERT_REL(net_supply_current(&in, 4.0 - 1e-9), 2.0, 1e-6);
	ASSERT_REL(net_supply_current(&in, 3.0), (0.5 + 3 * k) / (1 - 0.3 * k), 1e-12);
	ASSERT_REL(net_supply_current(&in, 3.0), 1.638554, 1e-6);
	/* above the knee the resistive line: (5 - 4.5)/0.5 = 1 A */
	ASSERT_REL(net_supply_current(&in, 4.5), 1.0, 1e-12);

	in.r_cable = 0.001;
	ASSERT_REL(net_supply_current(&in, 0.0), 0.5 / (1 - 0.001 * k), 1e-12);
	ASSERT_REL(net_supply_current(&in, 0.0), 0.5, 1e-3);

	in.linear = true;
	in.emf = 0;
	in.r0 = 0.001;
	in.r_on = 0.001;
	in.ichg = 3.0;
	in.iindpm = 5.0;
	net_solve(&in, &o);
	ASSERT_REL(o.ibus, 0.5 / (1 - k * 0.003), 1e-9);
	ASSERT_REL(o.ibus, 0.500490, 1e-6);
	CU_ASSERT(o.flags & NET_F_LIMITING);
}

/*
 * The same output (cell at 3.8 V taking 1 A: emf 3.7, r0 0.1, no load) from a linear
 * and from a switching charger, Voc 5 V, R 0.5 ohm, eff 0.9:
 *  - linear: IBUS = the charge current = 1 A, VBUS = 5 - 0.5 = 4.5 V;
 *  - switching: IBUS = 3.8*1/(0.9*VBUS) with VBUS = 5 - 0.5*IBUS:
 *      0.5 I^2 - 5 I + 4.22222 = 0 -> I = 8.44444/(5 + sqrt(25 - 8.44444)) = 0.931148 A,
 *      VBUS = 4.534426 V; check 3.8/(0.9*4.534426) = 0.931148.
 */
static void test_net_linear_vs_switching(void)
{
	struct net_in in;
	struct net_out o;

	tu_net_base(&in);
	in.emf = 3.7;
	in.linear = true;
	net_solve(&in, &o);
	ASSERT_REL(o.vbat, 3.8, 1e-12);
	ASSERT_REL(o.ibus, 1.0, 1e-12);
	ASSERT_REL(o.vbus, 4.5, 1e-12);

	in.linear = false;
	net_solve(&in, &o);
	ASSERT_REL(o.vbat, 3.8, 1e-12);
	ASSERT_REL(o.ibat, 1.0, 1e-12);
	ASSERT_REL(o.ibus, 0.931148, 1e-6);
	ASSERT_REL(o.vbus, 4.534426, 1e-6);
	ASSERT_REL(o.ibus, 3.8 / (0.9 * o.vbus), 1e-12);
}

/*
 * CV: emf 4.3 V, r0 0.1, VREG 4.35: the current that puts the terminal at VREG is
 * (4.35 - 4.3)/0.1 = 0.5 A < ICHG 1.5 A, so IBAT = 0.5 A and VBAT = 4.35 exactly.
 * With emf 4.1: (4.35 - 4.1)/0.1 = 2.5 A > 1.5 A -> CC at 1.5 A, VBAT 4.25 V.
 * Voc 6 V so that the linear pass element has headroom: at 1.5 A VBUS = 6 - 0.75 =
 * 5.25 V > 4.25 + 0.3*1.5 = 4.7 V.
 */
static void test_net_cv(void)
{
	struct net_in in;
	struct net_out o;

	for (int lin = 0; lin < 2; lin++) {
		tu_net_base(&in);
		in.linear = lin;
		in.voc = 6.0;
		in.ichg = 1.5;
		in.emf = 4.3;
		net_solve(&in, &o);
		ASSERT_REL(o.ibat, 0.5, 1e-9);
		ASSERT_REL(o.vbat, 4.35, 1e-12);
		CU_ASSERT(o.flags & NET_F_CV);
		in.emf = 4.1;
		net_solve(&in, &o);
		ASSERT_REL(o.ibat, 1.5, 1e-12);
		ASSERT_REL(o.vbat, 4.25, 1e-12);
		CU_ASSERT_FALSE(o.flags & NET_F_CV);
	}
}

/*
 * Supplement, linear charger: input limit 0.5 A, system load 1.0 A, charging on.
 * Input current = system + battery current (KCL at VSYS), the input stuck at 0.5 A:
 *   ibat = 0.5 - 1.0 = -0.5 A (discharging), i.e. iload - |ibat| = 0.5 A = ibus,
 *   vbat = 3.8 + 0.1*(-0.5) = 3.75 V, VBUS = 5 - 0.5*0.5 = 4.75 V.
 * The pass element is not saturated: that would take I = (5 - (3.8 - 0.1))/0.9 = 1.44 A.
 */
static void test_net_supplement(void)
{
	struct net_in in;
	struct net_out o;

	tu_net_base(&in);
	in.linear = true;
	in.iindpm = 0.5;
	in.iload = 1.0;
	net_solve(&in, &o);
	ASSERT_REL(o.ibus, 0.5, 1e-12);
	ASSERT_REL(o.ibat, -0.5, 1e-12);
	ASSERT_REL(o.iload + o.ibat, o.ibus, 1e-12);
	ASSERT_REL(o.iload - fabs(o.ibat), 0.5, 1e-12);
	ASSERT_REL(o.vbat, 3.75, 1e-12);
	ASSERT_REL(o.vbus, 4.75, 1e-12);
	CU_ASSERT(o.flags & NET_F_SUPPLEMENT);
	CU_ASSERT(o.flags & NET_F_IINDPM);
}

static bool out_finite(const struct net_out *o)
{
	const double v[] = { o->vsrc, o->vbus, o->ibus, o->vsys, o->iload, o->vbat, o->ibat,
			     o->p_emf, o->p_src_loss, o->p_cable, o->p_chg_loss, o->p_load, o->p_bat };

	for (size_t k = 0; k < G_N_ELEMENTS(v); k++)
		if (!isfinite(v[k]))
			return false;
	return true;
}

/*
 * A grid of odd inputs: zero resistances (source, cable, pass element), zero current
 * limit, Voc 0, zero input limit, huge current and power loads, empty and over-full
 * cells, both topologies, every limit kind; check(in, data) for each.
 */
static unsigned net_odd_grid(void (*check)(const struct net_in *in, void *data), void *data)
{
	static const double vocs[] = { 0, 3.0, 5.0, 20.0 };
	static const double rs[] = { 0, 0.13 };
	static const double ilims[] = { 0, 2.0 };
	static const double iindpms[] = { 0, 1.5, 1e9 };
	static const double vindpms[] = { 0, 4.4 };
	static const double emfs[] = { 0, 3.8, 4.6 };
	static const double r0s[] = { 1e-9, 0.1 };
	static const double iloads[] = { 0, 1.0, 1e4 };
	static const double ploads[] = { 0, 5.0, 1e6 };
	unsigned n = 0;

	for (size_t a = 0; a < G_N_ELEMENTS(vocs); a++)
	for (size_t b = 0; b < G_N_ELEMENTS(rs); b++)
	for (size_t c = 0; c < G_N_ELEMENTS(rs); c++)
	for (int lim = NET_LIMIT_NONE; lim <= NET_LIMIT_FOLDBACK; lim++)
	for (size_t d = 0; d < G_N_ELEMENTS(ilims); d++)
	for (int lin = 0; lin < 2; lin++)
	for (size_t e = 0; e < G_N_ELEMENTS(iindpms); e++)
	for (size_t f = 0; f < G_N_ELEMENTS(vindpms); f++)
	for (int chg = 0; chg < 2; chg++)
	for (size_t g = 0; g < G_N_ELEMENTS(emfs); g++)
	for (size_t h = 0; h < G_N_ELEMENTS(r0s); h++)
	for (size_t i = 0; i < G_N_ELEMENTS(iloads); i++)
	for (size_t j = 0; j < G_N_ELEMENTS(ploads); j++) {
		struct net_in in;

		tu_net_base(&in);
		in.voc = vocs[a];
		in.r_src = rs[b];
		in.r_cable = rs[c];
		in.r_on = rs[c];
		in.limit = lim;
		in.ilim = ilims[d];
		in.ishort = ilims[d] / 4;
		in.linear = lin;
		in.iindpm = iindpms[e];
		in.vindpm = vindpms[f];
		in.vsys_min = lin ? 0 : 3.5;
		in.charging = chg;
		in.ichg = 2.0;
		in.emf = emfs[g];
		in.r0 = r0s[h];
		in.iload = iloads[i];
		in.pload = ploads[j];
		check(&in, data);
		n++;
	}
	return n;
}

static void check_finite(const struct net_in *in, void *data)
{
	unsigned *bad = data;
	struct net_out o;

	net_solve(in, &o);
	if (!out_finite(&o) && (*bad)++ < 5)
		fprintf(stderr, "\n  not finite: voc %g rsrc %g rcab %g lim %d ilim %g lin %d iindpm %g vindpm %g chg %d emf %g r0 %g iload %g pload %g -> vbus %g ibus %g ibat %g",
			in->voc, in->r_src, in->r_cable, in->limit, in->ilim, in->linear, in->iindpm,
			in->vindpm, in->charging, in->emf, in->r0, in->iload, in->pload, o.vbus,
			o.ibus, o.ibat);
}

/* "Never returns NaN" (solver.h): every field of struct net_out finite on the grid. */
static void test_net_never_nan(void)
{
	unsigned bad = 0, n = net_odd_grid(check_finite, &bad);

	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(n > 10000);
}

/* net_solve_prepared() with the input side prepared from the circuit with another
 * battery line and the input off, as the stepper prepares it once for many solves:
 * every bit of the result as net_solve()'s. */
static void check_prepared(const struct net_in *in, void *data)
{
	unsigned *bad = data;
	struct net_in other = *in;
	struct net_input_side side;
	struct net_out a, b;

	other.emf = 1.0;
	other.r0 = 7.0;
	other.chg_on = !in->chg_on;
	net_prepare(&other, &side);
	net_solve(in, &a);
	net_solve_prepared(in, &side, &b);
	*bad += memcmp(&a, &b, sizeof(a)) != 0;
}

/* sim/fmax.h: libm's fmax() bit for bit, signed zeros, infinities and NaNs (with
 * their signs) included, in both argument orders. libm's is called through a pointer:
 * GCC takes fmax() for commutative and may swap the arguments of a direct call. */
static void test_fmax_inline(void)
{
	double (*volatile libm_fmax)(double, double) = fmax;
	const double v[] = { 0.0, -0.0, 1.0, -1.0, 3.5e-310, INFINITY, -INFINITY, NAN, -NAN,
			     4.35 };
	unsigned bad = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(v); i++)
		for (size_t j = 0; j < G_N_ELEMENTS(v); j++) {
			volatile double x = v[i], y = v[j];
			double a = libm_fmax(x, y), b = fmax_inline(x, y);

			bad += memcmp(&a, &b, sizeof(a)) != 0;
		}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_net_prepared(void)
{
	unsigned bad = 0;

	net_odd_grid(check_prepared, &bad);
	CU_ASSERT_EQUAL(bad, 0);
}

/*
 * Physical bounds on the same kind of grid, kept to values a scenario can reach (Voc
 * 3..20 V, loads up to 20 A or 100 W, a cell of 50 mohm up to 1.5 ohm - a 100 mAh or
 * a cold cell -, EMF 3.3..4.3 V), no VINDPM: a passive source behind R = Rout + Rcable
 * cannot put VBUS below 0 or above Voc, nor drive more than Voc/R.
 * Regression test for a fixed bug (sim/solver.c, solve_linear): when the system load exceeds what the cell
 * can carry, the saturated pass element line V = emf - r0*iload + (r_on + r0)*I is
 * followed below 0 V. By hand: Voc 3 V, brick ilim 0.5 A, R 0, r_on 0.3, emf 3.3,
 * r0 1.5, 20 A load: I = 0.5 A, V = 3.3 - 1.5*20 + (0.3 + 1.5)*0.5 = -25.8 V; the code
 * reports VBUS = -25.8 V (VBAT clamped to 0, no NET_F_VSYS_FAIL). Expected VBUS >= 0
 * (the system browns out; VBUS cannot go below ground).
 */
static void test_net_bounds(void)
{
	static const double vocs[] = { 3.0, 5.0, 9.0, 20.0 };
	static const double rsrcs[] = { 0, 0.13, 1 };
	static const double rcabs[] = { 0, 0.47, 2 };
	static const double emfs[] = { 3.3, 3.8, 4.3 };
	static const double r0s[] = { 0.05, 0.1, 1.5 };
	static const double iloads[] = { 0, 1.0, 20 };
	static const double ploads[] = { 5.0, 100 };
	unsigned bad = 0;

	for (size_t a = 0; a < G_N_ELEMENTS(vocs); a++)
	for (size_t b = 0; b < G_N_ELEMENTS(rsrcs); b++)
	for (size_t c = 0; c < G_N_ELEMENTS(rcabs); c++)
	for (int lim = NET_LIMIT_NONE; lim <= NET_LIMIT_FOLDBACK; lim++)
	for (int lin = 0; lin < 2; lin++)
	for (int chg = 0; chg < 2; chg++)
	for (size_t g = 0; g < G_N_ELEMENTS(emfs); g++)
	for (size_t h = 0; h < G_N_ELEMENTS(r0s); h++)
	for (size_t i = 0; i < G_N_ELEMENTS(iloads) + G_N_ELEMENTS(ploads); i++) {
		struct net_in in;
		struct net_out o;
		double r;

		tu_net_base(&in);
		in.voc = vocs[a];
		in.r_src = rsrcs[b];
		in.r_cable = rcabs[c];
		in.limit = lim;
		in.ilim = 0.5;
		in.ishort = 0.1;
		in.linear = lin;
		in.iindpm = 1.5;
		in.vsys_min = lin ? 0 : 3.5;
		in.charging = chg;
		in.ichg = 2.0;
		in.emf = emfs[g];
		in.r0 = r0s[h];
		if (i < G_N_ELEMENTS(iloads))
			in.iload = iloads[i];
		else
			in.pload = ploads[i - G_N_ELEMENTS(iloads)];
		net_solve(&in, &o);
		r = fmax(in.r_src + in.r_cable, 1e-6);
		if (o.vbus < -1e-9 || o.vbus > in.voc + 1e-9 || o.ibus < -1e-12 ||
		    o.ibus > in.voc / r * (1 + 1e-9)) {
			if (bad++ < 3)
				fprintf(stderr, "\n  out of bounds: voc %g rsrc %g rcab %g lim %d lin %d chg %d emf %g r0 %g iload %g pload %g -> vbus %g ibus %g vbat %g ibat %g",
					in.voc, in.r_src, in.r_cable, lim, lin, chg, in.emf, in.r0,
					in.iload, in.pload, o.vbus, o.ibus, o.vbat, o.ibat);
		}
	}
	if (bad)
		fprintf(stderr, "\n  %u operating points out of bounds\n", bad);
	CU_ASSERT_EQUAL(bad, 0);
}

/* ---- pmic register and ADC ---- */

static int preset_index(const char *name)
{
	for (int i = 0; pmic_preset_names[i]; i++)
		if (strcmp(pmic_preset_names[i], name) == 0)
			return i;
	return -1;
}

/*
 * Registers round down (a request never gives more than asked):
 *  bq25890: 100..3250 mA step 50: 1234 mA -> 100 + 50*floor(1134/50) = 100 + 50*22 = 1200;
 *    1250 is a code (100 + 50*23) and stays; 50 mA -> min 100; 5 A -> max 3250.
 *  bq24190 ladder 100/150/500/900/1200/1500/2000/3000: 1250 -> 1200, 899 -> 500,
 *    3000 -> 3000, 50 -> 100, 4000 -> 3000.
 */
static void test_pmic_quantize(void)
{
	struct pmic_params p;

	pmic_params_default(&p, preset_index("bq25890"));
	ASSERT_REL(pmic_quantize_iindpm(&p, 1.234), 1.200, 1e-9);
	ASSERT_REL(pmic_quantize_iindpm(&p, 1.25), 1.250, 1e-9);
	ASSERT_REL(pmic_quantize_iindpm(&p, 0.05), 0.100, 1e-12);
	ASSERT_REL(pmic_quantize_iindpm(&p, 0.0), 0.100, 1e-12);
	ASSERT_REL(pmic_quantize_iindpm(&p, 5.0), 3.250, 1e-12);
	ASSERT_REL(pmic_quantize_iindpm(&p, 3.249), 3.200, 1e-9);

	pmic_params_default(&p, preset_index("bq24190"));
	ASSERT_REL(pmic_quantize_iindpm(&p, 1.25), 1.200, 1e-12);
	ASSERT_REL(pmic_quantize_iindpm(&p, 0.899), 0.500, 1e-12);
	ASSERT_REL(pmic_quantize_iindpm(&p, 3.0), 3.000, 1e-12);
	ASSERT_REL(pmic_quantize_iindpm(&p, 0.05), 0.100, 1e-12);
	ASSERT_REL(pmic_quantize_iindpm(&p, 4.0), 3.000, 1e-12);
}

/*
 * The VINDPM register rounds down on its grid, as a driver's code computation does:
 *  bq24190 (SLUSAW5 REG00: 3.88 V + 80 mV codes, up to 5.08 V): 4.80 V -> code
 *    floor(0.92/0.08) = 11 -> 4.76 V; 4.36 V (code 6) stays; 3.0 V -> 3.88 V;
 *    5.5 V -> 5.08 V.
 *  bq25890 (SLUSC86 REG0D: 100 mV codes, 3.9 V to 15.3 V): 4.45 V -> 4.4 V; 3.0 V ->
 *    3.9 V.
 *  A register without a grid (step 0) holds what it is given.
 */
static void test_pmic_vindpm_register(void)
{
	static const struct { const char *preset; double written, held; } cases[] = {
		{ "bq24190", 4.80, 4.76 }, { "bq24190", 4.36, 4.36 },
		{ "bq24190", 3.0, 3.88 }, { "bq24190", 5.5, 5.08 },
		{ "bq25890", 4.45, 4.4 }, { "bq25890", 3.0, 3.9 },
	};
	struct pmic_params p;

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		pmic_params_default(&p, preset_index(cases[i].preset));
		ASSERT_REL(pmic_vindpm_register(&p, cases[i].written), cases[i].held, 1e-12);
	}
	p.vindpm_step = 0;
	ASSERT_REL(pmic_vindpm_register(&p, 4.4321), 4.4321, 1e-15);
}

/*
 * twl4030 VBUS ADC: 10 bits over 7 V, LSB = 7/1023 = 6.8426 mV, no noise.
 *   5.000 V -> 5/0.0068426 = 730.71 counts -> 731 -> 731*7/1023 = 5.001955 V
 *   3.300 V -> 482.27 -> 482 -> 3.298143 V
 *   8 V and 7 V -> full scale 1023 counts = 7.000 V; -1 V -> 0.
 * Every reading is a whole number of LSBs and within half an LSB of the truth when
 * in range.
 */
static void test_adc_twl4030(void)
{
	struct pmic_params p;
	struct pmic c;
	struct sim s;
	const double lsb = 7.0 / 1023;

	pmic_params_default(&p, preset_index("twl4030"));
	sim_init(&s, 1);
	pmic_init(&c, &p, &s, NULL, NULL, NULL);
	ASSERT_REL(pmic_adc_read(&c, PMIC_ADC_VBUS, 5.0), 731 * 7.0 / 1023, 1e-12);
	ASSERT_REL(pmic_adc_read(&c, PMIC_ADC_VBUS, 5.0), 5.001955, 1e-6);
	ASSERT_REL(pmic_adc_read(&c, PMIC_ADC_VBUS, 3.3), 3.298143, 1e-6);
	ASSERT_REL(pmic_adc_read(&c, PMIC_ADC_VBUS, 8.0), 7.0, 1e-12);
	ASSERT_REL(pmic_adc_read(&c, PMIC_ADC_VBUS, 7.0), 7.0, 1e-12);
	CU_ASSERT_EQUAL(pmic_adc_read(&c, PMIC_ADC_VBUS, -1.0), 0.0);
	for (double v = 0; v <= 7.5; v += 0.0137) {
		double x = pmic_adc_read(&c, PMIC_ADC_VBUS, v);
		double counts = x / lsb;

		CU_ASSERT(fabs(counts - round(counts)) < 1e-6);
		CU_ASSERT(x <= 7.0 + 1e-12);
		if (v <= 7.0)
			CU_ASSERT(fabs(x - v) <= lsb / 2 + 1e-12);
	}
	pmic_cleanup(&c);
	sim_destroy(&s);
}

CU_TestInfo physics_tests[] = {
	{ "rc step response (1 ns .. 10 tau)", test_rc_step_response },
	{ "rc under a linear current ramp", test_rc_ramp },
	{ "the cell at the end of a step: a line in the end current", test_end_line },
	{ "the stepper's shared factors and OCV lookups give the same bits", test_stepper_shortcuts },
	{ "soc: average current and self-discharge", test_soc_integration },
	{ "ocv table points and midpoints", test_ocv_table },
	{ "capacity scaling and arrhenius", test_capacity_temperature },
	{ "cable loop resistance", test_cable },
	{ "solver: cable drop (linear)", test_net_cable_drop },
	{ "solver: constant-power stable root", test_net_constant_power },
	{ "solver: collapse at the maximum power point", test_net_collapse_threshold },
	{ "solver: brick wall without / with vindpm", test_net_brick_wall },
	{ "solver: an input limit equal to the source's is not the source's limit", test_net_limit_equal },
	{ "solver: the collapse onto VINDPM holds until the demand fits under it", test_net_collapse_holds },
	{ "solver: vindpm above voc", test_net_vindpm_above_voc },
	{ "solver: source knee, linear dropout", test_net_knee_dropout },
	{ "solver: foldback knee and short", test_net_foldback },
	{ "solver: linear vs switching input current", test_net_linear_vs_switching },
	{ "solver: cv current", test_net_cv },
	{ "solver: battery supplement", test_net_supplement },
	{ "solver: never nan", test_net_never_nan },
	{ "solver: the input side prepared once gives the same bits", test_net_prepared },
	{ "fmax_inline is libm's fmax bit for bit", test_fmax_inline },
	{ "solver: 0 <= vbus <= voc", test_net_bounds },
	{ "pmic: iindpm register rounding", test_pmic_quantize },
	{ "pmic: vindpm register rounding", test_pmic_vindpm_register },
	{ "pmic: twl4030 vbus adc", test_adc_twl4030 },
	CU_TEST_INFO_NULL,
};
