// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_csv.c - libFuzzer harness for the CSV trace reader and the trace diff
 * (traces/csv_read.c, traces/diff.c), as `chargesim diff` and golden expectations use them.
 *
 * Input layout: up to three parts separated by a form feed byte (\f, 0x0c):
 *     CANDIDATE-CSV [ \f REFERENCE-CSV [ \f TOLERANCES ] ]
 * TOLERANCES is one "COLUMN=abs:X,rel:Y" / "COLUMN=exact" spec per line, as
 * `chargesim diff --tol` takes them. A plain CSV (no \f) is the common case.
 *
 * Per input:
 *  1. cs_csv_parse() of each CSV part from memory (no NUL terminator, so over-reads are
 *     caught); a failure must set a CS_CSV_ERROR whose message starts with the name.
 *     A trace that parses must keep its documented invariants: >= 1 row, the time
 *     column a numeric column, finite non-decreasing times, finite numeric cells.
 *  2. The candidate is parsed again with its last column named as the time column.
 *  3. cs_csv_find_col() / cs_csv_col_dim() / cs_csv_fmt_value() on every column.
 *  4. The candidate diffed against itself with no tolerance must pass whenever it has a
 *     column besides time (any trace equals itself); with a reference part, the
 *     candidate is diffed against it (with the tolerances, both overlap modes) and every
 *     column and the reason are described.
 * Nothing is written anywhere.
 */
#include <math.h>
#define FUZZ_PLAIN_INIT
#include "fuzz/fuzz_common.h"
#include "traces/column.h"
#include "traces/diff.h"

#define NAME_A "a.csv"
#define NAME_B "b.csv"

static void check_trace(const cs_csv_trace *tr)
{
	FUZZ_CHECK(tr->nrows >= 1 && tr->ncols >= 1, "%zu rows, %d columns", tr->nrows, tr->ncols);
	FUZZ_CHECK(tr->time_col >= 0 && tr->time_col < tr->ncols, "time column %d of %d", tr->time_col,
		   tr->ncols);
	FUZZ_CHECK(!tr->cols[tr->time_col].is_label && tr->t == tr->cols[tr->time_col].v,
		   "time column \"%s\" is not numeric", tr->cols[tr->time_col].name);
	for (size_t i = 0; i < tr->nrows; i++) {
		FUZZ_CHECK(isfinite(tr->t[i]), "time %g on row %zu", tr->t[i], i);
		FUZZ_CHECK(i == 0 || tr->t[i] >= tr->t[i - 1], "time goes back on row %zu", i);
		FUZZ_CHECK(tr->line[i] >= 1, "line %zu of row %zu", tr->line[i], i);
	}
	for (int c = 0; c < tr->ncols; c++) {
		const struct cs_csv_col *col = &tr->cols[c];
		double v = 0;

		FUZZ_CHECK(col->name != NULL, "column %d without a name", c);
		FUZZ_CHECK(cs_csv_find_col(tr, col->name) == c, "column \"%s\" found elsewhere",
			   col->name);
		(void)cs_csv_col_dim(col->name);
		for (size_t i = 0; i < tr->nrows; i++) {
			if (col->is_label) {
				FUZZ_CHECK(col->s && col->s[i], "label column \"%s\" row %zu", col->name, i);
			} else {
				FUZZ_CHECK(col->v && isfinite(col->v[i]), "numeric column \"%s\" row %zu",
					   col->name, i);
				v = col->v[i];
			}
		}
		g_free(cs_csv_fmt_value(col->name, v, c % 12));
	}
}

static cs_csv_trace *parse(const char *name, const char *data, size_t len,
			   const struct cs_csv_read_opts *opts)
{
	GError *err = NULL;
	cs_csv_trace *tr = cs_csv_parse(name, len ? data : "", len, opts, &err);

	if (!tr) {
		FUZZ_CHECK(err != NULL, "%s: parse failed without an error", name);
		FUZZ_CHECK(err->domain == CS_CSV_ERROR, "%s: error domain %s", name,
			   g_quark_to_string(err->domain));
		FUZZ_CHECK(g_str_has_prefix(err->message, name), "message \"%s\"", err->message);
		g_error_free(err);
		return NULL;
	}
	FUZZ_CHECK(err == NULL, "%s: parsed with an error set", name);
	check_trace(tr);
	return tr;
}

static void describe(const struct cs_diff *d)
{
	g_free(cs_diff_reason(d));
	for (int i = 0; i < d->ncols; i++)
		g_free(cs_diff_col_describe(&d->cols[i]));
}

static void diff(const cs_csv_trace *a, const cs_csv_trace *b, const struct cs_tolerances *tol)
{
	for (int overlap = 0; overlap < 2; overlap++) {
		struct cs_diff_opts o = { .tol = tol, .overlap_only = overlap };
		struct cs_diff *d = cs_diff_traces(a, b, &o);

		FUZZ_CHECK(d != NULL, "cs_diff_traces returned NULL");
		describe(d);
		cs_diff_free(d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	const char *ff1 = size ? memchr(p, '\f', size) : NULL;
	const char *ff2 = ff1 ? memchr(ff1 + 1, '\f', (size_t)(end - ff1 - 1)) : NULL;
	size_t len_a = ff1 ? (size_t)(ff1 - p) : size;
	cs_csv_trace *a, *b = NULL;
	struct cs_tolerances *tol = NULL;

	a = parse(NAME_A, p, len_a, NULL);
	if (a && a->ncols >= 2) {
		g_autofree char *tname = g_strdup(a->cols[a->ncols - 1].name);
		struct cs_csv_read_opts o = { .time_column = tname };
		cs_csv_trace *a2 = parse(NAME_A, p, len_a, &o);

		cs_csv_trace_free(a2);
	}
	if (a) {
		struct cs_diff *d = cs_diff_traces(a, a, NULL);

		describe(d);
		if (a->ncols >= 2) {
			g_autofree char *why = cs_diff_reason(d);

			FUZZ_CHECK(d->pass, "a trace differs from itself: %s", why ? why : "(no reason)");
		}
		cs_diff_free(d);
	}
	if (ff1) {
		const char *pb = ff1 + 1;
		size_t len_b = (size_t)((ff2 ? ff2 : end) - pb);

		b = parse(NAME_B, pb, len_b, NULL);
	}
	if (ff2) {
		g_autofree char *spec = g_strndup(ff2 + 1, (gsize)(end - ff2 - 1));
		g_auto(GStrv) lines = g_strsplit(spec, "\n", 64);

		tol = cs_tolerances_new();
		for (int i = 0; lines[i]; i++) {
			GError *err = NULL;

			if (!*lines[i])
				continue;
			if (!cs_tolerances_parse(tol, lines[i], &err)) {
				FUZZ_CHECK(err != NULL, "tolerance \"%s\" failed without an error", lines[i]);
				g_error_free(err);
			}
		}
		for (guint i = 0; i < cs_tolerances_count(tol); i++) {
			const char *col = cs_tolerances_column(tol, i);
			double abs, rel;

			FUZZ_CHECK(cs_tolerances_lookup(tol, col, &abs, &rel), "tolerance \"%s\" lost", col);
			FUZZ_CHECK(isfinite(abs) && abs >= 0 && isfinite(rel) && rel >= 0,
				   "tolerance \"%s\": abs %g rel %g", col, abs, rel);
			g_free(cs_tolerance_describe(col, abs, rel));
		}
	}
	if (a && b) {
		diff(a, b, tol);
		diff(b, a, tol);
	}
	cs_tolerances_free(tol);
	cs_csv_trace_free(b);
	cs_csv_trace_free(a);
	return 0;
}
