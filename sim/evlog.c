// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/evlog.c - the event log's records and their listeners (see evlog.h).
 */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "sim/evlog.h"
#include "sim/units.h"

#define EVLOG_MAX_LISTENERS 8
#define EVLOG_MAX_OPEN 4     /* records being built at once (begin without end yet) */

struct evlog {
	uint64_t count;
	struct listener {
		evlog_listener_cb cb;
		evlog_text_cb text_cb;   /* instead of cb: a listener of the record's text */
		void *data;
		const char *ev;   /* NULL: every kind */
	} listeners[EVLOG_MAX_LISTENERS];
	int n_listeners;
	/* records being built: each one's time, source and kind. A slot keeps its object
	 * with "t", "src" and "ev" from record to record (only the payload is made and
	 * freed each time): 1.042x fewer instructions on a check of the library (1.510 G to
	 * 1.449 G), the cost of an object and three members made and freed per record. */
	struct open_rec {
		cJSON *rec;
		bool busy;
		sim_time_t t;
		const char *src;
		const char *ev;
		char t_text[48];   /* "t"'s text, which the object refers to */
	} open[EVLOG_MAX_OPEN];
	/* the text of the record being ended (struct evlog_text), kept for the next one */
	char *line;
	size_t len, cap;
	struct evlog_member *members;
	size_t *at;                     /* each value's offset in line, which may move */
	int cap_members;
	/* the last number cJSON printed, its bits and text (num_len 0: none): records
	 * repeat one, an instant in two records, two readings alike */
	uint64_t num_bits;
	char num_text[32];
	size_t num_len;
};

struct evlog *evlog_new(void)
{
	return g_new0(struct evlog, 1);
}

void evlog_add_listener_for(struct evlog *log, const char *ev, evlog_listener_cb cb,
			    void *data)
{
	g_assert(log->n_listeners < EVLOG_MAX_LISTENERS);
	log->listeners[log->n_listeners++] = (struct listener){ .cb = cb, .data = data, .ev = ev };
}

void evlog_add_listener(struct evlog *log, evlog_listener_cb cb, void *data)
{
	evlog_add_listener_for(log, NULL, cb, data);
}

void evlog_add_text_listener(struct evlog *log, evlog_text_cb cb, void *data)
{
	g_assert(log->n_listeners < EVLOG_MAX_LISTENERS);
	log->listeners[log->n_listeners++] = (struct listener){ .text_cb = cb, .data = data };
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

/* A slot's object: "t" (a raw number in the slot's t_text), "src" and "ev", which all
 * refer to text they do not own (cJSON_IsReference). */
static cJSON *header_new(struct open_rec *o)
{
	cJSON *rec = cJSON_CreateObject();
	cJSON *t = cJSON_CreateStringReference(o->t_text);

	t->type = cJSON_Raw | cJSON_IsReference;
	cJSON_AddItemToObjectCS(rec, "t", t);
	cJSON_AddItemToObjectCS(rec, "src", cJSON_CreateStringReference(""));
	cJSON_AddItemToObjectCS(rec, "ev", cJSON_CreateStringReference(""));
	return rec;
}

cJSON *evlog_begin(struct evlog *log, sim_time_t t, const char *src, const char *ev)
{
	struct open_rec *o = log->open;
	cJSON *src_item;

	if (!evlog_wanted(log, ev))
		return NULL;
	while (o->busy)
		if (++o == log->open + EVLOG_MAX_OPEN)
			g_error("evlog: more than %d records built at once", EVLOG_MAX_OPEN);
	if (!o->rec)
		o->rec = header_new(o);
	o->busy = true;
	o->t = t;
	o->src = src;
	o->ev = ev;
	units_time_text(o->t_text, t);
	src_item = o->rec->child->next;
	src_item->valuestring = (char *)src;
	src_item->next->valuestring = (char *)ev;
	return o->rec;
}

/* ---- a record's text ---- */

static void text_reserve(struct evlog *log, size_t more)
{
	if (log->cap - log->len > more)
		return;
	if (log->cap > ((size_t)1 << 30))
		g_error("evlog: a record too long to print");
	while (log->cap - log->len <= more)
		log->cap = log->cap ? log->cap * 2 : 1024;
	log->line = g_realloc(log->line, log->cap);
}

static void text_put(struct evlog *log, const char *s, size_t n)
{
	text_reserve(log, n);
	memcpy(log->line + log->len, s, n);
	log->len += n;
	log->line[log->len] = '\0';
}

/* item's value as cJSON prints it, unformatted, at the end of the line */
static void text_put_value(struct evlog *log, const cJSON *item)
{
	size_t room = log->cap - log->len;

	while (room > INT_MAX || !cJSON_PrintPreallocated((cJSON *)item, log->line + log->len,
							   (int)room, false)) {
		text_reserve(log, log->cap);
		room = log->cap - log->len;
	}
	log->len += strlen(log->line + log->len);
}

/* A number as cJSON prints it, written here when it is a whole number below 10^15 (a
 * count, milliamperes, ...): cJSON's "%1.15g" then prints its digits, which need
 * neither printf's floating point nor cJSON's check by sscanf (3.5 k instructions a
 * number). A negative zero ("-0") and every other number go to cJSON, but for the
 * number it printed last, whose text is copied. */
static void text_put_number(struct evlog *log, const cJSON *item)
{
	double v = item->valuedouble;
	char buf[24];
	uint64_t bits;
	size_t at = log->len;

	if (fabs(v) < 1e15 && v == trunc(v) && !(v == 0 && signbit(v))) {
		text_put(log, buf, (size_t)g_snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT,
						      (gint64)v));
		return;
	}
	memcpy(&bits, &v, sizeof(bits));
	if (log->num_len && bits == log->num_bits) {
		text_put(log, log->num_text, log->num_len);
		return;
	}
	text_put_value(log, item);
	log->num_bits = bits;
	log->num_len = log->len - at < sizeof(log->num_text) ? log->len - at : 0;
	memcpy(log->num_text, log->line + at, log->num_len);
}

