// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_outputs.c - the output writers: number formatting, trace.csv (read back
 * with libcsv's parser), trace.vcd (read back with a small parser written here),
 * events.jsonl (read back with cJSON), the events.jsonl reader of traces/ (on files
 * written by hand), the placeholders of the plot templates and the atomic output
 * files.
 *
 * Expected strings and values are written out by hand from the inputs in each test.
 * Every test works in its own temporary directory and removes it.
 */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cJSON.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "sim/evlog.h"
#include "output/evfile.h"
#include "output/outfile.h"
#include "output/outset.h"
#include "output/trace.h"
#include "sim/units.h"
#include "plots/gp.h"
#include "traces/events.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* ---- helpers ---- */

static gint cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted and joined with spaces ("" when empty). */
static char *dir_listing(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;
	char *out;

	if (!d)
		return g_strdup("(cannot open)");
	while ((name = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(name));
	g_dir_close(d);
	g_ptr_array_sort(names, cmp_names);
	g_ptr_array_add(names, NULL);
	out = g_strjoinv(" ", (char **)names->pdata);
	return out;
}

static bool listing_is(const char *dir, const char *want)
{
	g_autofree char *got = dir_listing(dir);

	if (strcmp(got, want) != 0) {
		fprintf(stderr, "\n  %s holds \"%s\", want \"%s\"\n", dir, got, want);
		return false;
	}
	return true;
}

static char *read_file(const char *path)
{
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

static bool fmt_time_is(sim_time_t t, const char *want)
{
	char buf[48];
	int n = units_time_text(buf, t);

	if (strcmp(buf, want) != 0 || n != (int)strlen(want)) {
		fprintf(stderr, "\n  units_time_text(%" G_GINT64_FORMAT ") = \"%s\" (%d), want \"%s\"\n",
			t, buf, n, want);
		return false;
	}
	return true;
}

static bool fmt_fixed_is(double v, int decimals, const char *want)
{
	char buf[48];
	int n = trace_fmt_fixed(buf, v, decimals);

	if (strcmp(buf, want) != 0 || n != (int)strlen(want)) {
		fprintf(stderr, "\n  trace_fmt_fixed(%.17g, %d) = \"%s\" (%d), want \"%s\"\n",
			v, decimals, buf, n, want);
		return false;
	}
	return true;
}

#define TIME_FMT(t, s)        CU_ASSERT(fmt_time_is(t, s))
#define FIXED_FMT(v, d, s)    CU_ASSERT(fmt_fixed_is(v, d, s))

/* ---- number formatting ---- */

static void test_fmt_time(void)
{
	TIME_FMT(0, "0");
	TIME_FMT(1500000000, "1.5");
	TIME_FMT(1, "0.000000001");
	TIME_FMT(12300000000, "12.3");
	TIME_FMT(1000000000, "1");
	TIME_FMT(100000000, "0.1");
	TIME_FMT(999999999, "0.999999999");
	TIME_FMT((sim_time_t)3 * 3600 * 1000000000 + 1, "10800.000000001");
	TIME_FMT(-1500000000, "-1.5");
	TIME_FMT(-1, "-0.000000001");
	TIME_FMT(INT64_MAX, "9223372036.854775807");
	TIME_FMT(INT64_MIN, "-9223372036.854775808");
}

static void test_fmt_fixed(void)
{
	FIXED_FMT(0, 3, "0");
	FIXED_FMT(-1.25, 3, "-1.25");
	FIXED_FMT(4.1234567, 6, "4.123457");
	FIXED_FMT(1e-9, 6, "0");
	FIXED_FMT(-1e-9, 6, "0");           /* no "-0" */
	FIXED_FMT(5.1, 3, "5.1");
	FIXED_FMT(2.0, 3, "2");
	FIXED_FMT(4.9876, 3, "4.988");
	FIXED_FMT(0.0005, 3, "0.001");      /* halves round away from zero */
	FIXED_FMT(1234567.5, 0, "1234568");
	FIXED_FMT(0.05, 1, "0.1");
	FIXED_FMT(-0.07, 2, "-0.07");
	FIXED_FMT(3.14159, 9, "3.14159");
	FIXED_FMT(NAN, 3, "nan");
	FIXED_FMT(INFINITY, 3, "nan");
}

/* ---- a small trace written to CSV and VCD ---- */

static const char *const state_labels[] = { "off", "cc", "cv" };

static const struct trace_col test_cols[] = {
	{ "vbus_V", "V", 3, NULL, 0 },
	{ "ibus_A", "A", 3, NULL, 0 },
	{ "state", "", 0, state_labels, 3 },
	{ "a,b", "", 2, NULL, 0 },
	{ "q\"uote", "", 1, NULL, 0 },
};

#define NCOLS ((int)G_N_ELEMENTS(test_cols))

static const struct {
	sim_time_t t;
	double v[5];
} test_rows[] = {
	{ 0,          { 5.1,      0,    0, 1,   7 } },
	{ 1500000000, { 5.1,      1.25, 1, 1,   7 } },
	{ 2000000000, { 4.987654, 1.25, 2, 2.5, 7 } },
	{ 3000000000, { 4.987654, 1.25, 2, 2.5, 7 } },   /* nothing changed */
	{ 3000000000, { 4.9,      1.25, 2, 2.5, 7 } },   /* a second row at the same time */
};

static bool write_test_trace(const char *csv, const char *vcd)
{
	struct trace *tr = trace_new(test_cols, NCOLS);
	GError *err = NULL;
	bool ok;

	if (!trace_open(tr, csv, vcd, &err)) {
		fprintf(stderr, "\n  trace_open: %s\n", err->message);
		g_clear_error(&err);
		trace_free(tr);
		return false;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(test_rows); i++)
		trace_row(tr, test_rows[i].t, test_rows[i].v);
	CU_ASSERT_EQUAL(trace_rows(tr), G_N_ELEMENTS(test_rows));
	ok = trace_close(tr, &err);
	if (!ok)
		fprintf(stderr, "\n  trace_close: %s\n", err->message);
	g_clear_error(&err);
	trace_free(tr);
	return ok;
}

/* libcsv read-back: rows of fields. */
struct csv_doc {
	GPtrArray *rows;      /* of GPtrArray of char* */
	GPtrArray *cur;
};

static void csv_field_cb(void *s, size_t len, void *data)
{
	struct csv_doc *d = data;

	if (!d->cur)
		d->cur = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(d->cur, g_strndup(s, len));
}

static void csv_row_cb(int c, void *data)
{
	struct csv_doc *d = data;

	(void)c;
	if (!d->cur)
		d->cur = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(d->rows, d->cur);
	d->cur = NULL;
}

static bool csv_read(const char *path, struct csv_doc *d)
{
	struct csv_parser p;
	g_autofree char *text = read_file(path);
	size_t len;
	bool ok = true;

	d->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	d->cur = NULL;
	if (!text)
		return false;
	len = strlen(text);
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return false;
	if (csv_parse(&p, text, len, csv_field_cb, csv_row_cb, d) != len) {
		fprintf(stderr, "\n  %s: %s\n", path, csv_strerror(csv_error(&p)));
		ok = false;
	}
	if (csv_fini(&p, csv_field_cb, csv_row_cb, d) != 0)
		ok = false;
	csv_free(&p);
	return ok;
}

static void csv_doc_free(struct csv_doc *d)
{
	if (d->cur)
		g_ptr_array_unref(d->cur);
	g_ptr_array_unref(d->rows);
}

static const char *csv_cell(const struct csv_doc *d, guint row, guint col)
{
	GPtrArray *r;

	if (row >= d->rows->len)
		return "(no row)";
	r = g_ptr_array_index(d->rows, row);
	if (col >= r->len)
		return "(no column)";
	return g_ptr_array_index(r, col);
}

#define CELL_IS(d, r, c, s) CU_ASSERT_STRING_EQUAL(csv_cell(d, r, c), s)

static void test_csv_read_back(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *csv = NULL, *text = NULL;
	struct csv_doc d;
	static const char *const want[][6] = {
		{ "time_s", "vbus_V", "ibus_A", "state", "a,b", "q\"uote" },
		{ "0", "5.1", "0", "off", "1", "7" },
		{ "1.5", "5.1", "1.25", "cc", "1", "7" },
		{ "2", "4.988", "1.25", "cv", "2.5", "7" },
		{ "3", "4.988", "1.25", "cv", "2.5", "7" },
		{ "3", "4.9", "1.25", "cv", "2.5", "7" },
	};

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	csv = g_build_filename(dir, "trace.csv", NULL);
	CU_ASSERT_FATAL(write_test_trace(csv, NULL));
	CU_ASSERT(listing_is(dir, "trace.csv"));

	CU_ASSERT_FATAL(csv_read(csv, &d));
	CU_ASSERT_EQUAL(d.rows->len, G_N_ELEMENTS(want));
	for (guint r = 0; r < G_N_ELEMENTS(want) && r < d.rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(d.rows, r);

		CU_ASSERT_EQUAL(row->len, 6u);
		for (guint c = 0; c < 6; c++) {
			if (strcmp(csv_cell(&d, r, c), want[r][c]) != 0)
				fprintf(stderr, "\n  row %u col %u: \"%s\", want \"%s\"\n", r, c,
					csv_cell(&d, r, c), want[r][c]);
			CELL_IS(&d, r, c, want[r][c]);
		}
	}
	/* numbers read back as the values written, to the column's decimals */
	CU_ASSERT_DOUBLE_EQUAL(strtod(csv_cell(&d, 3, 1), NULL), 4.987654, 0.0005);
	csv_doc_free(&d);

	/* the header line itself: plain names bare, the others quoted the standard way */
	text = read_file(csv);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT(g_str_has_prefix(text, "time_s,vbus_V,ibus_A,state,\"a,b\",\"q\"\"uote\"\n"));
	tu_rm_tree(dir);
}

/* An unknown label index is written as a placeholder, not as a wild pointer. */
static void test_csv_bad_label(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *csv = NULL;
	static const struct trace_col cols[] = { { "state", "", 0, state_labels, 3 } };
	struct trace *tr = trace_new(cols, 1);
	double v[1] = { 7 };
	struct csv_doc d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	csv = g_build_filename(dir, "t.csv", NULL);
	CU_ASSERT_FATAL(trace_open(tr, csv, NULL, NULL));
	trace_row(tr, 0, v);
	v[0] = -1;
	trace_row(tr, 1, v);
	CU_ASSERT(trace_close(tr, NULL));
	trace_free(tr);
	CU_ASSERT_FATAL(csv_read(csv, &d));
	CU_ASSERT_EQUAL(d.rows->len, 3u);
	CU_ASSERT_STRING_NOT_EQUAL(csv_cell(&d, 1, 1), "off");
	CU_ASSERT_STRING_NOT_EQUAL(csv_cell(&d, 2, 1), "off");
	csv_doc_free(&d);
	tu_rm_tree(dir);
}

/* A trace freed without trace_close() leaves nothing behind. */
static void test_trace_free_without_close(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *csv = NULL, *vcd = NULL;
	struct trace *tr = trace_new(test_cols, NCOLS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	csv = g_build_filename(dir, "trace.csv", NULL);
	vcd = g_build_filename(dir, "trace.vcd", NULL);
	CU_ASSERT_FATAL(trace_open(tr, csv, vcd, NULL));
	trace_row(tr, 0, test_rows[0].v);
	trace_free(tr);
	CU_ASSERT(listing_is(dir, ""));
	tu_rm_tree(dir);
}

/* ---- VCD read-back ---- */

struct vcd_var {
	char type[16];
	int width;
	char id[16];
	char name[64];
};

struct vcd_change {
	long long t;
	char id[16];
	bool real;
	double value;         /* real value, or the integer from the bits */
};

struct vcd_doc {
	char timescale[32];
	int nvars;
	struct vcd_var vars[16];
	int nchanges;
	struct vcd_change changes[64];
	int nstamps;
	long long stamps[16];
	bool enddefs;
	bool bad;
};

static void vcd_parse(const char *text, struct vcd_doc *d)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	long long now = -1;

	memset(d, 0, sizeof(*d));
	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (!*l)
			continue;
		if (!d->enddefs) {
			if (g_str_has_prefix(l, "$timescale")) {
				sscanf(l, "$timescale %31[^$]", d->timescale);
				g_strstrip(d->timescale);
			} else if (g_str_has_prefix(l, "$var")) {
				struct vcd_var *v = &d->vars[d->nvars];
				char end[8];

				if (d->nvars >= 16 ||
				    sscanf(l, "$var %15s %d %15s %63s %7s", v->type, &v->width, v->id,
					   v->name, end) != 5 || strcmp(end, "$end") != 0) {
					fprintf(stderr, "\n  bad $var line: %s\n", l);
					d->bad = true;
					continue;
				}
				d->nvars++;
			} else if (g_str_has_prefix(l, "$enddefinitions")) {
				d->enddefs = true;
			}
			continue;
		}
		if (l[0] == '#') {
			char *end;

			now = strtoll(l + 1, &end, 10);
			if (*end || d->nstamps >= 16) {
				d->bad = true;
				continue;
			}
			d->stamps[d->nstamps++] = now;
		} else if (l[0] == 'r' || l[0] == 'b') {
			struct vcd_change *c = &d->changes[d->nchanges];
			char val[64];

			if (d->nchanges >= 64 || sscanf(l + 1, "%63s %15s", val, c->id) != 2) {
				fprintf(stderr, "\n  bad value line: %s\n", l);
				d->bad = true;
				continue;
			}
			c->t = now;
			c->real = l[0] == 'r';
			if (c->real) {
				char *end;

				c->value = strtod(val, &end);
				if (*end)
					d->bad = true;
			} else {
				long long k = 0;

				for (const char *p = val; *p; p++) {
					if (*p != '0' && *p != '1')
						d->bad = true;
					k = k * 2 + (*p - '0');
				}
				c->value = (double)k;
			}
			d->nchanges++;
		} else if (l[0] != '$') {
			fprintf(stderr, "\n  unexpected VCD line: %s\n", l);
			d->bad = true;
		}
	}
}

static const struct vcd_var *vcd_var(const struct vcd_doc *d, const char *name)
{
	for (int i = 0; i < d->nvars; i++)
		if (strcmp(d->vars[i].name, name) == 0)
			return &d->vars[i];
	return NULL;
}

/* The change of variable `name` at time t, or NULL. */
static const struct vcd_change *vcd_change(const struct vcd_doc *d, const char *name,
					   long long t)
{
	const struct vcd_var *v = vcd_var(d, name);

	for (int i = 0; v && i < d->nchanges; i++)
		if (d->changes[i].t == t && strcmp(d->changes[i].id, v->id) == 0)
			return &d->changes[i];
	return NULL;
}

static int vcd_count_at(const struct vcd_doc *d, long long t)
{
	int n = 0;

	for (int i = 0; i < d->nchanges; i++)
		n += d->changes[i].t == t;
	return n;
}

#define VCD_VALUE(d, name, t, want) \
	do { \
		const struct vcd_change *c_ = vcd_change(d, name, t); \
		CU_ASSERT_PTR_NOT_NULL(c_); \
		if (c_) \
			CU_ASSERT_DOUBLE_EQUAL(c_->value, want, 1e-12); \
	} while (0)

static void test_vcd_read_back(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *vcd = NULL, *csv = NULL, *text = NULL;
	struct vcd_doc *d = g_new0(struct vcd_doc, 1);
	const struct vcd_var *v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	vcd = g_build_filename(dir, "trace.vcd", NULL);
	csv = g_build_filename(dir, "trace.csv", NULL);
	CU_ASSERT_FATAL(write_test_trace(csv, vcd));
	CU_ASSERT(listing_is(dir, "trace.csv trace.vcd"));
	text = read_file(vcd);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	vcd_parse(text, d);
	CU_ASSERT_FALSE(d->bad);
	CU_ASSERT(d->enddefs);
	CU_ASSERT_STRING_EQUAL(d->timescale, "1 ns");

	/* declarations: real for numbers, integer for labels, unique identifiers */
	CU_ASSERT_EQUAL(d->nvars, NCOLS);
	for (int i = 0; i < NCOLS; i++) {
		v = vcd_var(d, test_cols[i].name);
		if (!v) {
			fprintf(stderr, "\n  no $var for %s\n", test_cols[i].name);
			CU_FAIL("missing $var");
			continue;
		}
		CU_ASSERT_STRING_EQUAL(v->type, test_cols[i].labels ? "integer" : "real");
		for (int j = 0; j < d->nvars; j++)
			if (&d->vars[j] != v)
				CU_ASSERT_STRING_NOT_EQUAL(d->vars[j].id, v->id);
	}

	/* timestamps in ns; t = 3 s appears once (the first row there changed nothing,
	 * the second changed vbus) */
	CU_ASSERT_EQUAL_FATAL(d->nstamps, 4);
	CU_ASSERT_EQUAL(d->stamps[0], 0);
	CU_ASSERT_EQUAL(d->stamps[1], 1500000000LL);
	CU_ASSERT_EQUAL(d->stamps[2], 2000000000LL);
	CU_ASSERT_EQUAL(d->stamps[3], 3000000000LL);

	/* t = 0: every variable */
	CU_ASSERT_EQUAL(vcd_count_at(d, 0), NCOLS);
	VCD_VALUE(d, "vbus_V", 0, 5.1);
	VCD_VALUE(d, "ibus_A", 0, 0);
	VCD_VALUE(d, "state", 0, 0);
	VCD_VALUE(d, "a,b", 0, 1);
	/* t = 1.5 s: ibus and state changed, nothing else */
	CU_ASSERT_EQUAL(vcd_count_at(d, 1500000000LL), 2);
	VCD_VALUE(d, "ibus_A", 1500000000LL, 1.25);
	VCD_VALUE(d, "state", 1500000000LL, 1);
	/* t = 2 s: vbus (full precision, not the CSV's 3 decimals), state, a,b */
	CU_ASSERT_EQUAL(vcd_count_at(d, 2000000000LL), 3);
	VCD_VALUE(d, "vbus_V", 2000000000LL, 4.987654);
	VCD_VALUE(d, "state", 2000000000LL, 2);
	VCD_VALUE(d, "a,b", 2000000000LL, 2.5);
	CU_ASSERT_PTR_NULL(vcd_change(d, "q\"uote", 2000000000LL));
	/* t = 3 s: only vbus */
	CU_ASSERT_EQUAL(vcd_count_at(d, 3000000000LL), 1);
	VCD_VALUE(d, "vbus_V", 3000000000LL, 4.9);
	/* the label values were written as binary */
	for (int i = 0; i < d->nchanges; i++) {
		v = vcd_var(d, "state");
		if (v && strcmp(d->changes[i].id, v->id) == 0)
			CU_ASSERT_FALSE(d->changes[i].real);
	}
	g_free(d);
	tu_rm_tree(dir);
}

/* ---- events.jsonl ---- */

struct seen {
	int n;
	sim_time_t t[8];
	char src[8][16];
	char ev[8][16];
	char payload[8][32];
};

static void listener(void *data, sim_time_t t, const char *src, const char *ev,
		     const cJSON *rec)
{
	struct seen *s = data;
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(rec, "type");

	if (s->n >= 8)
		return;
	s->t[s->n] = t;
	g_strlcpy(s->src[s->n], src, sizeof s->src[0]);
	g_strlcpy(s->ev[s->n], ev, sizeof s->ev[0]);
	g_strlcpy(s->payload[s->n], cJSON_IsString(type) ? type->valuestring : "",
		  sizeof s->payload[0]);
	s->n++;
}

static void test_evlog_read_back(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *path = NULL, *text = NULL;
	struct evlog *log = evlog_new();
	struct evfile *f;
	struct seen seen = { 0 };
	GError *err = NULL;
	g_auto(GStrv) lines = NULL;
	cJSON *rec, *doc;
	int n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "events.jsonl", NULL);
	f = evfile_open(log, path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	evlog_add_listener(log, listener, &seen);

	rec = evlog_begin(log, 0, "source", "attach");
	cJSON_AddStringToObject(rec, "kind", "dcp");
	evlog_end(log, rec);
	rec = evlog_begin(log, 12300000000LL, "phy", "detect");
	cJSON_AddStringToObject(rec, "type", "USB_DCP");
	evlog_end(log, rec);
	evlog_emit(log, (sim_time_t)3 * 3600 * 1000000000 + 1, "pmic", "charger_state",
		   "state", "done");
	evlog_emit(log, 1, "stack", "probe", NULL, NULL);
	CU_ASSERT_EQUAL(evlog_count(log), 4);

	/* nothing under the final name before the commit */
	CU_ASSERT_FALSE(g_file_test(path, G_FILE_TEST_EXISTS));
	CU_ASSERT_FATAL(evfile_commit(f, &err));
	/* a record after the commit is not written */
	evlog_emit(log, 2, "stack", "late", NULL, NULL);
	evlog_free(log);
	evfile_free(f);
	CU_ASSERT(listing_is(dir, "events.jsonl"));

	text = read_file(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* "t" is exact: the decimal digits of the nanosecond count */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"t\":12.3,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"t\":10800.000000001,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"t\":0.000000001,"));
	CU_ASSERT(g_str_has_suffix(text, "\n"));

	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		if (!lines[i][0]) {
			CU_ASSERT_PTR_NULL(lines[i + 1]);   /* only the final newline */
			continue;
		}
		doc = cJSON_Parse(lines[i]);
		CU_ASSERT_PTR_NOT_NULL(doc);
		if (doc && n == 1) {
			CU_ASSERT(tu_num(doc, "t") == 12.3);
			CU_ASSERT_STRING_EQUAL(tu_str(doc, "src"), "phy");
			CU_ASSERT_STRING_EQUAL(tu_str(doc, "ev"), "detect");
			CU_ASSERT_STRING_EQUAL(tu_str(doc, "type"), "USB_DCP");
			/* "t", "src", "ev" lead, in that order */
			CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(doc), 4);
			CU_ASSERT_STRING_EQUAL(doc->child->string, "t");
			CU_ASSERT_STRING_EQUAL(doc->child->next->string, "src");
			CU_ASSERT_STRING_EQUAL(doc->child->next->next->string, "ev");
		}
		if (doc && n == 0) {
			CU_ASSERT(tu_num(doc, "t") == 0);
			CU_ASSERT_STRING_EQUAL(tu_str(doc, "src"), "source");
			CU_ASSERT_STRING_EQUAL(tu_str(doc, "kind"), "dcp");
		}
		if (doc && n == 2)
			CU_ASSERT_STRING_EQUAL(tu_str(doc, "state"), "done");
		if (doc && n == 3)
			CU_ASSERT_EQUAL(cJSON_GetArraySize(doc), 3);   /* t, src, ev only */
		cJSON_Delete(doc);
		n++;
	}
	CU_ASSERT_EQUAL(n, 4);

	/* the listener saw each record, in order, with its own time, source and kind (and
	 * the one after the commit) */
	CU_ASSERT_EQUAL_FATAL(seen.n, 5);
	CU_ASSERT_EQUAL(seen.t[0], 0);
	CU_ASSERT_EQUAL(seen.t[1], 12300000000LL);
	CU_ASSERT_STRING_EQUAL(seen.src[1], "phy");
	CU_ASSERT_STRING_EQUAL(seen.ev[1], "detect");
	CU_ASSERT_STRING_EQUAL(seen.payload[1], "USB_DCP");
	CU_ASSERT_EQUAL(seen.t[2], (sim_time_t)3 * 3600 * 1000000000 + 1);
	CU_ASSERT_STRING_EQUAL(seen.ev[2], "charger_state");
	CU_ASSERT_EQUAL(seen.t[3], 1);
	CU_ASSERT_STRING_EQUAL(seen.src[3], "stack");
	tu_rm_tree(dir);
}

