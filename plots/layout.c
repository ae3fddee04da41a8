// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/layout.c - the layout of a stacked plot (see stacked.h): the time unit, the
 * axis ranges, the rows of the state band, the panels' pixel geometry, the title
 * lines, the zoom window (docs/plots.md gives the rule) and which event markers get a
 * line and a label at each scale: markers closer than a pixel or two are thinned,
 * labels are stacked on LABEL_LEVELS levels and merged as "label xN" where they would
 * collide.
 */
#include <math.h>
#include <string.h>
#include "plots/stacked.h"

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
	*unit = span <= 300 ? 1 : span <= 3 * 3600 ? 60 : 3600;
	*name = span <= 300 ? "s" : span <= 3 * 3600 ? "min" : "h";
}

/* A candidate zoom window, in seconds, and why it was chosen: rules 1 to 3 below, in
 * order (docs/plots.md, "The zoom window"). */
struct window {
	double t1, t2;
	char *why;
};

/* Rule 1: the first source trip, UVLO or brownout and up to two more occurrences;
 * false when there is none. */
static bool zoom_on_failures(const struct plot *pl, struct window *w)
{
	int occurrences = 0;

	for (guint i = 0; i < pl->marks->len; i++) {
		const struct mark *m = &g_array_index(pl->marks, struct mark, i);

		if (m->group != MG_TRIP && m->group != MG_UVLO && m->group != MG_BROWNOUT)
			continue;
		if (!w->why) {
			w->t1 = w->t2 = m->t;
			w->why = g_strdup_printf("first %s, %s, at %.6g s",
						 m->group == MG_TRIP ? "source trip" :
						 m->group == MG_UVLO ? "UVLO" : "brownout",
						 pl->runs[m->run].label, m->t);
			/* a sag of that run leading up to it */
			for (guint k = 0; k < pl->sags->len; k++) {
				const struct sag *s = &g_array_index(pl->sags, struct sag, k);

				if (s->run == m->run && s->t0 < m->t && s->t1 >= m->t - 1e-3 &&
				    m->t - s->t0 <= 120)
					w->t1 = s->t0;
			}
		} else if (m->t - w->t2 <= 0.05) {
			w->t2 = m->t;      /* the same occurrence (a trip and its UVLO) */
		} else if (m->t - w->t2 <= 30 && m->t - w->t1 <= 60 && ++occurrences < 3) {
			w->t2 = m->t;
		} else {
			break;
		}
	}
	return w->why != NULL;
}

/* A sag still open at the end after more than 300 s is how the run goes (a thin
 * cable), not an event to zoom on. */
static bool sag_is_event(const struct sag *s)
{
	return !s->to_end || s->t1 - s->t0 <= 300;
}

/* Rule 2: the first VBUS sag below 4.75 V (with the source on), to its end or the end
 * of the sags that start within 60 s of it, at most 300 s. */
static bool zoom_on_sag(const struct plot *pl, struct window *w)
{
	const struct sag *s0 = NULL;

	for (guint k = 0; k < pl->sags->len && !s0; k++)
		if (sag_is_event(&g_array_index(pl->sags, struct sag, k)))
			s0 = &g_array_index(pl->sags, struct sag, k);
	if (!s0)
		return false;
	w->t1 = s0->t0;
	w->t2 = s0->t1;
	for (guint k = 0; k < pl->sags->len; k++) {
		const struct sag *s = &g_array_index(pl->sags, struct sag, k);

		if (sag_is_event(s) && s->t0 >= w->t1 && s->t0 <= w->t1 + 60 && s->t1 > w->t2)
			w->t2 = s->t1;
	}
	if (w->t2 > w->t1 + 300)
		w->t2 = w->t1 + 300;
	w->why = g_strdup_printf("first VBUS sag below 4.75 V, %s, at %.6g s",
				 pl->runs[s0->run].label, w->t1);
	return true;
}

/* Rule 3: the input-limit ramp, from the first attach to the last ilim_set within
 * 300 s of it. */
