// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/scan.c - the scan of each run of a stacked plot (see stacked.h): its trace
 * through the trace reader (ranges of the series, segments of the state columns,
 * VBUS sags), its events.jsonl through the events reader (markers, detected type,
 * power-supply type, boot stages, zoom hints) and its metrics.json (the title line).
 */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "plots/stacked.h"
#include "traces/csv.h"
#include "traces/events.h"
#include "traces/infile.h"

/* The trace columns kept as text even when they hold numbers. */
static const char *const state_columns[] = { "charger_state", "source_state", NULL };

/* ---- the state band ---- */

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

void plot_run_clear(struct plot_run *r)
{
	g_free(r->label);
	g_free(r->trace_rel);
	g_free(r->data_rel);
	cs_csv_trace_free(r->tr);
	g_clear_pointer(&r->contract, g_array_unref);
	for (int k = 0; k < BAND_COUNT; k++) {
		if (!r->band[k].segs)
			continue;
		for (guint i = 0; i < r->band[k].segs->len; i++)
			g_free(g_array_index(r->band[k].segs, struct seg, i).state);
		g_array_free(r->band[k].segs, TRUE);
		g_free(r->band[k].cur);
	}
	cJSON_Delete(r->metrics_json);
}

/* ---- the trace ---- */

static const struct cs_csv_read_opts trace_opts = {
	.time_column = "time_s", .delim = ',', .text_columns = state_columns,
};

/* The standard columns in a trace CSV's header; false with a CS_PLOT_ERROR_INPUT
 * error naming every missing column. */
static bool check_trace(const char *path, GError **err)
{
	g_autoptr(GError) inner = NULL;
	g_auto(GStrv) names = cs_csv_read_header(path, &trace_opts, &inner);
	g_autoptr(GString) missing = g_string_new(NULL);
	g_autoptr(GString) want = g_string_new(NULL);
	g_autofree char *found = NULL;
	int n_missing = 0;

	if (!names) {
		g_set_error_literal(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, inner->message);
		return false;
	}
	if (!names[0]) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: empty file, expected a CSV header row such as time_s,vsrc_V,vbus_V,...",
			    path);
		return false;
	}
	for (int c = 0; c < COL_REQUIRED; c++) {
		const char *name = plot_column_names[c];

		g_string_append_printf(want, "%s%s", c ? "," : "", name);
		if (!g_strv_contains((const char *const *)names, name))
			g_string_append_printf(missing, "%s%s", n_missing++ ? ", " : "", name);
	}
	if (!n_missing)
		return true;
	found = g_strjoinv(",", names);
	g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
		    "%s: not a chargesim trace: missing column%s %s (its header is \"%.200s\"; "
		    "a trace needs at least %s, in any order)",
		    path, n_missing > 1 ? "s" : "", missing->str, found, want->str);
	return false;
}

/* The columns' values at row i: NAN where a column is absent or not numeric. */
static double cell(const cs_csv_trace *tr, const int *col, int c, size_t i)
{
	if (col[c] < 0 || tr->cols[col[c]].is_label)
		return NAN;
	return tr->cols[col[c]].v[i];
}

/* A state cell without blanks around it; "-" for an empty one. */
static char *state_cell(const cs_csv_trace *tr, const int *col, int c, size_t i)
{
	char *s = g_strstrip(g_strdup(tr->cols[col[c]].s[i]));

	if (!*s) {
		g_free(s);
		s = g_strdup("-");
	}
	return s;
}

#define UPDATE_MIN(a, v) do { if (isfinite(v) && (v) < (a)) (a) = (v); } while (0)
#define UPDATE_MAX(a, v) do { if (isfinite(v) && (v) > (a)) (a) = (v); } while (0)

/* VBUS below 4.75 V while the source is on (not detached, not tripped): a sag opens
 * at the first such row and closes at the first row where it ends. */
static void track_sag(struct plot *pl, int ri, double t, double vbus, const char *src)
{
	struct plot_run *r = &pl->runs[ri];
	bool on = strcmp(src, "on") == 0 || strcmp(src, "limiting") == 0;
	bool low = on && isfinite(vbus) && vbus < VBUS_MIN_USB;

	if (!r->sag_open && low) {
		r->sag_open = true;
		r->sag_t0 = t;
	} else if (r->sag_open && !low) {
		struct sag s = { r->sag_t0, t, ri, false };

		g_array_append_val(pl->sags, s);
		r->sag_open = false;
	}
}

