// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/schema.c - the JSON Schema of a scenario file (schema.h), walked out of the same
 * tables the loader reads: the scenario objects (models/registry.c and the board's),
 * the built-in policies' parameter tables, the loader's top-level keys and event kinds.
 *
 * A value with a unit is a JSON number in the base unit or a string with a unit ("500
 * mA"); the schema bounds the number form only (a string's unit is the loader's to
 * read). Every object lists its keys and refuses others, as the loader does.
 */
#include <math.h>
#include <string.h>
#include <chargesim/policy.h>
#include "run/scenario.h"
#include "run/schema.h"

static cJSON *add_obj(cJSON *parent, const char *key)
{
	return cJSON_AddObjectToObject(parent, key);
}

static cJSON *push_obj(cJSON *array)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToArray(array, o);
	return o;
}

static void add_strings(cJSON *o, const char *key, const char *const *list)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);

	for (int i = 0; list && list[i]; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(list[i]));
}

/* {"type": [t1, t2]} or {"type": t1} */
static void add_types(cJSON *o, const char *const *types)
{
	if (!types[1])
		cJSON_AddStringToObject(o, "type", types[0]);
	else
		add_strings(o, "type", types);
}

/* minimum (or exclusiveMinimum) and maximum of the number form, when finite */
static void add_bounds(cJSON *o, const struct param_desc *d)
{
	if (isfinite(d->min))
		cJSON_AddNumberToObject(o, d->flags & PARAM_F_MIN_EXCL ? "exclusiveMinimum" :
					"minimum", d->min);
	if (isfinite(d->max) && fabs(d->max) < 1e300)
		cJSON_AddNumberToObject(o, "maximum", d->max);
}

static cJSON *table_schema(const struct param_desc *table, const char *doc);

/* "input current limit (current: a number in A, or a string such as \"500 mA\")" */
static char *value_doc(const struct param_desc *d)
{
	const char *doc = d->doc ? d->doc : d->key;

	switch (d->kind) {
	case PARAM_NUM:
		if (d->dim == UNIT_NONE)
			return g_strdup_printf("%s (a plain number)", doc);
		if (d->flags & PARAM_F_UNIT_REQUIRED)
			return g_strdup_printf("%s (%s: a string with its unit, such as \"%s\")", doc,
					       units_dim_name(d->dim), units_dim_example(d->dim));
		return g_strdup_printf("%s (%s: a number in %s, or a string such as \"%s\")", doc,
				       units_dim_name(d->dim), units_dim_symbol(d->dim),
				       units_dim_example(d->dim));
	case PARAM_TIME:
		return g_strdup_printf("%s (a time: a number of seconds, or a string such as \"10 ms\", \"2 h\" or \"14d\")",
				       doc);
	default:
		return g_strdup(doc);
	}
}

/* "Dcp" -> "[dD][cC][pP]": the name in any case, as a regular expression (ECMA 262). */
static void append_any_case(GString *re, const char *name)
{
	for (const char *c = name; *c; c++) {
		if (g_ascii_isalpha(*c))
			g_string_append_printf(re, "[%c%c]", g_ascii_tolower(*c), g_ascii_toupper(*c));
		else if (strchr("\\^$.|?*+()[]{}/", *c))
			g_string_append_printf(re, "\\%c", *c);
		else
			g_string_append_c(re, *c);
	}
}

/*
 * A choice, as the loader matches it (sim/param.c): the names themselves, for an
 * editor to offer; any of them or of the aliases in another case; and, where a choice
 * is a quantity ("3.0A"), any string starting like a number, since "3A" and "3000 mA"
 * name it too. So the schema never refuses what the loader takes.
 */
static void add_enum(cJSON *o, const struct param_desc *d)
{
	cJSON *any = cJSON_AddArrayToObject(o, "anyOf"), *e = cJSON_CreateObject();
	cJSON *names = cJSON_AddArrayToObject(e, "enum");
	g_autoptr(GString) re = g_string_new("^(?:");
	bool quantity = false;

	cJSON_AddItemToArray(any, e);
	for (int i = 0; d->choices[i]; i++) {
		cJSON_AddItemToArray(names, cJSON_CreateString(d->choices[i]));
		append_any_case(re, d->choices[i]);
		g_string_append_c(re, '|');
		for (int dim = UNIT_NONE + 1; dim < UNIT_DIM_COUNT; dim++) {
			double x;

			quantity |= units_parse(d->choices[i], dim, &x, NULL);
		}
	}
	for (int i = 0; d->aliases && d->aliases[i]; i += 2) {
		append_any_case(re, d->aliases[i]);
		g_string_append_c(re, '|');
	}
	g_string_truncate(re, re->len - 1);
	g_string_append(re, ")$");
	e = push_obj(any);
	cJSON_AddStringToObject(e, "type", "string");
	cJSON_AddStringToObject(e, "pattern", re->str);
	if (quantity) {
		e = push_obj(any);
		cJSON_AddStringToObject(e, "type", "string");
		cJSON_AddStringToObject(e, "pattern", "^\\s*[-+.0-9]");
	}
}

