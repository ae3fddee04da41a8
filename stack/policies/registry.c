// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/registry.c - the built-in policies, in the order `list` shows them.
 * A new in-tree policy adds its file under stack/policies/ and one line here.
 */
#include <string.h>
#include <chargesim/policy.h>

extern const struct cs_policy_desc policy_none;
extern const struct cs_policy_desc policy_fixed;
extern const struct cs_policy_desc policy_twl4030;
extern const struct cs_policy_desc policy_axp288;
extern const struct cs_policy_desc policy_usb_charger_fw;
extern const struct cs_policy_desc policy_ec_ramp;
extern const struct cs_policy_desc policy_hw_ico;
extern const struct cs_policy_desc policy_safe_ramp;

const struct cs_policy_desc *const cs_builtin_policies[] = {
	&policy_none,
	&policy_fixed,
	&policy_twl4030,
	&policy_axp288,
	&policy_usb_charger_fw,
	&policy_ec_ramp,
	&policy_hw_ico,
	&policy_safe_ramp,
	NULL,
};

const struct cs_policy_desc *cs_policy_find(const char *name)
{
	const struct cs_policy_desc *const *all = cs_policies();

	for (int i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}
