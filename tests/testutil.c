/*
 * tests/testutil.c - see testutil.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/scenario.h"
#include "sim/world.h"
#include "tests/testutil.h"

void tu_rm_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;

	if (d) {
		while ((name = g_dir_read_name(d))) {
			g_autofree char *p = g_build_filename(path, name, NULL);

			if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
				tu_rm_tree(p);
			else
				g_unlink(p);
		}
		g_dir_close(d);
	}
	g_rmdir(path);
}

char *tu_make_tmpdir(const char *tmpl)
{
	GError *err = NULL;
	char *dir = g_dir_make_tmp(tmpl, &err);

	if (!dir)
		fprintf(stderr, "\n  g_dir_make_tmp: %s\n", err->message);
	g_clear_error(&err);
	return dir;
}

static bool read_outputs(struct tu_run *r)
{
	g_autofree char *evp = g_build_filename(r->dir, "events.jsonl", NULL);
	g_autofree char *mp = g_build_filename(r->dir, "metrics.json", NULL);
	g_autofree char *text = NULL, *mtext = NULL;
	g_auto(GStrv) lines = NULL;

	r->ev = g_ptr_array_new_with_free_func((GDestroyNotify)cJSON_Delete);
	if (!g_file_get_contents(evp, &text, NULL, NULL) ||
	    !g_file_get_contents(mp, &mtext, NULL, NULL))
		return false;
	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		cJSON *o;

		if (!lines[i][0])
			continue;
		o = cJSON_Parse(lines[i]);
		if (!o)
			return false;
		g_ptr_array_add(r->ev, o);
	}
	r->metrics = cJSON_Parse(mtext);
	return r->metrics != NULL;
}

bool tu_run(struct tu_run *r, const char *json)
{
	GError *err = NULL;
	struct world_options wo = { 0 };
	struct scenario *sc;
	struct world *w = NULL;

	memset(r, 0, sizeof(*r));
	r->dir = tu_make_tmpdir("cs-test-XXXXXX");
	sc = r->dir ? scenario_load_text("test.json", json, strlen(json), NULL, &err) : NULL;
	if (!sc)
		goto fail;
	wo.outdir = r->dir;
	w = world_new(sc, &wo, &err);
	if (!w || !world_run(w, &err) || !world_finish(w, &err))
		goto fail;
	world_free(w);
	scenario_free(sc);
	r->ok = read_outputs(r);
	return r->ok;
fail:
	fprintf(stderr, "\n  scenario failed: %s\n", err ? err->message : "?");
	g_clear_error(&err);
	world_free(w);
	scenario_free(sc);
	return false;
}

void tu_done(struct tu_run *r)
{
	if (r->ev)
		g_ptr_array_free(r->ev, TRUE);
	cJSON_Delete(r->metrics);
	if (r->dir)
		tu_rm_tree(r->dir);
	g_free(r->dir);
	memset(r, 0, sizeof(*r));
}

double tu_metric(const struct tu_run *r, const char *name)
{
	const cJSON *v = r->metrics ? cJSON_GetObjectItemCaseSensitive(r->metrics, name) : NULL;

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const cJSON *tu_event(const struct tu_run *r, const char *ev, const char *key,
		      const char *value, int i)
{
	for (guint k = 0; r->ev && k < r->ev->len; k++) {
		const cJSON *rec = r->ev->pdata[k];
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(rec, "ev");
		const cJSON *f = key ? cJSON_GetObjectItemCaseSensitive(rec, key) : NULL;

		if (!cJSON_IsString(e) || strcmp(e->valuestring, ev))
			continue;
		if (key && !(cJSON_IsString(f) && strcmp(f->valuestring, value) == 0))
			continue;
		if (i-- == 0)
			return rec;
	}
	return NULL;
}

double tu_event_time(const cJSON *rec)
{
	const cJSON *t = rec ? cJSON_GetObjectItemCaseSensitive(rec, "t") : NULL;

	return cJSON_IsNumber(t) ? t->valuedouble : NAN;
}

int tu_count(const struct tu_run *r, const char *ev)
{
	int n = 0;

	while (tu_event(r, ev, NULL, NULL, n))
		n++;
	return n;
}
