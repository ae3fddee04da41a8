// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_units.c - the unit parser (sim/units.c) against hand-computed values.
 *
 * Expected numbers are written out by hand from the unit definitions (1 mA = 1e-3 A,
 * 1 h = 3600 s, 3600 J = 1 Wh, 0 degC = 273.15 K). Decimal results are compared
 * exactly: the parser promises the double nearest the decimal value, which is also
 * what the compiler makes of the literal. Only kelvin and joule, which involve a
 * non-decimal step, get a tolerance.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "sim/units.h"
#include "tests/suites.h"

/* The helpers return false after printing what went wrong; CU_ASSERT around them
 * records the line and the call itself, so a failure names the input. */

static bool parses_near(const char *text, enum unit_dim dim, double want, double tol)
{
	GError *err = NULL;
	double v = NAN;

	if (!units_parse(text, dim, &v, &err)) {
		fprintf(stderr, "\n  \"%s\" as %s: %s\n", text, units_dim_name(dim),
			err ? err->message : "failed without an error");
		g_clear_error(&err);
		return false;
	}
	if (err) {
		fprintf(stderr, "\n  \"%s\": success with an error set\n", text);
		g_clear_error(&err);
		return false;
	}
	if (!(fabs(v - want) <= tol)) {
		fprintf(stderr, "\n  \"%s\" as %s: got %.17g, want %.17g\n", text,
			units_dim_name(dim), v, want);
		return false;
	}
	return true;
}

#define PARSES(text, dim, want)          CU_ASSERT(parses_near(text, dim, want, 0))
#define PARSES_NEAR(text, dim, want, tol) CU_ASSERT(parses_near(text, dim, want, tol))

/* Failure with the given code, an untouched output and a message in the standard
 * 'found "<text>"... expected ...' form. */
static bool fails(const char *text, enum unit_dim dim, int code)
{
	GError *err = NULL;
	double v = 12345.0;
	bool ok;

	ok = !units_parse(text, dim, &v, &err);
	if (!ok)
		fprintf(stderr, "\n  \"%s\" as %s: accepted as %.17g\n", text,
			units_dim_name(dim), v);
	else if (!err || err->domain != CS_UNITS_ERROR || err->code != code) {
		fprintf(stderr, "\n  \"%s\" as %s: error %d (%s), want %d\n", text,
			units_dim_name(dim), err ? err->code : -1,
			err ? err->message : "none set", code);
		ok = false;
	} else if (v != 12345.0 || !g_str_has_prefix(err->message, "found \"") ||
		   !strstr(err->message, ", expected ")) {
		fprintf(stderr, "\n  \"%s\": output %.17g, message %s\n", text, v,
			err->message);
		ok = false;
	}
	g_clear_error(&err);
	return ok;
}

#define FAILS(text, dim, code) CU_ASSERT(fails(text, dim, code))

static bool time_is(const char *text, sim_time_t want)
{
	GError *err = NULL;
	sim_time_t t = -42;

	if (!units_parse_time(text, &t, &err)) {
		fprintf(stderr, "\n  time \"%s\": %s\n", text,
			err ? err->message : "failed without an error");
		g_clear_error(&err);
		return false;
	}
	if (t != want) {
		fprintf(stderr, "\n  time \"%s\": got %" G_GINT64_FORMAT " ns, want %"
			G_GINT64_FORMAT " ns\n", text, t, want);
		return false;
	}
	return true;
}

static bool time_fails(const char *text, int code)
{
	GError *err = NULL;
	sim_time_t t = -42;
	bool ok = !units_parse_time(text, &t, &err);

	if (!ok)
		fprintf(stderr, "\n  time \"%s\": accepted as %" G_GINT64_FORMAT " ns\n",
			text, t);
	else if (!err || err->domain != CS_UNITS_ERROR || err->code != code || t != -42) {
		fprintf(stderr, "\n  time \"%s\": error %d (%s), want %d\n", text,
			err ? err->code : -1, err ? err->message : "none set", code);
		ok = false;
	}
	g_clear_error(&err);
	return ok;
}

#define TIME_IS(text, ns)       CU_ASSERT(time_is(text, ns))
#define TIME_FAILS(text, code)  CU_ASSERT(time_fails(text, code))

/* The message for text as dim, exactly (substr false) or as a substring. */
static bool message_matches(const char *text, enum unit_dim dim, const char *want,
			    bool substr)
{
	GError *err = NULL;
	double v;
	bool ok;

	if (units_parse(text, dim, &v, &err)) {
		fprintf(stderr, "\n  \"%s\": accepted, expected message %s\n", text, want);
		return false;
	}
	ok = err && (substr ? strstr(err->message, want) != NULL
			    : strcmp(err->message, want) == 0);
	if (!ok)
		fprintf(stderr, "\n  \"%s\": message\n    %s\n  want%s\n    %s\n", text,
			err ? err->message : "(none)", substr ? " it to contain" : "", want);
	g_clear_error(&err);
	return ok;
}

