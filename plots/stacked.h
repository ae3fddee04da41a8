/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plots/stacked.h - the stacked plot of traces (plot_traces() in plot.h), inside
 * plots/: what the scan finds, what the layout decides and what the script writer
 * reads, in one struct plot. The steps: scan.c reads each run, layout.c lays the plot
 * out, thin.c and script.c write the data and the script, plot.c runs them in turn.
 */
#ifndef CS_PLOTS_STACKED_H
#define CS_PLOTS_STACKED_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "plots/plot.h"
#include "traces/csv.h"

/* The trace columns the plot reads: the standard ones (docs/scenarios.md 11.1) first, then
 * the extras it draws when present. */
enum {
	COL_TIME, COL_VSRC, COL_VBUS, COL_IBUS, COL_ILIM, COL_VBAT, COL_SOC, COL_CHG,
	COL_SRC, COL_SRC_ILIM, COL_IBAT, COL_ILOAD, COL_BUDGET, COL_COUNT
};
#define COL_REQUIRED COL_SRC_ILIM     /* the first optional column */
extern const char *const plot_column_names[COL_COUNT];

/* The USB 2.0 minimum VBUS at the device. */
#define VBUS_MIN_USB 4.75
/* A USB PD fixed supply may deliver its nominal voltage -5 % (vSrcNew, USB PD 3.1
 * table 7-22); at 5 V that is the USB 2.0 minimum above. */
#define VBUS_MIN_FRACTION 0.95
#define VBUS_NOMINAL 5.0

/* The thinned copy of each trace the script reads (thin.c): a row is left out when
 * every plotted series passes within THIN_PX pixels of the straight line between the
 * rows kept around it, at the panels' scale. */
#define THIN_PX 0.25

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
#define PX_BAND_ROW_COMPACT 22 /* the one row per run of a plot of several runs */
#define PX_XAXIS 48            /* tick labels and the axis label below the band */
#define PX_ZOOM_GAP 40
#define PX_ZOOM 240
#define PX_TITLE_LINE 17
#define PX_CHAR 6.3            /* width of a character at font size 8 (label layout) */
#define LABEL_LEVELS 4
#define DENSE_LABELS 12        /* more events of a kind in a run and view: one label */
#define BAND_STRIP 3.75        /* event label strip above the state rows, in rows */

/* The rows of the state band, per run. */
enum band_kind { BAND_CHARGER, BAND_SOURCE, BAND_DETECTED, BAND_PSY, BAND_BOOT, BAND_COUNT };
extern const char *const plot_band_names[BAND_COUNT];

/* With several runs each run has one compact row of the band: the charger state fills
 * it and is named, the other kinds are stripes across its top and bottom (offsets from
 * the row's centre, in rows); a stripe leaves out its usual state (`quiet`, e.g. the
 * source "on"), so that only what departs from it shows. */
struct band_stripe {
	double lo, hi;
	const char *quiet;     /* the state not drawn, or NULL */
	bool named;            /* the state's name is written in its segment */
};
extern const struct band_stripe plot_band_stripes[BAND_COUNT];

/* Runs closer than MERGE_PX pixels of a panel's y axis in every pixel column of its
 * time axis are drawn as one line (merge.c). */
#define MERGE_PX 1.0

/* The panels a run's lines may merge in: (a) VBUS, (b) currents, (c) battery, (e)
 * zoom, and the rows of the state band. */
enum merge_panel { MP_A, MP_B, MP_C, MP_E, MP_BAND, MP_COUNT };
extern const char *const plot_merge_panel_names[MP_COUNT];

