/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output/outset.h - output directories: one complete set of outputs or none, one writer.
 *
 * A run's outputs (trace.csv, events.jsonl, metrics.json, the plots, ...) belong
 * together: a trace beside the metrics of another run is worse than no output. So
 * every file of a set is written into a private staging directory inside the output
 * directory, DIR/.chargesim-set.tmp-XXXXXX/, and cs_outset_commit() puts the whole set
 * in place at the end:
 *   1. it writes the staging directory's list of entries into a marker,
 *      .chargesim-set.tmp-XXXXXX/.commit, written in place and ending with a line
 *      "end" (from then on the set counts as written; a marker cut short does not);
 *   2. it removes the previous set: every entry of DIR matching one of the set's
 *      patterns (`own`, e.g. "trace.csv", "sysfs-*"), and any entry the new set
 *      replaces;
 *   3. it renames the new entries into DIR (fresh names: no rename over an existing
 *      file, which would make ext4 flush it);
 *   4. it removes the marker and the staging directory.
 * A failed or interrupted run never gets to 1: DIR keeps its previous set, untouched.
 * Readers see, at any moment, part of the old set or part of the new one, never a
 * mixture, and once no chargesim holds DIR, exactly one complete set or none.
 *
 * One writer: the directory is locked (flock on the directory itself, so nothing is
 * left behind) from cs_outset_begin() to the commit or abort; a second chargesim
 * writing into the same directory is refused at once with CS_OUTPUT_ERROR_BUSY. On
 * file systems without flock on directories (NFS) the lock is skipped. The lock
 * covers nested directories: the holder of DIR also holds each directory above it
 * shared, so writers of DIR and of DIR/sub refuse each other whichever came first
 * (siblings share their parent); a process's own nested sets are covered by its lock.
 *
 * Leftovers: whoever takes the lock finds what a killed run left in DIR and cleans it
 * first. A staging directory with its marker (killed during the commit) is committed
 * now, one without is removed, and stale temporary files of output/outfile.h
 * (.NAME.tmp-XXXXXX) and of gnuplot's images (.NAME.tmp-PID.png|svg) are deleted. A
 * staging directory is also removed by the SIGINT/SIGTERM handler
 * (cs_outfile_cleanup_all), and by cs_outset_abort().
 *
 * Directories that are not one set (a sweep's, resumed chunk by chunk) take only the
 * lock and the cleaning: cs_outdir_lock().
 */
#ifndef CS_OUTPUT_OUTSET_H
#define CS_OUTPUT_OUTSET_H

#include <stdbool.h>
#include <glib.h>

/* The staging directory's prefix: it also matches ".*.tmp-*", which the tests look
 * for as a leftover. */
#define CS_OUTSET_STAGE_PREFIX ".chargesim-set.tmp-"

struct cs_outset;
struct cs_outlock;

/* Make dir (and its parents), lock it, clean what killed runs left and open a staging
 * directory for a set whose entries match the glob patterns own (NULL-terminated; the
 * entries of the previous set to remove). NULL with err on failure (busy:
 * CS_OUTPUT_ERROR_BUSY). */
struct cs_outset *cs_outset_begin(const char *dir, const char *const *own, GError **err);
/* The staging directory: write the set here, under the names it gets in dir. */
const char *cs_outset_path(const struct cs_outset *set);
/* Put the staged set in place (see above) and unlock; frees set whatever happens. */
bool cs_outset_commit(struct cs_outset *set, GError **err);
/* Remove the staging directory and unlock; frees set. NULL is fine. */
void cs_outset_abort(struct cs_outset *set);
/* Messages name the files by their final paths: rewrite the staging directory's path
 * in err's message (NULL is fine) as the output directory's. */
void cs_outset_unstage(const struct cs_outset *set, GError *err);
/* The same given the two paths (stage: a staging directory, dir: its output
 * directory), for code handed only the staging directory. */
void cs_path_unstage(GError *err, const char *stage, const char *dir);

/* Make dir (and its parents), lock it and clean what killed runs left (as above).
 * NULL with err on failure (busy: CS_OUTPUT_ERROR_BUSY). */
struct cs_outlock *cs_outdir_lock(const char *dir, GError **err);
/* Unlock; NULL is fine. */
void cs_outdir_unlock(struct cs_outlock *lock);

#endif
