/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/usb/charger.h (chargesim) - the USB charger framework, in both of its forms.
 *
 * 2016 proposal (Baolin Wang, v15): one `usb-charger.0` object per gadget. It hears
 * only EXTCON_USB from the extcon device, asks the USB power supply for its type,
 * and tells its listeners one current limit: the type's default (1500 mA for DCP, CDP
 * and ACA; for an SDP the value the gadget's vbus_draw() reported, 500 mA before).
 * Listeners get the limit in mA as the notifier action and the charger as data.
 *
 * Merged form (usb_phy, 2018): the PHY keeps a [min, max] table per charger type
 * (SDP 2/500, SuperSpeed 150/900, DCP 500/5000, CDP 1500/5000, ACA 1500/5000 mA),
 * learns the type from the extcon charger cables, and notifies its usb_phy chain with
 * the type's *max* in mA as the action and the PHY as data.
 */
#ifndef CS_LINUX_USB_CHARGER_H
#define CS_LINUX_USB_CHARGER_H

#include <linux/kernel_types.h>
#include <linux/notifier.h>
#include <linux/usb/phy.h>

enum usb_charger_state {
	USB_CHARGER_DEFAULT = 0,
	USB_CHARGER_PRESENT,
	USB_CHARGER_ABSENT,
};

struct usb_charger_current {
	unsigned int sdp_min, sdp_max;
	unsigned int dcp_min, dcp_max;
	unsigned int cdp_min, cdp_max;
	unsigned int aca_min, aca_max;
};

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

/* Merged API (on the PHY) */
void usb_phy_get_charger_current(struct usb_phy *phy, unsigned int *min, unsigned int *max);
void usb_phy_set_charger_current(struct usb_phy *phy, unsigned int mA);

/* Provider side (chargesim) */
void cs_usb_charger_2016_init(struct usb_charger *uchger, struct extcon_dev *edev,
			      struct power_supply *psy, struct usb_gadget *gadget);
void cs_usb_charger_2016_cleanup(struct usb_charger *uchger);
/* The gadget's vbus_draw() passes through here in the 2016 form. */
void cs_usb_charger_2016_vbus_draw(struct usb_charger *uchger, unsigned int mA);
void cs_usb_phy_charger_init(struct usb_phy *phy, struct extcon_dev *edev, bool superspeed);
void cs_usb_phy_charger_cleanup(struct usb_phy *phy);

#endif
