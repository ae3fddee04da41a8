/*
 * stack/policies/fixed.c - a fixed input limit, set when VBUS appears.
 *
 * The simplest policy: no ramp, no detection. On the PHY's VBUS event it writes
 * params.ilim to the charger's input limit (or leaves the chip's reset value when
 * ilim is 0). Charger-manager's per-cable table builds on this (see the policy issue).
 */
#include <linux/kernel_types.h>
#include <linux/usb/phy.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>
#include <linux/workqueue.h>
#include <stdlib.h>

struct fixed_params {
	double ilim;          /* A; 0 = keep the charger's reset value */
};

struct fixed {
	struct cs_board *board;
	const struct fixed_params *p;
	struct notifier_block nb;
	struct work_struct work;
	unsigned long last_event;
};

static const struct param_desc fixed_param_desc[] = {
	{ "ilim", PARAM_NUM, UNIT_AMP, offsetof(struct fixed_params, ilim), 0, 20,
	  .doc = "input current limit written when VBUS appears (0 = chip default)" },
	PARAM_END,
};

static void fixed_params_default(void *params)
{
	struct fixed_params *p = params;

	p->ilim = 0;
}

/* The notifier only records; the work item decides (kernel habit). */
static int fixed_phy_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct fixed *f = container_of(nb, struct fixed, nb);

	(void)data;
	f->last_event = event;
	schedule_work(&f->work);
	return NOTIFY_OK;
}

static void fixed_work(struct work_struct *work)
{
	struct fixed *f = container_of(work, struct fixed, work);

	if (f->last_event == USB_EVENT_VBUS && f->p->ilim > 0)
		cs_chg_set_input_current_limit(f->board->ic, (int)(f->p->ilim * 1e6 + 0.5));
}

static int fixed_probe(struct cs_board *board, void *params, void **priv)
{
	struct fixed *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->board = board;
	f->p = params;
	f->nb.notifier_call = fixed_phy_notify;
	INIT_WORK(&f->work, fixed_work);
	usb_register_notifier(board->phy, &f->nb);
	*priv = f;
	return 0;
}

static void fixed_remove(void *priv)
{
	struct fixed *f = priv;

	usb_unregister_notifier(f->board->phy, &f->nb);
	cancel_work_sync(&f->work);
	free(f);
}

const struct cs_policy_desc policy_fixed = {
	.abi = CS_POLICY_ABI,
	.name = "fixed",
	.summary = "fixed input limit written when VBUS appears",
	.params = fixed_param_desc,
	.params_size = sizeof(struct fixed_params),
	.params_default = fixed_params_default,
	.probe = fixed_probe,
	.remove = fixed_remove,
};
