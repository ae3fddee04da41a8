/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/workqueue.h (chargesim) - work items on virtual time.
 *
 * schedule_work() runs the function as a discrete event at the current instant, after
 * the events already queued for it (the kernel's "soon"); schedule_delayed_work()
 * after the given jiffies. Nothing runs concurrently, so the _sync variants only
 * cancel. A work item must be initialised with INIT_WORK / INIT_DELAYED_WORK before use
 * (or defined with DECLARE_WORK / DECLARE_DELAYED_WORK).
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

struct workqueue_struct;   /* one queue of work items on virtual time; the type is opaque */
extern struct workqueue_struct *system_wq;
/* The kernel's other system queues are the same queue here. */
#define system_power_efficient_wq system_wq
#define system_long_wq system_wq
/* A driver's own queue is the system queue too (work runs in order either way). */
#define create_freezable_workqueue(name) (system_wq)
static inline void destroy_workqueue(struct workqueue_struct *wq)
{
	(void)wq;
}

void cs_init_work(struct work_struct *w, work_func_t func);
#define INIT_WORK(w, f) cs_init_work((w), (f))
#define INIT_DELAYED_WORK(dw, f) cs_init_work(&(dw)->work, (f))

/* A work item defined initialised (static DECLARE_WORK(name, fn);), as INIT_WORK
 * leaves one. It outlives a run: a driver cancels it before its module exits (as a
 * kernel module must), so that it is idle when the next run starts. */
void cs_work_run_cb(struct sim_event *ev, void *data);
#define __CS_WORK_INITIALIZER(w, f) \
	{ .func = (f), .ev = { .heap_idx = SIM_EVENT_IDLE, .cb = cs_work_run_cb, .data = &(w) } }
#define DECLARE_WORK(n, f) struct work_struct n = __CS_WORK_INITIALIZER(n, f)
#define DECLARE_DELAYED_WORK(n, f) \
	struct delayed_work n = { .work = __CS_WORK_INITIALIZER((n).work, f) }

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

/* Delays are in jiffies. */
#include <linux/jiffies.h>

#endif
