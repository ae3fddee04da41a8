/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/run.h - one run of a scenario, start to finish, in one call: load (or take a
 * loaded scenario) -> prepare the expectations -> build the world -> run -> finish
 * (outputs committed) -> check the expectations (and, for `check --accept`, rewrite
 * the golden traces and fingerprints of the failed ones).
 *
 * Every command that runs a scenario (run, check, compare, sweep) and the tests and
 * benchmarks go through here, so a run is assembled one way only. The result says how
 * it ended: status 0 (ran, every checked expectation held), 1 (an expectation
 * failed), 2 (bad input, or an output that cannot be written) or 3 (an internal
 * error during the run), with the error and the stage it came from, so that each
 * command words its messages as it always has. Nothing here reads the clock: a caller
 * that times the run starts its clock in the ready hook, just before the world is
 * built, and stops it when the call returns.
 */
#ifndef CS_RUN_RUN_H
#define CS_RUN_RUN_H

#include <stdbool.h>
#include <glib.h>
#include "run/scenario.h"
#include "run/world.h"

/* Where a run stopped (RUN_STAGE_DONE: it went through). */
enum run_stage {
	RUN_STAGE_LOAD,       /* the scenario file or text */
	RUN_STAGE_EXPECT,     /* validating the expectations */
	RUN_STAGE_READY,      /* the caller's ready hook refused */
	RUN_STAGE_BUILD,      /* world_new() */
	RUN_STAGE_RUN,        /* world_run() */
	RUN_STAGE_FINISH,     /* world_finish(): writing the outputs */
	RUN_STAGE_CHECK,      /* deciding the expectations */
	RUN_STAGE_DONE,
};

struct run_result;

struct run_options {
	/* The world's options: outdir (NULL: no files), policy override, vcd, no_trace,
	 * max_step, trace_dt, sysfs times, probe times. With expect, the probe times are
	 * the expectations' own. */
	struct world_options world;
	const char *const *sets;  /* "PATH=VALUE" overrides applied when loading, or NULL */
	bool expect;              /* check the scenario's expectations (needs world.outdir
				   * for golden traces) */
	bool accept;              /* with expect: rewrite the golden traces and
				   * fingerprints of the failed expectations */
	GMutex *accept_lock;      /* held while accepting (shared golden files), or NULL */
	/* Called once the scenario is loaded and its expectations validated, just before
	 * the world is built: the caller's checks of its options against the scenario,
	 * and the moment to start a wall clock. False (with err set) stops the run with
	 * status 2 at RUN_STAGE_READY. NULL: none. */
	bool (*ready)(const struct scenario *sc, void *data, GError **err);
	void *ready_data;
	/* world.outdir lies in an output set the caller opened and commits (compare:
	 * STAGE/POLICY). false: a run with world.outdir writes it as a set of its own,
	 * committed when the run went through (output/outset.h: all files or none, one
	 * writer at a time, leftovers of killed runs cleaned). */
	bool outdir_staged;
	/* Called when the run went through (status 0 or 1) with the directory its outputs
	 * are staged in, before the set is committed: what it writes there joins the set
	 * (run --plot). NULL: none. */
	void (*staged)(const struct run_result *res, const char *dir, void *data);
	void *staged_data;
};

/* The entries a run writes into its output directory, as glob patterns: what the
 * next run into the directory replaces as a whole (output/outset.h). */
extern const char *const run_output_names[];

struct run_result {
	int status;                   /* 0, 1, 2 or 3 (see above) */
	enum run_stage stage;         /* where an error stopped it; RUN_STAGE_DONE else */
	GError *error;                /* status 2 or 3 */
	const struct scenario *scenario;   /* the scenario run (NULL: it did not load) */
	struct world_metrics metrics; /* after world_finish (a copy owned here) */
	char *policy;                 /* the policy the world ran */
	GPtrArray *warnings;          /* "SRC: MESSAGE" of the run's "warning" records, in order */
	GArray *expect;               /* struct expect_result, when expectations were
				       * checked; NULL otherwise */
	int expect_other;             /* expectations "for" other policies, not checked */
	char *accepted;               /* --accept: what was rewritten, or NULL */
	GError *accept_error;         /* --accept: why it could not be */
	/* private */
	struct scenario *owned;       /* the scenario when this call loaded it */
};

/* Load file (with opt->sets) and run it. Returns res->status; clear res with
 * run_result_clear() whatever it returned. */
int run_file(const char *file, const struct run_options *opt, struct run_result *res);
/* The same from JSON text; name is the file name used in messages. */
int run_text(const char *name, const char *text, size_t len, const struct run_options *opt,
	     struct run_result *res);
/* Run a scenario loaded by the caller (opt->sets is not used); sc must outlive res. */
int run_scenario(const struct scenario *sc, const struct run_options *opt,
		 struct run_result *res);
void run_result_clear(struct run_result *res);

/* Number of the checked expectations that failed (0 when none were checked). */
guint run_failed_expectations(const struct run_result *res);

#endif
