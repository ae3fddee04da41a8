// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/kcore_absent.c - built only without a kernel tree (Makefile: KCORE):
 * the least of extcon and of the USB PHY layer that the boards and the port policies
 * need, in place of the kernel's drivers/extcon/extcon.c and drivers/usb/phy/phy.c,
 * which a build with the tree compiles unmodified.
 *
 * An extcon device is its cables' states and notifier chains; extcon_set_state_sync()
 * notifies on every call, changed or not, as 6.12's extcon_sync() does. No properties,
 * no mutually exclusive sets, no sysfs. PHYs are a list to find them in, and the
 * merged USB charger framework is a stand-in that keeps phy.c's rules as
 * docs/stack.md states them (attached by an "extcon" property in the PHY's node; the
 * cables read SDP, CDP, DCP, ACA in that order; the type's maximum notified with the
 * PHY as data, 0 mA and the default table on unplug; a gadget's current becomes the
 * current type's maximum, an SDP's at most 900 mA), so that a scenario gives the same
 * result in both builds; the CUnit suite checks both against those rules.
 */
#include <string.h>
#include <linux/device.h>
#include <linux/extcon-provider.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
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

/* ---- USB PHYs and the merged charger framework's stand-in ---- */

static const struct usb_charger_current default_cur = {
	.sdp_min = 2, .sdp_max = 500, .dcp_min = 500, .dcp_max = 5000,
	.cdp_min = 1500, .cdp_max = 5000, .aca_min = 1500, .aca_max = 5000,
};

/* the maximum of each type, and the most a gadget may set it to */
static unsigned int *type_max(struct usb_phy *x, unsigned int *cap)
{
	switch (x->chg_type) {
	case SDP_TYPE: *cap = 900; return &x->chg_cur.sdp_max;
	case DCP_TYPE: *cap = 5000; return &x->chg_cur.dcp_max;
	case CDP_TYPE: *cap = 5000; return &x->chg_cur.cdp_max;
	case ACA_TYPE: *cap = 5000; return &x->chg_cur.aca_max;
	default: return NULL;
	}
}

static void chg_work(struct work_struct *work)
{
	struct usb_phy *x = container_of(work, struct usb_phy, chg_work);
	unsigned int cap, *max = type_max(x, &cap);

	if (x->chg_state == USB_CHARGER_ABSENT)
		x->chg_cur = default_cur;
	if (x->chg_state != USB_CHARGER_DEFAULT)
		atomic_notifier_call_chain(&x->notifier,
					   x->chg_state == USB_CHARGER_PRESENT && max ? *max : 0, x);
}

static int chg_type_cb(struct notifier_block *nb, unsigned long state, void *data)
{
	static const struct { unsigned int cable; enum usb_charger_type type; } order[] = {
		{ EXTCON_CHG_USB_SDP, SDP_TYPE }, { EXTCON_CHG_USB_CDP, CDP_TYPE },
		{ EXTCON_CHG_USB_DCP, DCP_TYPE }, { EXTCON_CHG_USB_ACA, ACA_TYPE },
	};
	struct usb_phy *x = container_of(nb, struct usb_phy, type_nb);

	(void)state;
	(void)data;
	x->chg_type = UNKNOWN_TYPE;
	for (size_t i = 0; i < ARRAY_SIZE(order) && x->chg_type == UNKNOWN_TYPE; i++)
		if (extcon_get_state(x->edev, order[i].cable) > 0)
			x->chg_type = order[i].type;
	x->chg_state = x->chg_type == UNKNOWN_TYPE ? USB_CHARGER_ABSENT : USB_CHARGER_PRESENT;
	schedule_work(&x->chg_work);
	return NOTIFY_OK;
}

