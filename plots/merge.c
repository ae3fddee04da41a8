// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/merge.c - which runs of a stacked plot are drawn as one line (see stacked.h).
 *
 * Two policies often do the same thing for a while or for the whole run, and their
 * lines then lie one under the other: the lower one is hidden and nothing says so.
 * Traces are not compared row by row (two runs sample at different instants, and
 * agree to microvolts), but as the picture shows them: each series is reduced to
 * its extremes in every pixel column of the panel's time axis (the straight lines
 * gnuplot draws between the rows, so a column between two rows holds the values the
 * line passes through at its edges). Two runs agree in a series when, in every
 * column, the extremes of each lie within MERGE_PX pixels (at the panel's y scale)
 * of the extremes of the other in that column or a neighbour: no point of one line
 * is more than a pixel, up or down, and a pixel, left or right, from the other. A
 * step a fraction of a pixel later, or a line sampled elsewhere, still agrees.
 *
 * The unit is the panel: each panel's legend says which runs it draws as one line,
 * and a panel's series are read against each other (a limit against the current under
 * it), so a run either keeps its own lines in a panel or gives them all up. Within a
 * panel the first series (VBUS at the device, the input current, the battery voltage:
 * the solid lines) is merged on its own too: a run whose first series agrees with an
 * earlier run's draws it in stripes over the other's, so that both colours show, and
 * keeps its other series when they differ.
 */
#include <math.h>
#include <string.h>
#include "plots/stacked.h"

/* Series that are not trace columns: each run's PD contract, voltage and current. */
enum { SER_CONTRACT_V = COL_COUNT, SER_CONTRACT_A, SER_NONE = -1 };

/* The y axes a series may be drawn on, by their ranges in struct plot. */
enum axis { AX_V, AX_I, AX_B, AX_S };

#define MAX_SERIES 8

/* The series of each panel, the first series first. */
static const struct merge_desc {
	int view;           /* 0: the main time axis, 1: the zoom's */
	int px_h;           /* the panel's height */
	struct {
		int ser;    /* a trace column, SER_CONTRACT_*, or SER_NONE at the end */
		int axis;
	} s[MAX_SERIES];
} merge_desc[MP_BAND] = {
	[MP_A] = { 0, PX_PANEL_A, { { COL_VBUS, AX_V }, { COL_VSRC, AX_V },
				    { SER_CONTRACT_V, AX_V }, { SER_NONE, 0 } } },
	[MP_B] = { 0, PX_PANEL_B, { { COL_IBUS, AX_I }, { COL_ILIM, AX_I },
				    { COL_SRC_ILIM, AX_I }, { COL_IBAT, AX_I },
				    { COL_ILOAD, AX_I }, { COL_BUDGET, AX_I },
				    { SER_CONTRACT_A, AX_I }, { SER_NONE, 0 } } },
	[MP_C] = { 0, PX_PANEL_C, { { COL_VBAT, AX_B }, { COL_SOC, AX_S }, { SER_NONE, 0 } } },
	[MP_E] = { 1, PX_ZOOM, { { COL_VBUS, AX_V }, { COL_IBUS, AX_I }, { COL_ILIM, AX_I },
				 { SER_CONTRACT_V, AX_V }, { SER_NONE, 0 } } },
};

/* A series as gnuplot draws it: straight lines between points, NaN a gap. */
struct polyline {
	const double *t, *y;
	size_t n;
	double *own_t, *own_y;   /* copies made here (freed with it) */
};

/* One view's pixel columns. */
struct columns {
	double t0, t1;
	int n;
};

/* The extremes of a series in each pixel column (NAN where it has no point). */
struct env {
	double *lo, *hi;
};

static void env_add(const struct env *e, long k, double y)
{
	if (y < e->lo[k])
		e->lo[k] = y;
	if (y > e->hi[k])
		e->hi[k] = y;
}

/* The extremes of the polyline in each column: its points, and where a line between
 * two points crosses a column's edge, its value there (into both columns). */
static void envelope(const struct polyline *p, const struct columns *c, const struct env *e)
{
	double w = (c->t1 - c->t0) / c->n;

	for (int k = 0; k < c->n; k++) {
		e->lo[k] = INFINITY;
		e->hi[k] = -INFINITY;
	}
	for (size_t i = 0; i < p->n; i++) {
		const double *t = p->t, *y = p->y;
		long b0, b1;

		if (isfinite(y[i]) && t[i] >= c->t0 && t[i] <= c->t1)
			env_add(e, CLAMP((long)floor((t[i] - c->t0) / w), 0, c->n - 1), y[i]);
		if (i + 1 >= p->n || !isfinite(y[i]) || !isfinite(y[i + 1]) || t[i + 1] <= t[i])
			continue;
		b0 = MAX((long)ceil((t[i] - c->t0) / w), 0);
		b1 = MIN((long)floor((t[i + 1] - c->t0) / w), (long)c->n);
		for (long b = b0; b <= b1; b++) {
			double tb = c->t0 + (double)b * w, yb;

			if (tb <= t[i] || tb >= t[i + 1])
				continue;
			yb = y[i] + (y[i + 1] - y[i]) * (tb - t[i]) / (t[i + 1] - t[i]);
			if (b > 0)
				env_add(e, b - 1, yb);
			if (b < c->n)
				env_add(e, b, yb);
		}
	}
	for (int k = 0; k < c->n; k++)
		if (e->lo[k] > e->hi[k])
			e->lo[k] = e->hi[k] = NAN;
}

