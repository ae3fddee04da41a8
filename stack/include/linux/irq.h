/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/irq.h (chargesim) - see linux/interrupt.h. */
#ifndef CS_LINUX_IRQ_H
#define CS_LINUX_IRQ_H

#include <linux/interrupt.h>

#endif
