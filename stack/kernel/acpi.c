// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/acpi.c - the answers drivers get from ACPI, from the machine's list of
 * ACPI devices (cs_kernel()->acpi_devices; a device-tree machine has none), and from
 * the x86 platform: the machine's CPU (cs_kernel()->x86_vfm).
 */
#include <string.h>
#include <glib.h>
#include <linux/acpi.h>
#include <asm/cpu_device_id.h>
#include <chargesim/kernel.h>

bool acpi_dev_present(const char *hid, const char *uid, s64 hrv)
{
	const struct cs_acpi_device *d = cs_kernel() ? cs_kernel()->acpi_devices : NULL;

	for (; d && d->hid; d++) {
		if (strcmp(d->hid, hid) != 0)
			continue;
		if (uid && (!d->uid || strcmp(d->uid, uid) != 0))
			continue;
		if (hrv != -1 && d->hrv != hrv)
			continue;
		return true;
	}
	return false;
}

/*
 * drivers/acpi/x86/utils.c (6.12): no DMI quirk matches here (linux/dmi.h), so the
 * answer is whether one of the PMICs with native drivers is present with _UID "1": the
 * X-Powers AXP288 (INT33F4, any _HRV) or the Cherry Trail Whiskey Cove (INT34D3,
 * _HRV 3). On a machine without such a PMIC the ACPI battery driver is kept and
 * axp288_charger's probe returns -ENODEV.
 */
bool acpi_quirk_skip_acpi_ac_and_battery(void)
{
	static const struct {
		const char *hid;
		s64 hrv;
	} native_pmics[] = {
		{ "INT33F4", -1 },
		{ "INT34D3", 3 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(native_pmics); i++)
		if (acpi_dev_present(native_pmics[i].hid, "1", native_pmics[i].hrv))
			return true;
	return false;
}

/* ---- the platform: ACPI devices by _HID, the CPU ---- */

struct acpi_device {
	const struct cs_acpi_device *fw;
	char name[32];
};

/* The kernel names an ACPI device "<_HID>:<instance>", instances of a _HID counted
 * from 00 in namespace order (drivers/acpi/scan.c). */
struct acpi_device *acpi_dev_get_first_match_dev(const char *hid, const char *uid, s64 hrv)
{
	const struct cs_acpi_device *d = cs_kernel() ? cs_kernel()->acpi_devices : NULL;
	int instance = 0;

	for (; d && d->hid; d++) {
		struct acpi_device *adev;

		if (strcmp(d->hid, hid) != 0)
			continue;
		if ((uid && (!d->uid || strcmp(d->uid, uid) != 0)) || (hrv != -1 && d->hrv != hrv)) {
			instance++;
			continue;
		}
		adev = g_new0(struct acpi_device, 1);
		adev->fw = d;
		g_snprintf(adev->name, sizeof(adev->name), "%s:%02x", hid, instance);
		return adev;
	}
	return NULL;
}

const char *acpi_dev_name(struct acpi_device *adev)
{
	return adev->name;
}

void acpi_dev_put(struct acpi_device *adev)
{
	g_free(adev);
}

const struct x86_cpu_id *x86_match_cpu(const struct x86_cpu_id *match)
{
	u32 vfm = cs_kernel() ? cs_kernel()->x86_vfm : 0;

	if (!vfm)
		return NULL;
	for (const struct x86_cpu_id *m = match; m->flags & X86_CPU_ID_FLAG_ENTRY_VALID; m++)
		if (m->vendor == VFM_VENDOR(vfm) && m->family == VFM_FAMILY(vfm) &&
		    m->model == VFM_MODEL(vfm))
			return m;
	return NULL;
}
