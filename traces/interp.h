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

#endif
