// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/lib.c - the kernel's library routines drivers call: printk-style
 * formatting (with the %pe and %pOF extensions), kstrto*, sysfs show() helpers,
 * string matching, strscpy, errno names, small id allocators.
 */
#include <ctype.h>
#include <stdlib.h>
#include <glib.h>
#include <linux/err.h>
#include <linux/idr.h>
#include <linux/kstrtox.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <chargesim/kernel.h>
#include "stack/kernel/kformat.h"

static const struct {
	int err;
	const char *name;
} errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" }, { ENXIO, "ENXIO" },
	{ E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
	{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
	{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
	{ EDOM, "EDOM" }, { ENOSYS, "ENOSYS" }, { ENODATA, "ENODATA" }, { ETIME, "ETIME" },
	{ EPROTO, "EPROTO" }, { EOVERFLOW, "EOVERFLOW" }, { EILSEQ, "EILSEQ" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { ETIMEDOUT, "ETIMEDOUT" }, { EREMOTEIO, "EREMOTEIO" },
	{ ECANCELED, "ECANCELED" }, { ENOTCONN, "ENOTCONN" }, { EALREADY, "EALREADY" },
	{ EINPROGRESS, "EINPROGRESS" }, { ESHUTDOWN, "ESHUTDOWN" },
	{ ERESTARTSYS, "ERESTARTSYS" }, { EPROBE_DEFER, "EPROBE_DEFER" },
	{ ENOTSUPP, "ENOTSUPP" },
};

const char *cs_errname(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	return NULL;
}

/* ---- formatting ---- */

/* Append to a bounded buffer, counting what would have been written. */
struct kbuf {
	char *buf;
	size_t size, len;
};

static void kbuf_put(struct kbuf *b, const char *s, size_t n)
{
	if (b->len < b->size) {
		size_t room = b->size - 1 - b->len;

		memcpy(b->buf + b->len, s, n < room ? n : room);
	}
	b->len += n;
	if (b->size)
		b->buf[b->len < b->size ? b->len : b->size - 1] = '\0';
}

/* One conversion through the C library, written straight into what room is left (the
 * C library counts the rest, as kbuf_put does). */
static void kbuf_fmt(struct kbuf *b, const char *spec, ...) __attribute__((format(printf, 2, 3)));
static void kbuf_fmt(struct kbuf *b, const char *spec, ...)
{
	size_t room = b->len < b->size ? b->size - b->len : 0;
	va_list ap;
	int n;

	va_start(ap, spec);
	n = vsnprintf(room ? b->buf + b->len : NULL, room, spec, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

/* A conversion's spec: '%', flags, width, precision, length modifier, the C library's
 * letter. kfmt_flags() copies at most 24 characters of flags and digits and two '*' values
 * (11 characters each at most), so 64 leaves room for the rest. */
#define KFMT_SPEC 64

/* One %p conversion with the kernel's extensions: %pe (an error pointer as its
 * name), %pOF / %pOFn (a device-tree node's full name / name). Returns how many
 * extension letters it consumed. */
static int format_pointer(struct kbuf *b, const char *ext, const void *p)
{
	if (ext[0] == 'e') {
		long v = (long)p;
		const char *name = IS_ERR(p) ? cs_errname((int)v) : NULL;

		if (name)
			kbuf_fmt(b, "-%s", name);
		else if (IS_ERR(p))
			kbuf_fmt(b, "%ld", v);
		else
			kbuf_fmt(b, "%p", p);
		return 1;
	}
	if (ext[0] == 'O' && ext[1] == 'F') {
		const struct device_node *np = p;

		if (ext[2] == 'n') {
			kbuf_fmt(b, "%s", np ? np->name : "(null)");
			return 3;
		}
		kbuf_fmt(b, "%s", np ? np->full_name : "(null)");
		return 2;
	}
	kbuf_fmt(b, "%p", p);
	return 0;
}

/*
 * The flags, width and precision of one conversion, from its '%' on, copied into spec
 * ('*' takes its value from the arguments). Returns where the format goes on.
 */
static const char *kfmt_flags(const char *fmt, char *spec, size_t *slp, va_list *args)
{
	size_t sl = *slp;

	spec[sl++] = *fmt++;
	while (*fmt && strchr("-+ #0", *fmt) && sl < KFMT_SPEC - 8)
		spec[sl++] = *fmt++;
	for (int part = 0; part < 2; part++) {
		if (part == 1) {
			if (*fmt != '.')
				break;
			spec[sl++] = *fmt++;
		}
		if (*fmt == '*') {
			int v = va_arg(*args, int);

			sl += (size_t)snprintf(spec + sl, KFMT_SPEC - sl, "%d", v);
			fmt++;
		} else {
			while (isdigit((unsigned char)*fmt) && sl < KFMT_SPEC - 8)
				spec[sl++] = *fmt++;
		}
	}
	*slp = sl;
	return fmt;
}

/* The length modifiers, by the index kfmt_length() gives; h and hh are read as the int the
 * argument was promoted to and converted back, as printf does. */
enum { KLEN_INT, KLEN_LONG, KLEN_LLONG, KLEN_SIZE, KLEN_PTRDIFF, KLEN_INTMAX, KLEN_SHORT,
       KLEN_CHAR };

/* The length modifier's KLEN_ index in *lng (L, for a double, counts as none). Returns
 * where the conversion letter is. */
static const char *kfmt_length(const char *fmt, int *lng)
{
	*lng = KLEN_INT;
	switch (*fmt) {
	case 'h':
		*lng = fmt[1] == 'h' ? KLEN_CHAR : KLEN_SHORT;
		return fmt + (fmt[1] == 'h' ? 2 : 1);
	case 'l':
		*lng = fmt[1] == 'l' ? KLEN_LLONG : KLEN_LONG;
		return fmt + (fmt[1] == 'l' ? 2 : 1);
	case 'z':
		*lng = KLEN_SIZE;
		return fmt + 1;
	case 't':
		*lng = KLEN_PTRDIFF;
		return fmt + 1;
	case 'j':
		*lng = KLEN_INTMAX;
		return fmt + 1;
	case 'L':
		return fmt + 1;
	default:
		return fmt;
	}
}

/* An integer conversion (d i u x X o) with flags, width or precision: its spec completed
 * with the length modifier and letter, through the C library. */
static void kfmt_int(struct kbuf *b, char *spec, size_t sl, int lng, char conv, va_list *args)
{
	static const char *const mods[] = { "", "l", "ll", "z", "t", "j", "h", "hh" };

	for (const char *m = mods[lng]; *m; m++)
		spec[sl++] = *m;
	spec[sl++] = conv;
	spec[sl] = '\0';
	switch (lng) {
	case KLEN_LONG: kbuf_fmt(b, spec, va_arg(*args, long)); break;
	case KLEN_LLONG: kbuf_fmt(b, spec, va_arg(*args, long long)); break;
	case KLEN_SIZE: kbuf_fmt(b, spec, va_arg(*args, size_t)); break;
	case KLEN_PTRDIFF: kbuf_fmt(b, spec, va_arg(*args, ptrdiff_t)); break;
	case KLEN_INTMAX: kbuf_fmt(b, spec, va_arg(*args, intmax_t)); break;
	default: kbuf_fmt(b, spec, va_arg(*args, int)); break;
	}
}

/* A signed integer argument of length lng. */
static intmax_t kfmt_signed_arg(int lng, va_list *args)
{
	switch (lng) {
	case KLEN_LONG: return va_arg(*args, long);
	case KLEN_LLONG: return va_arg(*args, long long);
	case KLEN_SIZE: return (ptrdiff_t)va_arg(*args, size_t);
	case KLEN_PTRDIFF: return va_arg(*args, ptrdiff_t);
	case KLEN_INTMAX: return va_arg(*args, intmax_t);
	case KLEN_SHORT: return (short)va_arg(*args, int);
	case KLEN_CHAR: return (signed char)va_arg(*args, int);
	default: return va_arg(*args, int);
	}
}

/* An unsigned integer argument of length lng. */
static uintmax_t kfmt_unsigned_arg(int lng, va_list *args)
{
	switch (lng) {
	case KLEN_LONG: return va_arg(*args, unsigned long);
	case KLEN_LLONG: return va_arg(*args, unsigned long long);
	case KLEN_SIZE: return va_arg(*args, size_t);
	case KLEN_PTRDIFF: return (size_t)va_arg(*args, ptrdiff_t);
	case KLEN_INTMAX: return va_arg(*args, uintmax_t);
	case KLEN_SHORT: return (unsigned short)va_arg(*args, int);
	case KLEN_CHAR: return (unsigned char)va_arg(*args, int);
	default: return va_arg(*args, unsigned int);
	}
}

/*
 * An integer conversion with no flags, width or precision, the common case (a sysfs show()
 * of a number, extcon's "%s=%d\n" state lines): its digits written here rather than through
 * a spec and the C library, the same text as printf gives.
 */
static void kfmt_int_plain(struct kbuf *b, int lng, char conv, va_list *args)
{
	const char *digits = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned int base = conv == 'o' ? 8 : conv == 'x' || conv == 'X' ? 16 : 10;
	char tmp[3 * sizeof(uintmax_t) + 2], *end = tmp + sizeof(tmp), *d = end;
	bool neg = false;
	uintmax_t u;

	if (conv == 'd' || conv == 'i') {
		intmax_t v = kfmt_signed_arg(lng, args);

		neg = v < 0;
		u = neg ? 0 - (uintmax_t)v : (uintmax_t)v;
	} else {
		u = kfmt_unsigned_arg(lng, args);
	}
	do {
		*--d = digits[u % base];
		u /= base;
	} while (u);
	if (neg)
		*--d = '-';
	kbuf_put(b, d, (size_t)(end - d));
}

/* A conversion with no flags, width or precision that needs no C library: an integer,
 * %s (NULL as "(null)") or %c. Returns false for any other letter. */
static bool kfmt_plain(struct kbuf *b, int lng, char conv, va_list *args)
{
	const char *s;
	char c;

	switch (conv) {
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		kfmt_int_plain(b, lng, conv, args);
		return true;
	case 's':
		s = va_arg(*args, const char *);
		if (!s)
			s = "(null)";
		kbuf_put(b, s, strlen(s));
		return true;
	case 'c':
		c = (char)va_arg(*args, int);
		kbuf_put(b, &c, 1);
		return true;
	default:
		return false;
	}
}

/* Whether c, after a '%', begins flags, a width or a precision (or ends the format). */
static bool kfmt_starts_spec(char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == ' ' || c == '#' ||
	       c == '.' || c == '*' || c == '\0';
}

/*
 * One conversion from its '%' at start: the common ones without flags, width or
 * precision written here, the other printf ones through the C library, %p with the
 * kernel's extensions. Returns where the format goes on.
 */
static const char *kfmt_conversion(struct kbuf *b, const char *start, va_list *args)
{
	char spec[KFMT_SPEC];
	size_t sl = 0;
	int lng;
	const char *fmt = kfmt_length(start + 1, &lng);
	const char *s;

	/* no flags, width or precision: nothing to copy into a spec */
	if (!kfmt_starts_spec(start[1]) && kfmt_plain(b, lng, *fmt, args))
		return fmt + 1;
	fmt = kfmt_length(kfmt_flags(start, spec, &sl, args), &lng);
	spec[sl + 1] = '\0';
	switch (*fmt) {
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		kfmt_int(b, spec, sl, lng, *fmt, args);
		break;
	case 'c':
		spec[sl] = 'c';
		kbuf_fmt(b, spec, va_arg(*args, int));
		break;
	case 's':
		s = va_arg(*args, const char *);
		spec[sl] = 's';
		kbuf_fmt(b, spec, s ? s : "(null)");
		break;
	case 'f':
	case 'g':
	case 'e':
	case 'F':
	case 'G':
	case 'E':
		spec[sl] = *fmt;
		kbuf_fmt(b, spec, va_arg(*args, double));
		break;
	case 'p':
		return fmt + 1 + format_pointer(b, fmt + 1, va_arg(*args, const void *));
	default:
		/* not a conversion: print it as written */
		kbuf_put(b, start, (size_t)(fmt - start));
		return fmt;
	}
	return fmt + 1;
}

int cs_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct kbuf b = { buf, size, 0 };
	va_list args;

	va_copy(args, ap);
	if (size)
		buf[0] = '\0';
	while (*fmt) {
		const char *start = fmt;

		if (*fmt != '%') {
			while (*fmt && *fmt != '%')
				fmt++;
			kbuf_put(&b, start, (size_t)(fmt - start));
		} else if (fmt[1] == '%') {
			kbuf_put(&b, "%", 1);
			fmt += 2;
		} else {
			fmt = kfmt_conversion(&b, fmt, &args);
		}
	}
	va_end(args);
	return (int)b.len;
}

int cs_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = cs_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = cs_vsnprintf(buf, size, fmt, ap);

	if (size == 0)
		return 0;
	return n < (int)size ? n : (int)size - 1;
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	return n;
}

int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at < 0 || at >= PAGE_SIZE)
		return 0;
	va_start(ap, fmt);
	n = vscnprintf(buf + at, PAGE_SIZE - (size_t)at, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- strings to numbers ---- */

static int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	char *end;
	unsigned long long v;

	if (!s || *s == '-' || isspace((unsigned char)*s) || *s == '\0')
		return -EINVAL;
	if (*s == '+')
		s++;
	errno = 0;
	v = strtoull(s, &end, (int)base);
	if (end == s)
		return -EINVAL;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	bool neg = s && *s == '-';
	int rc = kstrtoull(neg ? s + 1 : s, base, &v);

	if (rc)
		return rc;
	if (neg ? v > (unsigned long long)LLONG_MAX + 1 : v > (unsigned long long)LLONG_MAX)
		return -ERANGE;
	*res = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int rc = kstrtoll(s, base, &v);

	if (rc)
		return rc;
	if (v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

/* sysfs input ends with the newline `echo` adds; compare without it. */
static bool sysfs_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	if (*a == *b)
		return true;
	if (*a == '\n' && a[1] == '\0' && *b == '\0')
		return true;
	return *b == '\n' && b[1] == '\0' && *a == '\0';
}

int __sysfs_match_string(const char *const *array, size_t n, const char *buf)
{
	for (size_t i = 0; i < n && array[i]; i++)
		if (sysfs_streq(buf, array[i]))
			return (int)i;
	return -EINVAL;
}

ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (count == 0)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return (ssize_t)len;
}

/* ---- ids ---- */

int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	(void)gfp;
	if (start < 0)
		return -EINVAL;
	if (end <= 0 || end > CS_IDR_MAX)
		end = CS_IDR_MAX;
	for (int id = start; id < end; id++)
		if (!idr->cs_used[id]) {
			idr->cs_used[id] = true;
			idr->cs_ptr[id] = ptr;
			return id;
		}
	return -ENOSPC;
}

void *idr_remove(struct idr *idr, unsigned long id)
{
	void *p;

	if (id >= CS_IDR_MAX || !idr->cs_used[id])
		return NULL;
	p = idr->cs_ptr[id];
	idr->cs_used[id] = false;
	idr->cs_ptr[id] = NULL;
	return p;
}

