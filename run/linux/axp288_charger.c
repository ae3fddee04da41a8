// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux/axp288_charger.c - the machine Linux's axp288_charger.c runs on: an Intel
 * Cherry Trail tablet whose X-Powers AXP288 PMIC (models/axp288) sits on the SoC's
 * I2C bus 7 at 0x34.
 *
 * No device tree (an ACPI machine). The MFD parent "axp288" carries struct axp20x_dev
 * (a regmap over I2C and a regmap-irq chip mapping the AXP288's interrupts to lines);
 * two of its MFD cells are here, with the interrupts drivers/mfd/axp20x.c gives them:
 * "axp288_extcon" (VBUS fall, VBUS rise, MV change, BC1.2 done), bound by Linux's own
 * drivers/extcon/extcon-axp288.c, loaded by this machine, and "axp288_charger" (nine
 * charger interrupts), the device the driver under test binds to. The chain from VBUS
 * to the charger's input limit is the kernel's code end to end: the PMIC's BC module
 * detects the port (models/axp288), extcon-axp288 reads its result on the BC1.2
 * interrupt and sets the cable on its extcon device "axp288_extcon", axp288_charger
 * hears it and sets the limit.
 *
 * The platform around the PMIC, as Linux finds it on a Cherry Trail tablet: the CPU
 * is an Atom Airmont (x86_match_cpu), so extcon-axp288 controls the USB role switch
 * of the xHCI's dual-role mux, which Linux's intel-xhci-usb-role-switch driver
 * registers under the software node "intel-xhci-usb-sw" - this machine plays that
 * driver (it keeps the role; each change is logged as a `usb_role` stack event).
 * There is no INT3496 ACPI device (no ID-pin extcon): the role follows VBUS.
 */
#include <linux/err.h>
#include <linux/extcon.h>
#include <linux/interrupt.h>
#include <linux/mfd/axp20x.h>
#include <linux/property.h>
#include <linux/usb/role.h>
#include <asm/intel-family.h>
#include <chargesim/kernel.h>
#include <chargesim/linux_module.h>
#include "models/axp288/axp288.h"
#include "run/world.h"
#include "run/linux/machine.h"

/* drivers/extcon/extcon-axp288.c (absent from a build without the kernel's files,
 * which has no linux/axp288_charger either) */
#define EXTCON_FILE "extcon-axp288"

/* The PMIC's interrupts this machine wires, by the AXP288's numbers, in the order of
 * drivers/mfd/axp20x.c's resources: the charger cell's nine, then the extcon cell's
 * four (the charger's lines keep the numbers they had before the extcon's came). */
#define N_CHG_IRQ    9
#define N_EXTCON_IRQ 4
#define N_IRQ        (N_CHG_IRQ + N_EXTCON_IRQ)
static const struct {
	int hwirq;
	const char *name;
} axp_irqs[N_IRQ] = {
	{ AXP288_IRQ_VBUS_OV, "axp288-vbus-ov" }, { AXP288_IRQ_DONE, "axp288-chg-done" },
	{ AXP288_IRQ_CHARGING, "axp288-charging" }, { AXP288_IRQ_SAFE_QUIT, "axp288-safe-quit" },
	{ AXP288_IRQ_SAFE_ENTER, "axp288-safe-enter" }, { AXP288_IRQ_QCBTU, "axp288-qcbtu" },
	{ AXP288_IRQ_CBTU, "axp288-cbtu" }, { AXP288_IRQ_QCBTO, "axp288-qcbto" },
	{ AXP288_IRQ_CBTO, "axp288-cbto" },
	{ AXP288_IRQ_VBUS_FALL, "axp288-vbus-fall" }, { AXP288_IRQ_VBUS_RISE, "axp288-vbus-rise" },
	{ AXP288_IRQ_MV_CHNG, "axp288-mv-chng" }, { AXP288_IRQ_BC_USB_CHNG, "axp288-bc-usb-chng" },
};

/* the xHCI role switch's node, as intel-xhci-usb-role-switch.c names it */
static const struct software_node xhci_usb_sw_node = { .name = "intel-xhci-usb-sw" };

struct axp288_machine {
	struct axp288 axp;
	struct linux_i2c_chip i2c;
	struct axp20x_dev axp20x;
	struct device mfd_dev;
	struct regmap *map;
	struct regmap_irq_chip_data *irqc;
	int virq[N_IRQ];
	struct platform_device *extcon_pdev;
	bool extcon_loaded;
	bool swnode_registered;
	struct device xhci_dev;
	struct usb_role_switch *role_sw;
	enum usb_role role;
};

/* extcon-axp288's static variables exist once per process, as the charger driver's do */
static int extcon_in_use;

static void axp_irq(void *ctx, enum axp288_irq irq)
{
	struct linux_board *lb = ctx;
	struct axp288_machine *a = lb->priv;
	int virq = regmap_irq_get_virq(a->irqc, irq);

	if (virq > 0)
		cs_irq_raise(virq);
}

static int axp_read(void *chip, u8 reg, u8 *val)
{
	return axp288_read(chip, reg, val);
}

static int axp_write(void *chip, u8 reg, u8 val)
{
	return axp288_write(chip, reg, val);
}

/* ---- the xHCI's USB role switch (intel-xhci-usb-role-switch.c's part) ---- */

static int xhci_set_role(struct usb_role_switch *sw, enum usb_role role)
{
	struct axp288_machine *a = usb_role_switch_get_drvdata(sw);

	a->role = role;
	return 0;
}

static enum usb_role xhci_get_role(struct usb_role_switch *sw)
{
	struct axp288_machine *a = usb_role_switch_get_drvdata(sw);

	return a->role;
}

static void xhci_role_switch_add(struct axp288_machine *a)
{
	struct usb_role_switch_desc desc = {
		.set = xhci_set_role, .get = xhci_get_role, .allow_userspace_control = true,
		.driver_data = a,
	};

	a->swnode_registered = software_node_register(&xhci_usb_sw_node) == 0;
	desc.fwnode = software_node_fwnode(&xhci_usb_sw_node);
	a->xhci_dev.init_name = "intel_xhci_usb_sw";
	a->role = USB_ROLE_NONE;
	a->role_sw = usb_role_switch_register(&a->xhci_dev, &desc);
}

/* ---- extcon-axp288, the PMIC's cable detection ---- */

/* Its module loaded: the driver registered, bound to the extcon cell, probed. */
static bool extcon_load(struct linux_board *lb, GError **err)
{
	struct axp288_machine *a = lb->priv;
	struct cs_kernel *k = cs_kernel();
	const struct cs_linux_module *mod = cs_linux_machine_module(EXTCON_FILE);
	int ret;

	if (!mod) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: policy \"linux/axp288_charger\": this build has no drivers/extcon/extcon-axp288.c",
			    lb->env.file);
		return false;
	}
	if (!g_atomic_int_compare_and_exchange(&extcon_in_use, 0, 1)) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: policy \"linux/axp288_charger\": another run in this process has extcon-axp288 loaded, and its static variables exist once per process: run one after the other, or in processes of their own as sweeps do",
			    lb->env.file);
		return false;
	}
	a->extcon_loaded = true;
	cs_stack_event("module_init", "module", mod->modname);
	ret = mod->init();
	if (ret == 0 && k->probe_failure.drv)
		ret = k->probe_failure.err;
	if (ret == 0 && !a->extcon_pdev->dev.driver)
		ret = -ENODEV;
	if (ret) {
		g_autofree char *why = cs_probe_error_text(ret);

		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: policy \"linux/axp288_charger\": the PMIC's extcon driver (extcon-axp288.c) failed to probe: %s",
			    lb->env.file, why);
		return false;
	}
	return true;
}

