// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_list.c - `chargesim list [policies [NAME|FILE.so]...|MODELS|scenarios|schema]`:
 * the policies (a plugin the user names among them), the presets of every model that
 * has them (sources, pmics, batteries: each model's descriptor names its list), the
 * library's scenarios, the scenario JSON Schema (run/schema.c).
 *
 * Everything printed here comes from the same tables the scenario loader reads, so
 * the documentation cannot drift from what is accepted.
 */
#include <stdio.h>
#include <string.h>
#include <chargesim/policy.h>
#include "cli/cli.h"
#include "models/model.h"
#include "run/scenario.h"
#include "run/schema.h"
#include "run/world.h"
#include "stack/policies/loader.h"

static void list_params(const struct param_desc *table, const void *base, const char *indent)
{
	for (const struct param_desc *d = table; d && d->key; d++) {
		g_autofree char *v = param_format_value(d, base);

		if (d->kind == PARAM_OBJECT) {
			g_autofree char *sub = g_strconcat(indent, "  ", NULL);

			printf("%s%-18s %s\n", indent, d->key, d->doc ? d->doc : "");
			list_params(d->sub, (const char *)base + d->off, sub);
			continue;
		}
		printf("%s%-18s %-14s %s\n", indent, d->key, v, d->doc ? d->doc : "");
	}
}

/* One policy: its name, its summary, each parameter with its default. */
static void list_policy(const struct cs_policy_desc *d, const char *shown)
{
	g_autofree void *p = g_malloc0(d->params_size ? d->params_size : 1);

	if (d->params_default)
		d->params_default(d, p);
	printf("\n%s - %s\n", shown, d->summary ? d->summary : "");
	if (d->params) {
		list_params(d->params, p, "    ");
		param_free_strings(d->params, p);
	}
}

/*
 * `list policies [NAME|FILE.so]...`: every policy of the build, or those named. A file
 * named here is the user's own choice, as with `run --policy FILE.so`: it is opened
 * (its code runs) under the loader's rules for a user-named plugin (a regular file
 * whose real path ends in .so, the ABI checked before any of its functions is called).
 * A scenario is never read here, so no file can make list open a plugin.
 */
static int list_policies(int argc, char **argv)
{
	g_autofree struct cs_policy_handle *h = g_new0(struct cs_policy_handle,
						       (gsize)MAX(argc, 0) + 1);
	int n = 0, status = CLI_EXIT_OK;

	/* every one opened before anything is printed: an error leaves stdout empty */
	for (; n < argc; n++) {
		g_autoptr(GError) err = NULL;
		g_autofree char *path = NULL;
		const char *msg;

		/* a relative FILE.so is the working directory's, as with run --policy */
		if (world_policy_is_plugin(argv[n]))
			path = g_canonicalize_filename(argv[n], NULL);
		if (cs_policy_open(&h[n], argv[n], path, true, &err))
			continue;
		/* the loader names the scenario key ("policy.plugin: "); here it is an argument */
		msg = err->message;
		if (g_str_has_prefix(msg, "policy.plugin: ") || g_str_has_prefix(msg, "policy: "))
			msg = strchr(msg, ' ') + 1;
		cli_error("list policies: %s%s", msg, !path && strchr(argv[n], '/') ?
			  " (a plugin is a file whose name ends in .so)" : "");
		status = CLI_EXIT_USAGE;
		break;
	}
	if (status == CLI_EXIT_OK) {
		printf("Policies (\"policy\": NAME or {\"name\": NAME, \"params\": {...}}):\n");
		for (const struct cs_policy_desc *const *all = cs_policies(); argc < 1 && *all; all++)
			list_policy(*all, (*all)->name);
	}
	for (int i = 0; i < n; i++) {
		g_autofree char *shown = h[i].module ?
			g_strdup_printf("%s (plugin %s)", h[i].desc->name, argv[i]) :
			g_strdup(h[i].desc->name);

		if (status == CLI_EXIT_OK)
			list_policy(h[i].desc, shown);
		cs_policy_close(&h[i]);
	}
	return status;
}

static void list_presets(const struct model_desc *d)
{
	const struct param_desc *pd = param_find(d->params, d->preset_key);

	printf("%s\n", d->list_title);
	for (int i = 0; pd->choices[i]; i++) {
		g_autofree void *p = g_malloc0(d->params_size);

		d->defaults(p, i);
		printf("\n%s: \"%s\"\n", d->preset_key, pd->choices[i]);
		list_params(d->params, p, "    ");
		param_free_strings(d->params, p);
	}
}

/* The scenarios under dir (recursively, sorted), each with its description. */
static int list_scenarios(const char *dir)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);

	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		cli_error("list scenarios: %s: found no such directory, expected a directory of scenarios",
			  dir);
		return CLI_EXIT_USAGE;
	}
	cli_find_json(dir, paths);
	g_ptr_array_sort(paths, cli_cmp_strings);
	for (guint i = 0; i < paths->len; i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(scenario) sc = scenario_load(paths->pdata[i], NULL, &err);

		/* sweep files and other JSON are listed only when they are scenarios */
		if (sc) {   /* a description may hold control characters: cli_term_text() */
			g_autofree char *path = cli_term_text(paths->pdata[i], false);
			g_autofree char *desc = cli_term_text(sc->description, false);

			printf("%-48s %s\n", path, desc);
		}
	}
	return CLI_EXIT_OK;
}

