// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/usb_charger_fw.c - a charger driver that obeys the USB charger
 * framework literally: whatever limit it is told, it writes, with no ramp.
 *
 * This is what the only converted driver did in 2016 (the article). It listens to the
 * 2016 form (usb-charger.0, one limit, 1500 mA for any dedicated charger) when the
 * board has it, else to the merged form on the PHY (the type's max, up to 5 A for a
 * DCP). On a 1 A adapter both overload the adapter at once (bug zoo 3).
 */
#include <stdlib.h>
#include <linux/kernel_types.h>
#include <linux/usb/charger.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

struct ucfw {
	struct cs_board *board;
	struct notifier_block nb;
	struct work_struct work;
	unsigned int limit_ma;
	struct usb_charger *uchger;      /* the 2016 form's usb-charger.0, else NULL */
};

static void ucfw_work(struct work_struct *work)
{
	struct ucfw *u = container_of(work, struct ucfw, work);

	if (u->limit_ma > 0)
		cs_chg_set_input_current_limit(u->board->ic, (int)(u->limit_ma * 1000));
}

static int ucfw_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct ucfw *u = container_of(nb, struct ucfw, nb);

	/* On the PHY chain the merged framework's notifications carry the current in
	 * mA as the action and the PHY itself as data; USB_EVENT_* notifications
	 * carry the PHY driver's payload (mA pointer, gadget or NULL) instead. */
	if (!u->uchger && data != u->board->phy)
		return NOTIFY_DONE;
	u->limit_ma = (unsigned int)action;
	schedule_work(&u->work);
	return NOTIFY_OK;
}

static int ucfw_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		      void **priv)
{
	struct ucfw *u = calloc(1, sizeof(*u));

	(void)desc;
	(void)params;
	if (!u)
		return -ENOMEM;
	u->board = board;
	u->nb.notifier_call = ucfw_notify;
	INIT_WORK(&u->work, ucfw_work);
	u->uchger = usb_charger_find_by_name("usb-charger.0");
	if (u->uchger)
		usb_charger_register_notify(u->uchger, &u->nb);
	else
		usb_register_notifier(board->phy, &u->nb);
	*priv = u;
	return 0;
}

static void ucfw_remove(void *priv)
{
	struct ucfw *u = priv;

	if (u->uchger)
		usb_charger_unregister_notify(u->uchger, &u->nb);
	else
		usb_unregister_notifier(u->board->phy, &u->nb);
	cancel_work_sync(&u->work);
	free(u);
}

const struct cs_policy_desc policy_usb_charger_fw = {
	.abi = CS_POLICY_ABI,
	.name = "usb-charger-fw",
	.summary = "writes the USB charger framework's notified limit directly (2016 or merged form, per the board)",
	.probe = ucfw_probe,
	.remove = ucfw_remove,
};
