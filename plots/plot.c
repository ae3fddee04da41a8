// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/plot.c - plots of traces and sweep results, drawn by gnuplot (see plot.h).
 *
 * The work is in three steps. Scan: each trace is read once (libcsv, streamed) for
 * the ranges of its series, the segments of its state columns and the intervals
 * where VBUS sags below 4.75 V; its events.jsonl for the events worth a marker, the
 * detected port type and the boot stages; its metrics.json for the title. Lay out:
 * the time unit, the panels' pixel geometry, the zoom window (docs/plots.md gives the
 * rule) and which event markers get a line and a label at each scale (markers closer
 * than a pixel or two are thinned, labels are stacked on three levels and merged as
 * "label xN" where they would collide). Write: NAME-events.dat, NAME-states.dat and
 * NAME.gp, then run gnuplot on the script in its own directory.
 *
 * The script reads the traces by column name, keeps every choice in a named
 * variable near its top, and renders every format in FORMATS; the command line
 * passes OUTBASE so that the images are written under temporary names and renamed
 * into place only when gnuplot succeeded.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cJSON.h>
#include <csv.h>
#include <glib/gstdio.h>
#include "plots/plot.h"
#include "sim/outfile.h"

G_DEFINE_QUARK(cs-plot-error-quark, cs_plot_error)

/* ---- small helpers ---- */

/* The standard trace columns the stacked plot draws (INTERFACE.md), and the extras
 * it draws when present. */
static const char *const plot_required_columns[] = {
	"time_s", "vsrc_V", "vbus_V", "ibus_A", "ilim_A", "vbat_V", "soc",
	"charger_state", "source_state", NULL,
};

enum {
	COL_TIME, COL_VSRC, COL_VBUS, COL_IBUS, COL_ILIM, COL_VBAT, COL_SOC, COL_CHG,
	COL_SRC, COL_SRC_ILIM, COL_COUNT
};

static const char *const plot_column_names[COL_COUNT] = {
	"time_s", "vsrc_V", "vbus_V", "ibus_A", "ilim_A", "vbat_V", "soc", "charger_state",
	"source_state", "src_ilim_A",
};

/* Colours: Okabe-Ito for runs (distinguishable with the common colour-vision
 * deficiencies); event kinds and states use fixed colours so that plots compare. */
static const char *const run_colours[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
};
#define N_RUN_COLOURS ((int)G_N_ELEMENTS(run_colours))

/* The USB 2.0 minimum VBUS at the device. */
#define VBUS_MIN_USB 4.75

/* Geometry, in pixels. */
#define PX_W 1280
#define PX_LEFT_MIN 92
#define PX_RIGHT_MIN 330       /* from the right border of the panels to the canvas edge */
#define PX_KEY_OFFSET 80       /* from the right border of the panels to the keys */
#define PX_KEY_CHAR 6.9        /* width of a character in the keys (font size 9) */
#define PX_TITLE_CHAR 6.7      /* width of a character in the title lines (font size 9) */
#define PX_PANEL_A 230
#define PX_PANEL_B 190
#define PX_PANEL_C 170
#define PX_PANEL_GAP 8
#define PX_BAND_ROW 16
#define PX_XAXIS 48            /* tick labels and the axis label below the band */
#define PX_ZOOM_GAP 40
#define PX_ZOOM 240
#define PX_TITLE_LINE 17
#define PX_CHAR 6.3            /* width of a character at font size 8 (label layout) */
#define LABEL_LEVELS 4
#define DENSE_LABELS 12        /* more events of a kind in a run and view: one label */
#define BAND_STRIP 3.75        /* event label strip above the state rows, in rows */

/* Quote a string for gnuplot: single quotes, '' for a quote. */
static void gp_quote(GString *s, const char *text)
{
	g_string_append_c(s, '\'');
	for (const char *c = text; *c; c++) {
		if (*c == '\'')
			g_string_append(s, "''");
		else if (*c == '\n')
			g_string_append_c(s, ' ');
		else
			g_string_append_c(s, *c);
	}
	g_string_append_c(s, '\'');
}

/* A field for the comma-separated data files: no commas, no line breaks. */
static char *dat_field(const char *text)
{
	char *s = g_strdup(text && *text ? text : "-");

	for (char *c = s; *c; c++)
		if (*c == ',' || *c == '\n' || *c == '\r' || *c == '#')
			*c = ';';
	return s;
}

static unsigned rgb_of(const char *hex)
{
	return (unsigned)strtoul(hex + 1, NULL, 16);
}

/* The path of `file` relative to directory `dir` (both made absolute first). */
static char *relative_path(const char *dir, const char *file)
{
	g_autofree char *d = g_canonicalize_filename(dir, NULL);
	g_autofree char *f = g_canonicalize_filename(file, NULL);
	g_auto(GStrv) dp = g_strsplit(d, G_DIR_SEPARATOR_S, -1);
	g_auto(GStrv) fp = g_strsplit(f, G_DIR_SEPARATOR_S, -1);
	GString *r = g_string_new(NULL);
	int i = 0, nd = (int)g_strv_length(dp), nf = (int)g_strv_length(fp);

	while (i < nd && i < nf - 1 && strcmp(dp[i], fp[i]) == 0)
		i++;
	for (int k = i; k < nd; k++)
		if (*dp[k])
			g_string_append(r, "../");
	for (int k = i; k < nf; k++) {
		g_string_append(r, fp[k]);
		if (k < nf - 1)
			g_string_append_c(r, '/');
	}
	return g_string_free(r, FALSE);
}

/* "DIR/NAME.gp" -> "DIR/NAME" */
static char *strip_gp(const char *script)
{
	if (g_str_has_suffix(script, ".gp"))
		return g_strndup(script, strlen(script) - 3);
	return g_strdup(script);
}

/* A number written for gnuplot (always with a point, never "nan"). */
static void gp_num(GString *s, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(v)) {
		g_string_append(s, "NaN");
		return;
	}
	g_ascii_formatd(buf, sizeof(buf), "%.10g", v);
	g_string_append(s, buf);
}

static void gp_printf_num(GString *s, const char *before, double v, const char *after)
{
	g_string_append(s, before);
	gp_num(s, v);
	g_string_append(s, after);
}

/* The script's FORMATS: "png", "svg" or "png svg". */
static const char *formats_of(bool png, bool svg)
{
	return png && svg ? "png svg" : png ? "png" : svg ? "svg" : "";
}

/* Screen fraction of a pixel position (x from the left, y from the bottom). */
static double frac(double px, double total)
{
	return floor(px / total * 1e5 + 0.5) / 1e5;
}

/* ---- CSV reading (libcsv, streamed) ---- */

struct csv_read {
	GPtrArray *fields;          /* of char *, the row being parsed */
	long row;                   /* 1-based, the header is row 1 */
	bool (*row_cb)(void *data, char **fields, int n, long row, GError **err);
	void *data;
	GError *error;              /* set by a row callback: stop */
};

static void csv_field_cb(void *s, size_t len, void *data)
{
	struct csv_read *r = data;

	g_ptr_array_add(r->fields, g_strndup(s ? s : "", s ? len : 0));
}

static void csv_row_cb(int c, void *data)
{
	struct csv_read *r = data;

	(void)c;
	r->row++;
	if (!r->error && r->fields->len)
		r->row_cb(r->data, (char **)r->fields->pdata, (int)r->fields->len, r->row,
			  &r->error);
	g_ptr_array_set_size(r->fields, 0);
}

/* Read a CSV file row by row; the callback returns false (with err) to stop. */
static bool csv_read_file(const char *path,
			  bool (*row_cb)(void *data, char **fields, int n, long row, GError **err),
			  void *data, GError **err)
{
	struct csv_parser p;
	struct csv_read r = { .row_cb = row_cb, .data = data };
	char buf[65536];
	FILE *fp;
	size_t n;
	bool ok = true;

	fp = fopen(path, "rb");
	if (!fp) {
		int e = errno;

		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: cannot read: %s", path,
			    g_strerror(e));
		return false;
	}
	if (csv_init(&p, CSV_APPEND_NULL) != 0) {
		fclose(fp);
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_IO, "%s: out of memory", path);
		return false;
	}
	r.fields = g_ptr_array_new_with_free_func(g_free);
	while (!r.error && (n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		if (csv_parse(&p, buf, n, csv_field_cb, csv_row_cb, &r) != n) {
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: %s", path,
				    csv_strerror(csv_error(&p)));
			ok = false;
			break;
		}
	}
	if (ok && !r.error && ferror(fp)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: read error", path);
		ok = false;
	}
	if (ok)
		csv_fini(&p, csv_field_cb, csv_row_cb, &r);
	if (ok && r.error) {
		g_propagate_error(err, r.error);
		r.error = NULL;
		ok = false;
	}
	g_clear_error(&r.error);
	csv_free(&p);
	g_ptr_array_free(r.fields, TRUE);
	fclose(fp);
	return ok;
}

static bool parse_double(const char *s, double *v)
{
	char *end;

	while (g_ascii_isspace(*s))
		s++;
	if (!*s)
		return false;
	*v = g_ascii_strtod(s, &end);
	while (g_ascii_isspace(*end))
		end++;
	return *end == '\0' && end != s;
}

/* ---- the scan of one run ---- */

enum band_kind { BAND_CHARGER, BAND_SOURCE, BAND_DETECTED, BAND_PSY, BAND_BOOT, BAND_COUNT };
static const char *const band_names[BAND_COUNT] = {
	"charger", "source", "detected", "psy type", "boot",
};

struct seg {
	double t0, t1;
	char *state;
};

struct band {
	GArray *segs;       /* struct seg */
	char *cur;          /* the open segment's state */
	double cur_t0;
};

/* Marker groups: one colour and one key entry each. */
enum mark_group {
	MG_ATTACH, MG_DETECT, MG_DRAW, MG_TRIP, MG_UVLO, MG_BROWNOUT, MG_BOOT, MG_FAULT,
	MG_SCENARIO, MG_SUSPEND, MG_COUNT
};

static const struct {
	const char *key;
	const char *rgb;
} mark_groups[MG_COUNT] = {
	[MG_ATTACH] = { "attach/detach", "#7f7f7f" },
	[MG_DETECT] = { "detect", "#0072b2" },
	[MG_DRAW] = { "enumerate/vbus_draw", "#009e73" },
	[MG_TRIP] = { "source_trip", "#d62728" },
	[MG_UVLO] = { "uvlo", "#e7298a" },
	[MG_BROWNOUT] = { "brownout", "#8c564b" },
	[MG_BOOT] = { "boot_state", "#9467bd" },
	[MG_FAULT] = { "charger_fault", "#000000" },
	[MG_SCENARIO] = { "scenario set/fault", "#ff7f0e" },
	[MG_SUSPEND] = { "suspend/resume", "#17becf" },
};

struct mark {
	double t;
	int run;
	int group;               /* enum mark_group */
	char *label;
	int seq;                 /* order in the file (stable sort) */
	/* layout, per view (0 main, 1 zoom) */
	int line[2];             /* 0 none, 1 a line across every panel, 2 in the band only */
	int level[2];            /* -1: no label */
	int count[2];            /* events merged under the label */
	bool shared[2];          /* the same label of another run at the same place */
	bool dense[2];           /* the one label of a frequent kind: "KIND xN" */
};

struct sag {
	double t0, t1;
	int run;
};

struct run {
	char *trace;
	char *label;
	char *events;
	char *metrics;
	char *trace_rel;
	bool header_seen;
	bool has_src_ilim;
	int col[COL_COUNT];
	long rows;
	double t_min, t_max;
	double vbus_min_on, v_max, ibus_min, ibus_max, ilim_max, src_ilim_max;
	double vbat_min, vbat_max, soc_min, soc_max;
	struct band band[BAND_COUNT];
	bool sag_open;
	double sag_t0;
	double last_t;
	cJSON *metrics_json;
};

struct plot {
	const struct plot_spec *spec;
	int n;
	struct run *runs;
	GArray *marks;           /* struct mark, all runs */
	GArray *sags;            /* struct sag, all runs */
	GArray *ilim_sets;       /* struct sag (t0 only), all runs */
	GArray *attaches;        /* struct sag (t0 only) */
	bool band_used[BAND_COUNT];
	/* layout */
	double t_min, t_max;
	double tu;               /* seconds per unit of the time axis */
	const char *tunit;
	bool zoom;
	double z0, z1, zu;
	const char *zunit;
	char *zoom_reason;
	double vlo, vhi, ilo, ihi, blo, bhi, slo, shi;
	int n_rows;              /* state band rows */
	bool index_names;        /* band rows named "run i" (long labels) */
	double px_left, px_h;
	double px_right;         /* from the panels' right border to the canvas edge */
	double px_title, px_band, px_zoom;
	GPtrArray *sub_lines;    /* title lines under the title: the runs' metrics */
	GArray *sub_runs;        /* int: the run of each line */
};