/* "policies|sources|...|scenarios" (sep "|"), or "policies, sources, ... or scenarios" */
static char *list_names(const char *sep, const char *last_sep)
{
	GString *s = g_string_new("policies");

	for (int i = 0; model_registry[i]; i++)
		if (model_registry[i]->list_name)
			g_string_append_printf(s, "%s%s", sep, model_registry[i]->list_name);
	g_string_append_printf(s, "%sscenarios", last_sep);
	return g_string_free(s, FALSE);
}

int cmd_list(int argc, char **argv)
{
	g_autofree char *names = list_names("|", "|");
	g_autofree char *summary = g_strdup_printf("[%s|schema] [ARG...] - list what a scenario can name",
						   names);
	g_autoptr(GOptionContext) ctx = g_option_context_new(summary);
	gboolean schema_opt = FALSE;
	GOptionEntry entries[] = {
		{ "schema", 0, 0, G_OPTION_ARG_NONE, &schema_opt,
		  "Print the scenario JSON Schema (the topic schema)", NULL },
		G_OPTION_ENTRY_NULL,
	};
	const char *what;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Topics (default: policies):\n"
		"  policies [NAME|FILE.so]...\n"
		"              the charger policies, each with its parameters and their defaults\n"
		"              (what \"policy\": {\"name\": ..., \"params\": {...}} takes): all the\n"
		"              built-in ones, or those named; FILE.so is a policy plugin, loaded\n"
		"              to read its parameters (a relative path is this directory's)\n"
		"  sources     the charging port kinds (\"source\": {\"kind\": ...}): dcp, sdp,\n"
		"              cdp, typec, pd, ... with the defaults each kind gives every value\n"
		"  pmics       the charger IC presets (\"device\": {\"pmic\": {\"preset\": ...}})\n"
		"  batteries   the cell presets (\"device\": {\"battery\": {\"preset\": ...}})\n"
		"  scenarios [DIR]\n"
		"              the scenario files under DIR (default: the scenario library),\n"
		"              subdirectories included, each with its description; sweep files\n"
		"              are left out\n"
		"  schema      the JSON Schema of a scenario file, made from these same tables\n"
		"              (installed as PREFIX/share/chargesim/scenario.schema.json)\n"
		"\n"
		"Plugins: a plugin is code. `list policies FILE.so` loads FILE.so because you\n"
		"named it, as `run --policy FILE.so` does; list never loads a plugin a scenario\n"
		"file names (it reads no scenario but for `list scenarios`, which runs nothing).\n"
		"\n"
		"Examples:\n"
		"  chargesim list policies\n"
		"  chargesim list policies safe-ramp ./my_policy.so\n"
		"  chargesim list sources\n"
		"  chargesim list scenarios scenarios/bugzoo\n"
		"  chargesim list schema > scenario.schema.json\n"
		"\n"
		"docs/scenarios.md describes every key; its section 14 has the same tables.");
	if (!cli_parse(ctx, &argc, &argv))
		return CLI_EXIT_USAGE;
	if (schema_opt && argc > 1 && strcmp(argv[1], "schema") != 0) {
		cli_error("list: found --schema and \"%s\", expected one of them", argv[1]);
		return CLI_EXIT_USAGE;
	}
	what = schema_opt ? "schema" : argc > 1 ? argv[1] : "policies";
	if (strcmp(what, "policies") == 0)
		return list_policies(MAX(argc - 2, 0), argv + 2);
	if (strcmp(what, "schema") == 0) {
		g_autofree char *schema = NULL;

		if (argc > 2) {
			cli_error("list schema: found \"%s\", expected nothing after \"schema\"", argv[2]);
			return CLI_EXIT_USAGE;
		}
		schema = scenario_schema_text();
		fputs(schema, stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(what, "scenarios") == 0) {
		g_autofree char *dir = argc > 2 ? g_strdup(argv[2]) : cli_scenario_dir("list scenarios");

		return dir ? list_scenarios(dir) : CLI_EXIT_USAGE;
	}
	for (int i = 0; model_registry[i]; i++)
		if (model_registry[i]->list_name && strcmp(what, model_registry[i]->list_name) == 0) {
			list_presets(model_registry[i]);
			return CLI_EXIT_OK;
		}
	g_autofree char *expected = list_names(", ", ", schema or ");
	cli_error("list: found \"%s\", expected %s", what, expected);
	return CLI_EXIT_USAGE;
}