static void scan_row(struct plot *pl, int ri, const cs_csv_trace *tr, const int *col, size_t i)
{
	struct plot_run *r = &pl->runs[ri];
	struct extent *x = &pl->x;
	double t = tr->t[i], vbus = cell(tr, col, COL_VBUS, i);
	double src_ilim = cell(tr, col, COL_SRC_ILIM, i), budget = cell(tr, col, COL_BUDGET, i);
	g_autofree char *chg = state_cell(tr, col, COL_CHG, i);
	g_autofree char *src = state_cell(tr, col, COL_SRC, i);

	if (vbus > 1.0)
		UPDATE_MIN(x->vmin, vbus);
	UPDATE_MAX(x->vmax, vbus);
	UPDATE_MAX(x->vmax, cell(tr, col, COL_VSRC, i));
	UPDATE_MIN(x->imin, cell(tr, col, COL_IBUS, i));
	UPDATE_MAX(x->imax, cell(tr, col, COL_IBUS, i));
	UPDATE_MAX(x->ilim, cell(tr, col, COL_ILIM, i));
	UPDATE_MAX(x->srcmax, src_ilim);
	if (src_ilim > 0) {   /* 0 while detached: no limit */
		UPDATE_MIN(r->src_ilim_min_on, src_ilim);
		UPDATE_MIN(x->srcmin_on, src_ilim);
	}
	if (budget > 0) {    /* 0 while detached: no port */
		UPDATE_MIN(r->budget_min_on, budget);
		UPDATE_MIN(x->budmin_on, budget);
		UPDATE_MAX(x->budmax, budget);
	}
	UPDATE_MAX(x->imax, cell(tr, col, COL_ILOAD, i));
	UPDATE_MIN(x->imin, cell(tr, col, COL_IBAT, i));
	UPDATE_MAX(x->imax, cell(tr, col, COL_IBAT, i));
	UPDATE_MIN(x->bmin, cell(tr, col, COL_VBAT, i));
	UPDATE_MAX(x->bmax, cell(tr, col, COL_VBAT, i));
	UPDATE_MIN(x->smin, cell(tr, col, COL_SOC, i));
	UPDATE_MAX(x->smax, cell(tr, col, COL_SOC, i));
	band_switch(&r->band[BAND_CHARGER], t, chg);
	band_switch(&r->band[BAND_SOURCE], t, src);
	track_sag(pl, ri, t, vbus, src);
}

/* The header first (the missing columns named), then the whole trace. */
static bool scan_trace(struct plot *pl, int ri, GError **err)
{
	struct plot_run *r = &pl->runs[ri];
	g_autoptr(GError) inner = NULL;
	cs_csv_trace *tr;
	int *col = r->col;

	if (!check_trace(r->in->trace, err))
		return false;
	tr = cs_csv_read(r->in->trace, &trace_opts, &inner);
	if (!tr && g_error_matches(inner, CS_CSV_ERROR, CS_CSV_ERROR_EMPTY)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: the header is fine but there are no data rows", r->in->trace);
		return false;
	}
	if (!tr) {
		g_set_error_literal(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, inner->message);
		return false;
	}
	for (int c = 0; c < COL_COUNT; c++)
		col[c] = cs_csv_find_col(tr, plot_column_names[c]);
	r->tr = tr;
	r->has_src_ilim = col[COL_SRC_ILIM] >= 0 && !tr->cols[col[COL_SRC_ILIM]].is_label;
	r->has_ibat = col[COL_IBAT] >= 0 && !tr->cols[col[COL_IBAT]].is_label;
	r->has_iload = col[COL_ILOAD] >= 0 && !tr->cols[col[COL_ILOAD]].is_label;
	r->has_budget = col[COL_BUDGET] >= 0 && !tr->cols[col[COL_BUDGET]].is_label;
	r->t_min = tr->t[0];
	r->t_max = tr->t[tr->nrows - 1];
	for (size_t i = 0; i < tr->nrows; i++)
		scan_row(pl, ri, tr, col, i);
	if (r->sag_open) {
		struct sag s = { r->sag_t0, r->t_max, ri, true };

		g_array_append_val(pl->sags, s);
	}
	return true;
}

/* ---- events.jsonl and metrics.json ---- */

const char *plot_json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

double plot_json_num(const cJSON *o, const char *key)
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
	struct sag s = { t, t, run, false };

	g_array_append_val(a, s);
}

/* Event kinds drawn as a marker with a fixed label and nothing else. */
static const struct {
	const char *ev;
	int group;
	const char *label;
} plain_marks[] = {
	{ "source_trip", MG_TRIP, "trip" },
	{ "uvlo", MG_UVLO, "UVLO" },
	{ "brownout", MG_BROWNOUT, "brownout" },
	{ "adc_stuck", MG_SCENARIO, "ADC stuck" },
	{ "suspend", MG_SUSPEND, "suspend" },
	{ "resume", MG_SUSPEND, "resume" },
};