/* Does every column of a lie within tol of b's extremes in that column or a
 * neighbour (and have b there at all)? */
static bool env_within(const struct env *a, const struct env *b, int n, double tol)
{
	for (int k = 0; k < n; k++) {
		double lo = INFINITY, hi = -INFINITY;

		if (isnan(a->lo[k]))
			continue;
		for (int j = MAX(k - 1, 0); j <= MIN(k + 1, n - 1); j++)
			if (!isnan(b->lo[j])) {
				lo = fmin(lo, b->lo[j]);
				hi = fmax(hi, b->hi[j]);
			}
		if (lo > hi || a->lo[k] < lo - tol || a->hi[k] > hi + tol)
			return false;
	}
	return true;
}

/* Run r's PD contract as a step line: voltage (volts) or current. */
static void contract_line(const struct plot_run *r, bool current, struct polyline *p)
{
	guint n = r->contract->len;

	p->own_t = g_new(double, 2 * (gsize)n + 1);
	p->own_y = g_new(double, 2 * (gsize)n + 1);
	p->n = 0;
	for (guint k = 0; k < n; k++) {
		const struct contract_pt *c = &g_array_index(r->contract, struct contract_pt, k);

		if (p->n) {   /* the step: the value before, at the same time */
			p->own_t[p->n] = c->t;
			p->own_y[p->n] = p->own_y[p->n - 1];
			p->n++;
		}
		p->own_t[p->n] = c->t;
		p->own_y[p->n++] = current ? c->a : c->v;
	}
	p->own_t[p->n] = r->t_max;
	p->own_y[p->n] = p->own_y[p->n - 1];
	p->n++;
	p->t = p->own_t;
	p->y = p->own_y;
}

/* Run r's series ser as drawn (false: the run does not draw it). */
static bool series_line(const struct plot *pl, const struct plot_run *r, int ser, struct polyline *p)
{
	const cs_csv_trace *tr = r->tr;
	bool positive = ser == COL_SRC_ILIM || ser == COL_BUDGET;   /* 0: none, not drawn */
	const double *v;

	*p = (struct polyline){ 0 };
	if (ser == SER_CONTRACT_V || ser == SER_CONTRACT_A) {
		if (ser == SER_CONTRACT_V ? !pl->contract : !r->pd_current)
			return false;
		contract_line(r, ser == SER_CONTRACT_A, p);
		return true;
	}
	if (r->col[ser] < 0 || tr->cols[r->col[ser]].is_label ||
	    (ser == COL_SRC_ILIM && !r->src_ilim_drawn) || (ser == COL_BUDGET && !r->budget_drawn))
		return false;
	v = tr->cols[r->col[ser]].v;
	p->t = tr->t;
	p->n = tr->nrows;
	p->y = v;
	if (positive || ser == COL_SOC) {
		p->own_y = g_new(double, tr->nrows);
		for (size_t i = 0; i < tr->nrows; i++)
			p->own_y[i] = ser == COL_SOC ? 100 * v[i] : v[i] > 0 ? v[i] : NAN;
		p->y = p->own_y;
	}
	return true;
}

/* The tolerance of an axis: MERGE_PX pixels of a panel px_h high. */
static double axis_tol(const struct plot *pl, int axis, int px_h)
{
	const double span[] = {
		[AX_V] = pl->vhi - pl->vlo, [AX_I] = pl->ihi - pl->ilo,
		[AX_B] = pl->bhi - pl->blo, [AX_S] = pl->shi - pl->slo,
	};

	return MERGE_PX * span[axis] / px_h;
}

/* Every run's envelope of every series of every panel: env[((run * MP_BAND) + panel)
 * * MAX_SERIES + s], lo NULL where the run does not draw the series. */
struct merge_ctx {
	const struct plot *pl;
	struct columns cols[2];
	struct env *env;
};

static struct env *env_of(const struct merge_ctx *m, int run, int mp, int s)
{
	return &m->env[((size_t)run * MP_BAND + (size_t)mp) * MAX_SERIES + (size_t)s];
}

