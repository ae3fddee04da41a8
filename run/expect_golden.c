// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/expect_golden.c - golden-trace expectations (docs/scenarios.md section 9.3): the
 * run's trace.csv compared with the golden file by traces/diff.h within the tolerances.
 * A golden file that does not exist yet fails, so that `chargesim check --accept`
 * writes it.
 */
#include <string.h>
#include "run/expect.h"
#include "traces/diff.h"

static bool load_tolerances(const cJSON *tobj, const char *path, struct cs_tolerances *tol,
			    GError **err)
{
	const cJSON *col;

	if (!tobj)
		return true;
	if (!cJSON_IsObject(tobj))
		return scenario_error(err, "%s.tolerance: expected an object {COLUMN: {\"abs\": X, \"rel\": Y}, \"*\": {...}}",
				    path);
	cJSON_ArrayForEach(col, tobj) {
		double v[2] = { 0, 0 };   /* abs, rel */
		const cJSON *k;

		if (!cJSON_IsObject(col))
			return scenario_error(err, "%s.tolerance.%s: expected {\"abs\": X, \"rel\": Y}",
					    path, col->string);
		cJSON_ArrayForEach(k, col) {
			int i = strcmp(k->string, "abs") == 0 ? 0 : strcmp(k->string, "rel") == 0 ? 1 : -1;
			g_autofree char *where = g_strdup_printf("%s.tolerance.%s.%s", path, col->string,
							       k->string);
			g_autofree char *text = NULL;

			if (i < 0)
				return scenario_error(err, "%s: found an unknown key, expected abs or rel",
						    where);
			if (cJSON_IsNumber(k))
				text = g_strdup_printf("%.17g", k->valuedouble);
			else if (cJSON_IsString(k))
				text = g_strdup(k->valuestring);
			else
				return scenario_error(err, "%s: expected a number or a value with a unit",
						    where);
			if (!cs_tolerance_value_parse(col->string, i == 1, text, &v[i], where, err))
				return false;
		}
		if (!cs_tolerances_set(tol, col->string, v[0], v[1], err))
			return false;
	}
	return true;
}

bool expect_check_golden(const cJSON *item, const char *path, const char *golden_path,
			 const char *trace_path, GArray *out, GError **err)
{
	g_autoptr(cs_tolerances) tol = cs_tolerances_new();
	g_autoptr(cs_csv_trace) run = NULL;
	g_autoptr(cs_csv_trace) gold = NULL;
	g_autoptr(cs_diff) d = NULL;
	g_autoptr(GError) gerr = NULL;
	struct cs_diff_opts opts = { .tol = tol };
	struct expect_result r = { 0 };

	if (!load_tolerances(cJSON_GetObjectItemCaseSensitive(item, "tolerance"), path, tol, err))
		return false;
	/* Validating before the run (no trace_path): an existing golden file must be a CSV
	 * trace. */
	if (!trace_path && g_file_test(golden_path, G_FILE_TEST_IS_DIR))
		return scenario_error(err, "%s.golden: found a directory (%s), expected a CSV trace",
				    path, golden_path);
	if (!g_file_test(golden_path, G_FILE_TEST_EXISTS)) {
		if (!trace_path)
			return true;
		r.what = g_strdup_printf("golden %s within tolerance", golden_path);
		r.got = g_strdup("no golden file yet (chargesim check --accept writes it)");
		g_array_append_val(out, r);
		return true;
	}
	gold = cs_csv_read(golden_path, NULL, &gerr);
	if (!gold)
		return scenario_error(err, "%s.golden: %s", path, gerr->message);
	if (!trace_path)
		return true;
	run = cs_csv_read(trace_path, NULL, &gerr);
	if (!run)
		return scenario_error(err, "%s: the run's trace cannot be read: %s", path,
				    gerr->message);
	r.what = g_strdup_printf("golden %s within tolerance", golden_path);
	d = cs_diff_traces(run, gold, &opts);
	r.pass = d->pass;
	r.got = d->pass ? g_strdup("within tolerance") : cs_diff_reason(d);
	g_array_append_val(out, r);
	return true;
}
