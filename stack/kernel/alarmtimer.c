// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/alarmtimer.c - alarm timers as simulator events (linux/alarmtimer.h).
 */
#include <linux/alarmtimer.h>
#include <chargesim/kernel.h>
#include "sim/sim.h"

static void alarm_fired(struct sim_event *ev, void *data)
{
	struct alarm *alarm = data;

	(void)ev;
	alarm->state = ALARMTIMER_STATE_INACTIVE;
	if (alarm->function(alarm, ktime_get()) == ALARMTIMER_RESTART)
		alarm_restart(alarm);
}

void alarm_init(struct alarm *alarm, enum alarmtimer_type type,
		enum alarmtimer_restart (*function)(struct alarm *, ktime_t))
{
	alarm->node.expires = 0;
	sim_event_init(&alarm->timer, alarm_fired, alarm);
	alarm->function = function;
	alarm->type = type;
	alarm->state = ALARMTIMER_STATE_INACTIVE;
}

void alarm_restart(struct alarm *alarm)
{
	struct sim *sim = cs_kernel()->sim;
	sim_time_t at = alarm->node.expires;

	/* a time already passed fires at once, as an expired hrtimer does */
	if (at < sim_now(sim))
		at = sim_now(sim);
	sim_reschedule(sim, &alarm->timer, at);
	alarm->state = ALARMTIMER_STATE_ENQUEUED;
}

void alarm_start(struct alarm *alarm, ktime_t start)
{
	alarm->node.expires = start;
	alarm_restart(alarm);
}

void alarm_start_relative(struct alarm *alarm, ktime_t start)
{
	alarm_start(alarm, ktime_add(start, ktime_get()));
}

int alarm_try_to_cancel(struct alarm *alarm)
{
	if (!sim_event_is_queued(&alarm->timer))
		return 0;
	sim_cancel(cs_kernel()->sim, &alarm->timer);
	alarm->state = ALARMTIMER_STATE_INACTIVE;
	return 1;
}

int alarm_cancel(struct alarm *alarm)
{
	return alarm_try_to_cancel(alarm);
}

ktime_t alarm_expires_remaining(const struct alarm *alarm)
{
	return ktime_sub(alarm->node.expires, ktime_get());
}
