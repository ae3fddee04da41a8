/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/usb/phy.h (chargesim) - the USB PHY as the kernel's drivers/usb/phy/phy.c
 * (compiled unmodified) and charger drivers see it: struct usb_phy, its events, the
 * merged USB charger framework's types, states and current table, and the calls.
 * Names, fields and semantics are Linux 6.12's include/linux/usb/phy.h and
 * uapi/linux/usb/charger.h; the text is this project's.
 *
 * A PHY glue driver announces VBUS, ID and charger changes on the PHY's notifier chain
 * (usb_register_notifier). What it passes as data differs between glue drivers; struct
 * usb_phy.cs_payload selects one of the habits found in the kernel: a pointer to the
 * available current in mA, a pointer to the gadget, or NULL (cs_usb_phy_notify()).
 * The merged USB charger framework (phy.c) attaches when usb_add_phy_dev() finds an
 * "extcon" property in the PHY's device-tree node: it learns the charger type from the
 * extcon device's SDP, CDP, DCP and ACA cables and notifies the same chain with the
 * type's maximum current in mA as the action and the PHY as data (0 on unplug).
 */
#ifndef CS_LINUX_USB_PHY_H
#define CS_LINUX_USB_PHY_H

#include <linux/kernel_types.h>
#include <linux/err.h>
#include <linux/extcon.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>
#include <chargesim/klog.h>

struct device;
struct device_node;
struct usb_otg;
struct usb_gadget;

enum usb_phy_events {
	USB_EVENT_NONE,         /* no event, or the cable went away */
	USB_EVENT_VBUS,         /* VBUS is valid */
	USB_EVENT_ID,           /* the ID pin is grounded */
	USB_EVENT_CHARGER,      /* a dedicated charger */
	USB_EVENT_ENUMERATED,   /* the gadget was enumerated */
};

enum usb_phy_type {
	USB_PHY_TYPE_UNDEFINED,
	USB_PHY_TYPE_USB2,
	USB_PHY_TYPE_USB3,
};

/* uapi/linux/usb/charger.h */
enum usb_charger_type {
	UNKNOWN_TYPE = 0,
	SDP_TYPE = 1,
	DCP_TYPE = 2,
	CDP_TYPE = 3,
	ACA_TYPE = 4,
};

enum usb_charger_state {
	USB_CHARGER_DEFAULT = 0,
	USB_CHARGER_PRESENT = 1,
	USB_CHARGER_ABSENT = 2,
};

/* The framework's [min, max] mA per charger type. */
struct usb_charger_current {
	unsigned int sdp_min;
	unsigned int sdp_max;
	unsigned int dcp_min;
	unsigned int dcp_max;
	unsigned int cdp_min;
	unsigned int cdp_max;
	unsigned int aca_min;
	unsigned int aca_max;
};

enum cs_phy_payload {
	CS_PHY_PAYLOAD_MA,      /* data points to an unsigned int: available mA */
	CS_PHY_PAYLOAD_GADGET,  /* data points to the struct usb_gadget */
	CS_PHY_PAYLOAD_NULL,    /* data is NULL */
};

struct usb_phy {
	struct device *dev;
	const char *label;
	unsigned int flags;
	enum usb_phy_type type;
	enum usb_phy_events last_event;
	struct usb_otg *otg;

	/* the extcon devices the framework listens to (usb_add_phy_dev) */
	struct extcon_dev *edev;
	struct extcon_dev *id_edev;
	struct notifier_block vbus_nb;
	struct notifier_block id_nb;
	struct notifier_block type_nb;

	/* the USB charger framework */
	enum usb_charger_type chg_type;
	enum usb_charger_state chg_state;
	struct usb_charger_current chg_cur;
	struct work_struct chg_work;

	struct atomic_notifier_head notifier;
	struct list_head head;   /* phy.c's list of PHYs */