#define MESSAGE_IS(text, dim, want)  CU_ASSERT(message_matches(text, dim, want, false))
#define MESSAGE_HAS(text, dim, want) CU_ASSERT(message_matches(text, dim, want, true))

static void test_voltage(void)
{
	PARSES("4.75 V", UNIT_VOLT, 4.75);
	PARSES("4.2V", UNIT_VOLT, 4.2);
	PARSES("  5 V  ", UNIT_VOLT, 5.0);
	PARSES("\t5\tV\n", UNIT_VOLT, 5.0);
	PARSES("+5 V", UNIT_VOLT, 5.0);
	PARSES("-12 V", UNIT_VOLT, -12.0);
	PARSES("4200 mV", UNIT_VOLT, 4.2);
	PARSES("0.02 kV", UNIT_VOLT, 20.0);
	PARSES("5", UNIT_VOLT, 5.0);
	PARSES(".5 V", UNIT_VOLT, 0.5);
	PARSES("5. V", UNIT_VOLT, 5.0);
	PARSES("0 V", UNIT_VOLT, 0.0);
	PARSES("-0 V", UNIT_VOLT, 0.0);
}

/* "-0" comes back as +0, so that printing a parsed value never shows "-0". */
static void test_negative_zero(void)
{
	double v = 1.0;

	CU_ASSERT(units_parse("-0 V", UNIT_VOLT, &v, NULL) && v == 0.0 && !signbit(v));
	CU_ASSERT(units_parse("-0.0", UNIT_NONE, &v, NULL) && v == 0.0 && !signbit(v));
	CU_ASSERT(units_parse("-0 %", UNIT_FRACTION, &v, NULL) && v == 0.0 && !signbit(v));
}

static void test_current(void)
{
	PARSES("500 mA", UNIT_AMP, 0.5);
	PARSES("500mA", UNIT_AMP, 0.5);
	PARSES("1e-3 A", UNIT_AMP, 0.001);
	PARSES("1E-3 A", UNIT_AMP, 0.001);
	PARSES("2.5e+2 mA", UNIT_AMP, 0.25);
	PARSES("1e3 mA", UNIT_AMP, 1.0);
	PARSES("-0.5 A", UNIT_AMP, -0.5);
	PARSES("0.5", UNIT_AMP, 0.5);
	PARSES("3 A", UNIT_AMP, 3.0);
	PARSES("100 uA", UNIT_AMP, 0.0001);
	PARSES("1.5 kA", UNIT_AMP, 1500.0);
}

static void test_resistance(void)
{
	PARSES("30 mohm", UNIT_OHM, 0.03);
	PARSES("30 mOhm", UNIT_OHM, 0.03);
	PARSES("30 m\xe2\x84\xa6", UNIT_OHM, 0.03);	/* U+2126 OHM SIGN */
	PARSES("30 m\xce\xa9", UNIT_OHM, 0.03);		/* U+03A9 CAPITAL OMEGA */
	PARSES("47 ohm", UNIT_OHM, 47.0);
	PARSES("47 \xe2\x84\xa6", UNIT_OHM, 47.0);
	PARSES("47\xce\xa9", UNIT_OHM, 47.0);
	PARSES("1.5 kohm", UNIT_OHM, 1500.0);
	PARSES("10 k\xe2\x84\xa6", UNIT_OHM, 10000.0);
	PARSES("2 Mohm", UNIT_OHM, 2000000.0);
	PARSES("0.15", UNIT_OHM, 0.15);
	/* Only ohm and the two omegas: "R" and plurals are not units here. */
	FAILS("10 R", UNIT_OHM, CS_UNITS_ERROR_SYNTAX);
	FAILS("10 ohms", UNIT_OHM, CS_UNITS_ERROR_SYNTAX);
}