static void band_switch(struct band *b, double t, const char *state)
{
	if (b->cur && state && strcmp(b->cur, state) == 0)
		return;
	if (b->cur && t > b->cur_t0) {
		struct seg s = { b->cur_t0, t, b->cur };

		g_array_append_val(b->segs, s);
		b->cur = NULL;
	}
	g_free(b->cur);
	b->cur = state ? g_strdup(state) : NULL;
	b->cur_t0 = t;
}

static void band_close(struct band *b, double t)
{
	band_switch(b, t, NULL);
}

static void run_free(struct run *r)
{
	g_free(r->trace);
	g_free(r->label);
	g_free(r->events);
	g_free(r->metrics);
	g_free(r->trace_rel);
	for (int k = 0; k < BAND_COUNT; k++) {
		if (!r->band[k].segs)
			continue;
		for (guint i = 0; i < r->band[k].segs->len; i++)
			g_free(g_array_index(r->band[k].segs, struct seg, i).state);
		g_array_free(r->band[k].segs, TRUE);
		g_free(r->band[k].cur);
	}
	if (r->metrics_json)
		cJSON_Delete(r->metrics_json);
}

/* The header: find the columns; every missing required one is named. */
static bool trace_header(struct run *r, char **fields, int n, GError **err)
{
	GString *missing = g_string_new(NULL);
	int n_missing = 0;

	for (int c = 0; c < COL_COUNT; c++)
		r->col[c] = -1;
	for (int i = 0; i < n; i++) {
		g_strstrip(fields[i]);
		for (int c = 0; c < COL_COUNT; c++)
			if (r->col[c] < 0 && strcmp(fields[i], plot_column_names[c]) == 0)
				r->col[c] = i;
	}
	for (int c = 0; plot_required_columns[c]; c++)
		if (r->col[c] < 0) {
			g_string_append_printf(missing, "%s%s", n_missing ? ", " : "",
					       plot_required_columns[c]);
			n_missing++;
		}
	r->has_src_ilim = r->col[COL_SRC_ILIM] >= 0;
	r->header_seen = true;
	if (n_missing) {
		GString *found_s = g_string_new(NULL);
		g_autofree char *found = NULL;
		g_autofree char *want = g_strjoinv(",", (char **)plot_required_columns);

		for (int i = 0; i < n; i++)
			g_string_append_printf(found_s, "%s%s", i ? "," : "", fields[i]);
		found = g_string_free(found_s, FALSE);

		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: not a chargesim trace: missing column%s %s (its header is \"%.200s\"; "
			    "a trace needs at least %s, in any order)",
			    r->trace, n_missing > 1 ? "s" : "", missing->str, found, want);
		g_string_free(missing, TRUE);
		return false;
	}
	g_string_free(missing, TRUE);
	return true;
}

static double field_num(char **fields, int n, int col)
{
	double v;

	if (col < 0 || col >= n || !parse_double(fields[col], &v))
		return NAN;
	return v;
}

#define UPDATE_MIN(a, v) do { if (isfinite(v) && (v) < (a)) (a) = (v); } while (0)
#define UPDATE_MAX(a, v) do { if (isfinite(v) && (v) > (a)) (a) = (v); } while (0)

static bool trace_row_cb(void *data, char **fields, int n, long row, GError **err)
{
	struct run *r = data;
	double t, vbus, vsrc;
	const char *src_state, *chg_state;
	bool on;

	if (row == 1)
		return trace_header(r, fields, n, err);
	if (n == 1 && !*g_strstrip(fields[0]))
		return true;
	t = field_num(fields, n, r->col[COL_TIME]);
	if (!isfinite(t)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: row %ld: time_s: found \"%s\", expected a number of seconds", r->trace,
			    row, r->col[COL_TIME] < n ? fields[r->col[COL_TIME]] : "");
		return false;
	}
	if (r->rows && t < r->last_t) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: row %ld: time_s goes backwards (%g s after %g s)", r->trace, row, t,
			    r->last_t);
		return false;
	}
	r->last_t = t;
	if (!r->rows)
		r->t_min = t;
	r->t_max = t;
	r->rows++;
	vbus = field_num(fields, n, r->col[COL_VBUS]);
	vsrc = field_num(fields, n, r->col[COL_VSRC]);
	if (vbus > 1.0)
		UPDATE_MIN(r->vbus_min_on, vbus);
	UPDATE_MAX(r->v_max, vbus);
	UPDATE_MAX(r->v_max, vsrc);
	UPDATE_MIN(r->ibus_min, field_num(fields, n, r->col[COL_IBUS]));
	UPDATE_MAX(r->ibus_max, field_num(fields, n, r->col[COL_IBUS]));
	UPDATE_MAX(r->ilim_max, field_num(fields, n, r->col[COL_ILIM]));
	UPDATE_MAX(r->src_ilim_max, field_num(fields, n, r->col[COL_SRC_ILIM]));
	UPDATE_MIN(r->vbat_min, field_num(fields, n, r->col[COL_VBAT]));
	UPDATE_MAX(r->vbat_max, field_num(fields, n, r->col[COL_VBAT]));
	UPDATE_MIN(r->soc_min, field_num(fields, n, r->col[COL_SOC]));
	UPDATE_MAX(r->soc_max, field_num(fields, n, r->col[COL_SOC]));
	chg_state = r->col[COL_CHG] < n ? g_strstrip(fields[r->col[COL_CHG]]) : "";
	src_state = r->col[COL_SRC] < n ? g_strstrip(fields[r->col[COL_SRC]]) : "";
	band_switch(&r->band[BAND_CHARGER], t, *chg_state ? chg_state : "-");
	band_switch(&r->band[BAND_SOURCE], t, *src_state ? src_state : "-");

	/* VBUS below 4.75 V while the source is on (not detached, not tripped) */
	on = strcmp(src_state, "on") == 0 || strcmp(src_state, "limiting") == 0;
	if (!r->sag_open && on && isfinite(vbus) && vbus < VBUS_MIN_USB) {
		r->sag_open = true;
		r->sag_t0 = t;
	}
	return true;
}

/* A second look at each row for the end of a sag needs the run's sag list, kept by
 * the plot: the row callback above opens sags, this wrapper closes them. */
struct trace_scan {
	struct plot *pl;
	int run;
};

static bool trace_scan_cb(void *data, char **fields, int n, long row, GError **err)
{
	struct trace_scan *ts = data;
	struct run *r = &ts->pl->runs[ts->run];
	bool was_open = r->sag_open;

	if (!trace_row_cb(r, fields, n, row, err))
		return false;
	if (row > 1 && was_open && r->sag_open) {
		double vbus = field_num(fields, n, r->col[COL_VBUS]);
		const char *src = r->col[COL_SRC] < n ? fields[r->col[COL_SRC]] : "";
		bool on = strcmp(src, "on") == 0 || strcmp(src, "limiting") == 0;

		if (!on || !isfinite(vbus) || vbus >= VBUS_MIN_USB) {
			struct sag s = { r->sag_t0, r->last_t, ts->run };

			g_array_append_val(ts->pl->sags, s);
			r->sag_open = false;
		}
	}
	return true;
}

bool plot_check_trace(const char *path, GError **err)
{
	struct run r = { .trace = (char *)path };
	FILE *fp = fopen(path, "rb");
	char line[8192];
	struct csv_parser p;
	struct csv_read rd = { 0 };
	bool ok;

	if (!fp) {
		int e = errno;

		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: cannot read: %s", path,
			    g_strerror(e));
		return false;
	}
	if (!fgets(line, sizeof(line), fp)) {
		fclose(fp);
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: empty file, expected a CSV header row such as time_s,vsrc_V,vbus_V,...",
			    path);
		return false;
	}
	fclose(fp);
	csv_init(&p, CSV_APPEND_NULL);
	rd.fields = g_ptr_array_new_with_free_func(g_free);
	csv_parse(&p, line, strlen(line), csv_field_cb, NULL, &rd);
	csv_fini(&p, csv_field_cb, NULL, &rd);
	csv_free(&p);
	ok = trace_header(&r, (char **)rd.fields->pdata, (int)rd.fields->len, err);
	g_ptr_array_free(rd.fields, TRUE);
	return ok;
}

/* ---- events.jsonl ---- */

static const char *json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double json_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void add_mark(struct plot *pl, int run, double t, int group, char *label)
{
	struct mark m = { .t = t, .run = run, .group = group, .label = label,
			  .seq = (int)pl->marks->len };

	g_array_append_val(pl->marks, m);
}

static void add_time(GArray *a, int run, double t)
{
	struct sag s = { t, t, run };

	g_array_append_val(a, s);
}

/* One event record: a marker, a band segment, a zoom hint, or nothing. */
static void event_record(struct plot *pl, int ri, const cJSON *rec)
{
	struct run *r = &pl->runs[ri];
	const char *ev = json_str(rec, "ev");
	double t = json_num(rec, "t");
	const char *s;
	double v;

	if (!ev || !isfinite(t))
		return;
	if (strcmp(ev, "attach") == 0) {
		add_mark(pl, ri, t, MG_ATTACH, g_strdup("attach"));
		add_time(pl->attaches, ri, t);
	} else if (strcmp(ev, "detach") == 0) {
		add_mark(pl, ri, t, MG_ATTACH, g_strdup("detach"));
		band_switch(&r->band[BAND_DETECTED], t, NULL);
		band_switch(&r->band[BAND_PSY], t, NULL);
	} else if (strcmp(ev, "detect") == 0) {
		g_autofree char *port = g_ascii_strup((s = json_str(rec, "port")) ? s : "?", -1);

		add_mark(pl, ri, t, MG_DETECT, g_strdup_printf("detect %s", port));
		band_switch(&r->band[BAND_DETECTED], t, port);
		pl->band_used[BAND_DETECTED] = true;
	} else if (strcmp(ev, "vbus_draw") == 0) {
		v = json_num(rec, "mA");
		add_mark(pl, ri, t, MG_DRAW, g_strdup_printf("vbus_draw %g mA", v));
	} else if (strcmp(ev, "enumerate") == 0) {
		v = json_num(rec, "MaxPower_mA");
		add_mark(pl, ri, t, MG_DRAW, isfinite(v) ? g_strdup_printf("enumerated %g mA", v) :
					     g_strdup("enumerate: no config"));
	} else if (strcmp(ev, "source_trip") == 0) {
		add_mark(pl, ri, t, MG_TRIP, g_strdup("trip"));
	} else if (strcmp(ev, "uvlo") == 0) {
		add_mark(pl, ri, t, MG_UVLO, g_strdup("UVLO"));
	} else if (strcmp(ev, "brownout") == 0) {
		add_mark(pl, ri, t, MG_BROWNOUT, g_strdup("brownout"));
	} else if (strcmp(ev, "boot_state") == 0) {
		s = json_str(rec, "state");
		add_mark(pl, ri, t, MG_BOOT, g_strdup_printf("boot: %s", s ? s : "?"));
		band_switch(&r->band[BAND_BOOT], t, s ? s : "?");
		pl->band_used[BAND_BOOT] = true;
	} else if (strcmp(ev, "charger_fault") == 0) {
		s = json_str(rec, "reason");
		add_mark(pl, ri, t, MG_FAULT, g_strdup_printf("fault: %s", s ? s : "?"));
	} else if (strcmp(ev, "set") == 0) {
		const cJSON *val = cJSON_GetObjectItemCaseSensitive(rec, "value");
		g_autofree char *vs = val ? (cJSON_IsString(val) ? g_strdup(val->valuestring) :
					     cJSON_PrintUnformatted(val)) : g_strdup("?");

		s = json_str(rec, "path");
		if (s && g_str_has_prefix(s, "device."))
			s += strlen("device.");
		add_mark(pl, ri, t, MG_SCENARIO, g_strdup_printf("set %s=%s", s ? s : "?", vs));
	} else if (strcmp(ev, "dropout") == 0) {
		v = json_num(rec, "for_s");
		add_mark(pl, ri, t, MG_SCENARIO, isfinite(v) ?
			 g_strdup_printf("dropout %g ms", v * 1e3) : g_strdup("dropout"));
	} else if (strcmp(ev, "adc_stuck") == 0) {
		add_mark(pl, ri, t, MG_SCENARIO, g_strdup("ADC stuck"));
	} else if (strcmp(ev, "suspend") == 0 || strcmp(ev, "resume") == 0) {
		add_mark(pl, ri, t, MG_SUSPEND, g_strdup(ev));
	} else if (strcmp(ev, "ilim_set") == 0) {
		add_time(pl->ilim_sets, ri, t);
	} else if (strcmp(ev, "uevent") == 0) {
		const cJSON *env = cJSON_GetObjectItemCaseSensitive(rec, "env"), *e;

		cJSON_ArrayForEach(e, env) {
			if (!cJSON_IsString(e) || !g_str_has_prefix(e->valuestring, "POWER_SUPPLY_TYPE="))
				continue;
			s = e->valuestring + strlen("POWER_SUPPLY_TYPE=");
			if (strcmp(s, "Battery") != 0) {
				band_switch(&r->band[BAND_PSY], t, s);
			}
		}
	}
}

