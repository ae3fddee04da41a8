// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/scenario.c - scenario files: JSON in, typed configuration out.
 *
 * Order of work: read the file (size-capped), parse with cJSON (syntax errors carry
 * line and column), reject duplicate keys, apply --set overrides to the document,
 * then read each section through the models' parameter tables. Presets and kinds are
 * applied before the keys next to them, so any value may override its preset.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "run/scenario.h"

G_DEFINE_QUARK(cs-scenario-error-quark, cs_scenario_error)

#define SCENARIO_MAX_BYTES (16u << 20)   /* a scenario is small; refuse absurd files */
#define SCENARIO_MAX_EVENTS 100000

const char *const scenario_event_names[] = {
	"plug", "unplug", "set", "suspend", "resume", "fault", NULL,
};

static const char *const top_keys[] = {
	"name", "description", "seed", "duration", "source", "cable", "device", "policy",
	"events", "expect", NULL,
};
static const char *const device_keys[] = { "pmic", "battery", "load", "gadget", "phy", "kernel", NULL };

const struct param_desc *scenario_obj_table(int obj)
{
	switch (obj) {
	case SCN_OBJ_SOURCE: return source_param_desc;
	case SCN_OBJ_CABLE: return cable_param_desc;
	case SCN_OBJ_PMIC: return pmic_param_desc;
	case SCN_OBJ_BATTERY: return battery_param_desc;
	case SCN_OBJ_LOAD: return load_param_desc;
	case SCN_OBJ_PHY: return phy_param_desc;
	}
	return NULL;
}

/* Prefix a parameter error with the file name, moving it into the scenario domain. */
static bool fail_in_file(GError **err, const char *file, GError *inner)
{
	g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: %s", file,
		    inner->message);
	g_error_free(inner);
	return false;
}

#define serr(err, file, ...) \
	do { \
		g_autofree char *m_ = g_strdup_printf(__VA_ARGS__); \
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: %s", file, m_); \
	} while (0)

/* ---- --set overrides ---- */

bool scenario_apply_set(cJSON *doc, const char *assignment, GError **err)
{
	const char *eq = strchr(assignment, '=');
	g_autofree char *path = NULL;
	g_auto(GStrv) parts = NULL;
	cJSON *node = doc, *val;
	int n;

	if (!eq || eq == assignment) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "--set: found \"%s\", expected PATH=VALUE such as source.ilim=1.5A",
			    assignment);
		return false;
	}
	path = g_strndup(assignment, (gsize)(eq - assignment));
	/* JSON when the whole value is JSON (7, true, "x", {...}); anything else, such as
	 * 1.5A or 90min, is a string for the unit parser. */
	val = cJSON_ParseWithOpts(eq + 1, NULL, true);
	if (!val)
		val = cJSON_CreateString(eq + 1);
	parts = g_strsplit(path, ".", -1);
	n = (int)g_strv_length(parts);
	for (int i = 0; i < n; i++) {
		char *seg = parts[i];
		char *br = strchr(seg, '[');
		long idx = -1;
		cJSON *child;

		if (br) {
			char *end;

			idx = strtol(br + 1, &end, 10);
			if (end == br + 1 || *end != ']' || end[1] != '\0' || idx < 0) {
				cJSON_Delete(val);
				g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
					    "--set %s: found \"%s\", expected NAME or NAME[INDEX]",
					    path, seg);
				return false;
			}
			*br = '\0';
		}
		if (!*seg || !cJSON_IsObject(node)) {
			cJSON_Delete(val);
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
				    "--set %s: found %s, expected a dotted path of object keys such as device.load.current",
				    path, !*seg ? "an empty name" : "a value that is not an object on the way");
			return false;
		}
		child = cJSON_GetObjectItemCaseSensitive(node, seg);
		if (idx >= 0) {
			if (!cJSON_IsArray(child) || idx >= cJSON_GetArraySize(child)) {
				cJSON_Delete(val);
				g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
					    "--set %s: found no element %ld in \"%s\", expected an index into an existing list",
					    path, idx, seg);
				return false;
			}
			if (i == n - 1) {
				cJSON_ReplaceItemInArray(child, (int)idx, val);
				return true;
			}
			node = cJSON_GetArrayItem(child, (int)idx);
			continue;
		}
		if (i == n - 1) {
			if (child)
				cJSON_ReplaceItemInObjectCaseSensitive(node, seg, val);
			else
				cJSON_AddItemToObject(node, seg, val);
			return true;
		}
		if (!child) {
			child = cJSON_CreateObject();
			cJSON_AddItemToObject(node, seg, child);
		} else if (cJSON_IsString(child) && strcmp(seg, "policy") == 0) {
			/* "policy": "name" becomes {"name": "name"} so params can be set */
			cJSON *obj = cJSON_CreateObject();

			cJSON_AddStringToObject(obj, "name", child->valuestring);
			cJSON_ReplaceItemInObjectCaseSensitive(node, seg, obj);
			child = obj;
		}
		node = child;
	}
	cJSON_Delete(val);
	return true;
}