/* Without a file the listeners still see every record (metrics run without output). */
static void test_evlog_no_file(void)
{
	struct evlog *log = evlog_new();
	struct seen seen = { 0 };

	evlog_add_listener(log, listener, &seen);
	evlog_emit(log, 5, "a", "b", "type", "x");
	CU_ASSERT_EQUAL(seen.n, 1);
	CU_ASSERT_EQUAL(seen.t[0], 5);
	CU_ASSERT_STRING_EQUAL(seen.payload[0], "x");
	CU_ASSERT_EQUAL(evlog_count(log), 1);
	evlog_free(log);
}

/* A listener for one kind hears only that kind. Without a file, a record of a kind no
 * listener wants is not wanted, and is counted all the same (metrics.json's
 * "events"): evlog_emit skips building it, a producer ends it unbuilt (NULL). */
static void test_evlog_one_kind(void)
{
	struct evlog *log = evlog_new();
	struct seen seen = { 0 };

	evlog_add_listener_for(log, "warning", listener, &seen);
	CU_ASSERT(evlog_wanted(log, "warning"));
	CU_ASSERT_FALSE(evlog_wanted(log, "uevent"));
	evlog_emit(log, 5, "pmic", "uevent", "type", "x");
	evlog_emit(log, 6, "pmic", "warning", "type", "y");
	evlog_end(log, NULL);
	CU_ASSERT_EQUAL(seen.n, 1);
	CU_ASSERT_STRING_EQUAL(seen.ev[0], "warning");
	CU_ASSERT_STRING_EQUAL(seen.payload[0], "y");
	CU_ASSERT_EQUAL(evlog_count(log), 3);
	/* a listener for every kind wants them all */
	evlog_add_listener(log, listener, &seen);
	CU_ASSERT(evlog_wanted(log, "uevent"));
	evlog_free(log);
}

