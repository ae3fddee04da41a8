/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack/kernel/kformat.h - printk-style formatting for the kernel shim (lib.c):
 * the C library's conversions plus %pe (error pointer by name) and %pOF (node name).
 * Returns the length the whole text needs, like vsnprintf.
 */
#ifndef CS_STACK_KERNEL_KFORMAT_H
#define CS_STACK_KERNEL_KFORMAT_H

#include <stdarg.h>
#include <stddef.h>

int cs_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

#endif
