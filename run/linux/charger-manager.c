// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux/charger-manager.c - the machine Linux's charger-manager.c runs on: a
 * phone whose PMIC exposes its charger as a regulator, shaped after the Samsung
 * Exynos4412 "midas" boards (arch/arm/boot/dts/samsung/exynos4412-midas.dtsi), where
 * the MAX77693's CHARGER regulator switches the charger on and off and sets its input
 * current limit (drivers/regulator/max77693-regulator.c: enable = CHG_CNFG_00's CHG
 * and BUCK bits, current limit = CHG_CNFG_09's CHGIN_ILIM).
 *
 * Here the regulator is the run's charger model (device.pmic, any preset) reached
 * through the charger-IC calls the ports use: enable and disable are
 * cs_chg_set_charge_enable(), the current limit cs_chg_set_input_current_limit(), so
 * the port `fixed` (stack/policies/fixed.c, "charger-manager style") and the real
 * driver can be compared on one board. As in the MAX77693's driver, a current limit
 * takes the lowest value the charger's register can hold at or above min_uA, and
 * fails with -EINVAL when that is above max_uA.
 *
 * Device tree: charger_reg: CHARGER { regulator-name = "CHARGER";
 * regulator-min/max-microamp = the charger model's input-limit range; }, and the
 * charger-manager node after the binding's example
 * (Documentation/devicetree/bindings/power/supply/charger-manager.yaml):
 * chg-reg-supply = <&charger_reg>; cm-name = "cm-battery"; cm-poll-mode = <1>
 * (always); cm-poll-interval = <30000>; cm-fullbatt-vchkdrop-volt = <150000>;
 * cm-fullbatt-soc = <100>; cm-battery-stat = <2> (the fuel gauge says whether a
 * battery is present); cm-chargers = the board's USB supply; cm-fuel-gauge = the
 * board's battery supply; and one regulator child "chg-reg" with a cable child per
 * charger type the board's extcon device reports (the `fixed` port's table: SDP
 * 500 mA, DCP, CDP and ACA 1.5 A, FAST-CHARGER 2 A, SLOW-CHARGER 500 mA, each as
 * [max - 25 mA, max] as in the binding's example). The platform device
 * charger-manager is the device the driver binds to; the extcon device, the supplies
 * and the PHY are the board's (run/board.c).
 */
#include <math.h>
#include <linux/extcon.h>
#include <linux/power_supply.h>
#include <linux/regulator/driver.h>
#include <chargesim/charger_ic.h>
#include <chargesim/kernel.h>
#include "run/linux/machine.h"
#include "run/world.h"

/* A cable's window below its limit, as the binding's example sets it (475-500 mA). */
#define CM_CABLE_WINDOW_UA 25000

struct cm_machine {
	struct linux_board *lb;
	struct cs_regulator reg;
};

/* The cables charger-manager is told about: its names (extcon_mapping[] of
 * charger-manager.c) and the `fixed` port's default limits [stack/policies/fixed.c]. */
static const struct {
	const char *name;
	int max_ua;
} cm_cables[] = {
	{ "SDP", 500000 }, { "DCP", 1500000 }, { "CDP", 1500000 }, { "ACA", 1500000 },
	{ "FAST-CHARGER", 2000000 }, { "SLOW-CHARGER", 500000 },
};

static int chg_enable(void *hw)
{
	struct cm_machine *cm = hw;

	return cs_chg_set_charge_enable(cm->lb->env.board->ic, true);
}

static int chg_disable(void *hw)
{
	struct cm_machine *cm = hw;

	return cs_chg_set_charge_enable(cm->lb->env.board->ic, false);
}

static int chg_is_enabled(void *hw)
{
	struct cm_machine *cm = hw;

	return cm->lb->env.pmic->charge_enabled;
}

/* The lowest input limit the charger's register holds at or above `amps` (INFINITY
 * when even its highest is below). */
static double lowest_at_least(const struct pmic_params *p, double amps)
{
	double q = pmic_quantize_iindpm(p, amps);

	if (q >= amps - 1e-9)
		return q;
	if (p->ladder_n > 0) {
		double best = INFINITY;

		for (int i = 0; i < p->ladder_n; i++)
			if (p->ladder[i] >= amps - 1e-9 && p->ladder[i] < best)
				best = p->ladder[i];
		return best;
	}
	if (p->iindpm_step > 0) {
		q = pmic_quantize_iindpm(p, q + p->iindpm_step);
		return q >= amps - 1e-9 ? q : INFINITY;
	}
	return amps < p->iindpm_max ? amps : INFINITY;
}

static int chg_set_current_limit(void *hw, int min_ua, int max_ua)
{
	struct cm_machine *cm = hw;
	double a = lowest_at_least(cm->lb->env.pmic->p, min_ua * 1e-6);

	if (!(a <= max_ua * 1e-6 + 1e-9))
		return -EINVAL;
	cs_chg_set_input_current_limit(cm->lb->env.board->ic, (int)lround(a * 1e6));
	return 0;
}

static int chg_get_current_limit(void *hw)
{
	struct cm_machine *cm = hw;

	return cs_chg_get_input_current_limit(cm->lb->env.board->ic);
}

static const struct cs_regulator_ops chg_ops = {
	.enable = chg_enable,
	.disable = chg_disable,
	.is_enabled = chg_is_enabled,
	.set_current_limit = chg_set_current_limit,
	.get_current_limit = chg_get_current_limit,
};

static bool cm_setup(struct linux_board *lb, GError **err)
{
	struct cm_machine *cm = lb->priv;
	const struct pmic_params *pp = lb->env.pmic->p;
	const struct cs_board *b = lb->env.board;
	struct device_node *pmic, *regs, *rnode, *node, *chg;
	const char *edev = extcon_get_edev_name(b->edev);
	char *msg = NULL;
	int ret;

	cm->lb = lb;
	/* the PMIC's regulators: its CHARGER one */
	pmic = cs_of_node_new(lb->root, "pmic@66", "pmic");
	cs_of_set_string(pmic, "compatible", "chargesim,charger-pmic");
	regs = cs_of_node_new(pmic, "regulators", NULL);
	rnode = cs_of_node_new(regs, "CHARGER", "charger_reg");
	cs_of_set_string(rnode, "regulator-name", "CHARGER");
	cs_of_set_u32(rnode, "regulator-min-microamp", linux_board_micro(pp->iindpm_min));
	cs_of_set_u32(rnode, "regulator-max-microamp", linux_board_micro(pp->iindpm_max));
	cm->reg = (struct cs_regulator){ .of_node = rnode, .ops = &chg_ops, .hw = cm };
	ret = cs_regulator_register(&cm->reg);
	if (ret) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL,
			    "charger-manager board: the CHARGER regulator: %s", cs_errname(ret));
		return false;
	}

	node = cs_of_node_new(lb->root, "charger-manager", "charger_manager");
	{
		g_autofree char *dts = g_strdup_printf(
			"compatible = \"charger-manager\"; chg-reg-supply = <&charger_reg>;"
			"cm-name = \"cm-battery\"; cm-poll-mode = <1>; cm-poll-interval = <30000>;"
			"cm-fullbatt-vchkdrop-volt = <150000>; cm-fullbatt-soc = <100>;"
			"cm-battery-stat = <2>; cm-chargers = \"%s\"; cm-fuel-gauge = \"%s\";",
			b->usb_psy->desc->name, b->bat_psy->desc->name);

		if (cs_of_apply_dts(node, dts, &msg))
			goto bad_dts;
	}
	chg = cs_of_node_new(node, "regulator-0", NULL);
	cs_of_set_string(chg, "cm-regulator-name", "chg-reg");
	for (size_t i = 0; i < G_N_ELEMENTS(cm_cables); i++) {
		g_autofree char *name = g_strdup_printf("cable-%zu", i);
		g_autofree char *dts = g_strdup_printf(
			"cm-cable-name = \"%s\"; cm-cable-extcon = \"%s\";"
			"cm-cable-min = <%d>; cm-cable-max = <%d>;", cm_cables[i].name, edev,
			cm_cables[i].max_ua - CM_CABLE_WINDOW_UA, cm_cables[i].max_ua);

		if (cs_of_apply_dts(cs_of_node_new(chg, name, NULL), dts, &msg))
			goto bad_dts;
	}
	linux_board_add_pdev(lb, cs_platform_device_new("charger-manager", node, NULL, NULL, 0));
	return true;

bad_dts:
	g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "charger-manager board: %s", msg);
	g_free(msg);
	return false;
}

static void cm_teardown(struct linux_board *lb)
{
	struct cm_machine *cm = lb->priv;

	cs_regulator_unregister(&cm->reg);
}

const struct linux_machine linux_machine_charger_manager = {
	.driver = "charger-manager",
	.board = "a PMIC's CHARGER regulator under charger-manager (Exynos4412 'midas' style)",
	.presets = NULL,   /* any charger: the regulator is the charger model */
	.glue = &board_glue_no_usb_phy,   /* cables through extcon only */
	.state_size = sizeof(struct cm_machine),
	.setup = cm_setup,
	.teardown = cm_teardown,
};
