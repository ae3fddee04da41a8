/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/spinlock.h (chargesim) - spinlocks. A run is single-threaded and has no
 * interrupts that could preempt it, so a spinlock guards nothing here; the calls
 * exist so that kernel code compiles unchanged (the irqsave forms keep the flags
 * argument's type).
 */
#ifndef CS_LINUX_SPINLOCK_H
#define CS_LINUX_SPINLOCK_H

#include <linux/kernel_types.h>

typedef struct {
	int cs_unused;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) { 0 }
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)
#define spin_lock_init(l) do { (void)(l); } while (0)
#define spin_lock(l) do { (void)(l); } while (0)
#define spin_unlock(l) do { (void)(l); } while (0)
#define spin_lock_irqsave(l, flags) do { (void)(l); (flags) = 0; } while (0)
#define spin_unlock_irqrestore(l, flags) do { (void)(l); (void)(flags); } while (0)

#endif
