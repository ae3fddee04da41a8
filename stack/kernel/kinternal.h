/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack/kernel/kinternal.h - what the files of the kernel shim share among
 * themselves: the run's device and driver lists, and the end-of-run cleanups that
 * cs_kernel_exit() calls.
 */
#ifndef CS_STACK_KERNEL_KINTERNAL_H
#define CS_STACK_KERNEL_KINTERNAL_H

#include <linux/device.h>
#include <chargesim/kernel.h>

enum cs_bus_kind { CS_BUS_PLATFORM, CS_BUS_I2C };

/* A device the board added, on one of the two buses. */
struct cs_kdevice {
	struct device *dev;
	enum cs_bus_kind bus;
	struct cs_kdevice *next;
};

/* A driver registered in this run (the driver's struct stays the driver file's). */
struct cs_kdriver {
	struct device_driver *drv;
	enum cs_bus_kind bus;
	struct cs_kdriver *next;
};

/* Add a device to the run and bind it to a registered driver that matches. */
int cs_device_add(struct device *dev, enum cs_bus_kind bus);
/* Unbind (remove(), devres) and forget the device. */
void cs_device_del(struct device *dev);
int cs_driver_register(struct device_driver *drv, enum cs_bus_kind bus);
void cs_driver_unregister(struct device_driver *drv);

void cs_bus_exit(struct cs_kernel *k);
void cs_irq_exit(struct cs_kernel *k);
void cs_iio_exit(struct cs_kernel *k);
void cs_regulator_exit(struct cs_kernel *k);

#endif
