// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/probes.c - what a run records of its state: trace rows, probes and sysfs dumps.
 *
 * A trace row is written after every step and after the events of an instant when a
 * value moved. With --trace-dt, at most one row per trace_dt between them, besides the
 * rows of state changes and events (both sides of a jump) and the last row.
 * A probe samples every trace column at one exact time without shortening any step:
 * inside a step it is interpolated along the step's current and re-solved. A sysfs
 * dump writes the board's power_supply files at a given time.
 */
#include <string.h>
#include "run/world_priv.h"

const struct trace_col world_trace_cols[NCOLS] = {
	[COL_VSRC] = { "vsrc_V", "V", 6, NULL, 0 },
	[COL_VBUS] = { "vbus_V", "V", 6, NULL, 0 },
	[COL_IBUS] = { "ibus_A", "A", 6, NULL, 0 },
	[COL_ILIM] = { "ilim_A", "A", 6, NULL, 0 },
	[COL_VBAT] = { "vbat_V", "V", 6, NULL, 0 },
	[COL_IBAT] = { "ibat_A", "A", 6, NULL, 0 },
	[COL_SOC] = { "soc", "", 6, NULL, 0 },
	[COL_ILOAD] = { "iload_A", "A", 6, NULL, 0 },
	[COL_CHG_STATE] = { "charger_state", "", 0, charger_state_names, CHG_STATE_COUNT },
	[COL_SRC_STATE] = { "source_state", "", 0, source_state_names, SRC_STATE_COUNT },
	[COL_VSYS] = { "vsys_V", "V", 6, NULL, 0 },
	[COL_SRC_ILIM] = { "src_ilim_A", "A", 6, NULL, 0 },
	[COL_TEMP] = { "temp_C", "C", 3, NULL, 0 },
};

const char *const world_trace_columns[] = {
	"time_s", "vsrc_V", "vbus_V", "ibus_A", "ilim_A", "vbat_V", "ibat_A", "soc", "iload_A",
	"charger_state", "source_state", "vsys_V", "src_ilim_A", "temp_C", NULL,
};

static void world_row_values(const struct world *w, const struct net_out *op,
			     const struct battery_state *x, double *v)
{
	bool limiting = (op->flags & NET_F_LIMITING) && w->net.src_on;

	v[COL_VSRC] = op->vsrc;
	v[COL_VBUS] = op->vbus;
	v[COL_IBUS] = op->ibus;
	v[COL_ILIM] = w->chg->iindpm;
	v[COL_VBAT] = op->vbat;
	v[COL_IBAT] = op->ibat;
	v[COL_SOC] = x->soc;
	v[COL_ILOAD] = op->iload;
	v[COL_CHG_STATE] = w->chg->state;
	v[COL_SRC_STATE] = source_state_of(w->src, limiting);
	v[COL_VSYS] = op->vsys;
	v[COL_SRC_ILIM] = w->src->attached ? source_ilim_now(w->src) : 0;
	v[COL_TEMP] = x->temp_c;
}

void world_trace_row(struct world *w, bool at_event)
{
	double v[NCOLS];
	sim_time_t now = sim_now(&w->sim);
	bool labels_changed, changed;

	if (!w->trace)
		return;
	world_row_values(w, &w->op, &w->bat->x, v);
	labels_changed = !w->have_row || v[COL_CHG_STATE] != w->last_row[COL_CHG_STATE] ||
			 v[COL_SRC_STATE] != w->last_row[COL_SRC_STATE];
	changed = !w->have_row || memcmp(v, w->last_row, sizeof(v)) != 0;
	if (at_event && !changed)
		return;
	/* --trace-dt leaves out rows between state changes, but keeps the last row (a
	 * decimated trace spans the run as a full one does) and the rows on both sides
	 * of an event's jump */
	if (w->opt.trace_dt > 0 && w->have_row && !labels_changed && !at_event &&
	    now - w->last_row_t < w->opt.trace_dt && now < w->duration) {
		memcpy(w->skipped_row, v, sizeof(v));
		w->skipped_t = now;
		w->have_skipped = true;
		return;
	}
	if (w->have_skipped && w->skipped_t == now)
		trace_row(w->trace, now, w->skipped_row);
	w->have_skipped = false;
	trace_row(w->trace, now, v);
	memcpy(w->last_row, v, sizeof(v));
	w->last_row_t = now;
	w->have_row = true;
}

