// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/sweep_merge.c - `chargesim merge`: the shard directories of one sweep joined into
 * one results.csv, byte-identical to the results.csv of the same sweep run unsharded
 * (see sweep.h). Every shard's manifest must be complete and agree with the others
 * (same sweep file, base scenario and chargesim, every shard I of N once), and every
 * shard must hold exactly its variants, in order: variant i is the next row of shard
 * i % N. Shards are untrusted input (they come back from other machines): each row is
 * checked against the sweep file (its index and varied cells recomputed, its cells
 * written as chargesim writes them), and each results.csv against the SHA-256 its
 * manifest records, so that an edited metric is refused too (docs/scaling.md,
 * "Merging").
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "run/scenario.h"
#include "run/sweep.h"
#include "output/outfile.h"

/* ---- one shard's results.csv, row by row, checked against the sweep file ---- */

#define ROW_MAX (1u << 20)   /* a row longer than this is not one chargesim wrote */

struct sweep_shard_reader {
	const struct sweep *sw;
	FILE *fp;
	char *name;
	GString *rec;
	GChecksum *sum;          /* SHA-256 of every byte read */
	GPtrArray *fields;       /* the last record's cells, unquoted */
	GPtrArray *want;         /* the cells sweep_row_start() gives (varied cells) */
	char **columns;          /* the header's column names */
	int n_columns;
	guint64 line, rows;      /* line of the last record; rows read */
};

/* One CSV record with its newline, honouring quoted line breaks: 1, 0 at the end of
 * the file, -1 when it grows past ROW_MAX. */
static int read_record(struct sweep_shard_reader *r)
{
	bool quoted = false;
	int c;

	g_string_truncate(r->rec, 0);
	while ((c = getc_unlocked(r->fp)) != EOF) {
		g_string_append_c(r->rec, (char)c);
		if (r->rec->len > ROW_MAX)
			return -1;
		if (c == '"')
			quoted = !quoted;
		else if (c == '\n' && !quoted)
			break;
	}
	g_checksum_update(r->sum, (const guchar *)r->rec->str, (gssize)r->rec->len);
	r->line++;
	return r->rec->len > 0;
}

/* A cell for a message: at most 60 bytes, every byte outside printable ASCII (and
 * quotes and backslashes) as \xHH, so that what a shard holds never reaches the
 * terminal raw. */
static char *shown(const char *s, gsize len)
{
	GString *o = g_string_new("\"");

	for (gsize i = 0; i < len && i < 60; i++) {
		guchar c = (guchar)s[i];

		if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
			g_string_append_printf(o, "\\x%02x", c);
		else
			g_string_append_c(o, (char)c);
	}
	g_string_append(o, len > 60 ? "\"..." : "\"");
	return g_string_free(o, FALSE);
}

/* "NAME: line L (variant I): column K (COL): " - where a row's error is. */
static char *where(const struct sweep_shard_reader *r, guint64 index, int field)
{
	GString *w = g_string_new(NULL);

	g_string_append_printf(w, "%s: line %llu", r->name, (unsigned long long)r->line);
	if (index != G_MAXUINT64)
		g_string_append_printf(w, " (the row of variant %llu)", (unsigned long long)index);
	if (field >= 0)
		g_string_append_printf(w, ": column %d (%s)", field + 1,
				       field < r->n_columns ? r->columns[field] : "past the last column");
	return g_string_free(w, FALSE);
}

/* One cell from p: bare up to a comma, or quoted with its quotes doubled; NULL past a
 * quote that is never closed. */
static const char *read_cell(const char *p, const char *end, GString *cell)
{
	g_string_truncate(cell, 0);
	if (p == end || *p != '"') {
		for (; p < end && *p != ','; p++)
			g_string_append_c(cell, *p);
		return p;
	}
	for (p++; p < end; p++) {
		if (*p == '"' && (p + 1 == end || p[1] != '"'))
			return p + 1;
		if (*p == '"')
			p++;
		g_string_append_c(cell, *p);
	}
	return NULL;
}

