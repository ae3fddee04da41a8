// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/thin.c - the thinned copy of a trace that a stacked plot's script reads
 * (NAME-trace-N.csv), and the PD contract data (NAME-contract.dat).
 *
 * A trace holds a row per step and event: a 3 h run of a policy that polls every
 * 100 ms has over 100,000 rows, and an SVG drawn from all of them is megabytes of
 * points on two flat lines. The copy keeps the plotted columns and only the rows the
 * picture needs: a row is left out when, in every plotted series, it lies within
 * THIN_PX pixels (vertically, at its panel's scale) of the straight line gnuplot would
 * draw between the rows kept around it. The first and last rows and both rows of
 * every jump (two rows at one time) are always kept. Both traces are straight between
 * their rows, so the picture moves by at most THIN_PX anywhere.
 *
 * The rows are chosen by the "sleeve" method (Zhao and Saalfeld, "Linear-time sleeve-
 * fitting polyline simplification algorithms", AutoCarto 13, 1997), here with the
 * vertical distance of each series and one sleeve per series: from the last kept row
 * each row narrows the range of slopes a line from it may take and still pass within
 * the tolerance of every row so far; a row whose own slope falls outside that range in
 * some series ends the stretch, and the row before it is kept.
 */
#include <math.h>
#include <string.h>
#include "plots/gp.h"
#include "plots/stacked.h"
#include "output/outfile.h"

/* The columns of the copy, in its order; the optional ones only when the trace has
 * them. */
static const int thin_columns[] = {
	COL_TIME, COL_VSRC, COL_VBUS, COL_IBUS, COL_ILIM, COL_SRC_ILIM, COL_IBAT, COL_ILOAD,
	COL_BUDGET, COL_VBAT, COL_SOC,
};
#define N_THIN G_N_ELEMENTS(thin_columns)

/* The tolerance of a column in its own unit: THIN_PX pixels of the panel that draws it
 * (the zoom panel draws VBUS and the currents on the same ranges, over more pixels:
 * the larger count decides). */
static double column_tol(const struct plot *pl, int c)
{
	switch (c) {
	case COL_VSRC:
	case COL_VBUS:
		return (pl->vhi - pl->vlo) / MAX(PX_PANEL_A, PX_ZOOM) * THIN_PX;
	case COL_IBUS:
	case COL_ILIM:
	case COL_SRC_ILIM:
	case COL_IBAT:
	case COL_ILOAD:
	case COL_BUDGET:
		return (pl->ihi - pl->ilo) / MAX(PX_PANEL_B, PX_ZOOM) * THIN_PX;
	case COL_VBAT:
		return (pl->bhi - pl->blo) / PX_PANEL_C * THIN_PX;
	case COL_SOC:
		return (pl->shi - pl->slo) / 100 / PX_PANEL_C * THIN_PX;
	default:
		return 0;
	}
}

struct sleeve {
	int n;                   /* series */
	const double *y[N_THIN];
	double tol[N_THIN];
	double lo[N_THIN], hi[N_THIN];   /* slopes still allowed from the anchor */
	size_t anchor;
};

static void sleeve_reset(struct sleeve *sv, size_t anchor)
{
	sv->anchor = anchor;
	for (int k = 0; k < sv->n; k++) {
		sv->lo[k] = -INFINITY;
		sv->hi[k] = INFINITY;
	}
}

/* Can the line from the anchor to row i stand for every row between them? */
static bool sleeve_fits(const struct sleeve *sv, const double *t, size_t i)
{
	double dt = t[i] - t[sv->anchor];

	for (int k = 0; k < sv->n; k++) {
		double s = (sv->y[k][i] - sv->y[k][sv->anchor]) / dt;

		if (s < sv->lo[k] || s > sv->hi[k])
			return false;
	}
	return true;
}

/* Row i lies between the anchor and the rows to come: narrow the slopes. */
static void sleeve_add(struct sleeve *sv, const double *t, size_t i)
{
	double dt = t[i] - t[sv->anchor];

	for (int k = 0; k < sv->n; k++) {
		double d = sv->y[k][i] - sv->y[k][sv->anchor];

		sv->lo[k] = fmax(sv->lo[k], (d - sv->tol[k]) / dt);
		sv->hi[k] = fmin(sv->hi[k], (d + sv->tol[k]) / dt);
	}
}

/* keep[i]: the rows of the copy. */
static void choose_rows(const struct plot *pl, const cs_csv_trace *tr, const int *col, bool *keep)
{
	const double *t = tr->t;
	size_t n = tr->nrows;
	struct sleeve sv = { 0 };

	for (size_t k = 1; k < N_THIN; k++) {
		int c = col[thin_columns[k]];

		if (c < 0 || tr->cols[c].is_label)
			continue;
		sv.y[sv.n] = tr->cols[c].v;
		sv.tol[sv.n] = column_tol(pl, thin_columns[k]);
		sv.n++;
	}
	for (size_t i = 0; i < n; i++)
		keep[i] = i == 0 || i == n - 1 || (i > 0 && t[i] == t[i - 1]) ||
			  (i + 1 < n && t[i] == t[i + 1]);
	sleeve_reset(&sv, 0);
	for (size_t i = 1; i < n; i++) {
		if (i - 1 > sv.anchor && !sleeve_fits(&sv, t, i)) {
			keep[i - 1] = true;
			sleeve_reset(&sv, i - 1);
		}
		if (keep[i])
			sleeve_reset(&sv, i);
		else
			sleeve_add(&sv, t, i);
	}
}

bool plot_write_thinned(const struct plot *pl, int ri, const char *path, GError **err)
{
	const struct plot_run *r = &pl->runs[ri];
	const cs_csv_trace *tr = r->tr;
	g_autofree bool *keep = g_new0(bool, tr->nrows);
	g_autofree char *source = gp_dat_field(r->trace_rel);
	g_autoptr(GString) s = g_string_new(NULL);
	const int *col = r->col;

	choose_rows(pl, tr, col, keep);
	g_string_append_printf(s, "# %s, thinned for plotting (plots/thin.c): the rows that differ by\n"
			       "# more than %g pixel from a straight line between their neighbours\n",
			       source, THIN_PX);
	/* the first column, time_s, is in every trace (scan.c checked the header) */
	for (size_t k = 0; k < N_THIN; k++)
		if (col[thin_columns[k]] >= 0)
			g_string_append_printf(s, "%s%s", k ? "," : "", plot_column_names[thin_columns[k]]);
	g_string_append_c(s, '\n');
	for (size_t i = 0; i < tr->nrows; i++) {
		if (!keep[i])
			continue;
		for (size_t k = 0; k < N_THIN; k++) {
			int c = col[thin_columns[k]];
			char buf[G_ASCII_DTOSTR_BUF_SIZE];

			if (c < 0)
				continue;
			if (k)
				g_string_append_c(s, ',');
			if (tr->cols[c].is_label)
				g_string_append(s, "NaN");
			else
				g_string_append(s, g_ascii_formatd(buf, sizeof(buf),
								   k == 0 ? "%.15g" : "%.10g",
								   tr->cols[c].v[i]));
		}
		g_string_append_c(s, '\n');
	}
	return cs_outfile_write_all(path, s->str, s->len, err);
}

bool plot_write_contract(const struct plot *pl, const char *path, GError **err)
{
	g_autoptr(GString) s = g_string_new(
		"# chargesim PD contracts: one block per run (gnuplot index = run - 1),\n"
		"# the source's nominal voltage from each time on (5 V, then each\n"
		"# accepted request from its PS_RDY) and the contract's current (NaN: no\n"
		"# PD contract); t_s,V,A\n");

	for (int i = 0; i < pl->n; i++) {
		const struct plot_run *r = &pl->runs[i];
		const struct contract_pt *last;

		for (guint k = 0; k < r->contract->len; k++) {
			const struct contract_pt *p = &g_array_index(r->contract, struct contract_pt, k);

			gp_num_then(s, p->t, ",");
			gp_num_then(s, p->v, ",");
			gp_num_then(s, p->a, "\n");
		}
		/* the last contract holds to the end of the trace */
		last = &g_array_index(r->contract, struct contract_pt, r->contract->len - 1);
		gp_num_then(s, r->t_max, ",");
		gp_num_then(s, last->v, ",");
		gp_num_then(s, last->a, "\n\n\n");
	}
	return cs_outfile_write_all(path, s->str, s->len, err);
}
