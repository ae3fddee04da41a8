// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/testutil.c - see testutil.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "run/run.h"
#include "tests/testutil.h"
#include "traces/csv.h"
#include "traces/events.h"

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

static bool keep_event(void *data, const cJSON *rec, long line, GError **err)
{
	(void)line;
	(void)err;
	g_ptr_array_add(data, cJSON_Duplicate(rec, true));
	return true;
}

static bool read_outputs(struct tu_run *r)
{
	g_autofree char *evp = g_build_filename(r->dir, "events.jsonl", NULL);
	g_autofree char *mp = g_build_filename(r->dir, "metrics.json", NULL);
	g_autofree char *mtext = NULL;
	g_autoptr(GError) err = NULL;

	r->ev = g_ptr_array_new_with_free_func((GDestroyNotify)cJSON_Delete);
	if (!cs_events_read(evp, keep_event, r->ev, &err)) {
		fprintf(stderr, "\n  %s\n", err->message);
		return false;
	}
	if (!g_file_get_contents(mp, &mtext, NULL, NULL))
		return false;
	r->metrics = cJSON_Parse(mtext);
	return r->metrics != NULL;
}

bool tu_run_opts(struct tu_run *r, const char *json, const struct world_options *opt)
{
	struct run_options ro = { 0 };
	struct run_result res = { 0 };

	memset(r, 0, sizeof(*r));
	r->dir = tu_make_tmpdir("cs-test-XXXXXX");
	if (!r->dir)
		goto fail;
	if (opt)
		ro.world = *opt;
	ro.world.outdir = r->dir;
	if (run_text("test.json", json, strlen(json), &ro, &res) != 0)
		goto fail;
	r->m = res.metrics;
	res.metrics = (struct world_metrics){ 0 };   /* r owns them now */
	run_result_clear(&res);
	r->ok = read_outputs(r);
	if (!r->ok) {
		fprintf(stderr, "\n  cannot read the outputs in %s\n", r->dir);
		tu_done(r);
	}
	return r->ok;
fail:
	fprintf(stderr, "\n  scenario failed: %s\n", res.error ? res.error->message : "?");
	run_result_clear(&res);
	tu_done(r);
	return false;
}

bool tu_run(struct tu_run *r, const char *json)
{
	return tu_run_opts(r, json, NULL);
}

void tu_done(struct tu_run *r)
{
	if (r->ev)
		g_ptr_array_free(r->ev, TRUE);
	if (r->rows)
		g_ptr_array_free(r->rows, TRUE);
	g_strfreev(r->cols);
	cJSON_Delete(r->metrics);
	world_metrics_clear(&r->m);
	if (r->dir)
		tu_rm_tree(r->dir);
	g_free(r->dir);
	memset(r, 0, sizeof(*r));
}

bool tu_read_trace(struct tu_run *r)
{
	g_autofree char *path = g_build_filename(r->dir, "trace.csv", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(cs_csv_trace) tr = cs_csv_read(path, NULL, &err);

	if (r->rows)
		g_ptr_array_set_size(r->rows, 0);
	else
		r->rows = g_ptr_array_new_with_free_func(g_free);
	if (!tr) {
		fprintf(stderr, "\n  %s\n", err->message);
		return false;
	}
	g_strfreev(r->cols);
	r->ncols = tr->ncols;
	r->cols = g_new0(char *, (gsize)tr->ncols + 1);
	for (int c = 0; c < tr->ncols; c++)
		r->cols[c] = g_strdup(tr->cols[c].name);
	for (size_t i = 0; i < tr->nrows; i++) {
		double *row = g_new(double, r->ncols);

		for (int c = 0; c < r->ncols; c++)
			row[c] = tr->cols[c].is_label ? NAN : tr->cols[c].v[i];
		g_ptr_array_add(r->rows, row);
	}
	return true;
}

int tu_col(const struct tu_run *r, const char *name)
{
	for (int c = 0; c < r->ncols; c++)
		if (strcmp(r->cols[c], name) == 0)
			return c;
	return -1;
}

double tu_time_within(const struct tu_run *r, const char *col, double lo, double hi,
		      double from)
{
	int ic = tu_col(r, col), it = tu_col(r, "time_s");
	double t = 0;

	for (guint k = 0; k + 1 < r->rows->len; k++) {
		const double *row = g_ptr_array_index(r->rows, k), *next = g_ptr_array_index(r->rows, k + 1);

		if (row[it] >= from && row[ic] >= lo && row[ic] <= hi)
			t += next[it] - row[it];
	}
	return t;
}

double tu_time_at(const struct tu_run *r, const char *col, double v, double tol, double from)
{
	return tu_time_within(r, col, v - tol, v + tol, from);
}

double tu_num(const cJSON *obj, const char *key)
{
	const cJSON *v = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *tu_str(const cJSON *obj, const char *key)
{
	const cJSON *v = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;

	return cJSON_IsString(v) ? v->valuestring : "";
}

double tu_metric(const struct tu_run *r, const char *name)
{
	return tu_num(r->metrics, name);
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
	return tu_num(rec, "t");
}

int tu_count_where(const struct tu_run *r, const char *ev, const char *key, const char *value)
{
	int n = 0;

	while (tu_event(r, ev, key, value, n))
		n++;
	return n;
}

int tu_count(const struct tu_run *r, const char *ev)
{
	return tu_count_where(r, ev, NULL, NULL);
}

double tu_ref_ocv(double s)
{
	static const double soc[] = { 0, .05, .10, .20, .30, .40, .50, .60, .70, .80, .90, .95, 1 };
	static const double v[] = { 3.300, 3.656, 3.690, 3.746, 3.776, 3.793, 3.829, 3.911,
				    3.978, 4.077, 4.183, 4.241, 4.328 };
	int i = 0;

	while (i < 11 && s > soc[i + 1])
		i++;
	return v[i] + (v[i + 1] - v[i]) * (s - soc[i]) / (soc[i + 1] - soc[i]);
}

char *tu_repo_file(const char *rel)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	char *p;

	if (g_file_test(rel, G_FILE_TEST_IS_REGULAR))
		return g_strdup(rel);
	if (exe) {
		g_autofree char *bindir = g_path_get_dirname(exe);
		g_autofree char *top = g_path_get_dirname(bindir);

		p = g_build_filename(top, rel, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
			return p;
		g_free(p);
	}
	return NULL;
}

bool tu_near(double a, double b, double tol, const char *what)
{
	if (fabs(a - b) <= tol)
		return true;
	fprintf(stderr, "\n  %s: got %.12g, want %.12g (tol %.3g)\n", what, a, b, tol);
	return false;
}

void tu_net_base(struct net_in *in)
{
	memset(in, 0, sizeof(*in));
	in->src_on = true;
	in->voc = 5.0;
	in->r_src = 0.2;
	in->r_cable = 0.3;
	in->limit = NET_LIMIT_NONE;
	in->ilim = 10;
	in->chg_on = true;
	in->iindpm = 1e9;
	in->eff = 0.9;
	in->r_on = 0.3;
	in->charging = true;
	in->ichg = 1.0;
	in->vreg = 4.35;
	in->emf = 3.8;
	in->r0 = 0.1;
}
