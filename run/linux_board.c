// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux_board.c - the simulated boards real Linux drivers run on (see
 * linux_board.h): one const descriptor per driver, naming the charger presets its
 * chip fits, how to build the device tree and wire the chip model, and how the chip
 * follows the world.
 */
#include <math.h>
#include <string.h>
#include <linux/extcon.h>
#include <linux/gpio/consumer.h>
#include <linux/mfd/axp20x.h>
#include <linux/i2c.h>
#include <linux/iio/consumer.h>
#include <linux/interrupt.h>
#include <linux/mfd/twl.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <chargesim/charger_ic.h>
#include <chargesim/kernel.h>
#include "models/axp288/axp288.h"
#include "models/bq2407x/bq2407x.h"
#include "models/bq25890/bq25890.h"
#include "models/twl4030_bci/twl4030_bci.h"
#include "run/linux_board.h"
#include "run/world.h"

struct linux_board;

struct linux_machine {
	const char *driver;          /* the driver file, without .c */
	const char *board;           /* what board this is, for messages and docs */
	const char *preset;          /* the charger preset the chip is (NULL: any) */
	bool (*setup)(struct linux_board *lb, GError **err);
	void (*settled)(struct linux_board *lb);
	void (*teardown)(struct linux_board *lb);
};

struct linux_board {
	const struct linux_machine *m;
	struct linux_board_env env;
	struct device_node *root;
	struct platform_device *pdev;
	struct i2c_adapter *adap;
	struct i2c_client *client;
	/* axp288 */
	struct axp288 axp;
	struct axp20x_dev axp20x;
	struct device mfd_dev;
	struct regmap *axp_map;
	struct regmap_irq_chip_data *axp_irqc;
	int axp_virq[AXP288_NIRQ];
	struct extcon_dev axp_edev;
	/* bq2407x behind gpio-charger */
	struct bq2407x pins;
	struct cs_gpio_chip gpio;
	int irq_line[BQ2407X_NLINES];
	/* bq25890 */
	struct bq25890 bq;
	int irq_int;
	/* twl4030 */
	struct twl4030_bci bci;
	struct cs_twl_provider twl;
	int irq_chg, irq_bci;
	bool phy_added;
};

/* ---- shared helpers ---- */

static double lb_adc(void *ctx, enum pmic_adc_chan ch)
{
	struct linux_board *lb = ctx;
	int v = 0;

	/* the charger model's ADC on the world's operating point (re-solved first) */
	cs_chg_read_adc(lb->env.board->ic, (enum cs_adc_channel)ch, &v);
	return v * 1e-6;
}

static bool lb_vbus(void *ctx)
{
	struct linux_board *lb = ctx;

	return lb->env.drv->attached;
}

static u32 micro(double x)
{
	return (u32)lround(x * 1e6);
}

/* The board's USB PHY as the driver looks it up: a USB2 PHY with node np. */
static void add_phy(struct linux_board *lb, struct device_node *np)
{
	struct usb_phy *phy = lb->env.board->phy;

	phy->type = USB_PHY_TYPE_USB2;
	if (phy->dev)
		phy->dev->of_node = np;
	usb_add_phy_dev(phy);
	lb->phy_added = true;
}

/* ---- TWL4030 BCI (twl4030_charger.c) ---- */

/* twl_i2c_* module ids to the BCI model's register blocks [include/linux/mfd/twl.h] */
static int twl_block(u8 mod_no)
{
	switch (mod_no) {
	case TWL_MODULE_MAIN_CHARGE: return TWL4030_BLOCK_MAIN_CHARGE;
	case TWL4030_MODULE_INTERRUPTS: return TWL4030_BLOCK_INTERRUPTS;
	case TWL_MODULE_PM_MASTER: return TWL4030_BLOCK_PM_MASTER;
	case TWL_MODULE_PM_RECEIVER: return TWL4030_BLOCK_PM_RECEIVER;
	default: return -1;
	}
}

static int twl_read(void *hw, u8 mod_no, u8 reg, u8 *val)
{
	struct linux_board *lb = hw;
	int b = twl_block(mod_no);

	if (b < 0)
		return -EIO;   /* a module this board does not model */
	return twl4030_bci_read(&lb->bci, b, reg, val);
}

static int twl_write(void *hw, u8 mod_no, u8 reg, u8 val)
{
	struct linux_board *lb = hw;
	int b = twl_block(mod_no);

	if (b < 0)
		return -EIO;
	return twl4030_bci_write(&lb->bci, b, reg, val);
}

