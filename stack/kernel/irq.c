// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/irq.c - interrupt lines on virtual time (see linux/interrupt.h).
 *
 * Each line the board allocates has a descriptor with the handler a driver requested
 * and a work item; cs_irq_raise() queues the work item at the current instant (once,
 * however often the line fires before it runs), and the work item runs the primary
 * and threaded handlers as the kernel's threaded-IRQ core would.
 */
#include <glib.h>
#include <linux/interrupt.h>
#include <linux/slab.h>
#include "stack/kernel/kinternal.h"

struct cs_irq_desc {
	char *name;
	irq_handler_t handler;
	irq_handler_t thread_fn;
	void *dev_id;
	const char *devname;
	int depth;               /* disable_irq() nesting */
	bool pending;            /* raised while disabled */
	struct work_struct work;
	int irq;
};

static struct cs_irq_desc *irq_desc(unsigned int irq)
{
	struct cs_kernel *k = cs_kernel();

	return k && irq > 0 && (int)irq < k->n_irqs ? k->irqs[irq] : NULL;
}

static void irq_work(struct work_struct *work)
{
	struct cs_irq_desc *d = container_of(work, struct cs_irq_desc, work);
	irqreturn_t ret = IRQ_WAKE_THREAD;

	if (!d->handler && !d->thread_fn)
		return;
	if (d->depth > 0) {
		d->pending = true;
		return;
	}
	cs_stack_event("irq", "line", d->name);
	if (d->handler)
		ret = d->handler(d->irq, d->dev_id);
	if (ret == IRQ_WAKE_THREAD && d->thread_fn)
		d->thread_fn(d->irq, d->dev_id);
}

int cs_irq_alloc(const char *name)
{
	struct cs_kernel *k = cs_kernel();
	int irq = k->n_irqs ? k->n_irqs : 1;   /* 0 is no interrupt */
	struct cs_irq_desc *d = g_new0(struct cs_irq_desc, 1);

	k->irqs = g_renew(struct cs_irq_desc *, k->irqs, (gsize)irq + 1);
	k->irqs[0] = NULL;
	k->irqs[irq] = d;
	k->n_irqs = irq + 1;
	d->name = g_strdup(name);
	d->irq = irq;
	INIT_WORK(&d->work, irq_work);
	return irq;
}

void cs_irq_raise(int irq)
{
	struct cs_irq_desc *d = irq_desc((unsigned int)irq);

	if (!d || (!d->handler && !d->thread_fn))
		return;
	schedule_work(&d->work);
}

void cs_irq_exit(struct cs_kernel *k)
{
	for (int i = 1; i < k->n_irqs; i++) {
		cancel_work_sync(&k->irqs[i]->work);
		g_free(k->irqs[i]->name);
		g_free(k->irqs[i]);
	}
	g_free(k->irqs);
	k->irqs = NULL;
	k->n_irqs = 0;
}

int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
			 unsigned long flags, const char *name, void *dev_id)
{
	struct cs_irq_desc *d = irq_desc(irq);

	if (!d)
		return -EINVAL;
	if (!handler && !thread_fn)
		return -EINVAL;
	if (!handler && !(flags & IRQF_ONESHOT)) {
		/* the kernel refuses a threaded-only handler without ONESHOT */
		cs_printk("err", NULL, "Threaded irq requested with handler=NULL and !ONESHOT for %s (irq %u)",
			  name, irq);
		return -EINVAL;
	}
	if (d->handler || d->thread_fn)
		return -EBUSY;
	d->handler = handler;
	d->thread_fn = thread_fn;
	d->dev_id = dev_id;
	d->devname = name;
	d->depth = (flags & IRQF_NO_AUTOEN) ? 1 : 0;
	return 0;
}

const void *free_irq(unsigned int irq, void *dev_id)
{
	struct cs_irq_desc *d = irq_desc(irq);
	const char *devname;

	if (!d || d->dev_id != dev_id)
		return NULL;
	devname = d->devname;
	cancel_work_sync(&d->work);
	d->handler = NULL;
	d->thread_fn = NULL;
	d->dev_id = NULL;
	d->pending = false;
	return devname;
}

struct irq_devres {
	unsigned int irq;
	void *dev_id;
};

static void devm_irq_release(struct device *dev, void *res)
{
	struct irq_devres *r = res;

	(void)dev;
	free_irq(r->irq, r->dev_id);
}

int devm_request_threaded_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
			      irq_handler_t thread_fn, unsigned long irqflags,
			      const char *devname, void *dev_id)
{
	struct irq_devres *r = devres_alloc(devm_irq_release, sizeof(*r), GFP_KERNEL);
	int ret;

	if (!r)
		return -ENOMEM;
	ret = request_threaded_irq(irq, handler, thread_fn, irqflags,
				   devname ? devname : dev_name(dev), dev_id);
	if (ret) {
		devres_free(r);
		return ret;
	}
	r->irq = irq;
	r->dev_id = dev_id;
	devres_add(dev, r);
	return 0;
}

int devm_request_any_context_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
				 unsigned long irqflags, const char *devname, void *dev_id)
{
	int ret = devm_request_threaded_irq(dev, irq, handler, NULL, irqflags, devname, dev_id);

	return ret < 0 ? ret : 1;
}

void disable_irq(unsigned int irq)
{
	struct cs_irq_desc *d = irq_desc(irq);

	if (d)
		d->depth++;
}

void enable_irq(unsigned int irq)
{
	struct cs_irq_desc *d = irq_desc(irq);

	if (!d || d->depth == 0)
		return;
	if (--d->depth == 0 && d->pending) {
		d->pending = false;
		schedule_work(&d->work);
	}
}
