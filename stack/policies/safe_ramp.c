// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/safe_ramp.c - this project's input-current ramp: raise the load only
 * while the raise can be seen, keep VBUS adequate, back off fast.
 *
 * The article ends by asking for "a standard way for charging power supply devices to
 * ramp up the load while maintaining adequate voltage". The known ramps fail in three
 * ways: they raise the limit when the draw cannot show the source's limit (a full
 * battery draws little, so VBUS never sags and the limit climbs past the adapter);
 * they never come down again; they trust a number (a framework's 1.5 A, 5 A) instead
 * of the source. The rules below each answer one of those; docs/safe-ramp.md says why
 * with plots.
 *
 *  R1 start low: after detection, begin at `start` (500 mA, the USB 2.0 configured
 *     current), inside the range the stack reports;
 *  R2 probe only under load: raise the limit one step only when the input current is
 *     at the limit (IBUS >= draw_margin * limit) and VBUS is adequate - a raise while
 *     the system draws less reveals nothing, so the limit never runs ahead of what the
 *     source has been seen to deliver by more than one step;
 *  R3 verify each step: the next check comes one interval later; VBUS below vbus_min
 *     means the source is at its limit;
 *  R4 back off fast, anywhere: on low VBUS or a charger input that dropped out on
 *     UVLO, go back to the verified step below when it follows a probe, else (the
 *     source weakened) drop `backoff` steps at once; make that the ceiling and keep
 *     checking at the ramp interval until things are adequate again;
 *  R5 a lost VBUS is a trip: if VBUS comes back within `trip_window`, the ceiling
 *     drops below the limit in force when it went; the ramp restarts from `start`;
 *  R6 stay in range: never above the stack's maximum (merged charger framework
 *     [min, max] when present, else the detected type's current) nor the charger's
 *     register range;
 *  R7 re-probe slowly: after `reprobe` without trouble the ceiling is allowed one more
 *     step, so a transient dip does not cost the rest of the charge; a probe that
 *     fails again at the same level doubles the wait (up to 30 min);
 *  R8 watch the charger: if it reports UVLO while VBUS reads adequate at two
 *     checks in a row (a chip that latched off after a momentary dip), restart
 *     its input; the limit stays where it is, since nothing was being drawn.
 */
#include <stdlib.h>
#include <linux/jiffies.h>
#include <linux/kernel_types.h>
#include <linux/power_supply.h>
#include <linux/usb/charger.h>
#include <linux/usb/phy.h>
#include <linux/workqueue.h>
#include <chargesim/boot.h>
#include <chargesim/charger_ic.h>
#include <chargesim/policy.h>

enum sr_state { SR_IDLE, SR_RAMP, SR_STABLE, SR_STATE_COUNT };

/* R7's wait doubles up to this after repeated failures at the same level: 30 min. */
#define SR_REPROBE_MAX_MS (30 * 60 * 1000)
static const char *const sr_state_names[] = { "idle", "ramp", "stable" };
G_STATIC_ASSERT(G_N_ELEMENTS(sr_state_names) == SR_STATE_COUNT);

struct sr_params {
	double start;          /* A */
	double step;           /* A */
	sim_time_t interval;   /* between checks while ramping */
	sim_time_t stable_interval;
	double vbus_min;       /* V */
	double draw_margin;    /* fraction of the limit that counts as "at the limit" */
	int backoff;           /* steps */
	sim_time_t trip_window;
	sim_time_t reprobe;
	double boot_vbat;      /* V; > 0: gate the boot on this battery voltage */
};

struct safe_ramp {
	struct cs_board *board;
	const struct sr_params *p;
	struct notifier_block nb;
	struct work_struct event_work;
	struct delayed_work work;
	unsigned long event;
	enum sr_state st;
	int limit_ua, ceiling_ua, floor_ua, max_ua;
	int req_ua;                /* last limit requested; the ramp counts steps in requests */
	int trip_limit_ua;         /* limit in force when VBUS went away */
	unsigned long lost_at;     /* jiffies, 0 = never */
	unsigned long quiet_since; /* last trouble, for R7 */
	int stuck_checks;          /* R8: consecutive checks with the charger stuck in UVLO */
	bool probing;              /* the last action raised the limit */
	int fail_ua;               /* limit at which the last probe failed */
	int reprobe_ms;            /* current R7 wait, doubled by repeated failures */
	bool vbus;
};

#define OFF(f) offsetof(struct sr_params, f)
static const struct param_desc sr_param_desc[] = {
	{ "start", PARAM_NUM, UNIT_AMP, OFF(start), 0, 10, .doc = "first limit after detection (R1)" },
	{ "step", PARAM_NUM, UNIT_AMP, OFF(step), 1e-3, 1, 0, .doc = "ramp step (R2)" },
	{ "interval", PARAM_TIME, .off = OFF(interval), .min = 1e-3, .max = 60,
	  .doc = "time between checks while ramping (R3)" },
	{ "stable_interval", PARAM_TIME, .off = OFF(stable_interval), .min = 1e-3, .max = 600,
	  .doc = "time between checks once stable (R4)" },
	{ "vbus_min", PARAM_NUM, UNIT_VOLT, OFF(vbus_min), 3, 6,
	  .doc = "adequate VBUS at the device (USB 2.0 floor 4.75 V)" },
	{ "draw_margin", PARAM_NUM, UNIT_FRACTION, OFF(draw_margin), 0, 1,
	  .doc = "IBUS at this fraction of the limit counts as drawing the limit (R2)" },
	{ "backoff", PARAM_INT, .off = OFF(backoff), .min = 1, .max = 20, .doc = "steps dropped on low VBUS (R4)" },
	{ "trip_window", PARAM_TIME, .off = OFF(trip_window), .min = 0, .max = 60,
	  .doc = "VBUS back within this long counts as a trip (R5)" },
	{ "reprobe", PARAM_TIME, .off = OFF(reprobe), .min = 0, .max = 86400,
	  .doc = "quiet time before one more step is allowed above the ceiling (R7)" },
	{ "boot_vbat", PARAM_NUM, UNIT_VOLT, OFF(boot_vbat), 0, 5,
	  .doc = "boot gating: the bootloader charges until the battery reaches this (0: no gate)" },
	PARAM_END,
};
#undef OFF

static void sr_params_default(void *params)
{
	struct sr_params *p = params;

	p->start = 0.5;
	p->step = 0.1;
	p->interval = 100 * SIM_MS;
	p->stable_interval = 1 * SIM_S;
	p->vbus_min = 4.75;
	p->draw_margin = 0.9;
	p->backoff = 2;
	p->trip_window = 2 * SIM_S;
	p->reprobe = 60 * SIM_S;
}

static int sr_ms(sim_time_t t)
{
	return (int)(t / SIM_MS);
}

static void sr_set_state(struct safe_ramp *s, enum sr_state st)
{
	if (st != s->st)
		cs_stack_event("safe_ramp_state", "state", sr_state_names[st]);
	s->st = st;
}

static void sr_write(struct safe_ramp *s, int ua)
{
	ua = clamp(ua, s->floor_ua, s->ceiling_ua);
	/* The chip rounds to its register step; the ramp keeps counting in the
	 * values it asked for, so the levels do not drift down by a rounding each
	 * round trip and a failed level is recognised when it comes back (R7). */
	if (ua != s->req_ua) {
		s->req_ua = ua;
		s->limit_ua = cs_chg_set_input_current_limit(s->board->ic, ua);
	}
}

/* R6: the stack's range for this supplier, within the charger's registers. */
static void sr_range(struct safe_ramp *s)
{
	union power_supply_propval c = { 0 };
	int chip_min, chip_max, step;
	unsigned int fw_min = 0, fw_max = 0;

	cs_chg_input_current_range(s->board->ic, &chip_min, &chip_max, &step);
	power_supply_get_property(s->board->usb_psy, POWER_SUPPLY_PROP_CURRENT_MAX, &c);
	s->max_ua = c.intval;
	if (!s->board->uchger) {
		usb_phy_get_charger_current(s->board->phy, &fw_min, &fw_max);
		if (fw_max > 0)
			s->max_ua = (int)fw_max * 1000;
	}
	if (s->max_ua <= 0 || s->max_ua > chip_max)
		s->max_ua = chip_max;
	s->floor_ua = max(chip_min, min((int)(s->p->start * 1e6 + 0.5), s->max_ua));
	if (fw_min * 1000 > (unsigned int)s->floor_ua && (int)fw_min * 1000 <= s->max_ua)
		s->floor_ua = (int)fw_min * 1000;
}

static void sr_work(struct work_struct *work)
{
	struct safe_ramp *s = container_of(to_delayed_work(work), struct safe_ramp, work);
	int step = (int)(s->p->step * 1e6 + 0.5);
	int vbus_min_uv = (int)(s->p->vbus_min * 1e6);
	int vbus_uv, ibus_ua, next_ms;
	bool uvlo;

	if (!s->vbus || s->st == SR_IDLE)
		return;
	if (cs_chg_read_adc(s->board->ic, CS_ADC_VBUS, &vbus_uv) < 0 ||
	    cs_chg_read_adc(s->board->ic, CS_ADC_IBUS, &ibus_ua) < 0)
		return;
	uvlo = cs_chg_get_status(s->board->ic) == CS_CHG_STATUS_UVLO;
	if (uvlo && vbus_uv >= vbus_min_uv) {
		/* R8: the charger's input is off but VBUS reads adequate (it reads
		 * the source unloaded). A chip that restarts by itself does so within
		 * one check; one that latched off after a dip needs its input
		 * restarted. Lowering the limit would not help: nothing is drawn. */
		if (++s->stuck_checks >= 2) {
			pr_info("safe-ramp: charger latched off with VBUS present; restarting its input");
			cs_chg_set_input_enable(s->board->ic, false);
			cs_chg_set_input_enable(s->board->ic, true);
			s->stuck_checks = 0;
		}
		schedule_delayed_work(&s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
		return;
	}
	s->stuck_checks = 0;
	if (uvlo || vbus_uv < vbus_min_uv) {
		/* R4: the source is past its limit at this setting (VBUS sagged, or it
		 * collapsed and the charger's input dropped out). Right after a probe,
		 * the step below was verified: go back to it. Otherwise the source got
		 * weaker: drop `backoff` steps. */
		int lower = max(s->floor_ua, s->req_ua - (s->probing ? 1 : s->p->backoff) * step);

		/* R7: failing again where the last probe failed doubles the wait. */
		if (s->probing && s->req_ua == s->fail_ua)
			s->reprobe_ms = min(s->reprobe_ms * 2, SR_REPROBE_MAX_MS);
		else
			s->reprobe_ms = sr_ms(s->p->reprobe);
		if (s->probing)
			s->fail_ua = s->req_ua;
		s->probing = false;
		s->ceiling_ua = lower;
		s->quiet_since = jiffies;
		sr_write(s, lower);
		sr_set_state(s, SR_RAMP);
		schedule_delayed_work(&s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
		return;
	}
	/* R7: a long quiet spell earns one more step of headroom. */
	s->probing = false;
	if (s->ceiling_ua < s->max_ua &&
	    time_after(jiffies, s->quiet_since + msecs_to_jiffies((unsigned int)s->reprobe_ms))) {
		s->ceiling_ua = min(s->max_ua, s->ceiling_ua + step);
		s->quiet_since = jiffies;
	}
	if (ibus_ua >= (int)(s->p->draw_margin * s->limit_ua) && s->req_ua < s->ceiling_ua) {
		/* R2/R3: drawing the limit with VBUS adequate - probe one step. */
		sr_write(s, s->req_ua + step);
		s->probing = true;
		sr_set_state(s, SR_RAMP);
		next_ms = sr_ms(s->p->interval);
	} else {
		sr_set_state(s, SR_STABLE);
		next_ms = sr_ms(s->p->stable_interval);
	}
	schedule_delayed_work(&s->work, msecs_to_jiffies(next_ms));
}

static void sr_event(struct work_struct *work)
{
	struct safe_ramp *s = container_of(work, struct safe_ramp, event_work);

	if (s->event == USB_EVENT_NONE) {
		s->vbus = false;
		s->lost_at = jiffies;
		s->trip_limit_ua = s->req_ua;
		cancel_delayed_work(&s->work);
		sr_set_state(s, SR_IDLE);
		return;
	}
	if (s->event == USB_EVENT_VBUS) {
		s->vbus = true;
		return;
	}
	/* USB_EVENT_CHARGER: the type is known; start the ramp (R1). */
	s->vbus = true;
	sr_range(s);
	s->ceiling_ua = s->max_ua;
	if (s->lost_at && time_before(jiffies, s->lost_at + msecs_to_jiffies(sr_ms(s->p->trip_window))) &&
	    s->trip_limit_ua > 0) {
		/* R5: VBUS went and came back: the limit then was too much. */
		int step = (int)(s->p->step * 1e6 + 0.5);

		s->ceiling_ua = max(s->floor_ua, s->trip_limit_ua - s->p->backoff * step);
		pr_info("safe-ramp: VBUS returned after a trip; ceiling %d mA", s->ceiling_ua / 1000);
	}
	s->quiet_since = jiffies;
	s->reprobe_ms = sr_ms(s->p->reprobe);
	s->fail_ua = -1;
	s->probing = false;
	s->limit_ua = -1;
	s->req_ua = -1;
	sr_write(s, s->floor_ua);
	sr_set_state(s, SR_RAMP);
	mod_delayed_work(system_wq, &s->work, msecs_to_jiffies(sr_ms(s->p->interval)));
}

static int sr_notify(struct notifier_block *nb, unsigned long event, void *data)
{
	struct safe_ramp *s = container_of(nb, struct safe_ramp, nb);

	(void)data;
	if (event != USB_EVENT_VBUS && event != USB_EVENT_CHARGER && event != USB_EVENT_NONE)
		return NOTIFY_DONE;
	s->event = event;
	schedule_work(&s->event_work);
	return NOTIFY_OK;
}

static int sr_probe(struct cs_board *board, void *params, void **priv)
{
	struct safe_ramp *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->board = board;
	s->p = params;
	s->nb.notifier_call = sr_notify;
	INIT_WORK(&s->event_work, sr_event);
	INIT_DELAYED_WORK(&s->work, sr_work);
	usb_register_notifier(board->phy, &s->nb);
	if (s->p->boot_vbat > 0)
		cs_boot_gate_vbat(board, (int)(s->p->boot_vbat * 1e6 + 0.5));
	*priv = s;
	return 0;
}

static void sr_remove(void *priv)
{
	struct safe_ramp *s = priv;

	usb_unregister_notifier(s->board->phy, &s->nb);
	cancel_work_sync(&s->event_work);
	cancel_delayed_work_sync(&s->work);
	free(s);
}

const struct cs_policy_desc policy_safe_ramp = {
	.abi = CS_POLICY_ABI,
	.name = "safe-ramp",
	.summary = "this project's ramp: probe only while drawing the limit, keep VBUS >= 4.75 V, back off fast, re-ramp after trips",
	.params = sr_param_desc,
	.params_size = sizeof(struct sr_params),
	.params_default = sr_params_default,
	.probe = sr_probe,
	.remove = sr_remove,
};
