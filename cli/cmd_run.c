// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_run.c - `chargesim run SCENARIO`: one run, its outputs and a summary.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "run/expect.h"
#include "run/scenario.h"
#include "sim/units.h"
#include "run/world.h"

struct run_opts {
	char *outdir;
	char *policy;
	char **sets;
	gboolean plot;
	gboolean vcd;
	char **sysfs_at;
	char *max_step;
	char *trace_dt;
	gboolean quiet;
};

static bool parse_time_opt(const char *opt, const char *text, sim_time_t *out)
{
	g_autoptr(GError) err = NULL;

	if (!units_parse_time(text, out, &err)) {
		cli_error("%s: %s", opt, err->message);
		return false;
	}
	if (*out <= 0) {
		cli_error("%s: found \"%s\", expected a time above 0 such as \"1 ms\"", opt, text);
		return false;
	}
	return true;
}

static void print_time(FILE *fp, double s)
{
	if (s < 0)
		fprintf(fp, "not reached");
	else if (s < 120)
		fprintf(fp, "%.3g s", s);
	else if (s < 7200)
		fprintf(fp, "%.1f min", s / 60);
	else
		fprintf(fp, "%.2f h", s / 3600);
}

static void print_summary(const struct scenario *sc, const struct world *w, const char *outdir,
			  double wall_s, const GArray *results)
{
	const struct world_metrics *m = world_metrics(w);
	unsigned held = 0;

	printf("scenario %s, policy %s: %.6g s simulated in %.3g ms (%.3g x real time)\n", sc->name,
	       world_policy_name(w), sim_time_to_s(sc->duration), wall_s * 1e3,
	       wall_s > 0 ? sim_time_to_s(sc->duration) / wall_s : 0);
	printf("  SOC %.1f %% -> %.1f %%; 80 %% at ", m->soc_initial * 100, m->soc_final * 100);
	print_time(stdout, m->time_to_soc_80_s);
	printf("; full at ");
	print_time(stdout, m->time_to_full_s);
	printf("\n");
	if (isfinite(m->vbus_min_v))
		printf("  VBUS min %.3f V, %.3g s below 4.75 V; ", m->vbus_min_v, m->time_below_4v75_s);
	else
		printf("  VBUS never powered; ");
	printf("source trips %d, UVLO events %d, brownouts %d\n", m->source_trips, m->uvlo_events,
	       m->brownouts);
	if (m->discharged_while_plugged_s > 0)
		printf("  STARVED: the battery discharged for %.3g s while plugged in\n", m->discharged_while_plugged_s);
	printf("  input limit final %.3f A (max %.3f A), IBUS max %.3f A, charge in %.1f mAh, source energy %.3g Wh\n",
	       m->ilim_final_a, m->ilim_max_a, m->ibus_max_a, m->charge_in_mah, m->energy_source_wh);
	printf("  detected %s; energy balance error %.2g; %llu steps, %llu events\n",
	       m->detected_type ? m->detected_type : "(no detection)", m->energy_balance_error,
	       (unsigned long long)m->steps, (unsigned long long)m->events);
	if (results && results->len) {
		for (guint i = 0; i < results->len; i++) {
			const struct expect_result *r = &g_array_index(results, struct expect_result, i);

			held += r->pass;
			if (!r->pass)
				printf("  FAILED: %s (got %s)\n", r->what, r->got);
		}
		printf("  expectations: %u held, %u failed\n", held, results->len - held);
	}
	if (outdir)
		printf("  outputs in %s/: trace.csv, events.jsonl, metrics.json\n", outdir);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.outdir, "Write outputs to DIR (default out/NAME)", "DIR" },
		{ "policy", 0, 0, G_OPTION_ARG_STRING, &o.policy, "Use this policy instead of the scenario's", "NAME" },
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "Override a scenario value, e.g. source.ilim=1.5A (repeatable)", "PATH=VALUE" },
		{ "plot", 0, 0, G_OPTION_ARG_NONE, &o.plot, "Also write plot.png and plot.svg from an editable gnuplot script plot.gp (needs gnuplot)", NULL },
		{ "vcd", 0, 0, G_OPTION_ARG_NONE, &o.vcd, "Also write trace.vcd (for GTKWave)", NULL },
		{ "sysfs-at", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sysfs_at, "Write the power_supply sysfs tree as it reads at TIME into DIR/sysfs-TIME/ (repeatable)", "TIME" },
		{ "max-step", 0, 0, G_OPTION_ARG_STRING, &o.max_step, "Fixed continuous steps of this size (brute-force check)", "TIME" },
		{ "trace-dt", 0, 0, G_OPTION_ARG_STRING, &o.trace_dt, "At most one trace row per TIME (state changes always kept)", "TIME" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, "Print nothing but errors", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SCENARIO.json - run one scenario");
	g_autoptr(GError) err = NULL;
	g_autoptr(scenario) sc = NULL;
	g_autofree char *outdir = NULL;
	g_autofree char *trace_path = NULL;
	struct world_options wo = { 0 };
	struct world *w = NULL;
	struct expect_run *er = NULL;
	GArray *results = NULL;
	g_autofree sim_time_t *sysfs_times = NULL;
	g_auto(GStrv) sysfs_labels = NULL;
	gint64 t0;
	int status = CLI_EXIT_OK;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Writes trace.csv, events.jsonl and metrics.json into the output directory and\n"
		"prints a summary. Exit status 1 when an expectation of the scenario failed.");
	if (!cli_parse(ctx, &argc, &argv))
		return CLI_EXIT_USAGE;
	if (argc != 2) {
		cli_error("run: expected exactly one scenario file, found %d arguments (see --help)", argc - 1);
		return CLI_EXIT_USAGE;
	}
	if (o.sysfs_at) {
		int n = (int)g_strv_length(o.sysfs_at);

		sysfs_times = g_new0(sim_time_t, (gsize)n);
		sysfs_labels = g_new0(char *, (gsize)n + 1);
		for (int i = 0; i < n; i++) {
			g_autoptr(GError) terr = NULL;
			GString *lab = g_string_new(NULL);

			if (!units_parse_time(o.sysfs_at[i], &sysfs_times[i], &terr) || sysfs_times[i] < 0) {
				cli_error("--sysfs-at: %s", terr ? terr->message : "expected a time of at least 0 s");
				g_string_free(lab, TRUE);
				status = CLI_EXIT_USAGE;
				goto out;
			}
			/* The directory name keeps the user's spelling, without blanks. */
			for (const char *c = o.sysfs_at[i]; *c; c++)
				if (g_ascii_isalnum(*c) || *c == '.' || *c == '-' || *c == '_')
					g_string_append_c(lab, *c);
			sysfs_labels[i] = g_string_free(lab, FALSE);
		}
		wo.n_sysfs = n;
		wo.sysfs_at = sysfs_times;
		wo.sysfs_labels = (const char *const *)sysfs_labels;
	}
	if (o.max_step && !parse_time_opt("--max-step", o.max_step, &wo.max_step))
		return CLI_EXIT_USAGE;
	if (o.trace_dt && !parse_time_opt("--trace-dt", o.trace_dt, &wo.trace_dt))
		return CLI_EXIT_USAGE;

	sc = scenario_load(argv[1], (const char *const *)o.sets, &err);
	if (!sc) {
		fprintf(stderr, "%s\n", err->message);
		return CLI_EXIT_USAGE;
	}
	if (sc->expect) {
		er = expect_prepare(sc->expect, sc->file, sc->duration, &err);
		if (!er) {
			fprintf(stderr, "%s\n", err->message);
			status = CLI_EXIT_USAGE;
			goto out;
		}
		expect_options(er, &wo);
	}
	outdir = o.outdir ? g_strdup(o.outdir) : g_build_filename("out", sc->name, NULL);
	trace_path = g_build_filename(outdir, "trace.csv", NULL);
	wo.outdir = outdir;
	/* Checks that need the scenario's duration. */
	if (wo.max_step > 0 && (wo.max_step < SIM_US || sc->duration / wo.max_step > 1000000000)) {
		cli_error("--max-step: found %s, expected at least 1 us and at most 10^9 steps over the scenario's %g s",
			  o.max_step, sim_time_to_s(sc->duration));
		status = CLI_EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < wo.n_sysfs; i++)
		if (wo.sysfs_at[i] > sc->duration) {
			cli_error("--sysfs-at: found %s, expected a time within the scenario's duration (%g s)",
				  o.sysfs_at[i], sim_time_to_s(sc->duration));
			status = CLI_EXIT_USAGE;
			goto out;
		}
	wo.vcd = o.vcd;
	wo.policy = o.policy;

	t0 = g_get_monotonic_time();
	w = world_new(sc, &wo, &err);
	if (!w) {
		fprintf(stderr, "%s\n", err->message);
		status = cli_exit_for(err);
		goto out;
	}
	if (er)
		expect_listen(er, w);
	if (!world_run(w, &err)) {
		cli_error("%s: %s", sc->file, err->message);
		status = cli_exit_for(err);
		goto out;
	}
	if (!world_finish(w, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (er && !expect_check(er, w, trace_path, &results, &err)) {
		fprintf(stderr, "%s\n", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	for (guint i = 0; results && i < results->len; i++)
		if (!g_array_index(results, struct expect_result, i).pass)
			status = CLI_EXIT_FAILED;
	if (!o.quiet)
		print_summary(sc, w, outdir, (double)(g_get_monotonic_time() - t0) * 1e-6, results);
	if (o.plot)
		status = cli_plot_run(outdir, sc->name, world_policy_name(w), sc->pmic.uvlo_falling,
				      o.quiet, status);
out:
	expect_results_free(results);
	expect_run_free(er);
	world_free(w);
	g_free(o.outdir);
	g_free(o.policy);
	g_strfreev(o.sets);
	g_strfreev(o.sysfs_at);
	g_free(o.max_step);
	g_free(o.trace_dt);
	return status;
}
