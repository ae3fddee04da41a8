/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack/policies/loader.h - find the policy a run names: built in, or a plugin.
 *
 * A built-in policy is looked up by name in the registry (registry.c); a plugin is a
 * shared object opened with GModule that exports `const struct cs_policy_desc
 * chargesim_policy` built for CS_POLICY_ABI. The loader then gives the policy its
 * parameter struct: the policy's defaults, overridden by the scenario's "params".
 *
 * Errors are GErrors in CS_POLICY_ERROR whose message starts with the scenario path
 * they concern ("policy: ...", "policy.plugin: ...", "policy.params...: ..."); the
 * caller puts the file name in front.
 *
 * Ownership: a struct cs_policy_handle owns the module and the parameter struct;
 * cs_policy_close() frees the parameters' strings and the struct, then closes the
 * module (after the policy's remove(), which may live in it).
 */
#ifndef CS_STACK_POLICIES_LOADER_H
#define CS_STACK_POLICIES_LOADER_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include <gmodule.h>
#include <chargesim/policy.h>

#define CS_POLICY_ERROR (cs_policy_error_quark())
GQuark cs_policy_error_quark(void);

struct cs_policy_handle {
	const struct cs_policy_desc *desc;
	GModule *module;           /* NULL for a built-in policy */
	void *params;              /* the policy's parameter struct (never NULL once loaded) */
};

/* Find the policy: the plugin at `plugin` when it is not NULL, else the built-in one
 * called `name`. */
bool cs_policy_open(struct cs_policy_handle *h, const char *name, const char *plugin,
		    GError **err);
/* Fill h->params with the policy's defaults, then the values of `params` (a JSON
 * object, or NULL for none). */
bool cs_policy_load_params(struct cs_policy_handle *h, const cJSON *params, GError **err);
void cs_policy_close(struct cs_policy_handle *h);

#endif
