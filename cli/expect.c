/*
 * cli/expect.c - metric and signal expectations.
 */
#include <math.h>
#include <string.h>
#include "cli/expect.h"
#include "sim/units.h"

static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", "between", NULL };

static enum unit_dim dim_of_name(const char *name)
{
	if (g_str_has_suffix(name, "_V"))
		return UNIT_VOLT;
	if (g_str_has_suffix(name, "_A"))
		return UNIT_AMP;
	if (g_str_has_suffix(name, "_s"))
		return UNIT_SECOND;
	if (g_str_has_suffix(name, "_Wh"))
		return UNIT_WH;
	if (g_str_has_prefix(name, "soc"))
		return UNIT_FRACTION;
	if (g_str_has_suffix(name, "_C"))
		return UNIT_CELSIUS;
	return UNIT_NONE;
}

/* mAh metrics are written in mAh but a unit string parses to Ah. */
static bool expected_number(const char *name, const cJSON *v, double *out, const char *path,
			    GError **err)
{
	g_autoptr(GError) uerr = NULL;
	enum unit_dim dim = g_str_has_suffix(name, "_mAh") ? UNIT_AH : dim_of_name(name);

	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		if (isfinite(*out))
			return true;
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "%s: found a number out of range", path);
		return false;
	}
	if (cJSON_IsString(v)) {
		if (dim == UNIT_SECOND) {
			sim_time_t t;

			if (!units_parse_time(v->valuestring, &t, &uerr))
				goto bad;
			*out = sim_time_to_s(t);
			return true;
		}
		if (!units_parse(v->valuestring, dim, out, &uerr))
			goto bad;
		if (dim == UNIT_AH)
			*out *= 1000.0;
		return true;
	}
	{
		char *found = cJSON_PrintUnformatted(v);

		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "%s: found %s, expected a number or a value with a unit", path, found);
		cJSON_free(found);
		return false;
	}
bad:
	g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: %s", path, uerr->message);
	return false;
}

static char *fmt_value(const char *name, double v)
{
	const char *sym = g_str_has_suffix(name, "_mAh") ? "mAh" : units_dim_symbol(dim_of_name(name));

	return g_strdup_printf("%.6g%s%s", v, *sym ? " " : "", sym);
}

static void add_result(GArray *out, bool pass, char *what, char *got)
{
	struct expect_result r = { pass, what, got };

	g_array_append_val(out, r);
}

/* Compare got against the operator(s) of item (all present ones must hold). */
static bool compare_number(const char *name, const cJSON *item, const char *path, double got,
			   bool got_null, GArray *out, const char *label, GError **err)
{
	int n_ops = 0;

	for (int k = 0; ops[k]; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, ops[k]);
		g_autofree char *opath = g_strdup_printf("%s.%s", path, ops[k]);
		double lo, hi, x;
		bool pass;
		char *what;

		if (!v)
			continue;
		n_ops++;
		if (strcmp(ops[k], "between") == 0) {
			if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2) {
				g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: found something else, expected [LO, HI]", opath);
				return false;
			}
			if (!expected_number(name, cJSON_GetArrayItem(v, 0), &lo, opath, err) ||
			    !expected_number(name, cJSON_GetArrayItem(v, 1), &hi, opath, err))
				return false;
			pass = !got_null && got >= lo && got <= hi;
			g_autofree char *a = fmt_value(name, lo), *b = fmt_value(name, hi);
			what = g_strdup_printf("%s between %s and %s", label, a, b);
		} else if (cJSON_IsNull(v)) {
			if (k > 1) {
				g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: found null, expected a value (null only with == or !=)", opath);
				return false;
			}
			pass = k == 0 ? got_null : !got_null;
			what = g_strdup_printf("%s %s null", label, ops[k]);
		} else {
			if (!expected_number(name, v, &x, opath, err))
				return false;
			switch (k) {
			case 0: pass = !got_null && got == x; break;
			case 1: pass = got_null || got != x; break;
			case 2: pass = !got_null && got < x; break;
			case 3: pass = !got_null && got <= x; break;
			case 4: pass = !got_null && got > x; break;
			default: pass = !got_null && got >= x; break;
			}
			g_autofree char *xs = fmt_value(name, x);
			what = g_strdup_printf("%s %s %s", label, ops[k], xs);
		}
		add_result(out, pass, what, got_null ? g_strdup("null") : fmt_value(name, got));
	}
	if (n_ops == 0) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "%s: found no comparison, expected one of ==, !=, <, <=, >, >=, between", path);
		return false;
	}
	return true;
}

static bool compare_string(const cJSON *item, const char *path, const char *got,
			   GArray *out, const char *label, GError **err)
{
	int n_ops = 0;

	for (int k = 0; k < 2; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, ops[k]);
		bool eq;

		if (!v)
			continue;
		n_ops++;
		if (!cJSON_IsString(v) && !cJSON_IsNull(v)) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s.%s: found a non-string, expected a string such as \"USB_DCP\"",
				    path, ops[k]);
			return false;
		}
		eq = cJSON_IsNull(v) ? got == NULL : got && strcmp(got, v->valuestring) == 0;
		add_result(out, k == 0 ? eq : !eq,
			   g_strdup_printf("%s %s %s", label, ops[k], cJSON_IsNull(v) ? "null" : v->valuestring),
			   g_strdup(got ? got : "null"));
	}
	for (int k = 2; ops[k]; k++)
		if (cJSON_GetObjectItemCaseSensitive(item, ops[k])) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s.%s: found an ordering on a text value, expected == or !=",
				    path, ops[k]);
			return false;
		}
	if (n_ops == 0) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: found no comparison, expected == or !=", path);
		return false;
	}
	return true;
}

