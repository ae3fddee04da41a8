// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/html.c - report.html: a run or a comparison as one self-contained page.
 *
 * The page needs nothing but itself to show: the style is in it, the plot is
 * gnuplot's SVG inlined (no image file, no script, no network), and only the links to
 * each run's files point elsewhere (relative, so the directory can be moved or
 * attached whole). Text from files (the scenario's name and description, warnings,
 * event fields) is escaped, and made valid UTF-8 without control characters, so that
 * nothing a scenario holds becomes markup. Elements carry data-policy and
 * data-metric attributes so that a test can read the rendered page back
 * (tests/test_report.sh).
 */
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include "report/report_priv.h"
#include "run/expect.h"
#include "output/outfile.h"
#include "traces/events.h"

/* The key events listed per run: what changes the picture (plug, detection,
 * enumeration, suspend, the charger's state, protection, faults, the scenario's own
 * changes). The policy's limit writes (ilim_set, every 100 ms for a ramp), uevents
 * and PD messages are only counted. Kinds missing here are counted too. */
static const char *const key_kinds[] = {
	"attach", "detach", "detect", "enumerate", "vbus_draw", "usb_charger_notify",
	"suspend", "resume", "charger_state", "input_connect", "recharge", "source_trip",
	"source_recover", "uvlo", "ovp", "brownout", "cutoff", "cutoff_end", "boot_state",
	"charger_fault", "adc_stuck", "dropout", "dropout_end", "set", "warning",
};
/* A run that keeps changing state (a recharge every few minutes over a day) lists its
 * first events only and says how many it left out. */
#define REPORT_EVENTS_MAX 40
#define REPORT_FIELD_MAX 160    /* characters of an event's fields shown */

/* text as HTML: valid UTF-8, control characters (but line feeds and tabs) as blanks,
 * the five markup characters escaped. */
void html_text(GString *out, const char *text)
{
	g_autofree char *valid = g_utf8_make_valid(text ? text : "", -1);

	for (const char *c = valid; *c; c = g_utf8_next_char(c)) {
		gunichar u = g_utf8_get_char(c);

		switch (u) {
		case '&': g_string_append(out, "&amp;"); break;
		case '<': g_string_append(out, "&lt;"); break;
		case '>': g_string_append(out, "&gt;"); break;
		case '"': g_string_append(out, "&quot;"); break;
		case '\'': g_string_append(out, "&#39;"); break;
		default:
			if ((u < 0x20 && u != '\n' && u != '\t') || (u >= 0x7f && u < 0xa0))
				g_string_append_c(out, ' ');
			else
				g_string_append_len(out, c, g_utf8_next_char(c) - c);
		}
	}
}

/* A relative link to rel/name. */
static void html_link(GString *out, const char *rel, const char *name)
{
	g_autofree char *path = *rel ? g_build_filename(rel, name, NULL) : g_strdup(name);
	g_autofree char *href = g_uri_escape_string(path, "/", TRUE);

	g_string_append(out, "<a href=\"");
	html_text(out, href);
	g_string_append(out, "\">");
	html_text(out, name);
	g_string_append(out, "</a>");
}

const char report_style[] =
	"body{font-family:sans-serif;margin:1.5em;max-width:1400px;color:#222}\n"
	"table{border-collapse:collapse;margin:0.5em 0}\n"
	"th,td{border:1px solid #bbb;padding:2px 8px;text-align:left;vertical-align:top}\n"
	"td.num{text-align:right;font-family:monospace}\n"
	"thead th{background:#eee}\n"
	".flag{color:#b00;font-weight:bold}\n"
	".ok{color:#060}\n"
	".note{color:#555;font-size:90%}\n"
	"figure{margin:0.5em 0}\n"
	"figure svg{max-width:100%;height:auto}\n";

