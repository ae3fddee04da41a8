// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_diff.c - traces/: reading CSV traces (chargesim's and foreign ones),
 * the tolerance rule |A-B| <= abs + rel*|B|, the time alignment (the reference B
 * interpolated onto the candidate A's rows; rows at a duplicated event instant matched
 * in order, last with last), one-sided columns, and bad input (every error names the
 * file, the line and the column; nothing crashes).
 *
 * Every trace is written out by hand in the test, and every expected deviation,
 * interpolated value and line number is worked out by hand from it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "traces/column.h"
#include "traces/diff.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* ---- helpers ---- */

static cs_csv_trace *parse_opts(const char *text, const struct cs_csv_read_opts *o)
{
	GError *err = NULL;
	cs_csv_trace *tr = cs_csv_parse("t.csv", text, strlen(text), o, &err);

	if (!tr)
		fprintf(stderr, "\n  unexpected error: %s\n", err->message);
	g_clear_error(&err);
	return tr;
}

static cs_csv_trace *parse(const char *text)
{
	return parse_opts(text, NULL);
}

/* Parse text expecting failure with code; the message must contain every one of the
 * NULL-terminated fragments. */
static void expect_error(const char *text, int code, ...)
{
	GError *err = NULL;
	cs_csv_trace *tr = cs_csv_parse("bad.csv", text, strlen(text), NULL, &err);
	va_list ap;
	const char *frag;

	CU_ASSERT_PTR_NULL(tr);
	cs_csv_trace_free(tr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT(err->domain == CS_CSV_ERROR);
	if (err->code != code)
		fprintf(stderr, "\n  code %d, want %d: %s\n", err->code, code, err->message);
	CU_ASSERT_EQUAL(err->code, code);
	CU_ASSERT(g_str_has_prefix(err->message, "bad.csv: "));
	va_start(ap, code);
	while ((frag = va_arg(ap, const char *))) {
		if (!strstr(err->message, frag))
			fprintf(stderr, "\n  \"%s\" lacks \"%s\"\n", err->message, frag);
		CU_ASSERT_PTR_NOT_NULL(strstr(err->message, frag));
	}
	va_end(ap);
	g_error_free(err);
}

static struct cs_tolerances *tols(const char *first, ...)
{
	struct cs_tolerances *t = cs_tolerances_new();
	va_list ap;
	const char *s;

	va_start(ap, first);
	for (s = first; s; s = va_arg(ap, const char *)) {
		GError *err = NULL;

		if (!cs_tolerances_parse(t, s, &err)) {
			fprintf(stderr, "\n  tolerance \"%s\": %s\n", s, err->message);
			CU_FAIL("tolerance did not parse");
			g_error_free(err);
		}
	}
	va_end(ap);
	return t;
}

static struct cs_diff *diff(const cs_csv_trace *a, const cs_csv_trace *b,
			    const struct cs_tolerances *t, bool overlap_only)
{
	struct cs_diff_opts o = { .tol = t, .overlap_only = overlap_only };

	return cs_diff_traces(a, b, &o);
}

static const struct cs_diff_col *col(const struct cs_diff *d, const char *name)
{
	for (int i = 0; i < d->ncols; i++)
		if (strcmp(d->cols[i].name, name) == 0)
			return &d->cols[i];
	CU_FAIL("column missing from the diff");
	return NULL;
}

/* ---- reading ---- */

static const char chargesim_csv[] =
	"time_s,vbus_V,ibus_A,charger_state\n"
	"0,0,0,off\n"
	"0.01,5.1,0,off\n"
	"0.01,5.05,0.5,cc\n"
	"12.5,4.9,1.25,cv\n";

static void test_read_chargesim(void)
{
	g_autoptr(cs_csv_trace) tr = parse(chargesim_csv);

	CU_ASSERT_PTR_NOT_NULL_FATAL(tr);
	CU_ASSERT_EQUAL(tr->nrows, 4);
	CU_ASSERT_EQUAL(tr->ncols, 4);
	CU_ASSERT_EQUAL(tr->time_col, 0);
	CU_ASSERT_EQUAL(tr->delim, ',');
	CU_ASSERT_STRING_EQUAL(tr->cols[1].name, "vbus_V");
	CU_ASSERT_FALSE(tr->cols[1].is_label);
	CU_ASSERT_TRUE(tr->cols[3].is_label);
	CU_ASSERT_PTR_NULL(tr->cols[3].v);
	CU_ASSERT_EQUAL(tr->t[2], 0.01);
	CU_ASSERT_EQUAL(tr->t[3], 12.5);
	CU_ASSERT_EQUAL(tr->cols[1].v[2], 5.05);
	CU_ASSERT_EQUAL(tr->cols[2].v[3], 1.25);
	CU_ASSERT_STRING_EQUAL(tr->cols[3].s[0], "off");
	CU_ASSERT_STRING_EQUAL(tr->cols[3].s[3], "cv");
	/* Rows are on lines 2..5 (the header is line 1). */
	CU_ASSERT_EQUAL(tr->line[0], 2);
	CU_ASSERT_EQUAL(tr->line[3], 5);
	CU_ASSERT_EQUAL(cs_csv_find_col(tr, "ibus_A"), 2);
	CU_ASSERT_EQUAL(cs_csv_find_col(tr, "nope"), -1);
}

/* A USB power meter's export: BOM, CRLF, its own time column name and units in
 * parentheses, blanks after the commas, a quoted header cell, no final newline. */
static const char meter_csv[] =
	"\xEF\xBB\xBFTime(s), Voltage(V), Current(A),\"Mode, proto\"\r\n"
	"0.0, 5.12, 0.000,QC2\r\n"
	"0.5, 5.08, 0.512,QC2\r\n"
	"1.0, 5.02, 1.024,QC3";

static void test_read_power_meter(void)
{
	g_autoptr(cs_csv_trace) tr = parse(meter_csv);

	CU_ASSERT_PTR_NOT_NULL_FATAL(tr);
	CU_ASSERT_EQUAL(tr->nrows, 3);
	CU_ASSERT_STRING_EQUAL(tr->cols[0].name, "Time(s)");
	CU_ASSERT_EQUAL(tr->time_col, 0);
	CU_ASSERT_STRING_EQUAL(tr->cols[1].name, "Voltage(V)");
	CU_ASSERT_STRING_EQUAL(tr->cols[3].name, "Mode, proto");
	CU_ASSERT_EQUAL(tr->cols[1].v[1], 5.08);
	CU_ASSERT_EQUAL(tr->cols[2].v[2], 1.024);
	CU_ASSERT_TRUE(tr->cols[3].is_label);
	CU_ASSERT_STRING_EQUAL(tr->cols[3].s[2], "QC3");
	CU_ASSERT_EQUAL(tr->line[2], 4);
	CU_ASSERT_EQUAL(cs_csv_col_dim("Voltage(V)"), UNIT_VOLT);
	CU_ASSERT_EQUAL(cs_csv_col_dim("Current(A)"), UNIT_AMP);
	CU_ASSERT_EQUAL(cs_csv_col_dim("I [A]"), UNIT_AMP);
	CU_ASSERT_EQUAL(cs_csv_col_dim("vbus_V"), UNIT_VOLT);
	CU_ASSERT_EQUAL(cs_csv_col_dim("time_s"), UNIT_SECOND);
	CU_ASSERT_EQUAL(cs_csv_col_dim("soc"), UNIT_FRACTION);
	CU_ASSERT_EQUAL(cs_csv_col_dim("temp_C"), UNIT_NONE);
	CU_ASSERT_EQUAL(cs_csv_col_dim("Mode"), UNIT_NONE);
}

static void test_time_column_names(void)
{
	static const char *const names[] = { "time", "T", "time [s]", "TIME (S)", "Time(s)" };
	struct cs_csv_read_opts o = { .time_column = "zeit" };

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *text = g_strdup_printf("x,%s\n1,0\n2,1\n", names[i]);
		g_autoptr(cs_csv_trace) tr = parse(text);

		CU_ASSERT_PTR_NOT_NULL_FATAL(tr);
		CU_ASSERT_EQUAL(tr->time_col, 1);
		CU_ASSERT_EQUAL(tr->t[1], 1);
	}
	/* time_s wins over a later "t"; a caller's name wins over both (any case). */
	{
		g_autoptr(cs_csv_trace) tr = parse("t,time_s,Zeit\n5,0,9\n6,1,10\n");
		g_autoptr(cs_csv_trace) tz = parse_opts("t,time_s,Zeit\n5,0,9\n6,1,10\n", &o);

		CU_ASSERT_PTR_NOT_NULL_FATAL(tr);
		CU_ASSERT_PTR_NOT_NULL_FATAL(tz);
		CU_ASSERT_EQUAL(tr->time_col, 1);
		CU_ASSERT_EQUAL(tz->time_col, 2);
		CU_ASSERT_EQUAL(tz->t[0], 9);
	}
}

