// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/probes.c - what a run records of its state: trace rows and probes.
 *
 * The columns after time_s are the run's own (the circuit's voltages and currents)
 * and those the models declare (models/model.h), in rank order. A trace row is
 * written after every step and after the events of an instant when a value moved
 * (fewer with --trace-dt: world_trace_row()). A probe samples every trace column at
 * one exact time, inside a step by the stepper's sample function.
 */
#include <string.h>
#include "output/evfile.h"
#include "run/world_priv.h"

/* The run's own: the circuit's voltages and currents (the solver's net_out). */
static const struct model_column world_own_columns[] = {
	{ 0, "vsrc_V", "V", 6, NULL, 0 },
	{ 1, "vbus_V", "V", 6, NULL, 0 },
	{ 2, "ibus_A", "A", 6, NULL, 0 },
	{ 4, "vbat_V", "V", 6, NULL, 0 },
	{ 5, "ibat_A", "A", 6, NULL, 0 },
	{ 7, "iload_A", "A", 6, NULL, 0 },
	{ 10, "vsys_V", "V", 6, NULL, 0 },
};

static void world_own_row(const void *state, const struct model_point *pt,
			  const struct model_row *r)
{
	const struct net_out *op = pt->op;

	(void)state;
	model_row_set(r, 0, op->vsrc);
	model_row_set(r, 1, op->vbus);
	model_row_set(r, 2, op->ibus);
	model_row_set(r, 3, op->vbat);
	model_row_set(r, 4, op->ibat);
	model_row_set(r, 5, op->iload);
	model_row_set(r, 6, op->vsys);
}

/* A column and its place in the list of every owner's columns in their tables' order
 * (the run's, then the models' in registry order). */
struct world_column_ref {
	const struct model_column *d;
	int owned;
};

static struct world_column_ref *col_list;
static struct trace_col *col_trace;
static int n_cols;
/* the rank order's index of each column by its place in the owners' list: an owner's
 * row() is given its part (struct model_row's at) */
static int *col_at;

/* Puts the n columns of c after the list's first *len, in rank order among them
 * (built once: a handful). */
static void add_columns(struct world_column_ref *l, int *len, const struct model_column *c,
			int n)
{
	for (int k = 0; k < n; k++) {
		struct world_column_ref r = { &c[k], *len };
		int i = (*len)++;

		for (; i > 0 && l[i - 1].d->rank > r.d->rank; i--)
			l[i] = l[i - 1];
		l[i] = r;
	}
}

/* Built once (the registry is constant) and kept for the process. */
int world_columns(const struct trace_col **cols)
{
	static gsize once;

	if (g_once_init_enter(&once)) {
		int n = G_N_ELEMENTS(world_own_columns);

		for (int i = 0; model_registry[i]; i++)
			n += model_registry[i]->n_columns;
		col_list = g_new(struct world_column_ref, (gsize)n);
		add_columns(col_list, &n_cols, world_own_columns, G_N_ELEMENTS(world_own_columns));
		for (int i = 0; model_registry[i]; i++) {
			g_assert(!model_registry[i]->n_columns || model_registry[i]->row);
			add_columns(col_list, &n_cols, model_registry[i]->columns,
				    model_registry[i]->n_columns);
		}
		col_trace = g_new0(struct trace_col, (gsize)n_cols);
		col_at = g_new(int, (gsize)n_cols);
		for (int i = 0; i < n_cols; i++) {
			const struct model_column *d = col_list[i].d;

			col_trace[i] = (struct trace_col){ d->name, d->unit, d->decimals, d->labels,
							   d->n_labels };
			col_at[col_list[i].owned] = i;
		}
		g_once_init_leave(&once, 1);
	}
	if (cols)
		*cols = col_trace;
	return n_cols;
}

/* The index of a column after time_s, -1 for none. */
static int column_index(const char *name)
{
	int n = world_columns(NULL);

	for (int i = 0; i < n; i++)
		if (strcmp(col_list[i].d->name, name) == 0)
			return i;
	return -1;
}

bool world_trace_column(const char *name, const char *const **labels)
{
	int i = column_index(name);

	if (labels)
		*labels = i >= 0 ? col_list[i].d->labels : NULL;
	return i >= 0 || strcmp(name, "time_s") == 0;
}

void world_trace_init(struct world *w)
{
	int n = world_columns(NULL);

	w->row_block = g_new0(double, (gsize)n * (gsize)(3 + w->opt.n_probes));
	w->last_row = w->row_block;
	w->next_row = w->last_row + n;
	w->skipped_row = w->next_row + n;
	w->probe_vals = w->skipped_row + n;
	w->last_row_t = -w->opt.trace_dt;   /* the first row is due */
	w->skipped_t = -1;
	/* each owner's row(), state and part of col_at resolved once: a row is taken
	 * after every step */
	w->rows = g_new(struct world_row, (gsize)w->n_models + 1);
	w->rows[w->n_rows++] = (struct world_row){ world_own_row, w, col_at };
	n = G_N_ELEMENTS(world_own_columns);
	for (int i = 0; i < w->n_models; i++) {
		if (!model_registry[i]->n_columns)
			continue;
		w->rows[w->n_rows++] = (struct world_row){ model_registry[i]->row, w->state[i],
							   col_at + n };
		n += model_registry[i]->n_columns;
	}
}

