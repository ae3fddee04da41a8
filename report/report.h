/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report/report.h - a run or a comparison as a document for a design review.
 *
 * compare writes, beside its runs, compare.csv and compare.json (one row, or object,
 * per policy: every metric of metrics.json with its unit, the run's warnings) and
 * report.html; `run --report` writes report.html for its one run. The report is one
 * self-contained HTML file (no script, no network, no other file needed): the
 * scenario's name and description, the metrics table with units and flags, the plot
 * (gnuplot's SVG, written by plots/, inlined), the key events of each run from its
 * events.jsonl and relative links to each run's files.
 *
 * The metrics are taken generically from what the run produced (world_metrics_emit():
 * the run's and every model's, in metrics.json order), their units from their names
 * (docs/scenarios.md: _V volts, _A amperes, _s seconds, _mAh, _Wh, _C degrees Celsius,
 * soc* a fraction of full). Everything written depends on the inputs only: the same
 * runs give byte-identical files. See docs/report.md.
 */
#ifndef CS_REPORT_REPORT_H
#define CS_REPORT_REPORT_H

#include <stdbool.h>
#include <glib.h>
#include "run/run.h"
#include "run/score_table.h"

/* One run in the document. */
struct report_run {
	const char *label;       /* its name in the table: the policy, as compare labels it */
	const char *rel;         /* its directory relative to the report's ("" for run) */
	const struct world_metrics *metrics;
	const GPtrArray *warnings;   /* "SRC: MESSAGE" strings, or NULL */
	const GArray *expect;    /* struct expect_result of a checked run, or NULL */
};

struct report_spec {
	const struct scenario *sc;
	const char *dir;         /* where the files go (a staging directory) and where the
				  * runs' files are read from (dir/rel/events.jsonl) */
	int n;
	const struct report_run *runs;
	/* The plot (dir/plot.svg, plot.gp, plot.png) when one was drawn; else NULL and
	 * no_plot says why the report has no figure. */
	const char *plot_svg;
	const char *no_plot;
};

/* The unit of a metric from its name ("V", "mAh", "fraction"), "" for a count or text. */
const char *report_metric_unit(const char *name);

/* dir/compare.csv and dir/compare.json. False with err (CS_OUTPUT_ERROR) on failure. */
bool report_write_tables(const struct report_spec *spec, GError **err);
/* dir/report.html. False with err on failure (an events.jsonl that cannot be read, a
 * file that cannot be written). */
bool report_write_html(const struct report_spec *spec, GError **err);

/* `chargesim score --report` (report/score_html.c): dir/report.html of a score's
 * figures (sum, made from its score.csv), seed, population and oracle. */
bool report_write_score_html(const char *dir, const struct score_summary *sum, guint32 seed,
			     const struct population *pop, const struct score_oracle_def *def,
			     GError **err);

#endif
