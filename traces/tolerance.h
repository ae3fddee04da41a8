/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/tolerance.h - how far a trace column may stray from the reference: per
 * column (or "*" for every column) an absolute part, with the column's unit, and a
 * relative part; a value passes when |A - B| <= abs + rel * |B|. Errors are
 * CS_CSV_ERROR_TOLERANCE.
 */
#ifndef CS_TRACES_TOLERANCE_H
#define CS_TRACES_TOLERANCE_H

#include <stdbool.h>
#include <glib.h>
#include "traces/csv.h"

struct cs_tolerances;          /* column name (or "*") -> abs, rel */

typedef struct cs_tolerances cs_tolerances;
struct cs_tolerances *cs_tolerances_new(void);
void cs_tolerances_free(struct cs_tolerances *tol);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(cs_tolerances, cs_tolerances_free)

/* Set (or replace) the entry of column ("*" for the default). An entry replaces "*"
 * entirely for its column: a column given only abs has rel 0. abs and rel must be
 * finite and >= 0; false with err otherwise. */
bool cs_tolerances_set(struct cs_tolerances *tol, const char *column, double abs,
		       double rel, GError **err);
/* Parse "COLUMN=abs:X,rel:Y" (either or both, in any order) or "COLUMN=exact" and
 * set it. X may carry a unit of the column's dimension ("5mV" for vbus_V, "2 ms" for
 * time_s); Y is a plain number or a percentage ("1e-3", "0.1%"). */
bool cs_tolerances_parse(struct cs_tolerances *tol, const char *text, GError **err);
/* Parse one value as the scenario's "tolerance" object writes it: an abs value for
 * column (a number, or a string with a unit of the column's dimension), or a rel value
 * (plain number or "0.1 %") when is_rel. where prefixes the error message. */
bool cs_tolerance_value_parse(const char *column, bool is_rel, const char *text,
			      double *out, const char *where, GError **err);
/* The tolerance applying to column: its own entry, else "*", else 0 and 0. Returns
 * true when an entry (own or "*") applied. */
bool cs_tolerances_lookup(const struct cs_tolerances *tol, const char *column, double *abs,
			  double *rel);
/* Number of entries and the i-th column name (in the order they were first set). */
guint cs_tolerances_count(const struct cs_tolerances *tol);
const char *cs_tolerances_column(const struct cs_tolerances *tol, guint i);
/* "exact", "5 mV", "1e-3*|B|", "5 mV + 1e-3*|B|" (unit from the column name). */
char *cs_tolerance_describe(const char *column, double abs, double rel);

#endif
