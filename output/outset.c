// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output/outset.c - output directories: a lock, a staging directory, a commit of the
 * whole set, and the cleaning of what killed runs left (see outset.h).
 *
 * Everything below works relative to the output directory's file descriptor (openat,
 * renameat, unlinkat), so a directory renamed or a path with odd characters changes
 * nothing once it is open, and symbolic links inside it are never followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "output/outfile.h"
#include "output/outset.h"

/* The marker in a staging directory that says its set is written and may be put in
 * place (by its own run, or by the next one after a crash). */
#define MARKER ".commit"
/* The marker is written in place, so it counts only once its last line, MARKER_END,
 * is there: a run killed while writing it leaves a marker that reads as absent. */
#define MARKER_HEAD "# chargesim output set 2: \"own\" patterns of the set, \"new\" entries to move in, then \"end\"\n"
#define MARKER_END "end"
/* Markers of chargesim 0.1.0 before this format: renamed into place whole, no end. */
#define MARKER_HEAD_V1 "# chargesim output set: \"own\" patterns of the set, \"new\" entries to move in"
/* mkstemp()'s and mkdtemp()'s random part */
#define RANDOM_LEN 6

struct cs_outlock {
	int fd;          /* the directory, flock()ed where the file system can */
	bool was_empty;  /* nothing in it when it was locked (a new directory, mostly) */
	char *dir;
	dev_t dev;       /* the directory's identity, in held_dirs while locked */
	ino_t ino;
	GArray *up;      /* descriptors of its ancestors, each flock()ed shared */
};

struct cs_outset {
	struct cs_outlock *lock;
	char *stage;     /* DIR/.chargesim-set.tmp-XXXXXX (registered for the signal cleanup) */
	char *name;      /* its last component */
	char **own;
};

static bool exists_at(int fd, const char *name)
{
	struct stat st;

	return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* ---- what killed runs leave ---- */

static bool all_alnum(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!g_ascii_isalnum(s[i]))
			return false;
	return s[n] == '\0';
}

/* A temporary file of outfile.c (.NAME.tmp-XXXXXX) or of a gnuplot image
 * (.NAME.tmp-PID.png|svg). */
static bool is_temp(const char *name)
{
	const char *t;
	size_t digits;

	if (name[0] != '.' || !(t = g_strrstr(name, ".tmp-")) || t == name)
		return false;
	t += strlen(".tmp-");
	digits = strspn(t, "0123456789");
	return all_alnum(t, RANDOM_LEN) || (digits > 0 && (strcmp(t + digits, ".png") == 0 ||
							    strcmp(t + digits, ".svg") == 0));
}

