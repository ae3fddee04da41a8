// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_check.c - `chargesim check [FILE|DIR]...`: scenarios as regression tests.
 *
 * Every scenario file (directories are searched recursively for *.json; sweep files
 * are skipped) is run with its outputs under out/check/<path>/, and its expectations
 * are checked. Runs go in parallel on a GLib thread pool (-j N); the report is
 * printed in the sorted order of the files whatever finished first, one line each:
 *   PASS name
 *   FAIL name: <expectation> (got <value>); ...
 *   ERROR name: <why the scenario could not run>
 * then "N passed, N failed". --junit writes the same as JUnit XML; --accept rewrites
 * the golden traces and fingerprints of failing expectations and says what changed.
 * Exit status: 0 all passed, 1 something failed, 2 a scenario could not be run.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "run/expect.h"
#include "run/run.h"
#include "sim/outfile.h"

enum { JOB_PASS, JOB_FAIL, JOB_ERROR };

struct check_job {
	char *file;
	char *name;
	char *outdir;
	int status;
	char *message;
	char *accepted;      /* what --accept changed, or NULL */
	double wall_s;
};

struct check_ctx {
	bool accept;
	GMutex lock;         /* serialises --accept rewrites of shared golden files (run.h) */
};

static bool is_sweep_file(const char *path)
{
	g_autofree char *text = NULL;
	cJSON *doc;
	bool sweep;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return false;
	doc = cJSON_Parse(text);
	sweep = cJSON_IsObject(doc) && cJSON_GetObjectItemCaseSensitive(doc, "vary");
	cJSON_Delete(doc);
	return sweep;
}

/* The scenario files of an argument: a file as it is, the *.json files under a
 * directory; sweep files are left out. */
static void collect(const char *path, GPtrArray *files)
{
	g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func(g_free);

	if (g_file_test(path, G_FILE_TEST_IS_DIR))
		cli_find_json(path, found);
	else
		g_ptr_array_add(found, g_strdup(path));
	for (guint i = 0; i < found->len; i++)
		if (!g_str_has_suffix(found->pdata[i], ".json") || !is_sweep_file(found->pdata[i]))
			g_ptr_array_add(files, g_strdup(found->pdata[i]));
}

static char *job_outdir(const char *root, const char *file)
{
	g_autofree char *rel = g_strdup(file);

	if (g_str_has_suffix(rel, ".json"))
		rel[strlen(rel) - 5] = '\0';
	for (char *c = rel; *c; c++)
		if (*c == '.' && (c == rel || c[-1] == '/'))
			*c = '_';  /* no hidden or parent directories */
	return g_build_filename(root, rel, NULL);
}

/* "what (got value); ..." of the failed expectations. */
static char *failures(const GArray *results)
{
	GString *fails = g_string_new(NULL);

	for (guint i = 0; i < results->len; i++) {
		const struct expect_result *r = &g_array_index(results, struct expect_result, i);

		if (!r->pass)
			g_string_append_printf(fails, "%s%s (got %s)", fails->len ? "; " : "", r->what,
					       r->got);
	}
	return g_string_free(fails, FALSE);
}

static void run_job(gpointer data, gpointer user)
{
	struct check_job *j = data;
	struct check_ctx *c = user;
	struct run_options ro = {
		.world.outdir = j->outdir, .expect = true, .accept = c->accept,
		.accept_lock = &c->lock,
	};
	struct run_result res;
	gint64 t0 = g_get_monotonic_time();

	run_file(j->file, &ro, &res);
	if (res.scenario) {
		g_free(j->name);
		j->name = g_strdup(res.scenario->name);
	}
	if (res.stage != RUN_STAGE_DONE) {
		j->status = JOB_ERROR;
		j->message = g_strdup(res.error ? res.error->message : "unknown error");
	} else if (res.status == CLI_EXIT_FAILED) {
		j->status = JOB_FAIL;
		j->message = failures(res.expect);
		if (res.accepted && res.accept_error)
			j->accepted = g_strdup_printf("%s  %s: cannot accept: %s\n", res.accepted, j->file,
						      res.accept_error->message);
		else
			j->accepted = g_steal_pointer(&res.accepted);
	} else {
		j->status = JOB_PASS;
	}
	j->wall_s = (double)(g_get_monotonic_time() - t0) * 1e-6;
	run_result_clear(&res);
}

static void xml_escape(FILE *fp, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default:
			/* XML 1.0 forbids most control characters. */
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, fp);
		}
	}
}

static bool write_junit(const char *path, struct check_job *jobs, int n, int failed, int errors,
			GError **err)
{
	struct cs_outfile *f = cs_outfile_open(path, false, err);
	double total = 0;

	if (!f)
		return false;
	for (int i = 0; i < n; i++)
		total += jobs[i].wall_s;
	fprintf(f->fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f->fp, "<testsuites name=\"chargesim check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
		n, failed, errors, total);
	fprintf(f->fp, "  <testsuite name=\"scenarios\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
		n, failed, errors, total);
	for (int i = 0; i < n; i++) {
		g_autofree char *dir = g_path_get_dirname(jobs[i].file);

		fprintf(f->fp, "    <testcase classname=\"");
		xml_escape(f->fp, dir);
		fprintf(f->fp, "\" name=\"");
		xml_escape(f->fp, jobs[i].name);
		fprintf(f->fp, "\" file=\"");
		xml_escape(f->fp, jobs[i].file);
		fprintf(f->fp, "\" time=\"%.3f\"", jobs[i].wall_s);
		if (jobs[i].status == JOB_PASS) {
			fprintf(f->fp, "/>\n");
			continue;
		}
		fprintf(f->fp, ">\n      <%s message=\"", jobs[i].status == JOB_FAIL ? "failure" : "error");
		xml_escape(f->fp, jobs[i].message);
		fprintf(f->fp, "\" type=\"%s\">", jobs[i].status == JOB_FAIL ? "expectation" : "input");
		xml_escape(f->fp, jobs[i].message);
		fprintf(f->fp, "</%s>\n    </testcase>\n", jobs[i].status == JOB_FAIL ? "failure" : "error");
	}
	fprintf(f->fp, "  </testsuite>\n</testsuites>\n");
	return cs_outfile_commit(f, err);
}

