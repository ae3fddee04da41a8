// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_compare.c - `chargesim compare SCENARIO --policy A --policy B ...`: the same
 * scenario under each policy, outputs under DIR/<policy>/, metrics side by side.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <chargesim/linux_module.h>
#include <chargesim/policy.h>
#include "cli/cli.h"
#include "run/run.h"
#include "run/scenario.h"
#include "report/report.h"
#include "output/outfile.h"
#include "output/outset.h"
#include "stack/policies/loader.h"

#define CELL_WIDTH 16   /* characters of a table cell, at least */
#define LABEL_WIDTH 24  /* characters of the metric's name */

/* Right-aligned in width characters (not bytes: a plugin's file name may be UTF-8). */
static void print_right(const char *s, int width)
{
	long n = g_utf8_strlen(s, -1);

	printf(" %*s%s", n < width ? (int)(width - n) : 0, "", s);
}

static void print_cell(double v, const char *fmt, int width)
{
	char buf[32];

	if (!isfinite(v) || v < 0)
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), fmt, v);
	print_right(buf, width);
}

/* The metrics side by side, a row each, a column per policy: as wide as its name
 * when that is longer than a cell (linux/twl4030_charger), so that every row lines up. */
static void print_table(const struct world_metrics *m, char **policies,
			const struct cs_policy_spec *specs, int n)
{
	g_autofree int *w = g_new0(int, (gsize)n);

	printf("%-*s", LABEL_WIDTH, "metric");
	for (int i = 0; i < n; i++) {
		g_autofree char *shown = cli_term_text(policies[i], false);

		w[i] = MAX(CELL_WIDTH, (int)g_utf8_strlen(shown, -1));
		print_right(shown, w[i]);
	}
	printf("\n");
#define ROW(label, expr, fmt) \
	do { \
		printf("%-*s", LABEL_WIDTH, label); \
		for (int i = 0; i < n; i++) \
			print_cell((expr), fmt, w[i]); \
		printf("\n"); \
	} while (0)
	ROW("time to 80 % [min]", world_metric(&m[i], "time_to_soc_80_s") / 60, "%.1f");
	ROW("time to full [min]", world_metric(&m[i], "time_to_full_s") / 60, "%.1f");
	ROW("VBUS min [V]", world_metric(&m[i], "vbus_min_V"), "%.3f");
	ROW("VBUS < 95 % contract [s]", world_metric(&m[i], "time_below_4v75_s"), "%.1f");
	ROW("discharged plugged [s]", world_metric(&m[i], "discharged_while_plugged_s"), "%.1f");
	ROW("source trips", world_metric(&m[i], "source_trips"), "%.0f");
	ROW("UVLO events", world_metric(&m[i], "uvlo_events"), "%.0f");
	ROW("brownouts", world_metric(&m[i], "brownouts"), "%.0f");
	ROW("over budget [s]", world_metric(&m[i], "over_budget_s"), "%.1f");
	ROW("over budget [mAh]", world_metric(&m[i], "over_budget_mAh"), "%.2f");
	ROW("input limit final [A]", world_metric(&m[i], "ilim_final_A"), "%.3f");
	ROW("input limit max [A]", world_metric(&m[i], "ilim_max_A"), "%.3f");
	ROW("IBUS max [A]", world_metric(&m[i], "ibus_max_A"), "%.3f");
	ROW("SOC final [%]", world_metric(&m[i], "soc_final") * 100, "%.1f");
	ROW("charge in [mAh]", world_metric(&m[i], "charge_in_mAh"), "%.1f");
	ROW("source energy [Wh]", world_metric(&m[i], "energy_source_Wh"), "%.3f");
#undef ROW
	/* which bytes of each real driver made its column, below the table */
	for (int i = 0, blank = 1; i < n; i++) {
		g_autofree char *lead = g_strdup_printf("  %s: ", policies[i]);

		if (cs_linux_policy_files(specs[i].name) && blank--)
			printf("\n");
		cli_print_kernel_files(specs[i].name, lead);
	}
}

static void specs_free(struct cs_policy_spec *specs, int n)
{
	for (int i = 0; specs && i < n; i++)
		cs_policy_spec_clear(&specs[i]);
	g_free(specs);
}

/* The label of each --policy: its name, or for a plugin file its name without the
 * directory and ".so", then ":" and its parameters as given without blanks when it
 * has some ("safe-ramp:step=50mA"): the run's directory under -o and its column, so
 * that two runs of one policy with other parameters are told apart. NULL (the message
 * printed) when two would share one. */