static bool read_events(struct plot *pl, int ri, GError **err)
{
	struct run *r = &pl->runs[ri];
	FILE *fp = fopen(r->events, "r");
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;

	if (!fp) {
		int e = errno;

		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: cannot read: %s", r->events,
			    g_strerror(e));
		return false;
	}
	while (getline(&line, &cap, fp) > 0) {
		cJSON *rec;

		lineno++;
		if (!*g_strstrip(line))
			continue;
		rec = cJSON_Parse(line);
		if (!rec || !cJSON_IsObject(rec)) {
			cJSON_Delete(rec);
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
				    "%s:%ld: found \"%.40s\", expected one JSON object per line",
				    r->events, lineno, line);
			free(line);
			fclose(fp);
			return false;
		}
		event_record(pl, ri, rec);
		cJSON_Delete(rec);
	}
	free(line);
	fclose(fp);
	return true;
}

static bool read_metrics(struct run *r, GError **err)
{
	g_autofree char *text = NULL;
	gsize len;
	g_autoptr(GError) e = NULL;

	if (!g_file_get_contents(r->metrics, &text, &len, &e)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: cannot read: %s",
			    r->metrics, e->message);
		return false;
	}
	r->metrics_json = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsObject(r->metrics_json)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: found something else, expected a JSON object of metrics", r->metrics);
		return false;
	}
	return true;
}

static char *default_label(const char *trace)
{
	g_autofree char *base = g_path_get_basename(trace);

	if (strcmp(base, "trace.csv") == 0) {
		g_autofree char *dir = g_path_get_dirname(trace);
		g_autofree char *canon = g_canonicalize_filename(dir, NULL);

		return g_path_get_basename(canon);
	}
	if (g_str_has_suffix(base, ".csv"))
		base[strlen(base) - 4] = '\0';
	return g_strdup(base);
}

static bool scan_run(struct plot *pl, int ri, const struct plot_trace *in, GError **err)
{
	struct run *r = &pl->runs[ri];
	struct trace_scan ts = { pl, ri };

	r->trace = g_strdup(in->trace);
	r->label = in->label ? g_strdup(in->label) : default_label(in->trace);
	r->events = in->events ? g_strdup(in->events) : NULL;
	r->metrics = in->metrics ? g_strdup(in->metrics) : NULL;
	r->vbus_min_on = r->vbat_min = r->soc_min = r->ibus_min = INFINITY;
	r->v_max = r->ibus_max = r->ilim_max = r->src_ilim_max = r->vbat_max = r->soc_max = -INFINITY;
	for (int k = 0; k < BAND_COUNT; k++)
		r->band[k].segs = g_array_new(FALSE, FALSE, sizeof(struct seg));
	if (!csv_read_file(r->trace, trace_scan_cb, &ts, err))
		return false;
	if (!r->rows) {
		if (!r->header_seen)
			return plot_check_trace(r->trace, err);
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: the header is fine but there are no data rows", r->trace);
		return false;
	}
	if (r->sag_open) {
		struct sag s = { r->sag_t0, r->t_max, ri };

		g_array_append_val(pl->sags, s);
	}
	if (r->events && !read_events(pl, ri, err))
		return false;
	if (r->metrics && !read_metrics(r, err))
		return false;
	for (int k = 0; k < BAND_COUNT; k++)
		band_close(&r->band[k], r->t_max);
	return true;
}

/* ---- layout ---- */

/* Does the power supply's type ever disagree with the detected port (USB_DCP for
 * DCP, USB for SDP, ...)? Only then is the "psy type" row worth its space. */
static bool psy_disagrees(const struct run *r)
{
	const GArray *psy = r->band[BAND_PSY].segs, *det = r->band[BAND_DETECTED].segs;

	for (guint i = 0; i < psy->len; i++) {
		const struct seg *p = &g_array_index(psy, struct seg, i);
		double mid = (p->t0 + p->t1) / 2;

		for (guint k = 0; k < det->len; k++) {
			const struct seg *d = &g_array_index(det, struct seg, k);
			g_autofree char *want = NULL;

			if (mid < d->t0 || mid >= d->t1 || strcmp(d->state, "NONE") == 0)
				continue;
			want = strcmp(d->state, "SDP") == 0 ? g_strdup("USB") :
			       g_strdup_printf("USB_%s", d->state);
			if (g_ascii_strcasecmp(want, p->state) != 0)
				return true;
		}
	}
	return false;
}

static int mark_cmp(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->run != y->run)
		return x->run - y->run;
	return x->seq - y->seq;
}

static int sag_cmp(const void *a, const void *b)
{
	const struct sag *x = a, *y = b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return x->run - y->run;
}

static void choose_unit(double span, double *unit, const char **name)
{
	if (span <= 300) {
		*unit = 1;
		*name = "s";
	} else if (span <= 3 * 3600) {
		*unit = 60;
		*name = "min";
	} else {
		*unit = 3600;
		*name = "h";
	}
}

/* The zoom window (docs/plots.md, "The zoom window"):
 *  1. the first source trip, UVLO or brownout of any run, up to the third such
 *     occurrence (events within 50 ms count once) as long as they follow each other
 *     within 30 s and stay within 60 s of the first, starting earlier where a VBUS
 *     sag below 4.75 V led up to the first (at most 120 s earlier);
 *  2. else the first VBUS sag below 4.75 V (with the source on) of any run, to its
 *     end (at most 300 s);
 *  3. else the input-limit ramp: from the first attach to the last ilim_set within
 *     300 s of it.
 * Padded by a quarter of its length before and half after (for 1: at least 2 s
 * before and 5 s after; for 2 and 3: at least 1 s in all), clipped to the runs. */
static void choose_zoom(struct plot *pl)
{
	const struct plot_spec *sp = pl->spec;
	double t1 = NAN, t2 = NAN, len;
	int occurrences = 0, rule = 1;
	GString *why = g_string_new(NULL);

	pl->zoom = false;
	if (sp->zoom == PLOT_ZOOM_NONE)
		goto out;
	if (sp->zoom == PLOT_ZOOM_RANGE) {
		t1 = sp->zoom_from_s;
		t2 = sp->zoom_to_s;
		g_string_assign(why, "as asked");
		pl->z0 = t1;
		pl->z1 = t2;
		pl->zoom = t2 > t1;
		goto unit;
	}
	for (guint i = 0; i < pl->marks->len; i++) {
		const struct mark *m = &g_array_index(pl->marks, struct mark, i);

		if (m->group != MG_TRIP && m->group != MG_UVLO && m->group != MG_BROWNOUT)
			continue;
		if (isnan(t1)) {
			t1 = t2 = m->t;
			g_string_printf(why, "first %s, %s, at %.6g s",
					m->group == MG_TRIP ? "source trip" :
					m->group == MG_UVLO ? "UVLO" : "brownout",
					pl->runs[m->run].label, m->t);
			/* a sag of that run leading up to it */
			for (guint k = 0; k < pl->sags->len; k++) {
				const struct sag *s = &g_array_index(pl->sags, struct sag, k);

				if (s->run == m->run && s->t0 < m->t && s->t1 >= m->t - 1e-3 &&
				    m->t - s->t0 <= 120)
					t1 = s->t0;
			}
		} else if (m->t - t2 <= 0.05) {
			t2 = m->t;      /* the same occurrence (a trip and its UVLO) */
		} else if (m->t - t2 <= 30 && m->t - t1 <= 60 && ++occurrences < 3) {
			t2 = m->t;
		} else {
			break;
		}
	}
	if (isnan(t1) && pl->sags->len) {
		const struct sag *s0 = &g_array_index(pl->sags, struct sag, 0);

		rule = 2;
		t1 = s0->t0;
		t2 = s0->t1;
		for (guint k = 1; k < pl->sags->len; k++) {
			const struct sag *s = &g_array_index(pl->sags, struct sag, k);

			if (s->t0 <= t1 + 60 && s->t1 > t2)
				t2 = s->t1;
		}
		if (t2 > t1 + 300)
			t2 = t1 + 300;
		g_string_printf(why, "first VBUS sag below 4.75 V, %s, at %.6g s",
				pl->runs[s0->run].label, t1);
	}
	if (isnan(t1) && pl->ilim_sets->len) {
		double ta = pl->attaches->len ? g_array_index(pl->attaches, struct sag, 0).t0 : pl->t_min;

		for (guint k = 0; k < pl->ilim_sets->len; k++) {
			double t = g_array_index(pl->ilim_sets, struct sag, k).t0;

			if (t >= ta && t <= ta + 300 && (isnan(t2) || t > t2))
				t2 = t;
		}
		if (!isnan(t2)) {
			rule = 3;
			t1 = ta;
			g_string_printf(why, "the input-limit ramp, to the last ilim_set at %.6g s", t2);
		}
	}
	if (isnan(t1))
		goto out;
	len = t2 - t1;
	if (rule == 1) {
		pl->z0 = t1 - fmax(0.25 * len, 2.0);
		pl->z1 = t2 + fmax(0.5 * len, 5.0);
	} else {
		pl->z0 = t1 - 0.25 * len;
		pl->z1 = t2 + fmax(0.5 * len, 1.0 - 0.75 * len);
	}
	{
		/* round outwards to a 20th of the window's decade */
		double q = pow(10, floor(log10(pl->z1 - pl->z0))) / 20;

		pl->z0 = fmax(pl->t_min, floor(pl->z0 / q) * q);
		pl->z1 = fmin(pl->t_max, ceil(pl->z1 / q) * q);
	}
	pl->zoom = pl->z1 > pl->z0;
unit:
	if (pl->zoom) {
		choose_unit(pl->z1 - pl->z0, &pl->zu, &pl->zunit);
		pl->zoom_reason = g_string_free(why, FALSE);
		return;
	}
out:
	g_string_free(why, TRUE);
}

static double label_px(const struct mark *m, int count)
{
	double n = (double)MAX(g_utf8_strlen(m->label, -1),
			       g_utf8_strlen(mark_groups[m->group].key, -1));

	if (count > 1)
		n += 2 + floor(log10(count)) + 1;
	return n * PX_CHAR + 6;
}

/* Which markers get a line and a label, for one view (0 main, 1 zoom). Lines: one
 * per 2 pixels per run and kind. A kind so frequent in a run that its lines would
 * hide the signals (more than one per 12 pixels on average) has its lines drawn over
 * the event strip only in the main view; such a kind, or one with more than
 * DENSE_LABELS events in the view, gets one label, on its first event, naming the
 * kind and counting them all ("uvlo x5940"). Labels: stacked on LABEL_LEVELS levels; one that
 * fits nowhere is counted into the last label of its run and kind if that is near
 * ("label xN"); the same label of another run at the same place is shared. */
static void layout_marks(struct plot *pl, int view, double t0, double t1)
{
	double px_per_s = (PX_W - pl->px_left - pl->px_right) / (t1 - t0);
	double dense_limit = (PX_W - pl->px_left - pl->px_right) / 12;
	double level_end[LABEL_LEVELS];
	int n = pl->n;
	g_autofree double *last_line = g_new(double, (gsize)(n * MG_COUNT));
	g_autofree int *last_label = g_new(int, (gsize)(n * MG_COUNT));
	g_autofree int *lines = g_new0(int, (gsize)(n * MG_COUNT));
	g_autofree int *events = g_new0(int, (gsize)(n * MG_COUNT));

	for (int i = 0; i < n * MG_COUNT; i++) {
		last_line[i] = -INFINITY;
		last_label[i] = -1;
	}
	for (int l = 0; l < LABEL_LEVELS; l++)
		level_end[l] = -INFINITY;

	/* lines, and how many per run and kind */
	for (guint i = 0; i < pl->marks->len; i++) {
		struct mark *m = &g_array_index(pl->marks, struct mark, i);
		int key = m->run * MG_COUNT + m->group;
		double px;

		m->level[view] = -1;
		m->count[view] = 0;
		m->line[view] = 0;
		m->shared[view] = false;
		m->dense[view] = false;
		if (m->t < t0 || m->t > t1)
			continue;
		events[key]++;
		px = (m->t - t0) * px_per_s;
		if (px - last_line[key] >= 2.0) {
			m->line[view] = 1;
			last_line[key] = px;
			lines[key]++;
		}
	}

	/* labels */
	for (guint i = 0; i < pl->marks->len; i++) {
		struct mark *m = &g_array_index(pl->marks, struct mark, i);
		int key = m->run * MG_COUNT + m->group;
		bool dense = lines[key] > dense_limit || events[key] > DENSE_LABELS;
		double px;
		bool dup = false;
		int l;

		if (m->t < t0 || m->t > t1)
			continue;
		if (lines[key] > dense_limit && view == 0 && m->line[view])
			m->line[view] = 2;
		if (dense && last_label[key] >= 0)
			continue;
		px = (m->t - t0) * px_per_s;
		/* the same event in another run at the same place: one label for both */
		for (guint k = i; k-- > 0 && !dup;) {
			struct mark *o = &g_array_index(pl->marks, struct mark, k);

			if ((m->t - o->t) * px_per_s > 2.0)
				break;
			if (o->run != m->run && o->level[view] >= 0 && strcmp(o->label, m->label) == 0) {
				o->shared[view] = true;
				dup = true;
			}
		}
		if (dup)
			continue;
		for (l = 0; l < LABEL_LEVELS; l++)
			if (level_end[l] + 6 <= px)
				break;
		if (l < LABEL_LEVELS) {
			m->level[view] = l;
			m->count[view] = dense ? events[key] : 1;
			m->dense[view] = dense;
			/* room for a " xNN" the label may gain below */
			level_end[l] = px + label_px(m, dense ? m->count[view] : 99);
			last_label[key] = (int)i;
		} else if (last_label[key] >= 0) {
			struct mark *lm = &g_array_index(pl->marks, struct mark, last_label[key]);
			double lpx = (lm->t - t0) * px_per_s;

			if (strcmp(lm->label, m->label) == 0 &&
			    px - lpx <= 3 * label_px(lm, lm->count[view]) + 40) {
				lm->count[view]++;
				level_end[lm->level[view]] = fmax(level_end[lm->level[view]],
								  lpx + label_px(lm, lm->count[view]));
			}
		}
	}
}

