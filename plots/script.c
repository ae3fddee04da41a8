// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/script.c - writing a stacked plot (see stacked.h): NAME-states.dat (the
 * segments of the state band), NAME-events.dat (the event markers and where their
 * lines and labels go) and NAME.gp, the script, from plots/templates/.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "plots/gp.h"
#include "plots/stacked.h"
#include "plots/templates.h"
#include "output/outfile.h"

/* One band row's segments of kind k of run i: row, its place in the row and whether
 * the state is named (struct band_stripe; one run: every kind a row of its own). */
static void band_segments(GString *s, const struct plot *pl, int i, int k, int row)
{
	const struct band *b = &pl->runs[i].band[k];
	const struct band_stripe *st = &plot_band_stripes[k];
	static const struct band_stripe whole = { -0.42, 0.42, NULL, true };

	if (!pl->compact)
		st = &whole;
	for (guint j = 0; j < b->segs->len; j++) {
		const struct seg *sg = &g_array_index(b->segs, struct seg, j);
		g_autofree char *f = gp_dat_field(sg->state);

		if (st->quiet && strcmp(sg->state, st->quiet) == 0)
			continue;
		gp_num_then(s, sg->t0, ",");
		gp_num_then(s, sg->t1, ",");
		g_string_append_printf(s, "%d,%u,%s,", row, gp_rgb(plot_state_colour(k, sg->state)), f);
		gp_num_then(s, st->lo, ",");
		gp_num_then(s, st->hi, st->named ? ",1\n" : ",0\n");
	}
}

bool plot_write_states(const struct plot *pl, const char *path, GError **err)
{
	g_autoptr(GString) s = g_string_new(NULL);
	int row = pl->n_rows;   /* runs in order, each with its rows top to bottom */

	g_string_append(s, "# chargesim state band: one segment per line (state columns of the traces,\n"
			   "# detected type and power-supply type and boot stage from events.jsonl);\n"
			   "# lo..hi its place in the row (row + lo to row + hi), named 1: its name is\n"
			   "# written in it where it fits\n"
			   "# t0_s,t1_s,row,rgb,state,lo,hi,named\n");
	for (int i = 0; i < pl->n; i++) {
		if (pl->runs[i].merge[MP_BAND].lead >= 0)
			continue;
		for (int k = 0; k < BAND_COUNT; k++) {
			if (!pl->band_used[k])
				continue;
			band_segments(s, pl, i, k, row);
			row -= !pl->compact;
		}
		row -= pl->compact;
	}
	return cs_outfile_write_all(path, s->str, s->len, err);
}

/* A marker's label in one view (0 main, 1 zoom): "label xN" for N merged events,
 * the kind's key for a frequent kind's one label. Caller frees. */
static char *view_label(const struct mark *m, int view)
{
	if (m->count[view] <= 1)
		return g_strdup(m->label);
	return g_strdup_printf("%s \xc3\x97%d", m->dense[view] ? plot_mark_groups[m->group].key :
			       m->label, m->count[view]);
}

bool plot_write_events(const struct plot *pl, const char *path, int *n_written, GError **err)
{
	g_autoptr(GString) s = g_string_new(NULL);

	*n_written = 0;
	g_string_append(s, "# chargesim event markers (from events.jsonl): main/zoom 1 = draw the line\n"
			   "# in that view (main 2: in the state band only, the kind is too frequent),\n"
			   "# mlevel/zlevel = label level (-1 no label), label xN = N events\n"
			   "# labels shared by several runs (the same event at the same place) are grey\n"
			   "# t_s,run,group,rgb,main,mlevel,zoom,zlevel,mlabel,zlabel,mlabel_rgb,zlabel_rgb\n");
	for (guint i = 0; i < pl->marks->len; i++) {
		const struct mark *m = &g_array_index(pl->marks, struct mark, i);
		const char *colour = pl->n > 1 ? plot_run_colour(m->run) : plot_mark_groups[m->group].rgb;
		g_autofree char *ml = view_label(m, 0), *zl = view_label(m, 1);
		g_autofree char *f = gp_dat_field(ml), *fz = gp_dat_field(zl);

		if (!m->line[0] && !m->line[1] && m->level[0] < 0 && m->level[1] < 0)
			continue;
		gp_num(s, m->t);
		g_string_append_printf(s, ",%d,%d,%u,%d,%d,%d,%d,%s,%s,%u,%u\n", m->run + 1, m->group,
				       gp_rgb(colour), m->line[0], m->level[0], m->line[1],
				       m->level[1], f, fz, m->shared[0] ? 0x333333 : gp_rgb(colour),
				       m->shared[1] ? 0x333333 : gp_rgb(colour));
		(*n_written)++;
	}
	return cs_outfile_write_all(path, s->str, s->len, err);
}
/* ---- the script ---- */