static void twl_irq_bci(void *ctx)
{
	struct linux_board *lb = ctx;

	cs_irq_raise(lb->irq_bci);
}

/* The AC input is not modelled: the MADC's VAC channel reads 0 mV. */
static int twl_read_vac(void *hw, int *val)
{
	(void)hw;
	*val = 0;
	return 0;
}

static bool twl4030_setup(struct linux_board *lb, GError **err)
{
	struct device_node *twl, *bci, *usb;
	int irqs[2];

	(void)err;
	/* twl: twl@48 { compatible = "ti,twl4030"; bci { ... }; twl4030-usb { ... }; } */
	lb->root = cs_of_node_new(NULL, "", NULL);
	twl = cs_of_node_new(lb->root, "twl@48", "twl");
	cs_of_set_string(twl, "compatible", "ti,twl4030");
	cs_of_set_u32(twl, "reg", 0x48);
	bci = cs_of_node_new(twl, "bci", "charger");
	cs_of_set_string(bci, "compatible", "ti,twl4030-bci");
	cs_of_set_u32s(bci, "interrupts", (const u32[]){ 9, 2 }, 2);   /* CHG_PRES, BCI */
	cs_of_set_string(bci, "io-channel-names", "vac");
	usb = cs_of_node_new(twl, "twl4030-usb", "usb2_phy");
	cs_of_set_string(usb, "compatible", "ti,twl4030-usb");

	{
		struct twl4030_bci_env env = {
			.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim,
			.adc = lb_adc, .vbus = lb_vbus, .irq_bci = twl_irq_bci, .ctx = lb,
		};

		twl4030_bci_init(&lb->bci, &env);
	}
	lb->twl = (struct cs_twl_provider){ .read = twl_read, .write = twl_write, .hw = lb };
	cs_twl_set_provider(&lb->twl);
	lb->irq_chg = irqs[0] = cs_irq_alloc("twl4030-chg-pres");
	lb->irq_bci = irqs[1] = cs_irq_alloc("twl4030-bci");
	cs_iio_map_add("twl4030_bci", "vac", twl_read_vac, NULL, lb);
	add_phy(lb, usb);
	lb->pdev = cs_platform_device_new("twl4030_bci", bci, NULL, irqs, 2);
	cs_kernel()->linux_dut = &lb->pdev->dev;
	cs_platform_device_add(lb->pdev);
	return true;
}

static void twl4030_settled(struct linux_board *lb)
{
	twl4030_bci_update(&lb->bci);
}

static void twl4030_teardown(struct linux_board *lb)
{
	(void)lb;
	cs_twl_set_provider(NULL);
}

/* ---- TI bq25890 (bq25890_charger.c) ---- */

static double lb_temp_c(void *ctx)
{
	struct linux_board *lb = ctx;
	union power_supply_propval v = { .intval = 250 };

	power_supply_get_property(lb->env.board->bat_psy, POWER_SUPPLY_PROP_TEMP, &v);
	return v.intval / 10.0;
}

static enum phy_port lb_port(void *ctx)
{
	struct linux_board *lb = ctx;

	return lb->env.drv->det.port;
}

static void bq_irq(void *ctx)
{
	struct linux_board *lb = ctx;

	cs_irq_raise(lb->irq_int);
}

/* The I2C controller: register-address write, then a read or the data written. */
static int bq_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct linux_board *lb = adap->algo_data;

	for (int i = 0; i < num; i++)
		if (msgs[i].addr != BQ25890_I2C_ADDR)
			return -ENXIO;   /* no device answers at that address */
	if (num == 2 && !(msgs[0].flags & I2C_M_RD) && msgs[0].len == 1 &&
	    (msgs[1].flags & I2C_M_RD)) {
		for (u16 i = 0; i < msgs[1].len; i++)
			if (bq25890_read(&lb->bq, (u8)(msgs[0].buf[0] + i), &msgs[1].buf[i]))
				return -EIO;
		return num;
	}
	if (num == 1 && !(msgs[0].flags & I2C_M_RD) && msgs[0].len >= 1) {
		for (u16 i = 1; i < msgs[0].len; i++)
			if (bq25890_write(&lb->bq, (u8)(msgs[0].buf[0] + i - 1), msgs[0].buf[i]))
				return -EIO;
		return num;
	}
	return -EOPNOTSUPP;
}

