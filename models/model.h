/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/model.h - what a model is to the rest of the simulator: a const descriptor.
 *
 * Each model (models/<name>/) fills one struct model_desc: where it sits in a scenario
 * file and how its parameters load and check (the scenario object), and what it does
 * in a run (its state, its part of the circuit, the thresholds it watches, how it
 * reacts to an operating point), and what it adds to the outputs (trace columns and
 * metrics). models/registry.c lists the descriptors; the scenario loader, `set` (file
 * events and --set), `chargesim list` and the world's loops (circuit, margins,
 * observation, trace columns, metrics) go through that list and never name a model.
 * Code that does need one model in particular (the stepper integrating the battery,
 * the charger-IC adapter talking to the pmic) finds it by key.
 *
 * The registry's order is the order of every loop: loading and checking the scenario
 * objects, initialising the models, building the circuit (a later model's part may
 * refine an earlier one's: the cable opens what the source switched on), observing.
 * Initialisation and observation schedule events, and equal-time events fire in the
 * order they were scheduled, so the order is part of a run's outputs.
 *
 * Ownership: a model's parameter struct belongs to the scenario (the run works on
 * its own copy, which `set` events change); its state belongs to the run, which
 * allocates state_size zeroed bytes, calls init() once and cleanup() once.
 */
#ifndef CS_MODELS_MODEL_H
#define CS_MODELS_MODEL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <cJSON.h>
#include <glib.h>
#include "sim/param.h"
#include "sim/sim.h"
#include "sim/solver.h"

struct evlog;

/* Told that a model's part of the circuit changed (the run re-solves). */
typedef void model_changed_fn(void *ctx);

/* The signals models read from one another besides the operating point. Each points
 * at the state of the model that drives it (set in its init()); NULL while no model
 * drives it, which reads as false. */
struct model_wires {
	const bool *vbus_attached;   /* a port is plugged in (the source) */
	const bool *power_good;      /* the charger's input stage is on (the charger IC) */
};

static inline bool model_wire(const bool *wire)
{
	return wire && *wire;
}

/* What a model is given when a run is built. */
struct model_env {
	struct sim *sim;
	struct evlog *log;
	model_changed_fn *changed;
	void *ctx;
	struct model_wires *wires;   /* set the wires it drives, keep the pointer to read */
	/* Another model of the run by scenario key ("source", "device.pmic"): its
	 * parameters, its state (allocated, initialised if it comes earlier in the
	 * registry). NULL when there is no such model. */
	void *(*params_of)(const struct model_env *env, const char *key);
	void *(*state_of)(const struct model_env *env, const char *key);
	const void *owner;           /* for params_of/state_of */
};

struct battery_state;

/* What a model sees of one operating point. */
struct model_point {
	const struct net_in *in;             /* the circuit as the models described it */
	const struct net_out *op;            /* its solution */
	const struct model_wires *wires;
	const struct battery_state *x;       /* the cell's state there (a step's end, a probe's) */
};

/* A metric's value at a point: the model's state is the current one, pt->op and pt->x
 * those of the point. */
typedef double model_value_fn(const void *state, const struct model_point *pt);

/* Where a model's columns go in a trace row: its columns[k] at v[at[k]]. */
struct model_row {
	double *v;
	const int *at;
};

static inline void model_row_set(const struct model_row *r, int k, double value)
{
	r->v[r->at[k]] = value;
}

/* Every column a model adds, at a point (as for model_value_fn; a probe inside a step
 * is interpolated): model_row_set(r, k, value) for each of its columns[k]. One call
 * fills them all, so that a quantity two columns show is worked out once a row. */
typedef void model_row_fn(const void *state, const struct model_point *pt,
			  const struct model_row *r);

/* A column a model adds to trace.csv and trace.vcd (its value: the model's row()). The
 * columns after time_s are every model's and the run's own (run/probes.c), in rank
 * order. */