/* Which event markers are drawn where, and the script's title. */
struct script_info {
	const char *base;        /* the script's name without .gp */
	int n_events;            /* markers in NAME-events.dat */
	bool any_mlabel, any_zlabel;
	bool group_used[MG_COUNT];
	char *title;
};

/* Add the series of a plot command: one per line of the expanded template, joined by
 * ", \" after "\tplot \". */
static void cmd_add(GString *cmd, const char *tpl, const GPtrArray *vars)
{
	g_autofree char *block = gp_expand_block(tpl, vars);
	g_auto(GStrv) lines = g_strsplit(block, "\n", -1);

	for (int i = 0; lines[i]; i++) {
		if (!*lines[i])
			continue;
		g_string_append(cmd, cmd->len ? ", \\\n" : "\tplot \\\n");
		g_string_append(cmd, lines[i]);
	}
}

/* A panel: its templates, its height and its place (top and bottom in pixels from the
 * top of the canvas), its ranges. */
struct panel {
	const char *name;            /* "a" .. "e" */
	int mp;                      /* its merges (enum merge_panel) */
	const char *tf;              /* its time axis function: "T" (main) or "Z" (zoom) */
	const char *tpl, *series, *legend;
	const char *last;            /* a series template drawn after all others, or NULL */
	double height, top, bottom;
	double ylo, yhi, y2lo, y2hi;
	bool limits;                 /* the USB minimum and UVLO lines */
	bool run_key;                /* the runs' colours are in its key (on the first series) */
};

/* The lines every panel has: its margins, its key at its top, its report line. */
static void panel_frame(GPtrArray *v, const struct plot *pl, const struct panel *p)
{
	gp_set_num(v, "TOP", gp_frac(pl->px_h - p->top, pl->px_h));
	gp_set_num(v, "BOTTOM", gp_frac(pl->px_h - p->bottom, pl->px_h));
	gp_set_num(v, "KEY_X", gp_frac(PX_W - pl->px_right + PX_KEY_OFFSET, PX_W));
	gp_set_num(v, "KEY_Y", gp_frac(pl->px_h - p->top, pl->px_h));
	gp_set(v, "PANEL", p->name);
	gp_set_block(v, "MARGINS", plot_tpl_panels_margins, v);
	gp_set_block(v, "KEY", plot_tpl_panels_key, v);
	gp_set_block(v, "REPORT", plot_tpl_panels_report, v);
	gp_set_num(v, "YLO", p->ylo);
	gp_set_num(v, "YHI", p->yhi);
	gp_set_num(v, "Y2LO", p->y2lo);
	gp_set_num(v, "Y2HI", p->y2hi);
}

/* A run's key entry: its label, or the runs drawn as one line with it ("N: label" with
 * long labels). Caller frees. */
static char *run_key(const struct plot *pl, int i, int mp)
{
	if (pl->runs[i].merge[mp].n_members)
		return plot_merge_names(pl, i, mp);
	return pl->index_names ? g_strdup_printf("%d: %s", i + 1, pl->runs[i].label) :
				 g_strdup(pl->runs[i].label);
}

