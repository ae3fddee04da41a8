/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/battery/battery.h - Li-ion cell: two-RC Thevenin equivalent circuit.
 *
 *   V_term = OCV(SOC, T) + I*R0 + V1 + V2          (I > 0 charging)
 *   dVk/dt = I/Ck - Vk/(Rk*Ck)                      k = 1, 2
 *   dSOC/dt = I / (3600*Q) - self-discharge
 *
 * The parameters (struct battery_params) belong to the scenario; the state (struct
 * battery_state) to the run. A preset's resistances and capacitances are those of its
 * reference cell (ref_capacity_ah) and scale with the capacity given (a cell twice as
 * large has half the resistance and twice the capacitance); a value the scenario
 * writes is the cell's own and is used as written. battery_effective() applies the
 * scaling and the temperature (Arrhenius) once per change, not per step.
 */
#ifndef CS_MODELS_BATTERY_H
#define CS_MODELS_BATTERY_H

#include "models/model.h"

#define BATTERY_OCV_MAX 64

struct battery_params {
	int preset;
	double capacity_ah;        /* Q */
	double soc;                /* initial state of charge, 0..1 */
	double r0, r1, c1, r2, c2; /* at ref_temp_c */
	double ref_capacity_ah;    /* capacity the preset's R/C values were fitted at */
	unsigned rc_scaled;        /* BATTERY_RC_*: the preset's values, scaled by capacity */
	int ocv_n;
	double ocv_soc[BATTERY_OCV_MAX]; /* ascending */
	double ocv_v[BATTERY_OCV_MAX];
	double temperature_c;      /* cell (and ambient) temperature */
	double ref_temp_c;         /* temperature of the R values */
	double ea_j_mol;           /* Arrhenius activation energy of the resistances */
	bool thermal;              /* lumped thermal model on/off */
	double thermal_mass_j_k;   /* heat capacity of the cell */
	double r_thermal_k_w;      /* thermal resistance to ambient */
	double self_discharge;     /* fraction of capacity per 30 days */
	double v_max;              /* highest safe charge voltage (VREG must not exceed) */
	double uvp;                /* pack protection: discharge stops below this terminal voltage */
};

/* Bits of battery_params.rc_scaled: which of r0, r1, c1, r2, c2 still hold the
 * preset's value (those scale with capacity; one the scenario gives does not). */
enum {
	BATTERY_RC_R0 = 1u << 0, BATTERY_RC_R1 = 1u << 1, BATTERY_RC_C1 = 1u << 2,
	BATTERY_RC_R2 = 1u << 3, BATTERY_RC_C2 = 1u << 4, BATTERY_RC_ALL = 0x1fu,
};

/* Values derived from the parameters at the current temperature. */
struct battery_eff {
	double q_as;               /* capacity in ampere-seconds */
	double r0, r1, c1, r2, c2, tau1, tau2;
	double self_dis_per_s;     /* SOC per second */
};

struct battery_state {
	double soc, v1, v2, temp_c;
};

struct evlog;

/* The cell in a run: its parameters, its state (which the run's stepper advances)
 * and the values derived at its current temperature; and its pack's protection: when
 * the cell is empty (SOC 0) or its terminal voltage falls to uvp while it discharges,
 * the protection opens the discharge path (open): the cell takes charge but gives
 * none, until a charge current flows again. */
struct battery {
	struct battery_params *p;
	struct battery_state x;
	struct battery_eff eff;
	bool open;
	struct sim *sim;           /* for the protection's events (NULL: none logged) */
	struct evlog *log;
	model_changed_fn *changed;
	void *ctx;
};

extern const struct param_desc battery_param_desc[];
extern const char *const battery_preset_names[];

/* params: a struct battery_params */
void battery_params_default(void *params, int preset);
void battery_effective(const struct battery_params *p, double temp_c, struct battery_eff *e);
double battery_ocv(const struct battery_params *p, double soc);
/* The EMF the terminal sees before R0: OCV + V1 + V2. */
double battery_emf(const struct battery_params *p, const struct battery_state *s);
/* Advance over dt with the current varying linearly from i0 to i1 (exact for the
 * RC pairs; trapezoidal for SOC, which is exact for a linear current). */
void battery_advance(const struct battery_eff *e, const struct battery_state *s0, double i0,
		     double i1, double dt, struct battery_state *s1);
