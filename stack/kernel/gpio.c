// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/gpio.c - GPIO descriptors found through the device tree (see
 * linux/gpio/consumer.h): "<con_id>-gpios" = <&controller line flags>.
 */
#include <glib.h>
#include <linux/gpio/consumer.h>
#include <linux/of.h>
#include <linux/slab.h>
#include "stack/kernel/kinternal.h"

struct gpio_desc {
	struct cs_gpio_chip *chip;
	unsigned int line;
	bool active_low;
};

void cs_gpio_chip_add(struct cs_gpio_chip *chip)
{
	struct cs_gpio_chip **pp = &cs_kernel()->gpio_chips;

	while (*pp)
		pp = &(*pp)->cs_next;
	chip->cs_next = NULL;
	*pp = chip;
}

void cs_gpio_chip_remove(struct cs_gpio_chip *chip)
{
	for (struct cs_gpio_chip **pp = &cs_kernel()->gpio_chips; *pp; pp = &(*pp)->cs_next)
		if (*pp == chip) {
			*pp = chip->cs_next;
			return;
		}
}

static struct cs_gpio_chip *chip_of_node(const struct device_node *np)
{
	for (struct cs_gpio_chip *c = cs_kernel()->gpio_chips; c; c = c->cs_next)
		if (c->of_node == np)
			return c;
	return NULL;
}

/* The property naming the lines: "<con>-gpios", the older "<con>-gpio", or
 * "gpios"/"gpio" without a con_id. */
static const struct property *gpio_prop(const struct device *dev, const char *con_id)
{
	static const char *const suffixes[] = { "gpios", "gpio" };
	const struct device_node *np = dev->of_node;

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		g_autofree char *name = con_id ? g_strdup_printf("%s-%s", con_id, suffixes[i])
					       : g_strdup(suffixes[i]);
		struct property *p = of_find_property(np, name, NULL);

		if (p)
			return p;
	}
	return NULL;
}

#define GPIO_CELLS 3   /* phandle, line, flags */

static int gpio_lookup(struct device *dev, const char *con_id, unsigned int idx,
		       struct gpio_desc *out)
{
	const struct property *p = gpio_prop(dev, con_id);
	const u32 *cells;
	struct device_node *ctrl;

	if (!p)
		return -ENOENT;
	cells = p->value;
	if ((size_t)p->length < (idx + 1) * GPIO_CELLS * sizeof(u32))
		return -ENOENT;
	cells += idx * GPIO_CELLS;
	ctrl = of_find_node_by_phandle(cells[0]);
	out->chip = ctrl ? chip_of_node(ctrl) : NULL;
	if (!out->chip)
		return -EPROBE_DEFER;   /* the controller's driver is not there (yet) */
	if (cells[1] >= out->chip->ngpio)
		return -EINVAL;
	out->line = cells[1];
	out->active_low = cells[2] & GPIO_ACTIVE_LOW;
	return 0;
}

static struct gpio_desc *gpiod_get_index(struct device *dev, const char *con_id, unsigned int idx,
					 enum gpiod_flags flags)
{
	struct gpio_desc tmp = { 0 }, *d;
	int ret = gpio_lookup(dev, con_id, idx, &tmp);

	if (ret)
		return ERR_PTR(ret);
	d = g_new(struct gpio_desc, 1);
	*d = tmp;
	/* an input needs nothing set */
	if ((flags & GPIOD_FLAGS_BIT_DIR_SET) && (flags & GPIOD_FLAGS_BIT_DIR_OUT))
		gpiod_direction_output(d, !!(flags & GPIOD_FLAGS_BIT_DIR_VAL));
	return d;
}

/* The _optional forms: a line the node does not name is NULL, not an error. */
static void *optional(void *d)
{
	return PTR_ERR(d) == -ENOENT ? NULL : d;
}

