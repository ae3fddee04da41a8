// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/param.c - the table-driven parameter loader (see param.h).
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "sim/param.h"

G_DEFINE_QUARK(cs-param-error-quark, cs_param_error)

/* Set err; false, for `return perr(...)`. */
#define perr(err, ...) \
	(g_set_error(err, CS_PARAM_ERROR, CS_PARAM_ERROR_INVALID, __VA_ARGS__), false)

char *param_describe_json(const cJSON *v)
{
	if (!v)
		return g_strdup("nothing");
	if (cJSON_IsString(v)) {
		const char *s = v->valuestring;

		if (strlen(s) > 40)
			return g_strdup_printf("\"%.40s...\"", s);
		return g_strdup_printf("\"%s\"", s);
	}
	if (cJSON_IsNumber(v))
		return g_strdup_printf("%.10g", v->valuedouble);
	if (cJSON_IsBool(v))
		return g_strdup(cJSON_IsTrue(v) ? "true" : "false");
	if (cJSON_IsNull(v))
		return g_strdup("null");
	if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
		/* Show small containers as they were written: ["colour"], {"a": 1}. */
		char *text = cJSON_PrintUnformatted(v);
		char *out;

		if (text && strlen(text) <= 40)
			out = g_strdup(text);
		else if (cJSON_IsArray(v))
			out = g_strdup_printf("a list of %d items", cJSON_GetArraySize(v));
		else
			out = g_strdup("an object");
		cJSON_free(text);
		return out;
	}
	return g_strdup("an unknown value");
}

bool param_error_found(GError **err, const char *path, const cJSON *v, const char *expected)
{
	g_autofree char *found = param_describe_json(v);

	return perr(err, "%s: found %s, expected %s", path, found, expected);
}

char *param_join_path(const char *path, const char *key)
{
	return path && *path ? g_strconcat(path, ".", key, NULL) : g_strdup(key);
}

bool param_json_number(const cJSON *v, enum unit_dim dim, double *out, const char *path,
		       GError **err)
{
	g_autoptr(GError) uerr = NULL;
	double x;

	if (cJSON_IsNumber(v)) {
		if (!isfinite(v->valuedouble))
			return perr(err, "%s: found a number out of range, expected a %s such as \"%s\"",
				    path, units_dim_name(dim), units_dim_example(dim));
		x = v->valuedouble;
	} else if (cJSON_IsString(v)) {
		if (!units_parse(v->valuestring, dim, &x, &uerr))
			return perr(err, "%s: %s", path, uerr->message);
	} else {
		g_autofree char *found = param_describe_json(v);

		return perr(err, "%s: found %s, expected a %s such as \"%s\"", path, found,
			    units_dim_name(dim), units_dim_example(dim));
	}
	/* Temperatures are an offset scale: 1e-12 C is as good as 0 C. */
	if (x != 0 && fabs(x) < PARAM_SMALLEST && dim != UNIT_CELSIUS) {
		g_autofree char *found = param_describe_json(v);
		g_autofree char *least = units_format(PARAM_SMALLEST, dim);

		return perr(err, "%s: found %s, expected 0 or a %s of at least %s (in magnitude)",
			    path, found, units_dim_name(dim), least);
	}
	*out = x;
	return true;
}

bool param_json_number_list(const cJSON *v, const struct param_list_spec *spec, double *out,
			    int *n_out, const char *path, GError **err)
{
	const cJSON *it;
	int n = 0;

	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > spec->max_n)
		return param_error_found(err, path, v, spec->expected_list);
	cJSON_ArrayForEach(it, v) {
		g_autofree char *ip = g_strdup_printf("%s[%d]", path, n);
		double a;

		if (!param_json_number(it, spec->dim, &a, ip, err))
			return false;
		if (a < spec->min || (spec->min_excl && a <= spec->min) || a > spec->max ||
		    (spec->ascending && n > 0 && a <= out[n - 1]))
			return param_error_found(err, ip, it, spec->expected_item);
		out[n++] = a;
	}
	*n_out = n;
	return true;
}

