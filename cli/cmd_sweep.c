// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_sweep.c - `chargesim sweep SWEEP.json -o DIR` and `chargesim merge DIR... -o DIR`:
 * the options, the messages and the progress line (docs/scaling.md); the work is
 * run/sweep_runner.c's and run/sweep.c's.
 */
#define _GNU_SOURCE	/* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "run/score_merge.h"
#include "run/sweep.h"
#include "run/sweep_runner.h"
#include "run/world.h"

#define CHUNK_ROWS_DEFAULT 256
#define PROGRESS_TTY_US 100000
#define PROGRESS_PLAIN_SECONDS 10
#define MAX_JOBS 1024
#define MAX_CHUNK_ROWS 1000000

/* ---- progress ---- */

struct progress {
	bool quiet, tty;
	guint64 total, done0, done;
	gint64 t0, last;
	bool drawn;
	/* for the line that starts the run */
	const struct sweep *sw;
	const struct sweep_shard *sh;
	bool from_env;
	int jobs;
};

static void fmt_duration(char *buf, size_t n, double s)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else if (t >= 60)
		snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
	else
		snprintf(buf, n, "%ld s", t);
}

static void progress_show(struct progress *p, bool force)
{
	gint64 now = g_get_monotonic_time();
	double el = (double)(now - p->t0) * 1e-6;
	double rate = el > 0 ? (double)(p->done - p->done0) / el : 0;
	char eta[32] = "?";

	if (p->quiet)
		return;
	if (!force && now - p->last < (p->tty ? PROGRESS_TTY_US : PROGRESS_PLAIN_SECONDS * G_USEC_PER_SEC))
		return;
	p->last = now;
	if (rate > 0)
		fmt_duration(eta, sizeof(eta), (double)(p->total - p->done) / rate);
	if (p->tty) {
		int width = 24, fill = p->total ? (int)(width * p->done / p->total) : width;

		fprintf(stderr, "\rsweep [%.*s%*s] %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
			" variants, %.1f/s, ETA %s   ", fill, "########################",
			width - fill, "", p->done, p->total, rate, eta);
		p->drawn = true;
	} else {
		fprintf(stderr, "sweep: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
			" variants (%.0f %%), %.1f/s, ETA %s\n", p->done, p->total,
			p->total ? 100.0 * (double)p->done / (double)p->total : 100.0, rate, eta);
	}
	fflush(stderr);
}

static void progress_end(struct progress *p)
{
	if (!p->drawn)
		return;
	progress_show(p, true);
	fputc('\n', stderr);
}

/* sweep_runner's started callback: the line that says what runs; the clock starts. */
static void progress_started(void *data, const struct sweep_progress *sp)
{
	struct progress *p = data;

	if (!p->quiet) {
		fprintf(stderr, "sweep: %" G_GUINT64_FORMAT " variants", p->sw->total);
		if (p->sh->count > 1)
			fprintf(stderr, ", shard %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "%s: %" G_GUINT64_FORMAT " of them",
				p->sh->index, p->sh->count,
				p->from_env ? " (from SLURM_ARRAY_TASK_ID/COUNT)" : "", sp->total);
		if (sp->resumed)
			fprintf(stderr, "; resuming: %" G_GUINT64_FORMAT " already done", sp->resumed);
		fprintf(stderr, "; %d worker%s\n", p->jobs, p->jobs == 1 ? "" : "s");
	}
	p->total = sp->total;
	p->done0 = p->done = sp->done;
	p->t0 = p->last = g_get_monotonic_time();
}

/* sweep_runner's progress callback. */
static void progress_update(void *data, const struct sweep_progress *sp)
{
	struct progress *p = data;

	p->done = sp->done;
	progress_show(p, false);
}

/*
 * -j when not given: SLURM_CPUS_PER_TASK, else the CPUs this process may run on.
 * Slurm's task/affinity and task/cgroup, taskset and container CPU sets narrow those
 * (a Slurm job without --cpus-per-task is bound to one CPU), while
 * g_get_num_processors() counts every CPU of the machine in GLib 2.74 (Debian 12),
 * so it is only the fallback.
 */
