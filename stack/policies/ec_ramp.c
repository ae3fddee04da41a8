// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/ec_ramp.c - the Chromium EC software charge ramp, on the Linux seam.
 *
 * Behaviour and constants from the Chromium EC's common/charge_ramp_sw.c (facts only;
 * this is an independent implementation against the kernel-style interfaces):
 *   states DISCONNECTED -> DETECT_DELAY (2 s) -> OVERCURRENT_DETECT -> RAMP
 *   (+64 mA every 500 ms from 500 mA) -> STABILIZE (5 s) -> STABLE (VBUS checked
 *   every 1 s); on low VBUS while ramping, back off 128 mA and stabilise; on low VBUS
 *   while stable, lower the ceiling by 128 mA and ramp again from 500 mA; ramp only
 *   while the system draws full current (battery between 2 % and 95 %), else check
 *   again in 5 s; a supplier that disappears and comes back within 1 s counts as an
 *   over-current, and three recent over-currents from the same supplier make the ramp
 *   settle at the last limit minus 128 mA without ramping. Type-C and PD suppliers
 *   are not ramped: they get their advertised current.
 * Which BC1.2 suppliers are ramped, and how far, is the board's: its BC1.2 detector
 * driver answers usb_charger_ramp_allowed() and usb_charger_ramp_max() from a table.
 * `bc12` picks one (facts from the EC's BC1.2 drivers, driver/bc12/ in its tree):
 *   pi3usb9201 (default): SDP and "other" are not ramped (500 mA); CDP and proprietary
 *              ramp to the supplier's current; DCP ramps;
 *   pi3usb9281: SDP ramps to 1000 mA; CDP and proprietary to the supplier's current;
 *   bd9995x:   SDP ramps to 900 mA, CDP to 1500 mA (the bd9995x's own BC1.2 limits).
 * A DCP ramps to `ramp_max`, the board's figure (pi3usb9201 boards 1.5 A, bd9995x
 * 2 A; 2.4 A by default, as the scenarios in scenarios/ec/ assume).
 * "Consuming full input current" is the EC's battery rule (charge_state: between 2 %
 * and 95 %) by default; `full_current` ibus takes the EC unit test's meaning instead
 * (test/charge_ramp.c: the input current reaches the limit).
 * When the supplier goes away the EC writes its limit for "no supplier", 0 mA, which
 * the charger clamps to its minimum (the ramp's "skip the write when stable twice"
 * does not apply: the state changed).
 * What the EC learns from its charge manager, this policy learns the Linux way: the
 * usb_phy notifier (VBUS, CHARGER, NONE) and the USB power supply's usb_type and
 * current_max.
 */
#include <stdlib.h>
#include <linux/jiffies.h>
#include <linux/kernel_types.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

/* EC constants (common/charge_ramp_sw.c), with units. */
#define EC_RAMP_COUNT            3      /* over-currents remembered per port */
#define EC_OC_RECOVER_MAX_MS     1000   /* back within this long = an over-current */
#define EC_CURRENT_DRAW_DELAY_MS 5000   /* recheck when not drawing full current */
#define EC_RAMP_INCR_MA          64
#define EC_RAMP_DELAY_MS         500
#define EC_RAMP_START_MA         500
#define EC_ICL_BACKOFF_MA        (2 * EC_RAMP_INCR_MA)
#define EC_STABLE_MONITOR_MS     1000
#define EC_STABILIZE_MS          5000
#define EC_DETECT_DELAY_MS       2000
/* full_current ibus: the input current is at the limit within this (an ADC count
 * and the register's rounding). */
#define EC_FULL_IBUS_TOL_UA      5000

enum ec_state {
	EC_DISCONNECTED, EC_DETECT_DELAY, EC_OVERCURRENT_DETECT, EC_RAMP, EC_STABILIZE, EC_STABLE,
	EC_STATE_COUNT
};

static const char *const ec_state_names[] = {
	"disconnected", "detect_delay", "overcurrent_detect", "ramp", "stabilize", "stable",
};
G_STATIC_ASSERT(G_N_ELEMENTS(ec_state_names) == EC_STATE_COUNT);

enum ec_bc12_table { EC_BC12_PI3USB9201, EC_BC12_PI3USB9281, EC_BC12_BD9995X };
enum ec_full_current { EC_FULL_BATTERY, EC_FULL_IBUS };
static const char *const ec_bc12_names[] = { "pi3usb9201", "pi3usb9281", "bd9995x", NULL };
static const char *const ec_full_names[] = { "battery", "ibus", NULL };

