// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_scenario.c - libFuzzer harness for the scenario loader (run/scenario.c:
 * JSON, units, parameter tables, presets, events, validation) and, for the scenarios
 * that load, a short run of the world built from them.
 *
 * Per input:
 *  1. scenario_load_text("fuzz.json", bytes, size, no sets). The bytes are passed as
 *     libFuzzer gives them, without a terminating NUL, so an over-read is caught.
 *     A failure must set a CS_SCENARIO_ERROR whose message starts with "fuzz.json"
 *     (run/scenario.h's contract).
 *  2. When it loads: expect_prepare() on its "expect" list (run/expect.c), then
 *     world_new() with no output directory (nothing is written), world_run(),
 *     world_finish(), world_metrics_json(), and expect_check() on the result.
 *
 * Time cap (decided here, see fuzz/README.md): the run is cut at FUZZ_RUN_CAP of
 * simulated time (10 min; CHARGESIM_FUZZ_RUN_CAP="30 s" or any duration overrides it).
 * The cap is applied to the loaded struct scenario, not through a --set, so the loader
 * still validates the input as written (events beyond a 10 s override would be
 * rejected, and every long scenario with them). Events after the cap stay queued and are
 * freed with the world. When the run was cut, expect_check() is skipped: signal probes
 * after the cut are never sampled and the metrics are those of a shorter run.
 * expect_check() is also skipped for lists with a "golden" item: a golden check reads
 * files named by the input.
 *
 * policy.plugin: g_module_open() is stubbed (fuzz/fuzz_common.h), every plugin fails
 * to load and no shared object is ever opened.
 *
 * CHARGESIM_FUZZ_NUL=1 passes a NUL-terminated copy of the bytes instead (every caller in
 * the tree NUL-terminates): only to fuzz past a known over-read of a non-terminated text
 * while it is being fixed; never in CI.
 *
 * CHARGESIM_FUZZ_STRICT=1 also aborts when a run of a loaded scenario stops with an
 * internal error (NaN/Inf or a broken invariant: exit 3 in the CLI). Off by default:
 * that is a handled error, not a crash.
 */
#include "fuzz/fuzz_common.h"
#include "run/expect.h"
#include "run/scenario.h"
#include "sim/units.h"
#include "run/world.h"

#define FUZZ_FILE "fuzz.json"
#define FUZZ_RUN_CAP (10 * 60 * SIM_S)

static sim_time_t run_cap = FUZZ_RUN_CAP;
static bool strict;
static bool nul_terminate;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *cap = getenv("CHARGESIM_FUZZ_RUN_CAP");

	(void)argc;
	(void)argv;
	fuzz_init();
	if (cap && *cap) {
		GError *err = NULL;

		if (!units_parse_time(cap, &run_cap, &err) || run_cap <= 0) {
			fprintf(stderr, "CHARGESIM_FUZZ_RUN_CAP: %s\n", err ? err->message : "expected a time above 0");
			exit(2);
		}
	}
	strict = g_strcmp0(getenv("CHARGESIM_FUZZ_STRICT"), "1") == 0;
	nul_terminate = g_strcmp0(getenv("CHARGESIM_FUZZ_NUL"), "1") == 0;
	return 0;
}

static bool has_golden(const cJSON *expect)
{
	const cJSON *item;

	cJSON_ArrayForEach(item, expect)
		if (cJSON_GetObjectItemCaseSensitive(item, "golden"))
			return true;
	return false;
}

static void run(struct scenario *sc)
{
	struct world_options wo = { 0 };
	struct expect_run *er = NULL;
	struct world *w;
	GError *err = NULL;
	bool cut = false;

	if (sc->expect) {
		er = expect_prepare(sc->expect, sc->file, sc->duration, &err);
		if (!er) {
			FUZZ_CHECK(err && err->message && g_str_has_prefix(err->message, FUZZ_FILE),
				   "expect_prepare failed with \"%s\"", err ? err->message : "(no error)");
			if (fuzz_verbose)
				fprintf(stderr, "expect_prepare: %s\n", err->message);
			g_clear_error(&err);
		}
	}
	if (sc->duration > run_cap) {
		sc->duration = run_cap;
		cut = true;
	}
	if (er)
		expect_options(er, &wo);
	w = world_new(sc, &wo, &err);
	if (!w) {
		FUZZ_CHECK(err && err->message && *err->message, "world_new failed without an error");
		if (fuzz_verbose)
			fprintf(stderr, "world_new: %s\n", err->message);
		g_clear_error(&err);
		expect_run_free(er);
		return;
	}
	if (er)
		expect_listen(er, w);
	if (!world_run(w, &err)) {
		FUZZ_CHECK(err && err->message && *err->message, "world_run failed without an error");
		FUZZ_CHECK(!strict, "world_run: %s", err->message);
		if (fuzz_verbose)
			fprintf(stderr, "world_run: %s\n", err->message);
		g_clear_error(&err);
	} else {
		cJSON *m;

		FUZZ_CHECK(world_finish(w, &err), "world_finish without outdir: %s",
			   err ? err->message : "(no error)");
		m = world_metrics_json(w);
		FUZZ_CHECK(m != NULL, "world_metrics_json returned NULL");
		cJSON_Delete(m);
		if (er && !cut && !has_golden(sc->expect)) {
			GArray *results = NULL;

			if (expect_check(er, w, NULL, &results, &err)) {
				if (fuzz_verbose)
					fprintf(stderr, "run of %g s, %u expectation results\n",
						sim_time_to_s(sc->duration), results->len);
				expect_results_free(results);
			} else {
				if (fuzz_verbose)
					fprintf(stderr, "expect_check: %s\n", err->message);
				g_clear_error(&err);
			}
		} else if (fuzz_verbose) {
			fprintf(stderr, "run of %g s%s\n", sim_time_to_s(sc->duration), cut ? " (cut)" : "");
		}
	}
	world_free(w);
	expect_run_free(er);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct scenario *sc;
	g_autofree char *copy = nul_terminate ? fuzz_strndup(data, size) : NULL;

	/* libFuzzer's buffer may be NULL for an empty input; give the loader a real pointer. */
	sc = scenario_load_text(FUZZ_FILE, copy ? copy : size ? (const char *)data : "", size, NULL,
				&err);
	if (!sc) {
		FUZZ_CHECK(err != NULL, "scenario_load_text failed without an error");
		FUZZ_CHECK(err->domain == CS_SCENARIO_ERROR, "error domain %s: %s",
			   g_quark_to_string(err->domain), err->message);
		FUZZ_CHECK(g_str_has_prefix(err->message, FUZZ_FILE), "message \"%s\"", err->message);
		if (fuzz_verbose)
			fprintf(stderr, "load: %s\n", err->message);
		g_error_free(err);
		return 0;
	}
	FUZZ_CHECK(err == NULL, "scenario loaded with an error set: %s", err->message);
	run(sc);
	scenario_free(sc);
	return 0;
}
