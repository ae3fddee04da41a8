/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/platform_device.h (chargesim) - platform devices and drivers.
 *
 * The simulated board creates platform devices from its device tree (with their
 * interrupt resources); platform_driver_register() binds a driver to every device
 * whose node matches its of_match_table (or whose name matches its id_table or
 * driver name) and runs probe(); unregistering runs remove() and releases the
 * device-managed resources. A failed probe is remembered so the run can report it.
 */
#ifndef CS_LINUX_PLATFORM_DEVICE_H
#define CS_LINUX_PLATFORM_DEVICE_H

#include <linux/kernel_types.h>
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>
#include <linux/pm.h>

struct platform_device {
	const char *name;
	int id;
	struct device dev;
	u32 num_resources;
	struct resource *resource;
};

#define to_platform_device(x) container_of((x), struct platform_device, dev)
#define PLATFORM_DEVID_NONE (-1)

struct platform_driver {
	int (*probe)(struct platform_device *);
	union {
		void (*remove)(struct platform_device *);
		void (*remove_new)(struct platform_device *);
	};
	void (*shutdown)(struct platform_device *);
	int (*suspend)(struct platform_device *, pm_message_t state);
	int (*resume)(struct platform_device *);
	struct device_driver driver;
	const struct platform_device_id *id_table;
};

#define to_platform_driver(drv) container_of((drv), struct platform_driver, driver)

int platform_driver_register(struct platform_driver *drv);
void platform_driver_unregister(struct platform_driver *drv);
#define module_platform_driver(__platform_driver) \
	module_driver(__platform_driver, platform_driver_register, platform_driver_unregister)

static inline void *platform_get_drvdata(const struct platform_device *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}
static inline void platform_set_drvdata(struct platform_device *pdev, void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

/* The num'th interrupt of the device: its number, or -ENXIO (logged) when it has none. */
int platform_get_irq(struct platform_device *pdev, unsigned int num);

/* ---- chargesim: the board side ---- */
/* A platform device for node np (may be NULL), named name, with n_irq interrupts. */
struct platform_device *cs_platform_device_new(const char *name, struct device_node *np,
					       struct device *parent, const int *irqs, int n_irq);
int cs_platform_device_add(struct platform_device *pdev);
void cs_platform_device_free(struct platform_device *pdev);

#endif