/* Every owner of columns fills its own with one call. */
static void world_row_values(const struct world *w, const struct net_out *op,
			     const struct battery_state *x, double *v)
{
	const struct model_point pt = { &w->net, op, &w->wires, x };

	for (const struct world_row *r = w->rows, *end = r + w->n_rows; r < end; r++)
		r->row(r->state, &pt, &(struct model_row){ v, r->at });
}

/* Does a state column (charger_state, source_state, ...) differ from the last row's? */
static bool labels_moved(const struct world *w, const double *v)
{
	for (int i = 0; i < n_cols; i++)
		if (col_list[i].d->labels && v[i] != w->last_row[i])
			return true;
	return false;
}

/* trace.csv past this size is warned about (world_trace_warning()): a run that would
 * fill a disk says so, whatever its options (100 MB: more than a check needs, as for
 * --max-step's warning before a run). Not an event record: the event stream (and its
 * fingerprints) must not depend on where the outputs go. */
#define WORLD_TRACE_WARN_BYTES 100000000u

static void world_trace_size_warning(struct world *w)
{
	double at = sim_time_to_s(sim_now(&w->sim)), end = sim_time_to_s(w->duration);

	w->trace_warning = g_strdup_printf("trace.csv passed %u MB at t = %.6g s of %.6g s "
					   "(about %.0f MB at this rate by the end); --trace-dt 1s "
					   "keeps one row per second (state changes and the last "
					   "row are always kept)",
					   WORLD_TRACE_WARN_BYTES / 1000000u, at, end,
					   at > 0 ? (double)trace_bytes(w->trace) * end / at / 1e6 : 0.0);
}

/* A write that failed (a full disk, a file size limit) stops the run at once, within
 * the chunk of output that failed: the rest of a long run could not be kept anyway. */
static void world_check_writes(struct world *w)
{
	if (w->write_err)
		return;
	if ((w->trace && trace_write_failed(w->trace, &w->write_err)) ||
	    evfile_write_failed(w->evfile, &w->write_err))
		sim_stop(&w->sim);
}

/*
 * Write a row now, after the row the decimation left out at this instant if there
 * is one: that is the row before an event's jump, and the pair keeps a step a step.
 */
static void trace_row_write(struct world *w, sim_time_t now)
{
	double *v = w->next_row;

	if (w->skipped_t == now)
		trace_row(w->trace, now, w->skipped_row);
	w->skipped_t = -1;
	trace_row(w->trace, now, v);
	w->next_row = w->last_row;
	w->last_row = v;
	w->last_row_t = now;
	if (!w->trace_warning && trace_bytes(w->trace) >= WORLD_TRACE_WARN_BYTES)
		world_trace_size_warning(w);
}

void world_trace_row(struct world *w, bool at_event)
{
	double *v = w->next_row;
	size_t size = sizeof(double) * (size_t)n_cols;   /* built before the trace opened */
	sim_time_t now = sim_now(&w->sim);
	/* the state just before an event: the last row computed, written or not */
	const double *before = w->skipped_t >= 0 ? w->skipped_row : w->last_row;

	world_check_writes(w);
	if (!w->trace)
		return;
	world_row_values(w, &w->op, &world_cell(w)->x, v);
	/* An event that moved nothing (a policy's poll) is no row: its row would repeat
	 * the one before it. (The first row, at t = 0, is never an event's.) */
	if (at_event && memcmp(v, before, size) == 0)
		return;
	/* --trace-dt: at most one row per interval between the rows an event's jump or
	 * a state column's change forces; the last row is kept, so that a decimated
	 * trace spans the run as a full one does */
	if (w->opt.trace_dt > 0 && !at_event && now - w->last_row_t < w->opt.trace_dt &&
	    now < w->duration && !labels_moved(w, v)) {
		memcpy(w->skipped_row, v, size);
		w->skipped_t = now;
		return;
	}
	trace_row_write(w, now);
}

void world_probe_step(struct world *w, sim_time_t t0, sim_time_t t1,
		      const struct net_out *op1, const struct battery_state *x1,
		      world_sample_fn *sample)
{
	for (int i = w->next_probe; i < w->opt.n_probes; i++) {
		sim_time_t tp = w->opt.probe_at[i];

		if (tp <= t0)
			continue;
		if (tp > t1)
			break;
		if (tp == t1) {
			world_row_values(w, op1, x1, w->probe_vals + i * n_cols);
		} else {
			struct battery_state xp;
			struct net_out opp;

			sample(w, t0, t1, tp, op1, &opp, &xp);
			world_row_values(w, &opp, &xp, w->probe_vals + i * n_cols);
		}
	}
	while (w->next_probe < w->opt.n_probes && w->opt.probe_at[w->next_probe] < t1)
		w->next_probe++;
}

bool world_probe_value(const struct world *w, int i, const char *column, double *value)
{
	int c = column_index(column);

	if (c >= 0)
		*value = w->probe_vals[i * n_cols + c];
	else if (strcmp(column, "time_s") == 0)
		*value = sim_time_to_s(w->opt.probe_at[i]);
	else
		return false;
	return true;
}
