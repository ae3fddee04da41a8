// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_sweep.c - `chargesim sweep SWEEP.json -o DIR` and `chargesim merge DIR... -o DIR`.
 *
 * A sweep runs the variants of its shard (cli/sweep.h) on a GLib thread pool. Workers
 * hand finished rows to the main thread through an async queue, which the main thread
 * polls every POLL_US (a blocking pop would cost a wake-up per variant). It keeps the
 * rows (in a bounded ring) until every earlier variant of the shard is done, then
 * writes the in-order prefix as a durable chunk, DIR/results.part-NNNNNN.csv (fsync,
 * atomic rename, fsync of the directory), once at least --chunk-rows rows are in
 * order or FLUSH_SECONDS after the last chunk. So the chunks on disk always hold the
 * first D variants of the shard, whatever the thread count, and --resume continues
 * from variant D after SIGINT, SIGTERM, kill -9 or a lost machine. When all variants
 * are done, results.csv (header plus the chunks, in order) is written durably,
 * manifest.json is marked complete and the chunks are removed.
 *
 * DIR/manifest.json (written first) names the sweep file and base scenario with their
 * SHA-256, the shard I/N, the variant count and range and the chargesim version; a
 * resume or a merge refuses directories whose manifest does not match.
 *
 * Progress goes to stderr: one updating line on a terminal, a plain line every
 * PROGRESS_PLAIN_SECONDS otherwise, nothing with --quiet.
 */
#define _GNU_SOURCE	/* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "cli/cli.h"
#include "run/sweep.h"
#include "sim/outfile.h"
#include "run/scenario.h"

#define CHUNK_ROWS_DEFAULT 256
#define FLUSH_SECONDS 10
#define PROGRESS_TTY_US 100000
#define PROGRESS_PLAIN_SECONDS 10
#define MAX_JOBS 1024
#define MAX_CHUNK_ROWS 1000000
#define RING_SLACK 4096
#define POLL_US 10000
#define PART_PREFIX "results.part-"

static volatile sig_atomic_t sweep_signal;

static void on_signal(int sig)
{
	sweep_signal = sig;
}

struct done_row {
	guint64 pos;
	char *row;
};

struct runner {
	const struct sweep *sw;
	struct sweep_shard sh;
	const char *dir;
	bool keep_traces;
	GAsyncQueue *done;
};

static void worker(gpointer data, gpointer user)
{
	struct runner *r = user;
	struct done_row *d = g_new0(struct done_row, 1);
	guint64 index;
	int failed;   /* counted from the rows' error cells when results.csv is written */
	g_autofree char *vdir = NULL;

	d->pos = GPOINTER_TO_SIZE(data) - 1;
	index = r->sh.index + d->pos * r->sh.count;
	if (r->keep_traces)
		vdir = g_strdup_printf("%s/variants/%" G_GUINT64_FORMAT, r->dir, index);
	d->row = sweep_run_variant(r->sw, index, vdir, &failed);
	g_async_queue_push(r->done, d);
}

/* ---- progress ---- */

struct progress {
	bool quiet, tty;
	guint64 total, done0, done;
	gint64 t0, last;
	bool drawn;
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
	if (p->drawn) {
		progress_show(p, true);
		fputc('\n', stderr);
		p->drawn = false;
	}
}

/* ---- the shard directory ---- */

static char *part_path(const char *dir, guint64 k)
{
	return g_strdup_printf("%s/" PART_PREFIX "%06" G_GUINT64_FORMAT ".csv", dir, k);
}

static bool write_manifest(const struct sweep *sw, const struct sweep_shard *sh, const char *dir,
			   bool complete, GError **err)
{
	g_autofree char *path = g_build_filename(dir, "manifest.json", NULL);
	cJSON *m = sweep_manifest(sw, sh, complete);
	char *t = cJSON_Print(m);
	struct cs_outfile *f = cs_outfile_open(path, true, err);
	bool ok = false;

	if (f) {
		fputs(t, f->fp);
		fputc('\n', f->fp);
		ok = cs_outfile_commit(f, err);
	}
	cJSON_free(t);
	cJSON_Delete(m);
	return ok;
}

