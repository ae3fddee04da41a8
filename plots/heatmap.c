// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/heatmap.c - heat maps of one metric over two varied parameters of a sweep's
 * results.csv (plot_heatmap() in plot.h), one map per value of `by`.
 *
 * results.csv is read through the trace reader as a table (traces/csv.h: no time
 * column, every cell text). The values of the x, y and by columns become categories
 * (sorted by their leading number when every one has one); each row falls into one
 * cell of one map, and several rows in a cell are an error unless `agg` combines them.
 * Written: NAME-heatmap.dat (one block per map: ix,iy,z,label) and NAME.gp.
 */
#include <math.h>
#include <string.h>
#include "plots/gp.h"
#include "plots/plot.h"
#include "plots/templates.h"
#include "output/outfile.h"
#include "traces/csv.h"

/* results.csv: the header, and the cells (blanks around them removed). */
struct table {
	const char *path;
	char **names;             /* the header */
	cs_csv_trace *tr;         /* NULL when there are no data rows */
	guint nrows;
};

/* One cell of a map: the rows that fall into it. */
struct cell {
	int row;                  /* the first, -1 none */
	int n;                    /* numeric z values */
	double sum, min, max, z;
};

/* The heat map being made: the table, its columns, the categories and the cells. */
struct heat {
	const struct plot_heatmap_spec *sp;
	struct table t;
	int col[4];               /* x, y, z, by (-1: no by) */
	GPtrArray *xs, *ys, *bs;  /* the categories of x, y and by */
	gsize n_cells;            /* maps x rows x columns */
	struct cell *cells;
	double zmin, zmax;
};

static const char *table_cell(const struct table *t, guint row, int col)
{
	return t->tr->cols[col].s[row];
}

static int table_col(const struct table *t, const char *name)
{
	for (int i = 0; t->names[i]; i++)
		if (strcmp(t->names[i], name) == 0)
			return i;
	return -1;
}

/* Strip the blanks around every cell (the reader keeps text cells as written). */
static void table_strip(struct table *t)
{
	cs_csv_trace *tr = t->tr;

	for (int c = 0; c < tr->ncols; c++)
		for (size_t i = 0; i < tr->nrows; i++) {
			const char *v = tr->cols[c].s[i];

			if (*v && (g_ascii_isspace(*v) || g_ascii_isspace(v[strlen(v) - 1]))) {
				g_autofree char *s = g_strstrip(g_strdup(v));

				tr->cols[c].s[i] = g_string_chunk_insert_const(tr->strings, s);
			}
		}
}

static bool read_table(struct table *t, GError **err)
{
	static const struct cs_csv_read_opts opts = { .table = true, .delim = ',' };
	g_autoptr(GError) inner = NULL;

	t->tr = cs_csv_read(t->path, &opts, &inner);
	if (t->tr) {
		t->nrows = (guint)t->tr->nrows;
		t->names = g_new0(char *, (gsize)t->tr->ncols + 1);
		for (int c = 0; c < t->tr->ncols; c++)
			t->names[c] = g_strdup(t->tr->cols[c].name);
		table_strip(t);
		return true;
	}
	/* a header without rows: its columns are checked before the rows are missed */
	if (g_error_matches(inner, CS_CSV_ERROR, CS_CSV_ERROR_EMPTY)) {
		g_clear_error(&inner);
		t->names = cs_csv_read_header(t->path, &opts, &inner);
	}
	if (!t->names) {
		g_set_error_literal(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, inner->message);
		return false;
	}
	if (!t->names[0]) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: empty file, expected a header row (index,PARAM...,METRIC...)", t->path);
		return false;
	}
	return true;
}

/* The columns of --x, --y, --z and --by; the message names every missing one. */
static bool find_columns(struct heat *h, GError **err)
{
	const struct plot_heatmap_spec *sp = h->sp;
	const char *names[4] = { sp->x, sp->y, sp->z, sp->by };
	const char *what[4] = { "--x", "--y", "--z", "--by" };
	GString *missing = g_string_new(NULL);
	bool ok;

	for (int k = 0; k < 4; k++) {
		h->col[k] = names[k] ? table_col(&h->t, names[k]) : -1;
		if (names[k] && h->col[k] < 0)
			g_string_append_printf(missing, "%s%s %s", missing->len ? ", " : "", what[k],
					       names[k]);
	}
	ok = missing->len == 0;
	if (!ok) {
		g_autofree char *cols = g_strjoinv(", ", h->t.names);

		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: no column for %s; its columns are: %s", sp->results, missing->str,
			    cols);
	}
	g_string_free(missing, TRUE);
	return ok;
}

