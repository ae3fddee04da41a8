/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/kernel_types.h (chargesim) - the small helpers every driver file uses:
 * fixed-size integer types, container_of, ARRAY_SIZE, min/max/clamp, BIT/GENMASK,
 * compiler attributes, the printk family and the ERR_PTR family's errno names.
 * (The kernel spreads these over types.h, kernel.h, compiler*.h, bits.h, minmax.h and
 * printk.h; linux/types.h and linux/kernel.h here add the C library's UAPI headers of
 * the same name to this file, so a driver including either finds both.)
 * Names, values and semantics are the kernel's (Linux 6.12); the code is this
 * project's own.
 */
#ifndef CS_LINUX_KERNEL_TYPES_H
#define CS_LINUX_KERNEL_TYPES_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <chargesim/klog.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;   /* allocation flags: accepted, ignored */
#define GFP_KERNEL 0x1u
#define __GFP_ZERO 0x100u
typedef long long ktime_t;
typedef u64 resource_size_t;
typedef struct { int counter; } atomic_t;
/* a node of a doubly linked circular list (linux/list.h) */
struct list_head {
	struct list_head *next, *prev;
};

#ifndef U8_MAX
#define U8_MAX  ((u8)~0U)
#define U32_MAX ((u32)~0U)
#endif

/* compiler attributes */
#ifndef __packed
#define __packed __attribute__((__packed__))
#endif
#define __maybe_unused __attribute__((__unused__))
#define __used __attribute__((__used__))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __init
#define __exit
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#define __CS_CAT2(a, b) a##b
#define __CS_CAT(a, b) __CS_CAT2(a, b)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WARN_ON(cond) ({ int __w = !!(cond); if (__w) cs_printk("warn", NULL, "WARNING at %s:%d", __FILE__, __LINE__); __w; })
#define WARN(cond, ...) ({ int __w = !!(cond); if (__w) cs_printk("warn", NULL, __VA_ARGS__); __w; })

/* IS_ENABLED(CONFIG_FOO): 1 when CONFIG_FOO is defined to 1, else 0. */
#define __CS_ARG_PLACEHOLDER_1 0,
#define __cs_take_second_arg(ignored, val, ...) val
#define __cs_is_defined(x) ___cs_is_defined(x)
#define ___cs_is_defined(val) ____cs_is_defined(__CS_ARG_PLACEHOLDER_##val)
#define ____cs_is_defined(arg1_or_junk) __cs_take_second_arg(arg1_or_junk 1, 0, 0)
#define IS_ENABLED(option) __cs_is_defined(option)

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (sizeof(long) * 8 - 1 - (h))))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_val(v, lo, hi) clamp(v, lo, hi)
#define DIV_ROUND_CLOSEST(x, d) (((x) + ((d) / 2)) / (d))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)

static inline int cs_fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* Names that would clash with the C library or GLib outside kernel code. */
#ifdef __KERNEL__
#define fallthrough __attribute__((__fallthrough__))
#define fls(x) cs_fls(x)
#endif

/* Kernel-internal errno values (include/linux/errno.h; never seen by user space). */
#ifndef ERESTARTSYS
#define ERESTARTSYS     512
#endif
#ifndef EPROBE_DEFER
#define EPROBE_DEFER    517   /* driver requests probe retry */
#endif
#ifndef ENOTSUPP
#define ENOTSUPP        524   /* operation is not supported */
#endif
#ifndef ETIMEDOUT
#define ETIMEDOUT       110
#endif

/* The errno's symbolic name ("EINVAL"), or NULL for an unknown one. */
const char *cs_errname(int err);

/* linux/string.h: copy src into dest (count bytes, always NUL-terminated when
 * count > 0): the length copied, or -E2BIG when src did not fit (dest then holds
 * what did). */
ssize_t strscpy(char *dest, const char *src, size_t count);

/* printk: levels as log records; pr_debug only with DEBUG (as without dynamic debug). */
#define printk(...) cs_printk("info", NULL, __VA_ARGS__)
/* A file may define pr_fmt(fmt) before its includes to prefix its pr_*() messages
 * (commonly KBUILD_MODNAME ": " fmt). */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...)    cs_printk("err", NULL, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)   cs_printk("warn", NULL, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)   cs_printk("info", NULL, pr_fmt(fmt), ##__VA_ARGS__)
/* Checks the format without printing (the kernel's no_printk). */
static inline __printf(1, 2) int cs_no_printk(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}
#ifdef DEBUG
#define pr_debug(fmt, ...) cs_printk("debug", NULL, pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...) cs_no_printk(pr_fmt(fmt), ##__VA_ARGS__)
#endif

#include <linux/device.h>

#endif
