// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_sweep.c - sweep files (run/sweep.h): variant order, seeds and random
 * samples against values computed by hand from the documented formulas (SplitMix64's
 * published first outputs; the rest with an independent script), results.csv cells,
 * shards and their Slurm fallback, the messages for malformed sweep files, and the
 * runner (run/sweep_runner.h): rows in index order whatever the workers, a shard's
 * own variants, resume from a chunk, progress reported through its callbacks.
 *
 * Every test writes its sweep and a small base scenario into its own temporary
 * directory and removes it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "run/sweep.h"
#include "run/sweep_runner.h"
#include "run/scenario.h"
#include "tests/suites.h"
#include "tests/testutil.h"

static const char base_json[] =
	"{ \"name\": \"sweep-base\", \"seed\": 1, \"duration\": \"10 min\",\n"
	"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"2.2 A\" },\n"
	"  \"cable\": { \"length\": \"1 m\", \"awg\": 24 },\n"
	"  \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"ichg\": \"1.5 A\" },\n"
	"              \"battery\": { \"preset\": \"eb425161lu\", \"soc\": \"50 %\" },\n"
	"              \"load\": { \"current\": \"0 mA\" } },\n"
	"  \"policy\": { \"name\": \"fixed\", \"params\": { \"ilim\": \"2 A\" } } }\n";

struct fixture {
	char *dir;
	char *file;
};

static void fx_open(struct fixture *fx, const char *sweep_json)
{
	g_autofree char *base = NULL;

	fx->dir = tu_make_tmpdir("cs-sweep-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fx->dir);
	base = g_build_filename(fx->dir, "base.json", NULL);
	fx->file = g_build_filename(fx->dir, "sweep.json", NULL);
	CU_ASSERT_FATAL(g_file_set_contents(base, base_json, -1, NULL));
	CU_ASSERT_FATAL(g_file_set_contents(fx->file, sweep_json, -1, NULL));
}

static void fx_close(struct fixture *fx)
{
	tu_rm_tree(fx->dir);
	g_free(fx->dir);
	g_free(fx->file);
}

/* Load a sweep file and expect it to fail with a message holding every string of
 * `want` (NULL-terminated). */
static void expect_error(const char *sweep_json, const char *const *want)
{
	struct fixture fx;
	GError *err = NULL;
	struct sweep *sw;

	fx_open(&fx, sweep_json);
	sw = sweep_load(fx.file, &err);
	CU_ASSERT_PTR_NULL(sw);
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err) {
		CU_ASSERT(g_str_has_prefix(err->message, fx.file));
		for (int i = 0; want[i]; i++)
			if (!strstr(err->message, want[i])) {
				fprintf(stderr, "\n  message \"%s\" lacks \"%s\"\n", err->message, want[i]);
				CU_FAIL("message lacks an expected part");
			}
	}
	g_clear_error(&err);
	sweep_free(sw);
	fx_close(&fx);
}

/* SplitMix64 (Steele, Lea, Flood 2014) from state 0: first outputs 0xe220a8397b1dcdaf
 * and 0x6e789e6aa1b965f4; the finaliser applied to gamma and 2 * gamma gives them. */
static void test_mix64_reference(void)
{
	CU_ASSERT_EQUAL(sweep_mix64(0), 0xe220a8397b1dcdafull);
	CU_ASSERT_EQUAL(sweep_mix64(0x9e3779b97f4a7c15ull), 0x6e789e6aa1b965f4ull);
}

/* seed = mix64(sweep_seed * 2^32 + index) >> 32, values from an independent script. */
static void test_variant_seed(void)
{
	CU_ASSERT_EQUAL(sweep_variant_seed(1, 0), 3291240986u);
	CU_ASSERT_EQUAL(sweep_variant_seed(1, 1), 541299110u);
	CU_ASSERT_EQUAL(sweep_variant_seed(42, 0), 3932676849u);
	CU_ASSERT_EQUAL(sweep_variant_seed(42, 199), 2215331909u);
}

