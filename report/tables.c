// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/tables.c - compare.csv and compare.json: one row (object) per policy with
 * every metric its run wrote to metrics.json, each with its unit, and the run's
 * warnings.
 *
 * The metrics are not named here: they come from world_metrics_emit(), the list that
 * writes metrics.json, so a metric a model adds appears in both files with nothing
 * to change. The numbers keep metrics.json's text (its significant digits), so a value
 * reads the same in metrics.json, compare.json, compare.csv and report.html.
 */
#include <string.h>
#include <cJSON.h>
#include "report/report_priv.h"
#include "output/outfile.h"

/* A metric's unit by the ending of its name: the convention of docs/scenarios.md
 * (section 11.3), by which expectations parse a value's unit too. */
static const struct {
	const char *suffix;
	const char *unit;
} unit_suffixes[] = {
	{ "_mAh", "mAh" }, { "_Wh", "Wh" }, { "_V", "V" }, { "_A", "A" }, { "_s", "s" },
	{ "_C", "°C" },
};

const char *report_metric_unit(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(unit_suffixes); i++)
		if (g_str_has_suffix(name, unit_suffixes[i].suffix))
			return unit_suffixes[i].unit;
	/* soc_initial, soc_final: the state of charge as a fraction of full (0.8 = 80 %) */
	if (g_str_has_prefix(name, "soc"))
		return "fraction";
	return "";
}

static void rmetric_free(gpointer p)
{
	struct rmetric *r = p;

	g_free(r->key);
	g_free(r->text);
	g_free(r);
}

static void add(GPtrArray *a, const char *key, char *text, bool string)
{
	struct rmetric *r = g_new0(struct rmetric, 1);

	r->key = g_strdup(key);
	r->text = text;
	r->string = string;
	g_ptr_array_add(a, r);
}

static void sink_raw(void *ctx, const char *key, const char *text)
{
	add(ctx, key, g_strdup(text), false);
}

static void sink_string(void *ctx, const char *key, const char *s)
{
	add(ctx, key, g_strdup(s), true);
}

GPtrArray *report_metrics(const struct world_metrics *m)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(rmetric_free);
	struct world_metrics_sink sink = { sink_raw, sink_string, a };

	world_metrics_emit(m, &sink);
	return a;
}

const struct rmetric *report_metric_find(const GPtrArray *ms, const char *key)
{
	for (guint i = 0; i < ms->len; i++) {
		const struct rmetric *r = ms->pdata[i];

		if (strcmp(r->key, key) == 0)
			return r;
	}
	return NULL;
}

/* A null metric's text is absent: a number stays a JSON number (raw, its digits). */
static cJSON *metric_json(const struct rmetric *r)
{
	if (!r || !r->text)
		return cJSON_CreateNull();
	return r->string ? cJSON_CreateString(r->text) : cJSON_CreateRaw(r->text);
}

static cJSON *run_json(const struct report_run *run, const GPtrArray *ms)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *metrics, *units, *warnings, *kf;

	cJSON_AddStringToObject(o, "policy", run->label);
	cJSON_AddStringToObject(o, "dir", *run->rel ? run->rel : ".");
	metrics = cJSON_AddObjectToObject(o, "metrics");
	units = cJSON_AddObjectToObject(o, "units");
	warnings = cJSON_AddArrayToObject(o, "warnings");
	for (guint i = 0; i < ms->len; i++) {
		const struct rmetric *r = ms->pdata[i];

		cJSON_AddItemToObject(metrics, r->key, metric_json(r));
		cJSON_AddStringToObject(units, r->key, report_metric_unit(r->key));
	}
	for (guint i = 0; run->warnings && i < run->warnings->len; i++)
		cJSON_AddItemToArray(warnings, cJSON_CreateString(run->warnings->pdata[i]));
	/* a real driver's column: which bytes of it ran */
	kf = world_kernel_files_json(world_metric_text(run->metrics, "policy"));
	if (kf)
		cJSON_AddItemToObject(o, "kernel_files", kf);
	return o;
}