static void test_delimiters(void)
{
	g_autoptr(cs_csv_trace) semi = parse("time_s;v_V;state\n0;1.5;a\n1;2.5;b\n");
	g_autoptr(cs_csv_trace) tab = parse("time_s\tv_V\n0\t1.5\n1\t2.5\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(semi);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tab);
	CU_ASSERT_EQUAL(semi->delim, ';');
	CU_ASSERT_EQUAL(semi->ncols, 3);
	CU_ASSERT_EQUAL(semi->cols[1].v[1], 2.5);
	CU_ASSERT_EQUAL(tab->delim, '\t');
	CU_ASSERT_EQUAL(tab->cols[1].v[0], 1.5);
}

/* Numbers are read the same whatever the locale; label columns keep numbers-as-text
 * when any other cell is text; an all-empty column is a label column. */
static void test_columns_kinds(void)
{
	g_autoptr(cs_csv_trace) tr = parse("time_s,mode,note,v\n0,5,,1e-3\n1,PD,,-2.5E+2\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(tr);
	CU_ASSERT_TRUE(tr->cols[1].is_label);
	CU_ASSERT_STRING_EQUAL(tr->cols[1].s[0], "5");
	CU_ASSERT_TRUE(tr->cols[2].is_label);
	CU_ASSERT_STRING_EQUAL(tr->cols[2].s[1], "");
	CU_ASSERT_FALSE(tr->cols[3].is_label);
	CU_ASSERT_EQUAL(tr->cols[3].v[0], 1e-3);
	CU_ASSERT_EQUAL(tr->cols[3].v[1], -250);
}

static void test_bad_input(void)
{
	expect_error("", CS_CSV_ERROR_EMPTY, "empty", NULL);
	expect_error("\n\n", CS_CSV_ERROR_EMPTY, "empty", NULL);
	expect_error("time_s,v_V\n", CS_CSV_ERROR_EMPTY, "no data rows", "line 1", NULL);
	expect_error("x,v_V\n1,2\n", CS_CSV_ERROR_NO_TIME, "line 1", "time_s", "\"x\"", NULL);
	expect_error("time_s,v_V\n0,1\nabc,2\n", CS_CSV_ERROR_TIME, "line 3",
		     "column \"time_s\"", "\"abc\"", NULL);
	expect_error("time_s,v_V\n0,1\n,2\n", CS_CSV_ERROR_TIME, "line 3", "empty", NULL);
	expect_error("time_s,v_V\n0,1\nnan,2\n", CS_CSV_ERROR_TIME, "line 3", "\"nan\"", NULL);
	expect_error("time_s,v_V\n0,1\n2,2\n1.5,3\n", CS_CSV_ERROR_TIME, "line 4",
		     "backwards", "line 3", NULL);
	expect_error("time_s,v_V,w\n0,1,2\n1,2\n", CS_CSV_ERROR_SYNTAX, "line 3",
		     "found 2 fields, expected 3", NULL);
	expect_error("time_s,v_V\n0,1\n1,2,3\n", CS_CSV_ERROR_SYNTAX, "line 3",
		     "found 3 fields, expected 2", NULL);
	expect_error("time_s,v_V\n0,1\n1,NaN\n", CS_CSV_ERROR_VALUE, "line 3",
		     "column \"v_V\"", "\"NaN\"", NULL);
	expect_error("time_s,v_V\n0,1\n1,2\n2,-inf\n", CS_CSV_ERROR_VALUE, "line 4", "\"-inf\"", NULL);
	expect_error("time_s,v_V\n0,1e999\n", CS_CSV_ERROR_VALUE, "line 2", "\"1e999\"", NULL);
	expect_error("time_s,v_V\n0,1\n1,\n", CS_CSV_ERROR_VALUE, "line 3", "column \"v_V\"",
		     "empty cell", NULL);
	expect_error("time_s,v_V,v_V\n0,1,2\n", CS_CSV_ERROR_SYNTAX, "line 1", "\"v_V\"",
		     "twice", NULL);
	expect_error("time_s,v_V\n0,1\n1,2\"x\n", CS_CSV_ERROR_SYNTAX, "line 3", "quot", NULL);
	expect_error("time_s,v_V\n0,1\n1,\"2\n", CS_CSV_ERROR_SYNTAX, "quote", NULL);
	/* Blank lines are skipped, and do not shift the line numbers. */
	expect_error("time_s,v_V\n\n0,1\n\nx,2\n", CS_CSV_ERROR_TIME, "line 5", NULL);
	/* A caller's time column that is not there: did you mean. */
	{
		struct cs_csv_read_opts o = { .time_column = "tme_s" };
		GError *err = NULL;
		cs_csv_trace *tr = cs_csv_parse("x.csv", "time_s,v\n0,1\n", 13, &o, &err);

		CU_ASSERT_PTR_NULL(tr);
		CU_ASSERT_PTR_NOT_NULL_FATAL(err);
		CU_ASSERT_EQUAL(err->code, CS_CSV_ERROR_NO_TIME);
		CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "did you mean \"time_s\""));
		g_error_free(err);
	}
}

