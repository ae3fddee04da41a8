/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output/evfile.h - events.jsonl: the event log's records as a file.
 *
 * One JSON object per line (cJSON_PrintUnformatted's form), in the order the events
 * happened. The writer is a listener of the event log's text (struct evlog_text in
 * sim/evlog.h: the line the log printed once for it and the fingerprints) for every kind;
 * the file is streamed and is an atomic output (output/outfile.h): it appears under its
 * final name only when evfile_commit() succeeds.
 */
#ifndef CS_OUTPUT_EVFILE_H
#define CS_OUTPUT_EVFILE_H

#include <stdbool.h>
#include <glib.h>
#include "sim/evlog.h"

struct evfile;

/* Open path and write every record log hands its listeners from now on. NULL and err
 * set on failure. The evfile must outlive the log's last record (evfile_free after
 * evlog_free). */
struct evfile *evfile_open(struct evlog *log, const char *path, GError **err);
/* True, with err set ("PATH: cannot write output file: REASON"), once a write has
 * failed (a full disk): nothing more is written, and evfile_commit() fails the same way. */
bool evfile_write_failed(const struct evfile *f, GError **err);
/* Commit the file (atomic rename); records after it are not written. */
bool evfile_commit(struct evfile *f, GError **err);
/* Remove the file if it was not committed, and free. NULL is fine. */
void evfile_free(struct evfile *f);

#endif
