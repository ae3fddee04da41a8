// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/plot.c - the stacked plot of traces (plot_traces() in plot.h): scan every
 * run (scan.c), lay out (layout.c), write the data files and the script (script.c),
 * render with gnuplot (gnuplot.c). See stacked.h for the steps.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "plots/gp.h"
#include "plots/stacked.h"
#include "output/outfile.h"

G_DEFINE_QUARK(cs-plot-error-quark, cs_plot_error)

static void plot_free(struct plot *pl)
{
	for (int i = 0; i < pl->n; i++)
		plot_run_clear(&pl->runs[i]);
	g_free(pl->runs);
	for (guint i = 0; i < pl->marks->len; i++)
		g_free(g_array_index(pl->marks, struct mark, i).label);
	g_array_unref(pl->marks);
	g_array_unref(pl->sags);
	g_array_unref(pl->ilim_sets);
	g_array_unref(pl->attaches);
	g_free(pl->zoom_reason);
	g_clear_pointer(&pl->sub_lines, g_ptr_array_unref);
	g_clear_pointer(&pl->sub_runs, g_array_unref);
}

/* The same label twice would make an ambiguous legend: number the later one. */
static void distinct_labels(struct plot *pl)
{
	for (int i = 1; i < pl->n; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(pl->runs[i].label, pl->runs[j].label) == 0) {
				char *l = g_strdup_printf("%s (%d)", pl->runs[i].label, i + 1);

				g_free(pl->runs[i].label);
				pl->runs[i].label = l;
			}
}

/* Is name (in the script's directory) a data file of an earlier plot with base name
 * base that this one may not write again: NAME-contract.dat or NAME-trace-N.csv? */
static bool plot_data_file(const char *name, const char *base)
{
	size_t n = strlen(base);
	int end = -1;

	if (strncmp(name, base, n) != 0)
		return false;
	if (strcmp(name + n, "-contract.dat") == 0)
		return true;
	sscanf(name + n, "-trace-%*[0-9].csv%n", &end);
	return end > 0 && name[n + (size_t)end] == '\0';
}

static void remove_data_files(const char *script)
{
	g_autofree char *dir = g_path_get_dirname(script);
	g_autofree char *path = gp_strip_ext(script);
	g_autofree char *base = g_path_get_basename(path);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d)))
		if (plot_data_file(name, base)) {
			g_autofree char *f = g_build_filename(dir, name, NULL);

			g_unlink(f);
		}
}

/* NAME-trace-N.csv of each run and NAME-contract.dat. */
static bool write_data(struct plot *pl, const char *base_path, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(base_path);

	for (int i = 0; i < pl->n; i++) {
		g_autofree char *path = g_strdup_printf("%s-trace-%d.csv", base_path, i + 1);

		pl->runs[i].data_rel = gp_relative_path(dir, path);
		if (!plot_write_thinned(pl, i, path, err))
			return false;
	}
	if (pl->contract_file) {
		g_autofree char *path = g_strdup_printf("%s-contract.dat", base_path);

		return plot_write_contract(pl, path, err);
	}
	return true;
}

/* Every trace and its events and metrics files are inputs the plot may not replace. */
static bool check_inputs(const struct plot_spec *spec, GError **err)
{
	g_autofree const char **in = g_new0(const char *, 3 * (gsize)spec->n);

	for (int i = 0; i < spec->n; i++) {
		in[3 * i] = spec->traces[i].trace;
		in[3 * i + 1] = spec->traces[i].events;
		in[3 * i + 2] = spec->traces[i].metrics;
	}
	return plot_check_inputs(spec->script, in, 3 * spec->n, err);
}

bool plot_traces(const struct plot_spec *spec, GError **err)
{
	struct plot pl = {
		.spec = spec, .n = spec->n,
		.x = { INFINITY, -INFINITY, 0, -INFINITY, -INFINITY, -INFINITY, INFINITY, INFINITY,
		       -INFINITY, INFINITY, -INFINITY, -INFINITY, INFINITY },
	};
	g_autofree char *dir = g_path_get_dirname(spec->script);
	g_autofree char *base_path = gp_strip_ext(spec->script);
	g_autofree char *base_name = g_path_get_basename(base_path);
	g_autofree char *events_path = g_strdup_printf("%s-events.dat", base_path);
	g_autofree char *states_path = g_strdup_printf("%s-states.dat", base_path);
	g_autofree char *text = NULL;
	int n_events = 0;
	bool ok = false;

	g_return_val_if_fail(spec->n > 0, false);
	pl.runs = g_new0(struct plot_run, (gsize)spec->n);
	pl.marks = g_array_new(FALSE, FALSE, sizeof(struct mark));
	pl.sags = g_array_new(FALSE, FALSE, sizeof(struct sag));
	pl.ilim_sets = g_array_new(FALSE, FALSE, sizeof(struct sag));
	pl.attaches = g_array_new(FALSE, FALSE, sizeof(struct sag));
	for (int i = 0; i < spec->n; i++) {
		if (!plot_scan_run(&pl, i, &spec->traces[i], err))
			goto out;
		pl.runs[i].trace_rel = gp_relative_path(dir, spec->traces[i].trace);
		if (!gp_check_file_name(pl.runs[i].trace_rel, err))
			goto out;
	}
	if (!gp_check_file_name(base_name, err) || !check_inputs(spec, err))
		goto out;
	distinct_labels(&pl);
	plot_layout(&pl);
	if (!cs_mkdir_p(dir, err))
		goto out;
	/* the data of an earlier plot of this name (more runs, a PD contract) must not
	 * outlive it */
	remove_data_files(spec->script);
	if (!write_data(&pl, base_path, err) || !plot_write_states(&pl, states_path, err) ||
	    !plot_write_events(&pl, events_path, &n_events, err))
		goto out;
	text = plot_script_text(&pl, base_name, n_events);
	if (!cs_outfile_write_all(spec->script, text, strlen(text), err))
		goto out;
	ok = !spec->render || gp_run(spec->script, spec->png, spec->svg, err);
out:
	plot_free(&pl);
	return ok;
}
