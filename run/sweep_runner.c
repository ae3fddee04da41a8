// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/sweep_runner.c - the variants of a sweep shard on a thread pool, in order,
 * into durable chunks and results.csv (see sweep_runner.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "run/scenario.h"
#include "run/sweep_runner.h"
#include "run/world.h"
#include "output/outfile.h"
#include "output/outset.h"

#define FLUSH_SECONDS 10       /* a chunk at least this often while rows come in order */
#define RING_SLACK 4096        /* queued variants beyond a chunk, to keep threads busy */
#define POLL_US 10000          /* the calling thread looks for finished rows this often */
#define PART_PREFIX "results.part-"

/* Exit statuses of a row's error cell (run/run.h). */
enum { ROWS_OK = 0, ROWS_INPUT = 2, ROWS_INTERNAL = 3 };

static volatile sig_atomic_t sweep_signal;

static void on_signal(int sig)
{
	sweep_signal = sig;
}

struct done_row {
	guint64 pos;
	char *row;
};

/* What the workers share. */
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
	int status = ROWS_OK;
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
					status = ROWS_INTERNAL;
				else if (status == ROWS_OK)
					status = ROWS_INPUT;
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

static bool is_part(const char *name)
{
	return g_str_has_prefix(name, PART_PREFIX) && g_str_has_suffix(name, ".csv");
}

/* Remove every chunk: results.csv holds them all. */
static void remove_parts(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	while (d && (name = g_dir_read_name(d)))
		if (is_part(name))
			g_ptr_array_add(parts, g_build_filename(dir, name, NULL));
	for (guint i = 0; i < parts->len; i++)
		g_unlink(parts->pdata[i]);
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
	/* (temporary files of a writer that was killed went when the directory was
	 * locked: output/outset.h) */
	while ((name = g_dir_read_name(d)))
		if (is_part(name))
			found++;
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
	*status = ROWS_OK;
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
	remove_parts(dir);
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

/* ---- one run of the shard ---- */

struct sweep_run {
	const struct sweep *sw;
	const struct sweep_runner_opts *o;
	struct sweep_outcome *out;
	struct runner shared;          /* what the workers see */
	GThreadPool *pool;
	struct ring rows;
	struct sweep_progress pr;
	/* variant positions in the shard: [0, flushed) in chunks, [flushed, ready) in
	 * order in the ring, [ready, pushed) handed to the pool */
	guint64 flushed, ready, pushed, received, n_chunks;
	gint64 last_flush;
	struct sigaction old_int, old_term;
	bool signals;
	struct cs_outlock *lock;       /* one sweep writes into the directory at a time */
};

/* A directory whose manifest says complete: the counts of results.csv's error cells. */
static bool read_complete(const char *dir, struct sweep_outcome *out, GError **err)
{
	g_autofree char *rp = g_build_filename(dir, "results.csv", NULL);
	g_autofree char *text = NULL;
	const char *body;
	gsize len;

	if (!g_file_get_contents(rp, &text, &len, err))
		return false;
	body = memchr(text, '\n', len);   /* past the header */
	body = body ? body + 1 : text + len;
	out->status = rows_status(body, len - (gsize)(body - text), &out->n_failed,
				  &out->first_failure);
	out->was_complete = true;
	return true;
}

/* The directory: new, resumed from its chunks, or complete already. */
static bool open_dir(struct sweep_run *r, GError **err)
{
	const char *dir = r->o->dir;
	const struct sweep_shard *sh = &r->o->shard;
	g_autofree char *mp = g_build_filename(dir, "manifest.json", NULL);
	g_autofree char *p0 = part_path(dir, 0);
	bool have_manifest, complete = false;

	r->lock = cs_outdir_lock(dir, err);
	if (!r->lock)
		return false;
	have_manifest = g_file_test(mp, G_FILE_TEST_EXISTS);
	if (!r->o->resume && (have_manifest || g_file_test(p0, G_FILE_TEST_EXISTS))) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "sweep: %s already holds a sweep (manifest.json); pass --resume to continue it, or choose another directory",
			    dir);
		return false;
	}
	if (have_manifest && !manifest_matches(r->sw, sh, dir, &complete, err))
		return false;
	if (complete) {
		/* chunks left by a run killed while it removed them are in results.csv */
		remove_parts(dir);
		return read_complete(dir, r->out, err);
	}
	if (!scan_chunks(sh, r->out->variants, dir, &r->n_chunks, &r->out->resumed, err))
		return false;
	return have_manifest || write_manifest(r->sw, sh, dir, false, err);
}

static void catch_signals(struct sweep_run *r)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sa.sa_flags = SA_RESETHAND;   /* a second Ctrl-C ends the process at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &r->old_int);
	sigaction(SIGTERM, &sa, &r->old_term);
	r->signals = true;
}

static bool start_pool(struct sweep_run *r, GError **err)
{
	g_autoptr(GError) inner = NULL;

	r->shared = (struct runner){
		.sw = r->sw, .sh = r->o->shard, .dir = r->o->dir, .keep_traces = r->o->keep_traces,
		.done = g_async_queue_new(),
	};
	r->pool = g_thread_pool_new(worker, &r->shared, r->o->jobs, TRUE, &inner);
	if (!r->pool) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "sweep: cannot start %d threads: %s",
			    r->o->jobs, inner->message);
		return false;
	}
	/* room for a chunk plus enough queued work to keep every thread busy while the
	 * calling thread waits for fsync */
	r->rows.n = (guint64)r->o->chunk_rows + RING_SLACK + 64 * (guint64)r->o->jobs;
	r->rows.slot = g_new0(char *, r->rows.n);
	r->ready = r->flushed = r->pushed = r->out->resumed;
	r->last_flush = r->o->clock_us ? r->o->clock_us() : 0;
	return true;
}