static void head(GString *out, const struct report_spec *spec)
{
	g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			     "<title>chargesim: ");
	html_text(out, spec->sc->name);
	g_string_append_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", report_style);
	g_string_append(out, "<h1 id=\"scenario\">");
	html_text(out, spec->sc->name);
	g_string_append(out, "</h1>\n<p id=\"description\">");
	html_text(out, spec->sc->description);
	g_string_append(out, "</p>\n<p class=\"note\">Scenario file ");
	html_text(out, spec->sc->file);
	g_string_append_printf(out, ", %g s simulated; %d %s: ", sim_time_to_s(spec->sc->duration),
			       spec->n, spec->n == 1 ? "run" : "policies compared");
	for (int i = 0; i < spec->n; i++) {
		g_string_append(out, i ? ", " : "");
		g_string_append(out, "<span class=\"policy\">");
		html_text(out, spec->runs[i].label);
		g_string_append(out, "</span>");
	}
	g_string_append(out, ".</p>\n");
}

static guint n_failed(const GArray *expect)
{
	guint n = 0;

	for (guint i = 0; expect && i < expect->len; i++)
		n += !g_array_index(expect, struct expect_result, i).pass;
	return n;
}

/* The table's last rows: the flags of each run (warnings, failed expectations). */
static void flag_rows(GString *out, const struct report_spec *spec, bool expect)
{
	g_string_append(out, "<tr data-metric=\"warnings\"><th>warnings</th><td></td>");
	for (int i = 0; i < spec->n; i++) {
		const GPtrArray *w = spec->runs[i].warnings;
		guint n = w ? w->len : 0;

		g_string_append_printf(out, "<td class=\"num%s\" data-policy=\"", n ? " flag" : "");
		html_text(out, spec->runs[i].label);
		g_string_append_printf(out, "\">%s%u</td>", n ? "! " : "", n);
	}
	g_string_append(out, "</tr>\n");
	if (!expect)
		return;
	g_string_append(out, "<tr data-metric=\"expectations_failed\"><th>expectations failed</th><td></td>");
	for (int i = 0; i < spec->n; i++) {
		guint f = n_failed(spec->runs[i].expect);

		g_string_append_printf(out, "<td class=\"num%s\" data-policy=\"", f ? " flag" : "");
		html_text(out, spec->runs[i].label);
		g_string_append_printf(out, "\">%s%u of %u</td>", f ? "! " : "", f,
				       spec->runs[i].expect ? spec->runs[i].expect->len : 0);
	}
	g_string_append(out, "</tr>\n");
}

static void metric_cell(GString *out, const char *label, const struct rmetric *r)
{
	g_string_append_printf(out, "<td class=\"%s\" data-policy=\"", r && r->string ? "text" : "num");
	html_text(out, label);
	g_string_append(out, "\" data-metric=\"");
	html_text(out, r ? r->key : "");
	/* null in metrics.json: never reached (time_to_full_s) or never measured */
	g_string_append(out, r && r->text ? "\">" : "\" title=\"null in metrics.json\">");
	html_text(out, r && r->text ? r->text : "n/a");
	g_string_append(out, "</td>");
}

/* One row per metric (the rows of metrics.json), a column per run. */
static void metrics_table(GString *out, const struct report_spec *spec, GPtrArray **ms)
{
	bool expect = false;

	for (int i = 0; i < spec->n; i++)
		expect |= spec->runs[i].expect != NULL;
	g_string_append(out, "<h2 id=\"metrics-title\">Metrics</h2>\n<p class=\"note\">The values "
			     "of each run's metrics.json, its significant digits as written "
			     "(n/a: null, not reached). Units from the metric's name; soc as a "
			     "fraction of full.</p>\n<table id=\"metrics\">\n<thead><tr><th>metric</th>"
			     "<th>unit</th>");
	for (int i = 0; i < spec->n; i++) {
		g_string_append(out, "<th class=\"policy\" data-policy=\"");
		html_text(out, spec->runs[i].label);
		g_string_append(out, "\">");
		html_text(out, spec->runs[i].label);
		g_string_append(out, "</th>");
	}
	g_string_append(out, "</tr></thead>\n<tbody>\n");
	for (guint k = 0; k < ms[0]->len; k++) {
		const struct rmetric *head = ms[0]->pdata[k];

		g_string_append(out, "<tr data-metric=\"");
		html_text(out, head->key);
		g_string_append(out, "\"><th>");
		html_text(out, head->key);
		g_string_append(out, "</th><td>");
		html_text(out, report_metric_unit(head->key));
		g_string_append(out, "</td>");
		for (int i = 0; i < spec->n; i++)
			metric_cell(out, spec->runs[i].label, report_metric_find(ms[i], head->key));
		g_string_append(out, "</tr>\n");
	}
	flag_rows(out, spec, expect);
	g_string_append(out, "</tbody>\n</table>\n");
}

