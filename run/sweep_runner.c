// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/sweep_runner.c - the variants of a sweep shard in worker processes, in order,
 * into durable chunks and results.csv (see sweep_runner.h).
 */
#define _GNU_SOURCE	/* close_range */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include "run/scenario.h"
#include "run/sweep_runner.h"
#include "run/world.h"
#include "output/outfile.h"
#include "output/outset.h"

#define FLUSH_SECONDS 10       /* a chunk at least this often while rows come in order */
#define RING_SLACK 4096        /* variants run beyond a chunk, to keep the workers busy */
#define POLL_US 10000          /* the calling process looks for finished rows this often */
#define PART_PREFIX "results.part-"

/* Exit statuses of a row's error cell (run/run.h). */
enum { ROWS_OK = 0, ROWS_INPUT = 2, ROWS_INTERNAL = 3 };

static volatile sig_atomic_t sweep_signal;

static void on_signal(int sig)
{
	sweep_signal = sig;
}

/* ---- the shard directory ---- */

static char *part_path(const char *dir, guint64 k)
{
	return g_strdup_printf("%s/" PART_PREFIX "%06" G_GUINT64_FORMAT ".csv", dir, k);
}

/* Count the error cells of rows: the text after a row's last comma, as the error cell
 * holds none (run/sweep.c). */
static int rows_status(const char *text, gsize len, guint64 *n_failed, char **first)
{
	const char *end = text + len, *e;
	int status = ROWS_OK;

	for (const char *p = text; (e = sweep_csv_record_end(p, end)) < end; p = e + 1) {
		const char *cell = memrchr(p, ',', (size_t)(e - p));

		if (!cell || ++cell == e)
			continue;
		(*n_failed)++;
		status = MAX(status, g_str_has_prefix(cell, "internal error") ? ROWS_INTERNAL : ROWS_INPUT);
		if (!*first)
			*first = g_strdup_printf("variant %.*s: %.*s", (int)strcspn(p, ","), p,
						 (int)(e - cell), cell);
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
	const char *name;

	/* (readdir goes on past the entry just removed) */
	while (d && (name = g_dir_read_name(d)))
		if (is_part(name)) {
			g_autofree char *path = g_build_filename(dir, name, NULL);

			g_unlink(path);
		}
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

		if (!g_file_get_contents(path, &text, &len, &inner))
			return scenario_error(err, "%s: found %llu chunk files, expected them numbered from 0 without gaps (%s)",
					      dir, (unsigned long long)found, inner->message);
		for (const char *p = text, *end = text + len; p < end;) {
			const char *e = sweep_csv_record_end(p, end);
			guint64 idx, want = sh->index + *done * sh->count;

			line++;
			if (e == end || !sweep_row_index(p, e, &idx) || idx != want || *done >= m)
				return scenario_error(err, "%s: line %llu: found %s, expected the row of variant %llu; this directory was not written by this sweep and shard",
						      path, (unsigned long long)line,
						      e == end ? "an unfinished row" : "another row",
						      (unsigned long long)want);
			(*done)++;
			p = e + 1;
		}
	}
	*n_chunks = found;
	return true;
}

/* A shard started by a build of other driver bytes (an edit rebuilt in between) is not
 * continued: its rows and the new ones would come from two drivers. */
static bool kernel_files_match(const struct sweep *sw, const cJSON *have, const char *path,
			       GError **err)
{
	cJSON *want = sweep_kernel_files_json(sw);
	const cJSON *got = cJSON_GetObjectItemCaseSensitive(have, "kernel_files");
	bool same = (!want && !got) || (want && got && cJSON_Compare(want, got, true));

	cJSON_Delete(want);
	return same ||
	       scenario_error(err, "%s: kernel_files: found %s, expected the kernel files of this build (a real driver was rebuilt from other bytes since this directory was started; use a new directory)",
			      path, got ? "other driver bytes" : "none");
}