/* One parameter's value. */
static cJSON *param_schema(const struct param_desc *d)
{
	cJSON *o = cJSON_CreateObject();
	g_autofree char *doc = value_doc(d);
	/* null is "none" for numbers and times only (sim/param.c) */
	bool null_ok = d->flags & PARAM_F_NULL_ZERO && d->kind != PARAM_INT;

	switch (d->kind) {
	case PARAM_NUM:
	case PARAM_TIME:
	case PARAM_INT: {
		cJSON *any = cJSON_AddArrayToObject(o, "anyOf");
		cJSON *num = cJSON_CreateObject();

		cJSON_AddStringToObject(num, "type", d->kind == PARAM_INT ? "integer" : "number");
		add_bounds(num, d);
		if (!(d->kind == PARAM_NUM && d->flags & PARAM_F_UNIT_REQUIRED))
			cJSON_AddItemToArray(any, num);
		else
			cJSON_Delete(num);
		if (d->kind != PARAM_INT) {
			cJSON *str = cJSON_CreateObject();

			cJSON_AddStringToObject(str, "type", "string");
			cJSON_AddItemToArray(any, str);
		}
		if (null_ok) {
			cJSON *nul = cJSON_CreateObject();

			cJSON_AddStringToObject(nul, "type", "null");
			cJSON_AddItemToArray(any, nul);
		}
		break;
	}
	case PARAM_BOOL:
		add_types(o, (const char *const[]){ "boolean", NULL });
		break;
	case PARAM_ENUM:
		add_enum(o, d);
		break;
	case PARAM_STR:
		add_types(o, (const char *const[]){ "string", NULL });
		break;
	case PARAM_OBJECT:
		cJSON_Delete(o);
		if (d->choices) {
			/* the object, or one of the words its parse hook takes */
			cJSON *any_of = cJSON_CreateObject();
			cJSON *alts = cJSON_AddArrayToObject(any_of, "anyOf");
			cJSON *word;

			cJSON_AddItemToArray(alts, table_schema(d->sub, NULL));
			word = push_obj(alts);
			cJSON_AddStringToObject(word, "type", "string");
			add_strings(word, "enum", d->choices);
			cJSON_AddStringToObject(any_of, "description", d->doc);
			return any_of;
		}
		return table_schema(d->sub, d->doc);
	case PARAM_CUSTOM:
		/* read by its own parser (a list, an object, a number): left open here */
		break;
	}
	cJSON_AddStringToObject(o, "description", doc);
	return o;
}

/* An object whose keys are a parameter table's. */
static cJSON *table_schema(const struct param_desc *table, const char *doc)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *props;

	cJSON_AddStringToObject(o, "type", "object");
	if (doc)
		cJSON_AddStringToObject(o, "description", doc);
	props = add_obj(o, "properties");
	for (const struct param_desc *d = table; d && d->key; d++)
		cJSON_AddItemToObject(props, d->key, param_schema(d));
	cJSON_AddBoolToObject(o, "additionalProperties", false);
	return o;
}

static cJSON *ref(const char *def)
{
	g_autofree char *path = g_strconcat("#/$defs/", def, NULL);
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "$ref", path);
	return o;
}

/* The scenario objects: "source", "cable", and "device" holding "pmic", "battery", ... */
static void add_sections(cJSON *props)
{
	for (int i = 0; i < scenario_n_objects(); i++) {
		const struct model_desc *m = scenario_object(i);
		const char *dot = strchr(m->key, '.');
		cJSON *obj = table_schema(m->params, NULL);

		if (!dot) {
			cJSON_AddItemToObject(props, m->key, obj);
			continue;
		}
		g_autofree char *section = g_strndup(m->key, (gsize)(dot - m->key));
		cJSON *sec = cJSON_GetObjectItemCaseSensitive(props, section);

		if (!sec) {
			sec = add_obj(props, section);
			cJSON_AddStringToObject(sec, "type", "object");
			add_obj(sec, "properties");
			cJSON_AddBoolToObject(sec, "additionalProperties", false);
		}
		cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(sec, "properties"), dot + 1,
				      obj);
	}
}