/* The flags in words: each run's warnings and failed expectations. */
static void flags_section(GString *out, const struct report_spec *spec)
{
	g_string_append(out, "<h2 id=\"flags\">Flags</h2>\n<ul>\n");
	for (int i = 0; i < spec->n; i++) {
		const struct report_run *r = &spec->runs[i];
		guint nw = r->warnings ? r->warnings->len : 0, nf = n_failed(r->expect);

		g_string_append(out, "<li data-policy=\"");
		html_text(out, r->label);
		g_string_append(out, "\"><b>");
		html_text(out, r->label);
		g_string_append(out, "</b>: ");
		if (!nw && !nf)
			g_string_append(out, r->expect ? "<span class=\"ok\">no warnings, every "
					"expectation held</span>" : "<span class=\"ok\">no warnings</span>");
		g_string_append(out, "<ul>");
		for (guint k = 0; k < nw; k++) {
			g_string_append(out, "<li class=\"flag\">! warning: ");
			html_text(out, r->warnings->pdata[k]);
			g_string_append(out, "</li>");
		}
		for (guint k = 0; r->expect && k < r->expect->len; k++) {
			const struct expect_result *e = &g_array_index(r->expect, struct expect_result, k);

			if (e->pass)
				continue;
			g_string_append(out, "<li class=\"flag\">! FAILED: ");
			html_text(out, e->what);
			g_string_append(out, " (got ");
			html_text(out, e->got);
			g_string_append(out, ")</li>");
		}
		g_string_append(out, "</ul></li>\n");
	}
	g_string_append(out, "</ul>\n");
}

/* An SVG above this is drawn from the PNG instead: a storm of events (5,940 UVLOs in
 * 10 min in bug zoo 3) has as many state segments and marker lines, and every one of
 * them is an SVG element (a 23 MB plot.svg), while the PNG keeps its size. */
#define REPORT_SVG_MAX (1024 * 1024)

/* The PNG inside an <svg> element (the figure is an SVG either way), its pixels as a
 * data: URI so that the page still needs no other file. False with err when the PNG
 * cannot be read or is none. */
static bool png_figure(GString *out, const char *svg_path, gsize svg_len, GError **err)
{
	g_autofree char *png_path = g_strdup(svg_path);
	g_autofree char *png = NULL;
	g_autofree char *b64 = NULL;
	const guint8 *b;
	gsize len = 0;
	guint32 w, h;

	memcpy(png_path + strlen(png_path) - 3, "png", 3);
	if (!g_file_get_contents(png_path, &png, &len, err))
		return false;
	b = (const guint8 *)png;
	if (len < 24 || memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0) {
		g_set_error(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_IO, "%s: not a PNG", png_path);
		return false;
	}
	/* the IHDR chunk: width and height, big-endian, at bytes 16 and 20 */
	w = (guint32)b[16] << 24 | (guint32)b[17] << 16 | (guint32)b[18] << 8 | b[19];
	h = (guint32)b[20] << 24 | (guint32)b[21] << 16 | (guint32)b[22] << 8 | b[23];
	b64 = g_base64_encode(b, len);
	g_string_append_printf(out, "<p class=\"note\">plot.svg (%" G_GSIZE_FORMAT " bytes) is too "
			       "large to put into the page; its picture is plot.png's.</p>\n", svg_len);
	g_string_append_printf(out, "<figure id=\"plot\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
			       "width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\"><image width=\"%u\" "
			       "height=\"%u\" href=\"data:image/png;base64,%s\"/></svg>\n</figure>\n",
			       w, h, w, h, w, h, b64);
	return true;
}

