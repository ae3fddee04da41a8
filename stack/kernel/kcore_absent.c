// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/kcore_absent.c - built only without a kernel tree (Makefile: KCORE):
 * the least of extcon that the boards and the port policies need, in place of the
 * kernel's drivers/extcon/extcon.c, which a build with the tree compiles unmodified.
 *
 * A device is its cables' states and notifier chains; extcon_set_state_sync()
 * notifies on every call, changed or not, as 6.12's extcon_sync() does, so that a
 * scenario behaves the same in both builds. No properties, no mutually exclusive
 * sets, no sysfs.
 */
#include <string.h>
#include <linux/device.h>
#include <linux/extcon-provider.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <chargesim/kernel.h>

#define CABLES_MAX 32

struct extcon_dev {
	const char *name;
	const unsigned int *supported_cable;
	struct device dev;
	int max_supported;
	u32 state;
	struct raw_notifier_head nh[CABLES_MAX];
	struct raw_notifier_head nh_all;
	struct list_head entry;
};

static int cable_index(struct extcon_dev *edev, unsigned int id)
{
	for (int i = 0; edev && i < edev->max_supported; i++)
		if (edev->supported_cable[i] == id)
			return i;
	return -EINVAL;
}

struct extcon_dev *extcon_dev_allocate(const unsigned int *cable)
{
	struct extcon_dev *edev;

	if (!cable)
		return ERR_PTR(-EINVAL);
	edev = kzalloc(sizeof(*edev), GFP_KERNEL);
	if (!edev)
		return ERR_PTR(-ENOMEM);
	edev->supported_cable = cable;
	return edev;
}

void extcon_dev_free(struct extcon_dev *edev)
{
	kfree(edev);
}

int extcon_dev_register(struct extcon_dev *edev)
{
	int n = 0;

	if (!edev || !edev->supported_cable)
		return -EINVAL;
	while (edev->supported_cable[n] != EXTCON_NONE)
		n++;
	if (n > CABLES_MAX || !edev->dev.parent)
		return -EINVAL;
	edev->max_supported = n;
	edev->name = dev_name(edev->dev.parent);
	list_add(&edev->entry, &cs_kcore()->extcon_dev_list);
	return 0;
}

void extcon_dev_unregister(struct extcon_dev *edev)
{
	if (edev)
		list_del(&edev->entry);
}

static void devm_edev_free(struct device *dev, void *res)
{
	(void)dev;
	extcon_dev_free(*(struct extcon_dev **)res);
}

static void devm_edev_unreg(struct device *dev, void *res)
{
	(void)dev;
	extcon_dev_unregister(*(struct extcon_dev **)res);
}

struct extcon_dev *devm_extcon_dev_allocate(struct device *dev, const unsigned int *cable)
{
	struct extcon_dev **ptr = devres_alloc(devm_edev_free, sizeof(*ptr), GFP_KERNEL);
	struct extcon_dev *edev;

	if (!ptr)
		return ERR_PTR(-ENOMEM);
	edev = extcon_dev_allocate(cable);
	if (IS_ERR(edev)) {
		devres_free(ptr);
		return edev;
	}
	edev->dev.parent = dev;
	*ptr = edev;
	devres_add(dev, ptr);
	return edev;
}

int devm_extcon_dev_register(struct device *dev, struct extcon_dev *edev)
{
	struct extcon_dev **ptr = devres_alloc(devm_edev_unreg, sizeof(*ptr), GFP_KERNEL);
	int ret;

	if (!ptr)
		return -ENOMEM;
	ret = extcon_dev_register(edev);
	if (ret) {
		devres_free(ptr);
		return ret;
	}
	*ptr = edev;
	devres_add(dev, ptr);
	return 0;
}

int extcon_get_state(struct extcon_dev *edev, unsigned int id)
{
	int i = cable_index(edev, id);

	return i < 0 ? i : (int)((edev->state >> i) & 1u);
}

int extcon_set_state(struct extcon_dev *edev, unsigned int id, bool state)
{
	int i = cable_index(edev, id);

	if (i < 0)
		return i;
	edev->state = state ? edev->state | BIT(i) : edev->state & ~(u32)BIT(i);
	return 0;
}

