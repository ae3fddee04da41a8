// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/score_merge.c - score-manifest.json, and the merge of a score's shards
 * (run/score_merge.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "run/score_merge.h"
#include "run/score_table.h"
#include "run/world.h"
#include "traces/infile.h"

#define SCORE_CSV_CAP (1024ull * 1024 * 1024)   /* 1 GiB: millions of rows */

/* The kernel files each real driver scored was compiled from (docs/linux-drivers.md
 * section 2), by policy: shards whose drivers came from other bytes are not one
 * score, so merge refuses them as it refuses another seed. */
static void add_kernel_files(cJSON *m, const struct score_options *o)
{
	cJSON *kf = NULL;

	for (int k = 0; k < o->n_pol; k++) {
		cJSON *f = o->pol[k].driver ? world_kernel_files_json(o->pol[k].driver) : NULL;

		if (!f)
			continue;
		if (!kf)
			kf = cJSON_AddObjectToObject(m, "kernel_files");
		if (cJSON_GetObjectItemCaseSensitive(kf, o->pol[k].driver))
			cJSON_Delete(f);
		else
			cJSON_AddItemToObject(kf, o->pol[k].driver, f);
	}
}

cJSON *score_manifest_json(const struct score_options *o, const char *csv)
{
	cJSON *m = cJSON_CreateObject(), *p, *w, *d, *pols, *sh;
	char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, csv, -1);

	cJSON_AddStringToObject(m, "chargesim_version", CHARGESIM_VERSION);
	cJSON_AddNumberToObject(m, "seed", o->seed);
	cJSON_AddNumberToObject(m, "setups", o->n);
	p = cJSON_AddObjectToObject(m, "population");
	cJSON_AddStringToObject(p, "name", o->pop->name);
	cJSON_AddStringToObject(p, "sha256", o->pop->sha256);
	w = cJSON_AddObjectToObject(p, "classes");
	for (int c = 0; c < o->pop->n_class; c++)
		cJSON_AddNumberToObject(w, o->pop->cls[c].name, o->pop->cls[c].weight);
	d = cJSON_AddObjectToObject(m, "oracle");
	cJSON_AddNumberToObject(d, "grid_min_A", o->oracle.grid_min_a);
	cJSON_AddNumberToObject(d, "grid_step_A", o->oracle.grid_step_a);
	cJSON_AddNumberToObject(d, "out_of_limit_max_s", o->oracle.in_limit_s);
	pols = cJSON_AddArrayToObject(m, "policies");
	for (int k = 0; k < o->n_pol; k++)
		cJSON_AddItemToArray(pols, cJSON_CreateString(o->pol[k].spec));
	add_kernel_files(m, o);
	sh = cJSON_AddObjectToObject(m, "shard");
	cJSON_AddNumberToObject(sh, "index", o->shard_i);
	cJSON_AddNumberToObject(sh, "count", o->shard_n);
	cJSON_AddStringToObject(m, "score_csv_sha256", sha);
	g_free(sha);
	return m;
}

bool score_manifest_exists(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, SCORE_MANIFEST, NULL);

	return g_file_test(path, G_FILE_TEST_IS_REGULAR);
}

void score_manifest_clear(struct score_manifest *m)
{
	population_clear(&m->pop);
	g_strfreev(m->policies);
	g_free(m->sha256);
	cJSON_Delete(m->doc);
	memset(m, 0, sizeof(*m));
}

static char *read_input(const char *path, gsize *len, GError **err)
{
	const char *found = NULL;
	int fd = cs_open_regular(path, &found);
	char *text;
	int e = 0;

	if (fd < 0) {
		g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT, "%s: %s", path,
			    found ? found : g_strerror(errno));
		if (found)
			g_prefix_error(err, "found ");
		return NULL;
	}
	text = cs_read_capped(fd, SCORE_CSV_CAP, len, &e);
	close(fd);
	if (!text)
		g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT, "%s: %s", path,
			    e ? g_strerror(e) : "larger than 1 GiB");
	return text;
}

static bool bad(GError **err, const char *file, const char *what)
{
	g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT, "%s: %s", file, what);
	return false;
}

