/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/score_merge.h - a score's manifest (score-manifest.json) and the merge of the
 * shards of one score into the score run whole.
 *
 * `chargesim score --shard I/N` runs the setups whose index % N == I; every output
 * directory of score holds score-manifest.json: what was scored (the chargesim, the
 * seed, the number of setups, the population, the oracle's definition, the policies),
 * which shard, and the SHA-256 of its score.csv. Merging checks that the manifests agree
 * but for the shard, that every shard I of N is there once and that each score.csv is
 * the one its manifest names (an edited row is refused), then interleaves the rows by
 * setup: the result is byte for byte the score.csv of the same score run unsharded.
 */
#ifndef CS_RUN_SCORE_MERGE_H
#define CS_RUN_SCORE_MERGE_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "run/score.h"

#define SCORE_MANIFEST "score-manifest.json"

/* What a manifest says. */
struct score_manifest {
	guint32 seed;
	int n;
	int shard_i, shard_n;
	struct population pop;
	struct score_oracle_def oracle;
	int n_pol;
	char **policies;
	char *sha256;          /* of score.csv */
	cJSON *doc;            /* the manifest, less its shard and SHA-256 */
};

/* The manifest of a score with options o and score.csv text csv. */
cJSON *score_manifest_json(const struct score_options *o, const char *csv);
/* Does dir hold a score's manifest (rather than a sweep shard's)? */
bool score_manifest_exists(const char *dir);
/* Check the shard directories and join them: *csv is the merged score.csv (g_free),
 * *man the manifest of the whole score (score_manifest_clear). False with err (exit 2)
 * naming the directory and what is wrong. */
bool score_merge(char **dirs, int n_dirs, char **csv, struct score_manifest *man, GError **err);
void score_manifest_clear(struct score_manifest *m);

#endif
