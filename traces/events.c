// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/events.c - reading events.jsonl back, one record at a time (see events.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "traces/events.h"
#include "traces/infile.h"

G_DEFINE_QUARK(cs-events-error-quark, cs_events_error)

bool cs_events_read(const char *path, cs_events_fn fn, void *data, GError **err)
{
	const char *found;
	int fd = cs_open_regular(path, &found);   /* a FIFO would block */
	FILE *fp = fd >= 0 ? fdopen(fd, "r") : NULL;
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	bool ok = true;

	if (fd >= 0 && !fp)
		close(fd);
	if (!fp && found) {
		g_set_error(err, CS_EVENTS_ERROR, CS_EVENTS_ERROR_IO,
			    "%s: found %s, expected an events file (a regular file)", path, found);
		return false;
	}
	if (!fp) {
		int e = errno;

		g_set_error(err, CS_EVENTS_ERROR, CS_EVENTS_ERROR_IO, "%s: cannot read: %s", path,
			    g_strerror(e));
		return false;
	}
	while (ok && getline(&line, &cap, fp) > 0) {
		cJSON *rec;

		lineno++;
		if (!*g_strstrip(line))
			continue;
		rec = cJSON_Parse(line);
		if (!cJSON_IsObject(rec)) {
			g_set_error(err, CS_EVENTS_ERROR, CS_EVENTS_ERROR_SYNTAX,
				    "%s:%ld: found \"%.40s\", expected one JSON object per line", path,
				    lineno, line);
			ok = false;
		} else {
			ok = fn(data, rec, lineno, err);
		}
		cJSON_Delete(rec);
	}
	if (ok && ferror(fp)) {
		g_set_error(err, CS_EVENTS_ERROR, CS_EVENTS_ERROR_IO, "%s: read error", path);
		ok = false;
	}
	free(line);
	fclose(fp);
	return ok;
}

double cs_event_time(const cJSON *rec)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, "t");

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *cs_event_kind(const cJSON *rec)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, "ev");

	return cJSON_IsString(v) ? v->valuestring : NULL;
}