/* A policy name: a built-in one, or a real Linux driver compiled into the build. */
static cJSON *policy_name_schema(void)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *any = cJSON_AddArrayToObject(o, "anyOf");
	cJSON *names = cJSON_CreateObject(), *drv = cJSON_CreateObject();
	cJSON *e = cJSON_AddArrayToObject(names, "enum");

	for (const struct cs_policy_desc *const *p = cs_builtin_policies; *p; p++)
		cJSON_AddItemToArray(e, cJSON_CreateString((*p)->name));
	cJSON_AddItemToArray(any, names);
	cJSON_AddStringToObject(drv, "type", "string");
	cJSON_AddStringToObject(drv, "pattern", "^linux/.+");
	cJSON_AddStringToObject(drv, "description",
				"a real Linux driver compiled into this build (`chargesim list policies`)");
	cJSON_AddItemToArray(any, drv);
	return o;
}

/* "policy": NAME or {"name" | "plugin", "params"}; each built-in's params its table. */
static cJSON *policy_schema(void)
{
	cJSON *o = cJSON_CreateObject(), *any = cJSON_AddArrayToObject(o, "anyOf");
	cJSON *obj = cJSON_CreateObject(), *props, *one, *all;

	cJSON_AddStringToObject(o, "description",
				"the charger policy: a name, or {\"name\": NAME, \"params\": {...}}, or {\"plugin\": FILE.so, \"params\": {...}} (loaded only under --allow-plugins)");
	cJSON_AddItemToArray(any, ref("policy_name"));
	cJSON_AddStringToObject(obj, "type", "object");
	props = add_obj(obj, "properties");
	cJSON_AddItemToObject(props, "name", ref("policy_name"));
	cJSON_AddStringToObject(add_obj(props, "plugin"), "type", "string");
	cJSON_AddStringToObject(add_obj(props, "params"), "type", "object");
	cJSON_AddBoolToObject(obj, "additionalProperties", false);
	one = cJSON_AddArrayToObject(obj, "oneOf");
	add_strings(push_obj(one), "required", (const char *const[]){ "name", NULL });
	add_strings(push_obj(one), "required", (const char *const[]){ "plugin", NULL });
	all = cJSON_AddArrayToObject(obj, "allOf");
	for (const struct cs_policy_desc *const *p = cs_builtin_policies; *p; p++) {
		cJSON *rule = cJSON_CreateObject();
		cJSON *cond = add_obj(rule, "if"), *then = add_obj(rule, "then");

		cJSON_AddStringToObject(add_obj(add_obj(cond, "properties"), "name"), "const",
					(*p)->name);
		add_strings(cond, "required", (const char *const[]){ "name", NULL });
		cJSON_AddItemToObject(add_obj(then, "properties"), "params",
				      table_schema((*p)->params, (*p)->summary));
		cJSON_AddItemToArray(all, rule);
	}
	cJSON_AddItemToArray(any, obj);
	return o;
}

/* A list of {"at", "do", ...}: the keys of every event kind (run/scenario.c). */
static cJSON *events_schema(void)
{
	cJSON *o = cJSON_CreateObject(), *item = add_obj(o, "items"), *props, *e;

	cJSON_AddStringToObject(o, "type", "array");
	cJSON_AddStringToObject(o, "description",
				"timed events in time order: plug, unplug, set PATH to VALUE, suspend, resume, fault");
	cJSON_AddStringToObject(item, "type", "object");
	add_strings(item, "required", (const char *const[]){ "at", "do", NULL });
	props = add_obj(item, "properties");
	cJSON_AddItemToObject(props, "at", ref("time"));
	e = add_obj(props, "do");
	add_strings(e, "enum", scenario_event_names);
	cJSON_AddStringToObject(add_obj(props, "path"), "description",
				"set: the scenario path of a value that may change mid-run, e.g. \"device.load.current\" or \"policy.params.step\"");
	cJSON_AddStringToObject(add_obj(props, "value"), "description",
				"set: the new value; fault adc_stuck: the stuck reading");
	add_strings(add_obj(props, "fault"), "enum",
		    (const char *const[]){ "vbus_dropout", "adc_stuck", NULL });
	cJSON_AddItemToObject(props, "for", ref("time"));
	add_strings(add_obj(props, "channel"), "enum",
		    (const char *const[]){ "vbus", "ibus", "vbat", "ibat", NULL });
	cJSON_AddBoolToObject(item, "additionalProperties", false);
	return o;
}

