/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/pm_runtime.h (chargesim) - runtime power management does nothing: every
 * device is powered for the whole run. The calls succeed as with runtime PM enabled.
 */
#ifndef CS_LINUX_PM_RUNTIME_H
#define CS_LINUX_PM_RUNTIME_H

#include <linux/device.h>
#include <linux/pm.h>

static inline int pm_runtime_get_sync(struct device *dev) { (void)dev; return 0; }
static inline int pm_runtime_put_autosuspend(struct device *dev) { (void)dev; return 0; }
static inline void pm_runtime_mark_last_busy(struct device *dev) { (void)dev; }

#endif
