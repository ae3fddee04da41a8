// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/usb_phy.c - the PHY notifier chain and its payload habits; the run's
 * PHYs for drivers that look theirs up (by type, node or phandle).
 */
#include <linux/device.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/usb/phy.h>
#include <chargesim/kernel.h>

static const char *const usb_phy_event_names[] = {
	"none", "vbus", "id", "charger", "enumerated",
};

static const char *usb_phy_event_name(enum usb_phy_events event)
{
	if ((unsigned)event < ARRAY_SIZE(usb_phy_event_names))
		return usb_phy_event_names[event];
	return "?";
}

int usb_register_notifier(struct usb_phy *x, struct notifier_block *nb)
{
	return atomic_notifier_chain_register(&x->notifier, nb);
}

int usb_unregister_notifier(struct usb_phy *x, struct notifier_block *nb)
{
	return atomic_notifier_chain_unregister(&x->notifier, nb);
}

void cs_usb_phy_notify(struct usb_phy *x, enum usb_phy_events event, unsigned int mA)
{
	void *data = NULL;

	x->last_event = event;
	switch (x->cs_payload) {
	case CS_PHY_PAYLOAD_MA:
		x->cs_ma = mA;
		data = &x->cs_ma;
		break;
	case CS_PHY_PAYLOAD_GADGET:
		data = x->cs_gadget;
		break;
	case CS_PHY_PAYLOAD_NULL:
		data = NULL;
		break;
	}
	cs_stack_event("usb_phy_event", "event", usb_phy_event_name(event));
	atomic_notifier_call_chain(&x->notifier, event, data);
}

/* ---- finding the PHY ---- */

int usb_add_phy_dev(struct usb_phy *x)
{
	struct usb_phy **pp = &cs_kernel()->phys;

	while (*pp)
		pp = &(*pp)->cs_next;
	x->cs_next = NULL;
	*pp = x;
	return 0;
}

void usb_remove_phy(struct usb_phy *x)
{
	for (struct usb_phy **pp = &cs_kernel()->phys; *pp; pp = &(*pp)->cs_next)
		if (*pp == x) {
			*pp = x->cs_next;
			return;
		}
}

struct usb_phy *usb_get_phy(enum usb_phy_type type)
{
	for (struct usb_phy *x = cs_kernel()->phys; x; x = x->cs_next)
		if (x->type == type)
			return x;
	return ERR_PTR(-ENODEV);
}

struct phy_devres {
	struct usb_phy *phy;
	struct notifier_block *nb;
};

static void phy_devres_release(struct device *dev, void *res)
{
	struct phy_devres *r = res;

	(void)dev;
	if (r->nb)
		usb_unregister_notifier(r->phy, r->nb);
}

static struct usb_phy *devm_phy_hold(struct device *dev, struct usb_phy *phy,
				     struct notifier_block *nb)
{
	struct phy_devres *r;

	if (IS_ERR(phy))
		return phy;
	r = devres_alloc(phy_devres_release, sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->phy = phy;
	r->nb = nb;
	if (nb)
		usb_register_notifier(phy, nb);
	devres_add(dev, r);
	return phy;
}

struct usb_phy *devm_usb_get_phy(struct device *dev, enum usb_phy_type type)
{
	return devm_phy_hold(dev, usb_get_phy(type), NULL);
}

struct usb_phy *devm_usb_get_phy_by_node(struct device *dev, struct device_node *node,
					 struct notifier_block *nb)
{
	for (struct usb_phy *x = cs_kernel()->phys; x; x = x->cs_next)
		if (x->dev && x->dev->of_node == node)
			return devm_phy_hold(dev, x, nb);
	return ERR_PTR(-EPROBE_DEFER);
}

struct usb_phy *devm_usb_get_phy_by_phandle(struct device *dev, const char *phandle_name, u8 index)
{
	struct device_node *node;

	if (!dev->of_node)
		return ERR_PTR(-EINVAL);
	node = of_parse_phandle(dev->of_node, phandle_name, index);
	if (!node)
		return ERR_PTR(-ENODEV);
	return devm_usb_get_phy_by_node(dev, node, NULL);
}