/* The scenario files of the arguments (scenarios/ without any); false (the message
 * printed) when one does not exist. */
static bool collect_args(int argc, char **argv, GPtrArray *files)
{
	for (int i = 1; i < argc; i++) {
		if (!g_file_test(argv[i], G_FILE_TEST_EXISTS)) {
			cli_error("check: %s: no such file or directory", argv[i]);
			return false;
		}
		collect(argv[i], files);
	}
	if (argc < 2)
		collect("scenarios", files);
	return true;
}

/* Each scenario once, under the first of its paths in sorted order (a file named
 * twice, or reached through a link as well). */
static void unique_files(GPtrArray *files)
{
	g_autoptr(GHashTable) seen = cli_file_ids_new();

	for (guint i = 0; i < files->len;)
		if (cli_file_id_first(seen, files->pdata[i]))
			i++;
		else
			g_ptr_array_remove_index(files, i);
}

/* Find out now, not after every run, that the report cannot be written. */
static bool junit_writable(const char *junit)
{
	g_autoptr(GError) err = NULL;
	struct cs_outfile *probe = cs_outfile_open(junit, false, &err);

	if (!probe) {
		cli_error("check: --junit: %s", err->message);
		return false;
	}
	cs_outfile_abort(probe);
	return true;
}

/* PASS/FAIL/ERROR per scenario in the files' order, then "N passed, N failed". */
static void print_report(const struct check_job *jobs, int n, bool quiet, int *failed,
			 int *errors)
{
	int passed = 0;

	for (int i = 0; i < n; i++) {
		switch (jobs[i].status) {
		case JOB_PASS:
			passed++;
			if (!quiet)
				printf("PASS %s\n", jobs[i].name);
			break;
		case JOB_FAIL:
			(*failed)++;
			printf("FAIL %s: %s\n", jobs[i].name, jobs[i].message);
			if (jobs[i].accepted)
				printf("%s", jobs[i].accepted);
			break;
		default:
			(*errors)++;
			printf("ERROR %s: %s\n", jobs[i].name, jobs[i].message);
		}
	}
	printf("%d passed, %d failed\n", passed, *failed + *errors);
	fflush(stdout);
}

int cmd_check(int argc, char **argv)
{
	gint jobs_n = 1;
	g_autofree char *junit = NULL, *outroot = NULL;
	gboolean accept = FALSE, quiet = FALSE;
	GOptionEntry entries[] = {
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs_n, "Run N scenarios at once (default 1)", "N" },
		{ "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit, "Also write the results as JUnit XML", "FILE" },
		{ "accept", 0, 0, G_OPTION_ARG_NONE, &accept, "Rewrite golden traces and fingerprints of failing scenarios", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outroot, "Put each run's outputs under DIR (default out/check)", "DIR" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only failures and the final count", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("[FILE|DIR]... - run scenarios and check their expectations");
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) err = NULL;
	struct check_ctx cctx = { .accept = accept };
	struct check_job *jobs;
	GThreadPool *pool;
	int n, failed = 0, errors = 0, status;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"With no argument, checks scenarios/. Prints PASS/FAIL per scenario in a fixed order\n"
		"and \"N passed, N failed\". Exit status 0 all passed, 1 a failure, 2 a scenario could\n"
		"not be run. Example: chargesim check scenarios/ -j 2 --junit check.xml");
	if (!cli_parse(ctx, &argc, &argv))
		return CLI_EXIT_USAGE;
	if (jobs_n < 1 || jobs_n > 256) {
		cli_error("check: -j: found %d, expected 1 to 256", jobs_n);
		return CLI_EXIT_USAGE;
	}
	cctx.accept = accept;
	if (!collect_args(argc, argv, files) || (junit && !junit_writable(junit)))
		return CLI_EXIT_USAGE;
	g_ptr_array_sort(files, cli_cmp_strings);
	unique_files(files);
	n = (int)files->len;
	if (n == 0) {
		cli_error("check: found no scenario files");
		return CLI_EXIT_USAGE;
	}
	jobs = g_new0(struct check_job, (gsize)n);
	g_mutex_init(&cctx.lock);
	for (int i = 0; i < n; i++) {
		jobs[i].file = g_strdup(files->pdata[i]);
		jobs[i].name = g_path_get_basename(jobs[i].file);
		jobs[i].outdir = job_outdir(outroot ? outroot : "out/check", jobs[i].file);
	}
	pool = g_thread_pool_new(run_job, &cctx, jobs_n, TRUE, NULL);
	for (int i = 0; i < n; i++)
		g_thread_pool_push(pool, &jobs[i], NULL);
	g_thread_pool_free(pool, FALSE, TRUE);
	print_report(jobs, n, quiet, &failed, &errors);
	status = errors ? CLI_EXIT_USAGE : failed ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	if (junit && !write_junit(junit, jobs, n, failed, errors, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		g_free(jobs[i].file);
		g_free(jobs[i].name);
		g_free(jobs[i].outdir);
		g_free(jobs[i].message);
		g_free(jobs[i].accepted);
	}
	g_free(jobs);
	g_mutex_clear(&cctx.lock);
	return status;
}