/* The plot: gnuplot's SVG from its <svg> element on (its XML declaration left out). */
static bool figure(GString *out, const struct report_spec *spec, GError **err)
{
	g_autofree char *svg = NULL;
	gsize len = 0;
	const char *start;

	g_string_append(out, "<h2 id=\"plots\">Plots</h2>\n");
	if (!spec->plot_svg) {
		g_string_append(out, "<p class=\"note\" id=\"no-plot\">No plot: ");
		html_text(out, spec->no_plot);
		g_string_append(out, "</p>\n");
		return true;
	}
	if (!g_file_get_contents(spec->plot_svg, &svg, &len, err))
		return false;
	start = strstr(svg, "<svg");
	g_string_append(out, "<p class=\"note\">Every run overlaid, one colour each: (a) VBUS, "
			     "(b) the currents and limits, (c) the battery, (d) the states and "
			     "events; the zoom panel (e), when something happened worth a closer "
			     "look, shows the window shaded yellow above, chosen by the rule its "
			     "title names (the first trip, UVLO or brownout, else the first VBUS "
			     "sag below the port's minimum, else the input-limit ramp after plug; "
			     "docs/plots.md). The same picture as ");
	html_link(out, "", "plot.svg");
	g_string_append(out, " and ");
	html_link(out, "", "plot.png");
	g_string_append(out, ", drawn by ");
	html_link(out, "", "plot.gp");
	g_string_append(out, ".</p>\n");
	if (len > REPORT_SVG_MAX)
		return png_figure(out, spec->plot_svg, len, err);
	g_string_append(out, "<figure id=\"plot\">\n");
	g_string_append(out, start ? start : "");
	g_string_append(out, "\n</figure>\n");
	return true;
}

/* Reading one run's events.jsonl. */
struct ev_scan {
	GString *rows;          /* the key events' table rows */
	GHashTable *counts;     /* kind -> count (GINT_TO_POINTER) */
	int listed, skipped;
};

static bool is_key(const char *ev)
{
	for (size_t i = 0; i < G_N_ELEMENTS(key_kinds); i++)
		if (strcmp(ev, key_kinds[i]) == 0)
			return true;
	return false;
}

/* An event's own fields as "name=value", shortened to REPORT_FIELD_MAX characters. */
static char *event_fields(const cJSON *rec)
{
	GString *s = g_string_new(NULL);
	const cJSON *f;

	cJSON_ArrayForEach(f, rec) {
		g_autofree char *v = NULL;

		if (!f->string || !strcmp(f->string, "t") || !strcmp(f->string, "src") ||
		    !strcmp(f->string, "ev"))
			continue;
		v = cJSON_IsString(f) ? g_strdup(f->valuestring) : cJSON_PrintUnformatted(f);
		g_string_append_printf(s, "%s%s=%s", s->len ? " " : "", f->string, v ? v : "?");
	}
	if (g_utf8_strlen(s->str, -1) > REPORT_FIELD_MAX) {
		char *end = g_utf8_offset_to_pointer(s->str, REPORT_FIELD_MAX);

		g_string_truncate(s, (gsize)(end - s->str));
		g_string_append(s, " ...");
	}
	return g_string_free(s, FALSE);
}

