/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/regulator/consumer.h (chargesim) - the regulator consumer API over the
 * board's regulators (linux/regulator/driver.h).
 *
 * regulator_get(dev, id) finds the regulator the device's node names in its
 * "<id>-supply" property (-EPROBE_DEFER while none is registered for that node),
 * else one whose regulator-name is id, else - the device tree being complete -
 * the dummy regulator (always on, no current control) with a warning. Each get is
 * one consumer with its own enable count; the regulator is switched on by the first
 * consumer's enable and off when the last one disables it (unless always-on);
 * regulator_force_disable() switches it off whatever the counts say.
 * regulator_set_current_limit() clamps the request to the constraints (-EPERM when
 * they allow no current change) and lets the hardware pick within it.
 * Semantics: drivers/regulator/core.c (Linux 6.12); the code is this project's.
 */
#ifndef CS_LINUX_REGULATOR_CONSUMER_H
#define CS_LINUX_REGULATOR_CONSUMER_H

#include <linux/regulator/driver.h>

struct device;
struct regulator;

struct regulator *regulator_get(struct device *dev, const char *id);
void regulator_put(struct regulator *regulator);
int regulator_enable(struct regulator *regulator);
int regulator_disable(struct regulator *regulator);
int regulator_force_disable(struct regulator *regulator);
int regulator_is_enabled(struct regulator *regulator);
int regulator_set_current_limit(struct regulator *regulator, int min_uA, int max_uA);
int regulator_get_current_limit(struct regulator *regulator);

#endif
