/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/boot.h - the boot-gating hook (task 5 of the article).
 *
 * The article's answer to a questionable supply at boot is not Linux but the
 * bootloader: negotiate the current, then stay in a low-power state charging until the
 * battery can carry the whole boot. Here the bootloader asks a gate, at the end of its
 * stage and then periodically, whether it may go on; a policy installs that gate.
 * cs_boot_gate_vbat() installs the simplest useful one: boot once the battery
 * voltage reaches a threshold.
 */
#ifndef CS_CHARGESIM_BOOT_H
#define CS_CHARGESIM_BOOT_H

#include <stdbool.h>

struct cs_board;
typedef bool (*cs_boot_gate_fn)(void *ctx);

struct cs_boot {
	void (*set_gate)(void *hw, cs_boot_gate_fn fn, void *ctx);
	const char *(*state)(void *hw);      /* "off", "bootloader", ..., "running" */
	void *hw;
};

void cs_boot_set_gate(struct cs_boot *b, cs_boot_gate_fn fn, void *ctx);
const char *cs_boot_state(struct cs_boot *b);
/* Gate the boot on the battery voltage (uV, read from the battery power supply). */
void cs_boot_gate_vbat(struct cs_board *board, int uv);

#endif
