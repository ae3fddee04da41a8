/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/rtc.h (chargesim) - no real-time-clock class (CONFIG_RTC_CLASS is not set):
 * the type alarm timers name. A run's clock is virtual time (linux/jiffies.h).
 */
#ifndef CS_LINUX_RTC_H
#define CS_LINUX_RTC_H

struct rtc_device;

#endif
