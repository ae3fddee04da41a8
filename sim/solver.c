// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/solver.c - closed-form operating point of the charging network.
 *
 * Notation: R = r_src + r_cable; the source's resistive branch is V = Voc - R*I at
 * the device. A switching charger is a constant-power load P = Pout/eff on that line:
 * V*I = P has the stable root I = 2P / (Voc + sqrt(Voc^2 - 4RP)) while
 * P <= Voc^2/(4R) (the maximum power point). Past that point, or when its input
 * current cap is reached, the charger sits at the cap (current regulation is stable
 * on either side of the maximum power point). A cap above a brick-wall limit with
 * no VINDPM has no operating point: collapse. A linear charger is a current sink
 * whose pass element saturates at V = Vbat + r_on*I; it never collapses, VBUS falls
 * to just above the battery instead.
 *
 * A power limit (pmax: a constant-power adapter, a PPS source) is a hyperbola
 * vsrc*I = pmax at the port's terminals; the supply curve is the lowest of the
 * resistive line, the current limit and the hyperbola. Its meeting points with a line
 * at the device V = a + b*I are roots of a quadratic (power_meet_line()); with a
 * constant-power charger on it, the charger's demand is met on the line up to the
 * corner where the line's port power reaches pmax, past it the charger sits at its
 * input cap (VINDPM then holds VBUS on the hyperbola, vsrc*I = pmax exactly).
 *
 * Output-side power balance (switching, VSYS = Vbat):
 *   (emf + r0*y) * (iload + y) = P*eff  ->  r0 y^2 + (emf + r0 iload) y + emf iload - P eff = 0
 * whose larger root covers both reduced charging (y >= 0) and battery supplement.
 */
#include <math.h>
#include <string.h>
#include "sim/fmax.h"
#include "sim/solver.h"

#define R_MIN 1e-6   /* ohm: keeps divisions finite for an ideal (0 ohm) source */

static double path_r(const struct net_in *in)
{
	double r = in->r_src + in->r_cable;

	return r < R_MIN ? R_MIN : r;
}

/* Slope of the foldback line in terms of the port voltage: I = ishort + k * vsrc. */
static double foldback_k(const struct net_in *in)
{
	double vknee = in->voc - in->r_src * in->ilim;

	if (vknee <= 1e-3)
		return 0;
	return (in->ilim - in->ishort) / vknee;
}

/* Intersection of the supply curve with the line V = a + b*I (b >= 0): the point a
 * saturated linear pass element settles at; r is path_r(in). Returns I, sets *v. */
static double supply_meet_line_current(const struct net_in *in, double r, double a, double b,
				       double *v)
{
	double i = (in->voc - a) / (r + b);

	if (i < 0) {
		*v = in->voc;
		return 0;
	}
	if (in->limit == NET_LIMIT_NONE || i <= in->ilim) {
		*v = in->voc - r * i;
		return i;
	}
	if (in->limit == NET_LIMIT_BRICK) {
		i = in->ilim;
	} else {
		double k = foldback_k(in);
		double den = 1.0 - k * in->r_cable - k * b;

		i = den > 1e-9 ? (in->ishort + k * a) / den : in->ishort;
		i = fmin(fmax(i, in->ishort), in->ilim);
	}
	*v = a + b * i;
	return i;
}

/* Where the power limit's hyperbola vsrc*I = pmax meets the line V = a + b*I at the
 * device (vsrc = V + r_cable*I): (b + r_cable) I^2 + a I - pmax = 0, its positive root
 * in the form that does not cancel; INFINITY where there is none (a <= 0 with no
 * resistance: an ideal short takes any current at no power). */
static double power_meet_line(const struct net_in *in, double a, double b)
{
	double c = b + in->r_cable;
	double den = a + sqrt(a * a + 4.0 * c * in->pmax);

	return den > 0 ? 2.0 * in->pmax / den : INFINITY;
}

