/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/interrupt.h (chargesim) - interrupt handlers on virtual time.
 *
 * A chip model raises its interrupt line when its status changes (after the world
 * has settled at that instant). The handler then runs as a work item at the same
 * instant: the primary handler first (when there is one), then the threaded handler
 * when the primary returns IRQ_WAKE_THREAD or is NULL. Nothing runs concurrently, so
 * IRQF_ONESHOT masking is implicit; a line raised again before its handler ran is
 * handled once. disable_irq() keeps a raised line pending until enable_irq().
 */
#ifndef CS_LINUX_INTERRUPT_H
#define CS_LINUX_INTERRUPT_H

#include <linux/kernel_types.h>
#include <linux/device.h>
#include <linux/irqreturn.h>
#include <linux/workqueue.h>

#define IRQF_TRIGGER_RISING   0x00000001
#define IRQF_TRIGGER_FALLING  0x00000002
#define IRQF_ONESHOT          0x00002000
#define IRQF_NO_SUSPEND       0x00004000   /* no system suspend here: no effect */
#define IRQF_NO_AUTOEN        0x00080000

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
			 unsigned long flags, const char *name, void *dev_id);
const void *free_irq(unsigned int irq, void *dev_id);
int devm_request_threaded_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
			      irq_handler_t thread_fn, unsigned long irqflags,
			      const char *devname, void *dev_id);
int devm_request_any_context_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
				 unsigned long irqflags, const char *devname, void *dev_id);
void disable_irq(unsigned int irq);
void enable_irq(unsigned int irq);
static inline int enable_irq_wake(unsigned int irq)
{
	(void)irq;
	return 0;
}
static inline int disable_irq_wake(unsigned int irq)
{
	(void)irq;
	return 0;
}

/* ---- chargesim: the interrupt controller side ---- */
/* A new interrupt number for a chip model's line (numbers start at 1). */
int cs_irq_alloc(const char *name);
/* The line fired: run its handler (as a work item at this instant) if requested. */
void cs_irq_raise(int irq);

#endif