/* Every run's series of a panel; with several runs the colour is the run's, its label
 * goes into the key once, and the legend of line styles follows. A run whose first
 * series agrees with an earlier run's (merge.c) draws it dashed over the other's, and
 * no other series when they all agree: with m such runs over one, run j (1..m) is
 * solid for D (m + 1 - j) units of a D (m + 1) period, and drawn after the runs before
 * it, so that each shows in a stripe of its own (D = DUP_DASH, in gnuplot's dash
 * units: about 12 px stripes at the plots' line widths). */
#define DUP_DASH 12
static void run_series(GString *cmd, const struct plot *pl, const struct panel *p)
{
	g_autoptr(GPtrArray) none = gp_vars_new();

	for (int i = 0; i < pl->n; i++) {
		const struct plot_run *r = &pl->runs[i];
		const struct merge *m = &r->merge[p->mp];
		g_autoptr(GPtrArray) v = gp_vars_new();

		gp_setf(v, "RUN", "%d", i + 1);
		gp_setf(v, "IDX", "%d", i);
		gp_set(v, "SRC_ILIM", r->src_ilim_drawn && !m->all ? "" : NULL);
		gp_set(v, "IBAT", r->has_ibat && !m->all ? "" : NULL);
		gp_set(v, "ILOAD", r->has_iload && !m->all ? "" : NULL);
		gp_set(v, "BUDGET", r->budget_drawn && !m->all ? "" : NULL);
		gp_set(v, "FULL", !m->all ? "" : NULL);
		if (m->lead >= 0)
			gp_setf(v, "DASH", "(%d,%d)",
				DUP_DASH * (pl->runs[m->lead].merge[p->mp].n_members + 1 - m->index),
				DUP_DASH * m->index);
		if (pl->n > 1) {
			g_autoptr(GString) title = g_string_new("title ");
			g_autofree char *label = run_key(pl, i, p->mp);

			gp_quote(title, label);
			gp_set(v, "C", plot_run_colour(i));
			gp_set(v, "LEGEND", p->run_key && m->lead < 0 ? title->str : "notitle");
			gp_set(v, "NOLEGEND", "notitle");
		}
		cmd_add(cmd, p->series, v);
		if (r->src_ilim_drawn)
			gp_set(none, "SRC_ILIM", "");
		if (r->has_ibat)
			gp_set(none, "IBAT", "");
		if (r->has_iload)
			gp_set(none, "ILOAD", "");
		if (r->budget_drawn)
			gp_set(none, "BUDGET", "");
	}
	if (pl->n > 1)
		cmd_add(cmd, p->legend, none);
}

/* In a panel without the runs' colours in its key, an entry for each group of runs
 * drawn as one line: "fixed = none" (every line), "fixed = none (ibus_A)" (the first
 * series only). */
static void merge_keys(GString *cmd, const struct plot *pl, const struct panel *p,
		       const char *first)
{
	for (int i = 0; i < pl->n && !p->run_key; i++) {
		g_autoptr(GPtrArray) v = gp_vars_new();
		g_autofree char *names = NULL;
		g_autoptr(GString) text = g_string_new(NULL);
		bool all = true;

		if (!pl->runs[i].merge[p->mp].n_members)
			continue;
		for (int j = i + 1; j < pl->n; j++)
			if (pl->runs[j].merge[p->mp].lead == i)
				all &= pl->runs[j].merge[p->mp].all;
		names = plot_merge_names(pl, i, p->mp);
		g_string_printf(text, all ? "%s" : "%s (%s)", names, first);
		gp_set(v, "C", plot_run_colour(i));
		gp_set_quoted(v, "TEXTQ", text->str);
		cmd_add(cmd, plot_tpl_panels_merge_key, v);
	}
}

/* Each run's PD contract and its minimum (panel (a) and the zoom), in place of the
 * fixed 4.75 V line, when some run has a contract above 5 V; the contract's current
 * in (b). */
static bool same_contract(const struct plot_run *a, const struct plot_run *b)
{
	if (a->contract->len != b->contract->len)
		return false;
	for (guint k = 0; k < a->contract->len; k++) {
		const struct contract_pt *x = &g_array_index(a->contract, struct contract_pt, k);
		const struct contract_pt *y = &g_array_index(b->contract, struct contract_pt, k);

		if (x->t != y->t || x->v != y->v || (x->a != y->a && !(isnan(x->a) && isnan(y->a))))
			return false;
	}
	return true;
}

