/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/property.h (chargesim) - firmware-agnostic device properties. Every device
 * here is described by a device-tree node, so these read its of_node.
 */
#ifndef CS_LINUX_PROPERTY_H
#define CS_LINUX_PROPERTY_H

#include <linux/kernel_types.h>

struct fwnode_operations;
struct fwnode_handle {
	const struct fwnode_operations *ops;
};

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
