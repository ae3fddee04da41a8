/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output/outfile.h - output files written atomically.
 *
 * A file is written under a temporary name in its final directory
 * (".NAME.tmp-XXXXXX") and renamed over NAME only by cs_outfile_commit(), after every
 * write, the flush and the close succeeded. Any failure, or cs_outfile_abort(),
 * removes the temporary file: an interrupted or failed run never leaves a half-written
 * file under a final name. Durable mode adds fsync of the file and of its directory
 * (used where results must survive a machine being lost, e.g. sweep chunks).
 *
 * A file directly inside the staging directory of an output set (output/outset.h) is the
 * exception: that directory is private to its run and put in place only whole, so the
 * file is created under its own name (and removed on failure) without a temporary
 * name and a rename of its own.
 */
#ifndef CS_OUTPUT_OUTFILE_H
#define CS_OUTPUT_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <glib.h>

#define CS_OUTPUT_ERROR (cs_output_error_quark())
GQuark cs_output_error_quark(void);
enum {
	CS_OUTPUT_ERROR_IO,
	CS_OUTPUT_ERROR_BUSY,   /* the output directory is in use by another run (output/outset.h) */
};

/* Set err (CS_OUTPUT_ERROR_IO) to "PATH: WHAT: strerror(e)"; false. */
bool cs_io_error(GError **err, const char *what, const char *path, int e);

struct cs_outfile {
	char *final_path;
	char *tmp_path;      /* NULL: written in place (in a staging directory) */
	FILE *fp;
	bool durable;
};

/* Open a temporary file beside `path`. NULL and err set on failure. */
struct cs_outfile *cs_outfile_open(const char *path, bool durable, GError **err);
/* Flush, (fsync), close and rename into place; frees `f` whatever happens. */
bool cs_outfile_commit(struct cs_outfile *f, GError **err);
/* Close and delete the temporary file; frees `f`. NULL is fine. */
void cs_outfile_abort(struct cs_outfile *f);
/* Convenience: write a whole buffer atomically. */
bool cs_outfile_write_all(const char *path, const char *data, size_t len, GError **err);

/* The longest name cs_name_check() accepts, in bytes: well under NAME_MAX (255) so
 * that ".NAME.tmp-XXXXXX" and "NAME-compare" still fit. */
#define CS_NAME_MAX 200
/* The rule for every name that becomes a file or directory name under an output
 * directory (a scenario's "name" or file name, a policy compared): non-empty UTF-8 of
 * at most CS_NAME_MAX bytes, no control character (C0, DEL or C1), no slash or
 * backslash, not starting with a dot (so never "." or ".."). True when it holds;
 * else false with *why (when not NULL) saying what is wrong, e.g. "starts with a dot". */
bool cs_name_check(const char *name, const char **why);
#define CS_NAME_RULE "UTF-8 text up to 200 bytes, no slashes or control characters, not starting with a dot"

/*
 * A path that a file names (a scenario's golden trace), confined to that file's
 * directory tree: rel joined to dir when it is relative, has no ".." component and,
 * after every symbolic link of its existing part is followed, stays inside dir's real
 * path (compared component by component, so "/a/bc" is not inside "/a/b"). The part
 * that does not exist yet (a golden file `check --accept` creates) may hold no link.
 * Else NULL with *why saying what is wrong, e.g. "is an absolute path" (allocated).
 * A file's content may name anything: what it names is read or written only through
 * here, so that a hostile file cannot reach /etc or ../secret.
 */
char *cs_path_confined(const char *dir, const char *rel, char **why);

/* Whether path is inside one of the directory trees roots (n of them, NULL entries
 * skipped) once every symbolic link of its existing part is followed (a missing file
 * is judged by the deepest directory above it that exists). For a path a file names
 * where ".." and absolute paths may be fine as long as they land in a tree the user
 * chose (a sweep's base). *real (allocated) is where it leads, for a message. */
bool cs_path_inside_any(const char *path, const char *const *roots, int n, char **real);

/* Make a directory and its parents (0755). */
bool cs_mkdir_p(const char *dir, GError **err);

/* Delete every temporary file still open and every staging directory of an output
 * set not being committed (output/outset.h); called from a SIGINT/SIGTERM handler before
 * exiting, so that an interrupted run leaves nothing behind. Async-signal-safe: it
 * reads registered paths and calls unlink(), openat(), getdents64() and unlinkat(). */
void cs_outfile_cleanup_all(void);

/* The names in the directory open as dirfd, from its start ("." and ".." left out),
 * or NULL with errno set. Moves dirfd's offset. */
GPtrArray *cs_dir_list(int dirfd);

/* For output/outset.c: make the directory tmpl (mkdtemp) as a tree the cleanup above
 * removes; false with errno set on failure. */
bool cs_outfile_mkdtemp(char *tmpl);
/* Take it off the cleanup's list; false when the cleanup has begun: the process is
 * ending, go no further. */
bool cs_outfile_unregister_tree(char *path);
/* Remove name under dirfd (AT_FDCWD: a path), a file or a directory tree, without
 * following symbolic links; depth 0 at the top. Async-signal-safe. */
void cs_rm_tree(int dirfd, const char *name, int depth);

#endif
