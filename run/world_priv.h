/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/world_priv.h - the state of one run, shared by the files that do its jobs.
 *
 *   run/world.c       life cycle: the models, the board, the policy; run; free
 *   run/step.c        stepping: the operating point, margins, settling, adaptive steps
 *   run/charger_ic.c  the hardware as the stack's drivers see it (charger-IC ops,
 *                     readings, sysfs dumps)
 *   run/events.c      scenario events and `set`
 *   run/metrics.c     the metrics: accumulated, observed, finished, as JSON
 *   run/probes.c      trace rows and probes
 *
 * Calls go one way: world.c drives step.c, events.c and charger_ic.c (the stack's
 * side), which may ask step.c for a fresh operating point (world_refresh) or stop the
 * run (world_fail); step.c drives metrics.c and probes.c and hands them what they
 * record (the step's ends and OCVs, the operating point to sample, a function that
 * samples inside a step), as world.c does at the start and the end of a run;
 * metrics.c and probes.c call nothing of the others.
 */
#ifndef CS_RUN_WORLD_PRIV_H
#define CS_RUN_WORLD_PRIV_H

#include <linux/usb/phy.h>
#include <chargesim/boot.h>
#include <chargesim/charger_ic.h>
#include <chargesim/kernel.h>
#include "models/battery/battery.h"
#include "models/model.h"
#include "run/board.h"
#include "run/world.h"
#include "output/trace.h"
#include "stack/policies/loader.h"

struct world {
	struct world_options opt;
	char *outdir;
	sim_time_t duration;
	struct sim sim;
	struct cs_kernel kernel;
	struct evlog *log;
	struct evfile *evfile;   /* events.jsonl, when there is an output directory */
	struct trace *trace;

	/* every scenario object's parameters, the run's own copies (scenario_object()
	 * order; the first n_models are the models') */
	void **params;
	/* the models' states, in registry order */
	int n_models;
	void **state;
	struct model_wires wires;
	/* the registry indices of the cell (world_cell()) and of the charger IC behind the
	 * charger-IC ops, looked up once: a policy calls them on every check */
	int cell, chip;

	/* the operating point of the current state */
	struct net_in net;
	/* what every solve of net shares: a copy of it, given each solve's battery line
	 * (emf, r0) and chg_on, and its input side (net_prepare()) */
	struct net_in net_solve;
	struct net_input_side net_side;
	struct net_out op;
	double emf;
	bool dirty;
	int n_g;                      /* margins: the models' in registry order, the metrics' */
	double *g, *g_try;            /* at the committed state, at the end of a trial step */
	/* The models' hooks that every step or settling calls, resolved once
	 * (world_hooks_init()): those with each hook, with their states, in registry
	 * order. Their parts of the circuit; their margins, with the index of the first
	 * in g; what observes an operating point and what is told the settled one. */
	struct world_net_hook {
		void (*net)(void *state, const struct net_out *last, struct net_in *in);
		void *state;
	} *nets;
	struct world_margins_hook {
		void (*margins)(const void *state, const struct model_point *pt, double *g);
		const void *state;
		int at;
	} *margins;
	struct world_point_hook {
		void (*fn)(void *state, const struct model_point *pt);
		void *state;
	} *observe, *settled;
	int n_nets, n_margins, n_observe, n_settled;
	sim_time_t dt_next;
	bool unresolved;              /* the last step's error could not be met (run/step.c) */
	struct battery_rc_step rc;    /* the RC factors of the last step size tried */
	int ocv_seg;                  /* the OCV table segment the last lookup found */
	/* the OCV of the last two states solved (world_ocv()): a committed step's ends */
	double ocv_memo_soc[2], ocv_memo_v[2];
	int ocv_memo_next;

	/* scenario events */
	int n_sev;
	struct sim_event *sev;
	const struct scenario_event *sev_def;
	const struct param_desc **sev_desc;   /* resolved parameter of each `set` */
	size_t *sev_off;              /* policy.params sets: offset of its group in the params */
	struct sim_event ev_plug0;    /* the plug at t = 0 when the first event is not one */

	/* the stack */
	struct device phy_dev;
	struct usb_phy phy;
	struct cs_charger_ic ic;
	struct cs_boot boot_hook;
	struct board drv;             /* the drivers behind the policy's board */
	struct cs_board board;        /* what the policy is given */
	struct sim_event *sysfs_ev;
	struct cs_policy_handle policy;
	const struct cs_policy_desc *pdesc;
	void *pparams;                /* policy.params (owned by policy) */
	void *ppriv;
	const char *policy_name;      /* the descriptor's */
	struct linux_board *lb;       /* a real Linux driver's chips and device tree, or NULL */

	/* trace and probes: a row holds every column after time_s (world_columns()) */
	/* each owner of columns (the run, the models with some): its row(), its state and
	 * the places of its columns in a row */
	struct world_row { model_row_fn *row; const void *state; const int *at; } *rows;
	int n_rows;
	double *row_block;            /* the rows below, one block */
	/* the last row written, and where the next one is worked out: the two swap when
	 * it is written (no copy) */
	double *last_row, *next_row;
	sim_time_t last_row_t;
	/* --trace-dt: the last row left out, written after all when an event makes a
	 * jump at its time (the row before the jump, so that a step stays a step); an
	 * event that moves nothing is compared with it and writes no row */
	double *skipped_row;
	sim_time_t skipped_t;         /* -1: none */
	double *probe_vals;           /* a row per probe */
	int next_probe;