static char **policy_labels(char **policies, const struct cs_policy_spec *specs, int n)
{
	g_auto(GStrv) labels = g_new0(char *, (gsize)n + 1);

	for (int i = 0; i < n; i++) {
		g_autofree char *base = NULL;

		if (world_policy_is_plugin(specs[i].name)) {
			base = g_path_get_basename(specs[i].name);
			if (g_str_has_suffix(base, "." G_MODULE_SUFFIX))
				base[strlen(base) - strlen("." G_MODULE_SUFFIX)] = '\0';
		} else {
			base = g_strdup(specs[i].name);
		}
		labels[i] = specs[i].args ? g_strdup_printf("%s:%s", base, specs[i].args) :
			    g_steal_pointer(&base);
		for (int k = 0; k < i; k++)
			if (strcmp(labels[k], labels[i]) == 0) {
				cli_error("compare: --policy %s and --policy %s would both write to "
					  "DIR/%s/; give each policy, or each set of its parameters, "
					  "once (copy a plugin under another name to compare two builds)",
					  policies[k], policies[i], labels[i]);
				return NULL;
			}
	}
	return g_steal_pointer(&labels);
}

/* A label names a directory under DIR: a built-in policy's name as it is (linux/FILE
 * makes two levels), any other (a plugin's file name, a name no policy has) passes the
 * one rule for names; the parameters after it pass that rule too, without * or ? (the
 * label is a pattern of the compare's output set). False with the message printed. */
static bool labels_ok(char **labels, const struct cs_policy_spec *specs, int n)
{
	for (int i = 0; i < n; i++) {
		const char *why = NULL;
		g_autofree char *shown = NULL;
		g_autofree char *name = specs[i].args ?
			g_strndup(labels[i], strlen(labels[i]) - strlen(specs[i].args) - 1) :
			g_strdup(labels[i]);

		if (specs[i].args && strpbrk(specs[i].args, "*?"))
			why = "holds * or ?";
		else if (specs[i].args && !cs_name_check(specs[i].args, &why))
			;
		else if (cs_policy_find(name) || cs_name_check(name, &why))
			continue;
		shown = g_strescape(labels[i], NULL);
		return cli_error("compare: --policy \"%s\": the name %s, expected a policy name (see `chargesim list policies`) or a plugin file, and parameters KEY=VALUE without a slash, * or ?",
				 shown, why);
	}
	return true;
}

/* Each --policy read as NAME[:KEY=VALUE,...] (stack/policies/loader.h), its parameters
 * checked against the policy's table before anything runs. NULL (the message printed)
 * on a bad one. */
static struct cs_policy_spec *policy_specs(char **policies, int n)
{
	struct cs_policy_spec *specs = g_new0(struct cs_policy_spec, (gsize)n);

	for (int i = 0; i < n; i++) {
		g_autoptr(GError) err = NULL;

		if (cs_policy_spec_parse(policies[i], &specs[i], &err))
			continue;
		cli_error("compare: %s", err->message);
		specs_free(specs, n);
		return NULL;
	}
	return specs;
}

/* What a compare writes into DIR, as the patterns of its output set (output/outset.h):
 * the plot, and a directory per policy: those of an earlier compare with other
 * built-in policies go too. */
