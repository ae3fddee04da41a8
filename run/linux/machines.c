// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux/machines.c - the machines real Linux drivers run on (run/linux/machine.h),
 * one line each. A new one: its chip model under models/<chip>/, its machine file
 * run/linux/<driver>.c, its lines here, its driver in the Makefile's KDRIVERS_ALL,
 * its tests (docs/linux-drivers.md, section 8). The order does not matter: a run has
 * one machine.
 */
#include "run/linux/machine.h"

extern const struct linux_machine linux_machine_twl4030_charger;
extern const struct linux_machine linux_machine_bq25890_charger;
extern const struct linux_machine linux_machine_gpio_charger;
extern const struct linux_machine linux_machine_axp288_charger;
extern const struct linux_machine linux_machine_charger_manager;

const struct linux_machine *const linux_machines[] = {
	&linux_machine_twl4030_charger,    /* TWL4030 BCI on an OMAP3 phone */
	&linux_machine_bq25890_charger,    /* bq25890 on I2C */
	&linux_machine_gpio_charger,       /* bq2407x on GPIO lines */
	&linux_machine_axp288_charger,     /* AXP288 PMIC on a Bay/Cherry Trail tablet */
	&linux_machine_charger_manager,    /* a PMIC's CHARGER regulator */
	NULL,
};