/* Keys in file order, the last fastest: index = i_ilim * 3 + i_length. */
static void test_grid_order(void)
{
	struct fixture fx;
	GError *err = NULL;
	struct sweep *sw;

	fx_open(&fx, "{ \"base\": \"base.json\", \"seed\": 42,\n"
		     "  \"vary\": { \"source.ilim\": [\"1 A\", \"2 A\"],\n"
		     "            \"cable.length\": [\"1 m\", 2, \"3 m\"] } }\n");
	sw = sweep_load(fx.file, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(sw->total, 6);
	{
		static const char *const want[6][3] = {
			{ "seed=3932676849", "source.ilim=\"1 A\"", "cable.length=\"1 m\"" },
			{ NULL, "source.ilim=\"1 A\"", "cable.length=2" },
			{ NULL, "source.ilim=\"1 A\"", "cable.length=\"3 m\"" },
			{ NULL, "source.ilim=\"2 A\"", "cable.length=\"1 m\"" },
			{ NULL, "source.ilim=\"2 A\"", "cable.length=2" },
			{ NULL, "source.ilim=\"2 A\"", "cable.length=\"3 m\"" },
		};

		for (guint64 i = 0; i < 6; i++) {
			g_auto(GStrv) sets = sweep_variant_sets(sw, i);

			CU_ASSERT_EQUAL(g_strv_length(sets), 3);
			if (want[i][0])
				CU_ASSERT_STRING_EQUAL(sets[0], want[i][0]);
			CU_ASSERT_STRING_EQUAL(sets[1], want[i][1]);
			CU_ASSERT_STRING_EQUAL(sets[2], want[i][2]);
		}
	}
	{
		g_autofree char *h = sweep_csv_header(sw);

		CU_ASSERT(g_str_has_prefix(h, "index,source.ilim,cable.length,vbus_min_V,"));
		CU_ASSERT(g_str_has_suffix(h, ",error\n"));
	}
	sweep_free(sw);
	fx_close(&fx);
}

/* Random sample r of range j: u = (mix64(mix64(S * 2^32 + r) + j) >> 11) / 2^53;
 * the values below were computed by an independent script for S = 9. */
static void test_random_samples(void)
{
	static const char *const lengths[4] = { "2.2966", "1.74651", "2.15933", "2.84629" };
	static const char *const awgs[4] = { "26", "28", "26", "24" };
	struct fixture fx;
	GError *err = NULL;
	struct sweep *sw;

	fx_open(&fx, "{ \"base\": \"base.json\",\n"
		     "  \"vary\": { \"policy\": [\"fixed\", \"none\"] },\n"
		     "  \"random\": { \"n\": 4, \"seed\": 9, \"ranges\": {\n"
		     "     \"cable.length\": [\"1 m\", \"3000 mm\"], \"cable.awg\": [24, 28] } } }\n");
	sw = sweep_load(fx.file, &err);
	if (!sw)
		fprintf(stderr, "\n  %s\n", err->message);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(sw->total, 8);
	for (guint64 i = 0; i < 8; i++) {
		g_auto(GStrv) sets = sweep_variant_sets(sw, i);
		g_autofree char *len = g_strdup_printf("cable.length=%s", lengths[i % 4]);
		g_autofree char *awg = g_strdup_printf("cable.awg=%s", awgs[i % 4]);

		/* the sample number varies fastest; both grid points see the same samples */
		CU_ASSERT_STRING_EQUAL(sets[1], i < 4 ? "policy=\"fixed\"" : "policy=\"none\"");
		CU_ASSERT_STRING_EQUAL(sets[2], len);
		CU_ASSERT_STRING_EQUAL(sets[3], awg);
	}
	sweep_free(sw);
	fx_close(&fx);
}

/* One variant run gives one row: index, values, metrics, empty error cell. */
static void test_run_variant_row(void)
{
	struct fixture fx;
	GError *err = NULL;
	struct sweep *sw;
	char *row;
	int failed = -1;

	fx_open(&fx, "{ \"base\": \"base.json\", \"vary\": { \"device.load.current\": [\"100 mA\", 0.2] } }\n");
	sw = sweep_load(fx.file, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	row = sweep_run_variant(sw, 1, NULL, &failed);
	CU_ASSERT_EQUAL(failed, 0);
	CU_ASSERT(g_str_has_prefix(row, "1,0.2,"));
	CU_ASSERT(g_str_has_suffix(row, ",fixed,,\n"));   /* policy metric, no warnings, empty error */
	{
		g_auto(GStrv) cells = g_strsplit(row, ",", -1);
		g_autofree char *h = sweep_csv_header(sw);
		g_auto(GStrv) names = g_strsplit(h, ",", -1);

		CU_ASSERT_EQUAL(g_strv_length(cells), g_strv_length(names));
	}
	g_free(row);
	sweep_free(sw);
	fx_close(&fx);
}

/* metrics.json's value text for key, from the file as written ("\tKEY\":\tVALUE,"):
 * a string unquoted, null as the empty text; NULL when the key is not there. */
static char *metrics_text(const char *json, const char *key)
{
	g_autofree char *pat = g_strdup_printf("\t\"%s\":\t", key);
	const char *p = strstr(json, pat), *e;

	if (!p)
		return NULL;
	p += strlen(pat);
	e = p + strcspn(p, ",\n");
	if (e - p == 4 && strncmp(p, "null", 4) == 0)
		return g_strdup("");
	if (*p == '"')
		return g_strndup(p + 1, (gsize)(e - p - 2));
	return g_strndup(p, (gsize)(e - p));
}

/* A row's metric cells are the values the variant's metrics.json holds, as text (a
 * null empty): every metric column of the sweep compared, two variants, one of them
 * with metrics that are null (not charged to 80 % or full in 10 minutes). */
static void test_run_variant_metric_cells(void)
{
	struct fixture fx;
	GError *err = NULL;
	struct sweep *sw;
	int failed = -1, compared = 0, nulls = 0;

	fx_open(&fx, "{ \"base\": \"base.json\", \"vary\": { \"device.load.current\": "
		     "[\"100 mA\", 0.2] } }\n");
	sw = sweep_load(fx.file, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	for (guint64 i = 0; i < 2; i++) {
		g_autofree char *out = g_strdup_printf("%s/v%d", fx.dir, (int)i);
		g_autofree char *row = sweep_run_variant(sw, i, out, &failed);
		g_autofree char *mpath = g_build_filename(out, "metrics.json", NULL);
		g_autofree char *json = NULL;
		g_autofree char *h = sweep_csv_header(sw);
		g_auto(GStrv) names = g_strsplit(h, ",", -1);
		g_auto(GStrv) cells = g_strsplit(row, ",", -1);

		CU_ASSERT_EQUAL(failed, 0);
		CU_ASSERT_FATAL(g_file_get_contents(mpath, &json, NULL, NULL));
		CU_ASSERT_EQUAL_FATAL(g_strv_length(cells), g_strv_length(names));
		for (int c = 0; names[c]; c++) {
			g_autofree char *want = metrics_text(json, names[c]);

			if (!want)
				continue;
			CU_ASSERT_STRING_EQUAL(cells[c], want);
			compared++;
			nulls += !*want;
		}
	}
	CU_ASSERT(compared >= 2 * 20);
	CU_ASSERT(nulls >= 2);
	sweep_free(sw);
	fx_close(&fx);
}

static void test_csv_cells(void)
{
	GString *s = g_string_new(NULL);

	sweep_csv_cell(s, "1.5 A");
	g_string_append_c(s, '|');
	sweep_csv_cell(s, "a,b");
	g_string_append_c(s, '|');
	sweep_csv_cell(s, "say \"hi\"");
	g_string_append_c(s, '|');
	sweep_csv_cell(s, "two\nlines");
	CU_ASSERT_STRING_EQUAL(s->str, "1.5 A|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"");
	g_string_free(s, TRUE);
}

static void test_shards(void)
{
	struct sweep_shard sh;
	GError *err = NULL;
	static const char *const bad[] = { "5/4", "4/4", "1/0", "x/2", "-1/2", "1", "1/2/3", "/2", "" };

	CU_ASSERT(sweep_parse_shard("3/4", &sh, NULL));
	CU_ASSERT_EQUAL(sh.index, 3);
	CU_ASSERT_EQUAL(sh.count, 4);
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		CU_ASSERT_FALSE(sweep_parse_shard(bad[i], &sh, &err));
		CU_ASSERT(err && strstr(err->message, "--shard") && strstr(err->message, "0 <= I < N"));
		g_clear_error(&err);
	}
	/* 10 variants in 3 shards: 0 3 6 9 | 1 4 7 | 2 5 8; 2 variants in 4: 1 1 0 0 */
	CU_ASSERT_EQUAL(sweep_shard_size(10, &(struct sweep_shard){ 0, 3 }), 4);
	CU_ASSERT_EQUAL(sweep_shard_size(10, &(struct sweep_shard){ 1, 3 }), 3);
	CU_ASSERT_EQUAL(sweep_shard_size(10, &(struct sweep_shard){ 2, 3 }), 3);
	CU_ASSERT_EQUAL(sweep_shard_size(2, &(struct sweep_shard){ 1, 4 }), 1);
	CU_ASSERT_EQUAL(sweep_shard_size(2, &(struct sweep_shard){ 3, 4 }), 0);
}

static void test_shard_from_slurm(void)
{
	struct sweep_shard sh = { 0, 1 };
	GError *err = NULL;

	g_unsetenv("SLURM_ARRAY_TASK_ID");
	g_unsetenv("SLURM_ARRAY_TASK_COUNT");
	g_unsetenv("SLURM_ARRAY_TASK_MIN");
	g_unsetenv("SLURM_ARRAY_TASK_STEP");
	CU_ASSERT_FALSE(sweep_shard_from_env(&sh, &err));
	CU_ASSERT_PTR_NULL(err);

	g_setenv("SLURM_ARRAY_TASK_ID", "3", TRUE);
	g_setenv("SLURM_ARRAY_TASK_COUNT", "4", TRUE);
	CU_ASSERT(sweep_shard_from_env(&sh, &err));
	CU_ASSERT_EQUAL(sh.index, 3);
	CU_ASSERT_EQUAL(sh.count, 4);

	/* --array=1-4: tasks 1..4 are shards 0..3 */
	g_setenv("SLURM_ARRAY_TASK_MIN", "1", TRUE);
	CU_ASSERT(sweep_shard_from_env(&sh, &err));
	CU_ASSERT_EQUAL(sh.index, 2);

	g_setenv("SLURM_ARRAY_TASK_STEP", "2", TRUE);
	CU_ASSERT_FALSE(sweep_shard_from_env(&sh, &err));
	CU_ASSERT(err && strstr(err->message, "SLURM_ARRAY_TASK_STEP=2"));
	g_clear_error(&err);
	g_unsetenv("SLURM_ARRAY_TASK_STEP");

	g_unsetenv("SLURM_ARRAY_TASK_MIN");
	g_setenv("SLURM_ARRAY_TASK_ID", "5", TRUE);
	CU_ASSERT_FALSE(sweep_shard_from_env(&sh, &err));
	CU_ASSERT(err && strstr(err->message, "SLURM_ARRAY_TASK_ID=5"));
	g_clear_error(&err);

	g_unsetenv("SLURM_ARRAY_TASK_COUNT");
	CU_ASSERT_FALSE(sweep_shard_from_env(&sh, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	g_clear_error(&err);
	g_unsetenv("SLURM_ARRAY_TASK_ID");
}

static void test_malformed(void)
{
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"source.ilimm\": [\"1 A\"] } }",
		     (const char *const[]){ "vary[\"source.ilimm\"][0]", "unknown key \"ilimm\"", "did you mean \"ilim\"", NULL });
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"source.ilim\": [] } }",
		     (const char *const[]){ "vary[\"source.ilim\"]", "empty list", NULL });
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"source.ilim\": [\"1 A\", \"2 m\"] } }",
		     (const char *const[]){ "vary[\"source.ilim\"][1]", "\"2 m\" (length)", "(current)", "one dimension", NULL });
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"source.ilim\": [\"5 V\"] } }",
		     (const char *const[]){ "vary[\"source.ilim\"][0]", "a voltage", NULL });
	expect_error("{ \"vary\": { \"source.ilim\": [\"1 A\"] } }",
		     (const char *const[]){ "base: found nothing", NULL });
	expect_error("{ \"base\": \"missing.json\", \"vary\": { \"source.ilim\": [\"1 A\"] } }",
		     (const char *const[]){ "base:", "missing.json", NULL });
	expect_error("{ \"base\": \"base.json\", \"varry\": { \"source.ilim\": [\"1 A\"] } }",
		     (const char *const[]){ "varry", "did you mean \"vary\"", NULL });
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"source.ilim\": \"1 A\" } }",
		     (const char *const[]){ "vary[\"source.ilim\"]", "expected a list", NULL });
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"policy\": [\"fixed\", \"nope\"] } }",
		     (const char *const[]){ "vary[\"policy\"][1]", "\"nope\"", NULL });
	expect_error("{ \"base\": \"base.json\", \"random\": { \"n\": 3, \"ranges\": { \"cable.length\": [\"2 m\", \"1 A\"] } } }",
		     (const char *const[]){ "random.ranges[\"cable.length\"]", "one dimension", NULL });
	expect_error("{ \"base\": \"base.json\", \"random\": { \"n\": 3, \"ranges\": { \"cable.length\": [\"3 m\", \"1 m\"] } } }",
		     (const char *const[]){ "random.ranges[\"cable.length\"]", "low <= high", NULL });
	expect_error("{ \"base\": \"base.json\", \"random\": { \"n\": 0, \"ranges\": { \"cable.length\": [\"1 m\", \"3 m\"] } } }",
		     (const char *const[]){ "random.n", NULL });
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"cable.length\": [\"1 m\"] },\n"
		     "  \"random\": { \"n\": 2, \"ranges\": { \"cable.length\": [\"1 m\", \"3 m\"] } } }",
		     (const char *const[]){ "already varied", NULL });
	expect_error("{ \"base\": \"base.json\", \"vary\": { \"a\": [1], \"a\": [2] } }",
		     (const char *const[]){ "twice", NULL });
	expect_error("{ \"base\": \"base.json\",\n \"vary\": { \"source.ilim\": [\"1 A\",] } }",
		     (const char *const[]){ ":2:", "syntax", NULL });
	expect_error("{ \"base\": \"base.json\" }",
		     (const char *const[]){ "vary: found nothing", NULL });
}