/* ---- syntax ---- */

static void position_of(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; p < at && *p; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Nesting depth of [ and { at `at` (outside strings), for the error message. */
static int json_depth(const char *text, const char *at)
{
	int depth = 0;
	bool in_str = false;

	for (const char *p = text; p < at && *p; p++) {
		if (in_str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				in_str = false;
		} else if (*p == '"') {
			in_str = true;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if (*p == ']' || *p == '}') {
			depth--;
		}
	}
	return depth;
}

void scenario_json_error(GError **err, const char *file, const char *text, size_t len,
			 const char *at)
{
	const char *end = text + len;
	int line, col;

	position_of(text, at, &line, &col);
	if (json_depth(text, at) >= CJSON_NESTING_LIMIT) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_SYNTAX,
			    "%s:%d:%d: found JSON nested deeper than %d levels, expected a scenario",
			    file, line, col, CJSON_NESTING_LIMIT);
		return;
	}
	/* At most 20 bytes, never past the text (it need not end in a NUL), and not
	 * ending inside a UTF-8 sequence. */
	size_t n = at < end ? MIN((size_t)(end - at), 20) : 0;
	g_autofree char *near = g_strndup(at, n);
	const char *bad = NULL;

	if (!g_utf8_validate(near, -1, &bad))
		near[bad - near] = '\0';
	for (char *c = near; *c; c++)
		if ((unsigned char)*c < 0x20)
			*c = ' ';
	g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_SYNTAX,
		    "%s:%d:%d: found a JSON syntax error near \"%s\", expected valid JSON", file, line,
		    col, near);
}

static bool check_duplicates(const cJSON *node, const char *path, const char *file,
			     GError **err)
{
	const cJSON *a;
	int i = 0;

	if (cJSON_IsObject(node)) {
		cJSON_ArrayForEach(a, node) {
			g_autofree char *sub = *path ? g_strdup_printf("%s.%s", path, a->string)
						     : g_strdup(a->string);

			for (const cJSON *b = a->next; b; b = b->next)
				if (strcmp(a->string, b->string) == 0) {
					serr(err, file, "%s: found the key \"%s\" twice, expected each key once",
					     sub, a->string);
					return false;
				}
			if (!check_duplicates(a, sub, file, err))
				return false;
		}
	} else if (cJSON_IsArray(node)) {
		cJSON_ArrayForEach(a, node) {
			g_autofree char *sub = g_strdup_printf("%s[%d]", path, i++);

			if (!check_duplicates(a, sub, file, err))
				return false;
		}
	}
	return true;
}

/* ---- sections ---- */

static bool scenario_validate_obj(struct scenario *sc, int obj, const void *base,
				  const char *path, GError **err);

static bool load_with_preset(const char *file, const cJSON *obj, const char *path,
			     const struct param_desc *table, const char *preset_key,
			     const char *default_preset, void *params,
			     void (*defaults)(void *params, int preset), GError **err)
{
	const char *skip[] = { preset_key, NULL };
	const struct param_desc *pd = param_find(table, preset_key);
	const cJSON *pv = obj ? cJSON_GetObjectItemCaseSensitive(obj, preset_key) : NULL;
	GError *inner = NULL;
	int preset = 0;

	for (int i = 0; pd->choices[i]; i++)
		if (strcmp(pd->choices[i], default_preset) == 0)
			preset = i;
	if (pv) {
		g_autofree char *pp = g_strdup_printf("%s.%s", path, preset_key);

		/* Read the preset into the struct itself; defaults() rewrites it all. */
		if (!param_load_value(pd, pv, params, pp, &inner))
			return fail_in_file(err, file, inner);
		preset = *PARAM_FIELD(params, pd, int);
	}
	defaults(params, preset);
	if (obj && !param_load_object(table, obj, params, path, skip, &inner))
		return fail_in_file(err, file, inner);
	return true;
}

static void source_defaults_cb(void *p, int k) { source_params_default(p, k); }
static void pmic_defaults_cb(void *p, int k) { pmic_params_default(p, k); }
static void battery_defaults_cb(void *p, int k) { battery_params_default(p, k); }

static bool load_source(struct scenario *sc, const cJSON *obj, GError **err)
{
	if (!load_with_preset(sc->file, obj, "source", source_param_desc, "kind", "dcp",
			      &sc->source, source_defaults_cb, err))
		return false;
	/* A Type-C port's current follows its Rp unless ilim was given. */
	if (sc->source.kind == SRC_KIND_TYPEC &&
	    !(obj && cJSON_GetObjectItemCaseSensitive(obj, "ilim"))) {
		sc->source.ilim = source_rated_current(&sc->source);
		sc->source.ilim_from_rp = true;
	}
	return scenario_validate_obj(sc, SCN_OBJ_SOURCE, &sc->source, "source", err);
}

static bool load_device(struct scenario *sc, const cJSON *dev, GError **err)
{
	const cJSON *v;
	GError *inner = NULL;

	if (dev && !cJSON_IsObject(dev)) {
		g_autofree char *found = param_describe_json(dev);

		serr(err, sc->file, "device: found %s, expected an object with pmic, battery, load",
		     found);
		return false;
	}
	/* No table: every key must be one of device_keys, which are read below. */
	if (dev && !param_load_object(NULL, dev, NULL, "device", device_keys, &inner))
		return fail_in_file(err, sc->file, inner);
	if (!load_with_preset(sc->file, dev ? cJSON_GetObjectItemCaseSensitive(dev, "pmic") : NULL,
			      "device.pmic", pmic_param_desc, "preset", "generic-switching",
			      &sc->pmic, pmic_defaults_cb, err))
		return false;
	if (!load_with_preset(sc->file, dev ? cJSON_GetObjectItemCaseSensitive(dev, "battery") : NULL,
			      "device.battery", battery_param_desc, "preset", "eb425161lu",
			      &sc->battery, battery_defaults_cb, err))
		return false;
	load_params_default(&sc->load);
	v = dev ? cJSON_GetObjectItemCaseSensitive(dev, "load") : NULL;
	if (v && !param_load_object(load_param_desc, v, &sc->load, "device.load", NULL, &inner))
		return fail_in_file(err, sc->file, inner);
	phy_params_default(&sc->phy);
	v = dev ? cJSON_GetObjectItemCaseSensitive(dev, "phy") : NULL;
	if (v && !param_load_object(phy_param_desc, v, &sc->phy, "device.phy", NULL, &inner))
		return fail_in_file(err, sc->file, inner);
	gadget_params_default(&sc->gadget);
	v = dev ? cJSON_GetObjectItemCaseSensitive(dev, "gadget") : NULL;
	if (v && !param_load_object(gadget_param_desc, v, &sc->gadget, "device.gadget", NULL, &inner))
		return fail_in_file(err, sc->file, inner);
	kernel_params_default(&sc->kernel);
	v = dev ? cJSON_GetObjectItemCaseSensitive(dev, "kernel") : NULL;
	if (v && !param_load_object(kernel_param_desc, v, &sc->kernel, "device.kernel", NULL, &inner))
		return fail_in_file(err, sc->file, inner);
	if (!scenario_validate_obj(sc, SCN_OBJ_BATTERY, &sc->battery, "device.battery", err))
		return false;
	return true;
}

static bool load_policy(struct scenario *sc, const cJSON *v, GError **err)
{
	const cJSON *k;

	if (!v) {
		sc->policy.name = g_strdup("fixed");
		return true;
	}
	if (cJSON_IsString(v)) {
		sc->policy.name = g_strdup(v->valuestring);
		return true;
	}
	if (!cJSON_IsObject(v)) {
		g_autofree char *found = param_describe_json(v);

		serr(err, sc->file,
		     "policy: found %s, expected a policy name or {\"name\": ..., \"params\": {...}}",
		     found);
		return false;
	}
	cJSON_ArrayForEach(k, v) {
		if (strcmp(k->string, "name") == 0 && cJSON_IsString(k)) {
			sc->policy.name = g_strdup(k->valuestring);
		} else if (strcmp(k->string, "plugin") == 0 && cJSON_IsString(k)) {
			sc->policy.plugin = g_path_is_absolute(k->valuestring) ?
				g_strdup(k->valuestring) :
				g_build_filename(sc->dir, k->valuestring, NULL);
		} else if (strcmp(k->string, "params") == 0 && cJSON_IsObject(k)) {
			sc->policy.params = cJSON_Duplicate(k, true);
		} else {
			static const char *const keys[] = { "name", "plugin", "params", NULL };
			GError *inner = NULL;

			if (strcmp(k->string, "name") && strcmp(k->string, "plugin") &&
			    strcmp(k->string, "params")) {
				param_error_unknown_key(NULL, keys, k->string, "policy", &inner);
				return fail_in_file(err, sc->file, inner);
			}
			g_autofree char *found = param_describe_json(k);
			serr(err, sc->file, "policy.%s: found %s, expected %s", k->string, found,
			     strcmp(k->string, "params") == 0 ? "an object" : "a string");
			return false;
		}
	}
	if (!sc->policy.name == !sc->policy.plugin) {
		serr(err, sc->file, "policy: found %s, expected exactly one of \"name\" or \"plugin\"",
		     sc->policy.name ? "both" : "neither");
		return false;
	}
	return true;
}

/* Resolve "device.pmic.adc.vbus.noise" to (object, table entry, base offset). */
static bool resolve_set_path(struct scenario *sc, struct scenario_event *e, const char *path,
			     const char *where, GError **err)
{
	static const struct { const char *prefix; int obj; } roots[] = {
		{ "source.", SCN_OBJ_SOURCE }, { "cable.", SCN_OBJ_CABLE },
		{ "device.pmic.", SCN_OBJ_PMIC }, { "device.battery.", SCN_OBJ_BATTERY },
		{ "device.load.", SCN_OBJ_LOAD }, { "device.phy.", SCN_OBJ_PHY },
		{ "policy.params.", SCN_OBJ_POLICY },
	};
	const struct param_desc *table = NULL, *d = NULL;
	const char *rest = NULL;
	size_t off = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(roots); i++)
		if (g_str_has_prefix(path, roots[i].prefix)) {
			e->obj = roots[i].obj;
			rest = path + strlen(roots[i].prefix);
			table = scenario_obj_table(e->obj);
		}
	if (!rest || !*rest) {
		serr(err, sc->file,
		     "%s: found the path \"%s\", expected one starting with source., cable., device.pmic., device.battery., device.load., device.phy. or policy.params.",
		     where, path);
		return false;
	}
	if (e->obj == SCN_OBJ_POLICY)
		return true; /* checked against the policy's table when the run is built */
	g_auto(GStrv) segs = g_strsplit(rest, ".", -1);
	for (int i = 0; segs[i]; i++) {
		d = param_find(table, segs[i]);
		if (!d) {
			GError *inner = NULL;
			g_autoptr(GString) parent = g_string_new_len(path, rest - path - 1);

			for (int k = 0; k < i; k++)
				g_string_append_printf(parent, ".%s", segs[k]);
			param_error_unknown_key(table, NULL, segs[i], parent->str, &inner);
			serr(err, sc->file, "%s: %s", where, inner->message);
			g_error_free(inner);
			return false;
		}
		if (d->kind == PARAM_OBJECT && segs[i + 1]) {
			off += d->off;
			table = d->sub;
			continue;
		}
		if (segs[i + 1]) {
			serr(err, sc->file, "%s: found \"%s\" after %s, expected nothing: %s has no fields",
			     where, segs[i + 1], d->key, d->key);
			return false;
		}
	}
	if ((d->kind == PARAM_ENUM && (strcmp(d->key, "kind") == 0 || strcmp(d->key, "preset") == 0)) ||
	    d->kind == PARAM_OBJECT) {
		serr(err, sc->file, "%s: found \"%s\", a parameter that cannot change during a run, expected one such as device.load.current",
		     where, path);
		return false;
	}
	e->desc = d;
	e->base_off = off;
	return true;
}

