/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/devm-helpers.h (chargesim) - work items initialised now and cancelled
 * (synchronously) when the device's driver goes away.
 */
#ifndef CS_LINUX_DEVM_HELPERS_H
#define CS_LINUX_DEVM_HELPERS_H

#include <linux/device.h>
#include <linux/workqueue.h>

int devm_delayed_work_autocancel(struct device *dev, struct delayed_work *w,
				 work_func_t worker);
int devm_work_autocancel(struct device *dev, struct work_struct *w, work_func_t worker);

#endif