static bool zoom_on_ramp(const struct plot *pl, struct window *w)
{
	double ta = pl->attaches->len ? g_array_index(pl->attaches, struct sag, 0).t0 : pl->t_min;
	double t2 = NAN;

	for (guint k = 0; k < pl->ilim_sets->len; k++) {
		double t = g_array_index(pl->ilim_sets, struct sag, k).t0;

		if (t >= ta && t <= ta + 300 && (isnan(t2) || t > t2))
			t2 = t;
	}
	if (isnan(t2))
		return false;
	w->t1 = ta;
	w->t2 = t2;
	w->why = g_strdup_printf("the input-limit ramp, to the last ilim_set at %.6g s", t2);
	return true;
}

/* The window padded (a quarter of its length before, half after; rule 1 at least 2 s
 * before and 5 s after, the others at least 1 s in all), rounded outwards to a 20th
 * of its decade and clipped to the runs. */
static void zoom_pad(struct plot *pl, const struct window *w, int rule)
{
	double len = w->t2 - w->t1, q;

	if (rule == 1) {
		pl->z0 = w->t1 - fmax(0.25 * len, 2.0);
		pl->z1 = w->t2 + fmax(0.5 * len, 5.0);
	} else {
		pl->z0 = w->t1 - 0.25 * len;
		pl->z1 = w->t2 + fmax(0.5 * len, 1.0 - 0.75 * len);
	}
	q = pow(10, floor(log10(pl->z1 - pl->z0))) / 20;
	pl->z0 = fmax(pl->t_min, floor(pl->z0 / q) * q);
	pl->z1 = fmin(pl->t_max, ceil(pl->z1 / q) * q);
}

/* Does the zoom window show something happen: an event marker, a limit written or a
 * VBUS sag starting or ending inside it (not just at its edges)? */
static bool window_has_events(const struct plot *pl)
{
	const GArray *lists[] = { pl->ilim_sets, pl->sags };

	for (guint i = 0; i < pl->marks->len; i++) {
		double t = g_array_index(pl->marks, struct mark, i).t;

		if (t > pl->z0 && t < pl->z1)
			return true;
	}
	for (size_t k = 0; k < G_N_ELEMENTS(lists); k++)
		for (guint i = 0; i < lists[k]->len; i++) {
			const struct sag *s = &g_array_index(lists[k], struct sag, i);

			if ((s->t0 > pl->z0 && s->t0 < pl->z1) ||
			    (!s->to_end && s->t1 > pl->z0 && s->t1 < pl->z1))
				return true;
		}
	return false;
}

/* The first rule whose window shows something happen (a rule can choose a window
 * where nothing visible changes: a brownout inside the device, a trip at the end). */
static bool zoom_by_rules(struct plot *pl, struct window *w)
{
	bool (*const rules[])(const struct plot *, struct window *) = {
		zoom_on_failures, zoom_on_sag, zoom_on_ramp,
	};

	for (size_t k = 0; k < G_N_ELEMENTS(rules); k++) {
		*w = (struct window){ NAN, NAN, NULL };
		if (!rules[k](pl, w))
			continue;
		zoom_pad(pl, w, (int)k + 1);
		if (pl->z1 > pl->z0 && window_has_events(pl))
			return true;
		g_clear_pointer(&w->why, g_free);
	}
	return false;
}

static void choose_zoom(struct plot *pl)
{
	const struct plot_spec *sp = pl->spec;
	struct window w = { NAN, NAN, NULL };

	pl->zoom = false;
	if (sp->zoom == PLOT_ZOOM_NONE)
		return;
	if (sp->zoom == PLOT_ZOOM_RANGE) {
		pl->z0 = sp->zoom_from_s;
		pl->z1 = sp->zoom_to_s;
		w.why = g_strdup("as asked");
	} else if (!zoom_by_rules(pl, &w)) {
		return;
	}
	pl->zoom = pl->z1 > pl->z0;
	if (pl->zoom) {
		choose_unit(pl->z1 - pl->z0, &pl->zu, &pl->zunit);
		pl->zoom_reason = w.why;
	} else {
		g_free(w.why);
	}
}

