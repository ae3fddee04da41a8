/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/kconfig.h - the kernel configuration the real Linux drivers are built
 * with, forced into each driver file with -include (the Makefile's KCFLAGS), as Kbuild
 * forces include/generated/autoconf.h. KBUILD_MODNAME and the file's name come from
 * the command line.
 *
 * Enabled: CONFIG_OF (device trees are how the simulated boards describe the drivers'
 * hardware), CONFIG_PM (runtime PM calls compile; they do nothing here).
 * Left out on purpose, so that the drivers' own #ifdef fallbacks are used:
 * CONFIG_ACPI (no ACPI tables), CONFIG_REGULATOR (a driver cannot register a
 * regulator: bq25890's OTG boost regulator is not registered; the consumer API of
 * linux/regulator/consumer.h still reaches the board's regulators), CONFIG_PM_SLEEP
 * (no system suspend callbacks), CONFIG_THERMAL (charger-manager reads the fuel
 * gauge's TEMP instead of a thermal zone), CONFIG_RTC_CLASS (alarmtimer_get_rtcdev()
 * is NULL; alarm timers still run), CONFIG_LEDS_TRIGGERS.
 */
#ifndef CS_CHARGESIM_KCONFIG_H
#define CS_CHARGESIM_KCONFIG_H

#define __KERNEL__ 1
#define CONFIG_OF 1
#define CONFIG_PM 1

#endif
