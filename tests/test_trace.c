// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_trace.c - the trace writer's number formatters. trace_fmt_g9(), for the
 * VCD, must write exactly the bytes of snprintf(buf, 40, "%.9g", v), which is the
 * reference here (glibc's printf converts the exact binary value, ties to even);
 * trace_fmt_fixed() and units_time_text(), for the CSV, the integers printf writes for
 * the rounded value, with the point put in and trailing zeros cut.
 *
 * About six million doubles from a fixed seed: random bit patterns over the whole
 * range (subnormals, infinities and NaNs among them), random magnitudes in the range
 * the formatter computes itself, exact decimal ties at the ninth digit and their
 * neighbours one ulp away, values that round up to the next power of ten, every power
 * of ten and its neighbours, and the signed zeros.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <CUnit/CUnit.h>
#include "output/trace.h"
#include "sim/units.h"
#include "tests/suites.h"

#define SEED 20261203u

struct g9_stats {
	uint64_t checked;
	uint64_t failed;
};

/* Compare one value; print the first few mismatches. */
static void g_check(struct g9_stats *st, double v, int prec)
{
	char want[48], got[48];
	int nw = snprintf(want, 40, "%.*g", prec, v);
	int ng;

	memset(got, 0x55, sizeof(got));
	ng = prec == 9 ? trace_fmt_g9(got, v) : trace_fmt_g(got, v, prec);
	st->checked++;
	if (ng != nw || strcmp(got, want) != 0) {
		if (st->failed++ < 5)
			fprintf(stderr, "\n  %s(%a) at %d digits = \"%s\" (%d), printf \"%s\" (%d)\n",
				prec == 9 ? "trace_fmt_g9" : "trace_fmt_g", v, prec, got, ng,
				want, nw);
	}
}

static void g9_check(struct g9_stats *st, double v)
{
	g_check(st, v, 9);
}

/* v, -v and their neighbours one ulp either way. */
static void g9_check_around(struct g9_stats *st, double v)
{
	g9_check(st, v);
	g9_check(st, -v);
	g9_check(st, nextafter(v, INFINITY));
	g9_check(st, nextafter(v, -INFINITY));
}

static double bits_to_double(uint64_t bits)
{
	double v;

	memcpy(&v, &bits, sizeof(v));
	return v;
}

static uint64_t rand64(GRand *r)
{
	return (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);
}

/*
 * A value exactly half-way between two numbers of `digits` significant digits: an odd
 * N / 2^j (1 <= j < j_end) has exactly j decimals, the last a 5, and with digits - j
 * integer digits (or leading zeros making it digits + 1 significant digits) its
 * digit after the last kept one is that 5. False for a draw that gives no such value.
 */
static bool random_tie(GRand *r, int digits, int j_end, double *v)
{
	int j = g_rand_int_range(r, 1, j_end);
	int x = digits - j;            /* decimal exponent of the value */
	double lo = pow(10.0, x) * ldexp(1.0, j), hi = lo * 10.0;
	double n = floor(lo + g_rand_double(r) * (hi - lo));

	if (fmod(n, 2.0) == 0.0)
		n += 1.0;
	if (n >= hi || n >= 9007199254740992.0)
		return false;
	*v = ldexp(n, -j);
	return true;
}

static void test_g9_fixed_cases(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		/* Hand-written expectations (C11 7.21.6.1 %g: style e when the exponent is
		 * below -4 or at least the precision, trailing zeros removed). */
		{ 0.0, "0" },
		{ -0.0, "-0" },
		{ 1.0, "1" },
		{ 5.1, "5.1" },
		{ 4.35, "4.35" },
		{ -2.5, "-2.5" },
		{ 0.0001, "0.0001" },
		{ 0.00001, "1e-05" },
		{ 123456789.0, "123456789" },
		{ 1234567890.0, "1.23456789e+09" },
		{ 123456789.5, "123456790" },     /* a tie: to even */
		{ 123456788.5, "123456788" },     /* a tie: to even */
		{ 999999999.5, "1e+09" },         /* rounds up to the next power of ten */
		{ 1e100, "1e+100" },
		{ 1.5e-300, "1.5e-300" },
		{ 3.3, "3.3" },
		{ 0.1, "0.1" },
		{ 1.0 / 3.0, "0.333333333" },
		{ 2.0 / 3.0, "0.666666667" },
	};
	char buf[48];

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		int n = trace_fmt_g9(buf, cases[i].v);

		CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
		CU_ASSERT_EQUAL(n, (int)strlen(cases[i].want));
	}
	CU_ASSERT_EQUAL(trace_fmt_g9(buf, INFINITY), 3);
	CU_ASSERT_STRING_EQUAL(buf, "inf");
	trace_fmt_g9(buf, -INFINITY);
	CU_ASSERT_STRING_EQUAL(buf, "-inf");
}

