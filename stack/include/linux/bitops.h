/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/bitops.h (chargesim) - bit helpers (BIT, GENMASK, fls in kernel_types.h), bit
 * maps of unsigned longs and the population count.
 */
#ifndef CS_LINUX_BITOPS_H
#define CS_LINUX_BITOPS_H

#include <linux/kernel_types.h>

#define BITS_PER_LONG (8 * (int)sizeof(long))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

static inline bool test_bit(long nr, const unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1UL;
}

static inline void __set_bit(long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

static inline unsigned int hweight32(u32 w)
{
	return (unsigned int)__builtin_popcount(w);
}

#endif
