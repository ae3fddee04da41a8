/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/score_table.h - a score's rows (score.csv) and its figures (the table, score.json).
 *
 * score.csv is the score's record: one row per setup and policy, the setups in their
 * order, the policies in the order given, with the setup's parameters (so any row can
 * be run again: `chargesim score --explain SETUP`), the policy's run and each oracle's.
 * The figures are always computed from that text, so a score run whole and the same
 * score merged from shards print and write the same figures, byte for byte.
 */
#ifndef CS_RUN_SCORE_TABLE_H
#define CS_RUN_SCORE_TABLE_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "run/score.h"

/* score.csv's header line (with its line break): the setup (seed, index, class, the
 * population's drawn paths, the USB budget), the policy's run, each oracle's. */
char *score_csv_header(const struct population *pop);
/* The rows of the score, each line ending in a line break (no header). */
char *score_csv_rows(const struct score *sc, const struct score_options *opt);

/* One policy's figures on a set of setups against one oracle. */
struct score_stats {
	int n;                          /* setups scored (fitting, ran, with that oracle) */
	int trips, uvlo, brownouts;     /* setups with at least one */
	int starved, over_budget;
	double median, p90, max;        /* regret; NAN when n is 0 */
};

#define SCORE_WORST 5

/* A setup where a policy did worst against the oracle. */
struct score_worst {
	int setup;
	int cls;
	double regret;
};

struct score_summary {
	int n_pol;
	char **policies;                /* as given */
	int n_setups;
	int n_class;
	char *classes[POP_MAX_CLASSES];
	int class_n[POP_MAX_CLASSES];   /* setups per class */
	int censored[SCORE_N_ORACLES];  /* setups without that oracle */
	/* [policy][oracle][0: all, 1 + class] */
	struct score_stats (*st)[SCORE_N_ORACLES][1 + POP_MAX_CLASSES];
	/* [policy][k]: its SCORE_WORST largest regrets against the oracle, largest first
	 * (ties: the lower setup), n_worst[policy] of them */
	struct score_worst (*worst)[SCORE_WORST];
	int *n_worst;
};

/* The figures of score.csv's text (header and rows); policies in the order given.
 * False with err naming `file` and the line when the text is not a score.csv. */
bool score_summarize(const char *csv, const char *file, char **policies, int n_pol,
		     const struct population *pop, struct score_summary *sum, GError **err);
void score_summary_clear(struct score_summary *sum);
/* The table the command prints. */
char *score_summary_text(const struct score_summary *sum);
/* score.json's content, seed and population given. */
cJSON *score_summary_json(const struct score_summary *sum, guint32 seed,
			  const struct population *pop, const struct score_oracle_def *def);

#endif