/*
 * Split a record (its newline dropped) into cells, which must be written as
 * sweep_csv_cell() writes them (quoted only when they hold a comma, quote or line
 * break, quotes doubled), hold no NUL byte and be UTF-8. *bad is the cell at fault.
 */
static bool split_record(const char *p, const char *end, GPtrArray *fields, int *bad,
			 const char **why)
{
	g_autoptr(GString) cell = g_string_new(NULL);
	g_autoptr(GString) again = g_string_new(NULL);

	g_ptr_array_set_size(fields, 0);
	for (;;) {
		const char *from = p;

		*bad = (int)fields->len;
		p = read_cell(p, end, cell);
		if (!p)
			return (*why = "a quote that is never closed"), false;
		if (memchr(cell->str, '\0', cell->len))
			return (*why = "a NUL byte"), false;
		if (!g_utf8_validate(cell->str, (gssize)cell->len, NULL))
			return (*why = "bytes that are not UTF-8"), false;
		g_string_truncate(again, 0);
		sweep_csv_cell(again, cell->str);
		if (again->len != (gsize)(p - from) || memcmp(again->str, from, again->len) != 0)
			return (*why = p < end && *p != ',' ? "text after a quoted cell's closing quote" :
				"quoting unlike chargesim's (a quote or line break in a bare cell, or quotes around a cell that needs none)"),
			       false;
		g_ptr_array_add(fields, g_strdup(cell->str));
		if (p == end)
			return true;
		if (*p++ != ',')
			return (*why = "text after a quoted cell's closing quote"), false;
	}
}

struct sweep_shard_reader *sweep_shard_reader_new(const struct sweep *sw, FILE *fp,
						  const char *name)
{
	struct sweep_shard_reader *r = g_new0(struct sweep_shard_reader, 1);

	r->sw = sw;
	r->fp = fp;
	r->name = g_strdup(name);
	r->rec = g_string_new(NULL);
	r->sum = g_checksum_new(G_CHECKSUM_SHA256);
	r->fields = g_ptr_array_new_with_free_func(g_free);
	r->want = g_ptr_array_new_with_free_func(g_free);
	return r;
}

void sweep_shard_reader_free(struct sweep_shard_reader *r)
{
	if (!r)
		return;
	g_free(r->name);
	g_string_free(r->rec, TRUE);
	g_checksum_free(r->sum);
	g_ptr_array_unref(r->fields);
	g_ptr_array_unref(r->want);
	g_strfreev(r->columns);
	g_free(r);
}

/* The next record, split: false with err naming the line, variant and cell. */
static bool next_record(struct sweep_shard_reader *r, guint64 index, const char *expected,
			GError **err)
{
	int got = read_record(r), bad;
	const char *why;
	g_autofree char *at = NULL;

	if (got <= 0) {
		at = where(r, index, -1);
		return scenario_error(err, "%s: found %s, expected %s", at,
				      got < 0 ? "a row longer than 1 MiB" : "the end of the file", expected);
	}
	if (r->rec->str[r->rec->len - 1] != '\n') {
		split_record(r->rec->str, r->rec->str + r->rec->len, r->fields, &bad, &why);
		at = where(r, index, (int)r->fields->len - 1);
		return scenario_error(err, "%s: found a row cut short (the file ends inside it, with no line end), expected %s",
				      at, expected);
	}
	if (!split_record(r->rec->str, r->rec->str + r->rec->len - 1, r->fields, &bad, &why)) {
		at = where(r, index, bad);
		return scenario_error(err, "%s: found %s, expected a cell as `chargesim sweep` writes it",
				      at, why);
	}
	if ((int)r->fields->len != r->n_columns && r->n_columns) {
		at = where(r, index, MIN((int)r->fields->len, r->n_columns));
		return scenario_error(err, "%s: found a row of %u cells, expected %d (one per column of the header)",
				      at, r->fields->len, r->n_columns);
	}
	return true;
}

