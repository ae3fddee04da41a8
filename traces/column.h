/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/column.h - what a trace column's name says: its dimension, for units in
 * tolerances and messages, and its values written with that unit.
 */
#ifndef CS_TRACES_COLUMN_H
#define CS_TRACES_COLUMN_H

#include "sim/units.h"

/* The dimension a column's name implies: suffix _V, "(V)" or "[V]" volts; _A amps;
 * _s seconds; _W watts; a name starting with "soc" a fraction ("0.5 %"); anything
 * else UNIT_NONE (plain numbers). */
enum unit_dim cs_csv_col_dim(const char *name);

/* A value with the column's unit and an SI prefix: "12.3 mV", "4.8123 V", "0.25".
 * digits 0: the shortest form that reads back as v. Caller frees. */
char *cs_csv_fmt_value(const char *column, double v, int digits);

#endif