/* Count the error cells of rows (the text after a row's last comma). */
static int rows_status(const char *text, gsize len, guint64 *n_failed, char **first)
{
	const char *p = text, *end = text + len;
	int status = CLI_EXIT_OK;
	bool quoted = false;
	const char *start = p, *last_comma = NULL;

	for (; p < end; p++) {
		if (*p == '"') {
			quoted = !quoted;
		} else if (*p == ',' && !quoted) {
			last_comma = p;
		} else if (*p == '\n' && !quoted) {
			if (last_comma && last_comma + 1 < p) {
				bool internal = g_str_has_prefix(last_comma + 1, "internal error");

				(*n_failed)++;
				if (internal)
					status = CLI_EXIT_INTERNAL;
				else if (status == CLI_EXIT_OK)
					status = CLI_EXIT_USAGE;
				if (first && !*first) {
					const char *c = memchr(start, ',', (gsize)(p - start));

					*first = g_strdup_printf("variant %.*s: %.*s", (int)(c - start), start,
								 (int)(p - last_comma - 1), last_comma + 1);
				}
			}
			start = p + 1;
			last_comma = NULL;
		}
	}
	return status;
}

/* Read the chunks of an interrupted run: *n_chunks files holding the first *done
 * variants of the shard, in order. */
static bool scan_chunks(const struct sweep_shard *sh, guint64 m, const char *dir,
			guint64 *n_chunks, guint64 *done, GError **err)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	guint64 found = 0;

	*n_chunks = 0;
	*done = 0;
	if (!d)
		return true;
	while ((name = g_dir_read_name(d))) {
		/* temporary files of a writer that was killed */
		if (name[0] == '.' && (g_str_has_prefix(name + 1, PART_PREFIX) ||
				       g_str_has_prefix(name + 1, "results.csv.tmp-") ||
				       g_str_has_prefix(name + 1, "manifest.json.tmp-"))) {
			g_autofree char *p = g_build_filename(dir, name, NULL);

			g_unlink(p);
		} else if (g_str_has_prefix(name, PART_PREFIX) && g_str_has_suffix(name, ".csv")) {
			found++;
		}
	}
	for (guint64 k = 0; k < found; k++) {
		g_autofree char *path = part_path(dir, k);
		g_autofree char *text = NULL;
		g_autoptr(GError) inner = NULL;
		gsize len;
		guint64 line = 0;

		if (!g_file_get_contents(path, &text, &len, &inner)) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
				    "%s: found %llu chunk files, expected them numbered from 0 without gaps (%s)",
				    dir, (unsigned long long)found, inner->message);
			return false;
		}
		for (const char *p = text, *end = text + len; p < end;) {
			const char *e = p, *c;
			bool quoted = false;
			guint64 idx = 0, want = sh->index + *done * sh->count;

			while (e < end && (quoted || *e != '\n')) {
				if (*e == '"')
					quoted = !quoted;
				e++;
			}
			line++;
			for (c = p; c < e && g_ascii_isdigit(*c); c++)
				idx = idx * 10 + (guint64)(*c - '0');
			if (e == end || c == p || *c != ',' || idx != want || *done >= m) {
				g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
					    "%s: line %llu: found %s, expected the row of variant %llu; this directory was not written by this sweep and shard",
					    path, (unsigned long long)line, e == end ? "an unfinished row" : "another row",
					    (unsigned long long)want);
				return false;
			}
			(*done)++;
			p = e + 1;
		}
	}
	*n_chunks = found;
	return true;
}