bool sweep_shard_reader_header(struct sweep_shard_reader *r, GError **err)
{
	g_autofree char *want = sweep_csv_header(r->sw);
	g_autoptr(GPtrArray) cols = g_ptr_array_new_with_free_func(g_free);
	int bad;
	const char *why;

	/* the sweep's own header, split: the column names of every message */
	split_record(want, want + strlen(want) - 1, cols, &bad, &why);
	r->n_columns = (int)cols->len;
	g_ptr_array_add(cols, NULL);
	r->columns = (char **)g_ptr_array_steal(cols, NULL);
	if (!next_record(r, G_MAXUINT64, "the header", err))
		return false;
	for (int k = 0; k < r->n_columns; k++) {
		const char *have = g_ptr_array_index(r->fields, k);

		if (strcmp(have, r->columns[k]) != 0) {
			g_autofree char *at = where(r, G_MAXUINT64, k);
			g_autofree char *h = shown(have, strlen(have));

			return scenario_error(err, "%s: found the header cell %s, expected \"%s\" (the columns of this sweep file)",
					      at, h, r->columns[k]);
		}
	}
	return true;
}

/* The cells of a row that ran (error cell empty) or failed (error cell set, metric
 * cells empty; its warnings cell, before the error cell, may hold what the run warned
 * of before it failed). */
static bool check_error_cell(struct sweep_shard_reader *r, guint64 index, GError **err)
{
	int e = r->n_columns - 1;
	const char *cell = g_ptr_array_index(r->fields, e);
	g_autofree char *at = NULL, *have = NULL;

	if (g_str_has_prefix(cell, "input error: ") || g_str_has_prefix(cell, "internal error: ")) {
		/* a variant that failed has no metrics */
		for (int k = 1 + r->sw->n_grid + r->sw->n_random; k < e - 1; k++) {
			const char *m = g_ptr_array_index(r->fields, k);

			if (*m) {
				at = where(r, index, k);
				have = shown(m, strlen(m));
				return scenario_error(err, "%s: found %s, expected nothing (the variant failed: its error cell is set)",
						      at, have);
			}
		}
		return true;
	}
	if (!*cell)
		return true;
	at = where(r, index, e);
	have = shown(cell, strlen(cell));
	return scenario_error(err, "%s: found %s, expected nothing, or \"input error: ...\" or \"internal error: ...\"",
			      at, have);
}

bool sweep_shard_reader_next(struct sweep_shard_reader *r, guint64 index, const char **row,
			     gsize *len, GError **err)
{
	g_autofree char *expected = g_strdup_printf("the row of variant %llu", (unsigned long long)index);
	g_autofree char *start = NULL;
	int bad;
	const char *why;

	if (!next_record(r, index, expected, err))
		return false;
	/* the index and the varied cells: as the sweep file gives them for this variant */
	start = sweep_row_start(r->sw, index);
	split_record(start, start + strlen(start), r->want, &bad, &why);
	for (guint k = 0; k < r->want->len; k++) {
		const char *have = g_ptr_array_index(r->fields, k), *want = g_ptr_array_index(r->want, k);

		if (strcmp(have, want) != 0) {
			g_autofree char *at = where(r, index, (int)k);
			g_autofree char *h = shown(have, strlen(have)), *w = shown(want, strlen(want));

			return scenario_error(err, "%s: found %s, expected %s (%s)", at, h, w,
					      k == 0 ? "shard I of N holds variants I, I+N, I+2N ... in order, each once" :
					      "the value the sweep file gives this variant");
		}
	}
	if (!check_error_cell(r, index, err))
		return false;
	r->rows++;
	*row = r->rec->str;
	*len = r->rec->len;
	return true;
}

bool sweep_shard_reader_end(struct sweep_shard_reader *r, const char *sha256, GError **err)
{
	int got = read_record(r);
	const char *have;

	if (got != 0) {
		g_autofree char *at = where(r, G_MAXUINT64, -1);

		return scenario_error(err, "%s: found %s, expected the end of the file after %llu rows (the shard's variants)",
				      at, got < 0 ? "a row longer than 1 MiB" : "another row",
				      (unsigned long long)r->rows);
	}
	have = g_checksum_get_string(r->sum);
	return !sha256 || strcmp(have, sha256) == 0 ||
	       scenario_error(err, "%s: found SHA-256 %s, expected %s (manifest.json: results_sha256): a cell was edited after the sweep wrote it (every index and varied cell is checked against the sweep file, so a metric or error cell); run the shard again",
			      r->name, have, sha256);
}

