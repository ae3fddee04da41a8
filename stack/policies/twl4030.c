// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/twl4030.c - the 2015 twl4030 input-current ramp, weaknesses included.
 *
 * Behaviour reproduced from the Linux twl4030_charger.c ramp (Neil Brown, 2015; as in
 * Linux 6.12) and the article; the code is written from that description:
 *  - every usb_phy notification (VBUS, CHARGER, ENUMERATED, NONE, ...) resets the
 *    target to 500 mA (100 mA when allow_usb is off), as the driver's notifier does
 *    "on each plug event"; VBUS and CHARGER then re-apply the limits: a limit above
 *    the target is cut to it, one below it restarts the ramp. Which notifications
 *    come is the board's PHY glue (run/phy_glue.c). The driver's own board, an OMAP3
 *    phone, sends VBUS at plug and NONE at unplug only (the musb OMAP glue never
 *    sends CHARGER, and no charger framework attaches), so there the reset happens
 *    at each plug and a max_current raised after VBUS stays: the ramp climbs to it.
 *    Only a board that notifies again after the raise - the generic glue's CHARGER
 *    at the end of detection, e.g. a charger with a divider whose data contact
 *    detect times out after 600 ms - drops the target back to 500 mA, and the ramp
 *    stays there (scenarios/linux/twl4030-early-max-port*.json show both);
 *  - a worker runs every 100 ms while the limit is below the target: while VBUS reads
 *    >= 4.75 V it raises the limit by 20 mA; on a low reading it steps back one step
 *    and makes that the target, so it stops; once the target is reached it stops too,
 *    and nothing watches VBUS; NONE sets the limit variable to 0;
 *  - the target can be raised to at most 1.7 A, as userspace does through the
 *    driver's max_current attribute (here: `max`, written `t_max_set` after VBUS);
 *  - the limit is an unsigned count of uA: stepping back from below 20 mA wraps
 *    around to a huge value that the register clamps to its maximum - the bug the
 *    original had before it was fixed (`fix_underflow` selects the fixed form).
 * One simplification: after plug the limit variable starts from the chip's current
 * register value rather than from 0, so the ramp does not start from nothing.
 * It never looks at whether the system actually draws the limit: with a full battery
 * the draw stays low, VBUS never sags, and the limit climbs to the target.
 */
#include <stdlib.h>
#include <linux/jiffies.h>
#include <linux/kernel_types.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

/* Tunables from the 2015 driver, with units. */
#define TWL_CUR_STEP_UA     20000     /* each ramp step: 20 mA */
#define TWL_CUR_DELAY_MS    100       /* one step every 100 ms */
#define TWL_MIN_VBUS_UV     4750000   /* below 4.75 V VBUS is "too low" (USB 2.0 floor) */
#define TWL_MAX_CURRENT_UA  1700000   /* the driver's cap */

struct twl4030_params {
	double max;            /* A: target userspace sets after plug (capped at 1.7 A) */
	sim_time_t t_max_set;  /* when userspace raises the target after plug */
	bool allow_usb;        /* start target 500 mA (else 100 mA) */
	bool fix_underflow;    /* guard the unsigned step-back (the later fix) */
};

struct twl4030 {
	struct cs_board *board;
	const struct twl4030_params *p;
	struct notifier_block nb;
	struct work_struct event_work;
	struct delayed_work ramp_work;
	struct delayed_work max_work;
	unsigned long event;
	bool vbus;
	unsigned int usb_cur;          /* uA, unsigned as in the driver */
	unsigned int usb_cur_target;   /* uA */
};

#define OFF(f) offsetof(struct twl4030_params, f)
static const struct param_desc twl4030_param_desc[] = {
	{ "max", PARAM_NUM, UNIT_AMP, OFF(max), 0, 1.7,
	  .doc = "ramp target userspace writes to max_current after plug (driver cap 1.7 A)" },
	{ "t_max_set", PARAM_TIME, .off = OFF(t_max_set), .min = 0, .max = 3600,
	  .doc = "when, after plug, userspace raises the target to max" },
	{ "allow_usb", PARAM_BOOL, .off = OFF(allow_usb),
	  .doc = "start target 500 mA on plug (false: 100 mA)" },
	{ "fix_underflow", PARAM_BOOL, .off = OFF(fix_underflow),
	  .doc = "use the fixed step-back (false: unsigned wrap-around below 20 mA, as in 2015)" },
	PARAM_END,
};
#undef OFF

static void twl4030_params_default(const struct cs_policy_desc *desc, void *params)
{
	struct twl4030_params *p = params;

	(void)desc;
	p->max = 1.7;
	p->t_max_set = 1 * SIM_S;
	p->allow_usb = true;
}