size_t scenario_obj_size(int obj)
{
	switch (obj) {
	case SCN_OBJ_SOURCE: return sizeof(struct source_params);
	case SCN_OBJ_CABLE: return sizeof(struct cable_params);
	case SCN_OBJ_PMIC: return sizeof(struct pmic_params);
	case SCN_OBJ_BATTERY: return sizeof(struct battery_params);
	case SCN_OBJ_LOAD: return sizeof(struct load_params);
	case SCN_OBJ_PHY: return sizeof(struct phy_params);
	}
	return 0;
}

void *scenario_obj_base(struct scenario *sc, int obj)
{
	switch (obj) {
	case SCN_OBJ_SOURCE: return &sc->source;
	case SCN_OBJ_CABLE: return &sc->cable;
	case SCN_OBJ_PMIC: return &sc->pmic;
	case SCN_OBJ_BATTERY: return &sc->battery;
	case SCN_OBJ_LOAD: return &sc->load;
	case SCN_OBJ_PHY: return &sc->phy;
	}
	return NULL;
}

/* The checks that involve several values of an object (or of two objects), made
 * after loading and again for every `set` against a copy of the object. */
static bool scenario_validate_obj(struct scenario *sc, int obj, const void *base,
				  const char *path, GError **err)
{
	GError *inner = NULL;

	switch (obj) {
	case SCN_OBJ_SOURCE: {
		const struct source_params *p = base;

		if (p->ishort > p->ilim) {
			serr(err, sc->file, "%s.ishort: found %g A, expected at most ilim (%g A)",
			     path, p->ishort, p->ilim);
			return false;
		}
		return true;
	}
	case SCN_OBJ_CABLE: {
		const struct cable_params *p = base;

		if (cable_ohm_per_m(p->awg) < 0) {
			serr(err, sc->file, "%s.awg: found %d, expected one of 20, 22, 24, 26, 28", path,
			     p->awg);
			return false;
		}
		return true;
	}
	case SCN_OBJ_PMIC:
		if (!pmic_params_validate(base, sc->battery.v_max, path, &inner))
			return fail_in_file(err, sc->file, inner);
		return true;
	case SCN_OBJ_BATTERY:
		if (!battery_params_validate(base, path, &inner) ||
		    !pmic_params_validate(&sc->pmic, ((const struct battery_params *)base)->v_max,
					  "device.pmic", &inner))
			return fail_in_file(err, sc->file, inner);
		return true;
	}
	return true;
}

