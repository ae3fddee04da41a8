// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/usb_charger.c - the USB charger framework: the 2016 proposal and the
 * merged usb_phy form (see linux/usb/charger.h for what each does and why).
 *
 * Both forms keep their decisions in work items: the extcon notifier only records
 * and schedules, as the kernel code does.
 */
#include <string.h>
#include <linux/extcon.h>
#include <linux/power_supply.h>
#include <linux/usb/charger.h>
#include <linux/usb/gadget.h>
#include <linux/workqueue.h>
#include <chargesim/kernel.h>

/* ---- 2016 proposal ---- */

struct usb_charger *usb_charger_find_by_name(const char *name)
{
	struct usb_charger *uchger = cs_kernel()->uchger;

	return uchger && strcmp(uchger->name, name) == 0 ? uchger : NULL;
}

int usb_charger_register_notify(struct usb_charger *uchger, struct notifier_block *nb)
{
	return raw_notifier_chain_register(&uchger->uchger_nh, nb);
}

int usb_charger_unregister_notify(struct usb_charger *uchger, struct notifier_block *nb)
{
	return raw_notifier_chain_unregister(&uchger->uchger_nh, nb);
}

unsigned int usb_charger_get_current(struct usb_charger *uchger)
{
	return uchger->cur_limit;
}

enum usb_charger_type usb_charger_get_type(struct usb_charger *uchger)
{
	return uchger->type;
}

/* The framework asks the power supply for the type (the article: it "checks with the
 * configured power supply to see what USB subtype it is"). */
static enum usb_charger_type uchger_type_from_psy(struct usb_charger *uchger)
{
	union power_supply_propval val;

	if (!uchger->psy || power_supply_get_property(uchger->psy, POWER_SUPPLY_PROP_TYPE, &val))
		return UNKNOWN_TYPE;
	switch (val.intval) {
	case POWER_SUPPLY_TYPE_USB: return SDP_TYPE;
	case POWER_SUPPLY_TYPE_USB_DCP: return DCP_TYPE;
	case POWER_SUPPLY_TYPE_USB_CDP: return CDP_TYPE;
	case POWER_SUPPLY_TYPE_USB_ACA: return ACA_TYPE;
	default: return UNKNOWN_TYPE;
	}
}

static unsigned int uchger_limit(const struct usb_charger *uchger)
{
	if (uchger->state != USB_CHARGER_PRESENT)
		return 0;
	switch (uchger->type) {
	case SDP_TYPE: return uchger->sdp_drawn ? uchger->sdp_drawn : uchger->sdp_default;
	case DCP_TYPE: return uchger->dcp_default;
	case CDP_TYPE: return uchger->cdp_default;
	case ACA_TYPE: return uchger->aca_default;
	default: return 0;
	}
}

static void uchger_notify(struct usb_charger *uchger)
{
	unsigned int limit = uchger_limit(uchger);

	if (limit == uchger->cur_limit && uchger->state != USB_CHARGER_ABSENT)
		return;
	uchger->cur_limit = limit;
	cs_stack_event_int("usb_charger_notify", "mA", limit);
	raw_notifier_call_chain(&uchger->uchger_nh, limit, uchger);
}

static void uchger_work(struct work_struct *work)
{
	struct usb_charger *uchger = cs_kernel()->uchger;
	int usb = extcon_get_state(uchger->edev, EXTCON_USB);

	(void)work;
	if (usb > 0) {
		uchger->state = USB_CHARGER_PRESENT;
		uchger->type = uchger_type_from_psy(uchger);
	} else {
		uchger->state = USB_CHARGER_ABSENT;
		uchger->type = UNKNOWN_TYPE;
		uchger->sdp_drawn = 0;
	}
	uchger_notify(uchger);
}

static int uchger_extcon_cb(struct notifier_block *nb, unsigned long state, void *data)
{
	(void)nb;
	(void)state;
	(void)data;
	schedule_work(&cs_kernel()->uchger_work);
	return NOTIFY_OK;
}

void cs_usb_charger_2016_init(struct usb_charger *uchger, struct extcon_dev *edev,
			      struct power_supply *psy, struct usb_gadget *gadget)
{
	memset(uchger, 0, sizeof(*uchger));
	uchger->name = "usb-charger.0";
	uchger->edev = edev;
	uchger->psy = psy;
	uchger->gadget = gadget;
	uchger->sdp_default = 500;
	uchger->dcp_default = 1500;
	uchger->cdp_default = 1500;
	uchger->aca_default = 1500;
	uchger->state = USB_CHARGER_DEFAULT;
	if (gadget)
		gadget->charger = uchger;
	cs_kernel()->uchger = uchger;
	INIT_WORK(&cs_kernel()->uchger_work, uchger_work);
	uchger->extcon_nb.notifier_call = uchger_extcon_cb;
	/* Only EXTCON_USB, as in the proposal. */
	extcon_register_notifier(edev, EXTCON_USB, &uchger->extcon_nb);
}

