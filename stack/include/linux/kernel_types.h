/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/kernel_types.h (chargesim) - the small helpers every driver file uses:
 * container_of, ARRAY_SIZE, min/max/clamp, BIT, u8..u64, and the printk family.
 * (The kernel spreads these over kernel.h, types.h, printk.h and device.h; those names
 * are taken by the C library's UAPI headers here, so they live in this one file.)
 */
#ifndef CS_LINUX_KERNEL_TYPES_H
#define CS_LINUX_KERNEL_TYPES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <chargesim/klog.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_val(v, lo, hi) clamp(v, lo, hi)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)

/* A device has a name, for messages. */
struct device {
	const char *init_name;
};
static inline const char *dev_name(const struct device *dev)
{
	return dev && dev->init_name ? dev->init_name : "(no device)";
}

#define pr_err(...)   cs_printk("err", NULL, __VA_ARGS__)
#define pr_warn(...)  cs_printk("warn", NULL, __VA_ARGS__)
#define pr_info(...)  cs_printk("info", NULL, __VA_ARGS__)
#define pr_debug(...) cs_printk("debug", NULL, __VA_ARGS__)
#define dev_err(d, ...)  cs_printk("err", dev_name(d), __VA_ARGS__)
#define dev_warn(d, ...) cs_printk("warn", dev_name(d), __VA_ARGS__)
#define dev_info(d, ...) cs_printk("info", dev_name(d), __VA_ARGS__)
#define dev_dbg(d, ...)  cs_printk("debug", dev_name(d), __VA_ARGS__)

#endif