/* The marker's "own" and "new" lines; false when it cannot be read or is not whole. */
static bool read_marker(int sfd, GPtrArray *own, GPtrArray *fresh)
{
	int fd = openat(sfd, MARKER, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	g_autoptr(GString) text = g_string_new(NULL);
	char buf[4096];
	ssize_t n;
	g_auto(GStrv) lines = NULL;
	bool whole;

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		g_string_append_len(text, buf, n);
	close(fd);
	lines = g_strsplit(text->str, "\n", -1);
	/* an empty marker (killed before its first write) splits into no lines */
	whole = lines[0] && strcmp(lines[0], MARKER_HEAD_V1) == 0;
	for (int i = 0; lines[i]; i++) {
		if (g_str_has_prefix(lines[i], "own "))
			g_ptr_array_add(own, g_strdup(lines[i] + 4));
		else if (g_str_has_prefix(lines[i], "new ") && lines[i][4] != '.' &&
			 !strchr(lines[i] + 4, '/'))
			g_ptr_array_add(fresh, g_strdup(lines[i] + 4));
		else if (strcmp(lines[i], MARKER_END) == 0)
			whole = true;
	}
	g_ptr_array_add(own, NULL);
	return n == 0 && whole;
}

static bool matches(const char *name, char *const *patterns)
{
	for (int i = 0; patterns && patterns[i]; i++)
		if (g_pattern_match_simple(patterns[i], name))
			return true;
	return false;
}

/*
 * Steps 2 to 4 of the commit (outset.h), for a staging directory whose marker is
 * written: first every old entry goes, then every new one comes, so that a reader
 * never sees the two sets mixed. Repeatable after a crash at any point: an entry
 * already moved in is no longer in the staging directory and is kept.
 */
static bool move_in(int dfd, const char *dir, int sfd, const char *stage_name,
		    char *const *own, const GPtrArray *fresh, bool dir_was_empty, GError **err)
{
	/* a directory empty when locked holds no old set: nothing to list and remove */
	g_autoptr(GPtrArray) have = dir_was_empty ? g_ptr_array_new() : cs_dir_list(dfd);

	if (!have)
		return cs_io_error(err, "cannot read the staged outputs", dir, errno);
	for (guint i = 0; i < have->len; i++) {
		const char *e = have->pdata[i];

		if (e[0] == '.')
			continue;   /* never part of a set */
		if (g_ptr_array_find_with_equal_func((GPtrArray *)fresh, e, g_str_equal, NULL) ?
		    exists_at(sfd, e) : matches(e, own))
			cs_rm_tree(dfd, e, 0);
	}
	for (guint i = 0; i < fresh->len; i++) {
		const char *e = fresh->pdata[i];

		/* gone from the staging directory: moved in already, by a commit that was
		 * interrupted; ENOENT with the entry still there means DIR itself is gone */
		if (renameat(sfd, e, dfd, e) != 0 && (errno != ENOENT || exists_at(sfd, e))) {
			g_autofree char *path = g_build_filename(dir, e, NULL);

			return cs_io_error(err, "cannot put the output in place", path, errno);
		}
	}
	unlinkat(sfd, MARKER, 0);
	/* empty now, unless a failed writer left a temporary file in it */
	if (unlinkat(dfd, stage_name, AT_REMOVEDIR) != 0)
		cs_rm_tree(dfd, stage_name, 0);
	return true;
}

/* A staging directory left by a killed run: committed when its marker says it was
 * written, else removed. */
static void recover_stage(int dfd, const char *dir, const char *name)
{
	int sfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	g_autoptr(GPtrArray) own = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) fresh = g_ptr_array_new_with_free_func(g_free);
	bool marked = sfd >= 0 && read_marker(sfd, own, fresh);

	if (!marked || !move_in(dfd, dir, sfd, name, (char *const *)own->pdata, fresh, false, NULL))
		cs_rm_tree(dfd, name, 0);
	if (sfd >= 0)
		close(sfd);
}

static void clean_leftovers(int dfd, const char *dir, const GPtrArray *names)
{
	struct stat st;

	for (guint i = 0; names && i < names->len; i++) {
		const char *n = names->pdata[i];

		/* a staging directory (.chargesim-set.tmp-XXXXXX) */
		if (g_str_has_prefix(n, CS_OUTSET_STAGE_PREFIX)) {
			if (all_alnum(n + strlen(CS_OUTSET_STAGE_PREFIX), RANDOM_LEN))
				recover_stage(dfd, dir, n);
		} else if (is_temp(n) && fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			   S_ISREG(st.st_mode)) {
			unlinkat(dfd, n, 0);
		}
	}
}

/* ---- the lock ---- */

/*
 * Nested output directories: a writer of DIR holds DIR exclusively and each of its
 * ancestors shared, so a writer of DIR/sub (which holds DIR shared) and one of DIR
 * (which wants it exclusively) refuse each other, whichever came first, while writers
 * of sibling directories share their parent. The directories this process holds
 * exclusively (inherited by the sweep's forked workers) are remembered, and an
 * ancestor walk stops at one of them: the process's own nested sets (compare's
 * policies, a sweep's variants) are covered by the lock it already holds.
 */
struct held_dir {
	dev_t dev;
	ino_t ino;
};
static GMutex held_lock;
static GArray *held_dirs;

static bool held(dev_t dev, ino_t ino)
{
	bool found = false;

	g_mutex_lock(&held_lock);
	for (guint i = 0; held_dirs && i < held_dirs->len && !found; i++) {
		struct held_dir *h = &g_array_index(held_dirs, struct held_dir, i);

		found = h->dev == dev && h->ino == ino;
	}
	g_mutex_unlock(&held_lock);
	return found;
}

