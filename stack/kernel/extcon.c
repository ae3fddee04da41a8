// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/extcon.c - extcon devices: per-cable state and notifier chains.
 *
 * Cable names are the kernel's extcon_info names. Every notification is also logged
 * as an `extcon` event so that a trace shows what each consumer could have heard.
 */
#include <stdio.h>
#include <string.h>
#include <linux/device.h>
#include <linux/extcon.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <chargesim/kernel.h>

static const char *const extcon_names[EXTCON_NUM + 1] = {
	[EXTCON_NONE] = "NONE",
	[EXTCON_USB] = "USB",
	[EXTCON_USB_HOST] = "USB-HOST",
	[EXTCON_CHG_USB_SDP] = "SDP",
	[EXTCON_CHG_USB_DCP] = "DCP",
	[EXTCON_CHG_USB_CDP] = "CDP",
	[EXTCON_CHG_USB_ACA] = "ACA",
	[EXTCON_CHG_USB_FAST] = "FAST-CHARGER",
	[EXTCON_CHG_USB_SLOW] = "SLOW-CHARGER",
	[EXTCON_CHG_WPT] = "WPT",
	[EXTCON_CHG_USB_PD] = "PD",
	[EXTCON_DOCK] = "DOCK",
	[EXTCON_JIG] = "JIG",
	[EXTCON_MECHANICAL] = "MECHANICAL",
};

const char *extcon_get_cable_name(unsigned int id)
{
	return id <= EXTCON_NUM ? extcon_names[id] : NULL;
}

static int extcon_index(const struct extcon_dev *edev, unsigned int id)
{
	if (id == EXTCON_NONE)
		return -EINVAL;
	for (int i = 0; i < edev->max_supported; i++)
		if (edev->supported_cable[i] == id)
			return i;
	return -EINVAL;
}

void cs_extcon_init(struct extcon_dev *edev, const char *name, const unsigned int *cables)
{
	memset(edev, 0, sizeof(*edev));
	edev->name = name;
	edev->supported_cable = cables;
	while (cables[edev->max_supported] != EXTCON_NONE &&
	       edev->max_supported < CS_EXTCON_MAX_CABLES)
		edev->max_supported++;
	/* The run's devices, in registration order, for lookups by name. */
	if (cs_kernel()) {
		struct extcon_dev **pp = &cs_kernel()->extcon_head;

		while (*pp)
			pp = &(*pp)->cs_next;
		*pp = edev;
	}
}

struct extcon_dev *extcon_get_extcon_dev(const char *name)
{
	if (!name)
		return ERR_PTR(-EINVAL);
	for (struct extcon_dev *e = cs_kernel() ? cs_kernel()->extcon_head : NULL; e; e = e->cs_next)
		if (strcmp(e->name, name) == 0)
			return e;
	/* its driver may come later (Linux 6.12 semantics) */
	return ERR_PTR(-EPROBE_DEFER);
}

int extcon_get_state(struct extcon_dev *edev, unsigned int id)
{
	int i;

	if (!edev)
		return -EINVAL;
	i = extcon_index(edev, id);
	if (i < 0)
		return i;
	return (edev->state >> i) & 1u;
}

int extcon_register_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb)
{
	int i;

	if (!edev || !nb)
		return -EINVAL;
	i = extcon_index(edev, id);
	if (i < 0)
		return i;
	return raw_notifier_chain_register(&edev->nh[i], nb);
}

int extcon_unregister_notifier(struct extcon_dev *edev, unsigned int id, struct notifier_block *nb)
{
	int i;

	if (!edev || !nb)
		return -EINVAL;
	i = extcon_index(edev, id);
	if (i < 0)
		return i;
	return raw_notifier_chain_unregister(&edev->nh[i], nb);
}

static int extcon_set_state(struct extcon_dev *edev, unsigned int id, bool state)
{
	int i = extcon_index(edev, id);

	if (i < 0)
		return i;
	if (state)
		edev->state |= 1u << i;
	else
		edev->state &= ~(1u << i);
	return 0;
}

static int extcon_sync(struct extcon_dev *edev, unsigned int id)
{
	int i = extcon_index(edev, id);

	if (i < 0)
		return i;
	raw_notifier_call_chain(&edev->nh[i], (edev->state >> i) & 1u, edev);
	raw_notifier_call_chain(&edev->nh_all, (edev->state >> i) & 1u, edev);
	return 0;
}

int extcon_set_state_sync(struct extcon_dev *edev, unsigned int id, bool state)
{
	int i = extcon_index(edev, id);
	char buf[64];

	if (i < 0)
		return i;
	if ((bool)((edev->state >> i) & 1u) == state)
		return 0; /* notifications on change only */
	extcon_set_state(edev, id, state);
	snprintf(buf, sizeof(buf), "%s=%d", extcon_names[id] ? extcon_names[id] : "?", state);
	cs_stack_event("extcon", "cable", buf);
	return extcon_sync(edev, id);
}

int extcon_register_notifier_all(struct extcon_dev *edev, struct notifier_block *nb)
{
	if (!edev || !nb)
		return -EINVAL;
	return raw_notifier_chain_register(&edev->nh_all, nb);
}

int extcon_unregister_notifier_all(struct extcon_dev *edev, struct notifier_block *nb)
{
	if (!edev || !nb)
		return -EINVAL;
	return raw_notifier_chain_unregister(&edev->nh_all, nb);
}

struct extcon_nb_devres {
	struct extcon_dev *edev;
	unsigned int id;
	bool all;
	struct notifier_block *nb;
};

static void extcon_nb_release(struct device *dev, void *res)
{
	struct extcon_nb_devres *r = res;

	(void)dev;
	if (r->all)
		extcon_unregister_notifier_all(r->edev, r->nb);
	else
		extcon_unregister_notifier(r->edev, r->id, r->nb);
}

static int devm_extcon_nb(struct device *dev, struct extcon_dev *edev, unsigned int id, bool all,
			  struct notifier_block *nb)
{
	struct extcon_nb_devres *r = devres_alloc(extcon_nb_release, sizeof(*r), GFP_KERNEL);
	int ret;

	if (!r)
		return -ENOMEM;
	ret = all ? extcon_register_notifier_all(edev, nb) : extcon_register_notifier(edev, id, nb);
	if (ret) {
		devres_free(r);
		return ret;
	}
	*r = (struct extcon_nb_devres){ edev, id, all, nb };
	devres_add(dev, r);
	return 0;
}

int devm_extcon_register_notifier(struct device *dev, struct extcon_dev *edev, unsigned int id,
				  struct notifier_block *nb)
{
	return devm_extcon_nb(dev, edev, id, false, nb);
}

int devm_extcon_register_notifier_all(struct device *dev, struct extcon_dev *edev,
				      struct notifier_block *nb)
{
	return devm_extcon_nb(dev, edev, 0, true, nb);
}

struct extcon_dev *extcon_get_edev_by_phandle(struct device *dev, int index)
{
	struct device_node *node;

	if (!dev->of_node)
		return ERR_PTR(-EINVAL);
	node = of_parse_phandle(dev->of_node, "extcon", index);
	if (!node)
		return ERR_PTR(-ENODEV);
	for (struct extcon_dev *e = cs_kernel()->extcon_head; e; e = e->cs_next)
		if (e->cs_of_node == node)
			return e;
	return ERR_PTR(-EPROBE_DEFER);
}

const char *extcon_get_edev_name(struct extcon_dev *edev)
{
	return edev ? edev->name : NULL;
}
