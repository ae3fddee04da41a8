// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/fixed.c - charger-manager style: a fixed limit per cable type.
 *
 * What Linux charger-manager does with its cable table [charger-manager.c]: when an
 * extcon cable it knows is attached, set the charger's current to that cable's entry
 * ([min, max]; the regulator takes the max), no ramp. Its battery monitor polls; once
 * the charger reports full it stops charging and restarts when the battery voltage
 * has dropped fullbatt_vchkdrop (default 150 mV) below the voltage at full.
 * `ilim` overrides the table with one value written when VBUS appears (the simplest
 * policy; it needs no detection).
 */
#include <stdlib.h>
#include <linux/extcon.h>
#include <linux/jiffies.h>
#include <linux/kernel_types.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/boot.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

static const unsigned int fixed_cables[] = {
	EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_DCP, EXTCON_CHG_USB_CDP, EXTCON_CHG_USB_ACA,
	EXTCON_CHG_USB_FAST, EXTCON_CHG_USB_SLOW,
};
#define FIXED_N_CABLES ARRAY_SIZE(fixed_cables)

struct fixed_params {
	double ilim;                      /* A; > 0: write this at VBUS, ignore the table */
	double table[FIXED_N_CABLES];     /* A per cable: sdp dcp cdp aca fast slow */
	double fullbatt_vchkdrop;         /* V */
	sim_time_t polling;               /* battery monitor period */
	double boot_vbat;                 /* V; > 0: the bootloader waits for this battery voltage */
};

struct fixed;

struct fixed_cable {
	struct notifier_block nb;
	struct fixed *f;
};

struct fixed {
	struct cs_board *board;
	const struct fixed_params *p;
	struct notifier_block phy_nb;
	struct fixed_cable cab[FIXED_N_CABLES];
	struct work_struct cable_work;
	struct work_struct vbus_work;
	struct delayed_work monitor;
	unsigned long phy_event;
	bool stopped_full;                /* charging disabled by the monitor */
	int full_uv;                      /* battery voltage when full was seen */
};

#define OFF(f) offsetof(struct fixed_params, f)
static const struct param_desc fixed_param_desc[] = {
	{ "ilim", PARAM_NUM, UNIT_AMP, OFF(ilim), 0, 20,
	  .doc = "one limit written when VBUS appears (0: use the cable table)" },
	{ "sdp", PARAM_NUM, UNIT_AMP, OFF(table[0]), 0, 20, .doc = "limit on an SDP cable" },
	{ "dcp", PARAM_NUM, UNIT_AMP, OFF(table[1]), 0, 20, .doc = "limit on a DCP cable" },
	{ "cdp", PARAM_NUM, UNIT_AMP, OFF(table[2]), 0, 20, .doc = "limit on a CDP cable" },
	{ "aca", PARAM_NUM, UNIT_AMP, OFF(table[3]), 0, 20, .doc = "limit on an ACA" },
	{ "fast", PARAM_NUM, UNIT_AMP, OFF(table[4]), 0, 20, .doc = "limit on a FAST-CHARGER cable" },
	{ "slow", PARAM_NUM, UNIT_AMP, OFF(table[5]), 0, 20, .doc = "limit on a SLOW-CHARGER cable" },
	{ "fullbatt_vchkdrop", PARAM_NUM, UNIT_VOLT, OFF(fullbatt_vchkdrop), 0, 1,
	  .doc = "restart charging after the battery drops this far below full (0: leave it to the chip)" },
	{ "polling", PARAM_TIME, .off = OFF(polling), .min = 10e-3, .max = 3600,
	  .doc = "battery monitor period" },
	{ "boot_vbat", PARAM_NUM, UNIT_VOLT, OFF(boot_vbat), 0, 5,
	  .doc = "boot gating: the bootloader charges until the battery reaches this (0: no gate)" },
	PARAM_END,
};
#undef OFF

static void fixed_params_default(const struct cs_policy_desc *desc, void *params)
{
	struct fixed_params *p = params;
	/* charger-manager DT examples use the BC1.2 currents per cable. */
	static const double table[FIXED_N_CABLES] = { 0.5, 1.5, 1.5, 1.5, 2.0, 0.5 };

	(void)desc;
	for (size_t i = 0; i < FIXED_N_CABLES; i++)
		p->table[i] = table[i];
	p->fullbatt_vchkdrop = 0.15;
	p->polling = 30 * SIM_S;
}