/* The distinct values of a column in order of first appearance; sorted by their
 * leading number when every one starts with a number ("0.5 m", "1.1 A", "2"). */
static int category_cmp(const void *a, const void *b)
{
	double x = g_ascii_strtod(*(char *const *)a, NULL), y = g_ascii_strtod(*(char *const *)b, NULL);

	return x < y ? -1 : x > y;
}

static int category_index(const GPtrArray *a, const char *v)
{
	for (guint k = 0; k < a->len; k++)
		if (strcmp(g_ptr_array_index(a, k), v) == 0)
			return (int)k;
	return -1;
}

static GPtrArray *categories(const struct table *t, int col)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	bool numeric = true;

	for (guint i = 0; i < t->nrows; i++) {
		const char *v = table_cell(t, i, col);
		char *end;

		if (category_index(a, v) >= 0)
			continue;
		g_ascii_strtod(v, &end);
		numeric &= end != v;
		g_ptr_array_add(a, g_strdup(v));
	}
	if (numeric)
		g_ptr_array_sort(a, category_cmp);
	return a;
}

/* A category axis: "'0.5 m' 0, '2 m' 1". */
static char *category_tics(const GPtrArray *a)
{
	GString *s = g_string_new(NULL);

	for (guint k = 0; k < a->len; k++) {
		g_string_append(s, k ? ", " : "");
		gp_quote(s, g_ptr_array_index(a, k));
		g_string_append_printf(s, " %u", k);
	}
	return g_string_free(s, FALSE);
}

static void heat_categories(struct heat *h)
{
	h->xs = categories(&h->t, h->col[0]);
	h->ys = categories(&h->t, h->col[1]);
	if (h->col[3] >= 0) {
		h->bs = categories(&h->t, h->col[3]);
	} else {
		h->bs = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(h->bs, g_strdup(""));
	}
	h->n_cells = (gsize)h->bs->len * h->xs->len * h->ys->len;
	h->cells = g_new0(struct cell, h->n_cells);
	for (gsize k = 0; k < h->n_cells; k++)
		h->cells[k].row = -1;
}

/* Two rows in one cell without --agg: say where, and in which columns they differ. */
static void duplicate_error(const struct heat *h, int first, guint i, GError **err)
{
	const struct plot_heatmap_spec *sp = h->sp;
	const struct table *t = &h->t;
	const int *col = h->col;
	GString *diff = g_string_new(NULL);

	for (int c = 0; t->names[c]; c++) {
		if (c == col[2] || strcmp(t->names[c], "index") == 0)
			continue;
		if (strcmp(table_cell(t, (guint)first, c), table_cell(t, i, c)) != 0 && diff->len < 200)
			g_string_append_printf(diff, "%s%s", diff->len ? ", " : "", t->names[c]);
	}
	g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
		    "%s: lines %zu and %zu both fall in the cell %s=%s, %s=%s%s%s; they differ in "
		    "%s: split the maps with --by COLUMN (e.g. --by policy), combine the rows "
		    "with --agg mean|min|max, or filter the file",
		    sp->results, t->tr->line[first], t->tr->line[i], sp->x, table_cell(t, i, col[0]),
		    sp->y, table_cell(t, i, col[1]), col[3] >= 0 ? " of the map " : "",
		    col[3] >= 0 ? table_cell(t, i, col[3]) : "",
		    diff->len ? diff->str : "no other column");
	g_string_free(diff, TRUE);
}

