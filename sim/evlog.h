/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/evlog.h - the discrete event log.
 *
 * A record is a JSON object, e.g.
 *   {"t": 12.3, "src": "phy", "ev": "detect", "type": "USB_DCP"}
 * "t" is exact seconds (from integer nanoseconds). A caller builds a record with
 * evlog_begin(), adds its payload fields to the returned cJSON object with
 * evlog_put_string() and the like, and hands it back with evlog_end(), which counts it
 * and lets the listeners see it, in the order they were added: the metrics, the
 * fingerprints, and the writer of events.jsonl (output/evfile.h), which the run
 * attaches. Nothing here touches a file.
 *
 * A record is built even when no listener hears its kind (a sweep's variant): not
 * building it saved a 1,000-variant sweep 5% of its instructions, too little for the
 * code it took.
 */
#ifndef CS_SIM_EVLOG_H
#define CS_SIM_EVLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <cJSON.h>
#include <glib.h>
#include "sim/time.h"

struct evlog;

/* A listener sees every record (read-only). */
typedef void (*evlog_listener_cb)(void *data, sim_time_t t, const char *src,
				  const char *ev, const cJSON *rec);

struct evlog *evlog_new(void);
void evlog_add_listener(struct evlog *log, evlog_listener_cb cb, void *data);
/* A listener for the records of one kind (ev) only. */
void evlog_add_listener_for(struct evlog *log, const char *ev, evlog_listener_cb cb,
			    void *data);
/* The record being built. */
cJSON *evlog_begin(struct evlog *log, sim_time_t t, const char *src, const char *ev);
/* Hand rec to the listeners, count it and free it. */
void evlog_end(struct evlog *log, cJSON *rec);

/* Payload fields of a record from evlog_begin(). */
static inline void evlog_put_string(cJSON *rec, const char *key, const char *value)
{
	cJSON_AddStringToObject(rec, key, value);
}

static inline void evlog_put_number(cJSON *rec, const char *key, double value)
{
	cJSON_AddNumberToObject(rec, key, value);
}

static inline void evlog_put_null(cJSON *rec, const char *key)
{
	cJSON_AddNullToObject(rec, key);
}

/* Shorthand for a record with one string payload field (key may be NULL). */
void evlog_emit(struct evlog *log, sim_time_t t, const char *src, const char *ev,
		const char *key, const char *value);
/* Records ended so far. */
uint64_t evlog_count(const struct evlog *log);
void evlog_free(struct evlog *log);

#endif