static void contract_series(GString *cmd, const struct plot *pl, const struct panel *p,
			    bool current)
{
	bool shared = true;   /* every run has the first one's contract: draw it once */
	bool any = false;

	for (int i = 0; i < pl->n; i++) {
		shared &= same_contract(&pl->runs[0], &pl->runs[i]) &&
			  (!current || pl->runs[i].pd_current == pl->runs[0].pd_current);
		any |= !current || pl->runs[i].pd_current;
	}
	if (!any)
		return;
	for (int i = 0; i < (shared ? 1 : pl->n); i++) {
		g_autoptr(GPtrArray) v = gp_vars_new();

		if (pl->runs[i].merge[p->mp].all || (current && !pl->runs[i].pd_current))
			continue;
		gp_setf(v, "IDX", "%d", i);
		gp_set(v, "TF", p->tf);
		if (!shared) {
			gp_set(v, "C", plot_run_colour(i));
			gp_set(v, "CTITLE", "notitle");
			gp_set(v, "MTITLE", "notitle");
		}
		cmd_add(cmd, current ? plot_tpl_panels_contract_current : plot_tpl_panels_contract, v);
	}
	if (!shared)
		cmd_add(cmd, current ? plot_tpl_panels_contract_current_legend :
			plot_tpl_panels_contract_legend, NULL);
}

/* A signal panel: (a), (b), (c) or the zoom (e); extra: the panel's own values. */
static void signal_panel(GString *s, const struct plot *pl, const struct panel *p,
			 GPtrArray *extra)
{
	GString *cmd = g_string_new(NULL);
	g_autoptr(GPtrArray) lim = gp_vars_new();

	panel_frame(extra, pl, p);
	run_series(cmd, pl, p);
	if (p->limits) {
		gp_set(lim, "UVLO", isfinite(pl->spec->uvlo_v) ? "" : NULL);
		gp_set(lim, "USBMIN", pl->contract ? NULL : "");
		if (pl->contract)
			contract_series(cmd, pl, p, false);
		cmd_add(cmd, plot_tpl_panels_limits, lim);
	}
	if (p->mp == MP_B)
		contract_series(cmd, pl, p, true);
	merge_keys(cmd, pl, p, p->mp == MP_B ? "ibus_A" : "vbat_V");
	if (p->last)
		cmd_add(cmd, p->last, extra);
	gp_set(extra, "PLOT", cmd->str);
	gp_expand(s, p->tpl, extra);
	g_string_free(cmd, TRUE);
}

/* The names of the band rows and their heights: "'charger' 2, 'source' 1"; with
 * several runs one row per run or group of runs: "'fixed=none' 2, 'safe-ramp' 1". */
static char *band_rows(const struct plot *pl)
{
	GString *s = g_string_new(NULL);
	int row = pl->n_rows;   /* as plot_write_states() numbers them */

	for (int i = 0; i < pl->n; i++)
		for (int k = 0; k < BAND_COUNT; k++) {
			g_autofree char *name = NULL;

			if (!pl->band_used[k] || pl->runs[i].merge[MP_BAND].lead >= 0 ||
			    (pl->compact && k != BAND_CHARGER))
				continue;
			name = pl->compact ? plot_row_owner(pl, i) : g_strdup(plot_band_names[k]);
			g_string_append(s, s->len ? ", " : "");
			gp_quote(s, name);
			g_string_append_printf(s, " %d", row--);
		}
	return g_string_free(s, FALSE);
}

/* The compact band's key: what the stripes of the rows show, one entry per state
 * drawn in a stripe ("source: limiting"), at most MAX_STRIPE_KEYS. */
