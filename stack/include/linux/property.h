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

bool device_property_present(const struct device *dev, const char *propname);
bool device_property_read_bool(const struct device *dev, const char *propname);
int device_property_read_u32_array(const struct device *dev, const char *propname,
				   u32 *val, size_t nval);
int device_property_read_u8_array(const struct device *dev, const char *propname,
				  u8 *val, size_t nval);
int device_property_read_string(const struct device *dev, const char *propname,
				const char **val);
int device_property_read_string_array(const struct device *dev, const char *propname,
				      const char **val, size_t nval);
int device_property_match_string(const struct device *dev, const char *propname,
				 const char *string);
const void *device_get_match_data(const struct device *dev);

static inline int device_property_read_u32(const struct device *dev, const char *propname,
					   u32 *val)
{
	return device_property_read_u32_array(dev, propname, val, 1);
}
static inline int device_property_read_u8(const struct device *dev, const char *propname, u8 *val)
{
	return device_property_read_u8_array(dev, propname, val, 1);
}
static inline int device_property_count_u32(const struct device *dev, const char *propname)
{
	return device_property_read_u32_array(dev, propname, NULL, 0);
}

bool fwnode_property_present(const struct fwnode_handle *fwnode, const char *propname);
int fwnode_property_read_u32_array(const struct fwnode_handle *fwnode, const char *propname,
				   u32 *val, size_t nval);
int fwnode_property_read_string(const struct fwnode_handle *fwnode, const char *propname,
				const char **val);
static inline int fwnode_property_read_u32(const struct fwnode_handle *fwnode,
					   const char *propname, u32 *val)
{
	return fwnode_property_read_u32_array(fwnode, propname, val, 1);
}

#endif