void world_probe_step(struct world *w, sim_time_t t0, sim_time_t t1,
		      const struct net_out *op1, const struct battery_state *x1)
{
	for (int i = w->next_probe; i < w->opt.n_probes; i++) {
		sim_time_t tp = w->opt.probe_at[i];

		if (tp <= t0)
			continue;
		if (tp > t1)
			break;
		if (tp == t1) {
			world_row_values(w, op1, x1, w->probe_vals[i]);
		} else {
			double f = (double)(tp - t0) / (double)(t1 - t0);
			double i1 = w->op.ibat + (op1->ibat - w->op.ibat) * f;
			struct battery_state xp;
			struct net_out opp;

			battery_advance(&w->bat->eff, &w->bat->x, w->op.ibat, i1,
					sim_time_to_s(tp - t0), &xp);
			world_solve(w, &xp, &opp, NULL);
			world_row_values(w, &opp, &xp, w->probe_vals[i]);
		}
	}
	while (w->next_probe < w->opt.n_probes && w->opt.probe_at[w->next_probe] < t1)
		w->next_probe++;
}

void world_probe_instant(struct world *w, sim_time_t now)
{
	for (int i = w->next_probe; i < w->opt.n_probes && w->opt.probe_at[i] <= now; i++)
		if (w->opt.probe_at[i] == now)
			world_row_values(w, &w->op, &w->bat->x, w->probe_vals[i]);
	while (w->next_probe < w->opt.n_probes && w->opt.probe_at[w->next_probe] < now)
		w->next_probe++;
}

bool world_probe_value(const struct world *w, int i, const char *column, double *value)
{
	for (int c = 0; c < NCOLS; c++)
		if (strcmp(world_trace_cols[c].name, column) == 0) {
			*value = w->probe_vals[i][c];
			return true;
		}
	if (strcmp(column, "time_s") == 0) {
		*value = sim_time_to_s(w->opt.probe_at[i]);
		return true;
	}
	return false;
}

/* ---- sysfs dumps ---- */

static void world_sysfs_cb(struct sim_event *ev, void *data)
{
	struct world *w = data;
	int i = (int)(ev - w->sysfs_ev);
	g_autofree char *dir = NULL;
	GError *err = NULL;

	if (!w->outdir)
		return;
	world_refresh(w);
	dir = g_strdup_printf("%s/sysfs-%s", w->outdir, w->opt.sysfs_labels[i]);
	if (!board_sysfs_dump(&w->drv, dir, &err)) {
		world_fail(w, "%s", err->message);
		g_error_free(err);
	}
}

void world_sysfs_init(struct world *w)
{
	if (w->opt.n_sysfs <= 0)
		return;
	w->sysfs_ev = g_new0(struct sim_event, (gsize)w->opt.n_sysfs);
	for (int i = 0; i < w->opt.n_sysfs; i++)
		sim_event_init(&w->sysfs_ev[i], world_sysfs_cb, w);
}

void world_sysfs_schedule(struct world *w)
{
	for (int i = 0; i < w->opt.n_sysfs; i++)
		if (w->opt.sysfs_at[i] <= w->duration)
			sim_at(&w->sim, &w->sysfs_ev[i], w->opt.sysfs_at[i]);
}

void world_sysfs_cancel(struct world *w)
{
	for (int i = 0; w->sysfs_ev && i < w->opt.n_sysfs; i++)
		sim_cancel(&w->sim, &w->sysfs_ev[i]);
}