static void test_g9_vs_printf(void)
{
	GRand *r = g_rand_new_with_seed(SEED);
	struct g9_stats st = { 0, 0 };
	uint64_t ties = 0;

	/* Any bit pattern: every exponent, subnormals, NaNs, infinities. */
	for (int i = 0; i < 1500000; i++)
		g9_check(&st, bits_to_double(rand64(r)));
	/* Subnormals and the smallest normals. */
	for (int i = 0; i < 100000; i++)
		g9_check(&st, bits_to_double(rand64(r) & ((1ull << 53) - 1)));
	/* Random magnitudes from 1e-30 to 1e40: around the formatter's own range. */
	for (int i = 0; i < 1500000; i++) {
		double v = (1.0 + g_rand_double(r) * 9.0) * pow(10.0, g_rand_int_range(r, -30, 41));

		g9_check(&st, g_rand_boolean(r) ? v : -v);
	}
	/* Magnitudes a simulation produces: volts, amps, ohms, seconds, with few digits. */
	for (int i = 0; i < 500000; i++) {
		int decimals = g_rand_int_range(r, 0, 10);
		double v = (double)g_rand_int_range(r, -6000000, 6000000) / pow(10.0, decimals);

		g9_check(&st, v);
	}
	/*
	 * Exact ties at the ninth significant digit: N / 2^j with N odd has exactly j
	 * decimals, the last a 5; with 10 - j integer digits (or leading zeros making it
	 * ten significant digits) the tenth significant digit is that 5.
	 */
	for (int i = 0; i < 300000; i++) {
		double v;

		if (!random_tie(r, 9, 14, &v))
			continue;
		g9_check_around(&st, v);
		ties++;
	}
	/* Integer ties: ten digits ending in 5, times a power of ten, below 2^53. */
	for (int i = 0; i < 100000; i++) {
		double v = (double)(g_rand_int_range(r, 100000000, 999999999) * 10LL + 5) *
			   pow(10.0, g_rand_int_range(r, 0, 6));

		g9_check_around(&st, v);
		ties++;
	}
	/* Just below a power of ten: nine nines and more round up to the next one. */
	for (int k = -30; k <= 40; k++) {
		double p = pow(10.0, k);

		for (int d = 1; d < 2000; d++) {
			g9_check(&st, p * (1.0 - d * 1e-12));
			g9_check(&st, p * (1.0 - 5e-10) + p * (d - 1000) * 1e-19);
		}
	}
	/* Every power of ten a double can approach, with neighbours. */
	for (int k = -330; k <= 310; k++) {
		double p = pow(10.0, k);

		g9_check_around(&st, p);
		g9_check_around(&st, nextafter(nextafter(p, 0.0), 0.0));
	}
	g9_check(&st, 0.0);
	g9_check(&st, -0.0);
	g9_check(&st, DBL_MAX);
	g9_check(&st, DBL_MIN);
	g9_check(&st, DBL_TRUE_MIN);

	CU_ASSERT(st.checked > 5000000);
	CU_ASSERT(ties > 300000);
	CU_ASSERT_EQUAL(st.failed, 0);
	g_rand_free(r);
}

/*
 * The writer makes decimal digits eight at a time with two multiply-and-shift
 * quotients (output/trace.c, digits8): n * 10486 >> 20 for n / 100 with n < 10^4 and
 * m * 103 >> 10 for m / 10 with m < 100. Both identities over their whole ranges.
 */
static void test_digit_quotients(void)
{
	unsigned bad = 0;

	for (uint32_t n = 0; n < 10000; n++)
		bad += (n * 10486u >> 20) != n / 100;
	for (uint32_t m = 0; m < 100; m++)
		bad += (m * 103u >> 10) != m / 10;
	CU_ASSERT_EQUAL(bad, 0);
}

/* Cut trailing zeros of a fraction written after a point, and the point if bare. */
static void cut_zeros(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '0')
		s[--n] = '\0';
	if (n && s[n - 1] == '.')
		s[--n] = '\0';
}

/*
 * trace_fmt_fixed's contract from printf's integer conversions: the value times
 * 10^decimals rounded half away from zero (llround), written as an integer part and
 * a zero-padded fraction, trailing zeros cut; zero is "0".
 */
static bool fixed_check(double v, int decimals)
{
	static const long long p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
					  100000000, 1000000000 };
	char want[64], got[48];
	long long x = llround(v * (double)p10[decimals]);
	unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
	int ng;

	if (x == 0) {
		strcpy(want, "0");
	} else {
		int n = snprintf(want, sizeof(want), "%s%llu.%0*llu", x < 0 ? "-" : "",
				 u / (unsigned long long)p10[decimals], decimals,
				 u % (unsigned long long)p10[decimals]);

		g_assert(n > 0 && n < (int)sizeof(want));
		cut_zeros(want);
	}
	memset(got, 0x55, sizeof(got));
	ng = trace_fmt_fixed(got, v, decimals);
	if (ng != (int)strlen(want) || strcmp(got, want) != 0) {
		fprintf(stderr, "\n  trace_fmt_fixed(%.17g, %d) = \"%s\" (%d), want \"%s\"\n", v,
			decimals, got, ng, want);
		return false;
	}
	return true;
}