static double label_px(const struct mark *m, int count)
{
	double n = (double)MAX(g_utf8_strlen(m->label, -1),
			       g_utf8_strlen(plot_mark_groups[m->group].key, -1));

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
/* The marker layout of one view, per run and kind (key = run * MG_COUNT + group). */
struct mark_view {
	int view;
	double t0, t1, px_per_s;
	double dense_limit;          /* lines per run and kind that hide the signals */
	double level_end[LABEL_LEVELS];
	struct {
		double last_line;    /* pixel of the last line */
		int last_label;      /* mark of the last label, -1 none */
		int lines, events;
	} *k;                        /* per key */
};

/* Lines: one per 2 pixels per run and kind; count the lines and the events. */
static void mark_lines(struct plot *pl, struct mark_view *mv)
{
	int view = mv->view;

	for (guint i = 0; i < pl->marks->len; i++) {
		struct mark *m = &g_array_index(pl->marks, struct mark, i);
		int key = m->run * MG_COUNT + m->group;
		double px;

		m->level[view] = -1;
		m->count[view] = 0;
		m->line[view] = 0;
		m->shared[view] = false;
		m->dense[view] = false;
		if (m->t < mv->t0 || m->t > mv->t1)
			continue;
		mv->k[key].events++;
		px = (m->t - mv->t0) * mv->px_per_s;
		if (px - mv->k[key].last_line >= 2.0) {
			m->line[view] = 1;
			mv->k[key].last_line = px;
			mv->k[key].lines++;
		}
	}
}

/* The same event in another run at the same place (within 2 px) already has the
 * label: mark it shared, and true. */
static bool shared_label(struct plot *pl, const struct mark_view *mv, guint i)
{
	const struct mark *m = &g_array_index(pl->marks, struct mark, i);

	for (guint k = i; k-- > 0;) {
		struct mark *o = &g_array_index(pl->marks, struct mark, k);

		if ((m->t - o->t) * mv->px_per_s > 2.0)
			break;
		if (o->run != m->run && o->level[mv->view] >= 0 && strcmp(o->label, m->label) == 0) {
			o->shared[mv->view] = true;
			return true;
		}
	}
	return false;
}

/* The label of mark i on the lowest free level; where none is free, counted into the
 * last label of its run and kind when that is the same text and near. */
static void place_label(struct plot *pl, struct mark_view *mv, guint i, bool dense)
{
	struct mark *m = &g_array_index(pl->marks, struct mark, i);
	int key = m->run * MG_COUNT + m->group, view = mv->view, l;
	double px = (m->t - mv->t0) * mv->px_per_s;

	for (l = 0; l < LABEL_LEVELS; l++)
		if (mv->level_end[l] + 6 <= px)
			break;
	if (l < LABEL_LEVELS) {
		m->level[view] = l;
		m->count[view] = dense ? mv->k[key].events : 1;
		m->dense[view] = dense;
		/* room for a " xNN" the label may gain below */
		mv->level_end[l] = px + label_px(m, dense ? m->count[view] : 99);
		mv->k[key].last_label = (int)i;
	} else if (mv->k[key].last_label >= 0) {
		struct mark *lm = &g_array_index(pl->marks, struct mark, mv->k[key].last_label);
		double lpx = (lm->t - mv->t0) * mv->px_per_s;

		if (strcmp(lm->label, m->label) == 0 &&
		    px - lpx <= 3 * label_px(lm, lm->count[view]) + 40) {
			lm->count[view]++;
			mv->level_end[lm->level[view]] = fmax(mv->level_end[lm->level[view]],
							      lpx + label_px(lm, lm->count[view]));
		}
	}
}

static void layout_marks(struct plot *pl, int view, double t0, double t1)
{
	gsize n = (gsize)pl->n * MG_COUNT;
	struct mark_view mv = {
		.view = view, .t0 = t0, .t1 = t1,
		.px_per_s = (PX_W - pl->px_left - pl->px_right) / (t1 - t0),
		.dense_limit = (PX_W - pl->px_left - pl->px_right) / 12,
		.k = g_new0(typeof(*mv.k), n),
	};

	for (gsize i = 0; i < n; i++) {
		mv.k[i].last_line = -INFINITY;
		mv.k[i].last_label = -1;
	}
	for (int l = 0; l < LABEL_LEVELS; l++)
		mv.level_end[l] = -INFINITY;
	mark_lines(pl, &mv);
	for (guint i = 0; i < pl->marks->len; i++) {
		struct mark *m = &g_array_index(pl->marks, struct mark, i);
		int key = m->run * MG_COUNT + m->group;
		bool dense = mv.k[key].lines > mv.dense_limit || mv.k[key].events > DENSE_LABELS;

		if (m->t < t0 || m->t > t1)
			continue;
		if (mv.k[key].lines > mv.dense_limit && view == 0 && m->line[view])
			m->line[view] = 2;
		if ((dense && mv.k[key].last_label >= 0) || shared_label(pl, &mv, i))
			continue;
		place_label(pl, &mv, i, dense);
	}
	g_free(mv.k);
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

/* A time as `chargesim run` prints it: "0.4 s", "263 s" (below 2 min), "36.1 min",
 * "3.00 h" (from 2 h). */
static char *fmt_time(double s)
{
	if (s < 120)
		return g_strdup_printf("%.3g s", s);
	if (s < 7200)
		return g_strdup_printf("%.1f min", s / 60);
	return g_strdup_printf("%.2f h", s / 3600);
}

/* "VBUS min 4.635 V, 4.4 min < 4.75 V, ..." from metrics.json (NULL: none). */
static char *metrics_line(const struct plot_run *r)
{
	const cJSON *m = r->metrics_json;
	GString *s;
	double v;
	const char *str;

	if (!m)
		return NULL;
	s = g_string_new(NULL);
	if (isfinite(v = plot_json_num(m, "vbus_min_V")))
		g_string_append_printf(s, "VBUS min %.3f V", v);
	if (isfinite(v = plot_json_num(m, "time_below_4v75_s"))) {
		g_autofree char *t = fmt_time(v);

		g_string_append_printf(s, ", %s < 4.75 V", t);
	}
	if (isfinite(v = plot_json_num(m, "source_trips")))
		g_string_append_printf(s, ", trips %g", v);
	if (isfinite(v = plot_json_num(m, "uvlo_events")))
		g_string_append_printf(s, ", UVLO %g", v);
	if (isfinite(v = plot_json_num(m, "brownouts")))
		g_string_append_printf(s, ", brownouts %g", v);
	if (isfinite(v = plot_json_num(m, "ilim_max_A")))
		g_string_append_printf(s, ", limit max %.2f A", v);
	if (isfinite(v = plot_json_num(m, "ibus_max_A")))
		g_string_append_printf(s, ", IBUS max %.2f A", v);
	if (isfinite(v = plot_json_num(m, "soc_initial")) && isfinite(plot_json_num(m, "soc_final")))
		g_string_append_printf(s, ", SOC %.1f \xe2\x86\x92 %.1f %%", v * 100,
				       plot_json_num(m, "soc_final") * 100);
	if (cJSON_GetObjectItemCaseSensitive(m, "time_to_full_s")) {
		g_autofree char *t = NULL;

		v = plot_json_num(m, "time_to_full_s");
		if (!isfinite(v))
			g_string_append(s, ", full: not reached");
		else
			g_string_append_printf(s, ", full at %s", t = fmt_time(v));
	}
	if (isfinite(v = plot_json_num(m, "over_budget_s")) && v > 0) {
		g_autofree char *t = fmt_time(v);

		g_string_append_printf(s, ", over budget %s", t);
	}
	if ((str = plot_json_str(m, "detected_type")))
		g_string_append_printf(s, ", detected %s", str);
	if (s->len > 2 && s->str[0] == ',')
		g_string_erase(s, 0, 2);
	return g_string_free(s, FALSE);
}

/* A line under the title, of run (-1: of the plot), split at a comma near the middle
 * while too wide for the canvas. */
static void add_sub_line(struct plot *pl, char *line, int run)
{
	size_t max_chars = (size_t)((PX_W - 40) / PX_TITLE_CHAR);

	while (g_utf8_strlen(line, -1) > (glong)max_chars) {
		size_t len = strlen(line), best = 0;

		for (size_t k = 1; k + 2 < len; k++)
			if (line[k] == ',' && line[k + 1] == ' ' &&
			    (!best || fabs((double)k - len / 2.0) < fabs((double)best - len / 2.0)))
				best = k;
		if (!best)
			break;
		g_ptr_array_add(pl->sub_lines, g_strndup(line, best + 1));
		g_array_append_val(pl->sub_runs, run);
		memmove(line, line + best + 2, len - best - 1);
	}
	g_ptr_array_add(pl->sub_lines, line);
	g_array_append_val(pl->sub_runs, run);
}

/* The lines under the title: per run, its label, policy and metrics. */
static void title_lines(struct plot *pl)
{
	pl->sub_lines = g_ptr_array_new_with_free_func(g_free);
	pl->sub_runs = g_array_new(FALSE, FALSE, sizeof(int));
	for (int i = 0; i < pl->n; i++) {
		const struct plot_run *r = &pl->runs[i];
		g_autofree char *ml = metrics_line(r);
		const char *pol = r->metrics_json ? plot_json_str(r->metrics_json, "policy") : NULL;
		char *line;

		if (r->same_as >= 0)
			line = g_strdup_printf("%s: the same trace and states as %s (drawn dashed over it)",
					       r->label, pl->runs[r->same_as].label);
		else if (pol && strcmp(pol, r->label) != 0)
			line = g_strdup_printf("%s (policy %s): %s", r->label, pol,
					       ml ? ml : "no metrics.json");
		else
			line = g_strdup_printf("%s: %s", r->label, ml ? ml : "no metrics.json");
		add_sub_line(pl, line, i);
	}
}

/* The time span of the runs; whether some run has a PD contract. */
static void runs_extent(struct plot *pl)
{
	pl->t_min = INFINITY;
	pl->t_max = -INFINITY;
	for (int i = 0; i < pl->n; i++) {
		pl->t_min = fmin(pl->t_min, pl->runs[i].t_min);
		pl->t_max = fmax(pl->t_max, pl->runs[i].t_max);
		pl->contract |= pl->runs[i].pd;
	}
	if (pl->t_max <= pl->t_min)
		pl->t_max = pl->t_min + 1;
}

static void axis_ranges(struct plot *pl)
{
	const struct extent *x = &pl->x;
	double top, lim_top, a_min;

	/* VBUS: from below the lowest powered VBUS, the UVLO and 4.75 V lines, to above
	 * the source's open-circuit voltage; a dropped-out VBUS leaves through the bottom. */
	if (!isfinite(x->vmin)) {
		pl->vlo = 0;
		pl->vhi = isfinite(x->vmax) && x->vmax > 1 ? x->vmax + 0.2 : 5.5;
	} else {
		double lo = fmin(x->vmin, VBUS_MIN_USB);

		if (isfinite(pl->spec->uvlo_v))
			lo = fmin(lo, pl->spec->uvlo_v);
		pl->vlo = floor((lo - 0.2) * 10) / 10;
		pl->vhi = ceil((fmax(x->vmax, VBUS_MIN_USB) + 0.12) * 20) / 20;
	}
	/* Currents: from 0 (or below the lowest battery current: a discharge is negative)
	 * to above the larger of the currents and the programmed limit; a source limit far
	 * above them is cut (it would flatten the rest) and then left out. */
	top = fmax(x->imax, x->ilim);
	lim_top = 2 * fmax(top, 0.1);
	if (isfinite(x->srcmin_on) && x->srcmin_on <= lim_top)
		top = fmax(top, fmin(x->srcmax, lim_top));
	if (isfinite(x->budmin_on) && x->budmin_on <= lim_top)
		top = fmax(top, fmin(x->budmax, lim_top));
	if (!isfinite(top) || top <= 0)
		top = 1;
	pl->ilo = x->imin < 0 ? x->imin * 1.1 : 0;
	pl->ihi = top * 1.1;
	for (int i = 0; i < pl->n; i++) {
		struct plot_run *r = &pl->runs[i];

		r->src_ilim_drawn = r->has_src_ilim && r->src_ilim_min_on <= pl->ihi;
		r->budget_drawn = r->has_budget && r->budget_min_on <= pl->ihi;
		/* the contract's current, like the source's limit, where some is on the axis */
		a_min = INFINITY;
		for (guint k = 0; k < r->contract->len; k++)
			a_min = fmin(a_min, g_array_index(r->contract, struct contract_pt, k).a);
		r->pd_current &= a_min <= pl->ihi;
		pl->contract_file |= r->pd_current;
	}
	pl->contract_file |= pl->contract;
	pad_range(x->bmin, x->bmax, 0.1, 0.1, &pl->blo, &pl->bhi);
	pad_range(x->smin * 100, x->smax * 100, 2, 0.1, &pl->slo, &pl->shi);
	pl->slo = fmax(pl->slo, pl->slo < 0 ? pl->slo : 0);
	if (pl->shi > 100 && x->smax <= 1.0)
		pl->shi = 100 + 0.02 * (pl->shi - pl->slo);
}

/* Two runs with the same trace (every row and column) and the same states: the later
 * one is drawn over the earlier in a dash pattern and gets no band rows of its own. */
static bool same_band(const struct band *a, const struct band *b)
{
	if (a->segs->len != b->segs->len)
		return false;
	for (guint k = 0; k < a->segs->len; k++) {
		const struct seg *x = &g_array_index(a->segs, struct seg, k);
		const struct seg *y = &g_array_index(b->segs, struct seg, k);

		if (x->t0 != y->t0 || x->t1 != y->t1 || strcmp(x->state, y->state) != 0)
			return false;
	}
	return true;
}

static bool same_run(const struct plot_run *a, const struct plot_run *b)
{
	const cs_csv_trace *x = a->tr, *y = b->tr;

	if (x->nrows != y->nrows || x->ncols != y->ncols)
		return false;
	for (int c = 0; c < x->ncols; c++) {
		int d = cs_csv_find_col(y, x->cols[c].name);

		if (d < 0 || x->cols[c].is_label != y->cols[d].is_label)
			return false;
		for (size_t i = 0; i < x->nrows; i++)
			if (x->cols[c].is_label ? strcmp(x->cols[c].s[i], y->cols[d].s[i]) != 0 :
			    x->cols[c].v[i] != y->cols[d].v[i])
				return false;
	}
	for (int k = 0; k < BAND_COUNT; k++)
		if (!same_band(&a->band[k], &b->band[k]))
			return false;
	return true;
}

/* A run identical to an earlier one is named so in its title line (its lines merge
 * with the other's in every panel). */
static void find_identical(struct plot *pl)
{
	for (int i = 1; i < pl->n; i++)
		for (int j = 0; j < i; j++)
			if (pl->runs[j].same_as < 0 && same_run(&pl->runs[j], &pl->runs[i])) {
				pl->runs[i].same_as = j;
				break;
			}
}

char *plot_row_owner(const struct plot *pl, int run)
{
	GString *s = g_string_new(NULL);

	for (int i = run; i < pl->n; i++) {
		if (i != run && pl->runs[i].merge[MP_BAND].lead != run)
			continue;
		if (s->len)
			g_string_append_c(s, '=');
		if (pl->row_numbers)
			g_string_append_printf(s, "%d", i + 1);
		else
			g_string_append(s, pl->runs[i].label);
	}
	return g_string_free(s, FALSE);
}

char *plot_merge_names(const struct plot *pl, int run, int mp)
{
	GString *s = g_string_new(NULL);

	for (int i = run; i < pl->n; i++) {
		if (i != run && pl->runs[i].merge[mp].lead != run)
			continue;
		g_string_append(s, s->len ? " = " : "");
		if (pl->index_names)
			g_string_append_printf(s, "%d: ", i + 1);
		g_string_append(s, pl->runs[i].label);
	}
	return g_string_free(s, FALSE);
}

/* The longest name of a band row's owner (plot_row_owner()), with several runs. */
static size_t longest_owner(const struct plot *pl)
{
	size_t owner = 0;

	for (int i = 0; pl->n > 1 && i < pl->n; i++)
		if (pl->runs[i].merge[MP_BAND].lead < 0) {
			g_autofree char *name = plot_row_owner(pl, i);

			owner = MAX(owner, strlen(name));
		}
	return owner;
}

/* The longest key entry naming runs: a label, or the runs merged into one line of a
 * panel (and " (ibus_A)" when only the first series merged). */
static size_t longest_key(const struct plot *pl)
{
	size_t longest = 0;

	for (int i = 0; i < pl->n; i++) {
		longest = MAX(longest, strlen(pl->runs[i].label) + (pl->index_names ? 3 : 0));
		for (int mp = 0; mp < MP_BAND; mp++)
			if (pl->runs[i].merge[mp].n_members) {
				g_autofree char *name = plot_merge_names(pl, i, mp);

				longest = MAX(longest, strlen(name) + 10);
			}
	}
	return longest;
}

/* The state band: charger and source rows always; the detected port and the power
 * supply's type whenever a run has its events, the boot stage when a run boots, so
 * that plots of the same kind of run have the same rows. With several runs, one
 * compact row per run (struct band_stripe), or per group of runs whose states agree to
 * a pixel. Long labels name the rows by the runs' numbers and the key says which is
 * which; the margins make room for the row names and the keys. */
static void band_and_margins(struct plot *pl)
{
	size_t owner = 0;
	int distinct = 0;

	pl->band_used[BAND_CHARGER] = pl->band_used[BAND_SOURCE] = true;
	for (int i = 0; i < pl->n; i++) {
		if (pl->runs[i].in->events)
			pl->band_used[BAND_DETECTED] = pl->band_used[BAND_PSY] = true;
		distinct += pl->runs[i].merge[MP_BAND].lead < 0;
	}
	pl->compact = pl->n > 1;
	pl->px_row = pl->compact ? PX_BAND_ROW_COMPACT : PX_BAND_ROW;
	pl->n_rows = pl->compact ? distinct : 0;
	for (int k = 0; !pl->compact && k < BAND_COUNT; k++)
		pl->n_rows += pl->band_used[k];
	pl->index_names = false;
	for (int i = 0; i < pl->n; i++)
		pl->index_names |= pl->n > 1 && strlen(pl->runs[i].label) > 12;
	pl->row_numbers = pl->index_names;
	owner = longest_owner(pl);
	if (owner > 24 && !pl->row_numbers) {
		/* "1=2=5" rather than a row name half the canvas wide; the keys say which
		 * run has which number */
		pl->row_numbers = pl->index_names = true;
		owner = longest_owner(pl);
	}
	pl->px_left = PX_LEFT_MIN;
	if (pl->n > 1)
		pl->px_left = fmax(PX_LEFT_MIN, (double)(owner + 1) * PX_CHAR + 24);
	/* keys: the longest label (or "N: label") against the longest fixed text */
	pl->px_right = fmax(PX_RIGHT_MIN, PX_KEY_OFFSET + 40 + PX_KEY_CHAR * (double)longest_key(pl));
	pl->px_right = fmin(pl->px_right, 520);
}

/* Load steps: where the system load (iload_A) jumps by 10 mA or more and at least
 * two pixels of panel (b) from one row to the next, a marker, unless an event of the
 * run at the same time (a set of the load, a boot stage, a brownout) explains it. */
#define LOAD_STEP_MIN_A 0.01
static bool explained(const struct plot *pl, int run, double t, guint n_marks)
{
	for (guint k = 0; k < n_marks; k++) {
		const struct mark *m = &g_array_index(pl->marks, struct mark, k);

		if (m->run == run && fabs(m->t - t) <= 1e-3)
			return true;
	}
	return false;
}

static void load_steps(struct plot *pl)
{
	guint n_marks = pl->marks->len;
	double min_step = fmax(LOAD_STEP_MIN_A, 2 * (pl->ihi - pl->ilo) / PX_PANEL_B);

	for (int ri = 0; ri < pl->n; ri++) {
		const struct plot_run *r = &pl->runs[ri];
		const double *v, *t = r->tr ? r->tr->t : NULL;

		if (!r->has_iload)
			continue;
		v = r->tr->cols[r->col[COL_ILOAD]].v;
		for (size_t i = 1; i < r->tr->nrows; i++) {
			struct mark m = { .t = t[i], .run = ri, .group = MG_LOAD,
					  .seq = (int)pl->marks->len };

			if (!isfinite(v[i]) || !isfinite(v[i - 1]) || fabs(v[i] - v[i - 1]) < min_step ||
			    explained(pl, ri, t[i], n_marks))
				continue;
			m.label = v[i] >= 1 ? g_strdup_printf("load %.3g A", v[i]) :
				  g_strdup_printf("load %.0f mA", v[i] * 1e3);
			g_array_append_val(pl->marks, m);
		}
	}
}

/* The runs drawn as one line, for the title: "drawn as one line (within a pixel):
 * VBUS fixed = none, input current only: ..." (NULL: none). */
static char *merge_note(const struct plot *pl)
{
	static const char *const first[MP_COUNT] = {
		[MP_A] = "VBUS at device", [MP_B] = "input current", [MP_C] = "battery voltage",
		[MP_E] = "zoom VBUS",
	};
	GString *s = g_string_new(NULL);

	for (int mp = 0; mp < MP_COUNT; mp++)
		for (int i = 0; i < pl->n; i++)
			for (int partial = 0; partial < 2; partial++) {
				GString *g = g_string_new(NULL);
				int n = 0;

				for (int j = i + 1; j < pl->n; j++) {
					const struct merge *m = &pl->runs[j].merge[mp];

					if (m->lead != i || m->all == !!partial)
						continue;
					g_string_append_printf(g, " = %s", pl->runs[j].label);
					n++;
				}
				if (n)
					g_string_append_printf(s, "%s%s%s: %s%s", s->len ? ", " : "",
							       partial ? first[mp] : plot_merge_panel_names[mp],
							       partial ? " only" : "", pl->runs[i].label, g->str);
				g_string_free(g, TRUE);
			}
	if (!s->len) {
		g_string_free(s, TRUE);
		return NULL;
	}
	g_string_prepend(s, "drawn as one line (within a pixel): ");
	return g_string_free(s, FALSE);
}

void plot_layout(struct plot *pl)
{
	char *note;

	runs_extent(pl);
	find_identical(pl);
	g_array_sort(pl->sags, sag_cmp);
	g_array_sort(pl->ilim_sets, sag_cmp);
	g_array_sort(pl->attaches, sag_cmp);
	choose_unit(pl->t_max - pl->t_min, &pl->tu, &pl->tunit);
	axis_ranges(pl);
	load_steps(pl);
	g_array_sort(pl->marks, mark_cmp);
	choose_zoom(pl);
	/* the margins without merged names, the merges at that width, then the margins
	 * with the merged names */
	band_and_margins(pl);
	plot_merge(pl);
	band_and_margins(pl);
	title_lines(pl);
	if ((note = merge_note(pl)))
		add_sub_line(pl, note, -1);
	pl->px_title = 14 + PX_TITLE_LINE * (pl->sub_lines->len + 1.6);
	pl->px_band = pl->px_row * pl->n_rows + PX_BAND_ROW * BAND_STRIP;
	pl->px_zoom = pl->zoom ? PX_ZOOM_GAP + PX_ZOOM + PX_XAXIS : 0;
	pl->px_h = pl->px_title + PX_PANEL_A + PX_PANEL_B + PX_PANEL_C + pl->px_band +
		   3 * PX_PANEL_GAP + PX_XAXIS + pl->px_zoom;
	pl->px_h = ceil(pl->px_h / 10) * 10;
	layout_marks(pl, 0, pl->t_min, pl->t_max);
	if (pl->zoom)
		layout_marks(pl, 1, pl->z0, pl->z1);
}
