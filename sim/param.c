// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/param.c - the table-driven parameter loader (see param.h).
 */
#include <math.h>
#include <string.h>
#include "sim/param.h"

G_DEFINE_QUARK(cs-param-error-quark, cs_param_error)

#define perr(err, ...) g_set_error(err, CS_PARAM_ERROR, CS_PARAM_ERROR_INVALID, __VA_ARGS__)

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
		else
			out = g_strdup(cJSON_IsArray(v) ? "an array" : "an object");
		cJSON_free(text);
		return out;
	}
	return g_strdup("an unknown value");
}

static char *join_path(const char *path, const char *key)
{
	return path && *path ? g_strdup_printf("%s.%s", path, key) : g_strdup(key);
}

bool param_json_number(const cJSON *v, enum unit_dim dim, double *out, const char *path,
		       GError **err)
{
	g_autoptr(GError) uerr = NULL;

	if (cJSON_IsNumber(v)) {
		if (!isfinite(v->valuedouble)) {
			perr(err, "%s: found a number out of range, expected a %s such as \"%s\"",
			     path, units_dim_name(dim), units_dim_example(dim));
			return false;
		}
		*out = v->valuedouble;
		return true;
	}
	if (cJSON_IsString(v)) {
		if (units_parse(v->valuestring, dim, out, &uerr))
			return true;
		perr(err, "%s: %s", path, uerr->message);
		return false;
	}
	g_autofree char *found = param_describe_json(v);
	perr(err, "%s: found %s, expected a %s such as \"%s\"", path, found,
	     units_dim_name(dim), units_dim_example(dim));
	return false;
}

bool param_json_number_list(const cJSON *v, const struct param_list_spec *spec, double *out,
			    int *n_out, const char *path, GError **err)
{
	const cJSON *it;
	int n = 0;

	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > spec->max_n) {
		g_autofree char *found = param_describe_json(v);

		perr(err, "%s: found %s, expected %s", path, found, spec->expected_list);
		return false;
	}
	cJSON_ArrayForEach(it, v) {
		g_autofree char *ip = g_strdup_printf("%s[%d]", path, n);
		double a;

		if (!param_json_number(it, spec->dim, &a, ip, err))
			return false;
		if (a < spec->min || (spec->min_excl && a <= spec->min) || a > spec->max ||
		    (spec->ascending && n > 0 && a <= out[n - 1])) {
			g_autofree char *found = param_describe_json(it);

			perr(err, "%s: found %s, expected %s", ip, found, spec->expected_item);
			return false;
		}
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

		if (!isfinite(ns) || fabs(ns) >= 9.2e18) {
			perr(err, "%s: found %.10g, expected a time such as \"100 ms\"", path,
			     v->valuedouble);
			return false;
		}
		*out = sim_time_from_s(v->valuedouble);
		return true;
	}
	if (cJSON_IsString(v)) {
		if (units_parse_time(v->valuestring, out, &uerr))
			return true;
		perr(err, "%s: %s", path, uerr->message);
		return false;
	}
	g_autofree char *found = param_describe_json(v);
	perr(err, "%s: found %s, expected a time such as \"100 ms\"", path, found);
	return false;
}

static bool range_ok(const struct param_desc *d, double x)
{
	if (d->min == 0 && d->max == 0)
		return true; /* no range given */
	if (d->flags & PARAM_F_MIN_EXCL ? !(x > d->min) : !(x >= d->min))
		return false;
	return x <= d->max;
}

static void range_error(const struct param_desc *d, const char *path, const cJSON *v,
			GError **err)
{
	g_autofree char *found = param_describe_json(v);
	const char *sym = d->kind == PARAM_TIME ? "s" : units_dim_symbol(d->dim);
	const char *sp = *sym ? " " : "";

	perr(err, "%s: found %s, expected a value %s %.6g%s%s and at most %.6g%s%s", path, found,
	     d->flags & PARAM_F_MIN_EXCL ? "above" : "of at least", d->min, sp, sym,
	     d->max, sp, sym);
}

static void enum_error(const struct param_desc *d, const char *path, const cJSON *v,
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
	if (hint)
		perr(err, "%s: found %s, expected one of %s (did you mean \"%s\"?)", path, found,
		     list->str, hint);
	else
		perr(err, "%s: found %s, expected one of %s", path, found, list->str);
}

