/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/alarmtimer.h (chargesim) - alarm timers on virtual time.
 *
 * An alarm fires its function at an absolute time of its clock; ALARM_BOOTTIME and
 * ALARM_REALTIME are both the run's virtual time here (ktime_get_boottime()). While
 * the system runs, a kernel alarm is an hrtimer; its RTC side only matters for waking
 * a suspended system, which a run never is. The function returns
 * ALARMTIMER_NORESTART, or ALARMTIMER_RESTART to fire again at node.expires (which it
 * has moved on). CONFIG_RTC_CLASS is not set (chargesim/kconfig.h), so
 * alarmtimer_get_rtcdev() is NULL, as in a kernel built without RTC drivers.
 * Names, values and semantics: include/linux/alarmtimer.h and
 * kernel/time/alarmtimer.c (Linux 6.12); the code is this project's.
 */
#ifndef CS_LINUX_ALARMTIMER_H
#define CS_LINUX_ALARMTIMER_H

#include <linux/jiffies.h>
#include <linux/kernel_types.h>
#include "sim/queue.h"

struct rtc_device;

enum alarmtimer_type {
	ALARM_REALTIME,
	ALARM_BOOTTIME,
	ALARM_NUMTYPE,
	ALARM_REALTIME_FREEZER,
	ALARM_BOOTTIME_FREEZER,
};

enum alarmtimer_restart {
	ALARMTIMER_NORESTART,
	ALARMTIMER_RESTART,
};

#define ALARMTIMER_STATE_INACTIVE 0x00
#define ALARMTIMER_STATE_ENQUEUED 0x01

struct alarm {
	struct {
		ktime_t expires;               /* when it fires (absolute) */
	} node;
	struct sim_event timer;                /* the pending expiry */
	enum alarmtimer_restart (*function)(struct alarm *, ktime_t now);
	enum alarmtimer_type type;
	int state;
	void *data;
};

void alarm_init(struct alarm *alarm, enum alarmtimer_type type,
		enum alarmtimer_restart (*function)(struct alarm *, ktime_t));
void alarm_start(struct alarm *alarm, ktime_t start);
void alarm_start_relative(struct alarm *alarm, ktime_t start);
void alarm_restart(struct alarm *alarm);
/* 1: cancelled, 0: was not active (-1, "the callback is running", cannot happen:
 * nothing runs concurrently). */
int alarm_try_to_cancel(struct alarm *alarm);
int alarm_cancel(struct alarm *alarm);
/* expires minus now (negative once passed) */
ktime_t alarm_expires_remaining(const struct alarm *alarm);

static inline struct rtc_device *alarmtimer_get_rtcdev(void)
{
	return NULL;   /* CONFIG_RTC_CLASS is not set */
}

#endif