static void pad_range(double lo, double hi, double min_span, double frac_pad, double *a, double *b)
{
	double span = hi - lo, pad;

	if (!isfinite(lo) || !isfinite(hi)) {
		*a = 0;
		*b = 1;
		return;
	}
	if (span < min_span) {
		double mid = (lo + hi) / 2;

		lo = mid - min_span / 2;
		hi = mid + min_span / 2;
		span = min_span;
	}
	pad = span * frac_pad;
	*a = lo - pad;
	*b = hi + pad;
}

static char *metrics_line(const struct run *r);
static const char *run_policy(const struct run *r);

/* The lines under the title: per run, its label, policy and metrics; split at a comma
 * near the middle when too wide for the canvas. */
static void title_lines(struct plot *pl)
{
	size_t max_chars = (size_t)((PX_W - 40) / PX_TITLE_CHAR);

	pl->sub_lines = g_ptr_array_new_with_free_func(g_free);
	pl->sub_runs = g_array_new(FALSE, FALSE, sizeof(int));
	for (int i = 0; i < pl->n; i++) {
		const struct run *r = &pl->runs[i];
		g_autofree char *ml = metrics_line(r);
		const char *pol = run_policy(r);
		char *line;

		if (pol && strcmp(pol, r->label) != 0)
			line = g_strdup_printf("%s (policy %s): %s", r->label, pol,
					       ml ? ml : "no metrics.json");
		else
			line = g_strdup_printf("%s: %s", r->label, ml ? ml : "no metrics.json");
		while (g_utf8_strlen(line, -1) > (glong)max_chars) {
			size_t len = strlen(line), best = 0;

			for (size_t k = 1; k + 2 < len; k++)
				if (line[k] == ',' && line[k + 1] == ' ' &&
				    (!best || fabs((double)k - len / 2.0) < fabs((double)best - len / 2.0)))
					best = k;
			if (!best)
				break;
			g_ptr_array_add(pl->sub_lines, g_strndup(line, best + 1));
			g_array_append_val(pl->sub_runs, i);
			memmove(line, line + best + 2, len - best - 1);
		}
		g_ptr_array_add(pl->sub_lines, line);
		g_array_append_val(pl->sub_runs, i);
	}
}

static void layout(struct plot *pl)
{
	const struct plot_spec *sp = pl->spec;
	double vmin = INFINITY, vmax = -INFINITY, imin = 0, imax = -INFINITY, ilim = -INFINITY;
	double srcmax = -INFINITY, bmin = INFINITY, bmax = -INFINITY, smin = INFINITY;
	double smax = -INFINITY;
	size_t longest = 0;

	pl->t_min = INFINITY;
	pl->t_max = -INFINITY;
	for (int i = 0; i < pl->n; i++) {
		const struct run *r = &pl->runs[i];

		pl->t_min = fmin(pl->t_min, r->t_min);
		pl->t_max = fmax(pl->t_max, r->t_max);
		vmin = fmin(vmin, r->vbus_min_on);
		vmax = fmax(vmax, r->v_max);
		imin = fmin(imin, r->ibus_min);
		imax = fmax(imax, r->ibus_max);
		ilim = fmax(ilim, r->ilim_max);
		srcmax = fmax(srcmax, r->src_ilim_max);
		bmin = fmin(bmin, r->vbat_min);
		bmax = fmax(bmax, r->vbat_max);
		smin = fmin(smin, r->soc_min);
		smax = fmax(smax, r->soc_max);
		longest = MAX(longest, strlen(r->label));
	}
	if (pl->t_max <= pl->t_min)
		pl->t_max = pl->t_min + 1;
	g_array_sort(pl->marks, mark_cmp);
	g_array_sort(pl->sags, sag_cmp);
	g_array_sort(pl->ilim_sets, sag_cmp);
	g_array_sort(pl->attaches, sag_cmp);
	choose_unit(pl->t_max - pl->t_min, &pl->tu, &pl->tunit);

	/* VBUS: from below the lowest powered VBUS, the UVLO and 4.75 V lines, to above
	 * the source's open-circuit voltage; a dropped-out VBUS leaves through the bottom. */
	if (!isfinite(vmin)) {
		pl->vlo = 0;
		pl->vhi = isfinite(vmax) && vmax > 1 ? vmax + 0.2 : 5.5;
	} else {
		double lo = fmin(vmin, VBUS_MIN_USB);

		if (isfinite(sp->uvlo_v))
			lo = fmin(lo, sp->uvlo_v);
		pl->vlo = floor((lo - 0.2) * 10) / 10;
		pl->vhi = ceil((fmax(vmax, VBUS_MIN_USB) + 0.12) * 20) / 20;
	}
	/* Currents: from 0 to above the larger of the input current and the programmed
	 * limit; a source limit far above both is cut (it would flatten the rest). */
	{
		double top = fmax(imax, ilim);

		if (isfinite(srcmax))
			top = fmax(top, fmin(srcmax, 2 * fmax(top, 0.1)));
		if (!isfinite(top) || top <= 0)
			top = 1;
		pl->ilo = imin < 0 ? imin * 1.1 : 0;
		pl->ihi = top * 1.1;
	}
	pad_range(bmin, bmax, 0.1, 0.1, &pl->blo, &pl->bhi);
	pad_range(smin * 100, smax * 100, 2, 0.1, &pl->slo, &pl->shi);
	pl->slo = fmax(pl->slo, pl->slo < 0 ? pl->slo : 0);
	if (pl->shi > 100 && smax <= 1.0)
		pl->shi = 100 + 0.02 * (pl->shi - pl->slo);

	/* The state band: charger and source rows always, the others when some run has
	 * them. Long labels name the rows "run N" and the key says which is which. */
	pl->band_used[BAND_CHARGER] = pl->band_used[BAND_SOURCE] = true;
	for (int i = 0; i < pl->n; i++)
		pl->band_used[BAND_PSY] |= psy_disagrees(&pl->runs[i]);
	pl->n_rows = 0;
	for (int k = 0; k < BAND_COUNT; k++)
		pl->n_rows += pl->band_used[k] ? pl->n : 0;
	pl->index_names = pl->n > 1 && longest > 12;
	pl->px_left = PX_LEFT_MIN;
	if (pl->n > 1) {
		size_t name = (pl->index_names ? 5 : longest) + 1 + strlen("psy type");

		pl->px_left = fmax(PX_LEFT_MIN, (double)name * PX_CHAR + 24);
	}
	/* keys: the longest label (or "N: label") against the longest fixed text */
	pl->px_right = fmax(PX_RIGHT_MIN, PX_KEY_OFFSET + 40 +
			    PX_KEY_CHAR * (double)(longest + (pl->index_names ? 3 : 0)));
	pl->px_right = fmin(pl->px_right, 520);
	title_lines(pl);
	pl->px_title = 14 + PX_TITLE_LINE * (pl->sub_lines->len + 1.6);
	pl->px_band = PX_BAND_ROW * (pl->n_rows + BAND_STRIP);
	choose_zoom(pl);
	pl->px_zoom = pl->zoom ? PX_ZOOM_GAP + PX_ZOOM + PX_XAXIS : 0;
	pl->px_h = pl->px_title + PX_PANEL_A + PX_PANEL_B + PX_PANEL_C + pl->px_band +
		   3 * PX_PANEL_GAP + PX_XAXIS + pl->px_zoom;
	pl->px_h = ceil(pl->px_h / 10) * 10;
	layout_marks(pl, 0, pl->t_min, pl->t_max);
	if (pl->zoom)
		layout_marks(pl, 1, pl->z0, pl->z1);
}

/* ---- colours of states ---- */

static const char *state_colour(int band, const char *s)
{
	static const char *const pale[] = {
		"#fdd0a2", "#dadaeb", "#c7e9c0", "#fee391", "#c6dbef", "#fcc5c0", "#d9f0a3",
		"#e5d8bd",
	};
	static const struct { const char *s; const char *c; } fixed[] = {
		{ "off", "#d9d9d9" }, { "-", "#f0f0f0" }, { "detached", "#d9d9d9" },
		{ "precharge", "#fdd0a2" }, { "cc", "#a1d99b" }, { "cv", "#74c476" },
		{ "done", "#6baed6" }, { "uvlo", "#fb6a4a" }, { "fault", "#a50f15" },
		{ "on", "#a1d99b" }, { "limiting", "#fdae6b" }, { "tripped", "#fb6a4a" },
		{ "running", "#a1d99b" },
		{ "SDP", "#c6dbef" }, { "USB", "#c6dbef" }, { "CDP", "#9ecae1" },
		{ "USB_CDP", "#9ecae1" }, { "DCP", "#6baed6" }, { "USB_DCP", "#6baed6" },
		{ "Unknown", "#d9d9d9" }, { "NONE", "#d9d9d9" },
	};
	guint h;

	for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
		if (strcmp(fixed[i].s, s) == 0)
			return fixed[i].c;
	h = g_str_hash(s) + (guint)band;
	return pale[h % G_N_ELEMENTS(pale)];
}

/* ---- writing ---- */

/* The y of a band row (runs in order, each with its rows top to bottom). */
static double row_y(const struct plot *pl, int run, int band)
{
	int idx = 0;

	for (int i = 0; i < pl->n; i++)
		for (int k = 0; k < BAND_COUNT; k++) {
			if (!pl->band_used[k])
				continue;
			if (i == run && k == band)
				return pl->n_rows - idx;
			idx++;
		}
	return 0;
}

static const char *run_colour(int i)
{
	return run_colours[i % N_RUN_COLOURS];
}

static bool write_states(const struct plot *pl, const char *path, GError **err)
{
	GString *s = g_string_new(NULL);
	bool ok;

	g_string_append(s, "# chargesim state band: one segment per row (state columns of the traces,\n"
			   "# detected type and power-supply type and boot stage from events.jsonl)\n"
			   "# t0_s,t1_s,row,rgb,state\n");
	for (int i = 0; i < pl->n; i++)
		for (int k = 0; k < BAND_COUNT; k++) {
			const struct band *b = &pl->runs[i].band[k];

			if (!pl->band_used[k])
				continue;
			for (guint j = 0; j < b->segs->len; j++) {
				const struct seg *sg = &g_array_index(b->segs, struct seg, j);
				g_autofree char *f = dat_field(sg->state);

				gp_printf_num(s, "", sg->t0, ",");
				gp_printf_num(s, "", sg->t1, ",");
				g_string_append_printf(s, "%g,%u,%s\n", row_y(pl, i, k),
						       rgb_of(state_colour(k, sg->state)), f);
			}
		}
	ok = cs_outfile_write_all(path, s->str, s->len, err);
	g_string_free(s, TRUE);
	return ok;
}

