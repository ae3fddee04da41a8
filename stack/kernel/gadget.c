// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/gadget.c - usb_gadget_vbus_draw(): the composite core's report of the
 * configured current to the UDC driver, logged as a `vbus_draw` event.
 */
#include <linux/usb/gadget.h>

int usb_gadget_vbus_draw(struct usb_gadget *gadget, unsigned int mA)
{
	cs_stack_event_int("vbus_draw", "mA", mA);
	if (!gadget || !gadget->ops || !gadget->ops->vbus_draw)
		return -EOPNOTSUPP;
	return gadget->ops->vbus_draw(gadget, mA);
}
