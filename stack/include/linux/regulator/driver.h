/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/regulator/driver.h (chargesim) - no regulator framework (CONFIG_REGULATOR is
 * not set): only the types a driver's disabled branch may name.
 */
#ifndef CS_LINUX_REGULATOR_DRIVER_H
#define CS_LINUX_REGULATOR_DRIVER_H

#include <linux/kernel_types.h>

struct regulator_dev;
struct regulator_init_data;
struct regulator_desc;
struct regulator_config;
struct regulator_ops;

#endif