static void extcon_unload(struct axp288_machine *a)
{
	const struct cs_linux_module *mod = cs_linux_machine_module(EXTCON_FILE);

	if (!a->extcon_loaded)
		return;
	for (const struct cs_modinfo *mi = cs_modinfo_first(); mi; mi = mi->next)
		if (mi->kind == CS_MODINFO_EXIT && strcmp(mi->modname, mod->modname) == 0)
			mi->exit();
	a->extcon_loaded = false;
	g_atomic_int_set(&extcon_in_use, 0);
}

/* ---- the machine ---- */

static bool axp288_setup(struct linux_board *lb, GError **err)
{
	static const struct regmap_config cfg = {
		.reg_bits = 8, .val_bits = 8, .max_register = 0xff, .cache_type = REGCACHE_NONE,
	};
	struct axp288_machine *a = lb->priv;
	struct axp288_env env = {
		.pmic = lb->env.pmic, .log = lb->env.log, .sim = lb->env.sim, .phy = lb->env.phy,
		.vbus = linux_board_vbus, .adc = linux_board_adc, .irq = axp_irq, .ctx = lb,
	};
	int hwirq[N_IRQ];

	cs_kernel()->x86_vfm = INTEL_ATOM_AIRMONT;
	axp288_init(&a->axp, &env, lb->env.pmic->p->vreg, lb->env.pmic->p->ichg);
	/* the PMIC on the SoC's I2C bus, its MFD core's register map and IRQ chip */
	a->i2c = (struct linux_i2c_chip){
		.addr = AXP288_I2C_ADDR, .read = axp_read, .write = axp_write, .chip = &a->axp,
	};
	linux_board_i2c_adapter(lb, 7, &a->i2c);
	lb->client = cs_i2c_client_new(lb->adap, "axp288", AXP288_I2C_ADDR, NULL, 0);
	a->map = regmap_init_i2c(lb->client, &cfg);
	for (int i = 0; i < N_IRQ; i++) {
		hwirq[i] = axp_irqs[i].hwirq;
		a->virq[i] = cs_irq_alloc(axp_irqs[i].name);
	}
	a->irqc = cs_regmap_irq_chip_new(hwirq, a->virq, N_IRQ);
	a->mfd_dev.init_name = "axp288";
	a->axp20x = (struct axp20x_dev){
		.dev = &a->mfd_dev, .regmap = a->map, .regmap_irqc = a->irqc, .variant = AXP288_ID,
	};
	dev_set_drvdata(&a->mfd_dev, &a->axp20x);
	xhci_role_switch_add(a);
	/* the extcon cell, its driver loaded: the cable detection is up before the charger */
	a->extcon_pdev = cs_platform_device_new("axp288_extcon", NULL, &a->mfd_dev,
						hwirq + N_CHG_IRQ, N_EXTCON_IRQ);
	cs_platform_device_add(a->extcon_pdev);
	if (!extcon_load(lb, err))
		return false;
	/* the charger cell: the device the driver under test binds to */
	linux_board_add_pdev(lb, cs_platform_device_new("axp288_charger", NULL, &a->mfd_dev,
							hwirq, N_CHG_IRQ));
	return true;
}

