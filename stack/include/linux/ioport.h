/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/ioport.h (chargesim) - resources: here only interrupt lines. */
#ifndef CS_LINUX_IOPORT_H
#define CS_LINUX_IOPORT_H

#include <linux/kernel_types.h>

#define IORESOURCE_IRQ  0x00000400

struct resource {
	resource_size_t start;
	resource_size_t end;
	const char *name;
	unsigned long flags;
};

#endif
