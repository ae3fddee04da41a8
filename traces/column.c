// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/column.c - the dimension of a column from its name, and values formatted
 * with it (see column.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "traces/column.h"

static bool has_unit_suffix(const char *name, const char *u)
{
	g_autofree char *a = g_strdup_printf("_%s", u);
	g_autofree char *b = g_strdup_printf("(%s)", u);
	g_autofree char *c = g_strdup_printf("[%s]", u);
	g_autofree char *d = g_strdup_printf(" %s", u);

	return g_str_has_suffix(name, a) || g_str_has_suffix(name, b) ||
	       g_str_has_suffix(name, c) || g_str_has_suffix(name, d);
}

enum unit_dim cs_csv_col_dim(const char *name)
{
	if (has_unit_suffix(name, "V"))
		return UNIT_VOLT;
	if (has_unit_suffix(name, "A"))
		return UNIT_AMP;
	if (has_unit_suffix(name, "s"))
		return UNIT_SECOND;
	if (has_unit_suffix(name, "W"))
		return UNIT_WATT;
	if (g_str_has_prefix(name, "soc"))
		return UNIT_FRACTION;
	return UNIT_NONE;
}

/* The shortest "%.Ng" that reads back as v (digits 0), or "%.{digits}g". */
static void fmt_num(char *buf, size_t size, double v, int digits)
{
	/* At least the integer digits, so that 7200 does not come out as 7.2e+03. */
	int p0 = fabs(v) >= 1 && fabs(v) < 1e15 ? (int)floor(log10(fabs(v))) + 1 : 1;
	char fmt[8];

	for (int p = digits > 0 ? MIN(digits, 17) : p0; p <= 17; p++) {
		g_snprintf(fmt, sizeof fmt, "%%.%dg", p);
		g_ascii_formatd(buf, (gint)size, fmt, v);
		if (digits > 0 || g_ascii_strtod(buf, NULL) == v)
			return;
	}
}

char *cs_csv_fmt_value(const char *column, double v, int digits)
{
	static const struct { double below, scale; const char *prefix; } si[] = {
		{ 1e-6, 1e9, "n" }, { 1e-3, 1e6, "u" }, { 1, 1e3, "m" },
	};
	enum unit_dim dim = cs_csv_col_dim(column);
	const char *sym = "", *prefix = "";
	double x = v;
	char num[64];

	if (dim == UNIT_VOLT || dim == UNIT_AMP || dim == UNIT_WATT) {
		sym = units_dim_symbol(dim);
		for (size_t i = 0; i < G_N_ELEMENTS(si) && fabs(v) > 0 && !*prefix; i++)
			if (fabs(v) < si[i].below) {
				prefix = si[i].prefix;
				x = v * si[i].scale;
			}
	} else if (dim == UNIT_SECOND) {
		sym = "s";
	}
	fmt_num(num, sizeof num, x, digits);
	return g_strdup_printf("%s%s%s%s", num, *sym ? " " : "", prefix, sym);
}
