/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/kstrtox.h (chargesim) - string to integer conversions as sysfs store()
 * functions use them: the whole string must be a number (one trailing newline
 * allowed); 0 or -EINVAL / -ERANGE.
 */
#ifndef CS_LINUX_KSTRTOX_H
#define CS_LINUX_KSTRTOX_H

#include <linux/kernel_types.h>

int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoint(const char *s, unsigned int base, int *res);
/* The index of the string in the NULL-terminated or n-long array that buf equals
 * (ignoring one trailing newline), or -EINVAL. */
int __sysfs_match_string(const char *const *array, size_t n, const char *buf);
#define sysfs_match_string(_a, _s) __sysfs_match_string(_a, ARRAY_SIZE(_a), _s)
/* sysfs show() helpers: format into a PAGE_SIZE buffer. */
#define PAGE_SIZE 4096
__printf(2, 3) int sysfs_emit(char *buf, const char *fmt, ...);
__printf(3, 4) int sysfs_emit_at(char *buf, int at, const char *fmt, ...);

#endif
