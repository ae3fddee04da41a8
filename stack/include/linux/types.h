/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/types.h (chargesim) - the C library's UAPI linux/types.h (__u8, __le16, ...)
 * plus the kernel-internal types of linux/kernel_types.h (u8, bool, gfp_t, ...).
 */
#ifndef CS_LINUX_TYPES_H
#define CS_LINUX_TYPES_H

#include_next <linux/types.h>
#include <linux/kernel_types.h>

#endif
