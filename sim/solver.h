/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/solver.h - the algebraic operating point of the charging network.
 *
 *  source (Voc, Rsrc, limit) -- cable Rc -- VBUS -- charger input stage -- VSYS -- load
 *                                                                  |
 *                                                        battery (EMF + R0)
 *
 * Given the discrete state (which switches are on, the charger's limits) and the
 * battery as a line EMF + R0*I (OCV + RC voltages, constant over an instant), net_solve() returns
 * every voltage, current and power of the network in closed form. It never returns
 * NaN or Inf: when no operating point exists (a constant-power load past the source's
 * maximum power point with no input-current cap, or a current demand past a
 * brick-wall limit with no VINDPM) it reports NET_F_COLLAPSE and VBUS = 0, which is
 * what the input capacitor does within microseconds; the charger's UVLO and the
 * port's protection then act on that. This file knows circuits, not USB.
 */
#ifndef CS_SIM_SOLVER_H
#define CS_SIM_SOLVER_H

#include <stdbool.h>

enum net_limit { NET_LIMIT_NONE, NET_LIMIT_BRICK, NET_LIMIT_FOLDBACK };

struct net_in {
	/* source and cable, as seen from the device */
	bool src_on;
	double voc, r_src, r_cable;
	int limit;              /* enum net_limit */
	double ilim, ishort;
	double pmax;            /* power limit at the port's terminals, W (0 = none):
				 * past it the port folds its current so vsrc * I = pmax */
	bool was_limiting;      /* the source was in its limit at the last solution */
	/* charger input stage */
	bool chg_on;            /* input connected (not in UVLO, not disabled) */
	bool linear;            /* linear pass element, else switching converter */
	double iindpm;          /* input current limit, A */
	double vindpm;          /* input voltage regulation, V (0 = none) */
	double eff;             /* switching: output power / input power */
	double r_on;            /* linear: pass element resistance when saturated */
	double vsys_min;        /* switching: minimum system voltage regulation (0 = none) */
	/* charge control */
	bool charging;          /* charging enabled (not done, not faulted) */
	double ichg;            /* battery current limit in this phase (precharge or CC) */
	double vreg;            /* CV regulation voltage */
	/* battery: terminal = emf + r0 * ibat (the stepper may give the line of the cell
	 * at the end of a step instead, run/step.c) */
	double emf, r0;
	bool bat_open;          /* the pack's protection opened the discharge path:
				 * the cell takes charge but gives none */
	/* system load at VSYS: a current or a power (the other is 0) */
	double iload, pload;
};

#define NET_F_LIMITING    0x001u  /* source in its current (or power) limit */
#define NET_F_COLLAPSE    0x002u  /* no operating point: VBUS collapsed */
#define NET_F_IINDPM      0x004u  /* charger held at its input current limit */
#define NET_F_VINDPM      0x008u  /* charger held VBUS at VINDPM */
#define NET_F_CV          0x010u  /* battery voltage regulated at VREG */
#define NET_F_SUPPLEMENT  0x020u  /* battery discharging into the system */
#define NET_F_VSYS_FAIL   0x040u  /* the battery cannot carry the system load */
#define NET_F_DROPOUT     0x080u  /* linear pass element fully on */

struct net_out {
	double vsrc;     /* at the port terminals */
	double vbus;     /* at the device */
	double ibus;     /* through the cable */
	double vsys, iload;
	double vbat, ibat;  /* battery terminal; ibat > 0 charging */
	/* powers, W */
	double p_emf;       /* Voc * ibus: what the source's EMF delivers */
	double p_src_loss;  /* inside the port (Rout, or its limiter in current limit) */
	double p_cable;
	double p_chg_loss;  /* conversion / pass-element / BATFET losses */
	double p_load;
	double p_bat;       /* into the battery terminal (vbat * ibat) */
	unsigned flags;
};

void net_solve(const struct net_in *in, struct net_out *out);

/* What net_solve() derives from the source, the cable and the charger's input stage
 * alone, whatever the battery's line (emf, r0) and whether the input is on: the same
 * for every solve of one circuit, so a caller that solves a circuit for many battery
 * lines (the stepper: several per trial step) prepares it once. */
struct net_input_side {
	double r;               /* r_src + r_cable (at least 1 uohm) */
	double icap;            /* the most the charger may draw: iindpm, or less ... */
	bool vindpm_binds;      /* ... where the source reaches VINDPM first */
};

void net_prepare(const struct net_in *in, struct net_input_side *side);
/* net_solve() with side from net_prepare() of a net_in that differs from in at most in
 * emf, r0 and chg_on: the same result. */
void net_solve_prepared(const struct net_in *in, const struct net_input_side *side,
			struct net_out *out);

/* A constant-power load leaving a brick-wall limit must come back below it by this
 * fraction: without it the operating point chatters at the knee, where VBUS jumps
 * between the knee and VINDPM while the battery's RC voltages drift across it. */
#define NET_LIMIT_HYSTERESIS 1e-3

/* Most current the source can deliver with the device at voltage v (v <= Voc). */
double net_supply_current(const struct net_in *in, double v);

#endif
