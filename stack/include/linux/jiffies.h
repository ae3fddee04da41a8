/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/jiffies.h (chargesim) - jiffies on virtual time.
 *
 * HZ is 1000 here (one jiffy per virtual millisecond), so msecs_to_jiffies() is exact;
 * jiffies starts at the kernel's INITIAL_JIFFIES so that code comparing raw values
 * instead of using time_after() misbehaves here as it would on a device.
 */
#ifndef CS_LINUX_JIFFIES_H
#define CS_LINUX_JIFFIES_H

#include <linux/kernel_types.h>

#define HZ 1000
#define INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * HZ))

/* INITIAL_JIFFIES plus the run's virtual time in jiffies. */
unsigned long cs_jiffies(void);
#define jiffies (cs_jiffies())
/* The run's virtual time in ns (ktime_get() and friends). */
ktime_t ktime_get(void);
#define ktime_get_boottime() ktime_get()
#define ktime_to_ms(kt) ((s64)(kt) / 1000000)
#define ktime_add(a, b) ((ktime_t)(a) + (ktime_t)(b))
#define ktime_sub(a, b) ((ktime_t)(a) - (ktime_t)(b))

/* include/vdso/time64.h */
#define MSEC_PER_SEC 1000L
#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_SEC 1000000000L

/* seconds and nanoseconds as a ktime_t (ns) */
static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	return secs * NSEC_PER_SEC + (s64)nsecs;
}

static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	return (unsigned long)m * HZ / 1000;
}

static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (unsigned int)(j * 1000 / HZ);
}

static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	return ((unsigned long)u * HZ + 999999) / 1000000;
}

#define time_after(a, b)     ((long)((b) - (a)) < 0)
#define time_before(a, b)    time_after(b, a)
#define time_after_eq(a, b)  ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)

#endif
