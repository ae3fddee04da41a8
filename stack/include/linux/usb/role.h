/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/usb/role.h (chargesim) - USB role switches (the kernel's
 * drivers/usb/roles/class.c API): a mux that connects the port's data lines to the
 * host controller, the device controller or neither. The provider registers it with
 * set/get callbacks and a firmware node; consumers find it by that node.
 *
 * Semantics kept from class.c: a NULL switch is "no switch" (set_role returns 0,
 * get_role USB_ROLE_NONE); a successful set remembers the role, which get_role returns
 * when the provider has no get callback.
 */
#ifndef CS_LINUX_USB_ROLE_H
#define CS_LINUX_USB_ROLE_H

#include <linux/kernel_types.h>

struct device;
struct fwnode_handle;
struct usb_role_switch;

enum usb_role {
	USB_ROLE_NONE,
	USB_ROLE_HOST,
	USB_ROLE_DEVICE,
};

typedef int (*usb_role_switch_set_t)(struct usb_role_switch *sw, enum usb_role role);
typedef enum usb_role (*usb_role_switch_get_t)(struct usb_role_switch *sw);

struct usb_role_switch_desc {
	struct fwnode_handle *fwnode;
	usb_role_switch_set_t set;
	usb_role_switch_get_t get;
	bool allow_userspace_control;
	void *driver_data;
	const char *name;
};

int usb_role_switch_set_role(struct usb_role_switch *sw, enum usb_role role);
enum usb_role usb_role_switch_get_role(struct usb_role_switch *sw);
/* The registered switch with this firmware node, or NULL. */
struct usb_role_switch *usb_role_switch_find_by_fwnode(const struct fwnode_handle *fwnode);
void usb_role_switch_put(struct usb_role_switch *sw);
/* ERR_PTR(-EINVAL) without a set callback. */
struct usb_role_switch *usb_role_switch_register(struct device *parent,
						 const struct usb_role_switch_desc *desc);
void usb_role_switch_unregister(struct usb_role_switch *sw);
void *usb_role_switch_get_drvdata(struct usb_role_switch *sw);
/* "none", "host", "device" */
const char *usb_role_string(enum usb_role role);

#endif
