// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/twl.c - twl_i2c_read()/twl_i2c_write(): register access to the
 * TWL4030 modules through the chip model the board registered.
 */
#include <linux/mfd/twl.h>
#include <chargesim/kernel.h>

void cs_twl_set_provider(const struct cs_twl_provider *p)
{
	cs_kernel()->twl = p;
}

int twl_i2c_read(u8 mod_no, u8 *value, u8 reg, unsigned int num_bytes)
{
	const struct cs_twl_provider *p = cs_kernel()->twl;

	if (!p)
		return -EPERM;   /* the twl core has not probed */
	for (unsigned int i = 0; i < num_bytes; i++) {
		int ret = p->read(p->hw, mod_no, (u8)(reg + i), &value[i]);

		if (ret)
			return ret;
	}
	return 0;
}

int twl_i2c_write(u8 mod_no, u8 *value, u8 reg, unsigned int num_bytes)
{
	const struct cs_twl_provider *p = cs_kernel()->twl;

	if (!p)
		return -EPERM;
	for (unsigned int i = 0; i < num_bytes; i++) {
		int ret = p->write(p->hw, mod_no, (u8)(reg + i), value[i]);

		if (ret)
			return ret;
	}
	return 0;
}