static void hold(struct cs_outlock *l, bool on)
{
	g_mutex_lock(&held_lock);
	if (!held_dirs)
		held_dirs = g_array_new(FALSE, FALSE, sizeof(struct held_dir));
	for (guint i = 0; !on && i < held_dirs->len; i++) {
		struct held_dir *h = &g_array_index(held_dirs, struct held_dir, i);

		if (h->dev == l->dev && h->ino == l->ino) {
			g_array_remove_index_fast(held_dirs, i);
			break;
		}
	}
	if (on)
		g_array_append_val(held_dirs, ((struct held_dir){ l->dev, l->ino }));
	g_mutex_unlock(&held_lock);
}

/* Take each ancestor of the locked directory shared, up to / or one this process
 * holds; false (err: busy, naming it) when another chargesim writes into one. An
 * ancestor that cannot be opened or locked (permissions, NFS) is passed over. */
static bool lock_ancestors(struct cs_outlock *l, GError **err)
{
	g_autofree char *real = realpath(l->dir, NULL);
	char *path = real ? g_strdup(real) : NULL;

	l->up = g_array_new(FALSE, FALSE, sizeof(int));
	while (path && strcmp(path, "/") != 0) {
		char *parent = g_path_get_dirname(path);
		struct stat st;
		int fd;

		g_free(path);
		path = parent;
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && held(st.st_dev, st.st_ino)) {
			close(fd);
			break;
		}
		if (flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
			g_set_error(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_BUSY,
				    "%s: another chargesim is writing into %s, which holds this directory; wait for it to finish, or choose another output directory",
				    l->dir, path);
			close(fd);
			g_free(path);
			return false;
		}
		g_array_append_val(l->up, fd);
	}
	g_free(path);
	return true;
}

struct cs_outlock *cs_outdir_lock(const char *dir, GError **err)
{
	struct cs_outlock *l;
	int fd;

	if (!cs_mkdir_p(dir, err))
		return NULL;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		cs_io_error(err, "cannot open the output directory", dir, errno);
		return NULL;
	}
	l = g_new(struct cs_outlock, 1);
	*l = (struct cs_outlock){ .fd = fd, .dir = g_strdup(dir) };
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		g_autoptr(GPtrArray) names = NULL;
		struct stat st;

		if (!lock_ancestors(l, err)) {
			cs_outdir_unlock(l);
			return NULL;
		}
		if (fstat(fd, &st) == 0) {
			l->dev = st.st_dev;
			l->ino = st.st_ino;
			hold(l, true);
		}
		names = cs_dir_list(fd);

		l->was_empty = names && names->len == 0;
		clean_leftovers(fd, dir, names);
	} else if (errno == EWOULDBLOCK) {
		g_set_error(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_BUSY,
			    "%s: another chargesim is writing into this directory (or one inside it); wait for it to finish, or choose another output directory",
			    dir);
		cs_outdir_unlock(l);
		return NULL;
	}
	/* else: no flock here (NFS); nobody can be told apart, so nothing is cleaned */
	return l;
}

void cs_outdir_unlock(struct cs_outlock *l)
{
	if (!l)
		return;
	if (l->dev || l->ino)
		hold(l, false);
	for (guint i = 0; l->up && i < l->up->len; i++)
		close(g_array_index(l->up, int, i));
	if (l->up)
		g_array_free(l->up, TRUE);
	close(l->fd);   /* releases the flock */
	g_free(l->dir);
	g_free(l);
}

/* ---- the set ---- */

struct cs_outset *cs_outset_begin(const char *dir, const char *const *own, GError **err)
{
	struct cs_outlock *l = cs_outdir_lock(dir, err);
	struct cs_outset *set;
	char *stage;

	if (!l)
		return NULL;
	stage = g_build_filename(dir, CS_OUTSET_STAGE_PREFIX "XXXXXX", NULL);
	if (!cs_outfile_mkdtemp(stage)) {
		cs_io_error(err, "cannot create a staging directory for the outputs", dir, errno);
		g_free(stage);
		cs_outdir_unlock(l);
		return NULL;
	}
	set = g_new(struct cs_outset, 1);
	*set = (struct cs_outset){ l, stage, g_path_get_basename(stage), g_strdupv((char **)own) };
	return set;
}

