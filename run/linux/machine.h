/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/linux/machine.h - what a simulated machine for a real Linux driver is, and what
 * the board core (run/linux_board.c) gives it.
 *
 * A machine is the hardware one driver file runs on. Each is one file,
 * run/linux/<driver>.c, filling one const struct linux_machine, and one line in
 * run/linux/machines.c. The core finds the machine of a policy "linux/<driver>",
 * checks the charger preset, makes the device tree's root, allocates the machine's
 * state (state_size zeroed bytes, lb->priv) and calls setup(). It calls settled()
 * after each instant the world has settled, and at the end frees the common devices
 * (the device the driver bound to, the I2C client and adapter, the PHY's
 * registration), calls teardown(), then frees the tree and the state. The core never
 * names a chip; a machine never frees what the core owns.
 *
 * A chip is a register-level model under models/<chip>/ (a view of the charger model,
 * models/pmic) that a machine owns in its state: it has no scenario parameters of its
 * own and exists only on the machine that wires it, so it is not in models/registry.c
 * (docs/architecture.md, "Adding a chip for a real driver").
 */
#ifndef CS_RUN_LINUX_MACHINE_H
#define CS_RUN_LINUX_MACHINE_H

#include <glib.h>
#include <linux/acpi.h>
#include <linux/i2c.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include "models/phy/phy.h"
#include "models/pmic/pmic.h"
#include "run/linux_board.h"

struct linux_machine {
	/* drivers/power/supply/<driver>.c, the policy "linux/<driver>" */
	const char *driver;
	/* what the machine is, one line, for messages: "TI bq25890 charger on I2C ..." */
	const char *board;
	/* the device.pmic presets its chip is, NULL-terminated; NULL: any preset (a chip
	 * with no preset of its own takes the charger model's numbers) */
	const char *const *presets;
	/* the devices of its firmware's ACPI namespace (linux/acpi.h), ending with a NULL
	 * hid; NULL: not an ACPI machine. acpi_dev_present() and the ACPI quirks answer
	 * from it. */
	const struct cs_acpi_device *acpi;
	/* Its USB PHY's glue as the real board has it (run/phy_glue.c): which usb_phy
	 * events the board sends, with what data, whether the USB charger framework
	 * attaches. The board (run/board.c) sends per it unless device.kernel.phy_glue
	 * names another. */
	const struct board_phy_glue *glue;
	/* sizeof its state (lb->priv), allocated zeroed by the core */
	size_t state_size;
	/* Build the device tree under lb->root, initialise and wire the chip, register
	 * the device the driver binds to (linux_board_add_pdev / _add_client: the driver
	 * probes then). False with err (exit 2) when the scenario does not fit; the core
	 * then calls teardown on what was set up so far. */
	bool (*setup)(struct linux_board *lb, GError **err);
	/* The world has settled at this instant: the chip follows the charger model and
	 * raises its interrupts. Optional. */
	void (*settled)(struct linux_board *lb);
	/* Undo what setup registered beyond the common devices. Optional; must cope with
	 * a setup that stopped early (the state is zeroed beyond that point). */
	void (*teardown)(struct linux_board *lb);
};

/* The machines, NULL-terminated (run/linux/machines.c). */
extern const struct linux_machine *const linux_machines[];

/* One board: the machine's state and what the core owns for it. */
struct linux_board {
	const struct linux_machine *m;
	struct linux_board_env env;
	void *priv;                          /* the machine's state */
	struct device_node *root;            /* the device tree's root (made by the core) */
	/* the common devices, freed by the core */
	struct platform_device *pdev;
	struct i2c_adapter *adap;
	struct i2c_client *client;
	bool phy_added;
};

/* ---- what the world says, as chip models' env callbacks take it (ctx: the board) ---- */

/* The charger model's ADC on the world's operating point (re-solved first), V or A. */
double linux_board_adc(void *ctx, enum pmic_adc_chan ch);
/* VBUS present at the USB input (the board's PHY driver has seen the attach). */
bool linux_board_vbus(void *ctx);
/* The detection result (BC1.2, Type-C, PD) of the PHY model. */
enum phy_port linux_board_port(void *ctx);
/* The battery's (thermistor's) temperature, degrees Celsius. */
double linux_board_battery_temp_c(void *ctx);

/* Micro-units of a value in SI units, as device-tree properties hold them. */
u32 linux_board_micro(double x);

/* ---- the common devices ---- */

/* The board's USB PHY, registered as a USB2 PHY whose device has node np (NULL: none),
 * so that devm_usb_get_phy() and devm_usb_get_phy_by_node() find it. */
void linux_board_add_phy(struct linux_board *lb, struct device_node *np);

/* One chip on an I2C bus, reached by a one-byte register address followed by data
 * bytes (a read: the address written, then a repeated-start read). */
struct linux_i2c_chip {
	u16 addr;                                    /* 7-bit */
	int (*read)(void *chip, u8 reg, u8 *val);    /* 0 or a negative errno */
	int (*write)(void *chip, u8 reg, u8 val);
	void *chip;
};

/* The bus controller lb->adap (bus number nr) with `chip` (kept by the caller) on it:
 * other addresses do not answer (-ENXIO), a failing register access is -EIO. */
struct i2c_adapter *linux_board_i2c_adapter(struct linux_board *lb, int nr,
					    const struct linux_i2c_chip *chip);

/* Register the device the driver binds to (the driver probes now); the core frees it. */
void linux_board_add_pdev(struct linux_board *lb, struct platform_device *pdev);
void linux_board_add_client(struct linux_board *lb, struct i2c_client *client);

#endif
