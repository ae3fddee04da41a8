/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/bitops.h (chargesim) - bit helpers (BIT, GENMASK, fls in kernel_types.h). */
#ifndef CS_LINUX_BITOPS_H
#define CS_LINUX_BITOPS_H

#include <linux/kernel_types.h>

#endif