const char *cs_outset_path(const struct cs_outset *set)
{
	return set->stage;
}

static void outset_free(struct cs_outset *set)
{
	if (set->stage)
		cs_outfile_unregister_tree(set->stage);
	cs_outdir_unlock(set->lock);
	g_free(set->stage);
	g_free(set->name);
	g_strfreev(set->own);
	g_free(set);
}

void cs_outset_abort(struct cs_outset *set)
{
	if (!set)
		return;
	if (set->stage)
		cs_rm_tree(set->lock->fd, set->name, 0);
	outset_free(set);
}

/* Write all of text into a new file name under dirfd; errno set on failure. */
static bool write_new_at(int dirfd, const char *name, const GString *text)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t done = 0;
	int e;

	if (fd < 0)
		return false;
	while (done < text->len) {
		ssize_t n = write(fd, text->str + done, text->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	e = done < text->len ? (errno ? errno : EIO) : 0;
	if (close(fd) != 0 && !e)
		e = errno;
	if (e) {
		unlinkat(dirfd, name, 0);
		errno = e;
	}
	return !e;
}

/* Step 1: the marker, listing the staging directory's entries (open as sfd). */
static bool write_marker(struct cs_outset *set, int sfd, GPtrArray *fresh, GError **err)
{
	g_autoptr(GPtrArray) names = sfd >= 0 ? cs_dir_list(sfd) : NULL;
	g_autoptr(GString) text = g_string_new(MARKER_HEAD);
	g_autofree char *marker = NULL;

	if (!names)
		return cs_io_error(err, "cannot read the staged outputs", set->lock->dir, errno);
	g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	for (int i = 0; set->own && set->own[i]; i++) {
		g_string_append(text, "own ");
		g_string_append(text, set->own[i]);
		g_string_append_c(text, '\n');
	}
	for (guint i = 0; i < names->len; i++) {
		const char *n = names->pdata[i];

		if (n[0] == '.')
			continue;   /* temporary files of writers that failed */
		g_string_append(text, "new ");
		g_string_append(text, n);
		g_string_append_c(text, '\n');
		g_ptr_array_add(fresh, g_strdup(n));
	}
	g_string_append(text, MARKER_END "\n");
	if (write_new_at(sfd, MARKER, text))
		return true;
	marker = g_build_filename(set->stage, MARKER, NULL);
	return cs_io_error(err, "cannot write output file", marker, errno);
}

bool cs_outset_commit(struct cs_outset *set, GError **err)
{
	g_autoptr(GPtrArray) fresh = g_ptr_array_new_with_free_func(g_free);
	int sfd;
	bool ok;

	/* From here on the signal handler leaves the staging directory alone: a run
	 * stopped now either has no marker yet (the next run removes the directory) or
	 * has one (the next run finishes the commit). */
	if (!cs_outfile_unregister_tree(set->stage)) {
		g_set_error(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_IO, "%s: interrupted", set->lock->dir);
		cs_outset_abort(set);
		return false;
	}
	sfd = openat(set->lock->fd, set->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (!write_marker(set, sfd, fresh, err)) {
		if (sfd >= 0)
			close(sfd);
		cs_outset_unstage(set, err ? *err : NULL);
		cs_outset_abort(set);
		return false;
	}
	ok = move_in(set->lock->fd, set->lock->dir, sfd, set->name, set->own, fresh,
		     set->lock->was_empty, err);
	close(sfd);
	/* a move that failed half-way keeps the staging directory and its marker: the
	 * next run into the directory finishes it */
	cs_outset_unstage(set, err && !ok ? *err : NULL);
	g_clear_pointer(&set->stage, g_free);
	outset_free(set);
	return ok;
}

void cs_path_unstage(GError *err, const char *stage, const char *dir)
{
	g_autofree char *d = g_strdup(dir);
	size_t n = strlen(d);
	GString *m;

	if (!err || !stage || !strstr(err->message, stage))
		return;
	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	m = g_string_new(err->message);
	g_string_replace(m, stage, d, 0);
	g_free(err->message);
	err->message = g_string_free(m, FALSE);
}

void cs_outset_unstage(const struct cs_outset *set, GError *err)
{
	cs_path_unstage(err, set->stage, set->lock->dir);
}
