// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/safe_ramp.c - this project's input-current ramp: raise the load only
 * while the raise can be seen, stop where the source leaves its voltage-source region,
 * honour the port's USB budget, back off fast.
 *
 * docs/safe-ramp.md is the design: why each rule, what it costs, and the regret
 * benchmark's figures. The rules, which the comments below cite by number: R1 start
 * low, R2 probe only under load, R3 verify each step, R4 learn the source line (VBUS =
 * E - R * IBUS), R5 the knee is the adapter's limit, R6 the floor, R7 a lost VBUS is a
 * trip, R8 stay in range and in budget, R9 re-probe slowly, R10 watch the charger,
 * R11 VINDPM between register values, R12 ask VINDPM which it is, R13 a wall that
 * moves under a held limit, R14 a probe checked in the battery current, R15 a linear
 * charger's input held between register values by its charge current.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/jiffies.h>
#include <linux/kernel_types.h>
#include <linux/power_supply.h>
#include <linux/usb/charger.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/boot.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

enum sr_state { SR_IDLE, SR_RAMP, SR_STABLE, SR_STATE_COUNT };

/* R10: stuck in UVLO with VBUS present this long means latched: well past a charger's
 * own restart delay once VBUS is back (100 ms typical). */
#define SR_STUCK_MS 250
/* R9's wait doubles up to this after repeated failures at the same level: 30 min. */
#define SR_REPROBE_MAX_MS (30 * 60 * 1000)
/* R4: the most path resistance the fit may claim: 1.5 m of 28 AWG with worn contacts
 * behind a soft adapter is about 1 ohm. */
#define SR_R_MAX_OHM   2.0
/* R4: below this spread of IBUS (A, standard deviation) the fit's slope is not used. */
#define SR_LINE_MIN_SPREAD_A 0.05
/* R5: a reading within this of the line (beyond its scatter) is on it; one this far
 * below it (beyond four times its scatter) is past the knee. */
#define SR_ON_LINE_V 0.002
#define SR_KNEE_MIN_V 0.030
/* R5: ... and at least this many VBUS ADC steps below it. A reading is up to half a
 * step off, and so is a line drawn through readings that all rounded the same way
 * (the bq25890's 100 mV steps: a flat line of 9.1 V readings, then 9.0 V one mA
 * later, from 9.046 and 9.038 V); their scatter shows none of it. */
#define SR_KNEE_LSBS 1.5
#define SR_LINE_MATURE 5
/* R4: IBUS below this reads as "the charger draws nothing yet" (the zero-current point). */
#define SR_IDLE_IBUS_UA 5000
/* R11: a line flatter than this cannot place a current by its voltage (10 mohm: a
 * VINDPM step of 0.1 V would span 10 A). */
#define SR_VMODE_R_MIN_OHM 0.01
/* R11: a wall that fell by d between two knees is held SR_DRIFT_X * d further under:
 * the drift goes on at about that rate until the next knee check, and twice it leaves
 * the hold under the wall when that check comes. */
#define SR_DRIFT_X 2
/* A: a knee must fall more than this (and two IBUS LSBs) to count as a drifting wall:
 * IBUS noise of a few mA (an ADC's typical noise) moves single knees by that much. */
#define SR_DRIFT_MIN_A 0.005
/* ... and less than this fraction of the knee before: an adapter's thermal drift
 * (3-15 % with a 5-30 min time constant in populations/field.json) moves the wall at most
 * 15 % * (1 - exp(-1 / 5)) = 2.7 % in a minute between knees; a larger fall is a
 * changed source or cable, which R4 relearns. */
#define SR_DRIFT_MAX_FRAC 0.05
/* R2: the most a hold under a linear charger's pin may give up, in uA: the
 * twl4030's register (1.66 mA steps) always has a value that close under the pin; a
 * 50 mA register's value cost regret and avoided no overload (docs/safe-ramp.md, R2). */
#define SR_PIN_HOLD_COST_UA 5000
/* R8: what an unconfigured USB device may draw, one unit load [USB 2.0 7.2.1]. */
#define SR_UNIT_LOAD_UA 100000
/* R4: a reading within this of a point the line holds (A) is a current seen before: a
 * ladder's rung or a register value asked again reads the same IBUS, and 5 mA of path
 * resistance (under 2 ohm) moves VBUS by at most 10 mV, which the slope corrects. */
#define SR_SEEN_A 0.005
/* R4: VBUS at a current seen before may differ from the first reading there by this
 * much without the source having moved (V): 20 mV is 40 mohm at 0.5 A, less than a worn
 * contact adds, and less than a line that far off can misplace a knee (knee_margin
 * 0.15 V) ... */
#define SR_MOVED_MIN_V 0.020
/* ... and at least two VBUS ADC steps (two readings, each up to half a step off, and a
 * step of conversion noise: the bq25890's 100 mV, the twl4030's 6.8 mV) ... */
#define SR_MOVED_LSBS 2.0
/* ... and five standard deviations of the difference between two readings at one
 * current, the ADC's noise as the checks see it (the chip does not report it): 4 would
 * do for a known sigma, and an estimate from SR_NOISE_MIN_N pairs can be 30 % low. */
#define SR_MOVED_SIGMAS 5.0
/* R4: the pairs of readings at one current needed before that estimate is used; until
 * then no drawn reading counts as a moved line (the VINDPM test still can, R12). */
#define SR_NOISE_MIN_N 16
/* R3 on a linear charger read through its charge current: VBUS falling less than this
 * under a held limit (V) is no change of IBUS (sr_ibus_from_ibat) */
#define SR_EST_DROP_V 0.05
/* R3 on that charger, after a system load step (sr_load_step): the limit goes this far
 * (uA) under the draw before, as well as knee_backoff: a wall that drifts under a draw
 * (a warming adapter: 15 % over 5 min at the most in populations/field.json, about
 * 1 mA/s at 2 A) moves by less between two checks a second apart, and so takes less
 * than this off a pinned draw's charge current (sr_ibus_from_ibat). */
#define SR_LOAD_STEP_UA 10000
/* R5: how far under an exactly read knee a register value may lie (uA): off the wall,
 * by more than the solver's tolerance on a current limit */
#define SR_EXACT_KNEE_UA 100
/* R15: the least charge current the hold writes (uA), an input current reading's
 * resolution (draw_tol): a system load closer than this under the wall, or above it,
 * leaves the input on the register value under the wall */
#define SR_ICHG_MIN_UA 1000
/* R15: the battery current this far (uA) under the charge current written is an input
 * held short of it: two exact readings, each rounded to the uA */
#define SR_ICHG_PIN_UA 5
/* R15: the hold keeps the cell this far (V) under the VBUS floor (R6, vbus_min) at the
 * least: a load step takes the input into the wall for a check, and the pass element
 * then pulls VBUS down to the cell's voltage plus its own drop, which stays above the
 * 3.5-3.6 V UVLO thresholds of common chargers (R6) */
#define SR_ICHG_VBAT_UNDER_FLOOR_V 0.3
/* R14's hold between rungs: the most VINDPM codes a scan reads (the bq24190's grid,
 * 3.88-5.08 V in 80 mV codes, has 16). */
#define SR_BLIND_SCAN_MAX 16
/* R14 on a long line: the rungs a probe's reading is set against (three fix a parabola) */
#define SR_BLIND_FIT_N 3

static const char *const sr_state_names[] = { "idle", "ramp", "stable" };
G_STATIC_ASSERT(G_N_ELEMENTS(sr_state_names) == SR_STATE_COUNT);

struct sr_params {
	double start;          /* A */
	double step;           /* A */
	sim_time_t interval;   /* between checks while ramping */
	sim_time_t stable_interval;
	double vbus_min;       /* V: R6 floor */
	double knee_margin;    /* V: R4/R5 distance from the source line */
	double knee_backoff;   /* A: R5 margin under the current delivered at the knee */
	double draw_tol;       /* A: IBUS this close to the limit counts as "at the limit" */
	double vindpm_step;    /* V: the VINDPM grid where the charger reports none (R11, R12; 0: both off) */
	int backoff;           /* steps */
	sim_time_t trip_window;
	sim_time_t reprobe;
	double boot_vbat;      /* V; > 0: gate the boot on this battery voltage */
};

/* R4: the verified (IBUS, VBUS) points, in A and V, the latest one per current bin so
 * that hours at one operating point do not drown the slope. */
#define SR_LINE_BIN_A 0.05
#define SR_LINE_BINS  128         /* up to 6.4 A */
struct sr_line {
	bool used[SR_LINE_BINS];
	double i[SR_LINE_BINS], v[SR_LINE_BINS];
	/* the first reading in each bin since the line was learnt: what a line that moves
	 * slowly, each reading a little off the last, is compared with */
	double iref[SR_LINE_BINS], vref[SR_LINE_BINS];
};

/* Least-squares sums over the bins in use. */
struct sr_fit {
	int n;
	double si, sv, sii, siv, svv;
};

struct safe_ramp {
	struct cs_board *board;
	const struct sr_params *p;
	struct notifier_block nb;
	struct work_struct event_work;
	struct delayed_work work;
	unsigned long event;
	enum sr_state st;
	int limit_ua, ceiling_ua, floor_ua, max_ua, chip_min_ua;
	int req_ua;                /* last limit requested; the ramp counts steps in requests */
	int budget_ua;             /* R8: the port's budget (below chip_min_ua in a suspend) */
	int trip_limit_ua;         /* limit in force when VBUS went away */
	int trip_rung_ua;          /* the register value the chip applied then */
	int tripped_rung_ua;       /* R7 on a ladder: a rung a trip came at, 0 = none */
	int peak_ua;               /* highest limit since a check last found all well */
	unsigned long lost_at;     /* jiffies, 0 = never */
	unsigned long quiet_since; /* last trouble, for R9 */
	unsigned long stuck_since; /* R10: jiffies when the charger was first seen stuck, 0 = not */
	bool probing;              /* the last action raised the limit */
	int fail_ua;               /* limit at which the last probe failed */
	int reprobe_ms;            /* current R9 wait, doubled by repeated failures */
	bool vbus;
	struct sr_line line;
	/* R2: where the last probe the system did not follow found the draw, and how
	 * long to wait before probing again from there. */
	int plateau_ua;            /* IBUS then, -1 = none */
	int plateau_ms;            /* 0 = probe as soon as the draw reaches the limit */
	unsigned long plateau_since;
	/* R11: the charger's VINDPM holds the input on the source line below the knee,
	 * the input limit one register value above it. */
	bool vmode;
	int wall_ua;               /* IBUS the input is held under (a knee's, a plateau's) */
	bool vmode_knee;           /* held under a knee (else under a plateau) */
	int vindpm_uv;             /* what R11 wrote */
	int vmode_alt_ua;          /* R11: the register value under the wall it replaced */
	int vindpm_bad_uv;         /* R11: the highest VINDPM that failed this session, 0 = none */
	int vindpm_restore_uv;     /* the charger's own VINDPM (VBUS at the first knee), -1 = not known */
	/* R12: VINDPM is one step lower for one check, to tell a pin from a wall. */
	bool dpm_test;
	int dpm_pin_ua, dpm_pin_uv;  /* IBUS and VBUS of the pin under test */
	bool pl_tried;             /* R5: the last knee was settled under a power limit's */
	bool knee_computed;        /* R5: the knee being settled is computed, not read */
	int wall_limit_ua;         /* R5: a limit set on a wall read on a register value (0: none) */
	/* R15: a linear charger's input held under a wall between two register values by
	 * its charge current (system + charge = input), the input limit on the value
	 * above the wall: the wall read exactly, the value under it, and the charge
	 * current to give back (0: no hold) */
	int ichg_wall_ua, ichg_under_ua, ichg_own_ua;
	bool wall_limit_failed;    /* R5: ... found the adapter in its limit this session */
	bool pl_seen;              /* R5: this session found the source at a power limit */
	int pl_undo_knee_ua, pl_undo_ceiling_ua;   /* ... and what the knee before replaced */
	int knee_ua;               /* IBUS at the last knee this session, -1 = none */
	double vbus_lsb_v;         /* R5: the VBUS ADC's step, 0 = fine or not known */
	int adc_wait_ms;           /* R3: two of the ADC's conversions, 0: reads are fresh */
	unsigned long write_at;    /* R3: jiffies of the last limit write */
	int seen_ua;               /* R2: highest IBUS seen on the line under the limit */
	int last_vbus_uv;          /* R12: VBUS at the last check, 0 = none since VBUS came */
	bool knee_check;           /* R4: the last check settled below a knee ... */
	int undo_knee_ua, undo_ceiling_ua;   /* ... and what it replaced */
	bool rising;               /* R2: the draw is climbing into the last register step */
	bool free_draw;            /* R12: the last check found the draw short of the limit,
				    * the charger getting all its charge current */
	bool enumerated;           /* R8: the host configured the gadget this session */
	bool hiz;                  /* R8: the input is off: the budget is below the chip's range */
	bool dpm_moved;            /* R4/R12: the test asks whether the source line moved */
	/* R4: VBUS noise, from the differences (V) of successive readings at one current */
	double noise_ss;
	int noise_n;
	/* R2/R3 on a linear charger that reads neither IBUS nor input regulation bits,
	 * only its charge current (the twl4030): the input current as last determined,
	 * with the charge current and VBUS read then (sr_ibus_from_ibat) */
	bool est_have;
	bool est_free;             /* ... of a charge that got all it asked (not held) */
	bool est_step;             /* the last estimate found the system load stepped up */
	bool est_nopath;           /* the last estimate found the charger not charging */
	int est_ibus_ua, est_ibat_ua, est_vbus_uv;
	unsigned long est_at;      /* jiffies then: a limit written since changes IBUS */
	int ibat_lsb_ua;           /* the charge current ADC's step (0: fine) */
	bool est_chip;             /* IBUS is read through the charge current (the twl4030) */
	/* R5 on that chip: the wall found a register value at a time (sr_fine_step): the
	 * request the knee settled on (the approach starts there), the highest value to
	 * try (0: no approach), and the step in flight: its request and the verified
	 * request it came from (0: none) */
	int fine_at_ua, fine_cap_ua, fine_req_ua, fine_from_ua;
	int fine_vbus_uv;          /* VBUS read at the verified request */
	int fine_knee_uv;          /* VBUS read at the knee */
	bool fine_off;             /* a wall came under a held limit this session */
	bool fine_pl;              /* a power limit's knee stands this session */
	bool undo_fine_off, pl_undo_fine_off;   /* fine_off before the last knee, and
						 * before the knee a power knee followed */
	/* R2 on that chip: the hold under a pin found a register value at a time
	 * (sr_pin_step): the charge current read at the pin, the hold's request, the
	 * step in flight and the request under it, and the probe's request (0: none) */
	int pinf_ibat_ua, pinf_at_ua, pinf_req_ua, pinf_from_ua, pinf_cap_ua;
	bool pinf_knee;            /* ... under a knee's reading: the end is the ceiling */
	int pinf_last_ibat_ua;     /* the charge current read at the last step */
	int pinf_held_ua;          /* the highest request seen to hold the input */
	int pinf_norise;           /* steps since the charge current last read more */
	/* R9 on that chip: VBUS and VBAT read at the last knee (0: none) */
	int knee_vbus_uv, knee_vbat_uv;
	bool ibus_exact;           /* R5: an input current ADC with no step (knee read exactly) */
	/* R12 from the status bits while the ADC catches up: the charger's own VINDPM,
	 * written back after one interval one code lower; 0 = no test in flight */
	int bits_test_uv;
	bool line_pin;             /* R13: VINDPM holds the input on the line, as asked */
	/* R3 from the status bits on a register finer than `step`: a register value
	 * between the verified limit and a probe the bits showed at a wall, to probe
	 * next (0: none), and the verified limit while that probe is in flight (0: none) */
	int split_ua, split_from_ua;
	/* R16: the verified limit under a probe sized by what the charger is short of
	 * (0: the probe in flight, if any, is one step) */
	int big_from_ua;
	int big_fail_ua;           /* R16: the lowest such probe the bits showed stopped (0: none) */
	int big_next_ua;           /* R16: the probe halfway to it, one interval on (0: none) */
	/* R14: a chip with no VBUS ADC (the bq24190): a probe is checked in the
	 * battery current the fuel gauge reads, from before the write */
	bool blind;
	int blind_ibat_ua, blind_from_ua;
	/* R14: VINDPM is a code lower for one interval, this the charger's own to
	 * write back (0: no test in flight), with the battery current before it */
	int blind_test_uv, blind_test_ibat_ua;
	/* R14 under a held limit: the battery current at the last check (INT_MIN: none),
	 * and whether the test in flight asks about a held limit rather than a probe */
	int blind_last_ibat_ua;
	bool blind_test_held;
	/* R14's hold between two rungs: VINDPM stepped down from the top of its grid one
	 * code an interval, the limit on the rung above a wall (blind_scan_n codes read,
	 * their battery currents in blind_scan_ibat), then held at
	 * blind_hold_uv (0: none) since blind_hold_at; blind_own_uv is the charger's own
	 * VINDPM to write back. */
	bool blind_scanning, blind_scan_rose;
	int blind_scan_n;
	int blind_scan_ibat[SR_BLIND_SCAN_MAX];
	int blind_hold_uv, blind_own_uv;
	int blind_low_ibat_ua;     /* the battery current with VINDPM a code under its own */
	int blind_renew_uv, blind_renew_ua;   /* a hold being renewed, and its limit */
	int blind_hold_ua;         /* the rung above the wall the hold is for (the limit in
				    * force, or over it in a hold on the rung under) */
	/* R14 on a long line: the rungs the last probes in a row started from, with the
	 * battery current read there and when (sr_blind_fit_followed) */
	int blind_fit_n;
	int blind_fit_ua[SR_BLIND_FIT_N], blind_fit_ibat[SR_BLIND_FIT_N];
	unsigned long blind_fit_at[SR_BLIND_FIT_N];
	unsigned long blind_hold_at;
};

#define OFF(f) offsetof(struct sr_params, f)
static const struct param_desc sr_param_desc[] = {
	{ "start", PARAM_NUM, UNIT_AMP, OFF(start), 0, 10, .doc = "first limit after detection (R1)" },
	{ "step", PARAM_NUM, UNIT_AMP, OFF(step), 1e-3, 1, 0, .doc = "ramp step (R2)" },
	{ "interval", PARAM_TIME, .off = OFF(interval), .min = 1e-3, .max = 60,
	  .doc = "time between checks while ramping (R3)" },
	{ "stable_interval", PARAM_TIME, .off = OFF(stable_interval), .min = 1e-3, .max = 600,
	  .doc = "time between checks once stable" },
	{ "vbus_min", PARAM_NUM, UNIT_VOLT, OFF(vbus_min), 3, 6,
	  .doc = "VBUS floor: above every UVLO with margin (R6)" },
	{ "knee_margin", PARAM_NUM, UNIT_VOLT, OFF(knee_margin), 1e-3, 2, 0,
	  .doc = "VBUS this far below the source line marks the adapter's knee; less when the line's scatter is small (R5)" },
	{ "knee_backoff", PARAM_NUM, UNIT_AMP, OFF(knee_backoff), 0, 1,
	  .doc = "after a knee, set the limit this far below the current delivered there (R5)" },
	{ "draw_tol", PARAM_NUM, UNIT_AMP, OFF(draw_tol), 0, 1,
	  .doc = "IBUS within this of the limit counts as drawing the limit (R2)" },
	{ "vindpm_step", PARAM_NUM, UNIT_VOLT, OFF(vindpm_step), 0, 1,
	  .doc = "VINDPM step where the charger does not report its register grid: R11 rounds the VINDPM it writes up to the grid, R12 tests a pinned input with VINDPM one step lower (0: neither)" },

	{ "backoff", PARAM_INT, .off = OFF(backoff), .min = 1, .max = 20,
	  .doc = "steps dropped at the floor without a probe, and below a tripped limit (R6, R7)" },
	{ "trip_window", PARAM_TIME, .off = OFF(trip_window), .min = 0, .max = 60,
	  .doc = "VBUS back within this long counts as a trip (R7)" },
	{ "reprobe", PARAM_TIME, .off = OFF(reprobe), .min = 0, .max = 86400,
	  .doc = "quiet time before one more step is allowed above the ceiling (R9)" },
	{ "boot_vbat", PARAM_NUM, UNIT_VOLT, OFF(boot_vbat), 0, 5,
	  .doc = "boot gating: the bootloader charges until the battery reaches this (0: no gate)" },
	PARAM_END,
};
#undef OFF

