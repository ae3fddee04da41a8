// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_check.c - `chargesim check [FILE|DIR]...`: scenarios as regression tests.
 *
 * Every scenario file (directories are searched recursively for *.json; sweep files
 * are skipped) is run with its outputs under out/check/<path>/, and its expectations
 * are checked, on a GLib thread pool (-j N); the report (its form and exit statuses are
 * in the --help text below) keeps the sorted order of the files whatever finished
 * first. --junit writes the same as JUnit XML; --accept rewrites the golden traces and
 * fingerprints of failing expectations and says what changed.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "run/expect.h"
#include "run/run.h"
#include "run/sweep.h"
#include "output/outfile.h"

enum { JOB_PASS, JOB_FAIL, JOB_ERROR };

struct check_job {
	const char *file;    /* held by the list of files */
	const char *root;    /* the argument it came from (a file or a directory) */
	char *name;
	char *outdir;
	int status;
	char *message;
	char *accepted;      /* what --accept changed, or NULL */
	char *where;         /* FAIL: where the outputs are and the diff to run, or NULL */
	GStrv warnings;      /* the run's warnings ("SRC: MESSAGE"), or NULL */
	double wall_s;
};

struct check_ctx {
	bool accept;
	GMutex lock;         /* serialises --accept rewrites of shared golden files (run.h) */
	GMutex drivers_lock; /* guards drivers */
	GHashTable *drivers; /* "linux/NAME" -> the GMutex a run of that driver holds */
};

struct turn {
	struct check_ctx *c;
	GMutex *lock;        /* held, or NULL */
};

/* The ready hook. A real Linux driver's static variables exist once per process
 * (stack/linux/policy.c), so runs of one driver go one after the other; runs of other
 * drivers and policies go on in parallel beside them. */
static bool take_turn(const struct scenario *sc, void *data, GError **err)
{
	struct turn *t = data;
	struct check_ctx *c = t->c;

	(void)err;
	if (!sc->policy.name || !g_str_has_prefix(sc->policy.name, "linux/"))
		return true;
	g_mutex_lock(&c->drivers_lock);
	t->lock = g_hash_table_lookup(c->drivers, sc->policy.name);
	if (!t->lock) {
		t->lock = g_new0(GMutex, 1);
		g_mutex_init(t->lock);
		g_hash_table_insert(c->drivers, g_strdup(sc->policy.name), t->lock);
	}
	g_mutex_unlock(&c->drivers_lock);
	g_mutex_lock(t->lock);
	return true;
}

static void driver_lock_free(gpointer lock)
{
	g_mutex_clear(lock);
	g_free(lock);
}

/* Read as sweep_read_file() reads, so a FIFO in a checked directory is no sweep file
 * (nor does it block): run_file() then refuses it as a scenario, naming it. */
