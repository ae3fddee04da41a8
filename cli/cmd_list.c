// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_list.c - `chargesim list [policies|sources|pmics|batteries|scenarios]`.
 *
 * Everything printed here comes from the same tables the scenario loader reads, so
 * the documentation cannot drift from what is accepted.
 */
#include <stdio.h>
#include <string.h>
#include <chargesim/policy.h>
#include "cli/cli.h"
#include "run/scenario.h"

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

static void list_policies(void)
{
	printf("Policies (\"policy\": NAME or {\"name\": NAME, \"params\": {...}}):\n");
	for (const struct cs_policy_desc *const *all = cs_policies(); *all; all++) {
		const struct cs_policy_desc *d = *all;
		g_autofree void *p = g_malloc0(d->params_size ? d->params_size : 1);

		if (d->params_default)
			d->params_default(p);
		printf("\n%s - %s\n", d->name, d->summary);
		if (d->params)
			list_params(d->params, p, "    ");
	}
}

static void list_presets(const char *title, const char *key, const char *const *names,
			 const struct param_desc *table, size_t size,
			 void (*defaults)(void *p, int preset))
{
	printf("%s\n", title);
	for (int i = 0; names[i]; i++) {
		g_autofree void *p = g_malloc0(size);

		defaults(p, i);
		printf("\n%s: \"%s\"\n", key, names[i]);
		list_params(table, p, "    ");
	}
}

static void src_def(void *p, int k) { source_params_default(p, k); }
static void pmic_def(void *p, int k) { pmic_params_default(p, k); }
static void bat_def(void *p, int k) { battery_params_default(p, k); }

static void list_scenarios(const char *dir)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);

	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		printf("no scenario directory %s\n", dir);
		return;
	}
	cli_find_json(dir, paths);
	g_ptr_array_sort(paths, cli_cmp_strings);
	for (guint i = 0; i < paths->len; i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(scenario) sc = scenario_load(paths->pdata[i], NULL, &err);

		/* sweep files and other JSON are listed only when they are scenarios */
		if (sc)
			printf("%-48s %s\n", (char *)paths->pdata[i], sc->description);
	}
}

int cmd_list(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"[policies|sources|pmics|batteries|scenarios] - list what a scenario can name");
	const char *what;

	if (!cli_parse(ctx, &argc, &argv))
		return CLI_EXIT_USAGE;
	what = argc > 1 ? argv[1] : "policies";
	if (strcmp(what, "policies") == 0)
		list_policies();
	else if (strcmp(what, "sources") == 0)
		list_presets("Source kinds (\"source\": {\"kind\": ...}) and their defaults:", "kind",
			     source_kind_names, source_param_desc, sizeof(struct source_params), src_def);
	else if (strcmp(what, "pmics") == 0)
		list_presets("Charger IC presets (\"device\": {\"pmic\": {\"preset\": ...}}):", "preset",
			     pmic_preset_names, pmic_param_desc, sizeof(struct pmic_params), pmic_def);
	else if (strcmp(what, "batteries") == 0)
		list_presets("Battery presets (\"device\": {\"battery\": {\"preset\": ...}}):", "preset",
			     battery_preset_names, battery_param_desc, sizeof(struct battery_params), bat_def);
	else if (strcmp(what, "scenarios") == 0)
		list_scenarios(argc > 2 ? argv[2] : "scenarios");
	else {
		cli_error("list: found \"%s\", expected policies, sources, pmics, batteries or scenarios", what);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}