static void sr_params_default(const struct cs_policy_desc *desc, void *params)
{
	struct sr_params *p = params;

	(void)desc;
	p->start = 0.5;
	p->step = 0.1;
	/* A step is verified 20 ms after it is written: past the settling of the
	 * charger's input loop (well under a millisecond), shorter than the overload
	 * blanking of the adapters that have one, so a step past the wall is undone
	 * before it can trip them. */
	p->interval = 20 * SIM_MS;
	p->stable_interval = 1 * SIM_S;
	/* 0.3-0.4 V above the UVLO falling thresholds of common chargers (3.5-3.6 V),
	 * 0.1 V above the highest rising one (3.8 V): a linear charger in dropout from
	 * an empty cell, or a switching one whose input collapses, gets no closer. */
	p->vbus_min = 3.9;
	/* 1.5 LSB of a 100 mV VBUS ADC (bq25890): quantisation cannot make a knee. */
	p->knee_margin = 0.15;
	/* Just below the current the source delivered, by two IBUS resolutions
	 * (draw_tol): as close to the adapter's limit as the reading can place it,
	 * since a load above what the adapter gives drains the battery by whatever
	 * is left on the table (the register rounds down from there). */
	p->knee_backoff = 0.002;
	/* IINDPM holds the input current at the register value; 1 mA is an IBUS
	 * ADC's resolution. */
	p->draw_tol = 0.001;
	/* The coarser of the VINDPM registers of the chips the rule is for: 100 mV on
	 * the bq25890 (SLUSC86, REG0D), 80 mV on the bq24190 (SLUSAW5, REG00). */
	p->vindpm_step = 0.1;
	p->backoff = 2;
	p->trip_window = 2 * SIM_S;
	p->reprobe = 60 * SIM_S;
}

static int sr_ms(sim_time_t t)
{
	return (int)(t / SIM_MS);
}

static int sr_ua(double amps)
{
	return (int)lround(amps * 1e6);
}

/* ---- R4: the source line ---- */

static void sr_line_reset(struct sr_line *l)
{
	memset(l->used, 0, sizeof(l->used));
}

static void sr_line_add(struct sr_line *l, double i, double v)
{
	int k = (int)(i / SR_LINE_BIN_A);

	if (k < 0 || k >= SR_LINE_BINS)
		return;
	if (!l->used[k]) {
		l->iref[k] = i;
		l->vref[k] = v;
	}
	l->used[k] = true;
	l->i[k] = i;
	l->v[k] = v;
}

static struct sr_fit sr_line_fit(const struct sr_line *l)
{
	struct sr_fit f = { 0 };

	for (int k = 0; k < SR_LINE_BINS; k++) {
		if (!l->used[k])
			continue;
		f.n++;
		f.si += l->i[k];
		f.sv += l->v[k];
		f.sii += l->i[k] * l->i[k];
		f.siv += l->i[k] * l->v[k];
		f.svv += l->v[k] * l->v[k];
	}
	return f;
}

/* The line's slope is known once IBUS has spread at least this much. */
static bool sr_fit_known(const struct sr_fit *f)
{
	double mi;

	if (f->n < 2)
		return false;
	mi = f->si / f->n;
	return f->sii / f->n - mi * mi >= SR_LINE_MIN_SPREAD_A * SR_LINE_MIN_SPREAD_A;
}

/* The path resistance the fit shows (ohm), within [0, SR_R_MAX_OHM]. */
static double sr_fit_r(const struct sr_fit *f)
{
	double mi = f->si / f->n, var = f->sii / f->n - mi * mi;

	return fmin(fmax(-(f->siv / f->n - mi * f->sv / f->n) / var, 0), SR_R_MAX_OHM);
}

/*
 * The scatter of the points about the line (V, one standard deviation with n - 2
 * degrees of freedom): the VBUS ADC's quantisation and noise as the fit sees them.
 * Negative while there are fewer than three points.
 */
static double sr_fit_scatter(const struct sr_fit *f)
{
	double mi, mv, vi, vv, cov, r, sse;

	if (f->n < 3 || !sr_fit_known(f))
		return -1;
	mi = f->si / f->n;
	mv = f->sv / f->n;
	vi = f->sii / f->n - mi * mi;
	vv = f->svv / f->n - mv * mv;
	cov = f->siv / f->n - mi * mv;
	r = sr_fit_r(f);
	sse = fmax(vv + 2 * r * cov + r * r * vi, 0) * f->n;
	return sqrt(sse / (f->n - 2));
}

/* VBUS the line predicts at current i; false while its slope is unknown. */
static bool sr_fit_predict(const struct sr_fit *f, double i, double *v)
{
	if (!sr_fit_known(f))
		return false;
	*v = f->sv / f->n - sr_fit_r(f) * (i - f->si / f->n);
	return true;
}

/* R4: VBUS at a current seen before (within SR_SEEN_A of `i`), moved to `i` through the
 * fit's slope where it is known: *first the bin's first reading, *last its latest; false
 * when the bin holds no reading at that current. */
static bool sr_line_seen(const struct sr_line *l, const struct sr_fit *f, double i, double *first,
			 double *last)
{
	int k = (int)(i / SR_LINE_BIN_A);
	double r = sr_fit_known(f) ? sr_fit_r(f) : 0;

	if (k < 0 || k >= SR_LINE_BINS || !l->used[k] || fabs(i - l->iref[k]) > SR_SEEN_A ||
	    fabs(i - l->i[k]) > SR_SEEN_A)
		return false;
	*first = l->vref[k] - r * (i - l->iref[k]);
	*last = l->v[k] - r * (i - l->i[k]);
	return true;
}

/* ---- the limit ---- */

static void sr_ichg_exit(struct safe_ramp *s);

static void sr_set_state(struct safe_ramp *s, enum sr_state st)
{
	if (st == SR_IDLE)
		sr_ichg_exit(s);   /* R15: the next adapter gets the charger's own ICHG */
	if (st != s->st)
		cs_stack_event("safe_ramp_state", "state", sr_state_names[st]);
	s->st = st;
}

static void sr_write(struct safe_ramp *s, int ua)
{
	ua = clamp(ua, s->chip_min_ua, s->ceiling_ua);
	/* The chip rounds to its register step; the ramp keeps counting in the
	 * values it asked for, so the levels do not drift down by a rounding each
	 * round trip and a failed level is recognised when it comes back (R9). */
	if (ua != s->req_ua) {
		s->req_ua = ua;
		s->limit_ua = cs_chg_set_input_current_limit(s->board->ic, ua);
		s->write_at = jiffies;
		s->big_from_ua = 0;   /* R16: set again by a probe sized by the charger */
	}
	s->peak_ua = max(s->peak_ua, ua);
}

/* R8: the port's budget for this supplier, within the charger's registers. */
static void sr_range(struct safe_ramp *s)
{
	union power_supply_propval c = { 0 }, t = { 0 };
	int chip_max, step, budget;
	unsigned int fw_min = 0, fw_max = 0;

	cs_chg_input_current_range(s->board->ic, &s->chip_min_ua, &chip_max, &step);
	power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_CURRENT_MAX, &c);
	power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_USB_TYPE, &t);
	if (!s->board->uchger)
		usb_phy_get_charger_current(s->board->phy, &fw_min, &fw_max);
	switch (t.intval) {
	case POWER_SUPPLY_USB_TYPE_SDP:
		/* The configuration the host granted (the framework follows the
		 * gadget's vbus_draw, a suspend's 2 mA too), else the type's current;
		 * one unit load until the host configures the gadget [USB 2.0 7.2.1]. */
		budget = !s->enumerated ? SR_UNIT_LOAD_UA : fw_max > 0 ? (int)fw_max * 1000 : c.intval;
		break;
	case POWER_SUPPLY_USB_TYPE_CDP:    /* BC1.2: ICDP 1.5 A, the type's current */
	case POWER_SUPPLY_USB_TYPE_C:      /* the Rp advertisement */
	case POWER_SUPPLY_USB_TYPE_PD:     /* the contract */
		budget = c.intval;
		break;
	default:                           /* a charger: its own limit is the ramp's job */
		budget = chip_max;
		break;
	}
	if (budget <= 0 || budget > chip_max)
		budget = chip_max;
	s->budget_ua = budget;
	s->max_ua = budget;
	s->floor_ua = max(s->chip_min_ua, min(sr_ua(s->p->start), s->max_ua));
	/* A minimum the framework guarantees (CDP 1.5 A) is a safe start too. */
	if ((int)fw_min * 1000 > s->floor_ua && (int)fw_min * 1000 <= s->max_ua)
		s->floor_ua = (int)fw_min * 1000;
}

/* R9: a failure at `ua` after a probe (or trouble without one) sets the next wait. */
static void sr_failed(struct safe_ramp *s)
{
	if (s->probing && s->req_ua == s->fail_ua)
		s->reprobe_ms = min(s->reprobe_ms * 2, SR_REPROBE_MAX_MS);
	else
		s->reprobe_ms = sr_ms(s->p->reprobe);
	if (s->probing)
		s->fail_ua = s->req_ua;
	s->probing = false;
	s->quiet_since = jiffies;
}

static void sr_check_later(struct safe_ramp *s, enum sr_state st)
{
	sr_set_state(s, st);
	schedule_delayed_work(&s->work, msecs_to_jiffies(
		sr_ms(st == SR_STABLE ? s->p->stable_interval : s->p->interval)));
}

/* The twl4030's climbs (R2's pin, R5's wall): one register value up, `next` half a
 * value over it so the register floors to it, read one `interval` later; returns the
 * request written. */
static int sr_climb_one(struct safe_ramp *s, int next)
{
	s->ceiling_ua = max(s->ceiling_ua, next);
	sr_write(s, next);
	sr_check_later(s, SR_RAMP);
	return s->req_ua;
}

/*
 * R8: a budget below the charger's smallest input limit (a suspended bus allows 2.5 mA,
 * the smallest limit is 100 mA on most chips): the input goes high-impedance where the
 * chip has that mode, and the system runs from the battery; without it the smallest
 * limit is the best the chip allows (docs/safe-ramp.md, R8). Back above it, the input
 * comes back and the ramp starts again from its floor. True while the input is off.
 */
static bool sr_hiz(struct safe_ramp *s)
{
	bool want = s->budget_ua < s->chip_min_ua;

	if (want == s->hiz)
		return s->hiz;
	if (want) {
		if (cs_chg_set_input_enable(s->board->ic, false) < 0) {
			pr_warn("safe-ramp: the budget is %d uA, below this charger's %d mA minimum, and it has no input high-impedance mode",
				s->budget_ua, s->chip_min_ua / 1000);
			return false;
		}
		pr_info("safe-ramp: budget %d uA: input off (high impedance)", s->budget_ua);
		s->hiz = true;
		cancel_delayed_work(&s->work);
		return true;
	}
	cs_chg_set_input_enable(s->board->ic, true);
	s->hiz = false;
	s->ceiling_ua = s->max_ua;
	s->req_ua = -1;
	sr_write(s, s->floor_ua);
	sr_check_later(s, SR_RAMP);
	return false;
}

/*
 * R11: leave VINDPM regulation. The input limit goes back under the ceiling first,
 * then the charger gets its own VINDPM back, so the adapter never sees the register
 * value above its wall without VINDPM holding it off.
 */
static void sr_vmode_exit(struct safe_ramp *s, bool keep_limit)
{
	if (!s->vmode)
		return;
	s->vmode = false;
	if (!keep_limit)
		sr_write(s, s->ceiling_ua);
	cs_chg_set_vindpm(s->board->ic, s->vindpm_restore_uv);
}

/*
 * R11/R12: the VINDPM values the charger can hold, min + k * step up to max: its own
 * register grid where it reports one (bq24190: 3.88-5.08 V in 80 mV steps), else
 * multiples of vindpm_step. False when vindpm_step is 0 (R11 and R12 off).
 */
static bool sr_vindpm_grid(const struct safe_ramp *s, double *min, double *step, double *max)
{
	int lo, hi, st;

	if (s->p->vindpm_step <= 0)
		return false;
	if (cs_chg_vindpm_range(s->board->ic, &lo, &hi, &st) == 0 && st > 0) {
		*min = lo * 1e-6;
		*step = st * 1e-6;
		*max = hi * 1e-6;
	} else {
		*min = 0;
		*step = s->p->vindpm_step;
		*max = HUGE_VAL;
	}
	return true;
}

/* R11/R12: the grid value at or above v (k = 0), or the k-th one above that. */
static double sr_vindpm_at(double min, double step, double v, int k)
{
	return min + (ceil((v - min) / step - 1e-9) + k) * step;
}

/*
 * R11: after a knee at `wall_ua`, the register value below it is `s->limit_ua`, the
 * probe's `probe_ua` is above it. If VINDPM set on the source line a little under the
 * wall gives more current than the register below, hold the input there: VINDPM at
 * the line's voltage for wall - knee_backoff, rounded up to the register step (a
 * higher VINDPM means less current), the input limit on the value above the wall.
 * The charger then never draws more than the line gives at that voltage, whatever
 * the system asks, and the adapter stays on its line.
 */
static bool sr_vmode_enter(struct safe_ramp *s, int wall_ua, int probe_req_ua, int probe_ua,
			   int vbus_uv, bool knee)
{
	struct sr_fit fit = sr_line_fit(&s->line);
	/* A knee under the last one: the wall is drifting down (an adapter warming up)
	 * and falls about as far again before the next knee check; hold that much
	 * further under it, times SR_DRIFT_X. */
	int fall = knee && s->undo_knee_ua > wall_ua ? s->undo_knee_ua - wall_ua : 0;
	int lsb = max(cs_chg_adc_lsb(s->board->ic, CS_ADC_IBUS), 0);
	double r, v_t, v_set, i_set;
	double i_t;

	/* a fall within the IBUS read's noise or LSB is no drift, nor is a step larger
	 * than a drift makes between knee checks (a source or cable that changed) */
	if (fall <= max(sr_ua(SR_DRIFT_MIN_A), 2 * lsb) ||
	    fall > SR_DRIFT_MAX_FRAC * s->undo_knee_ua)
		fall = 0;
	i_t = (wall_ua - sr_ua(s->p->knee_backoff) - SR_DRIFT_X * fall) * 1e-6;
	double gmin, gstep, gmax;

	if (!sr_vindpm_grid(s, &gmin, &gstep, &gmax) || probe_ua <= wall_ua ||
	    !sr_fit_predict(&fit, i_t, &v_t))
		return false;
	r = sr_fit_r(&fit);
	if (r < SR_VMODE_R_MIN_OHM)
		return false;
	v_set = sr_vindpm_at(gmin, gstep, v_t, 0);
	/* A VINDPM that let the adapter reach the held current failed: one step up. */
	if (sr_ua(v_set) <= s->vindpm_bad_uv)
		v_set = sr_vindpm_at(gmin, gstep, s->vindpm_bad_uv * 1e-6, 1);
	/* Above the register's top the chip would hold a lower VINDPM: more current. */
	if (v_set > gmax + 1e-9)
		return false;
	i_set = fit.si / fit.n + (fit.sv / fit.n - v_set) / r;
	if (sr_ua(i_set) <= s->limit_ua)
		return false;
	if (cs_chg_set_vindpm(s->board->ic, sr_ua(v_set)) < 0)
		return false;
	s->vmode = true;
	s->vmode_alt_ua = s->limit_ua;
	s->vmode_knee = knee;
	s->wall_ua = wall_ua;
	s->vindpm_uv = sr_ua(v_set);
	if (s->vindpm_restore_uv < 0)
		s->vindpm_restore_uv = vbus_uv;
	/* Above the ceiling on purpose: VINDPM, not the register, limits the input. */
	s->req_ua = probe_req_ua;
	s->limit_ua = cs_chg_set_input_current_limit(s->board->ic, probe_req_ua);
	pr_info("safe-ramp: VINDPM %d mV holds the input at %d mA under the %s; limit %d mA",
		s->vindpm_uv / 1000, sr_ua(i_set) / 1000, knee ? "knee" : "plateau",
		s->limit_ua / 1000);
	return true;
}

/*
 * R5: where the knee is read exactly (an IBUS ADC with no step), a register value
 * within knee_backoff under it but at least SR_EXACT_KNEE_UA under it is the limit, not
 * the value a whole register step lower that knee_backoff would round to: the margin
 * is for a reading's error, and an exact reading has none. A value on the knee itself
 * would hold the adapter at its wall, so never that; nor under a wall seen falling.
 */
/*
 * R5, a wall on a register value: a probe that stopped with IBUS read exactly on a
 * value of the charger's register (to the uA the ADC reports) met a wall that is that
 * value. The adapters' limits are rated currents, many of them round (1.1 A, 1.35 A),
 * and a 50 mA register has them among its values. A limit there draws the wall's own
 * current: the charger's input loop holds it, the adapter stays on its line (its
 * current limit is not entered by a current equal to it), where the value under gives
 * up a whole register step. Only for a reading the probe did not reach (the limit in
 * force above it by more than draw_tol): at the limit itself VBUS far below the line
 * is the adapter in its limit (R5), and the value under is the answer. Not for a knee
 * computed from the line (a power limit's) nor one under a wall seen falling.
 */
static bool sr_knee_on_register(const struct safe_ramp *s, int ibus_ua, int cmin, int cstep)
{
	return !s->knee_computed && !s->wall_limit_failed && (ibus_ua - cmin) % cstep == 0 &&
	       ibus_ua + sr_ua(s->p->draw_tol) < s->limit_ua;
}

static int sr_knee_limit(struct safe_ramp *s, int ibus_ua)
{
	int lower = ibus_ua - sr_ua(s->p->knee_backoff);
	int cmin, cmax, cstep, r;

	/* a knee under the last one is a wall that moves (a warming adapter): it may
	 * go on falling, and knee_backoff is what it may fall before the next check */
	if (!s->ibus_exact || (s->knee_ua > 0 && ibus_ua < s->knee_ua))
		return lower;
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	if (cstep <= 0 || ibus_ua <= cmin)
		return lower;
	if (sr_knee_on_register(s, ibus_ua, cmin, cstep)) {
		s->wall_limit_ua = ibus_ua;
		return ibus_ua;
	}
	r = cmin + (ibus_ua - SR_EXACT_KNEE_UA - cmin) / cstep * cstep;
	return r > lower ? r : lower;
}

/*
 * R2 on a chip that reads IBUS through its charge current (the twl4030): the hold under
 * a pin (sr_pin_hold_under), or under a knee read there (sr_settle_below), is the
 * register value under a reading taken a count low, 2 to 8 mA under the pin, which a
 * phone whose system load takes all but a few tens of mA of the pin pays in full. With
 * the system load unchanged, a limit that holds the input under the pin moves the
 * charge current with it, and the register's step is half a count of its ADC (1.7 A /
 * 1023 against 16618 / 5 uA, Linux drivers/power/supply/twl4030_charger.c): one
 * register value more reads a count more at every other step while the limit holds the
 * input, and a count more at a step shows that the value under it held the input. So
 * from the hold the limit climbs one register value an `interval` (sr_pin_step) until
 * two steps read no more, or the charge current reads as much as at the pin or knee,
 * and goes back to the highest value shown to hold the input: under the pin by 2 to 5
 * mA, never above a current the source delivered. Only where the battery helps the
 * system at the pin (the charge current reads below zero): the phone discharges while
 * plugged in, and each mA is what it loses. A charging cell's pin may be an adapter's
 * wall that the pass element's dropout meets (VBUS within an ADC step of the line), and
 * a warming adapter's wall falls: 2 mA under it, it passes under the limit within a
 * minute, unseen, where the hold under the reading kept clear of it until the next
 * probe (field seed 6, setup 162: a latch adapter with a 0.755 s timer drifting 6.9 %
 * lower). Not under a wall seen falling, come under a held limit, or a power limit
 * either (sr_fine_arm says why).
 */
static void sr_pin_arm(struct safe_ramp *s, int probe_req, bool knee)
{
	s->pinf_cap_ua = 0;
	s->pinf_from_ua = 0;
	if (!s->est_chip || s->req_ua >= probe_req || s->est_ibat_ua >= 0)
		return;
	s->pinf_knee = knee;
	s->pinf_ibat_ua = s->est_ibat_ua;
	s->pinf_at_ua = s->req_ua;
	s->pinf_cap_ua = probe_req;
}

