/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/testutil.h - running a scenario from a test and reading its outputs back.
 *
 * tu_run() loads scenario JSON text, runs it with outputs in a fresh temporary
 * directory and reads events.jsonl and metrics.json back (with traces/events.h and
 * cJSON, independently of the code that wrote them); tu_read_trace() reads trace.csv
 * too (traces/csv.h) when a test asks. tu_done() removes the directory.
 */
#ifndef CS_TESTS_TESTUTIL_H
#define CS_TESTS_TESTUTIL_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "run/world.h"
#include "sim/solver.h"

struct tu_run {
	bool ok;
	char *dir;
	GPtrArray *ev;       /* cJSON * per events.jsonl line */
	cJSON *metrics;
	struct world_metrics m;  /* world_metrics() after the run (TU_M(r, NAME)) */
	char **cols;         /* trace.csv header, after tu_read_trace() */
	int ncols;
	GPtrArray *rows;     /* double[ncols] per trace row (labels read as NAN) */
};

/* A metric of run r (struct tu_run) by name. */
#define TU_M(r, name) world_metric(&(r).m, name)

/* False (with a message on stderr) when the run fails or its outputs cannot be read;
 * the directory is gone then and tu_done() is harmless. */
bool tu_run(struct tu_run *r, const char *json);
/* The same with world options (max_step, sysfs times, ...); opt->outdir is ignored. */
bool tu_run_opts(struct tu_run *r, const char *json, const struct world_options *opt);
void tu_done(struct tu_run *r);
/* Read r->dir/trace.csv into r->cols and r->rows; false (with a message) on failure. */
bool tu_read_trace(struct tu_run *r);
/* Column index in the trace header, -1 when absent. */
int tu_col(const struct tu_run *r, const char *name);
/* Seconds from `from` to the end of the trace during which column col reads between lo
 * and hi (inclusive): each trace row holds until the next (after tu_read_trace()). */
double tu_time_within(const struct tu_run *r, const char *col, double lo, double hi,
		      double from);
/* The same for a reading of v within tol. */
double tu_time_at(const struct tu_run *r, const char *col, double v, double tol, double from);
/* Metric value (number) or NAN when absent or null. */
double tu_metric(const struct tu_run *r, const char *name);
/* A member of a JSON object (an event record, r->metrics): a number, NAN when absent
 * or not a number; a string, "" when absent or not a string. obj may be NULL. */
double tu_num(const cJSON *obj, const char *key);
const char *tu_str(const cJSON *obj, const char *key);
/* The i-th record (0-based) with this src/ev whose string field key equals value
 * (key NULL: any); NULL when there is none. */
const cJSON *tu_event(const struct tu_run *r, const char *ev, const char *key,
		      const char *value, int i);
double tu_event_time(const cJSON *rec);
int tu_count(const struct tu_run *r, const char *ev);
/* How many records tu_event() finds for ev, key and value. */
int tu_count_where(const struct tu_run *r, const char *ev, const char *key, const char *value);
/* OCV of the default cell (EB425161LU) at SOC s, linear in the table of docs/models.md
 * (Battery) written out again (0/5/10/20/.../100 %), extrapolated from the end
 * segments outside 0..1. */
double tu_ref_ocv(double s);
/* Removes a directory tree (links are removed, not followed). */
void tu_rm_tree(const char *path);
/* A fresh directory from a g_dir_make_tmp() template; NULL (and a message on stderr)
 * when it cannot be made. The caller frees the name. */
char *tu_make_tmpdir(const char *tmpl);
/* A file of the repository (rel from its top): in the working directory, or beside the
 * build/ directory the test binary runs from; NULL when neither has it. */
char *tu_repo_file(const char *rel);

/* |a - b| <= tol; otherwise false, with what, a and b on stderr. */
bool tu_near(double a, double b, double tol, const char *what);
#define ASSERT_NEAR(a, b, tol) CU_ASSERT(tu_near((a), (b), (tol), #a))

/* The network the solver tests start from: Voc 5 V behind 0.2 + 0.3 ohm, no source
 * limit, eff 0.9, a cell EMF 3.8 V behind 0.1 ohm, CC 1 A, VREG 4.35 V, no load. */
void tu_net_base(struct net_in *in);

#endif