static void axp288_settled(struct linux_board *lb)
{
	struct axp288_machine *a = lb->priv;

	axp288_update(&a->axp);
}

static void axp288_teardown(struct linux_board *lb)
{
	struct axp288_machine *a = lb->priv;

	extcon_unload(a);
	cs_platform_device_free(a->extcon_pdev);
	usb_role_switch_unregister(a->role_sw);
	if (a->swnode_registered)
		software_node_unregister(&xhci_usb_sw_node);
	regmap_exit(a->map);
	cs_regmap_irq_chip_free(a->irqc);
	axp288_cleanup(&a->axp);
}

/* The firmware's ACPI PMIC device (HID INT33F4, _UID 1, as on Cherry Trail tablets):
 * the native AXP288 drivers are the ones to use (acpi_quirk_skip_acpi_ac_and_battery). */
static const struct cs_acpi_device axp288_acpi[] = {
	{ .hid = "INT33F4", .uid = "1", .hrv = -1 },
	{ NULL, NULL, 0 },
};

const struct linux_machine linux_machine_axp288_charger = {
	.driver = "axp288_charger",
	.board = "X-Powers AXP288 PMIC charger (Intel Cherry Trail tablet)",
	.presets = NULL,   /* the AXP288 has no preset: the charger model's numbers */
	.acpi = axp288_acpi,
	.glue = &board_glue_intel_cht,   /* the type as extcon cables, no usb_phy events */
	.state_size = sizeof(struct axp288_machine),
	.setup = axp288_setup,
	.settled = axp288_settled,
	.teardown = axp288_teardown,
};