/* R2 on the twl4030 (sr_pin_arm): the end of the climb, on the highest value shown to
 * hold the input; true when that needed a write. */
static bool sr_pin_end(struct safe_ramp *s)
{
	bool back = s->req_ua != s->pinf_held_ua;

	s->pinf_cap_ua = 0;
	if (back) {
		sr_write(s, s->pinf_held_ua);
		s->est_have = false;   /* the limit holds the input: IBUS is the limit */
	}
	if (s->pinf_knee)
		s->ceiling_ua = s->req_ua;   /* R5: under the knee, as its settle */
	return back;
}

/*
 * R2 on the twl4030 (sr_pin_arm): a check at the hold or a step up from it, the limit
 * drawn or not. True when it wrote.
 */
static bool sr_pin_step(struct safe_ramp *s, bool drawn)
{
	int cmin, cmax, cstep, next;
	bool stepped = s->pinf_from_ua && s->req_ua == s->pinf_req_ua;

	if (!s->pinf_cap_ua)
		return false;
	if (!stepped && s->req_ua != s->pinf_at_ua) {
		s->pinf_cap_ua = 0;
		return false;
	}
	if (!stepped) {
		s->pinf_held_ua = s->req_ua;
		s->pinf_norise = 0;
	} else if (drawn && s->est_ibat_ua > s->pinf_last_ibat_ua) {
		s->pinf_held_ua = s->pinf_from_ua;
		s->pinf_norise = 0;
	} else {
		s->pinf_norise++;
	}
	s->pinf_last_ibat_ua = s->est_ibat_ua;
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	next = s->limit_ua + cstep + cstep / 2;
	if (!drawn || s->est_ibat_ua >= s->pinf_ibat_ua || s->pinf_norise >= 2 || cstep <= 0 ||
	    next >= s->pinf_cap_ua) {
		if (!sr_pin_end(s))
			return false;
		sr_check_later(s, SR_STABLE);
		return true;
	}
	s->pinf_from_ua = s->req_ua;
	s->pinf_req_ua = sr_climb_one(s, next);
	return true;
}

/*
 * R5 on a chip that reads IBUS through its charge current (the twl4030): a knee read
 * there is up to two counts of that ADC (6.6 mA) under the wall (a difference of two
 * readings, taken a count low: sr_ibus_from_ibat), and the settle under it up to 10 mA,
 * which a phone whose system load is about the wall pays in full. The wall itself shows
 * plainly: a limit over it pulls VBUS off the line towards the cell (the adapter in its
 * limit, the pass element in dropout), a limit under it leaves VBUS on the line. So
 * once the settle is verified on the line, the limit climbs one register value an
 * `interval` (sr_fine_step), up to two counts over the knee read, and the first value
 * that pulls VBUS off the line goes back to the one under it (sr_fine_failed): the limit
 * ends within one register value (1.66 mA) under the wall, at the cost of one more
 * `interval` at the wall. Not for a wall seen falling (a warming adapter: the margin is
 * what it may fall before the next check), a source seen at its power limit (past its
 * knee VBUS leaves the line by a few mV per mA, which no check tells from the line, its
 * overload timer running), nor a knee that pulled VBUS under the floor (a cell nearly
 * empty: another visit there may be another UVLO event).
 */
static void sr_fine_arm(struct safe_ramp *s, int ibus_ua, int vbus_uv, bool fell)
{
	s->fine_from_ua = 0;
	s->fine_cap_ua = 0;
	if (!s->est_chip || fell || s->fine_off || s->fine_pl || vbus_uv < sr_ua(s->p->vbus_min))
		return;
	s->fine_at_ua = s->req_ua;
	s->fine_cap_ua = ibus_ua + 2 * s->ibat_lsb_ua;
	s->fine_knee_uv = vbus_uv;
}

/*
 * R5 on the twl4030: how far VBUS must fall at a step of the fine approach to be off the
 * line (uV): two ADC steps (two readings, each up to half a step off, and a step of
 * noise), and what one register value more moves it on the line at the most
 * (SR_R_MAX_OHM). A wall pulls VBUS to VBAT plus the pass element's drop at the wall,
 * wherever the limit is over it: as far as at the knee, a moment before.
 */
static int sr_fine_fall_uv(const struct safe_ramp *s, int cstep)
{
	return sr_ua(2 * s->vbus_lsb_v) + (int)lround(SR_R_MAX_OHM * cstep);
}

/*
 * R15: a linear charger (no VINDPM, docs/models.md: input = system + charge) whose
 * input current is read exactly, under a wall between two register values. The value
 * under the wall gives up to a register step (50 mA on generic-linear), and with a
 * system load about the wall that is the phone discharging where the wall would carry
 * it. The charge current is a register of its own, finer than the input limit's (it
 * is the charger's ICHG, which every charger exposes): with the input limit on the
 * value above the wall and the charge current at the wall less knee_backoff less the
 * system's share, the input stays knee_backoff under the wall, the adapter on its line.
 * A system load that steps up takes the input into the wall until the next check, one
 * interval (20 ms) later, as a probe does: the hold is checked every interval, and the
 * charge current follows the load, and the hold follows a wall that falls (an adapter
 * that warms) within a check. Not while the load leaves less than SR_ICHG_MIN_UA of
 * charge current.
 */
static bool sr_ichg_read(struct safe_ramp *s, int *ibus_ua, int *isys_ua)
{
	int ibat_ua;

	if (cs_chg_read_adc(s->board->ic, CS_ADC_IBUS, ibus_ua) < 0 ||
	    cs_chg_read_adc(s->board->ic, CS_ADC_IBAT, &ibat_ua) < 0)
		return false;
	*isys_ua = *ibus_ua - ibat_ua;
	return true;
}

/* R15: the charger charging or done, the cell clear of a collapse under UVLO */
static bool sr_ichg_ok(struct safe_ramp *s)
{
	enum cs_chg_status st = cs_chg_get_status(s->board->ic);
	int vbat_uv;

	return (st == CS_CHG_STATUS_FAST || st == CS_CHG_STATUS_TAPER || st == CS_CHG_STATUS_DONE) &&
	       cs_chg_read_adc(s->board->ic, CS_ADC_VBAT, &vbat_uv) == 0 &&
	       vbat_uv >= sr_ua(s->p->vbus_min - SR_ICHG_VBAT_UNDER_FLOOR_V);
}

/* R15: the charge current that puts the input knee_backoff under the wall */
static int sr_ichg_target(const struct safe_ramp *s, int isys_ua)
{
	return min(s->ichg_wall_ua - sr_ua(s->p->knee_backoff) - isys_ua, s->ichg_own_ua);
}

/* R15: end the hold: the charge current given back, the input limit under the wall */
static void sr_ichg_exit(struct safe_ramp *s)
{
	if (!s->ichg_wall_ua)
		return;
	cs_chg_set_charge_current(s->board->ic, s->ichg_own_ua);
	s->ichg_wall_ua = 0;
	s->quiet_since = jiffies;   /* R9 waits from here: the hold probed nothing */
	if (s->vbus && s->st != SR_IDLE) {
		s->ceiling_ua = min(s->ceiling_ua, s->ichg_under_ua);
		sr_write(s, s->ichg_under_ua);
	}
}

static void sr_ichg_enter(struct safe_ramp *s, int wall_ua, int under_ua)
{
	union power_supply_propval ichg = { 0 };
	int cmin, cmax, cstep, ibus_ua, isys_ua, above, t;

	if (!s->ibus_exact || s->ibat_lsb_ua || s->blind ||
	    cs_chg_get_vindpm(s->board->ic) >= 0 ||
	    cs_chg_get_status(s->board->ic) != CS_CHG_STATUS_FAST || !sr_ichg_ok(s) ||
	    wall_ua - under_ua <= 2 * sr_ua(s->p->knee_backoff))
		return;
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	if (cstep <= 0)
		return;
	above = cmin + ((wall_ua - cmin) / cstep + 1) * cstep;   /* the value above the wall */
	if (above > s->max_ua ||
	    power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
				      &ichg) < 0 || ichg.intval <= 0 ||
	    !sr_ichg_read(s, &ibus_ua, &isys_ua))
		return;
	s->ichg_wall_ua = wall_ua;
	s->ichg_own_ua = ichg.intval;
	t = sr_ichg_target(s, isys_ua);
	if (t < SR_ICHG_MIN_UA || t >= ichg.intval) {
		s->ichg_wall_ua = 0;
		return;
	}
	s->ichg_under_ua = under_ua;
	cs_chg_set_charge_current(s->board->ic, t);
	s->req_ua = above;
	s->limit_ua = cs_chg_set_input_current_limit(s->board->ic, above);
	pr_info("safe-ramp: charge current %d mA holds the input at %d mA under the knee; limit %d mA",
		t / 1000, (isys_ua + t) / 1000, s->limit_ua / 1000);
}

static bool sr_ichg_wall_under(struct safe_ramp *s, int ibus_ua);

/* R15's check, every interval: the charge current follows the system load; an input
 * held short of what the charge current asks (a wall or a pin come under the hold)
 * takes the hold under it; a load that leaves too little charge current, a hold come
 * down to the register value under the wall, or a charge that left constant current
 * ends it, the normal checks taking over one interval later. */
static void sr_ichg_check(struct safe_ramp *s)
{
	int ibus_ua, isys_ua, ibat_ua, t;
	union power_supply_propval ichg = { 0 };

	/* a budget come under the hold's limit (R8: the host configured the gadget) */
	if (!sr_ichg_read(s, &ibus_ua, &isys_ua) || !sr_ichg_ok(s) || s->limit_ua > s->max_ua ||
	    s->limit_ua <= s->ichg_wall_ua ||
	    power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
				      &ichg) < 0) {
		sr_ichg_exit(s);
		sr_check_later(s, SR_RAMP);
		return;
	}
	ibat_ua = ibus_ua - isys_ua;
	/* the input held short of what the charge current asks, VBUS far below the
	 * line: the wall come under the hold (an adapter that warms), and the hold goes
	 * under it. On the line it is the pass element's dropout pin, under the wall
	 * and the hold: the charge current still bounds the input if the pin climbs. */
	if (ibat_ua < ichg.intval - SR_ICHG_PIN_UA && sr_ichg_wall_under(s, ibus_ua))
		s->ichg_wall_ua = min(s->ichg_wall_ua, ibus_ua);
	t = sr_ichg_target(s, isys_ua);
	if (t < SR_ICHG_MIN_UA ||
	    s->ichg_wall_ua - sr_ua(s->p->knee_backoff) <= s->ichg_under_ua + sr_ua(s->p->draw_tol)) {
		sr_ichg_exit(s);
		sr_check_later(s, SR_RAMP);
		return;
	}
	if (abs(t - ichg.intval) > sr_ua(s->p->draw_tol))
		cs_chg_set_charge_current(s->board->ic, t);
	if (s->st != SR_STABLE)
		sr_set_state(s, SR_STABLE);
	schedule_delayed_work(&s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
}

/* R5: the input is at its maximum with IBUS at `ibus_ua`: settle just below it. */
static void sr_settle_below(struct safe_ramp *s, int ibus_ua, int vbus_uv, const char *why)
{
	int lower, probe_req = s->req_ua, probe = s->limit_ua;
	bool computed = s->knee_computed;
	bool fell = s->knee_ua > 0 && ibus_ua < s->knee_ua - 2 * s->ibat_lsb_ua;

	sr_ichg_exit(s);
	s->wall_limit_ua = 0;
	lower = max(s->chip_min_ua, sr_knee_limit(s, ibus_ua));
	s->knee_computed = false;

	/* R5 on the twl4030: a wall come under a held limit moves (a warming adapter):
	 * no approach to it this session (unless R4 finds it was none) */
	s->undo_fine_off = s->fine_off;
	if (!s->probing)
		s->fine_off = true;

	if (why)
		pr_info("safe-ramp: %s at %d mA; limit %d mA", why, ibus_ua / 1000, lower / 1000);
	s->undo_knee_ua = s->knee_ua;
	s->undo_ceiling_ua = s->ceiling_ua;
	s->pl_tried = false;   /* a new knee: R5 may ask for its power limit once */
	s->knee_ua = ibus_ua;
	s->seen_ua = ibus_ua;
	s->knee_check = true;
	sr_failed(s);
	s->ceiling_ua = lower;
	sr_write(s, lower);
	sr_fine_arm(s, ibus_ua, vbus_uv, fell);
	s->knee_vbus_uv = vbus_uv;
	if (!s->est_chip || cs_chg_read_adc(s->board->ic, CS_ADC_VBAT, &s->knee_vbat_uv) < 0)
		s->knee_vbat_uv = 0;
	if (!fell && !s->fine_off && !s->fine_pl)
		sr_pin_arm(s, probe_req, true);
	sr_vmode_enter(s, ibus_ua, probe_req, probe, vbus_uv, true);
	if (!computed && s->limit_ua < ibus_ua)
		sr_ichg_enter(s, ibus_ua, s->limit_ua);
	sr_check_later(s, SR_RAMP);
}

/*
 * R9 on a linear charger read through its charge current (the twl4030): a probe past
 * the wall pulls VBUS to the cell plus the pass element's drop, where the last knee put
 * it, moved by what VBAT has fallen since. Under the floor (R6) that is a UVLO event
 * on a cell nearly empty (a load the adapter cannot carry, a phone run flat): no
 * re-probe until the cell's voltage takes it back over the floor.
 */
static bool sr_reprobe_under_floor(struct safe_ramp *s)
{
	int vbat_uv;

	return s->est_chip && s->knee_vbat_uv > 0 &&
	       cs_chg_read_adc(s->board->ic, CS_ADC_VBAT, &vbat_uv) == 0 &&
	       s->knee_vbus_uv - (s->knee_vbat_uv - vbat_uv) < sr_ua(s->p->vbus_min);
}

/*
 * R5 on the twl4030 (sr_fine_arm): the limit is drawn on the line at the value the knee
 * settled on, or at the last step up from it: one register value more, while that is
 * within the cap. True when it stepped.
 */
static bool sr_fine_step(struct safe_ramp *s)
{
	int cmin, cmax, cstep, next;

	if (!s->fine_cap_ua)
		return false;
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	/* the request half a value over the next, which the register floors to it */
	next = s->limit_ua + cstep + cstep / 2;
	/* A knee whose VBUS lay within twice that fall of the line verified under it (a
	 * pass element whose dropout current is about the wall) would hide a step past the
	 * wall: no approach. */
	if ((s->req_ua != s->fine_at_ua && s->req_ua != s->fine_req_ua) || cstep <= 0 ||
	    s->limit_ua + cstep > min(s->fine_cap_ua, s->max_ua) ||
	    (s->req_ua == s->fine_at_ua &&
	     s->last_vbus_uv - s->fine_knee_uv < 2 * sr_fine_fall_uv(s, cstep))) {
		s->fine_cap_ua = 0;
		s->fine_from_ua = 0;
		return false;
	}
	s->fine_from_ua = s->req_ua;
	s->fine_vbus_uv = s->last_vbus_uv;
	s->fine_req_ua = sr_climb_one(s, next);
	return true;
}

/*
 * R2: is the charger's input pinned - the charger in constant current, its battery
 * getting less than the charge current it was given - so that the source, not the
 * system, sets IBUS? Then IBUS is where the charger's input regulation (VINDPM, or a
 * linear charger's pass element in dropout) meets the source line, or where the
 * adapter's wall is.
 */
static bool sr_input_pinned(struct safe_ramp *s)
{
	union power_supply_propval ichg = { 0 };
	enum cs_chg_status st = cs_chg_get_status(s->board->ic);
	int ibat_ua;

	if (st != CS_CHG_STATUS_FAST) {
		/* Not in constant current (done, tapering): the input carries the
		 * system, and is pinned where the battery helps it - where the
		 * chip's battery current reading goes below zero at all. */
		return (st == CS_CHG_STATUS_DONE || st == CS_CHG_STATUS_TAPER) &&
		       cs_chg_read_adc(s->board->ic, CS_ADC_IBAT, &ibat_ua) == 0 &&
		       ibat_ua < -sr_ua(s->p->draw_tol);
	}
	if (power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
				      &ichg) < 0 || ichg.intval <= 0 ||
	    cs_chg_read_adc(s->board->ic, CS_ADC_IBAT, &ibat_ua) < 0)
		return true;
	return ibat_ua < ichg.intval - sr_ua(s->p->draw_tol);
}

/*
 * R2: can the adapter's wall be at the IBUS a pinned input shows, with VBUS on the
 * line? Where a knee this session lay within a step of IBUS: a linear charger's
 * dropout current drifts through the wall it found before. A knee more than a step
 * under IBUS is no wall: the source has since delivered that much on its line.
 * Elsewhere a reading on the line means the charger's own input regulation (VINDPM, a
 * linear charger's dropout) pins the input, and a limit above it costs the adapter
 * nothing (but see sr_pin_hold_under()); docs/safe-ramp.md, R2, has what hedging
 * further cost.
 */
static bool sr_wall_may_hide(const struct safe_ramp *s, int ibus_ua)
{
	return s->knee_ua >= 0 && ibus_ua > s->knee_ua - sr_ua(s->p->step) &&
	       ibus_ua <= s->knee_ua + sr_ua(s->p->step);
}

/*
 * R2: a pin to hold under? A charger without input voltage regulation of its own (a
 * linear one) is pinned by its pass element's dropout, where VBUS - VBAT over its
 * resistance meets the line. A limit held a register value above that pin can
 * overload an adapter unseen: the pin may be the adapter's wall (VBUS then within an
 * ADC step of the line), and as VBAT falls the pin climbs into a wall it was never
 * seen to reach. Then the register value at or under IBUS, `*hold_ua`, where it is
 * within SR_PIN_HOLD_COST_UA of it: never above a current the adapter was seen to
 * deliver, so never above its wall.
 */
static bool sr_pin_hold_under(const struct safe_ramp *s, int ibus_ua, int *hold_ua)
{
	int cmin, cmax, cstep;

	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	if (cstep <= 0 || ibus_ua < cmin)
		return false;
	*hold_ua = cmin + (ibus_ua - cmin) / cstep * cstep;
	return ibus_ua - *hold_ua <= SR_PIN_HOLD_COST_UA && cs_chg_get_vindpm(s->board->ic) < 0;
}

/*
 * R2: a probe not followed, VBUS on the line: the source delivered IBUS on its line,
 * not the new limit. The limit comes down to the smallest register value above IBUS
 * by more than draw_tol (on a ladder, the probe's rung): whatever the system draws
 * later, the adapter is never asked more than one register step beyond what it was
 * seen to deliver before the next probe checks it.
 */
static void sr_hold_above(struct safe_ramp *s, int ibus_ua)
{
	int cmin, cmax, cstep, probe_req = s->req_ua;
	/* Clear of the band that counts as drawing the limit. */
	int want = ibus_ua + 2 * sr_ua(s->p->draw_tol);

	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	if (cstep > 0)
		want = cmin + (want - cmin + cstep - 1) / cstep * cstep;
	/* Never above a wall this session has found, unless the source has since
	 * delivered more than that knee: it is no wall now, and capping at IBUS would let
	 * the register floor the limit under the draw, which then asks for a probe at
	 * every check. */
	if (s->knee_ua >= 0 && ibus_ua <= s->knee_ua)
		want = min(want, max(ibus_ua, s->knee_ua - sr_ua(s->p->knee_backoff)));
	s->probing = false;
	s->seen_ua = ibus_ua;
	/* R13: a pin VINDPM holds on the line, as asked: no wall under the limit */
	s->line_pin = s->adc_wait_ms && cs_chg_get_input_regulation(s->board->ic) > 0 &&
		      (cs_chg_get_input_regulation(s->board->ic) & CS_CHG_INREG_VOLTAGE);
	if (want < probe_req && (cstep > 0 || s->limit_ua == probe_req)) {
		sr_write(s, want);
		/* The register rounded it under IBUS: the value above is the
		 * probe's. On a ladder R11 holds the input between rungs; on a fine
		 * register not above a wall found this session (a re-probe the draw
		 * did not follow because the charger went into constant voltage):
		 * the value under IBUS, then, one step below at most. */
		if (s->limit_ua < ibus_ua &&
		    (cstep == 0 || s->knee_ua < 0 ||
		     probe_req <= s->knee_ua - sr_ua(s->p->knee_backoff)))
			sr_write(s, probe_req);
	}
	s->peak_ua = s->req_ua;
	sr_check_later(s, SR_STABLE);
}

