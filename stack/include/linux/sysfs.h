/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/sysfs.h (chargesim) - attributes and show() helpers (linux/device.h, kstrtox.h). */
#ifndef CS_LINUX_SYSFS_H
#define CS_LINUX_SYSFS_H

#include <linux/device.h>
#include <linux/kstrtox.h>

/* Lockdep's key for a dynamically allocated attribute: nothing without lock debugging. */
#define sysfs_attr_init(attr) do { (void)(attr); } while (0)

#endif
