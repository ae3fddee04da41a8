// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/interp.c - a reference trace read at another trace's row times (see
 * interp.h).
 */
#include <math.h>
#include <glib.h>
#include "traces/interp.h"

/* The weight of t between t0 and t1, clipped to 0..1 (the halves when the difference
 * overflows). */
static double lerp_w(double t, double t0, double t1)
{
	double w = (t - t0) / (t1 - t0);

	if (!isfinite(w))
		w = (t / 2 - t0 / 2) / (t1 / 2 - t0 / 2);
	return w > 1 ? 1 : w >= 0 ? w : 0;
}

struct cs_interp_pos *cs_interp_map(const double *t, size_t na, const double *ref_t, size_t nb,
				    size_t *inside)
{
	struct cs_interp_pos *map = g_new0(struct cs_interp_pos, na);
	size_t p = 0, q = 0, gs = 0, ge = 0, n = 0;

	for (size_t i = 0; i < na; i++) {
		double ti = t[i];

		if (i >= ge) {
			gs = i;
			for (ge = i + 1; ge < na && t[ge] == ti; ge++)
				;
		}
		while (p < nb && ref_t[p] < ti)
			p++;
		if (q < p)
			q = p;
		while (q < nb && ref_t[q] <= ti)
			q++;
		if (q > p) {
			size_t j = i - gs;

			map[i].j = i == ge - 1 ? q - 1 : MIN(p + j, q - 1);
			map[i].w = 0;
			map[i].inside = true;
		} else if (p > 0 && p < nb) {
			map[i].j = p - 1;
			map[i].w = lerp_w(ti, ref_t[p - 1], ref_t[p]);
			map[i].inside = true;
		}
		n += map[i].inside;
	}
	*inside = n;
	return map;
}

double cs_interp_value(const double *v, size_t nb, const struct cs_interp_pos *rp)
{
	double b0 = v[rp->j], b1, d;

	if (rp->w == 0 || rp->j + 1 >= nb)
		return b0;
	b1 = v[rp->j + 1];
	if (b0 == b1)
		return b0;
	d = b1 - b0;
	if (isfinite(d))
		return b0 + rp->w * d;
	return (1 - rp->w) * b0 + rp->w * b1;
}

/* v between rows j - 1 and j at time t */
static double lerp_at(const double *ref_t, const double *v, size_t j, double t)
{
	double w = lerp_w(t, ref_t[j - 1], ref_t[j]);

	return v[j - 1] + w * (v[j] - v[j - 1]);
}

static void widen(double *lo, double *hi, double y)
{
	*lo = fmin(*lo, y);
	*hi = fmax(*hi, y);
}

bool cs_interp_range(const double *ref_t, const double *v, size_t nb, double t0, double t1,
		     size_t *hint, double *lo, double *hi)
{
	size_t j = *hint, k;

	if (nb == 0)
		return false;
	t0 = fmax(t0, ref_t[0]);
	t1 = fmin(t1, ref_t[nb - 1]);
	if (t0 > t1)
		return false;
	while (j < nb && ref_t[j] < t0)
		j++;
	*hint = j;
	*lo = INFINITY;
	*hi = -INFINITY;
	/* the window's start between two rows */
	if (j > 0 && j < nb && ref_t[j] > t0)
		widen(lo, hi, lerp_at(ref_t, v, j, t0));
	for (k = j; k < nb && ref_t[k] <= t1; k++)
		widen(lo, hi, v[k]);
	/* its end between two rows */
	if (k > 0 && k < nb && ref_t[k - 1] < t1)
		widen(lo, hi, lerp_at(ref_t, v, k, t1));
	return *lo <= *hi;
}

bool cs_interp_rows(const double *ref_t, size_t nb, double t0, double t1, size_t *hint,
		    size_t *first, size_t *last)
{
	size_t j = *hint, k;

	if (nb == 0 || t1 < ref_t[0] || t0 > ref_t[nb - 1])
		return false;
	while (j + 1 < nb && ref_t[j + 1] <= t0)
		j++;
	*hint = j;
	/* a jump exactly at t0: both of its rows are in the window, as in
	 * cs_interp_range (the boundary passes) */
	while (j > 0 && ref_t[j] == t0 && ref_t[j - 1] == t0)
		j--;
	for (k = j; k + 1 < nb && ref_t[k + 1] <= t1; k++)
		;
	*first = j;
	*last = k;
	return true;
}
