// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_units.c - libFuzzer harness for the unit parser (sim/units.c).
 *
 * The input bytes (up to the first NUL, as a scenario string would hold them) go to
 * units_parse() for every dimension and to units_parse_time(), then to
 * cs_did_you_mean() against the dimension names and symbols. Besides the sanitizers,
 * the contracts of sim/units.h / units.c are checked on every input:
 *   - success: no error set; the value is finite; a time is below 9.2e18 ns in size;
 *   - failure: a CS_UNITS_ERROR is set whose message starts 'found "', and the output
 *     is left alone.
 * Nothing is written anywhere.
 */
#include <math.h>
#include "fuzz/fuzz_common.h"
#include "sim/units.h"

#define UNTOUCHED 12345.678

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	/* The examples the error messages offer must parse as their own dimension. */
	for (int d = 0; d < UNIT_DIM_COUNT; d++) {
		double v;

		FUZZ_CHECK(units_parse(units_dim_example((enum unit_dim)d), (enum unit_dim)d, &v, NULL),
			   "example \"%s\" of %s", units_dim_example((enum unit_dim)d),
			   units_dim_name((enum unit_dim)d));
	}
	return 0;
}

static void check_failure(const char *text, const char *what, const GError *err)
{
	FUZZ_CHECK(err != NULL, "\"%s\" as %s: failed without an error", text, what);
	FUZZ_CHECK(err->domain == CS_UNITS_ERROR, "\"%s\" as %s: error domain %s", text, what,
		   g_quark_to_string(err->domain));
	FUZZ_CHECK(err->message && g_str_has_prefix(err->message, "found \""),
		   "\"%s\" as %s: message \"%s\"", text, what, err->message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = fuzz_strndup(data, size);
	const char *names[2 * UNIT_DIM_COUNT];
	sim_time_t t = 42;

	for (int d = 0; d < UNIT_DIM_COUNT; d++) {
		GError *err = NULL;
		double v = UNTOUCHED;
		const char *what = units_dim_name((enum unit_dim)d);

		if (units_parse(text, (enum unit_dim)d, &v, &err)) {
			FUZZ_CHECK(err == NULL, "\"%s\" as %s: success with an error set", text, what);
			FUZZ_CHECK(isfinite(v), "\"%s\" as %s: success with %g", text, what, v);
		} else {
			check_failure(text, what, err);
			FUZZ_CHECK(v == UNTOUCHED, "\"%s\" as %s: failure changed the output to %.17g",
				   text, what, v);
		}
		g_clear_error(&err);
		/* NULL err must be accepted too. */
		(void)units_parse(text, (enum unit_dim)d, &v, NULL);
		names[2 * d] = what;
		names[2 * d + 1] = units_dim_symbol((enum unit_dim)d);
	}

	{
		GError *err = NULL;

		if (units_parse_time(text, &t, &err)) {
			FUZZ_CHECK(err == NULL, "\"%s\" as a duration: success with an error set", text);
			FUZZ_CHECK(t < (sim_time_t)9200000000000000000LL &&
					   t > -(sim_time_t)9200000000000000000LL,
				   "\"%s\" as a duration: %lld ns", text, (long long)t);
		} else {
			check_failure(text, "a duration", err);
			FUZZ_CHECK(t == 42, "\"%s\" as a duration: failure changed the output to %lld", text,
				   (long long)t);
		}
		g_clear_error(&err);
	}

	(void)cs_did_you_mean(text, names, G_N_ELEMENTS(names));
	return 0;
}
