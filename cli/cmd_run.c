// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_run.c - `chargesim run SCENARIO`: one run, its outputs and a summary.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "models/source/source.h"
#include "run/expect.h"
#include "run/run.h"
#include "run/scenario.h"
#include "report/report.h"
#include "sim/units.h"
#include "stack/policies/loader.h"

static bool parse_time_opt(const char *opt, const char *text, sim_time_t *out)
{
	g_autoptr(GError) err = NULL;

	if (!units_parse_time(text, out, &err))
		return cli_error("%s: %s", opt, err->message);
	if (*out <= 0)
		return cli_error("%s: found \"%s\", expected a time above 0 such as \"1 ms\"", opt,
				 text);
	return true;
}

/* A duration for the summary: "45.2 s", "36.1 min", "2.00 h"; never an exponent. */
static char *fmt_duration(double s)
{
	if (s < 0.1)
		return g_strdup_printf("%.3g ms", s * 1e3);
	if (s < 120)
		return g_strdup_printf("%.3g s", s);
	if (s < 7200)
		return g_strdup_printf("%.1f min", s / 60);
	return g_strdup_printf("%.2f h", s / 3600);
}

/* A ratio such as the speed against real time: three significant digits, no
 * exponent ("723000", "1110", "0.52"). */
static char *fmt_ratio(double x)
{
	double mag;

	if (!(x > 0) || !isfinite(x))
		return g_strdup("-");
	mag = pow(10, floor(log10(x)) - 2);
	if (x >= 100)
		return g_strdup_printf("%.0f", round(x / mag) * mag);
	return g_strdup_printf("%.3g", x);
}

/* "; 80 % at 36.1 min" or "; 80 % not reached" */
static void print_reached(const char *what, double s)
{
	g_autofree char *t = s >= 0 ? fmt_duration(s) : NULL;

	if (t)
		printf("; %s at %s", what, t);
	else
		printf("; %s not reached", what);
}

/* "N time(s)" */
static const char *times(int n)
{
	return n == 1 ? "time" : "times";
}

/*
 * The flags: what a run did that a reader must not miss, one line each, starting
 * with "!" and a word in capitals, whatever the expectations say (docs/scenarios.md
 * section 12.2). Printed with the summary on stdout; failed expectations go to stderr.
 */
/* STARVED needs this long: a charger restarting after its recharge threshold or a ramp's
 * step lets the battery carry the load for a fraction of a second (twl4030-full-battery:
 * 0.71 s in 3 h), a phone starving on its charger does it for minutes. */
#define RUN_STARVED_FLAG_S 10.0

static void print_flags(const struct world_metrics *m)
{
	double starved_s = world_metric(m, "discharged_while_plugged_s");
	double soc0 = world_metric(m, "soc_initial"), soc1 = world_metric(m, "soc_final");
	int brownouts = (int)world_metric(m, "brownouts");
	int trips = (int)world_metric(m, "source_trips");
	int uvlo = (int)world_metric(m, "uvlo_events");

	if (starved_s >= RUN_STARVED_FLAG_S) {
		g_autofree char *t = fmt_duration(starved_s);

		printf("  ! STARVED: the battery discharged for %s while plugged in; SOC %s %.1f %% -> %.1f %%\n",
		       t, soc1 < soc0 ? "fell" : "still rose", soc0 * 100, soc1 * 100);
	}
	if (brownouts > 0)
		printf("  ! BROWNOUT: the system voltage fell below its minimum %d %s\n", brownouts,
		       times(brownouts));
	if (trips > 0)
		printf("  ! SOURCE TRIP: the port's protection cut VBUS %d %s\n", trips, times(trips));
	if (uvlo > 0)
		printf("  ! UVLO: the charger's input dropped out on undervoltage %d %s\n", uvlo,
		       times(uvlo));
	if (source_over_budget(world_metric(m, "over_budget_mAh"))) {
		g_autofree char *t = fmt_duration(world_metric(m, "over_budget_s"));

		printf("  ! OVER BUDGET: drew %.3g mAh more than the port allowed, for %s\n",
		       world_metric(m, "over_budget_mAh"), t);
	}
}

