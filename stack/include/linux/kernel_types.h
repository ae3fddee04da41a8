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

/*
 * min/max/clamp with the kernel's semantics (include/linux/minmax.h, 6.12): each
 * argument is evaluated exactly once (min(x++, y) increments x once), the result has
 * the type the comparison gives the two (usual arithmetic conversions: min of a u8 and
 * an int is an int), and mixing signedness is a compile-time error unless the signed
 * side is a non-negative integer constant or the unsigned side is narrower than int
 * (it is promoted to int). The kernel's header cannot be used as is: it needs its
 * compiler.h and build_bug.h, and its check relies on the optimiser (-O0 builds, such
 * as make coverage, would fail); this one decides on the arguments as written, so it
 * holds at any -O. tests/test_kernel_layer.c checks each property.
 */
#define __cs_is_constexpr(x) \
	(sizeof(int) == sizeof(*(8 ? ((void *)((long)(x) * 0l)) : (int *)8)))
#define __cs_is_signed(x) ((__typeof__(x))-1 < (__typeof__(x))1)
#define __cs_nonneg_const(x) \
	__builtin_choose_expr(__cs_is_constexpr(x), (long long)(x) >= 0, 0)
/* bit 0: fine in an unsigned comparison, bit 1: fine in a signed one */
#define __cs_sign_use(x) \
	(__cs_is_signed(x) ? 2 + __cs_nonneg_const(x) : 1 + 2 * (sizeof(x) < 4))
#define __cs_signs_ok(name, x, y) \
	_Pragma("GCC diagnostic push") \
	_Pragma("GCC diagnostic ignored \"-Wtype-limits\"") \
	_Static_assert(__cs_sign_use(x) & __cs_sign_use(y), name "(" #x ", " #y ") signedness error"); \
	_Pragma("GCC diagnostic pop")
/* The signedness check above has passed: the mixed comparisons left (an unsigned value
 * against a non-negative constant) are the safe ones, as in the kernel, which builds
 * without -Wsign-compare. Locals get unique names so that min(max(a, b), c) nests. */
#define __cs_nosign_warn(expr) ({ \
	_Pragma("GCC diagnostic push") \
	_Pragma("GCC diagnostic ignored \"-Wsign-compare\"") \
	expr; \
	_Pragma("GCC diagnostic pop") })
#define __cs_cmp(a, op, b) __cs_nosign_warn((a) op (b) ? (a) : (b))
#define __cs_minmax_once(name, op, x, y, ux, uy) ({ \
	__cs_signs_ok(name, x, y) \
	__auto_type ux = (x); \
	__auto_type uy = (y); \
	__cs_cmp(ux, op, uy); })
#define __cs_minmax(name, op, x, y) \
	__cs_minmax_once(name, op, x, y, __CS_CAT(__cs_x, __COUNTER__), \
			 __CS_CAT(__cs_y, __COUNTER__))
#define min(x, y) __cs_minmax("min", <, x, y)
#define max(x, y) __cs_minmax("max", >, x, y)
#define __cs_minmax_t(t, op, x, y, ux, uy) ({ \
	t ux = (x); \
	t uy = (y); \
	__cs_cmp(ux, op, uy); })
#define min_t(t, x, y) \
	__cs_minmax_t(t, <, x, y, __CS_CAT(__cs_x, __COUNTER__), __CS_CAT(__cs_y, __COUNTER__))
#define max_t(t, x, y) \
	__cs_minmax_t(t, >, x, y, __CS_CAT(__cs_x, __COUNTER__), __CS_CAT(__cs_y, __COUNTER__))
/* val at or above hi: hi; else at or below lo: lo; else val (each evaluated once) */
#define __cs_clamp_once(t, v, lo, hi, uv, ulo, uhi) ({ \
	t uv = (v); \
	t ulo = (lo); \
	t uhi = (hi); \
	__cs_nosign_warn(uv >= uhi ? uhi : uv <= ulo ? ulo : uv); })
#define __cs_clamp(t, v, lo, hi) \
	__cs_clamp_once(t, v, lo, hi, __CS_CAT(__cs_v, __COUNTER__), \
			__CS_CAT(__cs_lo, __COUNTER__), __CS_CAT(__cs_hi, __COUNTER__))
#define clamp(v, lo, hi) ({ \
	__cs_signs_ok("clamp", v, lo) \
	__cs_signs_ok("clamp", v, hi) \
	__cs_clamp(__auto_type, v, lo, hi); })
#define clamp_t(t, v, lo, hi) __cs_clamp(t, v, lo, hi)
#define clamp_val(v, lo, hi) __cs_clamp(__typeof__(v), v, lo, hi)
/*
 * x / d rounded to the nearest integer, halves away from zero, for signed operands too
 * (include/linux/math.h: -7 / 2 is -4 and 7 / -2 is -4; adding d / 2 alone would give
 * -3). Each argument is evaluated once.
 */
#define DIV_ROUND_CLOSEST(x, d) ({ \
	__typeof__(x) __cs_dx = (x); \
	__typeof__(d) __cs_dd = (d); \
	(((__typeof__(x))-1) > 0 || ((__typeof__(d))-1) > 0 || \
	 ((__cs_dx > 0) == (__cs_dd > 0))) ? \
		((__cs_dx + __cs_dd / 2) / __cs_dd) : ((__cs_dx - __cs_dd / 2) / __cs_dd); })
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)

static inline int cs_fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* The kernel's snprintf (lib/vsprintf.c): printf's conversions and the kernel's %p
 * extensions (%pe, %pOF); the length the whole text needs. */
__printf(3, 4) int cs_snprintf(char *buf, size_t size, const char *fmt, ...);

/* Names that would clash with the C library or GLib outside kernel code. */
#ifdef __KERNEL__
#define fallthrough __attribute__((__fallthrough__))
#define fls(x) cs_fls(x)
#undef snprintf
#define snprintf cs_snprintf
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
