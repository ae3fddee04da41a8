/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/scenario.h - a scenario file loaded into typed configuration.
 *
 * scenario_load() reads the JSON (cJSON), applies `--set PATH=VALUE` overrides to the
 * document, then reads every object through the parameter tables of the models
 * (sim/param.h): units, ranges, unknown keys with "did you mean", presets first and
 * overrides after. Every failure is a GError (CS_SCENARIO_ERROR) whose message starts
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
#include "models/battery/battery.h"
#include "models/cable/cable.h"
#include "models/load/load.h"
#include "models/phy/phy.h"
#include "models/pmic/pmic.h"
#include "models/source/source.h"
#include "run/board.h"
#include "sim/time.h"

#define CS_SCENARIO_ERROR (cs_scenario_error_quark())
GQuark cs_scenario_error_quark(void);
enum { CS_SCENARIO_ERROR_IO, CS_SCENARIO_ERROR_SYNTAX, CS_SCENARIO_ERROR_INVALID };

/* Which parameter struct a `set` event writes to. */
enum scenario_obj {
	SCN_OBJ_SOURCE, SCN_OBJ_CABLE, SCN_OBJ_PMIC, SCN_OBJ_BATTERY, SCN_OBJ_LOAD,
	SCN_OBJ_PHY, SCN_OBJ_POLICY, SCN_OBJ_COUNT
};

enum scenario_event_kind {
	SCN_EV_PLUG, SCN_EV_UNPLUG, SCN_EV_SET, SCN_EV_SUSPEND, SCN_EV_RESUME,
	SCN_EV_FAULT_DROPOUT, SCN_EV_FAULT_ADC_STUCK, SCN_EV_COUNT
};

struct scenario_event {
	sim_time_t at;
	int kind;                         /* enum scenario_event_kind */
	char *path;                       /* set: the scenario path, e.g. "device.load.current" */
	int obj;                          /* set: enum scenario_obj */
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
	struct source_params source;
	struct cable_params cable;
	struct pmic_params pmic;
	struct battery_params battery;
	struct load_params load;
	struct phy_params phy;
	struct gadget_params gadget;
	struct kernel_params kernel;
	struct scenario_policy policy;
	bool attach_at_start;             /* false when the first event is a plug */
	int n_events;
	struct scenario_event *events;
	cJSON *expect;                    /* the "expect" list, checked after a run */
	cJSON *doc;                       /* the whole document after overrides */
};

/* Load a scenario. `sets` is a NULL-terminated list of "PATH=VALUE" (may be NULL). */
struct scenario *scenario_load(const char *file, const char *const *sets, GError **err);
/* Load from a JSON text (for tests and fuzzing); `file` is only used in messages. */
struct scenario *scenario_load_text(const char *file, const char *text, size_t len,
				    const char *const *sets, GError **err);
void scenario_free(struct scenario *sc);
typedef struct scenario scenario;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(scenario, scenario_free)

/* Apply one "PATH=VALUE" override to a JSON document (dotted path, [i] indices; VALUE
 * is JSON when it parses as JSON, else a string). Creates missing objects. */
bool scenario_apply_set(cJSON *doc, const char *assignment, GError **err);

/* The message for a JSON syntax error at `at` in the len bytes of text (no NUL
 * needed): FILE:LINE:COL, the text near it, or that the nesting is deeper than cJSON
 * accepts. */
void scenario_json_error(GError **err, const char *file, const char *text, size_t len,
			 const char *at);

/* The parameter table of each object, for `set` and `list`. */
const struct param_desc *scenario_obj_table(int obj);
/* The live parameter struct of an object (not for SCN_OBJ_POLICY) and its size. */
void *scenario_obj_base(struct scenario *sc, int obj);
size_t scenario_obj_size(int obj);
extern const char *const scenario_event_names[];

#endif