/* One row of a board's BC1.2 table: ramp or not, and the ramp's ceiling. */
#define EC_MAX_SUPPLIER  0         /* the supplier's own current (sup_curr) */
#define EC_MAX_BOARD    (-1)       /* the board's ramp_max */
struct ec_bc12_row {
	bool ramp;
	int max_ma;                /* > 0: fixed; EC_MAX_SUPPLIER; EC_MAX_BOARD */
};
enum { EC_SUP_SDP, EC_SUP_CDP, EC_SUP_DCP, EC_SUP_COUNT };
static const struct ec_bc12_row ec_bc12_rows[][EC_SUP_COUNT] = {
	[EC_BC12_PI3USB9201] = { { false, EC_MAX_SUPPLIER }, { true, EC_MAX_SUPPLIER }, { true, EC_MAX_BOARD } },
	[EC_BC12_PI3USB9281] = { { true, 1000 }, { true, EC_MAX_SUPPLIER }, { true, EC_MAX_BOARD } },
	[EC_BC12_BD9995X] = { { true, 900 }, { true, 1500 }, { true, EC_MAX_BOARD } },
};

struct ec_params {
	double vbus_low;       /* V: "VBUS too low" while ramping and when stable */
	double ramp_max;       /* A: highest limit a DCP is ramped to */
	double soc_low, soc_high; /* battery window in which the system draws full current */
	int bc12;              /* enum ec_bc12_table */
	int full_current;      /* enum ec_full_current */
};

struct ec_oc {
	unsigned long ts;      /* jiffies when the supplier went away */
	int sup;
	int icl;
	bool detected;
};

struct ec_ramp {
	struct cs_board *board;
	const struct ec_params *p;
	struct notifier_block nb;
	struct work_struct event_work;
	struct delayed_work work;
	unsigned long event;

	enum ec_state st;
	bool have_port;        /* a supplier is attached */
	int sup;               /* its power_supply usb_type */
	unsigned long reg_time;
	int icl, min_icl, max_icl;
	int stab_sup;
	bool stab_port;
	unsigned long detect_end;
	struct ec_oc oc[EC_RAMP_COUNT];
	int oc_idx;
	bool entered;          /* the state machine ran since the last supplier change */
};

#define OFF(f) offsetof(struct ec_params, f)
static const struct param_desc ec_param_desc[] = {
	{ "vbus_low", PARAM_NUM, UNIT_VOLT, OFF(vbus_low), 3, 6,
	  .doc = "VBUS below this is too low (board_is_vbus_too_low)" },
	{ "ramp_max", PARAM_NUM, UNIT_AMP, OFF(ramp_max), 0.1, 10,
	  .doc = "highest input limit for a ramped dedicated charger (DCP)" },
	{ "bc12", PARAM_ENUM, .off = OFF(bc12), .choices = ec_bc12_names,
	  .doc = "the board's BC1.2 table: which suppliers ramp and how far (SDP stays at 500 mA on pi3usb9201)" },
	{ "full_current", PARAM_ENUM, .off = OFF(full_current), .choices = ec_full_names,
	  .doc = "consuming full input current: battery (2-95 %, charge_state) or ibus (input current at the limit, the unit test's meaning)" },
	{ "soc_low", PARAM_NUM, UNIT_FRACTION, OFF(soc_low), 0, 1,
	  .doc = "ramp only above this battery level (system draws full current)" },
	{ "soc_high", PARAM_NUM, UNIT_FRACTION, OFF(soc_high), 0, 1,
	  .doc = "ramp only below this battery level" },
	PARAM_END,
};
#undef OFF

static void ec_params_default(const struct cs_policy_desc *desc, void *params)
{
	struct ec_params *p = params;

	(void)desc;
	/* 4.5 V and 2.4 A are typical board values (assumed; boards define them). */
	p->vbus_low = 4.5;
	p->ramp_max = 2.4;
	p->soc_low = 0.02;
	p->soc_high = 0.95;
	p->bc12 = EC_BC12_PI3USB9201;
	p->full_current = EC_FULL_BATTERY;
}

/* The board's row for a supplier, NULL when it is not a BC1.2 one. */
static const struct ec_bc12_row *ec_bc12_row(const struct ec_ramp *e, int sup)
{
	switch (sup) {
	case POWER_SUPPLY_USB_TYPE_SDP: return &ec_bc12_rows[e->p->bc12][EC_SUP_SDP];
	case POWER_SUPPLY_USB_TYPE_CDP: return &ec_bc12_rows[e->p->bc12][EC_SUP_CDP];
	case POWER_SUPPLY_USB_TYPE_DCP: return &ec_bc12_rows[e->p->bc12][EC_SUP_DCP];
	default: return NULL;
	}
}

static bool ec_ramp_allowed(const struct ec_ramp *e, int sup)
{
	const struct ec_bc12_row *row = ec_bc12_row(e, sup);

	return row && row->ramp;
}

static bool ec_vbus_too_low(struct ec_ramp *e)
{
	int uv;

	if (cs_chg_read_adc(e->board->ic, CS_ADC_VBUS, &uv) < 0)
		return false;
	return uv < (int)(e->p->vbus_low * 1e6);
}

