/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/kcore.h - forced (-include) into the kernel's core files the layer runs
 * unmodified: drivers/extcon/extcon.c, drivers/extcon/devres.c, drivers/usb/phy/phy.c.
 *
 * Their global state (the list of extcon devices and its lock, the extcon id
 * allocator, the list of USB PHYs and its lock) is the state of one kernel. In a
 * chargesim process each run is a kernel of its own and `check -j N` runs several in
 * threads at once, so those globals are redirected into the run's struct cs_kcore
 * (chargesim/kcore_state.h): the file's definitions become unused placeholders and
 * every use of the name reaches the run's object. The code that uses them is unchanged.
 */
#ifndef CS_CHARGESIM_KCORE_H
#define CS_CHARGESIM_KCORE_H

#include <chargesim/kcore_state.h>

/* The definitions: a placeholder named after the global (## keeps the argument from
 * being replaced by the redirections below). */
#undef LIST_HEAD
#undef DEFINE_MUTEX
#undef DEFINE_SPINLOCK
#undef DEFINE_IDA
#define LIST_HEAD(name) int __cs_kcore_##name __attribute__((unused))
#define DEFINE_MUTEX(name) int __cs_kcore_##name __attribute__((unused))
#define DEFINE_SPINLOCK(name) int __cs_kcore_##name __attribute__((unused))
#define DEFINE_IDA(name) int __cs_kcore_##name __attribute__((unused))

/* The uses */
#define extcon_dev_list (cs_kcore()->extcon_dev_list)
#define extcon_dev_ids (cs_kcore()->extcon_dev_ids)
#define extcon_dev_list_lock (cs_kcore()->extcon_dev_list_lock)
#define phy_list (cs_kcore()->phy_list)
#define phy_lock (cs_kcore()->phy_lock)

#endif
