// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/i2c.c - I2C adapters, clients and drivers; SMBus byte and word
 * transfers as the I2C messages a controller would send (register address written,
 * then the data read back in a repeated-start message).
 */
#include <glib.h>
#include <linux/i2c.h>
#include <linux/module.h>
#include <linux/of.h>
#include "stack/kernel/kinternal.h"

struct i2c_adapter *cs_i2c_adapter_new(int nr, const struct i2c_algorithm *algo, void *data)
{
	struct i2c_adapter *adap = g_new0(struct i2c_adapter, 1);

	adap->nr = nr;
	adap->algo = algo;
	adap->algo_data = data;
	snprintf(adap->name, sizeof(adap->name), "i2c-%d", nr);
	adap->dev.init_name = adap->name;
	return adap;
}

void cs_i2c_adapter_free(struct i2c_adapter *adap)
{
	g_free(adap);
}

struct i2c_client *cs_i2c_client_new(struct i2c_adapter *adap, const char *name,
				     unsigned short addr, struct device_node *np, int irq)
{
	struct i2c_client *client = g_new0(struct i2c_client, 1);

	client->adapter = adap;
	client->addr = addr;
	g_strlcpy(client->name, name, sizeof(client->name));
	client->irq = irq;
	client->dev.parent = &adap->dev;
	client->dev.of_node = np;
	client->dev.fwnode = of_fwnode_handle(np);
	dev_set_name(&client->dev, "%d-%04x", adap->nr, addr);
	return client;
}

int cs_i2c_client_add(struct i2c_client *client)
{
	return cs_device_add(&client->dev, CS_BUS_I2C);
}

void cs_i2c_client_free(struct i2c_client *client)
{
	if (!client)
		return;
	cs_device_del(&client->dev);
	g_free(client->dev.cs_name);
	g_free(client);
}

int i2c_register_driver(struct module *owner, struct i2c_driver *driver)
{
	(void)owner;
	return cs_driver_register(&driver->driver, CS_BUS_I2C);
}

void i2c_del_driver(struct i2c_driver *driver)
{
	cs_driver_unregister(&driver->driver);
}

const struct i2c_device_id *i2c_match_id(const struct i2c_device_id *id,
					 const struct i2c_client *client)
{
	for (; id && id->name[0]; id++)
		if (strcmp(client->name, id->name) == 0)
			return id;
	return NULL;
}

static int i2c_transfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	if (!adap || !adap->algo || !adap->algo->master_xfer)
		return -EOPNOTSUPP;
	return adap->algo->master_xfer(adap, msgs, num);
}

/* A register read: write the register address, read len bytes back. */
static int smbus_read(const struct i2c_client *client, u8 command, u8 *buf, u16 len)
{
	struct i2c_msg msgs[2] = {
		{ .addr = client->addr, .flags = 0, .len = 1, .buf = &command },
		{ .addr = client->addr, .flags = I2C_M_RD, .len = len, .buf = buf },
	};
	int ret = i2c_transfer(client->adapter, msgs, 2);

	if (ret < 0)
		return ret;
	return ret == 2 ? 0 : -EIO;
}

static int smbus_write(const struct i2c_client *client, u8 command, const u8 *data, u16 len)
{
	u8 buf[33];
	struct i2c_msg msg = { .addr = client->addr, .flags = 0, .len = (u16)(len + 1), .buf = buf };
	int ret;

	if (len > 32)
		return -EINVAL;
	buf[0] = command;
	memcpy(buf + 1, data, len);
	ret = i2c_transfer(client->adapter, &msg, 1);
	if (ret < 0)
		return ret;
	return ret == 1 ? 0 : -EIO;
}

s32 i2c_smbus_read_byte_data(const struct i2c_client *client, u8 command)
{
	u8 v;
	int ret = smbus_read(client, command, &v, 1);

	return ret < 0 ? ret : v;
}

s32 i2c_smbus_write_byte_data(const struct i2c_client *client, u8 command, u8 value)
{
	return smbus_write(client, command, &value, 1);
}