/* How a run is drawn in one panel. */
struct merge {
	int lead;      /* the earlier run whose first series this run's first series agrees
			* with (this run draws it in stripes over the lead's), -1 none */
	bool all;      /* every series of the panel agrees with lead's: this run draws no
			* other series (the lead's lines stand for both) */
	int n_members; /* for a lead: the runs merged into it */
	int index;     /* for a member: 1, 2, ... among its lead's members */
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

/* Marker groups: one colour and one key entry each (style.c). */
enum mark_group {
	MG_ATTACH, MG_DETECT, MG_DRAW, MG_TRIP, MG_UVLO, MG_BROWNOUT, MG_BOOT, MG_FAULT,
	MG_SCENARIO, MG_SUSPEND, MG_LOAD, MG_COUNT
};

struct mark_style {
	const char *key;
	const char *rgb;
};
extern const struct mark_style plot_mark_groups[MG_COUNT];

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

/* An interval of one run (a VBUS sag), or an instant (t0 == t1: an attach, an
 * ilim_set). */
struct sag {
	double t0, t1;
	int run;
	bool to_end;             /* a sag still open when the trace ends */
};

/* A point of a run's PD contract: from t on, the source's nominal voltage is v and
 * the contract's current a (NAN: no PD contract, 5 V by default). */
struct contract_pt {
	double t, v, a;
};

/* One trace and what the scan found in it. */
struct plot_run {
	const struct plot_trace *in;   /* as the caller gave it */
	char *label;
	char *trace_rel;         /* the trace relative to the script's directory */
	char *data_rel;          /* its thinned copy (thin.c), relative the same way */
	cs_csv_trace *tr;        /* the trace as read (the thinned copy is made from it) */
	int col[COL_COUNT];      /* the index in tr of each plot column, -1 absent */
	bool has_src_ilim, has_ibat, has_iload, has_budget;
	bool src_ilim_drawn;     /* some of the source's limit lies on the current axis */
	bool budget_drawn;       /* the same for the port's budget (budget_A) */
	bool pd_current;         /* some PD contract current to draw in (b): a contract,
				  * and no budget_A column (which holds it) */
	double budget_min_on;    /* the lowest budget above 0 */
	double t_min, t_max;
	double src_ilim_min_on;  /* the lowest source limit while attached */
	GArray *contract;        /* struct contract_pt: 5 V at the start, then each PD
				  * contract from its PS_RDY, 5 V again after a detach */
	double pd_accept_v;      /* the last Accepted request's voltage, NAN none */
	double pd_accept_a;      /* and its current */
	bool pd;                 /* some contract other than 5 V */
	int same_as;             /* the earlier run with the identical trace and states, -1 */
	struct merge merge[MP_COUNT];
	struct band band[BAND_COUNT];
	bool sag_open;
	double sag_t0;
	cJSON *metrics_json;
};

/* The extremes of every series over all runs (the scan keeps them). */
struct extent {
	double vmin, vmax, imin, imax, ilim, srcmax, srcmin_on, bmin, bmax, smin, smax;
	double budmax, budmin_on;   /* budget_A and PD contract currents */
};

struct plot {
	const struct plot_spec *spec;
	int n;
	struct extent x;
	bool contract;           /* some run has a PD contract other than 5 V: panel (a)
				  * draws each run's contract and its minimum instead of
				  * the fixed 4.75 V line */
	bool contract_file;      /* NAME-contract.dat is written: a contract above 5 V, or
				  * a contract current to draw */
	struct plot_run *runs;
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
	bool compact;            /* one band row per run (several runs) */
	double px_row;           /* a band row's height */
	bool index_names;        /* keys name runs "i: label" (long labels) */
	bool row_numbers;        /* band rows named by the runs' numbers ("1=2") */
	double px_left, px_h;
	double px_right;         /* from the panels' right border to the canvas edge */
	double px_title, px_band, px_zoom;
	GPtrArray *sub_lines;    /* title lines under the title: the runs' metrics */
	GArray *sub_runs;        /* int: the run of each line */
};

/* scan.c: read run ri's trace, events and metrics (in, as the caller gave them). */
bool plot_scan_run(struct plot *pl, int ri, const struct plot_trace *in, GError **err);
void plot_run_clear(struct plot_run *r);
/* A member of metrics.json: a string (NULL when absent), a number (NAN when absent). */
const char *plot_json_str(const cJSON *o, const char *key);
double plot_json_num(const cJSON *o, const char *key);

/* layout.c: everything the script needs to know, from the scanned runs. */
void plot_layout(struct plot *pl);
/* The name of a band row: the run's label, or the labels of a run and those whose
 * states agree with it ("twl4030=safe-ramp"), or their numbers ("1=2") with long
 * labels. Caller frees. */
char *plot_row_owner(const struct plot *pl, int run);
/* The labels of the runs whose lines are drawn as run's in panel mp, run's first,
 * joined by " = " ("fixed = none"). Caller frees. */
char *plot_merge_names(const struct plot *pl, int run, int mp);

/* merge.c: which runs are drawn as one line in each panel, from the traces at the
 * layout's scales (the panels' pixels): run i's merge[]. */
void plot_merge(struct plot *pl);
/* Whether run a's and run b's band rows agree to a pixel: one row for both. */
bool plot_band_agrees(const struct plot *pl, int a, int b);

/* thin.c: write run ri's thinned copy to path (a CSV with the plotted columns). */
bool plot_write_thinned(const struct plot *pl, int ri, const char *path, GError **err);
/* contract: NAME-contract.dat (each run's contract as a block of "t,V" rows). */
bool plot_write_contract(const struct plot *pl, const char *path, GError **err);

/* style.c: the colour of run i, of a state in a band row. */
const char *plot_run_colour(int i);
const char *plot_state_colour(int band, const char *state);

/* script.c: the data files and the script; *n_events counts the markers written. */
bool plot_write_states(const struct plot *pl, const char *path, GError **err);
bool plot_write_events(const struct plot *pl, const char *path, int *n_events, GError **err);
char *plot_script_text(const struct plot *pl, const char *base_name, int n_events);

#endif
