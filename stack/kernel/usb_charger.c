// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/usb_charger.c - the USB charger framework of the 2016 proposal (see
 * linux/usb/charger.h for what it does and why; the merged form is the kernel's own
 * drivers/usb/phy/phy.c).
 *
 * It keeps its decisions in a work item: the extcon notifier only records and
 * schedules, as the kernel code does.
 */
#include <string.h>
#include <linux/extcon.h>
#include <linux/power_supply.h>
#include <linux/usb/charger.h>
#include <linux/usb/gadget.h>
#include <linux/workqueue.h>
#include <chargesim/kernel.h>

/* ---- 2016 proposal ---- */

struct usb_charger *usb_charger_find_by_name(const char *name)
{
	struct usb_charger *uchger = cs_kernel()->uchger;

	return uchger && strcmp(uchger->name, name) == 0 ? uchger : NULL;
}

int usb_charger_register_notify(struct usb_charger *uchger, struct notifier_block *nb)
{
	return raw_notifier_chain_register(&uchger->uchger_nh, nb);
}

int usb_charger_unregister_notify(struct usb_charger *uchger, struct notifier_block *nb)
{
	return raw_notifier_chain_unregister(&uchger->uchger_nh, nb);
}

unsigned int usb_charger_get_current(struct usb_charger *uchger)
{
	return uchger->cur_limit;
}

enum usb_charger_type usb_charger_get_type(struct usb_charger *uchger)
{
	return uchger->type;
}

/* The framework asks the power supply for the type (the article: it "checks with the
 * configured power supply to see what USB subtype it is"). */
static enum usb_charger_type uchger_type_from_psy(struct usb_charger *uchger)
{
	union power_supply_propval val;

	if (!uchger->psy || power_supply_get_property(uchger->psy, POWER_SUPPLY_PROP_TYPE, &val))
		return UNKNOWN_TYPE;
	switch (val.intval) {
	case POWER_SUPPLY_TYPE_USB: return SDP_TYPE;
	case POWER_SUPPLY_TYPE_USB_DCP: return DCP_TYPE;
	case POWER_SUPPLY_TYPE_USB_CDP: return CDP_TYPE;
	case POWER_SUPPLY_TYPE_USB_ACA: return ACA_TYPE;
	default: return UNKNOWN_TYPE;
	}
}

static unsigned int uchger_limit(const struct usb_charger *uchger)
{
	if (uchger->state != USB_CHARGER_PRESENT)
		return 0;
	switch (uchger->type) {
	case SDP_TYPE: return uchger->sdp_drawn ? uchger->sdp_drawn : uchger->sdp_default;
	case DCP_TYPE: return uchger->dcp_default;
	case CDP_TYPE: return uchger->cdp_default;
	case ACA_TYPE: return uchger->aca_default;
	default: return 0;
	}
}

static void uchger_notify(struct usb_charger *uchger)
{
	unsigned int limit = uchger_limit(uchger);

	if (limit == uchger->cur_limit && uchger->state != USB_CHARGER_ABSENT)
		return;
	uchger->cur_limit = limit;
	cs_stack_event_int("usb_charger_notify", "mA", limit);
	raw_notifier_call_chain(&uchger->uchger_nh, limit, uchger);
}

static void uchger_work(struct work_struct *work)
{
	struct usb_charger *uchger = cs_kernel()->uchger;
	int usb = extcon_get_state(uchger->edev, EXTCON_USB);

	(void)work;
	if (usb > 0) {
		uchger->state = USB_CHARGER_PRESENT;
		uchger->type = uchger_type_from_psy(uchger);
	} else {
		uchger->state = USB_CHARGER_ABSENT;
		uchger->type = UNKNOWN_TYPE;
		uchger->sdp_drawn = 0;
	}
	uchger_notify(uchger);
}

static int uchger_extcon_cb(struct notifier_block *nb, unsigned long state, void *data)
{
	(void)nb;
	(void)state;
	(void)data;
	schedule_work(&cs_kernel()->uchger_work);
	return NOTIFY_OK;
}

void cs_usb_charger_2016_init(struct usb_charger *uchger, struct extcon_dev *edev,
			      struct power_supply *psy, struct usb_gadget *gadget)
{
	memset(uchger, 0, sizeof(*uchger));
	uchger->name = "usb-charger.0";
	uchger->edev = edev;
	uchger->psy = psy;
	uchger->gadget = gadget;
	uchger->sdp_default = 500;
	uchger->dcp_default = 1500;
	uchger->cdp_default = 1500;
	uchger->aca_default = 1500;
	uchger->state = USB_CHARGER_DEFAULT;
	if (gadget)
		gadget->charger = uchger;
	cs_kernel()->uchger = uchger;
	INIT_WORK(&cs_kernel()->uchger_work, uchger_work);
	uchger->extcon_nb.notifier_call = uchger_extcon_cb;
	/* Only EXTCON_USB, as in the proposal. */
	extcon_register_notifier(edev, EXTCON_USB, &uchger->extcon_nb);
}

void cs_usb_charger_2016_cleanup(struct usb_charger *uchger)
{
	extcon_unregister_notifier(uchger->edev, EXTCON_USB, &uchger->extcon_nb);
	cancel_work_sync(&cs_kernel()->uchger_work);
	if (cs_kernel()->uchger == uchger)
		cs_kernel()->uchger = NULL;
}

void cs_usb_charger_2016_vbus_draw(struct usb_charger *uchger, unsigned int mA)
{
	if (!uchger)
		return;
	uchger->sdp_drawn = mA;
	if (uchger->type == SDP_TYPE)
		uchger_notify(uchger);
}