struct shard_in {
	char *dir;
	char *results;           /* DIR/results.csv */
	cJSON *manifest;
	FILE *fp;
	struct sweep_shard_reader *reader;
	const char *results_sha256;
	guint64 index, count, n;
};

static bool manifest_u64(const cJSON *o, const char *key, guint64 *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	/* whole numbers a double holds exactly (a cast of a larger one is undefined) */
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 9007199254740992.0 ||
	    v->valuedouble != floor(v->valuedouble))
		return false;
	*out = (guint64)v->valuedouble;
	return true;
}

static const char *manifest_str(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* DIR/results.csv for reading: a regular file (a FIFO would block the merge, a device
 * never end), opened without blocking and checked on the descriptor itself. */
static bool open_regular(struct shard_in *s, GError **err)
{
	int fd = open(s->results, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the shard results: %s",
				     s->results, g_strerror(errno)) != NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: found %s, expected the shard's results.csv, a regular file",
				     s->results, S_ISDIR(st.st_mode) ? "a directory" : "a special file") != NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	s->fp = fdopen(fd, "r");
	if (!s->fp)
		close(fd);
	return s->fp || scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the shard results: %s",
				      s->results, g_strerror(errno)) != NULL;
}

/* 64 lower-case hex digits, as GChecksum prints a SHA-256. */
static bool is_sha256(const char *t)
{
	int n = 0;

	for (; t[n]; n++)
		if (!g_ascii_isdigit(t[n]) && !(t[n] >= 'a' && t[n] <= 'f'))
			return false;
	return n == 64;
}

/* The manifest's strings that merge prints or uses: the hashes are hashes, the rest text
 * without control characters (a manifest's bytes never reach the terminal raw). */
