/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/mod_devicetable.h (chargesim) - the match tables a driver declares: device
 * tree compatibles, I2C and platform device names, ACPI ids.
 */
#ifndef CS_LINUX_MOD_DEVICETABLE_H
#define CS_LINUX_MOD_DEVICETABLE_H

#include <linux/kernel_types.h>

typedef unsigned long kernel_ulong_t;

struct of_device_id {
	char name[32];
	char type[32];
	char compatible[128];
	const void *data;
};

#define I2C_NAME_SIZE 20
#define PLATFORM_NAME_SIZE 20
#define ACPI_ID_LEN 16

struct i2c_device_id {
	char name[I2C_NAME_SIZE];
	kernel_ulong_t driver_data;
};

struct platform_device_id {
	char name[PLATFORM_NAME_SIZE];
	kernel_ulong_t driver_data;
};

struct acpi_device_id {
	char id[ACPI_ID_LEN];
	kernel_ulong_t driver_data;
	u32 cls;
};

#endif
