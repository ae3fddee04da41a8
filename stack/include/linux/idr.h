/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/idr.h (chargesim) - small integer ids mapped to pointers (a driver's
 * "<name>-<id>" numbering): the lowest free id in [start, end) is handed out.
 */
#ifndef CS_LINUX_IDR_H
#define CS_LINUX_IDR_H

#include <linux/kernel_types.h>

#define CS_IDR_MAX 64

struct idr {
	void *cs_ptr[CS_IDR_MAX];
	bool cs_used[CS_IDR_MAX];
};

#define DEFINE_IDR(name) struct idr name = { { 0 }, { 0 } }

/* end 0 means "no upper bound" (CS_IDR_MAX here); -ENOSPC when full. */
int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp);
void *idr_remove(struct idr *idr, unsigned long id);

/* An IDA hands out the lowest free id from 0 with no pointer attached. */
struct ida {
	struct idr cs_idr;
};
#define DEFINE_IDA(name) struct ida name = { { { 0 }, { 0 } } }
static inline int ida_alloc(struct ida *ida, gfp_t gfp)
{
	return idr_alloc(&ida->cs_idr, ida, 0, 0, gfp);
}
static inline void ida_free(struct ida *ida, unsigned int id)
{
	idr_remove(&ida->cs_idr, id);
}

#endif
