/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/bitops.h (chargesim) - bit helpers (BIT, GENMASK, fls in kernel_types.h) and
 * walking the set bits of a bitmap (an array of unsigned long, bit n in word
 * n / BITS_PER_LONG), as include/linux/find.h defines them.
 */
#ifndef CS_LINUX_BITOPS_H
#define CS_LINUX_BITOPS_H

#include <linux/kernel_types.h>

#ifndef BITS_PER_LONG
#define BITS_PER_LONG ((int)(sizeof(long) * CHAR_BIT))
#endif

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
