/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/phy/phy.h - charger detection in simulated time: BC1.2, Type-C current, PD.
 *
 * On attach the PHY reads the port electrically, with the spec's timing:
 *  BC1.2 [BC1.2 tables]: data contact detect (IDP_SRC on D+, D+ low for TDCD_DBNC, or
 *   give up after TDCD_TIMEOUT), primary detection (VDP_SRC on D+, read D- after
 *   TVDPSRC_ON: below VDAT_REF SDP, up to VLGC CDP-or-DCP, above VLGC proprietary),
 *   secondary detection (VDM_SRC on D-, read D+ after TVDMSRC_ON: above VDAT_REF DCP,
 *   else CDP), proprietary divider classification (Apple, Samsung), ACA from the ID
 *   resistance. Voltages come from the port's and cable's signature (a floating or
 *   late data line reads as the PHY's own sinks pull it).
 *  Type-C [Type-C 1.x]: the CC voltage of the port's Rp across the sink's Rd (5.1 k)
 *   after tCCDebounce gives Default / 1.5 A / 3.0 A; an Rp change is followed within
 *   tSinkAdj. Default Rp falls back to BC1.2.
 *  PD [USB PD]: Source_Capabilities, Request (PDO picked by a rule), Accept, the
 *   source's transition, PS_RDY, with tSrcTransition and tPSTransition.
 * Each step is logged (`detect_step`, `pd_msg`); the result goes to the owner through
 * a callback. The PHY's VBUS comparator is debounced (t_vbus_debounce): a trip or a
 * collapse below vbus_valid looks like an unplug to the device, a return like a new
 * plug; the owner hears of it first, then detection starts or stops.
 */
#ifndef CS_MODELS_PHY_H
#define CS_MODELS_PHY_H

#include "models/cable/cable.h"
#include "models/source/source.h"

enum phy_port {
	PHY_PORT_NONE, PHY_PORT_SDP, PHY_PORT_CDP, PHY_PORT_DCP, PHY_PORT_ACA,
	PHY_PORT_APPLE_1A, PHY_PORT_APPLE_2_1A, PHY_PORT_APPLE_2_4A, PHY_PORT_SAMSUNG_2A,
	PHY_PORT_PROPRIETARY, PHY_PORT_TYPEC_1A5, PHY_PORT_TYPEC_3A0, PHY_PORT_PD,
	PHY_PORT_COUNT
};

enum phy_pd_rule { PHY_PD_MAX_POWER, PHY_PD_MAX_VOLTAGE, PHY_PD_5V };

struct phy_params {
	double vbus_valid;               /* VBUS above this is a session (BC1.2 VOTG_SESS_VLD) */
	sim_time_t t_vbus_debounce;      /* VBUS must stay on the new side this long */
	bool bc12;                       /* run BC1.2 detection at all */
	bool dcd;                        /* run data contact detect first */
	sim_time_t t_dcd_dbnc, t_dcd_timeout, t_vdpsrc_on, t_vdmsrc_on, t_margin;
	double vdat_ref, vlgc, vdp_src, idp_src, idm_sink, rdm_dwn;
	sim_time_t t_cc_debounce, t_sink_adj;
	double rd;
	sim_time_t t_pd_caps, t_pd_request, t_pd_accept, t_src_transition, t_ps_ready;
	int pd_rule;                     /* enum phy_pd_rule */
	double pd_max_v;                 /* highest voltage the sink accepts */
};

struct phy_result {
	enum phy_port port;
	double current_a;                /* what the detected port type allows by spec */
	bool data;                       /* a USB host is on the data lines */
};

typedef void (*phy_result_cb)(void *ctx, const struct phy_result *r);
typedef void (*phy_vbus_cb)(void *ctx, bool valid);

struct phy {
	struct phy_params *p;
	const struct source_params *sp;
	const struct cable_params *cp;
	struct source *src;
	struct sim *sim;
	struct evlog *log;
	phy_vbus_cb vbus;                /* the owner: the debounced VBUS comparator changed */
	phy_result_cb result;            /* the owner: a detection result */
	void *ctx;
	bool vbus_seen;                  /* the comparator's debounced output: a VBUS session */
	bool vbus_cond;                  /* VBUS is on the other side of vbus_valid */
	struct sim_event ev_vbus;
	bool attached;
	int stage;
	int rp_seen;                     /* enum source_rp, -1 none */
	int pd_index;                    /* selected PDO */
	struct phy_result last;
	struct sim_event ev_step;
	struct sim_event ev_rp;
};

extern const struct param_desc phy_param_desc[];
extern const char *const phy_port_names[];

void phy_params_default(struct phy_params *p);
/* The PHY reads the port `src` (and hears of its Rp changes) through the cable. */
void phy_init(struct phy *ph, struct phy_params *p, const struct source_params *sp,
	      const struct cable_params *cp, struct source *src, struct sim *sim,
	      struct evlog *log);
/* Who hears the VBUS comparator and the detection results (the board). */
void phy_set_owner(struct phy *ph, phy_vbus_cb vbus, phy_result_cb result, void *ctx);
void phy_cleanup(void *phy);   /* a struct phy; also its model_desc cleanup */
/* The data lines as a BC1.2 detector with this PHY's analog front end (its VDP_SRC,
 * IDM_SINK, the cable's data contact) reads them, for a detector of its own (a PMIC's
 * BC module, models/axp288): when D+ first reads low under IDP_SRC during data contact
 * detect (SIM_TIME_NEVER: it never does - floating lines, a divider holding D+ up, an
 * open port), D- with VDP_SRC on D+ (primary detection) and D+ with VDM_SRC on D-
 * (secondary detection), in volts, now. */
sim_time_t phy_bc12_dcd_low_at(const struct phy *ph);
double phy_bc12_primary_dm(const struct phy *ph);
double phy_bc12_secondary_dp(const struct phy *ph);

/* Type-C CC voltage for an Rp level across Rd (pull-up to 5 V), and its reading. */
double phy_cc_voltage(int rp, double rd);
int phy_cc_level(double v);      /* enum source_rp, or -1 outside every window */

#endif