void cs_usb_charger_2016_cleanup(struct usb_charger *uchger)
{
	extcon_unregister_notifier(uchger->edev, EXTCON_USB, &uchger->extcon_nb);
	cancel_work_sync(&cs_kernel()->uchger_work);
	if (cs_kernel()->uchger == uchger)
		cs_kernel()->uchger = NULL;
}

void cs_usb_charger_2016_vbus_draw(struct usb_charger *uchger, unsigned int mA)
{
	if (!uchger)
		return;
	uchger->sdp_drawn = mA;
	if (uchger->type == SDP_TYPE)
		uchger_notify(uchger);
}

/* ---- merged form, on the PHY ---- */

static const unsigned int phy_chg_cables[] = {
	EXTCON_USB, EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_DCP, EXTCON_CHG_USB_CDP, EXTCON_CHG_USB_ACA,
};

_Static_assert(ARRAY_SIZE(phy_chg_cables) == CS_PHY_CHG_CABLES, "cs_phy_charger.nb size");

static enum usb_charger_type phy_charger_type(struct cs_phy_charger *c)
{
	if (extcon_get_state(c->edev, EXTCON_CHG_USB_SDP) > 0)
		return SDP_TYPE;
	if (extcon_get_state(c->edev, EXTCON_CHG_USB_DCP) > 0)
		return DCP_TYPE;
	if (extcon_get_state(c->edev, EXTCON_CHG_USB_CDP) > 0)
		return CDP_TYPE;
	if (extcon_get_state(c->edev, EXTCON_CHG_USB_ACA) > 0)
		return ACA_TYPE;
	return UNKNOWN_TYPE;
}

void usb_phy_get_charger_current(struct usb_phy *phy, unsigned int *min, unsigned int *max)
{
	const struct usb_charger_current *cur = &cs_kernel()->phy_chg.cur;

	switch (phy->chg_type) {
	case SDP_TYPE: *min = cur->sdp_min; *max = cur->sdp_max; break;
	case DCP_TYPE: *min = cur->dcp_min; *max = cur->dcp_max; break;
	case CDP_TYPE: *min = cur->cdp_min; *max = cur->cdp_max; break;
	case ACA_TYPE: *min = cur->aca_min; *max = cur->aca_max; break;
	default: *min = 0; *max = 0; break;
	}
}

static void phy_charger_work(struct work_struct *work)
{
	struct cs_phy_charger *c = container_of(work, struct cs_phy_charger, work);
	unsigned int min, max;

	c->phy->chg_type = phy_charger_type(c);
	c->state = c->phy->chg_type != UNKNOWN_TYPE ? USB_CHARGER_PRESENT : USB_CHARGER_ABSENT;
	usb_phy_get_charger_current(c->phy, &min, &max);
	if (c->state == USB_CHARGER_ABSENT)
		max = 0;
	cs_stack_event_int("usb_charger_notify", "mA", max);
	/* The merged code sends the max as the action, the PHY as data. */
	atomic_notifier_call_chain(&c->phy->notifier, max, c->phy);
}

static int phy_charger_extcon_cb(struct notifier_block *nb, unsigned long state, void *data)
{
	(void)nb;
	(void)state;
	(void)data;
	schedule_work(&cs_kernel()->phy_chg.work);
	return NOTIFY_OK;
}

void usb_phy_set_charger_current(struct usb_phy *phy, unsigned int mA)
{
	struct cs_phy_charger *c = &cs_kernel()->phy_chg;

	if (c->phy != phy)
		return;
	/* The gadget's configured current becomes the SDP max (merged behaviour). */
	if (phy->chg_type == SDP_TYPE && c->cur.sdp_max != mA) {
		c->cur.sdp_max = mA;
		schedule_work(&c->work);
	}
}

void cs_usb_phy_charger_init(struct usb_phy *phy, struct extcon_dev *edev, bool superspeed)
{
	struct cs_phy_charger *c = &cs_kernel()->phy_chg;

	memset(c, 0, sizeof(*c));
	c->phy = phy;
	c->edev = edev;
	c->cur = (struct usb_charger_current){
		.sdp_min = superspeed ? 150 : 2, .sdp_max = superspeed ? 900 : 500,
		.dcp_min = 500, .dcp_max = 5000,
		.cdp_min = 1500, .cdp_max = 5000,
		.aca_min = 1500, .aca_max = 5000,
	};
	INIT_WORK(&c->work, phy_charger_work);
	for (size_t i = 0; i < ARRAY_SIZE(phy_chg_cables); i++) {
		c->nb[i].notifier_call = phy_charger_extcon_cb;
		extcon_register_notifier(edev, phy_chg_cables[i], &c->nb[i]);
	}
}

void cs_usb_phy_charger_cleanup(struct usb_phy *phy)
{
	struct cs_phy_charger *c = &cs_kernel()->phy_chg;

	if (c->phy != phy)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(phy_chg_cables); i++)
		extcon_unregister_notifier(c->edev, phy_chg_cables[i], &c->nb[i]);
	cancel_work_sync(&c->work);
	c->phy = NULL;
}
