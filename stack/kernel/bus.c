// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/bus.c - the driver model: devices on the platform and I2C buses,
 * drivers registered by module init functions, matching (device-tree compatible,
 * then device names), probe with its device-managed resources, remove.
 *
 * As in the kernel, a failed probe leaves the device unbound and its managed
 * resources released; here the first failure of the run is also kept (device,
 * driver, errno) so that the run can stop with it instead of going on without the
 * driver under test.
 */
#include <stdlib.h>
#include <glib.h>
#include <linux/i2c.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include "stack/kernel/kinternal.h"

static bool platform_match(struct device *dev, struct device_driver *drv)
{
	struct platform_device *pdev = to_platform_device(dev);
	struct platform_driver *pdrv = to_platform_driver(drv);

	if (drv->of_match_table && dev->of_node)
		return of_match_node(drv->of_match_table, dev->of_node) != NULL;
	if (pdrv->id_table) {
		for (const struct platform_device_id *id = pdrv->id_table; id->name[0]; id++)
			if (strcmp(pdev->name, id->name) == 0)
				return true;
		return false;
	}
	return strcmp(pdev->name, drv->name) == 0;
}

static bool i2c_match(struct device *dev, struct device_driver *drv)
{
	struct i2c_client *client = to_i2c_client(dev);
	struct i2c_driver *idrv = to_i2c_driver(drv);

	if (drv->of_match_table && dev->of_node &&
	    of_match_node(drv->of_match_table, dev->of_node))
		return true;
	return idrv->id_table && i2c_match_id(idrv->id_table, client);
}

static bool bus_match(struct device *dev, enum cs_bus_kind bus, struct device_driver *drv)
{
	return bus == CS_BUS_PLATFORM ? platform_match(dev, drv) : i2c_match(dev, drv);
}

static int bus_probe(struct device *dev, enum cs_bus_kind bus)
{
	if (bus == CS_BUS_PLATFORM) {
		struct platform_driver *pdrv = to_platform_driver(dev->driver);

		return pdrv->probe ? pdrv->probe(to_platform_device(dev)) : 0;
	} else {
		struct i2c_driver *idrv = to_i2c_driver(dev->driver);

		return idrv->probe ? idrv->probe(to_i2c_client(dev)) : 0;
	}
}

static void bus_remove(struct device *dev, enum cs_bus_kind bus)
{
	if (bus == CS_BUS_PLATFORM) {
		struct platform_driver *pdrv = to_platform_driver(dev->driver);

		if (pdrv->remove)
			pdrv->remove(to_platform_device(dev));
	} else {
		struct i2c_driver *idrv = to_i2c_driver(dev->driver);

		if (idrv->remove)
			idrv->remove(to_i2c_client(dev));
	}
}

static void record_failure(struct device *dev, struct device_driver *drv, int err)
{
	struct cs_kernel *k = cs_kernel();

	if (k->probe_failure.drv)
		return;
	k->probe_failure.dev = g_strdup(dev_name(dev));
	k->probe_failure.drv = g_strdup(drv->name);
	k->probe_failure.err = err;
}

static void device_bind(struct device *dev, enum cs_bus_kind bus, struct device_driver *drv)
{
	int ret;

	dev->driver = drv;
	ret = bus_probe(dev, bus);
	if (ret == 0) {
		cs_stack_event("driver_bound", "dev", dev_name(dev));
		return;
	}
	if (ret == -EPROBE_DEFER)
		cs_printk("info", dev_name(dev), "probe deferred by driver %s", drv->name);
	else
		cs_printk("err", dev_name(dev), "probe with driver %s failed with error %d",
			  drv->name, ret);
	record_failure(dev, drv, ret);
	devres_release_all(dev);
	dev_set_drvdata(dev, NULL);
	dev->driver = NULL;
}

static void device_unbind(struct device *dev, enum cs_bus_kind bus)
{
	if (!dev->driver)
		return;
	bus_remove(dev, bus);
	devres_release_all(dev);
	dev_set_drvdata(dev, NULL);
	dev->driver = NULL;
}

int cs_device_add(struct device *dev, enum cs_bus_kind bus)
{
	struct cs_kernel *k = cs_kernel();
	struct cs_kdevice *kd = g_new0(struct cs_kdevice, 1), **pp;

	kd->dev = dev;
	kd->bus = bus;
	for (pp = &k->devices; *pp; pp = &(*pp)->next)
		;
	*pp = kd;
	for (struct cs_kdriver *d = k->drivers; d && !dev->driver; d = d->next)
		if (d->bus == bus && bus_match(dev, bus, d->drv))
			device_bind(dev, bus, d->drv);
	return 0;
}

