/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/pmic/pmic.h - the charger IC: input stage, charge controller, ADC, registers.
 *
 * What it captures: linear or switching topology; an input current limit register
 * (IINDPM) with [min, max, step] or a ladder of values and a write latency; optional
 * VINDPM; input UVLO with hysteresis and deglitch, restarting automatically or only
 * after VBUS went away (replug); input over-voltage protection (OVP) with hysteresis; precharge / CC / CV / termination with deglitch /
 * recharge / safety timer; power path with battery supplement (switching); ADC
 * channels with resolution, range, seeded gaussian noise, averaging and injected
 * stuck readings; an optional input current optimiser (ICO); a thermistor (TS) input
 * that reads the cell's temperature and suspends or reduces charging outside the
 * normal window (JEITA), with hysteresis; thermal regulation of the die (TREG).
 *
 * The electrical operating point is not computed here: the pmic describes its input
 * stage and charge targets to sim/solver.c (pmic_net()) and reacts to what the
 * solution shows (pmic_observe()). Register writes come from the stack (policy code)
 * only.
 */
#ifndef CS_MODELS_PMIC_H
#define CS_MODELS_PMIC_H

#include "models/model.h"

enum pmic_topology { PMIC_LINEAR, PMIC_SWITCHING };
enum pmic_restart { PMIC_RESTART_AUTO, PMIC_RESTART_REPLUG };
enum pmic_adc_chan { PMIC_ADC_VBUS, PMIC_ADC_IBUS, PMIC_ADC_VBAT, PMIC_ADC_IBAT, PMIC_ADC_COUNT };
enum charger_state {
	CHG_OFF, CHG_PRECHARGE, CHG_CC, CHG_CV, CHG_DONE, CHG_UVLO, CHG_FAULT, CHG_OVP,
	CHG_STATE_COUNT
};

/* The battery temperature zones of a charger's thermistor (TS) input, coldest first
 * (JEITA: cold and hot suspend charging, cool cuts the charge current, warm the
 * charge voltage). */
enum pmic_ts_zone { PMIC_TS_COLD, PMIC_TS_COOL, PMIC_TS_NORMAL, PMIC_TS_WARM, PMIC_TS_HOT,
		    PMIC_TS_ZONE_COUNT };

#define PMIC_LADDER_MAX 16
#define PMIC_VBUS_SESSION_V 0.8   /* BC1.2 session valid floor: below it VBUS is "gone" */
#define PMIC_REG_QUEUE 64          /* IINDPM writes in flight at once (reg_latency) */

struct pmic_adc_params {
	bool absent;         /* the chip has no such channel: a read says so */
	double lsb;          /* resolution (0 = ideal) */
	double offset;       /* value of code 0 */
	double full_scale;   /* highest reading (0 = unlimited) */
	double noise;        /* gaussian sigma of one sample */
	int average;         /* samples averaged per reading */
	/* Conversions run back to back, each this long (0: a read converts at once). A
	 * read returns the last completed one: the value at the start of its window. */
	sim_time_t conv_time;
};

/* A channel's conversion windows (conv_time): the window under way, the value at its
 * start, the value of the last completed one, and the reading last made of it. */
struct pmic_adc_conv {
	bool have, read_have;
	int64_t win, read_win;
	double start, done, last, reading;
};

/* How the chip reports its input regulation loops (IINDPM, VINDPM) to its driver. */
enum pmic_dpm_stat {
	PMIC_DPM_STAT_NONE,      /* no status bit */
	PMIC_DPM_STAT_COMBINED,  /* one bit: either loop (bq24190 REG08 DPM_STAT) */
	PMIC_DPM_STAT_SEPARATE,  /* one bit each (bq25890 REG13 VDPM_STAT, IDPM_STAT) */
};

/* The TS input's windows, on the cell's temperature (TI's T1 < T2 < T3 < T5): below
 * t1 and above t5 charging is suspended; from t1 to t2 the fast-charge current is
 * cool_ichg of ichg; from t3 to t5 the charge voltage is vreg - warm_vreg_drop and the
 * current warm_ichg of ichg. A zone is left only hyst kelvin past its edge, towards
 * normal (a chip with a plain cold/hot window has t2 = t1 and t3 = t5). */
struct pmic_ts_params {
	bool enabled;
	double t1, t2, t3, t5;                  /* C */
	double t1_hyst, t2_hyst, t3_hyst, t5_hyst;  /* K */
	double cool_ichg, warm_ichg;            /* fractions of ichg */
	double warm_vreg_drop;                  /* V */
};

struct pmic_params {
	int preset;
	int topology;
	double iindpm_min, iindpm_max, iindpm_step, iindpm_default;
	int ladder_n;
	double ladder[PMIC_LADDER_MAX];
	sim_time_t reg_latency;
	double vindpm;
	/* The VINDPM register a driver writes: values min + k * step up to max (step 0:
	 * any value). The scenario's own "vindpm" is the threshold itself, not a write. */
	double vindpm_min, vindpm_max, vindpm_step;
	double uvlo_falling, uvlo_rising;
	sim_time_t uvlo_deglitch, t_restart;
	sim_time_t t_replug;     /* VBUS must stay below session-valid this long to count as unplugged */
	int restart;
	double ichg, ipre, vlowv, vreg, iterm, vrechg_delta;
	sim_time_t t_term, safety_timer;
	double efficiency, r_on, vsys_min;
	bool ico;
	double ico_start;        /* ICO: first input limit */
	double ico_step;         /* ICO: increment */
	sim_time_t ico_interval; /* ICO: time per increment */
	struct pmic_adc_params adc[PMIC_ADC_COUNT];
	int dpm_stat;            /* enum pmic_dpm_stat */
	double ovp_rising;       /* input OVP: disconnect above this (0 = none) */
	double ovp_falling;      /* input OVP cleared below this */
	bool hiz;                /* an input high-impedance mode a driver can switch on */
	struct pmic_ts_params ts; /* battery temperature windows (JEITA) */
	/* Thermal regulation: the die at ambient + theta_ja * the charger's loss; above
	 * treg the charge current is cut to hold it at treg (0 = none). */
	double treg;             /* C */
	double theta_ja;         /* K/W, junction to ambient */
};