/* Check an existing manifest.json against this sweep and shard. */
static bool manifest_matches(const struct sweep *sw, const struct sweep_shard *sh, const char *dir,
			     bool *complete, GError **err)
{
	g_autofree char *path = g_build_filename(dir, "manifest.json", NULL);
	g_autofree char *text = NULL;
	const char *const keys[] = { "sweep_sha256", "base_sha256", "chargesim_version", NULL };
	const char *const want[] = { sw->sha256, sw->base_sha256, CHARGESIM_VERSION };
	const cJSON *hs, *hi, *hc;
	cJSON *have = NULL;
	gsize len;
	bool ok = false;

	if (!g_file_get_contents(path, &text, &len, NULL) || !(have = cJSON_ParseWithLength(text, len)))
		return scenario_error(err, "%s: found an unreadable manifest, expected the manifest of this sweep",
				      path);
	for (int i = 0; keys[i]; i++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(have, keys[i]);

		if (!cJSON_IsString(a) || strcmp(a->valuestring, want[i]) != 0) {
			scenario_error(err, "%s: %s: found %s, expected %s (the sweep file, its base scenario or chargesim changed since this directory was started; use a new directory)",
				       path, keys[i], cJSON_IsString(a) ? a->valuestring : "nothing", want[i]);
			goto out;
		}
	}
	if (!kernel_files_match(sw, have, path, err))
		goto out;
	hs = cJSON_GetObjectItemCaseSensitive(have, "shard");
	hi = cJSON_GetObjectItemCaseSensitive(hs, "index");
	hc = cJSON_GetObjectItemCaseSensitive(hs, "count");
	ok = (cJSON_IsNumber(hi) && cJSON_IsNumber(hc) && hi->valuedouble == (double)sh->index &&
	      hc->valuedouble == (double)sh->count) ||
	     scenario_error(err, "%s: shard: found %g/%g, expected %llu/%llu (resume a shard with the same --shard)",
			    path, cJSON_IsNumber(hi) ? hi->valuedouble : -1, cJSON_IsNumber(hc) ? hc->valuedouble : -1,
			    (unsigned long long)sh->index, (unsigned long long)sh->count);
	*complete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(have, "complete"));
out:
	cJSON_Delete(have);
	return ok;
}

/* results.csv from the header and the chunks; then the manifest says complete and
 * the chunks go. */
static bool assemble(const struct sweep *sw, const struct sweep_shard *sh, const char *dir,
		     guint64 n_chunks, struct sweep_outcome *out, GError **err)
{
	g_autofree char *path = g_build_filename(dir, "results.csv", NULL);
	g_autofree char *header = sweep_csv_header(sw);
	struct cs_outfile *f = cs_outfile_open(path, true, err);
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	cJSON *man;

	if (!f)
		return false;
	fputs(header, f->fp);
	g_checksum_update(sum, (const guchar *)header, (gssize)strlen(header));
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
		g_checksum_update(sum, (const guchar *)text, (gssize)len);
		s = rows_status(text, len, &out->n_failed, &out->first_failure);
		out->status = MAX(out->status, s);
	}
	/* what `chargesim merge` checks the rows against (docs/scaling.md, "Merging") */
	man = sweep_manifest(sw, sh, true);
	cJSON_AddStringToObject(man, "results_sha256", g_checksum_get_string(sum));
	if (!cs_outfile_commit(f, err)) {
		cJSON_Delete(man);
		return false;
	}
	if (!sweep_manifest_write(dir, man, err))
		return false;
	remove_parts(dir);
	return true;
}

/* ---- one run of the shard ---- */

/* What the worker processes share with the calling one (a shared anonymous mapping):
 * each worker claims the next variant position, runs it if the ring has room for its
 * row, and sends the row back through its pipe. */
struct pool {
	atomic_uint_least64_t next;      /* the next position to claim */
	atomic_uint_least64_t limit;     /* positions below it have room in the ring */
	atomic_int stop;                 /* take no other variant (a signal came) */
	atomic_uint_least64_t running[]; /* per worker: the position it runs + 1; 0 none */
};