#define MAX_STRIPE_KEYS 8
static void stripe_keys(GString *cmd, const struct plot *pl)
{
	g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(g_free);

	for (int k = 0; k < BAND_COUNT; k++)
		for (int i = 0; i < pl->n && k != BAND_CHARGER && pl->band_used[k]; i++) {
			const GArray *segs = pl->runs[i].band[k].segs;

			for (guint j = 0; j < segs->len && seen->len < MAX_STRIPE_KEYS; j++) {
				const char *st = g_array_index(segs, struct seg, j).state;
				g_autofree char *text = g_strdup_printf("%s: %s", plot_band_names[k], st);
				g_autoptr(GPtrArray) v = gp_vars_new();
				const char *quiet = plot_band_stripes[k].quiet;

				if ((quiet && strcmp(st, quiet) == 0) ||
				    g_ptr_array_find_with_equal_func(seen, text, g_str_equal, NULL))
					continue;
				if (!seen->len)
					cmd_add(cmd, plot_tpl_panels_d_stripe_head, NULL);
				gp_set(v, "RGB", plot_state_colour(k, st));
				gp_set_quoted(v, "TEXTQ", text);
				cmd_add(cmd, plot_tpl_panels_d_stripe_key, v);
				g_ptr_array_add(seen, g_steal_pointer(&text));
			}
		}
}

/* (d): the state band and the event labels; the key names the event kinds (one run)
 * or how event lines tell the runs apart and what the stripes show. */
static void band_panel(GString *s, const struct plot *pl, const struct panel *p,
		       const struct script_info *si)
{
	g_autoptr(GPtrArray) v = gp_vars_new();
	g_autofree char *rows = band_rows(pl);
	GString *cmd = g_string_new(NULL);
	double lrow = PX_BAND_ROW / pl->px_row;   /* a label line, in rows */

	panel_frame(v, pl, p);
	gp_setf(v, "NROWS", "%d", pl->n_rows);
	gp_set(v, "EVENTS", si->n_events > 0 ? "" : NULL);
	gp_set(v, "LABELS", si->n_events > 0 && si->any_mlabel ? "" : NULL);
	gp_set_num(v, "STRIP", BAND_STRIP * lrow);
	gp_set_num(v, "LROW", lrow);
	gp_set(v, "ROWS", rows);
	gp_setf(v, "MAXROWS", "%d", MAX(4, (int)(pl->px_band / 13)));
	cmd_add(cmd, plot_tpl_panels_d_series, v);
	for (int g = 0; pl->n == 1 && g < MG_COUNT; g++) {
		g_autoptr(GPtrArray) k = gp_vars_new();

		if (!si->group_used[g])
			continue;
		gp_set(k, "RGB", plot_mark_groups[g].rgb);
		gp_set(k, "KIND", plot_mark_groups[g].key);
		cmd_add(cmd, plot_tpl_panels_d_kind_key, k);
	}
	if (pl->n > 1)
		cmd_add(cmd, plot_tpl_panels_d_legend, v);
	if (pl->compact)
		stripe_keys(cmd, pl);
	gp_set(v, "PLOT", cmd->str);
	gp_expand(s, plot_tpl_panels_d, v);
	g_string_free(cmd, TRUE);
}

/* vars[name] = a string of every run, quoted: "'a', 'b'" (field: its offset in the run). */
static void set_run_list(GPtrArray *vars, const char *name, const struct plot *pl, size_t field)
{
	g_autoptr(GString) list = g_string_new(NULL);

	for (int i = 0; i < pl->n; i++) {
		g_string_append(list, i ? ", " : "");
		gp_quote(list, G_STRUCT_MEMBER(const char *, &pl->runs[i], field));
	}
	gp_set(vars, name, list->str);
}