/* A record that goes nowhere is not built: evlog_begin() gives NULL, the payload
 * helpers do nothing with it, and evlog_end() counts it. One a listener wants is
 * built and heard with its payload. */
static void test_evlog_begin_unwanted(void)
{
	struct evlog *log = evlog_new();
	struct seen seen = { 0 };
	cJSON *rec;

	rec = evlog_begin(log, 1, "phy", "detect");
	CU_ASSERT_PTR_NULL(rec);
	evlog_put_string(rec, "type", "USB_DCP");
	evlog_put_number(rec, "current_mA", 1500);
	evlog_put_null(rec, "config");
	evlog_end(log, rec);
	CU_ASSERT_EQUAL(evlog_count(log), 1);

	evlog_add_listener_for(log, "warning", listener, &seen);
	CU_ASSERT_PTR_NULL(evlog_begin(log, 2, "phy", "detect"));
	evlog_end(log, NULL);
	rec = evlog_begin(log, 3, "pmic", "warning");
	CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
	evlog_put_string(rec, "type", "hot");
	evlog_put_number(rec, "temp_C", 61);
	evlog_end(log, rec);
	CU_ASSERT_EQUAL(evlog_count(log), 3);
	CU_ASSERT_EQUAL_FATAL(seen.n, 1);
	CU_ASSERT_EQUAL(seen.t[0], 3);
	CU_ASSERT_STRING_EQUAL(seen.ev[0], "warning");
	CU_ASSERT_STRING_EQUAL(seen.payload[0], "hot");
	evlog_free(log);
}