static bool ec_full_current(struct ec_ramp *e)
{
	union power_supply_propval v;

	if (e->p->full_current == EC_FULL_IBUS) {
		int ibus_ua;

		if (cs_chg_read_adc(e->board->ic, CS_ADC_IBUS, &ibus_ua) < 0)
			return true;
		return ibus_ua >= cs_chg_get_input_current_limit(e->board->ic) - EC_FULL_IBUS_TOL_UA;
	}
	if (!e->board->bat_psy ||
	    power_supply_get_property(e->board->bat_psy, POWER_SUPPLY_PROP_CAPACITY, &v))
		return true;
	return v.intval > (int)(e->p->soc_low * 100 + 0.5) && v.intval < (int)(e->p->soc_high * 100 + 0.5);
}

static int ec_current_limit(const struct ec_ramp *e)
{
	switch (e->st) {
	case EC_RAMP:
	case EC_STABILIZE:
	case EC_STABLE:
		return e->icl;
	default:
		return e->min_icl;
	}
}

static struct ec_oc *ec_active_oc(struct ec_ramp *e)
{
	return &e->oc[e->oc_idx];
}

/* One pass of the state machine; returns the wait before the next one (ms), or
 * -1 to wait for an event. */
static int ec_step(struct ec_ramp *e)
{
	enum ec_state st_prev, st_new = e->st;
	int icl_new = e->icl;
	int wait = -1;

	switch (e->st) {
	case EC_DISCONNECTED:
		break;
	case EC_DETECT_DELAY:
		if (!e->entered) {
			/* Entry: was this a quick return after losing VBUS? */
			e->entered = true;
			if (time_before(e->reg_time, ec_active_oc(e)->ts + msecs_to_jiffies(EC_OC_RECOVER_MAX_MS)) &&
			    ec_active_oc(e)->ts != 0)
				ec_active_oc(e)->detected = true;
			else
				for (int i = 0; i < EC_RAMP_COUNT; i++)
					e->oc[i].detected = false;
			e->detect_end = jiffies + msecs_to_jiffies(EC_DETECT_DELAY_MS);
			wait = EC_DETECT_DELAY_MS;
			break;
		}
		if (time_before(jiffies, e->detect_end)) {
			wait = (int)jiffies_to_msecs(e->detect_end - jiffies);
			break;
		}
		/* The delay is over: decide at once. */
		st_new = EC_OVERCURRENT_DETECT;
		e->st = EC_OVERCURRENT_DETECT;
		/* fallthrough */
	case EC_OVERCURRENT_DETECT: {
		int i;

		wait = 1000;
		if (!ec_ramp_allowed(e, e->sup)) {
			icl_new = e->min_icl;
			st_new = EC_STABLE;
			break;
		}
		if (!ec_full_current(e)) {
			wait = EC_CURRENT_DRAW_DELAY_MS;
			break;
		}
		for (i = 0; i < EC_RAMP_COUNT; i++)
			if (e->oc[i].sup != e->sup || !e->oc[i].detected)
				break;
		if (i == EC_RAMP_COUNT) {
			/* Three recent trips from this supplier: settle below the last. */
			icl_new = ec_active_oc(e)->icl - EC_ICL_BACKOFF_MA;
			st_new = EC_STABLE;
		} else {
			icl_new = e->min_icl;
			st_new = EC_RAMP;
		}
		break;
	}
	case EC_RAMP:
		wait = EC_RAMP_DELAY_MS;
		if (!ec_full_current(e)) {
			wait = EC_CURRENT_DRAW_DELAY_MS;
			break;
		}
		if (ec_vbus_too_low(e)) {
			pr_info("ec-ramp: VBUS low at %d mA", e->icl);
			icl_new = max(e->min_icl, e->icl - EC_ICL_BACKOFF_MA);
			st_new = EC_STABILIZE;
			wait = EC_STABILIZE_MS;
			e->stab_port = e->have_port;
			e->stab_sup = e->sup;
			break;
		}
		if (e->icl == e->max_icl)
			st_new = EC_STABLE;
		else
			icl_new = min(e->icl + EC_RAMP_INCR_MA, e->max_icl);
		break;
	case EC_STABILIZE:
		wait = 1000;
		if (e->have_port == e->stab_port && e->sup == e->stab_sup) {
			st_new = EC_STABLE;
			break;
		}
		st_new = e->have_port ? EC_DETECT_DELAY : EC_DISCONNECTED;
		e->entered = false;
		break;
	case EC_STABLE:
		if (ec_ramp_allowed(e, e->sup) && ec_vbus_too_low(e)) {
			pr_info("ec-ramp: VBUS low when stable; re-ramp");
			e->max_icl = max(e->min_icl, e->max_icl - EC_ICL_BACKOFF_MA);
			icl_new = e->min_icl;
			st_new = EC_RAMP;
		}
		wait = EC_STABLE_MONITOR_MS;
		break;
	case EC_STATE_COUNT:
		break;
	}

	st_prev = e->st;
	if (st_new != e->st)
		cs_stack_event("ec_ramp_state", "state", ec_state_names[st_new]);
	e->st = st_new;
	e->icl = icl_new;
	/* Skip the write when stable twice in a row. Disconnected, the limit for no
	 * supplier (0 mA) is written too; the charger clamps it to its minimum. */
	if (st_prev != EC_STABLE || e->st != EC_STABLE)
		cs_chg_set_input_current_limit(e->board->ic, ec_current_limit(e) * 1000);
	return wait;
}

