// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux/twl4030_charger.c - the machine Linux's twl4030_charger.c runs on: an
 * OMAP3 phone (GTA04, Nokia N900) whose TWL4030 / TPS65950 companion chip holds the
 * battery charger interface (BCI, models/twl4030_bci) and the USB PHY.
 *
 * Device tree: twl@48 { compatible = "ti,twl4030"; bci { compatible =
 * "ti,twl4030-bci"; interrupts = <9>, <2>; io-channel-names = "vac"; }; usb2_phy:
 * twl4030-usb { compatible = "ti,twl4030-usb"; interrupts = <10>, <4>; usb_mode = <1>;
 * #phy-cells = <0>; }; }, as arch/arm/boot/dts/ti/omap/twl4030.dtsi has them (the
 * PHY's node with no "extcon"), and the musb controller that is the PHY's glue,
 * usb_otg_hs: usb@0 { compatible = "ti,omap3-musb"; usb-phy = <&usb2_phy>; phys =
 * <&usb2_phy>; phy-names = "usb2-phy"; interface-type = <0>; mode = <3>; power =
 * <50>; } (omap3.dtsi, with the GTA04's settings of omap3-gta04.dtsi). The platform
 * device twl4030_bci has two
 * interrupts (CHG_PRES, BCI); twl_i2c_read_u8()/twl_i2c_write_u8() reach the BCI
 * model's register blocks; the board's PHY is registered with the twl4030-usb node,
 * so devm_usb_get_phy_by_node() finds it; the MADC's "vac" channel reads 0 V.
 *
 * The PHY's glue is the OMAP3 one (run/phy_glue.c, board_glue_omap2430): the musb
 * OMAP glue tells the notifier USB_EVENT_VBUS and USB_EVENT_NONE with NULL data and
 * never USB_EVENT_CHARGER, and the twl4030-usb node has no "extcon" (twl4030.dtsi),
 * so no USB charger framework attaches. The driver's notifier resets its target to
 * 500 mA on every event (twl4030_bci_usb_ncb()); on this board that is each plug
 * only, so a limit user space raises after VBUS stays raised.
 */
#include <linux/interrupt.h>
#include <linux/iio/consumer.h>
#include <linux/mfd/twl.h>
#include <chargesim/kernel.h>
#include "models/twl4030_bci/twl4030_bci.h"
#include "run/linux/machine.h"
#include "run/world.h"

struct twl4030_machine {
	struct twl4030_bci bci;
	struct cs_twl_provider twl;
	int irq_bci;
};

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
	struct twl4030_machine *t = hw;
	int b = twl_block(mod_no);

	if (b < 0)
		return -EIO;   /* a module this board does not model */
	return twl4030_bci_read(&t->bci, b, reg, val);
}

static int twl_write(void *hw, u8 mod_no, u8 reg, u8 val)
{
	struct twl4030_machine *t = hw;
	int b = twl_block(mod_no);

	if (b < 0)
		return -EIO;
	return twl4030_bci_write(&t->bci, b, reg, val);
}

static void twl_irq_bci(void *ctx)
{
	struct linux_board *lb = ctx;
	struct twl4030_machine *t = lb->priv;

	cs_irq_raise(t->irq_bci);
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
	struct twl4030_machine *t = lb->priv;
	struct device_node *twl, *bci, *usb, *musb;
	struct twl4030_bci_env env = {
		.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim,
		.adc = linux_board_adc, .vbus = linux_board_vbus, .irq_bci = twl_irq_bci, .ctx = lb,
	};
	g_autofree char *msg = NULL;
	int irqs[2];

	twl = cs_of_node_new(lb->root, "twl@48", "twl");
	cs_of_set_string(twl, "compatible", "ti,twl4030");
	cs_of_set_u32(twl, "reg", 0x48);
	bci = cs_of_node_new(twl, "bci", "charger");
	cs_of_set_string(bci, "compatible", "ti,twl4030-bci");
	cs_of_set_u32s(bci, "interrupts", (const u32[]){ 9, 2 }, 2);   /* CHG_PRES, BCI */
	cs_of_set_string(bci, "io-channel-names", "vac");
	usb = cs_of_node_new(twl, "twl4030-usb", "usb2_phy");
	cs_of_set_string(usb, "compatible", "ti,twl4030-usb");
	cs_of_set_u32s(usb, "interrupts", (const u32[]){ 10, 4 }, 2);   /* OTG (ID, VBUS), USB */
	cs_of_set_u32(usb, "usb_mode", 1);                                /* ULPI */
	cs_of_set_u32(usb, "#phy-cells", 0);
	musb = cs_of_node_new(lb->root, "usb@0", "usb_otg_hs");
	cs_of_set_string(musb, "compatible", "ti,omap3-musb");
	if (cs_of_apply_dts(musb, "usb-phy = <&usb2_phy>; phys = <&usb2_phy>; phy-names = \"usb2-phy\";"
			    " interface-type = <0>; mode = <3>; power = <50>;", &msg) < 0) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "the musb node: %s", msg);
		return false;
	}

	twl4030_bci_init(&t->bci, &env);
	t->twl = (struct cs_twl_provider){ .read = twl_read, .write = twl_write, .hw = t };
	cs_twl_set_provider(&t->twl);
	irqs[0] = cs_irq_alloc("twl4030-chg-pres");
	t->irq_bci = irqs[1] = cs_irq_alloc("twl4030-bci");
	cs_iio_map_add("twl4030_bci", "vac", twl_read_vac, NULL, lb);
	linux_board_add_phy(lb, usb);
	linux_board_add_pdev(lb, cs_platform_device_new("twl4030_bci", bci, NULL, irqs, 2));
	return true;
}

static void twl4030_settled(struct linux_board *lb)
{
	struct twl4030_machine *t = lb->priv;

	twl4030_bci_update(&t->bci);
}

static void twl4030_teardown(struct linux_board *lb)
{
	(void)lb;
	cs_twl_set_provider(NULL);
}

const struct linux_machine linux_machine_twl4030_charger = {
	.driver = "twl4030_charger",
	.board = "TWL4030 companion chip (OMAP3 phones: GTA04, N900)",
	.presets = (const char *const[]){ "twl4030", NULL },
	.glue = &board_glue_omap2430,    /* VBUS / NONE with NULL, no charger event */
	.state_size = sizeof(struct twl4030_machine),
	.setup = twl4030_setup,
	.settled = twl4030_settled,
	.teardown = twl4030_teardown,
};
