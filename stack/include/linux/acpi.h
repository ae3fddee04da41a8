/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/acpi.h (chargesim) - no ACPI: the simulated boards describe their devices
 * with device trees, and CONFIG_ACPI is not set (chargesim/kconfig.h), so drivers
 * take their non-ACPI paths. The x86 quirk helpers answer as for a tablet whose
 * native PMIC drivers are preferred over the firmware's ACPI battery code and whose
 * GPIO event handlers work (drivers/acpi/x86/utils.c decides this in a kernel).
 */
#ifndef CS_LINUX_ACPI_H
#define CS_LINUX_ACPI_H

#include <linux/kernel_types.h>
#include <linux/mod_devicetable.h>

#define ACPI_PTR(_ptr) (NULL)
static inline bool acpi_dev_present(const char *hid, const char *uid, s64 hrv)
{
	(void)hid;
	(void)uid;
	(void)hrv;
	return false;
}

static inline bool acpi_quirk_skip_acpi_ac_and_battery(void)
{
	return true;
}

static inline bool acpi_quirk_skip_gpio_event_handlers(void)
{
	return false;
}

#endif