static const struct i2c_algorithm bq_algo = { .master_xfer = bq_xfer };

static bool bq25890_setup(struct linux_board *lb, GError **err)
{
	const struct pmic_params *pp = lb->env.pmic->p;
	struct device_node *bus, *chg;
	struct bq25890_env env = {
		.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim, .adc = lb_adc,
		.temp_c = lb_temp_c, .vbus = lb_vbus, .port = lb_port, .irq = bq_irq, .ctx = lb,
	};

	(void)err;
	/* i2c0: i2c@0 { charger@6a { compatible = "ti,bq25890"; ... }; } - the charge
	 * settings are the battery's (the scenario's charger parameters), the boost ones
	 * those of the binding's example (Documentation/devicetree/bindings/power/supply/
	 * bq25890.yaml) */
	lb->root = cs_of_node_new(NULL, "", NULL);
	bus = cs_of_node_new(lb->root, "i2c@0", "i2c0");
	chg = cs_of_node_new(bus, "charger@6a", "bq25890");
	cs_of_set_string(chg, "compatible", "ti,bq25890");
	cs_of_set_u32(chg, "reg", BQ25890_I2C_ADDR);
	cs_of_set_u32(chg, "ti,battery-regulation-voltage", micro(pp->vreg));
	cs_of_set_u32(chg, "ti,charge-current", micro(pp->ichg));
	cs_of_set_u32(chg, "ti,termination-current", micro(pp->iterm));
	cs_of_set_u32(chg, "ti,precharge-current", micro(pp->ipre));
	cs_of_set_u32(chg, "ti,minimum-sys-voltage", micro(pp->vsys_min > 0 ? pp->vsys_min : 3.5));
	cs_of_set_u32(chg, "ti,boost-voltage", 5000000);
	cs_of_set_u32(chg, "ti,boost-max-current", 1000000);
	bq25890_init(&lb->bq, &env);
	lb->irq_int = cs_irq_alloc("bq25890-int");
	lb->adap = cs_i2c_adapter_new(0, &bq_algo, lb);
	add_phy(lb, NULL);
	lb->client = cs_i2c_client_new(lb->adap, "bq25890", BQ25890_I2C_ADDR, chg, lb->irq_int);
	cs_kernel()->linux_dut = &lb->client->dev;
	cs_i2c_client_add(lb->client);
	return true;
}

static void bq25890_settled(struct linux_board *lb)
{
	bq25890_update(&lb->bq);
}

/* ---- a bq2407x on GPIO lines (gpio-charger.c) ---- */

static int pins_get(void *hw, unsigned int line)
{
	struct linux_board *lb = hw;

	return bq2407x_get(&lb->pins, line);
}

static void pins_set(void *hw, unsigned int line, int value)
{
	struct linux_board *lb = hw;

	bq2407x_set(&lb->pins, line, value);
}

static int pins_to_irq(void *hw, unsigned int line)
{
	struct linux_board *lb = hw;

	return line < BQ2407X_NLINES && lb->irq_line[line] > 0 ? lb->irq_line[line] : -ENXIO;
}

static void pins_edge(void *ctx, enum bq2407x_line line)
{
	struct linux_board *lb = ctx;

	cs_irq_raise(lb->irq_line[line]);
}

static bool gpio_charger_setup(struct linux_board *lb, GError **err)
{
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
	lb->root = cs_of_node_new(NULL, "", NULL);
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
			      micro(lb->env.pmic->p->iindpm_max));
	if (cs_of_apply_dts(chg, dts, &msg)) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "gpio-charger board: %s", msg);
		g_free(msg);
		return false;
	}
	bq2407x_init(&lb->pins, &env);
	lb->irq_line[BQ2407X_PGOOD] = cs_irq_alloc("bq2407x-pgood");
	lb->irq_line[BQ2407X_CHG] = cs_irq_alloc("bq2407x-chg");
	lb->gpio = (struct cs_gpio_chip){
		.label = "bq2407x", .of_node = ctrl, .ngpio = BQ2407X_NLINES, .get = pins_get,
		.set = pins_set, .to_irq = pins_to_irq, .hw = lb,
	};
	cs_gpio_chip_add(&lb->gpio);
	lb->pdev = cs_platform_device_new("gpio-charger", chg, NULL, NULL, 0);
	cs_kernel()->linux_dut = &lb->pdev->dev;
	cs_platform_device_add(lb->pdev);
	return true;
}