/* Each row into its cell: the first row, and the sum, min and max of its z values. */
static bool fill_cells(struct heat *h, GError **err)
{
	const struct plot_heatmap_spec *sp = h->sp;
	const struct table *t = &h->t;
	const int *col = h->col;

	for (guint i = 0; i < t->nrows; i++) {
		int xi = category_index(h->xs, table_cell(t, i, col[0]));
		int yi = category_index(h->ys, table_cell(t, i, col[1]));
		int bi = col[3] >= 0 ? category_index(h->bs, table_cell(t, i, col[3])) : 0;
		gsize k = ((gsize)bi * h->ys->len + (gsize)yi) * h->xs->len + (gsize)xi;
		struct cell *c = &h->cells[k];
		const char *zv = table_cell(t, i, col[2]);
		char *end;
		double z;

		if (c->row >= 0 && sp->agg == PLOT_AGG_NONE) {
			duplicate_error(h, c->row, i, err);
			return false;
		}
		if (c->row < 0)
			c->row = (int)i;
		if (!*zv || strcmp(zv, "null") == 0 || strcmp(zv, "-") == 0 ||
		    g_ascii_strcasecmp(zv, "nan") == 0)
			continue;
		z = g_ascii_strtod(zv, &end);   /* zv is stripped (table_strip()) */
		if (*end) {
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
				    "%s: line %zu: %s: found \"%s\", expected a number (a heat map "
				    "needs a numeric metric)", sp->results, t->tr->line[i], sp->z, zv);
			return false;
		}
		c->min = c->n ? fmin(c->min, z) : z;
		c->max = c->n ? fmax(c->max, z) : z;
		c->sum += z;
		c->n++;
	}
	return true;
}

/* The value of each cell (--agg) and the colour scale shared by every map. */
static void cell_values(struct heat *h)
{
	h->zmin = INFINITY;
	h->zmax = -INFINITY;
	for (gsize k = 0; k < h->n_cells; k++) {
		struct cell *c = &h->cells[k];

		if (!c->n)
			continue;
		c->z = h->sp->agg == PLOT_AGG_MEAN ? c->sum / c->n : h->sp->agg == PLOT_AGG_MIN ? c->min :
		       h->sp->agg == PLOT_AGG_MAX ? c->max : c->sum;   /* none: one row */
		h->zmin = fmin(h->zmin, c->z);
		h->zmax = fmax(h->zmax, c->z);
	}
	if (!isfinite(h->zmin)) {
		h->zmin = 0;
		h->zmax = 1;
	} else if (h->zmax <= h->zmin) {
		h->zmax = h->zmin + (h->zmin != 0 ? fabs(h->zmin) * 0.1 : 1);
	}
}

/* NAME-heatmap.dat: one block per map, columns ix, iy, z (NaN missing), label. */
static bool write_data(const struct heat *h, const char *path, GError **err)
{
	const struct plot_heatmap_spec *sp = h->sp;
	g_autoptr(GString) dat = g_string_new(NULL);
	g_autofree char *z = gp_dat_field(sp->z), *x = gp_dat_field(sp->x);
	g_autofree char *y = gp_dat_field(sp->y), *results = gp_dat_field(sp->results);

	g_string_append_printf(dat, "# chargesim heat map of %s over %s and %s from %s\n# ix,iy,z,label\n",
			       z, x, y, results);
	for (guint bi = 0; bi < h->bs->len; bi++) {
		g_autofree char *map = gp_dat_field((const char *)g_ptr_array_index(h->bs, bi));

		if (bi)
			g_string_append(dat, "\n\n");
		g_string_append_printf(dat, "# map %u: %s\n", bi, map);
		for (guint yi = 0; yi < h->ys->len; yi++)
			for (guint xi = 0; xi < h->xs->len; xi++) {
				gsize k = ((gsize)bi * h->ys->len + yi) * h->xs->len + xi;
				const struct cell *c = &h->cells[k];

				if (c->n) {
					g_string_append_printf(dat, "%u,%u,", xi, yi);
					gp_num(dat, c->z);
					g_string_append_printf(dat, ",%.4g\n", c->z);
				} else {
					g_string_append_printf(dat, "%u,%u,NaN,%s\n", xi, yi,
							       c->row >= 0 ? "n/a" : "no run");
				}
			}
	}
	return cs_outfile_write_all(path, dat->str, dat->len, err);
}

