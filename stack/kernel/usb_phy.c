// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/usb_phy.c - the PHY notifier chain and its payload habits.
 */
#include <linux/usb/phy.h>

static const char *const usb_phy_event_names[] = {
	"none", "vbus", "id", "charger", "enumerated",
};

const char *usb_phy_event_name(enum usb_phy_events event)
{
	if ((unsigned)event < ARRAY_SIZE(usb_phy_event_names))
		return usb_phy_event_names[event];
	return "?";
}

int usb_register_notifier(struct usb_phy *x, struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&x->notifier, nb);
}

int usb_unregister_notifier(struct usb_phy *x, struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(&x->notifier, nb);
}

void cs_usb_phy_notify(struct usb_phy *x, enum usb_phy_events event, unsigned int mA)
{
	void *data = NULL;

	x->last_event = event;
	switch (x->cs_payload) {
	case CS_PHY_PAYLOAD_MA:
		x->cs_ma = mA;
		data = &x->cs_ma;
		break;
	case CS_PHY_PAYLOAD_GADGET:
		data = x->cs_gadget;
		break;
	case CS_PHY_PAYLOAD_NULL:
		data = NULL;
		break;
	}
	cs_stack_event("usb_phy_event", "event", usb_phy_event_name(event));
	atomic_notifier_call_chain(&x->notifier, event, data);
}
