// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * template_policy.c - a charger policy built out of tree, as a starting point.
 *
 * Build (after `make install PREFIX=...`, with PKG_CONFIG_PATH pointing at
 * PREFIX/lib/pkgconfig):
 *
 *   cc -shared -fPIC $(pkg-config --cflags chargesim) template_policy.c -o template.so
 *
 * and use it from a scenario:
 *
 *   "policy": { "plugin": "template.so", "params": { "limit": "900 mA" } }
 *
 * run with `chargesim run SCENARIO --allow-plugins DIR`, DIR holding template.so: a
 * scenario loads no code by itself (docs/policy-sdk.md, section 7.1).
 *
 * A policy is a charger driver's decision logic. It gets a board at probe time and
 * from then on only reacts: notifier callbacks that record and schedule work, work
 * items that decide, register writes and ADC reads through chargesim/charger_ic.h.
 * Everything below uses the same names and units a Linux driver uses, so this file's
 * logic can move into a driver (and a driver's logic into a file like this).
 *
 * This template: when the PHY reports a charger, read the type the USB power supply
 * reports, and set `limit` on dedicated chargers, 500 mA otherwise; then watch VBUS
 * once a second and lower the limit by 100 mA whenever it reads below `vbus_min`.
 */
#include <stdlib.h>
#include <linux/jiffies.h>
#include <linux/kernel_types.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

/* Parameters: a struct, a table describing it (key, unit, range, help), defaults. */
struct tpl_params {
	double limit;      /* A, on a dedicated charger */
	double vbus_min;   /* V */
};

static const struct param_desc tpl_param_desc[] = {
	{ "limit", PARAM_NUM, UNIT_AMP, offsetof(struct tpl_params, limit), 0, 5,
	  .doc = "input limit on a dedicated charging port" },
	{ "vbus_min", PARAM_NUM, UNIT_VOLT, offsetof(struct tpl_params, vbus_min), 3, 6,
	  .doc = "lower the limit while VBUS reads below this" },
	PARAM_END,
};

static void tpl_params_default(const struct cs_policy_desc *desc, void *params)
{
	struct tpl_params *p = params;

	(void)desc;
	p->limit = 1.5;
	p->vbus_min = 4.6;
}

/* Driver state, allocated at probe. */
struct tpl {
	struct cs_board *board;
	const struct tpl_params *p;
	struct notifier_block nb;
	struct work_struct charger_work;   /* decides after a PHY notification */
	struct delayed_work watch_work;    /* watches VBUS */
	unsigned long event;
	int limit_ua;
};

static void tpl_charger_work(struct work_struct *work)
{
	struct tpl *t = container_of(work, struct tpl, charger_work);
	union power_supply_propval type = { 0 };

	if (t->event == USB_EVENT_NONE) {
		cancel_delayed_work(&t->watch_work);
		return;
	}
	power_supply_get_property(t->board->usb_psy, POWER_SUPPLY_PROP_TYPE, &type);
	t->limit_ua = type.intval == POWER_SUPPLY_TYPE_USB_DCP ? (int)(t->p->limit * 1e6) : 500000;
	t->limit_ua = cs_chg_set_input_current_limit(t->board->ic, t->limit_ua);
	schedule_delayed_work(&t->watch_work, msecs_to_jiffies(1000));
}

static void tpl_watch_work(struct work_struct *work)
{
	struct tpl *t = container_of(to_delayed_work(work), struct tpl, watch_work);
	int vbus_uv;

	if (cs_chg_read_adc(t->board->ic, CS_ADC_VBUS, &vbus_uv) == 0 &&
	    vbus_uv < (int)(t->p->vbus_min * 1e6) && t->limit_ua > 100000) {
		pr_info("template: VBUS %d uV, lowering the limit", vbus_uv);
		t->limit_ua = cs_chg_set_input_current_limit(t->board->ic, t->limit_ua - 100000);
	}
	schedule_delayed_work(&t->watch_work, msecs_to_jiffies(1000));
}

/* Notifier callbacks run in the notifier's context: record, schedule, return. */
static int tpl_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct tpl *t = container_of(nb, struct tpl, nb);

	(void)data;
	if (event != USB_EVENT_CHARGER && event != USB_EVENT_NONE)
		return NOTIFY_DONE;
	t->event = event;
	schedule_work(&t->charger_work);
	return NOTIFY_OK;
}

/* desc is chargesim_policy below: a probe shared by several descriptors tells them
 * apart by it (this one serves only one). */
static int tpl_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		     void **priv)
{
	struct tpl *t = calloc(1, sizeof(*t));

	(void)desc;
	if (!t)
		return -ENOMEM;
	t->board = board;
	t->p = params;
	t->nb.notifier_call = tpl_notify;
	INIT_WORK(&t->charger_work, tpl_charger_work);
	INIT_DELAYED_WORK(&t->watch_work, tpl_watch_work);
	usb_register_notifier(board->phy, &t->nb);
	*priv = t;
	return 0;
}

static void tpl_remove(void *priv)
{
	struct tpl *t = priv;

	usb_unregister_notifier(t->board->phy, &t->nb);
	cancel_work_sync(&t->charger_work);
	cancel_delayed_work_sync(&t->watch_work);
	free(t);
}

/* The one symbol chargesim looks for. */
const struct cs_policy_desc chargesim_policy = {
	.abi = CS_POLICY_ABI,
	.name = "template",
	.summary = "template: a fixed limit on DCPs, lowered while VBUS sags",
	.params = tpl_param_desc,
	.params_size = sizeof(struct tpl_params),
	.params_default = tpl_params_default,
	.probe = tpl_probe,
	.remove = tpl_remove,
};
