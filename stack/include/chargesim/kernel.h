/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/kernel.h - what backs the kernel-style headers: the run's clock and log.
 *
 * Kernel code reads globals (jiffies) and calls printk without a context argument.
 * Here those resolve through cs_kernel_current, a thread-local pointer the simulator
 * sets to the run being stepped on this thread, so several runs can go on in parallel
 * threads (sweeps) without sharing anything.
 */
#ifndef CS_CHARGESIM_KERNEL_H
#define CS_CHARGESIM_KERNEL_H

#include <stdint.h>
#include <linux/notifier.h>
#include "sim/sim.h"

struct evlog;
struct power_supply;

struct cs_kernel {
	struct sim *sim;
	struct evlog *log;
	struct power_supply *psy_head;       /* registered power supplies */
	struct raw_notifier_head psy_nh;     /* power_supply_reg_notifier chain */
};

extern __thread struct cs_kernel *cs_kernel_current;

static inline struct cs_kernel *cs_kernel(void)
{
	return cs_kernel_current;
}

/* Log a kernel message record (printk, dev_* helpers end here). */
void cs_printk(const char *level, const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Log a structured record from the stack: src "stack", kind ev, one string field. */
void cs_stack_event(const char *ev, const char *key, const char *value);
void cs_stack_event_int(const char *ev, const char *key, long long value);

#endif
