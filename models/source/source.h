/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/source/source.h - the charging port: adapter, host port or PD source.
 *
 * Electrical law (seen at the port's terminals):
 *   V = Voc - Rout*I                        for I below the current limit
 *   I = Ilim (brick wall)  or  I = Ishort + (Ilim - Ishort) * V / Vknee  (foldback)
 * Protection: the port trips when V stays below v_shutdown for t_trip, when it stays
 * in current limit longer than t_limit_max (if set), or (host ports) when the current
 * stays above the power switch's ocp threshold for t_ocp. A trip turns the output off:
 * hiccup restarts after t_off, latch stays off until unplug (or t_recover), a host
 * switch auto-retries after t_off.
 *
 * The port also carries what the PHY reads (data-line signature, Rp, PDOs); the
 * detection that reads them is in models/phy.
 *
 * Budget: what the port allows the device to draw at each instant, by the rules of
 * its kind, measured against the current it really draws (source_budget()):
 *   USB 2.0 / 3.x host port (sdp, sdp-usb3, a Type-C port with Default Rp and a
 *     host): one unit load unconfigured, 100 mA (150 mA SuperSpeed) [USB 2.0 7.2.1],
 *     the configuration's MaxPower once configured [USB 2.0 9.6.3], 2.5 mA while the
 *     host has suspended the bus [USB 2.0 7.2.3];
 *   cdp: 1.5 A [BC1.2 ICDP, 4.6.1], configured or not, suspended or not;
 *   typec: its Rp advertisement, 1.5 A or 3.0 A (the USB suspend rule does not apply
 *     there [Type-C, USB Type-C Current]); Default Rp without a host: 500 mA (900 mA USB 3), or no
 *     USB budget when the port also shorts D+/D- as a BC1.2 DCP;
 *   pd: the contract's current once one is made, the Rp advertisement before;
 *   dcp, aca (its charger port is a dedicated charger) and proprietary chargers: no
 *     USB budget (their limit is their own output stage, which the circuit models):
 *     never over budget.
 * A drop of the allowance gives the device the spec's time to follow before the
 * excess counts: 10 ms after a suspend [USB 2.0 7.1.7.6], tSinkAdj (60 ms) after an
 * Rp change [Type-C]. The VBUS floor follows the contract too: 95 % of the
 * negotiated voltage (4.75 V at 5 V [USB 2.0 Table 7-7: 4.75-5.25 V], 8.55 V at 9 V).
 */
#ifndef CS_MODELS_SOURCE_H
#define CS_MODELS_SOURCE_H

#include "models/model.h"

enum source_kind {
	SRC_KIND_NONE, SRC_KIND_SDP, SRC_KIND_SDP_USB3, SRC_KIND_CDP, SRC_KIND_DCP,
	SRC_KIND_APPLE_1A, SRC_KIND_APPLE_2_1A, SRC_KIND_APPLE_2_4A, SRC_KIND_SAMSUNG_2A,
	SRC_KIND_ACA, SRC_KIND_TYPEC, SRC_KIND_PD, SRC_KIND_COUNT
};
enum source_overload { SRC_OVL_CC, SRC_OVL_FOLDBACK, SRC_OVL_HICCUP, SRC_OVL_LATCH, SRC_OVL_NONE };
enum source_rp { SRC_RP_DEFAULT, SRC_RP_1A5, SRC_RP_3A0 };
enum source_port { SRC_PORT_ROOT, SRC_PORT_HUB };
enum source_state { SRC_DETACHED, SRC_ON, SRC_LIMITING, SRC_TRIPPED, SRC_STATE_COUNT };

#define SOURCE_MAX_PDOS 7

struct source_pdo {
	double v, i;               /* fixed supply PDO: volts, amps */
};

/* A USB PD 3.0 programmable power supply APDO (PPS): the sink asks for any voltage in
 * [vmin, vmax] in 20 mV steps and an operating current up to i in 50 mA steps; the
 * source then regulates that voltage and holds its current at the operating current
 * (CV/CL). p: the APDO's power limit, W (0 = none: v * i). */
struct source_apdo {
	double vmin, vmax, i, p;
};

struct source_params {
	int kind;                  /* enum source_kind */
	double voc, rout, ilim, ishort;
	int overload;              /* enum source_overload */
	double v_shutdown;
	sim_time_t t_trip, t_limit_max, t_off, t_recover;
	double ocp;                /* host-port switch threshold, 0 = none */
	sim_time_t t_ocp;
	/* what the PHY sees */
	double dcp_short_ohm;      /* D+ to D- resistance of a DCP */
	double dp_v, dm_v;         /* divider voltages on D+ / D- (Apple, Samsung), 0 = none */
	bool data;                 /* a USB host behind the data lines (SDP, CDP) */
	bool cdp;                  /* drives VDM_SRC on D- during primary detection */
	double rid_ohm;            /* ACA: ID pin resistance */
	int rp;                    /* enum source_rp (Type-C / PD) */
	bool typec;                /* presents Rp on CC */
	int n_pdos;
	struct source_pdo pdos[SOURCE_MAX_PDOS];
	int n_apdos;               /* PPS APDOs, after the fixed PDOs in `pdos` */
	struct source_apdo apdos[SOURCE_MAX_PDOS];
	int port;                  /* enum source_port: host budget root / bus-powered hub */
	bool usb3;
	sim_time_t t_enumerate;    /* host enumerates this long after connect */
	bool ilim_from_rp;         /* Type-C: ilim follows the Rp advertisement */
	bool contract_limit;       /* PD: the output is limited to the contract's current */
	double pmax;               /* power limit at the terminals, W (0 = none) */
	double ilim_tolerance;     /* ilim is drawn once per run within +-this fraction */
	double ilim_drift;         /* fraction ilim moves by once the adapter is warm */
	sim_time_t drift_tau;      /* time constant of that warming and cooling */
	double pps_v, pps_i;       /* the sink's PPS request (0 = none; pps_i 0: the APDO's) */
};

/* What the USB host has granted the device (told by the board, run/board.c). */
struct source_host {
	int config_ma;             /* the configuration's MaxPower, mA; -1 = unconfigured */
	bool suspended;            /* the host has suspended the bus */
	bool superspeed;           /* the link runs at SuperSpeed (a 150 mA unit load) */
};

/* A drawn excess up to this charge (C) is within the tolerance of the OVER BUDGET
 * flag: the inrush USB 2.0 7.2.4.1 allows at attach, 10 uF charged to 5.0 V (the
 * compliance test's 50 uC). Far below an excess that lasts: 400 mA above one unit
 * load for the 61 ms before a host configures the device is 24 mC. */
#define SOURCE_OVER_BUDGET_TOL_C 50e-6

/* Does an over_budget_mAh figure pass the tolerance (the run is OVER BUDGET)? */
static inline bool source_over_budget(double over_budget_mah)
{
	return over_budget_mah * 3.6 > SOURCE_OVER_BUDGET_TOL_C;
}

struct source {
	struct source_params *p;
	struct sim *sim;
	struct evlog *log;
	model_changed_fn *changed;
	void *ctx;
	bool attached;
	sim_time_t t_attached;     /* when the cable was last plugged in */
	bool tripped;
	bool cond_uv, cond_limit, cond_oc;  /* conditions seen at the last operating point */
	double v_contract;         /* PD: negotiated voltage (0 = default 5 V level) */
	double i_contract;         /* PD: negotiated current, A (0 = none) */
	struct sim_event ev_uv, ev_limit, ev_oc, ev_recover;
	int trips;
	void (*rp_changed)(void *ctx);   /* told when a `set` changes the Rp advertisement */
	void *rp_ctx;
	struct source_host host;
	int rp_last;               /* the Rp advertisement before a `set` (enum source_rp) */
	/* after a drop of the allowance, the one before holds until grace_until */
	double budget_before;
	sim_time_t grace_until;
	double over_s, over_c;     /* time (s) and charge (C) drawn above the allowance */
	double below_s;            /* time VBUS spent below 95 % of the negotiated voltage */
	/* the adapter's limit as built and as warmed: ilim * tol_factor * (1 + drift * warm) */
	double tol_factor;         /* 1 + ilim_tolerance * u, u drawn once from the run's seed */
	double warm;               /* 0 cold .. 1 warm (delivering for long) */
	double drift_on_s;         /* time (s) the port delivered since the last drift tick */
	struct sim_event ev_drift;
};

extern const struct param_desc source_param_desc[];
extern const char *const source_kind_names[];
extern const char *const source_state_names[];

/* params: a struct source_params */
void source_params_default(void *params, int kind);

void source_init(struct source *s, struct source_params *p, struct sim *sim,
		 struct evlog *log, model_changed_fn *changed, void *ctx);
void source_cleanup(void *source);   /* a struct source; also its model_desc cleanup */
void source_attach(struct source *s, bool attached);
/* The port's rated current (what it advertises), for documentation and metrics. */
double source_rated_current(const struct source_params *p);
/* Who reads the Rp advertisement (the PHY's CC comparator) and must hear of a change. */
void source_watch_rp(struct source *s, void (*rp_changed)(void *ctx), void *ctx);
/* PD: the source switches to voltage v (0 = back to its default level). */
void source_set_contract(struct source *s, double v, double i);
/* The USB host's grant changed (configuration, suspend, link speed). */
void source_set_host(struct source *s, const struct source_host *h);
/* What the port allows the device to draw now, A: INFINITY for a port with no USB
 * budget (a DCP, a proprietary charger), 0 while unplugged. */
double source_budget(const struct source *s);
/* The negotiated VBUS voltage now: 5 V, or a PD contract's. */
double source_nominal_v(const struct source *s);

/* The port's output is on: a port plugged in and not tripped. A cable's dropout
 * leaves it on (VBUS falls with the port on: what a metric must see). state: the
 * source model's. */
static inline bool source_port_on(const void *state)
{
	const struct source *s = state;

	return s && s->attached && !s->tripped;
}

#endif