/* The head and the variables: what the script is and every choice made from the data. */
static void script_head(GString *s, const struct plot *pl, const struct script_info *si)
{
	const struct plot_spec *sp = pl->spec;
	g_autoptr(GPtrArray) v = gp_vars_new();
	GString *list = g_string_new(NULL);

	gp_set_escaped(v, "BASE", si->base);
	gp_set_escaped(v, "TITLE", si->title);
	gp_set(v, "FORMATS", gp_formats(sp->png, sp->svg));
	gp_set(v, "ZOOM_PANEL", pl->zoom ? ", (e) zoom" : "");
	if (pl->contract_file) {
		g_string_append(list, ",\n# ");
		gp_escape(list, si->base);
		g_string_append(list, "-contract.dat (each run's PD contract)");
	}
	gp_set(v, "CONTRACT_FILE", list->str);
	gp_expand(s, plot_tpl_stacked_head, v);
	g_string_truncate(list, 0);

	gp_setf(v, "W", "%d", PX_W);
	gp_setf(v, "H", "%d", (int)pl->px_h);
	gp_setf(v, "N", "%d", pl->n);
	set_run_list(v, "TRACES", pl, offsetof(struct plot_run, data_rel));
	set_run_list(v, "ORIGINALS", pl, offsetof(struct plot_run, trace_rel));
	gp_set(v, "CONTRACT", pl->contract_file ? "" : NULL);
	gp_set_num(v, "VBUS_FRACTION", VBUS_MIN_FRACTION);
	set_run_list(v, "LABELS", pl, offsetof(struct plot_run, label));
	gp_setf(v, "NE", "%d", si->n_events);
	gp_setf(v, "TU", "%g", pl->tu);
	gp_set(v, "TUNIT", pl->tunit);
	gp_set_num(v, "TMIN", pl->t_min);
	gp_set_num(v, "TMAX", pl->t_max);
	gp_set_num(v, "VBUS_MIN", VBUS_MIN_USB);
	gp_set_num(v, "UVLO", sp->uvlo_v);
	if (pl->zoom) {
		gp_set(v, "ZOOM", "");
		gp_set_num(v, "Z0", pl->z0);
		gp_set_num(v, "Z1", pl->z1);
		gp_set_quoted(v, "ZREASONQ", pl->zoom_reason);
		gp_setf(v, "ZU", "%g", pl->zu);
		gp_set(v, "ZUNIT", pl->zunit);
	}
	gp_set_quoted(v, "TITLEQ", si->title);
	for (guint i = 0; i < pl->sub_lines->len; i++) {
		g_autoptr(GPtrArray) sub = gp_vars_new();

		gp_setf(sub, "I", "%u", i + 1);
		gp_set_quoted(sub, "TEXTQ", g_ptr_array_index(pl->sub_lines, i));
		gp_expand(list, plot_tpl_stacked_subtitle, sub);
	}
	if (list->len)
		g_string_truncate(list, list->len - 1);
	gp_set(v, "SUBTITLES", list->str);
	gp_set_num(v, "LM", gp_frac(pl->px_left, PX_W));
	gp_set_num(v, "RM", gp_frac(PX_W - pl->px_right, PX_W));
	gp_expand(s, plot_tpl_stacked_variables, v);
	g_string_free(list, TRUE);
}

/* The frame: the loop over the formats, the settings every panel shares, the title
 * lines (the title, then the runs' metrics in their colours), the zoom window shaded
 * and the event lines. */
static void script_frame(GString *s, const struct plot *pl, const struct script_info *si)
{
	g_autoptr(GPtrArray) v = gp_vars_new();
	g_autoptr(GPtrArray) t = gp_vars_new();
	g_autoptr(GString) titles = g_string_new(NULL);

	gp_set_num(t, "Y", gp_frac(pl->px_h - 20, pl->px_h));
	gp_expand(titles, plot_tpl_stacked_title, t);
	for (guint i = 0; i < pl->sub_lines->len; i++) {
		int run;

		gp_setf(t, "LABEL", "%u", i + 2);
		gp_setf(t, "I", "%u", i + 1);
		gp_set_num(t, "Y", gp_frac(pl->px_h - 20 - PX_TITLE_LINE * (i + 1.2), pl->px_h));
		run = g_array_index(pl->sub_runs, int, i);
		gp_set(t, "RGB", pl->n > 1 && run >= 0 ? plot_run_colour(run) : "#333333");
		gp_expand(titles, plot_tpl_stacked_subtitle_label, t);
	}
	g_string_truncate(titles, titles->len - 1);
	gp_set_block(v, "TERMINAL", plot_tpl_terminal_select, NULL);
	gp_set(v, "TITLES", titles->str);
	gp_set(v, "ZOOM", pl->zoom ? "" : NULL);
	gp_set(v, "EVENTS", si->n_events > 0 ? "" : NULL);
	gp_expand(s, plot_tpl_stacked_frame, v);
}

