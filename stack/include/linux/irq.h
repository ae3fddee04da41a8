/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/irq.h (chargesim) - see linux/interrupt.h. */
#ifndef CS_LINUX_IRQ_H
#define CS_LINUX_IRQ_H

#include <linux/interrupt.h>

#define IRQ_TYPE_EDGE_RISING   0x00000001
#define IRQ_TYPE_EDGE_FALLING  0x00000002

#endif
