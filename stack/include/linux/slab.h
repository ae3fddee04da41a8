/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/slab.h (chargesim) - kmalloc and friends over the C library's allocator;
 * the GFP flags are accepted and ignored (nothing here sleeps or runs in atomic
 * context). kmalloc(0) returns ZERO_SIZE_PTR as in the kernel.
 */
#ifndef CS_LINUX_SLAB_H
#define CS_LINUX_SLAB_H

#include <linux/kernel_types.h>
#include <linux/device.h>

#define ZERO_SIZE_PTR ((void *)16)
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void *kmemdup(const void *src, size_t len, gfp_t flags);
char *kstrdup(const char *s, gfp_t flags);
void kfree(const void *p);
#define kvmalloc kmalloc
#define kvzalloc kzalloc
#define kvfree kfree

#endif