static double num_at(const cJSON *o, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);

	if (b)
		v = cJSON_GetObjectItemCaseSensitive(v, b);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* The manifest's fields into m (m->doc keeps the rest, the shard and SHA-256 taken). */
static bool manifest_fields(cJSON *doc, const char *file, struct score_manifest *m, GError **err)
{
	const cJSON *pols = cJSON_GetObjectItemCaseSensitive(doc, "policies");
	const cJSON *pop = cJSON_GetObjectItemCaseSensitive(doc, "population");
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(pop, "classes");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(pop, "name");
	const cJSON *psha = cJSON_GetObjectItemCaseSensitive(pop, "sha256");
	cJSON *sha = cJSON_DetachItemFromObjectCaseSensitive(doc, "score_csv_sha256");
	cJSON *sh = cJSON_DetachItemFromObjectCaseSensitive(doc, "shard");
	int k = 0;
	const cJSON *p;

	m->doc = doc;
	m->seed = (guint32)num_at(doc, "seed", NULL);
	m->n = (int)num_at(doc, "setups", NULL);
	m->shard_i = (int)num_at(sh, "index", NULL);
	m->shard_n = (int)num_at(sh, "count", NULL);
	m->sha256 = cJSON_IsString(sha) ? g_strdup(sha->valuestring) : NULL;
	m->oracle.grid_min_a = num_at(doc, "oracle", "grid_min_A");
	m->oracle.grid_step_a = num_at(doc, "oracle", "grid_step_A");
	m->oracle.in_limit_s = num_at(doc, "oracle", "out_of_limit_max_s");
	cJSON_Delete(sha);
	cJSON_Delete(sh);
	if (!cJSON_IsArray(pols) || !cJSON_IsString(name) || !cJSON_IsObject(w) || !m->sha256 ||
	    !cJSON_IsString(psha) || cJSON_GetArraySize(w) < 1 ||
	    cJSON_GetArraySize(w) > POP_MAX_CLASSES ||
	    m->n < 1 || m->shard_n < 1 || m->shard_i < 0 || m->shard_i >= m->shard_n)
		return bad(err, file, "found another manifest, expected the score-manifest.json "
			   "`chargesim score` writes");
	m->n_pol = cJSON_GetArraySize(pols);
	m->policies = g_new0(char *, m->n_pol + 1);
	cJSON_ArrayForEach(p, pols)
		m->policies[k++] = g_strdup(cJSON_IsString(p) ? p->valuestring : "");
	m->pop.name = g_strdup(name->valuestring);
	m->pop.sha256 = g_strdup(psha->valuestring);
	cJSON_ArrayForEach(p, w) {
		m->pop.cls[m->pop.n_class].name = g_strdup(p->string);
		m->pop.cls[m->pop.n_class++].weight = cJSON_IsNumber(p) ? p->valuedouble : 0;
	}
	return true;
}

/* One shard directory: its manifest and score.csv, the checksum checked. */
static bool read_shard(const char *dir, struct score_manifest *m, char **csv, GError **err)
{
	g_autofree char *mpath = g_build_filename(dir, SCORE_MANIFEST, NULL);
	g_autofree char *cpath = g_build_filename(dir, "score.csv", NULL);
	g_autofree char *mtext = NULL, *sha = NULL;
	cJSON *doc;
	gsize len;

	mtext = read_input(mpath, &len, err);
	if (!mtext)
		return false;
	doc = cJSON_ParseWithLength(mtext, len);
	if (!cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		return bad(err, mpath, "found no JSON object, expected a score's manifest");
	}
	if (!manifest_fields(doc, mpath, m, err))
		return false;
	*csv = read_input(cpath, &len, err);
	if (!*csv)
		return false;
	sha = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)*csv, len);
	if (strcmp(sha, m->sha256) != 0)
		return bad(err, cpath, "found other content than its manifest's SHA-256 names "
			   "(edited or cut short?), expected score.csv as `chargesim score` wrote it");
	return true;
}