/* Files: missing, a directory, over the size cap; and a good file read back. */
static void test_files(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-diff-XXXXXX");
	g_autofree char *path = NULL, *missing = NULL;
	struct cs_csv_read_opts small = { .max_bytes = 16 };
	GError *err = NULL;
	cs_csv_trace *tr;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "meter.csv", NULL);
	missing = g_build_filename(dir, "missing.csv", NULL);
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, meter_csv, -1, NULL));

	tr = cs_csv_read(path, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL(tr);
	if (tr) {
		CU_ASSERT_EQUAL(tr->nrows, 3);
		CU_ASSERT_STRING_EQUAL(tr->file, path);
	}
	cs_csv_trace_free(tr);
	g_clear_error(&err);

	tr = cs_csv_read(path, &small, &err);
	CU_ASSERT_PTR_NULL(tr);
	CU_ASSERT_TRUE(g_error_matches(err, CS_CSV_ERROR, CS_CSV_ERROR_TOO_BIG));
	CU_ASSERT(err && g_str_has_prefix(err->message, path));
	g_clear_error(&err);

	tr = cs_csv_read(missing, NULL, &err);
	CU_ASSERT_PTR_NULL(tr);
	CU_ASSERT_TRUE(g_error_matches(err, CS_CSV_ERROR, CS_CSV_ERROR_IO));
	CU_ASSERT(err && strstr(err->message, "missing.csv"));
	g_clear_error(&err);

	tr = cs_csv_read(dir, NULL, &err);
	CU_ASSERT_PTR_NULL(tr);
	CU_ASSERT_TRUE(g_error_matches(err, CS_CSV_ERROR, CS_CSV_ERROR_IO));
	g_clear_error(&err);

	tu_rm_tree(dir);
}

/* A table (a sweep's results.csv): no time column, every column text, a name that
 * repeats, quoted cells and empty cells kept as written; the shape is still checked. */
static void test_table(void)
{
	static const char text[] =
		"index,source.ilim,source_trips,error,source_trips\n"
		"0,0.8 A,12,,12\n"
		"1,\"1,5 A\",,input error: x,\n";
	struct cs_csv_read_opts o = { .table = true };
	GError *err = NULL;
	g_autoptr(cs_csv_trace) tr = parse_opts(text, &o);
	cs_csv_trace *bad;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tr);
	CU_ASSERT_EQUAL(tr->nrows, 2);
	CU_ASSERT_EQUAL(tr->ncols, 5);
	CU_ASSERT_EQUAL(tr->time_col, -1);
	CU_ASSERT_EQUAL(cs_csv_find_col(tr, "source_trips"), 2);   /* the first of two */
	CU_ASSERT_PTR_NULL(tr->t);
	for (int c = 0; c < tr->ncols; c++)
		CU_ASSERT(tr->cols[c].is_label && tr->cols[c].s && !tr->cols[c].v);
	CU_ASSERT_STRING_EQUAL(tr->cols[0].s[1], "1");
	CU_ASSERT_STRING_EQUAL(tr->cols[1].s[1], "1,5 A");
	CU_ASSERT_STRING_EQUAL(tr->cols[2].s[0], "12");
	CU_ASSERT_STRING_EQUAL(tr->cols[2].s[1], "");
	CU_ASSERT_STRING_EQUAL(tr->cols[3].s[1], "input error: x");
	CU_ASSERT_EQUAL(tr->line[1], 3);

	bad = cs_csv_parse("r.csv", "a,b\n1,2\n3\n", 10, &o, &err);
	CU_ASSERT_PTR_NULL(bad);
	CU_ASSERT_TRUE(g_error_matches(err, CS_CSV_ERROR, CS_CSV_ERROR_SYNTAX));
	CU_ASSERT(err && strstr(err->message, "line 3") && strstr(err->message, "found 1 field"));
	g_clear_error(&err);
}

/* text_columns keeps a column of numbers as text (a state column that happens to
 * hold numbers), never the time column; a fixed delimiter is not sniffed. */
static void test_text_columns_and_delim(void)
{
	static const char text[] = "time_s,state,v_V\n0,01,2.5\n1,2,3\n";
	static const char *const keep[] = { "state", "time_s", NULL };
	struct cs_csv_read_opts o = { .text_columns = keep };
	struct cs_csv_read_opts comma = { .delim = ',' };
	g_autoptr(cs_csv_trace) plain = parse(text);
	g_autoptr(cs_csv_trace) kept = parse_opts(text, &o);
	GError *err = NULL;
	cs_csv_trace *semi;

	CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
	CU_ASSERT_PTR_NOT_NULL_FATAL(kept);
	CU_ASSERT_FALSE(plain->cols[1].is_label);
	CU_ASSERT_DOUBLE_EQUAL(plain->cols[1].v[0], 1.0, 0);
	CU_ASSERT_TRUE(kept->cols[1].is_label);
	CU_ASSERT_STRING_EQUAL(kept->cols[1].s[0], "01");
	CU_ASSERT_FALSE(kept->cols[0].is_label);       /* the time column stays numeric */
	CU_ASSERT_DOUBLE_EQUAL(kept->t[1], 1.0, 0);
	CU_ASSERT_FALSE(kept->cols[2].is_label);

	/* "time_s;v_V" is one column named so when the delimiter is fixed to ',' */
	semi = cs_csv_parse("s.csv", "time_s;v_V\n0;1\n", 15, &comma, &err);
	CU_ASSERT_PTR_NULL(semi);
	CU_ASSERT_TRUE(g_error_matches(err, CS_CSV_ERROR, CS_CSV_ERROR_NO_TIME));
	CU_ASSERT(err && strstr(err->message, "\"time_s;v_V\""));
	g_clear_error(&err);
}

/* The header row alone: names stripped, a BOM and blank lines skipped, quoting
 * honoured, the rest of the file never parsed (a bad row after it is no error). */
