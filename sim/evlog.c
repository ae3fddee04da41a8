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
	struct listener {
		evlog_listener_cb cb;
		void *data;
		const char *ev;   /* NULL: every kind */
	} listeners[EVLOG_MAX_LISTENERS];
	int n_listeners;
	/* records being built: each one's time, source and kind */
	struct open_rec {
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
	log->listeners[log->n_listeners++] = (struct listener){ cb, data, ev };
}

void evlog_add_listener(struct evlog *log, evlog_listener_cb cb, void *data)
{
	evlog_add_listener_for(log, NULL, cb, data);
}

static bool listener_hears(const struct evlog *log, int i, const char *ev)
{
	return !log->listeners[i].ev || strcmp(log->listeners[i].ev, ev) == 0;
}

bool evlog_wanted(const struct evlog *log, const char *ev)
{
	for (int i = 0; i < log->n_listeners; i++)
		if (listener_hears(log, i, ev))
			return true;
	return false;
}

cJSON *evlog_begin(struct evlog *log, sim_time_t t, const char *src, const char *ev)
{
	cJSON *rec;
	char buf[48];

	if (!evlog_wanted(log, ev))
		return NULL;
	rec = cJSON_CreateObject();
	units_time_text(buf, t);
	cJSON_AddItemToObjectCS(rec, "t", cJSON_CreateRaw(buf));
	cJSON_AddItemToObjectCS(rec, "src", cJSON_CreateStringReference(src));
	cJSON_AddItemToObjectCS(rec, "ev", cJSON_CreateStringReference(ev));
	for (int i = 0; i < EVLOG_MAX_OPEN; i++)
		if (!log->open[i].rec) {
			log->open[i] = (struct open_rec){ rec, t, src, ev };
			return rec;
		}
	g_error("evlog: more than %d records built at once", EVLOG_MAX_OPEN);
}

void evlog_end(struct evlog *log, cJSON *rec)
{
	struct open_rec o = { 0 };

	log->count++;
	if (!rec)
		return;
	for (int i = 0; i < EVLOG_MAX_OPEN && !o.rec; i++)
		if (log->open[i].rec == rec) {
			o = log->open[i];
			log->open[i].rec = NULL;
		}
	g_assert(o.src);
	for (int i = 0; i < log->n_listeners; i++)
		if (listener_hears(log, i, o.ev))
			log->listeners[i].cb(log->listeners[i].data, o.t, o.src, o.ev, rec);
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
	g_free(log);
}