struct worker {
	pid_t pid;                     /* 0: reaped */
	int fd;                        /* the read end of its pipe, non-blocking; -1: none */
	GByteArray *in;                /* read, not yet a whole row */
	bool eof;
};

struct sweep_run {
	const struct sweep *sw;
	const struct sweep_runner_opts *o;
	struct sweep_outcome *out;
	struct pool *pool;
	size_t pool_size;
	struct worker *workers;
	int n_workers;
	pid_t parent;
	/* rows waiting to be written: variant position pos in rows[pos % n_rows]; at most
	 * n_rows variants past the last chunk are handed to the pool, so memory stays
	 * bounded whatever the size of the sweep */
	char **rows;
	guint64 n_rows;
	struct sweep_progress pr;
	/* variant positions in the shard: [0, flushed) in chunks, [flushed, ready) in
	 * order in the ring */
	guint64 flushed, ready, n_chunks;
	gint64 last_flush;
	struct sigaction old_int, old_term;
	bool signals;
	struct cs_outlock *lock;       /* one sweep writes into the directory at a time */
};

static char **ring_at(struct sweep_run *r, guint64 pos)
{
	return &r->rows[pos % r->n_rows];
}

/* The rows in order that no chunk holds yet, as the next chunk. */
static bool write_chunk(struct sweep_run *r, GError **err)
{
	g_autofree char *path = part_path(r->o->dir, r->n_chunks);
	struct cs_outfile *f = cs_outfile_open(path, true, err);

	if (!f)
		return false;
	for (guint64 i = r->flushed; i < r->ready; i++) {
		fputs(*ring_at(r, i), f->fp);
		g_clear_pointer(ring_at(r, i), g_free);
	}
	if (!cs_outfile_commit(f, err))
		return false;
	r->n_chunks++;
	r->flushed = r->ready;
	return true;
}

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
	if (!r->o->resume && (have_manifest || g_file_test(p0, G_FILE_TEST_EXISTS)))
		return scenario_error(err, "sweep: %s already holds a sweep (manifest.json); pass --resume to continue it, or choose another directory",
				      dir);
	if (have_manifest && !manifest_matches(r->sw, sh, dir, &complete, err))
		return false;
	if (complete) {
		/* chunks left by a run killed while it removed them are in results.csv */
		remove_parts(dir);
		return read_complete(dir, r->out, err);
	}
	if (!scan_chunks(sh, r->out->variants, dir, &r->n_chunks, &r->out->resumed, err))
		return false;
	return have_manifest || sweep_manifest_write(dir, sweep_manifest(r->sw, sh, false), err);
}

/* A worker process: claim positions until none is left or a signal came, run each,
 * send its row. */
static G_GNUC_NORETURN void worker_main(struct sweep_run *r, int w, int fd)
{
	struct pool *pl = r->pool;
	const struct sweep_shard *sh = &r->o->shard;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != r->parent)
		_exit(1);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	/* the directory lock and the other workers' pipes are not this process's */
	close_range(3, (unsigned)fd - 1, 0);
	close_range((unsigned)fd + 1, ~0U, 0);
	while (!atomic_load(&pl->stop)) {
		guint64 pos = atomic_fetch_add(&pl->next, 1), index = sh->index + pos * sh->count;
		g_autofree char *vdir = NULL, *row = NULL;
		int failed;   /* counted from the rows' error cells when results.csv is written */

		if (pos >= r->out->variants)
			break;
		while (pos >= atomic_load(&pl->limit))
			if (atomic_load(&pl->stop))
				_exit(0);
			else
				g_usleep(POLL_US);
		atomic_store(&pl->running[w], pos + 1);
		if (r->o->keep_traces)
			vdir = g_strdup_printf("%s/variants/%" G_GUINT64_FORMAT, r->o->dir, index);
		row = sweep_run_variant(r->sw, index, vdir, &failed);
		/* the row with its NUL, which ends it in the pipe */
		for (const char *p = row, *end = row + strlen(row) + 1; p < end;) {
			ssize_t n = write(fd, p, (size_t)(end - p));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				_exit(1);
			p += n;
		}
		atomic_store(&pl->running[w], 0);
	}
	_exit(0);
}

