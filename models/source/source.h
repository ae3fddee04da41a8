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
	int port;                  /* enum source_port: host budget root / bus-powered hub */
	bool usb3;
	sim_time_t t_enumerate;    /* host enumerates this long after connect */
	bool ilim_from_rp;         /* Type-C: ilim follows the Rp advertisement */
};

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

/* The port's output is on: a port plugged in and not tripped. A cable's dropout
 * leaves it on (VBUS falls with the port on: what a metric must see). state: the
 * source model's. */
bool source_port_on(const void *state);

#endif
