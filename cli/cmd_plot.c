// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_plot.c - `chargesim plot`: traces stacked on one time axis (several
 * overlaid), or heat maps of a sweep's results; and the `--plot` of run and compare.
 *
 *   chargesim plot TRACE.csv [TRACE.csv]... -o FILE.png|FILE.svg
 *   chargesim plot --heatmap results.csv --x PARAM --y PARAM --z METRIC [--by COLUMN] -o FILE.png
 *
 * The drawing is in plots/; this file turns options into a plot_spec, finds the
 * events.jsonl and metrics.json beside each trace, and maps errors to exit statuses
 * (2 for bad input, a missing gnuplot or a gnuplot failure).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "plots/plot.h"
#include "run/scenario.h"
#include "output/outset.h"
#include "sim/units.h"

/* A file beside `trace` (same directory), or NULL when it does not exist. */
static char *beside(const char *trace, const char *name)
{
	g_autofree char *dir = g_path_get_dirname(trace);
	char *p = g_build_filename(dir, name, NULL);

	if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
		return p;
	g_free(p);
	return NULL;
}

/* The outputs of a rendered script: "DIR/plot.png, DIR/plot.svg". */
static void print_outputs(const char *script)
{
	g_autofree char *base = g_strndup(script, strlen(script) - 3);
	g_autofree char *dir = g_path_get_dirname(script);
	g_autofree char *name = g_path_get_basename(script);

	printf("  plot: %s.png, %s.svg (edit and render again: cd %s && gnuplot %s)\n", base, base,
	       dir, name);
}

bool cli_plot_exists(const char *outdir)
{
	static const char *const names[] = { "plot.gp", "plot.png", "plot.svg" };
	bool found = false;

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *p = g_build_filename(outdir, names[i], NULL);

		found |= g_file_test(p, G_FILE_TEST_EXISTS);
	}
	return found;
}

/* dir/plot.gp and its images of the runs written into dir (one, as `run` writes it)
 * or into dir/NAME (each of names, as `compare` does), labelled by names; on failure
 * the staged outputs are named as shown. */
static bool render_runs(const char *dir, const char *shown, const char *title, char **names,
			bool subdirs, enum plot_zoom zoom, double uvlo_v, GError **err)
{
	int n = (int)g_strv_length(names);
	g_autofree struct plot_trace *t = g_new0(struct plot_trace, (gsize)n);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *script = g_build_filename(dir, "plot.gp", NULL);
	struct plot_spec spec = {
		.script = script, .png = true, .svg = true, .title = title, .uvlo_v = uvlo_v,
		.zoom = zoom, .render = true, .n = n, .traces = t,
	};
	bool ok;

	for (int i = 0; i < n; i++) {
		const char *sub = subdirs ? names[i] : "";
		char *p[3] = {
			g_build_filename(dir, sub, "trace.csv", NULL),
			g_build_filename(dir, sub, "events.jsonl", NULL),
			g_build_filename(dir, sub, "metrics.json", NULL),
		};

		for (int k = 0; k < 3; k++)
			g_ptr_array_add(paths, p[k]);
		t[i] = (struct plot_trace){ p[0], names[i], p[1], p[2] };
	}
	ok = plot_traces(&spec, err);
	if (!ok && err)
		cs_path_unstage(*err, dir, shown);
	return ok;
}

bool cli_plot_render_run(const char *dir, const char *shown, const char *scenario_name,
			 const char *policy, double uvlo_v, bool zoom, GError **err)
{
	g_autofree char *title = g_strdup_printf("%s, policy %s", scenario_name, policy);
	char *names[] = { (char *)policy, NULL };

	return render_runs(dir, shown, title, names, false, zoom ? PLOT_ZOOM_AUTO : PLOT_ZOOM_NONE,
			   uvlo_v, err);
}

bool cli_plot_render_compare(const char *dir, const char *shown, const char *scenario_name,
			     char **policies, double uvlo_v, GError **err)
{
	g_autofree char *title = g_strdup_printf("%s: policies compared", scenario_name);

	return render_runs(dir, shown, title, policies, true, PLOT_ZOOM_AUTO, uvlo_v, err);
}