	/* the metrics: every one's value (metrics.json's order), and what the run's own
	 * accumulate over the steps (run/metrics.c) */
	struct world_metrics m;
	/* the observed metrics, resolved: the first times still to come (FIRST: one leaves
	 * the list when it happens) and the maxima (MAX) */
	struct metric_watch {
		model_value_fn *value;
		const void *state;
		double *v;
	} *firsts, *maxima;
	int n_firsts, n_maxima;
	/* the metrics the stepper cuts a step for (cut), and the models that integrate over
	 * a step, resolved once (world_metrics_start()): both run at every step */
	struct metric_cut { model_value_fn *value; const void *state; } *cuts;
	int n_cuts;
	struct world_integrate_hook {
		void (*integrate)(void *state, const struct model_point *p0,
				  const struct model_point *p1, double dt, bool hold);
		void *state;
	} *integrate;
	int n_integrate;
	struct world_acc {
		double vbus_min_v, discharged_s, discharged_mah;
		double time_limiting_s, ibus_max_a, charge_in_mah, steps;
		sim_time_t vbus_min_t, ibus_max_t;   /* when the extremes happened */
		const void *port;     /* the source's state: is the port on? */
		/* energy terms, J */
		double e_emf, e_src_loss, e_cable, e_chg_loss, e_load, e_chem, e_r0, e_rc_loss;
		double rc_e0;         /* in the RC pairs at the start */
	} acc;
	bool vindpm_hw;               /* the charger has a VINDPM loop */
	char *fail_msg;               /* the run failed (world_fail()) */
	GError *write_err;            /* an output write failed: the run stops (exit 2) */
	char *trace_warning;          /* the trace passed WORLD_TRACE_WARN_BYTES: what to say */
};

/* A model's state by its scenario key (NULL: none), for a job that needs that one. */
void *world_model(const struct world *w, const char *key);

/* The cell the stepper integrates. */
static inline struct battery *world_cell(const struct world *w)
{
	return w->state[w->cell];
}

/* The state a model's or the run's own output hook is given: model i's, the world's (-1). */
static inline const void *world_owner_state(const struct world *w, int i)
{
	return i < 0 ? (const void *)w : w->state[i];
}

/* run/step.c */
/* Resolve the models' hooks (once they are initialised, before any solve). */
void world_hooks_init(struct world *w);
/* The margins' arrays, the first step size; the world becomes the sim's continuous part
 * (after the metrics' start). */
void world_step_init(struct world *w);
void world_fail(struct world *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Re-solve now if a model changed since the last solution (run/charger_ic.c: reads). */
void world_refresh(struct world *w);
/* Solve and let the models react until the discrete state stops changing. */
void world_settle_state(struct world *w);

/* run/charger_ic.c */
extern const struct cs_charger_ic_ops world_ic_ops;
void world_board_read_cb(void *ctx, struct board_readings *r);
void world_sysfs_init(struct world *w);
void world_sysfs_schedule(struct world *w);
void world_sysfs_cancel(struct world *w);

/* run/events.c */
/* Check `set` on policy.params.* against the policy, prepare the events. */
bool world_events_init(struct world *w, const struct scenario *sc, GError **err);
/* Queue the plug at t = 0 (unless the first event is one) and the scenario events. */
void world_events_schedule(struct world *w);
void world_events_cancel(struct world *w);

/* run/metrics.c */
/* The metrics' values, those of the models' AT_START ones once they are initialised. */
void world_metrics_start(struct world *w, const struct model_point *pt);
/* Integrate the energy terms, charge and VBUS figures over a step from the committed
 * state (w->op, the cell's x at OCV ocv0) to (o1, x1 at ocv1, end current i1) ending
 * at t1, by the step's own rule (hold: backward Euler), and let the models integrate
 * theirs (models/model.h, integrate). */
void world_metrics_step(struct world *w, const struct net_out *o1,
			const struct battery_state *x1, double i1, double ocv0, double ocv1,
			double dt, bool hold, sim_time_t t1);
/* The times and maxima the operating point of the current state shows (settled: the
 * instant's last one, where only first times are looked for). */
void world_metrics_observe(struct world *w, const struct model_point *pt, bool settled);
/* The thresholds only a metric watches (SOC reaching 80 %): their w->n_cuts margins at
 * a point. The stepper cuts a step where a first time's condition starts to hold, so
 * that it is located like any model threshold. Inline: every margin evaluation of a
 * step asks it. */
static inline void world_metrics_margins(const struct world *w, const struct model_point *pt,
					 double *g)
{
	for (int k = 0; k < w->n_cuts; k++)
		g[k] = w->cuts[k].value(w->cuts[k].state, pt);
}
void world_metrics_finish(struct world *w);

/* run/probes.c */
/* Every trace column after time_s, the run's own and the models', in order. */
int world_columns(const struct trace_col **cols);
void world_trace_init(struct world *w);
void world_trace_row(struct world *w, bool at_event);
/* The state at probe time tp inside the step (t0, t1) ending in op1 (run/step.c). */
typedef void world_sample_fn(struct world *w, sim_time_t t0, sim_time_t t1, sim_time_t tp,
			     const struct net_out *op1, struct net_out *op,
			     struct battery_state *x);
/* Probes strictly inside (t0, t1) are sampled with sample(); a probe at t1 gets the
 * value (op1, x1) there: the end of a step, which the events at t1 (if any) then
 * overwrite with the settled state's, with (t1 - 1 ns, t1] and no sample(). */
void world_probe_step(struct world *w, sim_time_t t0, sim_time_t t1,
		      const struct net_out *op1, const struct battery_state *x1,
		      world_sample_fn *sample);
/* Are there probes still to sample? (Most runs have none: their steps skip the call.) */
static inline bool world_probes_left(const struct world *w)
{
	return w->next_probe < w->opt.n_probes;
}

#endif
