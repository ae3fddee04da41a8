// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/sweep_merge.c - `chargesim merge`: the shard directories of one sweep joined into
 * one results.csv, byte-identical to the results.csv of the same sweep run unsharded
 * (see sweep.h). Every shard's manifest must be complete and agree with the others
 * (same sweep file, base scenario and chargesim, every shard I of N once), and every
 * shard must hold exactly its variants, in order: variant i is the next row of shard
 * i % N.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "run/scenario.h"
#include "run/sweep.h"
#include "output/outfile.h"

/* One CSV record, with its newline, honouring quoted line breaks; false at the end. */
static bool read_record(FILE *fp, GString *rec)
{
	bool quoted = false;
	int c;

	g_string_truncate(rec, 0);
	while ((c = getc_unlocked(fp)) != EOF) {
		g_string_append_c(rec, (char)c);
		if (c == '"')
			quoted = !quoted;
		else if (c == '\n' && !quoted)
			return true;
	}
	return rec->len > 0;
}

struct shard_in {
	char *dir;
	char *results;           /* DIR/results.csv */
	cJSON *manifest;
	FILE *fp;
	GString *rec;
	guint64 index, count, n, rows;
};

static bool manifest_u64(const cJSON *o, const char *key, guint64 *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble != floor(v->valuedouble))
		return false;
	*out = (guint64)v->valuedouble;
	return true;
}

static const char *manifest_str(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static bool read_shard(struct shard_in *s, GError **err)
{
	g_autofree char *mpath = g_build_filename(s->dir, "manifest.json", NULL);
	g_autofree char *mtext = NULL;
	const cJSON *sh;
	gsize mlen;

	mtext = sweep_read_file(mpath, "shard manifest", &mlen, err);
	if (!mtext)
		return false;
	s->manifest = cJSON_ParseWithLength(mtext, mlen);
	sh = cJSON_GetObjectItemCaseSensitive(s->manifest, "shard");
	if (!s->manifest || !manifest_str(s->manifest, "sweep_sha256") ||
	    !manifest_u64(sh, "index", &s->index) || !manifest_u64(sh, "count", &s->count) ||
	    !manifest_u64(s->manifest, "variants", &s->n) || s->count == 0 || s->index >= s->count)
		return scenario_error(err, "%s: found %s, expected a manifest written by `chargesim sweep`",
				      mpath, s->manifest ? "a manifest without sweep_sha256 or a valid shard" :
				      "invalid JSON");
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s->manifest, "complete")))
		return scenario_error(err, "%s: complete: found false, expected a finished shard (continue it with `chargesim sweep ... --resume`)",
				      mpath);
	s->results = g_build_filename(s->dir, "results.csv", NULL);
	s->fp = fopen(s->results, "r");
	if (!s->fp)
		return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the shard results: %s",
				     s->results, g_strerror(errno)) != NULL;
	s->rec = g_string_new(NULL);
	return read_record(s->fp, s->rec) ||
	       scenario_error(err, "%s: line 1: found nothing, expected the header", s->results);
}

static cJSON *merged_manifest(const cJSON *first, struct shard_in **by_index, guint64 count,
			      guint64 total)
{
	cJSON *man = cJSON_Duplicate(first, true), *from, *sh;

	sh = cJSON_GetObjectItemCaseSensitive(man, "shard");
	cJSON_ReplaceItemInObjectCaseSensitive(sh, "index", cJSON_CreateNumber(0));
	cJSON_ReplaceItemInObjectCaseSensitive(sh, "count", cJSON_CreateNumber(1));
	cJSON_ReplaceItemInObjectCaseSensitive(man, "variants", cJSON_CreateNumber((double)total));
	cJSON_ReplaceItemInObjectCaseSensitive(man, "first_index",
					       total ? cJSON_CreateNumber(0) : cJSON_CreateNull());
	cJSON_ReplaceItemInObjectCaseSensitive(man, "last_index",
					       total ? cJSON_CreateNumber((double)(total - 1)) : cJSON_CreateNull());
	cJSON_ReplaceItemInObjectCaseSensitive(man, "stride", cJSON_CreateNumber(1));
	cJSON_DeleteItemFromObjectCaseSensitive(man, "merged_from");
	from = cJSON_AddArrayToObject(man, "merged_from");
	for (guint64 i = 0; i < count; i++)
		cJSON_AddItemToArray(from, cJSON_CreateString(by_index[i]->dir));
	return man;
}

/* The manifest keys every shard of one sweep shares. */
static const char *const same_keys[] = { "sweep_sha256", "base_sha256", "chargesim_version", NULL };

/* Shard s against the first one: the same sweep, the same N, its own size, once. */
static bool check_shard(struct shard_in *s, const struct shard_in *first,
			struct shard_in **by_index, guint64 count, guint64 total, GError **err)
{
	guint64 t = 0;