static bool manifest_strings_ok(const cJSON *man, const char *mpath, GError **err)
{
	static const char *const hashes[] = { "sweep_sha256", "base_sha256", "results_sha256", NULL };
	static const char *const texts[] = { "chargesim_version", "sweep_file", NULL };

	for (int k = 0; hashes[k]; k++) {
		const char *v = manifest_str(man, hashes[k]);

		if (v && !is_sha256(v)) {
			g_autofree char *have = shown(v, strlen(v));

			return scenario_error(err, "%s: %s: found %s, expected a SHA-256 (64 hexadecimal digits)",
					      mpath, hashes[k], have);
		}
	}
	for (int k = 0; texts[k]; k++) {
		const char *v = manifest_str(man, texts[k]);
		bool ok = !v || g_utf8_validate(v, -1, NULL);

		for (const char *c = v; ok && *c; c++)
			ok = (guchar)*c >= 0x20 && *c != 0x7f;
		if (!ok) {
			g_autofree char *have = shown(v, strlen(v));

			return scenario_error(err, "%s: %s: found %s, expected text without control characters",
					      mpath, texts[k], have);
		}
	}
	return true;
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
	/* shards of chargesim before the row checks have no checksum: refused, not merged
	 * unverified (docs/scaling.md, "Merging") */
	s->results_sha256 = manifest_str(s->manifest, "results_sha256");
	if (!s->results_sha256)
		return scenario_error(err, "%s: results_sha256: found nothing, expected the SHA-256 of the shard's results.csv (a shard written by an older chargesim, which merge cannot verify: run the shard again into a new directory)",
				      mpath);
	if (!manifest_strings_ok(s->manifest, mpath, err))
		return false;
	s->results = g_build_filename(s->dir, "results.csv", NULL);
	return open_regular(s, err);
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

/* A shard's real drivers' kernel files (docs/scaling.md, "Real drivers"), printed for
 * comparison; "none" for a sweep of no linux/ policy. */
static char *kernel_files_text(const struct shard_in *s)
{
	const cJSON *kf = cJSON_GetObjectItemCaseSensitive(s->manifest, "kernel_files");

	return kf ? cJSON_PrintUnformatted(kf) : g_strdup("none");
}

static char *shown_str(const char *s)
{
	return s ? shown(s, strlen(s)) : g_strdup("nothing");
}

/* A hash in full (64 hexadecimal digits are safe to print); anything else escaped. */
static char *shown_sha(const char *s)
{
	return s && is_sha256(s) ? g_strdup(s) : shown_str(s);
}

/*
 * Rows of one driver's bytes and rows of another's are not one sweep (a driver edited
 * and rebuilt between shards): refused as another sweep file is, naming the first
 * kernel file that differs (every string shown escaped: a manifest is input).
 */
static bool same_kernel_files(const struct shard_in *s, const struct shard_in *first,
			      GError **err)
{
	g_autofree char *a = kernel_files_text(first), *b = kernel_files_text(s);
	const cJSON *ka = cJSON_GetObjectItemCaseSensitive(first->manifest, "kernel_files");
	const cJSON *kb = cJSON_GetObjectItemCaseSensitive(s->manifest, "kernel_files");
	const cJSON *pol;

	if (strcmp(a, b) == 0)
		return true;
	cJSON_ArrayForEach(pol, kb) {
		const cJSON *other = cJSON_GetObjectItemCaseSensitive(ka, pol->string);

		for (int i = 0; other && i < cJSON_GetArraySize(pol); i++) {
			const cJSON *fb = cJSON_GetArrayItem(pol, i), *fa = cJSON_GetArrayItem(other, i);
			const char *pb = manifest_str(fb, "path"), *pa = manifest_str(fa, "path");
			const char *hb = manifest_str(fb, "sha256"), *ha = manifest_str(fa, "sha256");
			g_autofree char *name = shown_str(pol->string), *spb = shown_str(pb);
			g_autofree char *shb = shown_sha(hb), *spa = shown_str(pa), *sha = shown_sha(ha);

			if (pa && pb && ha && hb && strcmp(pa, pb) == 0 && strcmp(ha, hb) == 0)
				continue;
			return scenario_error(err, "%s: manifest.json: kernel_files: %s: found %s with SHA-256 %s, expected %s with SHA-256 %s as in %s (shards built from different driver bytes are not one sweep: run every shard with one build)",
					      s->dir, name, spb, shb, spa, sha, first->dir);
		}
	}
	return scenario_error(err, "%s: manifest.json: kernel_files: found %s, expected %s as in %s (shards built from different driver bytes, or of other real drivers, are not one sweep: run every shard with one build)",
			      s->dir, kb ? "other kernel files" : "none", ka ? "the kernel files" : "none",
			      first->dir);
}

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
	if (!same_kernel_files(s, first, err))
		return false;
	if (s->count != count || !manifest_u64(s->manifest, "variants_total", &t) || t != total ||
	    s->n != sweep_shard_size(total, &(struct sweep_shard){ s->index, s->count }))
		return scenario_error(err, "%s: manifest.json: found shard %llu/%llu with variants %llu of variants_total %llu, expected N = %llu and variants_total %llu as in %s, and variants %llu (the size of shard %llu/%llu)",
				      s->dir, (unsigned long long)s->index, (unsigned long long)s->count,
				      (unsigned long long)s->n, (unsigned long long)t,
				      (unsigned long long)count, (unsigned long long)total, first->dir,
				      (unsigned long long)sweep_shard_size(total, &(struct sweep_shard){ s->index, count }),
				      (unsigned long long)s->index, (unsigned long long)count);
	if (by_index[s->index])
		return scenario_error(err, "%s: manifest.json: shard: found shard %llu/%llu a second time (also in %s), expected each shard once",
				      s->dir, (unsigned long long)s->index, (unsigned long long)count,
				      by_index[s->index]->dir);
	by_index[s->index] = s;
	return true;
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

/*
 * The sweep file the shards ran: --sweep FILE, or the path their manifest recorded. Its
 * SHA-256 and its base scenario's must be the manifests'; only then is it parsed (so a
 * manifest naming some other file learns nothing of it).
 */
static struct sweep *load_sweep(const char *file, const struct shard_in *first, guint64 total,
				GError **err)
{
	const char *want = manifest_str(first->manifest, "sweep_sha256");
	const char *want_base = manifest_str(first->manifest, "base_sha256");
	g_autofree char *text = NULL, *sha = NULL;
	struct sweep *sw;
	gsize len;

	if (!file && !(file = manifest_str(first->manifest, "sweep_file")))
		return scenario_error(err, "%s: manifest.json: sweep_file: found nothing, expected the sweep file's path (or pass merge --sweep FILE)",
				      first->dir), NULL;
	text = sweep_read_file(file, "sweep file", &len, err);
	if (!text) {
		g_prefix_error(err, "merge: the sweep file the shards ran (pass --sweep FILE if it moved): ");
		return NULL;
	}
	sha = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	if (strcmp(sha, want) != 0)
		return scenario_error(err, "%s: found SHA-256 %s, expected %s (sweep_sha256 of %s/manifest.json): not the sweep file the shards ran",
				      file, sha, want, first->dir), NULL;
	sw = sweep_load(file, err);
	if (!sw)
		return NULL;
	if (!want_base || strcmp(sw->base_sha256, want_base) != 0 || sw->total != total) {
		scenario_error(err, "%s: found base scenario %s with SHA-256 %s and %llu variants, expected the base_sha256 %s and the variants_total %llu of %s/manifest.json (the base scenario changed since the shards ran: run them again)",
			       file, sw->base_file, sw->base_sha256, (unsigned long long)sw->total,
			       want_base ? want_base : "(none)", (unsigned long long)total, first->dir);
		sweep_free(sw);
		return NULL;
	}
	return sw;
}

/*
 * results.csv: the header, then variant i from shard i % N, each row checked; no shard
 * may hold more, and each shard's bytes must be those its manifest's checksum names.
 * With out NULL, only the checks (the first pass: nothing is written, not even -o's
 * directory, before every shard has passed); the second pass checks again as it writes.
 */
static bool interleave(const struct sweep *sw, struct shard_in **by_index, guint64 count,
		       guint64 total, struct cs_outfile *out, GChecksum *sum, GError **err)
{
	g_autofree char *header = sweep_csv_header(sw);

	for (guint64 i = 0; i < count; i++) {
		struct shard_in *s = by_index[i];

		sweep_shard_reader_free(s->reader);
		rewind(s->fp);
		s->reader = sweep_shard_reader_new(sw, s->fp, s->results);
		if (!sweep_shard_reader_header(s->reader, err))
			return false;
	}
	if (out) {
		fputs(header, out->fp);
		g_checksum_update(sum, (const guchar *)header, (gssize)strlen(header));
	}
	for (guint64 i = 0; i < total; i++) {
		const char *row;
		gsize len;

		if (!sweep_shard_reader_next(by_index[i % count]->reader, i, &row, &len, err))
			return false;
		if (out) {
			fwrite(row, 1, len, out->fp);
			g_checksum_update(sum, (const guchar *)row, (gssize)len);
		}
	}
	for (guint64 i = 0; i < count; i++)
		if (!sweep_shard_reader_end(by_index[i]->reader, by_index[i]->results_sha256, err))
			return false;
	return true;
}

/* Read every shard's manifest; the output directory is none of them. */
static bool open_shards(char **dirs, int n_dirs, const char *outdir, struct shard_in *in,
			GError **err)
{
	g_autofree char *canon_out = g_canonicalize_filename(outdir, NULL);
	struct stat out_st, st;
	bool out_exists = stat(outdir, &out_st) == 0;

	for (int i = 0; i < n_dirs; i++) {
		g_autofree char *canon = g_canonicalize_filename(dirs[i], NULL);

		in[i].dir = dirs[i];
		/* by name, and by inode when -o exists (a symbolic link to a shard) */
		if (strcmp(canon, canon_out) == 0 ||
		    (out_exists && stat(dirs[i], &st) == 0 && st.st_dev == out_st.st_dev &&
		     st.st_ino == out_st.st_ino))
			return scenario_error(err, "%s: found the output directory among the shards, expected -o to name another directory",
					      dirs[i]);
		if (!read_shard(&in[i], err))
			return false;
	}
	return true;
}

static void close_shards(struct shard_in *in, int n_dirs)
{
	for (int i = 0; i < n_dirs; i++) {
		cJSON_Delete(in[i].manifest);
		if (in[i].fp)
			fclose(in[i].fp);
		sweep_shard_reader_free(in[i].reader);
		g_free(in[i].results);
	}
	g_free(in);
}

/*
 * Every shard is merged at once, so N is at most the directories given: a manifest's N
 * never sizes an allocation beyond that. With more, some shard of 0..n_dirs is missing
 * (n_dirs directories cannot hold n_dirs + 1 indices): name the first.
 */
static void missing_shard(const struct shard_in *in, int n_dirs, guint64 count, guint64 total,
			  GError **err)
{
	g_autofree bool *seen = g_new0(bool, (gsize)n_dirs + 1);
	int i = 0;

	if (total > SWEEP_MAX_VARIANTS) {
		scenario_error(err, "%s: manifest.json: variants_total: found %llu, expected at most %llu",
			       in[0].dir, (unsigned long long)total, SWEEP_MAX_VARIANTS);
		return;
	}
	for (int k = 0; k < n_dirs; k++)
		if (in[k].index <= (guint64)n_dirs)
			seen[in[k].index] = true;
	while (seen[i])
		i++;
	scenario_error(err, "merge: found no directory for shard %d/%llu (N from %s/manifest.json), expected all %llu shards of the sweep",
		       i, (unsigned long long)count, in[0].dir, (unsigned long long)count);
}

bool sweep_merge(char **dirs, int n_dirs, const char *sweep_file, const char *outdir,
		 GError **err)
{
	struct shard_in *in = g_new0(struct shard_in, (gsize)n_dirs + 1);
	struct shard_in **by_index = NULL;
	struct cs_outfile *out = NULL;
	struct sweep *sw = NULL;
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint64 total = 0, count = 0;
	g_autofree char *rpath = g_build_filename(outdir, "results.csv", NULL);
	cJSON *man;
	bool ok = false;

	if (!open_shards(dirs, n_dirs, outdir, in, err))
		goto out;
	count = in[0].count;
	if (!manifest_u64(in[0].manifest, "variants_total", &total)) {
		scenario_error(err, "%s: manifest.json: variants_total: found no whole number, expected the sweep's size",
			       in[0].dir);
		goto out;
	}
	if (count > (guint64)n_dirs || total > SWEEP_MAX_VARIANTS) {
		missing_shard(in, n_dirs, count, total, err);
		goto out;
	}
	by_index = g_new0(struct shard_in *, (gsize)count);
	if (!check_shards(in, n_dirs, by_index, count, total, err) ||
	    !(sw = load_sweep(sweep_file, &in[0], total, err)) ||
	    !interleave(sw, by_index, count, total, NULL, NULL, err) || !cs_mkdir_p(outdir, err) ||
	    !(out = cs_outfile_open(rpath, true, err)) ||
	    !interleave(sw, by_index, count, total, out, sum, err))
		goto out;
	ok = cs_outfile_commit(out, err);
	out = NULL;
	man = merged_manifest(in[0].manifest, by_index, count, total);
	cJSON_ReplaceItemInObjectCaseSensitive(man, "results_sha256",
					       cJSON_CreateString(g_checksum_get_string(sum)));
	if (ok)
		ok = sweep_manifest_write(outdir, man, err);
	else
		cJSON_Delete(man);
out:
	cs_outfile_abort(out);
	close_shards(in, n_dirs);
	sweep_free(sw);
	g_free(by_index);
	return ok;
}