/* ---- the runner ---- */

static const char runner_sweep[] =
	"{ \"base\": \"base.json\", \"vary\": { \"device.load.current\": "
	"[\"0 mA\", \"100 mA\", \"200 mA\", \"300 mA\", \"400 mA\"] } }\n";

struct heard {
	int started;
	struct sweep_progress first, last;
	bool backwards;           /* done ever went down */
};

static void on_started(void *data, const struct sweep_progress *p)
{
	struct heard *h = data;

	h->started++;
	h->first = h->last = *p;
}

static void on_progress(void *data, const struct sweep_progress *p)
{
	struct heard *h = data;

	h->backwards |= p->done < h->last.done;
	h->last = *p;
}

/* What results.csv must hold: the header and, in index order, the row of every
 * variant of the shard (each computed alone). */
static char *expected_results(const struct sweep *sw, const struct sweep_shard *sh)
{
	g_autofree char *header = sweep_csv_header(sw);
	GString *s = g_string_new(header);

	for (guint64 i = sh->index; i < sw->total; i += sh->count) {
		int failed;
		g_autofree char *row = sweep_run_variant(sw, i, NULL, &failed);

		g_string_append(s, row);
	}
	return g_string_free(s, FALSE);
}

static char *read_text(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	g_file_get_contents(path, &text, NULL, NULL);
	return text;
}

