/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/slab.h (chargesim) - the kernel's allocators over the C library's: kmalloc and
 * friends (the gfp flags are accepted and ignored, as nothing here can sleep or fail
 * differently), and whole zeroed pages. Most drivers allocate with the devm_* helpers
 * of linux/device.h instead.
 */
#ifndef CS_LINUX_SLAB_H
#define CS_LINUX_SLAB_H

#include <linux/kernel_types.h>

#include <linux/kstrtox.h>   /* PAGE_SIZE */
#define GFP_ATOMIC 0x2u

void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);
void *kcalloc(size_t n, size_t size, gfp_t gfp);
void kfree(const void *p);
__printf(2, 3) char *kasprintf(gfp_t gfp, const char *fmt, ...);
unsigned long get_zeroed_page(gfp_t gfp);
void free_page(unsigned long addr);

#include <linux/device.h>

#endif