static void print_summary(const struct run_result *res, const char *outdir, const char *args,
			  double wall_s)
{
	const struct scenario *sc = res->scenario;
	const struct world_metrics *m = &res->metrics;
	const char *detected = world_metric_text(m, "detected_type");
	const GArray *results = res->expect;
	g_autofree char *dur = fmt_duration(sim_time_to_s(sc->duration));
	g_autofree char *wall = fmt_duration(wall_s);
	g_autofree char *speed = fmt_ratio(wall_s > 0 ? sim_time_to_s(sc->duration) / wall_s : 0);
	g_autofree char *policy = cli_term_text(res->policy, false);   /* a plugin's path */

	printf("scenario %s, policy %s%s%s: %s simulated in %s (%sx real time)\n", sc->name,
	       policy, args ? ":" : "", args ? args : "", dur, wall, speed);
	printf("  SOC %.1f %% -> %.1f %%", world_metric(m, "soc_initial") * 100,
	       world_metric(m, "soc_final") * 100);
	print_reached("80 %", world_metric(m, "time_to_soc_80_s"));
	print_reached("full", world_metric(m, "time_to_full_s"));
	printf("\n");
	if (isfinite(world_metric(m, "vbus_min_V"))) {
		double below_s = world_metric(m, "time_below_4v75_s");
		double nominal = world_metric(m, "vbus_negotiated_V");
		g_autofree char *below = fmt_duration(below_s);

		/* the floor is 95 % of the negotiated voltage: 4.75 V at 5 V */
		printf("  VBUS min %.3f V, %s below ", world_metric(m, "vbus_min_V"),
		       below_s > 0 ? below : "never");
		if (nominal > 5.0)
			printf("95 %% of the negotiated voltage (4.75 V at 5 V, %.4g V at %.4g V); ",
			       nominal * 95 / 100, nominal);
		else
			printf("4.75 V; ");
	} else {
		printf("  VBUS never powered; ");
	}
	printf("source trips %d, UVLO events %d, brownouts %d\n",
	       (int)world_metric(m, "source_trips"), (int)world_metric(m, "uvlo_events"),
	       (int)world_metric(m, "brownouts"));
	printf("  input limit final %.3f A (max %.3f A), IBUS max %.3f A, charge in %.1f mAh, source energy %.3g Wh\n",
	       world_metric(m, "ilim_final_A"), world_metric(m, "ilim_max_A"),
	       world_metric(m, "ibus_max_A"), world_metric(m, "charge_in_mAh"),
	       world_metric(m, "energy_source_Wh"));
	printf("  detected %s; energy balance error %.2g; %llu steps, %llu events\n",
	       detected ? detected : "(no detection)", world_metric(m, "energy_balance_error"),
	       (unsigned long long)world_metric(m, "steps"),
	       (unsigned long long)world_metric(m, "events"));
	cli_print_kernel_files(res->policy, "  kernel file ");
	print_flags(m);
	/* a model's warning (SOC will pass 100 %, ...) is a flag too: the run went on, but
	 * its result may not mean what it seems (with -q it goes to stderr instead) */
	for (guint i = 0; res->warnings && i < res->warnings->len; i++) {
		g_autofree char *w = cli_term_text(res->warnings->pdata[i], false);

		printf("  ! WARNING: %s\n", w);
	}
	if (results && (results->len || res->expect_other)) {
		guint failed = run_failed_expectations(res);

		printf("  expectations: %u held, %u failed%s", results->len - failed, failed,
		       failed ? " (listed on stderr)" : "");
		if (res->expect_other)
			printf("; %d for other policies not checked", res->expect_other);
		printf("\n");
	}
	if (outdir)
		printf("  outputs in %s/: trace.csv, events.jsonl, metrics.json\n", outdir);
}

/* Why the run failed, on stderr whatever --quiet says: one line per failed
 * expectation. */
