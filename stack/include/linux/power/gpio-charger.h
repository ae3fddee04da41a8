/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/power/gpio-charger.h (chargesim) - gpio-charger's platform data, for boards
 * without a device tree: the supply's name and type and whom it supplies.
 */
#ifndef CS_LINUX_POWER_GPIO_CHARGER_H
#define CS_LINUX_POWER_GPIO_CHARGER_H

#include <linux/power_supply.h>
#include <linux/types.h>

struct gpio_charger_platform_data {
	const char *name;
	enum power_supply_type type;
	char **supplied_to;
	size_t num_supplicants;
};

#endif