/* The shards' manifests agree, and each shard I of N is there once. */
static bool check_set(char **dirs, int n_dirs, struct score_manifest *m, GError **err)
{
	g_autofree char *first = cJSON_PrintUnformatted(m[0].doc);
	g_autofree bool *seen = g_new0(bool, m[0].shard_n);

	for (int d = 0; d < n_dirs; d++) {
		g_autofree char *mine = cJSON_PrintUnformatted(m[d].doc);

		if (strcmp(mine, first) != 0 || m[d].shard_n != m[0].shard_n) {
			g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT,
				    "%s: found the shard of another score than %s's (seed, setups, "
				    "population, oracle, policies, their kernel files or chargesim "
				    "differ), expected shards of one score", dirs[d], dirs[0]);
			return false;
		}
		if (seen[m[d].shard_i]) {
			g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT,
				    "%s: found shard %d/%d a second time, expected each shard once",
				    dirs[d], m[d].shard_i, m[d].shard_n);
			return false;
		}
		seen[m[d].shard_i] = true;
	}
	for (int i = 0; i < m[0].shard_n; i++)
		if (!seen[i]) {
			g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT,
				    "shard %d/%d is missing: found %d shard director%s, expected %d",
				    i, m[0].shard_n, n_dirs, n_dirs == 1 ? "y" : "ies", m[0].shard_n);
			return false;
		}
	return true;
}

/* Interleave: setup i's rows (n_pol lines) come from shard i % N, in order. */
static bool interleave(char **dirs, char **csvs, struct score_manifest *m, int n_dirs,
		       GString *out, GError **err)
{
	const char *end = strchr(csvs[0], '\n');
	g_autofree char *header = end ? g_strndup(csvs[0], end + 1 - csvs[0]) : NULL;
	g_autofree const char **pos = g_new0(const char *, m[0].shard_n);
	g_autofree int *dir_of = g_new0(int, m[0].shard_n);

	for (int d = 0; d < n_dirs; d++) {
		if (!header || strncmp(csvs[d], header, strlen(header)) != 0)
			return bad(err, dirs[d], "score.csv: found another header than the first shard's, "
				   "expected score.csv's");
		pos[m[d].shard_i] = csvs[d] + strlen(header);
		dir_of[m[d].shard_i] = d;
	}
	g_string_append(out, header);
	for (int i = 0; i < m[0].n; i++) {
		int s = i % m[0].shard_n;
		const char *p = pos[s];
		g_autofree char *want = g_strdup_printf("%u,%d,", m[0].seed, i);

		for (int k = 0; k < m[0].n_pol; k++) {
			const char *nl = strchr(p, '\n');

			if (!nl || strncmp(p, want, strlen(want)) != 0) {
				g_autofree char *what = g_strdup_printf(
					"score.csv: found no row %d of setup %d, expected it (every setup "
					"of the shard, each with a row per policy)", k + 1, i);

				return bad(err, dirs[dir_of[s]], what);
			}
			g_string_append_len(out, p, nl + 1 - p);
			p = nl + 1;
		}
		pos[s] = p;
	}
	for (int s = 0; s < m[0].shard_n; s++)
		if (*pos[s])
			return bad(err, dirs[dir_of[s]], "score.csv: found rows after the shard's last "
				   "setup, expected none");
	return true;
}

bool score_merge(char **dirs, int n_dirs, char **csv, struct score_manifest *man, GError **err)
{
	struct score_manifest *m = g_new0(struct score_manifest, n_dirs);
	char **csvs = g_new0(char *, n_dirs + 1);
	GString *out = g_string_new(NULL);
	bool ok = true;

	for (int d = 0; d < n_dirs && ok; d++)
		ok = read_shard(dirs[d], &m[d], &csvs[d], err);
	ok = ok && check_set(dirs, n_dirs, m, err) && interleave(dirs, csvs, m, n_dirs, out, err);
	if (ok) {
		*man = m[0];
		memset(&m[0], 0, sizeof(m[0]));
		man->shard_i = 0;
		man->shard_n = 1;
		g_clear_pointer(&man->sha256, g_free);
		*csv = g_string_free(out, FALSE);
	} else {
		g_string_free(out, TRUE);
	}
	for (int d = 0; d < n_dirs; d++)
		score_manifest_clear(&m[d]);
	g_free(m);
	g_strfreev(csvs);
	return ok;
}