static bool write_json(const struct report_spec *spec, GPtrArray **ms, GError **err)
{
	g_autoptr(GString) text = NULL;
	g_autofree char *path = g_build_filename(spec->dir, "compare.json", NULL);
	cJSON *doc = cJSON_CreateObject();
	cJSON *runs;
	char *s;

	cJSON_AddStringToObject(doc, "scenario", spec->sc->name);
	cJSON_AddStringToObject(doc, "description", spec->sc->description ? spec->sc->description : "");
	cJSON_AddNumberToObject(doc, "duration_s", sim_time_to_s(spec->sc->duration));
	runs = cJSON_AddArrayToObject(doc, "policies");
	for (int i = 0; i < spec->n; i++)
		cJSON_AddItemToArray(runs, run_json(&spec->runs[i], ms[i]));
	s = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!s)
		g_error("compare.json: out of memory");
	text = g_string_new(s);
	cJSON_free(s);
	g_string_append_c(text, '\n');
	return cs_outfile_write_all(path, text->str, text->len, err);
}

/* A CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or
 * blanks at an end. */
static void csv_field(GString *out, const char *s, bool first)
{
	size_t n = strlen(s);
	bool quote = strpbrk(s, ",\"\r\n") || (n && (s[0] == ' ' || s[n - 1] == ' '));

	if (!first)
		g_string_append_c(out, ',');
	if (!quote) {
		g_string_append(out, s);
		return;
	}
	g_string_append_c(out, '"');
	for (const char *c = s; *c; c++) {
		if (*c == '"')
			g_string_append_c(out, '"');
		g_string_append_c(out, *c);
	}
	g_string_append_c(out, '"');
}

/* The header: "policy", each metric as "NAME [UNIT]" (its metrics.json key and unit;
 * a count or text has no unit), "warnings". */
static void csv_header(GString *out, const GPtrArray *ms)
{
	csv_field(out, "policy", true);
	for (guint i = 0; i < ms->len; i++) {
		const struct rmetric *r = ms->pdata[i];
		const char *unit = report_metric_unit(r->key);
		g_autofree char *h = *unit ? g_strdup_printf("%s [%s]", r->key, unit) :
				     g_strdup(r->key);

		csv_field(out, h, false);
	}
	csv_field(out, "warnings", false);
	g_string_append_c(out, '\n');
}

static bool write_csv(const struct report_spec *spec, GPtrArray **ms, GError **err)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *path = g_build_filename(spec->dir, "compare.csv", NULL);

	csv_header(out, ms[0]);
	for (int i = 0; i < spec->n; i++) {
		const struct report_run *run = &spec->runs[i];
		g_autoptr(GString) w = g_string_new(NULL);

		csv_field(out, run->label, true);
		for (guint k = 0; k < ms[0]->len; k++) {
			const struct rmetric *head = ms[0]->pdata[k];
			const struct rmetric *r = report_metric_find(ms[i], head->key);

			csv_field(out, r && r->text ? r->text : "", false);
		}
		/* the warnings of a run in one field, one per line */
		for (guint k = 0; run->warnings && k < run->warnings->len; k++)
			g_string_append_printf(w, "%s%s", k ? "\n" : "",
					       (const char *)run->warnings->pdata[k]);
		csv_field(out, w->str, false);
		g_string_append_c(out, '\n');
	}
	return cs_outfile_write_all(path, out->str, out->len, err);
}

bool report_write_tables(const struct report_spec *spec, GError **err)
{
	GPtrArray **ms = g_new0(GPtrArray *, (gsize)spec->n);
	bool ok;

	for (int i = 0; i < spec->n; i++)
		ms[i] = report_metrics(spec->runs[i].metrics);
	ok = spec->n > 0 && write_json(spec, ms, err) && write_csv(spec, ms, err);
	for (int i = 0; i < spec->n; i++)
		g_ptr_array_unref(ms[i]);
	g_free(ms);
	return ok;
}