int cli_default_jobs(void)
{
	const char *s = g_getenv("SLURM_CPUS_PER_TASK");
	int n = s ? atoi(s) : 0;
	cpu_set_t allowed;

	if (n > 0)
		return n;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 && CPU_COUNT(&allowed) > 0)
		return CPU_COUNT(&allowed);
	return (int)g_get_num_processors();
}

/* The variant's command line, with the same --allow-plugins as this command; a control
 * character in it (a value of the sweep file) is shown escaped (cli_term_text()), not
 * sent to the terminal. */
static void print_show(const struct sweep *sw, guint64 index, char **allow)
{
	g_auto(GStrv) sets = sweep_variant_sets(sw, index);
	g_autofree char *base = g_shell_quote(sw->base_file);
	g_autoptr(GString) line = g_string_new("chargesim run ");
	g_autofree char *safe = NULL;

	g_string_append(line, base);
	for (int i = 0; allow && allow[i]; i++) {
		g_autofree char *q = g_shell_quote(allow[i]);

		g_string_append_printf(line, " --allow-plugins %s", q);
	}
	for (int i = 0; sets[i]; i++) {
		g_autofree char *q = g_shell_quote(sets[i]);

		g_string_append_printf(line, " --set %s", q);
	}
	safe = cli_term_text(line->str, false);
	printf("%s\n", safe);
}

/* A sweep's base may also be a scenario of the library (the one `check` uses, or the
 * source tree's): a sweep file and merge, which loads it again, both allow those. */
static void allow_library_bases(void)
{
	g_autofree char *library = cli_scenario_library();
	g_autofree char *source_library = cli_scenario_source_library();

	sweep_allow_base_tree(library);
	sweep_allow_base_tree(source_library);
}

/* The options as given (GOption fills them). */
struct sweep_cli {
	char *outdir, *shard_opt;
	char **allow;          /* --allow-plugins */
	gint jobs, chunk_rows;
	gint64 show;
	gboolean resume, keep, quiet;
};

/* -j, --chunk-rows and the shard: --shard, else the Slurm array task, else 0/1.
 * False with the message printed. */
static bool check_options(struct sweep_cli *c, struct sweep_shard *sh, bool *from_env)
{
	g_autoptr(GError) err = NULL;

	if (!c->outdir) {
		cli_error("sweep: -o DIR is required (the directory for results.csv and manifest.json)");
		return false;
	}
	if (c->jobs < 0 || c->jobs > MAX_JOBS || c->chunk_rows < 1 || c->chunk_rows > MAX_CHUNK_ROWS) {
		cli_error("sweep: found -j %d, --chunk-rows %d, expected 0 <= N <= %d (0: default) and 1 <= K <= %d",
			  c->jobs, c->chunk_rows, MAX_JOBS, MAX_CHUNK_ROWS);
		return false;
	}
	if (c->jobs == 0)
		c->jobs = cli_default_jobs();
	*from_env = !c->shard_opt && sweep_shard_from_env(sh, &err);
	if (c->shard_opt)
		sweep_parse_shard(c->shard_opt, sh, &err);
	if (err)
		cli_error("%s", err->message);
	return !err;
}

/* What the sweep did, and its exit status: the worst error cell of results.csv, or
 * 128 + the signal that stopped it. */
