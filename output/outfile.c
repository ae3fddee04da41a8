// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output/outfile.c - atomic output files (see outfile.h).
 *
 * Open temporary files are also kept in a small fixed registry so that a signal
 * handler can unlink them; entries are added at open and removed at commit/abort.
 * The registry is protected by a mutex for sweeps that write from several threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <glib/gstdio.h>
#include "output/outfile.h"

G_DEFINE_QUARK(cs-output-error-quark, cs_output_error)

/* Temporary files open at once that a signal handler can remove: a sweep or a check
 * with -j 256 has up to three per thread. */
#define OUTFILE_REGISTRY_MAX 1024
/* Staging directories of output sets (output/outset.h) open at once, one per run. */
#define TREE_REGISTRY_MAX 512
/* Symbolic links followed to the file a write replaces (as the kernel's MAXSYMLINKS). */
#define OUTFILE_MAX_LINKS 40
/* stdio buffer of an output file: most of them (events, metrics) are written whole in
 * one or two writes */
#define OUTFILE_BUFFER (1 << 16)
/* Directory levels cs_rm_tree() descends (a staging directory holds sysfs-LABEL/
 * power_supply/NAME/... at most four deep). */
#define RM_TREE_DEPTH 16

/* What the signal handler removes. Slots are written under the mutex and read by the
 * handler without it, so every access is atomic; `dying` is set by the handler
 * before it reads them (see cs_outfile_unregister_tree). */
static char *outfile_registry[OUTFILE_REGISTRY_MAX];
static char *tree_registry[TREE_REGISTRY_MAX];
static GMutex outfile_registry_lock;
static int dying;

static void registry_set(char **slots, int n, char *path, bool add)
{
	g_mutex_lock(&outfile_registry_lock);
	for (int i = 0; i < n; i++) {
		char *cur = __atomic_load_n(&slots[i], __ATOMIC_SEQ_CST);

		if (add ? !cur : cur == path) {
			__atomic_store_n(&slots[i], add ? path : NULL, __ATOMIC_SEQ_CST);
			break;
		}
	}
	g_mutex_unlock(&outfile_registry_lock);
}

/*
 * Make the file (fd returned) or the directory (0 returned) named by the template
 * tmpl and register it for the signal cleanup, with SIGINT and SIGTERM blocked in
 * between: a signal there would leave it behind. -1 with errno set on failure.
 */
