// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux/bq25890_charger.c - the machine Linux's bq25890_charger.c runs on: a TI
 * bq25890 (models/bq25890) on I2C bus 0 at 0x6a, its INT line an interrupt, the
 * board's PHY as the USB2 PHY.
 *
 * Device tree: i2c@0 { charger@6a { compatible = "ti,bq25890"; reg = <0x6a>; the
 * charge settings (ti,battery-regulation-voltage, ti,charge-current,
 * ti,termination-current, ti,precharge-current, ti,minimum-sys-voltage) from the
 * scenario's charger parameters; ti,boost-voltage = <5000000>; ti,boost-max-current =
 * <1000000>; }; }. The I2C client 0-006a is the device the driver binds to.
 *
 * The binding names no USB PHY; the driver takes any USB2 PHY (devm_usb_get_phy()).
 * The board's is the no-op transceiver with a VBUS line (run/phy_glue.c,
 * board_glue_nop_xceiv): usb_gpio: gpio { gpio-controller; #gpio-cells = <2>; };
 * usb-phy { compatible = "usb-nop-xceiv"; vbus-detect-gpio = <&usb_gpio 0 0>;
 * #phy-cells = <0>; } after Documentation/devicetree/bindings/usb/usb-nop-xceiv.yaml,
 * which has no "extcon": no charger framework.
 */
#include <linux/interrupt.h>
#include <chargesim/kernel.h>
#include "models/bq25890/bq25890.h"
#include "run/linux/machine.h"
#include "run/world.h"

/* ti,minimum-sys-voltage when the charger preset has none: the chip's reset value of
 * SYS_MIN, 3.5 V [SLUSC86D, REG03] */
#define BQ25890_SYS_MIN_V 3.5

struct bq25890_machine {
	struct bq25890 bq;
	struct linux_i2c_chip i2c;
	int irq_int;
};

static void bq_irq(void *ctx)
{
	struct linux_board *lb = ctx;
	struct bq25890_machine *b = lb->priv;

	cs_irq_raise(b->irq_int);
}

static int bq_read(void *chip, u8 reg, u8 *val)
{
	return bq25890_read(chip, reg, val);
}

static int bq_write(void *chip, u8 reg, u8 val)
{
	return bq25890_write(chip, reg, val);
}

static bool bq25890_setup(struct linux_board *lb, GError **err)
{
	struct bq25890_machine *b = lb->priv;
	const struct pmic_params *pp = lb->env.pmic->p;
	struct device_node *bus, *chg, *gpio, *phy;
	g_autofree char *msg = NULL;
	struct bq25890_env env = {
		.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim,
		.adc = linux_board_adc, .temp_c = linux_board_battery_temp_c,
		.vbus = linux_board_vbus, .port = linux_board_port, .irq = bq_irq, .ctx = lb,
	};

	/* the charge settings are the battery's (the scenario's charger parameters), the
	 * boost ones those of the binding's example (Documentation/devicetree/bindings/
	 * power/supply/bq25890.yaml) */
	bus = cs_of_node_new(lb->root, "i2c@0", "i2c0");
	chg = cs_of_node_new(bus, "charger@6a", "bq25890");
	cs_of_set_string(chg, "compatible", "ti,bq25890");
	cs_of_set_u32(chg, "reg", BQ25890_I2C_ADDR);
	cs_of_set_u32(chg, "ti,battery-regulation-voltage", linux_board_micro(pp->vreg));
	cs_of_set_u32(chg, "ti,charge-current", linux_board_micro(pp->ichg));
	cs_of_set_u32(chg, "ti,termination-current", linux_board_micro(pp->iterm));
	cs_of_set_u32(chg, "ti,precharge-current", linux_board_micro(pp->ipre));
	cs_of_set_u32(chg, "ti,minimum-sys-voltage",
		      linux_board_micro(pp->vsys_min > 0 ? pp->vsys_min : BQ25890_SYS_MIN_V));
	cs_of_set_u32(chg, "ti,boost-voltage", 5000000);
	cs_of_set_u32(chg, "ti,boost-max-current", 1000000);
	bq25890_init(&b->bq, &env);
	b->irq_int = cs_irq_alloc("bq25890-int");
	b->i2c = (struct linux_i2c_chip){
		.addr = BQ25890_I2C_ADDR, .read = bq_read, .write = bq_write, .chip = &b->bq,
	};
	linux_board_i2c_adapter(lb, 0, &b->i2c);
	gpio = cs_of_node_new(lb->root, "gpio", "usb_gpio");
	cs_of_set_bool(gpio, "gpio-controller");
	cs_of_set_u32(gpio, "#gpio-cells", 2);
	phy = cs_of_node_new(lb->root, "usb-phy", "usb_phy");
	cs_of_set_string(phy, "compatible", "usb-nop-xceiv");
	cs_of_set_u32(phy, "#phy-cells", 0);
	if (cs_of_apply_dts(phy, "vbus-detect-gpio = <&usb_gpio 0 0>;", &msg) < 0) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "the PHY node: %s", msg);
		return false;
	}
	linux_board_add_phy(lb, phy);
	linux_board_add_client(lb, cs_i2c_client_new(lb->adap, "bq25890", BQ25890_I2C_ADDR, chg,
						     b->irq_int));
	return true;
}

static void bq25890_settled(struct linux_board *lb)
{
	struct bq25890_machine *b = lb->priv;

	bq25890_update(&b->bq);
}

const struct linux_machine linux_machine_bq25890_charger = {
	.driver = "bq25890_charger",
	.board = "TI bq25890 charger on I2C (address 0x6a)",
	.presets = (const char *const[]){ "bq25890", NULL },
	.glue = &board_glue_nop_xceiv,   /* the binding names no PHY: the no-op transceiver */
	.state_size = sizeof(struct bq25890_machine),
	.setup = bq25890_setup,
	.settled = bq25890_settled,
};