static char **compare_output_names(char **labels, int n)
{
	GPtrArray *a = g_ptr_array_new();

	for (int i = 0; run_output_names[i]; i++)
		if (g_str_has_prefix(run_output_names[i], "plot"))
			g_ptr_array_add(a, g_strdup(run_output_names[i]));
	for (int i = 0; cs_builtin_policies[i]; i++) {
		g_ptr_array_add(a, g_strdup(cs_builtin_policies[i]->name));
		/* the same with parameters of its own: safe-ramp:step=50mA */
		g_ptr_array_add(a, g_strdup_printf("%s:*", cs_builtin_policies[i]->name));
	}
	g_ptr_array_add(a, g_strdup("linux"));   /* linux/FILE policies */
	for (int i = 0; i < n; i++)
		g_ptr_array_add(a, g_strdup(labels[i]));
	g_ptr_array_add(a, g_strdup("compare.csv"));
	g_ptr_array_add(a, g_strdup("compare.json"));
	g_ptr_array_add(a, g_strdup("report.html"));
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

/* The compare's outputs are one set: the runs, then the plot, put in place together;
 * the plots the new runs make out of date (an earlier compare's, unless --plot draws it
 * again, and each policy's own, from an earlier run --plot -o DIR/POLICY) go with the
 * set they drew. Whether there are such plots. */
static bool stale_plots(const char *outdir, char **labels, int n, bool plot)
{
	bool removed = !plot && cli_plot_exists(outdir);

	for (int i = 0; i < n; i++) {
		g_autofree char *dir = g_build_filename(outdir, labels[i], NULL);

		removed |= cli_plot_exists(dir);
	}
	return removed;
}

/* Each policy's run into STAGE/LABEL/ (STAGE: the staging directory of DIR's output
 * set); its metrics into m[i], its warnings into warnings[i]. The exit status of the
 * first run that fails (its message printed, naming DIR), else 0. */
static int run_policies(const struct scenario *sc, const struct cs_outset *set,
			const struct cs_policy_spec *specs, char **labels, struct world_metrics *m,
			GPtrArray **warnings, int n)
{
	for (int i = 0; i < n; i++) {
		g_autofree char *dir = g_build_filename(cs_outset_path(set), labels[i], NULL);
		struct run_options ro = {
			.world.outdir = dir, .world.policy = specs[i].name,
			.world.policy_params = specs[i].params, .outdir_staged = true,
			/* a set of policy.params.KEY is for the policy that has KEY */
			.world.skip_foreign_policy_sets = true,
		};
		struct run_result res;

		if (run_scenario(sc, &ro, &res) != CLI_EXIT_OK) {
			int status = res.status;

			cs_outset_unstage(set, res.error);
			cli_print_message(res.error->message);
			run_result_clear(&res);
			return status;
		}
		for (guint k = 0; res.warnings && k < res.warnings->len; k++)
			cli_error("warning: %s (policy %s): %s", sc->file, labels[i],
				  (const char *)res.warnings->pdata[k]);
		m[i] = res.metrics;
		res.metrics = (struct world_metrics){ 0 };   /* m[i] owns them now */
		warnings[i] = g_steal_pointer(&res.warnings);
		run_result_clear(&res);
	}
	return CLI_EXIT_OK;
}

/* STAGE/compare.csv, compare.json and report.html (with the plot when one was
 * drawn). False with the message printed. */
static bool write_documents(const struct scenario *sc, const char *stage, char **labels,
			    const struct world_metrics *m, GPtrArray **warnings, int n,
			    bool plot, const GError *plot_err)
{
	g_autofree struct report_run *runs = g_new0(struct report_run, (gsize)n);
	g_autofree char *svg = g_build_filename(stage, "plot.svg", NULL);
	g_autofree char *failed = plot_err ? g_strdup_printf("it could not be drawn: %s",
							      plot_err->message) : NULL;
	g_autoptr(GError) err = NULL;
	struct report_spec spec = {
		.sc = sc, .dir = stage, .n = n, .runs = runs,
		.plot_svg = plot && !plot_err ? svg : NULL,
		.no_plot = failed ? failed : "compare draws it with --report or --plot (needs gnuplot).",
	};

	for (int i = 0; i < n; i++)
		runs[i] = (struct report_run){ labels[i], labels[i], &m[i], warnings[i], NULL };
	if (report_write_tables(&spec, &err) && report_write_html(&spec, &err))
		return true;
	return cli_error("compare: %s", err->message);
}

int cmd_compare(int argc, char **argv)
{
	g_auto(GStrv) policies = NULL;
	g_auto(GStrv) sets = NULL;
	g_autofree char *outdir_opt = NULL;
	gboolean quiet = FALSE, plot = FALSE, report = FALSE;
	GOptionEntry entries[] = {
		{ "policy", 0, 0, G_OPTION_ARG_STRING_ARRAY, &policies, "A policy to run: a built-in name or a plugin file path/to/x.so, with parameters of its own after ':' (safe-ramp:step=50mA,interval=2s); repeat, at least one", "NAME[:KEY=VALUE,...]" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir_opt, "Write each run under DIR/<policy>/ (default out/NAME-compare)", "DIR" },
		{ "set", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &sets, "Override a scenario value for every run", "PATH=VALUE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only the table", NULL },
		{ "plot", 0, 0, G_OPTION_ARG_NONE, &plot, "Also write DIR/plot.png and DIR/plot.svg: every policy overlaid, with a zoom panel", NULL },
		{ "report", 0, 0, G_OPTION_ARG_NONE, &report, "Draw the plot (as --plot) into DIR/report.html too: one self-contained page for a review", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SCENARIO.json - run one scenario under several policies");
	g_autoptr(GError) err = NULL;
	g_autoptr(scenario) sc = NULL;
	g_autofree char *outdir = NULL;
	g_autoptr(GError) plot_err = NULL;
	g_auto(GStrv) own = NULL;
	g_auto(GStrv) labels = NULL;
	struct cs_outset *set = NULL;
	struct world_metrics *m = NULL;
	struct cs_policy_spec *specs = NULL;
	GPtrArray **warnings = NULL;
	bool removed = false;
	int n = 0, status = CLI_EXIT_OK;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Example: chargesim compare scenarios/bugzoo/twl4030-full-battery.json \\\n"
		"           --policy twl4030 --policy ec-ramp --policy safe-ramp\n"
		"  chargesim compare SCENARIO.json --policy safe-ramp --policy ./my_policy.so\n"
		"A plugin (a file name ending in .so; see docs/policy-sdk.md) runs under the\n"
		"name of its file: DIR/my_policy/. A plugin is code: compare loads only the ones\n"
		"you name with --policy, never the scenario's own (docs/policy-sdk.md 7.1). The\n"
		"scenario's policy parameters go only to the run of the scenario's own policy;\n"
		"the others run with their defaults. Parameters after ':' go to that run, over\n"
		"those (one policy twice with other parameters: --policy 'safe-ramp:step=50mA'\n"
		"--policy 'safe-ramp:step=200mA' writes DIR/safe-ramp:step=50mA/ and\n"
		"DIR/safe-ramp:step=200mA/). A set event of the scenario on policy.params.KEY is\n"
		"skipped, with a warning, in the runs whose policy has no KEY.\n"
		"Expectations in the scenario are not checked here (they belong to one policy).\n"
		"Besides the runs, DIR holds compare.csv and compare.json (a row per policy: every\n"
		"metric with its unit, the warnings) and report.html, a page that opens in any\n"
		"browser without network; with --report it shows the plot (docs/report.md).");
	if (!cli_parse(ctx, &argc, &argv))
		return CLI_EXIT_USAGE;
	if (argc != 2 || !policies || !policies[0]) {
		cli_error("compare: expected one scenario file and at least one --policy (see --help)");
		return CLI_EXIT_USAGE;
	}
	sc = scenario_load(argv[1], (const char *const *)sets, &err);
	if (!sc) {
		cli_print_message(err->message);
		return CLI_EXIT_USAGE;
	}
	outdir = outdir_opt ? g_strdup(outdir_opt) : g_strdup_printf("out/%s-compare", sc->name);
	plot |= report;
	n = (int)g_strv_length(policies);
	specs = policy_specs(policies, n);
	labels = specs ? policy_labels(policies, specs, n) : NULL;
	if (!labels || !labels_ok(labels, specs, n)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	removed = stale_plots(outdir, labels, n, plot);
	own = compare_output_names(labels, n);
	set = cs_outset_begin(outdir, (const char *const *)own, &err);
	if (!set) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	m = g_new0(struct world_metrics, (gsize)n);
	warnings = g_new0(GPtrArray *, (gsize)n);
	status = run_policies(sc, set, specs, labels, m, warnings, n);
	if (status != CLI_EXIT_OK)
		goto out;
	if (plot)
		cli_plot_render_compare(cs_outset_path(set), outdir, sc->name, labels,
					scenario_uvlo_v(sc), &plot_err);
	if (!write_documents(sc, cs_outset_path(set), labels, m, warnings, n, plot, plot_err)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (!cs_outset_commit(g_steal_pointer(&set), &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (!quiet)
		printf("scenario %s (%g s simulated); outputs under %s/<policy>/\n\n", sc->name,
		       sim_time_to_s(sc->duration), outdir);
	print_table(m, labels, specs, n);
	if (!quiet)
		printf("\n  report: %s/report.html; every metric: %s/compare.csv, %s/compare.json\n",
		       outdir, outdir, outdir);
	if (removed && !quiet)
		printf("\n%s\n", CLI_STALE_PLOT_NOTE);
	if (plot)
		status = cli_plot_report(outdir, plot_err, true, quiet, status);
out:
	specs_free(specs, n);
	cs_outset_abort(set);
	for (int i = 0; m && i < n; i++) {
		world_metrics_clear(&m[i]);
		if (warnings[i])
			g_ptr_array_unref(warnings[i]);
	}
	g_free(m);
	g_free(warnings);
	return status;
}
