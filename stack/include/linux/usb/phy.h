/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/usb/phy.h (chargesim) - the USB PHY as charger drivers see it.
 *
 * A PHY driver announces VBUS, ID and charger changes on its notifier chain
 * (usb_register_notifier). What it passes as the notifier's data differs between PHY
 * drivers; struct usb_phy.cs_payload selects one of the three habits found in the
 * kernel: a pointer to the available current in mA, a pointer to the gadget, or NULL.
 * usb_phy_set_power() is how a gadget driver's vbus_draw() reports the configured
 * current down to the PHY (and, if the PHY passes it on, to the charger).
 */
#ifndef CS_LINUX_USB_PHY_H
#define CS_LINUX_USB_PHY_H

#include <linux/kernel_types.h>
#include <linux/err.h>
#include <linux/notifier.h>

struct device_node;

enum usb_phy_events {
	USB_EVENT_NONE,
	USB_EVENT_VBUS,
	USB_EVENT_ID,
	USB_EVENT_CHARGER,
	USB_EVENT_ENUMERATED,
};

/* The merged USB charger framework's charger types (uapi/linux/usb/charger.h). */
enum usb_charger_type {
	UNKNOWN_TYPE = 0,
	SDP_TYPE = 1,
	DCP_TYPE = 2,
	CDP_TYPE = 3,
	ACA_TYPE = 4,
};

enum cs_phy_payload {
	CS_PHY_PAYLOAD_MA,      /* data points to an unsigned int: available mA */
	CS_PHY_PAYLOAD_GADGET,  /* data points to the struct usb_gadget */
	CS_PHY_PAYLOAD_NULL,    /* data is NULL */
};

enum usb_phy_type {
	USB_PHY_TYPE_UNDEFINED,
	USB_PHY_TYPE_USB2,
	USB_PHY_TYPE_USB3,
};

struct usb_gadget;

struct usb_phy {
	struct device *dev;
	const char *label;
	enum usb_phy_type type;
	enum usb_phy_events last_event;
	struct atomic_notifier_head notifier;
	enum usb_charger_type chg_type;
	/* set_power: the PHY's own handler of usb_phy_set_power() (may be NULL) */
	int (*set_power)(struct usb_phy *x, unsigned int mA);
	/* chargesim */
	enum cs_phy_payload cs_payload;
	struct usb_gadget *cs_gadget;
	unsigned int cs_ma;          /* storage behind a mA payload */
	void *cs_priv;               /* the simulator's side of the PHY */
	struct usb_phy *cs_next;     /* the run's PHYs (usb_add_phy_dev) */
};

void usb_phy_set_charger_current(struct usb_phy *phy, unsigned int mA);

/* As in the merged kernel: the configured current also feeds the charger framework's
 * SDP maximum, then the PHY driver's own handler (if it has one) runs. */
static inline int usb_phy_set_power(struct usb_phy *x, unsigned int mA)
{
	if (!x)
		return 0;
	cs_stack_event_int("usb_phy_set_power", "mA", mA);
	usb_phy_set_charger_current(x, mA);
	if (x->set_power)
		return x->set_power(x, mA);
	return 0;
}

/* Finding the PHY: by type, by its device-tree node or a phandle property of the
 * consumer's node. The devm forms register nb (when given) on the PHY's chain and
 * unregister it when the consumer's driver goes away. Not found: ERR_PTR(-ENODEV) by
 * type, ERR_PTR(-EPROBE_DEFER) by node (the PHY's driver may come later). */
struct usb_phy *usb_get_phy(enum usb_phy_type type);
struct usb_phy *devm_usb_get_phy(struct device *dev, enum usb_phy_type type);
struct usb_phy *devm_usb_get_phy_by_node(struct device *dev, struct device_node *node,
					 struct notifier_block *nb);
struct usb_phy *devm_usb_get_phy_by_phandle(struct device *dev, const char *phandle_name, u8 index);
/* Provider side: make the PHY findable in this run. */
int usb_add_phy_dev(struct usb_phy *x);
void usb_remove_phy(struct usb_phy *x);

int usb_register_notifier(struct usb_phy *x, struct notifier_block *nb);
int usb_unregister_notifier(struct usb_phy *x, struct notifier_block *nb);
/* Provider side: notify with this PHY's payload habit (mA used for the mA habit). */
void cs_usb_phy_notify(struct usb_phy *x, enum usb_phy_events event, unsigned int mA);

#endif