/* The supply curve is the lowest of its branches, so where it meets a rising line is
 * the lowest of the branches' meeting points: the current limit's, then the power
 * limit's. */
static double supply_meet_line(const struct net_in *in, double r, double a, double b,
			       double *v)
{
	double i = supply_meet_line_current(in, r, a, b, v);

	if (in->pmax > 0 && i > 0) {
		double ip = power_meet_line(in, a, b);

		if (ip < i) {
			i = ip;
			*v = a + b * i;
		}
	}
	return i;
}

/* The device voltage at which the source gives i on its line, or lower on its power
 * limit's hyperbola, vsrc = pmax / i. */
static double supply_voltage_at(const struct net_in *in, double r, double i)
{
	double v = in->voc - r * i;

	if (in->pmax > 0 && i > 0)
		v = fmin(v, in->pmax / i - in->r_cable * i);
	return v;
}

/* The port at its power limit (to rounding): flag it in its limit. */
static void flag_power_limit(const struct net_in *in, struct net_out *o)
{
	if (in->pmax > 0 && o->vsrc * o->ibus >= in->pmax * (1 - 1e-9))
		o->flags |= NET_F_LIMITING;
}

double net_supply_current(const struct net_in *in, double v)
{
	double vv;

	return supply_meet_line(in, path_r(in), v, 0, &vv);
}

/* Larger root of r0 y^2 + B y + C = 0 (r0 > 0); on a negative discriminant returns
 * the vertex (the battery's maximum power point) and flags failure. */
static double quad_upper(double r0, double B, double C, bool *fail)
{
	double disc = B * B - 4.0 * r0 * C;

	if (disc < 0) {
		*fail = true;
		return -B / (2.0 * r0);
	}
	double sq = sqrt(disc);

	/* Stable form: avoid subtracting nearly equal numbers. */
	if (B >= 0)
		return sq + B > 0 ? -2.0 * C / (B + sq) : 0;
	return (-B + sq) / (2.0 * r0);
}

/* Battery current target of the charge controller: CC limit or CV. */
static double charge_target(const struct net_in *in, unsigned *flags)
{
	double icv, y;

	if (!in->charging)
		return 0;
	icv = (in->vreg - in->emf) / in->r0;
	y = in->ichg;
	if (icv < y) {
		y = icv;
		*flags |= NET_F_CV;
	}
	return y > 0 ? y : 0;
}

/* VSYS at the battery terminal (finish_battery_side). */
#define VSYS_AT_VBAT (-1.0)

/* The system when the cell gives nothing (bat_open: the pack's protection has opened
 * its discharge path) and the output side has p_avail watts: a current load takes them
 * at p_avail/iload volts, a power load it exceeds has no operating point and VSYS
 * collapses. Returns VSYS. */
static double vsys_without_cell(const struct net_in *in, double p_avail, struct net_out *o)
{
	if (in->pload <= 0 && in->iload > 0 && p_avail > 0)
		return p_avail / in->iload;
	o->flags |= NET_F_VSYS_FAIL;
	return 0;
}

/* The system and battery when the output side has p_avail watts (switching) with
 * VSYS = Vbat. Returns ibat; *vsys is VSYS_AT_VBAT, or the system's own voltage when
 * an open cell (bat_open) cannot supplement. */
static double share_output(const struct net_in *in, double p_avail, struct net_out *o,
			   double *vsys)
{
	bool fail = false;
	double y;

	*vsys = VSYS_AT_VBAT;
	if (in->pload > 0)
		y = quad_upper(in->r0, in->emf, in->pload - p_avail, &fail);
	else
		y = quad_upper(in->r0, in->emf + in->r0 * in->iload,
			       in->emf * in->iload - p_avail, &fail);
	if (in->bat_open && y < 0) {
		*vsys = vsys_without_cell(in, p_avail, o);
		return 0;
	}
	if (fail)
		o->flags |= NET_F_VSYS_FAIL;
	return y;
}

/* Inline: the switching charger's usual solve ends here, some 1,900 times a full
 * charge (0.5 % of its instructions went to the call). */