bool param_json_time(const cJSON *v, sim_time_t *out, const char *path, GError **err)
{
	g_autoptr(GError) uerr = NULL;

	if (cJSON_IsNumber(v)) {
		double ns = v->valuedouble * 1e9;
		sim_time_t t;
		const char *why = fpclassify(v->valuedouble) == FP_SUBNORMAL ?
				  "a denormal number: time is counted in ns" :
				  units_ns_whole(ns, &t);

		if (why)
			return perr(err, "%s: found %.15g, expected a time in seconds such as 0.1 (%s)",
				    path, v->valuedouble, why);
		*out = t;
		return true;
	}
	if (cJSON_IsString(v)) {
		if (units_parse_time(v->valuestring, out, &uerr))
			return true;
		return perr(err, "%s: %s", path, uerr->message);
	}
	return param_error_found(err, path, v, "a time such as \"100 ms\"");
}

/*
 * Range checks. A value written in another unit than the table's reaches the check
 * through a decimal conversion ("1 min" is 60 s exactly, "358.15 K" is 85 C give or
 * take an ULP), so a bound counts as reached when the value is within a few ULPs of
 * it; such a value is stored as the bound itself. Durations are compared in whole
 * nanoseconds, which is exact.
 */
#define RANGE_ULPS 4.0

static bool no_range(const struct param_desc *d)
{
	return d->min == 0 && d->max == 0;
}

/* x in range (possibly moved onto a bound it rounds to); false when outside. */
static bool range_fit(const struct param_desc *d, double *x)
{
	double lo_tol = RANGE_ULPS * DBL_EPSILON * fabs(d->min);
	double hi_tol = RANGE_ULPS * DBL_EPSILON * fabs(d->max);

	if (no_range(d))
		return true;
	if ((d->flags & PARAM_F_MIN_EXCL ? !(*x > d->min) : !(*x >= d->min - lo_tol)) ||
	    !(*x <= d->max + hi_tol))
		return false;
	*x = CLAMP(*x, d->min, d->max);
	return true;
}

static bool time_range_ok(const struct param_desc *d, sim_time_t t)
{
	sim_time_t min = sim_time_from_s(d->min);

	return no_range(d) || ((d->flags & PARAM_F_MIN_EXCL ? t > min : t >= min) &&
			       t <= sim_time_from_s(d->max));
}

/* A bound in the parameter's own unit: "1 mAh", "100 %", "1 min". */
static char *format_bound(const struct param_desc *d, double x)
{
	if (d->kind == PARAM_TIME)
		return units_format_time(sim_time_from_s(x));
	if (d->kind == PARAM_INT)
		return g_strdup_printf("%.0f", x);
	return units_format(x, d->dim);
}

static bool range_error(const struct param_desc *d, const char *path, const cJSON *v,
			GError **err)
{
	g_autofree char *found = param_describe_json(v);
	g_autofree char *lo = format_bound(d, d->min);
	g_autofree char *hi = format_bound(d, d->max);

	return perr(err, "%s: found %s, expected a value %s %s and at most %s", path, found,
		    d->flags & PARAM_F_MIN_EXCL ? "above" : "of at least", lo, hi);
}

/*
 * PARAM_F_UNIT_REQUIRED: a bare number is refused, with the readings of it in the
 * base unit and its milli- form that the range allows ("4000" -> "4000 mAh").
 */
static bool unit_missing(const struct param_desc *d, const cJSON *v, const char *path,
			 GError **err)
{
	const char *sym = units_dim_symbol(d->dim);
	double x;

	if (cJSON_IsNumber(v))
		x = v->valuedouble;
	else if (!cJSON_IsString(v) || !units_parse(v->valuestring, UNIT_NONE, &x, NULL))
		return false;	/* a string with a unit */

	g_autofree char *found = param_describe_json(v);
	g_autoptr(GString) hint = g_string_new(NULL);
	const double readings[2] = { x * 1e-3, x };
	const char *const prefix[2] = { "m", "" };
	int first = fabs(x) < 100;	/* "4" reads as 4 Ah before 4 mAh */

	for (int k = 0; k < 2; k++) {
		int i = k ^ first;
		double r = readings[i];

		if (range_fit(d, &r))
			g_string_append_printf(hint, "%s\"%.10g %s%s\"", hint->len ? " or " : "",
					       x, prefix[i], sym);
	}
	(void)perr(err, "%s: found %s without a unit, expected a %s with its unit such as \"%s\"%s%s%s",
		   path, found, units_dim_name(d->dim), units_dim_example(d->dim),
		   hint->len ? " (did you mean " : "", hint->str, hint->len ? "?)" : "");
	return true;
}

