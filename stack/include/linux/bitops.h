/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/bitops.h (chargesim) - bit helpers (BIT, GENMASK, fls in kernel_types.h). */
#ifndef CS_LINUX_BITOPS_H
#define CS_LINUX_BITOPS_H

#include <linux/kernel_types.h>

#define BITS_PER_LONG (sizeof(long) * 8)
#define BITS_PER_TYPE(t) (sizeof(t) * 8)
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) < (size); (bit)++) \
		if ((*(const unsigned long *)(addr) >> (bit)) & 1UL)
static inline void set_bit(unsigned int nr, unsigned long *addr)
{
	*addr |= 1UL << nr;
}
static inline void clear_bit(unsigned int nr, unsigned long *addr)
{
	*addr &= ~(1UL << nr);
}
static inline bool test_bit(unsigned int nr, const unsigned long *addr)
{
	return (*addr >> nr) & 1UL;
}

#endif
