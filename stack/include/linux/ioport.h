/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/ioport.h (chargesim) - resources: here only interrupt lines. */
#ifndef CS_LINUX_IOPORT_H
#define CS_LINUX_IOPORT_H

#include <linux/kernel_types.h>

#define IORESOURCE_IO   0x00000100
#define IORESOURCE_MEM  0x00000200
#define IORESOURCE_IRQ  0x00000400

struct resource {
	resource_size_t start;
	resource_size_t end;
	const char *name;
	unsigned long flags;
};

#define DEFINE_RES_IRQ(_irq) { .start = (_irq), .end = (_irq), .flags = IORESOURCE_IRQ }
#define DEFINE_RES_IRQ_NAMED(_irq, _name) \
	{ .start = (_irq), .end = (_irq), .name = (_name), .flags = IORESOURCE_IRQ }

#endif