/* A key or a string value as cJSON prints a string: a string with nothing to escape (no
 * quote, backslash or control character, RFC 8259 section 7) is its bytes in quotes;
 * one that needs escaping is printed by cJSON itself. Most of a record's values are
 * such strings (its source and kind, a uevent's name ...): 1.018x fewer instructions on
 * a check of the library than cJSON's printer for them (1.537 G to 1.510 G). */
static void text_put_string(struct evlog *log, const char *s)
{
	size_t n = 0;
	char *p;

	for (; s[n]; n++)
		if ((unsigned char)s[n] < 0x20 || s[n] == '"' || s[n] == '\\') {
			cJSON str = { .type = cJSON_String | cJSON_IsReference,
				      .valuestring = (char *)s };

			text_put_value(log, &str);
			return;
		}
	text_reserve(log, n + 2);
	p = log->line + log->len;
	p[0] = '"';
	memcpy(p + 1, s, n);
	p[n + 1] = '"';
	p[n + 2] = '\0';
	log->len += n + 2;
}

/* Print rec's members into the log's line, as cJSON_PrintUnformatted() would print the
 * object: {"key":value,...} */
static void text_print(struct evlog *log, const cJSON *rec, struct evlog_text *text)
{
	int n = 0;

	log->len = 0;
	text_put(log, "{", 1);
	for (const cJSON *c = rec->child; c; c = c->next, n++) {
		if (n == log->cap_members) {
			log->cap_members = n ? 2 * n : 16;
			log->members = g_renew(struct evlog_member, log->members, log->cap_members);
			log->at = g_renew(size_t, log->at, log->cap_members);
		}
		if (n)
			text_put(log, ",", 1);
		text_put_string(log, c->string);
		text_put(log, ":", 1);
		log->at[n] = log->len;
		if (cJSON_IsRaw(c) && c->valuestring)   /* "t" */
			text_put(log, c->valuestring, strlen(c->valuestring));
		else if (cJSON_IsString(c) && c->valuestring)
			text_put_string(log, c->valuestring);
		else if (cJSON_IsNumber(c))
			text_put_number(log, c);
		else
			text_put_value(log, c);
		log->members[n] = (struct evlog_member){ .key = c->string,
							 .len = log->len - log->at[n] };
	}
	text_put(log, "}", 1);
	/* the line stopped moving: the offsets become pointers */
	for (int i = 0; i < n; i++)
		log->members[i].value = log->line + log->at[i];
	*text = (struct evlog_text){ log->line, log->len, log->members, n };
}

void evlog_end(struct evlog *log, cJSON *rec)
{
	struct open_rec *o = log->open;
	struct evlog_text text = { 0 };
	cJSON *ev_item, *payload;

	log->count++;
	if (!rec)
		return;
	while (!o->busy || o->rec != rec)
		if (++o == log->open + EVLOG_MAX_OPEN)
			g_error("evlog: a record ended that was not begun");
	for (int i = 0; i < log->n_listeners; i++) {
		const struct listener *l = &log->listeners[i];

		if (!listener_hears(log, i, o->ev))
			continue;
		if (!l->text_cb) {
			l->cb(l->data, o->t, o->src, o->ev, rec);
			continue;
		}
		if (!text.line)
			text_print(log, rec, &text);
		l->text_cb(l->data, o->src, o->ev, &text);
	}
	/* the payload goes; the object keeps "t", "src" and "ev" (its first child's prev
	 * is its last, where the next payload is added) */
	ev_item = rec->child->next->next;
	payload = ev_item->next;
	ev_item->next = NULL;
	rec->child->prev = ev_item;
	cJSON_Delete(payload);
	o->busy = false;
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
	for (int i = 0; i < EVLOG_MAX_OPEN; i++)
		cJSON_Delete(log->open[i].rec);
	g_free(log->line);
	g_free(log->members);
	g_free(log->at);
	g_free(log);
}
