// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/linux_board.c - the board core for real Linux drivers (linux_board.h): finds the
 * machine of a policy "linux/<driver>" (run/linux/machines.c), checks the charger
 * preset, owns the device tree's root and the common devices, and hands everything
 * chip-specific to the machine's descriptor (run/linux/machine.h). It names no chip.
 */
#include <math.h>
#include <string.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <chargesim/charger_ic.h>
#include <chargesim/kernel.h>
#include "run/linux/machine.h"
#include "run/linux_board.h"
#include "run/world.h"

/* ---- what the world says ---- */

double linux_board_adc(void *ctx, enum pmic_adc_chan ch)
{
	struct linux_board *lb = ctx;
	int v = 0;

	/* the charger model's ADC on the world's operating point (re-solved first) */
	cs_chg_read_adc(lb->env.board->ic, (enum cs_adc_channel)ch, &v);
	return v * 1e-6;
}

double linux_board_vbus_now(void *ctx)
{
	struct linux_board *lb = ctx;
	struct board_readings r = { 0 };

	/* a chip's own comparator, not its battery monitor: the operating point now */
	lb->env.drv->read(lb->env.drv->read_ctx, &r);
	return r.vbus_uv * 1e-6;
}

bool linux_board_vbus(void *ctx)
{
	struct linux_board *lb = ctx;

	return lb->env.drv->attached;
}

enum phy_port linux_board_port(void *ctx)
{
	struct linux_board *lb = ctx;

	return lb->env.drv->det.port;
}

double linux_board_battery_temp_c(void *ctx)
{
	struct linux_board *lb = ctx;
	union power_supply_propval v = { .intval = 250 };

	power_supply_get_property(lb->env.board->bat_psy, POWER_SUPPLY_PROP_TEMP, &v);
	return v.intval / 10.0;
}

u32 linux_board_micro(double x)
{
	return (u32)lround(x * 1e6);
}

/* ---- the common devices ---- */

void linux_board_add_phy(struct linux_board *lb, struct device_node *np)
{
	struct usb_phy *phy = lb->env.board->phy;

	phy->type = USB_PHY_TYPE_USB2;
	if (phy->dev)
		phy->dev->of_node = np;
	usb_add_phy_dev(phy);
	lb->phy_added = true;
}

/* The controller's transfers: a register-address write, then a read or the data. */
static int chip_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	const struct linux_i2c_chip *c = adap->algo_data;

	for (int i = 0; i < num; i++)
		if (msgs[i].addr != c->addr)
			return -ENXIO;   /* no device answers at that address */
	if (num == 2 && !(msgs[0].flags & I2C_M_RD) && msgs[0].len == 1 &&
	    (msgs[1].flags & I2C_M_RD)) {
		for (u16 i = 0; i < msgs[1].len; i++)
			if (c->read(c->chip, (u8)(msgs[0].buf[0] + i), &msgs[1].buf[i]))
				return -EIO;
		return num;
	}
	if (num == 1 && !(msgs[0].flags & I2C_M_RD) && msgs[0].len >= 1) {
		for (u16 i = 1; i < msgs[0].len; i++)
			if (c->write(c->chip, (u8)(msgs[0].buf[0] + i - 1), msgs[0].buf[i]))
				return -EIO;
		return num;
	}
	return -EOPNOTSUPP;
}

static const struct i2c_algorithm chip_algo = { .master_xfer = chip_xfer };

struct i2c_adapter *linux_board_i2c_adapter(struct linux_board *lb, int nr,
					    const struct linux_i2c_chip *chip)
{
	g_assert(!lb->adap);   /* one bus per board: the core frees one */
	lb->adap = cs_i2c_adapter_new(nr, &chip_algo, (void *)chip);
	return lb->adap;
}

void linux_board_add_pdev(struct linux_board *lb, struct platform_device *pdev)
{
	g_assert(!lb->pdev);
	lb->pdev = pdev;
	cs_kernel()->linux_dut = &pdev->dev;
	cs_platform_device_add(pdev);
}

