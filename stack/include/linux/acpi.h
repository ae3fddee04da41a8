/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/acpi.h (chargesim) - no ACPI tables: the simulated boards describe their
 * devices with device trees, and CONFIG_ACPI is not set (chargesim/kconfig.h), so
 * drivers take their non-ACPI paths. What a driver asks of ACPI directly is answered
 * per machine: a machine lists the devices its firmware's ACPI namespace holds
 * (struct cs_acpi_device; none on a device-tree board), and acpi_dev_present() and the
 * x86 quirk helpers answer from that list as drivers/acpi/x86/utils.c does on such a
 * machine (stack/kernel/acpi.c).
 */
#ifndef CS_LINUX_ACPI_H
#define CS_LINUX_ACPI_H

#include <linux/kernel_types.h>
#include <linux/mod_devicetable.h>

#define ACPI_PTR(_ptr) (NULL)

/* One present device of a machine's ACPI namespace: its _HID, _UID (NULL: none) and
 * _HRV (-1: none). A machine's list ends with a NULL hid. */
struct cs_acpi_device {
	const char *hid;
	const char *uid;
	s64 hrv;
};

/* A present device with this _HID, and this _UID unless uid is NULL, and this _HRV
 * unless hrv is -1. */
bool acpi_dev_present(const char *hid, const char *uid, s64 hrv);

struct acpi_device;

/* The first present device with this _HID (and _UID, _HRV as for acpi_dev_present()),
 * or NULL; release it with acpi_dev_put(). */
struct acpi_device *acpi_dev_get_first_match_dev(const char *hid, const char *uid, s64 hrv);
/* Its device name, "<_HID>:<instance>" as the kernel names it ("INT3496:00"). */
const char *acpi_dev_name(struct acpi_device *adev);
void acpi_dev_put(struct acpi_device *adev);

/* Whether the native PMIC drivers (axp288_charger, axp288_fuel_gauge) are to be used
 * instead of the firmware's ACPI AC and battery devices: true when the machine has an
 * X-Powers AXP288 or an Intel Cherry Trail Whiskey Cove PMIC, false otherwise (a
 * driver then refuses to probe). */
bool acpi_quirk_skip_acpi_ac_and_battery(void);

static inline bool acpi_quirk_skip_gpio_event_handlers(void)
{
	return false;
}

#endif
