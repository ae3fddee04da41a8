/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/world.h - one run: a charging port, a cable and a device, wired to the stack.
 *
 * The world owns the models (those of models/registry.c, in its order), the stack's
 * view of them (the board: PHY, charger IC, ... and the policy under test), the event
 * log, the trace and the metrics. It is the continuous system of the run's struct sim:
 * between discrete events it advances the battery state with adaptive steps, solving
 * the network's operating point (sim/solver.h) from the models' parts and locating
 * their threshold crossings in time; after events it re-solves and lets the models
 * react. The models and the stack know nothing of each other; the world's generic
 * loops know the models only through their descriptors (models/model.h). Its jobs
 * are split over run/world.c, step.c, charger_ic.c, events.c, metrics.c, probes.c
 * (run/world_priv.h).
 *
 * Ownership: world_new() copies every parameter struct out of the scenario, so `set`
 * events never change the scenario and one scenario can drive several runs. Output
 * files are temporary until world_finish() commits them.
 */
#ifndef CS_RUN_WORLD_H
#define CS_RUN_WORLD_H

#include <stdbool.h>
#include <glib.h>
#include "sim/evlog.h"
#include "run/scenario.h"
#include "sim/solver.h"

#define CS_RUN_ERROR (cs_run_error_quark())
GQuark cs_run_error_quark(void);
enum {
	CS_RUN_ERROR_INPUT,     /* bad input found while building the run: exit 2 */
	CS_RUN_ERROR_OUTPUT,    /* an output file could not be written: exit 2 */
	CS_RUN_ERROR_INTERNAL,  /* NaN/Inf or a broken invariant during the run: exit 3 */
};

/* The exit status for an error from loading or running: 3 (CS_RUN_ERROR_INTERNAL),
 * else 2 (bad input, an output that cannot be written). */
int world_error_status(const GError *err);

struct world_options {
	sim_time_t max_step;     /* > 0: fixed steps of this size (brute-force check) */
	sim_time_t trace_dt;     /* > 0: at most one trace row per trace_dt (plus state edges) */
	const char *outdir;      /* NULL: no output files */
	bool vcd;                /* also write trace.vcd */
	bool no_trace;           /* skip trace.csv (sweeps) */
	const char *policy;      /* override the scenario's policy name */
	int n_sysfs;             /* --sysfs-at times */
	const sim_time_t *sysfs_at;
	const char *const *sysfs_labels;  /* directory suffixes: sysfs-<label> */
	int n_probes;            /* times at which every trace column is sampled exactly */
	const sim_time_t *probe_at;
};

struct world_metrics {
	double vbus_min_v;
	double time_below_4v75_s;
	double discharged_while_plugged_s; /* the port delivers, the battery discharges */
	/* Not in metrics.json, whose columns sweeps keep: for in-process users such as
	 * bench/bench_regret.c. */
	double discharged_while_plugged_mah; /* the charge the battery gave meanwhile */
	double time_source_limiting_s;       /* the port's time in its current limit */
	int source_trips;
	int uvlo_events;
	int brownouts;
	int boots;                    /* power-on attempts of the boot model */
	double time_to_running_s;     /* first time the boot completed, < 0 never */
	double ilim_final_a;
	double ilim_max_a;
	double ibus_max_a;
	double charge_in_mah;
	double energy_source_wh;
	double soc_initial, soc_final;
	double time_to_soc_80_s;      /* < 0: not reached */
	double time_to_full_s;        /* < 0: not reached */
	const char *detected_type;    /* NULL until detection reports */
	double energy_balance_error;
	uint64_t events;
	uint64_t steps;
	uint64_t trace_rows;
	/* energy terms, J */
	double e_emf, e_src_loss, e_cable, e_chg_loss, e_load, e_chem, e_r0, e_rc_loss, e_rc_stored;
};

struct world;

struct world *world_new(const struct scenario *sc, const struct world_options *opt, GError **err);
/* See every events.jsonl record as it is written (call before world_run). */
void world_add_event_listener(struct world *w, evlog_listener_cb cb, void *data);
/* The same for the records of one kind (ev) only. */
void world_add_event_listener_for(struct world *w, const char *ev, evlog_listener_cb cb,
				  void *data);
/* Run to the scenario's duration. False with err on an internal error. */
bool world_run(struct world *w, GError **err);
/* Write metrics.json and commit every output file. */
bool world_finish(struct world *w, GError **err);
const struct world_metrics *world_metrics(const struct world *w);
/* metrics.json's content (the caller frees with cJSON_Delete). */
cJSON *world_metrics_json(const struct world *w);
/* The same for any metrics (e.g. zeros, to validate expectations before a run). */
cJSON *world_metrics_to_json(const struct world_metrics *m, const char *policy);
/* metrics.json's fields one by one, in its order, to a sink: raw() for a number
 * written with its significant digits (its text), number() for a count, string() for
 * text or, with s NULL, null (a number that is not finite is a null). */
struct world_metrics_sink {
	void (*raw)(void *ctx, const char *key, const char *text);
	void (*number)(void *ctx, const char *key, double v);
	void (*string)(void *ctx, const char *key, const char *s);
	void *ctx;
};
void world_metrics_emit(const struct world_metrics *m, const char *policy,
			const struct world_metrics_sink *sink);
const char *world_policy_name(const struct world *w);
/* Does a --policy value (world_options.policy) name a plugin file - a name ending in
 * ".so" - rather than a built-in policy? */
bool world_policy_is_plugin(const char *policy);
void world_free(struct world *w);

/* The value of a trace column at probe i (options.probe_at[i]), sampled exactly at
 * that time without shortening any step; at an event time, the value just after the
 * events of that instant. False when the column does not exist. */
bool world_probe_value(const struct world *w, int i, const char *column, double *value);

/* Trace column names in order (the fixed ones of docs/scenarios.md 11.1 first, then the extras). */
extern const char *const world_trace_columns[];

#endif