int cli_plot_report(const char *outdir, const GError *err, bool compare, bool quiet, int status)
{
	g_autofree char *script = g_build_filename(outdir, "plot.gp", NULL);

	if (err) {
		cli_error("plot: %s", err->message);
		if (err->code == CS_PLOT_ERROR_NO_GNUPLOT || err->code == CS_PLOT_ERROR_GNUPLOT) {
			if (compare)
				cli_error("plot: the runs' other outputs are under %s/; the script is %s",
					  outdir, script);
			else
				cli_error("plot: the run's other outputs are in %s/; the script is %s "
					  "(render it later with: cd %s && gnuplot plot.gp)", outdir, script,
					  outdir);
		}
		return CLI_EXIT_USAGE;
	}
	if (!quiet) {
		if (compare)
			printf("\n");
		print_outputs(script);
	}
	return status;
}

/* -o FILE.png|FILE.svg -> FILE.gp and the format. */
static bool output_format(const char *out, char **script, bool *png, bool *svg)
{
	const char *dot = strrchr(out, '.');
	const char *slash = strrchr(out, '/');

	if (!dot || (slash && dot < slash) || dot == out || dot[-1] == '/') {
		cli_error("plot: -o %s: expected a file name ending in .png or .svg", out);
		return false;
	}
	*png = g_ascii_strcasecmp(dot, ".png") == 0;
	*svg = g_ascii_strcasecmp(dot, ".svg") == 0;
	if (!*png && !*svg) {
		cli_error("plot: -o %s: found \"%s\", expected .png or .svg", out, dot);
		return false;
	}
	if (strcmp(dot, *png ? ".png" : ".svg") != 0) {
		cli_error("plot: -o %s: write the extension in lower case (.png or .svg)", out);
		return false;
	}
	*script = g_strdup_printf("%.*s.gp", (int)(dot - out), out);
	return true;
}

static bool parse_zoom(const char *text, struct plot_spec *spec)
{
	g_auto(GStrv) parts = NULL;
	g_autoptr(GError) err = NULL;
	sim_time_t a, b;

	if (!text || strcmp(text, "auto") == 0) {
		spec->zoom = PLOT_ZOOM_AUTO;
		return true;
	}
	if (strcmp(text, "none") == 0) {
		spec->zoom = PLOT_ZOOM_NONE;
		return true;
	}
	parts = g_strsplit(text, ":", 2);
	if (g_strv_length(parts) != 2 || !units_parse_time(parts[0], &a, &err) ||
	    !units_parse_time(parts[1], &b, &err) || b <= a) {
		cli_error("plot: --zoom: found \"%s\"%s%s, expected auto, none or FROM:TO such as "
			  "\"35min:37min\" or 2190:2320 (seconds)", text, err ? ": " : "",
			  err ? err->message : "");
		return false;
	}
	spec->zoom = PLOT_ZOOM_RANGE;
	spec->zoom_from_s = sim_time_to_s(a);
	spec->zoom_to_s = sim_time_to_s(b);
	return true;
}

/* The options as given (GOption fills them). */
struct plot_cli {
	char *out, **labels, *title, *scenario_file, *uvlo, *zoom;
	char *heatmap, *hx, *hy, *hz, *by, *agg;
	gboolean no_render;
};

/* The end of `chargesim plot`: the error, or what it wrote (the image, or only the
 * script). */
static int plot_done(const struct plot_cli *c, const char *script, const GError *err)
{
	if (err) {
		cli_error("plot: %s", err->message);
		return CLI_EXIT_USAGE;
	}
	if (!c->no_render)
		printf("%s (script %s)\n", c->out, script);
	else
		printf("%s (not rendered: gnuplot %s)\n", script, script);
	return CLI_EXIT_OK;
}

