// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/tolerance.c - per-column tolerances of a trace comparison (see tolerance.h).
 */
#include <math.h>
#include <string.h>
#include "traces/column.h"
#include "traces/tolerance.h"

/* Set err (CS_CSV_ERROR_TOLERANCE); false, for `return tol_fail(...)`. */
#define tol_fail(err, ...) \
	(g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE, __VA_ARGS__), false)

struct tol_entry {
	char *column;
	double abs, rel;
};

struct cs_tolerances {
	GArray *entries;           /* struct tol_entry */
};

struct cs_tolerances *cs_tolerances_new(void)
{
	struct cs_tolerances *tol = g_new0(struct cs_tolerances, 1);

	tol->entries = g_array_new(FALSE, TRUE, sizeof(struct tol_entry));
	return tol;
}

void cs_tolerances_free(struct cs_tolerances *tol)
{
	if (!tol)
		return;
	for (guint i = 0; i < tol->entries->len; i++)
		g_free(g_array_index(tol->entries, struct tol_entry, i).column);
	g_array_free(tol->entries, TRUE);
	g_free(tol);
}

static struct tol_entry *tol_find(const struct cs_tolerances *tol, const char *column)
{
	for (guint i = 0; tol && i < tol->entries->len; i++) {
		struct tol_entry *e = &g_array_index(tol->entries, struct tol_entry, i);

		if (strcmp(e->column, column) == 0)
			return e;
	}
	return NULL;
}

bool cs_tolerances_set(struct cs_tolerances *tol, const char *column, double abs, double rel,
		       GError **err)
{
	struct tol_entry *e;

	if (!column || !*column)
		return tol_fail(err, "a tolerance needs a column name (or \"*\")");
	if (!isfinite(abs) || abs < 0 || !isfinite(rel) || rel < 0)
		return tol_fail(err,
				"%s: found abs %g, rel %g, expected finite tolerances of at least 0",
				column, abs, rel);
	e = tol_find(tol, column);
	if (e)
		*e = (struct tol_entry){ e->column, abs, rel };
	else
		g_array_append_val(tol->entries,
				   ((struct tol_entry){ g_strdup(column), abs, rel }));
	return true;
}

bool cs_tolerance_value_parse(const char *column, bool is_rel, const char *text, double *out,
			      const char *where, GError **err)
{
	g_autoptr(GError) uerr = NULL;
	bool star = strcmp(column, "*") == 0;
	enum unit_dim dim = is_rel ? UNIT_FRACTION : star ? UNIT_NONE : cs_csv_col_dim(column);
	double v;

	if (!units_parse(text, dim, &v, &uerr))
		return tol_fail(err, "%s: %s%s", where, uerr->message,
				star && !is_rel ? " (the \"*\" default applies to columns of every unit: give a plain number)" :
				!is_rel && dim == UNIT_NONE ? " (the column's name shows no unit: give a plain number)" :
				"");
	if (!isfinite(v) || v < 0)
		return tol_fail(err,
				"%s: found \"%s\", expected a tolerance of at least 0", where,
				text);
	*out = v;
	return true;
}

bool cs_tolerances_parse(struct cs_tolerances *tol, const char *text, GError **err)
{
	const char *eq = strrchr(text, '=');
	g_autofree char *column = NULL;
	g_auto(GStrv) items = NULL;
	bool have_abs = false, have_rel = false, exact = false;
	double abs = 0, rel = 0;

	if (!eq)
		return tol_fail(err,
				"found \"%s\", expected COLUMN=abs:VALUE,rel:VALUE such as vbus_V=abs:5mV,rel:1e-3",
				text);
	column = g_strstrip(g_strndup(text, (gsize)(eq - text)));
	if (!*column)
		return tol_fail(err,
				"\"%s\": no column name before '=' (use \"*\" for every column)",
				text);
	items = g_strsplit(eq + 1, ",", -1);
	for (int i = 0; items[i]; i++) {
		char *item = g_strstrip(items[i]);
		const char *colon = strchr(item, ':');
		g_autofree char *key = NULL;
		g_autofree char *where = NULL;
		const char *val;

		if (g_ascii_strcasecmp(item, "exact") == 0) {
			exact = true;
			continue;
		}
		if (!colon)
			return tol_fail(err,
					"\"%s\": found \"%s\", expected abs:VALUE, rel:VALUE or exact",
					text, item);
		key = g_strstrip(g_strndup(item, (gsize)(colon - item)));
		val = colon + 1;
		while (g_ascii_isspace(*val))
			val++;
		where = g_strdup_printf("\"%s\"", text);
		if (g_ascii_strcasecmp(key, "abs") == 0 && !have_abs) {
			if (!cs_tolerance_value_parse(column, false, val, &abs, where, err))
				return false;
			have_abs = true;
		} else if (g_ascii_strcasecmp(key, "rel") == 0 && !have_rel) {
			if (!cs_tolerance_value_parse(column, true, val, &rel, where, err))
				return false;
			have_rel = true;
		} else {
			return tol_fail(err,
					"\"%s\": found \"%s\"%s, expected abs:VALUE and/or rel:VALUE (each once), or exact",
					text, key,
					(g_ascii_strcasecmp(key, "abs") == 0 ||
					 g_ascii_strcasecmp(key, "rel") == 0) ? " twice" : "");
		}
	}
	if (exact == (have_abs || have_rel))
		return tol_fail(err,
				"\"%s\": expected abs:VALUE and/or rel:VALUE, or exact alone",
				text);
	return cs_tolerances_set(tol, column, abs, rel, err);
}

bool cs_tolerances_lookup(const struct cs_tolerances *tol, const char *column, double *abs,
			  double *rel)
{
	const struct tol_entry *e = tol_find(tol, column);

	if (!e)
		e = tol_find(tol, "*");
	*abs = e ? e->abs : 0;
	*rel = e ? e->rel : 0;
	return e != NULL;
}

guint cs_tolerances_count(const struct cs_tolerances *tol)
{
	return tol ? tol->entries->len : 0;
}

const char *cs_tolerances_column(const struct cs_tolerances *tol, guint i)
{
	return g_array_index(tol->entries, struct tol_entry, i).column;
}

char *cs_tolerance_describe(const char *column, double abs, double rel)
{
	g_autofree char *a = abs > 0 ? cs_csv_fmt_value(column, abs, 6) : NULL;
	char r[40];

	g_ascii_formatd(r, sizeof r, "%g", rel);
	if (abs > 0 && rel > 0)
		return g_strdup_printf("%s + %s*|B|", a, r);
	if (abs > 0)
		return g_strdup(a);
	if (rel > 0)
		return g_strdup_printf("%s*|B|", r);
	return g_strdup("exact");
}