/* A `set` value is checked now, against a scratch copy of its object. */
static bool validate_set_value(struct scenario *sc, struct scenario_event *e, const char *path,
			       GError **err)
{
	union {
		struct source_params s;
		struct cable_params c;
		struct pmic_params p;
		struct battery_params b;
		struct load_params l;
		struct phy_params ph;
	} scratch;
	GError *inner = NULL;

	if (e->obj == SCN_OBJ_POLICY)
		return true;
	memcpy(&scratch, scenario_obj_base(sc, e->obj), scenario_obj_size(e->obj));
	if (!param_load_value(e->desc, e->value, (char *)&scratch + e->base_off, path, &inner))
		return fail_in_file(err, sc->file, inner);
	if (e->desc->kind == PARAM_STR)
		g_free(*PARAM_FIELD((char *)&scratch + e->base_off, e->desc, char *));
	return scenario_validate_obj(sc, e->obj, &scratch, path, err);
}

static bool load_event(struct scenario *sc, const cJSON *it, int idx, sim_time_t prev,
		       GError **err)
{
	struct scenario_event *e = &sc->events[idx];
	g_autofree char *ep = g_strdup_printf("events[%d]", idx);
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(it, "at");
	const cJSON *what = cJSON_GetObjectItemCaseSensitive(it, "do");
	GError *inner = NULL;
	const char *allowed[8] = { "at", "do", NULL };
	int kind = -1;

	if (!cJSON_IsObject(it) || !at || !cJSON_IsString(what)) {
		g_autofree char *found = param_describe_json(!cJSON_IsObject(it) ? it : !at ? NULL : what);

		serr(err, sc->file, "%s%s: found %s, expected %s", ep,
		     !cJSON_IsObject(it) ? "" : !at ? ".at" : ".do", found,
		     !cJSON_IsObject(it) ? "an object with \"at\" and \"do\"" :
		     !at ? "a time such as \"10 s\"" : "one of plug, unplug, set, suspend, resume, fault");
		return false;
	}
	{
		g_autofree char *ap = g_strdup_printf("%s.at", ep);

		if (!param_json_time(at, &e->at, ap, &inner))
			return fail_in_file(err, sc->file, inner);
		if (e->at < 0 || e->at > sc->duration) {
			serr(err, sc->file, "%s: found %g s, expected a time from 0 to the duration (%g s)",
			     ap, sim_time_to_s(e->at), sim_time_to_s(sc->duration));
			return false;
		}
		if (e->at < prev) {
			serr(err, sc->file, "%s: found %g s, before the previous event (%g s); expected events in time order",
			     ap, sim_time_to_s(e->at), sim_time_to_s(prev));
			return false;
		}
	}
	for (int i = 0; scenario_event_names[i]; i++)
		if (strcmp(scenario_event_names[i], what->valuestring) == 0)
			kind = i;
	if (kind < 0) {
		g_autofree char *dp = g_strdup_printf("%s.do", ep);
		const char *hint = cs_did_you_mean(what->valuestring, scenario_event_names, 6);

		serr(err, sc->file, "%s: found \"%s\", expected one of plug, unplug, set, suspend, resume, fault%s%s%s",
		     dp, what->valuestring, hint ? " (did you mean \"" : "", hint ? hint : "",
		     hint ? "\"?)" : "");
		return false;
	}
	e->kind = kind;     /* "fault" is SCN_EV_FAULT_DROPOUT until its kind is read */
	if (kind == SCN_EV_SET) {
		const cJSON *path = cJSON_GetObjectItemCaseSensitive(it, "path");
		const cJSON *value = cJSON_GetObjectItemCaseSensitive(it, "value");

		allowed[2] = "path";
		allowed[3] = "value";
		if (!cJSON_IsString(path) || !value) {
			serr(err, sc->file, "%s: found a set without %s, expected \"path\" and \"value\"", ep,
			     !cJSON_IsString(path) ? "a string \"path\"" : "\"value\"");
			return false;
		}
		e->path = g_strdup(path->valuestring);
		e->value = cJSON_Duplicate(value, true);
		g_autofree char *pp = g_strdup_printf("%s.path", ep);
		if (!resolve_set_path(sc, e, e->path, pp, err))
			return false;
		g_autofree char *vp = g_strdup_printf("%s.value", ep);
		if (!validate_set_value(sc, e, vp, err))
			return false;
	} else if (kind == SCN_EV_FAULT_DROPOUT) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(it, "fault");
		const cJSON *dur = cJSON_GetObjectItemCaseSensitive(it, "for");
		g_autofree char *fp = g_strdup_printf("%s.for", ep);

		allowed[2] = "fault";
		allowed[3] = "for";
		allowed[4] = "channel";
		allowed[5] = "value";
		if (!cJSON_IsString(f) || (strcmp(f->valuestring, "vbus_dropout") &&
					   strcmp(f->valuestring, "adc_stuck"))) {
			g_autofree char *found = param_describe_json(f);

			serr(err, sc->file, "%s.fault: found %s, expected \"vbus_dropout\" or \"adc_stuck\"",
			     ep, found);
			return false;
		}
		if (!dur) {
			serr(err, sc->file, "%s: found no \"for\", expected how long the fault lasts", ep);
			return false;
		}
		if (!param_json_time(dur, &e->duration, fp, &inner))
			return fail_in_file(err, sc->file, inner);
		if (e->duration <= 0) {
			serr(err, sc->file, "%s: found %g s, expected a duration above 0 s", fp,
			     sim_time_to_s(e->duration));
			return false;
		}
		if (strcmp(f->valuestring, "adc_stuck") == 0) {
			const cJSON *ch = cJSON_GetObjectItemCaseSensitive(it, "channel");
			const cJSON *val = cJSON_GetObjectItemCaseSensitive(it, "value");
			g_autofree char *vp = g_strdup_printf("%s.value", ep);

			e->kind = SCN_EV_FAULT_ADC_STUCK;
			e->channel = PMIC_ADC_VBUS;
			if (ch) {
				e->channel = -1;
				for (int i = 0; cJSON_IsString(ch) && pmic_adc_names[i]; i++)
					if (strcmp(pmic_adc_names[i], ch->valuestring) == 0)
						e->channel = i;
				if (e->channel < 0) {
					g_autofree char *found = param_describe_json(ch);

					serr(err, sc->file, "%s.channel: found %s, expected one of vbus, ibus, vbat, ibat",
					     ep, found);
					return false;
				}
			}
			if (!val) {
				serr(err, sc->file, "%s: found no \"value\", expected the stuck reading", ep);
				return false;
			}
			if (!param_json_number(val, e->channel == PMIC_ADC_VBUS || e->channel == PMIC_ADC_VBAT ?
					       UNIT_VOLT : UNIT_AMP, &e->stuck_value, vp, &inner))
				return fail_in_file(err, sc->file, inner);
		}
	}
	if (!param_load_object(NULL, it, NULL, ep, allowed, &inner))
		return fail_in_file(err, sc->file, inner);
	return true;
}

