/*
 * cli/expect.h - checking a run against the scenario's "expect" list.
 *
 * Kinds (INTERFACE.md): {"metric": NAME, OP: VALUE} with OP one of == != < <= > >=
 * or "between": [LO, HI]; {"signal": COLUMN, "at": TIME, OP: VALUE}. A VALUE may carry
 * a unit; its dimension comes from the metric or column name (_V volts, _A amps, _s
 * seconds, _mAh, _Wh, soc fractions), so "4.5 V" and 4.5 mean the same for vbus_min_V.
 * Each result says which expectation, what was expected and what the run gave.
 */
#ifndef CS_CLI_EXPECT_H
#define CS_CLI_EXPECT_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "sim/world.h"

struct expect_result {
	bool pass;
	char *what;      /* "metric vbus_min_V < 4.5 V" */
	char *got;       /* "4.61 V" */
};

/* Times at which `signal` expectations sample the run (sorted, unique). */
GArray *expect_probe_times(const cJSON *expect, const char *file, GError **err);
/* Check every expectation. results: GArray of struct expect_result (freed by
 * expect_results_free). False with err when an expectation itself is malformed. */
bool expect_check(const cJSON *expect, const char *file, const struct world *w,
		  const GArray *probe_times, GArray **results, GError **err);
void expect_results_free(GArray *results);

#endif
