/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/units.h - physical values with units, as scenario files write them.
 *
 * A bare number is in the base unit of the expected dimension (V, A, ohm, s, F, Ah,
 * fraction, degC, W, m, Wh). A string carries a number and a unit with an optional SI
 * prefix: "500 mA", "4.75 V", "2 h", "90 min", "30 mohm", "30 mΩ", "3000 mAh",
 * "95 %", "25 C", "703 F", "1 m". Prefixes: n, u, µ (U+00B5 or U+03BC), m, k, M.
 * Time units: ns, us, ms, s, min, h. A unit of another dimension is an error that
 * says which dimension was found ("5 V" where a current is expected). NaN, Infinity,
 * hex floats and trailing junk are rejected. Parsing is locale-independent.
 */
#ifndef CS_SIM_UNITS_H
#define CS_SIM_UNITS_H

#include <stdbool.h>
#include <glib.h>
#include "sim/time.h"

enum unit_dim {
	UNIT_NONE,      /* plain number (counts, ratios, AWG) - no unit allowed */
	UNIT_VOLT,
	UNIT_AMP,
	UNIT_OHM,
	UNIT_SECOND,
	UNIT_FARAD,
	UNIT_AH,        /* charge as capacity: Ah, mAh */
	UNIT_FRACTION,  /* 0..1, or "95 %" */
	UNIT_CELSIUS,   /* "25 C", "25 °C", "25 degC", "298.15 K" */
	UNIT_WATT,
	UNIT_METER,
	UNIT_WH,        /* energy: Wh, mWh, J */
	UNIT_DIM_COUNT
};

#define CS_UNITS_ERROR (cs_units_error_quark())
GQuark cs_units_error_quark(void);
enum { CS_UNITS_ERROR_SYNTAX, CS_UNITS_ERROR_DIMENSION, CS_UNITS_ERROR_RANGE };

/* Parse text (a string value from a scenario) as dim; result in the base unit.
 * On failure sets err with a message of the form
 *   found "5 V" (a voltage), expected a current such as "500 mA"
 * that the caller prefixes with file and JSON path. */
bool units_parse(const char *text, enum unit_dim dim, double *out, GError **err);

/* The same for a duration, exact to the nanosecond: "1.5 s" -> 1500000000. A bare
 * number is seconds. Negative durations are allowed here; callers check range. */
bool units_parse_time(const char *text, sim_time_t *out, GError **err);
/* ns as a whole number of nanoseconds in *out: NULL, or why not (a fraction of a ns
 * beyond 1e-6 ns of a whole one, a value other than 0 that rounds to 0 ns such as a
 * denormal, out of range). The rule of units_parse_time() for a double. */
const char *units_ns_whole(double ns, sim_time_t *out);

/* A value in the base unit of dim written for a message or `list`, in the unit a
 * reader would write it: "1 mAh", "100 uohm", "95 %", "4.2 V", "25 C", "2" (a plain
 * number); a prefix (n, u, m; k, M for ohm) keeps the number at 1 or above. */
char *units_format(double x, enum unit_dim dim);
/* A duration the same way, in the largest unit that divides it: "1 h", "90 min",
 * "1.5 s" is "1500 ms", "0 s". */
char *units_format_time(sim_time_t t);

/* A time as exact seconds, trailing zeros cut: "12.3", "0", "-1.000000001" (the
 * event log's "t", the trace's time_s). buf holds 32 bytes; returns the length. */
int units_time_text(char *buf, sim_time_t t);

const char *units_dim_name(enum unit_dim dim);     /* "current" */
const char *units_dim_symbol(enum unit_dim dim);   /* "A" */
const char *units_dim_example(enum unit_dim dim);  /* "500 mA" */

/* text in double quotes for a message, with quotes, backslashes and control bytes
 * escaped, and every high byte too when text is not UTF-8 ("\xff"). */
char *cs_quote(const char *text);

/* Closest candidate to word by edit distance, or NULL when none is close enough
 * (distance <= max(1, strlen(word) / 3)). Used for "did you mean" in errors. */
const char *cs_did_you_mean(const char *word, const char *const *candidates, size_t n);

#endif