struct pmic {
	struct pmic_params *p;
	struct sim *sim;
	struct evlog *log;
	model_changed_fn *changed;
	void *ctx;

	bool connected;        /* input stage on */
	bool uvlo;             /* disconnected by UVLO since the last connect */
	bool ovp;              /* input over-voltage: the input stays off */
	bool replug_wait;      /* restart = replug: waiting for VBUS to go away */
	bool done, fault;
	bool charge_enabled;   /* the driver's charge enable */
	bool hiz;              /* the driver's input disable */
	double iindpm;         /* effective input limit, A */
	struct {
		sim_time_t at;
		double amps;
	} reg_q[PMIC_REG_QUEUE];  /* IINDPM writes in flight (reg_latency), oldest first */
	int reg_n;
	double ico_limit;      /* ICO's own ceiling while it searches (ico_running), A */
	bool ico_running;
	double ico_result;

	bool cond_low, cond_good, cond_term, cond_gone;
	bool precharge;        /* last regulation phase seen (CV: last_flags) */
	bool phase_set;        /* precharge decided for this charge cycle */
	unsigned last_flags;   /* flags of the last operating point (CV, ICO's VINDPM) */
	enum charger_state state;

	struct sim_event ev_reg, ev_uvlo, ev_connect, ev_term, ev_safety, ev_ico, ev_gone;
	const struct battery_params *cell;  /* for the start-of-run check (may be NULL) */
	struct {
		bool stuck;
		double value;
		struct sim_event ev_end;
	} stuck[PMIC_ADC_COUNT];
	struct pmic_adc_conv conv[PMIC_ADC_COUNT];
	int uvlo_events;
	enum pmic_ts_zone ts_zone; /* the cell's temperature zone (PMIC_TS_NORMAL: TS off) */
	bool ts_known;             /* ts_zone read from a temperature yet */
	bool treg_active;          /* thermal regulation holds the die at treg */
	double treg_ichg;          /* the charge current it allows, A (while active) */
};

extern const struct param_desc pmic_param_desc[];
extern const char *const pmic_preset_names[];
extern const char *const charger_state_names[];
extern const char *const pmic_adc_names[];
extern const char *const pmic_ts_zone_names[];
extern const char *const pmic_dpm_stat_names[];

/* params: a struct pmic_params */
void pmic_params_default(void *params, int preset);

void pmic_init(struct pmic *c, struct pmic_params *p, struct sim *sim, struct evlog *log,
	       model_changed_fn *changed, void *ctx);
void pmic_cleanup(void *pmic);   /* a struct pmic; also its model_desc cleanup */
/* Describe the input stage and the charge targets for the solver. */
void pmic_net(const struct pmic *c, struct net_in *in);
/* React to the operating point: UVLO, connect, termination, recharge, phases. */
void pmic_observe(struct pmic *c, const struct net_out *op, bool vbus_attached);

/* The register interface the stack uses. Values are rounded to the register. */
double pmic_quantize_iindpm(const struct pmic_params *p, double amps);
double pmic_write_iindpm(struct pmic *c, double amps);
/* The same for a register-level chip model, logged as CHIP/ilim_set with the value
 * asked and the one the register holds. */
void pmic_write_iindpm_as(struct pmic *c, const char *chip, double amps);
void pmic_set_charge_enable(struct pmic *c, bool on);
void pmic_set_hiz(struct pmic *c, bool on);
void pmic_write_ichg(struct pmic *c, double amps);
void pmic_write_vreg(struct pmic *c, double volts);
void pmic_write_vindpm(struct pmic *c, double volts);
/* What the VINDPM register holds after a write of `volts`: clamped to its range and
 * rounded down to its step, as a driver computes a register code; `volts` itself on a
 * chip whose register takes any value (vindpm_step 0). */
double pmic_vindpm_register(const struct pmic_params *p, double volts);
void pmic_start_ico(struct pmic *c);
/* One ADC reading of the true value, with quantisation, range, noise, averaging,
 * or the stuck value while a fault is injected. With a conversion time, the reading
 * is of the last completed conversion (the value at its window's start), the same
 * for every read until the next one completes. Not for an absent channel. */
double pmic_adc_read(struct pmic *c, enum pmic_adc_chan ch, double true_value);
/* Note a channel's true value now, for its conversion windows (pmic_observe() does
 * this for every channel). */
void pmic_adc_track(struct pmic *c, enum pmic_adc_chan ch, double value);
/* Make every ADC channel ideal: present, exact, at once (the "ideal" sensing). */
void pmic_adc_ideal(struct pmic_params *p);
void pmic_adc_stick(struct pmic *c, enum pmic_adc_chan ch, double value, sim_time_t dur);

#endif