static void gpio_charger_settled(struct linux_board *lb)
{
	bq2407x_update(&lb->pins);
}

static void gpio_charger_teardown(struct linux_board *lb)
{
	cs_gpio_chip_remove(&lb->gpio);
}

/* ---- X-Powers AXP288 (axp288_charger.c) ---- */

static bool axp_vbus(void *ctx)
{
	return lb_vbus(ctx);
}

static void axp_irq(void *ctx, enum axp288_chg_irq irq)
{
	struct linux_board *lb = ctx;

	cs_irq_raise(lb->axp_virq[irq]);
}

static int axp_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct linux_board *lb = adap->algo_data;

	for (int i = 0; i < num; i++)
		if (msgs[i].addr != AXP288_I2C_ADDR)
			return -ENXIO;
	if (num == 2 && !(msgs[0].flags & I2C_M_RD) && msgs[0].len == 1 &&
	    (msgs[1].flags & I2C_M_RD)) {
		for (u16 i = 0; i < msgs[1].len; i++)
			axp288_read(&lb->axp, (u8)(msgs[0].buf[0] + i), &msgs[1].buf[i]);
		return num;
	}
	if (num == 1 && !(msgs[0].flags & I2C_M_RD) && msgs[0].len >= 1) {
		for (u16 i = 1; i < msgs[0].len; i++)
			axp288_write(&lb->axp, (u8)(msgs[0].buf[0] + i - 1), msgs[0].buf[i]);
		return num;
	}
	return -EOPNOTSUPP;
}

static const struct i2c_algorithm axp_algo = { .master_xfer = axp_xfer };

/* The cables the AXP288's own BC1.2 detection reports (extcon-axp288.c's list). */
static const unsigned int axp_cables[] = {
	EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_CDP, EXTCON_CHG_USB_DCP, EXTCON_USB, EXTCON_NONE,
};

/* The PMIC's detection is the PHY model's: SDP, CDP and DCP as found; what BC1.2
 * cannot name (proprietary dividers, Type-C) is reported as no charger cable. */
static void axp_extcon_sync(struct linux_board *lb)
{
	enum phy_port port = lb->env.drv->attached ? lb->env.drv->det.port : PHY_PORT_NONE;
	unsigned int want = port == PHY_PORT_SDP ? EXTCON_CHG_USB_SDP :
			    port == PHY_PORT_CDP ? EXTCON_CHG_USB_CDP :
			    port == PHY_PORT_DCP ? EXTCON_CHG_USB_DCP : EXTCON_NONE;

	for (int i = 0; i < 3; i++)
		if (axp_cables[i] != want)
			extcon_set_state_sync(&lb->axp_edev, axp_cables[i], false);
	extcon_set_state_sync(&lb->axp_edev, EXTCON_USB,
			      port == PHY_PORT_SDP || port == PHY_PORT_CDP);
	if (want != EXTCON_NONE)
		extcon_set_state_sync(&lb->axp_edev, want, true);
}

static bool axp288_setup(struct linux_board *lb, GError **err)
{
	static const struct regmap_config cfg = {
		.reg_bits = 8, .val_bits = 8, .max_register = 0xff, .cache_type = REGCACHE_NONE,
	};
	struct axp288_env env = {
		.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim, .vbus = axp_vbus,
		.adc = lb_adc, .irq = axp_irq, .ctx = lb,
	};
	int hwirqs[AXP288_NIRQ];

	(void)err;
	axp288_init(&lb->axp, &env, lb->env.pmic->p->vreg, lb->env.pmic->p->ichg);
	/* the PMIC on the SoC's I2C bus, its MFD core's register map and IRQ chip */
	lb->adap = cs_i2c_adapter_new(7, &axp_algo, lb);
	lb->client = cs_i2c_client_new(lb->adap, "axp288", AXP288_I2C_ADDR, NULL, 0);
	lb->axp_map = regmap_init_i2c(lb->client, &cfg);
	for (int i = 0; i < AXP288_NIRQ; i++) {
		static const char *const names[AXP288_NIRQ] = {
			"axp288-vbus-ov", "axp288-chg-done", "axp288-charging", "axp288-safe-quit",
			"axp288-safe-enter", "axp288-qcbtu", "axp288-cbtu", "axp288-qcbto",
			"axp288-cbto",
		};

		/* the interrupt bits of the AXP288's IRQ registers [include/linux/mfd/axp20x.h] */
		static const int bit[AXP288_NIRQ] = { 4, 10, 11, 12, 13, 20, 21, 22, 23 };

		lb->axp_virq[i] = cs_irq_alloc(names[i]);
		hwirqs[i] = bit[i];
	}
	lb->axp_irqc = cs_regmap_irq_chip_new(hwirqs, lb->axp_virq, AXP288_NIRQ);
	lb->mfd_dev.init_name = "axp288";
	lb->axp20x = (struct axp20x_dev){
		.dev = &lb->mfd_dev, .regmap = lb->axp_map, .regmap_irqc = lb->axp_irqc,
		.variant = AXP288_ID,
	};
	dev_set_drvdata(&lb->mfd_dev, &lb->axp20x);
	/* the PMIC's charger-type detection, as extcon-axp288.c registers it */
	cs_extcon_init(&lb->axp_edev, "axp288_extcon", axp_cables);
	/* the MFD cell: the charger's platform device with its interrupt bits */
	lb->pdev = cs_platform_device_new("axp288_charger", NULL, &lb->mfd_dev, hwirqs, AXP288_NIRQ);
	cs_kernel()->linux_dut = &lb->pdev->dev;
	cs_platform_device_add(lb->pdev);
	return true;
}