struct model_column {
	int rank;
	const char *name;                    /* "vbus_V" */
	const char *unit;                    /* "V", "A", "" */
	int decimals;                        /* fixed decimals in the CSV (not for labels) */
	const char *const *labels;           /* non-NULL: the value indexes these state names */
	int n_labels;
};

/* Tell the run that a model's part of the circuit changed (x has changed and ctx). */
#define MODEL_NOTIFY(x)                          \
	do {                                     \
		if ((x)->changed)                \
			(x)->changed((x)->ctx);  \
	} while (0)

/* A condition that must hold for delay before ev fires: arm ev when it starts to hold,
 * cancel it when it stops; *cond keeps whether it held. */
static inline void model_timer(struct sim *sim, bool *cond, bool now, struct sim_event *ev,
			       sim_time_t delay)
{
	if (now && !*cond)
		sim_after(sim, ev, delay);
	else if (!now)
		sim_cancel(sim, ev);
	*cond = now;
}

/* The part of a step of dt seconds during which a quantity going linearly from a to b
 * lies below level. */
static inline double model_time_below(double a, double b, double level, double dt)
{
	if (a < level && b < level)
		return dt;
	if ((a < level) != (b < level))
		return dt * (level - fmin(a, b)) / fabs(b - a);
	return 0;
}

/* Defines fn, a value() that reads one field of the model's state (struct type). */
#define MODEL_STATE_FIELD(fn, type, field)                                  \
	static double fn(const void *state, const struct model_point *pt)    \
	{                                                                    \
		(void)pt;                                                    \
		return ((const type *)state)->field;                         \
	}

/* How a metric is written to metrics.json. */
enum model_metric_write {
	MODEL_METRIC_DIGITS,    /* a number with `digits` significant digits, null if not finite */
	MODEL_METRIC_TIME,      /* the same, null while negative (it never happened) */
	MODEL_METRIC_COUNT,     /* an integer */
	MODEL_METRIC_STRING,    /* text (text()), or null */
	MODEL_METRIC_UNWRITTEN, /* not in the file: for in-process readers (run/world.h) */
};

/* How a metric's value is found from value(state, pt). */
enum model_metric_rule {
	MODEL_METRIC_AT_END,    /* at the end of the run */
	MODEL_METRIC_AT_START,  /* once the models are initialised */
	MODEL_METRIC_MAX,       /* the highest value of the operating points observed, from 0 */
	/* the time (s) the value is first >= 0 at an operating point observed or settled;
	 * -1 while it never was. With cut, the stepper cuts a step where it crosses 0. */
	MODEL_METRIC_FIRST,
};

/* A metric a model adds to metrics.json (in rank order with every other one). */
struct model_metric {
	int rank;
	const char *name;                    /* its key: "time_to_full_s" */
	enum model_metric_write write;
	int digits;
	enum model_metric_rule rule;
	bool cut;
	double (*value)(const void *state, const struct model_point *pt);
	const char *(*text)(const void *state);   /* MODEL_METRIC_STRING, at the end */
};

/* One row of a model's metrics table: MODEL_METRIC(13, "soc_initial", DIGITS, 7, AT_START,
 * false, fn). */