static bool item_keys_ok(const cJSON *item, const char *path, const char *kind, GError **err)
{
	const cJSON *k;

	cJSON_ArrayForEach(k, item) {
		bool ok = strcmp(k->string, kind) == 0 || (strcmp(kind, "signal") == 0 && strcmp(k->string, "at") == 0);

		for (int i = 0; ops[i]; i++)
			ok |= strcmp(k->string, ops[i]) == 0;
		if (!ok) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s.%s: found an unknown key, expected %s and a comparison",
				    path, k->string, kind);
			return false;
		}
	}
	return true;
}

GArray *expect_probe_times(const cJSON *expect, const char *file, GError **err)
{
	GArray *times = g_array_new(FALSE, FALSE, sizeof(sim_time_t));
	const cJSON *item;
	int i = 0;

	cJSON_ArrayForEach(item, expect) {
		const cJSON *at = cJSON_GetObjectItemCaseSensitive(item, "at");
		g_autoptr(GError) uerr = NULL;
		sim_time_t t;

		if (cJSON_GetObjectItemCaseSensitive(item, "signal")) {
			bool ok = false;

			if (cJSON_IsNumber(at) && isfinite(at->valuedouble) && fabs(at->valuedouble) < 9e9) {
				t = sim_time_from_s(at->valuedouble);
				ok = true;
			} else if (cJSON_IsString(at)) {
				ok = units_parse_time(at->valuestring, &t, &uerr);
			}
			if (!ok || t < 0) {
				g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: expect[%d].at: %s", file, i,
					    uerr ? uerr->message : "found no time, expected a time such as \"10 s\" (at least 0)");
				g_array_free(times, TRUE);
				return NULL;
			}
			g_array_append_val(times, t);
		}
		i++;
	}
	return times;
}

static int probe_index(const GArray *times, sim_time_t t)
{
	for (guint i = 0; i < times->len; i++)
		if (g_array_index(times, sim_time_t, i) == t)
			return (int)i;
	return -1;
}

bool expect_check(const cJSON *expect, const char *file, const struct world *w,
		  const GArray *probe_times, GArray **results, GError **err)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct expect_result));
	g_autoptr(GError) inner = NULL;
	cJSON *metrics = world_metrics_json(w);
	const cJSON *item;
	int i = 0, probe = 0;

	cJSON_ArrayForEach(item, expect) {
		g_autofree char *path = g_strdup_printf("expect[%d]", i++);
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(item, "metric");
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(item, "signal");

		if (m) {
			const cJSON *val;
			g_autofree char *label = NULL;

			if (!cJSON_IsString(m) || !item_keys_ok(item, path, "metric", &inner))
				goto bad;
			val = cJSON_GetObjectItemCaseSensitive(metrics, m->valuestring);
			if (!val) {
				g_set_error(&inner, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s.metric: found \"%s\", expected a metric of metrics.json such as vbus_min_V",
					    path, m->valuestring);
				goto bad;
			}
			label = g_strdup_printf("metric %s", m->valuestring);
			if (cJSON_IsString(val)) {
				if (!compare_string(item, path, val->valuestring, out, label, &inner))
					goto bad;
			} else if (cJSON_IsNull(val) && strcmp(m->valuestring, "detected_type") == 0) {
				if (!compare_string(item, path, NULL, out, label, &inner))
					goto bad;
			} else {
				double got = cJSON_IsNumber(val) ? val->valuedouble :
					     cJSON_IsRaw(val) ? g_ascii_strtod(val->valuestring, NULL) : NAN;

				if (!compare_number(m->valuestring, item, path, got, cJSON_IsNull(val), out,
						    label, &inner))
					goto bad;
			}
		} else if (s) {
			sim_time_t t = g_array_index(probe_times, sim_time_t, probe++);
			int pi = probe_index(probe_times, t);
			double got;
			g_autofree char *label = NULL;

			if (!cJSON_IsString(s) || !item_keys_ok(item, path, "signal", &inner))
				goto bad;
			if (!world_probe_value(w, pi, s->valuestring, &got)) {
				g_set_error(&inner, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s.signal: found \"%s\", expected a trace column such as vbus_V",
					    path, s->valuestring);
				goto bad;
			}
			label = g_strdup_printf("signal %s at %.9g s", s->valuestring, sim_time_to_s(t));
			if (strcmp(s->valuestring, "charger_state") == 0 ||
			    strcmp(s->valuestring, "source_state") == 0) {
				const char *const *names = strcmp(s->valuestring, "charger_state") == 0 ?
								   charger_state_names : source_state_names;

				if (!compare_string(item, path, names[(int)got], out, label, &inner))
					goto bad;
			} else if (!compare_number(s->valuestring, item, path, got, false, out, label, &inner)) {
				goto bad;
			}
		} else {
			g_set_error(&inner, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
				    "%s: golden traces and fingerprints are checked by `chargesim check`, which this version does not have yet",
				    path);
			goto bad;
		}
	}
	cJSON_Delete(metrics);
	*results = out;
	return true;
bad:
	cJSON_Delete(metrics);
	expect_results_free(out);
	g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: %s", file, inner->message);
	return false;
}

void expect_results_free(GArray *results)
{
	if (!results)
		return;
	for (guint i = 0; i < results->len; i++) {
		g_free(g_array_index(results, struct expect_result, i).what);
		g_free(g_array_index(results, struct expect_result, i).got);
	}
	g_array_free(results, TRUE);
}