/* `chargesim plot --heatmap RESULTS.csv`. */
static int plot_heatmap_cmd(const struct plot_cli *c)
{
	/* --agg's names, in the order of enum plot_agg */
	static const char *const aggs[] = { "none", "mean", "min", "max", NULL };
	struct plot_heatmap_spec spec = {
		.results = c->heatmap, .x = c->hx, .y = c->hy, .z = c->hz, .by = c->by,
		.title = c->title, .render = !c->no_render,
	};
	g_autofree char *script = NULL;
	g_autoptr(GError) err = NULL;
	int agg = 0;

	if (!c->hx || !c->hy || !c->hz) {
		cli_error("plot: --heatmap needs --x PARAM, --y PARAM and --z METRIC (see --help)");
		return CLI_EXIT_USAGE;
	}
	while (c->agg && aggs[agg] && strcmp(c->agg, aggs[agg]) != 0)
		agg++;
	if (!aggs[agg]) {
		cli_error("plot: --agg: found \"%s\", expected mean, min, max or none", c->agg);
		return CLI_EXIT_USAGE;
	}
	spec.agg = (enum plot_agg)agg;
	if (!output_format(c->out, &script, &spec.png, &spec.svg))
		return CLI_EXIT_USAGE;
	spec.script = script;
	plot_heatmap(&spec, &err);
	return plot_done(c, script, err);
}

/* The UVLO line and the title from --scenario, then --uvlo. */
static bool uvlo_and_title(const struct plot_cli *c, struct plot_spec *spec, scenario **sc)
{
	g_autoptr(GError) err = NULL;

	if (c->scenario_file) {
		*sc = scenario_load(c->scenario_file, NULL, &err);
		if (!*sc) {
			cli_print_message(err->message);
			return false;
		}
		spec->uvlo_v = scenario_uvlo_v(*sc);
	}
	if (c->uvlo && !units_parse(c->uvlo, UNIT_VOLT, &spec->uvlo_v, &err)) {
		cli_error("plot: --uvlo: %s", err->message);
		return false;
	}
	spec->title = c->title ? c->title : *sc ? (*sc)->name : NULL;
	return true;
}

