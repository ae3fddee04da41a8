/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/expect.h - checking a run against the scenario's "expect" list: metrics, signals
 * at a time, golden traces and fingerprints, with the units and operators
 * docs/scenarios.md section 9 gives them. Each result says which expectation, what was
 * expected and what the run gave.
 */
#ifndef CS_RUN_EXPECT_H
#define CS_RUN_EXPECT_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "run/world.h"

struct expect_result {
	bool pass;
	char *what;      /* "metric vbus_min_V < 4.5 V" */
	char *got;       /* "4.61 V" */
	int item;        /* index in the expect list */
	/* a golden trace compared (pass or fail): the reference file, and its tolerance as
	 * `chargesim diff` options (" --tol COLUMN=abs:X,rel:Y", shell-quoted), so that a
	 * report can show the diff that lists every column; NULL otherwise */
	char *reference;
	char *diff_tol;
};

struct expect_run;

/* Validate the list and collect what the run must record (signal times must lie in
 * 0..duration). NULL with err. */
struct expect_run *expect_prepare(const cJSON *expect, const char *file, sim_time_t duration,
				  GError **err);
/* Sampling times for `signal` expectations, into the world's options. */
void expect_options(struct expect_run *er, struct world_options *wo);
/* Hook fingerprint hashing onto the world's event log (before world_run). */
void expect_listen(struct expect_run *er, struct world *w);
/* Decide every expectation after world_finish(); trace_path is the run's trace.csv
 * (golden comparisons). results: GArray of struct expect_result. */
/* After expect_check(): the expectations not checked because their "for" names other
 * policies than the run's. */
int expect_not_for_policy(const struct expect_run *er);
bool expect_check(struct expect_run *er, const struct world *w, const char *trace_path,
		  GArray **results, GError **err);
/* --accept: rewrite the golden traces and fingerprints of the failed expectations;
 * report what changed. */
bool expect_accept(struct expect_run *er, const GArray *results, const char *trace_path,
		   GString *report, GError **err);
void expect_run_free(struct expect_run *er);
void expect_results_free(GArray *results);

#endif
