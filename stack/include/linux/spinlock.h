/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/spinlock.h (chargesim) - spinlocks do nothing in a single-threaded run. */
#ifndef CS_LINUX_SPINLOCK_H
#define CS_LINUX_SPINLOCK_H

#include <linux/kernel_types.h>

typedef struct { int unused; } spinlock_t;
#define DEFINE_SPINLOCK(x) spinlock_t x = { 0 }
#define spin_lock_init(l) ((void)(l))
#define spin_lock(l) ((void)(l))
#define spin_unlock(l) ((void)(l))
#define spin_lock_irq(l) ((void)(l))
#define spin_unlock_irq(l) ((void)(l))
#define spin_lock_irqsave(l, f) ((void)(l), (f) = 0)
#define spin_unlock_irqrestore(l, f) ((void)(l), (void)(f))

#endif