static void gpiod_put(struct gpio_desc *desc)
{
	if (!IS_ERR_OR_NULL(desc))
		g_free(desc);
}

static void devm_gpiod_release(struct device *dev, void *res)
{
	(void)dev;
	gpiod_put(*(struct gpio_desc **)res);
}

struct gpio_desc *devm_gpiod_get(struct device *dev, const char *con_id, enum gpiod_flags flags)
{
	struct gpio_desc **r = devres_alloc(devm_gpiod_release, sizeof(*r), GFP_KERNEL);
	struct gpio_desc *d;

	if (!r)
		return ERR_PTR(-ENOMEM);
	d = gpiod_get_index(dev, con_id, 0, flags);
	if (IS_ERR(d)) {
		devres_free(r);
		return d;
	}
	*r = d;
	devres_add(dev, r);
	return d;
}

struct gpio_desc *devm_gpiod_get_optional(struct device *dev, const char *con_id,
					  enum gpiod_flags flags)
{
	return optional(devm_gpiod_get(dev, con_id, flags));
}

static int gpiod_count(struct device *dev, const char *con_id)
{
	const struct property *p = gpio_prop(dev, con_id);

	if (!p)
		return -ENOENT;
	return p->length / (int)(GPIO_CELLS * sizeof(u32));
}

static void devm_gpiod_array_release(struct device *dev, void *res)
{
	struct gpio_descs *descs = *(struct gpio_descs **)res;

	(void)dev;
	for (unsigned int i = 0; i < descs->ndescs; i++)
		gpiod_put(descs->desc[i]);
	g_free(descs);
}

static struct gpio_descs *devm_gpiod_get_array(struct device *dev, const char *con_id,
					       enum gpiod_flags flags)
{
	int n = gpiod_count(dev, con_id);
	struct gpio_descs *descs, **r;

	if (n < 0)
		return ERR_PTR(n);
	descs = g_malloc0(sizeof(*descs) + (size_t)n * sizeof(descs->desc[0]));
	for (int i = 0; i < n; i++) {
		struct gpio_desc *d = gpiod_get_index(dev, con_id, (unsigned int)i, flags);

		if (IS_ERR(d)) {
			for (unsigned int j = 0; j < descs->ndescs; j++)
				gpiod_put(descs->desc[j]);
			g_free(descs);
			return ERR_CAST(d);
		}
		descs->desc[descs->ndescs++] = d;
	}
	r = devres_alloc(devm_gpiod_array_release, sizeof(*r), GFP_KERNEL);
	*r = descs;
	devres_add(dev, r);
	return descs;
}

struct gpio_descs *devm_gpiod_get_array_optional(struct device *dev, const char *con_id,
						 enum gpiod_flags flags)
{
	return optional(devm_gpiod_get_array(dev, con_id, flags));
}

int gpiod_get_value(const struct gpio_desc *desc)
{
	int v;

	if (IS_ERR_OR_NULL(desc))
		return -EINVAL;
	v = desc->chip->get(desc->chip->hw, desc->line);
	if (v < 0)
		return v;
	return desc->active_low ? !v : v;
}

void gpiod_set_value(struct gpio_desc *desc, int value)
{
	if (IS_ERR_OR_NULL(desc) || !desc->chip->set)
		return;
	desc->chip->set(desc->chip->hw, desc->line, desc->active_low ? !value : !!value);
}

int gpiod_direction_output(struct gpio_desc *desc, int value)
{
	if (IS_ERR_OR_NULL(desc))
		return -EINVAL;
	if (!desc->chip->set)
		return -EIO;   /* an input-only line */
	gpiod_set_value(desc, value);
	return 0;
}

int gpiod_to_irq(const struct gpio_desc *desc)
{
	if (IS_ERR_OR_NULL(desc))
		return -EINVAL;
	if (!desc->chip->to_irq)
		return -ENXIO;
	return desc->chip->to_irq(desc->chip->hw, desc->line);
}
