// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/diff.c - comparing two CSV traces with tolerances (see diff.h).
 *
 * Each candidate row is mapped to a reference position once (traces/interp.h: an
 * index and a weight), then every column is walked over that map.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "traces/column.h"
#include "traces/diff.h"
#include "traces/interp.h"

/* With a time shift: the reference value within the shift nearest to x (y, the value
 * at the row's own time, when x is not inside the window's range). */
static double nearest_in_window(const cs_csv_trace *b, const double *bv, double t, double shift,
				size_t *hint, double x, double y)
{
	double lo, hi;

	if (shift <= 0 || !cs_interp_range(b->t, bv, b->nrows, t - shift, t + shift, hint, &lo, &hi))
		return y;
	return x < lo ? lo : x > hi ? hi : x;
}

static void compare_numeric(struct cs_diff_col *c, const cs_csv_trace *a, int ca,
			    const cs_csv_trace *b, int cb, const struct cs_interp_pos *map,
			    double shift)
{
	const double *av = a->cols[ca].v, *bv = b->cols[cb].v;
	double best_score = 0;
	size_t hint = 0;

	for (size_t i = 0; i < a->nrows; i++) {
		double x, y, dev, allowed, score;

		if (!map[i].inside)
			continue;
		x = av[i];
		y = cs_interp_value(bv, b->nrows, &map[i]);
		if (isfinite(x))
			y = nearest_in_window(b, bv, a->t[i], shift, &hint, x, y);
		dev = fabs(x - y);
		if (!isfinite(dev))
			dev = DBL_MAX;
		allowed = c->abs + c->rel * fabs(y);
		if (!isfinite(allowed))
			allowed = DBL_MAX;
		c->n_compared++;
		if (dev > allowed)
			c->n_failed++;
		if (dev > c->max_dev) {
			c->max_dev = dev;
			c->max_dev_t = a->t[i];
		}
		if (dev == 0)
			continue;
		score = allowed > 0 ? dev / allowed : INFINITY;
		if (!c->has_worst || score > best_score || (score == best_score && dev > c->dev)) {
			c->has_worst = true;
			best_score = score;
			c->row = i;
			c->line = a->line[i];
			c->t = a->t[i];
			c->cand = x;
			c->ref = y;
			c->dev = dev;
			c->allowed = allowed;
		}
	}
}

/* With a time shift: is label s in force somewhere within the shift of time t? */
static bool label_in_window(const cs_csv_trace *b, const char *const *bs, double t, double shift,
			    size_t *hint, const char *s)
{
	size_t first, last;

	if (shift <= 0 || !cs_interp_rows(b->t, b->nrows, t - shift, t + shift, hint, &first, &last))
		return false;
	for (size_t k = first; k <= last; k++)
		if (strcmp(bs[k], s) == 0)
			return true;
	return false;
}

static void compare_labels(struct cs_diff_col *c, const cs_csv_trace *a, int ca,
			   const cs_csv_trace *b, int cb, const struct cs_interp_pos *map,
			   double shift)
{
	const char *const *as = a->cols[ca].s, *const *bs = b->cols[cb].s;
	size_t hint = 0;

	for (size_t i = 0; i < a->nrows; i++) {
		const char *y;

		if (!map[i].inside)
			continue;
		y = bs[map[i].j];
		c->n_compared++;
		if (strcmp(as[i], y) == 0 || label_in_window(b, bs, a->t[i], shift, &hint, as[i]))
			continue;
		c->n_failed++;
		if (!c->has_worst) {
			c->has_worst = true;
			c->row = i;
			c->line = a->line[i];
			c->t = a->t[i];
			c->cand_label = as[i];
			c->ref_label = y;
		}
	}
}

static bool within(double a, double b, double abs, double rel)
{
	return fabs(a - b) <= abs + rel * fabs(b);
}

/* Candidate column ca against the reference's column of the same name, if any. */
static void compare_column(struct cs_diff *d, struct cs_diff_col *c, const cs_csv_trace *cand,
			   int ca, const cs_csv_trace *ref, const struct cs_diff_opts *opts,
			   const struct cs_interp_pos *map)
{
	const struct cs_tolerances *tol = opts->tol;
	int cb = cs_csv_find_col(ref, cand->cols[ca].name);

	c->name = cand->cols[ca].name;
	c->pass = true;
	c->is_label = cand->cols[ca].is_label;
	if (cb < 0 || cb == ref->time_col) {
		c->presence = CS_DIFF_ONLY_CAND;
		return;
	}
	c->presence = CS_DIFF_BOTH;
	d->n_compared++;
	cs_tolerances_lookup(tol, c->name, &c->abs, &c->rel);
	if (cand->cols[ca].is_label != ref->cols[cb].is_label)
		c->kind_mismatch = true;
	else if (c->is_label)
		compare_labels(c, cand, ca, ref, cb, map, opts->time_shift);
	else
		compare_numeric(c, cand, ca, ref, cb, map, opts->time_shift);
	c->pass = !c->kind_mismatch && c->n_failed == 0;
	d->n_failed += !c->pass;
}

