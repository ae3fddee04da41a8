// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/loader.c - built-in policies by name, plugins through GModule, and
 * the parameter struct a policy is probed with.
 */
#include <string.h>
#include <chargesim/linux_module.h>
#include "sim/units.h"
#include "stack/policies/loader.h"

G_DEFINE_QUARK(cs-policy-error-quark, cs_policy_error)

static bool open_plugin(struct cs_policy_handle *h, const char *plugin, GError **err)
{
	gpointer sym = NULL;

	h->module = g_module_open(plugin, G_MODULE_BIND_LOCAL);
	if (!h->module) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.plugin: cannot load \"%s\": %s", plugin, g_module_error());
		return false;
	}
	if (!g_module_symbol(h->module, CS_POLICY_SYMBOL, &sym) || !sym) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.plugin: \"%s\" has no symbol \"%s\", expected a chargesim policy plugin (see docs/policy-sdk.md)",
			    plugin, CS_POLICY_SYMBOL);
		return false;
	}
	h->desc = sym;
	if (h->desc->abi != CS_POLICY_ABI) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.plugin: \"%s\" was built for policy ABI %u, expected ABI %u (rebuild it against this chargesim)",
			    plugin, h->desc->abi, CS_POLICY_ABI);
		return false;
	}
	if (!h->desc->name || !h->desc->probe) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.plugin: \"%s\" has no name or no probe function", plugin);
		return false;
	}
	return true;
}

static bool open_builtin(struct cs_policy_handle *h, const char *name, GError **err)
{
	g_autoptr(GPtrArray) names = NULL;
	g_autofree char *list = NULL;
	const char *hint;

	h->desc = cs_policy_find(name);
	if (h->desc)
		return true;
	if (g_str_has_prefix(name, "linux/") && !cs_linux_modules[0]) {
		/* a real Linux driver, and this build compiled none */
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy: \"%s\" is a real Linux driver and this build has none: install linux-source-6.12 (or make KERNEL_SRC=DIR) and rebuild (docs/linux-drivers.md)",
			    name);
		return false;
	}
	names = g_ptr_array_new();
	for (int i = 0; cs_policies()[i]; i++)
		g_ptr_array_add(names, (gpointer)cs_policies()[i]->name);
	hint = cs_did_you_mean(name, (const char *const *)names->pdata, names->len);
	g_ptr_array_add(names, NULL);
	list = g_strjoinv(", ", (char **)names->pdata);
	g_set_error(err, CS_POLICY_ERROR, 0,
		    "policy: found \"%s\", expected one of %s%s%s%s", name, list,
		    hint ? " (did you mean \"" : "", hint ? hint : "", hint ? "\"?)" : "");
	return false;
}

bool cs_policy_open(struct cs_policy_handle *h, const char *name, const char *plugin,
		    GError **err)
{
	memset(h, 0, sizeof(*h));
	return plugin ? open_plugin(h, plugin, err) : open_builtin(h, name, err);
}

bool cs_policy_load_params(struct cs_policy_handle *h, const cJSON *params, GError **err)
{
	const struct cs_policy_desc *d = h->desc;
	GError *inner = NULL;

	h->params = g_malloc0(d->params_size ? d->params_size : 1);
	if (d->params_default)
		d->params_default(d, h->params);
	if (!params)
		return true;
	if (!d->params && cJSON_GetArraySize(params) > 0) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.params: found parameters, expected none (policy \"%s\" takes no parameters)",
			    d->name);
		return false;
	}
	if (d->params && !param_load_object(d->params, params, h->params, "policy.params", NULL,
					    &inner)) {
		g_set_error(err, CS_POLICY_ERROR, 0, "%s", inner->message);
		g_error_free(inner);
		return false;
	}
	return true;
}

void cs_policy_close(struct cs_policy_handle *h)
{
	if (h->desc && h->desc->params && h->params)
		param_free_strings(h->desc->params, h->params);
	g_free(h->params);
	h->params = NULL;
	if (h->module)
		g_module_close(h->module);
	h->module = NULL;
	h->desc = NULL;
}
