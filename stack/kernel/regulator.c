// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/regulator.c - the regulator core: the board's regulators and their
 * consumers (linux/regulator/consumer.h, linux/regulator/driver.h).
 *
 * The rules are the kernel's (drivers/regulator/core.c, of_regulator.c, dummy.c,
 * Linux 6.12): constraints come from the regulator's node; a consumer's first enable
 * switches the regulator on unless it already is, the last consumer's disable
 * switches it off unless it is always-on; unbalanced disables are refused with a
 * warning; a force-disable switches the hardware off and leaves the counts; current
 * limits are clamped to the constraints before the hardware picks a value.
 */
#include <glib.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/of.h>
#include <linux/regulator/consumer.h>
#include <chargesim/kernel.h>
#include "stack/kernel/kinternal.h"

/* A consumer's handle. */
struct regulator {
	struct cs_regulator *rdev;
	int enable_count;
	bool always_on;
};

#define rdev_err(rdev, fmt, ...) cs_printk("err", NULL, "%s: " fmt, (rdev)->name, ##__VA_ARGS__)

static void read_constraints(struct cs_regulator *rdev)
{
	struct regulation_constraints *c = &rdev->constraints;
	const struct device_node *np = rdev->of_node;
	u32 v;

	memset(c, 0, sizeof(*c));
	if (!np) {
		c->always_on = true;   /* a fixed supply with nothing to change */
		return;
	}
	of_property_read_string(np, "regulator-name", &c->name);
	if (!of_property_read_u32(np, "regulator-min-microamp", &v))
		c->min_uA = (int)v;
	if (!of_property_read_u32(np, "regulator-max-microamp", &v))
		c->max_uA = (int)v;
	if (c->min_uA != c->max_uA)
		c->valid_ops_mask |= REGULATOR_CHANGE_CURRENT;
	c->boot_on = of_property_read_bool(np, "regulator-boot-on");
	c->always_on = of_property_read_bool(np, "regulator-always-on");
	if (!c->always_on)
		c->valid_ops_mask |= REGULATOR_CHANGE_STATUS;
}

static int hw_is_enabled(struct cs_regulator *rdev)
{
	/* without a way to ask, a regulator is assumed on */
	return rdev->ops && rdev->ops->is_enabled ? rdev->ops->is_enabled(rdev->hw) : 1;
}

static int hw_enable(struct cs_regulator *rdev)
{
	return rdev->ops && rdev->ops->enable ? rdev->ops->enable(rdev->hw) : 0;
}

static int hw_disable(struct cs_regulator *rdev)
{
	return rdev->ops && rdev->ops->disable ? rdev->ops->disable(rdev->hw) : 0;
}

int cs_regulator_register(struct cs_regulator *rdev)
{
	struct cs_kernel *k = cs_kernel();

	read_constraints(rdev);
	rdev->name = rdev->constraints.name ? rdev->constraints.name :
		     rdev->of_node ? rdev->of_node->name : "regulator";
	rdev->use_count = 0;
	if (rdev->constraints.always_on || rdev->constraints.boot_on) {
		int ret = hw_is_enabled(rdev) > 0 ? 0 : hw_enable(rdev);

		if (ret < 0) {
			rdev_err(rdev, "failed to enable: %pe\n", ERR_PTR(ret));
			return ret;
		}
		if (rdev->constraints.always_on)
			rdev->use_count = 1;
	}
	rdev->cs_next = k->regulators;
	k->regulators = rdev;
	return 0;
}

void cs_regulator_unregister(struct cs_regulator *rdev)
{
	for (struct cs_regulator **pp = &cs_kernel()->regulators; *pp; pp = &(*pp)->cs_next)
		if (*pp == rdev) {
			*pp = rdev->cs_next;
			return;
		}
}

/* The dummy regulator a complete device tree allows for an unconnected supply. */
static struct cs_regulator *dummy_regulator(void)
{
	struct cs_kernel *k = cs_kernel();

	if (!k->regulator_dummy) {
		k->regulator_dummy = g_new0(struct cs_regulator, 1);
		k->regulator_dummy->name = "regulator-dummy";
		k->regulator_dummy->constraints.always_on = true;
		k->regulator_dummy->use_count = 1;
	}
	return k->regulator_dummy;
}

void cs_regulator_exit(struct cs_kernel *k)
{
	g_free(k->regulator_dummy);
	k->regulator_dummy = NULL;
	k->regulators = NULL;
}

static struct cs_regulator *lookup(struct device *dev, const char *id)
{
	struct cs_kernel *k = cs_kernel();