static bool event_cb(void *data, const cJSON *rec, long line, GError **err)
{
	struct ev_scan *es = data;
	const char *ev = cs_event_kind(rec);
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(rec, "src");
	g_autofree char *fields = NULL;

	(void)line;
	(void)err;
	if (!ev)
		return true;
	g_hash_table_insert(es->counts, g_strdup(ev),
			    GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(es->counts, ev)) + 1));
	if (!is_key(ev))
		return true;
	if (es->listed >= REPORT_EVENTS_MAX) {
		es->skipped++;
		return true;
	}
	es->listed++;
	fields = event_fields(rec);
	g_string_append_printf(es->rows, "<tr><td class=\"num\">%.6g</td><td>", cs_event_time(rec));
	html_text(es->rows, cJSON_IsString(src) ? src->valuestring : "");
	g_string_append(es->rows, "</td><td>");
	html_text(es->rows, ev);
	g_string_append(es->rows, "</td><td>");
	html_text(es->rows, fields);
	g_string_append(es->rows, "</td></tr>\n");
	return true;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "attach 1, charger_state 3, ...": every kind of the run, by name. */
static void kind_counts(GString *out, GHashTable *counts)
{
	g_autofree gpointer *keys = g_hash_table_get_keys_as_array(counts, NULL);
	guint n = g_hash_table_size(counts);

	qsort(keys, n, sizeof(*keys), cmp_names);
	for (guint i = 0; i < n; i++) {
		g_string_append(out, i ? ", " : "");
		html_text(out, keys[i]);
		g_string_append_printf(out, " %d", GPOINTER_TO_INT(g_hash_table_lookup(counts, keys[i])));
	}
}

static bool run_events(GString *out, const struct report_spec *spec, const struct report_run *r,
		       GError **err)
{
	g_autofree char *path = g_build_filename(spec->dir, r->rel, "events.jsonl", NULL);
	g_autoptr(GHashTable) counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GString) rows = g_string_new(NULL);
	struct ev_scan es = { rows, counts, 0, 0 };

	if (!cs_events_read(path, event_cb, &es, err))
		return false;
	g_string_append(out, "<section class=\"events\" data-policy=\"");
	html_text(out, r->label);
	g_string_append(out, "\">\n<h3>");
	html_text(out, r->label);
	g_string_append(out, "</h3>\n<p class=\"note\">All events by kind: ");
	kind_counts(out, counts);
	g_string_append(out, ".</p>\n<table class=\"events\"><thead><tr><th>t [s]</th><th>src</th>"
			     "<th>ev</th><th>fields</th></tr></thead>\n<tbody>\n");
	g_string_append(out, rows->str);
	g_string_append(out, "</tbody></table>\n");
	if (es.skipped)
		g_string_append_printf(out, "<p class=\"note\">... and %d more key events: see "
				       "events.jsonl.</p>\n", es.skipped);
	g_string_append(out, "</section>\n");
	return true;
}

static void files_section(GString *out, const struct report_spec *spec)
{
	static const char *const files[] = { "trace.csv", "events.jsonl", "metrics.json" };

	g_string_append(out, "<h2 id=\"files\">Files</h2>\n<ul>\n");
	for (int i = 0; i < spec->n; i++) {
		const struct report_run *r = &spec->runs[i];

		g_string_append(out, "<li class=\"files\" data-policy=\"");
		html_text(out, r->label);
		g_string_append(out, "\"><b>");
		html_text(out, r->label);
		g_string_append(out, "</b>: ");
		for (size_t k = 0; k < G_N_ELEMENTS(files); k++) {
			g_string_append(out, k ? ", " : "");
			html_link(out, r->rel, files[k]);
		}
		g_string_append(out, "</li>\n");
	}
	if (spec->plot_svg) {
		g_string_append(out, "<li class=\"files\">the plot script: ");
		html_link(out, "", "plot.gp");
		g_string_append(out, " (render again with <code>gnuplot plot.gp</code> in this "
				     "directory)</li>\n");
	}
	if (spec->n > 1) {
		g_string_append(out, "<li class=\"files\">the table: ");
		html_link(out, "", "compare.csv");
		g_string_append(out, ", ");
		html_link(out, "", "compare.json");
		g_string_append(out, "</li>\n");
	}
	g_string_append(out, "</ul>\n");
}