static void axp288_settled(struct linux_board *lb)
{
	axp_extcon_sync(lb);
	axp288_update(&lb->axp);
}

static void axp288_teardown(struct linux_board *lb)
{
	regmap_exit(lb->axp_map);
	cs_regmap_irq_chip_free(lb->axp_irqc);
	for (struct extcon_dev **pp = &cs_kernel()->extcon_head; *pp; pp = &(*pp)->cs_next)
		if (*pp == &lb->axp_edev) {
			*pp = lb->axp_edev.cs_next;
			break;
		}
}

/* ---- the boards ---- */

static const struct linux_machine machines[] = {
	{ "twl4030_charger", "TWL4030 companion chip (OMAP3 phones: GTA04, N900)", "twl4030",
	  twl4030_setup, twl4030_settled, twl4030_teardown },
	{ "bq25890_charger", "TI bq25890 charger on I2C (address 0x6a)", "bq25890",
	  bq25890_setup, bq25890_settled, NULL },
	{ "gpio-charger", "TI bq2407x charger on GPIO lines (/PGOOD, /CHG, EN2, EN1)", NULL,
	  gpio_charger_setup, gpio_charger_settled, gpio_charger_teardown },
	{ "axp288_charger", "X-Powers AXP288 PMIC charger (Intel Bay/Cherry Trail tablets)", NULL,
	  axp288_setup, axp288_settled, axp288_teardown },
};

bool linux_board_new(struct linux_board **out, const char *policy,
		     const struct linux_board_env *env, GError **err)
{
	const struct linux_machine *m = NULL;
	struct linux_board *lb;
	const char *preset;

	*out = NULL;
	if (!policy || strncmp(policy, "linux/", 6) != 0)
		return true;
	for (size_t i = 0; i < G_N_ELEMENTS(machines); i++)
		if (strcmp(machines[i].driver, policy + 6) == 0)
			m = &machines[i];
	if (!m) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: policy \"%s\": no simulated board for this driver (docs/linux-drivers.md lists the boards)",
			    env->file, policy);
		return false;
	}
	preset = pmic_preset_names[env->pmic->p->preset];
	if (m->preset && strcmp(preset, m->preset) != 0) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: device.pmic.preset: found \"%s\", expected \"%s\" (policy \"%s\" drives the %s)",
			    env->file, preset, m->preset, policy, m->board);
		return false;
	}
	lb = g_new0(struct linux_board, 1);
	lb->m = m;
	lb->env = *env;
	if (!m->setup(lb, err)) {
		linux_board_free(lb);
		return false;
	}
	*out = lb;
	return true;
}

void linux_board_settled(struct linux_board *lb)
{
	if (lb && lb->m->settled)
		lb->m->settled(lb);
}

void linux_board_free(struct linux_board *lb)
{
	if (!lb)
		return;
	cs_kernel()->linux_dut = NULL;
	cs_platform_device_free(lb->pdev);
	cs_i2c_client_free(lb->client);
	cs_i2c_adapter_free(lb->adap);
	if (lb->m->teardown)
		lb->m->teardown(lb);
	if (lb->phy_added)
		usb_remove_phy(lb->env.board->phy);
	cs_of_free_tree(lb->root);
	g_free(lb);
}
