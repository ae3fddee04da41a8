// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux/gpio-charger.c - the machine Linux's gpio-charger.c runs on: a charger
 * with no registers, a TI bq2407x (models/bq2407x), wired to the SoC by four GPIO
 * lines: /PGOOD and /CHG in (their edges are interrupts), EN2 and EN1 out.
 *
 * Device tree: chg_pins: gpio@0 { gpio-controller; #gpio-cells = <2>; }; charger {
 * compatible = "gpio-charger"; charger-type = "usb-dcp"; gpios = <&chg_pins 0 1>;
 * charge-status-gpios = <&chg_pins 1 1>; charge-current-limit-gpios = <&chg_pins 2
 * 0>, <&chg_pins 3 0>; charge-current-limit-mapping = <ILIM 0x2>, <500000 0x1>,
 * <100000 0x0>; } with ILIM the charger model's highest input limit (what the ILIM
 * resistor sets). The platform device gpio-charger is the device the driver binds to.
 */
#include <linux/interrupt.h>
#include <linux/gpio/consumer.h>
#include <chargesim/kernel.h>
#include "models/bq2407x/bq2407x.h"
#include "run/linux/machine.h"
#include "run/world.h"

struct gpio_charger_machine {
	struct bq2407x pins;
	struct cs_gpio_chip gpio;
	int irq_line[BQ2407X_NLINES];   /* 0: the line is not an interrupt */
};

static int pins_get(void *hw, unsigned int line)
{
	struct gpio_charger_machine *g = hw;

	return bq2407x_get(&g->pins, line);
}

static void pins_set(void *hw, unsigned int line, int value)
{
	struct gpio_charger_machine *g = hw;

	bq2407x_set(&g->pins, line, value);
}

static int pins_to_irq(void *hw, unsigned int line)
{
	struct gpio_charger_machine *g = hw;

	return line < BQ2407X_NLINES && g->irq_line[line] > 0 ? g->irq_line[line] : -ENXIO;
}

static void pins_edge(void *ctx, enum bq2407x_line line)
{
	struct linux_board *lb = ctx;
	struct gpio_charger_machine *g = lb->priv;

	cs_irq_raise(g->irq_line[line]);
}

static bool gpio_charger_setup(struct linux_board *lb, GError **err)
{
	struct gpio_charger_machine *g = lb->priv;
	struct device_node *ctrl, *chg;
	g_autofree char *dts = NULL;
	char *msg = NULL;
	struct bq2407x_env env = {
		.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim,
		.ilim_a = lb->env.pmic->p->iindpm_max, .edge = pins_edge, .ctx = lb,
	};

	/* The charger's status pins are active-low open-drain outputs (flag 1), its EN
	 * pins plain outputs; the mapping is the EN2/EN1 table, highest current first.
	 * The charger-type is what the board's designer wrote: a wall charger. */
	ctrl = cs_of_node_new(lb->root, "gpio@0", "chg_pins");
	cs_of_set_string(ctrl, "compatible", "chargesim,bq2407x-pins");
	cs_of_set_bool(ctrl, "gpio-controller");
	cs_of_set_u32(ctrl, "#gpio-cells", 2);
	chg = cs_of_node_new(lb->root, "charger", "charger");
	dts = g_strdup_printf("compatible = \"gpio-charger\"; charger-type = \"usb-dcp\";"
			      "gpios = <&chg_pins %d 1>; charge-status-gpios = <&chg_pins %d 1>;"
			      "charge-current-limit-gpios = <&chg_pins %d 0>, <&chg_pins %d 0>;"
			      "charge-current-limit-mapping = <%u 0x2>, <500000 0x1>, <100000 0x0>;",
			      BQ2407X_PGOOD, BQ2407X_CHG, BQ2407X_EN2, BQ2407X_EN1,
			      linux_board_micro(lb->env.pmic->p->iindpm_max));
	if (cs_of_apply_dts(chg, dts, &msg)) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "gpio-charger board: %s", msg);
		g_free(msg);
		return false;
	}
	bq2407x_init(&g->pins, &env);
	g->irq_line[BQ2407X_PGOOD] = cs_irq_alloc("bq2407x-pgood");
	g->irq_line[BQ2407X_CHG] = cs_irq_alloc("bq2407x-chg");
	g->gpio = (struct cs_gpio_chip){
		.label = "bq2407x", .of_node = ctrl, .ngpio = BQ2407X_NLINES, .get = pins_get,
		.set = pins_set, .to_irq = pins_to_irq, .hw = g,
	};
	cs_gpio_chip_add(&g->gpio);
	linux_board_add_pdev(lb, cs_platform_device_new("gpio-charger", chg, NULL, NULL, 0));
	return true;
}

static void gpio_charger_settled(struct linux_board *lb)
{
	struct gpio_charger_machine *g = lb->priv;

	bq2407x_update(&g->pins);
}

static void gpio_charger_teardown(struct linux_board *lb)
{
	struct gpio_charger_machine *g = lb->priv;

	cs_gpio_chip_remove(&g->gpio);
}

const struct linux_machine linux_machine_gpio_charger = {
	.driver = "gpio-charger",
	.board = "TI bq2407x charger on GPIO lines (/PGOOD, /CHG, EN2, EN1)",
	.presets = NULL,   /* the bq2407x has no preset: the charger model's numbers */
	.glue = &board_glue_no_usb_phy,   /* the binding's board: the charger's lines only */
	.state_size = sizeof(struct gpio_charger_machine),
	.setup = gpio_charger_setup,
	.settled = gpio_charger_settled,
	.teardown = gpio_charger_teardown,
};
