/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/interp.h - reading a reference trace at another trace's row times: linear
 * interpolation between the reference rows around each time, never across a jump.
 *
 * At an instant the reference holds several times (the state before and after an
 * event), the other trace's rows at that time take them in order, and its last row
 * always takes the last reference row, so "after" meets "after" whatever the counts.
 * Between reference times, the earlier one is the last row of its instant (the state
 * after it) and the later one the first of its instant (the state before it). Times
 * outside the reference's range are not inside it.
 */
#ifndef CS_TRACES_INTERP_H
#define CS_TRACES_INTERP_H

#include <stdbool.h>
#include <stddef.h>

/* Where a row reads the reference: rows j and j + 1 weighted by w (w = 0 at an exact
 * time match; label columns read row j alone). */
struct cs_interp_pos {
	size_t j;
	double w;
	bool inside;
};

/* The position of each of the na times t (non-decreasing) in the nb reference times
 * ref_t (non-decreasing); *inside counts the rows inside the reference's range.
 * Caller frees. */
struct cs_interp_pos *cs_interp_map(const double *t, size_t na, const double *ref_t, size_t nb,
				    size_t *inside);
/* The reference column v (nb values) at a position. */
double cs_interp_value(const double *v, size_t nb, const struct cs_interp_pos *pos);

/* The lowest and highest value of the reference column v (times ref_t, nb rows) over
 * the time window [t0, t1]: its rows inside the window (both sides of a jump) and its
 * linear interpolation at the window's ends, the window clipped to the reference's
 * range. False when the window lies outside that range. *hint speeds up calls with
 * non-decreasing t0 (start with 0). */
bool cs_interp_range(const double *ref_t, const double *v, size_t nb, double t0, double t1,
		     size_t *hint, double *lo, double *hi);
/* The rows of the reference in force over [t0, t1]: the last row at or before t0 (the
 * first row when t0 is before the reference; every row of a jump exactly at t0) to the
 * last row at or before t1, as *first .. *last. False when the window lies outside the
 * reference's range. */
bool cs_interp_rows(const double *ref_t, size_t nb, double t0, double t1, size_t *hint,
		    size_t *first, size_t *last);

#endif