static bool write_events(const struct plot *pl, const char *path, int *n_written, GError **err)
{
	GString *s = g_string_new(NULL);
	bool ok;

	*n_written = 0;
	g_string_append(s, "# chargesim event markers (from events.jsonl): main/zoom 1 = draw the line\n"
			   "# in that view (main 2: in the state band only, the kind is too frequent),\n"
			   "# mlevel/zlevel = label level (-1 no label), label xN = N events\n"
			   "# labels shared by several runs (the same event at the same place) are grey\n"
			   "# t_s,run,group,rgb,main,mlevel,zoom,zlevel,mlabel,zlabel,mlabel_rgb,zlabel_rgb\n");
	for (guint i = 0; i < pl->marks->len; i++) {
		const struct mark *m = &g_array_index(pl->marks, struct mark, i);
		const char *colour = pl->n > 1 ? run_colour(m->run) : mark_groups[m->group].rgb;
		g_autofree char *ml = m->count[0] > 1 ? g_strdup_printf("%s \xc3\x97%d",
			m->dense[0] ? mark_groups[m->group].key : m->label, m->count[0]) : g_strdup(m->label);
		g_autofree char *zl = m->count[1] > 1 ? g_strdup_printf("%s \xc3\x97%d",
			m->dense[1] ? mark_groups[m->group].key : m->label, m->count[1]) : g_strdup(m->label);
		g_autofree char *f = dat_field(ml);
		g_autofree char *fz = dat_field(zl);

		if (!m->line[0] && !m->line[1] && m->level[0] < 0 && m->level[1] < 0)
			continue;
		gp_num(s, m->t);
		g_string_append_printf(s, ",%d,%d,%u,%d,%d,%d,%d,%s,%s,%u,%u\n", m->run + 1, m->group,
				       rgb_of(colour), m->line[0], m->level[0], m->line[1],
				       m->level[1], f, fz, m->shared[0] ? 0x333333 : rgb_of(colour),
				       m->shared[1] ? 0x333333 : rgb_of(colour));
		(*n_written)++;
	}
	ok = cs_outfile_write_all(path, s->str, s->len, err);
	g_string_free(s, TRUE);
	return ok;
}

/* "VBUS min 4.635 V, 263 s below 4.75 V, ..." from metrics.json (NULL: none). */
static char *metrics_line(const struct run *r)
{
	const cJSON *m = r->metrics_json;
	GString *s;
	double v;
	const char *str;

	if (!m)
		return NULL;
	s = g_string_new(NULL);
	if (isfinite(v = json_num(m, "vbus_min_V")))
		g_string_append_printf(s, "VBUS min %.3f V", v);
	if (isfinite(v = json_num(m, "time_below_4v75_s")))
		g_string_append_printf(s, v < 100 ? ", %.3g s < 4.75 V" : ", %.0f s < 4.75 V", v);
	if (isfinite(v = json_num(m, "source_trips")))
		g_string_append_printf(s, ", trips %g", v);
	if (isfinite(v = json_num(m, "uvlo_events")))
		g_string_append_printf(s, ", UVLO %g", v);
	if (isfinite(v = json_num(m, "brownouts")))
		g_string_append_printf(s, ", brownouts %g", v);
	if (isfinite(v = json_num(m, "ilim_max_A")))
		g_string_append_printf(s, ", limit max %.2f A", v);
	if (isfinite(v = json_num(m, "ibus_max_A")))
		g_string_append_printf(s, ", IBUS max %.2f A", v);
	if (isfinite(v = json_num(m, "soc_initial")) && isfinite(json_num(m, "soc_final")))
		g_string_append_printf(s, ", SOC %.1f \xe2\x86\x92 %.1f %%", v * 100,
				       json_num(m, "soc_final") * 100);
	if (cJSON_GetObjectItemCaseSensitive(m, "time_to_full_s")) {
		v = json_num(m, "time_to_full_s");
		if (!isfinite(v))
			g_string_append(s, ", full: not reached");
		else if (v < 120)
			g_string_append_printf(s, ", full at %.3g s", v);
		else if (v < 7200)
			g_string_append_printf(s, ", full at %.1f min", v / 60);
		else
			g_string_append_printf(s, ", full at %.2f h", v / 3600);
	}
	if ((str = json_str(m, "detected_type")))
		g_string_append_printf(s, ", detected %s", str);
	if (s->len > 2 && s->str[0] == ',')
		g_string_erase(s, 0, 2);
	return g_string_free(s, FALSE);
}

static const char *run_policy(const struct run *r)
{
	return r->metrics_json ? json_str(r->metrics_json, "policy") : NULL;
}

/* The margins of one panel: top and bottom in pixels from the top of the canvas. */
static void gp_panel(GString *s, const struct plot *pl, double top_px, double bottom_px)
{
	g_string_append(s, "\tset tmargin at screen ");
	gp_num(s, frac(pl->px_h - top_px, pl->px_h));
	g_string_append(s, "; set bmargin at screen ");
	gp_num(s, frac(pl->px_h - bottom_px, pl->px_h));
	g_string_append(s, "\n");
}

static void gp_key_at(GString *s, const struct plot *pl, double top_px)
{
	g_string_append(s, "\tset key at screen ");
	gp_num(s, frac(PX_W - pl->px_right + PX_KEY_OFFSET, PX_W));
	g_string_append(s, ", screen ");
	gp_num(s, frac(pl->px_h - top_px, pl->px_h));
	g_string_append(s, " left top Left reverse samplen 2.5 spacing 1.05 font ',9' nobox\n");
}

static const char *TX = "(T(column('time_s')))";

/* One series of one run: "TRACE[i] using X:(column('col')) ..." */
static void gp_series(GString *s, int i, const char *x, const char *col, const char *scale,
		      const char *style, const char *title)
{
	g_string_append_printf(s, "\t\tTRACE[%d] using %s:(%scolumn('%s')) %s ", i + 1, x,
			       scale ? scale : "", col, style);
	if (title) {
		g_string_append(s, "title ");
		gp_quote(s, title);
	} else {
		g_string_append(s, "notitle");
	}
}

static void gp_sep(GString *s, bool *first)
{
	g_string_append(s, *first ? "\tplot \\\n" : ", \\\n");
	*first = false;
}

/* The three signal panels (a, b, c) or the zoom panel's series. */
static void gp_signal_plots(GString *s, const struct plot *pl, int panel, const char *x)
{
	bool first = true;
	char style[160];

	for (int i = 0; i < pl->n; i++) {
		const struct run *r = &pl->runs[i];
		bool one = pl->n == 1;
		const char *c = run_colour(i);
		g_autofree char *ktitle = pl->index_names ? g_strdup_printf("%d: %s", i + 1, r->label) :
					  g_strdup(r->label);

		switch (panel) {
		case 'a':
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "with lines lw 1.6 lc rgb '%s'", one ? "#0072b2" : c);
			gp_series(s, i, x, "vbus_V", NULL, style, one ? "VBUS at device (vbus_V)" : ktitle);
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "with lines lw 1.2 dt 2 lc rgb '%s'",
				 one ? "#56b4e9" : c);
			gp_series(s, i, x, "vsrc_V", NULL, style, one ? "VBUS at source (vsrc_V)" : NULL);
			break;
		case 'b':
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "with lines lw 1.6 lc rgb '%s'", one ? "#d55e00" : c);
			gp_series(s, i, x, "ibus_A", NULL, style, one ? "input current (ibus_A)" : NULL);
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "with lines lw 1.2 dt 2 lc rgb '%s'",
				 one ? "#0072b2" : c);
			gp_series(s, i, x, "ilim_A", NULL, style,
				  one ? "programmed limit (ilim_A)" : NULL);
			if (r->has_src_ilim) {
				gp_sep(s, &first);
				snprintf(style, sizeof(style), "with lines lw 1.2 dt 3 lc rgb '%s'",
					 one ? "#555555" : c);
				gp_series(s, i, x, "src_ilim_A", NULL, style,
					  one ? "source limit (src_ilim_A)" : NULL);
			}
			break;
		case 'c':
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "with lines lw 1.6 lc rgb '%s'", one ? "#009e73" : c);
			gp_series(s, i, x, "vbat_V", NULL, style, one ? "battery voltage (vbat_V)" : NULL);
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "axes x1y2 with lines lw 1.2 dt 2 lc rgb '%s'",
				 one ? "#cc79a7" : c);
			gp_series(s, i, x, "soc", "100*", style, one ? "SOC, right axis (soc)" : NULL);
			break;
		case 'z':
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "with lines lw 1.6 lc rgb '%s'", one ? "#0072b2" : c);
			gp_series(s, i, x, "vbus_V", NULL, style,
				  one ? "VBUS at device (vbus_V)" : ktitle);
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "axes x1y2 with lines lw 1.2 dt 2 lc rgb '%s'",
				 one ? "#d55e00" : c);
			gp_series(s, i, x, "ibus_A", NULL, style,
				  one ? "IBUS, right axis (ibus_A)" : NULL);
			gp_sep(s, &first);
			snprintf(style, sizeof(style), "axes x1y2 with lines lw 1.2 dt 3 lc rgb '%s'",
				 one ? "#555555" : c);
			gp_series(s, i, x, "ilim_A", NULL, style,
				  one ? "limit, right axis (ilim_A)" : NULL);
			break;
		}
	}
	/* the legend of line styles when colours mean runs */
	if (pl->n > 1) {
		static const char *const styles[4][3] = {
			{ "solid: VBUS at device (vbus_V)", "dashed: VBUS at source (vsrc_V)", NULL },
			{ "solid: input current (ibus_A)", "dashed: input limit (ilim_A)",
			  "dotted: source limit (src_ilim_A)" },
			{ "solid: battery voltage (vbat_V)", "dashed: SOC, right axis (soc)", NULL },
			{ "solid: VBUS at device (vbus_V)", "dashed: IBUS, right axis (ibus_A)",
			  "dotted: limit, right axis (ilim_A)" },
		};
		int row = panel == 'z' ? 3 : panel - 'a';

		for (int k = 0; k < 3 && styles[row][k]; k++) {
			gp_sep(s, &first);
			g_string_append_printf(s, "\t\tNaN with lines lw 1.2 dt %d lc rgb '#333333' title ",
					       k + 1);
			gp_quote(s, styles[row][k]);
		}
	}
	if (panel == 'a' || panel == 'z') {
		gp_sep(s, &first);
		g_string_append(s, "\t\tVBUS_MIN with lines lw 1.2 dt 3 lc rgb '#e69f00' "
				   "title '4.75 V (USB minimum)'");
		if (isfinite(pl->spec->uvlo_v)) {
			gp_sep(s, &first);
			g_string_append(s, "\t\tUVLO with lines lw 1.2 dt 4 lc rgb '#7b3294' "
					   "title sprintf('UVLO falling %.2f V', UVLO)");
		}
	}
	g_string_append(s, "\n");
}

static void gp_report(GString *s, const char *panel)
{
	g_string_append_printf(s,
		"\tif (REPORT ne '') { print sprintf('panel %s %%s x %%.10g %%.10g y %%.10g %%.10g term %%g %%g %%g %%g canvas %%d %%d', "
		"FMT, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, "
		"GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, W, H) }\n", panel);
}

static void gp_yrange(GString *s, const char *axis, double lo, double hi)
{
	g_string_append_printf(s, "\tset %srange [", axis);
	gp_num(s, lo);
	g_string_append(s, ":");
	gp_num(s, hi);
	g_string_append(s, "]\n");
}