static void test_read_header(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-diff-XXXXXX");
	g_autofree char *path = NULL, *empty = NULL, *missing = NULL;
	struct cs_csv_read_opts comma = { .delim = ',' };
	GError *err = NULL;
	char **names;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	path = g_build_filename(dir, "h.csv", NULL);
	empty = g_build_filename(dir, "empty.csv", NULL);
	missing = g_build_filename(dir, "missing.csv", NULL);
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(path,
		"\xEF\xBB\xBF\n time_s , vbus_V,\"a,\nb\"\r\n0,1,\"2\nx\"y\n", -1, NULL));
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(empty, "", 0, NULL));

	names = cs_csv_read_header(path, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL(names);
	if (names) {
		CU_ASSERT_EQUAL(g_strv_length(names), 3);
		CU_ASSERT_STRING_EQUAL(names[0], "time_s");
		CU_ASSERT_STRING_EQUAL(names[1], "vbus_V");
		CU_ASSERT_STRING_EQUAL(names[2], "a,\nb");
	}
	g_strfreev(names);
	g_clear_error(&err);

	names = cs_csv_read_header(empty, &comma, &err);
	CU_ASSERT(names && g_strv_length(names) == 0);
	g_strfreev(names);
	g_clear_error(&err);

	names = cs_csv_read_header(missing, NULL, &err);
	CU_ASSERT_PTR_NULL(names);
	CU_ASSERT_TRUE(g_error_matches(err, CS_CSV_ERROR, CS_CSV_ERROR_IO));
	CU_ASSERT(err && strstr(err->message, "missing.csv"));
	g_clear_error(&err);
	tu_rm_tree(dir);
}

/* Mangled copies of a good trace (bytes replaced, cut short, lines doubled): each
 * either reads or fails with a message naming the file - never a crash, and never a
 * NaN in what was read. */
static void test_mangled_input(void)
{
	GRand *rng = g_rand_new_with_seed(6);
	static const char alphabet[] = "0123456789.,;\"\n\r\t -+eEnaixX\0";
	int ok = 0, failed = 0;

	for (int it = 0; it < 3000; it++) {
		GString *s = g_string_new_len(chargesim_csv, sizeof chargesim_csv - 1);
		int edits = g_rand_int_range(rng, 1, 5);
		GError *err = NULL;
		cs_csv_trace *tr;

		for (int k = 0; k < edits; k++) {
			guint pos = (guint)g_rand_int_range(rng, 0, (gint32)s->len);

			switch (g_rand_int_range(rng, 0, 3)) {
			case 0:
				s->str[pos] = alphabet[g_rand_int_range(rng, 0, sizeof alphabet - 1)];
				break;
			case 1:
				g_string_truncate(s, pos);
				break;
			default:
				g_string_insert_len(s, pos, s->str, MIN(pos, 20u));
				break;
			}
			if (!s->len)
				break;
		}
		tr = cs_csv_parse("m.csv", s->str, s->len, NULL, &err);
		if (tr) {
			ok++;
			for (int c = 0; c < tr->ncols; c++)
				for (size_t r = 0; r < tr->nrows && !tr->cols[c].is_label; r++)
					CU_ASSERT(isfinite(tr->cols[c].v[r]));
			for (size_t r = 1; r < tr->nrows; r++)
				CU_ASSERT(tr->t[r] >= tr->t[r - 1]);
		} else {
			failed++;
			CU_ASSERT(err && g_str_has_prefix(err->message, "m.csv: "));
		}
		cs_csv_trace_free(tr);
		g_clear_error(&err);
		g_string_free(s, TRUE);
	}
	g_rand_free(rng);
	CU_ASSERT(ok > 0 && failed > 0);
}

/* ---- tolerances ---- */

static void test_tolerance_parse(void)
{
	g_autoptr(cs_tolerances) t = tols("vbus_V=abs:5mV,rel:1e-3", "*=abs:1e-6",
					  "soc=abs:0.1%", "time_s=abs:2 ms", "ibus_A=rel:1%,abs:1 mA",
					  "Voltage(V)=abs:20mV", "state=exact", NULL);
	double a, r;

	CU_ASSERT_TRUE(cs_tolerances_lookup(t, "vbus_V", &a, &r));
	CS_ASSERT_NEAR(a, 0.005, 1e-15);
	CS_ASSERT_NEAR(r, 0.001, 1e-15);
	CU_ASSERT_TRUE(cs_tolerances_lookup(t, "soc", &a, &r));
	CS_ASSERT_NEAR(a, 0.001, 1e-15);
	CU_ASSERT_EQUAL(r, 0);
	CU_ASSERT_TRUE(cs_tolerances_lookup(t, "time_s", &a, &r));
	CS_ASSERT_NEAR(a, 0.002, 1e-15);
	CU_ASSERT_TRUE(cs_tolerances_lookup(t, "ibus_A", &a, &r));
	CS_ASSERT_NEAR(a, 0.001, 1e-15);
	CS_ASSERT_NEAR(r, 0.01, 1e-15);
	CU_ASSERT_TRUE(cs_tolerances_lookup(t, "Voltage(V)", &a, &r));
	CS_ASSERT_NEAR(a, 0.02, 1e-15);
	CU_ASSERT_TRUE(cs_tolerances_lookup(t, "state", &a, &r));
	CU_ASSERT(a == 0 && r == 0);
	/* Unlisted columns take "*". */
	CU_ASSERT_TRUE(cs_tolerances_lookup(t, "vbat_V", &a, &r));
	CS_ASSERT_NEAR(a, 1e-6, 1e-20);
	CU_ASSERT_EQUAL(r, 0);
	CU_ASSERT_EQUAL(cs_tolerances_count(t), 7);
	CU_ASSERT_STRING_EQUAL(cs_tolerances_column(t, 1), "*");
	/* A later entry for the same column replaces the earlier one. */
	{
		g_autoptr(cs_tolerances) u = tols("x=abs:1", "x=rel:0.5", NULL);

		cs_tolerances_lookup(u, "x", &a, &r);
		CU_ASSERT(a == 0 && r == 0.5);
		CU_ASSERT_EQUAL(cs_tolerances_count(u), 1);
		/* No entry and no "*": exact. */
		CU_ASSERT_FALSE(cs_tolerances_lookup(u, "y", &a, &r));
		CU_ASSERT(a == 0 && r == 0);
	}
	/* The scenario file's form, one value at a time. */
	{
		GError *err = NULL;

		CU_ASSERT_TRUE(cs_tolerance_value_parse("ibat_A", false, "2 mA", &a, "here", &err));
		CS_ASSERT_NEAR(a, 0.002, 1e-15);
		CU_ASSERT_TRUE(cs_tolerance_value_parse("ibat_A", true, "0.5 %", &r, "here", &err));
		CS_ASSERT_NEAR(r, 0.005, 1e-15);
		CU_ASSERT_FALSE(cs_tolerance_value_parse("ibat_A", false, "2 mV", &a, "s.json: expect[0].tolerance.ibat_A.abs", &err));
		CU_ASSERT(err && g_str_has_prefix(err->message, "s.json: expect[0].tolerance.ibat_A.abs: "));
		g_clear_error(&err);
	}
	{
		g_autofree char *d1 = cs_tolerance_describe("vbus_V", 0.005, 0.001);
		g_autofree char *d2 = cs_tolerance_describe("x", 0, 0);
		g_autofree char *d3 = cs_tolerance_describe("ibus_A", 0, 0.01);

		CU_ASSERT_STRING_EQUAL(d1, "5 mV + 0.001*|B|");
		CU_ASSERT_STRING_EQUAL(d2, "exact");
		CU_ASSERT_STRING_EQUAL(d3, "0.01*|B|");
	}
}

