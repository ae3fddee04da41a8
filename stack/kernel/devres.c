// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/devres.c - device-managed resources, device names and attributes,
 * dev_err_probe().
 *
 * A managed resource is a block with a release function, kept on its device newest
 * first; devres_release_all() (driver detach, failed probe) runs the releases in that
 * order and frees the blocks, so a driver's devm_* calls undo themselves in reverse,
 * as the kernel guarantees.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <glib.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "stack/kernel/kformat.h"

struct cs_devres {
	dr_release_t release;
	void (*action)(void *);     /* devm_add_action's function, its data in ->action_data */
	void *action_data;
	struct cs_devres *next;
	alignas(max_align_t) unsigned char data[];
};

struct cs_dev_attr {
	const struct device_attribute *attr;
	struct cs_dev_attr *next;
};

static struct cs_devres *devres_of(void *res)
{
	return container_of(res, struct cs_devres, data);
}

void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp)
{
	struct cs_devres *dr = calloc(1, sizeof(*dr) + size);

	(void)gfp;
	if (!dr)
		return NULL;
	dr->release = release;
	return dr->data;
}

void devres_add(struct device *dev, void *res)
{
	struct cs_devres *dr = devres_of(res);

	dr->next = dev->cs_devres;
	dev->cs_devres = dr;
}

void devres_free(void *res)
{
	if (res)
		free(devres_of(res));
}

void devres_release_all(struct device *dev)
{
	while (dev->cs_devres) {
		struct cs_devres *dr = dev->cs_devres;

		dev->cs_devres = dr->next;
		if (dr->action)
			dr->action(dr->action_data);
		else if (dr->release)
			dr->release(dev, dr->data);
		free(dr);
	}
}

static void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
	void *p = devres_alloc(NULL, size, gfp);

	if (!p)
		return NULL;
	if (gfp & __GFP_ZERO)
		memset(p, 0, size);
	devres_add(dev, p);
	return p;
}

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	return devm_kmalloc(dev, size, gfp | __GFP_ZERO);
}

void *devm_kmalloc_array(struct device *dev, size_t n, size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return devm_kmalloc(dev, n * size, gfp);
}

void *devm_kcalloc(struct device *dev, size_t n, size_t size, gfp_t gfp)
{
	return devm_kmalloc_array(dev, n, size, gfp | __GFP_ZERO);
}

char *devm_kasprintf(struct device *dev, gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = cs_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = devm_kmalloc(dev, (size_t)n + 1, gfp);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	cs_vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	void *res = devres_alloc(NULL, 0, GFP_KERNEL);
	struct cs_devres *dr;

	if (!res)
		return -ENOMEM;
	dr = devres_of(res);
	dr->action = action;
	dr->action_data = data;
	devres_add(dev, res);
	return 0;
}

int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data)
{
	int ret = devm_add_action(dev, action, data);

	if (ret)
		action(data);
	return ret;
}

/* ---- names, attributes, messages ---- */

int dev_set_name(struct device *dev, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = cs_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	g_free(dev->cs_name);
	dev->cs_name = g_malloc((gsize)n + 1);
	va_start(ap, fmt);
	cs_vsnprintf(dev->cs_name, (size_t)n + 1, fmt, ap);
	va_end(ap);
	dev->kobj.name = dev->cs_name;
	dev->init_name = NULL;
	return 0;
}

int device_create_file(struct device *dev, const struct device_attribute *attr)
{
	struct cs_dev_attr *a = g_new0(struct cs_dev_attr, 1), **pp;

	a->attr = attr;
	for (pp = &dev->cs_attrs; *pp; pp = &(*pp)->next)
		if ((*pp)->attr == attr) {
			g_free(a);
			return -EEXIST;
		}
	*pp = a;
	return 0;
}

void device_remove_file(struct device *dev, const struct device_attribute *attr)
{
	for (struct cs_dev_attr **pp = &dev->cs_attrs; *pp; pp = &(*pp)->next)
		if ((*pp)->attr == attr) {
			struct cs_dev_attr *a = *pp;

			*pp = a->next;
			g_free(a);
			return;
		}
}

int device_add_groups(struct device *dev, const struct attribute_group **groups)
{
	for (int g = 0; groups && groups[g]; g++)
		for (struct attribute **at = groups[g]->attrs; at && *at; at++) {
			int ret = device_create_file(dev, container_of(*at, struct device_attribute, attr));

			if (ret)
				return ret;
		}
	return 0;
}

const struct device_attribute *cs_device_attr_next(const struct device *dev,
						   const struct device_attribute *prev)
{
	const struct cs_dev_attr *a = dev->cs_attrs;

	if (prev) {
		while (a && a->attr != prev)
			a = a->next;
		a = a ? a->next : NULL;
	}
	return a ? a->attr : NULL;
}

void cs_device_attrs_clear(struct device *dev)
{
	while (dev->cs_attrs) {
		struct cs_dev_attr *a = dev->cs_attrs;

		dev->cs_attrs = a->next;
		g_free(a);
	}
}

int dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
{
	char msg[384];
	const char *name = cs_errname(err);
	va_list ap;

	va_start(ap, fmt);
	cs_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (err == -EPROBE_DEFER)
		cs_printk("debug", dev_name(dev), "deferred: %s", msg);
	else if (name)
		cs_printk("err", dev_name(dev), "error -%s: %s", name, msg);
	else
		cs_printk("err", dev_name(dev), "error %d: %s", err, msg);
	return err;
}

int devres_release(struct device *dev, dr_release_t release, dr_match_t match, void *match_data)
{
	for (struct cs_devres **pp = &dev->cs_devres; *pp; pp = &(*pp)->next) {
		struct cs_devres *dr = *pp;

		if (dr->release != release || (match && !match(dev, dr->data, match_data)))
			continue;
		*pp = dr->next;
		dr->release(dev, dr->data);
		free(dr);
		return 0;
	}
	return -ENOENT;
}
