/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/events.h - reading a run's events.jsonl back: one JSON object per line
 * ({"t": seconds, "src": ..., "ev": KIND, ...}), blank lines skipped. The records are
 * handed to the caller one at a time, so a long event log is never held whole.
 * Errors are CS_EVENTS_ERROR naming the file and, for a bad record, the line:
 *   events.jsonl:12: found "{\"t\":1,", expected one JSON object per line
 */
#ifndef CS_TRACES_EVENTS_H
#define CS_TRACES_EVENTS_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>

#define CS_EVENTS_ERROR (cs_events_error_quark())
GQuark cs_events_error_quark(void);
enum cs_events_error {
	CS_EVENTS_ERROR_IO,        /* cannot open or read the file */
	CS_EVENTS_ERROR_SYNTAX,    /* a line that is not one JSON object */
};

/* Called for each record with its 1-based line; return false (with err set) to stop. */
typedef bool (*cs_events_fn)(void *data, const cJSON *rec, long line, GError **err);

/* Read path, calling fn for every record in order. False with err when the file
 * cannot be read, a line is not a JSON object, or fn stopped. */
bool cs_events_read(const char *path, cs_events_fn fn, void *data, GError **err);

/* A record's time "t" in seconds (NAN when absent) and kind "ev" (NULL when absent). */
double cs_event_time(const cJSON *rec);
const char *cs_event_kind(const cJSON *rec);

#endif