static void envelopes(struct merge_ctx *m)
{
	const struct plot *pl = m->pl;

	m->env = g_new0(struct env, (gsize)pl->n * MP_BAND * MAX_SERIES);
	for (int i = 0; i < pl->n; i++)
		for (int mp = 0; mp < MP_BAND; mp++) {
			const struct merge_desc *d = &merge_desc[mp];
			const struct columns *c = &m->cols[d->view];

			if (c->n <= 0)
				continue;
			for (int s = 0; s < MAX_SERIES && d->s[s].ser != SER_NONE; s++) {
				struct polyline p;
				struct env *e = env_of(m, i, mp, s);

				if (!series_line(pl, &pl->runs[i], d->s[s].ser, &p))
					continue;
				e->lo = g_new(double, (gsize)c->n);
				e->hi = g_new(double, (gsize)c->n);
				envelope(&p, c, e);
				g_free(p.own_t);
				g_free(p.own_y);
			}
		}
}

/* Do runs a and b agree in series s of panel mp (both draw it, or neither)? */
static bool series_agree(const struct merge_ctx *m, int a, int b, int mp, int s)
{
	const struct merge_desc *d = &merge_desc[mp];
	const struct env *ea = env_of(m, a, mp, s), *eb = env_of(m, b, mp, s);
	double tol = axis_tol(m->pl, d->s[s].axis, d->px_h);
	int n = m->cols[d->view].n;

	if (!ea->lo || !eb->lo)
		return !ea->lo && !eb->lo;
	return env_within(ea, eb, n, tol) && env_within(eb, ea, n, tol);
}

static bool panel_agrees(const struct merge_ctx *m, int a, int b, int mp)
{
	for (int s = 0; s < MAX_SERIES && merge_desc[mp].s[s].ser != SER_NONE; s++)
		if (!series_agree(m, a, b, mp, s))
			return false;
	return true;
}

bool plot_band_agrees(const struct plot *pl, int a, int b)
{
	double px_s = (pl->t_max - pl->t_min) / (PX_W - pl->px_left - pl->px_right);

	for (int k = 0; k < BAND_COUNT; k++) {
		const GArray *x = pl->runs[a].band[k].segs, *y = pl->runs[b].band[k].segs;

		if (!pl->band_used[k])
			continue;
		if (x->len != y->len)
			return false;
		for (guint i = 0; i < x->len; i++) {
			const struct seg *p = &g_array_index(x, struct seg, i);
			const struct seg *q = &g_array_index(y, struct seg, i);

			if (strcmp(p->state, q->state) != 0 || fabs(p->t0 - q->t0) > px_s ||
			    fabs(p->t1 - q->t1) > px_s)
				return false;
		}
	}
	return true;
}

/* Run i joins the first earlier lead whose every series of the panel agrees with it,
 * else the first whose first series does. */
static void merge_panel(struct plot *pl, const struct merge_ctx *m, int mp)
{
	for (int i = 0; i < pl->n; i++) {
		struct merge *g = &pl->runs[i].merge[mp];
		int lead = -1;
		bool all = false;

		*g = (struct merge){ .lead = -1 };
		for (int j = 0; j < i && !all; j++) {
			if (pl->runs[j].merge[mp].lead >= 0)
				continue;
			if (mp == MP_BAND ? plot_band_agrees(pl, i, j) : panel_agrees(m, i, j, mp)) {
				lead = j;
				all = true;
			} else if (lead < 0 && mp != MP_BAND && series_agree(m, i, j, mp, 0)) {
				lead = j;
			}
		}
		if (lead < 0)
			continue;
		g->lead = lead;
		g->all = all;
		g->index = ++pl->runs[lead].merge[mp].n_members;
	}
}

void plot_merge(struct plot *pl)
{
	struct merge_ctx m = { .pl = pl };
	int ncol = (int)lround(PX_W - pl->px_left - pl->px_right);

	m.cols[0] = (struct columns){ pl->t_min, pl->t_max, ncol };
	m.cols[1] = (struct columns){ pl->z0, pl->z1, pl->zoom ? ncol : 0 };
	envelopes(&m);
	for (int mp = 0; mp < MP_COUNT; mp++) {
		if ((mp == MP_E && !pl->zoom) || (mp == MP_BAND && !pl->compact)) {
			for (int i = 0; i < pl->n; i++)
				pl->runs[i].merge[mp] = (struct merge){ .lead = -1 };
			continue;
		}
		merge_panel(pl, &m, mp);
	}
	for (size_t k = 0; k < (size_t)pl->n * MP_BAND * MAX_SERIES; k++) {
		g_free(m.env[k].lo);
		g_free(m.env[k].hi);
	}
	g_free(m.env);
}
