/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/errno.h (chargesim) - the UAPI errno values (the C library's errno.h reaches
 * its linux/errno.h through here too) plus the kernel-internal ones drivers return.
 */
#ifndef CS_LINUX_ERRNO_H
#define CS_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS     512
#define EPROBE_DEFER    517   /* driver requests probe retry */
#define ENOTSUPP        524   /* operation is not supported */

#endif