/* Move the finished rows into the ring; count them when `count`. */
static void collect(struct sweep_run *r, bool count)
{
	struct done_row *d;

	while ((d = g_async_queue_try_pop(r->shared.done))) {
		*ring_at(&r->rows, d->pos) = d->row;
		if (count) {
			r->received++;
			r->pr.done++;
		}
		g_free(d);
	}
	while (r->ready < r->pushed && *ring_at(&r->rows, r->ready))
		r->ready++;
}

/* Write the rows in order as the next chunk when enough are waiting, when the last
 * chunk is FLUSH_SECONDS old, or when the shard is done. */
static bool flush_due(struct sweep_run *r, GError **err)
{
	gint64 now = r->o->clock_us ? r->o->clock_us() : 0;
	bool stale = r->o->clock_us && now - r->last_flush >= FLUSH_SECONDS * G_USEC_PER_SEC;

	if (r->ready - r->flushed < (guint64)r->o->chunk_rows &&
	    !(r->ready > r->flushed && (stale || r->ready == r->out->variants)))
		return true;
	if (!write_chunk(r->o->dir, r->n_chunks, &r->rows, r->flushed, r->ready, err))
		return false;
	r->n_chunks++;
	r->flushed = r->ready;
	r->last_flush = now;
	return true;
}

/* Hand variants to the pool (at most a ring's worth past the last chunk) and gather
 * their rows until all are in or a signal came. */
static bool pump(struct sweep_run *r, GError **err)
{
	guint64 m = r->out->variants;

	while (r->received < m - r->out->resumed) {
		for (; r->pushed < m && r->pushed - r->flushed < r->rows.n; r->pushed++)
			g_thread_pool_push(r->pool, GSIZE_TO_POINTER(r->pushed + 1), NULL);
		/* poll rather than block on the queue: workers never wake this thread,
		 * which costs a context switch per variant when variants are short */
		g_usleep(POLL_US);
		collect(r, true);
		if (sweep_signal)
			return true;
		if (!flush_due(r, err))
			return false;
		if (r->o->progress)
			r->o->progress(r->o->data, &r->pr);
	}
	return true;
}

/* After a signal: drop the queued variants, let the running ones finish, keep what
 * is in order. */
static void stop_on_signal(struct sweep_run *r)
{
	r->out->signal = sweep_signal;
	g_thread_pool_free(r->pool, TRUE, TRUE);
	r->pool = NULL;
	collect(r, false);
	if (r->ready > r->flushed &&
	    write_chunk(r->o->dir, r->n_chunks, &r->rows, r->flushed, r->ready, &r->out->save_error))
		r->flushed = r->ready;
	r->out->saved = r->flushed;
}

static void sweep_run_clear(struct sweep_run *r)
{
	if (r->pool)
		g_thread_pool_free(r->pool, TRUE, TRUE);
	if (r->shared.done) {
		for (struct done_row *d; (d = g_async_queue_try_pop(r->shared.done));) {
			g_free(d->row);
			g_free(d);
		}
		g_async_queue_unref(r->shared.done);
	}
	for (guint64 i = 0; i < r->rows.n; i++)
		g_free(r->rows.slot[i]);
	g_free(r->rows.slot);
	if (r->signals) {
		sigaction(SIGINT, &r->old_int, NULL);
		sigaction(SIGTERM, &r->old_term, NULL);
	}
	cs_outdir_unlock(r->lock);
}

bool sweep_runner_run(const struct sweep *sw, const struct sweep_runner_opts *o,
		      struct sweep_outcome *out, GError **err)
{
	struct sweep_run r = { .sw = sw, .o = o, .out = out };
	bool ok = false;

	memset(out, 0, sizeof(*out));
	out->variants = sweep_shard_size(sw->total, &o->shard);
	if (!open_dir(&r, err))
		goto out;
	if (out->was_complete) {
		ok = true;
		goto out;
	}
	r.pr = (struct sweep_progress){ out->variants, out->resumed, out->resumed };
	if (o->started)
		o->started(o->data, &r.pr);
	sweep_signal = 0;
	if (o->catch_signals)
		catch_signals(&r);
	if (!start_pool(&r, err) || !pump(&r, err))
		goto out;
	if (sweep_signal) {
		stop_on_signal(&r);
		ok = true;
		goto out;
	}
	g_thread_pool_free(r.pool, FALSE, TRUE);
	r.pool = NULL;
	ok = assemble(sw, &o->shard, o->dir, r.n_chunks, &out->status, &out->n_failed,
		      &out->first_failure, err);
out:
	sweep_run_clear(&r);
	return ok;
}

void sweep_outcome_clear(struct sweep_outcome *out)
{
	g_clear_error(&out->save_error);
	g_free(out->first_failure);
	memset(out, 0, sizeof(*out));
}
