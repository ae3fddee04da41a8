/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/workqueue.h (chargesim) - work items on virtual time.
 *
 * schedule_work() runs the function as a discrete event at the current instant, after
 * the events already queued for it (the kernel's "soon"); schedule_delayed_work()
 * after the given jiffies. Nothing runs concurrently, so the _sync variants only
 * cancel. A work item must be initialised with INIT_WORK / INIT_DELAYED_WORK before use.
 */
#ifndef CS_LINUX_WORKQUEUE_H
#define CS_LINUX_WORKQUEUE_H

#include <stdbool.h>
#include <linux/kernel_types.h>
#include "sim/queue.h"

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	work_func_t func;
	struct sim_event ev;    /* the pending execution */
};

struct delayed_work {
	struct work_struct work;
};

struct workqueue_struct;   /* only the system queue exists; the type is opaque */
extern struct workqueue_struct *system_wq;

void cs_init_work(struct work_struct *w, work_func_t func);
#define INIT_WORK(w, f) cs_init_work((w), (f))
#define INIT_DELAYED_WORK(dw, f) cs_init_work(&(dw)->work, (f))

bool schedule_work(struct work_struct *w);
bool schedule_delayed_work(struct delayed_work *dw, unsigned long delay);
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw, unsigned long delay);
bool queue_work(struct workqueue_struct *wq, struct work_struct *w);
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw, unsigned long delay);
bool cancel_work_sync(struct work_struct *w);
bool cancel_delayed_work(struct delayed_work *dw);
bool cancel_delayed_work_sync(struct delayed_work *dw);
bool work_pending(const struct work_struct *w);
bool delayed_work_pending(const struct delayed_work *dw);
void flush_work(struct work_struct *w);

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

#endif