/*
 * R2: a probe not followed, the input pinned, and the adapter's wall may sit at IBUS
 * unseen (sr_wall_may_hide): the limit goes just below IBUS, `lower_ua`, so the
 * adapter is off any wall there; or a linear charger's pin (sr_pin_hold_under): the
 * limit holds at it. No ceiling - it was not seen to fail: the next probe comes when the
 * draw is at the limit, after a wait that doubles while probes keep finding the
 * input pinned at the same level (up to `reprobe`).
 */
static void sr_plateau(struct safe_ramp *s, int ibus_ua, int vbus_uv, int lower_ua)
{
	int lower = max(s->chip_min_ua, lower_ua);
	int probe_req = s->req_ua, probe = s->limit_ua;
	int same = s->plateau_ua >= 0 && abs(ibus_ua - s->plateau_ua) < sr_ua(s->p->step);

	s->plateau_ms = same && s->plateau_ms ? min(s->plateau_ms * 2, sr_ms(s->p->reprobe)) :
			sr_ms(s->p->stable_interval);
	s->plateau_ua = ibus_ua;
	s->plateau_since = jiffies;
	s->probing = false;
	sr_write(s, min(lower, s->req_ua));
	s->peak_ua = s->req_ua;
	/* R11: a ladder's rung under IBUS may be far below it. */
	sr_check_later(s, sr_vmode_enter(s, ibus_ua, probe_req, probe, vbus_uv, false) ?
			  SR_RAMP : SR_STABLE);
}

/* R2: may the ramp probe from here, or is it waiting out a plateau? */
static bool sr_plateau_over(const struct safe_ramp *s)
{
	return !s->plateau_ms ||
	       time_after_eq(jiffies, s->plateau_since + msecs_to_jiffies((unsigned int)s->plateau_ms));
}

static bool sr_moved_test(struct safe_ramp *s, int ibus_ua, int vbus_uv);

/*
 * R11: a check while VINDPM holds the input. The adapter's line must still carry the
 * current under the wall; IBUS at the wall or VBUS below the line is a knee again.
 * After `reprobe` of quiet (R9) the charger's own VINDPM comes back with the input
 * limit above the wall: a probe like any other, and its knee holds the input again.
 */
static void sr_vmode_check(struct safe_ramp *s, int ibus_ua, int vbus_uv, bool below)
{
	unsigned long until = s->vmode_knee ?
		s->quiet_since + msecs_to_jiffies((unsigned int)s->reprobe_ms) :
		s->plateau_since + msecs_to_jiffies((unsigned int)s->plateau_ms);

	/* R4/R12: short of the wall, VBUS on the VINDPM written: the source may have
	 * moved under the hold; ask before taking it for a knee. */
	if (below && ibus_ua < s->wall_ua - sr_ua(s->p->draw_tol) &&
	    sr_moved_test(s, ibus_ua, vbus_uv))
		return;
	if (ibus_ua >= s->wall_ua - sr_ua(s->p->draw_tol) || below) {
		/* The line moved, or was not known well enough, or the adapter
		 * weakened: hold again from here, VINDPM at least a step higher. */
		s->vindpm_bad_uv = max(s->vindpm_bad_uv, s->vindpm_uv);
		sr_vmode_exit(s, true);
		if (s->vmode_knee || below)
			sr_settle_below(s, min(ibus_ua, s->wall_ua), vbus_uv, "knee");
		else
			sr_plateau(s, ibus_ua, vbus_uv, ibus_ua - sr_ua(s->p->knee_backoff));
		return;
	}
	if (ibus_ua < s->vmode_alt_ua - sr_ua(s->p->draw_tol) && sr_input_pinned(s)) {
		/* The line predicted more than the register value under the wall
		 * gives, and VINDPM holds less: a line read through a coarse VBUS
		 * ADC (bq25890: 100 mV) can be off by a VINDPM step. The register
		 * value instead, until the next knee. */
		pr_info("safe-ramp: VINDPM %d mV holds only %d mA; limit %d mA",
			s->vindpm_uv / 1000, ibus_ua / 1000, s->vmode_alt_ua / 1000);
		sr_vmode_exit(s, true);
		sr_write(s, s->vmode_alt_ua);
		sr_check_later(s, SR_STABLE);
		return;
	}
	if (time_after(jiffies, until)) {
		/* R9 after a knee, the plateau's wait after a plateau: the charger's
		 * own VINDPM back with the limit above the held current is a probe. */
		if (s->vmode_knee)
			s->ceiling_ua = min(s->max_ua, max(s->ceiling_ua, s->req_ua));
		sr_vmode_exit(s, true);
		s->probing = true;
		sr_check_later(s, SR_RAMP);
		return;
	}
	s->peak_ua = s->wall_ua;
	sr_check_later(s, SR_STABLE);
}

/*
 * R12, R14: VINDPM one code of the charger's grid under own_uv, for one test. False when
 * the charger has no VINDPM grid or it cannot be written, or the code below would leave
 * the grid or reach the floor (R6).
 */
static bool sr_vindpm_one_lower(struct safe_ramp *s, int own_uv)
{
	double gmin, gstep, gmax;
	int low_uv;

	if (own_uv <= 0 || !sr_vindpm_grid(s, &gmin, &gstep, &gmax))
		return false;
	low_uv = sr_ua(sr_vindpm_at(gmin, gstep, own_uv * 1e-6, -1));
	return low_uv >= sr_ua(gmin) && low_uv > sr_ua(s->p->vbus_min) &&
	       cs_chg_set_vindpm(s->board->ic, low_uv) >= 0;
}

/*
 * R12: does VBUS sit at the charger's own VINDPM (within one code of its grid), so that
 * VINDPM may be what holds it?
 */
static bool sr_at_vindpm(const struct safe_ramp *s, int vbus_uv)
{
	double gmin, gstep, gmax;
	int own_uv = cs_chg_get_vindpm(s->board->ic);

	return own_uv > 0 && sr_vindpm_grid(s, &gmin, &gstep, &gmax) &&
	       vbus_uv < own_uv + sr_ua(gstep);
}

/*
 * R12: the probe at the limit was not followed, the input is pinned, VBUS is neither
 * clearly on the line nor below the knee. Lower VINDPM one step for one check (the
 * limit stays at the probe's) and see whether IBUS follows. False when the charger's
 * VINDPM cannot be written or the lower VINDPM would reach the floor (R6).
 */
static bool sr_dpm_test_start(struct safe_ramp *s, int ibus_ua, int vbus_uv)
{
	double gmin, gstep, gmax;
	int own_uv;

	if (!sr_vindpm_grid(s, &gmin, &gstep, &gmax) || !sr_input_pinned(s))
		return false;
	/* the VINDPM that holds VBUS: the chip's, else its reading on the VINDPM grid */
	own_uv = cs_chg_get_vindpm(s->board->ic);
	if (own_uv <= 0)
		own_uv = sr_ua(gmin + floor((vbus_uv * 1e-6 - gmin) / gstep + 0.5) * gstep);
	if (!sr_vindpm_one_lower(s, own_uv))
		return false;
	if (s->vindpm_restore_uv < 0)
		s->vindpm_restore_uv = own_uv;
	s->dpm_test = true;
	s->dpm_moved = false;
	s->dpm_pin_ua = ibus_ua;
	s->dpm_pin_uv = vbus_uv;
	sr_check_later(s, SR_RAMP);
	return true;
}

/* R12: end a test in flight: the charger's own VINDPM back. */
static void sr_dpm_test_stop(struct safe_ramp *s)
{
	if (!s->dpm_test)
		return;
	s->dpm_test = false;
	s->dpm_moved = false;
	cs_chg_set_vindpm(s->board->ic, s->vindpm_restore_uv);
}

/*
 * R4: the source line moved; (i_ua, v_uv) is a point of the new one, (i2_ua, v2_uv) a
 * second where one is known (i2_ua < 0: none). Learn it again from there. With one
 * point the limit goes `backoff` steps under that draw (a ladder rounds it to a rung
 * further down), where the charger draws the limit and the next check gives the second
 * point; the ramp then climbs back, each step a point, to the ceiling. A wall found
 * before is the adapter's and stays (R5); a VINDPM hold from the old line does not
 * (R11, the caller). Under the draw for those few checks the battery carries the rest.
 */
static void sr_relearn(struct safe_ramp *s, int i_ua, int v_uv, int i2_ua, int v2_uv)
{
	struct sr_fit fit;

	sr_line_reset(&s->line);
	sr_line_add(&s->line, i_ua * 1e-6, v_uv * 1e-6);
	if (i2_ua >= 0)
		sr_line_add(&s->line, i2_ua * 1e-6, v2_uv * 1e-6);
	fit = sr_line_fit(&s->line);
	s->probing = false;
	s->plateau_ua = -1;
	s->plateau_ms = 0;
	s->seen_ua = max(i_ua, i2_ua);
	if (!sr_fit_known(&fit))
		sr_write(s, max(s->chip_min_ua,
				min(i_ua, s->limit_ua) - s->p->backoff * sr_ua(s->p->step)));
	s->peak_ua = s->req_ua;
	sr_check_later(s, SR_RAMP);
}

/*
 * R4/R12: a moved-line test's end. IBUS rose as VINDPM went a step lower: the adapter
 * is on a line, not at its wall, and the charger's own VINDPM holds the input. VBUS
 * below the learnt line there is a changed source (contact resistance, a weaker
 * adapter voltage): learn the line again from the pin (sr_relearn). IBUS stayed: the
 * adapter's wall, a knee as before (R5).
 */
static void sr_moved_end(struct safe_ramp *s, bool rose, int ibus_ua, int vbus_uv)
{
	bool second;

	if (!rose) {
		if (s->vmode) {
			s->vindpm_bad_uv = max(s->vindpm_bad_uv, s->vindpm_uv);
			sr_vmode_exit(s, true);
			sr_settle_below(s, min(s->dpm_pin_ua, s->wall_ua), s->dpm_pin_uv, "knee");
		} else {
			sr_settle_below(s, s->dpm_pin_ua, s->dpm_pin_uv, "knee");
		}
		return;
	}
	pr_info("safe-ramp: VINDPM holds the input at %d mA off the source line; learning the line again",
		s->dpm_pin_ua / 1000);
	/* What VINDPM a step lower let through is a second point where it stays under a
	 * wall this session found: the adapter delivered more than that on its line. */
	second = s->knee_ua >= 0 && ibus_ua < s->knee_ua - sr_ua(s->p->draw_tol);
	/* R11's VINDPM came from the old line: the limit under the wall instead. */
	sr_vmode_exit(s, false);
	sr_relearn(s, s->dpm_pin_ua, s->dpm_pin_uv, second ? ibus_ua : -1, vbus_uv);
}

/* R12: the test's check: its end, then what it showed. */
static void sr_dpm_test_end(struct safe_ramp *s, int ibus_ua, int vbus_uv, bool below)
{
	/* More current, or all the limit allows: a pin within a few mA under the limit
	 * can rise no further than to it; or the charger gets all its charge current
	 * again: a pin within a few mA under what it asks can rise no further than to
	 * that, where at a wall it stays short. */
	bool rose = ibus_ua > s->dpm_pin_ua + 2 * sr_ua(s->p->draw_tol) ||
		    ibus_ua >= s->limit_ua - sr_ua(s->p->draw_tol) || !sr_input_pinned(s);
	bool moved = s->dpm_moved;

	sr_dpm_test_stop(s);
	if (moved) {
		sr_moved_end(s, rose, ibus_ua, vbus_uv);
		return;
	}
	if (rose && below) {
		/* more current, then the knee: the wall lies above the pin */
		sr_settle_below(s, ibus_ua, vbus_uv, "knee");
	} else if (rose) {
		pr_info("safe-ramp: VINDPM pins the input at %d mA on the source line",
			s->dpm_pin_ua / 1000);
		sr_hold_above(s, s->dpm_pin_ua);
	} else {
		sr_settle_below(s, s->dpm_pin_ua, s->dpm_pin_uv, NULL);
	}
}

/* One check's reading, and where it lies against the source line (R4 learn the source
 * line, R5 the knee is the adapter's limit). */
struct sr_reading {
	int vbus_uv, ibus_ua;
	double v, i;
	bool uvlo;            /* the charger's input is off (R6, R10) */
	bool vbus_fell;       /* VBUS lower than at the last check (R12) */
	bool after_knee;      /* the first check after a knee's settle (R4) */
	bool was_free;        /* the charger had all its charge current a check ago (R12) */
	bool was_rising;      /* the draw was climbing a check ago (R2) */
	bool load_step;       /* the system load stepped up under a free draw (R3, twl4030) */
	bool following;       /* IBUS at the limit (R2) */
	bool on_line, below, above;
	struct sr_fit fit;
};

/* R3, R4: IBUS where the learnt line `fit` puts VBUS, into `*ibus_ua`; left alone while
 * no line with a slope is known. */
static void sr_ibus_on_line(const struct sr_fit *fit, int vbus_uv, int *ibus_ua)
{
	double v_line;

	if (sr_fit_known(fit) && sr_fit_r(fit) > 0 && sr_fit_predict(fit, 0, &v_line))
		*ibus_ua = (int)lround((v_line - vbus_uv * 1e-6) / sr_fit_r(fit) * 1e6);
}

/* R3, R4: does VBUS `v_uv` lie on the learnt line `fit` at `i_ua`, within a knee's least
 * margin (SR_KNEE_MIN_V) and two ADC steps? */
static bool sr_on_line_at(const struct safe_ramp *s, const struct sr_fit *fit, int i_ua,
			  int v_uv)
{
	double v_line;

	return sr_fit_known(fit) && sr_fit_predict(fit, i_ua * 1e-6, &v_line) &&
	       fabs(v_uv * 1e-6 - v_line) <= SR_KNEE_MIN_V + 2 * s->vbus_lsb_v;
}

/* R3, R4: how much more IBUS the learnt line `fit` puts at VBUS `v_uv` than at `from_uv`
 * (0 while no line with a slope is known). */
static int sr_ibus_line_delta(const struct sr_fit *fit, int from_uv, int v_uv)
{
	if (!sr_fit_known(fit) || sr_fit_r(fit) <= 0)
		return 0;
	return (int)lround((from_uv - v_uv) * 1e-6 / sr_fit_r(fit) * 1e6);
}

/*
 * R3 on a linear charger with no input current ADC and no input regulation bits, but a
 * charge current reading (the twl4030's BCIICHG): the input current is the system's
 * plus the battery's (docs/models.md, Linear), so while the system load holds, a change
 * of IBUS is a change of the charge current. From the last determined IBUS:
 * - the charger short of its charge current (or the battery helping the system) is an
 *   input held by the limit or pinned: IBUS moved by what the charge current moved
 *   since, and within two ADC steps of the limit it is the limit (a probe followed);
 *   with no write since and VBUS not fallen by SR_EST_DROP_V (or two ADC steps) since,
 *   it moved along the line with VBUS: a system load that changed under a held limit
 *   moves the charge current, not IBUS, and VBUS only by the cell's share of the pass
 *   element's drop, while a pinned input that climbs as the cell discharges (the pass
 *   element's dropout current, (E - VBAT) / (R + r_on)) moves VBUS down the line a mV
 *   at a time, which from one check to the next is no fall, and summed over checks
 *   is what IBUS moved; a wall come under a held limit collapses VBUS towards the cell;
 * - the charger getting all it asks is not held: the source delivers on its line, so
 *   IBUS is where the line puts VBUS (what the charge current says until a line is
 *   known), short of the limit;
 * - a draw that got all it asked at the last check and is held now, with VBUS fallen
 *   and the charge current not risen: the system load stepped up (with the load
 *   unchanged, such a draw reaches a wall only by the charger asking more, which raises
 *   the charge current), and the charge current says nothing of IBUS, which lies
 *   between the draw before and where the line puts VBUS. It reads as the draw
 *   before, and `est_step` tells the caller (sr_load_step()). So does a pinned draw
 *   (a linear charger's dropout) whose VBUS fell with the charge current fallen by
 *   more than SR_LOAD_STEP_UA: a load step pulls the cell down and the pin up the
 *   line, while a wall that drifts under the draw takes a few mA off it;
 * - a charger that does not charge (done, off, a fault) draws nothing: a linear charger
 *   has no power path, and the battery carries the system (docs/models.md, Linear);
 *   when it charges again with VBUS fallen and the charge current risen, off the line
 *   at the limit, the charge current tells IBUS as above (the system load held: a
 *   recharge that meets a wall); otherwise the input is taken as at the first reading
 *   of a session, held at the limit or nothing: VBUS on the line at the limit is the
 *   limit drawn, whatever the load did (a load step is what often starts a recharge),
 *   and a charger that starts after the first check has no draw before to add to.
 * A difference of two readings is up to an ADC step off: an IBUS derived from one is
 * taken a step lower, so that a knee settles under the wall, not on it. False where
 * this does not apply (a chip with input voltage regulation, no charge current reading).
 */
static bool sr_ibus_from_ibat(struct safe_ramp *s, int vbus_uv, int *ibus_ua)
{
	union power_supply_propval ichg = { 0 };
	struct cs_charger_ic *ic = s->board->ic;
	enum cs_chg_status st = cs_chg_get_status(ic);
	int ibat_ua, limit_ua, tol, est, vlsb = sr_ua(s->vbus_lsb_v);
	bool held, written, fell, stepped, charging = true;
	struct sr_fit fit;

	if (cs_chg_get_vindpm(ic) >= 0 || cs_chg_read_adc(ic, CS_ADC_IBAT, &ibat_ua) < 0)
		return false;
	fit = sr_line_fit(&s->line);   /* the learnt line, once for every use below */
	limit_ua = cs_chg_get_input_current_limit(ic);
	tol = max(sr_ua(s->p->draw_tol), 2 * s->ibat_lsb_ua);
	held = ibat_ua < -tol ||
	       (st == CS_CHG_STATUS_FAST &&
		power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
					  &ichg) == 0 && ibat_ua < ichg.intval - tol);
	written = !s->est_have || time_after_eq(s->write_at, s->est_at);
	fell = s->est_have && vbus_uv < s->est_vbus_uv - max(2 * vlsb, sr_ua(SR_EST_DROP_V));
	/* the system load stepped up: VBUS fell, and the charge current did not rise (from
	 * a free draw) or fell by more than a wall drifting under the draw takes (held) */
	stepped = held && fell && ibat_ua < s->est_ibat_ua + tol;
	s->est_step = stepped && (s->est_free ||
				  (!written && ibat_ua < s->est_ibat_ua - tol - SR_LOAD_STEP_UA));
	if (st == CS_CHG_STATUS_DONE || st == CS_CHG_STATUS_OFF || st == CS_CHG_STATUS_FAULT)
		held = s->est_step = charging = false, est = 0;   /* no power path: no input */
	else if (!s->est_have || (s->est_nopath && (sr_on_line_at(s, &fit, limit_ua, vbus_uv) ||
						    !(fell && ibat_ua > s->est_ibat_ua + tol))))
		est = held ? limit_ua : 0;
	else if (s->est_step)
		est = s->est_ibus_ua;
	else if (!written && !fell)
		est = s->est_ibus_ua + sr_ibus_line_delta(&fit, s->est_vbus_uv, vbus_uv);
	else
		est = s->est_ibus_ua + ibat_ua - s->est_ibat_ua - s->ibat_lsb_ua;
	if (held && !s->est_step) {
		/* at the limit, or a limit written under the draw: the limit holds it */
		if (est >= limit_ua - tol || (written && s->est_have && limit_ua <= s->est_ibus_ua))
			est = limit_ua;
	} else if (!held) {
		sr_ibus_on_line(&fit, vbus_uv, &est);
		est = min(est, limit_ua - sr_ua(s->p->draw_tol) - SR_IDLE_IBUS_UA);
	}
	est = clamp(est, 0, limit_ua);
	s->est_have = true;
	s->est_free = !held && charging;
	s->est_nopath = !charging;
	s->est_ibus_ua = est;
	s->est_ibat_ua = ibat_ua;
	s->est_vbus_uv = vbus_uv;
	s->est_at = jiffies;
	*ibus_ua = est;
	return true;
}