static void test_time_seconds(void)
{
	PARSES("100 ms", UNIT_SECOND, 0.1);
	PARSES("1.5 s", UNIT_SECOND, 1.5);
	PARSES("2 h", UNIT_SECOND, 7200.0);
	PARSES("90 min", UNIT_SECOND, 5400.0);
	PARSES("90min", UNIT_SECOND, 5400.0);
	PARSES("10 us", UNIT_SECOND, 0.00001);
	PARSES("10 \xc2\xb5s", UNIT_SECOND, 0.00001);	/* U+00B5 */
	PARSES("10 \xce\xbcs", UNIT_SECOND, 0.00001);	/* U+03BC */
	PARSES("1 ns", UNIT_SECOND, 0.000000001);
	PARSES("2 ks", UNIT_SECOND, 2000.0);
	PARSES("30", UNIT_SECOND, 30.0);
	PARSES("0.25 h", UNIT_SECOND, 900.0);
	PARSES("14d", UNIT_SECOND, 1209600.0);   /* 14 x 86400 s */
	PARSES("1.5 d", UNIT_SECOND, 129600.0);
}

static void test_time_ns(void)
{
	TIME_IS("0.1 s", 100000000);
	TIME_IS("1.5 s", 1500000000);
	TIME_IS("2 h", 7200000000000);
	TIME_IS("0.1 h", 360000000000);
	TIME_IS("90 min", 5400000000000);
	TIME_IS("1.5 min", 90000000000);
	TIME_IS("366 d", 31622400000000000);     /* the longest duration a scenario takes */
	TIME_IS("100 ms", 100000000);
	TIME_IS("10 us", 10000);
	TIME_IS("10 \xc2\xb5s", 10000);
	TIME_IS("10 \xce\xbcs", 10000);
	TIME_IS("1 ns", 1);
	TIME_IS("1 ks", 1000000000000);
	TIME_IS("1 Ms", 1000000000000000);
	TIME_IS("30", 30000000000);		/* bare number: seconds */
	TIME_IS("0.000000001", 1);
	TIME_IS("1e-9 s", 1);
	TIME_IS("1.000000001 s", 1000000001);
	TIME_IS("86400.000000001 s", 86400000000001);
	TIME_IS("-1.5 s", -1500000000);
	TIME_IS("-0 s", 0);
	TIME_IS("0 h", 0);
	/* Whole nanoseconds only: a fraction of a ns, or a value other than 0 that would
	 * round to 0 ns, is refused (it was rounded, moving an event or a step) */
	TIME_FAILS("0.5 ns", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("-0.5 ns", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("0.4 ns", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("1.49 ns", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("2.5 ns", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("1e-10 s", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("1e-30 s", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("1e-310 s", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("0.00000000000000000000000000001 s", CS_UNITS_ERROR_RANGE);
	TIME_IS("1.0000000 ns", 1);
	TIME_IS("1.5 us", 1500);
	/* Digits below 1e-6 ns are a conversion's noise: the whole ns it is next to */
	TIME_IS("0.10000000000000000000001 s", 100000000);
	TIME_IS("1.00000000000000000000000000001 h", 3600000000000);
	TIME_IS("1.0000000000000001 ns", 1);
	TIME_IS("0.9999999999999999 ns", 1);
	/* Near the 9.2e18 ns limit (about 292 years). */
	TIME_IS("9.2e18 ns", 9200000000000000000);
	TIME_IS("-9.2e18 ns", -9200000000000000000);
	TIME_IS("2555555 h", 9199998000000000000);
	TIME_FAILS("9.3e18 ns", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("9200000000000000001 ns", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("2556000 h", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("-3000000 h", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("1e400 s", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("1e19 s", CS_UNITS_ERROR_RANGE);
	TIME_FAILS("92000000000000000000000000.00000000000001 ns", CS_UNITS_ERROR_RANGE);
	/* The grammar is units_parse's. */
	TIME_FAILS("5 V", CS_UNITS_ERROR_DIMENSION);
	TIME_FAILS("5 m", CS_UNITS_ERROR_DIMENSION);
	TIME_FAILS("5 kmin", CS_UNITS_ERROR_SYNTAX);
	TIME_FAILS("2 md", CS_UNITS_ERROR_SYNTAX);   /* a day takes no prefix either */
	TIME_FAILS("5 mh", CS_UNITS_ERROR_SYNTAX);
	TIME_FAILS("nan s", CS_UNITS_ERROR_SYNTAX);
	TIME_FAILS("", CS_UNITS_ERROR_SYNTAX);
	TIME_FAILS(NULL, CS_UNITS_ERROR_SYNTAX);
	TIME_FAILS("5 s s", CS_UNITS_ERROR_SYNTAX);
}

static void test_capacitance(void)
{
	PARSES("703 F", UNIT_FARAD, 703.0);
	PARSES("100 uF", UNIT_FARAD, 0.0001);
	PARSES("2.2 mF", UNIT_FARAD, 0.0022);
	PARSES("47 nF", UNIT_FARAD, 0.000000047);
	PARSES("1", UNIT_FARAD, 1.0);
}

static void test_charge(void)
{
	PARSES("3000 mAh", UNIT_AH, 3.0);
	PARSES("2.5 Ah", UNIT_AH, 2.5);
	PARSES("500mAh", UNIT_AH, 0.5);
	PARSES("1.2 kAh", UNIT_AH, 1200.0);
	PARSES("3.4", UNIT_AH, 3.4);
	/* "mA" then "h" is not a spelling of mAh. */
	FAILS("3000 mA h", UNIT_AH, CS_UNITS_ERROR_SYNTAX);
	FAILS("3000 mA", UNIT_AH, CS_UNITS_ERROR_DIMENSION);
}

static void test_fraction(void)
{
	PARSES("95 %", UNIT_FRACTION, 0.95);
	PARSES("95%", UNIT_FRACTION, 0.95);
	PARSES("100 %", UNIT_FRACTION, 1.0);
	PARSES("0.5 %", UNIT_FRACTION, 0.005);
	PARSES("0.95", UNIT_FRACTION, 0.95);
	PARSES("1", UNIT_FRACTION, 1.0);
	FAILS("95 k%", UNIT_FRACTION, CS_UNITS_ERROR_SYNTAX);
	FAILS("95 m%", UNIT_FRACTION, CS_UNITS_ERROR_SYNTAX);
	FAILS("95 %%", UNIT_FRACTION, CS_UNITS_ERROR_SYNTAX);
}

static void test_temperature(void)
{
	PARSES("25 C", UNIT_CELSIUS, 25.0);
	PARSES("25C", UNIT_CELSIUS, 25.0);
	PARSES("25 \xc2\xb0" "C", UNIT_CELSIUS, 25.0);	/* U+00B0 DEGREE SIGN */
	PARSES("25 degC", UNIT_CELSIUS, 25.0);
	PARSES("-10 C", UNIT_CELSIUS, -10.0);
	PARSES("25", UNIT_CELSIUS, 25.0);
	/* Kelvin: 273.15 K is 0 degC; the subtraction is inexact in binary. */
	PARSES_NEAR("298.15 K", UNIT_CELSIUS, 25.0, 1e-9);
	PARSES_NEAR("0 K", UNIT_CELSIUS, -273.15, 1e-9);
	PARSES_NEAR("273.15K", UNIT_CELSIUS, 0.0, 1e-9);
	/* No prefixes on temperature units: "mC" is not a millidegree. */
	FAILS("25 mC", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	FAILS("25 kK", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	FAILS("25 mdegC", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	FAILS("25 m\xc2\xb0" "C", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	/* Case matters: "c" and "k" are not units. */
	FAILS("25 c", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	FAILS("25 k", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	/* Outside a temperature, "C" is still a temperature (not coulomb). */
	FAILS("25 C", UNIT_AH, CS_UNITS_ERROR_DIMENSION);
}

static void test_power(void)
{
	PARSES("2.5 W", UNIT_WATT, 2.5);
	PARSES("500 mW", UNIT_WATT, 0.5);
	PARSES("1.5 kW", UNIT_WATT, 1500.0);
	PARSES("100 uW", UNIT_WATT, 0.0001);
	PARSES("15", UNIT_WATT, 15.0);
}

static void test_length(void)
{
	PARSES("1 m", UNIT_METER, 1.0);
	PARSES("1m", UNIT_METER, 1.0);
	PARSES("5 mm", UNIT_METER, 0.005);
	PARSES("2 km", UNIT_METER, 2000.0);
	PARSES("10 um", UNIT_METER, 0.00001);
	PARSES("0.3", UNIT_METER, 0.3);
	/* "m" alone is the metre; with a second letter it is milli. */
	PARSES("5 ms", UNIT_SECOND, 0.005);
	PARSES("5 min", UNIT_SECOND, 300.0);
	PARSES("5 mA", UNIT_AMP, 0.005);
	PARSES("5 mohm", UNIT_OHM, 0.005);
	PARSES("5 mAh", UNIT_AH, 0.005);
	FAILS("5 m", UNIT_SECOND, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 ms", UNIT_METER, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 min", UNIT_METER, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 mmin", UNIT_SECOND, CS_UNITS_ERROR_SYNTAX);
}

static void test_energy(void)
{
	PARSES("5 Wh", UNIT_WH, 5.0);
	PARSES("100 mWh", UNIT_WH, 0.1);
	PARSES("1.2 kWh", UNIT_WH, 1200.0);
	PARSES("3600 J", UNIT_WH, 1.0);
	PARSES("36 kJ", UNIT_WH, 10.0);
	PARSES("7.2 MJ", UNIT_WH, 2000.0);
	PARSES_NEAR("1 J", UNIT_WH, 0.000277777777777777778, 1e-18);
	PARSES_NEAR("1 kJ", UNIT_WH, 0.277777777777777778, 1e-15);
	PARSES("18.5", UNIT_WH, 18.5);
	FAILS("5 W", UNIT_WH, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 Wh", UNIT_WATT, CS_UNITS_ERROR_DIMENSION);
}

static void test_plain_number(void)
{
	PARSES("2", UNIT_NONE, 2.0);
	PARSES("-3.5", UNIT_NONE, -3.5);
	PARSES("1e2", UNIT_NONE, 100.0);
	PARSES(" 24 ", UNIT_NONE, 24.0);
	FAILS("2 V", UNIT_NONE, CS_UNITS_ERROR_DIMENSION);
	FAILS("50 %", UNIT_NONE, CS_UNITS_ERROR_DIMENSION);
	FAILS("2 awg", UNIT_NONE, CS_UNITS_ERROR_SYNTAX);
}

/* Every prefix on one unit, with every spelling of micro. */
static void test_prefixes(void)
{
	PARSES("3 nV", UNIT_VOLT, 0.000000003);
	PARSES("3 uV", UNIT_VOLT, 0.000003);
	PARSES("3 \xc2\xb5V", UNIT_VOLT, 0.000003);	/* U+00B5 MICRO SIGN */
	PARSES("3 \xce\xbcV", UNIT_VOLT, 0.000003);	/* U+03BC GREEK MU */
	PARSES("3 mV", UNIT_VOLT, 0.003);
	PARSES("3 kV", UNIT_VOLT, 3000.0);
	PARSES("3 MV", UNIT_VOLT, 3000000.0);
	PARSES("10 \xc2\xb5" "A", UNIT_AMP, 0.00001);
	PARSES("10 \xce\xbc" "A", UNIT_AMP, 0.00001);
	PARSES("5 nA", UNIT_AMP, 0.000000005);
	PARSES("1 MA", UNIT_AMP, 1000000.0);
	/* Not prefixes: giga, pico, capital K for kilo, a doubled prefix. */
	FAILS("3 GV", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("3 pV", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("3 KV", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("3 mmV", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("3 kmV", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	/* No prefix on min, h, %, C, degree C, degC, K. */
	FAILS("5 kmin", UNIT_SECOND, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 kh", UNIT_SECOND, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 mh", UNIT_SECOND, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 u%", UNIT_FRACTION, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 kC", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 kdegC", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 mK", UNIT_CELSIUS, CS_UNITS_ERROR_SYNTAX);
	/* A prefix alone is not a unit. */
	FAILS("5 k", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 \xc2\xb5", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
}

static void test_bad_numbers(void)
{
	FAILS("NaN V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("nan", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("-nan", UNIT_NONE, CS_UNITS_ERROR_SYNTAX);
	FAILS("inf A", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("-inf A", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("+INF", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("Infinity", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("infinity s", UNIT_SECOND, CS_UNITS_ERROR_SYNTAX);
	FAILS("0x10 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("0x1p3", UNIT_NONE, CS_UNITS_ERROR_SYNTAX);
	FAILS("0X1P3 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("  ", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS(NULL, UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("k A", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("mA", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS(".", UNIT_NONE, CS_UNITS_ERROR_SYNTAX);
	FAILS("-", UNIT_NONE, CS_UNITS_ERROR_SYNTAX);
	FAILS(". V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("- 5 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("--5 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("+-5 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5e V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5e+ V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5e", UNIT_NONE, CS_UNITS_ERROR_SYNTAX);
	FAILS("1.2.3 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5,5 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 6 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("1 000 mA", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("5-3", UNIT_NONE, CS_UNITS_ERROR_SYNTAX);
}

static void test_bad_units(void)
{
	FAILS("5 Q", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 VV", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 V extra", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 V V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 V 3", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 V/s", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 mAA", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 v", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 a", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 sec", UNIT_SECOND, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 V\x01", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	FAILS("5 \xff", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	/* A wrong unit with junk after it is a syntax error, not a dimension one. */
	FAILS("5 V extra", UNIT_AMP, CS_UNITS_ERROR_SYNTAX);
}

static void test_dimension_errors(void)
{
	FAILS("5 V", UNIT_AMP, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 %", UNIT_VOLT, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 F", UNIT_CELSIUS, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 K", UNIT_OHM, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 J", UNIT_WATT, CS_UNITS_ERROR_DIMENSION);
	FAILS("5 h", UNIT_AH, CS_UNITS_ERROR_DIMENSION);

	/* Each dimension's own example, read as any other dimension, names the one it
	 * is (the plain-number example "2" is valid everywhere). */
	for (int want = 0; want < UNIT_DIM_COUNT; want++) {
		for (int have = 1; have < UNIT_DIM_COUNT; have++) {
			const char *ex = units_dim_example(have);
			char *needle;

			if (want == have) {
				double v;

				CU_ASSERT(units_parse(ex, want, &v, NULL));
				continue;
			}
			CU_ASSERT(fails(ex, want, CS_UNITS_ERROR_DIMENSION));
			needle = g_strdup_printf("found \"%s\" (a%s %s), expected ", ex,
						 have == UNIT_WH ? "n" : "",
						 units_dim_name(have));
			CU_ASSERT(message_matches(ex, want, needle, true));
			g_free(needle);
		}
	}
}

static void test_range(void)
{
	FAILS("1e400 V", UNIT_VOLT, CS_UNITS_ERROR_RANGE);
	FAILS("-1e400 V", UNIT_VOLT, CS_UNITS_ERROR_RANGE);
	FAILS("1e400", UNIT_NONE, CS_UNITS_ERROR_RANGE);
	FAILS("1e99999999999999999999 A", UNIT_AMP, CS_UNITS_ERROR_RANGE);
	/* Finite as written, infinite once the prefix or unit factor applies. */
	FAILS("1e308 kV", UNIT_VOLT, CS_UNITS_ERROR_RANGE);
	FAILS("1e307 h", UNIT_SECOND, CS_UNITS_ERROR_RANGE);
	/* The largest doubles still pass. */
	PARSES("1e308 V", UNIT_VOLT, 1e308);
	PARSES("1e305 kV", UNIT_VOLT, 1e308);
	PARSES("1e-300 A", UNIT_AMP, 1e-300);
}

static void test_messages(void)
{
	MESSAGE_IS("5 V", UNIT_AMP,
		   "found \"5 V\" (a voltage), expected a current such as \"500 mA\"");
	MESSAGE_HAS("5 V", UNIT_AMP, "found \"5 V\" (a voltage), expected a current");
	MESSAGE_IS("5 Q", UNIT_AMP,
		   "found \"5 Q\", expected a current such as \"500 mA\" (unknown unit \"Q\")");
	MESSAGE_IS("5 Wh", UNIT_WATT,
		   "found \"5 Wh\" (an energy), expected a power such as \"2.5 W\"");
	MESSAGE_IS("2 V", UNIT_NONE,
		   "found \"2 V\" (a voltage), expected a plain number such as \"2\"");
	MESSAGE_IS("5 %", UNIT_VOLT,
		   "found \"5 %\" (a fraction), expected a voltage such as \"4.2 V\"");
	MESSAGE_IS("", UNIT_AMP,
		   "found \"\", expected a current such as \"500 mA\" (empty value)");
	MESSAGE_IS("NaN V", UNIT_VOLT,
		   "found \"NaN V\", expected a voltage such as \"4.2 V\" (not a finite number)");
	MESSAGE_IS("0x10 V", UNIT_VOLT,
		   "found \"0x10 V\", expected a voltage such as \"4.2 V\" "
		   "(hexadecimal numbers are not accepted)");
	MESSAGE_IS("k A", UNIT_AMP,
		   "found \"k A\", expected a current such as \"500 mA\" (no number)");
	MESSAGE_IS("1e400 V", UNIT_VOLT,
		   "found \"1e400 V\", expected a voltage such as \"4.2 V\" (out of range)");
	MESSAGE_IS("5 kmin", UNIT_SECOND,
		   "found \"5 kmin\", expected a time such as \"100 ms\" "
		   "(\"min\" takes no prefix)");
	MESSAGE_IS("5 m", UNIT_SECOND,
		   "found \"5 m\" (a length), expected a time such as \"100 ms\" "
		   "(minutes are \"min\")");
	MESSAGE_HAS("5 V extra", UNIT_VOLT, "(unexpected \"extra\" after the unit)");
	MESSAGE_HAS("1.2.3 V", UNIT_VOLT, "(unexpected \".3\" after the number)");
	MESSAGE_HAS("5e V", UNIT_VOLT, "(malformed exponent)");
	/* Suggestions come from the expected dimension's spellings. */
	MESSAGE_HAS("5 mAA", UNIT_AMP, "(unknown unit \"mAA\"; did you mean \"mA\"?)");
	MESSAGE_HAS("5 v", UNIT_VOLT, "(unknown unit \"v\"; did you mean \"V\"?)");
	MESSAGE_HAS("5 kohms", UNIT_OHM, "did you mean \"kohm\"?");
	/* A unit token of 31 bytes, one of 32 and a long one: the whole token is named.
	 * And numbers of 40 and of 132 digits (longer than the
	 * stack buffer) parse to the nearest double. */
	MESSAGE_HAS("5 VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV", UNIT_VOLT,
		    "(unknown unit \"VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV\")");
	MESSAGE_HAS("5 VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV", UNIT_VOLT,
		    "(unknown unit \"VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV\")");
	MESSAGE_HAS("5 millivoltsmillivoltsmillivoltsmillivoltsmillivolts", UNIT_VOLT,
		    "(unknown unit \"millivoltsmillivoltsmillivoltsmillivoltsmillivolts\")");
	PARSES("4.200000000000000000000000000000000000001 V", UNIT_VOLT, 4.2);
	PARSES("4.2000000000000000000000000000000000000000000000000000000000000"
	       "0000000000000000000000000000000000000000000000000000000000000000000000 V", UNIT_VOLT, 4.2);
	/* Text is quoted safely: quotes, control bytes, non-UTF-8 bytes escaped. */
	MESSAGE_HAS("5 \"V\"", UNIT_VOLT, "found \"5 \\\"V\\\"\"");
	MESSAGE_HAS("5 V\x01", UNIT_VOLT, "found \"5 V\\x01\"");
	MESSAGE_HAS("5 \xff", UNIT_VOLT, "found \"5 \\xff\"");
	MESSAGE_HAS("5 \xc2\xb5", UNIT_VOLT, "found \"5 \xc2\xb5\"");
	/* The untrimmed text is what the user wrote, so that is what is quoted. */
	MESSAGE_HAS(" 5 V ", UNIT_AMP, "found \" 5 V \" (a voltage)");
}

static void test_dim_tables(void)
{
	static const char *const names[UNIT_DIM_COUNT] = {
		"plain number", "voltage", "current", "resistance", "time", "capacitance",
		"charge", "fraction", "temperature", "power", "length", "energy",
	};
	static const char *const symbols[UNIT_DIM_COUNT] = {
		"", "V", "A", "ohm", "s", "F", "Ah", "", "C", "W", "m", "Wh",
	};
	static const char *const examples[UNIT_DIM_COUNT] = {
		"2", "4.2 V", "500 mA", "30 mohm", "100 ms", "703 F", "3000 mAh", "95 %",
		"25 C", "2.5 W", "1 m", "5 Wh",
	};
	static const double example_values[UNIT_DIM_COUNT] = {
		2.0, 4.2, 0.5, 0.03, 0.1, 703.0, 3.0, 0.95, 25.0, 2.5, 1.0, 5.0,
	};

	for (int d = 0; d < UNIT_DIM_COUNT; d++) {
		CU_ASSERT_STRING_EQUAL(units_dim_name(d), names[d]);
		CU_ASSERT_STRING_EQUAL(units_dim_symbol(d), symbols[d]);
		CU_ASSERT_STRING_EQUAL(units_dim_example(d), examples[d]);
		CU_ASSERT(parses_near(examples[d], d, example_values[d], 0));
		/* A bare number is the base unit in every dimension. */
		CU_ASSERT(parses_near("7", d, 7.0, 0));
		/* The base symbol itself (where there is one) is accepted. */
		if (symbols[d][0]) {
			char *s = g_strdup_printf("7 %s", symbols[d]);

			CU_ASSERT(parses_near(s, d, 7.0, 0));
			g_free(s);
		}
	}
	CU_ASSERT_STRING_EQUAL(units_dim_name(UNIT_DIM_COUNT), "unknown dimension");
	CU_ASSERT_EQUAL(cs_units_error_quark(), CS_UNITS_ERROR);
	CU_ASSERT_STRING_EQUAL(g_quark_to_string(CS_UNITS_ERROR), "cs-units-error-quark");
}

/* g_strcmp0, so that a NULL where a word is expected fails instead of crashing. */
#define DYM_IS(word, cands, n, want) \
	CU_ASSERT(g_strcmp0(cs_did_you_mean(word, cands, n), want) == 0)

static void test_did_you_mean(void)
{
	static const char *const keys[] = { "ilim", "voc", "rout" };
	static const char *const tie[] = { "ab", "ac" };
	static const char *const longer[] = { "capacity_mah", "capacity", "cutoff_v" };

	DYM_IS("ilimm", keys, 3, "ilim");
	DYM_IS("ilim", keys, 3, "ilim");
	DYM_IS("ilm", keys, 3, "ilim");
	DYM_IS("vc", keys, 3, "voc");
	DYM_IS("rot", keys, 3, "rout");
	/* An adjacent transposition counts as one edit. */
	DYM_IS("ilmi", keys, 3, "ilim");
	/* Too far: distance above max(1, len / 3). */
	DYM_IS("xyz", keys, 3, NULL);
	DYM_IS("ilmmm", keys, 3, NULL);
	DYM_IS("temperature", keys, 3, NULL);
	DYM_IS("", keys, 3, NULL);
	DYM_IS("ilim", keys, 0, NULL);
	DYM_IS(NULL, keys, 3, NULL);
	/* Ties go to the earlier candidate. */
	DYM_IS("aa", tie, 2, "ab");
	/* Longer words allow more edits: 12 / 3 = 4. */
	DYM_IS("capacity_ah", longer, 3, "capacity_mah");
	DYM_IS("cpacty_mh", longer, 3, "capacity_mah");
	DYM_IS("cutof_v", longer, 3, "cutoff_v");
	DYM_IS("cut", longer, 3, NULL);
}

/* A comma-decimal LC_NUMERIC must not change anything. The locale may not be
 * installed; the checks then run in whatever locale is current. */
static void test_locale(void)
{
	static const char *const comma_locales[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "ru_RU.UTF-8",
	};
	char *saved = g_strdup(setlocale(LC_NUMERIC, NULL));

	for (size_t i = 0; i < G_N_ELEMENTS(comma_locales); i++)
		if (setlocale(LC_NUMERIC, comma_locales[i]))
			break;
	PARSES("4.75 V", UNIT_VOLT, 4.75);
	PARSES("1.5e-3 A", UNIT_AMP, 0.0015);
	TIME_IS("0.1 s", 100000000);
	FAILS("4,75 V", UNIT_VOLT, CS_UNITS_ERROR_SYNTAX);
	setlocale(LC_NUMERIC, saved);
	g_free(saved);
}

/* Bounds in messages read as a user writes them (sim/units.h). */
static void test_format(void)
{
	static const struct { double x; enum unit_dim dim; const char *text; } cases[] = {
		{ 1e-3, UNIT_AH, "1 mAh" }, { 1000, UNIT_AH, "1000 Ah" }, { 1e-4, UNIT_OHM, "100 uohm" },
		{ 1e6, UNIT_OHM, "1 Mohm" }, { 5.1e3, UNIT_OHM, "5.1 kohm" }, { 1e-6, UNIT_FARAD, "1 uF" },
		{ 1, UNIT_FRACTION, "100 %" }, { 0.1, UNIT_FRACTION, "10 %" }, { 0, UNIT_VOLT, "0 V" },
		{ -40, UNIT_CELSIUS, "-40 C" }, { 0.5, UNIT_CELSIUS, "0.5 C" }, { 1e-9, UNIT_AMP, "1 nA" },
		{ 4.2, UNIT_VOLT, "4.2 V" }, { 2e5, UNIT_NONE, "200000" },
	};
	static const struct { sim_time_t t; const char *text; } times[] = {
		{ 0, "0 s" }, { 60 * SIM_S, "1 min" }, { 90 * SIM_MIN, "90 min" }, { SIM_HOUR, "1 h" },
		{ 1500 * SIM_MS, "1500 ms" }, { 7, "7 ns" }, { 3 * SIM_US, "3 us" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *s = units_format(cases[i].x, cases[i].dim);

		CU_ASSERT_STRING_EQUAL(s, cases[i].text);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(times); i++) {
		g_autofree char *s = units_format_time(times[i].t);

		CU_ASSERT_STRING_EQUAL(s, times[i].text);
	}
	{
		g_autofree char *q = cs_quote("a\"b\xff");

		CU_ASSERT_STRING_EQUAL(q, "\"a\\\"b\\xff\"");
	}
}

CU_TestInfo units_tests[] = {
	{ "formatting for messages", test_format },
	{ "voltage", test_voltage },
	{ "negative zero", test_negative_zero },
	{ "current", test_current },
	{ "resistance", test_resistance },
	{ "time as seconds", test_time_seconds },
	{ "time as exact ns", test_time_ns },
	{ "capacitance", test_capacitance },
	{ "charge", test_charge },
	{ "fraction", test_fraction },
	{ "temperature", test_temperature },
	{ "power", test_power },
	{ "length and the m ambiguity", test_length },
	{ "energy", test_energy },
	{ "plain number", test_plain_number },
	{ "every prefix", test_prefixes },
	{ "bad numbers", test_bad_numbers },
	{ "bad units", test_bad_units },
	{ "dimension errors", test_dimension_errors },
	{ "range", test_range },
	{ "error messages", test_messages },
	{ "dimension tables", test_dim_tables },
	{ "did you mean", test_did_you_mean },
	{ "locale independence", test_locale },
	CU_TEST_INFO_NULL,
};