/*
 * Two records built at once (a handler that logs while another record is open):
 * each record keeps its own time, source and kind, in the file and for listeners.
 */
static void test_evlog_interleaved(void)
{
	struct evlog *log = evlog_new();
	struct seen seen = { 0 };
	cJSON *a, *b;

	evlog_add_listener(log, listener, &seen);
	a = evlog_begin(log, 1000000000, "outer", "first");
	b = evlog_begin(log, 2000000000, "inner", "second");
	evlog_end(log, b);
	evlog_end(log, a);
	CU_ASSERT_EQUAL_FATAL(seen.n, 2);
	CU_ASSERT_EQUAL(seen.t[0], 2000000000);
	CU_ASSERT_STRING_EQUAL(seen.src[0], "inner");
	CU_ASSERT_EQUAL(seen.t[1], 1000000000);
	CU_ASSERT_STRING_EQUAL(seen.src[1], "outer");
	CU_ASSERT_STRING_EQUAL(seen.ev[1], "first");
	evlog_free(log);
}

static void test_evlog_free_without_close(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *path = NULL;
	struct evlog *log = evlog_new();
	struct evfile *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "events.jsonl", NULL);
	f = evfile_open(log, path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT(evlog_wanted(log, "anything"));   /* the file wants every kind */
	evlog_emit(log, 0, "a", "b", NULL, NULL);
	evlog_free(log);
	evfile_free(f);
	CU_ASSERT(listing_is(dir, ""));
	tu_rm_tree(dir);
}

/* ---- a record's text (struct evlog_text) ---- */

struct texts {
	int n;
	char *line[4];    /* from the text listener */
	char *vals[4];    /* its members, each as key=value; */
	char *cjson[4];   /* cJSON_PrintUnformatted() of the same record */
};

static void text_seen(void *data, const char *src, const char *ev,
		      const struct evlog_text *text)
{
	struct texts *s = data;
	GString *v = g_string_new(NULL);

	(void)src;
	(void)ev;
	CU_ASSERT_EQUAL(strlen(text->line), text->len);
	for (int i = 0; i < text->n_members; i++)
		g_string_append_printf(v, "%s=%.*s;", text->members[i].key,
				       (int)text->members[i].len, text->members[i].value);
	s->line[s->n] = g_strdup(text->line);
	s->vals[s->n] = g_string_free(v, FALSE);
}

static void rec_printed(void *data, sim_time_t t, const char *src, const char *ev,
			const cJSON *rec)
{
	struct texts *s = data;

	(void)t, (void)src, (void)ev;
	s->cjson[s->n++] = cJSON_PrintUnformatted(rec);
}

/*
 * The event log prints each value once and assembles the line from the pieces: the
 * line is what cJSON prints for the whole record (numbers that need 17 digits, keys and
 * strings that need escaping, nested arrays and objects, a value longer than the
 * buffer's first size), and each member's value is its own text within it.
 */