static int report(const struct sweep_cli *c, const struct sweep_outcome *out,
		  const struct progress *pr)
{
	guint64 ran = out->variants - out->resumed;

	if (out->signal) {
		if (out->save_error)
			cli_error("%s", out->save_error->message);
		fprintf(stderr, "chargesim: sweep interrupted by signal %d: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
			" variants saved in %s; continue with --resume\n", out->signal, out->saved,
			out->variants, c->outdir);
		return 128 + out->signal;
	}
	if (!c->quiet && out->was_complete) {
		printf("sweep: %s is complete (%" G_GUINT64_FORMAT " variants of shard %" G_GUINT64_FORMAT
		       "/%" G_GUINT64_FORMAT "); nothing to run\n", c->outdir, out->variants,
		       pr->sh->index, pr->sh->count);
	} else if (!c->quiet) {
		double el = (double)(g_get_monotonic_time() - pr->t0) * 1e-6;

		printf("sweep: %" G_GUINT64_FORMAT " variants", ran);
		if (out->resumed)
			printf(" (plus %" G_GUINT64_FORMAT " resumed)", out->resumed);
		printf(" in %.2f s, %.1f variants/s, %d worker%s; results in %s/results.csv\n", el,
		       el > 0 ? (double)ran / el : 0, c->jobs, c->jobs == 1 ? "" : "s", c->outdir);
	}
	if (out->n_failed)
		cli_error("sweep: %" G_GUINT64_FORMAT " variant%s could not run (see the error column of %s/results.csv); first: %s",
			  out->n_failed, out->n_failed == 1 ? "" : "s", c->outdir, out->first_failure);
	return out->status;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_cli c = { .chunk_rows = CHUNK_ROWS_DEFAULT, .show = -1 };
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &c.outdir, "Write results.csv and manifest.json into DIR (required)", "DIR" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &c.jobs, "Run N variants at a time (default: SLURM_CPUS_PER_TASK, else every CPU this process may use)", "N" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &c.shard_opt, "Run only the variants with index % N == I (default: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, else 0/1)", "I/N" },
		{ "resume", 0, 0, G_OPTION_ARG_NONE, &c.resume, "Continue an interrupted sweep in DIR (start one if DIR has none)", NULL },
		{ "keep-traces", 0, 0, G_OPTION_ARG_NONE, &c.keep, "Keep each variant's trace.csv, events.jsonl, metrics.json in DIR/variants/INDEX/", NULL },
		{ "chunk-rows", 0, 0, G_OPTION_ARG_INT, &c.chunk_rows, "Write a durable chunk once K rows are in order (default 256), or after 10 s", "K" },
		{ "show", 0, 0, G_OPTION_ARG_INT64, &c.show, "Print the `chargesim run` command of variant INDEX and exit", "INDEX" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &c.quiet, "Print nothing but errors", NULL },
		CLI_ALLOW_PLUGINS_ENTRY(&c.allow),
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SWEEP.json -o DIR - run the variants of a sweep");
	g_autoptr(GError) err = NULL;
	g_autoptr(sweep) sw = NULL;
	struct sweep_shard sh = { 0, 1 };
	struct progress pr = { 0 };
	struct sweep_outcome outcome = { 0 };
	struct sweep_runner_opts ro = { 0 };
	int status = CLI_EXIT_USAGE;
	bool ran;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"SWEEP.json: {\"base\": SCENARIO, \"vary\": {PATH: [VALUES]}, \"seed\": S,\n"
		"             \"random\": {\"n\": N, \"seed\": S, \"ranges\": {PATH: [LOW, HIGH]}}}\n"
		"Variants are numbered in grid order (keys as written, the last fastest; random\n"
		"samples fastest of all). results.csv is the same for every -j and shard split;\n"
		"`chargesim merge` joins shard directories. Expectations of the base scenario are\n"
		"not checked. Exit status 2 when a variant was invalid input, 3 on an internal\n"
		"error (the row's error cell says which); 130/143 when interrupted (use --resume).\n"
		"See docs/scaling.md for GNU parallel and Slurm.\n\n"
		CLI_ALLOW_PLUGINS_NOTE
		"Loading the sweep file (and --show) opens no plugin: each is only checked.");
	if (!cli_parse(ctx, &argc, &argv) || !cli_allow_plugins(c.allow))
		goto out;
	if (argc != 2) {
		cli_error("sweep: expected exactly one sweep file, found %d arguments (see --help)", argc - 1);
		goto out;
	}
	allow_library_bases();
	sw = sweep_load(argv[1], &err);
	if (!sw) {
		cli_print_message(err->message);
		goto out;
	}
	if (c.show >= 0) {
		if ((guint64)c.show >= sw->total) {
			cli_error("--show: found %" G_GINT64_FORMAT ", expected a variant index from 0 to %" G_GUINT64_FORMAT,
				  c.show, sw->total - 1);
		} else {
			print_show(sw, (guint64)c.show, c.allow);
			status = CLI_EXIT_OK;
		}
		goto out;
	}
	pr = (struct progress){ .quiet = c.quiet, .tty = isatty(STDERR_FILENO), .sw = sw, .sh = &sh };
	if (!check_options(&c, &sh, &pr.from_env))
		goto out;
	pr.jobs = c.jobs;
	ro = (struct sweep_runner_opts){
		.dir = c.outdir, .shard = sh, .jobs = c.jobs, .chunk_rows = c.chunk_rows,
		.resume = c.resume, .keep_traces = c.keep, .catch_signals = true,
		.clock_us = g_get_monotonic_time, .started = progress_started, .progress = progress_update,
		.data = &pr,
	};
	ran = sweep_runner_run(sw, &ro, &outcome, &err);
	progress_end(&pr);
	if (!ran)
		cli_error("%s", err->message);
	status = ran ? report(&c, &outcome, &pr) : world_error_status(err);
