/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/scenario.h - a scenario file loaded into typed configuration.
 *
 * scenario_load() reads the JSON (cJSON), applies `--set PATH=VALUE` overrides to the
 * document, then reads every scenario object through its parameter table (sim/param.h):
 * units, ranges, unknown keys with "did you mean", presets first and overrides after.
 * The scenario objects are the models of models/registry.c, then the board's
 * (device.gadget, device.kernel); each is described by a struct model_desc
 * (models/model.h), so the loader, `set` and `list` never name one. Every failure is a GError (CS_SCENARIO_ERROR) whose message starts
 * with the file name: "FILE: PATH: found X, expected Y", or "FILE:LINE:COL: ..." for
 * JSON syntax errors. A loaded scenario is complete and valid: a run never needs to
 * report an input error.
 *
 * Ownership: struct scenario owns all its strings and arrays; scenario_free() frees
 * them. A run works on its own copy of the parameter structs (set events change them).
 */
#ifndef CS_RUN_SCENARIO_H
#define CS_RUN_SCENARIO_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "models/model.h"
#include "run/board.h"
#include "sim/time.h"

#define CS_SCENARIO_ERROR (cs_scenario_error_quark())
GQuark cs_scenario_error_quark(void);
enum { CS_SCENARIO_ERROR_IO, CS_SCENARIO_ERROR_SYNTAX, CS_SCENARIO_ERROR_INVALID,
       CS_SCENARIO_ERROR_NOMEM };

/* A `set` event's object: a scenario object's index (scenario_object()), or this. */
#define SCN_OBJ_POLICY (-1)

enum scenario_event_kind {
	SCN_EV_PLUG, SCN_EV_UNPLUG, SCN_EV_SET, SCN_EV_SUSPEND, SCN_EV_RESUME,
	SCN_EV_FAULT_DROPOUT, SCN_EV_FAULT_ADC_STUCK, SCN_EV_COUNT
};

struct scenario_event {
	sim_time_t at;
	int kind;                         /* enum scenario_event_kind */
	char *path;                       /* set: the scenario path, e.g. "device.load.current" */
	int obj;                          /* set: scenario_object() index, or SCN_OBJ_POLICY */
	const struct param_desc *desc;    /* set: the parameter (NULL for policy params) */
	size_t base_off;                  /* set: offset of desc's struct in the object */
	cJSON *value;                     /* set: the new value (validated at load) */
	sim_time_t duration;              /* faults */
	int channel;                      /* adc_stuck: enum pmic_adc_chan */
	double stuck_value;               /* adc_stuck: reading, in the channel's unit */
};

struct scenario_policy {
	char *name;                       /* built-in policy name, or NULL with plugin */
	char *plugin;                     /* shared object path, resolved against the file */
	cJSON *params;                    /* the "params" object (validated by the stack) */
};

struct scenario {
	char *file;                       /* as given on the command line */
	char *dir;                        /* its directory, for relative paths */
	char *name;
	char *description;
	guint32 seed;
	sim_time_t duration;
	void **params;                    /* each scenario object's parameters, by index */
	struct scenario_policy policy;
	bool attach_at_start;             /* false when the first event is a plug */
	int n_events;
	struct scenario_event *events;
	cJSON *expect;                    /* the "expect" list, checked after a run */
	cJSON *doc;                       /* the whole document after overrides */
};

/* Load a scenario. `sets` is a NULL-terminated list of "PATH=VALUE" (may be NULL). */
struct scenario *scenario_load(const char *file, const char *const *sets, GError **err);
/* Load from a JSON text (a sweep's base, tests, fuzzing); `file` names it in messages
 * and is where its relative paths start. */
struct scenario *scenario_load_text(const char *file, const char *text, size_t len,
				    const char *const *sets, GError **err);
void scenario_free(struct scenario *sc);
typedef struct scenario scenario;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(scenario, scenario_free)

/* Apply one "PATH=VALUE" override to a JSON document (dotted path, [i] indices; VALUE
 * is JSON when it parses as JSON, else a string). Creates missing objects. */
bool scenario_apply_set(cJSON *doc, const char *assignment, GError **err);

/* Call before a cJSON parse whose failure goes to scenario_json_error(): cJSON says
 * nothing when an allocation fails (it stops as at a syntax error), so its allocator
 * is wrapped to note failures, and this clears the note. */
void scenario_json_begin(void);
/* The message for a JSON syntax error at `at` in the len bytes of text (no NUL
 * needed): FILE:LINE:COL, the text near it, or that the nesting is deeper than cJSON
 * accepts; or, when an allocation failed since scenario_json_begin(), that memory ran
 * out (CS_SCENARIO_ERROR_NOMEM), never a syntax error in a valid file. */
void scenario_json_error(GError **err, const char *file, const char *text, size_t len,
			 const char *at);

/* err = CS_SCENARIO_ERROR `code` (an enum above) with the formatted message; NULL. */
G_GNUC_PRINTF(3, 4)
void *scenario_fail(GError **err, int code, const char *fmt, ...);
/* err = CS_SCENARIO_ERROR_INVALID with the formatted message; false. */
G_GNUC_PRINTF(2, 3)
bool scenario_error(GError **err, const char *fmt, ...);
/* err = CS_SCENARIO_ERROR_INVALID "FILE: " and inner's message (which it frees); false. */
bool scenario_error_in_file(GError **err, const char *file, GError *inner);
/* The index of the first member of the JSON object obj whose key a later member repeats,
 * or -1 when every key is there once. Time O(n log n) in the number of keys whatever
 * they are (a sort, not a hash table: keys chosen to collide would make one quadratic). */
int scenario_first_duplicate(const cJSON *obj);

/* A seed at path (v NULL: *out stays as it is): a whole number from 0 to 2^32 - 1. */
bool scenario_json_seed(const cJSON *v, const char *path, guint32 *out, GError **err);

/* The parameter at `rest`, the dotted tail of `path` ("noise" of "device.pmic.adc.vbus.noise")
 * below the object `table` describes, and the offset of its struct in the object; NULL
 * with err "WHERE: ..." for an unknown key or one after a parameter without fields (which
 * the message names by its key, or with full_after by its path). */
const struct param_desc *scenario_param_at(const struct param_desc *table, const char *path,
					  const char *rest, bool full_after, const char *where,
					  size_t *off, GError **err);

/* The scenario objects: the models (models/registry.c, same indices), then the
 * board's (board_objects). */
int scenario_n_objects(void);
/* The keys a scenario's top level takes, in the order of a file: name, description,
 * seed, duration, the objects' sections, policy, events, expect (NULL-terminated). */
GPtrArray *scenario_top_keys(void);
/* The event kinds, "plug", ..., "fault" (NULL-terminated). */
extern const char *const scenario_event_names[];
const struct model_desc *scenario_object(int i);
/* The index of the object with this key ("device.load"), or -1. */
int scenario_object_index(const char *key);
/* An object's parameters in a loaded scenario by key (NULL: no such object). */
void *scenario_params(const struct scenario *sc, const char *key);
/* The charger's UVLO falling threshold, V (the line the plots draw under VBUS). */
double scenario_uvlo_v(const struct scenario *sc);
/* A load profile named by a CSV file ("profile": "FILE.csv"): read it, from inside the
 * scenario's directory, into the load's steps (run/load_profile.c). True when there is
 * none. Errors start with the JSON path; the loader puts the scenario file in front. */
bool scenario_load_profile_csv(struct scenario *sc, GError **err);

#endif