static bool load_events(struct scenario *sc, const cJSON *v, GError **err)
{
	const cJSON *it;
	sim_time_t prev = 0;
	int i = 0, n;

	sc->attach_at_start = true;
	if (!v)
		return true;
	if (!cJSON_IsArray(v)) {
		g_autofree char *found = param_describe_json(v);

		serr(err, sc->file, "events: found %s, expected a list of {\"at\", \"do\", ...}", found);
		return false;
	}
	n = cJSON_GetArraySize(v);
	if (n > SCENARIO_MAX_EVENTS) {
		serr(err, sc->file, "events: found %d events, expected at most %d", n, SCENARIO_MAX_EVENTS);
		return false;
	}
	sc->events = g_new0(struct scenario_event, (gsize)n + 1);
	cJSON_ArrayForEach(it, v) {
		sc->n_events = i + 1;
		if (!load_event(sc, it, i, prev, err))
			return false;
		prev = sc->events[i].at;
		i++;
	}
	if (n > 0 && sc->events[0].kind == SCN_EV_PLUG)
		sc->attach_at_start = false;
	return true;
}

static bool load_expect(struct scenario *sc, const cJSON *v, GError **err)
{
	const cJSON *it;
	int i = 0;

	if (!v)
		return true;
	if (!cJSON_IsArray(v)) {
		g_autofree char *found = param_describe_json(v);

		serr(err, sc->file, "expect: found %s, expected a list of expectations", found);
		return false;
	}
	cJSON_ArrayForEach(it, v) {
		int kinds = 0;

		kinds += cJSON_GetObjectItemCaseSensitive(it, "metric") != NULL;
		kinds += cJSON_GetObjectItemCaseSensitive(it, "signal") != NULL;
		kinds += cJSON_GetObjectItemCaseSensitive(it, "golden") != NULL;
		kinds += cJSON_GetObjectItemCaseSensitive(it, "fingerprint") != NULL;
		if (!cJSON_IsObject(it) || kinds != 1) {
			serr(err, sc->file,
			     "expect[%d]: found %s, expected an object with exactly one of metric, signal, golden, fingerprint",
			     i, cJSON_IsObject(it) ? (kinds ? "several kinds" : "none of them") : "something else");
			return false;
		}
		i++;
	}
	sc->expect = cJSON_Duplicate(v, true);
	return true;
}