/*
 * Is the input in regulation, drawing its limit? IBUS, where the chip has an input
 * current ADC; where it has none (-ENODATA), what its input regulation status bits say
 * instead: IBUS at the (effective) limit while IINDPM holds the input, or while the
 * one DPM bit of a chip that does not tell IINDPM from VINDPM is set with VBUS above
 * the chip's VINDPM (by more than an ADC step: at it, VINDPM holds the input, the
 * adapter's knee or the line's pin); otherwise short of the limit by more than
 * draw_tol (the system takes less, or VINDPM holds VBUS; or nothing says: a chip
 * without such bits). False when IBUS cannot be read for another reason.
 */
static bool sr_read_ibus(struct safe_ramp *s, int vbus_uv, int *ibus_ua)
{
	int err = cs_chg_read_adc(s->board->ic, CS_ADC_IBUS, ibus_ua);
	int bits, limit_ua, vindpm_uv;
	bool at_limit;

	if (err != -ENODATA)
		return err == 0;
	/* no status bits either: never known to draw the limit, so never probed
	 * past it (R2), while the floor and the charger's restart (R6, R10) work */
	bits = cs_chg_get_input_regulation(s->board->ic);
	if (bits < 0 && sr_ibus_from_ibat(s, vbus_uv, ibus_ua))
		return true;
	bits = max(0, bits);
	vindpm_uv = cs_chg_get_vindpm(s->board->ic);
	at_limit = (bits & CS_CHG_INREG_CURRENT) ||
		   ((bits & CS_CHG_INREG_DPM) &&
		    (vindpm_uv < 0 || vbus_uv > vindpm_uv + sr_ua(s->vbus_lsb_v)));
	limit_ua = cs_chg_get_input_current_limit(s->board->ic);
	*ibus_ua = at_limit ? limit_ua : max(0, limit_ua - sr_ua(s->p->draw_tol) - SR_IDLE_IBUS_UA);
	return true;
}

/* R3 (verify each step): read VBUS, IBUS and the charger's status; false when an ADC
 * cannot be read. */
static bool sr_read(struct safe_ramp *s, struct sr_reading *r)
{
	if (cs_chg_read_adc(s->board->ic, CS_ADC_VBUS, &r->vbus_uv) < 0 ||
	    !sr_read_ibus(s, r->vbus_uv, &r->ibus_ua))
		return false;
	r->v = r->vbus_uv * 1e-6;
	r->i = r->ibus_ua * 1e-6;
	r->vbus_fell = s->last_vbus_uv > 0 && r->vbus_uv < s->last_vbus_uv;
	s->last_vbus_uv = r->vbus_uv;
	r->after_knee = s->knee_check;
	s->knee_check = false;
	r->was_free = s->free_draw;
	s->free_draw = false;
	r->uvlo = cs_chg_get_status(s->board->ic) == CS_CHG_STATUS_UVLO;
	r->on_line = r->below = r->above = false;
	r->load_step = s->est_step;
	s->est_step = false;
	return true;
}

/*
 * R10 (watch the charger): the charger's input is off but VBUS reads adequate (it
 * reads the source unloaded). A chip that restarts by itself does so within its
 * restart delay; one that latched off after a dip needs its input restarted. Lowering
 * the limit would not help: nothing is drawn. Right after a probe, though, the probe
 * pulled VBUS under UVLO: R6 goes back to the verified step first, or a chip that
 * restarts by itself would restart into the same step, again and again; the caller
 * leaves that to R6.
 */
static void sr_charger_stuck(struct safe_ramp *s)
{
	if (!s->stuck_since)
		s->stuck_since = jiffies;
	else if (time_after_eq(jiffies, s->stuck_since + msecs_to_jiffies(SR_STUCK_MS))) {
		pr_info("safe-ramp: charger latched off with VBUS present; restarting its input");
		cs_chg_set_input_enable(s->board->ic, false);
		cs_chg_set_input_enable(s->board->ic, true);
		s->stuck_since = 0;
	}
	sr_check_later(s, SR_RAMP);
}

/*
 * R6 (the floor) at a knee: the probe took VBUS under the floor far below the line,
 * where the line itself stays above the floor at this IBUS - a linear charger pulling
 * an adapter past its wall down to the battery. The wall lies between the verified
 * step and IBUS: settle just below IBUS as at any knee (R5), not a whole step back,
 * which on a load between the two would leave the phone discharging. True when it
 * settled.
 */
static bool sr_knee_under_floor(struct safe_ramp *s, const struct sr_reading *r)
{
	double v_line;

	if (!r->uvlo && r->v < s->p->vbus_min && s->probing && !s->vmode &&
	    r->ibus_ua > s->req_ua - sr_ua(s->p->step) + 2 * sr_ua(s->p->draw_tol) &&
	    sr_fit_predict(&r->fit, r->i, &v_line) && v_line >= s->p->vbus_min &&
	    v_line - r->v > fmax(s->p->knee_margin, SR_KNEE_MIN_V)) {
		sr_settle_below(s, r->ibus_ua, r->vbus_uv, "knee under the floor");
		return true;
	}
	return false;
}

/*
 * R6 (the floor): VBUS under `vbus_min` or the charger in UVLO. Right after a probe
 * the step below was verified: go back to it; otherwise drop `backoff` steps.
 */
static void sr_floor(struct safe_ramp *s)
{
	int lower;

	sr_vmode_exit(s, false);
	lower = max(s->floor_ua, s->req_ua - (s->probing ? 1 : s->p->backoff) * sr_ua(s->p->step));
	if (s->probing && s->big_from_ua > 0)
		lower = max(s->floor_ua, min(lower, s->big_from_ua));   /* R16 */
	sr_failed(s);
	s->ceiling_ua = lower;
	sr_write(s, lower);
	sr_check_later(s, SR_RAMP);
}

/* R4 (learn the source line), R5 (the knee): where VBUS lies against the line at this
 * IBUS - below the knee, above it, or on the line. */
static void sr_against_line(const struct safe_ramp *s, struct sr_reading *r)
{
	double v_line, knee, scatter = sr_fit_scatter(&r->fit);

	if (!sr_fit_predict(&r->fit, r->i, &v_line))
		return;
	/* The knee: below the line by more than its scatter can explain (knee_margin
	 * until SR_LINE_MATURE points show the scatter: a few quantised readings can
	 * fall on a line by chance; at least SR_KNEE_MIN_V). */
	knee = scatter < 0 || r->fit.n < SR_LINE_MATURE ? s->p->knee_margin :
	       fmin(s->p->knee_margin, SR_KNEE_MIN_V + 4 * scatter);
	knee = fmax(knee, SR_KNEE_LSBS * s->vbus_lsb_v);
	r->below = r->v < v_line - knee;
	r->above = r->v > v_line + knee;
	/* On the line: within one standard deviation of its scatter and SR_ON_LINE_V
	 * (two points give the line but not its scatter: then within SR_ON_LINE_V
	 * alone). Narrow on purpose: a reading between this and the knee is
	 * ambiguous, and ambiguity settles below. */
	r->on_line = r->v >= v_line - (fmax(scatter, 0) + SR_ON_LINE_V);
}

/*
 * R4: has the source line moved? The limit is drawn at a current the line holds a point
 * for, the charger's input current limit holds it (VBUS clear of the charger's own
 * VINDPM: no VINDPM hold, and no adapter wall, which would pull VBUS down onto VINDPM),
 * and VBUS is off that point by more than two readings of the ADC can be
 * (SR_MOVED_*): the source delivers the same current at another voltage, its
 * resistance or its voltage changed. A linear charger (no VINDPM) is left to R4's
 * check after a knee: its pass element at a wall holds IBUS at the limit as well.
 */
/* R15: an input held short of the charge current's ask, read against the line: far
 * below it (or no line to tell) is the adapter's wall */
static bool sr_ichg_wall_under(struct safe_ramp *s, int ibus_ua)
{
	struct sr_reading r = { .ibus_ua = ibus_ua, .i = ibus_ua * 1e-6 };
	double v_line;

	if (cs_chg_read_adc(s->board->ic, CS_ADC_VBUS, &r.vbus_uv) < 0)
		return true;
	r.v = r.vbus_uv * 1e-6;
	r.fit = sr_line_fit(&s->line);
	if (!sr_fit_predict(&r.fit, r.i, &v_line))
		return true;
	sr_against_line(s, &r);
	return r.below;
}

static bool sr_line_moved(struct safe_ramp *s, const struct sr_reading *r)
{
	double first, last, tol;

	if (!r->following || cs_chg_get_vindpm(s->board->ic) <= 0 || sr_at_vindpm(s, r->vbus_uv) ||
	    !sr_line_seen(&s->line, &r->fit, r->i, &first, &last))
		return false;
	if (s->noise_n >= SR_NOISE_MIN_N) {
		tol = fmax(fmax(SR_MOVED_MIN_V, SR_MOVED_LSBS * s->vbus_lsb_v),
			   SR_MOVED_SIGMAS * sqrt(s->noise_ss / s->noise_n));
		if (fabs(r->v - first) > tol)
			return true;
	}
	/* the same source: the difference from the last reading is the ADC's noise */
	s->noise_ss += (r->v - last) * (r->v - last);
	s->noise_n++;
	return false;
}

/*
 * R4/R12: short of a held limit, VBUS below the line and at the charger's VINDPM: its
 * VINDPM holds the input where a source that moved (more contact resistance) puts the
 * line, or the adapter's wall pulled VBUS down onto it; the two read alike. Ask VINDPM
 * (sr_moved_end). False when it cannot be asked.
 */
static bool sr_moved_test(struct safe_ramp *s, int ibus_ua, int vbus_uv)
{
	if (s->probing || !sr_at_vindpm(s, vbus_uv) || !sr_dpm_test_start(s, ibus_ua, vbus_uv))
		return false;
	s->dpm_moved = true;
	return true;
}

/* R5: short of the limit, VBUS below the knee: the adapter's wall, unless the charger's
 * VINDPM holds a held limit's input on a line that moved (R4, R12). */
static void sr_knee_or_moved(struct safe_ramp *s, const struct sr_reading *r)
{
	if (!sr_moved_test(s, r->ibus_ua, r->vbus_uv))
		sr_settle_below(s, r->ibus_ua, r->vbus_uv, "knee");
}

/* A probe's step not followed, VBUS not below the knee: R2 (probe only under load), R5
 * (the knee is the adapter's limit) or R12 (ask VINDPM which it is). */
static void sr_probe_short(struct safe_ramp *s, const struct sr_reading *r)
{
	int hold_ua;
	bool pinned;

	if (!r->on_line && !sr_input_pinned(s)) {
		/* R2: not followed while the charger gets all the charge current it was
		 * given: the system takes less, whatever the line says (a line not known
		 * yet, as after a PD source changed its voltage). An adapter at its wall
		 * would starve the charger. */
		sr_hold_above(s, r->ibus_ua);
		return;
	}
	if (!r->on_line) {
		/* R5: the step was not followed, VBUS is where a charger's input
		 * regulation holds it (VINDPM, a linear charger's dropout), but not
		 * clearly on the line: the adapter may have hit its wall there. Ask
		 * VINDPM (R12), else settle just below what it delivers. */
		if (!sr_dpm_test_start(s, r->ibus_ua, r->vbus_uv))
			sr_settle_below(s, r->ibus_ua, r->vbus_uv, NULL);
		return;
	}
	/* R2: not followed, VBUS on the line. With VBUS at the charger's VINDPM the
	 * adapter may still be at its wall: where the line crosses VINDPM at the wall,
	 * the two read alike. Ask VINDPM (R12) before anything else: before holding
	 * above it, and before taking a pin close under a knee for a plateau (a wall
	 * that moved there), which it can tell apart too. */
	if (sr_at_vindpm(s, r->vbus_uv) && sr_dpm_test_start(s, r->ibus_ua, r->vbus_uv))
		return;
	pinned = sr_input_pinned(s);
	if (pinned && sr_wall_may_hide(s, r->ibus_ua))
		sr_plateau(s, r->ibus_ua, r->vbus_uv, r->ibus_ua - sr_ua(s->p->knee_backoff));
	else if (pinned && sr_pin_hold_under(s, r->ibus_ua, &hold_ua)) {
		int probe_req = s->req_ua;

		sr_plateau(s, r->ibus_ua, r->vbus_uv, hold_ua);
		sr_pin_arm(s, probe_req, false);
	} else {
		sr_hold_above(s, r->ibus_ua);
	}
}

/*
 * R2 (probe only under load): short of the limit, no probe in flight: the system takes
 * less, or the charger's input regulation holds the input. Keep it. A draw that climbs
 * above what the source was seen to deliver climbs into the last register step, where
 * the wall may be: watch it at the ramp's pace while it stays at the top, until it
 * reaches the limit (and a probe checks the next step) or falls back.
 */
static void sr_draw_short(struct safe_ramp *s, const struct sr_reading *r)
{
	bool pinned = sr_input_pinned(s);

	if (r->ibus_ua > s->seen_ua && !r->on_line && pinned) {
		/* R5: the draw rose past what the source was seen to deliver and VBUS
		 * left the line, the charger short of its charge current: the adapter
		 * may be at its wall there. Settle just below what it delivers. */
		sr_settle_below(s, r->ibus_ua, r->vbus_uv, NULL);
		return;
	}
	if ((r->vbus_fell || r->was_free) && r->ibus_ua >= s->seen_ua &&
	    sr_at_vindpm(s, r->vbus_uv) && pinned &&
	    sr_dpm_test_start(s, r->ibus_ua, r->vbus_uv)) {
		/* R12: VBUS fell to the charger's own VINDPM, or the charger that got
		 * all its charge current a check ago no longer does, while the draw
		 * held at the most the source was seen to deliver: the draw reached
		 * VINDPM's pin on the line, or the adapter's wall (a limit held one
		 * register step above a draw that later climbs through the wall),
		 * which a coarse VBUS ADC reads alike (VBUS may fall by less than a
		 * step). Ask VINDPM. */
		return;
	}
	s->free_draw = !pinned;
	s->peak_ua = s->req_ua;
	s->rising = r->ibus_ua > s->seen_ua ||
		    (r->was_rising && r->ibus_ua >= s->seen_ua - sr_ua(s->p->draw_tol));
	s->seen_ua = max(s->seen_ua, r->ibus_ua);
	sr_check_later(s, s->rising ? SR_RAMP : SR_STABLE);
}

/*
 * The limit is drawn: learn the line from it (R4) or take a knee (R5); then let a long
 * quiet spell raise the ceiling (R9, re-probe slowly) and probe one step more (R2
 * probe only under load, R3 verify each step).
 */
/*
 * R5 at a power limit: the limit just set under a knee is drawn, and VBUS is still far
 * below the line. An adapter that limits its power (P = V I) leaves its line where the
 * line meets that hyperbola, below the current where the charger's VINDPM caught it,
 * or where a linear charger's input current limit holds the probe (VBUS then on the
 * hyperbola at the limit): under the knee's limit it is still in its limit, its
 * overload timer running. Where
 * the hyperbola through this reading meets the line (E - R I = V I / I', solved for I')
 * less knee_backoff lies under the limit in force, settle under that once; still far
 * below there, the source itself changed (R4, the caller). True when it settled.
 */
static bool sr_power_knee_at(const struct safe_ramp *s, const struct sr_reading *r, double *ik)
{
	double e, rr, pv = r->v * r->i, disc;

	if (!sr_fit_predict(&r->fit, 0, &e))
		return false;
	rr = sr_fit_r(&r->fit);
	disc = e * e - 4 * rr * pv;
	if (disc < 0)
		return false;
	*ik = rr > 1e-6 ? (e - sqrt(disc)) / (2 * rr) : pv / e;
	return sr_ua(*ik - s->p->knee_backoff) < s->limit_ua;
}

static bool sr_power_knee(struct safe_ramp *s, const struct sr_reading *r)
{
	bool off = s->fine_off;
	double ik;

	if (s->pl_tried || !sr_power_knee_at(s, r, &ik))
		return false;
	s->pl_undo_knee_ua = s->undo_knee_ua;
	s->pl_undo_ceiling_ua = s->undo_ceiling_ua;
	s->pl_undo_fine_off = s->undo_fine_off;
	s->knee_computed = true;
	sr_settle_below(s, sr_ua(ik), r->vbus_uv, "power limit's knee");
	s->fine_off = off;   /* the knee's own second settle: no wall come under a limit */
	s->pl_tried = true;
	s->pl_seen = true;
	s->fine_pl = true;
	s->fine_cap_ua = 0;
	s->pinf_cap_ua = 0;
	return true;
}

/*
 * R16: a probe sized by what the charger is short of. On a chip whose ADC converts in
 * windows and that reports its input loops apart (the bq25890), each verified step
 * costs two conversions (2 s), and a system load that takes the whole input is carried
 * meanwhile by the battery. IINDPM regulating with the charger in constant current and
 * its charge current reading nothing (under one count) says the system takes the
 * whole input: the charger wants at least the limit plus its charge current's power at
 * VBUS (ICHG VBAT / VBUS; a converter's losses only add to it), so the probe takes that
 * much, rounded down to whole steps (the values a one-step ramp visits, where R3's
 * register value between and R12 were measured), where that is more than `step`. Only
 * before any knee of the session, and no further than the ceiling (R8, R9): a wall in
 * the way shows in the status bits at the next `interval` as for any probe (R3, R12),
 * and the limit goes back to the one verified before the probe (sr_bits_wall,
 * sr_floor); one interval later it probes halfway there (sr_big_half), and so on, the
 * step from a verified limit never more than half the way to the lowest probe
 * stopped. Under two steps of it the ramp goes on one step at a time. Returns the
 * request to write.
 */
static int sr_big_step(struct safe_ramp *s, int vbus_uv)
{
	union power_supply_propval ichg = { 0 };
	int step = sr_ua(s->p->step), ibat_ua, vbat_uv, cmin, cmax, cstep, more;
	struct cs_charger_ic *ic = s->board->ic;

	if (!s->adc_wait_ms || s->knee_ua >= 0 || s->blind || s->est_chip ||
	    vbus_uv <= 0 || cs_chg_get_vindpm(ic) < 0 ||
	    !(cs_chg_get_input_regulation(ic) > 0 &&
	      (cs_chg_get_input_regulation(ic) & CS_CHG_INREG_CURRENT)) ||
	    cs_chg_get_status(ic) != CS_CHG_STATUS_FAST ||
	    power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
				      &ichg) < 0 ||
	    cs_chg_read_adc(ic, CS_ADC_IBAT, &ibat_ua) < 0 ||
	    cs_chg_read_adc(ic, CS_ADC_VBAT, &vbat_uv) < 0 ||
	    ibat_ua >= max(s->ibat_lsb_ua, 1))
		return s->req_ua + step;
	more = (int)((double)ichg.intval * vbat_uv / vbus_uv);
	if (s->big_fail_ua > s->req_ua)
		more = min(more, (s->big_fail_ua - s->req_ua) / 2);
	more -= more % step;
	cs_chg_input_current_range(ic, &cmin, &cmax, &cstep);
	if (cstep > 0)
		more -= more % cstep;
	if (more <= step || s->req_ua + step >= s->ceiling_ua)
		return s->req_ua + step;
	return min(s->req_ua + more, s->ceiling_ua);
}

/* R16: the value halfway from the verified `from_ua` to the probe the bits showed
 * stopped, rounded down to whole steps, where that is more than `step` above it; 0
 * where it is not (the ramp goes on one step at a time). */
static int sr_big_half(struct safe_ramp *s, int from_ua)
{
	int cmin, cmax, cstep, step = sr_ua(s->p->step), half = (s->big_fail_ua - from_ua) / 2;

	half -= half % step;
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	if (cstep > 0)
		half -= half % cstep;
	return half > sr_ua(s->p->step) ? from_ua + half : 0;
}

/* R16: the probe halfway to a stopped one, one interval after going back to the
 * verified limit (the adapter out of its limit in between, an overload timer starts
 * again), checked in the bits as any probe (sr_adc_catching_up). */
