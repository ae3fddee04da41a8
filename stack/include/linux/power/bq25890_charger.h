/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/power/bq25890_charger.h (chargesim) - the bq25890 driver's platform data:
 * an optional regulator description for its OTG boost output.
 */
#ifndef CS_LINUX_POWER_BQ25890_CHARGER_H
#define CS_LINUX_POWER_BQ25890_CHARGER_H

struct regulator_init_data;

struct bq25890_platform_data {
	const struct regulator_init_data *regulator_init_data;
};

#endif