void cs_device_del(struct device *dev)
{
	struct cs_kernel *k = cs_kernel();

	for (struct cs_kdevice **pp = &k->devices; *pp; pp = &(*pp)->next)
		if ((*pp)->dev == dev) {
			struct cs_kdevice *kd = *pp;

			device_unbind(dev, kd->bus);
			*pp = kd->next;
			g_free(kd);
			return;
		}
}

int cs_driver_register(struct device_driver *drv, enum cs_bus_kind bus)
{
	struct cs_kernel *k = cs_kernel();
	struct cs_kdriver *kd = g_new0(struct cs_kdriver, 1), **pp;

	kd->drv = drv;
	kd->bus = bus;
	for (pp = &k->drivers; *pp; pp = &(*pp)->next)
		;
	*pp = kd;
	for (struct cs_kdevice *d = k->devices; d; d = d->next)
		if (d->bus == bus && !d->dev->driver && bus_match(d->dev, bus, drv))
			device_bind(d->dev, bus, drv);
	return 0;
}

void cs_driver_unregister(struct device_driver *drv)
{
	struct cs_kernel *k = cs_kernel();
	GPtrArray *bound = g_ptr_array_new();

	/* the devices it drives, newest first, as the kernel detaches them */
	for (struct cs_kdevice *d = k->devices; d; d = d->next)
		if (d->dev->driver == drv)
			g_ptr_array_add(bound, d);
	for (guint i = bound->len; i > 0; i--) {
		struct cs_kdevice *d = bound->pdata[i - 1];

		device_unbind(d->dev, d->bus);
	}
	g_ptr_array_free(bound, TRUE);
	for (struct cs_kdriver **pp = &k->drivers; *pp; pp = &(*pp)->next)
		if ((*pp)->drv == drv) {
			struct cs_kdriver *kd = *pp;

			*pp = kd->next;
			g_free(kd);
			break;
		}
}

void cs_bus_exit(struct cs_kernel *k)
{
	while (k->devices) {
		struct cs_kdevice *d = k->devices;

		k->devices = d->next;
		g_free(d);
	}
	while (k->drivers) {
		struct cs_kdriver *d = k->drivers;

		k->drivers = d->next;
		g_free(d);
	}
}

/* ---- platform bus ---- */

int platform_driver_register(struct platform_driver *drv)
{
	return cs_driver_register(&drv->driver, CS_BUS_PLATFORM);
}

void platform_driver_unregister(struct platform_driver *drv)
{
	cs_driver_unregister(&drv->driver);
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = NULL;

	for (u32 i = 0, n = num; i < pdev->num_resources && !r; i++)
		if ((pdev->resource[i].flags & IORESOURCE_IRQ) && n-- == 0)
			r = &pdev->resource[i];
	if (r && r->start > 0)
		return (int)r->start;
	dev_err(&pdev->dev, "IRQ index %u not found", num);
	return -ENXIO;
}

struct platform_device *cs_platform_device_new(const char *name, struct device_node *np,
					       struct device *parent, const int *irqs, int n_irq)
{
	struct platform_device *pdev = g_new0(struct platform_device, 1);

	pdev->name = name;
	pdev->id = PLATFORM_DEVID_NONE;
	pdev->dev.parent = parent;
	pdev->dev.of_node = np;
	pdev->dev.fwnode = of_fwnode_handle(np);
	pdev->dev.init_name = name;
	if (n_irq > 0) {
		pdev->resource = g_new0(struct resource, (gsize)n_irq);
		pdev->num_resources = (u32)n_irq;
		for (int i = 0; i < n_irq; i++) {
			pdev->resource[i].start = pdev->resource[i].end = (resource_size_t)irqs[i];
			pdev->resource[i].flags = IORESOURCE_IRQ;
		}
	}
	return pdev;
}

int cs_platform_device_add(struct platform_device *pdev)
{
	return cs_device_add(&pdev->dev, CS_BUS_PLATFORM);
}

void cs_platform_device_free(struct platform_device *pdev)
{
	if (!pdev)
		return;
	cs_device_del(&pdev->dev);
	g_free(pdev->dev.cs_name);
	g_free(pdev->resource);
	g_free(pdev);
}
