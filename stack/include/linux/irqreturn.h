/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/irqreturn.h (chargesim) - what an interrupt handler returns. */
#ifndef CS_LINUX_IRQRETURN_H
#define CS_LINUX_IRQRETURN_H

enum irqreturn {
	IRQ_NONE = 0,
	IRQ_HANDLED = 1,
	IRQ_WAKE_THREAD = 2,
};
typedef enum irqreturn irqreturn_t;

#endif
