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
 * are split over the files run/world_priv.h lists.
 *
 * Ownership: world_new() copies every parameter struct out of the scenario, so `set`
 * events never change the scenario and one scenario can drive several runs; the
 * scenario outlives them (its events and names are read from it). Output files are
 * temporary until world_finish() commits them.
 */
#ifndef CS_RUN_WORLD_H
#define CS_RUN_WORLD_H

#include <stdbool.h>
#include <glib.h>
#include "sim/evlog.h"
#include "run/scenario.h"

#define CS_RUN_ERROR (cs_run_error_quark())
GQuark cs_run_error_quark(void);
enum {
	CS_RUN_ERROR_INPUT,     /* bad input found while building the run: exit 2 */
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
	const char *policy;      /* override the scenario's policy name; a FILE.so here is
				  * the user's own (loader.h): --policy, never a file's */
	/* compare: a `set` event on policy.params.KEY when the run's policy has no KEY is
	 * skipped in this run, with a "warning" record naming the event and the policy
	 * (the scenario was written for another policy); false: an input error */
	bool skip_foreign_policy_sets;
	/* --policy NAME:KEY=VALUE (stack/policies/loader.h, cs_policy_spec): the policy's
	 * parameters given on the command line, loaded over the scenario's own (when the run
	 * uses the scenario's policy) or the policy's defaults; NULL: none */
	const cJSON *policy_params;
	int n_sysfs;             /* --sysfs-at times */
	const sim_time_t *sysfs_at;
	const char *const *sysfs_labels;  /* directory suffixes: sysfs-<label> */
	int n_probes;            /* times at which every trace column is sampled exactly */
	const sim_time_t *probe_at;
};

/* A run's metrics: a value per metric of the run and of its models (models/model.h),
 * read by name. metrics.json's keys; the unwritten ones are in-process figures:
 * discharged_while_plugged_mAh (the charge the battery gave while the port delivered),
 * time_source_limiting_s (the port's time in its current limit), trace_rows. */
struct world_metrics {
	double *v;               /* a number per metric (counts too; NAN: null) */
	char **s;                /* a string metric's text (NULL: null) */
};

/* The number of the metric with this name (a missing name is a bug: it aborts). */
double world_metric(const struct world_metrics *m, const char *name);
/* The text of a string metric, NULL for null. */
const char *world_metric_text(const struct world_metrics *m, const char *name);
/* A copy that outlives the run (free with world_metrics_clear). */
void world_metrics_copy(struct world_metrics *dst, const struct world_metrics *src);
void world_metrics_clear(struct world_metrics *m);

struct world;

struct world *world_new(const struct scenario *sc, const struct world_options *opt, GError **err);
/* See every events.jsonl record as it is written (call before world_run). */
void world_add_event_listener(struct world *w, evlog_listener_cb cb, void *data);
/* The same for the records of one kind (ev) only. */
void world_add_event_listener_for(struct world *w, const char *ev, evlog_listener_cb cb, void *data);
/* See every record's text, printed once for all such listeners (struct evlog_text). */
void world_add_event_text_listener(struct world *w, evlog_text_cb cb, void *data);
/* End the run at this instant (from an event listener: a run whose only use is
 * whether something happens). world_run() returns true and the metrics are those so
 * far. */
void world_stop(struct world *w);
/* Run to the scenario's duration. False with err on an internal error. */
bool world_run(struct world *w, GError **err);
/* NULL, or a warning that trace.csv has grown past 100 MB (for the command to show,
 * whether the run went on or its disk filled). */
const char *world_trace_warning(const struct world *w);
/* Write metrics.json and commit every output file. */
bool world_finish(struct world *w, GError **err);
/* The metrics (set by world_finish). */
const struct world_metrics *world_metrics(const struct world *w);
/* metrics.json's content (the caller frees with cJSON_Delete). */
cJSON *world_metrics_json(const struct world *w);
/* The same for any metrics; NULL: zeros and empty strings (to validate expectations
 * before a run). */
cJSON *world_metrics_to_json(const struct world_metrics *m);
/* metrics.json's fields one by one, in its order, to a sink: raw() for a number (its
 * text: a figure with its significant digits, a count's digits), string() for text
 * or, with s NULL, null (a number that is not finite is a null). */
struct world_metrics_sink {
	void (*raw)(void *ctx, const char *key, const char *text);
	void (*string)(void *ctx, const char *key, const char *s);
	void *ctx;
};
void world_metrics_emit(const struct world_metrics *m, const struct world_metrics_sink *sink);
const char *world_policy_name(const struct world *w);
/* For a linux/<file> policy, the kernel files it was compiled from as metrics.json's
 * "kernel_files" gives them ([{"path", "sha256", "status"}, ...]); NULL otherwise. */
cJSON *world_kernel_files_json(const char *policy);
/* Does a --policy value (world_options.policy) name a plugin file - a name ending in
 * ".so" - rather than a built-in policy? */
bool world_policy_is_plugin(const char *policy);
void world_free(struct world *w);

/* The value of a trace column at probe i (options.probe_at[i]), sampled exactly at
 * that time without shortening any step; at an event time, the value just after the
 * events of that instant. False when the column does not exist. */
bool world_probe_value(const struct world *w, int i, const char *column, double *value);

/* Is there a trace column of this name ("time_s" too)? *labels (when not NULL): its
 * state names when its values index them, else NULL. */
bool world_trace_column(const char *name, const char *const **labels);

#endif
