/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/sweep.h - sweep files: a base scenario and the values to vary, enumerated into
 * numbered variants; one variant run into one results.csv row; shard manifests and
 * their merge.
 *
 * docs/scaling.md ("The sweep file", "Outputs", "Shards") is the contract, and says it
 * once: the keys of a sweep file, the order of the variants (the `vary` keys as written,
 * the last fastest, the random sample fastest of all), the variant seed and the random
 * samples (both from sweep_mix64()), the columns and quoting of results.csv. A variant
 * is one run of the base scenario with its values applied as scenario_apply_set()
 * assignments after "seed=<variant seed>", so its row is a function of the sweep file
 * and its index only, never of the thread, the worker or the shard.
 */
#ifndef CS_RUN_SWEEP_H
#define CS_RUN_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <cJSON.h>
#include <glib.h>

#define SWEEP_MAX_VARIANTS 100000000ull   /* refuse grids larger than this */

struct sweep_dim {
	char *path;            /* scenario path, e.g. "source.ilim" */
	int n;                 /* grid: number of values */
	cJSON **values;        /* grid: the values (owned by sweep->doc) */
	bool integer;          /* random: whole numbers lo..hi */
	double lo, hi;         /* random: range in the base unit */
};

struct sweep {
	char *file;            /* the sweep file as given */
	char *base_file;       /* the base scenario, resolved against the sweep file */
	char *base_text;       /* its content, loaded once */
	gsize base_len;
	char *sha256;          /* SHA-256 of the sweep file, hex */
	char *base_sha256;     /* SHA-256 of the base scenario, hex */
	guint32 seed;
	int n_grid;
	struct sweep_dim *grid;
	int n_random;
	struct sweep_dim *random;
	guint64 random_n;      /* samples (1 when there is no "random") */
	guint32 random_seed;
	guint64 total;         /* number of variants */
	int n_metrics;
	char **metric_names;   /* metrics.json keys, in its order, less the varied ones */
	cJSON *doc;
	/* The real drivers (linux/ policies) the base or any varied value runs, each once,
	 * in the order met: the manifest names their kernel files (docs/scaling.md). */
	GPtrArray *drivers;
};

/* The kernel files of the sweep's real drivers, {"linux/NAME": [{path, sha256, status}]},
 * as the manifest records them; NULL when the sweep runs no linux/ policy. */
cJSON *sweep_kernel_files_json(const struct sweep *sw);

/* Read, check and validate a sweep file: every value of every list and both ends of
 * every range are tried on the base scenario (loaded and built into a run), so an
 * unknown path or a value of the wrong dimension is reported before anything runs.
 * Errors are CS_SCENARIO_ERROR, "SWEEP: JSON-PATH: found X, expected Y". */
struct sweep *sweep_load(const char *file, GError **err);
/* Add a directory tree a sweep's base may come from besides the sweep file's own (a
 * scenario library, which the command line knows; up to four; NULL ignored). Before
 * sweep_load(). */
void sweep_allow_base_tree(const char *dir);
void sweep_free(struct sweep *sw);
typedef struct sweep sweep;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(sweep, sweep_free)

/* SplitMix64's finaliser (Steele, Lea, Flood 2014), the fixed hash behind seeds and
 * random samples. */
uint64_t sweep_mix64(uint64_t x);
guint32 sweep_variant_seed(guint32 sweep_seed, guint64 index);

/* The assignments of variant `index` ("seed=N" first), NULL-terminated; g_strfreev. */
char **sweep_variant_sets(const struct sweep *sw, guint64 index);
/* The header line of results.csv, with its newline. */
char *sweep_csv_header(const struct sweep *sw);
/* Append one CSV cell (quoted when needed). */
void sweep_csv_cell(GString *out, const char *text);
/* The end of the CSV record at p: its newline (not one inside quotes), or end. */
const char *sweep_csv_record_end(const char *p, const char *end);
/* The variant index a row starts with: the digits before its first comma. */
bool sweep_row_index(const char *row, const char *end, guint64 *idx);

/* The start of variant index's results.csv row: its index and varied cells, as
 * sweep_run_variant() writes them, without the comma after them; g_free. */
char *sweep_row_start(const struct sweep *sw, guint64 index);

/* Run variant `index` (outdir NULL: no files) and return its results.csv row with its
 * newline. *failed is 0, or 2 (input error) or 3 (internal error) when the row's error
 * cell is set. Safe to call from several threads at once. */
char *sweep_run_variant(const struct sweep *sw, guint64 index, const char *outdir,
			int *failed);

/* Shards: I/N with 0 <= I < N. */
struct sweep_shard {
	guint64 index, count;
};
bool sweep_parse_shard(const char *text, struct sweep_shard *out, GError **err);
/* From SLURM_ARRAY_TASK_ID (minus SLURM_ARRAY_TASK_MIN) and SLURM_ARRAY_TASK_COUNT.
 * False without err when they are not set; false with err when they are wrong or the
 * array has a step (SLURM_ARRAY_TASK_STEP other than 1). */
bool sweep_shard_from_env(struct sweep_shard *out, GError **err);
/* Number of variants with index % count == shard index. */
guint64 sweep_shard_size(guint64 total, const struct sweep_shard *sh);

/* manifest.json of a shard directory. */
cJSON *sweep_manifest(const struct sweep *sw, const struct sweep_shard *sh, bool complete);
/* Write m (which it frees) as dir/manifest.json, durably. */
bool sweep_manifest_write(const char *dir, cJSON *m, GError **err);

/* Read an input of a sweep (the sweep file, its base scenario, a shard manifest): a
 * regular file of at most 16 MiB; what names it in messages. NULL with a
 * CS_SCENARIO_ERROR_IO naming the file. */
char *sweep_read_file(const char *file, const char *what, gsize *len, GError **err);

/*
 * One shard's results.csv read row by row and checked against the sweep file (used by
 * sweep_merge(), and by fuzz/fuzz_merge.c on a memory file): the header must be the
 * sweep's; each row the next variant's, with the index and varied cells the sweep file
 * gives that variant, one cell per column, written as sweep_csv_cell() writes cells
 * (UTF-8, no NUL byte); the error cell empty or "input error: ..." / "internal error:
 * ...". At the end, no row more, and the SHA-256 of every byte read must be the
 * manifest's results_sha256 (NULL: not checked): that is what catches an edited metric.
 * Errors are CS_SCENARIO_ERROR "NAME: line L (the row of variant I): column K (NAME):
 * found X, expected Y". The row given by _next() lives until the next call.
 */
struct sweep_shard_reader;
struct sweep_shard_reader *sweep_shard_reader_new(const struct sweep *sw, FILE *fp,
						  const char *name);
bool sweep_shard_reader_header(struct sweep_shard_reader *r, GError **err);
bool sweep_shard_reader_next(struct sweep_shard_reader *r, guint64 index, const char **row,
			     gsize *len, GError **err);
bool sweep_shard_reader_end(struct sweep_shard_reader *r, const char *sha256, GError **err);
void sweep_shard_reader_free(struct sweep_shard_reader *r);

/* `chargesim merge` (sweep_merge.c): check the shard directories' (n_dirs >= 1) manifests
 * and every row against the sweep file (sweep_file, or NULL: the manifest's sweep_file),
 * write outdir/results.csv (byte-identical to an unsharded run) and outdir/manifest.json.
 * Errors are CS_SCENARIO_ERROR naming the directory, file, line, variant and column. */
bool sweep_merge(char **dirs, int n_dirs, const char *sweep_file, const char *outdir,
		 GError **err);

#endif