static void sr_big_next(struct safe_ramp *s)
{
	int ua = s->big_next_ua;

	if (ua > s->ceiling_ua || ua <= s->req_ua) {
		s->big_next_ua = 0;
		return;   /* the budget fell since (R8) */
	}
	ua = s->req_ua;
	sr_write(s, s->big_next_ua);
	s->big_next_ua = 0;
	s->big_from_ua = ua;
	s->probing = true;
}

static void sr_drawn(struct safe_ramp *s, struct sr_reading *r)
{
	int step = sr_ua(s->p->step);

	if (r->below && s->wall_limit_ua > 0 && s->limit_ua == s->wall_limit_ua) {
		/* R5: the limit on a wall read on a register value, and the adapter
		 * stayed in its limit there (a brick wall at exactly the current drawn
		 * holds either way, and the one it was in holds): the value under it,
		 * for the rest of the session */
		s->wall_limit_failed = true;
		sr_settle_below(s, r->ibus_ua, r->vbus_uv, "wall at the limit");
		return;
	}

	if (sr_line_moved(s, r)) {
		/* R4: the same current at another VBUS, the charger's current limit
		 * holding it: no knee, the source line moved. Learn it again from
		 * here, the ceiling kept. */
		pr_info("safe-ramp: the source line moved: %d mV at %d mA; learning it again",
			r->vbus_uv / 1000, r->ibus_ua / 1000);
		sr_relearn(s, r->ibus_ua, r->vbus_uv, -1, 0);
		return;
	}
	if (r->below && r->after_knee) {
		/* R4: still far below the line, drawing the limit just set under a
		 * knee. A wall lets VBUS back onto the line once the draw is under
		 * it; this is the source itself changed (a weaker adapter, more
		 * resistance on the path): learn the line again from here, and
		 * forget the knee that was none. */
		if (sr_power_knee(s, r))
			return;
		sr_line_reset(&s->line);
		s->fine_cap_ua = 0;
		/* R5 on the twl4030: a power knee still far below the line was none */
		if (s->pl_tried)
			s->fine_pl = false;
		s->fine_off = s->pl_tried ? s->pl_undo_fine_off : s->undo_fine_off;
		s->knee_ua = s->pl_tried ? s->pl_undo_knee_ua : s->undo_knee_ua;
		s->ceiling_ua = s->pl_tried ? s->pl_undo_ceiling_ua : s->undo_ceiling_ua;
		r->below = false;
	}
	s->pl_tried = false;
	if (r->below) {
		/* R5: the limit is drawn, yet VBUS fell far below the line: the
		 * adapter's wall lies within draw_tol under the limit - the new one
		 * of a probe, or one held above a draw that has since climbed to it.
		 * Not a point of the line. */
		double ik;

		/* a source seen at its power limit this session: a knee's reading
		 * lies on its hyperbola, and the knee is where that meets the line */
		if (s->pl_seen && sr_power_knee_at(s, r, &ik) && sr_ua(ik) < r->ibus_ua) {
			s->knee_computed = true;
			sr_settle_below(s, sr_ua(ik), r->vbus_uv, "power limit's knee");
			s->fine_cap_ua = 0;   /* R5 on the twl4030: no approach (sr_fine_arm) */
			s->pinf_cap_ua = 0;
			s->pl_tried = true;
			return;
		}
		sr_settle_below(s, r->ibus_ua, r->vbus_uv, "knee");
		return;
	}
	if (s->probing && r->ibus_ua > s->plateau_ua + sr_ua(s->p->draw_tol))
		s->plateau_ms = 0;   /* the draw grew past the plateau */
	s->probing = false;
	s->peak_ua = s->req_ua;
	s->seen_ua = r->ibus_ua;
	/* R4: drawing the limit, so the source is inside its voltage-source region
	 * (IINDPM holds the current): a point of the line. Far above the line means
	 * the source itself changed (another level, a different adapter): learn the
	 * line again from here. */
	if (r->above)
		sr_line_reset(&s->line);
	sr_line_add(&s->line, r->i, r->v);
	if (sr_fine_step(s) || sr_pin_step(s, true))
		return;
	/* R9: a long quiet spell earns one more step of headroom. */
	if (s->ceiling_ua < s->max_ua && !sr_reprobe_under_floor(s) &&
	    time_after(jiffies, s->quiet_since + msecs_to_jiffies((unsigned int)s->reprobe_ms))) {
		s->ceiling_ua = min(s->max_ua, s->ceiling_ua + step);
		s->quiet_since = jiffies;
	}
	if (s->req_ua < s->ceiling_ua && sr_plateau_over(s)) {
		/* R2/R3: drawing the limit - probe one step (R16: more where the
		 * battery gives). */
		int from = s->req_ua, ua = sr_big_step(s, r->vbus_uv);

		sr_write(s, ua);
		s->big_from_ua = ua > from + step ? from : 0;
		s->probing = true;
		sr_check_later(s, SR_RAMP);
		return;
	}
	sr_check_later(s, SR_STABLE);
}

/*
 * R12 from the status bits, while the ADC catches up (below): a probe that left VINDPM
 * regulating without IINDPM met the adapter's wall (VINDPM caught the falling VBUS) or
 * the source line's own pin at VINDPM (a long, thin path: the charger takes what the
 * line gives there, the adapter inside its limit). VINDPM one code lower for one
 * interval tells them apart: on the line the current rises by a code over the path
 * resistance (100 mV over less than 1 ohm is more than a 100 mA step) and IINDPM takes
 * over; at a wall only VBUS moves. The test keeps the adapter at a wall one interval
 * longer (40 ms in all), under the overload timers (50 ms and up) of the populations.
 */
