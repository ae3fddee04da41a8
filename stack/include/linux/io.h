/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/io.h (chargesim) - memory-mapped I/O is not modelled: the boards' chips are
 * reached over I2C, GPIO lines and MFD register accessors. The header exists for
 * drivers that include it without using it (charger-manager.c).
 */
#ifndef CS_LINUX_IO_H
#define CS_LINUX_IO_H

#include <linux/kernel_types.h>

#endif
