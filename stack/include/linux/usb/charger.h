/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/usb/charger.h (chargesim) - the USB charger framework as the 2016 proposal
 * (Baolin Wang, v15) had it, which the seed patch's policy usb-charger-fw was written
 * against: one `usb-charger.0` object per gadget. It hears only EXTCON_USB from the
 * extcon device, asks the USB power supply for its type, and tells its listeners one
 * current limit: the type's default (1500 mA for DCP, CDP and ACA; for an SDP the value
 * the gadget's vbus_draw() reported, 500 mA before). Listeners get the limit in mA as
 * the notifier action and the charger as data.
 *
 * The framework as merged (2018) is the kernel's own drivers/usb/phy/phy.c, on the PHY
 * (linux/usb/phy.h).
 */
#ifndef CS_LINUX_USB_CHARGER_H
#define CS_LINUX_USB_CHARGER_H

#include <linux/kernel_types.h>
#include <linux/notifier.h>
#include <linux/usb/phy.h>

struct extcon_dev;
struct power_supply;
struct usb_gadget;

/* The 2016 framework object. */
struct usb_charger {
	const char *name;
	struct raw_notifier_head uchger_nh;
	enum usb_charger_type type;
	enum usb_charger_state state;
	unsigned int cur_limit;          /* mA notified last */
	unsigned int sdp_default, dcp_default, cdp_default, aca_default;
	unsigned int sdp_drawn;          /* from vbus_draw(), 0 until configured */
	struct extcon_dev *edev;
	struct power_supply *psy;
	struct usb_gadget *gadget;
	struct notifier_block extcon_nb;
};

/* 2016 API */
struct usb_charger *usb_charger_find_by_name(const char *name);
int usb_charger_register_notify(struct usb_charger *uchger, struct notifier_block *nb);
int usb_charger_unregister_notify(struct usb_charger *uchger, struct notifier_block *nb);
unsigned int usb_charger_get_current(struct usb_charger *uchger);
enum usb_charger_type usb_charger_get_type(struct usb_charger *uchger);

/* Provider side (chargesim) */
void cs_usb_charger_2016_init(struct usb_charger *uchger, struct extcon_dev *edev,
			      struct power_supply *psy, struct usb_gadget *gadget);
void cs_usb_charger_2016_cleanup(struct usb_charger *uchger);
/* The gadget's vbus_draw() passes through here in the 2016 form. */
void cs_usb_charger_2016_vbus_draw(struct usb_charger *uchger, unsigned int mA);

#endif
