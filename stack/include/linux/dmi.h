/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/dmi.h (chargesim) - SMBIOS (DMI) system identification. The simulated board
 * has no DMI table: no quirk table ever matches.
 */
#ifndef CS_LINUX_DMI_H
#define CS_LINUX_DMI_H

#include <linux/kernel_types.h>

enum dmi_field {
	DMI_NONE, DMI_BIOS_VENDOR, DMI_BIOS_VERSION, DMI_BIOS_DATE, DMI_BIOS_RELEASE,
	DMI_EC_FIRMWARE_RELEASE, DMI_SYS_VENDOR, DMI_PRODUCT_NAME, DMI_PRODUCT_VERSION,
	DMI_PRODUCT_SERIAL, DMI_PRODUCT_UUID, DMI_PRODUCT_SKU, DMI_PRODUCT_FAMILY,
	DMI_BOARD_VENDOR, DMI_BOARD_NAME, DMI_BOARD_VERSION, DMI_BOARD_SERIAL,
	DMI_BOARD_ASSET_TAG, DMI_CHASSIS_VENDOR, DMI_CHASSIS_TYPE, DMI_CHASSIS_VERSION,
	DMI_CHASSIS_SERIAL, DMI_CHASSIS_ASSET_TAG, DMI_STRING_MAX, DMI_OEM_STRING,
};

struct dmi_strmatch {
	unsigned char slot:7;
	unsigned char exact_match:1;
	char substr[79];
};

struct dmi_system_id {
	struct dmi_strmatch matches[4];
	void *driver_data;
};

#define DMI_EXACT_MATCH(a, b) { .slot = (a), .substr = (b), .exact_match = 1 }

static inline int dmi_check_system(const struct dmi_system_id *list)
{
	(void)list;
	return 0;
}

#endif
