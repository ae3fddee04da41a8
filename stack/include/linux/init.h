/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/init.h (chargesim) - section markers (__init, __exit, ...) are plain code
 * here; module_init / module_exit are in linux/module.h.
 */
#ifndef CS_LINUX_INIT_H
#define CS_LINUX_INIT_H

#include <linux/kernel_types.h>

#endif
