// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/phy/phy.c - BC1.2 / Type-C / PD detection state machine (see phy.h).
 *
 * Defaults and where they come from [BC1.2 tables as published via Zephyr usb_bc12.h,
 * onsemi and TI application notes; Type-C 1.x; USB PD]:
 *   TDCD_DBNC >= 10 ms -> 10 ms; TDCD_TIMEOUT 300-900 ms -> 600 ms;
 *   TVDPSRC_ON, TVDMSRC_ON >= 40 ms -> 40 ms; VDAT_REF 0.25-0.40 V -> 0.325 V;
 *   VLGC 0.8-2.0 V -> 0.8 V; VDP_SRC/VDM_SRC 0.5-0.7 V -> 0.6 V; IDP_SRC 7-13 uA ->
 *   10 uA; IDM_SINK 25-175 uA -> 100 uA; RDM_DWN 14.25-24.8 kohm -> 15 kohm;
 *   tCCDebounce 100-200 ms -> 150 ms; tSinkAdj <= 60 ms -> 40 ms; Rd 5.1 kohm;
 *   Rp to 5 V: 56 k / 22 k / 10 k; sink windows 0.25-0.61 / 0.70-1.16 / 1.31-2.04 V;
 *   tSrcTransition 25-35 ms -> 30 ms; tPSTransition 450-550 ms bounds PS_RDY after
 *   Accept (the model sends it 30 + 50 ms after Accept); the source's first
 *   Source_Capabilities 50 ms after the sink attached (well inside
 *   tTypeCSinkWaitCap 310-620 ms); 10 ms to answer (tSenderResponse <= 30 ms).
 *   ACA ID windows RID_A 122-126 k, RID_B 67-69 k, RID_C 36-37 k [BC1.2].
 *   Apple/Samsung classification tolerance +-0.25 V around 1.2 / 2.0 / 2.7 V (the
 *   published divider voltages; the tolerance is this model's choice).
 * The ~1 ms PHY processing margin after each reading (t_margin), the 2.0 V
 * session-valid threshold (inside BC1.2's 0.8-4.0 V) and the 10 ms VBUS debounce are
 * assumptions.
 */
#include <math.h>
#include <string.h>
#include "models/phy/phy.h"
#include "sim/evlog.h"

enum {
	STAGE_IDLE, STAGE_CC, STAGE_DCD, STAGE_PRIMARY, STAGE_SECONDARY, STAGE_DONE,
	STAGE_PD_CAPS, STAGE_PD_REQUEST, STAGE_PD_ACCEPT, STAGE_PD_TRANSITION, STAGE_PD_READY,
};

const char *const phy_port_names[] = {
	"none", "sdp", "cdp", "dcp", "aca", "apple-1a", "apple-2.1a", "apple-2.4a",
	"samsung-2a", "proprietary", "typec-1.5a", "typec-3.0a", "pd", NULL,
};
G_STATIC_ASSERT(G_N_ELEMENTS(phy_port_names) == PHY_PORT_COUNT + 1);

/* How Linux reports each port (power_supply type strings): proprietary chargers are
 * dedicated charging ports to the kernel. */
static const char *const phy_port_psy_type[] = {
	"Unknown", "USB", "USB_CDP", "USB_DCP", "USB_ACA", "USB_DCP", "USB_DCP", "USB_DCP",
	"USB_DCP", "USB_DCP", "USB_C", "USB_C", "USB_PD",
};
G_STATIC_ASSERT(G_N_ELEMENTS(phy_port_psy_type) == PHY_PORT_COUNT);

static const char *const pd_rule_names[] = { "max_power", "max_voltage", "5v", NULL };

#define OFF(f) offsetof(struct phy_params, f)
const struct param_desc phy_param_desc[] = {
	{ "vbus_valid", PARAM_NUM, UNIT_VOLT, OFF(vbus_valid), 0.8, 4.0,
	  .doc = "session-valid threshold (BC1.2: 0.8-4.0 V)" },
	{ "t_vbus_debounce", PARAM_TIME, .off = OFF(t_vbus_debounce), .min = 0, .max = 10,
	  .doc = "VBUS must stay valid (or gone) this long before the PHY reports it" },
	{ "bc12", PARAM_BOOL, .off = OFF(bc12), .doc = "run BC1.2 detection" },
	{ "dcd", PARAM_BOOL, .off = OFF(dcd), .doc = "run data contact detect before primary detection" },
	{ "t_dcd_dbnc", PARAM_TIME, .off = OFF(t_dcd_dbnc), .min = 0, .max = 10, .doc = "TDCD_DBNC" },
	{ "t_dcd_timeout", PARAM_TIME, .off = OFF(t_dcd_timeout), .min = 0, .max = 10, .doc = "TDCD_TIMEOUT" },
	{ "t_vdpsrc_on", PARAM_TIME, .off = OFF(t_vdpsrc_on), .min = 0, .max = 10, .doc = "TVDPSRC_ON" },
	{ "t_vdmsrc_on", PARAM_TIME, .off = OFF(t_vdmsrc_on), .min = 0, .max = 10, .doc = "TVDMSRC_ON" },
	{ "t_margin", PARAM_TIME, .off = OFF(t_margin), .min = 0, .max = 10, .doc = "PHY processing time per reading" },
	{ "vdat_ref", PARAM_NUM, UNIT_VOLT, OFF(vdat_ref), 0, 5, .doc = "VDAT_REF" },
	{ "vlgc", PARAM_NUM, UNIT_VOLT, OFF(vlgc), 0, 5, .doc = "VLGC" },
	{ "vdp_src", PARAM_NUM, UNIT_VOLT, OFF(vdp_src), 0, 5, .doc = "VDP_SRC / VDM_SRC" },
	{ "idp_src", PARAM_NUM, UNIT_AMP, OFF(idp_src), 0, 1, .doc = "IDP_SRC (data contact detect)" },
	{ "idm_sink", PARAM_NUM, UNIT_AMP, OFF(idm_sink), 0, 1, .doc = "IDM_SINK / IDP_SINK" },
	{ "rdm_dwn", PARAM_NUM, UNIT_OHM, OFF(rdm_dwn), 0, 1e6, .doc = "RDM_DWN" },
	{ "t_cc_debounce", PARAM_TIME, .off = OFF(t_cc_debounce), .min = 0, .max = 10, .doc = "tCCDebounce" },
	{ "t_sink_adj", PARAM_TIME, .off = OFF(t_sink_adj), .min = 0, .max = 10, .doc = "tSinkAdj (follow an Rp change)" },
	{ "rd", PARAM_NUM, UNIT_OHM, OFF(rd), 1, 1e6, 0, .doc = "sink's Rd on CC" },
	{ "t_pd_caps", PARAM_TIME, .off = OFF(t_pd_caps), .min = 0, .max = 10, .doc = "Source_Capabilities after CC attach" },
	{ "t_pd_request", PARAM_TIME, .off = OFF(t_pd_request), .min = 0, .max = 10, .doc = "sink's Request after the capabilities" },
	{ "t_pd_accept", PARAM_TIME, .off = OFF(t_pd_accept), .min = 0, .max = 10, .doc = "source's Accept after the Request" },
	{ "t_src_transition", PARAM_TIME, .off = OFF(t_src_transition), .min = 0, .max = 10, .doc = "tSrcTransition" },
	{ "t_ps_ready", PARAM_TIME, .off = OFF(t_ps_ready), .min = 0, .max = 10, .doc = "supply settling before PS_RDY" },
	{ "pd_rule", PARAM_ENUM, .off = OFF(pd_rule), .choices = pd_rule_names,
	  .doc = "PDO choice: max_power, max_voltage or 5v" },
	{ "pd_max_v", PARAM_NUM, UNIT_VOLT, OFF(pd_max_v), 5, 21, .doc = "highest PDO voltage the sink accepts" },
	PARAM_END,
};
#undef OFF

void phy_params_default(struct phy_params *p)
{
	*p = (struct phy_params){
		.vbus_valid = 2.0, .t_vbus_debounce = 10 * SIM_MS, .bc12 = true, .dcd = true,
		.t_dcd_dbnc = 10 * SIM_MS, .t_dcd_timeout = 600 * SIM_MS,
		.t_vdpsrc_on = 40 * SIM_MS, .t_vdmsrc_on = 40 * SIM_MS, .t_margin = 1 * SIM_MS,
		.vdat_ref = 0.325, .vlgc = 0.8, .vdp_src = 0.6, .idp_src = 10e-6,
		.idm_sink = 100e-6, .rdm_dwn = 15000, .t_cc_debounce = 150 * SIM_MS,
		.t_sink_adj = 40 * SIM_MS, .rd = 5100, .t_pd_caps = 50 * SIM_MS,
		.t_pd_request = 10 * SIM_MS, .t_pd_accept = 5 * SIM_MS,
		.t_src_transition = 30 * SIM_MS, .t_ps_ready = 50 * SIM_MS,
		.pd_rule = PHY_PD_MAX_POWER, .pd_max_v = 9.0,
	};
}

double phy_cc_voltage(int rp, double rd)
{
	double rp_ohm = rp == SRC_RP_3A0 ? 10e3 : rp == SRC_RP_1A5 ? 22e3 : 56e3;

	return 5.0 * rd / (rp_ohm + rd);
}

int phy_cc_level(double v)
{
	if (v >= 0.25 && v <= 0.61)
		return SRC_RP_DEFAULT;
	if (v >= 0.70 && v <= 1.16)
		return SRC_RP_1A5;
	if (v >= 1.31 && v <= 2.04)
		return SRC_RP_3A0;
	return -1;
}

/* ---- reading the lines ---- */

static bool phy_contact(const struct phy *ph)
{
	switch (ph->cp->data) {
	case CABLE_DATA_CONNECTED: return true;
	case CABLE_DATA_FLOATING: return false;
	default: return sim_now(ph->sim) >= ph->src->t_attached + ph->cp->data_late;
	}
}

static bool port_has_divider(const struct source_params *sp)
{
	return sp->dp_v > 0 || sp->dm_v > 0;
}

/* During DCD: D+ reads low once the lines touch a port that pulls it down (host
 * pull-downs, a DCP short to the PHY's RDM_DWN on D-); a divider holds it high. */
static bool port_pulls_dp_low(const struct source_params *sp)
{
	return !port_has_divider(sp) && (sp->data || sp->dcp_short_ohm > 0 || sp->rid_ohm > 0);
}

static bool dcd_dp_low(const struct phy *ph)
{
	return phy_contact(ph) && port_pulls_dp_low(ph->sp);
}

/* A DCP's D+/D- short: VDP_SRC (or VDM_SRC) less the drop of the PHY's IDM_SINK. */
static double dcp_short_v(const struct phy *ph)
{
	return fmax(0, ph->p->vdp_src - ph->p->idm_sink * ph->sp->dcp_short_ohm);
}

static double primary_dm(const struct phy *ph)
{
	const struct source_params *sp = ph->sp;
	const struct phy_params *p = ph->p;

	if (!phy_contact(ph))
		return 0;  /* IDM_SINK pulls a floating D- down */
	if (port_has_divider(sp))
		return sp->dm_v;
	if (sp->cdp)
		return p->vdp_src;  /* the CDP answers with VDM_SRC on D- */
	if (sp->dcp_short_ohm > 0)
		return dcp_short_v(ph);
	return 0;
}

static double secondary_dp(const struct phy *ph)
{
	const struct source_params *sp = ph->sp;

	if (!phy_contact(ph))
		return 0;
	if (port_has_divider(sp))
		return sp->dp_v;
	if (sp->dcp_short_ohm > 0 && !sp->cdp)
		return dcp_short_v(ph);
	return 0;
}

sim_time_t phy_bc12_dcd_low_at(const struct phy *ph)
{
	if (!port_pulls_dp_low(ph->sp) || ph->cp->data == CABLE_DATA_FLOATING)
		return SIM_TIME_NEVER;
	return ph->src->t_attached + (ph->cp->data == CABLE_DATA_LATE ? ph->cp->data_late : 0);
}

double phy_bc12_primary_dm(const struct phy *ph)
{
	return primary_dm(ph);
}

double phy_bc12_secondary_dp(const struct phy *ph)
{
	return secondary_dp(ph);
}

static enum phy_port classify_divider(const struct source_params *sp)
{
	static const struct { double dp, dm; enum phy_port port; } known[] = {
		{ 2.0, 2.7, PHY_PORT_APPLE_1A },
		{ 2.7, 2.0, PHY_PORT_APPLE_2_1A },
		{ 2.7, 2.7, PHY_PORT_APPLE_2_4A },
		{ 1.2, 1.2, PHY_PORT_SAMSUNG_2A },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(known); i++)
		if (fabs(sp->dp_v - known[i].dp) <= 0.25 && fabs(sp->dm_v - known[i].dm) <= 0.25)
			return known[i].port;
	return PHY_PORT_PROPRIETARY;
}

static bool aca_present(const struct source_params *sp)
{
	double r = sp->rid_ohm;

	return (r >= 122e3 && r <= 126e3) || (r >= 67e3 && r <= 69e3) || (r >= 36e3 && r <= 37e3);
}

/* What each port type allows by spec, A (a PD port: its contract's PDO). */
static const double port_current[PHY_PORT_COUNT] = {
	[PHY_PORT_SDP] = 0.5, [PHY_PORT_CDP] = 1.5, [PHY_PORT_DCP] = 1.5, [PHY_PORT_ACA] = 1.5,
	[PHY_PORT_APPLE_1A] = 1.0, [PHY_PORT_APPLE_2_1A] = 2.1, [PHY_PORT_APPLE_2_4A] = 2.4,
	[PHY_PORT_SAMSUNG_2A] = 2.0, [PHY_PORT_PROPRIETARY] = 0.5, [PHY_PORT_TYPEC_1A5] = 1.5,
	[PHY_PORT_TYPEC_3A0] = 3.0,
};

/* ---- logging and reporting ---- */

static void log_step(struct phy *ph, const char *step, const char *key, double v, const char *result)
{
	cJSON *rec = evlog_begin(ph->log, sim_now(ph->sim), "phy", "detect_step");

	evlog_put_string(rec, "step", step);
	if (key)
		evlog_put_number(rec, key, floor(v * 1e4 + 0.5) / 1e4);
	evlog_put_string(rec, "result", result);
	evlog_end(ph->log, rec);
}

static void phy_report(struct phy *ph, enum phy_port port)
{
	cJSON *rec;

	ph->last.port = port;
	ph->last.current_a = port == PHY_PORT_PD ? ph->sp->pdos[ph->pd_index].i : port_current[port];
	ph->last.data = ph->sp->data && phy_contact(ph);
	rec = evlog_begin(ph->log, sim_now(ph->sim), "phy", "detect");
	evlog_put_string(rec, "type", phy_port_psy_type[port]);
	evlog_put_string(rec, "port", phy_port_names[port]);
	evlog_put_number(rec, "current_mA", floor(ph->last.current_a * 1000 + 0.5));
	evlog_end(ph->log, rec);
	if (ph->result)
		ph->result(ph->ctx, &ph->last);
}

static void phy_next(struct phy *ph, int stage, sim_time_t delay)
{
	ph->stage = stage;
	sim_reschedule(ph->sim, &ph->ev_step, sim_now(ph->sim) + delay);
}

static void pd_msg(struct phy *ph, const char *msg, const char *from)
{
	cJSON *rec = evlog_begin(ph->log, sim_now(ph->sim), "phy", "pd_msg");

	evlog_put_string(rec, "msg", msg);
	evlog_put_string(rec, "from", from);
	if (strcmp(msg, "Request") == 0 || strcmp(msg, "Accept") == 0) {
		evlog_put_number(rec, "pdo", ph->pd_index + 1);
		evlog_put_number(rec, "V", ph->sp->pdos[ph->pd_index].v);
		evlog_put_number(rec, "A", ph->sp->pdos[ph->pd_index].i);
	}
	evlog_end(ph->log, rec);
}

static int pd_pick(const struct phy *ph)
{
	const struct source_params *sp = ph->sp;
	int best = 0;

	for (int i = 0; i < sp->n_pdos; i++) {
		const struct source_pdo *c = &sp->pdos[i], *b = &sp->pdos[best];

		if (c->v <= ph->p->pd_max_v + 1e-9 &&
		    ((ph->p->pd_rule == PHY_PD_MAX_POWER && c->v * c->i > b->v * b->i + 1e-9) ||
		     (ph->p->pd_rule == PHY_PD_MAX_VOLTAGE && c->v > b->v)))
			best = i;
	}
	return best;
}

/* Type-C: the Rp level seen on CC across Rd. */
static int cc_level(const struct phy *ph)
{
	return phy_cc_level(phy_cc_voltage(ph->sp->rp, ph->p->rd));
}

static void log_cc(struct phy *ph, int level)
{
	ph->rp_seen = level;
	log_step(ph, "cc", "cc_V", phy_cc_voltage(ph->sp->rp, ph->p->rd),
		 level == SRC_RP_3A0 ? "3.0A" : level == SRC_RP_1A5 ? "1.5A" :
		 level == SRC_RP_DEFAULT ? "default" : "none");
}

/* The port a 1.5 A or 3.0 A Rp makes; PHY_PORT_NONE for Default Rp or none, which
 * leave the decision to BC1.2. */
static enum phy_port typec_port(int level)
{
	return level == SRC_RP_3A0 ? PHY_PORT_TYPEC_3A0 :
	       level == SRC_RP_1A5 ? PHY_PORT_TYPEC_1A5 : PHY_PORT_NONE;
}

/* ---- the state machine ---- */

static void start_bc12(struct phy *ph)
{
	if (!ph->p->bc12) {
		phy_report(ph, PHY_PORT_NONE);
		ph->stage = STAGE_DONE;
		return;
	}
	if (aca_present(ph->sp)) {
		log_step(ph, "aca", "rid_kohm", ph->sp->rid_ohm / 1000, "aca");
		phy_next(ph, STAGE_DONE, 0);
		ph->last.port = PHY_PORT_ACA;
		return;
	}
	if (!ph->p->dcd) {
		phy_next(ph, STAGE_PRIMARY, ph->p->t_vdpsrc_on);
		return;
	}
	/* DCD: wait for D+ to go low and stay low for TDCD_DBNC. The lines of a late
	 * cable touch data_late after the plug (not after the PHY's VBUS debounce). */
	sim_time_t low_for_dbnc = ph->src->t_attached + ph->cp->data_late + ph->p->t_dcd_dbnc -
				  sim_now(ph->sim);

	if (dcd_dp_low(ph)) {
		phy_next(ph, STAGE_DCD, ph->p->t_dcd_dbnc);
	} else if (ph->cp->data == CABLE_DATA_LATE && port_pulls_dp_low(ph->sp) &&
		   low_for_dbnc < ph->p->t_dcd_timeout) {
		phy_next(ph, STAGE_DCD, low_for_dbnc);
	} else {
		phy_next(ph, STAGE_DCD, ph->p->t_dcd_timeout);
	}
}

static void phy_step_cb(struct sim_event *ev, void *data)
{
	struct phy *ph = data;
	const struct phy_params *p = ph->p;
	double v;

	(void)ev;
	switch (ph->stage) {
	case STAGE_CC: {
		int level = cc_level(ph);

		log_cc(ph, level);
		if (ph->sp->kind == SRC_KIND_PD && ph->sp->n_pdos > 0) {
			phy_next(ph, STAGE_PD_CAPS, p->t_pd_caps);
		} else if (typec_port(level) != PHY_PORT_NONE) {
			phy_report(ph, typec_port(level));
			ph->stage = STAGE_DONE;
		} else {
			start_bc12(ph);
		}
		break;
	}
	case STAGE_DCD:
		log_step(ph, "dcd", NULL, 0, dcd_dp_low(ph) ? "contact" : "timeout");
		phy_next(ph, STAGE_PRIMARY, p->t_vdpsrc_on);
		break;
	case STAGE_PRIMARY:
		/* below VDAT_REF an SDP, up to VLGC a CDP or DCP, above a divider */
		v = primary_dm(ph);
		if (v >= p->vdat_ref && v <= p->vlgc) {
			log_step(ph, "primary", "dm_V", v, "cdp_or_dcp");
			phy_next(ph, STAGE_SECONDARY, p->t_vdmsrc_on);
			break;
		}
		log_step(ph, "primary", "dm_V", v, v < p->vdat_ref ? "sdp" : "proprietary");
		phy_next(ph, STAGE_DONE, p->t_margin);
		ph->last.port = v < p->vdat_ref ? PHY_PORT_SDP : classify_divider(ph->sp);
		break;
	case STAGE_SECONDARY:
		v = secondary_dp(ph);
		log_step(ph, "secondary", "dp_V", v, v > p->vdat_ref ? "dcp" : "cdp");
		ph->last.port = v > p->vdat_ref ? PHY_PORT_DCP : PHY_PORT_CDP;
		phy_next(ph, STAGE_DONE, p->t_margin);
		break;
	case STAGE_DONE:
		phy_report(ph, ph->last.port);
		break;
	case STAGE_PD_CAPS:
		pd_msg(ph, "Source_Capabilities", "source");
		ph->pd_index = pd_pick(ph);
		phy_next(ph, STAGE_PD_REQUEST, p->t_pd_request);
		break;
	case STAGE_PD_REQUEST:
		pd_msg(ph, "Request", "sink");
		phy_next(ph, STAGE_PD_ACCEPT, p->t_pd_accept);
		break;
	case STAGE_PD_ACCEPT:
		pd_msg(ph, "Accept", "source");
		phy_next(ph, STAGE_PD_TRANSITION, p->t_src_transition);
		break;
	case STAGE_PD_TRANSITION:
		source_set_contract(ph->src, ph->sp->pdos[ph->pd_index].v, ph->sp->pdos[ph->pd_index].i);
		phy_next(ph, STAGE_PD_READY, p->t_ps_ready);
		break;
	case STAGE_PD_READY:
		pd_msg(ph, "PS_RDY", "source");
		ph->stage = STAGE_DONE;
		phy_report(ph, PHY_PORT_PD);
		break;
	}
}

static void phy_rp_cb(struct sim_event *ev, void *data)
{
	struct phy *ph = data;
	int level = cc_level(ph);

	(void)ev;
	if (level == ph->rp_seen || ph->sp->kind == SRC_KIND_PD)
		return;
	log_cc(ph, level);
	if (typec_port(level) != PHY_PORT_NONE)
		phy_report(ph, typec_port(level));
	else
		start_bc12(ph);
}

/* The port's Rp advertisement changed (a `set` on source.rp). */
static void phy_rp_changed_cb(void *ctx)
{
	struct phy *ph = ctx;

	if (!ph->attached || ph->rp_seen < 0)
		return;
	sim_reschedule(ph->sim, &ph->ev_rp, sim_now(ph->sim) + ph->p->t_sink_adj);
}

/* Start detection (VBUS session begins) or stop it. */
static void phy_attach(struct phy *ph, bool attached)
{
	if (attached == ph->attached)
		return;
	ph->attached = attached;
	sim_cancel(ph->sim, &ph->ev_step);   /* the detection in progress stops */
	sim_cancel(ph->sim, &ph->ev_rp);
	ph->rp_seen = -1;
	memset(&ph->last, 0, sizeof(ph->last));
	if (!attached) {
		ph->stage = STAGE_IDLE;
		phy_report(ph, PHY_PORT_NONE);
		return;
	}
	/* A Type-C port on a cable with CC (or an A-to-C cable's 56 k Rp) is read on
	 * CC first; everything else goes straight to BC1.2. */
	if (ph->cp->cc && ph->sp->typec)
		phy_next(ph, STAGE_CC, ph->p->t_cc_debounce);
	else
		start_bc12(ph);
}

/* The debounced comparator flips: the owner hears first, then detection follows. */
static void phy_debounced_cb(struct sim_event *ev, void *data)
{
	struct phy *ph = data;

	(void)ev;
	ph->vbus_cond = false;
	ph->vbus_seen = !ph->vbus_seen;
	if (ph->vbus)
		ph->vbus(ph->ctx, ph->vbus_seen);
	phy_attach(ph, ph->vbus_seen);
}

void phy_init(struct phy *ph, struct phy_params *p, const struct source_params *sp,
	      const struct cable_params *cp, struct source *src, struct sim *sim,
	      struct evlog *log)
{
	*ph = (struct phy){ .p = p, .sp = sp, .cp = cp, .src = src, .sim = sim, .log = log,
			    .rp_seen = -1 };
	sim_event_init(&ph->ev_step, phy_step_cb, ph);
	sim_event_init(&ph->ev_rp, phy_rp_cb, ph);
	sim_event_init(&ph->ev_vbus, phy_debounced_cb, ph);
	if (src)
		source_watch_rp(src, phy_rp_changed_cb, ph);
}

void phy_set_owner(struct phy *ph, phy_vbus_cb vbus, phy_result_cb result, void *ctx)
{
	ph->vbus = vbus;
	ph->result = result;
	ph->ctx = ctx;
}

void phy_cleanup(void *phy)
{
	struct phy *ph = phy;

	sim_cancel(ph->sim, &ph->ev_step);
	sim_cancel(ph->sim, &ph->ev_rp);
	sim_cancel(ph->sim, &ph->ev_vbus);
}

static void phy_defaults(void *params, int preset)
{
	(void)preset;
	phy_params_default(params);
}

static void phy_model_init(void *state, void *params, const struct model_env *env)
{
	phy_init(state, params, env->params_of(env, "source"), env->params_of(env, "cable"),
		 env->state_of(env, "source"), env->sim, env->log);
}

/* VBUS crossing the comparator's threshold. */
static void phy_model_margins(const void *state, const struct model_point *pt, double *g)
{
	const struct phy *ph = state;

	g[0] = model_wire(pt->wires->vbus_attached) ? pt->op->vbus - ph->p->vbus_valid : -1;
}

/* The comparator: a change that lasts t_vbus_debounce flips the output. */
static void phy_model_observe(void *state, const struct model_point *pt)
{
	struct phy *ph = state;
	bool valid = model_wire(pt->wires->vbus_attached) && pt->op->vbus >= ph->p->vbus_valid;

	model_timer(ph->sim, &ph->vbus_cond, valid != ph->vbus_seen, &ph->ev_vbus,
		    ph->p->t_vbus_debounce);
}

const struct model_desc model_phy = {
	MODEL_PARAMS("device.phy", phy_param_desc, struct phy_params),
	.defaults = phy_defaults,
	.state_size = sizeof(struct phy),
	.init = phy_model_init,
	.cleanup = phy_cleanup,
	.n_margins = 1,
	.margins = phy_model_margins,
	.observe = phy_model_observe,
};
