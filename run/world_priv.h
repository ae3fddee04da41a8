/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/world_priv.h - the state of one run, shared by the files that do its jobs.
 *
 *   run/world.c       life cycle: the models, the board, the policy; run; free
 *   run/step.c        stepping: the operating point, margins, settling, adaptive steps
 *   run/charger_ic.c  the hardware as the stack's drivers see it (charger-IC ops, readings)
 *   run/events.c      scenario events and `set`
 *   run/metrics.c     the metrics: accumulated, observed, finished, as JSON
 *   run/probes.c      trace rows, probes and sysfs dumps
 *
 * The models live in arrays in registry order (models/registry.c) and every generic
 * loop (circuit, margins, observation, `set`) goes through their descriptors; the
 * typed pointers below are for the jobs that need one model in particular.
 */
#ifndef CS_RUN_WORLD_PRIV_H
#define CS_RUN_WORLD_PRIV_H

#include <linux/usb/phy.h>
#include <chargesim/boot.h>
#include <chargesim/charger_ic.h>
#include <chargesim/kernel.h>
#include <chargesim/policy.h>
#include "models/battery/battery.h"
#include "models/cable/cable.h"
#include "models/load/load.h"
#include "models/model.h"
#include "models/phy/phy.h"
#include "models/pmic/pmic.h"
#include "models/source/source.h"
#include "run/board.h"
#include "run/world.h"
#include "sim/evlog.h"
#include "sim/sim.h"
#include "output/trace.h"
#include "stack/policies/loader.h"

/* The trace columns after time_s (run/probes.c). */
enum {
	COL_VSRC, COL_VBUS, COL_IBUS, COL_ILIM, COL_VBAT, COL_IBAT, COL_SOC, COL_ILOAD,
	COL_CHG_STATE, COL_SRC_STATE, COL_VSYS, COL_SRC_ILIM, COL_TEMP, NCOLS
};

struct world {
	struct world_options opt;
	char *name;
	char *outdir;
	sim_time_t duration;
	struct sim sim;
	struct cs_kernel kernel;
	struct evlog *log;
	struct evfile *evfile;   /* events.jsonl, when there is an output directory */
	struct trace *trace;

	/* every scenario object's parameters, the run's own copies (scenario_object()
	 * order; the first n_models are the models') */
	int n_objects;
	void **params;
	/* the models' states, in registry order */
	int n_models;
	void **state;
	int n_ready;                  /* models initialised (world_free cleans these up) */
	struct model_wires wires;
	/* the models the run's own jobs talk to */
	struct source *src;
	struct cable *cable;
	struct pmic *chg;
	struct battery *bat;
	struct load_model *load;
	struct phy *phym;

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
	double *g;                    /* at the committed state */
	double *g_try;                /* at the end of a trial step */
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
	bool board_ready;             /* drv initialised (world_free undoes it) */
	struct sim_event *sysfs_ev;
	struct cs_policy_handle policy;
	const struct cs_policy_desc *pdesc;
	void *pparams;                /* policy.params (owned by policy) */
	void *ppriv;
	char *policy_name;
	struct linux_board *lb;       /* a real Linux driver's chips and device tree, or NULL */

	/* trace and probes */
	double last_row[NCOLS];
	sim_time_t last_row_t;
	bool have_row;
	/* --trace-dt: the last row left out, written after all when an event makes a
	 * jump at its time (the row before the jump, so that a step stays a step) */
	double skipped_row[NCOLS];
	sim_time_t skipped_t;
	bool have_skipped;
	double (*probe_vals)[NCOLS];
	int next_probe;

	struct world_metrics m;
	double rc_e0;                 /* J in the RC pairs at the start (energy balance) */
	bool vindpm_hw;               /* the charger has a VINDPM loop */
	bool failed;
	char *fail_msg;
};

/* run/step.c */
/* The margins' arrays, the first step size; the world becomes the sim's continuous part. */
void world_step_init(struct world *w);
void world_fail(struct world *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void world_changed_cb(void *ctx);
/* battery_ocv() of the cell at soc, from the states solved last when it was one of them. */
double world_ocv(struct world *w, double soc);
/* The operating point for battery state x with the circuit of the current state. */
void world_solve(struct world *w, const struct battery_state *x, struct net_out *op,
		 double *emf_out);
/* Re-solve now if a model changed since the last solution (e.g. a register write
 * followed by an ADC read in the same work function). */
void world_refresh(struct world *w);
/* Solve and let the models react until the discrete state stops changing. */
void world_settle_state(struct world *w);
bool world_op_finite(const struct net_out *o);

/* run/charger_ic.c */
extern const struct cs_charger_ic_ops world_ic_ops;
void world_board_read_cb(void *ctx, struct board_readings *r);

/* run/events.c */
/* Check `set` on policy.params.* against the policy, prepare the events. */
bool world_events_init(struct world *w, const struct scenario *sc, GError **err);
/* Queue the plug at t = 0 (unless the first event is one) and the scenario events. */
void world_events_schedule(struct world *w);
void world_events_cancel(struct world *w);

/* run/metrics.c */
#define WORLD_METRICS_N_MARGINS 1
void world_metrics_init(struct world *w);
/* Integrate the energy terms, charge and VBUS figures over a step to (o1, x1): by the
 * trapezoidal rule, or with the end values held for a backward-Euler step (hold). */
void world_metrics_step(struct world *w, const struct net_out *o1,
			const struct battery_state *x1, double i1, double dt, bool hold);
/* The times and maxima the operating point of the current state shows. */
void world_metrics_observe(struct world *w);
void world_metrics_settled(struct world *w);
/* The thresholds only a metric watches (SOC reaching 80 %), at battery state x. */
void world_metrics_margins(const struct world *w, const struct battery_state *x, double *g);
void world_metrics_finish(struct world *w);

/* run/probes.c */
void world_trace_row(struct world *w, bool at_event);
/* Probes strictly inside (t0, t1) are sampled from the step; a probe at t1 gets the
 * end-of-step value, which the events at t1 (if any) may then overwrite in settle. */
void world_probe_step(struct world *w, sim_time_t t0, sim_time_t t1,
		      const struct net_out *op1, const struct battery_state *x1);
void world_probe_instant(struct world *w, sim_time_t now);
extern const struct trace_col world_trace_cols[NCOLS];
void world_sysfs_init(struct world *w);
void world_sysfs_schedule(struct world *w);
void world_sysfs_cancel(struct world *w);

#endif