static void test_tolerance_parse_errors(void)
{
	static const struct { const char *text, *frag; } bad[] = {
		{ "vbus_V=abs:5mA", "current" },
		{ "*=abs:5mV", "plain number" },
		{ "vbus_V", "expected COLUMN=" },
		{ "=abs:1", "no column name" },
		{ "x=abs:-1", "at least 0" },
		{ "x=foo:1", "\"foo\"" },
		{ "x=abs:1,abs:2", "twice" },
		{ "x=", "expected abs:VALUE" },
		{ "x=abs:nan", "x=abs:nan" },
		{ "x=abs:inf", "x=abs:inf" },
		{ "x=exact,abs:1", "exact alone" },
		{ "x=abs", "expected abs:VALUE" },
		{ "x=rel:5 V", "rel:5 V" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(cs_tolerances) t = cs_tolerances_new();
		GError *err = NULL;

		CU_ASSERT_FALSE(cs_tolerances_parse(t, bad[i].text, &err));
		CU_ASSERT_PTR_NOT_NULL_FATAL(err);
		CU_ASSERT_EQUAL(err->domain, CS_CSV_ERROR);
		if (!strstr(err->message, bad[i].frag))
			fprintf(stderr, "\n  \"%s\": \"%s\" lacks \"%s\"\n", bad[i].text, err->message, bad[i].frag);
		CU_ASSERT_PTR_NOT_NULL(strstr(err->message, bad[i].frag));
		CU_ASSERT_EQUAL(cs_tolerances_count(t), 0);
		g_error_free(err);
	}
}

/* ---- tolerance semantics (same row times: no interpolation involved) ---- */

/* Reference B and candidate A. Deviations |A-B| per row:
 *   x_V: 0, 0.0015, 0.0025 (B = 1, 2, 4)
 *   y_A: 0.05 at B = 10, 0.02 at B = 1, 0 at B = 0
 *   z:   B = 2, 2, 2; A = 2.025 (|d| 0.025), 2, 2
 *   w:   B = 4, A = 4.5 at row 1 (|d| 0.5 exactly: the boundary) */
static const char sem_b[] =
	"time_s,x_V,y_A,z,w\n"
	"0,1,10,2,4\n"
	"1,2,1,2,4\n"
	"2,4,0,2,4\n";
static const char sem_a[] =
	"time_s,x_V,y_A,z,w\n"
	"0,1,10.05,2.025,4\n"
	"1,2.0015,1.02,2,4.5\n"
	"2,4.0025,0,2,4\n";

static void test_exact_when_no_tolerance(void)
{
	g_autoptr(cs_csv_trace) a = parse(sem_a);
	g_autoptr(cs_csv_trace) b = parse(sem_b);
	g_autoptr(cs_diff) same = NULL, d = NULL;
	const struct cs_diff_col *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	same = diff(b, b, NULL, false);
	CU_ASSERT_TRUE(same->pass);
	CU_ASSERT_EQUAL(same->n_compared, 4);
	CU_ASSERT_FALSE(col(same, "x_V")->has_worst);

	d = diff(a, b, NULL, false);
	CU_ASSERT_FALSE(d->pass);
	CU_ASSERT_EQUAL(d->n_failed, 4);
	c = col(d, "x_V");
	CU_ASSERT_FALSE(c->pass);
	CU_ASSERT_EQUAL(c->n_compared, 3);
	CU_ASSERT_EQUAL(c->n_failed, 2);
	/* Exact: every deviation is infinitely over, the largest is the worst. */
	CU_ASSERT_EQUAL(c->t, 2);
	CS_ASSERT_NEAR(c->dev, 0.0025, 1e-12);
	CU_ASSERT_EQUAL(c->line, 4);
	CU_ASSERT_EQUAL(c->allowed, 0);
}

static void test_abs_only(void)
{
	g_autoptr(cs_csv_trace) a = parse(sem_a);
	g_autoptr(cs_csv_trace) b = parse(sem_b);
	g_autoptr(cs_tolerances) pass = tols("x_V=abs:2mV", NULL);
	g_autoptr(cs_tolerances) fail = tols("x_V=abs:3mV", NULL);
	g_autoptr(cs_tolerances) tight = tols("x_V=abs:1mV", NULL);
	g_autoptr(cs_diff) d1 = diff(a, b, pass, false);
	g_autoptr(cs_diff) d2 = diff(a, b, fail, false);
	g_autoptr(cs_diff) d3 = diff(a, b, tight, false);
	const struct cs_diff_col *c;

	/* 2 mV: 1.5 mV passes, 2.5 mV does not. */
	c = col(d1, "x_V");
	CU_ASSERT_FALSE(c->pass);
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_EQUAL(c->t, 2);
	CU_ASSERT_EQUAL(c->cand, 4.0025);
	CU_ASSERT_EQUAL(c->ref, 4);
	CS_ASSERT_NEAR(c->allowed, 0.002, 1e-15);
	CU_ASSERT_TRUE(col(d2, "x_V")->pass);
	CU_ASSERT_EQUAL(col(d3, "x_V")->n_failed, 2);
	/* abs applies whatever |B|: row 1 (B = 2) fails at 1 mV as row 2 (B = 4) does. */
}

static void test_rel_only(void)
{
	g_autoptr(cs_csv_trace) a = parse(sem_a);
	g_autoptr(cs_csv_trace) b = parse(sem_b);
	g_autoptr(cs_tolerances) t = tols("y_A=rel:1e-2", NULL);
	g_autoptr(cs_tolerances) t3 = tols("y_A=rel:3%", NULL);
	g_autoptr(cs_diff) d = diff(a, b, t, false);
	g_autoptr(cs_diff) d3 = diff(a, b, t3, false);
	const struct cs_diff_col *c = col(d, "y_A");

	/* rel 1 %: row 0 allows 0.1 (B = 10) so 0.05 passes; row 1 allows 0.01 (B = 1)
	 * so 0.02 fails. The worst row is the one most out of tolerance (row 1, 200 %),
	 * not the one with the largest |A-B| (row 0). */
	CU_ASSERT_FALSE(c->pass);
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_EQUAL(c->t, 1);
	CS_ASSERT_NEAR(c->dev, 0.02, 1e-12);
	CS_ASSERT_NEAR(c->allowed, 0.01, 1e-15);
	CS_ASSERT_NEAR(c->max_dev, 0.05, 1e-12);
	CU_ASSERT_EQUAL(c->max_dev_t, 0);
	/* rel 3 %: row 1 allows 0.03, passes; the worst is still row 1 (67 % vs 17 %). */
	c = col(d3, "y_A");
	CU_ASSERT_TRUE(c->pass);
	CU_ASSERT_EQUAL(c->t, 1);
}

static void test_abs_plus_rel(void)
{
	g_autoptr(cs_csv_trace) a = parse(sem_a);
	g_autoptr(cs_csv_trace) b = parse(sem_b);
	/* z: |d| = 0.025 at B = 2. abs 0.01 alone fails, rel 1 % (0.02) alone fails,
	 * abs + rel = 0.01 + 0.02 = 0.03 passes: the bounds add up. */
	g_autoptr(cs_tolerances) ta = tols("z=abs:0.01", NULL);
	g_autoptr(cs_tolerances) tr = tols("z=rel:0.01", NULL);
	g_autoptr(cs_tolerances) tb = tols("z=abs:0.01,rel:0.01", NULL);
	g_autoptr(cs_tolerances) tw = tols("w=abs:0.5", NULL);
	g_autoptr(cs_diff) da = diff(a, b, ta, false);
	g_autoptr(cs_diff) dr = diff(a, b, tr, false);
	g_autoptr(cs_diff) db = diff(a, b, tb, false);
	g_autoptr(cs_diff) dw = diff(a, b, tw, false);

	CU_ASSERT_FALSE(col(da, "z")->pass);
	CU_ASSERT_FALSE(col(dr, "z")->pass);
	CU_ASSERT_TRUE(col(db, "z")->pass);
	CS_ASSERT_NEAR(col(db, "z")->allowed, 0.03, 1e-15);
	/* On the boundary |A-B| == allowed (0.5, exact in binary) passes. */
	CU_ASSERT_TRUE(col(dw, "w")->pass);
	CU_ASSERT_EQUAL(col(dw, "w")->dev, 0.5);
}

static void test_star_default(void)
{
	g_autoptr(cs_csv_trace) a = parse(sem_a);
	g_autoptr(cs_csv_trace) b = parse(sem_b);
	g_autoptr(cs_tolerances) star = tols("*=abs:0.6", NULL);
	/* A column's own entry replaces "*" entirely: x_V rel 0 means no abs either. */
	g_autoptr(cs_tolerances) over = tols("*=abs:0.6", "x_V=rel:0", NULL);
	g_autoptr(cs_diff) d1 = diff(a, b, star, false);
	g_autoptr(cs_diff) d2 = diff(a, b, over, false);

	CU_ASSERT_TRUE(d1->pass);
	CU_ASSERT_EQUAL(col(d1, "z")->abs, 0.6);
	CU_ASSERT_FALSE(d2->pass);
	CU_ASSERT_FALSE(col(d2, "x_V")->pass);
	CU_ASSERT_TRUE(col(d2, "y_A")->pass);
	CU_ASSERT_EQUAL(d2->n_failed, 1);
}

/* ---- time alignment ---- */

static void test_interpolation(void)
{
	/* B: x = 0, 10, 30 at t = 0, 1, 2. A at 0.5, 1.5, 1.75: B interpolates to
	 * 5, 20, 25 (by hand: 0 + 0.5*10, 10 + 0.5*20, 10 + 0.75*20). A = 5.1, 20, 24. */
	g_autoptr(cs_csv_trace) b = parse("time_s,x\n0,0\n1,10\n2,30\n");
	g_autoptr(cs_csv_trace) a = parse("time_s,x\n0.5,5.1\n1.5,20\n1.75,24\n");
	g_autoptr(cs_csv_trace) a_out = parse("time_s,x\n-1,0\n0.5,5\n3,0\n");
	g_autoptr(cs_tolerances) t = tols("x=abs:0.2", NULL);
	g_autoptr(cs_tolerances) tt = tols("x=abs:0.2", "time_s=abs:1.5", NULL);
	g_autoptr(cs_diff) d = NULL, d_strict = NULL, d_overlap = NULL, d_ttol = NULL;
	const struct cs_diff_col *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a_out);
	d = diff(a, b, t, true);
	c = col(d, "x");
	CU_ASSERT_EQUAL(d->n_rows, 3);
	CU_ASSERT_EQUAL(c->n_compared, 3);
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_EQUAL(c->t, 1.75);
	CS_ASSERT_NEAR(c->ref, 25, 1e-12);
	CU_ASSERT_EQUAL(c->cand, 24);
	CS_ASSERT_NEAR(c->dev, 1, 1e-12);
	CU_ASSERT_EQUAL(c->line, 4);

	/* Rows outside B's range are not compared; the ranges differ, which fails
	 * unless overlap_only or the time column's tolerance covers it. */
	d_strict = diff(a_out, b, t, false);
	CU_ASSERT_FALSE(d_strict->span_ok);
	CU_ASSERT_FALSE(d_strict->pass);
	CU_ASSERT_EQUAL(d_strict->n_rows, 1);
	CU_ASSERT_EQUAL(d_strict->n_outside, 2);
	CU_ASSERT_TRUE(col(d_strict, "x")->pass);
	d_overlap = diff(a_out, b, t, true);
	CU_ASSERT_TRUE(d_overlap->pass);
	d_ttol = diff(a_out, b, tt, false);
	CU_ASSERT_TRUE(d_ttol->span_ok);
	CU_ASSERT_TRUE(d_ttol->pass);
	{
		g_autofree char *why = cs_diff_reason(d_strict);

		CU_ASSERT_PTR_NOT_NULL_FATAL(why);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "time ranges differ"));
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "-1 s .. 3 s"));
	}
}