int extcon_sync(struct extcon_dev *edev, unsigned int id)
{
	int i = cable_index(edev, id);

	if (i < 0)
		return i;
	raw_notifier_call_chain(&edev->nh[i], (edev->state >> i) & 1u, edev);
	raw_notifier_call_chain(&edev->nh_all, (edev->state >> i) & 1u, edev);
	return 0;
}

int extcon_set_state_sync(struct extcon_dev *edev, unsigned int id, bool state)
{
	int ret = extcon_set_state(edev, id, state);

	return ret < 0 ? ret : extcon_sync(edev, id);
}

int extcon_register_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb)
{
	int i = cable_index(edev, id);

	if (!nb)
		return -EINVAL;
	return i < 0 ? i : raw_notifier_chain_register(&edev->nh[i], nb);
}

int extcon_unregister_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb)
{
	int i = cable_index(edev, id);

	if (!nb)
		return -EINVAL;
	return i < 0 ? i : raw_notifier_chain_unregister(&edev->nh[i], nb);
}

int extcon_register_notifier_all(struct extcon_dev *edev, struct notifier_block *nb)
{
	return edev && nb ? raw_notifier_chain_register(&edev->nh_all, nb) : -EINVAL;
}

int extcon_unregister_notifier_all(struct extcon_dev *edev, struct notifier_block *nb)
{
	return edev && nb ? raw_notifier_chain_unregister(&edev->nh_all, nb) : -EINVAL;
}

struct nb_devres {
	struct extcon_dev *edev;
	unsigned int id;
	bool all;
	struct notifier_block *nb;
};

static void nb_release(struct device *dev, void *res)
{
	struct nb_devres *r = res;

	(void)dev;
	if (r->all)
		extcon_unregister_notifier_all(r->edev, r->nb);
	else
		extcon_unregister_notifier(r->edev, r->id, r->nb);
}

static int devm_nb(struct device *dev, struct extcon_dev *edev, unsigned int id, bool all,
		   struct notifier_block *nb)
{
	struct nb_devres *r = devres_alloc(nb_release, sizeof(*r), GFP_KERNEL);
	int ret;

	if (!r)
		return -ENOMEM;
	ret = all ? extcon_register_notifier_all(edev, nb) : extcon_register_notifier(edev, id, nb);
	if (ret) {
		devres_free(r);
		return ret;
	}
	*r = (struct nb_devres){ edev, id, all, nb };
	devres_add(dev, r);
	return 0;
}

int devm_extcon_register_notifier(struct device *dev, struct extcon_dev *edev, unsigned int id,
				  struct notifier_block *nb)
{
	return devm_nb(dev, edev, id, false, nb);
}

int devm_extcon_register_notifier_all(struct device *dev, struct extcon_dev *edev,
				      struct notifier_block *nb)
{
	return devm_nb(dev, edev, 0, true, nb);
}

struct extcon_dev *extcon_get_extcon_dev(const char *extcon_name)
{
	struct extcon_dev *edev;

	if (!extcon_name)
		return ERR_PTR(-EINVAL);
	list_for_each_entry(edev, &cs_kcore()->extcon_dev_list, entry)
		if (strcmp(edev->name, extcon_name) == 0)
			return edev;
	return ERR_PTR(-EPROBE_DEFER);
}

struct extcon_dev *extcon_find_edev_by_node(struct device_node *node)
{
	struct extcon_dev *edev;

	list_for_each_entry(edev, &cs_kcore()->extcon_dev_list, entry)
		if (edev->dev.parent && device_match_of_node(edev->dev.parent, node))
			return edev;
	return ERR_PTR(-EPROBE_DEFER);
}

struct extcon_dev *extcon_get_edev_by_phandle(struct device *dev, int index)
{
	struct device_node *node;

	if (!dev_of_node(dev))
		return ERR_PTR(-EINVAL);
	node = of_parse_phandle(dev_of_node(dev), "extcon", index);
	if (!node)
		return ERR_PTR(-ENODEV);
	return extcon_find_edev_by_node(node);
}

const char *extcon_get_edev_name(struct extcon_dev *edev)
{
	return edev ? edev->name : NULL;
}