/* Check an existing manifest.json against this sweep and shard. */
static bool manifest_matches(const struct sweep *sw, const struct sweep_shard *sh, const char *dir,
			     bool *complete, GError **err)
{
	g_autofree char *path = g_build_filename(dir, "manifest.json", NULL);
	g_autofree char *text = NULL;
	cJSON *have = NULL, *want = sweep_manifest(sw, sh, false);
	const char *keys[] = { "sweep_sha256", "base_sha256", "chargesim_version", NULL };
	gsize len;
	bool ok = false;

	if (!g_file_get_contents(path, &text, &len, NULL) || !(have = cJSON_ParseWithLength(text, len))) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "%s: found an unreadable manifest, expected the manifest of this sweep", path);
		goto out;
	}
	for (int i = 0; keys[i]; i++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(have, keys[i]);
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(want, keys[i]);

		if (!cJSON_IsString(a) || strcmp(a->valuestring, b->valuestring) != 0) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
				    "%s: %s: found %s, expected %s (the sweep file, its base scenario or chargesim changed since this directory was started; use a new directory)",
				    path, keys[i], cJSON_IsString(a) ? a->valuestring : "nothing", b->valuestring);
			goto out;
		}
	}
	{
		const cJSON *hs = cJSON_GetObjectItemCaseSensitive(have, "shard");
		const cJSON *hi = cJSON_GetObjectItemCaseSensitive(hs, "index");
		const cJSON *hc = cJSON_GetObjectItemCaseSensitive(hs, "count");

		if (!cJSON_IsNumber(hi) || !cJSON_IsNumber(hc) || hi->valuedouble != (double)sh->index ||
		    hc->valuedouble != (double)sh->count) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
				    "%s: shard: found %g/%g, expected %llu/%llu (resume a shard with the same --shard)",
				    path, cJSON_IsNumber(hi) ? hi->valuedouble : -1, cJSON_IsNumber(hc) ? hc->valuedouble : -1,
				    (unsigned long long)sh->index, (unsigned long long)sh->count);
			goto out;
		}
	}
	*complete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(have, "complete"));
	ok = true;
out:
	cJSON_Delete(have);
	cJSON_Delete(want);
	return ok;
}

/* results.csv from the header and the chunks; then the manifest says complete and
 * the chunks go. */
static bool assemble(const struct sweep *sw, const struct sweep_shard *sh, const char *dir,
		     guint64 n_chunks, int *status, guint64 *n_failed, char **first_failure,
		     GError **err)
{
	g_autofree char *path = g_build_filename(dir, "results.csv", NULL);
	g_autofree char *header = sweep_csv_header(sw);
	struct cs_outfile *f = cs_outfile_open(path, true, err);

	if (!f)
		return false;
	fputs(header, f->fp);
	*status = CLI_EXIT_OK;
	for (guint64 k = 0; k < n_chunks; k++) {
		g_autofree char *cp = part_path(dir, k);
		g_autofree char *text = NULL;
		gsize len;
		int s;

		if (!g_file_get_contents(cp, &text, &len, err)) {
			cs_outfile_abort(f);
			return false;
		}
		fwrite(text, 1, len, f->fp);
		s = rows_status(text, len, n_failed, first_failure);
		if (s > *status)
			*status = s;
	}
	if (!cs_outfile_commit(f, err) || !write_manifest(sw, sh, dir, true, err))
		return false;
	for (guint64 k = 0; k < n_chunks; k++) {
		g_autofree char *cp = part_path(dir, k);

		g_unlink(cp);
	}
	return true;
}

/* Rows waiting to be written: a ring of slots, variant position pos in pos % n. At
 * most n variants past the last written one are handed to the pool, so memory stays
 * bounded whatever the size of the sweep. */
struct ring {
	char **slot;
	guint64 n;
};

static char **ring_at(struct ring *r, guint64 pos)
{
	return &r->slot[pos % r->n];
}

static bool write_chunk(const char *dir, guint64 k, struct ring *rows, guint64 from, guint64 to,
			GError **err)
{
	g_autofree char *path = part_path(dir, k);
	struct cs_outfile *f = cs_outfile_open(path, true, err);

	if (!f)
		return false;
	for (guint64 i = from; i < to; i++) {
		char **row = ring_at(rows, i);

		fputs(*row, f->fp);
		g_free(*row);
		*row = NULL;
	}
	return cs_outfile_commit(f, err);
}

/*
 * -j when not given: SLURM_CPUS_PER_TASK, else the CPUs this process may run on.
 * Slurm's task/affinity and task/cgroup, taskset and container CPU sets narrow those
 * (a Slurm job without --cpus-per-task is bound to one CPU), while
 * g_get_num_processors() counts every CPU of the machine in GLib 2.74 (Debian 12),
 * so it is only the fallback.
 */
static int default_jobs(void)
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

static void print_show(const struct sweep *sw, guint64 index)
{
	g_auto(GStrv) sets = sweep_variant_sets(sw, index);
	g_autofree char *base = g_shell_quote(sw->base_file);

	printf("chargesim run %s", base);
	for (int i = 0; sets[i]; i++) {
		g_autofree char *q = g_shell_quote(sets[i]);

		printf(" --set %s", q);
	}
	printf("\n");
}

