/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/slab.h (chargesim) - the drivers allocate with the devm_* helpers of linux/device.h. */
#ifndef CS_LINUX_SLAB_H
#define CS_LINUX_SLAB_H

#include <linux/device.h>

#endif
