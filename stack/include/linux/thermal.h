/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/thermal.h (chargesim) - no thermal framework (CONFIG_THERMAL is not set):
 * the types a driver's disabled branches name. Drivers use their fallbacks (for
 * charger-manager: the fuel gauge's TEMP property).
 */
#ifndef CS_LINUX_THERMAL_H
#define CS_LINUX_THERMAL_H

struct thermal_zone_device;
struct thermal_cooling_device;

#endif