/* units_time_text's contract from printf: seconds, then nine decimals with trailing
 * zeros cut (want holds 64 bytes). */
static void time_want(char *want, int64_t t)
{
	uint64_t u = t < 0 ? 0ull - (uint64_t)t : (uint64_t)t;

	snprintf(want, 64, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
		 t < 0 ? "-" : "", u / 1000000000u, u % 1000000000u);
	cut_zeros(want);
}

static bool time_check(int64_t t)
{
	char want[64], got[48];
	int ng;

	time_want(want, t);
	memset(got, 0x55, sizeof(got));
	ng = units_time_text(got, t);
	if (ng != (int)strlen(want) || strcmp(got, want) != 0) {
		fprintf(stderr, "\n  units_time_text(%" G_GINT64_FORMAT ") = \"%s\" (%d), want \"%s\"\n",
			t, got, ng, want);
		return false;
	}
	return true;
}

static void test_fixed_and_time_vs_printf(void)
{
	GRand *r = g_rand_new_with_seed(SEED + 1);
	unsigned failed = 0, checked = 0;

	/* Every decimal count, magnitudes from 1e-12 up to what fits (9e18 units of the
	 * last decimal), both signs; and the values a trace holds (volts, amps, SOC). */
	for (int i = 0; i < 1000000; i++) {
		int d = g_rand_int_range(r, 0, 10);
		double mag = pow(10.0, g_rand_double_range(r, -12.0, 18.9 - d));
		double v = g_rand_boolean(r) ? mag : -mag;

		failed += !fixed_check(v, d);
		failed += !fixed_check((double)g_rand_int_range(r, -6000000, 6000000) * 1e-6, 6);
		checked += 2;
	}
	/* Halves at the last decimal (llround's ties) and whole numbers. */
	for (int i = 0; i < 100000; i++) {
		int d = g_rand_int_range(r, 0, 7);
		double v = ((double)g_rand_int_range(r, -2000000000, 2000000000) + 0.5) /
			   pow(10.0, d);

		failed += !fixed_check(v, d);
		failed += !fixed_check((double)g_rand_int_range(r, -2000000000, 2000000000), d);
		checked += 2;
	}
	/* Times: any 64-bit value, and nanosecond counts of runs up to years. */
	for (int i = 0; i < 500000; i++) {
		failed += !time_check((int64_t)rand64(r));
		failed += !time_check((int64_t)(rand64(r) % 100000000000000000ull));
		failed += !time_check((int64_t)g_rand_int_range(r, 0, 2000000000));
		checked += 3;
	}
	failed += !time_check(INT64_MAX) + !time_check(INT64_MIN) + !time_check(0);
	CU_ASSERT(checked > 3000000);
	CU_ASSERT_EQUAL(failed, 0);
	g_rand_free(r);
}

/*
 * A row's time in both files, against printf's integers: the CSV's first field
 * "S.fffffffff" with trailing zeros cut, the VCD's stamp "#N" (nanoseconds). The rows
 * go through trace_row(), which splits the time once for both (and writes a negative
 * one as units_time_text() does); times from 0 and under a second up to 10^17 ns, with
 * runs of zeros, each row a new value so that the VCD stamps it.
 */