/* An event at t = 1: B holds the state before (v 0, off) and after (v 5, on). */
static const char dup_b[] =
	"time_s,v,state\n"
	"0,0,off\n"
	"1,0,off\n"
	"1,5,on\n"
	"2,5,on\n";

static void test_duplicated_times(void)
{
	g_autoptr(cs_csv_trace) b = parse(dup_b);
	/* One row at the instant: it is the state from then on, compared with B's last. */
	g_autoptr(cs_csv_trace) one_after = parse("time_s,v,state\n0,0,off\n1,5,on\n2,5,on\n");
	g_autoptr(cs_csv_trace) one_before = parse("time_s,v,state\n0,0,off\n1,0,off\n2,5,on\n");
	/* Rows around the instant: interpolation stays on its side of the jump (0 and 5,
	 * not 2.5), labels take B's row at or before (off at 0.5, on at 1.5). */
	g_autoptr(cs_csv_trace) around = parse("time_s,v,state\n0,0,off\n0.5,0,off\n1.5,5,on\n2,5,on\n");
	/* Three rows at the instant against B's two: in order, the last with the last,
	 * so the middle one (2) meets B's second row (5). */
	g_autoptr(cs_csv_trace) three = parse("time_s,v,state\n0,0,off\n1,0,off\n1,2,cc\n1,5,on\n2,5,on\n");
	g_autoptr(cs_diff) d_same = NULL, d_after = NULL, d_before = NULL, d_around = NULL, d_three = NULL;
	const struct cs_diff_col *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(one_after);
	CU_ASSERT_PTR_NOT_NULL_FATAL(one_before);
	CU_ASSERT_PTR_NOT_NULL_FATAL(around);
	CU_ASSERT_PTR_NOT_NULL_FATAL(three);
	d_same = diff(b, b, NULL, false);
	CU_ASSERT_TRUE(d_same->pass);
	d_after = diff(one_after, b, NULL, false);
	CU_ASSERT_TRUE(d_after->pass);
	d_before = diff(one_before, b, NULL, false);
	CU_ASSERT_FALSE(d_before->pass);
	c = col(d_before, "v");
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_EQUAL(c->t, 1);
	CU_ASSERT_EQUAL(c->ref, 5);
	c = col(d_before, "state");
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_STRING_EQUAL(c->cand_label, "off");
	CU_ASSERT_STRING_EQUAL(c->ref_label, "on");
	CU_ASSERT_EQUAL(c->line, 3);
	d_around = diff(around, b, NULL, false);
	CU_ASSERT_TRUE(d_around->pass);
	d_three = diff(three, b, NULL, false);
	c = col(d_three, "v");
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_EQUAL(c->line, 4);
	CU_ASSERT_EQUAL(c->ref, 5);
	CU_ASSERT_EQUAL(c->cand, 2);
	/* The other way round: B has three rows, A two: before-before, after-after. */
	{
		g_autoptr(cs_diff) d_rev = diff(b, three, NULL, false);

		CU_ASSERT_TRUE(d_rev->pass);
	}
}

