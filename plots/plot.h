/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plots/plot.h - plots of traces and sweep results, drawn by gnuplot.
 *
 * Every plot is one editable gnuplot script plus the data it reads, kept beside the
 * images so that a user can change a colour or a range and render again with
 * `cd DIR && gnuplot NAME.gp`. The script reads the traces (columns by header name,
 * so any column order works) from copies thinned to what the picture shows,
 * NAME-trace-N.csv, and small files written here: NAME-events.dat (the discrete
 * events drawn as labelled vertical lines), NAME-states.dat (the segments of the
 * state band) and, with a USB PD contract above 5 V, NAME-contract.dat. Ranges, the
 * time unit and the zoom window are chosen from the data when the script is written.
 *
 * gnuplot runs as a child process (CHARGESIM_GNUPLOT names another program or path);
 * its stderr is captured and returned in the error when it fails, and the images are
 * written under temporary names and renamed into place only when gnuplot succeeded.
 *
 * See docs/plots.md for the panels, the zoom rule and the heat maps.
 */
#ifndef CS_PLOTS_PLOT_H
#define CS_PLOTS_PLOT_H

#include <stdbool.h>
#include <glib.h>

#define CS_PLOT_ERROR (cs_plot_error_quark())
GQuark cs_plot_error_quark(void);
enum {
	CS_PLOT_ERROR_INPUT,       /* a trace or results file lacks what the plot needs */
	CS_PLOT_ERROR_NO_GNUPLOT,  /* gnuplot is not installed, or CHARGESIM_GNUPLOT is wrong */
	CS_PLOT_ERROR_GNUPLOT,     /* gnuplot ran and failed: the message holds its stderr */
	CS_PLOT_ERROR_IO,          /* a file could not be written */
};

/* The environment variable naming the gnuplot program (a name looked up in PATH,
 * or a path). */
#define PLOT_GNUPLOT_ENV "CHARGESIM_GNUPLOT"
#define PLOT_INSTALL_HINT "sudo apt-get install gnuplot-nox"

enum plot_zoom {
	PLOT_ZOOM_NONE,    /* no zoom panel */
	PLOT_ZOOM_AUTO,    /* the interesting window, chosen by the rule in docs/plots.md */
	PLOT_ZOOM_RANGE,   /* zoom_from_s .. zoom_to_s */
};

/* One trace to draw. Only `trace` is required. */
struct plot_trace {
	const char *trace;    /* a CSV with the standard trace columns */
	const char *label;    /* legend label; NULL: the run directory or file name */
	const char *events;   /* events.jsonl of the run, NULL for none */
	const char *metrics;  /* metrics.json of the run, NULL for none */
};

struct plot_spec {
	const char *script;       /* the script to write, ending in .gp; the images are the
				   * same path with .png / .svg, the data NAME-*.dat */
	bool png, svg;            /* which images the script renders by default */
	const char *title;        /* first title line; NULL: from the labels */
	double uvlo_v;            /* the charger's UVLO falling threshold, NAN unknown */
	enum plot_zoom zoom;
	double zoom_from_s, zoom_to_s;
	bool render;              /* false: write the script and its data only */
	int n;
	const struct plot_trace *traces;
};

/* Whether a plot whose script is `script` may be written without touching any of the
 * n paths in inputs (NULL entries skipped): false with a CS_PLOT_ERROR_INPUT error when
 * a file it writes or removes (NAME.gp, NAME.png, NAME.svg, NAME-*.dat,
 * NAME-trace-N.csv beside the script) is one of them, compared as files (device and
 * inode, so through links too). No command overwrites its own input: `plot
 * X-trace-1.csv -o X.svg` would thin the trace over itself. plot_traces() and
 * plot_heatmap() check their inputs; a caller adds what else it read. */
bool plot_check_inputs(const char *script, const char *const *inputs, int n, GError **err);

/* Write spec->script and its data, then render with gnuplot (if spec->render).
 * gnuplot's warnings on success are printed to stderr. The files of an earlier plot
 * of the same name are removed first. */
bool plot_traces(const struct plot_spec *spec, GError **err);

enum plot_agg { PLOT_AGG_NONE, PLOT_AGG_MEAN, PLOT_AGG_MIN, PLOT_AGG_MAX };

/* A heat map of one metric over two varied parameters of a results.csv, one map per
 * value of `by` (NULL: one map). Rows falling into one cell (random samples, other
 * varied parameters) are an error unless `agg` combines them. */
struct plot_heatmap_spec {
	const char *results;      /* CSV: a header row, one row per variant */
	const char *x, *y, *z;    /* column names: two parameters and a metric */
	const char *by;           /* column splitting the maps (e.g. "policy"), or NULL */
	const char *script;       /* the script to write (.gp); images beside it */
	bool png, svg;
	const char *title;        /* NULL: "Z over X and Y" */
	enum plot_agg agg;        /* how several rows of one cell combine */
	bool render;
};

bool plot_heatmap(const struct plot_heatmap_spec *spec, GError **err);

#endif