static bool enum_error(const struct param_desc *d, const char *path, const cJSON *v,
		       GError **err)
{
	g_autofree char *found = param_describe_json(v);
	g_autoptr(GString) list = g_string_new(NULL);
	const char *hint = NULL;
	size_t n = 0;

	for (n = 0; d->choices[n]; n++)
		g_string_append_printf(list, "%s\"%s\"", n ? ", " : "", d->choices[n]);
	if (cJSON_IsString(v))
		hint = cs_did_you_mean(v->valuestring, (const char *const *)d->choices, n);
	return perr(err, "%s: found %s, expected one of %s%s%s%s", path, found, list->str,
		    hint ? " (did you mean \"" : "", hint ? hint : "", hint ? "\"?)" : "");
}

/* Two spellings of one value with a unit: "3A", "3.0A", "3 A" and "3000 mA". */
static bool same_quantity(const char *a, const char *b)
{
	for (int dim = UNIT_NONE + 1; dim < UNIT_DIM_COUNT; dim++) {
		double x, y;

		if (units_parse(a, dim, &x, NULL) && units_parse(b, dim, &y, NULL))
			return fabs(x - y) <= RANGE_ULPS * DBL_EPSILON * fabs(y);
	}
	return false;
}

/*
 * The index of the choice s names, or -1: the choice itself, an alias of it
 * (d->aliases), the same letters in another case ("Default"), or the same quantity
 * written another way ("3A" for "3.0A").
 */
static int enum_match(const struct param_desc *d, const char *s)
{
	const char *name = s;

	for (const char *const *a = d->aliases; a && a[0]; a += 2)
		if (g_ascii_strcasecmp(a[0], s) == 0)
			name = a[1];
	for (int i = 0; d->choices[i]; i++)
		if (strcmp(d->choices[i], name) == 0)
			return i;
	for (int i = 0; d->choices[i]; i++)
		if (g_ascii_strcasecmp(d->choices[i], name) == 0 || same_quantity(name, d->choices[i]))
			return i;
	return -1;
}

bool param_load_value(const struct param_desc *d, const cJSON *v, void *base,
		      const char *path, GError **err)
{
	if (cJSON_IsNull(v) && (d->flags & PARAM_F_NULL_ZERO) &&
	    (d->kind == PARAM_NUM || d->kind == PARAM_TIME)) {
		if (d->kind == PARAM_NUM)
			*PARAM_FIELD(base, d, double) = 0;
		else
			*PARAM_FIELD(base, d, sim_time_t) = 0;
		return true;
	}
	switch (d->kind) {
	case PARAM_NUM: {
		double x;

		if ((d->flags & PARAM_F_UNIT_REQUIRED) && unit_missing(d, v, path, err))
			return false;
		if (!param_json_number(v, d->dim, &x, path, err))
			return false;
		if (!range_fit(d, &x))
			return range_error(d, path, v, err);
		*PARAM_FIELD(base, d, double) = x;
		return true;
	}
	case PARAM_TIME: {
		sim_time_t t;

		if (!param_json_time(v, &t, path, err))
			return false;
		if (!time_range_ok(d, t))
			return range_error(d, path, v, err);
		*PARAM_FIELD(base, d, sim_time_t) = t;
		return true;
	}
	case PARAM_INT: {
		double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;

		if (!isfinite(x) || x != floor(x) || fabs(x) > 1e9)
			return param_error_found(err, path, v, "a whole number");
		if (!range_fit(d, &x) || x != floor(x))
			return range_error(d, path, v, err);
		*PARAM_FIELD(base, d, int) = (int)x;
		return true;
	}
	case PARAM_BOOL:
		if (!cJSON_IsBool(v))
			return param_error_found(err, path, v, "true or false");
		*PARAM_FIELD(base, d, bool) = cJSON_IsTrue(v);
		return true;
	case PARAM_ENUM: {
		int i = cJSON_IsString(v) ? enum_match(d, v->valuestring) : -1;

		if (i < 0)
			return enum_error(d, path, v, err);
		*PARAM_FIELD(base, d, int) = i;
		return true;
	}
	case PARAM_STR:
		if (!cJSON_IsString(v))
			return param_error_found(err, path, v, "a string");
		g_free(*PARAM_FIELD(base, d, char *));
		*PARAM_FIELD(base, d, char *) = g_strdup(v->valuestring);
		return true;
	case PARAM_OBJECT:
		/* an object table may take a word too (its parse hook: "adc": "ideal") */
		if (!cJSON_IsObject(v) && d->parse)
			return d->parse(d, v, (char *)base + d->off, path, err);
		if (!cJSON_IsObject(v)) {
			g_autofree char *keys = g_strdup_printf("an object with keys such as \"%s\"",
								d->sub[0].key);

			return param_error_found(err, path, v, keys);
		}
		return param_load_object(d->sub, v, (char *)base + d->off, path, NULL, err);
	case PARAM_CUSTOM:
		return d->parse(d, v, (char *)base + d->off, path, err);
	}
	g_assert_not_reached();
}