static bool has_control_chars(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static bool scenario_build(struct scenario *sc, cJSON *doc, GError **err)
{
	const cJSON *v;
	GError *inner = NULL;

	if (!cJSON_IsObject(doc)) {
		g_autofree char *found = param_describe_json(doc);

		serr(err, sc->file, "found %s at the top, expected a JSON object", found);
		return false;
	}
	if (!param_load_object(NULL, doc, NULL, "", top_keys, &inner))
		return fail_in_file(err, sc->file, inner);
	v = cJSON_GetObjectItemCaseSensitive(doc, "name");
	if (v && !cJSON_IsString(v)) {
		serr(err, sc->file, "name: found a non-string, expected a string");
		return false;
	}
	if (v && (!*v->valuestring || strpbrk(v->valuestring, "/\\") || v->valuestring[0] == '.' ||
		  !g_utf8_validate(v->valuestring, -1, NULL) || strlen(v->valuestring) > 200 ||
		  has_control_chars(v->valuestring))) {
		g_autofree char *found = param_describe_json(v);

		serr(err, sc->file, "name: found %s, expected a name usable as a directory (UTF-8 text up to 200 bytes, no slashes or control characters, not starting with a dot)",
		     g_utf8_validate(found, -1, NULL) ? found : "a string that is not UTF-8");
		return false;
	}
	if (v) {
		sc->name = g_strdup(v->valuestring);
	} else {
		g_autofree char *base = g_path_get_basename(sc->file);

		if (g_str_has_suffix(base, ".json"))
			base[strlen(base) - 5] = '\0';
		sc->name = g_strdup(base);
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "description");
	if (v && (!cJSON_IsString(v) || !g_utf8_validate(v->valuestring, -1, NULL))) {
		serr(err, sc->file, "description: found %s, expected UTF-8 text",
		     cJSON_IsString(v) ? "bytes that are not UTF-8" : "a value that is not a string");
		return false;
	}
	sc->description = g_strdup(cJSON_IsString(v) ? v->valuestring : "");
	v = cJSON_GetObjectItemCaseSensitive(doc, "seed");
	sc->seed = 1;
	if (v) {
		if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
		    v->valuedouble != (double)(guint32)v->valuedouble) {
			g_autofree char *found = param_describe_json(v);

			serr(err, sc->file, "seed: found %s, expected a whole number from 0 to 4294967295", found);
			return false;
		}
		sc->seed = (guint32)v->valuedouble;
	}
	v = cJSON_GetObjectItemCaseSensitive(doc, "duration");
	sc->duration = SIM_HOUR;
	if (v) {
		if (!param_json_time(v, &sc->duration, "duration", &inner))
			return fail_in_file(err, sc->file, inner);
		if (sc->duration <= 0 || sc->duration > 366 * 24 * SIM_HOUR) {
			serr(err, sc->file, "duration: found %g s, expected a time above 0 and at most 366 days",
			     sim_time_to_s(sc->duration));
			return false;
		}
	}
	if (!load_source(sc, cJSON_GetObjectItemCaseSensitive(doc, "source"), err))
		return false;
	cable_params_default(&sc->cable);
	v = cJSON_GetObjectItemCaseSensitive(doc, "cable");
	if (v && !param_load_object(cable_param_desc, v, &sc->cable, "cable", NULL, &inner))
		return fail_in_file(err, sc->file, inner);
	if (!scenario_validate_obj(sc, SCN_OBJ_CABLE, &sc->cable, "cable", err))
		return false;
	if (!load_device(sc, cJSON_GetObjectItemCaseSensitive(doc, "device"), err))
		return false;
	if (!load_policy(sc, cJSON_GetObjectItemCaseSensitive(doc, "policy"), err))
		return false;
	if (!load_events(sc, cJSON_GetObjectItemCaseSensitive(doc, "events"), err))
		return false;
	return load_expect(sc, cJSON_GetObjectItemCaseSensitive(doc, "expect"), err);
}