static bool sr_bits_test_start(struct safe_ramp *s)
{
	int own_uv = cs_chg_get_vindpm(s->board->ic);

	if (!sr_vindpm_one_lower(s, own_uv))
		return false;
	s->bits_test_uv = own_uv;
	schedule_delayed_work(&s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
	return true;
}

/* R3 from the status bits: no register value between a step and its wall to probe,
 * nor one in flight (sr_bits_wall). */
static void sr_split_clear(struct safe_ramp *s)
{
	s->split_ua = 0;
	s->split_from_ua = 0;
}

/* R3, R16: a new session's probes from the bits: none between, none sized by the
 * charger in flight or stopped. */
/* R3, R16: a new session's probes from the bits: none between, none sized by the
 * charger in flight or stopped. */
static void sr_bits_clear(struct safe_ramp *s)
{
	sr_split_clear(s);
	s->big_from_ua = 0;
	s->big_fail_ua = 0;
	s->big_next_ua = 0;
}

/* R3: the bits say VINDPM regulates without IINDPM: VBUS sagged under the limit (the
 * adapter's wall, or the line's own pin at VINDPM). */
static bool sr_bits_vindpm_only(int bits)
{
	return bits > 0 && (bits & CS_CHG_INREG_VOLTAGE) && !(bits & CS_CHG_INREG_CURRENT);
}

/*
 * R3 from the status bits: a probe met the adapter's wall (R12 found no line's pin).
 * Back to the verified limit at once (R6). The wall lies between the two, and on a
 * register finer than `step` (the bq25890's 50 mA under a 100 mA step) the register
 * value under the probe may be under it too: it is probed next (sr_split_probe), one
 * interval later, so the adapter leaves its limit (and its overload timer restarts)
 * between the two. Settled a whole step under, a wall at 857 mA held the input at
 * 800 mA where 850 mA was there to take (docs/safe-ramp.md, R3). That probe failing as
 * well goes back to the verified limit until R9's next re-probe, without asking VINDPM
 * (R12) again: a power limit within a few tens of mA under it lets IINDPM take over a
 * code lower too (I = P / V) and would pass for the line's pin.
 */
static void sr_bits_wall(struct safe_ramp *s)
{
	int cmin, cmax, cstep, split, from = s->split_from_ua;

	sr_split_clear(s);
	if (from == 0 && s->big_from_ua > 0) {
		/* R16: a probe sized by the charger met a wall (or a pin R12 could
		 * not tell from one): back to the limit verified before it, and one
		 * interval later halfway to the probe */
		sr_vmode_exit(s, false);
		s->probing = false;
		s->big_fail_ua = s->req_ua;
		s->big_next_ua = sr_big_half(s, s->big_from_ua);
		sr_write(s, s->big_from_ua);
		sr_check_later(s, SR_RAMP);
		return;
	}
	if (from > 0) {
		/* the split's probe failed: the wall is under it; R9's wait stays the
		 * one the first probe's failure set */
		sr_vmode_exit(s, false);
		s->probing = false;
		s->quiet_since = jiffies;
		s->ceiling_ua = from;
		sr_write(s, from);
		sr_check_later(s, SR_RAMP);
		return;
	}
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	split = s->limit_ua - cstep;
	sr_floor(s);
	if (cstep > 0 && s->limit_ua >= 0 && split > s->limit_ua)
		s->split_ua = split;
}

/* R3: probe the register value between the verified limit and the probe that met a
 * wall (sr_bits_wall). */
static void sr_split_probe(struct safe_ramp *s)
{
	if (s->split_ua > s->max_ua) {
		/* the budget fell since (R8) */
		s->split_ua = 0;
		return;
	}
	s->split_from_ua = s->req_ua;
	s->big_from_ua = 0;
	s->ceiling_ua = max(s->ceiling_ua, s->split_ua);
	s->split_ua = 0;
	sr_write(s, s->ceiling_ua);
	s->probing = true;
}

/*
 * R3 on a chip whose ADC converts in windows (adc_wait_ms): a write shows in the
 * readings only up to two conversions later, but the input regulation status bits are
 * live. Until then only they are checked, every interval: a probe that left VINDPM
 * regulating without IINDPM (the source sagged under the new limit: its wall) goes
 * back to the verified step at once (R6), before an overload timer runs out. True
 * while the readings are not yet of the last write.
 */
static bool sr_adc_catching_up(struct safe_ramp *s)
{
	int bits;
	bool vindpm_only, waiting;

	if (!s->adc_wait_ms)
		return false;
	waiting = time_before(jiffies,
			      s->write_at + msecs_to_jiffies((unsigned int)s->adc_wait_ms));
	if (!waiting && s->bits_test_uv <= 0) {
		sr_split_clear(s);
		return false;
	}
	bits = cs_chg_get_input_regulation(s->board->ic);
	vindpm_only = sr_bits_vindpm_only(bits);
	if (s->bits_test_uv > 0) {
		/* R12's answer: IINDPM with VINDPM a code lower is the line's pin. It is
		 * taken when it comes, the readings caught up or not: a test started at
		 * the window's last check ends after it, and VINDPM must go back. */
		cs_chg_set_vindpm(s->board->ic, s->bits_test_uv);
		s->bits_test_uv = 0;
		if (vindpm_only) {
			sr_bits_wall(s);
			return true;
		}
		s->line_pin = true;
		if (!waiting) {
			sr_split_clear(s);
			return false;
		}
	} else if (s->probing && vindpm_only) {
		if (s->split_from_ua > 0 || !sr_bits_test_start(s))
			sr_bits_wall(s);
		return true;
	} else if (s->split_ua > 0 && !s->probing && !vindpm_only) {
		sr_split_probe(s);
	} else if (s->big_next_ua > 0 && !s->probing && !vindpm_only) {
		sr_big_next(s);
	}
	schedule_delayed_work(&s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
	return true;
}

/*
 * R13 (a wall that moves under a held limit): on a chip whose input current is known
 * only from its status bits and whose ADC converts in windows (the bq25890), VINDPM
 * regulating without IINDPM under a limit the ramp holds - where no check found it the
 * line's own pin at VINDPM - is the adapter's wall come under the limit: a warming
 * adapter's drift, or a draw that climbed into it. The bits are live, the VBUS reading
 * up to two conversions (2 s) old, and an overload timer may be shorter: the limit goes
 * one register step under at once (the knee below the limit, R5), and again at the next
 * check while the bits say the same. IINDPM regulating again ends a line's pin.
 */
static bool sr_bits_wall_under(struct safe_ramp *s)
{
	int bits, cmin, cmax, cstep;

	if (!s->adc_wait_ms || s->probing || s->vmode || s->dpm_test || s->st != SR_STABLE)
		return false;
	bits = cs_chg_get_input_regulation(s->board->ic);
	if (bits > 0 && (bits & CS_CHG_INREG_CURRENT))
		s->line_pin = false;
	if (bits <= 0 || !(bits & CS_CHG_INREG_VOLTAGE) || (bits & CS_CHG_INREG_CURRENT) ||
	    s->line_pin)
		return false;
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	pr_info("safe-ramp: VINDPM regulates under the held %d mA limit: a wall under it",
		s->limit_ua / 1000);
	/* one register step: the knee's settle takes knee_backoff under what it is
	 * given, which the register would round down a second step */
	sr_settle_below(s, s->limit_ua - max(cstep, sr_ua(s->p->draw_tol)) +
			   sr_ua(s->p->knee_backoff),
			cs_chg_get_vindpm(s->board->ic), NULL);
	return true;
}

/*
 * R14 (a chip that reads no VBUS, the bq24190: no ADC, one DPM_STAT bit for IINDPM and
 * VINDPM alike, REG08 bit 3, TI SLUSAW5): whether a probe was followed is read in the
 * battery current the phone's fuel gauge reports (the battery power supply's
 * current_now). A switching charger passes its input power to the system and the
 * cell: eff * VBUS * IBUS = VSYS * ISYS + VBAT * IBAT. A raise of the limit by d that
 * the draw follows adds eff * VBUS * d to it, and VBUS stays at or above the VINDPM
 * threshold while IINDPM holds the input; at a wall the adapter gives what it gives and
 * the charger's VINDPM holds VBUS, so the cell gains the wall's share of the step only,
 * less the power lost to VBUS falling from where it was to VINDPM. So the battery
 * current must rise by at least SR_BLIND_GAIN * d * VINDPM / VBAT; the DPM bit clear
 * after the raise is followed too (neither loop holds the input: the adapter is not at
 * a wall, where VINDPM would be). The gain with the bit still set, or short of it, is
 * asked again with VINDPM a code lower (sr_blind_test_start).
 */
/* SR_BLIND_GAIN: the charger's efficiency (SLUSAW5: 92 % at 2 A; taken as at least
 * 0.85 over the 0.5-3 A of a USB input, assumed), times what the line's own drop over
 * a step costs (VBUS above VINDPM on the line: at most a few %). */
#define SR_BLIND_GAIN 0.8

static bool sr_blind_battery(struct safe_ramp *s, int *ibat_ua, int *vbat_uv)
{
	union power_supply_propval i = { 0 }, v = { 0 };

	if (!s->board->bat_psy ||
	    power_supply_get_property(s->board->bat_psy, POWER_SUPPLY_PROP_CURRENT_NOW, &i) ||
	    power_supply_get_property(s->board->bat_psy, POWER_SUPPLY_PROP_VOLTAGE_NOW, &v) ||
	    v.intval <= 0)
		return false;
	*ibat_ua = i.intval;
	*vbat_uv = v.intval;
	return true;
}

/* R14: was the probe from blind_from_ua to the limit now followed? */
static bool sr_blind_followed(struct safe_ramp *s, int bits, int ibat_ua, int vbat_uv)
{
	int vindpm_uv = cs_chg_get_vindpm(s->board->ic);
	double need;

	if (!(bits & CS_CHG_INREG_DPM))
		return true;
	if (vindpm_uv <= 0)
		vindpm_uv = sr_ua(s->p->vbus_min);
	need = SR_BLIND_GAIN * (s->limit_ua - s->blind_from_ua) * ((double)vindpm_uv / vbat_uv);
	return ibat_ua - s->blind_ibat_ua >= need;
}

/* R14: the most a USB 5 V source's open-circuit voltage is taken to be (USB 2.0
 * 7.2.1: 5.25 V at the port), with margin: what the VINDPM test below is sized for. */
#define SR_BLIND_E_MAX_V 5.5
/* ... and the least battery current (uA) it counts as a rise, whatever the sizing. */
#define SR_BLIND_PIN_MIN_UA 5000
/* R14 under a held limit: a fall of the battery current (uA) between two checks that
 * asks the test: a wall passing under a 0.5 A limit takes (VBUS - VINDPM) * 0.5 A of
 * input power, 0.1 W and 25 mA of battery current for VBUS only 0.2 V above VINDPM. */
#define SR_BLIND_DROP_UA 20000
/* R14 under a held limit: the share of d * limit (at VBAT, in battery current) the
 * input power must lose with VINDPM a code lower to be a wall: a wall at 0.9 of the
 * limit, 90 % efficient, loses 0.8; a line's pin just under the limit, the code's
 * extra current cut short by IINDPM, loses less. */
#define SR_BLIND_WALL_SHARE 0.7
/* R14's hold on the rung under: two battery currents this close (uA) are one operating
 * point read twice: a fuel gauge reports current_now in steps of about 1 mA. */
#define SR_BLIND_SAME_UA 1000
/* R14's hold: the least share of the wall a hold a code nearer keeps under it, for a
 * wall that drifts until the hold's renewal a minute later. */
#define SR_BLIND_HOLD_MARGIN 0.007

/*
 * R14 with R12's question: a probe the battery current did not follow, DPM_STAT set,
 * met the adapter's wall or the line's own pin at VINDPM (a long, thin path: the
 * adapter inside its limit, the charger taking what the line gives at VINDPM). VINDPM
 * one code (d) lower for one interval tells them apart in the battery current: on the
 * line the input power V (E - V) / R rises by d (2 V - E - d) / R, at least d (2 V_low
 * - E_max) / R_max, more than half of which must show; at a wall it falls by d times
 * the wall's current, and at a power limit it stays. False when no test can start.
 */
static bool sr_blind_test_start(struct safe_ramp *s, int ibat_ua)
{
	int own_uv = cs_chg_get_vindpm(s->board->ic);

	if (!sr_vindpm_one_lower(s, own_uv))
		return false;
	s->blind_test_uv = own_uv;
	s->blind_test_ibat_ua = ibat_ua;
	schedule_delayed_work(&s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
	return true;
}

/*
 * R14 under a held limit: the least current a wall come under the limit is taken to
 * give, for the share of d it must lose. The rung the limit was probed from, where the
 * draw held the input and the adapter gave it (R2 probes only then): a wall between
 * it and the limit gives more. A wall at 73 % of a 3 A rung taken with the bit clear
 * (field seed 7, setup 157) loses less than SR_BLIND_WALL_SHARE of d * 3 A, and its
 * overload timer ran out with the limit held. Without a rung under, the limit.
 */
static int sr_blind_wall_floor_ua(const struct safe_ramp *s)
{
	if (s->blind_from_ua > 0 && s->blind_from_ua < s->limit_ua)
		return s->blind_from_ua;
	return s->limit_ua;
}

/* R14: the answer of the test above: true for the line's pin (the probe is kept).
 * Under a held limit (blind_test_held) the question is the other way round: true
 * unless the input power fell by SR_BLIND_WALL_SHARE of what d takes away at a wall
 * at the limit: a wall come under it (an IINDPM hold does not move, a pin rises). */
static bool sr_blind_test_end(struct safe_ramp *s, int ibat_ua, int vbat_uv)
{
	int own_uv = s->blind_test_uv;
	double low_v, d, need;

	low_v = cs_chg_get_vindpm(s->board->ic) * 1e-6;
	cs_chg_set_vindpm(s->board->ic, own_uv);
	s->blind_test_uv = 0;
	d = own_uv * 1e-6 - low_v;
	if (s->blind_test_held) {
		s->blind_test_held = false;
		need = SR_BLIND_WALL_SHARE * d * sr_blind_wall_floor_ua(s) / (vbat_uv * 1e-6);
		return s->blind_test_ibat_ua - ibat_ua < max(need, (double)SR_BLIND_PIN_MIN_UA);
	}
	need = SR_BLIND_GAIN * d * (2 * low_v - SR_BLIND_E_MAX_V) / SR_R_MAX_OHM /
	       (vbat_uv * 1e-6) / 2 * 1e6;
	return ibat_ua - s->blind_test_ibat_ua >= max(need, (double)SR_BLIND_PIN_MIN_UA);
}

/*
 * R14 on a long line (docs/safe-ramp.md, "A probe on a long line, set against the
 * rungs before it"). A probe the charger's input limit holds raises the input power by
 * d * VBUS less the line's drop over the current before, I * R * d: on a long line
 * (field seed 1, setup 64: 0.53 ohm at 1.2 A) that is 14 % less than d * VBUS, short of
 * SR_BLIND_GAIN, and VINDPM a code lower moves nothing (the input limit holds it, VBUS
 * above VINDPM): read as a wall, the limit stayed a rung or more under what the line
 * gives. A power limit reads the same in both tests; what tells them apart is the
 * rungs climbed just before. Each was drawn at its input limit, a current known
 * exactly, on the source's line: the input power is I (E - R I), and the battery
 * current eff * P / VBAT less the system's share, a parabola in I with the same three
 * unknowns whatever the efficiency. Through the last three rungs it gives the battery
 * current at the new limit if the limit holds the input there; a power limit or a
 * wall under it gives less. The rungs count only as climbed in a row, each probe
 * within SR_BLIND_FIT_INTERVALS checks of the one before (the load and the cell as
 * they were), and the parabola must bend down as a line's power does.
 */
#define SR_BLIND_FIT_INTERVALS 5
/* ... and the reading within this (uA) of it: a fuel gauge's step and the charger's
 * efficiency moving with the current over three rungs (0.4 mA on setup 64) */
#define SR_BLIND_FIT_TOL_UA 5000

static void sr_blind_fit_push(struct safe_ramp *s, int ua, int ibat_ua)
{
	int n = s->blind_fit_n;
	unsigned long gap = msecs_to_jiffies(SR_BLIND_FIT_INTERVALS * sr_ms(s->p->interval));

	if (n > 0 && (ua <= s->blind_fit_ua[n - 1] ||
		      time_after(jiffies, s->blind_fit_at[n - 1] + gap)))
		n = 0;
	if (n == SR_BLIND_FIT_N) {
		memmove(s->blind_fit_ua, s->blind_fit_ua + 1, (n - 1) * sizeof(int));
		memmove(s->blind_fit_ibat, s->blind_fit_ibat + 1, (n - 1) * sizeof(int));
		memmove(s->blind_fit_at, s->blind_fit_at + 1, (n - 1) * sizeof(unsigned long));
		n--;
	}
	s->blind_fit_ua[n] = ua;
	s->blind_fit_ibat[n] = ibat_ua;
	s->blind_fit_at[n] = jiffies;
	s->blind_fit_n = n + 1;
}

/* R14 on a long line: the probe to the limit in force, read at ibat_ua with the
 * charger's own VINDPM and at low_ua a code lower, is held by its input limit. */
static bool sr_blind_fit_followed(const struct safe_ramp *s, int ibat_ua, int low_ua)
{
	const int *x = s->blind_fit_ua, *y = s->blind_fit_ibat;
	double pred = 0, d2;

	if (s->blind_fit_n < SR_BLIND_FIT_N || x[SR_BLIND_FIT_N - 1] != s->blind_from_ua ||
	    abs(low_ua - ibat_ua) > SR_BLIND_FIT_TOL_UA)
		return false;
	d2 = ((double)(y[2] - y[1]) / (x[2] - x[1]) - (double)(y[1] - y[0]) / (x[1] - x[0])) /
	     (x[2] - x[0]);
	if (!(d2 < 0))
		return false;
	for (int i = 0; i < SR_BLIND_FIT_N; i++) {
		double term = y[i];

		for (int j = 0; j < SR_BLIND_FIT_N; j++)
			if (j != i)
				term *= (double)(s->limit_ua - x[j]) / (x[i] - x[j]);
		pred += term;
	}
	return fabs(ibat_ua - pred) <= SR_BLIND_FIT_TOL_UA;
}

/* R14, R2: one register value up from the limit in force, under the ceiling; false
 * when there is none. The ladder's rungs (the bq24190's 500, 900, 1200 mA ...) take
 * several steps of requests. */
static bool sr_blind_probe(struct safe_ramp *s, int ibat_ua)
{
	int from_ua = s->limit_ua, ua = s->req_ua;

	while (ua < s->ceiling_ua) {
		ua = min(ua + sr_ua(s->p->step), s->ceiling_ua);
		sr_write(s, ua);
		if (s->limit_ua > from_ua)
			break;
	}
	if (s->limit_ua <= from_ua)
		return false;
	sr_blind_fit_push(s, from_ua, ibat_ua);
	s->blind_from_ua = from_ua;
	s->blind_ibat_ua = ibat_ua;
	s->blind_last_ibat_ua = INT_MIN;
	s->probing = true;
	sr_check_later(s, SR_RAMP);
	return true;
}

/* R14, R6: back from the limit in force to a register value under it: on a ladder a
 * step of requests may leave the rung (the ramp counts in requests, R9's in steps). */
static void sr_blind_hold_end(struct safe_ramp *s);

static void sr_blind_floor(struct safe_ramp *s)
{
	int from_ua = s->limit_ua;

	sr_blind_hold_end(s);
	sr_floor(s);
	while (s->limit_ua >= from_ua && s->req_ua > s->floor_ua) {
		s->ceiling_ua = max(s->floor_ua, s->req_ua - sr_ua(s->p->step));
		sr_write(s, s->ceiling_ua);
	}
}

/*
 * R14's hold between two rungs (docs/safe-ramp.md, R14). A probe met a wall between the
 * rung under it (blind_from_ua) and the rung above (the limit in force): on the
 * bq24190's ladder (0.9, 1.2, 1.5, 2, 3 A) the rung under gives up to a whole rung's
 * gap. As R11 does with VBUS, VINDPM can hold the input on the adapter's line under
 * the wall with the limit on the rung above; without a VBUS reading the battery current
 * finds where. VINDPM goes down its grid from the top, one code an interval, the limit
 * on the rung above: on the line a code lower is more input power, V (E - V) / R rising
 * by d (V - d - R I) / R, and at the wall the power V * Iwall falls by d * Iwall. The
 * first code whose battery current does not rise (by more than SR_BLIND_PIN_MIN_UA)
 * after one that did is at the wall; the code above it is on the line with less than
 * d * Iwall / V (1.8 % of the wall at 4.4 V) to spare or at the wall; the code above
 * that is on the line at least d / R under the wall. That one holds the input if its
 * battery current beats the rung under's; else the rung under, as before (R6). The
 * adapter sits at its wall for one or two intervals, and the scan starts from VINDPM
 * above the line, so it comes to the wall on a higher VBUS than a probe does.
 */
static int sr_blind_scan_uv(const struct safe_ramp *s, int i)
{
	double gmin, gstep, gmax;

	if (!sr_vindpm_grid(s, &gmin, &gstep, &gmax) || !isfinite(gmax))
		return 0;
	return sr_ua(gmax - i * gstep);
}

static bool sr_blind_scan_start(struct safe_ramp *s, int low_ibat_ua)
{
	int own_uv = cs_chg_get_vindpm(s->board->ic), top_uv = sr_blind_scan_uv(s, 0);

	if (own_uv <= 0 || top_uv <= own_uv || s->limit_ua <= s->blind_from_ua ||
	    cs_chg_set_vindpm(s->board->ic, top_uv) < 0)
		return false;
	pr_info("safe-ramp: a wall between %d and %d mA: VINDPM down from %d mV",
		s->blind_from_ua / 1000, s->limit_ua / 1000, top_uv / 1000);
	s->blind_own_uv = own_uv;
	s->blind_renew_uv = 0;
	s->blind_low_ibat_ua = low_ibat_ua;
	s->blind_scanning = true;
	s->blind_scan_rose = false;
	s->blind_scan_n = 0;
	s->blind_last_ibat_ua = INT_MIN;
	sr_check_later(s, SR_RAMP);
	return true;
}

/* R14's hold: the charger's own VINDPM back, the scan or hold in force ended. */
static void sr_blind_hold_end(struct safe_ramp *s)
{
	if (s->blind_hold_uv > 0 || s->blind_scanning)
		cs_chg_set_vindpm(s->board->ic, s->blind_own_uv);
	s->blind_hold_uv = 0;
	s->blind_scanning = false;
	s->blind_renew_uv = 0;
}

/* R14's hold at scan code i (-1: none); false when it gives no more than the rung
 * under the wall (the caller steps back to that, R6). */
static bool sr_blind_hold(struct safe_ramp *s, int i)
{
	if (i < 0 || s->blind_scan_ibat[i] < s->blind_ibat_ua + SR_BLIND_PIN_MIN_UA)
		return false;
	s->blind_scanning = false;
	s->blind_hold_uv = sr_blind_scan_uv(s, i);
	cs_chg_set_vindpm(s->board->ic, s->blind_hold_uv);
	pr_info("safe-ramp: VINDPM %d mV holds the input under the wall; limit %d mA",
		s->blind_hold_uv / 1000, s->limit_ua / 1000);
	s->blind_hold_at = jiffies;
	s->blind_hold_ua = s->limit_ua;
	s->ceiling_ua = s->req_ua;   /* no probe past the wall until the hold is renewed */
	s->probing = false;
	s->quiet_since = jiffies;
	s->blind_last_ibat_ua = INT_MIN;
	sr_check_later(s, SR_STABLE);
	return true;
}

/*
 * R14's hold on the rung under (docs/safe-ramp.md, "The rung under a pinned probe keeps
 * the hold's VINDPM"). The scan found the wall at a code; code i is the nearest it shows
 * on the line with room under the wall, and it gave no more than the rung under. Where
 * the probe from the rung under changed nothing (the battery current the same within
 * SR_BLIND_SAME_UA) and no code the scan read above the charger's own VINDPM gave more
 * than the rung under, the rung under was not held by its input limit: the charger's
 * own VINDPM held it, at the same point the rung above reads, a code or two from the
 * wall. There a wall that drifts onto the pin (field seed 6, setup 101) or a draw that
 * creeps into a power limit (field seed 2, setup 74) leaves VBUS where it was, at
 * VINDPM, and the input power with it: no check sees it before the adapter's overload
 * timer runs out. A rung under held by its input limit has VBUS on the line above
 * VINDPM, and a wall that comes under it drops VBUS to VINDPM and the input power with
 * it, which R14's check under a held limit sees; its probe's reading may still come out
 * the same by chance (hard seed 8, setup 87: a 0.576 A wall over the 0.5 A rung at
 * 5.018 V, 4.36 * 0.576 = 5.018 * 0.5 W), but a code read above the rung's VBUS, at the
 * wall or on the line, gives more input power than the rung: the line gives at least
 * what a code reads. So VINDPM stays at code i with the limit on the rung under: the
 * line's current there, never nearer the wall; and it is a hold like the one above,
 * renewed after `reprobe` while the bit is set, as a wall that moves needs (code i may
 * be the charger's own VINDPM: the pin then has room under the wall now, and the
 * renewal checks it again a minute later). False otherwise, or when code i is under
 * the charger's own VINDPM.
 */
static bool sr_blind_hold_under(struct safe_ramp *s, int i)
{
	int uv = i >= 0 ? sr_blind_scan_uv(s, i) : 0, over_ua = s->limit_ua, over_req = s->req_ua;

	for (int k = 0; k < s->blind_scan_n; k++)
		if (sr_blind_scan_uv(s, k) > s->blind_own_uv &&
		    s->blind_scan_ibat[k] > s->blind_ibat_ua + SR_BLIND_PIN_MIN_UA)
			return false;
	if (abs(s->blind_test_ibat_ua - s->blind_ibat_ua) > SR_BLIND_SAME_UA ||
	    uv < s->blind_own_uv || cs_chg_set_vindpm(s->board->ic, uv) < 0)
		return false;
	s->blind_scanning = false;
	s->blind_hold_uv = uv;
	s->blind_hold_ua = over_ua;
	s->probing = false;
	s->quiet_since = jiffies;
	s->ceiling_ua = over_req;   /* the renewal probes the rung above again */
	sr_write(s, s->blind_from_ua);
	pr_info("safe-ramp: VINDPM %d mV holds the rung under the wall; limit %d mA",
		uv / 1000, s->limit_ua / 1000);
	s->blind_hold_at = jiffies;
	s->blind_last_ibat_ua = INT_MIN;
	sr_check_later(s, SR_STABLE);
	return true;
}

/*
 * R14's hold: which code holds, code f being the first that did not rise after one that
 * did (at the wall). Code f - 2 is on the line at least d / R under the wall. Code
 * f - 1 is on the line or at the wall. At the wall each code lower takes d * Iwall of
 * input power: the VINDPM test that found the wall read that fall already, between the
 * charger's own VINDPM and the code under it (both at the wall, the limit on the rung
 * above as now). From f - 1 to f the power falls that much if f - 1 is at the wall; if
 * it is on the line, by VBUS (Iwall - I(f - 1)) less. The shortfall tells the share of
 * the wall f - 1 keeps under it, short / fall * d / V(f - 1) (at most d / V, 1.8 %):
 * f - 1 holds when that is at least SR_BLIND_HOLD_MARGIN, a code (80 mV on the
 * bq24190, 1.8 % of the wall) nearer than f - 2, with no more time at the wall.
 */
static int sr_blind_hold_code(const struct safe_ramp *s, int f)
{
	const int *ib = s->blind_scan_ibat;
	int wall_fall = s->blind_test_ibat_ua - s->blind_low_ibat_ua, short_ua;
	double v_uv, d_uv;

	/* code f still rose, if by less than a rise counts: at the wall it would have
	 * fallen (V * Iwall) had f - 1 been there too, so f - 1 is on the line, at
	 * least d / V(f) under the wall (1.8 % at 4.4 V) */
	if (f >= 1 && ib[f] - ib[f - 1] > SR_BLIND_SAME_UA)
		return f - 1;
	if (f < 1 || wall_fall <= SR_BLIND_PIN_MIN_UA)
		return f - 2;
	v_uv = sr_blind_scan_uv(s, f - 1);
	d_uv = v_uv - sr_blind_scan_uv(s, f);
	short_ua = wall_fall - (ib[f - 1] - ib[f]);
	if (short_ua > SR_BLIND_PIN_MIN_UA && d_uv > 0 &&
	    (double)short_ua / wall_fall * d_uv / v_uv >= SR_BLIND_HOLD_MARGIN)
		return f - 1;
	return f - 2;
}

/* R14's hold: one more code's battery current into the scan, from the top down; 1: go
 * on, 0: a hold is set, -1: the scan ended without one. */
static int sr_blind_scan_push(struct safe_ramp *s, int ibat_ua)
{
	int n = s->blind_scan_n;

	if (n >= SR_BLIND_SCAN_MAX)
		return -1;
	s->blind_scan_ibat[n++] = ibat_ua;
	s->blind_scan_n = n;
	if (n >= 2 && ibat_ua - s->blind_scan_ibat[n - 2] > SR_BLIND_PIN_MIN_UA)
		s->blind_scan_rose = true;
	else if (n >= 2 && s->blind_scan_rose) {   /* code n - 1 at the wall */
		int i = sr_blind_hold_code(s, n - 1);

		return sr_blind_hold(s, i) || sr_blind_hold_under(s, i) ? 0 : -1;
	}
	return 1;
}

/* R14's hold: one code of the scan read; false when it ended without a hold. */
static bool sr_blind_scan_step(struct safe_ramp *s, bool have, int ibat_ua,
			       enum cs_chg_status st)
{
	int next_uv, r;

	if (!have || st == CS_CHG_STATUS_UVLO)
		return false;
	r = sr_blind_scan_push(s, ibat_ua);
	if (r <= 0)
		return r == 0;
	next_uv = sr_blind_scan_uv(s, s->blind_scan_n);
	if (next_uv > s->blind_own_uv && cs_chg_set_vindpm(s->board->ic, next_uv) >= 0) {
		sr_check_later(s, SR_RAMP);
		return true;
	}
	/* the charger's own VINDPM and the code under it: the test that found the wall
	 * read them, with the limit on the rung above as now */
	r = sr_blind_scan_push(s, s->blind_test_ibat_ua);
	if (r == 1)
		r = sr_blind_scan_push(s, s->blind_low_ibat_ua);
	if (r == 1 && s->blind_scan_rose) {
		/* still rising at the code under the charger's own, which the VINDPM
		 * test found short of a line's pin: that code is the wall's */
		int i = sr_blind_hold_code(s, s->blind_scan_n - 1);

		r = sr_blind_hold(s, i) || sr_blind_hold_under(s, i) ? 0 : -1;
	}
	return r == 0;
}

/* R14's hold, R9: after `reprobe` the wall may have moved (a warming adapter, 2.7 % a
 * minute at most in the field population): back to the rung under it, to probe and
 * scan again from there at the next check. Only while the draw wants the hold (the bit
 * set): a light draw shows nothing, and the hold is put back where a renewing probe to
 * the same rung is taken with the bit clear (sr_blind_rehold); a load that steps up
 * later would meet the wall on the rung above with the charger's own VINDPM. */
static bool sr_blind_hold_renew(struct safe_ramp *s, int bits)
{
	int uv = s->blind_hold_uv;

	if (uv <= 0 ||
	    !time_after(jiffies, s->blind_hold_at + msecs_to_jiffies(sr_ms(s->p->reprobe))))
		return false;
	if (!(bits & CS_CHG_INREG_DPM)) {
		s->blind_hold_at = jiffies;
		return false;
	}
	sr_blind_hold_end(s);
	s->blind_renew_uv = uv;
	s->blind_renew_ua = s->blind_hold_ua;
	sr_write(s, s->blind_from_ua);
	sr_check_later(s, SR_RAMP);
	return true;
}

/* R14's hold: a probe taken with the bit clear (a light draw) on the rung of a hold
 * being renewed gets the hold back. One taken by its gain is the source's answer now
 * (a cable that degraded since has a lower line, and the old hold would starve it). */
static void sr_blind_rehold(struct safe_ramp *s, int bits)
{
	if (s->blind_renew_uv > 0 && s->limit_ua == s->blind_renew_ua &&
	    !(bits & CS_CHG_INREG_DPM) &&
	    cs_chg_set_vindpm(s->board->ic, s->blind_renew_uv) >= 0) {
		s->blind_hold_uv = s->blind_renew_uv;
		s->blind_hold_ua = s->limit_ua;
		s->blind_hold_at = jiffies;
		s->ceiling_ua = s->req_ua;
	}
	s->blind_renew_uv = 0;
}

/*
 * R7, R14 on a ladder: a rung a trip came at is not held on the charger's own VINDPM
 * again. A draw that creeps up to a wall under the rung (a power limit as the cell's
 * voltage rises) sets DPM_STAT only when the adapter is already at its wall, and its
 * overload timer runs out before a check can tell that from IINDPM (a power limit's
 * input power does not move with VINDPM). So a probe back onto that rung (R9) is taken
 * as one that met the wall: R14's scan holds the input on the line under it, or the
 * rung under is kept (field seed 2, setup 74: a second trip at the 2 A rung without).
 */
static bool sr_blind_tripped_rung(struct safe_ramp *s, int ibat_ua)
{
	if (s->tripped_rung_ua <= 0 || s->limit_ua < s->tripped_rung_ua)
		return false;
	pr_info("safe-ramp: %d mA is the rung a trip came at: VINDPM holds it",
		s->limit_ua / 1000);
	s->blind_test_ibat_ua = ibat_ua;
	if (!sr_blind_scan_start(s, ibat_ua))
		sr_blind_floor(s);
	return true;
}

static void sr_blind_work(struct safe_ramp *s)
{
	enum cs_chg_status st = cs_chg_get_status(s->board->ic);
	int bits = max(0, cs_chg_get_input_regulation(s->board->ic));
	int ibat_ua = 0, vbat_uv = 0;
	bool have = sr_blind_battery(s, &ibat_ua, &vbat_uv), pinned = false, fitted = false;
	/* a reading taken with VINDPM a code lower is no base for the next check's */
	bool tested = s->blind_test_uv > 0;

	if (s->blind_scanning) {
		if (!sr_blind_scan_step(s, have, ibat_ua, st))
			sr_blind_floor(s);
		return;
	}
	if (s->blind_test_uv > 0 && s->blind_test_held) {
		if (!have || !sr_blind_test_end(s, ibat_ua, vbat_uv) || st == CS_CHG_STATUS_UVLO) {
			pr_info("safe-ramp: VINDPM a code lower took power: a wall under the held %d mA",
				s->limit_ua / 1000);
			s->blind_last_ibat_ua = INT_MIN;
			/* held or probed, a wall under the limit: R14's scan from the
			 * top of VINDPM's grid holds the input on the line under it at once,
			 * the rung under where the scan cannot start */
			if (st == CS_CHG_STATUS_UVLO || !sr_blind_scan_start(s, ibat_ua))
				sr_blind_floor(s);
			return;
		}
		pinned = s->probing;   /* a probe the test found held by IINDPM */
	} else if (s->blind_test_uv > 0) {
		pinned = have && sr_blind_test_end(s, ibat_ua, vbat_uv) &&
			 st != CS_CHG_STATUS_UVLO;
		fitted = !pinned && have && st != CS_CHG_STATUS_UVLO &&
			 sr_blind_fit_followed(s, s->blind_test_ibat_ua, ibat_ua);
		if (fitted) {
			pr_info("safe-ramp: %d mA drawn as the rungs under it were: followed",
				s->limit_ua / 1000);
		} else if (!pinned) {
			pr_info("safe-ramp: VINDPM a code lower gave no more: a wall under %d mA",
				s->limit_ua / 1000);
			if (st == CS_CHG_STATUS_UVLO || !sr_blind_scan_start(s, ibat_ua))
				sr_blind_floor(s);
			return;
		} else {
			/* the line's pin: kept, and no probe past it until R9 allows one */
			s->ceiling_ua = s->req_ua;
		}
	}
	if (st == CS_CHG_STATUS_UVLO) {
		/* after a probe, the probe took VBUS down: back (R6); else R10 */
		if (s->probing)
			sr_blind_floor(s);
		else
			sr_charger_stuck(s);
		return;
	}
	s->stuck_since = 0;
	if (!have) {
		sr_check_later(s, SR_STABLE);
		return;
	}
	if (s->probing) {
		if (!pinned && !fitted && !sr_blind_followed(s, bits, ibat_ua, vbat_uv)) {
			if (sr_blind_test_start(s, ibat_ua))
				return;
			pr_info("safe-ramp: the battery current did not follow %d mA: a wall",
				s->limit_ua / 1000);
			sr_blind_floor(s);
			return;
		}
		if (sr_blind_tripped_rung(s, ibat_ua))
			return;
		if (!pinned && !fitted && (bits & CS_CHG_INREG_DPM)) {
			/* followed by the gain, the bit set: a wall a few mA under the new
			 * limit gives the same gain; the test under a held limit asks */
			s->blind_test_held = true;
			if (sr_blind_test_start(s, ibat_ua))
				return;
			s->blind_test_held = false;
		}
		s->probing = false;
		s->peak_ua = s->req_ua;
		sr_blind_rehold(s, bits);
	} else if ((bits & CS_CHG_INREG_DPM) && s->blind_last_ibat_ua != INT_MIN &&
		   ibat_ua < s->blind_last_ibat_ua - SR_BLIND_DROP_UA) {
		/* R13 on the one bit: the battery current fell under a held limit, the
		 * input in regulation: a load that stepped up, or a wall that came under
		 * the limit (VBUS down to VINDPM). The same VINDPM test asks which. */
		s->blind_test_held = true;
		s->blind_last_ibat_ua = INT_MIN;
		if (sr_blind_test_start(s, ibat_ua))
			return;
		s->blind_test_held = false;
	}
	s->blind_last_ibat_ua = tested ? INT_MIN : ibat_ua;
	if (sr_blind_hold_renew(s, bits))
		return;
	/* R9: a long quiet spell earns one more step of headroom. */
	if (s->blind_hold_uv <= 0 && s->ceiling_ua < s->max_ua &&
	    time_after(jiffies, s->quiet_since + msecs_to_jiffies((unsigned int)s->reprobe_ms))) {
		s->ceiling_ua = min(s->max_ua, s->ceiling_ua + sr_ua(s->p->step));
		s->quiet_since = jiffies;
	}
	/* R2: probe only while a loop holds the input (the draw at the limit, or VINDPM);
	 * a hold on the rung under a wall probes at its renewal only */
	if ((bits & CS_CHG_INREG_DPM) && s->blind_hold_uv <= 0 && sr_blind_probe(s, ibat_ua))
		return;
	sr_check_later(s, SR_STABLE);
}

/*
 * R3 on a linear charger read through its charge current (sr_ibus_from_ibat): the
 * system load stepped up under a draw that got all it asked, and IBUS is not known: it
 * lies between that draw (the reading's) and where the line puts VBUS, or at a wall
 * in between. Go under the draw before, by more than a wall drifting under it moves
 * between checks (SR_LOAD_STEP_UA): the charger's input current limit holds IBUS
 * there, on the line, a current the source just delivered, and the ramp climbs back a
 * verified step at a time (R2, R3), where a knee is seen as at any probe. The plateau
 * of the load before says nothing of the new one. Under the draw for those few checks
 * the battery carries the rest; taken for a knee under the draw before, the limit went
 * under what the system needs and the phone ran down (docs/safe-ramp.md, R3).
 */
static void sr_load_step(struct safe_ramp *s, const struct sr_reading *r)
{
	int lower = max(s->chip_min_ua,
			r->ibus_ua - sr_ua(s->p->knee_backoff) - SR_LOAD_STEP_UA);

	pr_info("safe-ramp: the system load stepped up over %d mA; limit %d mA", r->ibus_ua / 1000,
		min(lower, s->req_ua) / 1000);
	s->probing = false;
	s->plateau_ua = -1;
	s->plateau_ms = 0;
	sr_write(s, min(lower, s->req_ua));
	s->est_have = false;   /* the limit holds the input: IBUS is the limit */
	s->peak_ua = s->req_ua;
	sr_check_later(s, SR_RAMP);
}

/*
 * R5 on the twl4030: the step in flight (sr_fine_step) pulled VBUS off the line, under
 * the floor or into UVLO, or is not drawn: back to the value under it, verified a
 * moment ago, which is the ceiling from now on. True when it went back.
 */
static bool sr_fine_failed(struct safe_ramp *s, struct sr_reading *r)
{
	int cmin, cmax, cstep;

	if (!s->fine_from_ua)
		return false;
	if (s->req_ua != s->fine_req_ua) {
		s->fine_from_ua = 0;
		return false;
	}
	r->fit = sr_line_fit(&s->line);
	sr_against_line(s, r);
	/* off the line: below its knee where its slope is known, and in any case
	 * fallen from the reading a register value lower by more than a step on the
	 * line explains (sr_fine_fall_uv), as a wall's collapse towards the cell does */
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	if (!r->uvlo && r->v >= s->p->vbus_min && !r->below &&
	    r->vbus_uv >= s->fine_vbus_uv - sr_fine_fall_uv(s, cstep) &&
	    r->ibus_ua >= s->limit_ua - sr_ua(s->p->draw_tol))
		return false;
	pr_info("safe-ramp: %d mA is past the wall; limit %d mA", s->limit_ua / 1000,
		s->fine_from_ua / 1000);
	s->ceiling_ua = s->fine_from_ua;
	sr_write(s, s->fine_from_ua);
	s->fine_cap_ua = 0;
	s->fine_from_ua = 0;
	s->est_have = false;   /* the limit holds the input: IBUS is the limit */
	sr_check_later(s, SR_RAMP);
	return true;
}

/*
 * One check (R3, verify each step): the floor and the charger first (R6, R10), then a
 * VINDPM hold or test in flight (R11, R12), then the draw against the limit (R2) and
 * the line (R4, R5).
 */
static void sr_work(struct work_struct *work)
{
	struct safe_ramp *s = container_of(to_delayed_work(work), struct safe_ramp, work);
	struct sr_reading r;
	bool at_floor;

	if (!s->vbus || s->st == SR_IDLE || s->hiz)
		return;
	if (s->blind) {
		sr_blind_work(s);
		return;
	}
	if (s->ichg_wall_ua) {
		sr_ichg_check(s);
		return;
	}
	if (sr_adc_catching_up(s) || sr_bits_wall_under(s) || !sr_read(s, &r) ||
	    sr_fine_failed(s, &r))
		return;
	at_floor = r.uvlo || r.v < s->p->vbus_min;
	if (at_floor)
		sr_dpm_test_stop(s);   /* R12's lower VINDPM reached the floor: R6 decides */
	if (r.uvlo && r.v >= s->p->vbus_min && !s->probing) {
		sr_charger_stuck(s);
		return;
	}
	s->stuck_since = 0;
	r.fit = sr_line_fit(&s->line);
	if (sr_knee_under_floor(s, &r))
		return;
	if (at_floor) {
		sr_floor(s);
		return;
	}
	if (r.load_step && !s->dpm_test && !s->vmode) {
		sr_load_step(s, &r);
		return;
	}
	r.was_rising = s->rising;
	s->rising = false;
	r.following = r.ibus_ua >= s->limit_ua - sr_ua(s->p->draw_tol);
	sr_against_line(s, &r);
	/* R2 on the twl4030: a climb under a pin whose step is not drawn ends (sr_pin_step) */
	if (!r.following && sr_pin_step(s, false))
		return;
	/* Short of the limit and below the knee (R5): IBUS stopped short and VBUS fell
	 * faster than the path resistance explains: the adapter left its
	 * voltage-source region (its knee), probed or weakened. */
	if (s->dpm_test)
		sr_dpm_test_end(s, r.ibus_ua, r.vbus_uv, r.below);
	else if (s->vmode)
		sr_vmode_check(s, r.ibus_ua, r.vbus_uv, r.below);
	else if (r.following)
		sr_drawn(s, &r);
	else if (r.below)
		sr_knee_or_moved(s, &r);
	else if (s->probing)
		sr_probe_short(s, &r);
	else
		sr_draw_short(s, &r);
}

/* R4: VBUS with the charger not drawing is the line's zero-current point. */
static void sr_idle_point(struct safe_ramp *s)
{
	int vbus_uv, ibus_ua;

	if (cs_chg_read_adc(s->board->ic, CS_ADC_VBUS, &vbus_uv) == 0 &&
	    cs_chg_read_adc(s->board->ic, CS_ADC_IBUS, &ibus_ua) == 0 &&
	    ibus_ua < SR_IDLE_IBUS_UA && vbus_uv >= sr_ua(s->p->vbus_min))
		sr_line_add(&s->line, ibus_ua * 1e-6, vbus_uv * 1e-6);
}

/*
 * R7: the ceiling after a trip, `backoff` steps under the highest recent limit. On a
 * ladder (the bq24190's 100/150/500/900/1200/1500/2000/3000 mA input limits, TI SLUSAW5
 * REG00 IINLIM) the chip rounds a request down to a rung, so that ceiling may still
 * select the rung in force when VBUS went, and the ramp climbs back onto it and trips
 * again (field seed 2, setup 74: six trips at the 2 A rung, the ceiling 200 mA lower
 * each time). The rung in force at the loss is the one the source saw: the ceiling
 * goes under it, and R14 holds it when R9 comes back to it (sr_blind_tripped_rung).
 */
static void sr_trip_ceiling(struct safe_ramp *s, int step)
{
	int cmin, cmax, cstep;

	s->ceiling_ua = max(s->floor_ua, s->trip_limit_ua - s->p->backoff * step);
	cs_chg_input_current_range(s->board->ic, &cmin, &cmax, &cstep);
	if (cstep > 0 || s->trip_rung_ua <= s->floor_ua)
		return;
	s->ceiling_ua = min(s->ceiling_ua, max(s->floor_ua, s->trip_rung_ua - step));
	if (s->tripped_rung_ua <= 0 || s->trip_rung_ua < s->tripped_rung_ua)
		s->tripped_rung_ua = s->trip_rung_ua;
}

/* R2, R5 on the twl4030: a new session has no approach in flight, and no wall seen
 * moving (sr_pin_arm, sr_fine_arm). */
static void sr_approach_clear(struct safe_ramp *s)
{
	s->fine_cap_ua = 0;
	s->fine_from_ua = 0;
	s->fine_off = false;
	s->fine_pl = false;
	s->pinf_cap_ua = 0;
	s->pinf_from_ua = 0;
	s->knee_vbat_uv = 0;
}

/* R7, R9: a new port (not a trip's return) starts with no failure behind it. */
static void sr_fresh_port(struct safe_ramp *s)
{
	s->reprobe_ms = sr_ms(s->p->reprobe);
	s->fail_ua = -1;
	s->tripped_rung_ua = 0;
}

/* VBUS went: the limit then is the one a trip blames (R7), and every VINDPM a test or
 * a hold moved goes back to the charger's own for the next adapter (R11, R12, R14). */
static void sr_port_gone(struct safe_ramp *s)
{
	s->vbus = false;
	s->enumerated = false;
	if (s->hiz) {
		/* the next port starts with the input on */
		s->hiz = false;
		cs_chg_set_input_enable(s->board->ic, true);
	}
	s->lost_at = jiffies;
	/* A trip can come between a probe and its check, and the check may
	 * already have stepped back: the probe's limit is the one to blame. */
	s->trip_limit_ua = s->peak_ua;
	s->trip_rung_ua = s->limit_ua;
	cancel_delayed_work(&s->work);
	/* R11, R12: the next adapter gets the charger's own VINDPM. */
	sr_dpm_test_stop(s);
	if (s->bits_test_uv > 0)
		cs_chg_set_vindpm(s->board->ic, s->bits_test_uv);
	s->bits_test_uv = 0;
	if (s->blind_test_uv > 0)
		cs_chg_set_vindpm(s->board->ic, s->blind_test_uv);
	s->blind_test_uv = 0;
	s->blind_test_held = false;
	s->blind_last_ibat_ua = INT_MIN;
	sr_blind_hold_end(s);
	if (s->vmode) {
		s->vmode = false;
		cs_chg_set_vindpm(s->board->ic, s->vindpm_restore_uv);
	}
	sr_set_state(s, SR_IDLE);
}

static void sr_event(struct work_struct *work)
{
	struct safe_ramp *s = container_of(work, struct safe_ramp, event_work);
	int step = sr_ua(s->p->step);
	int knee_ua = -1;

	switch (s->event) {
	case USB_EVENT_NONE:
		sr_port_gone(s);
		return;
	case USB_EVENT_VBUS:
		s->vbus = true;
		s->enumerated = false;
		sr_line_reset(&s->line);
		s->est_have = false;
		sr_idle_point(s);
		return;
	case USB_EVENT_ENUMERATED:
		/* R8: the host granted a configuration (or suspended the bus): its
		 * current is the budget. */
		s->enumerated = true;
		if (!s->vbus || s->st == SR_IDLE)
			return;
		{
			int old_max = s->max_ua;

			sr_vmode_exit(s, false);
			sr_dpm_test_stop(s);
			sr_range(s);
			if (sr_hiz(s))
				return;
			if (s->ceiling_ua >= old_max || s->ceiling_ua > s->max_ua)
				s->ceiling_ua = s->max_ua;
			if (s->req_ua > s->ceiling_ua)
				sr_write(s, s->ceiling_ua);
		}
		return;
	default:
		break;
	}
	/* USB_EVENT_CHARGER: the type is known; start the ramp (R1). */
	s->vbus = true;
	sr_range(s);
	s->ceiling_ua = s->max_ua;
	if (s->lost_at && time_before(jiffies, s->lost_at + msecs_to_jiffies(sr_ms(s->p->trip_window))) &&
	    s->trip_limit_ua > 0) {
		/* R7: VBUS went and came back: the limit then was too much. */
		sr_trip_ceiling(s, step);
		pr_info("safe-ramp: VBUS returned after a trip; ceiling %d mA", s->ceiling_ua / 1000);
		/* R9: a trip is a failure at the level in force; again there doubles
		 * the wait before the ceiling may rise. */
		s->reprobe_ms = s->trip_limit_ua == s->fail_ua ?
			min(s->reprobe_ms * 2, SR_REPROBE_MAX_MS) : sr_ms(s->p->reprobe);
		s->fail_ua = s->trip_limit_ua;
		/* With no probe in flight (nothing runs between the loss and now), a
		 * held limit the draw reached tripped it: the draw then, the most the
		 * source was seen delivering, is a knee, unseen, that R2 holds under
		 * from now on. */
		if (!s->probing && s->seen_ua > 0 && s->seen_ua < INT_MAX)
			knee_ua = s->seen_ua;
	} else {
		sr_fresh_port(s);
	}
	s->quiet_since = jiffies;
	s->probing = false;
	s->plateau_ua = -1;
	s->plateau_ms = 0;
	s->vindpm_restore_uv = -1;
	s->dpm_test = false;
	s->dpm_moved = false;
	s->knee_ua = knee_ua;
	s->vindpm_bad_uv = 0;
	s->seen_ua = INT_MAX;
	s->last_vbus_uv = 0;
	s->knee_check = false;
	s->pl_tried = false;
	s->pl_seen = false;
	sr_approach_clear(s);
	s->wall_limit_ua = 0;
	s->wall_limit_failed = false;
	s->line_pin = false;
	sr_bits_clear(s);
	s->blind_last_ibat_ua = INT_MIN;
	s->rising = false;
	s->free_draw = false;
	s->limit_ua = -1;
	s->req_ua = -1;
	s->peak_ua = 0;
	sr_write(s, s->floor_ua);
	sr_set_state(s, SR_RAMP);
	mod_delayed_work(system_wq, &s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
	sr_hiz(s);   /* R8: a bus suspended before the detection */
}

static int sr_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct safe_ramp *s = container_of(nb, struct safe_ramp, nb);

	(void)data;
	if (event != USB_EVENT_VBUS && event != USB_EVENT_CHARGER && event != USB_EVENT_NONE &&
	    event != USB_EVENT_ENUMERATED)
		return NOTIFY_DONE;
	s->event = event;
	schedule_work(&s->event_work);
	return NOTIFY_OK;
}

/* R3 (verify each step): a chip whose ADC converts in windows shows a change only in a
 * conversion that started after it, up to two windows later: check no sooner. */
static int sr_adc_wait_ms(struct cs_charger_ic *ic)
{
	int us = max(cs_chg_adc_conv_time(ic, CS_ADC_VBUS), cs_chg_adc_conv_time(ic, CS_ADC_IBUS));

	return us > 0 ? 2 * ((us + 999) / 1000) : 0;
}

static int sr_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		    void **priv)
{
	struct safe_ramp *s = calloc(1, sizeof(*s));
	int lsb;

	(void)desc;
	if (!s)
		return -ENOMEM;
	s->board = board;
	s->p = params;
	lsb = cs_chg_adc_lsb(board->ic, CS_ADC_VBUS);
	s->vbus_lsb_v = lsb > 0 ? lsb * 1e-6 : 0;
	s->adc_wait_ms = sr_adc_wait_ms(board->ic);
	lsb = cs_chg_adc_lsb(board->ic, CS_ADC_IBAT);
	s->ibat_lsb_ua = max(lsb, 0);
	s->ibus_exact = cs_chg_adc_lsb(board->ic, CS_ADC_IBUS) == 0;
	/* R3: no input current ADC, no input regulation bits, no VINDPM: IBUS read
	 * through the charge current (the twl4030) */
	s->est_chip = cs_chg_adc_lsb(board->ic, CS_ADC_IBUS) == -ENODATA &&
		      cs_chg_get_input_regulation(board->ic) < 0 &&
		      cs_chg_get_vindpm(board->ic) < 0 && s->ibat_lsb_ua > 0;
	/* R14: no VBUS reading, only input regulation bits (the bq24190) */
	s->blind = cs_chg_adc_lsb(board->ic, CS_ADC_VBUS) == -ENODATA &&
		   cs_chg_get_input_regulation(board->ic) >= 0;
	s->nb.notifier_call = sr_notify;
	INIT_WORK(&s->event_work, sr_event);
	INIT_DELAYED_WORK(&s->work, sr_work);
	usb_register_notifier(board->phy, &s->nb);
	if (s->p->boot_vbat > 0)
		cs_boot_gate_vbat(board, sr_ua(s->p->boot_vbat));
	*priv = s;
	return 0;
}

static void sr_remove(void *priv)
{
	struct safe_ramp *s = priv;

	usb_unregister_notifier(s->board->phy, &s->nb);
	cancel_work_sync(&s->event_work);
	cancel_delayed_work_sync(&s->work);
	free(s);
}

const struct cs_policy_desc policy_safe_ramp = CS_POLICY_DESC(sr, "safe-ramp",
	"this project's ramp: probe only while drawing the limit, stop at the adapter's knee (VBUS below the source line), honour the USB budget, back off fast, re-ramp after trips");
