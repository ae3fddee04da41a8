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
 * The trust boundary: a plugin is code, and scenario and sweep files are data. A plugin
 * a file names is opened only when its real path (after symbolic links) lies under a
 * directory given to cs_plugin_allow_dir() (`--allow-plugins DIR`); one the caller
 * names itself (`--policy FILE.so`, user_named) needs no such directory. Pass
 * user_named only for a path the user typed on the command line, never for one read
 * from any file (scenario, sweep, or whatever file kind comes next). Either way it
 * must be a regular file whose name and real path end in ".so", and it is opened by
 * that real path; everything else is refused before any of its code can run.
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
 * called `name`. user_named: the plugin is the one the user named on the command line
 * (not one a file named). */
bool cs_policy_open(struct cs_policy_handle *h, const char *name, const char *plugin,
		    bool user_named, GError **err);
/* Allow the plugins under dir (its real path); the command line calls it before any
 * run starts, never while runs go on. */
bool cs_plugin_allow_dir(const char *dir, GError **err);
/* Forget every allowed directory (for tests). */
void cs_plugin_allow_reset(void);
/* Would cs_policy_open() open `plugin`? Its real path (g_free) if so, else NULL with
 * the reason; nothing is opened, so no code of it runs. */
char *cs_plugin_check(const char *plugin, bool user_named, GError **err);
/* Fill h->params with the policy's defaults, then the values of `params` (a JSON
 * object, or NULL for none). */
bool cs_policy_load_params(struct cs_policy_handle *h, const cJSON *params, GError **err);
void cs_policy_close(struct cs_policy_handle *h);

/*
 * A policy named on the command line with parameters of its own (`--policy` of run and
 * compare): "NAME[:KEY=VALUE[,KEY=VALUE]...]", e.g. "safe-ramp:step=50mA,interval=2s"
 * or "./my_policy.so:gain=2". NAME is a built-in policy or a plugin file; a text ending
 * in ".so" is a plugin path as a whole (so a file name may hold a ':'), and the first
 * ':' after NAME's last '/' starts the parameters. KEY is a parameter of the policy
 * (dotted for a nested one: "iindpm.min=1A"); VALUE is read as `--set` reads it: JSON
 * when the whole of it parses as JSON (7, true, "x", [1, 2]), else a string for the
 * unit parser ("50mA"). A ',' inside brackets, braces or quotes does not split.
 *
 * With parameters, the policy is opened (a plugin too: the user named it) and they are
 * loaded against its parameter table, so an unknown key or a bad value is an error
 * here, before anything runs: "--policy TEXT: KEY: found X, expected Y". The run then
 * loads them over the scenario's own parameters (those of the scenario's policy) or
 * the policy's defaults (world_options.policy_params).
 */
struct cs_policy_spec {
	char *name;        /* the policy: a built-in name or a plugin file path */
	cJSON *params;     /* the parameters as a scenario's "params" object; NULL: none */
	char *args;        /* the parameters as given, blanks removed ("step=50mA"); NULL: none */
};
bool cs_policy_spec_parse(const char *text, struct cs_policy_spec *spec, GError **err);
void cs_policy_spec_clear(struct cs_policy_spec *spec);

#endif
