/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/i2c.h (chargesim) - I2C clients, drivers and adapters, SMBus byte access.
 *
 * The simulated board puts each register-level chip model on an adapter at its
 * address; the adapter's transfer function is the chip model's register read/write
 * (run/linux_board.c). i2c_add_driver() binds a driver to every client whose node
 * matches its of_match_table or whose name is in its id_table. The message layout
 * (struct i2c_msg, I2C_M_RD, ...) is the C library's UAPI linux/i2c.h.
 */
#ifndef CS_LINUX_I2C_H
#define CS_LINUX_I2C_H

#include_next <linux/i2c.h>
#include <linux/kernel_types.h>
#include <linux/device.h>
#include <linux/mod_devicetable.h>

struct i2c_client;
struct i2c_adapter;

/* The adapter's transfer: the chip model behind the address (chargesim). */
struct i2c_algorithm {
	int (*master_xfer)(struct i2c_adapter *adap, struct i2c_msg *msgs, int num);
};

struct i2c_adapter {
	const struct i2c_algorithm *algo;
	void *algo_data;
	int nr;
	char name[48];
	struct device dev;
};

struct i2c_client {
	unsigned short flags;
	unsigned short addr;
	char name[I2C_NAME_SIZE];
	struct i2c_adapter *adapter;
	struct device dev;
	int irq;
};

#define to_i2c_client(d) container_of((d), struct i2c_client, dev)

struct i2c_driver {
	int (*probe)(struct i2c_client *client);
	void (*remove)(struct i2c_client *client);
	void (*shutdown)(struct i2c_client *client);
	struct device_driver driver;
	const struct i2c_device_id *id_table;
	u32 flags;
};

#define to_i2c_driver(d) container_of((d), struct i2c_driver, driver)

static inline void *i2c_get_clientdata(const struct i2c_client *client)
{
	return dev_get_drvdata(&client->dev);
}
static inline void i2c_set_clientdata(struct i2c_client *client, void *data)
{
	dev_set_drvdata(&client->dev, data);
}

int i2c_register_driver(struct module *owner, struct i2c_driver *driver);
void i2c_del_driver(struct i2c_driver *driver);
#define i2c_add_driver(driver) i2c_register_driver(THIS_MODULE, driver)
#define module_i2c_driver(__i2c_driver) \
	module_driver(__i2c_driver, i2c_add_driver, i2c_del_driver)

const struct i2c_device_id *i2c_match_id(const struct i2c_device_id *id,
					 const struct i2c_client *client);

s32 i2c_smbus_read_byte_data(const struct i2c_client *client, u8 command);
s32 i2c_smbus_write_byte_data(const struct i2c_client *client, u8 command, u8 value);

/* ---- chargesim: the board side ---- */
struct i2c_adapter *cs_i2c_adapter_new(int nr, const struct i2c_algorithm *algo, void *data);
struct i2c_client *cs_i2c_client_new(struct i2c_adapter *adap, const char *name,
				     unsigned short addr, struct device_node *np, int irq);
int cs_i2c_client_add(struct i2c_client *client);
void cs_i2c_client_free(struct i2c_client *client);
void cs_i2c_adapter_free(struct i2c_adapter *adap);

#endif