static void fixed_cable_work(struct work_struct *work)
{
	struct fixed *f = container_of(work, struct fixed, cable_work);

	if (f->p->ilim > 0)
		return;
	for (size_t i = 0; i < FIXED_N_CABLES; i++)
		if (extcon_get_state(f->board->edev, fixed_cables[i]) > 0) {
			cs_chg_set_input_current_limit(f->board->ic, (int)(f->p->table[i] * 1e6 + 0.5));
			return;
		}
}

static void fixed_vbus_work(struct work_struct *work)
{
	struct fixed *f = container_of(work, struct fixed, vbus_work);

	if (f->phy_event == USB_EVENT_VBUS && f->p->ilim > 0)
		cs_chg_set_input_current_limit(f->board->ic, (int)(f->p->ilim * 1e6 + 0.5));
	if (f->phy_event == USB_EVENT_NONE && f->stopped_full) {
		f->stopped_full = false;
		cs_chg_set_charge_enable(f->board->ic, true);
	}
}

/* The battery monitor: stop at full, restart after fullbatt_vchkdrop. */
static void fixed_monitor(struct work_struct *work)
{
	struct fixed *f = container_of(to_delayed_work(work), struct fixed, monitor);
	union power_supply_propval st = { 0 }, uv = { 0 };

	power_supply_get_property(f->board->bat_psy, POWER_SUPPLY_PROP_STATUS, &st);
	power_supply_get_property(f->board->bat_psy, POWER_SUPPLY_PROP_VOLTAGE_NOW, &uv);
	if (!f->stopped_full && st.intval == POWER_SUPPLY_STATUS_FULL) {
		f->stopped_full = true;
		f->full_uv = uv.intval;
		cs_chg_set_charge_enable(f->board->ic, false);
	} else if (f->stopped_full &&
		   uv.intval < f->full_uv - (int)(f->p->fullbatt_vchkdrop * 1e6 + 0.5)) {
		f->stopped_full = false;
		cs_chg_set_charge_enable(f->board->ic, true);
	}
	schedule_delayed_work(&f->monitor, msecs_to_jiffies((unsigned int)(f->p->polling / SIM_MS)));
}

static int fixed_cable_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct fixed_cable *c = container_of(nb, struct fixed_cable, nb);

	(void)state;
	(void)data;
	schedule_work(&c->f->cable_work);
	return NOTIFY_OK;
}

static int fixed_phy_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct fixed *f = container_of(nb, struct fixed, phy_nb);

	(void)data;
	if (event != USB_EVENT_VBUS && event != USB_EVENT_NONE)
		return NOTIFY_DONE;
	f->phy_event = event;
	schedule_work(&f->vbus_work);
	return NOTIFY_OK;
}

static int fixed_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		       void **priv)
{
	struct fixed *f = calloc(1, sizeof(*f));

	(void)desc;
	if (!f)
		return -ENOMEM;
	f->board = board;
	f->p = params;
	INIT_WORK(&f->cable_work, fixed_cable_work);
	INIT_WORK(&f->vbus_work, fixed_vbus_work);
	INIT_DELAYED_WORK(&f->monitor, fixed_monitor);
	f->phy_nb.notifier_call = fixed_phy_notify;
	usb_register_notifier(board->phy, &f->phy_nb);
	for (size_t i = 0; i < FIXED_N_CABLES; i++) {
		f->cab[i].f = f;
		f->cab[i].nb.notifier_call = fixed_cable_notify;
		extcon_register_notifier(board->edev, fixed_cables[i], &f->cab[i].nb);
	}
	if (f->p->fullbatt_vchkdrop > 0)
		schedule_delayed_work(&f->monitor, msecs_to_jiffies((unsigned int)(f->p->polling / SIM_MS)));
	if (f->p->boot_vbat > 0)
		cs_boot_gate_vbat(board, (int)(f->p->boot_vbat * 1e6 + 0.5));
	*priv = f;
	return 0;
}

static void fixed_remove(void *priv)
{
	struct fixed *f = priv;

	usb_unregister_notifier(f->board->phy, &f->phy_nb);
	for (size_t i = 0; i < FIXED_N_CABLES; i++)
		extcon_unregister_notifier(f->board->edev, fixed_cables[i], &f->cab[i].nb);
	cancel_work_sync(&f->cable_work);
	cancel_work_sync(&f->vbus_work);
	cancel_delayed_work_sync(&f->monitor);
	free(f);
}

const struct cs_policy_desc policy_fixed = CS_POLICY_DESC(fixed, "fixed",
	"charger-manager style: a fixed limit per extcon cable (or one ilim at VBUS), stop at full, restart after fullbatt_vchkdrop");
