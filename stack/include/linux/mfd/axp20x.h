/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/mfd/axp20x.h (chargesim) - the X-Powers AXP20x/AXP288 PMIC family's MFD core
 * as its function drivers see it: the parent device's driver data (struct
 * axp20x_dev: the register map and its interrupt chip) and the register numbers the
 * AXP288 charger driver uses, with the values of Linux 6.12's include/linux/mfd/
 * axp20x.h. The chip behind the map is a register model the simulated board provides.
 */
#ifndef CS_LINUX_MFD_AXP20X_H
#define CS_LINUX_MFD_AXP20X_H

#include <linux/kernel_types.h>
#include <linux/interrupt.h>
#include <linux/regmap.h>

enum axp20x_variants {
	AXP152_ID = 0, AXP192_ID, AXP202_ID, AXP209_ID, AXP221_ID, AXP223_ID, AXP288_ID,
	AXP313A_ID, AXP717_ID, AXP803_ID, AXP806_ID, AXP809_ID, AXP813_ID, AXP15060_ID,
	NR_AXP20X_VARIANTS,
};

/* registers */
#define AXP20X_PWR_INPUT_STATUS   0x00
#define AXP20X_PWR_OP_MODE        0x01
#define AXP20X_VBUS_IPSOUT_MGMT   0x30
#define AXP20X_CHRG_CTRL1         0x33
#define AXP20X_CHRG_CTRL2         0x34
#define AXP20X_CHRG_BAK_CTRL      0x35
#define AXP20X_V_LTF_CHRG         0x38
#define AXP20X_V_HTF_CHRG         0x39
#define AXP20X_CC_CTRL            0xb8


struct axp20x_dev {
	struct device *dev;
	int irq;
	struct regmap *regmap;
	struct regmap_irq_chip_data *regmap_irqc;
	long variant;
};

#endif