static char *script_text(const struct plot *pl, const char *base_name, int n_events)
{
	const struct plot_spec *sp = pl->spec;
	GString *s = g_string_new(NULL);
	double top = pl->px_title, bottom;
	double px_l = pl->px_left, px_r = PX_W - pl->px_right;
	bool any_mlabel = false, any_zlabel = false;
	bool group_used[MG_COUNT] = { false };
	g_autofree char *title = NULL;
	const char *formats = formats_of(sp->png, sp->svg);

	for (guint i = 0; i < pl->marks->len; i++) {
		const struct mark *m = &g_array_index(pl->marks, struct mark, i);

		any_mlabel |= m->level[0] >= 0;
		any_zlabel |= m->level[1] >= 0;
		group_used[m->group] |= m->line[0] || m->level[0] >= 0;
	}
	if (sp->title) {
		title = g_strdup(sp->title);
	} else {
		GString *t = g_string_new(NULL);

		for (int i = 0; i < pl->n; i++)
			g_string_append_printf(t, "%s%s", i ? ", " : "", pl->runs[i].label);
		title = g_string_free(t, FALSE);
	}

	g_string_append_printf(s,
		"# %s.gp - chargesim plot: %s\n"
		"#\n"
		"# Written by chargesim; edit freely and render again from this directory with\n"
		"#     gnuplot %s.gp\n"
		"# which writes %s.{%s} (gnuplot -e \"FORMATS='svg'\" %s.gp for one format).\n"
		"# It reads the traces below (by column name, so any column order works),\n"
		"# %s-events.dat (event markers) and %s-states.dat (the state band).\n"
		"# Ranges, the time unit and the zoom window were chosen from the data when this\n"
		"# file was written: change them here. Panels: (a) VBUS, (b) input current and\n"
		"# limits, (c) battery voltage and SOC, (d) states and events%s.\n\n",
		base_name, title, base_name, base_name, formats, base_name, base_name, base_name,
		pl->zoom ? ", (e) zoom" : "");
	g_string_append_printf(s,
		"if (!exists('FORMATS')) FORMATS = '%s'\n"
		"if (!exists('OUTBASE')) OUTBASE = '%s'\n"
		"if (!exists('REPORT')) REPORT = ''   # a file: print each panel's axes (for tests)\n"
		"if (REPORT ne '') { set print REPORT }\n\n",
		formats, base_name);

	g_string_append_printf(s, "W = %d; H = %d   # canvas, pixels\n", PX_W, (int)pl->px_h);
	g_string_append_printf(s, "N = %d\n", pl->n);
	g_string_append(s, "array TRACE[N] = [");
	for (int i = 0; i < pl->n; i++) {
		g_string_append(s, i ? ", " : "");
		gp_quote(s, pl->runs[i].trace_rel);
	}
	g_string_append(s, "]\narray LABEL[N] = [");
	for (int i = 0; i < pl->n; i++) {
		g_string_append(s, i ? ", " : "");
		gp_quote(s, pl->runs[i].label);
	}
	g_string_append(s, "]\n");
	g_string_append_printf(s, "EVENTS = '%s-events.dat'\nSTATES = '%s-states.dat'\n", base_name,
			       base_name);
	g_string_append_printf(s, "NE = %d   # event markers in EVENTS\n\n", n_events);
	g_string_append_printf(s, "TU = %g; TUNIT = '%s'   # time axis: seconds per unit\n", pl->tu,
			       pl->tunit);
	g_string_append(s, "T(t) = t / TU\n");
	gp_printf_num(s, "XMIN = T(", pl->t_min, ")");
	gp_printf_num(s, "; XMAX = T(", pl->t_max, ")\n");
	gp_printf_num(s, "VBUS_MIN = ", VBUS_MIN_USB, "   # V, USB 2.0 minimum at the device\n");
	gp_printf_num(s, "UVLO = ", sp->uvlo_v, "   # V, the charger's UVLO falling threshold (NaN: unknown)\n");
	if (pl->zoom) {
		gp_printf_num(s, "Z0 = ", pl->z0, "; ");
		gp_printf_num(s, "Z1 = ", pl->z1, "   # zoom window, s: ");
		g_string_append(s, "rule in docs/plots.md\nZREASON = ");
		gp_quote(s, pl->zoom_reason);
		g_string_append(s, "\n");
		g_string_append_printf(s, "ZU = %g; ZUNIT = '%s'\nZ(t) = t / ZU\n", pl->zu, pl->zunit);
	}
	g_string_append(s, "TITLE = ");
	gp_quote(s, title);
	g_string_append(s, "\n");
	for (guint i = 0; i < pl->sub_lines->len; i++) {
		g_string_append_printf(s, "SUB%u = ", i + 1);
		gp_quote(s, g_ptr_array_index(pl->sub_lines, i));
		g_string_append(s, "\n");
	}

	g_string_append(s, "\n# panel layout: fixed margins so the time axes line up\n");
	g_string_append(s, "LM = ");
	gp_num(s, frac(px_l, PX_W));
	g_string_append(s, "; RM = ");
	gp_num(s, frac(px_r, PX_W));
	g_string_append(s, "\n\nset datafile separator comma\n");

	/* events into arrays for the vertical lines */
	g_string_append(s,
		"# event lines: arrays of EVENTS' columns (t_s, run, group, rgb, main, mlevel, zoom)\n"
		"array EVT[NE > 0 ? NE : 1]; array EVR[NE > 0 ? NE : 1]; array EVC[NE > 0 ? NE : 1]\n"
		"array EVM[NE > 0 ? NE : 1]; array EVZ[NE > 0 ? NE : 1]\n"
		"if (NE > 0) {\n"
		"\tstats EVENTS using (k = int($0) + 1, EVT[k] = $1, EVR[k] = $2, EVC[k] = int($4), "
		"EVM[k] = $5, EVZ[k] = $7, 0) nooutput\n"
		"}\n"
		"EVDT(k) = N > 1 ? int(EVR[k]) : 1   # dash type of an event line: the run's number\n\n");

	g_string_append(s,
		"do for [FMT in FORMATS] {\n"
		"\tif (FMT eq 'png') {\n"
		"\t\tset terminal pngcairo size W,H font 'sans,10' noenhanced background '#ffffff'\n"
		"\t} else {\n"
		"\t\tset terminal svg size W,H font 'sans,10' noenhanced background '#ffffff'\n"
		"\t}\n"
		"\tset output OUTBASE . '.' . FMT\n"
		"\treset   # nothing carries over from the previous format\n"
		"\tset datafile separator comma\n"
		"\tset multiplot\n"
		"\tset lmargin at screen LM; set rmargin at screen RM\n"
		"\tset xrange [XMIN:XMAX]\n"
		"\tset grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1\n"
		"\tset border lc rgb '#444444'\n"
		"\tset ytics nomirror; unset y2tics\n"
		"\tset format x ''; unset xlabel\n"
		"\tset mxtics\n");
	/* title lines */
	g_string_append(s, "\tset label 1 TITLE at screen 0.5, screen ");
	gp_num(s, frac(pl->px_h - 20, pl->px_h));
	g_string_append(s, " center font 'sans,13'\n");
	for (guint i = 0; i < pl->sub_lines->len; i++) {
		g_string_append_printf(s, "\tset label %u SUB%u at screen 0.5, screen ", i + 2, i + 1);
		gp_num(s, frac(pl->px_h - 20 - PX_TITLE_LINE * (i + 1.2), pl->px_h));
		g_string_append_printf(s, " center font 'sans,9' tc rgb '%s'\n",
				       pl->n > 1 ? run_colour(g_array_index(pl->sub_runs, int, i)) :
				       "#333333");
	}
	if (pl->zoom) {
		g_string_append(s,
			"\t# the zoom window, shaded in the main panels\n"
			"\tset object 1 rect from first T(Z0), graph 0 to first T(Z1), graph 1 behind "
			"fc rgb '#fff1c1' fs solid 1.0 noborder\n");
	}
	if (n_events > 0)
		g_string_append(s,
			"\tdo for [k=1:NE] { if (EVM[k] == 1) { set arrow k from first T(EVT[k]), graph 0 "
			"to first T(EVT[k]), graph 1 nohead back lw 1 "
			"lc rgb sprintf('#40%06x', EVC[k]) dt EVDT(k) } }\n");

	/* (a) VBUS */
	g_string_append(s, "\n\t# (a) VBUS at the device and at the source\n");
	bottom = top + PX_PANEL_A;
	gp_panel(s, pl, top, bottom);
	gp_key_at(s, pl, top);
	g_string_append(s, "\tset ylabel 'VBUS [V]'\n");
	gp_yrange(s, "y", pl->vlo, pl->vhi);
	gp_signal_plots(s, pl, 'a', TX);
	gp_report(s, "a");
	g_string_append(s, "\tunset label\n");
	top = bottom + PX_PANEL_GAP;

	/* (b) currents */
	g_string_append(s, "\n\t# (b) input current, the programmed input limit, the source's limit\n");
	bottom = top + PX_PANEL_B;
	gp_panel(s, pl, top, bottom);
	gp_key_at(s, pl, top);
	g_string_append(s, "\tset ylabel 'current [A]'\n");
	gp_yrange(s, "y", pl->ilo, pl->ihi);
	gp_signal_plots(s, pl, 'b', TX);
	gp_report(s, "b");
	top = bottom + PX_PANEL_GAP;

	/* (c) battery */
	g_string_append(s, "\n\t# (c) battery voltage, SOC on the right axis\n");
	bottom = top + PX_PANEL_C;
	gp_panel(s, pl, top, bottom);
	gp_key_at(s, pl, top);
	g_string_append(s, "\tset ylabel 'VBAT [V]'; set y2label 'SOC [%]'; set y2tics; set ytics nomirror\n");
	gp_yrange(s, "y", pl->blo, pl->bhi);
	gp_yrange(s, "y2", pl->slo, pl->shi);
	gp_signal_plots(s, pl, 'c', TX);
	gp_report(s, "c");
	g_string_append(s, "\tunset y2tics; unset y2label\n");
	top = bottom + PX_PANEL_GAP;

	/* (d) states and events */
	g_string_append(s, "\n\t# (d) state band (STATES) and event labels (EVENTS), time axis labels\n");
	bottom = top + pl->px_band;
	gp_panel(s, pl, top, bottom);
	g_string_append_printf(s, "\tNROWS = %d; PXU = (RM - LM) * W / (XMAX - XMIN)   # pixels per time unit\n",
			       pl->n_rows);
	if (n_events > 0)
		g_string_append(s,
			"\t# frequent kinds (main = 2): lines over the event labels only\n"
			"\tdo for [k=1:NE] { if (EVM[k] == 2) { set arrow k from first T(EVT[k]), first NROWS + 0.5 "
			"to first T(EVT[k]), graph 1 nohead back lw 1 "
			"lc rgb sprintf('#40%06x', EVC[k]) dt EVDT(k) } }\n");
	g_string_append(s, "\tset yrange [0.5:NROWS + 0.5 + ");
	gp_num(s, BAND_STRIP);
	g_string_append(s, "]\n\tunset ylabel; set grid noytics\n\tset ytics scale 0 font ',8' (");
	for (int i = 0, first = 1; i < pl->n; i++)
		for (int k = 0; k < BAND_COUNT; k++) {
			g_autofree char *name = NULL;

			if (!pl->band_used[k])
				continue;
			if (pl->n == 1)
				name = g_strdup(band_names[k]);
			else if (pl->index_names)
				name = g_strdup_printf("%d %s", i + 1, band_names[k]);
			else
				name = g_strdup_printf("%s %s", pl->runs[i].label, band_names[k]);
			g_string_append(s, first ? "" : ", ");
			first = 0;
			gp_quote(s, name);
			g_string_append_printf(s, " %g", row_y(pl, i, k));
		}
	g_string_append(s, ")\n");
	g_string_append_printf(s, "\tset format x '%%g'; set xlabel sprintf('time [%%s]', TUNIT)\n");
	g_string_append(s, "\tset key at screen ");
	gp_num(s, frac(PX_W - pl->px_right + PX_KEY_OFFSET, PX_W));
	g_string_append(s, ", screen ");
	gp_num(s, frac(pl->px_h - top, pl->px_h));
	g_string_append(s, " left top Left reverse samplen 1.5 spacing 0.95 font ',8' maxrows ");
	g_string_append_printf(s, "%d noopaque nobox\n", MAX(4, (int)(pl->px_band / 13)));
	g_string_append(s,
		"\tplot \\\n"
		"\t\tSTATES using (T(($1 + $2) / 2)):3:(T(($2 - $1) / 2)):(0.42):4 with boxxyerror "
		"fs solid 1.0 noborder lc rgb variable notitle, \\\n"
		"\t\tSTATES using (T(($1 + $2) / 2)):3:((T($2) - T($1)) * PXU > 6 * strlen(strcol(5)) + 6 "
		"? strcol(5) : '') with labels font ',8' tc rgb '#222222' notitle");
	if (n_events > 0 && any_mlabel)
		g_string_append(s, ", \\\n"
			"\t\tEVENTS using ($6 >= 0 ? T($1) : NaN):(NROWS + 0.95 + 0.85 * $6):9:11 with labels "
			"left offset char 0.3,0 font ',8' tc rgb variable notitle");
	if (pl->n == 1) {
		for (int gi = 0; gi < MG_COUNT; gi++)
			if (group_used[gi])
				g_string_append_printf(s, ", \\\n\t\tNaN with lines lw 2 lc rgb '%s' title '%s'",
						       mark_groups[gi].rgb, mark_groups[gi].key);
	} else {
		g_string_append(s, ", \\\n\t\tNaN with lines lw 1 dt 1 lc rgb '#333333' "
				   "title 'event lines: run colour,'");
		g_string_append(s, ", \\\n\t\tNaN with lines lw 1 dt 2 lc rgb '#333333' "
				   "title 'dash = run number'");
	}
	g_string_append(s, "\n");
	gp_report(s, "d");

	/* (e) zoom */
	if (pl->zoom) {
		g_string_append(s, "\n\t# (e) zoom: VBUS (left), input current and limit (right)\n");
		top = bottom + PX_ZOOM_GAP + PX_XAXIS - 6;
		bottom = top + PX_ZOOM;
		g_string_append(s, "\tunset object 1; unset arrow; unset label\n");
		if (n_events > 0)
			g_string_append(s,
				"\tdo for [k=1:NE] { if (EVZ[k]) { set arrow k from first Z(EVT[k]), graph 0 "
				"to first Z(EVT[k]), graph 1 nohead back lw 1 "
				"lc rgb sprintf('#40%06x', EVC[k]) dt EVDT(k) } }\n");
		gp_panel(s, pl, top, bottom);
		gp_key_at(s, pl, top);
		g_string_append(s,
			"\tset xrange [Z(Z0):Z(Z1)]; set xlabel sprintf('time [%s]', ZUNIT)\n"
			"\tset ytics autofreq nomirror font ',10'; set grid xtics ytics; set y2tics\n"
			"\tset ylabel 'VBUS [V]'; set y2label 'current [A]'\n"
			"\tset title sprintf('zoom: %g to %g s, %s', Z0, Z1, ZREASON) font ',10' offset 0,-0.6\n");
		gp_yrange(s, "y", pl->vlo, pl->vhi);
		gp_yrange(s, "y2", pl->ilo, pl->ihi);
		if (n_events > 0 && any_zlabel) {
			g_string_append(s, "\tZLAB(l) = ");
			gp_num(s, pl->vhi);
			g_string_append(s, " - (0.07 + 0.075 * l) * (");
			gp_num(s, pl->vhi - pl->vlo);
			g_string_append(s, ")\n");
		}
		gp_signal_plots(s, pl, 'z', "(Z(column('time_s')))");
		if (n_events > 0 && any_zlabel) {
			/* append the labels to the plot command just written */
			g_string_truncate(s, s->len - 1);
			g_string_append(s, ", \\\n\t\tEVENTS using ($8 >= 0 ? Z($1) : NaN):(ZLAB($8)):10:12 "
					   "with labels left offset char 0.3,0 font ',8' tc rgb variable notitle\n");
		}
		gp_report(s, "e");
		g_string_append(s, "\tunset title\n");
	}
	g_string_append(s, "\tunset multiplot\n\tunset output\n}\n");
	return g_string_free(s, FALSE);
}

