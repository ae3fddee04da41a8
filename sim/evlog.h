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
 * A record keeps pointers to its keys, src and ev instead of copies (cJSON's constant
 * keys and string references): a record lives from evlog_begin() to evlog_end() inside
 * one call, and its callers pass literals or strings of their own that outlive it.
 * That spares two allocations and two frees a field: 1.067x fewer instructions on a
 * check of the scenario library (1.435 G to 1.345 G), which writes every record. The
 * object itself, with its "t", "src" and "ev", is kept for the next record: only the
 * payload is made and freed per record.
 *
 * When a record goes nowhere (no listener for its kind, as in a sweep's variant),
 * evlog_begin() returns NULL: the evlog_put_* helpers then do nothing and evlog_end()
 * only counts it, so such a record costs no allocation.
 */
#ifndef CS_SIM_EVLOG_H
#define CS_SIM_EVLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <cJSON.h>
#include <glib.h>
#include "sim/time.h"

struct evlog;

/* A listener sees every record (read-only, and only during the call: the log reuses
 * the record's object). */
typedef void (*evlog_listener_cb)(void *data, sim_time_t t, const char *src,
				  const char *ev, const cJSON *rec);

/*
 * A record's text, for the listeners that write or hash it (evlog_add_text_listener):
 * the log prints each member's value once (cJSON_PrintPreallocated, unformatted; a
 * string with nothing to escape as its bytes in quotes) and assembles the record's
 * line from those pieces, byte for byte what
 * cJSON_PrintUnformatted() prints for the whole object. Printing a number is cJSON's
 * dearest step (sprintf, then sscanf to see whether 15 digits read back); with the
 * file and two fingerprints listening, each value was printed three times (printing
 * once: 1.036x fewer instructions on a check of the library, 1.611 G to 1.555 G). A
 * record no text listener hears is not printed at all. The text lives during the call
 * (the log prints the next record into the same buffer).
 */
struct evlog_member {
	const char *key;     /* the member's key (cJSON's own string, unescaped) */
	const char *value;   /* its value's text inside line (not NUL-terminated) */
	size_t len;
};

struct evlog_text {
	const char *line;    /* the whole record, NUL-terminated, without a newline */
	size_t len;
	/* every member in order: "t", "src" and "ev" first, then the payload */
	const struct evlog_member *members;
	int n_members;
};

typedef void (*evlog_text_cb)(void *data, const char *src, const char *ev,
			      const struct evlog_text *text);

struct evlog *evlog_new(void);
void evlog_add_listener(struct evlog *log, evlog_listener_cb cb, void *data);
/* A listener for the records of one kind (ev) only. */
void evlog_add_listener_for(struct evlog *log, const char *ev, evlog_listener_cb cb,
			    void *data);
/* A listener for every record that wants its text (see struct evlog_text). */
void evlog_add_text_listener(struct evlog *log, evlog_text_cb cb, void *data);
/* The record being built, or NULL when it goes nowhere (see the top). */
cJSON *evlog_begin(struct evlog *log, sim_time_t t, const char *src, const char *ev);
/* Hand rec to the listeners and free its payload; count it in any case (rec may be
 * NULL). */
void evlog_end(struct evlog *log, cJSON *rec);

/* Payload fields of a record from evlog_begin(); nothing when rec is NULL. */
static inline void evlog_put_string(cJSON *rec, const char *key, const char *value)
{
	if (rec)
		cJSON_AddItemToObjectCS(rec, key, cJSON_CreateString(value));
}

static inline void evlog_put_number(cJSON *rec, const char *key, double value)
{
	if (rec)
		cJSON_AddItemToObjectCS(rec, key, cJSON_CreateNumber(value));
}

static inline void evlog_put_null(cJSON *rec, const char *key)
{
	if (rec)
		cJSON_AddItemToObjectCS(rec, key, cJSON_CreateNull());
}

/* Shorthand for a record with one string payload field (key may be NULL). */
void evlog_emit(struct evlog *log, sim_time_t t, const char *src, const char *ev,
		const char *key, const char *value);
/* Whether a record of kind ev goes to a listener (when it does not, evlog_begin()
 * gives NULL). */
bool evlog_wanted(const struct evlog *log, const char *ev);
/* Records ended so far, built or not. */
uint64_t evlog_count(const struct evlog *log);
void evlog_free(struct evlog *log);

#endif
