/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/extcon.h (chargesim) - external connectors as a consumer sees them: the
 * kernel's cable ids, cable types and properties, and the consumer calls (names,
 * numbers and semantics from Linux 6.12's include/linux/extcon.h; the text is this
 * project's).
 *
 * struct extcon_dev is private to the extcon core (drivers/extcon/extcon.h); a
 * consumer holds a pointer. extcon_register_notifier() refuses (-EINVAL) an id the
 * device does not list, EXTCON_NONE included - which is how a driver that registers
 * for EXTCON_NONE (axp288 after the 2015 API change) never hears of any cable. A
 * cable's notifiers run on every extcon_set_state_sync() or extcon_sync() of it,
 * changed or not (drivers/extcon/extcon.c: extcon_sync() calls the chains
 * unconditionally), with the cable's state as action and the device as data.
 */
#ifndef CS_LINUX_EXTCON_H
#define CS_LINUX_EXTCON_H

#include <linux/kernel_types.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/notifier.h>

struct device_node;
struct extcon_dev;

/* Cable types: a cable may be of several (EXTCON_CHG_USB_SDP is USB and charger). */
#define EXTCON_TYPE_USB		BIT(0)
#define EXTCON_TYPE_CHG		BIT(1)
#define EXTCON_TYPE_JACK	BIT(2)
#define EXTCON_TYPE_DISP	BIT(3)
#define EXTCON_TYPE_MISC	BIT(4)

/* Cable ids */
#define EXTCON_NONE		0
#define EXTCON_USB		1
#define EXTCON_USB_HOST		2
#define EXTCON_CHG_USB_SDP	5	/* Standard Downstream Port */
#define EXTCON_CHG_USB_DCP	6	/* Dedicated Charging Port */
#define EXTCON_CHG_USB_CDP	7	/* Charging Downstream Port */
#define EXTCON_CHG_USB_ACA	8	/* Accessory Charger Adapter */
#define EXTCON_CHG_USB_FAST	9
#define EXTCON_CHG_USB_SLOW	10
#define EXTCON_CHG_WPT		11	/* wireless */
#define EXTCON_CHG_USB_PD	12	/* USB Power Delivery */
#define EXTCON_JACK_MICROPHONE	20
#define EXTCON_JACK_HEADPHONE	21
#define EXTCON_JACK_LINE_IN	22
#define EXTCON_JACK_LINE_OUT	23
#define EXTCON_JACK_VIDEO_IN	24
#define EXTCON_JACK_VIDEO_OUT	25
#define EXTCON_JACK_SPDIF_IN	26
#define EXTCON_JACK_SPDIF_OUT	27
#define EXTCON_DISP_HDMI	40
#define EXTCON_DISP_MHL		41
#define EXTCON_DISP_DVI		42
#define EXTCON_DISP_VGA		43
#define EXTCON_DISP_DP		44
#define EXTCON_DISP_HMD		45
#define EXTCON_DISP_CVBS	46
#define EXTCON_DISP_EDP		47
#define EXTCON_DOCK		60
#define EXTCON_JIG		61
#define EXTCON_MECHANICAL	62
#define EXTCON_NUM		63

/* Cable properties, numbered per type */
#define EXTCON_PROP_USB_VBUS		0
#define EXTCON_PROP_USB_TYPEC_POLARITY	1
#define EXTCON_PROP_USB_SS		2
#define EXTCON_PROP_USB_MIN		0
#define EXTCON_PROP_USB_MAX		2
#define EXTCON_PROP_USB_CNT		(EXTCON_PROP_USB_MAX - EXTCON_PROP_USB_MIN + 1)
#define EXTCON_PROP_CHG_MIN		50
#define EXTCON_PROP_CHG_MAX		50
#define EXTCON_PROP_CHG_CNT		(EXTCON_PROP_CHG_MAX - EXTCON_PROP_CHG_MIN + 1)
#define EXTCON_PROP_JACK_MIN		100
#define EXTCON_PROP_JACK_MAX		100
#define EXTCON_PROP_JACK_CNT		(EXTCON_PROP_JACK_MAX - EXTCON_PROP_JACK_MIN + 1)
#define EXTCON_PROP_DISP_HPD		150
#define EXTCON_PROP_DISP_MIN		150
#define EXTCON_PROP_DISP_MAX		151
#define EXTCON_PROP_DISP_CNT		(EXTCON_PROP_DISP_MAX - EXTCON_PROP_DISP_MIN + 1)

union extcon_property_value {
	int intval;
};

/* Consumer API: the state of one cable (1 attached, 0 not, -EINVAL not listed). */
int extcon_get_state(struct extcon_dev *edev, unsigned int id);
int extcon_get_property(struct extcon_dev *edev, unsigned int id, unsigned int prop,
			union extcon_property_value *prop_val);
int extcon_get_property_capability(struct extcon_dev *edev, unsigned int id,
				   unsigned int prop);
int extcon_register_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb);
int extcon_unregister_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb);
int devm_extcon_register_notifier(struct device *dev, struct extcon_dev *edev, unsigned int id,
				  struct notifier_block *nb);
void devm_extcon_unregister_notifier(struct device *dev, struct extcon_dev *edev,
				     unsigned int id, struct notifier_block *nb);
/* A notifier for every cable of the device: action is the state of the cable synced. */
int extcon_register_notifier_all(struct extcon_dev *edev, struct notifier_block *nb);
int extcon_unregister_notifier_all(struct extcon_dev *edev, struct notifier_block *nb);
int devm_extcon_register_notifier_all(struct device *dev, struct extcon_dev *edev,
				      struct notifier_block *nb);
void devm_extcon_unregister_notifier_all(struct device *dev, struct extcon_dev *edev,
					 struct notifier_block *nb);
/* The device whose name (its parent device's name) is extcon_name;
 * ERR_PTR(-EPROBE_DEFER) when none is registered (its driver may come later). */
struct extcon_dev *extcon_get_extcon_dev(const char *extcon_name);
/* The device a node's parent device was made from; ERR_PTR(-EPROBE_DEFER) if none. */
struct extcon_dev *extcon_find_edev_by_node(struct device_node *node);
/* The device the "extcon" phandle property of dev's node names at index: ERR_PTR(-EINVAL)
 * without a node, ERR_PTR(-ENODEV) without the property, else as by node. */
struct extcon_dev *extcon_get_edev_by_phandle(struct device *dev, int index);
const char *extcon_get_edev_name(struct extcon_dev *edev);

/* chargesim: a cable's name as extcon's sysfs shows it ("USB", "SDP", ...; NULL for an
 * id that is not a cable), for the event log. */
const char *cs_extcon_cable_name(unsigned int id);

#endif
