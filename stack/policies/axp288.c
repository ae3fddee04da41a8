// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/axp288.c - the axp288 charger's cable handling, both API versions.
 *
 * On an extcon cable notification the driver's work item reads which charger cable
 * is attached and sets the input limit by type: SDP 500 mA, CDP 1500 mA, DCP
 * 2000 mA, FAST 2000 mA, SLOW 500 mA [Linux axp288_charger.c; docs/stack.md 10].
 * The 2015 variant (`api` "2015") is the one after the extcon API change (kernel
 * commit 4b703b1d4c46, "power: axp288_charger: fix for API change"): it calls extcon_register_notifier(edev, EXTCON_NONE, nb), which the
 * extcon core refuses with -EINVAL, so it never hears of any cable and the charger
 * keeps the chip's default input limit. The "fixed" variant registers for each cable.
 */
#include <stdlib.h>
#include <linux/extcon.h>
#include <linux/kernel_types.h>
#include <linux/workqueue.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

enum { AXP_API_2015, AXP_API_FIXED };
static const char *const axp_api_names[] = { "2015", "fixed", NULL };

static const struct {
	unsigned int cable;
	int ua;
} axp288_table[] = {
	{ EXTCON_CHG_USB_SDP, 500000 },
	{ EXTCON_CHG_USB_CDP, 1500000 },
	{ EXTCON_CHG_USB_DCP, 2000000 },
	{ EXTCON_CHG_USB_FAST, 2000000 },
	{ EXTCON_CHG_USB_SLOW, 500000 },
};

struct axp288_params {
	int api;
};

struct axp288;

/* One notifier per cable; each knows its driver. */
struct axp288_cable {
	struct notifier_block nb;
	struct axp288 *a;
};

struct axp288 {
	struct cs_board *board;
	const struct axp288_params *p;
	struct axp288_cable cab[ARRAY_SIZE(axp288_table)];
	struct work_struct work;
	int registered;
};

static const struct param_desc axp288_param_desc[] = {
	{ "api", PARAM_ENUM, .off = offsetof(struct axp288_params, api), .choices = axp_api_names,
	  .doc = "2015 (registers for EXTCON_NONE: never notified) or fixed (one notifier per cable)" },
	PARAM_END,
};

static void axp288_work(struct work_struct *work)
{
	struct axp288 *a = container_of(work, struct axp288, work);

	for (size_t i = 0; i < ARRAY_SIZE(axp288_table); i++)
		if (extcon_get_state(a->board->edev, axp288_table[i].cable) > 0) {
			cs_chg_set_input_current_limit(a->board->ic, axp288_table[i].ua);
			return;
		}
}

static int axp288_cable_evt(struct notifier_block *nb, unsigned long state, void *data)
{
	struct axp288_cable *c = container_of(nb, struct axp288_cable, nb);

	(void)state;
	(void)data;
	schedule_work(&c->a->work);
	return NOTIFY_OK;
}

static int axp288_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
			void **priv)
{
	struct axp288 *a = calloc(1, sizeof(*a));
	int ret;

	(void)desc;
	if (!a)
		return -ENOMEM;
	a->board = board;
	a->p = params;
	INIT_WORK(&a->work, axp288_work);
	for (size_t i = 0; i < ARRAY_SIZE(axp288_table); i++) {
		a->cab[i].nb.notifier_call = axp288_cable_evt;
		a->cab[i].a = a;
	}
	if (a->p->api == AXP_API_2015) {
		ret = extcon_register_notifier(board->edev, EXTCON_NONE, &a->cab[0].nb);
		if (ret)
			dev_err(NULL, "failed to register extcon notifier %d", ret);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(axp288_table); i++)
			if (extcon_register_notifier(board->edev, axp288_table[i].cable, &a->cab[i].nb) == 0)
				a->registered |= 1 << i;
	}
	*priv = a;
	return 0;
}

static void axp288_remove(void *priv)
{
	struct axp288 *a = priv;

	for (size_t i = 0; i < ARRAY_SIZE(axp288_table); i++)
		if (a->registered & (1 << i))
			extcon_unregister_notifier(a->board->edev, axp288_table[i].cable, &a->cab[i].nb);
	cancel_work_sync(&a->work);
	free(a);
}

const struct cs_policy_desc policy_axp288 = {
	.abi = CS_POLICY_ABI,
	.name = "axp288",
	.summary = "axp288: input limit by extcon cable (SDP 500, CDP 1500, DCP/FAST 2000, SLOW 500 mA)",
	.params = axp288_param_desc,
	.params_size = sizeof(struct axp288_params),   /* api 2015 by default (0) */
	.probe = axp288_probe,
	.remove = axp288_remove,
};