/* `chargesim plot TRACE.csv...`: the n traces in files, stacked. */
static int trace_plot_cmd(const struct plot_cli *c, int n, char **files)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(scenario) sc = NULL;
	g_autofree char *script = NULL;
	g_autofree struct plot_trace *traces = NULL;
	g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);
	struct plot_spec spec = { .uvlo_v = NAN, .render = !c->no_render };
	int n_labels = c->labels ? (int)g_strv_length(c->labels) : 0;

	if (n < 1) {
		cli_error("plot: expected at least one trace CSV (see --help)");
		return CLI_EXIT_USAGE;
	}
	if (n_labels > n) {
		cli_error("plot: %d --label options for %d traces", n_labels, n);
		return CLI_EXIT_USAGE;
	}
	if (!output_format(c->out, &script, &spec.png, &spec.svg) ||
	    !parse_zoom(c->zoom ? c->zoom : n > 1 ? "auto" : "none", &spec) ||
	    !uvlo_and_title(c, &spec, &sc))
		return CLI_EXIT_USAGE;
	traces = g_new0(struct plot_trace, (gsize)n);
	for (int i = 0; i < n; i++) {
		/* a trace renamed or exported elsewhere: only a trace.csv owns its neighbours */
		bool own = g_str_has_suffix(files[i], "trace.csv");
		char *ev = own ? beside(files[i], "events.jsonl") : NULL;
		char *me = own ? beside(files[i], "metrics.json") : NULL;

		g_ptr_array_add(owned, ev);
		g_ptr_array_add(owned, me);
		traces[i] = (struct plot_trace){ files[i], i < n_labels ? c->labels[i] : NULL, ev, me };
	}
	spec.script = script;
	spec.n = n;
	spec.traces = traces;
	/* the traces are checked by plot_traces(); --scenario is an input too */
	if (plot_check_inputs(script, (const char *const *)&c->scenario_file, 1, &err))
		plot_traces(&spec, &err);
	return plot_done(c, script, err);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_cli c = { 0 };
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &c.out, "Write FILE.png or FILE.svg (and FILE.gp, the script)", "FILE" },
		{ "label", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.labels, "Legend label of the next trace, in order (repeatable; default: its directory or file name)", "NAME" },
		{ "title", 0, 0, G_OPTION_ARG_STRING, &c.title, "Title (default: the labels)", "TEXT" },
		{ "scenario", 0, 0, G_OPTION_ARG_FILENAME, &c.scenario_file, "Take the UVLO threshold and the title from this scenario", "FILE" },
		{ "uvlo", 0, 0, G_OPTION_ARG_STRING, &c.uvlo, "Draw the charger's UVLO falling threshold at this voltage", "VOLTS" },
		{ "zoom", 0, 0, G_OPTION_ARG_STRING, &c.zoom, "Zoom panel: auto (default with several traces), none (default with one), or FROM:TO", "WINDOW" },
		{ "heatmap", 0, 0, G_OPTION_ARG_FILENAME, &c.heatmap, "Draw heat maps from a sweep's results.csv instead", "RESULTS.csv" },
		{ "x", 0, 0, G_OPTION_ARG_STRING, &c.hx, "Heat map: the parameter across", "PARAM" },
		{ "y", 0, 0, G_OPTION_ARG_STRING, &c.hy, "Heat map: the parameter up", "PARAM" },
		{ "z", 0, 0, G_OPTION_ARG_STRING, &c.hz, "Heat map: the metric coloured", "METRIC" },
		{ "by", 0, 0, G_OPTION_ARG_STRING, &c.by, "Heat map: one map per value of this column (e.g. policy)", "COLUMN" },
		{ "agg", 0, 0, G_OPTION_ARG_STRING, &c.agg, "Heat map: combine the rows of one cell (random samples): mean, min or max", "HOW" },
		{ "no-render", 0, 0, G_OPTION_ARG_NONE, &c.no_render, "Write the script and its data, do not run gnuplot", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("TRACE.csv [TRACE.csv]... -o FILE.png|FILE.svg - plot traces");
	int status = CLI_EXIT_USAGE;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Stacked panels on one time axis: VBUS, input current and limits, battery voltage and\n"
		"SOC, a state band with the discrete events. Several traces are overlaid in distinct\n"
		"colours, with a zoom panel on the interesting window. A trace needs the columns\n"
		"time_s,vsrc_V,vbus_V,ibus_A,ilim_A,vbat_V,soc,charger_state,source_state (any order;\n"
		"src_ilim_A is drawn when present); events.jsonl and metrics.json beside a trace are\n"
		"used for the markers and the title. A plot never writes over one of its inputs\n"
		"(plot X-trace-1.csv -o X.svg is refused: name another plot with -o).\n"
		"\n"
		"Heat maps: chargesim plot --heatmap results.csv --x source.ilim --y cable.length \\\n"
		"               --z source_trips --by policy -o trips.png\n"
		"(one map per policy; --agg mean|min|max when a cell holds several rows)\n"
		"\n"
		"Needs gnuplot (sudo apt-get install gnuplot-nox); CHARGESIM_GNUPLOT names another\n"
		"binary. Exit status 2 for bad input, a missing gnuplot or a gnuplot error.");
	if (!cli_parse(ctx, &argc, &argv))
		goto out;
	if (!c.out) {
		cli_error("plot: -o FILE.png or -o FILE.svg is required (see --help)");
		goto out;
	}
	if (c.heatmap) {
		if (argc != 1)
			cli_error("plot: --heatmap takes no trace files, found \"%s\"", argv[1]);
		else
			status = plot_heatmap_cmd(&c);
		goto out;
	}
	if (c.hx || c.hy || c.hz || c.by || c.agg) {
		cli_error("plot: --x, --y, --z, --by and --agg go with --heatmap RESULTS.csv");
		goto out;
	}
	status = trace_plot_cmd(&c, argc - 1, argv + 1);
out:
	for (GOptionEntry *e = entries; e->long_name; e++)
		if (e->arg == G_OPTION_ARG_STRING_ARRAY)
			g_strfreev(*(char ***)e->arg_data);
		else if (e->arg != G_OPTION_ARG_NONE)
			g_free(*(char **)e->arg_data);
	return status;
}