static inline void finish_battery_side(const struct net_in *in, struct net_out *o,
				       double ibat, double vsys)
{
	o->ibat = ibat;
	o->vbat = in->emf + in->r0 * ibat;
	if (o->vbat < 0) {
		o->vbat = 0;
		o->flags |= NET_F_VSYS_FAIL;
	}
	o->vsys = vsys >= 0 ? vsys : o->vbat;
	if (in->pload > 0)
		o->iload = o->vsys > 0.05 ? in->pload / o->vsys : in->pload / 0.05;
	else
		o->iload = in->iload;
	if (vsys == 0)
		o->iload = 0;   /* a system collapsed without its cell draws nothing */
	o->p_load = o->vsys * o->iload;
	o->p_bat = o->vbat * o->ibat;
	if (ibat < 0 && o->iload > 0)
		o->flags |= NET_F_SUPPLEMENT;
}

/* The battery side with p_avail watts from the output side. Returns what of p_avail
 * nothing took: all of it where the system collapsed without its cell (a power load
 * beyond p_avail has no operating point at any voltage), else 0. */
static double share_and_finish(const struct net_in *in, double p_avail, struct net_out *o)
{
	double vsys, y = share_output(in, p_avail, o, &vsys);

	finish_battery_side(in, o, y, vsys);
	return vsys == 0 ? p_avail : 0;
}

/* No input power: the battery carries the system. */
static void solve_no_input(const struct net_in *in, struct net_out *o)
{
	o->ibus = 0;
	o->vbus = in->src_on ? in->voc : 0;
	o->vsrc = o->vbus;
	share_and_finish(in, 0, o);
}

static void input_powers(const struct net_in *in, struct net_out *o)
{
	o->p_emf = in->voc * o->ibus;
	o->p_cable = in->r_cable * o->ibus * o->ibus;
	o->p_src_loss = (in->voc - o->vsrc) * o->ibus;
	if (o->p_src_loss < 0)
		o->p_src_loss = 0;
}

/* The most the charger may draw (side->icap): its input current limit, or less where
 * the source reaches VINDPM first (then side->vindpm_binds). */
void net_prepare(const struct net_in *in, struct net_input_side *side)
{
	side->r = path_r(in);
	side->vindpm_binds = false;
	side->icap = in->iindpm;
	if (in->vindpm > 0) {
		double iv = in->voc > in->vindpm ? net_supply_current(in, in->vindpm) : 0;

		if (iv < in->iindpm) {
			side->vindpm_binds = true;
			side->icap = iv;
		}
	}
}

/* No operating point: VBUS has collapsed and the source drives ibus into it. */
static void solve_collapse(const struct net_in *in, struct net_out *o, double ibus)
{
	o->flags |= NET_F_COLLAPSE;
	o->ibus = ibus;
	o->vbus = 0;
	o->vsrc = in->r_cable * ibus;
	o->p_chg_loss = 0;
	share_and_finish(in, 0, o);
	o->flags &= ~NET_F_CV;
	input_powers(in, o);
}

static void solve_switching(const struct net_in *in, const struct net_input_side *side,
			    struct net_out *o)
{
	double r = side->r;
	double ib_t = charge_target(in, &o->flags);
	double vb_t = in->emf + in->r0 * ib_t;
	double vsys_t = fmax_inline(vb_t, in->vsys_min);
	double p_sys = in->pload > 0 ? in->pload : vsys_t * in->iload;
	double p_req = (p_sys + vsys_t * ib_t) / in->eff;
	bool vindpm_binds = side->vindpm_binds;
	double icap = side->icap, i, v, pin;
	double disc = in->voc * in->voc - 4.0 * r * p_req;
	double ilim_ok = in->was_limiting ? in->ilim * (1.0 - NET_LIMIT_HYSTERESIS) : in->ilim;
	double pmax_ok = in->was_limiting ? in->pmax * (1.0 - NET_LIMIT_HYSTERESIS) : in->pmax;