/* The cell at the end of a step, as the network sees it before the end current i1 is
 * known: the terminal voltage OCV(SOC1) + V1 + V2 + R0*i1 is affine in i1 (the RC
 * pairs exactly, the OCV linearised on its table segment at soc_at), emf + r*i1.
 * ramp: the current ramps from i0 to i1 (battery_advance(s0, i0, i1)); otherwise it
 * is held at i1 over the whole step (battery_advance(s0, i1, i1)). Solving the network
 * with this line gives the end current the step is consistent with in one solve,
 * however stiff an RC pair is (r is R0 + R1*(1 - phi1) + R2*(1 - phi2) + the OCV's
 * slope times the SOC's dependence on i1). */
void battery_end_line(const struct battery_params *p, const struct battery_eff *e,
		      const struct battery_state *s0, double i0, double dt, bool ramp,
		      double soc_at, double *emf, double *r);
/* The OCV table segment serving soc (the linearisation of battery_end_line is exact
 * while the SOC stays on it). */
int battery_ocv_segment(const struct battery_params *p, double soc);

/*
 * The same, for a stepper that calls them many times with little change between calls
 * (run/step.c): the results are those of the functions above, bit for bit, from fewer
 * operations.
 *
 * A step of dt needs exp(-dt/tau) of both RC pairs (expm1, the costliest operation of
 * a step) in the end line and again in the advance, for the ramped and the held
 * current alike: battery_rc_step() computes those factors once for a step size, and
 * battery_rc_step_fits() says whether they serve another step (same dt and time
 * constants). The OCV table segment of a SOC is looked up first where the last lookup
 * found it (battery_ocv_segment_from()): the SOC moves little from one call to the
 * next, so the binary search is rarely needed.
 */
struct battery_rc_step {
	double dt, tau1, tau2;          /* what the factors were computed for */
	double one_minus_e[2];          /* 1 - exp(-dt/tau) of each pair */
	double one_minus_phi[2];        /* 1 - tau*(1 - exp(-dt/tau))/dt */
};

/* One RC pair under a current ramping linearly from i0 to i1 over dt. The exact
 * solution of dV/dt = i(t)/C - V/tau is
 *   V(dt) = V0*e + R*(i0*(1 - e) + (i1 - i0)*(1 - phi)),
 *   e = exp(-dt/tau),  phi = tau*(1 - e)/dt,
 * with 1 - e from expm1 and 1 - phi from its series when dt << tau, so that tiny
 * steps (ns) keep full relative precision. */
static inline void battery_rc_factors(double tau, double dt, double *one_minus_e,
				      double *one_minus_phi)
{
	double x = dt / tau;

	*one_minus_e = -expm1(-x);
	*one_minus_phi = x < 1e-4 ? x * (0.5 - x / 6.0) : 1.0 - *one_minus_e / x;
}

static inline void battery_rc_step(const struct battery_eff *e, double dt,
				   struct battery_rc_step *k)
{
	k->dt = dt;
	k->tau1 = e->tau1;
	k->tau2 = e->tau2;
	battery_rc_factors(e->tau1, dt, &k->one_minus_e[0], &k->one_minus_phi[0]);
	battery_rc_factors(e->tau2, dt, &k->one_minus_e[1], &k->one_minus_phi[1]);
}
static inline bool battery_rc_step_fits(const struct battery_rc_step *k,
					const struct battery_eff *e, double dt)
{
	return k->dt == dt && k->tau1 == e->tau1 && k->tau2 == e->tau2;
}
/* battery_ocv_segment(p, soc), checking segment seg first (any int): seg serves soc
 * exactly when soc is at or above its start (or seg is the first) and below its end
 * (or seg is the last), as the table ascends strictly (battery_parse_ocv()). A NaN
 * fails both tests and takes the search. */
static inline int battery_ocv_segment_from(const struct battery_params *p, double soc, int seg)
{
	if (seg >= 0 && seg <= p->ocv_n - 2 && (seg == 0 || soc >= p->ocv_soc[seg]) &&
	    (seg == p->ocv_n - 2 || soc < p->ocv_soc[seg + 1]))
		return seg;
	return battery_ocv_segment(p, soc);
}

/* The OCV on table segment seg (battery_ocv(p, soc) when seg serves soc). */
static inline double battery_ocv_on(const struct battery_params *p, int seg, double soc)
{
	return p->ocv_v[seg] + (p->ocv_v[seg + 1] - p->ocv_v[seg]) * (soc - p->ocv_soc[seg]) /
				       (p->ocv_soc[seg + 1] - p->ocv_soc[seg]);
}

