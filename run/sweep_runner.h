/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/sweep_runner.h - running the variants of one sweep shard into a directory:
 * worker processes, the rows kept in order, durable chunks, resume after any
 * interruption, and results.csv at the end. What the user sees of it (the chunks, the
 * manifest, --resume, signals) is docs/scaling.md's "Interruptions and --resume".
 *
 * The variants of the shard run in `jobs` worker processes, forked copies of the
 * calling one: each claims the next variant (a counter in shared memory), runs it and
 * writes its row into its pipe, which the calling process reads every POLL_US (a
 * wake-up per row would cost more than a short variant). Processes rather than threads
 * because a real Linux driver's static variables exist once per process: each worker
 * has its own, and stack/linux/policy.c puts them back to their first state before
 * every run of the driver, so a row depends on neither the worker count nor the
 * variants run before it. The calling process keeps the rows in a bounded ring until
 * every earlier variant is done, so the chunks always hold the first D variants of the
 * shard. A worker dies with the calling process; one that dies (a crash in a variant)
 * is an internal error naming its variant.
 *
 * Nothing here reads the clock or prints: the caller passes a clock for the flush
 * interval and hears of the progress through callbacks.
 */
#ifndef CS_RUN_SWEEP_RUNNER_H
#define CS_RUN_SWEEP_RUNNER_H

#include <stdbool.h>
#include <glib.h>
#include "run/sweep.h"

struct sweep_progress {
	guint64 total;     /* variants of the shard */
	guint64 resumed;   /* done by an earlier, interrupted run */
	guint64 done;      /* done so far, the resumed ones included */
};

struct sweep_runner_opts {
	const char *dir;               /* the shard directory (made when missing) */
	struct sweep_shard shard;
	int jobs;                      /* worker processes, at least 1 */
	int chunk_rows;                /* a chunk once this many rows are in order, >= 1 */
	bool resume;                   /* continue the sweep in dir (start one if none) */
	bool keep_traces;              /* each variant's outputs in dir/variants/INDEX/ */
	/* SIGINT and SIGTERM stop the sweep, keeping the rows that are in order (the
	 * handlers are the process's while the sweep runs: one sweep at a time). */
	bool catch_signals;
	gint64 (*clock_us)(void);      /* monotonic microseconds; NULL: chunks by rows only */
	/* Called once before the first variant runs (not for a complete directory),
	 * then after every poll of the finished rows. */
	void (*started)(void *data, const struct sweep_progress *p);
	void (*progress)(void *data, const struct sweep_progress *p);
	void *data;
};

struct sweep_outcome {
	guint64 variants;          /* of the shard */
	guint64 resumed;           /* done before this run */
	bool was_complete;         /* dir held the finished shard already: nothing ran */
	int signal;                /* > 0: stopped by this signal (the caller exits 128 + it) */
	guint64 saved;             /* with signal: the variants now in the chunks */
	GError *save_error;        /* with signal: the last chunk could not be written */
	int status;                /* results.csv's worst error cell: 0, 2 input, 3 internal */
	guint64 n_failed;          /* rows with an error cell */
	char *first_failure;       /* "variant I: ERROR" of the first one, or NULL */
};

/* Run (or resume, or find complete) the shard in o->dir. False with err when the
 * directory cannot be used or written, or the workers cannot start or die (those
 * errors are CS_RUN_ERROR_INTERNAL, the others exit status 2). A signal is not an
 * error: the outcome says it. */
bool sweep_runner_run(const struct sweep *sw, const struct sweep_runner_opts *o,
		      struct sweep_outcome *out, GError **err);
void sweep_outcome_clear(struct sweep_outcome *out);

#endif