	for (int k = 0; same_keys[k]; k++) {
		const char *a = manifest_str(first->manifest, same_keys[k]);
		const char *b = manifest_str(s->manifest, same_keys[k]);

		if (!a || !b || strcmp(a, b) != 0)
			return scenario_error(err, "%s: manifest.json: %s: found %s, expected %s as in %s (shards of one sweep, from one chargesim)",
					      s->dir, same_keys[k], b ? b : "nothing", a ? a : "nothing",
					      first->dir);
	}
	if (s->count != count || !manifest_u64(s->manifest, "variants_total", &t) || t != total ||
	    s->n != sweep_shard_size(total, &(struct sweep_shard){ s->index, s->count }))
		return scenario_error(err, "%s: manifest.json: shard: found shard %llu/%llu of %llu variants, expected a shard of N = %llu and %llu variants as in %s",
				      s->dir, (unsigned long long)s->index, (unsigned long long)s->count,
				      (unsigned long long)t, (unsigned long long)count,
				      (unsigned long long)total, first->dir);
	if (by_index[s->index])
		return scenario_error(err, "%s: manifest.json: shard: found shard %llu/%llu a second time (also in %s), expected each shard once",
				      s->dir, (unsigned long long)s->index, (unsigned long long)count,
				      by_index[s->index]->dir);
	by_index[s->index] = s;
	return g_string_equal(s->rec, first->rec) ||
	       scenario_error(err, "%s: line 1: found a header unlike %s's, expected the same columns in every shard",
			      s->results, first->results);
}

/* Every shard there, each once: by_index[i] is shard i. */
static bool check_shards(struct shard_in *in, int n_dirs, struct shard_in **by_index,
			 guint64 count, guint64 total, GError **err)
{
	for (int i = 0; i < n_dirs; i++)
		if (!check_shard(&in[i], &in[0], by_index, count, total, err))
			return false;
	for (guint64 i = 0; i < count; i++)
		if (!by_index[i])
			return scenario_error(err, "merge: found no directory for shard %llu/%llu, expected all %llu shards of the sweep",
					      (unsigned long long)i, (unsigned long long)count,
					      (unsigned long long)count);
	return true;
}

/* The row of variant i: the next record of its shard, numbered i. */
static bool next_row(struct shard_in *s, guint64 i, GError **err)
{
	bool got = read_record(s->fp, s->rec);
	const char *r = s->rec->str, *comma = got ? memchr(r, ',', s->rec->len) : NULL;
	guint64 idx;

	if (!got || !comma || comma == r || !sweep_row_index(r, comma + 1, &idx) || idx != i ||
	    r[s->rec->len - 1] != '\n')
		return scenario_error(err, "%s: line %llu: found %s, expected the row of variant %llu",
				      s->results, (unsigned long long)s->rows + 2,
				      !got ? "the end of the file" : !comma || comma == r ? "a malformed row" :
				      r[s->rec->len - 1] != '\n' ? "an unfinished row" : "another variant's row",
				      (unsigned long long)i);
	s->rows++;
	return true;
}

/* results.csv: the header, then variant i from shard i % N; no shard may hold more. */
static bool interleave(struct shard_in **by_index, guint64 count, guint64 total,
		       struct cs_outfile *out, GError **err)
{
	fwrite(by_index[0]->rec->str, 1, by_index[0]->rec->len, out->fp);
	for (guint64 i = 0; i < total; i++) {
		struct shard_in *s = by_index[i % count];

		if (!next_row(s, i, err))
			return false;
		fwrite(s->rec->str, 1, s->rec->len, out->fp);
	}
	for (guint64 i = 0; i < count; i++)
		if (read_record(by_index[i]->fp, by_index[i]->rec))
			return scenario_error(err, "%s: line %llu: found more rows, expected %llu (the shard's variants)",
					      by_index[i]->results, (unsigned long long)by_index[i]->rows + 2,
					      (unsigned long long)by_index[i]->n);
	return true;
}

/* Read every shard's manifest and header; the output directory is none of them. */
static bool open_shards(char **dirs, int n_dirs, const char *outdir, struct shard_in *in,
			GError **err)
{
	g_autofree char *canon_out = g_canonicalize_filename(outdir, NULL);

	for (int i = 0; i < n_dirs; i++) {
		g_autofree char *canon = g_canonicalize_filename(dirs[i], NULL);

		in[i].dir = dirs[i];
		if (strcmp(canon, canon_out) == 0)
			return scenario_error(err, "%s: found the output directory among the shards, expected -o to name another directory",
					      dirs[i]);
		if (!read_shard(&in[i], err))
			return false;
	}
	return true;
}

bool sweep_merge(char **dirs, int n_dirs, const char *outdir, GError **err)
{
	struct shard_in *in = g_new0(struct shard_in, (gsize)n_dirs + 1);
	struct shard_in **by_index = NULL;
	struct cs_outfile *out = NULL;
	guint64 total = 0, count = 0;
	g_autofree char *rpath = g_build_filename(outdir, "results.csv", NULL);
	bool ok = false;

	if (!open_shards(dirs, n_dirs, outdir, in, err))
		goto out;
	count = in[0].count;
	if (!manifest_u64(in[0].manifest, "variants_total", &total)) {
		scenario_error(err, "%s: manifest.json: variants_total: found no whole number, expected the sweep's size",
			       in[0].dir);
		goto out;
	}
	by_index = g_new0(struct shard_in *, (gsize)count);
	if (!check_shards(in, n_dirs, by_index, count, total, err) || !cs_mkdir_p(outdir, err) ||
	    !(out = cs_outfile_open(rpath, true, err)) || !interleave(by_index, count, total, out, err))
		goto out;
	ok = cs_outfile_commit(out, err);
	out = NULL;
	ok = ok && sweep_manifest_write(outdir, merged_manifest(in[0].manifest, by_index, count, total),
					err);
out:
	cs_outfile_abort(out);
	for (int i = 0; i < n_dirs; i++) {
		cJSON_Delete(in[i].manifest);
		if (in[i].fp)
			fclose(in[i].fp);
		if (in[i].rec)
			g_string_free(in[i].rec, TRUE);
		g_free(in[i].results);
	}
	g_free(in);
	g_free(by_index);
	return ok;
}