/* "for": a policy name or a list of them (run/expect.c). */
static void add_expect_for(cJSON *props)
{
	cJSON *f = add_obj(props, "for"), *any = cJSON_AddArrayToObject(f, "anyOf"), *list;

	cJSON_AddStringToObject(f, "description",
				"the policies whose behaviour this describes: checked only in their runs (none: every policy is held to it)");
	cJSON_AddStringToObject(push_obj(any), "type", "string");
	list = push_obj(any);
	cJSON_AddStringToObject(list, "type", "array");
	cJSON_AddNumberToObject(list, "minItems", 1);
	cJSON_AddStringToObject(add_obj(list, "items"), "type", "string");
}

/* One kind of expectation: its own key (a string), the keys next to it and "for". */
static void add_expect_kind(cJSON *one, const char *kind, const char *const *keys)
{
	cJSON *k = push_obj(one), *props = add_obj(k, "properties");

	add_strings(k, "required", (const char *const[]){ kind, NULL });
	cJSON_AddStringToObject(add_obj(props, kind), "type", "string");
	for (int i = 0; keys[i]; i++)
		add_obj(props, keys[i]);
	add_expect_for(props);
	cJSON_AddBoolToObject(k, "additionalProperties", false);
}

/* A list of expectations, each exactly one of metric, signal, golden, fingerprint
 * (run/expect.c; docs/scenarios.md). */
static cJSON *expect_schema(void)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", "between", NULL };
	static const char *const signal[] = { "at", "==", "!=", "<", "<=", ">", ">=", "between",
					      NULL };
	cJSON *o = cJSON_CreateObject(), *item = add_obj(o, "items");
	cJSON *one = cJSON_AddArrayToObject(item, "oneOf");

	cJSON_AddStringToObject(o, "type", "array");
	cJSON_AddStringToObject(o, "description",
				"what `chargesim check` checks: a metric, a signal at a time, a golden trace, an event fingerprint");
	cJSON_AddStringToObject(item, "type", "object");
	add_expect_kind(one, "metric", ops);
	add_expect_kind(one, "signal", signal);
	add_expect_kind(one, "golden", (const char *const[]){ "tolerance", NULL });
	add_expect_kind(one, "fingerprint", (const char *const[]){ "of", NULL });
	return o;
}

static cJSON *defs(void)
{
	cJSON *o = cJSON_CreateObject(), *time = add_obj(o, "time");
	cJSON *any = cJSON_AddArrayToObject(time, "anyOf");

	cJSON_AddStringToObject(time, "description",
				"a time: a number of seconds, or a string such as \"10 ms\", \"2 h\" or \"14d\"");
	cJSON_AddStringToObject(push_obj(any), "type", "number");
	cJSON_AddStringToObject(push_obj(any), "type", "string");
	cJSON_AddItemToObject(o, "policy_name", policy_name_schema());
	return o;
}

char *scenario_schema_text(void)
{
	g_autoptr(GPtrArray) top = scenario_top_keys();
	cJSON *o = cJSON_CreateObject(), *props;
	char *json, *text;

	cJSON_AddStringToObject(o, "$schema", "https://json-schema.org/draft/2020-12/schema");
	cJSON_AddStringToObject(o, "title", "chargesim scenario");
	cJSON_AddStringToObject(o, "description",
				"A chargesim scenario file (docs/scenarios.md; chargesim-scenario(5)). Generated by `chargesim list schema` from the parameter tables: do not edit.");
	cJSON_AddStringToObject(o, "type", "object");
	props = add_obj(o, "properties");
	for (guint i = 0; i + 1 < top->len; i++) {
		const char *k = top->pdata[i];

		if (strcmp(k, "policy") == 0)
			cJSON_AddItemToObject(props, k, policy_schema());
		else if (strcmp(k, "events") == 0)
			cJSON_AddItemToObject(props, k, events_schema());
		else if (strcmp(k, "expect") == 0)
			cJSON_AddItemToObject(props, k, expect_schema());
		else if (strcmp(k, "duration") == 0)
			cJSON_AddItemToObject(props, k, ref("time"));
		else if (strcmp(k, "seed") == 0)
			cJSON_AddStringToObject(add_obj(props, k), "type", "integer");
		else if (strcmp(k, "name") == 0 || strcmp(k, "description") == 0)
			cJSON_AddStringToObject(add_obj(props, k), "type", "string");
		else if (!cJSON_GetObjectItemCaseSensitive(props, k))
			add_sections(props);   /* source, cable, device: all at the first */
	}
	cJSON_AddBoolToObject(o, "additionalProperties", false);
	cJSON_AddItemToObject(o, "$defs", defs());
	json = cJSON_Print(o);
	cJSON_Delete(o);
	text = g_strconcat(json, "\n", NULL);
	cJSON_free(json);
	return text;
}