/* Labels between rows: B's row at or before the candidate time. */
static void test_label_alignment(void)
{
	g_autoptr(cs_csv_trace) b = parse("time_s,state\n0,off\n10,cc\n20,cv\n");
	g_autoptr(cs_csv_trace) a = parse("time_s,state\n0,off\n9.999,off\n10,cc\n19,cc\n20,cv\n");
	g_autoptr(cs_csv_trace) late = parse("time_s,state\n0,off\n10,off\n10.5,cc\n20,cv\n");
	g_autoptr(cs_diff) d = diff(a, b, NULL, false);
	g_autoptr(cs_diff) dl = diff(late, b, NULL, false);
	const struct cs_diff_col *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_TRUE(d->pass);
	c = col(dl, "state");
	CU_ASSERT_FALSE(c->pass);
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_EQUAL(c->t, 10);
	{
		g_autofree char *s = cs_diff_col_describe(c);

		CU_ASSERT_STRING_EQUAL(s, "state at t = 10 s (line 3): A \"off\", B \"cc\" (1 of 4 rows differ)");
	}
}

/* --time-shift: B steps at t = 10 (v 0 -> 1, off -> on) and ramps r = t; A is the same
 * 0.25 s later (step at 10.25, r = t + 0.125 at its rows 0, 10.25, 20). Binary-exact
 * times, so every window edge below is exact. */
static void test_time_shift(void)
{
	g_autoptr(cs_csv_trace) b = parse("time_s,v,r,state\n0,0,0,off\n10,0,10,off\n10,1,10,on\n20,1,20,on\n");
	g_autoptr(cs_csv_trace) a = parse("time_s,v,r,state\n0,0,0.125,off\n10.25,0,10.375,off\n"
					  "10.25,1,10.375,on\n20,1,20.125,on\n");
	struct cs_diff_opts o = { 0 };
	const struct cs_diff_col *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* no shift: A's "before" row at 10.25 (v 0, off) meets B's 1 and on; r is 0.125
	 * off at every row */
	{
		g_autoptr(cs_diff) d = cs_diff_traces(a, b, &o);

		CU_ASSERT_FALSE(d->pass);
		c = col(d, "v");
		CU_ASSERT_EQUAL(c->n_failed, 1);
		CU_ASSERT_EQUAL(c->t, 10.25);
		CU_ASSERT_EQUAL(c->ref, 1);
		CU_ASSERT_EQUAL(col(d, "state")->n_failed, 1);
		CU_ASSERT_EQUAL(col(d, "r")->n_failed, 4);
		CU_ASSERT_EQUAL(col(d, "r")->dev, 0.125);
	}
	/* 0.125 s: the step is still 0.25 s away (B is 1 and on over [10.125, 10.375]);
	 * r passes where the band [t - 0.125, t + 0.125] holds t + 0.125, except at the
	 * end, where B stops at 20: band [19.875, 20], A 20.125, deviation 0.125 */
	o.time_shift = 0.125;
	{
		g_autoptr(cs_diff) d = cs_diff_traces(a, b, &o);

		c = col(d, "v");
		CU_ASSERT_EQUAL(c->n_failed, 1);
		CU_ASSERT_EQUAL(c->ref, 1);
		CU_ASSERT_EQUAL(col(d, "state")->n_failed, 1);
		c = col(d, "r");
		CU_ASSERT_EQUAL(c->n_failed, 1);
		CU_ASSERT_EQUAL(c->t, 20);
		CU_ASSERT_EQUAL(c->ref, 20);
		CU_ASSERT_EQUAL(c->dev, 0.125);
	}
	/* 0.25 s, the shift itself: B's jump at 10 is on the window's edge, both of its
	 * rows inside (the boundary passes); r passes at the end too with an abs of 0.125 */
	o.time_shift = 0.25;
	{
		g_autoptr(cs_tolerances) t = tols("r=abs:0.125", NULL);
		g_autoptr(cs_diff) d = NULL;

		o.tol = t;
		d = cs_diff_traces(a, b, &o);
		CU_ASSERT_TRUE(col(d, "v")->pass);
		CU_ASSERT_TRUE(col(d, "state")->pass);
		CU_ASSERT_TRUE(col(d, "r")->pass);
		CU_ASSERT_TRUE(d->pass);
		o.tol = NULL;
	}
	/* a value B never takes near that time still fails: A's v of 0.5 at 5 s */
	{
		g_autoptr(cs_csv_trace) bad = parse("time_s,v,r,state\n0,0,0,off\n5,0.5,5,off\n20,1,20,on\n");
		g_autoptr(cs_diff) d = NULL;

		CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
		d = cs_diff_traces(bad, b, &o);
		c = col(d, "v");
		CU_ASSERT_EQUAL(c->n_failed, 1);
		CU_ASSERT_EQUAL(c->t, 5);
		CU_ASSERT_EQUAL(c->dev, 0.5);
	}
}

/* ---- columns ---- */