int cmd_sweep(int argc, char **argv)
{
	char *outdir = NULL, *shard_opt = NULL;
	gint jobs = 0, chunk_rows = CHUNK_ROWS_DEFAULT;
	gint64 show = -1;
	gboolean resume = FALSE, keep = FALSE, quiet = FALSE;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, "Write results.csv and manifest.json into DIR (required)", "DIR" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Run N variants at a time (default: SLURM_CPUS_PER_TASK, else every CPU this process may use)", "N" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &shard_opt, "Run only the variants with index % N == I (default: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, else 0/1)", "I/N" },
		{ "resume", 0, 0, G_OPTION_ARG_NONE, &resume, "Continue an interrupted sweep in DIR (start one if DIR has none)", NULL },
		{ "keep-traces", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep each variant's trace.csv, events.jsonl, metrics.json in DIR/variants/INDEX/", NULL },
		{ "chunk-rows", 0, 0, G_OPTION_ARG_INT, &chunk_rows, "Write a durable chunk once K rows are in order (default 256), or after 10 s", "K" },
		{ "show", 0, 0, G_OPTION_ARG_INT64, &show, "Print the `chargesim run` command of variant INDEX and exit", "INDEX" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SWEEP.json -o DIR - run the variants of a sweep");
	g_autoptr(GError) err = NULL;
	g_autoptr(sweep) sw = NULL;
	struct sweep_shard sh = { 0, 1 };
	struct runner run = { 0 };
	struct progress pr = { 0 };
	struct sigaction sa = { 0 }, old_int, old_term;
	GThreadPool *pool = NULL;
	struct ring rows = { 0 };
	g_autofree char *first_failure = NULL;
	guint64 m, done = 0, n_chunks = 0, ready, flushed, pushed, received = 0, n_failed = 0;
	bool complete = false, have_manifest, signals = false, from_env = false;
	gint64 t0, last_flush;
	int status = CLI_EXIT_OK;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"SWEEP.json: {\"base\": SCENARIO, \"vary\": {PATH: [VALUES]}, \"seed\": S,\n"
		"             \"random\": {\"n\": N, \"seed\": S, \"ranges\": {PATH: [LOW, HIGH]}}}\n"
		"Variants are numbered in grid order (keys as written, the last fastest; random\n"
		"samples fastest of all). results.csv is the same for every -j and shard split;\n"
		"`chargesim merge` joins shard directories. Expectations of the base scenario are\n"
		"not checked. Exit status 2 when a variant was invalid input, 3 on an internal\n"
		"error (the row's error cell says which); 130/143 when interrupted (use --resume).\n"
		"See docs/scaling.md for GNU parallel and Slurm.");
	if (!cli_parse(ctx, &argc, &argv)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (argc != 2) {
		cli_error("sweep: expected exactly one sweep file, found %d arguments (see --help)", argc - 1);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	sw = sweep_load(argv[1], &err);
	if (!sw) {
		fprintf(stderr, "%s\n", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (show >= 0) {
		if ((guint64)show >= sw->total) {
			cli_error("--show: found %" G_GINT64_FORMAT ", expected a variant index from 0 to %" G_GUINT64_FORMAT,
				  show, sw->total - 1);
			status = CLI_EXIT_USAGE;
		} else {
			print_show(sw, (guint64)show);
		}
		goto out;
	}
	if (!outdir) {
		cli_error("sweep: -o DIR is required (the directory for results.csv and manifest.json)");
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (jobs < 0 || jobs > MAX_JOBS || chunk_rows < 1 || chunk_rows > MAX_CHUNK_ROWS) {
		cli_error("sweep: found -j %d, --chunk-rows %d, expected 0 <= N <= %d (0: default) and 1 <= K <= %d",
			  jobs, chunk_rows, MAX_JOBS, MAX_CHUNK_ROWS);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (jobs == 0)
		jobs = default_jobs();
	if (shard_opt) {
		if (!sweep_parse_shard(shard_opt, &sh, &err)) {
			cli_error("%s", err->message);
			status = CLI_EXIT_USAGE;
			goto out;
		}
	} else if (sweep_shard_from_env(&sh, &err)) {
		from_env = true;
	} else if (err) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	m = sweep_shard_size(sw->total, &sh);

	/* the directory: new, or resumed */
	if (!cs_mkdir_p(outdir, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	{
		g_autofree char *mp = g_build_filename(outdir, "manifest.json", NULL);
		g_autofree char *p0 = part_path(outdir, 0);

		have_manifest = g_file_test(mp, G_FILE_TEST_EXISTS);
		if (!resume && (have_manifest || g_file_test(p0, G_FILE_TEST_EXISTS))) {
			cli_error("sweep: %s already holds a sweep (manifest.json); pass --resume to continue it, or choose another directory",
				  outdir);
			status = CLI_EXIT_USAGE;
			goto out;
		}
	}
	if (have_manifest && !manifest_matches(sw, &sh, outdir, &complete, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (!complete && !scan_chunks(&sh, m, outdir, &n_chunks, &done, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (complete) {
		g_autofree char *rp = g_build_filename(outdir, "results.csv", NULL);
		g_autofree char *text = NULL;
		gsize len;

		if (!g_file_get_contents(rp, &text, &len, &err)) {
			cli_error("%s", err->message);
			status = CLI_EXIT_USAGE;
			goto out;
		}
		{
			const char *body = memchr(text, '\n', len);   /* past the header */

			body = body ? body + 1 : text + len;
			status = rows_status(body, len - (gsize)(body - text), &n_failed, &first_failure);
		}
		if (!quiet)
			printf("sweep: %s is complete (%" G_GUINT64_FORMAT " variants of shard %" G_GUINT64_FORMAT
			       "/%" G_GUINT64_FORMAT "); nothing to run\n", outdir, m, sh.index, sh.count);
		goto report;
	}
	if (!have_manifest && !write_manifest(sw, &sh, outdir, false, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (!quiet) {
		fprintf(stderr, "sweep: %" G_GUINT64_FORMAT " variants", sw->total);
		if (sh.count > 1)
			fprintf(stderr, ", shard %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "%s: %" G_GUINT64_FORMAT " of them",
				sh.index, sh.count, from_env ? " (from SLURM_ARRAY_TASK_ID/COUNT)" : "", m);
		if (done)
			fprintf(stderr, "; resuming: %" G_GUINT64_FORMAT " already done", done);
		fprintf(stderr, "; %d thread%s\n", jobs, jobs == 1 ? "" : "s");
	}

	/* run */
	sweep_signal = 0;
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;   /* a second Ctrl-C ends the process at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	signals = true;
	run.sw = sw;
	run.sh = sh;
	run.dir = outdir;
	run.keep_traces = keep;
	run.done = g_async_queue_new();
	pool = g_thread_pool_new(worker, &run, jobs, TRUE, &err);
	if (!pool) {
		cli_error("sweep: cannot start %d threads: %s", jobs, err->message);
		status = CLI_EXIT_INTERNAL;
		goto stop;
	}
	/* room for a chunk plus enough queued work to keep every thread busy while the
	 * main thread waits for fsync */
	rows.n = (guint64)chunk_rows + RING_SLACK + 64 * (guint64)jobs;
	rows.slot = g_new0(char *, rows.n);
	pr.quiet = quiet;
	pr.tty = isatty(STDERR_FILENO);
	pr.total = m;
	pr.done0 = pr.done = done;
	pr.t0 = pr.last = t0 = last_flush = g_get_monotonic_time();
	ready = flushed = pushed = done;
	while (received < m - done) {
		struct done_row *d;
		gint64 now;

		for (; pushed < m && pushed - flushed < rows.n; pushed++)
			g_thread_pool_push(pool, GSIZE_TO_POINTER(pushed + 1), NULL);
		/* poll rather than block on the queue: workers never wake this thread,
		 * which costs a context switch per variant when variants are short */
		g_usleep(POLL_US);
		while ((d = g_async_queue_try_pop(run.done))) {
			*ring_at(&rows, d->pos) = d->row;
			received++;
			pr.done++;
			g_free(d);
		}
		if (sweep_signal)
			break;
		while (ready < pushed && *ring_at(&rows, ready))
			ready++;
		now = g_get_monotonic_time();
		if (ready - flushed >= (guint64)chunk_rows ||
		    (ready > flushed && (now - last_flush >= FLUSH_SECONDS * G_USEC_PER_SEC ||
					 ready == m))) {
			if (!write_chunk(outdir, n_chunks, &rows, flushed, ready, &err)) {
				progress_end(&pr);
				cli_error("%s", err->message);
				status = CLI_EXIT_USAGE;
				goto stop;
			}
			n_chunks++;
			flushed = ready;
			last_flush = now;
		}
		progress_show(&pr, false);
	}
	if (sweep_signal) {
		int sig = sweep_signal;

		/* drop the queued variants, let the running ones finish, keep what is in order */
		g_thread_pool_free(pool, TRUE, TRUE);
		pool = NULL;
		for (struct done_row *d; (d = g_async_queue_try_pop(run.done));) {
			*ring_at(&rows, d->pos) = d->row;
			g_free(d);
		}
		while (ready < pushed && *ring_at(&rows, ready))
			ready++;
		progress_end(&pr);
		if (ready > flushed) {
			if (write_chunk(outdir, n_chunks, &rows, flushed, ready, &err))
				flushed = ready;
			else
				cli_error("%s", err->message);
		}
		fprintf(stderr, "chargesim: sweep interrupted by signal %d: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
			" variants saved in %s; continue with --resume\n", sig, flushed, m, outdir);
		status = 128 + sig;
		goto stop;
	}
	g_thread_pool_free(pool, FALSE, TRUE);
	pool = NULL;
	progress_end(&pr);
	if (!assemble(sw, &sh, outdir, n_chunks, &status, &n_failed, &first_failure, &err)) {
		cli_error("%s", err->message);
		status = CLI_EXIT_USAGE;
		goto stop;
	}
	if (!quiet) {
		double el = (double)(g_get_monotonic_time() - t0) * 1e-6;

		printf("sweep: %" G_GUINT64_FORMAT " variants", m - done);
		if (done)
			printf(" (plus %" G_GUINT64_FORMAT " resumed)", done);
		printf(" in %.2f s, %.1f variants/s, %d thread%s; results in %s/results.csv\n", el,
		       el > 0 ? (double)(m - done) / el : 0, jobs, jobs == 1 ? "" : "s", outdir);
	}
report:
	if (n_failed)
		cli_error("sweep: %" G_GUINT64_FORMAT " variant%s could not run (see the error column of %s/results.csv); first: %s",
			  n_failed, n_failed == 1 ? "" : "s", outdir, first_failure);
stop:
	if (pool)
		g_thread_pool_free(pool, TRUE, TRUE);
	if (run.done) {
		for (struct done_row *d; (d = g_async_queue_try_pop(run.done));) {
			g_free(d->row);
			g_free(d);
		}
		g_async_queue_unref(run.done);
	}
	for (guint64 i = 0; i < rows.n; i++)
		g_free(rows.slot[i]);
	g_free(rows.slot);
	if (signals) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
out:
	g_free(outdir);
	g_free(shard_opt);
	return status;
}

int cmd_merge(int argc, char **argv)
{
	char *outdir = NULL;
	gboolean quiet = FALSE;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, "Write the merged results.csv and manifest.json into DIR (required)", "DIR" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("SHARD-DIR... -o DIR - join the shards of a sweep");
	g_autoptr(GError) err = NULL;
	int status = CLI_EXIT_OK;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Checks that the shards' manifests agree (same sweep file and base scenario, same\n"
		"chargesim, every shard I of N present once and complete) and that each holds\n"
		"exactly its variants, then writes one results.csv, byte-identical to the\n"
		"results.csv of the same sweep run unsharded.\n"
		"Example: chargesim merge out/sweep/shard-* -o out/sweep/all");
	if (!cli_parse(ctx, &argc, &argv)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (argc < 2 || !outdir) {
		cli_error("merge: expected at least one shard directory and -o DIR (see --help)");
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (!sweep_merge(argv + 1, argc - 1, outdir, &err)) {
		fprintf(stderr, "%s\n", err->message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (!quiet)
		printf("merge: %d shard%s joined into %s/results.csv\n", argc - 1, argc == 2 ? "" : "s", outdir);
out:
	g_free(outdir);
	return status;
}
