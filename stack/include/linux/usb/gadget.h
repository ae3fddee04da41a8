/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/usb/gadget.h (chargesim) - the USB device side: composite configurations with
 * MaxPower, and the UDC's vbus_draw().
 *
 * A gadget offers one or more configurations (as configfs allows); each declares
 * MaxPower, which the descriptor stores in 2 mA units at USB 2 speeds and 8 mA units
 * at SuperSpeed. Most function drivers leave it at CONFIG_USB_GADGET_VBUS_DRAW,
 * 2 mA by default. When the host selects a configuration, the composite core calls
 * usb_gadget_vbus_draw(MaxPower); at suspend it calls it with 2 (the USB 2.0 suspend
 * allowance is 2.5 mA, which an unsigned mA cannot carry).
 */
#ifndef CS_LINUX_USB_GADGET_H
#define CS_LINUX_USB_GADGET_H

#include <linux/kernel_types.h>

#define CONFIG_USB_GADGET_VBUS_DRAW 2
#define CS_GADGET_MAX_CONFIGS 8

enum usb_device_speed {
	USB_SPEED_UNKNOWN = 0,
	USB_SPEED_LOW,
	USB_SPEED_FULL,
	USB_SPEED_HIGH,
	USB_SPEED_WIRELESS,
	USB_SPEED_SUPER,
	USB_SPEED_SUPER_PLUS,
};

struct usb_gadget;

struct usb_gadget_ops {
	int (*vbus_draw)(struct usb_gadget *gadget, unsigned int mA);
};

struct usb_configuration {
	const char *label;
	u8 bConfigurationValue;
	unsigned int MaxPower;   /* mA as written in configfs */
};

struct usb_charger;

struct usb_gadget {
	const char *name;
	const struct usb_gadget_ops *ops;
	enum usb_device_speed speed;
	struct usb_charger *charger;      /* the 2016 framework's charger, if any */
	int cs_n_configs;
	struct usb_configuration cs_configs[CS_GADGET_MAX_CONFIGS];
	int cs_selected;                  /* index of the configuration in use, -1 none */
	void *cs_priv;
};

static inline bool gadget_is_superspeed_speed(enum usb_device_speed s)
{
	return s >= USB_SPEED_SUPER;
}

/* bMaxPower as the descriptor carries it (the composite core caps at 500 / 900 mA and
 * rounds down to the unit), and back to mA. */
static inline u8 usb_encode_max_power(enum usb_device_speed speed, unsigned int mA)
{
	if (gadget_is_superspeed_speed(speed))
		return (u8)((mA > 900 ? 900 : mA) / 8);
	return (u8)((mA > 500 ? 500 : mA) / 2);
}

static inline unsigned int usb_decode_max_power(enum usb_device_speed speed, u8 bMaxPower)
{
	return bMaxPower * (gadget_is_superspeed_speed(speed) ? 8u : 2u);
}

int usb_gadget_vbus_draw(struct usb_gadget *gadget, unsigned int mA);

#endif