static void test_extra_columns(void)
{
	g_autoptr(cs_csv_trace) a = parse("time_s,vbus_V,temp_C\n0,5,25\n1,5,26\n");
	g_autoptr(cs_csv_trace) b = parse("time_s,vsys_V,vbus_V\n0,4,5\n0.5,4,5\n1,4,5\n");
	g_autoptr(cs_diff) d = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	d = diff(a, b, NULL, false);
	CU_ASSERT_TRUE(d->pass);
	CU_ASSERT_EQUAL(d->ncols, 3);
	CU_ASSERT_EQUAL(d->n_compared, 1);
	CU_ASSERT_EQUAL(col(d, "vbus_V")->presence, CS_DIFF_BOTH);
	CU_ASSERT_EQUAL(col(d, "temp_C")->presence, CS_DIFF_ONLY_CAND);
	CU_ASSERT_EQUAL(col(d, "vsys_V")->presence, CS_DIFF_ONLY_REF);
	CU_ASSERT_TRUE(col(d, "temp_C")->pass);
	/* Candidate's columns first, in order, then the reference's own. */
	CU_ASSERT_STRING_EQUAL(d->cols[0].name, "vbus_V");
	CU_ASSERT_STRING_EQUAL(d->cols[1].name, "temp_C");
	CU_ASSERT_STRING_EQUAL(d->cols[2].name, "vsys_V");

	/* Nothing in common: a failure, not a vacuous pass. */
	{
		g_autoptr(cs_csv_trace) c = parse("time_s,q\n0,1\n1,1\n");
		g_autoptr(cs_diff) dn = diff(c, b, NULL, false);
		g_autofree char *why = cs_diff_reason(dn);

		CU_ASSERT_FALSE(dn->pass);
		CU_ASSERT_STRING_EQUAL(why, "no column in common besides time");
	}
	/* Numbers in one, text in the other: a failure. */
	{
		g_autoptr(cs_csv_trace) c = parse("time_s,vbus_V\n0,on\n1,off\n");
		g_autoptr(cs_diff) dk = diff(c, b, NULL, false);

		CU_ASSERT_FALSE(dk->pass);
		CU_ASSERT_TRUE(col(dk, "vbus_V")->kind_mismatch);
	}
}

/* A power meter capture (Time(s), 0.5 s rows) against a reference sampled every 1 s
 * with another time column name and an extra column. */
static void test_power_meter_diff(void)
{
	g_autoptr(cs_csv_trace) a = parse(meter_csv);
	g_autoptr(cs_csv_trace) b = parse("time,Voltage(V),Current(A),Power(W)\n"
					  "0,5.1,0,0\n1,5.0,1.0,5\n");
	g_autoptr(cs_tolerances) t = tols("Voltage(V)=abs:25mV", "Current(A)=abs:30mA", NULL);
	g_autoptr(cs_diff) d = NULL;
	const struct cs_diff_col *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	d = diff(a, b, t, false);
	/* Voltage: B at 0, 0.5, 1 = 5.1, 5.05, 5.0; |A-B| = 0.02, 0.03, 0.02. */
	c = col(d, "Voltage(V)");
	CU_ASSERT_FALSE(c->pass);
	CU_ASSERT_EQUAL(c->n_failed, 1);
	CU_ASSERT_EQUAL(c->t, 0.5);
	CS_ASSERT_NEAR(c->ref, 5.05, 1e-12);
	CS_ASSERT_NEAR(c->dev, 0.03, 1e-12);
	/* Current: B = 0, 0.5, 1.0; |A-B| = 0, 0.012, 0.024: within 30 mA. */
	c = col(d, "Current(A)");
	CU_ASSERT_TRUE(c->pass);
	CS_ASSERT_NEAR(c->dev, 0.024, 1e-12);
	CU_ASSERT_EQUAL(c->t, 1);
	CU_ASSERT_EQUAL(col(d, "Mode, proto")->presence, CS_DIFF_ONLY_CAND);
	/* Renaming pairs columns named differently; clashes and unknown names fail. */
	{
		GError *err = NULL;

		CU_ASSERT_TRUE(cs_csv_rename_col(a, "Mode, proto", "mode", &err));
		CU_ASSERT_EQUAL(cs_csv_find_col(a, "mode"), 3);
		CU_ASSERT_FALSE(cs_csv_rename_col(a, "nope", "x", &err));
		CU_ASSERT(err && strstr(err->message, "\"nope\""));
		g_clear_error(&err);
		CU_ASSERT_FALSE(cs_csv_rename_col(a, "mode", "Voltage(V)", &err));
		CU_ASSERT_PTR_NOT_NULL(err);
		g_clear_error(&err);
	}
	CU_ASSERT_EQUAL(col(d, "Power(W)")->presence, CS_DIFF_ONLY_REF);
	CU_ASSERT_EQUAL(d->n_compared, 2);
	{
		g_autofree char *s = cs_diff_col_describe(col(d, "Voltage(V)"));

		CU_ASSERT_STRING_EQUAL(s, "Voltage(V) at t = 0.5 s (line 3): A 5.08 V, B 5.05 V, |A-B| 30 mV > allowed 25 mV (1 of 3 rows outside)");
	}
}

static void test_format(void)
{
	static const struct { const char *col; double v; int digits; const char *want; } f[] = {
		{ "vbus_V", 0.0123, 3, "12.3 mV" },
		{ "ibus_A", 4.5e-6, 3, "4.5 uA" },
		{ "vbus_V", 4.8123, 10, "4.8123 V" },
		{ "vbus_V", 0, 3, "0 V" },
		{ "_s", 7200, 0, "7200 s" },
		{ "_s", 4401.278811775, 0, "4401.278811775 s" },
		{ "soc", 0.25, 0, "0.25" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(f); i++) {
		g_autofree char *s = cs_csv_fmt_value(f[i].col, f[i].v, f[i].digits);

		if (strcmp(s, f[i].want) != 0)
			fprintf(stderr, "\n  got \"%s\", want \"%s\"\n", s, f[i].want);
		CU_ASSERT_STRING_EQUAL(s, f[i].want);
	}
}

CU_TestInfo diff_tests[] = {
	{ "read a chargesim trace", test_read_chargesim },
	{ "read a power meter capture", test_read_power_meter },
	{ "time column names", test_time_column_names },
	{ "semicolon and tab delimiters", test_delimiters },
	{ "numeric and label columns", test_columns_kinds },
	{ "bad input names line and column", test_bad_input },
	{ "files: missing, directory, size cap", test_files },
	{ "tables: no time column, text cells", test_table },
	{ "text columns, fixed delimiter", test_text_columns_and_delim },
	{ "header row alone", test_read_header },
	{ "mangled input never crashes", test_mangled_input },
	{ "tolerance parser", test_tolerance_parse },
	{ "tolerance parser errors", test_tolerance_parse_errors },
	{ "exact when no tolerance", test_exact_when_no_tolerance },
	{ "abs only", test_abs_only },
	{ "rel only, worst by share of tolerance", test_rel_only },
	{ "abs + rel add up", test_abs_plus_rel },
	{ "star default and override", test_star_default },
	{ "linear interpolation and time ranges", test_interpolation },
	{ "duplicated event times", test_duplicated_times },
	{ "label alignment", test_label_alignment },
	{ "--time-shift: events that moved", test_time_shift },
	{ "extra, missing and mismatched columns", test_extra_columns },
	{ "power meter against a reference", test_power_meter_diff },
	{ "value formatting", test_format },
	CU_TEST_INFO_NULL,
};