	/* Collapsed onto VINDPM at the source's limit, the charger's input loop holds VBUS
	 * there until what it asks fits under the source's current at VINDPM; only then
	 * does VBUS rise back onto the line. */
	bool held = in->was_limiting && vindpm_binds &&
		    p_req > in->vindpm * icap * (1.0 - NET_LIMIT_HYSTERESIS);

	i = disc >= 0 ? 2.0 * p_req / (in->voc + sqrt(disc)) : INFINITY;
	/* on the line, the port's power (voc - r_src i) i rises with i up to the corner
	 * where it reaches pmax */
	if (!held && i <= icap && (in->limit == NET_LIMIT_NONE || i <= ilim_ok) &&
	    (in->pmax <= 0 || (in->voc - in->r_src * i) * i <= pmax_ok)) {
		/* Demand met on the resistive branch. */
		o->ibus = i;
		o->vbus = in->voc - r * i;
		o->vsrc = o->vbus + in->r_cable * i;
		pin = p_req;
		o->p_chg_loss = pin * (1.0 - in->eff) + (vsys_t - vb_t) * ib_t;
		finish_battery_side(in, o, ib_t, vsys_t);
		input_powers(in, o);
		return;
	}

	/* Input-limited at icap. */
	i = icap;
	if (i <= 0) {
		/* VINDPM at or above Voc: the charger cannot draw anything. */
		o->flags &= ~NET_F_CV;
		o->flags |= NET_F_VINDPM;
		o->ibus = 0;
		o->vbus = o->vsrc = in->voc;
		share_and_finish(in, 0, o);
		input_powers(in, o);
		return;
	}
	if (in->limit != NET_LIMIT_NONE && i > in->ilim && !vindpm_binds) {
		o->flags |= NET_F_LIMITING;
		solve_collapse(in, o, net_supply_current(in, 0));
		return;
	}
	v = vindpm_binds ? in->vindpm : supply_voltage_at(in, r, i);
	if (v <= 0) {
		solve_collapse(in, o, in->pmax > 0 ? net_supply_current(in, 0) : in->voc / r);
		return;
	}
	o->flags &= ~NET_F_CV;
	o->flags |= vindpm_binds ? NET_F_VINDPM : NET_F_IINDPM;
	/* The source is in its limit where its line would carry more than the limit at
	 * this VBUS - more by more than rounding: a charger whose input limit equals the
	 * source's (a PD contract's current, drawn in full) holds VBUS on the line, at
	 * the source's knee, not past it. */
	if (in->limit != NET_LIMIT_NONE && i >= in->ilim * (1 - 1e-12) &&
	    (in->voc - v) / r > in->ilim * (1 + 1e-9))
		o->flags |= NET_F_LIMITING;
	o->ibus = i;
	o->vbus = v;
	o->vsrc = v + in->r_cable * i;
	flag_power_limit(in, o);
	pin = v * i;

	double pav = pin * in->eff;
	if (in->vsys_min > 0) {
		/* NVDC: with the battery below SYS_MIN, VSYS is held at SYS_MIN while the
		 * input covers the system, and the battery charges from VSYS through the
		 * BATFET in its linear region. */
		double psys_min = in->pload > 0 ? in->pload : in->vsys_min * in->iload;

		if (pav >= psys_min) {
			double ib = (pav - psys_min) / in->vsys_min;
			double vb = in->emf + in->r0 * ib;

			if (vb <= in->vsys_min) {
				o->p_chg_loss = pin - pav + (in->vsys_min - vb) * ib;
				finish_battery_side(in, o, ib, in->vsys_min);
				input_powers(in, o);
				return;
			}
		}
	}
	/* Output power a collapsed system cannot take is the converter's to dissipate. */
	o->p_chg_loss = pin - pav + share_and_finish(in, pav, o);
	input_powers(in, o);
}

