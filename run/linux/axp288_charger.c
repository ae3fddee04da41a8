// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux/axp288_charger.c - the machine Linux's axp288_charger.c runs on: an Intel
 * Bay Trail / Cherry Trail tablet whose X-Powers AXP288 PMIC (models/axp288) sits on
 * the SoC's I2C bus 7 at 0x34.
 *
 * No device tree (an ACPI machine): the MFD parent "axp288" carries struct
 * axp20x_dev (a regmap over I2C and a regmap-irq chip mapping the AXP288's interrupt
 * bits 4, 10-13, 20-23 to lines); the MFD cell, the platform device axp288_charger
 * with those nine interrupts, is the device the driver binds to; the PMIC's
 * axp288_extcon reports its BC1.2 result (SDP, CDP, DCP; other chargers as no cable).
 */
#include <linux/interrupt.h>
#include <linux/extcon-provider.h>
#include <linux/mfd/axp20x.h>
#include <chargesim/kernel.h>
#include "models/axp288/axp288.h"
#include "run/linux/machine.h"

struct axp288_machine {
	struct axp288 axp;
	struct linux_i2c_chip i2c;
	struct axp20x_dev axp20x;
	struct device mfd_dev;
	struct regmap *map;
	struct regmap_irq_chip_data *irqc;
	int virq[AXP288_NIRQ];
	struct device extcon_pdev;   /* the extcon cell's device, the extcon device's parent */
	struct extcon_dev *edev;
};

static void axp_irq(void *ctx, enum axp288_chg_irq irq)
{
	struct linux_board *lb = ctx;
	struct axp288_machine *a = lb->priv;

	cs_irq_raise(a->virq[irq]);
}

static int axp_read(void *chip, u8 reg, u8 *val)
{
	return axp288_read(chip, reg, val);
}

static int axp_write(void *chip, u8 reg, u8 val)
{
	return axp288_write(chip, reg, val);
}

/* The cables the AXP288's own BC1.2 detection reports (extcon-axp288.c's list). */
static const unsigned int axp_cables[] = {
	EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_CDP, EXTCON_CHG_USB_DCP, EXTCON_USB, EXTCON_NONE,
};

/* The PMIC's detection is the PHY model's: SDP, CDP and DCP as found; what BC1.2
 * cannot name (proprietary dividers, Type-C) is reported as no charger cable. */
static void axp_extcon_sync(struct linux_board *lb)
{
	struct axp288_machine *a = lb->priv;
	enum phy_port port = linux_board_vbus(lb) ? linux_board_port(lb) : PHY_PORT_NONE;
	unsigned int want = port == PHY_PORT_SDP ? EXTCON_CHG_USB_SDP :
			    port == PHY_PORT_CDP ? EXTCON_CHG_USB_CDP :
			    port == PHY_PORT_DCP ? EXTCON_CHG_USB_DCP : EXTCON_NONE;

	/* edge-driven: the kernel's extcon notifies on every sync, so only changes go out */
	for (int i = 0; i < 3; i++)
		if (axp_cables[i] != want)
			cs_extcon_report(a->edev, axp_cables[i], false);
	cs_extcon_report(a->edev, EXTCON_USB, port == PHY_PORT_SDP || port == PHY_PORT_CDP);
	if (want != EXTCON_NONE)
		cs_extcon_report(a->edev, want, true);
}

static bool axp288_setup(struct linux_board *lb, GError **err)
{
	static const struct regmap_config cfg = {
		.reg_bits = 8, .val_bits = 8, .max_register = 0xff, .cache_type = REGCACHE_NONE,
	};
	static const char *const irq_names[AXP288_NIRQ] = {
		"axp288-vbus-ov", "axp288-chg-done", "axp288-charging", "axp288-safe-quit",
		"axp288-safe-enter", "axp288-qcbtu", "axp288-cbtu", "axp288-qcbto", "axp288-cbto",
	};
	/* the interrupt bits of the AXP288's IRQ registers [include/linux/mfd/axp20x.h] */
	static const int irq_bit[AXP288_NIRQ] = { 4, 10, 11, 12, 13, 20, 21, 22, 23 };
	struct axp288_machine *a = lb->priv;
	struct axp288_env env = {
		.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim,
		.vbus = linux_board_vbus, .adc = linux_board_adc, .irq = axp_irq, .ctx = lb,
	};

	(void)err;
	axp288_init(&a->axp, &env, lb->env.pmic->p->vreg, lb->env.pmic->p->ichg);
	/* the PMIC on the SoC's I2C bus, its MFD core's register map and IRQ chip */
	a->i2c = (struct linux_i2c_chip){
		.addr = AXP288_I2C_ADDR, .read = axp_read, .write = axp_write, .chip = &a->axp,
	};
	linux_board_i2c_adapter(lb, 7, &a->i2c);
	lb->client = cs_i2c_client_new(lb->adap, "axp288", AXP288_I2C_ADDR, NULL, 0);
	a->map = regmap_init_i2c(lb->client, &cfg);
	for (int i = 0; i < AXP288_NIRQ; i++)
		a->virq[i] = cs_irq_alloc(irq_names[i]);
	a->irqc = cs_regmap_irq_chip_new(irq_bit, a->virq, AXP288_NIRQ);
	a->mfd_dev.init_name = "axp288";
	a->axp20x = (struct axp20x_dev){
		.dev = &a->mfd_dev, .regmap = a->map, .regmap_irqc = a->irqc, .variant = AXP288_ID,
	};
	dev_set_drvdata(&a->mfd_dev, &a->axp20x);
	/* the PMIC's charger-type detection, as extcon-axp288.c registers it */
	a->extcon_pdev.init_name = "axp288_extcon";
	a->edev = devm_extcon_dev_allocate(&a->extcon_pdev, axp_cables);
	if (IS_ERR(a->edev) || devm_extcon_dev_register(&a->extcon_pdev, a->edev))
		return false;
	/* the MFD cell: the charger's platform device with its interrupt bits */
	linux_board_add_pdev(lb, cs_platform_device_new("axp288_charger", NULL, &a->mfd_dev,
							irq_bit, AXP288_NIRQ));
	return true;
}

static void axp288_settled(struct linux_board *lb)
{
	struct axp288_machine *a = lb->priv;

	axp_extcon_sync(lb);
	axp288_update(&a->axp);
}

static void axp288_teardown(struct linux_board *lb)
{
	struct axp288_machine *a = lb->priv;

	regmap_exit(a->map);
	cs_regmap_irq_chip_free(a->irqc);
	devres_release_all(&a->extcon_pdev);
}

/* The firmware's ACPI PMIC device (HID INT33F4, _UID 1, as on Cherry Trail tablets):
 * the native AXP288 drivers are the ones to use (acpi_quirk_skip_acpi_ac_and_battery). */
static const struct cs_acpi_device axp288_acpi[] = {
	{ .hid = "INT33F4", .uid = "1", .hrv = -1 },
	{ NULL, NULL, 0 },
};

const struct linux_machine linux_machine_axp288_charger = {
	.driver = "axp288_charger",
	.board = "X-Powers AXP288 PMIC charger (Intel Bay/Cherry Trail tablets)",
	.presets = NULL,   /* the AXP288 has no preset: the charger model's numbers */
	.acpi = axp288_acpi,
	.state_size = sizeof(struct axp288_machine),
	.setup = axp288_setup,
	.settled = axp288_settled,
	.teardown = axp288_teardown,
};