static void test_evlog_text(void)
{
	struct evlog *log = evlog_new();
	struct texts s = { 0 };
	g_autofree char *longv = g_strnfill(5000, 'x');
	cJSON *rec, *obj;

	evlog_add_text_listener(log, text_seen, &s);
	evlog_add_listener(log, rec_printed, &s);
	rec = evlog_begin(log, 12300000000LL, "phy", "detect");
	evlog_put_string(rec, "type", "USB_DCP");
	evlog_put_number(rec, "third", 1.0 / 3);   /* 15 digits do not read back */
	evlog_put_number(rec, "third2", 1.0 / 3);  /* again: the text kept from "third" */
	evlog_put_number(rec, "big", 1e300);
	evlog_put_number(rec, "mA", 1500);
	/* whole numbers, which the log writes as digits itself: what "%1.15g" prints */
	evlog_put_number(rec, "neg", -3);
	evlog_put_number(rec, "zero", 0);
	evlog_put_number(rec, "negzero", -0.0);
	evlog_put_number(rec, "d15", 999999999999999.0);
	evlog_put_number(rec, "e15", 1e15);
	evlog_put_null(rec, "none");
	evlog_end(log, rec);

	rec = evlog_begin(log, 1, "s\trc", "e\"v");
	evlog_put_string(rec, "k\\ey\n", "line\nquote\" back\\ ctl\001 \xc3\xa9");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(rec, "env"), cJSON_CreateString("A=1"));
	obj = cJSON_AddObjectToObject(rec, "obj");
	cJSON_AddItemToObject(obj, "x", cJSON_CreateNumber(2.5));
	cJSON_AddArrayToObject(obj, "empty");
	evlog_end(log, rec);

	evlog_emit(log, 2, "a", "long", "v", longv);
	evlog_emit(log, 3, "a", "bare", NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(s.n, 4);
	/* by hand: 1/3 is 0.333333333333333314829616256247...; cJSON's 17 digits */
	CU_ASSERT_STRING_EQUAL(s.line[0], "{\"t\":12.3,\"src\":\"phy\",\"ev\":\"detect\","
			       "\"type\":\"USB_DCP\",\"third\":0.33333333333333331,"
			       "\"third2\":0.33333333333333331,"
			       "\"big\":1e+300,\"mA\":1500,\"neg\":-3,\"zero\":0,\"negzero\":-0,"
			       "\"d15\":999999999999999,\"e15\":1e+15,\"none\":null}");
	CU_ASSERT_STRING_EQUAL(s.vals[0], "t=12.3;src=\"phy\";ev=\"detect\";type=\"USB_DCP\";"
			       "third=0.33333333333333331;third2=0.33333333333333331;big=1e+300;"
			       "mA=1500;neg=-3;zero=0;negzero=-0;d15=999999999999999;e15=1e+15;"
			       "none=null;");
	CU_ASSERT_STRING_EQUAL(s.vals[1], "t=0.000000001;src=\"s\\trc\";ev=\"e\\\"v\";"
			       "k\\ey\n=\"line\\nquote\\\" back\\\\ ctl\\u0001 \xc3\xa9\";"
			       "env=[\"A=1\"];obj={\"x\":2.5,\"empty\":[]};");
	CU_ASSERT_STRING_EQUAL(s.line[3], "{\"t\":0.000000003,\"src\":\"a\",\"ev\":\"bare\"}");
	for (int i = 0; i < 4; i++) {
		CU_ASSERT_STRING_EQUAL(s.line[i], s.cjson[i]);
		g_free(s.line[i]);
		g_free(s.vals[i]);
		cJSON_free(s.cjson[i]);
	}
	evlog_free(log);
}

/* ---- atomic output files ---- */

/* cs_path_confined(): inside the directory's tree after links, or why not; a
 * sibling whose name starts like the tree ("treex") is outside. */
static void test_path_confined(void)
{
	g_autofree char *top = tu_make_tmpdir("cs-confined-XXXXXX");
	g_autofree char *tree = NULL, *twin = NULL, *p = NULL, *why = NULL, *real = NULL;
	const char *roots[] = { NULL };
	struct { const char *rel; bool ok; const char *why; } cases[] = {
		{ "g.csv", true, NULL },
		{ "sub/new/g.csv", true, NULL },       /* not there yet: --accept creates it */
		{ "in/g.csv", true, NULL },            /* a link that stays inside */
		{ "../x.csv", false, "goes up" },
		{ "sub/../../x.csv", false, "goes up" },
		{ "/etc/passwd", false, "absolute" },
		{ "", false, "empty" },
		{ "out/g.csv", false, "leads to" },    /* a link to the twin directory */
		{ "dangling", false, "cannot be followed" },
	};

	CU_ASSERT_PTR_NOT_NULL_FATAL(top);
	tree = g_build_filename(top, "tree", NULL);
	twin = g_build_filename(top, "treex", NULL);
	CU_ASSERT_FATAL(g_mkdir(tree, 0755) == 0 && g_mkdir(twin, 0755) == 0);
	{
		g_autofree char *sub = g_build_filename(tree, "sub", NULL);
		g_autofree char *in = g_build_filename(tree, "in", NULL);
		g_autofree char *out = g_build_filename(tree, "out", NULL);
		g_autofree char *dl = g_build_filename(tree, "dangling", NULL);

		CU_ASSERT_FATAL(g_mkdir(sub, 0755) == 0 && symlink("sub", in) == 0 &&
				symlink("../treex", out) == 0 && symlink("../treex/nothing", dl) == 0);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		p = cs_path_confined(tree, cases[i].rel, &why);
		CU_ASSERT_EQUAL(p != NULL, cases[i].ok);
		if (!cases[i].ok)
			CU_ASSERT(why && strstr(why, cases[i].why));
		g_clear_pointer(&p, g_free);
		g_clear_pointer(&why, g_free);
	}
	/* ".." allowed where the roots say so (a sweep's base) */
	roots[0] = top;
	p = g_build_filename(tree, "..", "treex", "x.json", NULL);
	CU_ASSERT(cs_path_inside_any(p, roots, 1, &real));
	g_clear_pointer(&real, g_free);
	roots[0] = tree;
	CU_ASSERT_FALSE(cs_path_inside_any(p, roots, 1, &real));
	CU_ASSERT(real && g_str_has_suffix(real, "/treex"));   /* the deepest part there */
	tu_rm_tree(top);
}

static void test_outfile_abort(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *path = NULL;
	struct cs_outfile *f;
	GError *err = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "out.txt", NULL);
	f = cs_outfile_open(path, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NULL(err);
	/* the temporary file sits beside the final name, hidden */
	CU_ASSERT(g_str_has_prefix(f->tmp_path, dir));
	{
		g_autofree char *base = g_path_get_basename(f->tmp_path);

		CU_ASSERT(g_str_has_prefix(base, ".out.txt.tmp-"));
	}
	fputs("half a file", f->fp);
	fflush(f->fp);
	CU_ASSERT_FALSE(g_file_test(path, G_FILE_TEST_EXISTS));
	cs_outfile_abort(f);
	CU_ASSERT(listing_is(dir, ""));
	cs_outfile_abort(NULL);   /* allowed */
	tu_rm_tree(dir);
}