static void test_row_times_vs_printf(void)
{
	static const struct trace_col col[] = { { "x", "", 3, NULL, 0 } };
	GRand *r = g_rand_new_with_seed(SEED + 7);
	g_autofree char *dir = g_dir_make_tmp("cs-trace-XXXXXX", NULL);
	g_autofree char *csv = g_build_filename(dir, "trace.csv", NULL);
	g_autofree char *vcd = g_build_filename(dir, "trace.vcd", NULL);
	g_autofree char *csv_text = NULL, *vcd_text = NULL;
	g_auto(GStrv) csv_lines = NULL, vcd_lines = NULL;
	GArray *times = g_array_new(FALSE, FALSE, sizeof(int64_t));
	struct trace *tr = trace_new(col, 1);
	int64_t t = -1500000000;
	unsigned failed = 0, stamps = 0;
	size_t k = 0;

	CU_ASSERT_FATAL(dir && trace_open(tr, csv, vcd, NULL));
	for (int i = 0; i < 20000; i++) {
		double v = i;

		if (i == 1)
			t = 0;
		else if (i > 1)	/* steps of every size, many of them round */
			t += (int64_t)(pow(10.0, g_rand_int_range(r, 0, 13)) *
				       g_rand_int_range(r, 1, 10));
		if (i == 19999)
			t = 100000000000000001;
		trace_row(tr, t, &v);
		g_array_append_val(times, t);
	}
	CU_ASSERT_FATAL(trace_close(tr, NULL));
	trace_free(tr);
	CU_ASSERT_FATAL(g_file_get_contents(csv, &csv_text, NULL, NULL));
	CU_ASSERT_FATAL(g_file_get_contents(vcd, &vcd_text, NULL, NULL));
	csv_lines = g_strsplit(csv_text, "\n", -1);
	vcd_lines = g_strsplit(vcd_text, "\n", -1);
	for (guint i = 0; i < times->len; i++) {
		int64_t ti = g_array_index(times, int64_t, i);
		char want[64];
		const char *line = csv_lines[i + 1];

		time_want(want, ti);
		if (!line || strncmp(line, want, strlen(want)) != 0 || line[strlen(want)] != ',') {
			if (failed++ < 5)
				fprintf(stderr, "\n  CSV row %u: \"%s\", want time \"%s\"\n", i,
					line ? line : "(none)", want);
		}
		snprintf(want, sizeof(want), "#%" G_GINT64_FORMAT, ti);
		while (vcd_lines[k] && vcd_lines[k][0] != '#')
			k++;
		if (!vcd_lines[k] || strcmp(vcd_lines[k], want) != 0) {
			if (failed++ < 5)
				fprintf(stderr, "\n  VCD stamp %u: \"%s\", want \"%s\"\n", i,
					vcd_lines[k] ? vcd_lines[k] : "(none)", want);
		} else {
			stamps++;
			k++;
		}
	}
	CU_ASSERT_EQUAL(failed, 0);
	CU_ASSERT_EQUAL(stamps, times->len);
	g_array_free(times, TRUE);
	g_unlink(csv);
	g_unlink(vcd);
	g_rmdir(dir);
	g_rand_free(r);
}

static void test_g_vs_printf(void)
{
	GRand *r = g_rand_new_with_seed(SEED + 1);
	struct g9_stats st = { 0, 0 };
	uint64_t ties = 0;

	for (int prec = 1; prec <= 8; prec++) {
		for (int i = 0; i < 100000; i++)
			g_check(&st, bits_to_double(rand64(r)), prec);
		for (int i = 0; i < 250000; i++) {
			double v = (1.0 + g_rand_double(r) * 9.0) *
				   pow(10.0, g_rand_int_range(r, -7, 11));

			g_check(&st, g_rand_boolean(r) ? v : -v, prec);
		}
		for (int i = 0; i < 100000; i++) {
			int decimals = g_rand_int_range(r, 0, 10);

			g_check(&st, (double)g_rand_int_range(r, -6000000, 6000000) /
					     pow(10.0, decimals), prec);
		}
		for (int i = 0; i < 50000; i++) {
			double v;

			if (!random_tie(r, prec, 12, &v))
				continue;
			g_check(&st, v, prec);
			g_check(&st, -v, prec);
			g_check(&st, nextafter(v, INFINITY), prec);
			g_check(&st, nextafter(v, -INFINITY), prec);
			ties++;
		}
		for (int k = -8; k <= 10; k++) {
			double p = pow(10.0, k);

			for (int d = 1; d < 200; d++) {
				g_check(&st, p * (1.0 - d * 1e-12), prec);
				g_check(&st, p * (1.0 - 0.5 * pow(10.0, -prec)) + p * (d - 100) * 1e-17,
					prec);
			}
			g_check(&st, p, prec);
		}
		g_check(&st, 0.0, prec);
		g_check(&st, -0.0, prec);
		g_check(&st, NAN, prec);
		g_check(&st, -INFINITY, prec);
	}
	CU_ASSERT(st.checked > 4000000);
	CU_ASSERT(ties > 250000);
	CU_ASSERT_EQUAL(st.failed, 0);
	g_rand_free(r);
}

CU_TestInfo trace_tests[] = {
	{ "digits eight at a time: the two quotient identities", test_digit_quotients },
	{ "trace_fmt_g == printf %.*g, precisions 1 to 8, 4 million doubles", test_g_vs_printf },
	{ "trace_fmt_fixed and units_time_text == printf's integers, 3 million values",
	  test_fixed_and_time_vs_printf },
	{ "row times in trace.csv and trace.vcd == printf's integers, 20000 rows",
	  test_row_times_vs_printf },
	{ "trace_fmt_g9: hand-written cases", test_g9_fixed_cases },
	{ "trace_fmt_g9 == printf %.9g on 6 million doubles", test_g9_vs_printf },
	CU_TEST_INFO_NULL,
};