static bool spawn(struct sweep_run *r, struct worker *k, GError **err)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		goto fail;
	k->pid = fork();
	if (k->pid == 0)
		worker_main(r, (int)(k - r->workers), fds[1]);
	close(fds[1]);
	k->fd = fds[0];
	k->eof = false;
	if (k->pid > 0 && fcntl(k->fd, F_SETFL, O_NONBLOCK) == 0)
		return true;
	k->pid = MAX(k->pid, 0);
fail:
	g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "sweep: cannot start a worker process: %s",
		    g_strerror(errno));
	return false;
}

static bool start_pool(struct sweep_run *r, GError **err)
{
	/* room for a chunk plus enough variants to keep every worker busy while the
	 * calling process waits for fsync */
	r->n_rows = (guint64)r->o->chunk_rows + RING_SLACK + 64 * (guint64)r->o->jobs;
	r->rows = g_new0(char *, r->n_rows);
	r->ready = r->flushed = r->out->resumed;
	r->last_flush = r->o->clock_us ? r->o->clock_us() : 0;
	r->pool_size = sizeof(struct pool) + (size_t)r->o->jobs * sizeof(r->pool->running[0]);
	r->pool = mmap(NULL, r->pool_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->pool == MAP_FAILED) {
		r->pool = NULL;
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "sweep: cannot map memory: %s",
			    g_strerror(errno));
		return false;
	}
	atomic_init(&r->pool->next, r->ready);
	atomic_init(&r->pool->limit, r->flushed + r->n_rows);
	r->parent = getpid();
	r->n_workers = r->o->jobs;
	r->workers = g_new0(struct worker, r->n_workers);
	for (int i = 0; i < r->n_workers; i++) {
		r->workers[i].fd = -1;
		r->workers[i].in = g_byte_array_new();
	}
	for (int i = 0; i < r->n_workers; i++)
		if (!spawn(r, &r->workers[i], err))
			return false;
	return true;
}

/* A worker's pipe ended: it exited. False (with err) when it died. */
static bool reap(struct sweep_run *r, struct worker *k, GError **err)
{
	guint64 running = atomic_load(&r->pool->running[k - r->workers]);
	g_autofree char *what = NULL, *how = NULL;
	int st = 0, waited = waitpid(k->pid, &st, 0);

	k->pid = 0;
	if (waited < 0 || (WIFEXITED(st) && WEXITSTATUS(st) == 0))
		return true;
	what = running ? g_strdup_printf("the worker process running variant %" G_GUINT64_FORMAT,
					 r->o->shard.index + (running - 1) * r->o->shard.count)
		       : g_strdup("a worker process");
	how = WIFSIGNALED(st) ? g_strdup_printf("was killed by signal %d (%s)", WTERMSIG(st),
						g_strsignal(WTERMSIG(st)))
			      : g_strdup_printf("exited with status %d", WEXITSTATUS(st));
	g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "sweep: %s %s", what, how);
	return false;
}