struct cs_diff *cs_diff_traces(const cs_csv_trace *cand, const cs_csv_trace *ref,
			       const struct cs_diff_opts *opts)
{
	static const struct cs_diff_opts defaults = { 0 };
	struct cs_diff *d = g_new(struct cs_diff, 1);
	struct cs_interp_pos *map;
	double ta, tr;
	int n = 0;

	if (!opts)
		opts = &defaults;
	*d = (struct cs_diff){ .cand_t0 = cand->t[0], .cand_t1 = cand->t[cand->nrows - 1],
		.ref_t0 = ref->t[0], .ref_t1 = ref->t[ref->nrows - 1],
		.time_shift = opts->time_shift };
	cs_tolerances_lookup(opts->tol, cand->cols[cand->time_col].name, &ta, &tr);
	d->span_ok = opts->overlap_only ||
		     (within(d->cand_t0, d->ref_t0, ta, tr) && within(d->cand_t1, d->ref_t1, ta, tr));
	map = cs_interp_map(cand->t, cand->nrows, ref->t, ref->nrows, &d->n_rows);
	d->n_outside = cand->nrows - d->n_rows;

	d->cols = g_new0(struct cs_diff_col, (gsize)(cand->ncols + ref->ncols));
	for (int ca = 0; ca < cand->ncols; ca++)
		if (ca != cand->time_col)
			compare_column(d, &d->cols[n++], cand, ca, ref, opts, map);
	/* the reference's columns the candidate lacks */
	for (int cb = 0; cb < ref->ncols; cb++) {
		int ca = cs_csv_find_col(cand, ref->cols[cb].name);

		if (cb != ref->time_col && (ca < 0 || ca == cand->time_col))
			d->cols[n++] = (struct cs_diff_col){ .name = ref->cols[cb].name,
				.presence = CS_DIFF_ONLY_REF, .is_label = ref->cols[cb].is_label,
				.pass = true };
	}
	d->ncols = n;
	d->pass = d->span_ok && d->n_rows > 0 && d->n_compared > 0 && d->n_failed == 0;
	g_free(map);
	return d;
}

void cs_diff_free(struct cs_diff *d)
{
	if (!d)
		return;
	g_free(d->cols);
	g_free(d);
}

char *cs_diff_col_describe(const struct cs_diff_col *c)
{
	g_autofree char *t = NULL;

	if (c->presence != CS_DIFF_BOTH)
		return g_strdup_printf("%s: only in %s, not compared", c->name,
				       c->presence == CS_DIFF_ONLY_CAND ? "A" : "B");
	if (c->kind_mismatch)
		return g_strdup_printf("%s: numbers in %s, text in %s", c->name,
				       c->is_label ? "B" : "A", c->is_label ? "A" : "B");
	if (!c->has_worst)
		return g_strdup_printf("%s: identical over %zu rows", c->name, c->n_compared);
	t = cs_csv_fmt_value("_s", c->t, 0);
	if (c->is_label)
		return g_strdup_printf("%s at t = %s (line %zu): A \"%s\", B \"%s\" (%zu of %zu rows differ)",
				       c->name, t, c->line, c->cand_label, c->ref_label, c->n_failed,
				       c->n_compared);
	{
		g_autofree char *x = cs_csv_fmt_value(c->name, c->cand, 10);
		g_autofree char *y = cs_csv_fmt_value(c->name, c->ref, 10);
		g_autofree char *dev = cs_csv_fmt_value(c->name, c->dev, 3);
		g_autofree char *al = cs_csv_fmt_value(c->name, c->allowed, 3);

		return g_strdup_printf("%s at t = %s (line %zu): A %s, B %s, |A-B| %s %s allowed %s (%zu of %zu rows outside)",
				       c->name, t, c->line, x, y, dev, c->dev > c->allowed ? ">" : "<=",
				       al, c->n_failed, c->n_compared);
	}
}

char *cs_diff_reason(const struct cs_diff *d)
{
	if (d->pass)
		return NULL;
	if (!d->span_ok || d->n_rows == 0) {
		g_autofree char *a0 = cs_csv_fmt_value("_s", d->cand_t0, 0);
		g_autofree char *a1 = cs_csv_fmt_value("_s", d->cand_t1, 0);
		g_autofree char *b0 = cs_csv_fmt_value("_s", d->ref_t0, 0);
		g_autofree char *b1 = cs_csv_fmt_value("_s", d->ref_t1, 0);

		return g_strdup_printf("%s: A covers %s .. %s, B covers %s .. %s",
				       d->n_rows == 0 ? "the time ranges do not overlap" :
				       "the time ranges differ", a0, a1, b0, b1);
	}
	if (d->n_compared == 0)
		return g_strdup("no column in common besides time");
	for (int i = 0; i < d->ncols; i++)
		if (!d->cols[i].pass)
			return cs_diff_col_describe(&d->cols[i]);
	return g_strdup("failed");
}
