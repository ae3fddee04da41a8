/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/extcon.h (chargesim) - external connector devices, with the kernel's cable ids.
 *
 * An extcon device supports a fixed list of cables. Consumers register a notifier
 * for one cable id: extcon_register_notifier() refuses (-EINVAL) an id the device does
 * not list, EXTCON_NONE included - which is how a driver that registers for
 * EXTCON_NONE (axp288 after the 2015 API change) never hears of any cable. A
 * notifier runs only when its cable's state changes, with the new state as action.
 */
#ifndef CS_LINUX_EXTCON_H
#define CS_LINUX_EXTCON_H

#include <linux/kernel_types.h>
#include <linux/err.h>
#include <linux/notifier.h>

struct device;
struct device_node;

#define EXTCON_NONE          0
#define EXTCON_USB           1
#define EXTCON_USB_HOST      2
#define EXTCON_CHG_USB_SDP   5   /* Standard Downstream Port */
#define EXTCON_CHG_USB_DCP   6   /* Dedicated Charging Port */
#define EXTCON_CHG_USB_CDP   7   /* Charging Downstream Port */
#define EXTCON_CHG_USB_ACA   8   /* Accessory Charger Adapter */
#define EXTCON_CHG_USB_FAST  9
#define EXTCON_CHG_USB_SLOW  10
#define EXTCON_CHG_WPT       11  /* wireless */
#define EXTCON_CHG_USB_PD    12  /* USB Power Delivery */
#define EXTCON_DOCK          60  /* miscellaneous connectors */
#define EXTCON_JIG           61
#define EXTCON_MECHANICAL    62
#define EXTCON_NUM           63

#define CS_EXTCON_MAX_CABLES 16

struct extcon_dev {
	const char *name;
	struct device_node *cs_of_node;       /* for phandle lookups (may be NULL) */
	const unsigned int *supported_cable;  /* terminated by EXTCON_NONE */
	int max_supported;
	u32 state;                            /* bit i: supported_cable[i] attached */
	struct raw_notifier_head nh[CS_EXTCON_MAX_CABLES];
	struct raw_notifier_head nh_all;      /* every cable (extcon_register_notifier_all) */
	struct extcon_dev *cs_next;           /* the run's extcon devices */
};

/* Consumer API */
int extcon_get_state(struct extcon_dev *edev, unsigned int id);
int extcon_register_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb);
int extcon_unregister_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb);
int devm_extcon_register_notifier(struct device *dev, struct extcon_dev *edev, unsigned int id,
				  struct notifier_block *nb);
/* A notifier for every cable of the device: action is the new state of the cable that
 * changed, data the device (extcon_sync()). */
int extcon_register_notifier_all(struct extcon_dev *edev, struct notifier_block *nb);
int extcon_unregister_notifier_all(struct extcon_dev *edev, struct notifier_block *nb);
int devm_extcon_register_notifier_all(struct device *dev, struct extcon_dev *edev,
				      struct notifier_block *nb);
/* The extcon device a phandle property ("extcon") of dev's node names:
 * ERR_PTR(-ENODEV) without one, ERR_PTR(-EPROBE_DEFER) when it is not registered. */
struct extcon_dev *extcon_get_edev_by_phandle(struct device *dev, int index);
const char *extcon_get_edev_name(struct extcon_dev *edev);
const char *extcon_get_cable_name(unsigned int id);  /* "USB", "SDP", ... or NULL */
/* The run's extcon device of that name; ERR_PTR(-EPROBE_DEFER) when there is none. */
struct extcon_dev *extcon_get_extcon_dev(const char *name);

/* Provider API */
void cs_extcon_init(struct extcon_dev *edev, const char *name, const unsigned int *cables);
int extcon_set_state_sync(struct extcon_dev *edev, unsigned int id, bool state);

#endif