/* Move the rows the workers sent into the ring. False (with err) when a worker died. */
static bool collect(struct sweep_run *r, GError **err)
{
	const struct sweep_shard *sh = &r->o->shard;
	guint8 buf[16384];
	bool ok = true;

	for (struct worker *k = r->workers; k < r->workers + r->n_workers; k++) {
		while (!k->eof) {
			ssize_t n = read(k->fd, buf, sizeof(buf));

			if (n > 0) {
				g_byte_array_append(k->in, buf, (guint)n);
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			k->eof = n == 0 || errno != EAGAIN;   /* a read error ends it as EOF does */
			break;
		}
		/* rows end in a NUL; each names its variant, whose position in the shard follows */
		for (char *z; k->in->len && (z = memchr(k->in->data, 0, k->in->len));) {
			char *row = (char *)k->in->data;
			guint64 idx = sh->index;

			sweep_row_index(row, z, &idx);
			*ring_at(r, (idx - sh->index) / sh->count) = g_strdup(row);
			g_byte_array_remove_range(k->in, 0, (guint)(z - row + 1));
			r->pr.done++;
		}
		if (k->eof && k->pid && !reap(r, k, ok ? err : NULL))
			ok = false;
	}
	while (r->ready < MIN(r->out->variants, r->flushed + r->n_rows) &&
	       *ring_at(r, r->ready))
		r->ready++;
	return ok;
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
	if (!write_chunk(r, err))
		return false;
	r->last_flush = now;
	return true;
}

/* Wait POLL_US for rows rather than wake up for each (that would cost more than a
 * short variant), but no longer once a worker ended: its pipe hangs up, which poll()
 * reports even with no event asked for. */
static void nap(const struct sweep_run *r)
{
	struct pollfd *p = g_newa(struct pollfd, r->n_workers);

	for (int i = 0; i < r->n_workers; i++)
		p[i] = (struct pollfd){ .fd = r->workers[i].eof ? -1 : r->workers[i].fd };
	poll(p, (nfds_t)r->n_workers, POLL_US / 1000);
}

/* Gather the workers' rows until all are in or a signal came; let the workers run at
 * most a ring's worth past the last chunk. */
static bool pump(struct sweep_run *r, GError **err)
{
	while (r->pr.done < r->out->variants) {
		nap(r);
		if (!collect(r, err))
			return false;
		if (sweep_signal)
			return true;
		if (!flush_due(r, err))
			return false;
		atomic_store(&r->pool->limit, r->flushed + r->n_rows);
		r->o->progress(r->o->data, &r->pr);
	}
	return true;
}

static bool all_eof(const struct sweep_run *r)
{
	for (int i = 0; i < r->n_workers; i++)
		if (!r->workers[i].eof)
			return false;
	return true;
}

/* The workers take no other variant; wait until the running ones finished and every
 * worker ended. */
static void finish_workers(struct sweep_run *r)
{
	atomic_store(&r->pool->stop, 1);
	for (collect(r, NULL); !all_eof(r); collect(r, NULL))
		nap(r);
}

/* The workers still there are those of a sweep that failed: they go. */
static void sweep_run_clear(struct sweep_run *r)
{
	for (struct worker *k = r->workers; k < r->workers + r->n_workers; k++) {
		if (k->pid > 0) {
			kill(k->pid, SIGKILL);
			waitpid(k->pid, NULL, 0);
		}
		if (k->fd >= 0)
			close(k->fd);
		g_byte_array_unref(k->in);
	}
	g_free(r->workers);
	if (r->pool)
		munmap(r->pool, r->pool_size);
	for (guint64 i = 0; i < r->n_rows; i++)
		g_free(r->rows[i]);
	g_free(r->rows);
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
	if (!open_dir(&r, err) || out->was_complete) {
		ok = out->was_complete;   /* nothing to run */
		goto out;
	}
	r.pr = (struct sweep_progress){ out->variants, out->resumed, out->resumed };
	o->started(o->data, &r.pr);
	sweep_signal = 0;
	if (o->catch_signals) {
		/* a second Ctrl-C ends the process at once */
		struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &r.old_int);
		sigaction(SIGTERM, &sa, &r.old_term);
		r.signals = true;
	}
	if (!start_pool(&r, err) || !pump(&r, err))
		goto out;
	if (sweep_signal) {
		/* keep what is in order */
		out->signal = sweep_signal;
		finish_workers(&r);
		if (r.ready > r.flushed)
			write_chunk(&r, &out->save_error);
		out->saved = r.flushed;
		ok = true;
		goto out;
	}
	finish_workers(&r);
	ok = assemble(sw, &o->shard, o->dir, r.n_chunks, out, err);
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
