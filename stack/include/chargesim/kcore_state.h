/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/kcore_state.h - the global state of the kernel's core files
 * (drivers/extcon/extcon.c, drivers/usb/phy/phy.c), which chargesim/kcore.h moves into
 * the run (struct cs_kernel's kcore): each run is a kernel of its own.
 */
#ifndef CS_CHARGESIM_KCORE_STATE_H
#define CS_CHARGESIM_KCORE_STATE_H

#include <linux/idr.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

struct cs_kcore {
	struct list_head extcon_dev_list;    /* extcon.c: registered extcon devices */
	struct ida extcon_dev_ids;           /* extcon.c: extcon%d numbers */
	struct mutex extcon_dev_list_lock;
	struct list_head phy_list;           /* phy.c: usb_add_phy_dev() */
	spinlock_t phy_lock;
};

/* The running kernel's core state (the thread's current run); its lists are made
 * empty the first time they are used, so a zeroed struct cs_kernel is a fresh kernel. */
struct cs_kcore *cs_kcore(void);

#endif
