/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/mfd/twl.h (chargesim) - the TWL4030/TPS65950 companion chip's register
 * access as its function drivers see it: twl_i2c_read_u8()/twl_i2c_write_u8() of a
 * register within a module (each module is a block of registers at some I2C address
 * of the chip). The module numbering and the register offsets below are the ones
 * Linux 6.12's include/linux/mfd/twl.h gives; the chip behind them is a register
 * model the simulated board registers (cs_twl_set_provider).
 */
#ifndef CS_LINUX_MFD_TWL_H
#define CS_LINUX_MFD_TWL_H

#include <linux/kernel_types.h>

/* Module ids shared by twl4030/twl6030 */
enum twl_module_ids {
	TWL_MODULE_USB,
	TWL_MODULE_PIH,
	TWL_MODULE_MAIN_CHARGE,
	TWL_MODULE_PM_MASTER,
	TWL_MODULE_PM_RECEIVER,
	TWL_MODULE_RTC,
	TWL_MODULE_PWM,
	TWL_MODULE_LED,
	TWL_MODULE_SECURED_REG,
	TWL_MODULE_LAST,
};

/* Modules of the twl4030 family only */
enum twl4030_module_ids {
	TWL4030_MODULE_AUDIO_VOICE = TWL_MODULE_LAST,
	TWL4030_MODULE_GPIO,
	TWL4030_MODULE_INTBR,
	TWL4030_MODULE_TEST,
	TWL4030_MODULE_KEYPAD,
	TWL4030_MODULE_MADC,
	TWL4030_MODULE_INTERRUPTS,
	TWL4030_MODULE_PRECHARGE,
	TWL4030_MODULE_BACKUP,
	TWL4030_MODULE_INT,
	TWL5031_MODULE_ACCESSORY,
	TWL5031_MODULE_INTERRUPTS,
	TWL4030_MODULE_LAST,
};

/* INTERRUPTS module: the BCI's interrupt status / mask registers (A: to the host) */
#define TWL4030_INTERRUPTS_BCIISR1A	0x0
#define TWL4030_INTERRUPTS_BCIISR2A	0x1
#define TWL4030_INTERRUPTS_BCIIMR1A	0x2
#define TWL4030_INTERRUPTS_BCIIMR2A	0x3

/* PM_MASTER module */
#define TWL4030_PM_MASTER_BOOT_BCI		0x07

struct twl4030_bci_platform_data {
	int bb_uvolt;    /* voltage to charge the backup battery */
	int bb_uamp;     /* current for backup battery charging */
};

int twl_i2c_write(u8 mod_no, u8 *value, u8 reg, unsigned int num_bytes);
int twl_i2c_read(u8 mod_no, u8 *value, u8 reg, unsigned int num_bytes);

static inline int twl_i2c_write_u8(u8 mod_no, u8 val, u8 reg)
{
	return twl_i2c_write(mod_no, &val, reg, 1);
}

static inline int twl_i2c_read_u8(u8 mod_no, u8 *val, u8 reg)
{
	return twl_i2c_read(mod_no, val, reg, 1);
}

/* ---- chargesim: the chip behind the modules ---- */
struct cs_twl_provider {
	int (*read)(void *hw, u8 mod_no, u8 reg, u8 *val);     /* 0 or -errno */
	int (*write)(void *hw, u8 mod_no, u8 reg, u8 val);
	void *hw;
};
/* The run's twl chip (NULL: none; twl_i2c_* then fail with -EPERM, as before the
 * twl core has probed). */
void cs_twl_set_provider(const struct cs_twl_provider *p);

#endif
