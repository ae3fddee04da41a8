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
};

/* The record's line is printed by the event log, once for every listener of its text
 * (the fingerprints too). */
static void evfile_write(void *data, const char *src, const char *ev,
			 const struct evlog_text *text)
{
	struct evfile *f = data;

	(void)src;
	(void)ev;
	/* stdio writes a buffer-full at a time: a failure shows at the record that filled
	 * it (evfile_write_failed()), and nothing more is written after one */
	if (!f->out || f->err)
		return;
	errno = 0;
	if (fwrite(text->line, 1, text->len, f->out->fp) != text->len ||
	    fputc('\n', f->out->fp) == EOF)
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
	*f = (struct evfile){ .out = out };
	evlog_add_text_listener(log, evfile_write, f);
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
	g_free(f);
}
