/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/param.h - named, typed, unit-carrying parameters described by tables.
 *
 * Every model, preset and policy describes its parameters with a table of struct
 * param_desc: key, kind, unit dimension, where the value lives in its parameter
 * struct (offset), the valid range and a line of documentation. One generic loader
 * reads a JSON object against such a table (units, ranges, unknown keys with a "did
 * you mean"), the same table documents the parameters in `chargesim list`, and a
 * scenario `set` event finds the field to change by walking the tables. Nothing in a
 * table is ever written: tables are static const.
 *
 * Error messages (GError, domain CS_PARAM_ERROR) read "PATH: found X, expected Y";
 * the scenario loader puts the file name in front.
 */
#ifndef CS_SIM_PARAM_H
#define CS_SIM_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <cJSON.h>
#include <glib.h>
#include "sim/time.h"
#include "sim/units.h"

#define CS_PARAM_ERROR (cs_param_error_quark())
GQuark cs_param_error_quark(void);
enum { CS_PARAM_ERROR_INVALID };

enum param_kind {
	PARAM_NUM,     /* double, in the base unit of dim */
	PARAM_TIME,    /* sim_time_t (ns) */
	PARAM_INT,     /* int */
	PARAM_BOOL,    /* bool */
	PARAM_ENUM,    /* int index into choices[] */
	PARAM_STR,     /* char * (g_strdup'd; freed by param_free_strings) */
	PARAM_OBJECT,  /* nested struct described by sub[] */
	PARAM_CUSTOM,  /* parsed by the parse callback */
};

struct param_desc;
typedef bool (*param_parse_cb)(const struct param_desc *d, const cJSON *v, void *field,
			       const char *path, GError **err);

struct param_desc {
	const char *key;
	enum param_kind kind;
	enum unit_dim dim;           /* PARAM_NUM */
	size_t off;                  /* offset of the field in the parameter struct */
	double min, max;             /* inclusive range (PARAM_NUM in base unit, PARAM_TIME in s, PARAM_INT) */
	unsigned flags;
	const char *const *choices;  /* PARAM_ENUM: NULL-terminated */
	const struct param_desc *sub;/* PARAM_OBJECT: NULL-key-terminated table; PARAM_CUSTOM:
				      * the keys of the object it reads, if any (for tests) */
	param_parse_cb parse;        /* PARAM_CUSTOM; PARAM_OBJECT, optional: a value not an
				      * object (one of choices, for the schema) */
	/* PARAM_CUSTOM, optional: free what parse allocated into the field (a list of any
	 * length); param_free_strings() calls it. */
	void (*release)(const struct param_desc *d, void *field);
	const char *doc;             /* one line for `chargesim list` */
	/* PARAM_ENUM: other names for choices, pairs {alias, choice, ..., NULL} */
	const char *const *aliases;
};

#define PARAM_F_MIN_EXCL  0x1u   /* value must be > min, not >= */
#define PARAM_F_NULL_ZERO 0x2u   /* JSON null means "none", stored as 0 */
#define PARAM_F_RUNTIME   0x4u   /* may change mid-run through a `set` event */
#define PARAM_F_UNIT_REQUIRED 0x8u /* PARAM_NUM: a bare number is refused (capacity: Ah or mAh?) */
#define PARAM_F_PROBE_ONLY 0x10u  /* read once when its owner starts (a policy's probe): a `set` event cannot change it */

/*
 * Ranges. Every bound is a value a real part of a USB charging setup can have, and
 * a quantity the models divide by (a capacity, a resistance in an RC pair, an
 * interval) has a positive minimum at a physical scale rather than "above 0". Bounds
 * are inclusive; a value within a few ULPs of one (from a unit conversion such as
 * "1 min") counts as the bound. Besides, a number is 0 or at least PARAM_SMALLEST of
 * its base unit in magnitude (1 nV, 1 nA, 1 nohm, ...: far below any part, far above
 * the denormals that turn into infinities when divided), except temperatures.
 */
#define PARAM_SMALLEST 1e-9

#define PARAM_END { .key = NULL }

/* Read every member of obj (a JSON object) into the struct at base. Unknown keys,
 * wrong types, wrong units and out-of-range values are errors naming path.key.
 * `skip` lists keys the caller handles itself (NULL-terminated, may be NULL). */
bool param_load_object(const struct param_desc *table, const cJSON *obj, void *base,
		       const char *path, const char *const *skip, GError **err);
/* Read one value into its field. */
bool param_load_value(const struct param_desc *d, const cJSON *v, void *base,
		      const char *path, GError **err);
/* Find a key in a table (NULL when absent). */
const struct param_desc *param_find(const struct param_desc *table, const char *key);
/* Set err to the unknown-key message for key at path, with a suggestion. */
void param_error_unknown_key(const struct param_desc *table, const char *const *extra,
			     const char *key, const char *path, GError **err);
/* Describe a cJSON value briefly for messages: "\"5 V\"", "12", "an object". */
char *param_describe_json(const cJSON *v);
/* Set err to "PATH: found <v described>, expected EXPECTED"; returns false. */
bool param_error_found(GError **err, const char *path, const cJSON *v, const char *expected);
/* Free the PARAM_STR fields and what PARAM_CUSTOM fields own (their release hook),
 * recursively into objects. Only the owner of the parameters calls it: a shallow copy
 * (a run's, made with g_memdup2) shares these and frees its struct alone. */
void param_free_strings(const struct param_desc *table, void *base);
/* Format the current value of a field for documentation ("5.1 V", "10 ms"). */
char *param_format_value(const struct param_desc *d, const void *base);

/* The JSON path of `key` inside `path` ("a.b"; just the key at the top, where path is
 * NULL or ""). Free with g_free. */
char *param_join_path(const char *path, const char *key);

/* Helpers for custom parsers: a number with a unit from a JSON number or string. */
bool param_json_number(const cJSON *v, enum unit_dim dim, double *out, const char *path,
		       GError **err);
bool param_json_time(const cJSON *v, sim_time_t *out, const char *path, GError **err);

/* A JSON list of numbers with a unit, for custom parsers (a current ladder, a list of
 * MaxPower values). Each value must lie in [min, max] (above min when min_excl) and,
 * when ascending, above the one before it. The expected_* texts finish the messages
 * "PATH: found X, expected ..." for a value that is not such a list and for a bad
 * item (PATH[i]). */
struct param_list_spec {
	enum unit_dim dim;
	double min, max;
	bool min_excl;
	bool ascending;
	int max_n;                     /* 1 to max_n items */
	const char *expected_list;
	const char *expected_item;
};
bool param_json_number_list(const cJSON *v, const struct param_list_spec *spec, double *out,
			    int *n_out, const char *path, GError **err);

#define PARAM_FIELD(base, d, type) ((type *)((char *)(base) + (d)->off))

#endif