	int (*init)(struct usb_phy *x);
	void (*shutdown)(struct usb_phy *x);
	int (*set_vbus)(struct usb_phy *x, int on);
	int (*set_power)(struct usb_phy *x, unsigned int mA);
	int (*set_suspend)(struct usb_phy *x, int suspend);
	int (*set_wakeup)(struct usb_phy *x, bool enabled);
	/* a PHY that detects the charger type itself (usb_phy_set_charger_state) */
	enum usb_charger_type (*charger_detect)(struct usb_phy *x);

	/* chargesim: the board's PHY glue */
	enum cs_phy_payload cs_payload;
	struct usb_gadget *cs_gadget;
	unsigned int cs_ma;          /* storage behind a mA payload */
	void *cs_priv;               /* the simulator's side of the PHY */
	struct notifier_block cs_log_nb;
};

/* Provider side: declare the PHY (its dev must be set, with a bound driver). */
int usb_add_phy(struct usb_phy *x, enum usb_phy_type type);
int usb_add_phy_dev(struct usb_phy *x);
void usb_remove_phy(struct usb_phy *x);

/* Finding the PHY: by type, by its device-tree node or a phandle property of the
 * consumer's node. The devm forms register nb (when given) on the PHY's chain and
 * unregister it when the consumer's driver goes away. Not found: ERR_PTR(-ENODEV) by
 * type, ERR_PTR(-EPROBE_DEFER) by node (the PHY's driver may come later). */
struct usb_phy *usb_get_phy(enum usb_phy_type type);
struct usb_phy *devm_usb_get_phy(struct device *dev, enum usb_phy_type type);
struct usb_phy *devm_usb_get_phy_by_phandle(struct device *dev, const char *phandle, u8 index);
struct usb_phy *devm_usb_get_phy_by_node(struct device *dev, struct device_node *node,
					 struct notifier_block *nb);
void usb_put_phy(struct usb_phy *x);
void devm_usb_put_phy(struct device *dev, struct usb_phy *x);
void usb_phy_set_event(struct usb_phy *x, unsigned long event);
/* The framework: a gadget's configured current becomes the current type's maximum
 * (at most 900 mA for an SDP); its [min, max]; a PHY that detects types itself. */
void usb_phy_set_charger_current(struct usb_phy *usb_phy, unsigned int mA);
void usb_phy_get_charger_current(struct usb_phy *usb_phy, unsigned int *min, unsigned int *max);
void usb_phy_set_charger_state(struct usb_phy *usb_phy, enum usb_charger_state state);

/* A gadget driver's vbus_draw(): the configured current feeds the framework, then the
 * PHY driver's own handler (if it has one) runs. */
static inline int usb_phy_set_power(struct usb_phy *x, unsigned int mA)
{
	if (!x)
		return 0;
	cs_stack_event_int("usb_phy_set_power", "mA", mA);   /* the event log's record */
	usb_phy_set_charger_current(x, mA);
	if (x->set_power)
		return x->set_power(x, mA);
	return 0;
}

static inline int usb_register_notifier(struct usb_phy *x, struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&x->notifier, nb);
}

static inline void usb_unregister_notifier(struct usb_phy *x, struct notifier_block *nb)
{
	atomic_notifier_chain_unregister(&x->notifier, nb);
}

static inline const char *usb_phy_type_string(enum usb_phy_type type)
{
	switch (type) {
	case USB_PHY_TYPE_USB2:
		return "USB2 PHY";
	case USB_PHY_TYPE_USB3:
		return "USB3 PHY";
	default:
		return "UNKNOWN PHY TYPE";
	}
}

/* chargesim, provider side: notify with this PHY's payload habit (mA used for the mA
 * habit), as a glue driver's interrupt does; and log each framework notification as a
 * `usb_charger_notify` record (call after usb_add_phy_dev(), which resets the chain). */
void cs_usb_phy_notify(struct usb_phy *x, enum usb_phy_events event, unsigned int mA);
void cs_usb_phy_log_framework(struct usb_phy *x);

#endif