static void test_outfile_commit(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *path = NULL, *text = NULL;
	struct cs_outfile *f;
	GError *err = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "out.txt", NULL);
	f = cs_outfile_open(path, true, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("line 1\nline 2\n", f->fp);
	CU_ASSERT(cs_outfile_commit(f, &err));
	CU_ASSERT_PTR_NULL(err);
	text = read_file(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_STRING_EQUAL(text, "line 1\nline 2\n");
	CU_ASSERT(listing_is(dir, "out.txt"));
	tu_rm_tree(dir);
}

/* The old content stays under the name until the commit replaces it in one step. */
static void test_outfile_replace(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *path = NULL, *text = NULL;
	struct cs_outfile *f;
	GError *err = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "metrics.json", NULL);
	CU_ASSERT_FATAL(cs_outfile_write_all(path, "old\n", 4, &err));
	f = cs_outfile_open(path, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("new content\n", f->fp);
	fflush(f->fp);
	text = read_file(path);
	CU_ASSERT_STRING_EQUAL(text, "old\n");
	g_free(g_steal_pointer(&text));
	CU_ASSERT(cs_outfile_commit(f, &err));
	text = read_file(path);
	CU_ASSERT_STRING_EQUAL(text, "new content\n");
	CU_ASSERT(listing_is(dir, "metrics.json"));

	/* an empty buffer makes an empty file */
	CU_ASSERT(cs_outfile_write_all(path, "", 0, &err));
	g_free(g_steal_pointer(&text));
	text = read_file(path);
	CU_ASSERT_STRING_EQUAL(text, "");
	g_clear_error(&err);
	tu_rm_tree(dir);
}

/* A directory that vanished between open and commit: an error naming the path, and
 * nothing left anywhere. */
static void test_outfile_dir_removed(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *sub = NULL, *path = NULL;
	struct cs_outfile *f;
	GError *err = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	sub = g_build_filename(dir, "run", NULL);
	path = g_build_filename(sub, "trace.csv", NULL);
	CU_ASSERT_FATAL(cs_mkdir_p(sub, &err));
	f = cs_outfile_open(path, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("time_s\n0\n", f->fp);
	/* what `rm -rf run` does */
	CU_ASSERT(g_unlink(f->tmp_path) == 0);
	CU_ASSERT(g_rmdir(sub) == 0);
	CU_ASSERT_FALSE(cs_outfile_commit(f, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err) {
		CU_ASSERT_PTR_NOT_NULL(strstr(err->message, path));
		CU_ASSERT_EQUAL(err->domain, CS_OUTPUT_ERROR);
	}
	g_clear_error(&err);
	CU_ASSERT_FALSE(g_file_test(sub, G_FILE_TEST_EXISTS));
	CU_ASSERT(listing_is(dir, ""));
	tu_rm_tree(dir);
}

/*
 * A write error found only at the flush (disk full): the FILE's descriptor is
 * replaced by one on /dev/full, so the buffered data cannot be written. The commit
 * fails, the old file stays as it was, and no temporary file is left.
 */
static void test_outfile_write_error(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *path = NULL, *text = NULL;
	struct cs_outfile *f;
	GError *err = NULL;
	int full;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	full = open("/dev/full", O_WRONLY);
	if (full < 0) {
		fprintf(stderr, "\n  no /dev/full here; skipped\n");
		tu_rm_tree(dir);
		return;
	}
	path = g_build_filename(dir, "events.jsonl", NULL);

	/* without an old file */
	f = cs_outfile_open(path, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("{\"t\":0}\n", f->fp);            /* stays in the 64 KiB buffer */
	CU_ASSERT_FATAL(dup2(full, fileno(f->fp)) >= 0);
	CU_ASSERT_FALSE(cs_outfile_commit(f, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err) {
		CU_ASSERT_PTR_NOT_NULL(strstr(err->message, path));
		CU_ASSERT_PTR_NOT_NULL(strstr(err->message, g_strerror(ENOSPC)));
	}
	g_clear_error(&err);
	CU_ASSERT(listing_is(dir, ""));

	/* over an old file: the old content survives */
	CU_ASSERT_FATAL(cs_outfile_write_all(path, "old\n", 4, NULL));
	f = cs_outfile_open(path, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("new\n", f->fp);
	CU_ASSERT_FATAL(dup2(full, fileno(f->fp)) >= 0);
	CU_ASSERT_FALSE(cs_outfile_commit(f, &err));
	g_clear_error(&err);
	text = read_file(path);
	CU_ASSERT_STRING_EQUAL(text, "old\n");
	CU_ASSERT(listing_is(dir, "events.jsonl"));

	/* a write error while streaming (more than the buffer holds) */
	f = cs_outfile_open(path, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_FATAL(dup2(full, fileno(f->fp)) >= 0);
	for (int i = 0; i < 20000; i++)
		fputs("0123456789\n", f->fp);
	CU_ASSERT_FALSE(cs_outfile_commit(f, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	g_clear_error(&err);
	g_free(g_steal_pointer(&text));
	text = read_file(path);
	CU_ASSERT_STRING_EQUAL(text, "old\n");
	CU_ASSERT(listing_is(dir, "events.jsonl"));
	close(full);
	tu_rm_tree(dir);
}

static void test_outfile_open_fails(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *path = NULL;
	GError *err = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "no", "such", "dir", "trace.csv", NULL);
	CU_ASSERT_PTR_NULL(cs_outfile_open(path, false, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err)
		CU_ASSERT(g_str_has_prefix(err->message, path));
	g_clear_error(&err);
	CU_ASSERT_FALSE(cs_outfile_write_all(path, "x", 1, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	g_clear_error(&err);
	/* a trace whose VCD cannot be opened leaves no CSV behind either */
	{
		g_autofree char *csv = g_build_filename(dir, "trace.csv", NULL);
		struct trace *tr = trace_new(test_cols, NCOLS);

		CU_ASSERT_FALSE(trace_open(tr, csv, path, &err));
		CU_ASSERT_PTR_NOT_NULL(err);
		g_clear_error(&err);
		trace_free(tr);
	}
	CU_ASSERT(listing_is(dir, ""));
	tu_rm_tree(dir);
}

/* The child of test_outfile_cleanup_all: open two files and a set with a directory in
 * it, run the cleanup, try to commit. 0 when the commit was refused; every allocation
 * freed, so that memcheck finds no leak in the child either. */
static int cleanup_child(const char *dir)
{
	g_autofree char *a = g_build_filename(dir, "a", NULL);
	g_autofree char *b = g_build_filename(dir, "b", NULL);
	g_autofree char *setdir = g_build_filename(dir, "set", NULL);
	struct cs_outfile *fa = cs_outfile_open(a, false, NULL);
	struct cs_outfile *fb = cs_outfile_open(b, false, NULL);
	struct cs_outset *set = cs_outset_begin(setdir, NULL, NULL);
	g_autofree char *sub = set ? g_build_filename(cs_outset_path(set), "sysfs-1s", NULL) : NULL;
	g_autofree char *inner = sub ? g_build_filename(sub, "f", NULL) : NULL;
	g_autoptr(GError) err = NULL;
	int code = 2;

	if (fa && fb && set && cs_mkdir_p(sub, NULL) && cs_outfile_write_all(inner, "x", 1, NULL)) {
		cs_outfile_cleanup_all();
		code = cs_outset_commit(g_steal_pointer(&set), &err) ? 1 : 0;
	}
	cs_outset_abort(set);
	cs_outfile_abort(fa);
	cs_outfile_abort(fb);
	return code;
}

/* The signal-path cleanup removes every open temporary file and every staging
 * directory of an output set. It ends the process's writing (a commit after it is
 * refused), so it runs in a child, as it runs in a process about to exit. */
static void test_outfile_cleanup_all(void)
{
	char *dir = tu_make_tmpdir("cs-outputs-XXXXXX");
	g_autofree char *setdir = NULL;
	int wstatus = -1;
	pid_t pid;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		int code = cleanup_child(dir);

		g_free(dir);
		_exit(code);
	}
	CU_ASSERT(waitpid(pid, &wstatus, 0) == pid);
	CU_ASSERT(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	setdir = g_build_filename(dir, "set", NULL);
	CU_ASSERT(listing_is(dir, "set"));
	CU_ASSERT(listing_is(setdir, ""));
	tu_rm_tree(dir);
	g_free(dir);
}

/* ---- output sets (output/outset.h) ---- */

static const char *const set_names[] = { "trace.csv", "trace.vcd", "metrics.json", "sysfs-*", NULL };

static bool put(const char *dir, const char *name, const char *text)
{
	g_autofree char *p = g_build_filename(dir, name, NULL);

	return g_file_set_contents(p, text, -1, NULL);
}

static bool holds(const char *dir, const char *name, const char *text)
{
	g_autofree char *p = g_build_filename(dir, name, NULL);
	g_autofree char *got = read_file(p);

	return got && strcmp(got, text) == 0;
}

/* A new set replaces the old one as a whole: the old set's vcd and sysfs dump go
 * although the new set has none, a file that is no output stays, and nothing
 * chargesim made is left. */
static void test_outset_replaces(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outset-XXXXXX");
	g_autofree char *sysfs = g_build_filename(dir, "sysfs-1s", NULL);
	g_autoptr(GError) err = NULL;
	struct cs_outset *set;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_FATAL(put(dir, "trace.csv", "old") && put(dir, "trace.vcd", "old") &&
			put(dir, "metrics.json", "old") && put(dir, "notes.txt", "mine") &&
			cs_mkdir_p(sysfs, NULL) && put(sysfs, "f", "old"));
	set = cs_outset_begin(dir, set_names, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	CU_ASSERT(put(cs_outset_path(set), "trace.csv", "new") &&
		  put(cs_outset_path(set), "metrics.json", "new"));
	/* until the commit the old set is there, untouched */
	CU_ASSERT(holds(dir, "trace.csv", "old") && holds(dir, "trace.vcd", "old"));
	CU_ASSERT(cs_outset_commit(set, &err));
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT(listing_is(dir, "metrics.json notes.txt trace.csv"));
	CU_ASSERT(holds(dir, "trace.csv", "new") && holds(dir, "metrics.json", "new"));
	CU_ASSERT(holds(dir, "notes.txt", "mine"));
	tu_rm_tree(dir);
}

/*
 * Files of a set are written under their own names in the staging directory (it is
 * private and goes in place whole), also in a subdirectory; a file that fails is
 * removed; outside a staging directory the temporary name is back. Into a directory
 * the set creates, the commit brings exactly the set.
 */
static void test_outset_files_in_place(void)
{
	g_autofree char *top = tu_make_tmpdir("cs-outset-XXXXXX");
	g_autofree char *dir = NULL, *sub = NULL, *p = NULL, *q = NULL, *r = NULL;
	g_autoptr(GError) err = NULL;
	struct cs_outset *set;
	struct cs_outfile *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(top);
	dir = g_build_filename(top, "new", "out", NULL);
	set = cs_outset_begin(dir, set_names, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	p = g_build_filename(cs_outset_path(set), "trace.csv", NULL);
	f = cs_outfile_open(p, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NULL(f->tmp_path);
	fputs("staged", f->fp);
	fflush(f->fp);
	CU_ASSERT(holds(cs_outset_path(set), "trace.csv", "staged"));
	CU_ASSERT(cs_outfile_commit(f, &err));
	/* one that fails is gone */
	q = g_build_filename(cs_outset_path(set), "metrics.json", NULL);
	f = cs_outfile_open(q, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	cs_outfile_abort(f);
	CU_ASSERT(listing_is(cs_outset_path(set), "trace.csv"));
	/* a subdirectory of the staging directory is just as private */
	sub = g_build_filename(cs_outset_path(set), "sysfs-1s", NULL);
	CU_ASSERT_FATAL(cs_mkdir_p(sub, NULL));
	r = g_build_filename(sub, "f", NULL);
	CU_ASSERT(cs_outfile_write_all(r, "x", 1, &err));
	CU_ASSERT(listing_is(sub, "f"));
	CU_ASSERT(cs_outset_commit(set, &err));
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT(listing_is(dir, "sysfs-1s trace.csv"));
	CU_ASSERT(holds(dir, "trace.csv", "staged"));
	/* the staging directory is no more: a file there would be a plain output again */
	g_free(p);
	p = g_build_filename(dir, "trace.csv", NULL);
	f = cs_outfile_open(p, false, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(f->tmp_path);
	cs_outfile_abort(f);
	CU_ASSERT(listing_is(dir, "sysfs-1s trace.csv"));
	tu_rm_tree(top);
}

/* A set given up leaves the previous one as it was. */
static void test_outset_abort(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outset-XXXXXX");
	struct cs_outset *set;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_FATAL(put(dir, "trace.csv", "old"));
	set = cs_outset_begin(dir, set_names, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	CU_ASSERT(put(cs_outset_path(set), "trace.csv", "new"));
	cs_outset_abort(set);
	CU_ASSERT(listing_is(dir, "trace.csv"));
	CU_ASSERT(holds(dir, "trace.csv", "old"));
	tu_rm_tree(dir);
}

/* One writer: a second set (or lock) on the directory is refused until the first is
 * committed; the message says what to do. */
static void test_outset_busy(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outset-XXXXXX");
	g_autoptr(GError) err = NULL;
	struct cs_outset *a, *b;
	struct cs_outlock *l;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	a = cs_outset_begin(dir, set_names, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	b = cs_outset_begin(dir, set_names, &err);
	CU_ASSERT_PTR_NULL(b);
	CU_ASSERT(g_error_matches(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_BUSY));
	CU_ASSERT(err && strstr(err->message, "another chargesim is writing into this directory"));
	g_clear_error(&err);
	CU_ASSERT_PTR_NULL(cs_outdir_lock(dir, &err));
	g_clear_error(&err);
	CU_ASSERT(cs_outset_commit(a, NULL));
	l = cs_outdir_lock(dir, &err);
	CU_ASSERT_PTR_NOT_NULL(l);
	cs_outdir_unlock(l);
	cs_outset_abort(b);
	tu_rm_tree(dir);
}

/* What killed runs leave is cleaned by the next writer: a staging directory whose
 * commit was cut short after metrics.json was moved in is finished (the old trace
 * goes, the new one comes, the moved metrics.json stays), one without its marker is
 * removed, and so is one whose marker was cut short (no "end" line, or no line at all:
 * killed while writing it, before anything moved), while a marker of the first format (no "end",
 * renamed into place whole) still counts; stale temporary files go; files that only
 * look alike stay. */
static void test_outset_recover(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-outset-XXXXXX");
	g_autofree char *done = NULL, *half = NULL, *torn = NULL, *v1 = NULL, *empty = NULL;
	struct cs_outlock *l;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	done = g_build_filename(dir, CS_OUTSET_STAGE_PREFIX "AAAAAA", NULL);
	half = g_build_filename(dir, CS_OUTSET_STAGE_PREFIX "BBBBBB", NULL);
	torn = g_build_filename(dir, CS_OUTSET_STAGE_PREFIX "CCCCCC", NULL);
	v1 = g_build_filename(dir, CS_OUTSET_STAGE_PREFIX "DDDDDD", NULL);
	empty = g_build_filename(dir, CS_OUTSET_STAGE_PREFIX "EEEEEE", NULL);
	CU_ASSERT_FATAL(cs_mkdir_p(done, NULL) && cs_mkdir_p(half, NULL) &&
			cs_mkdir_p(torn, NULL) && cs_mkdir_p(v1, NULL) && cs_mkdir_p(empty, NULL));
	CU_ASSERT_FATAL(put(dir, "trace.csv", "old") && put(dir, "trace.vcd", "old") &&
			put(dir, "metrics.json", "new") && put(done, "trace.csv", "new") &&
			put(done, ".commit", "# marker\nown trace.csv\nown trace.vcd\nown metrics.json\n"
					      "new metrics.json\nnew trace.csv\nend\n") &&
			put(torn, "events.jsonl", "torn") &&
			put(torn, ".commit", "# marker\nown events.jsonl\nnew events.jsonl\ne") &&
			/* killed between creating the marker and writing it */
			put(empty, "trace.vcd", "empty") && put(empty, ".commit", "") &&
			/* the first format, renamed into place whole: no "end" line */
			put(v1, "sysfs-1s", "v1") &&
			put(v1, ".commit", "# chargesim output set: \"own\" patterns of the set, "
					   "\"new\" entries to move in\nown sysfs-*\nnew sysfs-1s\n") &&
			put(half, "trace.csv", "unfinished") &&
			put(dir, ".trace.csv.tmp-x1Y2z3", "stale") &&
			put(dir, ".plot.tmp-1234.png", "stale") &&
			put(dir, ".notes.tmp-keep", "mine") && put(dir, ".config", "mine"));
	l = cs_outdir_lock(dir, NULL);
	CU_ASSERT_PTR_NOT_NULL(l);
	cs_outdir_unlock(l);
	CU_ASSERT(listing_is(dir, ".config .notes.tmp-keep metrics.json sysfs-1s trace.csv"));
	CU_ASSERT(holds(dir, "trace.csv", "new") && holds(dir, "metrics.json", "new"));
	tu_rm_tree(dir);
}

/* ---- the events.jsonl reader (traces/events.h) ---- */

struct seen_events {
	int n;
	double t[4];
	char *kind[4];
	long line[4];
	int stop_at;             /* stop (with an error) at this record, 0: never */
};

static bool collect_event(void *data, const cJSON *rec, long line, GError **err)
{
	struct seen_events *s = data;
	const char *kind = cs_event_kind(rec);

	if (s->n < 4) {
		s->t[s->n] = cs_event_time(rec);
		s->kind[s->n] = g_strdup(kind ? kind : "(none)");
		s->line[s->n] = line;
	}
	if (++s->n == s->stop_at) {
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_FAILED, "stopped at line %ld", line);
		return false;
	}
	return true;
}

static void seen_clear(struct seen_events *s)
{
	for (int i = 0; i < 4 && i < s->n; i++)
		g_free(s->kind[i]);
	memset(s, 0, sizeof(*s));
}

/* Records in order with their lines (blank lines skipped, a record without "ev" or
 * "t" read as NULL/NaN), a stop by the callback, a line that is not an object, and a
 * missing file. */
static void test_events_reader(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-events-XXXXXX");
	g_autofree char *good = NULL, *bad = NULL, *missing = NULL;
	struct seen_events s = { 0 };
	GError *err = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	good = g_build_filename(dir, "good.jsonl", NULL);
	bad = g_build_filename(dir, "bad.jsonl", NULL);
	missing = g_build_filename(dir, "missing.jsonl", NULL);
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(good,
		"{\"t\":0,\"src\":\"scenario\",\"ev\":\"attach\"}\n"
		"\n"
		"  {\"t\":1.5,\"src\":\"pmic\",\"ev\":\"uvlo\"}  \n"
		"{\"src\":\"x\"}\n", -1, NULL));
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(bad,
		"{\"t\":0,\"ev\":\"attach\"}\n[1, 2]\n", -1, NULL));

	CU_ASSERT_TRUE(cs_events_read(good, collect_event, &s, &err));
	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(s.t[0], 0, 0);
	CU_ASSERT_STRING_EQUAL(s.kind[0], "attach");
	CU_ASSERT_EQUAL(s.line[0], 1);
	CU_ASSERT_DOUBLE_EQUAL(s.t[1], 1.5, 0);
	CU_ASSERT_STRING_EQUAL(s.kind[1], "uvlo");
	CU_ASSERT_EQUAL(s.line[1], 3);
	CU_ASSERT(isnan(s.t[2]));
	CU_ASSERT_STRING_EQUAL(s.kind[2], "(none)");
	CU_ASSERT_EQUAL(s.line[2], 4);
	seen_clear(&s);
	g_clear_error(&err);

	s.stop_at = 2;
	CU_ASSERT_FALSE(cs_events_read(good, collect_event, &s, &err));
	CU_ASSERT_EQUAL(s.n, 2);
	CU_ASSERT(err && strcmp(err->message, "stopped at line 3") == 0);
	seen_clear(&s);
	g_clear_error(&err);

	CU_ASSERT_FALSE(cs_events_read(bad, collect_event, &s, &err));
	CU_ASSERT_EQUAL(s.n, 1);
	CU_ASSERT_TRUE(g_error_matches(err, CS_EVENTS_ERROR, CS_EVENTS_ERROR_SYNTAX));
	if (err) {
		g_autofree char *want = g_strdup_printf("%s:2: found \"[1, 2]\"", bad);

		CU_ASSERT(g_str_has_prefix(err->message, want));
	}
	seen_clear(&s);
	g_clear_error(&err);

	CU_ASSERT_FALSE(cs_events_read(missing, collect_event, &s, &err));
	CU_ASSERT_EQUAL(s.n, 0);
	CU_ASSERT_TRUE(g_error_matches(err, CS_EVENTS_ERROR, CS_EVENTS_ERROR_IO));
	CU_ASSERT(err && g_str_has_prefix(err->message, missing));
	g_clear_error(&err);
	tu_rm_tree(dir);
}

/* ---- plot templates (plots/gp.h) ---- */

static char *expand(const char *tpl, const GPtrArray *vars)
{
	GString *s = g_string_new(NULL);

	gp_expand(s, tpl, vars);
	return g_string_free(s, FALSE);
}

/* @NAME@, @NAME|default@, @?NAME@ lines, text '@'s left alone, values never expanded
 * again, a later gp_set replacing a value, numbers and quoted strings as gnuplot reads
 * them, a block without its last line break. */
static void test_templates(void)
{
	g_autoptr(GPtrArray) v = gp_vars_new();
	g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL, *f = NULL;

	gp_set(v, "A", "1");
	gp_set(v, "V", "@A@ and @?A@");
	gp_set(v, "EMPTY", "");
	a = expand("x = @A@; y = @B|2.5@; z = @A|9@\n", v);
	CU_ASSERT_STRING_EQUAL(a, "x = 1; y = 2.5; z = 1\n");
	b = expand("@?B@only with B\n@?A@\tonly with A\n@?EMPTY@empty counts as given\nlast", v);
	CU_ASSERT_STRING_EQUAL(b, "\tonly with A\nempty counts as given\nlast");
	c = expand("a@b.c, 5 @ 6, @lower@, @A, sprintf('#40%06x') @V@\n", v);
	CU_ASSERT_STRING_EQUAL(c, "a@b.c, 5 @ 6, @lower@, @A, sprintf('#40%06x') @A@ and @?A@\n");
	gp_set(v, "A", "2");
	gp_set_num(v, "N", 0.1 + 0.2);
	gp_set_num(v, "NAN", NAN);
	gp_set_quoted(v, "Q", "it's");
	gp_setf(v, "F", "%d:%s", 7, "x");
	d = expand("@A@ @N@ @NAN@ @Q@ @F@", v);
	CU_ASSERT_STRING_EQUAL(d, "2 0.3 NaN 'it''s' 7:x");
	e = gp_expand_block("one @A@\ntwo\n", v);
	CU_ASSERT_STRING_EQUAL(e, "one 2\ntwo");
	gp_set(v, "A", NULL);
	f = expand("@?A@gone\n@A|no A@\n", v);
	CU_ASSERT_STRING_EQUAL(f, "no A\n");
}

CU_TestInfo outputs_tests[] = {
	{ "units_time_text exact strings", test_fmt_time },
	{ "trace_fmt_fixed exact strings", test_fmt_fixed },
	{ "CSV read back with libcsv", test_csv_read_back },
	{ "CSV label out of range", test_csv_bad_label },
	{ "trace freed without close leaves nothing", test_trace_free_without_close },
	{ "VCD read back", test_vcd_read_back },
	{ "events.jsonl read back, listener", test_evlog_read_back },
	{ "events.jsonl reader", test_events_reader },
	{ "plot template placeholders", test_templates },
	{ "evlog without a file", test_evlog_no_file },
	{ "evlog: a listener for one kind; records nobody wants are counted", test_evlog_one_kind },
	{ "evlog: a record nobody wants is not built (NULL), only counted", test_evlog_begin_unwanted },
	{ "evlog interleaved records", test_evlog_interleaved },
	{ "events.jsonl freed without commit leaves nothing", test_evlog_free_without_close },
	{ "evlog: a record's text, each value printed once, is cJSON's line", test_evlog_text },
	{ "outfile abort leaves nothing", test_outfile_abort },
	{ "outfile commit", test_outfile_commit },
	{ "outfile replaces atomically", test_outfile_replace },
	{ "outfile commit into removed directory", test_outfile_dir_removed },
	{ "outfile write error at flush", test_outfile_write_error },
	{ "outfile open in missing directory", test_outfile_open_fails },
	{ "outfile cleanup_all", test_outfile_cleanup_all },
	{ "paths a file names stay inside its directory", test_path_confined },
	{ "output set replaces the old one whole", test_outset_replaces },
	{ "output set aborted leaves the old one", test_outset_abort },
	{ "output set: files written in place, new directory", test_outset_files_in_place },
	{ "output set: one writer at a time", test_outset_busy },
	{ "output set: leftovers of killed runs", test_outset_recover },
	CU_TEST_INFO_NULL,
};