static void print_failed_expectations(const struct run_result *res)
{
	const GArray *results = res->expect;

	for (guint i = 0; results && i < results->len; i++) {
		const struct expect_result *r = &g_array_index(results, struct expect_result, i);

		if (!r->pass)
			cli_error("%s: FAILED: %s (got %s)", res->scenario->file, r->what, r->got);
	}
}

/* --sysfs-at TIME...: the times, and directory labels keeping the user's spelling
 * without blanks. False (with the message printed) on a bad time. */
static bool parse_sysfs_at(char **texts, struct world_options *wo, sim_time_t **times,
			   char ***labels)
{
	int n = (int)g_strv_length(texts);

	*times = g_new0(sim_time_t, (gsize)n);
	*labels = g_new0(char *, (gsize)n + 1);
	for (int i = 0; i < n; i++) {
		g_autoptr(GError) terr = NULL;
		GString *lab;

		if (!units_parse_time(texts[i], &(*times)[i], &terr) || (*times)[i] < 0)
			return cli_error("--sysfs-at: %s",
					 terr ? terr->message : "expected a time of at least 0 s");
		lab = g_string_new(NULL);
		for (const char *c = texts[i]; *c; c++)
			if (g_ascii_isalnum(*c) || *c == '.' || *c == '-' || *c == '_')
				g_string_append_c(lab, *c);
		(*labels)[i] = g_string_free(lab, FALSE);
	}
	wo->n_sysfs = n;
	wo->sysfs_at = *times;
	wo->sysfs_labels = (const char *const *)*labels;
	return true;
}

/* --max-step without --trace-dt writes a row per step: say so before a run whose
 * trace would pass RUN_TRACE_WARN_BYTES (the demo at 1 ms: 7.2 million rows, 545 MB). */
#define RUN_TRACE_ROW_BYTES 75            /* a trace.csv row of the demo, 14 columns */
#define RUN_TRACE_WARN_BYTES 100000000.0  /* 100 MB: more than a check needs */

static void warn_trace_size(const char *max_step, const struct world_options *wo,
			    const struct scenario *sc)
{
	double rows = (double)sc->duration / (double)wo->max_step;
	double bytes = rows * RUN_TRACE_ROW_BYTES;
	g_autofree char *dur = NULL;

	if (wo->max_step <= 0 || wo->trace_dt > 0 || bytes < RUN_TRACE_WARN_BYTES)
		return;
	dur = fmt_duration(sim_time_to_s(sc->duration));
	cli_error("warning: --max-step %s over the scenario's %s writes about %.2g million "
		  "trace rows (about %.0f MB) to trace.csv; add --trace-dt 1s to keep one row per "
		  "second (state changes and the last row are always kept)", max_step, dur,
		  rows / 1e6, bytes / 1e6);
}

/* The ready hook: the options that need the scenario's duration, then the clock
 * starts (the summary times the world alone, not the loading). */
struct run_ready {
	const char *max_step;      /* the options as given */
	char **sysfs_at;
	const struct world_options *wo;
	gint64 t0;
};

static bool check_against_scenario(const struct scenario *sc, void *data, GError **err)
{
	struct run_ready *r = data;
	const struct world_options *wo = r->wo;

	if (wo->max_step > 0 && (wo->max_step < SIM_US || sc->duration / wo->max_step > 1000000000)) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "--max-step: found %s, expected at least 1 us and at most 10^9 steps over the scenario's %g s",
			    r->max_step, sim_time_to_s(sc->duration));
		return false;
	}
	warn_trace_size(r->max_step, wo, sc);
	for (int i = 0; i < wo->n_sysfs; i++)
		if (wo->sysfs_at[i] > sc->duration) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
				    "--sysfs-at: found %s, expected a time within the scenario's duration (%g s)",
				    r->sysfs_at[i], sim_time_to_s(sc->duration));
			return false;
		}
	r->t0 = g_get_monotonic_time();
	return true;
}

