// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/loader.c - built-in policies by name, plugins through GModule, and
 * the parameter struct a policy is probed with.
 *
 * A plugin is code: opening it runs its constructors before anything can be checked.
 * Scenario and sweep files are data that may come from anyone (CI checks the files of
 * pull requests), so a plugin a file names is opened only when its real path lies
 * under a directory the user allowed on the command line (cs_plugin_allow_dir); one
 * the caller names itself (`--policy FILE.so`) is the user's own word. Every plugin is
 * opened by its real path, exactly: no suffix guessing, no library search path, no
 * libtool archive (GModule would follow a .la file's redirection).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <chargesim/linux_module.h>
#include "sim/units.h"
#include "stack/policies/loader.h"

G_DEFINE_QUARK(cs-policy-error-quark, cs_policy_error)

/* The real paths of the --allow-plugins directories. The command line fills it before
 * any run starts and nothing changes it after, so the run threads read it unlocked. */
static GPtrArray *allowed_dirs;

#define PLUGIN_SUFFIX "." G_MODULE_SUFFIX

bool cs_plugin_allow_dir(const char *dir, GError **err)
{
	g_autofree char *real = realpath(dir, NULL);
	struct stat st;

	if (!real || stat(real, &st) != 0) {
		g_set_error(err, CS_POLICY_ERROR, 0, "--allow-plugins \"%s\": %s, expected a directory",
			    dir, g_strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode)) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "--allow-plugins \"%s\": found a file that is not a directory, expected a directory of plugins",
			    dir);
		return false;
	}
	if (!allowed_dirs)
		allowed_dirs = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(allowed_dirs, g_steal_pointer(&real));
	return true;
}

void cs_plugin_allow_reset(void)
{
	g_clear_pointer(&allowed_dirs, g_ptr_array_unref);
}

static bool under_allowed_dir(const char *real)
{
	for (guint i = 0; allowed_dirs && i < allowed_dirs->len; i++) {
		const char *dir = allowed_dirs->pdata[i];
		size_t n = strlen(dir);

		/* "/" allows everything; "/a/b" allows "/a/b/x.so", not "/a/bc/x.so" */
		if (strcmp(dir, "/") == 0 || (strncmp(real, dir, n) == 0 && real[n] == '/'))
			return true;
	}
	return false;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO (named pipe)";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

/* A plugin the command line did not allow: say where it really is, which directories
 * were allowed, and how to allow it. */
static void refuse_untrusted(const char *plugin, const char *real, GError **err)
{
	g_autoptr(GString) dirs = g_string_new(NULL);

	for (guint i = 0; allowed_dirs && i < allowed_dirs->len; i++)
		g_string_append_printf(dirs, "%s%s", i ? ", " : "",
				       (const char *)allowed_dirs->pdata[i]);
	g_set_error(err, CS_POLICY_ERROR, 0,
		    "policy.plugin: cannot load \"%s\": found a plugin (code) at %s, outside %s%s; expected none: a scenario or sweep file loads no code by itself (to trust it, pass --allow-plugins DIR for a directory that holds it; docs/policy-sdk.md)",
		    plugin, real, dirs->len ? "every --allow-plugins directory: " :
		    "any --allow-plugins directory", dirs->str);
}

char *cs_plugin_check(const char *plugin, bool user_named, GError **err)
{
	g_autofree char *real = NULL;
	struct stat st;

	/* no suffix guessing: GModule would try "x" then "x.so" and follow "x.la" */
	if (!g_str_has_suffix(plugin, PLUGIN_SUFFIX)) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.plugin: cannot load \"%s\": found a name without \"%s\", expected the plugin's file name FILE%s",
			    plugin, PLUGIN_SUFFIX, PLUGIN_SUFFIX);
		return NULL;
	}
	real = realpath(plugin, NULL);
	if (!real || stat(real, &st) != 0) {
		g_set_error(err, CS_POLICY_ERROR, 0, "policy.plugin: cannot load \"%s\": %s",
			    plugin, g_strerror(errno));
		return NULL;
	}
	/* stat, never open: opening a FIFO would wait for a writer */
	if (!S_ISREG(st.st_mode)) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.plugin: cannot load \"%s\": found %s, expected a regular file (a shared object)",
			    plugin, file_kind(st.st_mode));
		return NULL;
	}
	if (!g_str_has_suffix(real, PLUGIN_SUFFIX)) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "policy.plugin: cannot load \"%s\": found a link to \"%s\", expected a file whose name ends in \"%s\"",
			    plugin, real, PLUGIN_SUFFIX);
		return NULL;
	}
	if (!user_named && !under_allowed_dir(real)) {
		refuse_untrusted(plugin, real, err);
		return NULL;
	}
	return g_steal_pointer(&real);
}

static bool open_plugin(struct cs_policy_handle *h, const char *plugin, bool user_named,
			GError **err)
{
	g_autofree char *real = cs_plugin_check(plugin, user_named, err);
	gpointer sym = NULL;

	if (!real)
		return false;
	h->module = g_module_open(real, G_MODULE_BIND_LOCAL);
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
		    bool user_named, GError **err)
{
	memset(h, 0, sizeof(*h));
	return plugin ? open_plugin(h, plugin, user_named, err) : open_builtin(h, name, err);
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