out:
	sweep_outcome_clear(&outcome);
	g_free(c.outdir);
	g_free(c.shard_opt);
	g_strfreev(c.allow);
	return status;
}

int cmd_merge(int argc, char **argv)
{
	char *outdir = NULL, *sweep_file = NULL;
	gboolean quiet = FALSE;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, "Write the merged results.csv and manifest.json into DIR (required)", "DIR" },
		{ "sweep", 0, 0, G_OPTION_ARG_FILENAME, &sweep_file, "The sweep file the shards ran (default: the path in their manifest.json)", "FILE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SHARD-DIR... -o DIR - join the shards of a sweep or a score");
	g_autoptr(GError) err = NULL;
	int status = CLI_EXIT_USAGE;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Checks that the shards' manifests agree (same sweep file and base scenario, same\n"
		"chargesim, every shard I of N present once and complete) and that each holds\n"
		"exactly its variants: every row's index and varied values are recomputed from\n"
		"the sweep file, every cell must be written as `chargesim sweep` writes it, and\n"
		"each shard's results.csv must match the SHA-256 in its manifest (an edited\n"
		"metric). Any mismatch is exit 2 naming the shard, the line, the variant and the\n"
		"column. Then it writes one results.csv, byte-identical to the results.csv of the\n"
		"same sweep run unsharded. Shards written by a chargesim without these checksums\n"
		"are refused: run them again.\n"
		"Shards of `chargesim score --shard I/N` (directories holding score-manifest.json)\n"
		"are joined the same way into score.csv, score.json and score-manifest.json,\n"
		"byte-identical to the score run whole (docs/score.md).\n"
		"Example: chargesim merge out/sweep/shard-* -o out/sweep/all");
	if (!cli_parse(ctx, &argc, &argv))
		goto out;
	if (argc < 2 || !outdir) {
		cli_error("merge: expected at least one shard directory and -o DIR (see --help)");
		goto out;
	}
	if (score_manifest_exists(argv[1])) {
		status = cmd_score_merge(argv + 1, argc - 1, outdir, quiet);
		goto out;
	}
	allow_library_bases();
	if (!sweep_merge(argv + 1, argc - 1, sweep_file, outdir, &err)) {
		cli_print_message(err->message);
		goto out;
	}
	if (!quiet)
		printf("merge: %d shard%s joined into %s/results.csv\n", argc - 1, argc == 2 ? "" : "s", outdir);
	status = CLI_EXIT_OK;
out:
	g_free(outdir);
	g_free(sweep_file);
	return status;
}