#define MODEL_METRIC(r, n, w, d, ru, c, v)                                                 \
	{ .rank = (r), .name = (n), .write = MODEL_METRIC_##w, .digits = (d),              \
	  .rule = MODEL_METRIC_##ru, .cut = (c), .value = (v) }

/* A validator's view of the other scenario objects' parameters, by key. */
struct model_lookup {
	const void *(*params_of)(const struct model_lookup *lk, const char *key);
	const void *owner;
};

struct model_desc {
	/* ---- the scenario object ---- */
	const char *key;                     /* its path in a scenario: "source", "device.pmic" */
	const struct param_desc *params;     /* its keys (sim/param.h) */
	size_t params_size;                  /* sizeof its parameter struct */
	/* Presets: the enum key that picks them (read first, so that any other key
	 * overrides the preset's value) and the one used when it is absent. NULL: none. */
	const char *preset_key;
	const char *default_preset;
	/* Fill the parameters with the defaults of a preset (0 without presets). */
	void (*defaults)(void *params, int preset);
	/* Optional: after loading, with the JSON object the values came from (NULL when
	 * the scenario has none), for a default that depends on what was given. */
	void (*loaded)(void *params, const cJSON *obj);
	/* Optional: check values that only make sense together, after loading and for
	 * every `set` (against a copy). `others` gives the other objects' parameters;
	 * `needs` lists the keys it reads there (objects loaded no later than this one:
	 * an earlier section of the scenario or its own): those are checked first at
	 * load time, and a `set` on one of them checks this object again. Errors are
	 * GErrors whose message starts with path; the loader puts the file in front. */
	bool (*validate)(const void *params, const struct model_lookup *others, const char *path,
			 GError **err);
	const char *const *needs;
	/* `chargesim list NAME` shows every preset with its values (models with presets). */
	const char *list_name;
	const char *list_title;

	/* ---- the run (all optional but state_size/init for a model with state) ---- */
	size_t state_size;
	void (*init)(void *state, void *params, const struct model_env *env);
	/* Schedule what the model does by itself from t = 0 (profiles, power-on). */
	void (*start)(void *state);
	void (*cleanup)(void *state);
	/* A `set` event changed the parameter `changed` (a leaf of params; the run marks
	 * the circuit changed afterwards). */
	void (*params_changed)(void *state, const struct param_desc *changed);
	/* Its part of the circuit, given the last operating point (in starts zeroed; a
	 * model may refine what an earlier one set). */
	void (*net)(void *state, const struct net_out *last, struct net_in *in);
	/* Threshold margins at an operating point: g >= 0 means "the condition holds";
	 * the stepper cuts a step where one changes sign. n_margins values. */
	int n_margins;
	void (*margins)(const void *state, const struct model_point *pt, double *g);
	/* React to the operating point of the current state (timers, trips, ...). */
	void (*observe)(void *state, const struct model_point *pt);
	/* Once an instant's operating point is final (state reports). */
	void (*settled)(void *state, const struct model_point *pt);
	/* A committed step of dt seconds from p0 to p1, for a figure integrated over
	 * time: the operating point moves linearly from p0's to p1's (with hold, p1's is
	 * held over the whole step: the stepper's backward-Euler rule), the model's own
	 * state is the step's (events come at its ends), and the clock reads the step's
	 * start. Called for every step, so that no figure depends on the trace's rows. */
	void (*integrate)(void *state, const struct model_point *p0, const struct model_point *p1,
			  double dt, bool hold);

	/* ---- the outputs (optional) ---- */
	const struct model_column *columns;  /* what it adds to the trace */
	int n_columns;
	model_row_fn *row;                   /* their values (with columns) */
	const struct model_metric *metrics;  /* what it adds to metrics.json */
	int n_metrics;
};

/* In a struct model_desc: its scenario key, parameter table and parameter struct. */
#define MODEL_PARAMS(k, table, type) .key = (k), .params = (table), .params_size = sizeof(type)
/* In a struct model_desc: a table and its length (columns, metrics). */
#define MODEL_TABLE(name, table) .name = (table), .n_##name = G_N_ELEMENTS(table)

/* Sets *err to a CS_PARAM_ERROR with this message; returns false, for
 * `return model_error(err, ...)` in a parser or validator. */
bool model_error(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* The same with the message "PATH: found <v described>, <fmt...>". */
bool model_error_found(GError **err, const char *path, const cJSON *v, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

/* Log event ev of src now with one number, key: value. */
void model_log_number(struct evlog *log, struct sim *sim, const char *src, const char *ev,
		      const char *key, double value);

/* The models, in registry order, NULL-terminated (models/registry.c). */
extern const struct model_desc *const model_registry[];
int model_count(void);
/* The registry position of the model with this scenario key, or -1. */
int model_index(const char *key);

#endif
