// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/script.c - writing a stacked plot (see stacked.h): NAME-states.dat (the
 * segments of the state band), NAME-events.dat (the event markers and where their
 * lines and labels go) and NAME.gp, the script.
 *
 * The script reads the traces by column name, keeps every choice in a named variable
 * near its top, and renders every format in FORMATS; the command line passes OUTBASE
 * so that the images are written under temporary names and renamed into place only
 * when gnuplot succeeded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "plots/gp.h"
#include "plots/stacked.h"
#include "sim/outfile.h"

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


bool plot_write_states(const struct plot *pl, const char *path, GError **err)
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
				g_autofree char *f = gp_dat_field(sg->state);

				gp_printf_num(s, "", sg->t0, ",");
				gp_printf_num(s, "", sg->t1, ",");
				g_string_append_printf(s, "%g,%u,%s\n", row_y(pl, i, k),
						       gp_rgb(plot_state_colour(k, sg->state)), f);
			}
		}
	ok = cs_outfile_write_all(path, s->str, s->len, err);
	g_string_free(s, TRUE);
	return ok;
}

bool plot_write_events(const struct plot *pl, const char *path, int *n_written, GError **err)
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
		const char *colour = pl->n > 1 ? plot_run_colour(m->run) : plot_mark_groups[m->group].rgb;
		g_autofree char *ml = m->count[0] > 1 ? g_strdup_printf("%s \xc3\x97%d",
			m->dense[0] ? plot_mark_groups[m->group].key : m->label, m->count[0]) : g_strdup(m->label);
		g_autofree char *zl = m->count[1] > 1 ? g_strdup_printf("%s \xc3\x97%d",
			m->dense[1] ? plot_mark_groups[m->group].key : m->label, m->count[1]) : g_strdup(m->label);
		g_autofree char *f = gp_dat_field(ml);
		g_autofree char *fz = gp_dat_field(zl);

		if (!m->line[0] && !m->line[1] && m->level[0] < 0 && m->level[1] < 0)
			continue;
		gp_num(s, m->t);
		g_string_append_printf(s, ",%d,%d,%u,%d,%d,%d,%d,%s,%s,%u,%u\n", m->run + 1, m->group,
				       gp_rgb(colour), m->line[0], m->level[0], m->line[1],
				       m->level[1], f, fz, m->shared[0] ? 0x333333 : gp_rgb(colour),
				       m->shared[1] ? 0x333333 : gp_rgb(colour));
		(*n_written)++;
	}
	ok = cs_outfile_write_all(path, s->str, s->len, err);
	g_string_free(s, TRUE);
	return ok;
}
/* The margins of one panel: top and bottom in pixels from the top of the canvas. */
static void gp_panel(GString *s, const struct plot *pl, double top_px, double bottom_px)
{
	g_string_append(s, "\tset tmargin at screen ");
	gp_num(s, gp_frac(pl->px_h - top_px, pl->px_h));
	g_string_append(s, "; set bmargin at screen ");
	gp_num(s, gp_frac(pl->px_h - bottom_px, pl->px_h));
	g_string_append(s, "\n");
}

static void gp_key_at(GString *s, const struct plot *pl, double top_px)
{
	g_string_append(s, "\tset key at screen ");
	gp_num(s, gp_frac(PX_W - pl->px_right + PX_KEY_OFFSET, PX_W));
	g_string_append(s, ", screen ");
	gp_num(s, gp_frac(pl->px_h - top_px, pl->px_h));
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
		const struct plot_run *r = &pl->runs[i];
		bool one = pl->n == 1;
		const char *c = plot_run_colour(i);
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

char *plot_script_text(const struct plot *pl, const char *base_name, int n_events)
{
	const struct plot_spec *sp = pl->spec;
	GString *s = g_string_new(NULL);
	double top = pl->px_title, bottom;
	double px_l = pl->px_left, px_r = PX_W - pl->px_right;
	bool any_mlabel = false, any_zlabel = false;
	bool group_used[MG_COUNT] = { false };
	g_autofree char *title = NULL;
	const char *formats = gp_formats(sp->png, sp->svg);

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
	gp_num(s, gp_frac(px_l, PX_W));
	g_string_append(s, "; RM = ");
	gp_num(s, gp_frac(px_r, PX_W));
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
	gp_num(s, gp_frac(pl->px_h - 20, pl->px_h));
	g_string_append(s, " center font 'sans,13'\n");
	for (guint i = 0; i < pl->sub_lines->len; i++) {
		g_string_append_printf(s, "\tset label %u SUB%u at screen 0.5, screen ", i + 2, i + 1);
		gp_num(s, gp_frac(pl->px_h - 20 - PX_TITLE_LINE * (i + 1.2), pl->px_h));
		g_string_append_printf(s, " center font 'sans,9' tc rgb '%s'\n",
				       pl->n > 1 ? plot_run_colour(g_array_index(pl->sub_runs, int, i)) :
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
				name = g_strdup(plot_band_names[k]);
			else if (pl->index_names)
				name = g_strdup_printf("%d %s", i + 1, plot_band_names[k]);
			else
				name = g_strdup_printf("%s %s", pl->runs[i].label, plot_band_names[k]);
			g_string_append(s, first ? "" : ", ");
			first = 0;
			gp_quote(s, name);
			g_string_append_printf(s, " %g", row_y(pl, i, k));
		}
	g_string_append(s, ")\n");
	g_string_append_printf(s, "\tset format x '%%g'; set xlabel sprintf('time [%%s]', TUNIT)\n");
	g_string_append(s, "\tset key at screen ");
	gp_num(s, gp_frac(PX_W - pl->px_right + PX_KEY_OFFSET, PX_W));
	g_string_append(s, ", screen ");
	gp_num(s, gp_frac(pl->px_h - top, pl->px_h));
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
						       plot_mark_groups[gi].rgb, plot_mark_groups[gi].key);
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
