/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/pm.h (chargesim) - power-management callbacks. Without CONFIG_PM_SLEEP the
 * SET_SYSTEM_SLEEP_PM_OPS / SIMPLE_DEV_PM_OPS forms leave the callbacks out, as in
 * a kernel built without system sleep; no simulated event calls them.
 */
#ifndef CS_LINUX_PM_H
#define CS_LINUX_PM_H

#include <linux/kernel_types.h>

struct device;

typedef struct pm_message {
	int event;
} pm_message_t;

struct dev_pm_ops {
	int (*prepare)(struct device *dev);
	void (*complete)(struct device *dev);
	int (*suspend)(struct device *dev);
	int (*resume)(struct device *dev);
	int (*freeze)(struct device *dev);
	int (*thaw)(struct device *dev);
	int (*poweroff)(struct device *dev);
	int (*restore)(struct device *dev);
	int (*suspend_noirq)(struct device *dev);
};

#ifdef CONFIG_PM_SLEEP
#define SET_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) \
	.suspend = suspend_fn, .resume = resume_fn, .freeze = suspend_fn, .thaw = resume_fn, \
	.poweroff = suspend_fn, .restore = resume_fn,
#else
#define SET_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn)
#endif
#define SIMPLE_DEV_PM_OPS(name, suspend_fn, resume_fn) \
	const struct dev_pm_ops __maybe_unused name = { SET_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) }

#endif