static void ec_work(struct work_struct *work)
{
	struct ec_ramp *e = container_of(to_delayed_work(work), struct ec_ramp, work);
	int wait = ec_step(e);

	if (wait >= 0)
		schedule_delayed_work(&e->work, msecs_to_jiffies((unsigned int)wait));
}

/* The charge manager's supplier change, as the EC has it. */
static void ec_supplier_change(struct ec_ramp *e, bool port, int sup, int cur_ma)
{
	int max_ua = 0, min_ua = 0, step;

	if (e->have_port && !port) {
		/* The supplier went away: remember it in case it comes right back. */
		e->oc_idx = (e->oc_idx + 1) % EC_RAMP_COUNT;
		ec_active_oc(e)->ts = jiffies;
		ec_active_oc(e)->sup = e->sup;
		ec_active_oc(e)->icl = e->icl;
	}
	e->have_port = port;
	e->sup = sup;
	cs_chg_input_current_range(e->board->ic, &min_ua, &max_ua, &step);
	if (ec_ramp_allowed(e, sup)) {
		const struct ec_bc12_row *row = ec_bc12_row(e, sup);
		int ramp_max = row->max_ma == EC_MAX_BOARD ? (int)(e->p->ramp_max * 1000 + 0.5) :
			       row->max_ma == EC_MAX_SUPPLIER ? cur_ma : row->max_ma;

		e->min_icl = EC_RAMP_START_MA;
		e->max_icl = min(ramp_max, max_ua / 1000);
	} else {
		e->min_icl = e->max_icl = cur_ma;
	}
	e->reg_time = jiffies;
	if (e->st != EC_STABILIZE) {
		e->st = port ? EC_DETECT_DELAY : EC_DISCONNECTED;
		e->entered = false;
		cs_stack_event("ec_ramp_state", "state", ec_state_names[e->st]);
		mod_delayed_work(system_wq, &e->work, 0);
	}
}

static void ec_event(struct work_struct *work)
{
	struct ec_ramp *e = container_of(work, struct ec_ramp, event_work);
	union power_supply_propval t = { 0 }, c = { 0 };

	if (e->event == USB_EVENT_NONE) {
		ec_supplier_change(e, false, POWER_SUPPLY_USB_TYPE_UNKNOWN, 0);
		return;
	}
	power_supply_get_property(e->board->usb_psy, POWER_SUPPLY_PROP_USB_TYPE, &t);
	power_supply_get_property(e->board->usb_psy, POWER_SUPPLY_PROP_CURRENT_MAX, &c);
	ec_supplier_change(e, true, t.intval, c.intval / 1000);
}

static int ec_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct ec_ramp *e = container_of(nb, struct ec_ramp, nb);

	(void)data;
	if (event != USB_EVENT_CHARGER && event != USB_EVENT_NONE)
		return NOTIFY_DONE;
	e->event = event;
	schedule_work(&e->event_work);
	return NOTIFY_OK;
}

static int ec_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		    void **priv)
{
	struct ec_ramp *e = calloc(1, sizeof(*e));

	(void)desc;
	if (!e)
		return -ENOMEM;
	e->board = board;
	e->p = params;
	e->st = EC_DISCONNECTED;
	for (int i = 0; i < EC_RAMP_COUNT; i++)
		e->oc[i].sup = -1;
	e->nb.notifier_call = ec_notify;
	INIT_WORK(&e->event_work, ec_event);
	INIT_DELAYED_WORK(&e->work, ec_work);
	usb_register_notifier(board->phy, &e->nb);
	*priv = e;
	return 0;
}

static void ec_remove(void *priv)
{
	struct ec_ramp *e = priv;

	usb_unregister_notifier(e->board->phy, &e->nb);
	cancel_work_sync(&e->event_work);
	cancel_delayed_work_sync(&e->work);
	free(e);
}

const struct cs_policy_desc policy_ec_ramp = CS_POLICY_DESC(ec, "ec-ramp",
	"Chromium EC software ramp: +64 mA / 500 ms from 500 mA, back off 128 mA on low VBUS, three-trip memory");