void linux_board_add_client(struct linux_board *lb, struct i2c_client *client)
{
	g_assert(!lb->client);
	lb->client = client;
	cs_kernel()->linux_dut = &client->dev;
	cs_i2c_client_add(client);
}

/* ---- finding the machine, the board's life ---- */

/* The machine of "<driver>" or of "<driver>@edited", a second build of its file
 * (KERNEL_EDITED, docs/linux-drivers.md section 2), which runs on the same board. */
static const struct linux_machine *machine_of(const char *driver)
{
	size_t n = strcspn(driver, "@");

	for (int i = 0; linux_machines[i]; i++)
		if (strlen(linux_machines[i]->driver) == n &&
		    strncmp(linux_machines[i]->driver, driver, n) == 0)
			return linux_machines[i];
	return NULL;
}

static bool preset_fits(const struct linux_machine *m, const char *preset)
{
	if (!m->presets)
		return true;
	for (int i = 0; m->presets[i]; i++)
		if (strcmp(m->presets[i], preset) == 0)
			return true;
	return false;
}

/* "twl4030", or "a", "b" or "c" */
static char *presets_text(const struct linux_machine *m)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; m->presets[i]; i++)
		g_string_append_printf(s, "%s\"%s\"", i == 0 ? "" : m->presets[i + 1] ? ", " : " or ",
				       m->presets[i]);
	return g_string_free(s, FALSE);
}

static char *machines_text(void)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; linux_machines[i]; i++)
		g_string_append_printf(s, "\n  linux/%s - %s", linux_machines[i]->driver,
				       linux_machines[i]->board);
	return g_string_free(s, FALSE);
}

const struct board_phy_glue *linux_board_glue(const char *policy)
{
	const struct linux_machine *m;

	if (!policy || strncmp(policy, "linux/", 6) != 0)
		return NULL;
	m = machine_of(policy + 6);
	return m ? m->glue : NULL;
}

bool linux_board_fits(const char *policy, const char *preset)
{
	const struct linux_machine *m;

	if (!policy || strncmp(policy, "linux/", 6) != 0)
		return true;
	m = machine_of(policy + 6);
	return m && preset_fits(m, preset);
}

bool linux_board_new(struct linux_board **out, const char *policy,
		     const struct linux_board_env *env, GError **err)
{
	const struct linux_machine *m;
	struct linux_board *lb;
	const char *preset;

	*out = NULL;
	if (!policy || strncmp(policy, "linux/", 6) != 0)
		return true;
	m = machine_of(policy + 6);
	if (!m) {
		g_autofree char *all = machines_text();

		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: policy \"%s\": no simulated board for this driver; the boards are:%s\n"
			    "(docs/linux-drivers.md, section 8, says how to add one)",
			    env->file, policy, all);
		return false;
	}
	preset = pmic_preset_names[env->pmic->p->preset];
	if (!preset_fits(m, preset)) {
		g_autofree char *want = presets_text(m);

		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: device.pmic.preset: found \"%s\", expected %s (policy \"%s\" drives the %s)",
			    env->file, preset, want, policy, m->board);
		return false;
	}
	lb = g_new0(struct linux_board, 1);
	lb->m = m;
	lb->env = *env;
	lb->priv = m->state_size ? g_malloc0(m->state_size) : NULL;
	lb->root = cs_of_node_new(NULL, "", NULL);
	cs_kernel()->acpi_devices = m->acpi;
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
	cs_kernel()->acpi_devices = NULL;
	cs_platform_device_free(lb->pdev);
	cs_i2c_client_free(lb->client);
	cs_i2c_adapter_free(lb->adap);
	if (lb->m->teardown)
		lb->m->teardown(lb);
	if (lb->phy_added)
		usb_remove_phy(lb->env.board->phy);
	cs_of_free_tree(lb->root);
	g_free(lb->priv);
	g_free(lb);
}