/* ---- running gnuplot ---- */

char *plot_find_gnuplot(GError **err)
{
	const char *env = g_getenv(PLOT_GNUPLOT_ENV);
	char *path;

	if (env && *env) {
		path = g_find_program_in_path(env);
		if (!path)
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_NO_GNUPLOT,
				    "%s=%s: no such program; point it at a gnuplot binary, or unset it "
				    "to use gnuplot from PATH (install it with: %s)",
				    PLOT_GNUPLOT_ENV, env, PLOT_INSTALL_HINT);
		return path;
	}
	path = g_find_program_in_path("gnuplot");
	if (!path)
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_NO_GNUPLOT,
			    "gnuplot is not installed (not found in PATH); install it with: %s "
			    "(or set %s to a gnuplot binary)", PLOT_INSTALL_HINT, PLOT_GNUPLOT_ENV);
	return path;
}

/* Indent captured output for a message. */
static char *indent_output(const char *out, int max_lines)
{
	g_auto(GStrv) lines = g_strsplit(out ? out : "", "\n", -1);
	GString *s = g_string_new(NULL);
	int n = 0, total = 0;

	for (int i = 0; lines[i]; i++)
		if (*g_strchomp(lines[i]))
			total++;
	for (int i = 0; lines[i]; i++) {
		if (!*lines[i])
			continue;
		if (n++ == max_lines) {
			g_string_append_printf(s, "\n    ... (%d more lines)", total - max_lines);
			break;
		}
		g_string_append_printf(s, "%s    %s", s->len ? "\n" : "", lines[i]);
	}
	return g_string_free(s, FALSE);
}

/* Run gnuplot on SCRIPT (in its directory) for the formats, writing the images under
 * temporary names and renaming them to SCRIPT minus .gp plus .png/.svg. */
static bool run_gnuplot(const char *script, bool png, bool svg, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(script);
	g_autofree char *name = g_path_get_basename(script);
	g_autofree char *base = strip_gp(name);
	g_autofree char *tmpbase = g_strdup_printf(".%s.tmp-%d", base, (int)getpid());
	g_autofree char *prog = NULL;
	g_autofree char *sets = NULL;
	g_autofree char *out = NULL;
	g_autofree char *errout = NULL;
	const char *fmts[2] = { png ? "png" : NULL, svg ? "svg" : NULL };
	g_autoptr(GError) e = NULL;
	int wait_status = 0;
	bool ok = true;

	prog = plot_find_gnuplot(err);
	if (!prog)
		return false;
	sets = g_strdup_printf("OUTBASE='%s'; FORMATS='%s'", tmpbase, formats_of(png, svg));
	{
		char *argv[] = { prog, "-e", sets, name, NULL };

		if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL, &out,
				  &errout, &wait_status, &e)) {
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_NO_GNUPLOT,
				    "cannot run %s: %s; install gnuplot with: %s", prog, e->message,
				    PLOT_INSTALL_HINT);
			return false;
		}
	}
	if (!g_spawn_check_wait_status(wait_status, &e)) {
		g_autofree char *text = indent_output(errout && *errout ? errout : out, 30);

		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_GNUPLOT,
			    "gnuplot failed on %s (%s); it said:\n%s", script, e->message,
			    *text ? text : "    (nothing)");
		ok = false;
	} else if (errout && *g_strstrip(errout)) {
		g_autofree char *text = indent_output(errout, 30);

		fprintf(stderr, "chargesim: gnuplot warnings for %s:\n%s\n", script, text);
	}
	for (int i = 0; i < 2; i++) {
		g_autofree char *tmp = NULL, *final = NULL;
		GStatBuf st;

		if (!fmts[i])
			continue;
		tmp = g_strdup_printf("%s/%s.%s", dir, tmpbase, fmts[i]);
		final = g_strdup_printf("%s/%s.%s", dir, base, fmts[i]);
		if (!ok) {
			g_unlink(tmp);
			continue;
		}
		if (g_stat(tmp, &st) != 0 || st.st_size == 0) {
			g_unlink(tmp);
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_GNUPLOT,
				    "gnuplot ran on %s but wrote no %s image (does the script still "
				    "set output OUTBASE.'.'.FMT?)", script, fmts[i]);
			ok = false;
			continue;
		}
		if (g_rename(tmp, final) != 0) {
			int en = errno;

			g_unlink(tmp);
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_IO, "%s: cannot write: %s", final,
				    g_strerror(en));
			ok = false;
		}
	}
	return ok;
}

/* ---- the stacked plot ---- */

static void plot_free(struct plot *pl)
{
	for (int i = 0; i < pl->n; i++)
		run_free(&pl->runs[i]);
	g_free(pl->runs);
	if (pl->marks) {
		for (guint i = 0; i < pl->marks->len; i++)
			g_free(g_array_index(pl->marks, struct mark, i).label);
		g_array_free(pl->marks, TRUE);
	}
	if (pl->sags)
		g_array_free(pl->sags, TRUE);
	if (pl->ilim_sets)
		g_array_free(pl->ilim_sets, TRUE);
	if (pl->attaches)
		g_array_free(pl->attaches, TRUE);
	g_free(pl->zoom_reason);
	if (pl->sub_lines)
		g_ptr_array_free(pl->sub_lines, TRUE);
	if (pl->sub_runs)
		g_array_free(pl->sub_runs, TRUE);
}

bool plot_traces(const struct plot_spec *spec, GError **err)
{
	struct plot pl = { .spec = spec, .n = spec->n };
	g_autofree char *dir = g_path_get_dirname(spec->script);
	g_autofree char *base_path = strip_gp(spec->script);
	g_autofree char *base_name = g_path_get_basename(base_path);
	g_autofree char *events_path = g_strdup_printf("%s-events.dat", base_path);
	g_autofree char *states_path = g_strdup_printf("%s-states.dat", base_path);
	g_autofree char *text = NULL;
	int n_events = 0;
	bool ok = false;

	g_return_val_if_fail(spec->n > 0, false);
	pl.runs = g_new0(struct run, (gsize)spec->n);
	pl.marks = g_array_new(FALSE, FALSE, sizeof(struct mark));
	pl.sags = g_array_new(FALSE, FALSE, sizeof(struct sag));
	pl.ilim_sets = g_array_new(FALSE, FALSE, sizeof(struct sag));
	pl.attaches = g_array_new(FALSE, FALSE, sizeof(struct sag));
	for (int i = 0; i < spec->n; i++) {
		if (!scan_run(&pl, i, &spec->traces[i], err))
			goto out;
		pl.runs[i].trace_rel = relative_path(dir, spec->traces[i].trace);
	}
	/* the same label twice would make an ambiguous legend */
	for (int i = 1; i < spec->n; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(pl.runs[i].label, pl.runs[j].label) == 0) {
				char *l = g_strdup_printf("%s (%d)", pl.runs[i].label, i + 1);

				g_free(pl.runs[i].label);
				pl.runs[i].label = l;
			}
	layout(&pl);
	if (!cs_mkdir_p(dir, err))
		goto out;
	if (!write_states(&pl, states_path, err) || !write_events(&pl, events_path, &n_events, err))
		goto out;
	text = script_text(&pl, base_name, n_events);
	if (!cs_outfile_write_all(spec->script, text, strlen(text), err))
		goto out;
	ok = !spec->render || run_gnuplot(spec->script, spec->png, spec->svg, err);
out:
	plot_free(&pl);
	return ok;
}

/* ---- heat maps ---- */

struct table {
	char *path;
	GPtrArray *header;        /* of char * */
	GPtrArray *rows;          /* of GPtrArray of char * */
};

static bool table_row_cb(void *data, char **fields, int n, long row, GError **err)
{
	struct table *t = data;
	GPtrArray *r = g_ptr_array_new_with_free_func(g_free);

	(void)err;
	for (int i = 0; i < n; i++)
		g_ptr_array_add(r, g_strdup(g_strstrip(fields[i])));
	if (row == 1) {
		t->header = r;
		return true;
	}
	if (n == 1 && !*fields[0]) {
		g_ptr_array_free(r, TRUE);
		return true;
	}
	g_ptr_array_add(t->rows, r);
	return true;
}

static void table_free(struct table *t)
{
	if (t->header)
		g_ptr_array_free(t->header, TRUE);
	if (t->rows)
		g_ptr_array_free(t->rows, TRUE);
}

static int table_col(const struct table *t, const char *name)
{
	for (guint i = 0; t->header && i < t->header->len; i++)
		if (strcmp(g_ptr_array_index(t->header, i), name) == 0)
			return (int)i;
	return -1;
}

static const char *table_cell(const struct table *t, guint row, int col)
{
	GPtrArray *r = g_ptr_array_index(t->rows, row);

	return col >= 0 && (guint)col < r->len ? g_ptr_array_index(r, col) : "";
}

/* The distinct values of a column in order of first appearance; sorted by their
 * leading number when every one starts with a number ("0.5 m", "1.1 A", "2"). */
struct category {
	char *text;
	double num;
};

static int category_cmp(const void *a, const void *b)
{
	const struct category *x = a, *y = b;

	return x->num < y->num ? -1 : x->num > y->num;
}

static GArray *categories(const struct table *t, int col)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(struct category));
	bool numeric = true;

	for (guint i = 0; i < t->rows->len; i++) {
		const char *v = table_cell(t, i, col);
		struct category c;
		char *end;
		bool seen = false;

		for (guint k = 0; k < a->len && !seen; k++)
			seen = strcmp(g_array_index(a, struct category, k).text, v) == 0;
		if (seen)
			continue;
		c.text = g_strdup(v);
		c.num = g_ascii_strtod(v, &end);
		if (end == v)
			numeric = false;
		g_array_append_val(a, c);
	}
	if (numeric)
		g_array_sort(a, category_cmp);
	return a;
}

static int category_index(const GArray *a, const char *v)
{
	for (guint k = 0; k < a->len; k++)
		if (strcmp(g_array_index(a, struct category, k).text, v) == 0)
			return (int)k;
	return -1;
}

static void categories_free(GArray *a)
{
	for (guint k = 0; k < a->len; k++)
		g_free(g_array_index(a, struct category, k).text);
	g_array_free(a, TRUE);
}

static void gp_category_tics(GString *s, const char *axis, const GArray *a)
{
	g_string_append_printf(s, "\tset %stics (", axis);
	for (guint k = 0; k < a->len; k++) {
		g_string_append(s, k ? ", " : "");
		gp_quote(s, g_array_index(a, struct category, k).text);
		g_string_append_printf(s, " %u", k);
	}
	g_string_append(s, ")\n");
}

