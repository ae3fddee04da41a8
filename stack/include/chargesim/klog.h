/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/klog.h - the kernel log of a run: printk records and the stack's own
 * structured events. Every kernel-style header can include this one; the run context
 * behind it (struct cs_kernel) is in chargesim/kernel.h.
 */
#ifndef CS_CHARGESIM_KLOG_H
#define CS_CHARGESIM_KLOG_H

/* Log a kernel message record (printk, dev_* helpers end here). */
void cs_printk(const char *level, const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Log a structured record from the stack: src "stack", kind ev, one string field. */
void cs_stack_event(const char *ev, const char *key, const char *value);
void cs_stack_event_int(const char *ev, const char *key, long long value);

#endif
