/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/iio/consumer.h (chargesim) - ADC channels a driver reads through IIO.
 *
 * The simulated board maps (consumer device, channel name) pairs to a chip model's
 * ADC (run/linux_board.c), reading the solver's operating point through the chip's
 * ADC resolution. Processed values are in the IIO units: millivolts, milliamps.
 */
#ifndef CS_LINUX_IIO_CONSUMER_H
#define CS_LINUX_IIO_CONSUMER_H

#include <linux/kernel_types.h>
#include <linux/device.h>
#include <linux/err.h>

struct iio_channel {
	const char *name;
	/* the provider (chargesim): processed value (mV, mA, ...), raw code, scale */
	int (*read_processed)(void *hw, int *val);
	int (*read_raw)(void *hw, int *val);
	void *hw;
};

struct iio_channel *devm_iio_channel_get(struct device *dev, const char *consumer_channel);
int iio_read_channel_processed(struct iio_channel *chan, int *val);

/* ---- chargesim: the board side ---- */
/* Channel `name` read by the device named `consumer` (NULL: any device). */
void cs_iio_map_add(const char *consumer, const char *name,
		    int (*read_processed)(void *hw, int *val),
		    int (*read_raw)(void *hw, int *val), void *hw);

#endif