/* battery_ocv(p, soc), the segment looked up from *seg and left in it. */
static inline double battery_ocv_from(const struct battery_params *p, double soc, int *seg)
{
	*seg = battery_ocv_segment_from(p, soc, *seg);
	return battery_ocv_on(p, *seg, soc);
}

/*
 * The stepper's per-step arithmetic, inline: run/step.c calls it four times a step,
 * each with its ramp a constant, and a call across files cost more than the work
 * (0.8 % of a full charge's instructions).
 *
 * One pair's voltage at the end of the step is affine in the end current,
 * V(dt) = a + b*i1; with the current held at i1 over the whole step (i0 = i1) it is
 * V0*e + R*(1 - e)*i1. pair: 0 or 1, the factors of k to use.
 */
static inline void battery_rc_affine(double v0, double r, const struct battery_rc_step *k,
				     int pair, double i0, bool ramp, double *a, double *b)
{
	double one_minus_e = k->one_minus_e[pair], one_minus_phi = k->one_minus_phi[pair];

	if (ramp) {
		*a = v0 * (1.0 - one_minus_e) + r * i0 * (one_minus_e - one_minus_phi);
		*b = r * one_minus_phi;
	} else {
		*a = v0 * (1.0 - one_minus_e);
		*b = r * one_minus_e;
	}
}

/* battery_advance() over k->dt. */
static inline void battery_advance_step(const struct battery_eff *e,
					const struct battery_rc_step *k,
					const struct battery_state *s0, double i0, double i1,
					struct battery_state *s1)
{
	double dt = k->dt, a, b;

	battery_rc_affine(s0->v1, e->r1, k, 0, i0, true, &a, &b);
	s1->v1 = a + b * i1;
	battery_rc_affine(s0->v2, e->r2, k, 1, i0, true, &a, &b);
	s1->v2 = a + b * i1;
	s1->soc = s0->soc + 0.5 * (i0 + i1) * dt / e->q_as - e->self_dis_per_s * dt;
	if (s1->soc < 0)
		s1->soc = 0;
	s1->temp_c = s0->temp_c;
}

/* battery_end_line() over k->dt; seg_at is battery_ocv_segment(p, soc_at). */
static inline void battery_end_line_step(const struct battery_params *p,
					 const struct battery_eff *e,
					 const struct battery_rc_step *k,
					 const struct battery_state *s0, double i0, bool ramp,
					 double soc_at, int seg_at, double *emf, double *r)
{
	double dt = k->dt, a1, b1, a2, b2;
	/* the OCV's slope on the segment */
	double s = (p->ocv_v[seg_at + 1] - p->ocv_v[seg_at]) /
		   (p->ocv_soc[seg_at + 1] - p->ocv_soc[seg_at]);
	/* SOC at the end: soc0 + c0 + c1*i1 (trapezoidal, or the held current) */
	double c1 = (ramp ? 0.5 : 1.0) * dt / e->q_as;
	double c0 = (ramp ? 0.5 * i0 * dt / e->q_as : 0.0) - e->self_dis_per_s * dt;

	battery_rc_affine(s0->v1, e->r1, k, 0, i0, ramp, &a1, &b1);
	battery_rc_affine(s0->v2, e->r2, k, 1, i0, ramp, &a2, &b2);
	*emf = battery_ocv_on(p, seg_at, soc_at) + s * (s0->soc + c0 - soc_at) + a1 + a2;
	*r = e->r0 + b1 + b2 + s * c1;
}

/* Lumped thermal model: heat p_loss_w (constant over dt) against the ambient
 * (ambient_c) through r_thermal, into thermal_mass. Exact for constant power. */
double battery_thermal_advance(const struct battery_params *p, double temp_c, double ambient_c,
			       double p_loss_w, double dt);
/* d ln R / dT of the cell's resistances at temp_c (the Arrhenius law of
 * battery_effective()), per kelvin. */
double battery_dlnr_dt(const struct battery_params *p, double temp_c);
/* Heat generated in the cell at current i: R0 and the two RC resistors. */
double battery_loss_w(const struct battery_eff *e, const struct battery_state *s, double i);
/* Energy stored in the two RC capacitors, J. */
double battery_rc_energy(const struct battery_eff *e, const struct battery_state *s);

#endif