static bool has_chunks(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d)))
		if (strstr(n, "results.part-"))
			return true;
	return false;
}

/* Two worker processes, one-row chunks: results.csv in index order, the chunks gone, the
 * manifest complete; every shard of 0/2 and 1/2 holds its own variants. */
static void test_runner_order_and_shards(void)
{
	struct fixture fx;
	GError *err = NULL;
	struct sweep *sw;

	fx_open(&fx, runner_sweep);
	sw = sweep_load(fx.file, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	for (guint64 count = 1; count <= 2; count++)
		for (guint64 index = 0; index < count; index++) {
			g_autofree char *dir = g_strdup_printf("%s/out-%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT,
							       fx.dir, index, count);
			struct heard h = { 0 };
			struct sweep_runner_opts o = {
				.dir = dir, .shard = { index, count }, .jobs = 2, .chunk_rows = 1,
				.started = on_started, .progress = on_progress, .data = &h,
			};
			struct sweep_outcome out;
			g_autofree char *want = expected_results(sw, &o.shard);
			g_autofree char *got = NULL, *man = NULL;
			guint64 m = count == 1 ? 5 : index == 0 ? 3 : 2;

			CU_ASSERT_TRUE_FATAL(sweep_runner_run(sw, &o, &out, &err));
			CU_ASSERT_EQUAL(out.variants, m);
			CU_ASSERT_EQUAL(out.resumed, 0);
			CU_ASSERT_EQUAL(out.status, 0);
			CU_ASSERT_EQUAL(out.n_failed, 0);
			CU_ASSERT_EQUAL(out.signal, 0);
			CU_ASSERT_FALSE(out.was_complete);
			CU_ASSERT_EQUAL(h.started, 1);
			CU_ASSERT_EQUAL(h.first.total, m);
			CU_ASSERT_EQUAL(h.first.done, 0);
			CU_ASSERT_EQUAL(h.last.done, m);
			CU_ASSERT_FALSE(h.backwards);
			got = read_text(dir, "results.csv");
			CU_ASSERT(got && strcmp(got, want) == 0);
			man = read_text(dir, "manifest.json");
			CU_ASSERT(man && strstr(man, "\"complete\":\ttrue"));
			CU_ASSERT_FALSE(has_chunks(dir));
			sweep_outcome_clear(&out);
		}
	sweep_free(sw);
	fx_close(&fx);
}

/* A directory holding the manifest and a chunk with the first two rows, as an
 * interrupted run leaves it: a resume runs the other three and results.csv is the
 * same as an uninterrupted run's; a second resume finds it complete; a start without
 * --resume refuses the directory. */
static void test_runner_resume(void)
{
	struct fixture fx;
	GError *err = NULL;
	struct sweep *sw;
	struct sweep_shard all = { 0, 1 };
	struct heard h = { 0 };
	struct sweep_runner_opts o = {
		.shard = all, .jobs = 1, .chunk_rows = 256, .resume = true,
		.started = on_started, .progress = on_progress, .data = &h,
	};
	struct sweep_outcome out;
	g_autofree char *dir = NULL, *want = NULL, *got = NULL;

	fx_open(&fx, runner_sweep);
	sw = sweep_load(fx.file, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	dir = g_build_filename(fx.dir, "resumed", NULL);
	o.dir = dir;
	CU_ASSERT_EQUAL_FATAL(g_mkdir(dir, 0755), 0);
	{
		cJSON *m = sweep_manifest(sw, &all, false);
		char *t = cJSON_Print(m);
		g_autofree char *mtext = g_strconcat(t, "\n", NULL);
		g_autofree char *mpath = g_build_filename(dir, "manifest.json", NULL);
		g_autofree char *ppath = g_build_filename(dir, "results.part-000000.csv", NULL);
		int f0, f1;
		g_autofree char *r0 = sweep_run_variant(sw, 0, NULL, &f0);
		g_autofree char *r1 = sweep_run_variant(sw, 1, NULL, &f1);
		g_autofree char *rows = g_strconcat(r0, r1, NULL);

		CU_ASSERT_FATAL(g_file_set_contents(mpath, mtext, -1, NULL));
		CU_ASSERT_FATAL(g_file_set_contents(ppath, rows, -1, NULL));
		cJSON_free(t);
		cJSON_Delete(m);
	}
	want = expected_results(sw, &all);
	CU_ASSERT_TRUE_FATAL(sweep_runner_run(sw, &o, &out, &err));
	CU_ASSERT_EQUAL(out.resumed, 2);
	CU_ASSERT_EQUAL(h.started, 1);
	CU_ASSERT_EQUAL(h.first.resumed, 2);
	CU_ASSERT_EQUAL(h.first.done, 2);
	CU_ASSERT_EQUAL(h.last.done, 5);
	got = read_text(dir, "results.csv");
	CU_ASSERT(got && strcmp(got, want) == 0);
	sweep_outcome_clear(&out);

	h.started = 0;
	CU_ASSERT_TRUE(sweep_runner_run(sw, &o, &out, &err));
	CU_ASSERT_TRUE(out.was_complete);
	CU_ASSERT_EQUAL(out.variants, 5);
	CU_ASSERT_EQUAL(h.started, 0);
	sweep_outcome_clear(&out);

	o.resume = false;
	CU_ASSERT_FALSE(sweep_runner_run(sw, &o, &out, &err));
	CU_ASSERT(err && strstr(err->message, "already holds a sweep"));
	g_clear_error(&err);
	sweep_outcome_clear(&out);
	sweep_free(sw);
	fx_close(&fx);
}

CU_TestInfo sweep_tests[] = {
	{ "SplitMix64 reference outputs", test_mix64_reference },
	{ "variant seeds from the sweep seed and index", test_variant_seed },
	{ "grid order: keys as written, last fastest", test_grid_order },
	{ "random samples reproducible, sample fastest", test_random_samples },
	{ "one variant, one row", test_run_variant_row },
	{ "a row's metric cells == the variant's metrics.json", test_run_variant_metric_cells },
	{ "CSV cells quoted per RFC 4180", test_csv_cells },
	{ "--shard I/N parsing and shard sizes", test_shards },
	{ "shard from SLURM_ARRAY_TASK_ID/COUNT", test_shard_from_slurm },
	{ "malformed sweep files name file and JSON path", test_malformed },
	{ "runner: rows in order, shards, chunks gone", test_runner_order_and_shards },
	{ "runner: resume from a chunk, complete, refused", test_runner_resume },
	CU_TEST_INFO_NULL,
};
