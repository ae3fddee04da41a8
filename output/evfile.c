// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output/evfile.c - events.jsonl, written by a listener of the event log (see evfile.h).
 */
#include <errno.h>
#include <stdio.h>
#include "output/evfile.h"
#include "output/outfile.h"

struct evfile {
	struct cs_outfile *out;   /* NULL once committed */
	int err;                  /* errno of the first write that failed; 0: none */
	char *buf;                /* a line is printed here, grown as lines need */
	int size;
};

static void evfile_write(void *data, sim_time_t t, const char *src, const char *ev,
			 const cJSON *rec)
{
	struct evfile *f = data;

	(void)t;
	(void)src;
	if (!f->out)
		return;
	/* into the file's own buffer: cJSON_PrintUnformatted() allocates and grows a
	 * buffer for every record (check of the library: 1.04x the instructions) */
	while (!cJSON_PrintPreallocated((cJSON *)rec, f->buf, f->size, false)) {
		if (f->size >= (1 << 30))
			g_error("evlog: a %s record that cJSON cannot print", ev);
		f->size *= 2;
		f->buf = g_realloc(f->buf, (gsize)f->size);
	}
	/* stdio writes a buffer-full at a time: a failure shows at the record that filled
	 * it (evfile_write_failed()), and nothing more is written after one */
	if (f->err)
		return;
	errno = 0;
	if (fputs(f->buf, f->out->fp) == EOF || fputc('\n', f->out->fp) == EOF)
		f->err = errno ? errno : EIO;
}

bool evfile_write_failed(const struct evfile *f, GError **err)
{
	if (!f || !f->err || !f->out)
		return false;
	return !cs_io_error(err, "cannot write output file", f->out->final_path, f->err);
}

struct evfile *evfile_open(struct evlog *log, const char *path, GError **err)
{
	struct cs_outfile *out = cs_outfile_open(path, false, err);
	struct evfile *f;

	if (!out)
		return NULL;
	f = g_new(struct evfile, 1);
	*f = (struct evfile){ .out = out, .buf = g_malloc(1024), .size = 1024 };
	evlog_add_listener(log, evfile_write, f);
	return f;
}

bool evfile_commit(struct evfile *f, GError **err)
{
	if (evfile_write_failed(f, err)) {
		cs_outfile_abort(g_steal_pointer(&f->out));
		return false;
	}
	return cs_outfile_commit(g_steal_pointer(&f->out), err);
}

void evfile_free(struct evfile *f)
{
	if (!f)
		return;
	cs_outfile_abort(f->out);
	g_free(f->buf);
	g_free(f);
}