/* The linear charger's output node: VSYS = VBAT, unless an open cell (bat_open) would
 * have to supplement: the charger's current i into a system that wants more pulls the
 * node down, and the system collapses. The charger's current still flows (the cell's
 * protection passes none of it back, and it has nowhere else to go): into the
 * collapsed system at 0 V, so the pass element drops all of VBUS (solve_linear). */
static void finish_linear(const struct net_in *in, struct net_out *o, double y, double i)
{
	if (in->bat_open && y < 0) {
		o->flags |= NET_F_VSYS_FAIL;
		finish_battery_side(in, o, 0, 0);
		o->iload = i;
		return;
	}
	finish_battery_side(in, o, y, VSYS_AT_VBAT);
}

static void solve_linear(const struct net_in *in, const struct net_input_side *side,
			 struct net_out *o)
{
	double ib_t = charge_target(in, &o->flags);
	double iload = in->iload;
	double i, v = 0, ireq, icap = side->icap, isat, vsat;
	bool vindpm_binds = side->vindpm_binds;

	if (!in->charging) {
		/* Linear chargers have no power path: done means the input is off. */
		solve_no_input(in, o);
		return;
	}
	/* A power load draws pload/Vbat at the regulated battery voltage. */
	if (in->pload > 0)
		iload = in->pload / fmax(in->emf + in->r0 * ib_t, 0.5);
	ireq = iload + ib_t;
	/* Saturated pass element: V = emf - r0*iload + (r_on + r0)*I. A load the cell
	 * cannot carry would put that line below 0 V: the system has collapsed and the
	 * pass element sees VSYS at 0. */
	{
		double a = in->emf - in->r0 * iload;

		if (a < 0) {
			a = 0;
			o->flags |= NET_F_VSYS_FAIL;
		}
		isat = supply_meet_line(in, side->r, a, in->r_on + in->r0, &vsat);
	}

	i = ireq;
	if (icap < i)
		i = icap;
	if (isat < i) {
		i = isat;
		v = vsat;
		o->flags |= NET_F_DROPOUT;
		if (in->limit != NET_LIMIT_NONE && i >= in->ilim * (1 - 1e-9))
			o->flags |= NET_F_LIMITING;
		if (in->limit == NET_LIMIT_FOLDBACK && (in->voc - vsat) / side->r > in->ilim)
			o->flags |= NET_F_LIMITING;
	} else if (i < ireq) {
		o->flags |= vindpm_binds ? NET_F_VINDPM : NET_F_IINDPM;
		v = vindpm_binds && i > 0 ? in->vindpm : supply_voltage_at(in, side->r, i);
	} else {
		v = supply_voltage_at(in, side->r, i);
	}
	if (i < ireq)
		o->flags &= ~NET_F_CV;
	if (i < 0)
		i = 0;
	o->ibus = i;
	o->vbus = v;
	o->vsrc = v + in->r_cable * i;
	flag_power_limit(in, o);
	if (in->pload > 0) {
		/* (emf + r0 y) (i - y) = pload */
		bool fail = false;
		double y = quad_upper(in->r0, in->emf - in->r0 * i, in->pload - in->emf * i, &fail);

		if (fail)
			o->flags |= NET_F_VSYS_FAIL;
		finish_linear(in, o, y, i);
	} else {
		finish_linear(in, o, i - iload, i);
	}
	o->p_chg_loss = (o->vbus - o->vsys) * i;
	if (o->p_chg_loss < 0)
		o->p_chg_loss = 0;
	input_powers(in, o);
}

void net_solve_prepared(const struct net_in *in, const struct net_input_side *side,
			struct net_out *out)
{
	memset(out, 0, sizeof(*out));
	if (!in->src_on || !in->chg_on) {
		solve_no_input(in, out);
		return;
	}
	if (in->linear)
		solve_linear(in, side, out);
	else
		solve_switching(in, side, out);
}

void net_solve(const struct net_in *in, struct net_out *out)
{
	struct net_input_side side;

	net_prepare(in, &side);
	net_solve_prepared(in, &side, out);
}
