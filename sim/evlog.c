// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/evlog.c - the event log's records and their listeners (see evlog.h).
 */
#include <string.h>
#include "sim/evlog.h"
#include "sim/units.h"

#define EVLOG_MAX_LISTENERS 8
#define EVLOG_MAX_OPEN 4     /* records being built at once (begin without end yet) */

struct evlog {
	uint64_t count;
	struct {
		evlog_listener_cb cb;
		void *data;
		const char *ev;   /* NULL: every kind */
	} listeners[EVLOG_MAX_LISTENERS];
	int n_listeners;
	/* records being built: each one's time, source and kind */
	struct {
		cJSON *rec;
		sim_time_t t;
		const char *src;
		const char *ev;
	} open[EVLOG_MAX_OPEN];
};

struct evlog *evlog_new(void)
{
	return g_new0(struct evlog, 1);
}

void evlog_add_listener_for(struct evlog *log, const char *ev, evlog_listener_cb cb,
			    void *data)
{
	g_assert(log->n_listeners < EVLOG_MAX_LISTENERS);
	log->listeners[log->n_listeners].cb = cb;
	log->listeners[log->n_listeners].data = data;
	log->listeners[log->n_listeners].ev = ev;
	log->n_listeners++;
}

void evlog_add_listener(struct evlog *log, evlog_listener_cb cb, void *data)
{
	evlog_add_listener_for(log, NULL, cb, data);
}

static bool listener_hears(const struct evlog *log, int i, const char *ev)
{
	return !log->listeners[i].ev || strcmp(log->listeners[i].ev, ev) == 0;
}

cJSON *evlog_begin(struct evlog *log, sim_time_t t, const char *src, const char *ev)
{
	cJSON *rec;
	char buf[48];

	rec = cJSON_CreateObject();
	units_time_text(buf, t);
	cJSON_AddRawToObject(rec, "t", buf);
	cJSON_AddStringToObject(rec, "src", src);
	cJSON_AddStringToObject(rec, "ev", ev);
	for (int i = 0; i < EVLOG_MAX_OPEN; i++)
		if (!log->open[i].rec) {
			log->open[i].rec = rec;
			log->open[i].t = t;
			log->open[i].src = src;
			log->open[i].ev = ev;
			return rec;
		}
	g_error("evlog: more than %d records built at once", EVLOG_MAX_OPEN);
	return rec;
}

void evlog_end(struct evlog *log, cJSON *rec)
{
	sim_time_t t = 0;
	const char *src = NULL, *ev = NULL;

	for (int i = 0; i < EVLOG_MAX_OPEN; i++)
		if (log->open[i].rec == rec) {
			t = log->open[i].t;
			src = log->open[i].src;
			ev = log->open[i].ev;
			log->open[i].rec = NULL;
			break;
		}
	g_assert(src);
	log->count++;
	for (int i = 0; i < log->n_listeners; i++)
		if (listener_hears(log, i, ev))
			log->listeners[i].cb(log->listeners[i].data, t, src, ev, rec);
	cJSON_Delete(rec);
}

void evlog_emit(struct evlog *log, sim_time_t t, const char *src, const char *ev,
		const char *key, const char *value)
{
	cJSON *rec = evlog_begin(log, t, src, ev);

	if (key)
		evlog_put_string(rec, key, value);
	evlog_end(log, rec);
}

uint64_t evlog_count(const struct evlog *log)
{
	return log->count;
}

void evlog_free(struct evlog *log)
{
	if (!log)
		return;
	g_free(log);
}