struct scenario *scenario_load_text(const char *file, const char *text, size_t len,
				    const char *const *sets, GError **err)
{
	struct scenario *sc = g_new0(struct scenario, 1);
	const char *end = NULL;
	cJSON *doc;

	sc->file = g_strdup(file);
	sc->dir = g_path_get_dirname(file);
	if (memchr(text, '\0', len)) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_SYNTAX,
			    "%s: found a NUL byte, expected a JSON text", file);
		goto fail;
	}
	if (g_strstr_len(text, (gssize)len, "\\u0000")) {
		/* cJSON would cut the string there without a word. */
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_SYNTAX,
			    "%s: found \\u0000 in a string, expected text without NUL characters", file);
		goto fail;
	}
	{
		const char *p = text, *end_text = text + len;

		while (p < end_text && g_ascii_isspace(*p))
			p++;
		if (p == end_text) {
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_SYNTAX,
				    "%s: found an empty file, expected a JSON scenario such as scenarios/demo.json",
				    file);
			goto fail;
		}
	}
	doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!doc) {
		scenario_json_error(err, file, text, len, end ? end : text);
		goto fail;
	}
	for (const char *p = end; p && p < text + len; p++)
		if (!g_ascii_isspace(*p)) {
			int line, col;

			position_of(text, p, &line, &col);
			cJSON_Delete(doc);
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_SYNTAX,
				    "%s:%d:%d: found text after the JSON document, expected the end of the file",
				    file, line, col);
			goto fail;
		}
	sc->doc = doc;
	if (!check_duplicates(doc, "", file, err))
		goto fail;
	for (; sets && *sets; sets++)
		if (!scenario_apply_set(doc, *sets, err))
			goto fail;
	if (!scenario_build(sc, doc, err))
		goto fail;
	return sc;