static bool is_sweep_file(const char *path)
{
	g_autofree char *text = NULL;
	gsize len;
	cJSON *doc;
	bool found;

	text = sweep_read_file(path, "sweep", &len, NULL);
	if (!text)
		return false;
	doc = cJSON_ParseWithLength(text, len);
	found = cJSON_IsObject(doc) && cJSON_GetObjectItemCaseSensitive(doc, "vary");
	cJSON_Delete(doc);
	return found;
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

/* A file the walk of directory root found through a symbolic link that leads out of
 * root (a pull request can add scenarios/x.json -> ~/.ssh/id_rsa): it is never read.
 * A file named on the command line is the user's own choice and not judged; a dangling
 * link reads nothing and gets the loader's own "No such file". */
static bool outside_walk(const char *root, const char *file)
{
	g_autofree char *real = NULL;

	return g_file_test(root, G_FILE_TEST_IS_DIR) && g_file_test(file, G_FILE_TEST_EXISTS) &&
	       !cs_path_inside_any(file, (const char *const[]){ root }, 1, &real);
}

/* A path for a shell command line: as it is when it holds nothing a shell reads,
 * else in single quotes. Caller frees. */
static char *shell_word(const char *path)
{
	if (*path && strspn(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./:=,+-@%") == strlen(path))
		return g_strdup(path);
	return g_shell_quote(path);
}

/* What a failure needs to be looked into: the run's output directory and, for each
 * golden trace it was compared with, the `chargesim diff` that shows every column of
 * the run against that reference with the expectation's tolerance (docs/diff.md);
 * a line each, indented. */
static char *failure_where(const char *outdir, const GArray *results)
{
	g_autofree char *trace = g_build_filename(outdir, "trace.csv", NULL);
	g_autofree char *qtrace = shell_word(trace);
	GString *w = g_string_new(NULL);

	g_string_append_printf(w, "  outputs in %s/\n", outdir);
	for (guint i = 0; i < results->len; i++) {
		const struct expect_result *r = &g_array_index(results, struct expect_result, i);
		g_autofree char *qref = NULL;

		if (!r->reference)
			continue;
		qref = shell_word(r->reference);
		g_string_append_printf(w, "  every column against %s: chargesim diff %s %s%s\n",
				       r->reference, qtrace, qref, r->diff_tol ? r->diff_tol : "");
	}
	return g_string_free(w, FALSE);
}

static void run_job(gpointer data, gpointer user)
{
	struct check_job *j = data;
	struct check_ctx *c = user;
	struct turn turn = { c, NULL };
	struct run_options ro = {
		.world.outdir = j->outdir, .expect = true, .accept = c->accept,
		.accept_lock = &c->lock, .ready = take_turn, .ready_data = &turn,
	};
	struct run_result res;
	gint64 t0 = g_get_monotonic_time();

	if (outside_walk(j->root, j->file)) {
		g_autofree char *real = realpath(j->file, NULL);

		j->status = JOB_ERROR;
		j->message = g_strdup_printf("%s: found a symbolic link to %s, outside %s: expected a scenario inside the checked directory (name the file itself to check it)",
					     j->file, real ? real : "?", j->root);
		return;
	}
	run_file(j->file, &ro, &res);
	if (turn.lock)
		g_mutex_unlock(turn.lock);
	if (res.scenario) {
		g_free(j->name);
		j->name = g_strdup(res.scenario->name);
	}
	if (res.stage != RUN_STAGE_DONE) {
		j->status = JOB_ERROR;
		j->message = g_strdup(res.error ? res.error->message : "unknown error");
	} else if (res.status == CLI_EXIT_FAILED) {
		GString *fails = g_string_new(NULL);   /* "what (got value); ..." */

		for (guint i = 0; i < res.expect->len; i++) {
			const struct expect_result *r = &g_array_index(res.expect, struct expect_result, i);

			if (!r->pass)
				g_string_append_printf(fails, "%s%s (got %s)", fails->len ? "; " : "",
						       r->what, r->got);
		}
		j->status = JOB_FAIL;
		j->message = g_string_free(fails, FALSE);
		j->where = failure_where(j->outdir, res.expect);
		if (res.accepted && res.accept_error)
			j->accepted = g_strdup_printf("%s  %s: cannot accept: %s\n", res.accepted, j->file,
						      res.accept_error->message);
		else
			j->accepted = g_steal_pointer(&res.accepted);
	} else {
		j->status = JOB_PASS;
	}
	for (guint i = 0; res.warnings && i < res.warnings->len; i++) {
		guint n = j->warnings ? g_strv_length(j->warnings) : 0;

		j->warnings = g_renew(char *, j->warnings, n + 2);
		j->warnings[n] = g_strdup(res.warnings->pdata[i]);
		j->warnings[n + 1] = NULL;
	}
	j->wall_s = (double)(g_get_monotonic_time() - t0) * 1e-6;
	run_result_clear(&res);
}

/* Whether XML 1.0 allows the character c in a document (its production Char): not the
 * C0 controls but tab, line feed and carriage return, nor U+FFFE and U+FFFF (which a
 * JSON string can hold as \uFFFE); surrogates never get here (not UTF-8). */
static bool xml_char_ok(gunichar c)
{
	return c >= 0x20 ? c != 0xfffe && c != 0xffff : c == '\t' || c == '\n' || c == '\r';
}

/* Text for XML 1.0, escaped by GLib: made UTF-8 first (bytes that are not, and
 * surrogates, become U+FFFD), then every character XML forbids shown as U+FFFD, so the
 * report stays well-formed whatever a scenario's name or a message holds; in an
 * attribute, line breaks and tabs as character references (a parser would turn them
 * into blanks). */
static void xml_append(GString *x, const char *text, bool attr)
{
	g_autofree char *valid = g_utf8_make_valid(text ? text : "", -1);
	GString *clean = g_string_sized_new(strlen(valid));
	g_autofree char *esc = NULL;

	for (const char *c = valid; *c; c = g_utf8_next_char(c)) {
		if (xml_char_ok(g_utf8_get_char(c)))
			g_string_append_len(clean, c, g_utf8_next_char(c) - c);
		else
			g_string_append(clean, "\xef\xbf\xbd");
	}
	esc = g_markup_escape_text(clean->str, (gssize)clean->len);
	g_string_free(clean, TRUE);
	for (const char *c = esc; *c; c++) {
		if (attr && (*c == '\n' || *c == '\r' || *c == '\t'))
			g_string_append_printf(x, "&#%d;", *c);   /* &#10; &#13; &#9; */
		else
			g_string_append_c(x, *c);
	}
}

/* <NAME attr="value" ...: one attribute, escaped. */
static void xml_attr(GString *x, const char *name, const char *value)
{
	g_string_append_printf(x, " %s=\"", name);
	xml_append(x, value, true);
	g_string_append_c(x, '"');
}

/*
 * A test case's class: where the scenario sits in what was checked, as a dotted path
 * (JUnit's package): the checked directory's own name, then the subdirectories down to
 * the file ("scenarios.bugzoo" for scenarios/bugzoo/x.json under `check scenarios/`);
 * for a file named on the command line, its directory's name. Never an absolute or
 * temporary path.
 */
static char *junit_class(const struct check_job *j)
{
	g_autofree char *root = g_file_test(j->root, G_FILE_TEST_IS_DIR) ? g_strdup(j->root) :
				g_path_get_dirname(j->root);
	g_autofree char *top = g_canonicalize_filename(root, NULL);
	g_autofree char *file_dir = g_path_get_dirname(j->file);
	g_autofree char *abs_dir = g_canonicalize_filename(file_dir, NULL);
	g_autofree char *rel = NULL, *name = g_path_get_basename(top);
	GString *c;

	c = g_string_new(strcmp(name, "/") == 0 ? "root" : name);
	if (g_str_has_prefix(abs_dir, top) && abs_dir[strlen(top)] == '/')
		rel = g_strdup(abs_dir + strlen(top) + 1);
	for (char *p = rel; p && *p; p++)
		if (*p == '/')
			*p = '.';
	if (rel && *rel)
		g_string_append_printf(c, ".%s", rel);
	return g_string_free(c, FALSE);
}

/* The run's warnings as the test case's <system-err>, a line each, as `run` prints
 * them on stderr: CI servers show it beside the test, passed or not. */
static void junit_warnings(GString *x, char **warnings)
{
	if (!warnings)
		return;
	g_string_append(x, "      <system-err>");
	for (int k = 0; warnings[k]; k++) {
		g_autofree char *line = g_strdup_printf("warning: %s\n", warnings[k]);

		xml_append(x, line, false);
	}
	g_string_append(x, "</system-err>\n");
}

static bool write_junit(const char *path, struct check_job *jobs, int n, int failed, int errors,
			GError **err)
{
	g_autoptr(GString) x = g_string_new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	double total = 0;

	for (int i = 0; i < n; i++)
		total += jobs[i].wall_s;
	g_string_append_printf(x, "<testsuites name=\"chargesim check\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
			       n, failed, errors, total);
	g_string_append_printf(x, "  <testsuite name=\"scenarios\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
			       n, failed, errors, total);
	for (int i = 0; i < n; i++) {
		const struct check_job *j = &jobs[i];
		g_autofree char *cls = junit_class(j);
		const char *tag = j->status == JOB_FAIL ? "failure" : "error";

		g_string_append(x, "    <testcase");
		xml_attr(x, "classname", cls);
		xml_attr(x, "name", j->name);
		xml_attr(x, "file", j->file);
		g_string_append_printf(x, " time=\"%.3f\"", j->wall_s);
		if (j->status == JOB_PASS && !j->warnings) {
			g_string_append(x, "/>\n");
			continue;
		}
		g_string_append(x, ">\n");
		if (j->status != JOB_PASS) {
			g_string_append_printf(x, "      <%s", tag);
			xml_attr(x, "message", j->message);
			xml_attr(x, "type", j->status == JOB_FAIL ? "expectation" : "input");
			g_string_append_c(x, '>');
			xml_append(x, j->message, false);
			if (j->where) {
				g_string_append_c(x, '\n');
				xml_append(x, j->where, false);
			}
			g_string_append_printf(x, "</%s>\n", tag);
		}
		junit_warnings(x, j->warnings);
		g_string_append(x, "    </testcase>\n");
	}
	g_string_append(x, "  </testsuite>\n</testsuites>\n");
	return cs_outfile_write_all(path, x->str, x->len, err);
}

/* The scenario files of the arguments (a file as it is, the *.json files under a
 * directory; the scenario library without any: see cli_scenario_dir), each mapped to
 * the argument it came from in roots (the first one); false (the message printed) when
 * one does not exist. */
static bool collect_args(int argc, char **argv, GPtrArray *files, GHashTable *roots)
{
	g_autofree char *library = NULL;

	for (int i = 1; i < argc; i++) {
		g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func(g_free);

		if (!g_file_test(argv[i], G_FILE_TEST_EXISTS)) {
			cli_error("check: %s: no such file or directory", argv[i]);
			return false;
		}
		if (g_file_test(argv[i], G_FILE_TEST_IS_DIR))
			cli_find_json(argv[i], found);
		else
			g_ptr_array_add(found, g_strdup(argv[i]));
		for (guint k = 0; k < found->len; k++) {
			const char *f = found->pdata[k];

			/* a link out of the directory is not read here: run_job refuses it */
			if (g_str_has_suffix(f, ".json") && !outside_walk(argv[i], f) &&
			    is_sweep_file(f))
				continue;   /* sweep files are not scenarios */
			if (!g_hash_table_contains(roots, f))
				g_hash_table_insert(roots, g_strdup(f), g_strdup(argv[i]));
			g_ptr_array_add(files, g_strdup(f));
		}
	}
	if (argc < 2) {
		char *lib_argv[] = { argv[0], NULL, NULL };

		library = cli_scenario_dir("check");
		if (!library)
			return false;
		lib_argv[1] = library;
		return collect_args(2, lib_argv, files, roots);
	}
	return true;
}

/* PASS/FAIL/ERROR per scenario in the files' order, then "N passed, N failed" and,
 * when some could not run (ERROR), ", N could not run": an error is no failure. Names
 * and messages come from the files, so their control characters are escaped
 * (cli_term_text()): a CI log shows what a scenario holds, never acts on it. */
static void print_report(const struct check_job *jobs, int n, bool quiet, int *failed,
			 int *errors)
{
	int passed = 0;

	for (int i = 0; i < n; i++) {
		g_autofree char *name = cli_term_text(jobs[i].name, false);
		g_autofree char *msg = cli_term_text(jobs[i].message, true);
		g_autofree char *acc = cli_term_text(jobs[i].accepted, true);

		switch (jobs[i].status) {
		case JOB_PASS:
			passed++;
			if (!quiet || jobs[i].warnings)
				printf("PASS %s\n", name);
			break;
		case JOB_FAIL:
			(*failed)++;
			printf("FAIL %s: %s\n", name, msg);
			if (jobs[i].where && !jobs[i].accepted) {
				g_autofree char *where = cli_term_text(jobs[i].where, true);

				printf("%s", where);
			}
			if (jobs[i].accepted)
				printf("%s", acc);
			break;
		default:
			(*errors)++;
			printf("ERROR %s: %s\n", name, msg);
		}
		/* a warning is shown whatever -q says: it is why a passing run may still
		 * be wrong (a charge past 100 % SOC) */
		for (int k = 0; jobs[i].warnings && jobs[i].warnings[k]; k++) {
			g_autofree char *w = cli_term_text(jobs[i].warnings[k], false);

			printf("  warning: %s\n", w);
		}
	}
	if (*errors)
		printf("%d passed, %d failed, %d could not run\n", passed, *failed, *errors);
	else
		printf("%d passed, %d failed\n", passed, *failed);
	fflush(stdout);
}

/* --filter: the files whose path (as found) matches glob; GLib's simple patterns,
 * where * and ? also match "/", so "*bugzoo*" takes a folder at any depth. */
static void keep_matching(GPtrArray *files, const char *glob)
{
	for (guint i = 0; i < files->len;)
		if (g_pattern_match_simple(glob, files->pdata[i]))
			i++;
		else
			g_ptr_array_remove_index(files, i);
}

/* Two scenarios that ran under one name: a report, a JUnit file (CI servers fold test
 * cases by name) and `compare` tell scenarios apart by it, so the later one (in sorted
 * order) is an ERROR naming both files. */
static void refuse_duplicate_names(struct check_job *jobs, int n)
{
	g_autoptr(GHashTable) first = g_hash_table_new(g_str_hash, g_str_equal);

	for (int i = 0; i < n; i++) {
		struct check_job *j = &jobs[i], *k;

		if (j->status == JOB_ERROR)
			continue;
		k = g_hash_table_lookup(first, j->name);
		if (!k) {
			g_hash_table_insert(first, j->name, j);
			continue;
		}
		j->status = JOB_ERROR;
		g_free(j->message);
		j->message = g_strdup_printf("%s: found the name \"%s\", which %s also has: expected a name of its own (reports and JUnit tell scenarios apart by name)",
					     j->file, j->name, k->file);
	}
}

int cmd_check(int argc, char **argv)
{
	gint jobs_n = 1;
	g_autofree char *junit = NULL, *outroot = NULL, *filter = NULL;
	gboolean accept = FALSE, quiet = FALSE;
	g_auto(GStrv) allow = NULL;
	GOptionEntry entries[] = {
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs_n, "Run N scenarios at once (default 1)", "N" },
		{ "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit, "Also write the results as JUnit XML", "FILE" },
		{ "accept", 0, 0, G_OPTION_ARG_NONE, &accept, "Rewrite golden traces and fingerprints of failing scenarios", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outroot, "Put each run's outputs under DIR (default out/check)", "DIR" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only failures, warnings and the final count", NULL },
		{ "filter", 0, 0, G_OPTION_ARG_STRING, &filter, "Check only the scenario files whose path matches GLOB (* and ? match any characters, / too)", "GLOB" },
		CLI_ALLOW_PLUGINS_ENTRY(&allow),
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("[FILE|DIR]... - run scenarios and check their expectations");
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) roots = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GHashTable) seen = cli_file_ids_new();
	g_autoptr(GError) err = NULL;
	struct check_ctx cctx = { .accept = accept };
	struct cs_outfile *probe;
	struct check_job *jobs;
	GThreadPool *pool;
	int n, failed = 0, errors = 0, status;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"With no argument, checks the scenario library: $CHARGESIM_SCENARIOS, else scenarios/\n"
		"here, else the one installed with chargesim (PREFIX/share/chargesim/scenarios).\n"
		"Prints PASS/FAIL/ERROR per scenario in a fixed order and \"N passed, N failed\"\n"
		"(\", N could not run\" for the ERRORs). Exit status 0 all passed, 1 a failure, 2 a\n"
		"scenario could not be run. Example: chargesim check scenarios/ -j 2 --junit check.xml\n\n"
		CLI_ALLOW_PLUGINS_NOTE
		"Checking files from others (a pull request in CI): give no --allow-plugins, or only\n"
		"a directory they cannot change.");
	if (!cli_parse(ctx, &argc, &argv) || !cli_allow_plugins(allow))
		return CLI_EXIT_USAGE;
	if (jobs_n < 1 || jobs_n > 256) {
		cli_error("check: -j: found %d, expected 1 to 256", jobs_n);
		return CLI_EXIT_USAGE;
	}
	cctx.accept = accept;
	if (!collect_args(argc, argv, files, roots))
		return CLI_EXIT_USAGE;
	/* find out now, not after every run, that the report cannot be written */
	probe = junit ? cs_outfile_open(junit, false, &err) : NULL;
	if (junit && !probe) {
		cli_error("check: --junit: %s", err->message);
		return CLI_EXIT_USAGE;
	}
	cs_outfile_abort(probe);
	g_ptr_array_sort(files, cli_cmp_strings);
	/* each scenario once, under the first of its paths in sorted order (a file named
	 * twice, or reached through a link as well) */
	for (guint i = 0; i < files->len;)
		if (cli_file_id_first(seen, files->pdata[i]))
			i++;
		else
			g_ptr_array_remove_index(files, i);
	if (filter)
		keep_matching(files, filter);
	n = (int)files->len;
	if (n == 0) {
		if (filter)
			cli_error("check: --filter %s: found no scenario file whose path matches", filter);
		else
			cli_error("check: found no scenario files");
		return CLI_EXIT_USAGE;
	}
	jobs = g_new0(struct check_job, (gsize)n);
	g_mutex_init(&cctx.lock);
	g_mutex_init(&cctx.drivers_lock);
	cctx.drivers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, driver_lock_free);
	for (int i = 0; i < n; i++) {
		jobs[i].file = files->pdata[i];
		jobs[i].name = g_path_get_basename(jobs[i].file);
		jobs[i].root = g_hash_table_lookup(roots, jobs[i].file);
		jobs[i].outdir = job_outdir(outroot ? outroot : "out/check", jobs[i].file);
	}
	pool = g_thread_pool_new(run_job, &cctx, jobs_n, TRUE, NULL);
	for (int i = 0; i < n; i++)
		g_thread_pool_push(pool, &jobs[i], NULL);
	g_thread_pool_free(pool, FALSE, TRUE);
	refuse_duplicate_names(jobs, n);
	print_report(jobs, n, quiet, &failed, &errors);
	status = errors ? CLI_EXIT_USAGE : failed ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	if (junit && !write_junit(junit, jobs, n, failed, errors, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		g_free(jobs[i].name);
		g_free(jobs[i].outdir);
		g_free(jobs[i].message);
		g_free(jobs[i].accepted);
		g_free(jobs[i].where);
		g_strfreev(jobs[i].warnings);
	}
	g_free(jobs);
	g_mutex_clear(&cctx.lock);
	g_hash_table_destroy(cctx.drivers);
	g_mutex_clear(&cctx.drivers_lock);
	return status;
}