/* A failed run's message, worded as each stage always was. */
static void print_failure(const struct run_result *res)
{
	switch (res->stage) {
	case RUN_STAGE_READY:
	case RUN_STAGE_FINISH:
		cli_error("%s", res->error->message);
		break;
	case RUN_STAGE_RUN:
		cli_error("%s: %s", res->scenario->file, res->error->message);
		break;
	default:
		cli_print_message(res->error->message);
	}
}

/* Once the run went through, in its staging directory (so that what is written joins
 * the set of outputs it draws): the simulation's clock stops, then --plot and
 * --report draw; both are reported after the summary. */
struct run_staged {
	const char *outdir;
	bool plot, report;
	gint64 t_end;            /* the world's end: the summary's time leaves gnuplot out */
	GError *plot_err, *report_err;
};

static void report_staged(const struct run_result *res, const char *dir, struct run_staged *p)
{
	g_autofree char *svg = g_build_filename(dir, "plot.svg", NULL);
	g_autofree char *failed = p->plot_err ? g_strdup_printf("it could not be drawn: %s",
								 p->plot_err->message) : NULL;
	struct report_run run = { res->policy, "", &res->metrics, res->warnings, res->expect };
	struct report_spec spec = {
		.sc = res->scenario, .dir = dir, .n = 1, .runs = &run,
		.plot_svg = p->plot_err ? NULL : svg, .no_plot = failed,
	};

	report_write_html(&spec, &p->report_err);
}

static void run_staged(const struct run_result *res, const char *dir, void *data)
{
	struct run_staged *p = data;
	const struct scenario *sc = res->scenario;

	p->t_end = g_get_monotonic_time();
	if (p->plot)
		cli_plot_render_run(dir, p->outdir, sc->name, res->policy, scenario_uvlo_v(sc),
				    p->report, &p->plot_err);
	if (p->report)
		report_staged(res, dir, p);
}