/* The driver's twl4030_charger_update_current(): cut the limit to the target, start
 * the ramp worker when below it, write the register (which clamps to its range). */
static void twl4030_update_current(struct twl4030 *t)
{
	if (t->usb_cur > t->usb_cur_target)
		t->usb_cur = t->usb_cur_target;
	if (t->usb_cur < t->usb_cur_target)
		schedule_delayed_work(&t->ramp_work, msecs_to_jiffies(TWL_CUR_DELAY_MS));
	cs_chg_set_input_current_limit(t->board->ic, (int)min(t->usb_cur, TWL_MAX_CURRENT_UA));
}

static void twl4030_ramp(struct work_struct *work)
{
	struct twl4030 *t = container_of(to_delayed_work(work), struct twl4030, ramp_work);
	int vbus_uv;

	if (!t->vbus)
		return;
	if (cs_chg_read_adc(t->board->ic, CS_ADC_VBUS, &vbus_uv) < 0)
		return;
	if (vbus_uv < TWL_MIN_VBUS_UV) {
		/* Too low: step back one and make that the target. */
		if (t->p->fix_underflow && t->usb_cur < TWL_CUR_STEP_UA)
			t->usb_cur = 0;
		else
			t->usb_cur -= TWL_CUR_STEP_UA;  /* wraps when below one step */
		t->usb_cur_target = t->usb_cur;
	} else if (t->usb_cur >= t->usb_cur_target || t->usb_cur + TWL_CUR_STEP_UA > TWL_MAX_CURRENT_UA) {
		/* At the target with VBUS fine: stop; nothing watches VBUS any more. */
		return;
	} else {
		t->usb_cur += TWL_CUR_STEP_UA;
		schedule_delayed_work(&t->ramp_work, msecs_to_jiffies(TWL_CUR_DELAY_MS));
	}
	twl4030_update_current(t);
}

/* Userspace writes max_current: a new target, applied at once. */
static void twl4030_set_max(struct work_struct *work)
{
	struct twl4030 *t = container_of(to_delayed_work(work), struct twl4030, max_work);

	if (!t->vbus)
		return;
	t->usb_cur_target = min((unsigned int)(t->p->max * 1e6 + 0.5), TWL_MAX_CURRENT_UA);
	twl4030_update_current(t);
}

static void twl4030_event(struct work_struct *work)
{
	struct twl4030 *t = container_of(work, struct twl4030, event_work);

	switch (t->event) {
	case USB_EVENT_VBUS:
	case USB_EVENT_CHARGER:
		if (!t->vbus) {
			/* A plug: the limit starts from the chip's value, and userspace
			 * raises max_current t_max_set later. */
			t->vbus = true;
			t->usb_cur = (unsigned int)cs_chg_get_input_current_limit(t->board->ic);
			if (t->p->max > 0)
				schedule_delayed_work(&t->max_work,
						      msecs_to_jiffies((unsigned int)(t->p->t_max_set / SIM_MS)));
		}
		twl4030_update_current(t);
		break;
	case USB_EVENT_NONE:
		t->vbus = false;
		t->usb_cur = 0;
		cancel_delayed_work(&t->ramp_work);
		cancel_delayed_work(&t->max_work);
		break;
	default:
		break;
	}
}

static int twl4030_usb_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct twl4030 *t = container_of(nb, struct twl4030, nb);

	(void)data;
	/* The driver resets the target on every notification, whatever it is. */
	t->usb_cur_target = t->p->allow_usb ? 500000 : 100000;
	t->event = event;
	schedule_work(&t->event_work);
	return NOTIFY_OK;
}

static int twl4030_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
			 void **priv)
{
	struct twl4030 *t = calloc(1, sizeof(*t));

	(void)desc;
	if (!t)
		return -ENOMEM;
	t->board = board;
	t->p = params;
	t->nb.notifier_call = twl4030_usb_notify;
	INIT_WORK(&t->event_work, twl4030_event);
	INIT_DELAYED_WORK(&t->ramp_work, twl4030_ramp);
	INIT_DELAYED_WORK(&t->max_work, twl4030_set_max);
	usb_register_notifier(board->phy, &t->nb);
	*priv = t;
	return 0;
}

static void twl4030_remove(void *priv)
{
	struct twl4030 *t = priv;

	usb_unregister_notifier(t->board->phy, &t->nb);
	cancel_work_sync(&t->event_work);
	cancel_delayed_work_sync(&t->ramp_work);
	cancel_delayed_work_sync(&t->max_work);
	free(t);
}

const struct cs_policy_desc policy_twl4030 = CS_POLICY_DESC(twl4030, "twl4030",
	"twl4030 ramp: +20 mA / 100 ms while VBUS >= 4.75 V, stop at the first dip; every usb_phy notification resets the target to 500 mA");