fail:
	scenario_free(sc);
	return NULL;
}

/* Read at most SCENARIO_MAX_BYTES + 1 bytes: stat() says nothing about devices and
 * pipes (/dev/zero has size 0), so the cap is enforced while reading. */
static char *read_bounded(const char *file, gsize *len, GError **err)
{
	GString *buf;
	char chunk[65536];
	ssize_t n;
	int fd = open(file, O_RDONLY);

	if (fd < 0) {
		int e = errno;

		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO,
			    "%s: cannot read the scenario: %s", file, g_strerror(e));
		return NULL;
	}
	buf = g_string_new(NULL);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		g_string_append_len(buf, chunk, n);
		if (buf->len > SCENARIO_MAX_BYTES) {
			close(fd);
			g_string_free(buf, TRUE);
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO,
				    "%s: found more than %u MiB, expected a scenario of at most %u MiB",
				    file, SCENARIO_MAX_BYTES >> 20, SCENARIO_MAX_BYTES >> 20);
			return NULL;
		}
	}
	if (n < 0) {
		int e = errno;

		close(fd);
		g_string_free(buf, TRUE);
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO,
			    "%s: cannot read the scenario: %s", file, g_strerror(e));
		return NULL;
	}
	close(fd);
	*len = buf->len;
	return g_string_free(buf, FALSE);
}

struct scenario *scenario_load(const char *file, const char *const *sets, GError **err)
{
	g_autofree char *text = NULL;
	struct stat st;
	gsize len = 0;

	if (stat(file, &st) != 0) {
		int e = errno;

		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO,
			    "%s: cannot read the scenario: %s", file, g_strerror(e));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO,
			    "%s: found a directory, expected a scenario file (.json)", file);
		return NULL;
	}
	if (st.st_size > SCENARIO_MAX_BYTES) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO,
			    "%s: found a file of %lld bytes, expected a scenario of at most %u MiB",
			    file, (long long)st.st_size, SCENARIO_MAX_BYTES >> 20);
		return NULL;
	}
	text = read_bounded(file, &len, err);
	if (!text)
		return NULL;
	return scenario_load_text(file, text, len, sets, err);
}

void scenario_free(struct scenario *sc)
{
	if (!sc)
		return;
	for (int i = 0; i < sc->n_events; i++) {
		g_free(sc->events[i].path);
		cJSON_Delete(sc->events[i].value);
	}
	g_free(sc->events);
	g_free(sc->policy.name);
	g_free(sc->policy.plugin);
	cJSON_Delete(sc->policy.params);
	cJSON_Delete(sc->expect);
	cJSON_Delete(sc->doc);
	param_free_strings(kernel_param_desc, &sc->kernel);
	g_free(sc->file);
	g_free(sc->dir);
	g_free(sc->name);
	g_free(sc->description);
	g_free(sc);
}