static int attach_framework(struct usb_phy *x)
{
	static const unsigned int cables[] = {
		EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_CDP, EXTCON_CHG_USB_DCP, EXTCON_CHG_USB_ACA,
	};

	x->chg_type = UNKNOWN_TYPE;
	x->chg_state = USB_CHARGER_DEFAULT;
	x->chg_cur = default_cur;
	INIT_WORK(&x->chg_work, chg_work);
	if (!of_property_read_bool(x->dev->of_node, "extcon"))
		return 0;
	x->edev = extcon_get_edev_by_phandle(x->dev, 0);
	if (IS_ERR(x->edev))
		return PTR_ERR(x->edev);
	if (IS_ERR(extcon_get_edev_by_phandle(x->dev, 1)))
		dev_info(x->dev, "No separate ID extcon device\n");
	x->type_nb.notifier_call = chg_type_cb;
	for (size_t i = 0; i < ARRAY_SIZE(cables); i++) {
		int ret = devm_extcon_register_notifier(x->dev, x->edev, cables[i], &x->type_nb);

		if (ret)
			return ret;
	}
	chg_type_cb(&x->type_nb, 0, NULL);
	return 0;
}

int usb_add_phy_dev(struct usb_phy *x)
{
	int ret;

	if (!x->dev)
		return -EINVAL;
	ret = attach_framework(x);
	if (ret)
		return ret;
	ATOMIC_INIT_NOTIFIER_HEAD(&x->notifier);
	list_add_tail(&x->head, &cs_kcore()->phy_list);
	return 0;
}

int usb_add_phy(struct usb_phy *x, enum usb_phy_type type)
{
	int ret = usb_add_phy_dev(x);

	if (!ret)
		x->type = type;
	return ret;
}
void usb_remove_phy(struct usb_phy *x)
{
	if (x)
		list_del(&x->head);
}

struct usb_phy *usb_get_phy(enum usb_phy_type type)
{
	struct usb_phy *x;

	list_for_each_entry(x, &cs_kcore()->phy_list, head)
		if (x->type == type)
			return x;
	return ERR_PTR(-ENODEV);
}

void usb_put_phy(struct usb_phy *x)
{
	(void)x;
}

void devm_usb_put_phy(struct device *dev, struct usb_phy *x)
{
	(void)dev;
	(void)x;
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
	*r = (struct phy_devres){ phy, nb };
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
	struct usb_phy *x;

	if (!of_device_is_available(node))
		return ERR_PTR(-ENODEV);
	list_for_each_entry(x, &cs_kcore()->phy_list, head)
		if (x->dev->of_node == node)
			return devm_phy_hold(dev, x, nb);
	return ERR_PTR(-EPROBE_DEFER);
}

struct usb_phy *devm_usb_get_phy_by_phandle(struct device *dev, const char *prop, u8 index)
{
	struct device_node *node;

	if (!dev->of_node)
		return ERR_PTR(-EINVAL);
	node = of_parse_phandle(dev->of_node, prop, index);
	if (!node)
		return ERR_PTR(-ENODEV);
	return devm_usb_get_phy_by_node(dev, node, NULL);
}

void usb_phy_set_event(struct usb_phy *x, unsigned long event)
{
	x->last_event = event;
}

void usb_phy_set_charger_current(struct usb_phy *usb_phy, unsigned int mA)
{
	unsigned int cap, *max = type_max(usb_phy, &cap);

	if (!max || *max == mA)
		return;
	*max = mA > cap ? cap : mA;
	schedule_work(&usb_phy->chg_work);
}

void usb_phy_get_charger_current(struct usb_phy *usb_phy, unsigned int *min, unsigned int *max)
{
	const struct usb_charger_current *c = &usb_phy->chg_cur;

	switch (usb_phy->chg_type) {
	case SDP_TYPE: *min = c->sdp_min; *max = c->sdp_max; break;
	case DCP_TYPE: *min = c->dcp_min; *max = c->dcp_max; break;
	case CDP_TYPE: *min = c->cdp_min; *max = c->cdp_max; break;
	case ACA_TYPE: *min = c->aca_min; *max = c->aca_max; break;
	default: *min = 0; *max = 0; break;
	}
}

void usb_phy_set_charger_state(struct usb_phy *usb_phy, enum usb_charger_state state)
{
	if (usb_phy->chg_state == state || !usb_phy->charger_detect)
		return;
	usb_phy->chg_state = state;
	usb_phy->chg_type = state == USB_CHARGER_PRESENT ? usb_phy->charger_detect(usb_phy) :
			    UNKNOWN_TYPE;
	schedule_work(&usb_phy->chg_work);
}