static int make_registered(char *tmpl, bool dir)
{
	sigset_t block, old;
	int fd, e;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (dir)
		fd = g_mkdtemp_full(tmpl, 0700) ? 0 : -1;
	else
		fd = g_mkstemp_full(tmpl, O_WRONLY | O_CLOEXEC, 0644);
	e = errno;
	if (fd >= 0)
		registry_set(dir ? tree_registry : outfile_registry,
			     dir ? TREE_REGISTRY_MAX : OUTFILE_REGISTRY_MAX, tmpl, true);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

bool cs_outfile_mkdtemp(char *tmpl)
{
	return make_registered(tmpl, true) == 0;
}

bool cs_outfile_unregister_tree(char *path)
{
	registry_set(tree_registry, TREE_REGISTRY_MAX, path, false);
	/* If the handler has not started, it will not see the path; if it has, the caller
	 * must stop (the process is about to end). */
	return !__atomic_load_n(&dying, __ATOMIC_SEQ_CST);
}

bool cs_io_error(GError **err, const char *what, const char *path, int e)
{
	g_set_error(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_IO, "%s: %s: %s", path, what,
		    g_strerror(e));
	return false;
}

struct dirent64_raw {
	guint64 ino;
	gint64 off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

typedef void (*entry_fn)(int fd, const char *name, unsigned char type, void *ctx);

/* fn for every entry of directory fd but "." and "..", from its current offset, with
 * getdents64 directly: no allocation, so async-signal-safe when fn is. False on a read
 * error (errno set). */
static bool each_entry(int fd, entry_fn fn, void *ctx)
{
	char buf[2048] __attribute__((aligned(8)));
	long n;

	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long at = 0; at < n;) {
			struct dirent64_raw *d = (struct dirent64_raw *)(buf + at);

			at += d->reclen;
			if (strcmp(d->name, ".") && strcmp(d->name, ".."))
				fn(fd, d->name, d->type, ctx);
		}
	return n == 0;
}

static void rm_entry(int fd, const char *name, unsigned char type, void *ctx)
{
	int depth = *(int *)ctx;

	if (type != DT_DIR && type != DT_UNKNOWN)
		unlinkat(fd, name, 0);
	else if (depth < RM_TREE_DEPTH)
		cs_rm_tree(fd, name, depth + 1);
}

void cs_rm_tree(int dirfd, const char *name, int depth)
{
	int fd;

	if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
		return;
	/* an empty directory (a committed staging directory) goes at once */
	if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	each_entry(fd, rm_entry, &depth);
	close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void add_name(int fd, const char *name, unsigned char type, void *ctx)
{
	(void)fd;
	(void)type;
	g_ptr_array_add(ctx, g_strdup(name));
}

GPtrArray *cs_dir_list(int dirfd)
{
	GPtrArray *names;

	if (lseek(dirfd, 0, SEEK_SET) != 0)
		return NULL;
	names = g_ptr_array_new_with_free_func(g_free);
	if (!each_entry(dirfd, add_name, names)) {
		int e = errno;

		g_ptr_array_unref(names);
		errno = e;
		return NULL;
	}
	return names;
}

void cs_outfile_cleanup_all(void)
{
	__atomic_store_n(&dying, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < OUTFILE_REGISTRY_MAX; i++) {
		char *p = __atomic_load_n(&outfile_registry[i], __ATOMIC_SEQ_CST);

		if (p)
			unlink(p);
	}
	for (int i = 0; i < TREE_REGISTRY_MAX; i++) {
		char *p = __atomic_load_n(&tree_registry[i], __ATOMIC_SEQ_CST);

		if (p)
			cs_rm_tree(AT_FDCWD, p, 0);
	}
}

static void outfile_free(struct cs_outfile *f)
{
	if (f->tmp_path)
		registry_set(outfile_registry, OUTFILE_REGISTRY_MAX, f->tmp_path, false);
	g_free(f->final_path);
	g_free(f->tmp_path);
	g_free(f);
}

/* The file a write to path lands in: path itself, or where its symbolic links lead
 * (a scenario or golden file kept elsewhere and linked in is rewritten where it
 * lives, not replaced by a copy). NULL with errno set after too many links. */
static char *follow_links(const char *path)
{
	char *p = g_strdup(path);

	for (int i = 0; i < OUTFILE_MAX_LINKS; i++) {
		g_autofree char *target = g_file_read_link(p, NULL);
		g_autofree char *dir = NULL;

		if (!target)
			return p;   /* not a link (or no file yet) */
		dir = g_path_get_dirname(p);
		g_free(p);
		p = g_path_is_absolute(target) ? g_steal_pointer(&target) :
			g_build_filename(dir, target, NULL);
	}
	g_free(p);
	errno = ELOOP;
	return NULL;
}

/*
 * True when path lies inside a registered staging directory of an output set
 * (output/outset.h) and no component below it starts with a dot. Such a directory is
 * private to its run, made empty, and put in place only whole, so a file in it needs
 * no temporary name of its own.
 */
static bool in_staging_dir(const char *path)
{
	size_t len = 0;

	g_mutex_lock(&outfile_registry_lock);
	for (int i = 0; i < TREE_REGISTRY_MAX && !len; i++) {
		const char *t = tree_registry[i];
		size_t n = t ? strlen(t) : 0;

		if (n && strncmp(path, t, n) == 0 && path[n] == '/')
			len = n;
	}
	g_mutex_unlock(&outfile_registry_lock);
	if (!len)
		return false;
	for (const char *c = path + len; *c; c++)
		if (c[0] == '/' && (c[1] == '.' || c[1] == '/' || c[1] == '\0'))
			return false;
	return true;
}

struct cs_outfile *cs_outfile_open(const char *path, bool durable, GError **err)
{
	g_autofree char *real = NULL;
	g_autofree char *tmp_path = NULL;
	struct cs_outfile *f;
	struct stat st;
	int fd = -1, e;
	bool staged = in_staging_dir(path);

	/* in a staging directory: under its own name; a second time in one set: as usual */
	if (staged)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0) {
		real = g_strdup(path);
	} else if ((!staged || errno == EEXIST) && (real = follow_links(path))) {
		g_autofree char *dir = g_path_get_dirname(real);
		g_autofree char *base = g_path_get_basename(real);

		tmp_path = g_strdup_printf("%s/.%s.tmp-XXXXXX", dir, base);
		fd = make_registered(tmp_path, false);
		/* a file rewritten keeps its permissions */
		if (fd >= 0 && stat(real, &st) == 0 && S_ISREG(st.st_mode))
			fchmod(fd, st.st_mode & 07777);
	}
	if (fd < 0) {
		cs_io_error(err, "cannot create output file", path, errno);
		return NULL;
	}
	f = g_new(struct cs_outfile, 1);
	*f = (struct cs_outfile){ g_steal_pointer(&real), g_steal_pointer(&tmp_path),
				  fdopen(fd, "w"), durable };
	if (!f->fp) {
		e = errno;
		close(fd);
		if (f->tmp_path)
			g_set_error(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_IO,
				    "%s: cannot open output stream", path);
		else
			cs_io_error(err, "cannot create output file", path, e);
		cs_outfile_abort(f);
		return NULL;
	}
	setvbuf(f->fp, NULL, _IOFBF, OUTFILE_BUFFER);
	return f;
}

static bool outfile_sync_dir(const char *path)
{
	g_autofree char *dir = g_path_get_dirname(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	bool ok;

	if (fd < 0)
		return false;
	ok = fsync(fd) == 0;
	close(fd);
	return ok;
}

bool cs_outfile_commit(struct cs_outfile *f, GError **err)
{
	int e = 0;

	if (fflush(f->fp) != 0 || ferror(f->fp))
		e = errno ? errno : EIO;
	if (!e && f->durable && fsync(fileno(f->fp)) != 0)
		e = errno;
	if (fclose(f->fp) != 0 && !e)
		e = errno ? errno : EIO;
	f->fp = NULL;
	if (!e && f->tmp_path && rename(f->tmp_path, f->final_path) != 0)
		e = errno;
	if (!e && f->durable && !outfile_sync_dir(f->final_path))
		e = errno ? errno : EIO;
	if (e) {
		unlink(f->tmp_path ? f->tmp_path : f->final_path);
		cs_io_error(err, "cannot write output file", f->final_path, e);
	}
	outfile_free(f);
	return e == 0;
}

void cs_outfile_abort(struct cs_outfile *f)
{
	if (!f)
		return;
	if (f->fp)
		fclose(f->fp);
	unlink(f->tmp_path ? f->tmp_path : f->final_path);
	outfile_free(f);
}

bool cs_outfile_write_all(const char *path, const char *data, size_t len, GError **err)
{
	struct cs_outfile *f = cs_outfile_open(path, false, err);

	if (!f)
		return false;
	if (len && fwrite(data, 1, len, f->fp) != len) {
		int e = errno;

		cs_outfile_abort(f);
		return cs_io_error(err, "cannot write output file", path, e);
	}
	return cs_outfile_commit(f, err);
}

bool cs_name_check(const char *name, const char **why)
{
	const char *w = NULL;

	if (!*name)
		w = "is empty";
	else if (strlen(name) > CS_NAME_MAX)
		w = "is longer than 200 bytes";
	else if (!g_utf8_validate(name, -1, NULL))
		w = "is not UTF-8";
	else if (name[0] == '.')
		w = "starts with a dot";
	else if (strpbrk(name, "/\\"))
		w = "holds a slash";
	for (const char *c = name; !w && *c; c = g_utf8_next_char(c)) {
		gunichar u = g_utf8_get_char(c);

		if (u < 0x20 || (u >= 0x7f && u < 0xa0))
			w = "holds a control character";
	}
	if (why)
		*why = w;
	return !w;
}

bool cs_mkdir_p(const char *dir, GError **err)
{
	if (g_mkdir_with_parents(dir, 0755) == 0)
		return true;
	return cs_io_error(err, "cannot create output directory", dir, errno);
}

/* Is real (a resolved path) root or below it, component by component? */
static bool path_under(const char *root, const char *real)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return real[0] == '/';
	return strncmp(real, root, n) == 0 && (real[n] == '\0' || real[n] == '/');
}

/* The real path of the deepest part of path that exists (stopping at stop): the rest
 * is created inside it and holds no link. *probe is that part. NULL when it cannot be
 * resolved (a dangling link, a permission). */
static char *deepest_real(const char *path, const char *stop, char **probe)
{
	struct stat st;

	*probe = g_strdup(path);
	while (lstat(*probe, &st) != 0 && errno == ENOENT && strcmp(*probe, stop) != 0) {
		char *up = g_path_get_dirname(*probe);
		bool top = strcmp(up, *probe) == 0;

		g_free(*probe);
		*probe = up;
		if (top)
			break;
	}
	return realpath(*probe, NULL);
}

char *cs_path_confined(const char *dir, const char *rel, char **why)
{
	g_auto(GStrv) parts = g_strsplit(rel, "/", -1);
	g_autofree char *root = NULL, *joined = NULL, *probe = NULL, *real = NULL;

	*why = NULL;
	if (!*rel)
		*why = g_strdup("is empty");
	else if (g_path_is_absolute(rel))
		*why = g_strdup("is an absolute path");
	for (int i = 0; !*why && parts[i]; i++)
		if (strcmp(parts[i], "..") == 0)
			*why = g_strdup("goes up with \"..\"");
	if (*why)
		return NULL;
	root = realpath(dir, NULL);
	if (!root) {
		*why = g_strdup_printf("cannot be checked: the directory %s: %s", dir,
				       g_strerror(errno));
		return NULL;
	}
	joined = g_build_filename(dir, rel, NULL);
	real = deepest_real(joined, dir, &probe);
	if (!real)
		*why = g_strdup_printf("cannot be followed (%s: %s)", probe, g_strerror(errno));
	else if (!path_under(root, real))
		*why = g_strdup_printf("leads to %s through a symbolic link", real);
	if (*why)
		return NULL;
	return g_steal_pointer(&joined);
}

bool cs_path_inside_any(const char *path, const char *const *roots, int n, char **real)
{
	g_autofree char *probe = NULL;

	*real = deepest_real(path, "/", &probe);
	for (int i = 0; *real && i < n; i++) {
		g_autofree char *root = roots[i] ? realpath(roots[i], NULL) : NULL;

		if (root && path_under(root, *real))
			return true;
	}
	if (!*real)
		*real = g_strdup(path);
	return false;
}
