/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/mutex.h (chargesim) - mutexes. A run is single-threaded, so a mutex only
 * records that it is held: taking one that is already held is the deadlock it would
 * be in the kernel, and is logged as an error (the run goes on).
 */
#ifndef CS_LINUX_MUTEX_H
#define CS_LINUX_MUTEX_H

#include <linux/kernel_types.h>

struct device;

struct mutex {
	int cs_held;
};

#define __MUTEX_INITIALIZER(name) { .cs_held = 0 }
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)

static inline void mutex_init(struct mutex *m)
{
	m->cs_held = 0;
}
void cs_mutex_lock(struct mutex *m, const char *where);
static inline void mutex_unlock(struct mutex *m)
{
	m->cs_held = 0;
}
#define mutex_lock(m) cs_mutex_lock((m), __func__)

#endif
