/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/extcon-provider.h (chargesim) - the side of the extcon API a driver that
 * reports cables uses (drivers/extcon/extcon-axp288.c): a device allocated and
 * registered with device-managed lifetimes, named after its parent device as the
 * kernel's extcon_dev_register() names it, and set with extcon_set_state_sync()
 * (linux/extcon.h).
 */
#ifndef CS_LINUX_EXTCON_PROVIDER_H
#define CS_LINUX_EXTCON_PROVIDER_H

#include <linux/extcon.h>

struct device;

/* An extcon device for the EXTCON_NONE-terminated cable list, freed with dev;
 * ERR_PTR(-EINVAL) without a list, ERR_PTR(-ENOMEM) when out of memory. */
struct extcon_dev *devm_extcon_dev_allocate(struct device *dev, const unsigned int *cable);
/* Register it under dev's name (extcon_get_extcon_dev() finds it by that name) until
 * dev's managed resources are released. 0 or a negative errno. */
int devm_extcon_dev_register(struct device *dev, struct extcon_dev *edev);

#endif
