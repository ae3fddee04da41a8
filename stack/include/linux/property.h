/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/property.h (chargesim) - firmware-agnostic device properties. Every device
 * here is described by a device-tree node, so these read its of_node. Software nodes
 * (what an x86 platform driver registers for a device no firmware describes, such as
 * the Intel xHCI's USB role switch "intel-xhci-usb-sw") are found by name and give a
 * firmware node handle other devices are matched by (usb_role_switch_find_by_fwnode).
 */
#ifndef CS_LINUX_PROPERTY_H
#define CS_LINUX_PROPERTY_H

#include <linux/kernel_types.h>

struct fwnode_operations;
struct fwnode_handle {
	const struct fwnode_operations *ops;
};

struct property_entry;

struct software_node {
	const char *name;
	const struct software_node *parent;
	const struct property_entry *properties;
};

/* 0, or -EEXIST when the node is registered already. */
int software_node_register(const struct software_node *node);
void software_node_unregister(const struct software_node *node);
/* The registered node with this name (and this parent unless parent is NULL), or NULL. */
const struct software_node *software_node_find_by_name(const struct software_node *parent,
						       const char *name);
/* The node's handle, or NULL when it is not registered. */
struct fwnode_handle *software_node_fwnode(const struct software_node *node);
/* Handles are not reference-counted here: the registration owns them. */
static inline void fwnode_handle_put(struct fwnode_handle *fwnode)
{
	(void)fwnode;
}

bool device_property_read_bool(const struct device *dev, const char *propname);
int device_property_read_u32_array(const struct device *dev, const char *propname,
				   u32 *val, size_t nval);
int device_property_read_string(const struct device *dev, const char *propname,
				const char **val);

static inline int device_property_read_u32(const struct device *dev, const char *propname,
					   u32 *val)
{
	return device_property_read_u32_array(dev, propname, val, 1);
}

#endif
