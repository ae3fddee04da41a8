// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/boot.c - the boot-gating hook and its battery-voltage gate.
 */
#include <linux/power_supply.h>
#include <chargesim/boot.h>
#include <chargesim/kernel.h>
#include <chargesim/policy.h>

void cs_boot_set_gate(struct cs_boot *b, cs_boot_gate_fn fn, void *ctx)
{
	if (b && b->set_gate)
		b->set_gate(b->hw, fn, ctx);
}

const char *cs_boot_state(struct cs_boot *b)
{
	return b && b->state ? b->state(b->hw) : "running";
}

static bool vbat_gate_cb(void *ctx)
{
	union power_supply_propval v = { 0 };
	const struct cs_kernel *k = cs_kernel();

	(void)ctx;
	if (power_supply_get_property(k->vbat_gate.board->bat_psy, POWER_SUPPLY_PROP_VOLTAGE_NOW, &v))
		return true;
	if (v.intval < k->vbat_gate.uv) {
		cs_stack_event_int("boot_gate_hold", "vbat_uV", v.intval);
		return false;
	}
	cs_stack_event_int("boot_gate_release", "vbat_uV", v.intval);
	return true;
}

void cs_boot_gate_vbat(struct cs_board *board, int uv)
{
	cs_kernel()->vbat_gate.board = board;
	cs_kernel()->vbat_gate.uv = uv;
	cs_boot_set_gate(board->boot, vbat_gate_cb, NULL);
}