int cmd_run(int argc, char **argv)
{
	g_autofree char *outdir_opt = NULL, *policy = NULL, *max_step = NULL, *trace_dt = NULL;
	g_auto(GStrv) sets = NULL, sysfs_at = NULL, allow = NULL;
	gboolean plot_opt = FALSE, vcd = FALSE, quiet = FALSE, report = FALSE;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir_opt, "Write outputs to DIR (default out/NAME)", "DIR" },
		{ "policy", 0, 0, G_OPTION_ARG_STRING, &policy, "Use this policy instead of the scenario's: a built-in name or a plugin file path/to/x.so, with parameters of its own after ':' (safe-ramp:step=50mA,interval=2s)", "NAME[:KEY=VALUE,...]" },
		{ "set", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &sets, "Override a scenario value, e.g. source.ilim=1.5A (repeatable)", "PATH=VALUE" },
		{ "plot", 0, 0, G_OPTION_ARG_NONE, &plot_opt, "Also write plot.png and plot.svg from an editable gnuplot script plot.gp (needs gnuplot)", NULL },
		{ "report", 0, 0, G_OPTION_ARG_NONE, &report, "Also write report.html: the run as one self-contained page, with the plot (as --plot, with a zoom panel)", NULL },
		{ "vcd", 0, 0, G_OPTION_ARG_NONE, &vcd, "Also write trace.vcd (for GTKWave)", NULL },
		{ "sysfs-at", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sysfs_at, "Write the power_supply sysfs tree as it reads at TIME into DIR/sysfs-TIME/ (repeatable)", "TIME" },
		{ "max-step", 0, 0, G_OPTION_ARG_STRING, &max_step, "Fixed continuous steps of this size, to check the adaptive ones (add --trace-dt 1s: a row per step is large)", "TIME" },
		{ "trace-dt", 0, 0, G_OPTION_ARG_STRING, &trace_dt, "At most one trace row per TIME, plus the rows of state changes and of the jumps events make", "TIME" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL },
		CLI_ALLOW_PLUGINS_ENTRY(&allow),
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SCENARIO.json - run one scenario");
	g_autoptr(GError) err = NULL;
	g_autoptr(scenario) sc = NULL;
	g_autofree char *outdir = NULL;
	g_autofree sim_time_t *sysfs_times = NULL;
	g_auto(GStrv) sysfs_labels = NULL;
	struct run_options ro = { .expect = true };
	struct run_ready ready = { .wo = &ro.world };
	struct run_result res = { 0 };
	struct run_staged staged = { 0 };
	struct cs_policy_spec spec = { 0 };
	bool stale_plot;
	int status = CLI_EXIT_USAGE;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Writes trace.csv, events.jsonl and metrics.json into the output directory and\n"
		"prints a summary. Exit status 1 when an expectation of the scenario failed.\n\n"
		CLI_ALLOW_PLUGINS_NOTE
		"A plugin named with --policy FILE.so is your own choice and needs no --allow-plugins.");
	if (!cli_parse(ctx, &argc, &argv) || !cli_allow_plugins(allow))
		goto out;
	if (argc != 2) {
		cli_error("run: expected exactly one scenario file, found %d arguments (see --help)", argc - 1);
		goto out;
	}
	if (policy && !cs_policy_spec_parse(policy, &spec, &err)) {
		cli_error("run: %s", err->message);
		goto out;
	}
	if ((sysfs_at && !parse_sysfs_at(sysfs_at, &ro.world, &sysfs_times, &sysfs_labels)) ||
	    (max_step && !parse_time_opt("--max-step", max_step, &ro.world.max_step)) ||
	    (trace_dt && !parse_time_opt("--trace-dt", trace_dt, &ro.world.trace_dt)))
		goto out;
	sc = scenario_load(argv[1], (const char *const *)sets, &err);
	if (!sc) {
		cli_print_message(err->message);
		goto out;
	}
	outdir = outdir_opt ? g_strdup(outdir_opt) : g_build_filename("out", sc->name, NULL);
	ro.world.outdir = outdir;
	ro.world.vcd = vcd;
	ro.world.policy = spec.name;
	ro.world.policy_params = spec.params;
	ready.max_step = max_step;
	ready.sysfs_at = sysfs_at;
	ro.ready = check_against_scenario;
	ro.ready_data = &ready;
	/* an earlier plot goes with the outputs it showed (they are one set); said only
	 * when not quiet, so only looked for then */
	plot_opt |= report;
	stale_plot = !plot_opt && !quiet && cli_plot_exists(outdir);
	staged = (struct run_staged){ .outdir = outdir, .plot = plot_opt, .report = report };
	ro.staged = run_staged;
	ro.staged_data = &staged;
	status = run_scenario(sc, &ro, &res);
	if (res.stage != RUN_STAGE_DONE) {
		/* a run stopped by a full disk says first that its trace was large */
		for (guint i = 0; res.warnings && i < res.warnings->len; i++)
			cli_error("warning: %s: %s", sc->file, (const char *)res.warnings->pdata[i]);
		print_failure(&res);
		goto out;
	}
	if (!quiet)
		print_summary(&res, outdir, spec.args,
			      (double)((staged.t_end ? staged.t_end : g_get_monotonic_time()) -
				       ready.t0) * 1e-6);
	/* the summary shows the warnings; without it they go to stderr */
	for (guint i = 0; quiet && res.warnings && i < res.warnings->len; i++)
		cli_error("warning: %s: %s", sc->file, (const char *)res.warnings->pdata[i]);
	if (stale_plot && !quiet)
		printf("  %s\n", CLI_STALE_PLOT_NOTE);
	print_failed_expectations(&res);
	if (plot_opt)
		status = cli_plot_report(outdir, staged.plot_err, false, quiet, status);
	if (staged.report_err) {
		cli_error("report: %s", staged.report_err->message);
		status = CLI_EXIT_USAGE;
	} else if (report && !quiet) {
		printf("  report: %s/report.html\n", outdir);
	}
out:
	g_clear_error(&staged.plot_err);
	g_clear_error(&staged.report_err);
	run_result_clear(&res);
	cs_policy_spec_clear(&spec);
	return status;
}