const struct param_desc *param_find(const struct param_desc *table, const char *key)
{
	for (; table && table->key; table++)
		if (strcmp(table->key, key) == 0)
			return table;
	return NULL;
}

void param_error_unknown_key(const struct param_desc *table, const char *const *extra,
			     const char *key, const char *path, GError **err)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	g_autoptr(GString) list = g_string_new(NULL);
	g_autofree char *full = param_join_path(path, key);
	const char *hint;

	for (const struct param_desc *d = table; d && d->key; d++)
		g_ptr_array_add(names, (gpointer)d->key);
	for (; extra && *extra; extra++)
		g_ptr_array_add(names, (gpointer)*extra);
	for (guint i = 0; i < names->len; i++)
		g_string_append_printf(list, "%s%s", i ? ", " : "", (char *)names->pdata[i]);
	hint = cs_did_you_mean(key, (const char *const *)names->pdata, names->len);
	(void)perr(err, "%s: found an unknown key \"%s\", expected one of: %s%s%s%s", full, key,
		   list->str, hint ? " (did you mean \"" : "", hint ? hint : "",
		   hint ? "\"?)" : "");
}

bool param_load_object(const struct param_desc *table, const cJSON *obj, void *base,
		       const char *path, const char *const *skip, GError **err)
{
	const cJSON *v;

	if (!cJSON_IsObject(obj))
		return param_error_found(err, path, obj, "an object");
	cJSON_ArrayForEach(v, obj) {
		const struct param_desc *d;
		g_autofree char *full = NULL;

		if (skip && g_strv_contains(skip, v->string))
			continue;
		d = param_find(table, v->string);
		if (!d) {
			param_error_unknown_key(table, skip, v->string, path, err);
			return false;
		}
		full = param_join_path(path, v->string);
		if (!param_load_value(d, v, base, full, err))
			return false;
	}
	return true;
}

void param_free_strings(const struct param_desc *table, void *base)
{
	for (const struct param_desc *d = table; d && d->key; d++) {
		if (d->kind == PARAM_STR) {
			g_free(*PARAM_FIELD(base, d, char *));
			*PARAM_FIELD(base, d, char *) = NULL;
		} else if (d->kind == PARAM_OBJECT) {
			param_free_strings(d->sub, (char *)base + d->off);
		} else if (d->kind == PARAM_CUSTOM && d->release) {
			d->release(d, (char *)base + d->off);
		}
	}
}

char *param_format_value(const struct param_desc *d, const void *base)
{
	const char *sym;

	switch (d->kind) {
	case PARAM_NUM: {
		double x = *PARAM_FIELD(base, d, double);

		if (x == 0 && (d->flags & PARAM_F_NULL_ZERO))
			return g_strdup("none");
		if (d->dim == UNIT_FRACTION)
			return g_strdup_printf("%.4g %%", x * 100);
		sym = units_dim_symbol(d->dim);
		return g_strdup_printf("%.6g%s%s", x, *sym ? " " : "", sym);
	}
	case PARAM_TIME:
		if (*PARAM_FIELD(base, d, sim_time_t) == 0 && (d->flags & PARAM_F_NULL_ZERO))
			return g_strdup("none");
		return units_format_time(*PARAM_FIELD(base, d, sim_time_t));
	case PARAM_INT:
		return g_strdup_printf("%d", *PARAM_FIELD(base, d, int));
	case PARAM_BOOL:
		return g_strdup(*PARAM_FIELD(base, d, bool) ? "true" : "false");
	case PARAM_ENUM:
		return g_strdup(d->choices[*PARAM_FIELD(base, d, int)]);
	case PARAM_STR:
		return g_strdup(*PARAM_FIELD(base, d, char *) ?: "");
	case PARAM_OBJECT:
		return g_strdup("{...}");
	case PARAM_CUSTOM:
		return g_strdup("(see docs)");
	}
	return g_strdup("?");
}