/* A uevent's POWER_SUPPLY_TYPE (other than Battery) goes into the psy type row. */
static void psy_type(struct plot_run *r, double t, const cJSON *rec)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(rec, "env"), *e;

	cJSON_ArrayForEach(e, env) {
		const char *s;

		if (!cJSON_IsString(e) || !g_str_has_prefix(e->valuestring, "POWER_SUPPLY_TYPE="))
			continue;
		s = e->valuestring + strlen("POWER_SUPPLY_TYPE=");
		if (strcmp(s, "Battery") != 0)
			band_switch(&r->band[BAND_PSY], t, s);
	}
}

/* The source's nominal voltage and the contract's current (NAN: none) from t on
 * (points at one time: the last counts). */
static void contract_at(struct plot_run *r, double t, double v, double a)
{
	struct contract_pt p = { t, v, a };
	struct contract_pt *last = r->contract->len ?
		&g_array_index(r->contract, struct contract_pt, r->contract->len - 1) : NULL;

	if (last && last->v == v && (last->a == a || (isnan(last->a) && isnan(a))))
		return;
	if (last && last->t == t) {
		last->v = v;
		last->a = a;
	} else {
		g_array_append_val(r->contract, p);
	}
	r->pd |= v != VBUS_NOMINAL;
	r->pd_current |= isfinite(a);
}

/* USB PD: the voltage of an accepted request holds from the source's PS_RDY (USB PD
 * 3.1 section 8.3.2.2); a hard reset returns to vSafe5V. */
static void pd_msg(struct plot_run *r, double t, const cJSON *rec)
{
	const char *msg = plot_json_str(rec, "msg");
	double v = plot_json_num(rec, "V");

	if (!msg)
		return;
	if (strcmp(msg, "Accept") == 0 && isfinite(v)) {
		r->pd_accept_v = v;
		r->pd_accept_a = plot_json_num(rec, "A");
	} else if (strcmp(msg, "PS_RDY") == 0 && isfinite(r->pd_accept_v)) {
		contract_at(r, t, r->pd_accept_v, r->pd_accept_a);
	} else if (strcmp(msg, "Hard_Reset") == 0) {
		contract_at(r, t, VBUS_NOMINAL, NAN);
	}
}

/* "set PATH=VALUE" of a scenario set event. */
static char *set_label(const cJSON *rec)
{
	const cJSON *val = cJSON_GetObjectItemCaseSensitive(rec, "value");
	g_autofree char *vs = val ? (cJSON_IsString(val) ? g_strdup(val->valuestring) :
				     cJSON_PrintUnformatted(val)) : g_strdup("?");
	const char *s = plot_json_str(rec, "path");

	if (s && g_str_has_prefix(s, "device."))
		s += strlen("device.");
	return g_strdup_printf("set %s=%s", s ? s : "?", vs);
}

/* One event record: a marker, a band segment, a zoom hint, or nothing. */
static void event_record(struct plot *pl, int ri, const cJSON *rec)
{
	struct plot_run *r = &pl->runs[ri];
	const char *ev = cs_event_kind(rec);
	double t = cs_event_time(rec);
	const char *s;
	double v;

	if (!ev || !isfinite(t))
		return;
	for (size_t i = 0; i < G_N_ELEMENTS(plain_marks); i++)
		if (strcmp(ev, plain_marks[i].ev) == 0) {
			add_mark(pl, ri, t, plain_marks[i].group, g_strdup(plain_marks[i].label));
			return;
		}
	if (strcmp(ev, "attach") == 0) {
		add_mark(pl, ri, t, MG_ATTACH, g_strdup("attach"));
		add_time(pl->attaches, ri, t);
	} else if (strcmp(ev, "detach") == 0) {
		add_mark(pl, ri, t, MG_ATTACH, g_strdup("detach"));
		contract_at(r, t, VBUS_NOMINAL, NAN);
		band_switch(&r->band[BAND_DETECTED], t, NULL);
		band_switch(&r->band[BAND_PSY], t, NULL);
	} else if (strcmp(ev, "detect") == 0) {
		g_autofree char *port = g_ascii_strup((s = plot_json_str(rec, "port")) ? s : "?", -1);

		add_mark(pl, ri, t, MG_DETECT, g_strdup_printf("detect %s", port));
		band_switch(&r->band[BAND_DETECTED], t, port);
		pl->band_used[BAND_DETECTED] = true;
	} else if (strcmp(ev, "vbus_draw") == 0) {
		v = plot_json_num(rec, "mA");
		add_mark(pl, ri, t, MG_DRAW, g_strdup_printf("vbus_draw %g mA", v));
	} else if (strcmp(ev, "enumerate") == 0) {
		v = plot_json_num(rec, "MaxPower_mA");
		add_mark(pl, ri, t, MG_DRAW, isfinite(v) ? g_strdup_printf("enumerated %g mA", v) :
					     g_strdup("enumerate: no config"));
	} else if (strcmp(ev, "boot_state") == 0) {
		s = plot_json_str(rec, "state");
		add_mark(pl, ri, t, MG_BOOT, g_strdup_printf("boot: %s", s ? s : "?"));
		band_switch(&r->band[BAND_BOOT], t, s ? s : "?");
		pl->band_used[BAND_BOOT] = true;
	} else if (strcmp(ev, "charger_fault") == 0) {
		s = plot_json_str(rec, "reason");
		add_mark(pl, ri, t, MG_FAULT, g_strdup_printf("fault: %s", s ? s : "?"));
	} else if (strcmp(ev, "set") == 0) {
		add_mark(pl, ri, t, MG_SCENARIO, set_label(rec));
	} else if (strcmp(ev, "dropout") == 0) {
		v = plot_json_num(rec, "for_s");
		add_mark(pl, ri, t, MG_SCENARIO, isfinite(v) ?
			 g_strdup_printf("dropout %g ms", v * 1e3) : g_strdup("dropout"));
	} else if (strcmp(ev, "ilim_set") == 0) {
		add_time(pl->ilim_sets, ri, t);
	} else if (strcmp(ev, "uevent") == 0) {
		psy_type(r, t, rec);
	} else if (strcmp(ev, "pd_msg") == 0) {
		pd_msg(r, t, rec);
	}
}

