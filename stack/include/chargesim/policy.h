/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/policy.h - a charger policy: the code under test.
 *
 * A policy is a charger driver's decision logic. It is probed once at the start of a
 * run with the board (the PHY, the extcon device, the charger IC, the USB charger
 * framework, ...) and from then on reacts only through what a kernel driver has:
 * notifier callbacks, work items, ADC reads and register writes. It must not reach
 * into the simulator. Its parameters are described by a table (sim/param.h) so that
 * scenarios set them under "policy": {"params": {...}} and `chargesim list policies`
 * documents them.
 *
 * Built-in policies are listed in stack/policies/registry.c. Out-of-tree policies are
 * shared objects exporting `const struct cs_policy_desc chargesim_policy`, built
 * against the installed headers (pkg-config --cflags chargesim); abi must equal
 * CS_POLICY_ABI, and a plugin built for another ABI is refused before any of its
 * functions is called.
 *
 * ABI 3: the callbacks that have no instance yet (params_default, probe) receive the
 * descriptor they were found through, so one function can serve several descriptors
 * (stack/linux/policy.c: one per real driver); the others receive the instance probe
 * made.
 */
#ifndef CS_CHARGESIM_POLICY_H
#define CS_CHARGESIM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include "sim/param.h"

#define CS_POLICY_ABI 3
#define CS_POLICY_SYMBOL "chargesim_policy"

struct usb_phy;
struct extcon_dev;
struct cs_charger_ic;
struct usb_charger;
struct power_supply;
struct usb_gadget;
struct cs_boot;

/* Everything a policy may touch, as a driver would find it at probe time. */
struct cs_board {
	const char *name;
	struct usb_phy *phy;             /* the USB PHY (usb_register_notifier) */
	struct extcon_dev *edev;         /* the PHY's extcon device (cable states) */
	struct cs_charger_ic *ic;        /* the charger IC */
	struct usb_charger *uchger;      /* the USB charger framework instance */
	struct power_supply *usb_psy;    /* the USB power supply the board registered */
	struct power_supply *bat_psy;    /* the battery's fuel gauge */
	struct usb_gadget *gadget;
	struct cs_boot *boot;            /* the boot sequencer (boot-gating hook) */
};

struct cs_policy_desc {
	unsigned abi;                    /* CS_POLICY_ABI */
	const char *name;
	const char *summary;             /* one line for `chargesim list policies` */
	const struct param_desc *params; /* NULL-key-terminated; may be NULL */
	size_t params_size;              /* size of the parameter struct */
	/* Fill the parameter struct (zeroed, params_size bytes) with the defaults. */
	void (*params_default)(const struct cs_policy_desc *desc, void *params);
	/* Register notifiers, initialise work items; *priv is the instance the other
	 * callbacks get. 0 or a negative errno. desc is the descriptor this is. */
	int (*probe)(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		     void **priv);
	void (*remove)(void *priv);
	/* Optional: a `set` event changed policy.params.* mid-run. */
	void (*params_changed)(void *priv);
};

/* The descriptor of a policy whose parts are named PFX_param_desc, struct PFX_params,
 * PFX_params_default, PFX_probe and PFX_remove. */
#define CS_POLICY_DESC(pfx, name_, summary_) {						\
	.abi = CS_POLICY_ABI, .name = (name_), .summary = (summary_),			\
	.params = pfx##_param_desc, .params_size = sizeof(struct pfx##_params),		\
	.params_default = pfx##_params_default, .probe = pfx##_probe, .remove = pfx##_remove, \
}

extern const struct cs_policy_desc *const cs_builtin_policies[];
/* Every policy this build has: the built-in ones, then the real Linux drivers
 * ("linux/<file>", stack/linux/policy.c). NULL-terminated. */
const struct cs_policy_desc *const *cs_policies(void);
const struct cs_policy_desc *cs_policy_find(const char *name);
/* Has a run in this process loaded a real Linux driver? A driver's static variables
 * then hold what that run left in them (as a kernel's would until the module is
 * reloaded): a run that must not depend on earlier ones needs a process that has not
 * (sweep workers are fresh copies of the calling process, run/sweep_runner.c). */
bool cs_linux_driver_loaded(void);

#endif