/* NAME.gp from plots/templates/heatmap.gp: up to three maps a row. */
static char *script_text(const struct heat *h, const char *base_name)
{
	static const char *const agg_names[] = { "", "mean of ", "min of ", "max of " };
	const struct plot_heatmap_spec *sp = h->sp;
	g_autoptr(GPtrArray) v = gp_vars_new();
	g_autofree char *title = sp->title ? g_strdup(sp->title) :
		g_strdup_printf("%s%s over %s and %s (%s)", agg_names[sp->agg], sp->z, sp->x, sp->y,
				sp->results);
	g_autofree char *xtics = category_tics(h->xs);
	g_autofree char *ytics = category_tics(h->ys);
	g_autofree char *by = sp->by ? g_strdup_printf(", one map per %s", sp->by) : g_strdup("");
	int nmaps = (int)h->bs->len, ncols = MIN(nmaps, 3);
	int pw = (int)CLAMP(60 * h->xs->len + 40, 300, 520);
	int ph = (int)CLAMP(44 * h->ys->len + 40, 220, 480);
	GString *maps = g_string_new(NULL), *s = g_string_new(NULL);

	for (int bi = 0; bi < nmaps; bi++) {
		g_autofree char *name = sp->by ? g_strdup_printf("%s = %s", sp->by,
					(const char *)g_ptr_array_index(h->bs, bi)) : g_strdup("");

		g_string_append(maps, bi ? ", " : "");
		gp_quote(maps, name);
	}
	gp_set_escaped(v, "BASE", base_name);
	gp_set_escaped(v, "X", sp->x);
	gp_set_escaped(v, "Y", sp->y);
	gp_set_escaped(v, "Z", sp->z);
	gp_set_escaped(v, "BY", by);
	gp_set_escaped(v, "RESULTS", sp->results);
	gp_set(v, "FORMATS", gp_formats(sp->png, sp->svg));
	gp_setf(v, "W", "%d", 110 + ncols * (pw + 120) + 60);
	gp_setf(v, "H", "%d", 70 + (nmaps + ncols - 1) / ncols * (ph + 80));
	gp_setf(v, "NMAPS", "%d", nmaps);
	gp_setf(v, "NCOLS", "%d", ncols);
	gp_set(v, "MAPSQ", maps->str);
	gp_set_quoted(v, "TITLEQ", title);
	gp_set_quoted(v, "ZQ", sp->z);
	gp_set_num(v, "ZMIN", h->zmin);
	gp_set_num(v, "ZMAX", h->zmax);
	gp_setf(v, "PW", "%d", pw);
	gp_setf(v, "PH", "%d", ph);
	gp_set_block(v, "TERMINAL", plot_tpl_terminal_select, NULL);
	gp_setf(v, "XLAST", "%u", h->xs->len - 1);
	gp_setf(v, "YLAST", "%u", h->ys->len - 1);
	gp_set(v, "XTICS", xtics);
	gp_set(v, "YTICS", ytics);
	gp_set_quoted(v, "XQ", sp->x);
	gp_set_quoted(v, "YQ", sp->y);
	gp_expand(s, plot_tpl_heatmap_script, v);
	g_string_free(maps, TRUE);
	return g_string_free(s, FALSE);
}

static void heat_clear(struct heat *h)
{
	g_clear_pointer(&h->xs, g_ptr_array_unref);
	g_clear_pointer(&h->ys, g_ptr_array_unref);
	g_clear_pointer(&h->bs, g_ptr_array_unref);
	g_free(h->cells);
	g_strfreev(h->t.names);
	cs_csv_trace_free(h->t.tr);
}

bool plot_heatmap(const struct plot_heatmap_spec *sp, GError **err)
{
	struct heat h = { .sp = sp, .t = { .path = sp->results } };
	g_autofree char *base_path = gp_strip_ext(sp->script);
	g_autofree char *base_name = g_path_get_basename(base_path);
	g_autofree char *dat_path = g_strdup_printf("%s-heatmap.dat", base_path);
	g_autofree char *text = NULL;
	bool ok = false;

	if (!gp_check_file_name(base_name, err) || !plot_check_inputs(sp->script, &sp->results, 1, err) ||
	    !read_table(&h.t, err) || !find_columns(&h, err))
		goto out;
	if (!h.t.nrows) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: no data rows", sp->results);
		goto out;
	}
	heat_categories(&h);
	if (!fill_cells(&h, err))
		goto out;
	cell_values(&h);
	if (!write_data(&h, dat_path, err))
		goto out;
	text = script_text(&h, base_name);
	if (!cs_outfile_write_all(sp->script, text, strlen(text), err))
		goto out;
	ok = !sp->render || gp_run(sp->script, sp->png, sp->svg, err);
out:
	heat_clear(&h);
	return ok;
}
