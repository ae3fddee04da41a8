// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/core.c - the run context behind the kernel-style API: printk records,
 * work items as simulator events, jiffies and ktime, sleeps, mutexes, the end of a
 * run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <chargesim/kernel.h>
#include "sim/evlog.h"
#include "stack/kernel/kformat.h"
#include "stack/kernel/kinternal.h"

__thread struct cs_kernel *cs_kernel_current;

struct workqueue_struct {
	int unused;
};
static struct workqueue_struct cs_system_wq;
struct workqueue_struct *system_wq = &cs_system_wq;

void cs_kernel_exit(struct cs_kernel *k)
{
	cs_bus_exit(k);
	cs_irq_exit(k);
	cs_iio_exit(k);
	cs_regulator_exit(k);
	g_free(k->first_err);
	g_free(k->probe_failure.dev);
	g_free(k->probe_failure.drv);
	memset(k, 0, sizeof(*k));
}

char *cs_probe_error_text(int err)
{
	const struct cs_kernel *k = cs_kernel();
	const char *name = cs_errname(err);
	g_autofree char *code = name ? g_strdup_printf("-%s", name) : g_strdup_printf("error %d", err);

	if (k && k->first_err)
		return g_strdup_printf("%s (%s)", code, k->first_err);
	return g_steal_pointer(&code);
}

unsigned long cs_jiffies(void)
{
	return INITIAL_JIFFIES + (unsigned long)(sim_now(cs_kernel()->sim) / (SIM_S / HZ));
}

ktime_t ktime_get(void)
{
	return (ktime_t)sim_now(cs_kernel()->sim);
}

bool cs_dyndbg_enabled(const char *modname)
{
	const struct cs_kernel *k = cs_kernel();

	return modname && k && k->dyndbg && strcmp(k->dyndbg, modname) == 0;
}

void cs_sleep_us(unsigned long us, const char *caller)
{
	struct cs_kernel *k = cs_kernel();
	cJSON *rec;

	if (!k || !k->log)
		return;
	rec = evlog_begin(k->log, sim_now(k->sim), "kernel", "sleep");
	evlog_put_number(rec, "us", (double)us);
	evlog_put_string(rec, "in", caller);
	evlog_end(k->log, rec);
}

void cs_mutex_lock(struct mutex *m, const char *where)
{
	if (m->cs_held)
		cs_printk("err", NULL, "%s: mutex already held: deadlock in a kernel", where);
	m->cs_held = 1;
}

void cs_printk(const char *level, const char *dev, const char *fmt, ...)
{
	struct cs_kernel *k = cs_kernel();
	char msg[512];
	va_list ap;
	cJSON *rec;

	va_start(ap, fmt);
	cs_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Kernel messages end with a newline; the log record does not need it. */
	for (size_t n = strlen(msg); n > 0 && msg[n - 1] == '\n'; n--)
		msg[n - 1] = '\0';
	if (!k || !k->log)
		return;
	if (!k->first_err && (strcmp(level, "err") == 0 || strcmp(level, "crit") == 0))
		k->first_err = dev ? g_strdup_printf("%s: %s", dev, msg) : g_strdup(msg);
	rec = evlog_begin(k->log, sim_now(k->sim), "kernel", "printk");
	evlog_put_string(rec, "level", level);
	if (dev)
		evlog_put_string(rec, "dev", dev);
	evlog_put_string(rec, "msg", msg);
	evlog_end(k->log, rec);
}

void cs_stack_event(const char *ev, const char *key, const char *value)
{
	struct cs_kernel *k = cs_kernel();

	if (k && k->log)
		evlog_emit(k->log, sim_now(k->sim), "stack", ev, key, value);
}

void cs_stack_event_int(const char *ev, const char *key, long long value)
{
	struct cs_kernel *k = cs_kernel();
	cJSON *rec;

	if (!k || !k->log)
		return;
	rec = evlog_begin(k->log, sim_now(k->sim), "stack", ev);
	evlog_put_number(rec, key, (double)value);
	evlog_end(k->log, rec);
}

void cs_work_run_cb(struct sim_event *ev, void *data)
{
	struct work_struct *w = data;

	(void)ev;
	w->func(w);
}

void cs_init_work(struct work_struct *w, work_func_t func)
{
	w->func = func;
	sim_event_init(&w->ev, cs_work_run_cb, w);
}

static sim_time_t jiffies_to_ns(unsigned long j)
{
	return (sim_time_t)j * (SIM_S / HZ);
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
			unsigned long delay)
{
	(void)wq;
	if (sim_event_is_queued(&dw->work.ev))
		return false;
	sim_after(cs_kernel()->sim, &dw->work.ev, jiffies_to_ns(delay));
	return true;
}

bool schedule_delayed_work(struct delayed_work *dw, unsigned long delay)
{
	return queue_delayed_work(system_wq, dw, delay);
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	(void)wq;
	if (sim_event_is_queued(&w->ev))
		return false;
	sim_after(cs_kernel()->sim, &w->ev, 0);
	return true;
}

bool schedule_work(struct work_struct *w)
{
	return queue_work(system_wq, w);
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw, unsigned long delay)
{
	bool was = cancel_delayed_work(dw);

	queue_delayed_work(wq, dw, delay);
	return was;
}

bool cancel_work_sync(struct work_struct *w)
{
	bool was = sim_event_is_queued(&w->ev);

	if (was)
		sim_cancel(cs_kernel()->sim, &w->ev);
	return was;
}

bool cancel_delayed_work(struct delayed_work *dw)
{
	return cancel_work_sync(&dw->work);
}

bool cancel_delayed_work_sync(struct delayed_work *dw)
{
	return cancel_work_sync(&dw->work);
}

bool work_pending(const struct work_struct *w)
{
	return sim_event_is_queued(&w->ev);
}

bool delayed_work_pending(const struct delayed_work *dw)
{
	return work_pending(&dw->work);
}

void flush_work(struct work_struct *w)
{
	if (cancel_work_sync(w))
		w->func(w);
}