/* One kernel file as a row: the full SHA-256 in the title, the first 16 digits shown
 * (as `list policies` and compare's summary print them). */
static void kernel_file_row(GString *out, const char *label, const cJSON *f)
{
	const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "path"));
	const char *sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "sha256"));
	const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "status"));
	g_autofree char *shortsha = g_strndup(sha ? sha : "", 16);

	g_string_append(out, "<tr data-policy=\"");
	html_text(out, label);
	g_string_append(out, "\"><td>");
	html_text(out, label);
	g_string_append(out, "</td><td><code>");
	html_text(out, path ? path : "");
	g_string_append(out, "</code></td><td><code title=\"");
	html_text(out, sha ? sha : "");
	g_string_append(out, "\">");
	html_text(out, shortsha);
	g_string_append_printf(out, "</code></td><td class=\"kstatus %s\">", status ? status : "");
	html_text(out, status ? status : "");
	g_string_append(out, "</td></tr>\n");
}

/*
 * Which bytes of each real driver (linux/ policy) made the results (docs/linux-drivers.md
 * section 2): a page printed or mailed alone still says whether the driver was the
 * tarball's or an edit. No section when no run used a real driver.
 */
static void kernel_files_section(GString *out, const struct report_spec *spec)
{
	bool any = false;

	for (int i = 0; i < spec->n; i++) {
		const struct report_run *r = &spec->runs[i];
		cJSON *kf = world_kernel_files_json(world_metric_text(r->metrics, "policy"));
		const cJSON *f;

		if (!kf)
			continue;
		if (!any)
			g_string_append(out, "<h2 id=\"kernel-files\">Kernel files</h2>\n<p class=\"note\">"
					     "The Linux files each real driver was compiled from: its "
					     "SHA-256 (the first 16 digits; all 64 on hover) and whether "
					     "the file is the linux-source-6.12 tarball's (stock), differs "
					     "from it (edited), or had no tarball to compare with "
					     "(not-from-tarball).</p>\n<table id=\"kernel-files-table\">\n"
					     "<thead><tr><th>policy</th><th>file</th><th>sha256</th>"
					     "<th>status</th></tr></thead>\n<tbody>\n");
		any = true;
		cJSON_ArrayForEach(f, kf)
			kernel_file_row(out, r->label, f);
		cJSON_Delete(kf);
	}
	if (any)
		g_string_append(out, "</tbody>\n</table>\n");
}

static bool page(GString *out, const struct report_spec *spec, GPtrArray **ms, GError **err)
{
	head(out, spec);
	metrics_table(out, spec, ms);
	flags_section(out, spec);
	kernel_files_section(out, spec);
	if (!figure(out, spec, err))
		return false;
	g_string_append(out, "<h2 id=\"events-title\">Key events</h2>\n");
	for (int i = 0; i < spec->n; i++)
		if (!run_events(out, spec, &spec->runs[i], err))
			return false;
	files_section(out, spec);
	g_string_append(out, "<p class=\"note\">Written by chargesim (docs/report.md).</p>\n"
			     "</body>\n</html>\n");
	return true;
}

bool report_write_html(const struct report_spec *spec, GError **err)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *path = g_build_filename(spec->dir, "report.html", NULL);
	GPtrArray **ms = g_new0(GPtrArray *, (gsize)spec->n);
	bool ok;

	for (int i = 0; i < spec->n; i++)
		ms[i] = report_metrics(spec->runs[i].metrics);
	ok = spec->n > 0 && page(out, spec, ms, err) &&
	     cs_outfile_write_all(path, out->str, out->len, err);
	for (int i = 0; i < spec->n; i++)
		g_ptr_array_unref(ms[i]);
	g_free(ms);
	return ok;
}