struct event_scan {
	struct plot *pl;
	int run;
};

static bool event_cb(void *data, const cJSON *rec, long line, GError **err)
{
	struct event_scan *es = data;

	(void)line;
	(void)err;
	event_record(es->pl, es->run, rec);
	return true;
}

static bool scan_events(struct plot *pl, int ri, GError **err)
{
	struct event_scan es = { pl, ri };
	g_autoptr(GError) inner = NULL;

	if (cs_events_read(pl->runs[ri].in->events, event_cb, &es, &inner))
		return true;
	g_set_error_literal(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, inner->message);
	return false;
}

static bool read_metrics(struct plot_run *r, GError **err)
{
	g_autofree char *text = NULL;
	gsize len;
	g_autoptr(GError) e = NULL;
	const char *found;
	int fd = cs_open_regular(r->in->metrics, &found);   /* a FIFO would block */

	if (fd >= 0)
		close(fd);
	if (found) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: found %s, expected a metrics file (a regular file)", r->in->metrics,
			    found);
		return false;
	}
	if (!g_file_get_contents(r->in->metrics, &text, &len, &e)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT, "%s: cannot read: %s",
			    r->in->metrics, e->message);
		return false;
	}
	r->metrics_json = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsObject(r->metrics_json)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
			    "%s: found something else, expected a JSON object of metrics", r->in->metrics);
		return false;
	}
	return true;
}

/* ---- one run ---- */

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

bool plot_scan_run(struct plot *pl, int ri, const struct plot_trace *in, GError **err)
{
	struct plot_run *r = &pl->runs[ri];

	r->in = in;
	r->label = in->label ? g_strdup(in->label) : default_label(in->trace);
	r->src_ilim_min_on = INFINITY;
	r->pd_accept_v = NAN;
	r->pd_accept_a = NAN;
	r->budget_min_on = INFINITY;
	r->same_as = -1;
	for (int k = 0; k < MP_COUNT; k++)
		r->merge[k] = (struct merge){ .lead = -1 };
	r->contract = g_array_new(FALSE, FALSE, sizeof(struct contract_pt));
	for (int k = 0; k < BAND_COUNT; k++)
		r->band[k].segs = g_array_new(FALSE, FALSE, sizeof(struct seg));
	if (!scan_trace(pl, ri, err))
		return false;
	contract_at(r, r->t_min, VBUS_NOMINAL, NAN);
	if (r->in->events && !scan_events(pl, ri, err))
		return false;
	/* budget_A, where the trace has it, holds the contract's current already */
	r->pd_current &= !r->has_budget;
	for (guint k = 0; r->pd_current && k < r->contract->len; k++) {
		double a = g_array_index(r->contract, struct contract_pt, k).a;

		UPDATE_MIN(pl->x.budmin_on, a);
		UPDATE_MAX(pl->x.budmax, a);
	}
	if (r->in->metrics && !read_metrics(r, err))
		return false;
	for (int k = 0; k < BAND_COUNT; k++)
		band_switch(&r->band[k], r->t_max, NULL);   /* close the last segment */
	return true;
}
