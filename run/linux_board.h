/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/linux_board.h - the hardware a real Linux driver runs on: a simulated board
 * per driver (docs/linux-drivers.md).
 *
 * For a policy "linux/<file>" the assembly builds what the driver would find on a
 * device: a device tree from the scenario, the register-level chip model the driver
 * talks to (models/twl4030_bci, models/bq25890, ...), tied to the run's charger model,
 * and the buses, interrupt lines, GPIO lines and ADC channels that connect the two,
 * plus the device the driver binds to. Each driver has a machine: a const descriptor
 * in run/linux/<driver>.c (run/linux/machine.h), listed in run/linux/machines.c; the
 * core (linux_board.c) never names a chip. Other policies get no board.
 */
#ifndef CS_RUN_LINUX_BOARD_H
#define CS_RUN_LINUX_BOARD_H

#include <glib.h>
#include <chargesim/policy.h>
#include "models/pmic/pmic.h"
#include "run/board.h"

struct linux_board;

struct linux_board_env {
	struct sim *sim;
	struct evlog *log;
	struct pmic *pmic;           /* the charger model the chip is a view of */
	struct board *drv;           /* the board's other drivers: VBUS, detection result */
	const struct phy *phy;       /* the PHY model: the data lines as a detector reads them */
	struct cs_board *board;      /* PHY, extcon, charger IC, supplies */
	const char *file;            /* the scenario, for messages */
};

/* Build the board for `policy` (a name; nothing happens unless it is linux/...).
 * *out is NULL for other policies. False with err (exit 2) when the scenario does not
 * fit the driver (e.g. a charger preset for another chip). */
bool linux_board_new(struct linux_board **out, const char *policy,
		     const struct linux_board_env *env, GError **err);
/* The PHY glue of the machine of `policy` (run/linux/machine.h), NULL when the policy
 * is not a real driver's (or names no machine): the board then uses the generic one. */
const struct board_phy_glue *linux_board_glue(const char *policy);
/* Does policy run on a device whose charger is the device.pmic preset `preset`? True
 * for every policy but a real driver, whose machine has its own chip (score leaves
 * the setups of other chargers out of a driver's figures). */
bool linux_board_fits(const char *policy, const char *preset);
/* The world has settled at this instant: chips follow the charger model's state and
 * raise their interrupts. NULL is fine. */
void linux_board_settled(struct linux_board *lb);
/* After the policy's remove(): free the devices, the tree and the chips. */
void linux_board_free(struct linux_board *lb);

#endif
