/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/delay.h (chargesim) - sleeps and busy-waits.
 *
 * Drivers sleep to let hardware settle (a register reset, an ADC conversion). Here a
 * sleep does not advance virtual time: the chip models settle at once, and a driver
 * function always runs to its end at the instant it started (a work item that
 * sleeps is not split in two). Each sleep is logged (a kernel `sleep` record with
 * its length and the calling function) so that a run shows where a real device
 * would have spent the time. A driver that polls a register until the hardware
 * changes it therefore sees the change on its first poll.
 */
#ifndef CS_LINUX_DELAY_H
#define CS_LINUX_DELAY_H

#include <linux/kernel_types.h>

void cs_sleep_us(unsigned long us, const char *caller);
#define msleep(ms) cs_sleep_us((unsigned long)(ms) * 1000UL, __func__)
#define usleep_range(min, max) cs_sleep_us((unsigned long)(min), __func__)
/* Busy-waits are too short to log. */
#define udelay(us) ((void)(us))

#endif