	/* the device's node names it: "<id>-supply = <&node>" */
	if (dev && dev->of_node) {
		g_autofree char *prop = g_strdup_printf("%s-supply", id);
		struct device_node *np = of_parse_phandle(dev->of_node, prop, 0);

		if (np) {
			for (struct cs_regulator *r = k->regulators; r; r = r->cs_next)
				if (r->of_node == np)
					return r;
			return ERR_PTR(-EPROBE_DEFER);   /* its driver has not registered it yet */
		}
	}
	for (struct cs_regulator *r = k->regulators; r; r = r->cs_next)
		if (strcmp(r->name, id) == 0)
			return r;
	return ERR_PTR(-ENODEV);
}

struct regulator *regulator_get(struct device *dev, const char *id)
{
	struct cs_regulator *rdev;
	struct regulator *reg;

	if (!id) {
		dev_err(dev, "regulator request with no identifier\n");
		return ERR_PTR(-EINVAL);
	}
	rdev = lookup(dev, id);
	if (IS_ERR(rdev) && PTR_ERR(rdev) == -ENODEV) {
		/* with a device tree the constraints are complete: a supply nobody
		 * described is taken to be a fixed, always-on one */
		if (!cs_kernel()->of_root) {
			dev_warn(dev, "incomplete constraints, dummy supplies not allowed (id=%s)\n", id);
			return ERR_PTR(-ENODEV);
		}
		dev_warn(dev, "supply %s not found, using dummy regulator\n", id);
		rdev = dummy_regulator();
	}
	if (IS_ERR(rdev))
		return ERR_CAST(rdev);
	reg = g_new0(struct regulator, 1);
	reg->rdev = rdev;
	reg->always_on = rdev->constraints.always_on;
	return reg;
}

void regulator_put(struct regulator *regulator)
{
	if (IS_ERR_OR_NULL(regulator))
		return;
	/* a consumer must disable before it lets go */
	WARN_ON(regulator->enable_count);
	g_free(regulator);
}

int regulator_enable(struct regulator *regulator)
{
	struct cs_regulator *rdev = regulator->rdev;

	regulator->enable_count++;
	if (rdev->use_count == 0) {
		int ret = hw_is_enabled(rdev);

		if (ret == 0 || ret == -EINVAL) {
			if (!(rdev->constraints.valid_ops_mask & REGULATOR_CHANGE_STATUS))
				ret = -EPERM;
			else
				ret = hw_enable(rdev);
			if (ret < 0) {
				regulator->enable_count--;
				return ret;
			}
		} else if (ret < 0) {
			rdev_err(rdev, "is_enabled() failed: %pe\n", ERR_PTR(ret));
			regulator->enable_count--;
			return ret;
		}
	}
	if (regulator->enable_count == 1)
		rdev->use_count++;
	return 0;
}

int regulator_disable(struct regulator *regulator)
{
	struct cs_regulator *rdev = regulator->rdev;

	if (WARN(regulator->enable_count == 0, "unbalanced disables for %s\n", rdev->name))
		return -EIO;
	if (regulator->enable_count == 1) {
		if (rdev->use_count == 1 && !rdev->constraints.always_on) {
			if (rdev->constraints.valid_ops_mask & REGULATOR_CHANGE_STATUS) {
				int ret = hw_disable(rdev);

				if (ret < 0) {
					rdev_err(rdev, "failed to disable: %pe\n", ERR_PTR(ret));
					return ret;
				}
			}
			rdev->use_count = 0;
		} else if (rdev->use_count > 1) {
			rdev->use_count--;
		}
	}
	regulator->enable_count--;
	return 0;
}

int regulator_force_disable(struct regulator *regulator)
{
	struct cs_regulator *rdev = regulator->rdev;
	int ret = hw_disable(rdev);

	if (ret < 0)
		rdev_err(rdev, "failed to force disable: %pe\n", ERR_PTR(ret));
	return ret;
}

int regulator_is_enabled(struct regulator *regulator)
{
	if (regulator->always_on)
		return 1;
	return hw_is_enabled(regulator->rdev);
}

int regulator_set_current_limit(struct regulator *regulator, int min_uA, int max_uA)
{
	struct cs_regulator *rdev = regulator->rdev;
	const struct regulation_constraints *c = &rdev->constraints;

	if (!rdev->ops || !rdev->ops->set_current_limit)
		return -EINVAL;
	if (!(c->valid_ops_mask & REGULATOR_CHANGE_CURRENT)) {
		rdev_err(rdev, "current operation not allowed\n");
		return -EPERM;
	}
	if (max_uA > c->max_uA)
		max_uA = c->max_uA;
	if (min_uA < c->min_uA)
		min_uA = c->min_uA;
	if (min_uA > max_uA) {
		rdev_err(rdev, "unsupportable current range: %d-%duA\n", min_uA, max_uA);
		return -EINVAL;
	}
	return rdev->ops->set_current_limit(rdev->hw, min_uA, max_uA);
}

int regulator_get_current_limit(struct regulator *regulator)
{
	struct cs_regulator *rdev = regulator->rdev;

	if (!rdev->ops || !rdev->ops->get_current_limit)
		return -EINVAL;
	return rdev->ops->get_current_limit(rdev->hw);
}
