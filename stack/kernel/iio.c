// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/iio.c - IIO consumer channels mapped by the board to chip models'
 * ADCs (see linux/iio/consumer.h).
 */
#include <glib.h>
#include <linux/iio/consumer.h>
#include <linux/slab.h>
#include "stack/kernel/kinternal.h"

struct cs_iio_map {
	char *consumer;           /* NULL: any device */
	struct iio_channel chan;
	struct cs_iio_map *next;
};

void cs_iio_map_add(const char *consumer, const char *name,
		    int (*read_processed)(void *hw, int *val),
		    int (*read_raw)(void *hw, int *val), void *hw)
{
	struct cs_iio_map *m = g_new0(struct cs_iio_map, 1), **pp;

	m->consumer = g_strdup(consumer);
	m->chan.name = g_strdup(name);
	m->chan.read_processed = read_processed;
	m->chan.read_raw = read_raw;
	m->chan.hw = hw;
	for (pp = &cs_kernel()->iio_maps; *pp; pp = &(*pp)->next)
		;
	*pp = m;
}

void cs_iio_exit(struct cs_kernel *k)
{
	while (k->iio_maps) {
		struct cs_iio_map *m = k->iio_maps;

		k->iio_maps = m->next;
		g_free(m->consumer);
		g_free((char *)m->chan.name);
		g_free(m);
	}
}

struct iio_channel *devm_iio_channel_get(struct device *dev, const char *consumer_channel)
{
	for (struct cs_iio_map *m = cs_kernel()->iio_maps; m; m = m->next)
		if ((!m->consumer || (dev && strcmp(m->consumer, dev_name(dev)) == 0)) &&
		    consumer_channel && strcmp(m->chan.name, consumer_channel) == 0)
			return &m->chan;
	return ERR_PTR(-ENODEV);
}

int iio_read_channel_processed(struct iio_channel *chan, int *val)
{
	if (!chan->read_processed)
		return -EINVAL;
	return chan->read_processed(chan->hw, val);
}