static void script_info(struct script_info *si, const struct plot *pl)
{
	for (guint i = 0; i < pl->marks->len; i++) {
		const struct mark *m = &g_array_index(pl->marks, struct mark, i);

		si->any_mlabel |= m->level[0] >= 0;
		si->any_zlabel |= m->level[1] >= 0;
		si->group_used[m->group] |= m->line[0] || m->level[0] >= 0;
	}
	if (pl->spec->title) {
		si->title = g_strdup(pl->spec->title);
	} else {
		GString *t = g_string_new(NULL);

		for (int i = 0; i < pl->n; i++)
			g_string_append_printf(t, "%s%s", i ? ", " : "", pl->runs[i].label);
		si->title = g_string_free(t, FALSE);
	}
}

char *plot_script_text(const struct plot *pl, const char *base_name, int n_events)
{
	struct script_info si = { .base = base_name, .n_events = n_events };
	GString *s = g_string_new(NULL);
	struct panel p[] = {
		{ "a", MP_A, "T", plot_tpl_panels_a, plot_tpl_panels_a_series,
		  plot_tpl_panels_a_legend, NULL, PX_PANEL_A, 0, 0, pl->vlo, pl->vhi, 0, 0, true,
		  true },
		{ "b", MP_B, "T", plot_tpl_panels_b, plot_tpl_panels_b_series,
		  plot_tpl_panels_b_legend, NULL, PX_PANEL_B, 0, 0, pl->ilo, pl->ihi, 0, 0, false,
		  false },
		{ "c", MP_C, "T", plot_tpl_panels_c, plot_tpl_panels_c_series,
		  plot_tpl_panels_c_legend, NULL, PX_PANEL_C, 0, 0, pl->blo, pl->bhi, pl->slo,
		  pl->shi, false, false },
		{ "d", MP_BAND, "T", plot_tpl_panels_d, NULL, NULL, NULL, pl->px_band, 0, 0, 0, 0, 0,
		  0, false, false },
		{ "e", MP_E, "Z", plot_tpl_panels_e, plot_tpl_panels_e_series,
		  plot_tpl_panels_e_legend, plot_tpl_panels_e_labels, PX_ZOOM, 0, 0, pl->vlo,
		  pl->vhi, pl->ilo, pl->ihi, true, true },
	};

	script_info(&si, pl);
	script_head(s, pl, &si);
	script_frame(s, pl, &si);
	for (int k = 0; k < (pl->zoom ? 5 : 4); k++) {
		g_autoptr(GPtrArray) v = gp_vars_new();

		/* the panels one under the other; the zoom below the time axis labels */
		p[k].top = k == 0 ? pl->px_title : k == 4 ? p[3].bottom + PX_ZOOM_GAP + PX_XAXIS - 6 :
			   p[k - 1].bottom + PX_PANEL_GAP;
		p[k].bottom = p[k].top + p[k].height;
		if (k == 3) {
			band_panel(s, pl, &p[k], &si);
			continue;
		}
		if (k == 4) {
			bool labels = n_events > 0 && si.any_zlabel;

			gp_set(v, "EVENTS", n_events > 0 ? "" : NULL);
			gp_set(v, "LABELS", labels ? "" : NULL);
			p[k].last = labels ? p[k].last : NULL;
			gp_set_num(v, "ZLAB_TOP", pl->vhi);
			gp_set_num(v, "ZLAB_SPAN", pl->vhi - pl->vlo);
		}
		signal_panel(s, pl, &p[k], v);
	}
	gp_expand(s, plot_tpl_stacked_end, NULL);
	g_free(si.title);
	return g_string_free(s, FALSE);
}