bool plot_heatmap(const struct plot_heatmap_spec *sp, GError **err)
{
	struct table t = { .path = (char *)sp->results };
	const char *names[4] = { sp->x, sp->y, sp->z, sp->by };
	const char *what[4] = { "--x", "--y", "--z", "--by" };
	int col[4];
	GArray *xs = NULL, *ys = NULL, *bs = NULL;
	g_autofree char *base_path = strip_gp(sp->script);
	g_autofree char *base_name = g_path_get_basename(base_path);
	g_autofree char *dat_path = g_strdup_printf("%s-heatmap.dat", base_path);
	g_autofree int *cell_row = NULL, *cell_n = NULL;
	g_autofree double *cell_sum = NULL, *cell_min = NULL, *cell_max = NULL, *cell_z = NULL;
	gsize n_cells;
	GString *dat = NULL, *s = NULL;
	GString *missing = g_string_new(NULL);
	double zmin = INFINITY, zmax = -INFINITY;
	int nmaps, ncols, nrows_grid, pw, ph, W, H;
	bool ok = false;

	t.rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	if (!csv_read_file(sp->results, table_row_cb, &t, err))
		goto out;
	if (!t.header) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: empty file, expected a header row (index,PARAM...,METRIC...)", sp->results);
		goto out;
	}
	for (int k = 0; k < 4; k++) {
		col[k] = names[k] ? table_col(&t, names[k]) : -1;
		if (names[k] && col[k] < 0)
			g_string_append_printf(missing, "%s%s %s", missing->len ? ", " : "", what[k],
					       names[k]);
	}
	if (missing->len) {
		GString *h = g_string_new(NULL);

		for (guint i = 0; i < t.header->len; i++)
			g_string_append_printf(h, "%s%s", i ? ", " : "",
					       (char *)g_ptr_array_index(t.header, i));
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: no column for %s; its columns are: %s", sp->results, missing->str,
			    h->str);
		g_string_free(h, TRUE);
		goto out;
	}
	if (!t.rows->len) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: no data rows", sp->results);
		goto out;
	}
	xs = categories(&t, col[0]);
	ys = categories(&t, col[1]);
	if (col[3] >= 0) {
		bs = categories(&t, col[3]);
	} else {
		struct category c = { g_strdup(""), 0 };

		bs = g_array_new(FALSE, FALSE, sizeof(struct category));
		g_array_append_val(bs, c);
	}
	nmaps = (int)bs->len;
	n_cells = (gsize)nmaps * xs->len * ys->len;
	cell_row = g_new(int, n_cells);
	cell_n = g_new0(int, n_cells);
	cell_sum = g_new0(double, n_cells);
	cell_min = g_new0(double, n_cells);
	cell_max = g_new0(double, n_cells);
	cell_z = g_new0(double, n_cells);
	for (gsize k = 0; k < n_cells; k++)
		cell_row[k] = -1;
	for (guint i = 0; i < t.rows->len; i++) {
		int xi = category_index(xs, table_cell(&t, i, col[0]));
		int yi = category_index(ys, table_cell(&t, i, col[1]));
		int bi = col[3] >= 0 ? category_index(bs, table_cell(&t, i, col[3])) : 0;
		gsize cell = ((gsize)bi * ys->len + (gsize)yi) * xs->len + (gsize)xi;
		const char *zv = table_cell(&t, i, col[2]);
		double z;

		if (cell_row[cell] >= 0 && sp->agg == PLOT_AGG_NONE) {
			GString *diff = g_string_new(NULL);
			GPtrArray *ra = g_ptr_array_index(t.rows, cell_row[cell]);
			GPtrArray *rb = g_ptr_array_index(t.rows, i);

			for (guint c = 0; c < t.header->len; c++) {
				const char *h = g_ptr_array_index(t.header, c);

				if ((int)c == col[2] || strcmp(h, "index") == 0)
					continue;
				if (c < ra->len && c < rb->len &&
				    strcmp(g_ptr_array_index(ra, c), g_ptr_array_index(rb, c)) != 0 &&
				    diff->len < 200)
					g_string_append_printf(diff, "%s%s", diff->len ? ", " : "", h);
			}
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
				    "%s: lines %d and %u both fall in the cell %s=%s, %s=%s%s%s; they differ in "
				    "%s: split the maps with --by COLUMN (e.g. --by policy), combine the rows "
				    "with --agg mean|min|max, or filter the file",
				    sp->results, cell_row[cell] + 2, i + 2, sp->x, table_cell(&t, i, col[0]),
				    sp->y, table_cell(&t, i, col[1]), col[3] >= 0 ? " of the map " : "",
				    col[3] >= 0 ? table_cell(&t, i, col[3]) : "",
				    diff->len ? diff->str : "no other column");
			g_string_free(diff, TRUE);
			goto out;
		}
		if (cell_row[cell] < 0)
			cell_row[cell] = (int)i;
		if (*zv && strcmp(zv, "null") != 0 && strcmp(zv, "-") != 0 &&
		    g_ascii_strcasecmp(zv, "nan") != 0) {
			if (!parse_double(zv, &z)) {
				g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
					    "%s: line %u: %s: found \"%s\", expected a number (a heat map "
					    "needs a numeric metric)", sp->results, i + 2, sp->z, zv);
				goto out;
			}
			if (!cell_n[cell]) {
				cell_min[cell] = cell_max[cell] = z;
			} else {
				cell_min[cell] = fmin(cell_min[cell], z);
				cell_max[cell] = fmax(cell_max[cell], z);
			}
			cell_sum[cell] += z;
			cell_n[cell]++;
		}
	}
	for (gsize k = 0; k < n_cells; k++) {
		if (!cell_n[k])
			continue;
		switch (sp->agg) {
		case PLOT_AGG_MEAN: cell_z[k] = cell_sum[k] / cell_n[k]; break;
		case PLOT_AGG_MIN: cell_z[k] = cell_min[k]; break;
		case PLOT_AGG_MAX: cell_z[k] = cell_max[k]; break;
		default: cell_z[k] = cell_sum[k]; break;   /* one row */
		}
		zmin = fmin(zmin, cell_z[k]);
		zmax = fmax(zmax, cell_z[k]);
	}
	if (!isfinite(zmin)) {
		zmin = 0;
		zmax = 1;
	} else if (zmax <= zmin) {
		zmax = zmin + (zmin != 0 ? fabs(zmin) * 0.1 : 1);
	}

	/* data: one block per map, columns ix, iy, z (NaN missing), label */
	dat = g_string_new(NULL);
	g_string_append_printf(dat, "# chargesim heat map of %s over %s and %s from %s\n# ix,iy,z,label\n",
			       sp->z, sp->x, sp->y, sp->results);
	for (int bi = 0; bi < nmaps; bi++) {
		if (bi)
			g_string_append(dat, "\n\n");
		g_string_append_printf(dat, "# map %d: %s\n", bi, g_array_index(bs, struct category, bi).text);
		for (guint yi = 0; yi < ys->len; yi++)
			for (guint xi = 0; xi < xs->len; xi++) {
				gsize k = ((gsize)bi * ys->len + yi) * xs->len + xi;
				int r = cell_row[k];

				if (cell_n[k]) {
					g_string_append_printf(dat, "%u,%u,", xi, yi);
					gp_num(dat, cell_z[k]);
					g_string_append_printf(dat, ",%.4g\n", cell_z[k]);
				} else {
					g_string_append_printf(dat, "%u,%u,NaN,%s\n", xi, yi,
							       r >= 0 ? "n/a" : "no run");
				}
			}
	}
	if (!cs_outfile_write_all(dat_path, dat->str, dat->len, err))
		goto out;

	/* layout: up to three maps per row */
	ncols = MIN(nmaps, 3);
	nrows_grid = (nmaps + ncols - 1) / ncols;
	pw = (int)CLAMP(60 * xs->len + 40, 300, 520);
	ph = (int)CLAMP(44 * ys->len + 40, 220, 480);
	W = 110 + ncols * (pw + 120) + 60;
	H = 70 + nrows_grid * (ph + 80);

	s = g_string_new(NULL);
	g_string_append_printf(s,
		"# %s.gp - chargesim heat map: %s over %s x %s%s%s, from %s\n"
		"# Written by chargesim; edit and render again from this directory with\n"
		"#     gnuplot %s.gp\n"
		"# It reads %s-heatmap.dat (one block per map: ix,iy,z,label).\n\n",
		base_name, sp->z, sp->x, sp->y, sp->by ? ", one map per " : "", sp->by ? sp->by : "",
		sp->results, base_name, base_name);
	g_string_append_printf(s,
		"if (!exists('FORMATS')) FORMATS = '%s'\n"
		"if (!exists('OUTBASE')) OUTBASE = '%s'\n"
		"W = %d; H = %d\nDATA = '%s-heatmap.dat'\nNMAPS = %d; NCOLS = %d\n",
		formats_of(sp->png, sp->svg), base_name, W, H, base_name, nmaps, ncols);
	g_string_append(s, "array MAP[NMAPS] = [");
	for (int bi = 0; bi < nmaps; bi++) {
		g_autofree char *name = sp->by ? g_strdup_printf("%s = %s", sp->by,
					g_array_index(bs, struct category, bi).text) : g_strdup("");

		g_string_append(s, bi ? ", " : "");
		gp_quote(s, name);
	}
	g_string_append(s, "]\nTITLE = ");
	{
		static const char *const agg_names[] = { "", "mean of ", "min of ", "max of " };
		g_autofree char *title = sp->title ? g_strdup(sp->title) :
			g_strdup_printf("%s%s over %s and %s (%s)", agg_names[sp->agg], sp->z, sp->x,
					sp->y, sp->results);

		gp_quote(s, title);
	}
	g_string_append(s, "\nZLABEL = ");
	gp_quote(s, sp->z);
	g_string_append(s, "\nZMIN = ");
	gp_num(s, zmin);
	g_string_append(s, "; ZMAX = ");
	gp_num(s, zmax);
	g_string_append(s, "   # one colour scale for every map\n");
	g_string_append_printf(s, "PW = %d; PH = %d   # one map, pixels\n\n", pw, ph);
	g_string_append(s,
		"set datafile separator comma\n"
		"do for [FMT in FORMATS] {\n"
		"\tif (FMT eq 'png') {\n"
		"\t\tset terminal pngcairo size W,H font 'sans,10' noenhanced background '#ffffff'\n"
		"\t} else {\n"
		"\t\tset terminal svg size W,H font 'sans,10' noenhanced background '#ffffff'\n"
		"\t}\n"
		"\tset output OUTBASE . '.' . FMT\n"
		"\treset\n"
		"\tset datafile separator comma\n"
		"\tset multiplot title TITLE font ',13'\n"
		"\tset palette defined (0 '#ffffcc', 0.25 '#fed976', 0.5 '#fd8d3c', 0.75 '#e31a1c', 1 '#800026')\n"
		"\tset cbrange [ZMIN:ZMAX]; set cblabel ZLABEL\n"
		"\tset xrange [-0.5:");
	g_string_append_printf(s, "%u.5]; set yrange [-0.5:%u.5]\n", xs->len - 1, ys->len - 1);
	gp_category_tics(s, "x", xs);
	gp_category_tics(s, "y", ys);
	g_string_append(s, "\tset xlabel ");
	gp_quote(s, sp->x);
	g_string_append(s, "; YLABEL = ");
	gp_quote(s, sp->y);
	g_string_append(s,
		"\n\tset tics scale 0; unset key; set border lc rgb '#888888'\n"
		"\tdo for [m=1:NMAPS] {\n"
		"\t\tcol = (m - 1) % NCOLS; row = (m - 1) / NCOLS\n"
		"\t\tset lmargin at screen (110.0 + col * (PW + 120)) / W\n"
		"\t\tset rmargin at screen (110.0 + col * (PW + 120) + PW) / W\n"
		"\t\tset tmargin at screen 1 - (70.0 + row * (PH + 80)) / H\n"
		"\t\tset bmargin at screen 1 - (70.0 + row * (PH + 80) + PH) / H\n"
		"\t\tset title MAP[m]\n"
		"\t\t# one colour scale for all: its box beside the last map of a row\n"
		"\t\tif (col == NCOLS - 1 || m == NMAPS) { set colorbox } else { unset colorbox }\n"
		"\t\tif (col == 0) { set ylabel YLABEL } else { unset ylabel }\n"
		"\t\tplot DATA index (m - 1) using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder "
		"lc palette, \\\n"
		"\t\t\tDATA index (m - 1) using 1:2:4:(($3 - ZMIN) / (ZMAX - ZMIN) > 0.6 ? 0xffffff : 0x222222) "
		"with labels tc rgb variable font ',10'\n"
		"\t}\n"
		"\tunset multiplot\n\tunset output\n}\n");
	if (!cs_outfile_write_all(sp->script, s->str, s->len, err))
		goto out;
	ok = !sp->render || run_gnuplot(sp->script, sp->png, sp->svg, err);
out:
	g_string_free(missing, TRUE);
	if (dat)
		g_string_free(dat, TRUE);
	if (s)
		g_string_free(s, TRUE);
	if (xs)
		categories_free(xs);
	if (ys)
		categories_free(ys);
	if (bs)
		categories_free(bs);
	table_free(&t);
	return ok;
}