bool param_load_value(const struct param_desc *d, const cJSON *v, void *base,
		      const char *path, GError **err)
{
	if (cJSON_IsNull(v) && (d->flags & PARAM_F_NULL_ZERO)) {
		switch (d->kind) {
		case PARAM_NUM:
			*PARAM_FIELD(base, d, double) = 0;
			return true;
		case PARAM_TIME:
			*PARAM_FIELD(base, d, sim_time_t) = 0;
			return true;
		default:
			break;
		}
	}
	switch (d->kind) {
	case PARAM_NUM: {
		double x;

		if (!param_json_number(v, d->dim, &x, path, err))
			return false;
		if (!range_ok(d, x)) {
			range_error(d, path, v, err);
			return false;
		}
		*PARAM_FIELD(base, d, double) = x;
		return true;
	}
	case PARAM_TIME: {
		sim_time_t t;

		if (!param_json_time(v, &t, path, err))
			return false;
		if (!range_ok(d, sim_time_to_s(t))) {
			range_error(d, path, v, err);
			return false;
		}
		*PARAM_FIELD(base, d, sim_time_t) = t;
		return true;
	}
	case PARAM_INT: {
		double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;

		if (!isfinite(x) || x != floor(x) || fabs(x) > 1e9) {
			g_autofree char *found = param_describe_json(v);

			perr(err, "%s: found %s, expected a whole number", path, found);
			return false;
		}
		if (!range_ok(d, x)) {
			range_error(d, path, v, err);
			return false;
		}
		*PARAM_FIELD(base, d, int) = (int)x;
		return true;
	}
	case PARAM_BOOL:
		if (!cJSON_IsBool(v)) {
			g_autofree char *found = param_describe_json(v);

			perr(err, "%s: found %s, expected true or false", path, found);
			return false;
		}
		*PARAM_FIELD(base, d, bool) = cJSON_IsTrue(v);
		return true;
	case PARAM_ENUM:
		if (cJSON_IsString(v))
			for (int i = 0; d->choices[i]; i++)
				if (strcmp(d->choices[i], v->valuestring) == 0) {
					*PARAM_FIELD(base, d, int) = i;
					return true;
				}
		enum_error(d, path, v, err);
		return false;
	case PARAM_STR:
		if (!cJSON_IsString(v)) {
			g_autofree char *found = param_describe_json(v);

			perr(err, "%s: found %s, expected a string", path, found);
			return false;
		}
		g_free(*PARAM_FIELD(base, d, char *));
		*PARAM_FIELD(base, d, char *) = g_strdup(v->valuestring);
		return true;
	case PARAM_OBJECT:
		if (!cJSON_IsObject(v)) {
			g_autofree char *found = param_describe_json(v);

			perr(err, "%s: found %s, expected an object with keys such as \"%s\"", path,
			     found, d->sub[0].key);
			return false;
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
	g_autofree char *full = join_path(path, key);
	const char *hint;

	for (const struct param_desc *d = table; d && d->key; d++)
		g_ptr_array_add(names, (gpointer)d->key);
	for (; extra && *extra; extra++)
		g_ptr_array_add(names, (gpointer)*extra);
	for (guint i = 0; i < names->len; i++)
		g_string_append_printf(list, "%s%s", i ? ", " : "", (char *)names->pdata[i]);
	hint = cs_did_you_mean(key, (const char *const *)names->pdata, names->len);
	if (hint)
		perr(err, "%s: found an unknown key \"%s\", expected one of: %s (did you mean \"%s\"?)",
		     full, key, list->str, hint);
	else
		perr(err, "%s: found an unknown key \"%s\", expected one of: %s", full, key,
		     list->str);
}

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

bool param_load_object(const struct param_desc *table, const cJSON *obj, void *base,
		       const char *path, const char *const *skip, GError **err)
{
	const cJSON *v;

	if (!cJSON_IsObject(obj)) {
		g_autofree char *found = param_describe_json(obj);

		perr(err, "%s: found %s, expected an object", path, found);
		return false;
	}
	cJSON_ArrayForEach(v, obj) {
		const struct param_desc *d;
		g_autofree char *full = NULL;

		if (in_list(skip, v->string))
			continue;
		d = param_find(table, v->string);
		if (!d) {
			param_error_unknown_key(table, skip, v->string, path, err);
			return false;
		}
		full = join_path(path, v->string);
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
	case PARAM_TIME: {
		sim_time_t t = *PARAM_FIELD(base, d, sim_time_t);

		if (t == 0 && (d->flags & PARAM_F_NULL_ZERO))
			return g_strdup("none");
		if (t != 0 && t % SIM_HOUR == 0)
			return g_strdup_printf("%lld h", (long long)(t / SIM_HOUR));
		if (t != 0 && t % SIM_MIN == 0)
			return g_strdup_printf("%lld min", (long long)(t / SIM_MIN));
		if (t % SIM_S == 0)
			return g_strdup_printf("%lld s", (long long)(t / SIM_S));
		if (t % SIM_MS == 0)
			return g_strdup_printf("%lld ms", (long long)(t / SIM_MS));
		return g_strdup_printf("%lld us", (long long)(t / SIM_US));
	}
	case PARAM_INT:
		return g_strdup_printf("%d", *PARAM_FIELD(base, d, int));
	case PARAM_BOOL:
		return g_strdup(*PARAM_FIELD(base, d, bool) ? "true" : "false");
	case PARAM_ENUM:
		return g_strdup(d->choices[*PARAM_FIELD(base, d, int)]);
	case PARAM_STR: {
		const char *s = *PARAM_FIELD(base, d, char *);

		return g_strdup(s ? s : "");
	}
	case PARAM_OBJECT:
		return g_strdup("{...}");
	case PARAM_CUSTOM:
		return g_strdup("(see docs)");
	}
	return g_strdup("?");
}
