/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/bitops.h (chargesim) - bit helpers (BIT, GENMASK, fls in kernel_types.h), bit
 * maps of unsigned longs (bit n in word n / BITS_PER_LONG), walking their set bits as
 * include/linux/find.h defines it, and the population count.
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

/* The first set bit at or after offset, or size when there is none. */
static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
					  unsigned long offset)
{
	for (; offset < size; offset++)
		if (addr[offset / BITS_PER_LONG] & (1UL << (offset % BITS_PER_LONG)))
			return offset;
	return size;
}

#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size); (bit)++)

#endif
