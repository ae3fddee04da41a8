/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/kernel.h (chargesim) - the C library's UAPI linux/kernel.h plus the kernel's
 * everyday helpers (linux/kernel_types.h).
 */
#ifndef CS_LINUX_KERNEL_H
#define CS_LINUX_KERNEL_H

#include_next <linux/kernel.h>
#include <linux/kernel_types.h>
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/kstrtox.h>

#endif
