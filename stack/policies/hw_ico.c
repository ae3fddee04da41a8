// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/hw_ico.c - leave the search to the charger IC.
 *
 * Chargers such as TI's bq25890 have an input current optimiser (ICO) and an input
 * voltage regulation loop (VINDPM): the chip starts low (500 mA), raises its own
 * limit while VBUS stays above VINDPM, and from then on holds VBUS at VINDPM whatever
 * the limit register says. This policy sets the register to the top of the range the
 * stack reports for the detected port, sets VINDPM, and starts ICO on every new
 * supplier. On a chip without ICO it relies on VINDPM alone; on a chip without VINDPM
 * (twl4030) it can only set the fixed limit - which is why that chip needed a
 * software ramp.
 */
#include <stdlib.h>
#include <linux/kernel_types.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

struct ico_params {
	double vindpm;        /* V; 0 = keep the chip's */
	double max;           /* A; cap on the limit (0 = the stack's max) */
};

struct hw_ico {
	struct cs_board *board;
	const struct ico_params *p;
	struct notifier_block nb;
	struct work_struct work;
};

static const struct param_desc ico_param_desc[] = {
	{ "vindpm", PARAM_NUM, UNIT_VOLT, offsetof(struct ico_params, vindpm), 0, 25,
	  .doc = "VINDPM to program (0: keep the chip's default)" },
	{ "max", PARAM_NUM, UNIT_AMP, offsetof(struct ico_params, max), 0, 20,
	  .doc = "highest input limit (0: the detected port's / chip's maximum)" },
	PARAM_END,
};

static void ico_work(struct work_struct *work)
{
	struct hw_ico *h = container_of(work, struct hw_ico, work);
	union power_supply_propval c = { 0 };
	int min_ua, max_ua, step, lim;

	cs_chg_input_current_range(h->board->ic, &min_ua, &max_ua, &step);
	power_supply_get_property(h->board->usb_psy, POWER_SUPPLY_PROP_CURRENT_MAX, &c);
	lim = max_ua;
	if (h->p->max > 0)
		lim = min(lim, (int)(h->p->max * 1e6 + 0.5));
	/* A host port's budget is a contract, not a search space. */
	if (c.intval > 0 && c.intval <= 900000)
		lim = min(lim, c.intval);
	if (h->p->vindpm > 0 && cs_chg_set_vindpm(h->board->ic, (int)(h->p->vindpm * 1e6 + 0.5)) < 0)
		pr_warn("hw-ico: this charger has no VINDPM");
	cs_chg_set_input_current_limit(h->board->ic, lim);
	if (cs_chg_start_ico(h->board->ic) < 0)
		pr_info("hw-ico: no input current optimiser; VINDPM alone guards VBUS");
}

static int ico_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct hw_ico *h = container_of(nb, struct hw_ico, nb);

	(void)data;
	if (event != USB_EVENT_CHARGER)
		return NOTIFY_DONE;
	schedule_work(&h->work);
	return NOTIFY_OK;
}

static int ico_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		     void **priv)
{
	struct hw_ico *h = calloc(1, sizeof(*h));

	(void)desc;
	if (!h)
		return -ENOMEM;
	h->board = board;
	h->p = params;
	h->nb.notifier_call = ico_notify;
	INIT_WORK(&h->work, ico_work);
	usb_register_notifier(board->phy, &h->nb);
	*priv = h;
	return 0;
}

static void ico_remove(void *priv)
{
	struct hw_ico *h = priv;

	usb_unregister_notifier(h->board->phy, &h->nb);
	cancel_work_sync(&h->work);
	free(h);
}

const struct cs_policy_desc policy_hw_ico = {
	.abi = CS_POLICY_ABI,
	.name = "hw-ico",
	.summary = "hand the search to the charger IC: limit at the top of the range, VINDPM, start ICO",
	.params = ico_param_desc,
	.params_size = sizeof(struct ico_params),   /* all defaults 0 */
	.probe = ico_probe,
	.remove = ico_remove,
};
