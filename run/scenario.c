// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/scenario.c - scenario files: JSON in, typed configuration out (scenario.h).
 * The file is read size-capped and its duplicate keys refused before --set changes the
 * document; each object's preset is read before the keys next to it.
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "models/pmic/pmic.h"
#include "run/scenario.h"
#include "traces/infile.h"
#include "output/outfile.h"

G_DEFINE_QUARK(cs-scenario-error-quark, cs_scenario_error)

#define SCENARIO_MAX_BYTES (16u << 20)   /* a scenario is small; refuse absurd files */
#define SCENARIO_MAX_EVENTS 100000

const char *const scenario_event_names[] = {
	"plug", "unplug", "set", "suspend", "resume", "fault", NULL,
};

/* The keys of a scenario around its objects' sections. */
static const char *const head_keys[] = { "name", "description", "seed", "duration", NULL };
static const char *const tail_keys[] = { "policy", "events", "expect", NULL };

/* ---- the scenario objects ---- */

int scenario_n_objects(void)
{
	int n = model_count();

	for (int i = 0; board_objects[i]; i++)
		n++;
	return n;
}

const struct model_desc *scenario_object(int i)
{
	return i < model_count() ? model_registry[i] : board_objects[i - model_count()];
}

int scenario_object_index(const char *key)
{
	for (int i = 0; i < scenario_n_objects(); i++)
		if (strcmp(scenario_object(i)->key, key) == 0)
			return i;
	return -1;
}

void *scenario_params(const struct scenario *sc, const char *key)
{
	int i = scenario_object_index(key);

	return i >= 0 && sc->params ? sc->params[i] : NULL;
}

double scenario_uvlo_v(const struct scenario *sc)
{
	const struct pmic_params *p = scenario_params(sc, "device.pmic");

	return p->uvlo_falling;
}

void *scenario_fail(GError **err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_propagate_error(err, g_error_new_valist(CS_SCENARIO_ERROR, code, fmt, ap));
	va_end(ap);
	return NULL;
}

bool scenario_error(GError **err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_propagate_error(err, g_error_new_valist(CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, fmt,
						  ap));
	va_end(ap);
	return false;
}

bool scenario_error_in_file(GError **err, const char *file, GError *inner)
{
	scenario_error(err, "%s: %s", file, inner->message);
	g_error_free(inner);
	return false;
}

bool scenario_json_seed(const cJSON *v, const char *path, guint32 *out, GError **err)
{
	if (!v)
		return true;
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
	    v->valuedouble != (double)(guint32)v->valuedouble)
		return param_error_found(err, path, v, "a whole number from 0 to 4294967295");
	*out = (guint32)v->valuedouble;
	return true;
}

/* "PATH: found <v described>, expected EXPECTED", PATH from path_fmt; false. */
G_GNUC_PRINTF(4, 5)
static bool fail_found(GError **err, const cJSON *v, const char *expected, const char *path_fmt,
		       ...)
{
	g_autofree char *path = NULL;
	va_list ap;

	va_start(ap, path_fmt);
	path = g_strdup_vprintf(path_fmt, ap);
	va_end(ap);
	return param_error_found(err, path, v, expected);
}

/* ---- --set overrides ---- */

/* VALUE of --set: JSON when the whole value is JSON (7, true, "x", {...}); anything else,
 * such as 1.5A or 90min, is a string for the unit parser. */
static cJSON *set_value(const char *text)
{
	cJSON *v = cJSON_ParseWithOpts(text, NULL, true);

	return v ? v : cJSON_CreateString(text);
}

bool scenario_apply_set(cJSON *doc, const char *assignment, GError **err)
{
	const char *eq = strchr(assignment, '=');
	bool utf8 = g_utf8_validate(assignment, -1, NULL);
	g_autofree char *where = NULL;
	g_auto(GStrv) parts = NULL;
	cJSON *node = doc;
	int n;

	if (!utf8 || !eq || eq == assignment) {
		g_autofree char *q = cs_quote(assignment);

		if (!utf8)
			return scenario_error(err, "--set: found %s, which is not UTF-8 text, expected PATH=VALUE in UTF-8 such as source.ilim=1.5A",
				    q);
		return scenario_error(err, "--set: found %s, expected PATH=VALUE such as source.ilim=1.5A",
			    q);
	}
	where = g_strdup_printf("--set %.*s", (int)(eq - assignment), assignment);
	parts = g_strsplit(where + strlen("--set "), ".", -1);
	n = (int)g_strv_length(parts);
	for (int i = 0; i < n; i++) {
		char *seg = parts[i];
		char *br = strchr(seg, '[');
		g_autofree char *written = NULL;	/* the index as written, for messages */
		long idx = -1;
		cJSON *child;

		if (br) {
			char *end;

			errno = 0;
			idx = strtol(br + 1, &end, 10);
			written = g_strndup(br + 1, (gsize)(end - br - 1));
			if (errno == ERANGE && idx > 0)
				idx = G_MAXINT;	/* beyond any list; the message shows what was written */
			if (end == br + 1 || *end != ']' || end[1] != '\0' || idx < 0)
				return scenario_error(err, "%s: found \"%s\", expected NAME or NAME[INDEX]",
						      where, seg);
			*br = '\0';
		}
		if (!*seg || !cJSON_IsObject(node))
			return scenario_error(err, "%s: found %s, expected a dotted path of object keys such as device.load.current",
				    where, !*seg ? "an empty name" :
				    "a value that is not an object on the way");
		child = cJSON_GetObjectItemCaseSensitive(node, seg);
		if (idx >= 0) {
			int len = cJSON_IsArray(child) ? cJSON_GetArraySize(child) : 0;

			if (idx >= len && len > 0)
				return scenario_error(err, "%s: found no element %s in \"%s\", expected an index from 0 to %d",
					    where, written, seg, len - 1);
			if (idx >= len)
				return scenario_error(err, "%s: found no element %s in \"%s\" (%s), expected an index into an existing list",
					    where, written, seg, cJSON_IsArray(child) ? "an empty list" :
					    "not a list in the scenario");
			if (i == n - 1) {
				cJSON_ReplaceItemInArray(child, (int)idx, set_value(eq + 1));
				return true;
			}
			node = cJSON_GetArrayItem(child, (int)idx);
			continue;
		}
		if (i == n - 1 && child) {
			cJSON_ReplaceItemInObjectCaseSensitive(node, seg, set_value(eq + 1));
		} else if (i == n - 1) {
			cJSON_AddItemToObject(node, seg, set_value(eq + 1));
		} else if (!child) {
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

/* An allocation of cJSON's failed since scenario_json_begin() (per thread: sweeps
 * may parse in several). */
static __thread bool json_alloc_failed;

static void *json_malloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		json_alloc_failed = true;
	return p;
}

void scenario_json_begin(void)
{
	static gsize hooked;

	if (g_once_init_enter(&hooked)) {
		cJSON_Hooks h = { json_malloc, free };

		cJSON_InitHooks(&h);
		g_once_init_leave(&hooked, 1);
	}
	json_alloc_failed = false;
}

void scenario_json_error(GError **err, const char *file, const char *text, size_t len,
			 const char *at)
{
	const char *end = text + len;
	int line, col;

	if (json_alloc_failed) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_NOMEM,
			    "%s: out of memory while reading its JSON (%zu bytes); the file may be "
			    "valid: raise the memory limit (ulimit -v) or give a smaller file",
			    file, len);
		return;
	}
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

/* Where check_duplicates() is in the document: the chain of keys (or array indices)
 * from the top, turned into a JSON path only for a message. */
struct json_at {
	const struct json_at *up;
	const char *key;       /* NULL: element `index` of an array */
	int index;
};

static char *json_at_path(const struct json_at *at)
{
	g_autofree char *up = at->up ? json_at_path(at->up) : NULL;

	if (!at->key)
		return g_strdup_printf("%s[%d]", up ? up : "", at->index);
	return param_join_path(up, at->key);
}

struct member {
	const char *key;
	int index;
};

static int member_cmp(const void *pa, const void *pb)
{
	const struct member *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Objects of a few keys, the usual case, compare pairwise; larger ones sort copies of
 * their keys, so that a file of a few MB with many keys is checked in milliseconds. */
#define PAIRWISE_MAX_KEYS 16

int scenario_first_duplicate(const cJSON *obj)
{
	const cJSON *a;
	g_autofree struct member *m = NULL;
	int n = 0, first = -1;

	cJSON_ArrayForEach(a, obj)
		n++;
	if (n <= PAIRWISE_MAX_KEYS) {
		int i = 0;

		cJSON_ArrayForEach(a, obj) {
			for (const cJSON *b = a->next; b; b = b->next)
				if (strcmp(a->string, b->string) == 0)
					return i;
			i++;
		}
		return -1;
	}
	m = g_new(struct member, n);
	n = 0;
	cJSON_ArrayForEach(a, obj) {
		m[n].key = a->string;
		m[n].index = n;
		n++;
	}
	qsort(m, (size_t)n, sizeof(*m), member_cmp);
	/* equal keys are now adjacent, the first of each run is its earliest member */
	for (int i = 0; i + 1 < n; i++)
		if (strcmp(m[i].key, m[i + 1].key) == 0 && (first < 0 || m[i].index < first))
			first = m[i].index;
	return first;
}

/* The first duplicate in document order: an object's own keys before those inside a
 * member, the members in order (what a reader scanning the file meets first). */
static bool check_duplicates(const cJSON *node, const struct json_at *at, GError **err)
{
	const cJSON *a;
	bool obj = cJSON_IsObject(node);
	int i = 0, dup;

	if (!obj && !cJSON_IsArray(node))
		return true;
	dup = obj ? scenario_first_duplicate(node) : -1;
	cJSON_ArrayForEach(a, node) {
		struct json_at sub = { at, obj ? a->string : NULL, i };

		if (i++ == dup) {
			g_autofree char *path = json_at_path(&sub);

			return scenario_error(err, "%s: found the key \"%s\" twice, expected each key once",
					      path, a->string);
		}
		if (!check_duplicates(a, &sub, err))
			return false;
	}
	return true;
}

/* ---- sections ---- */

/* Object i from its JSON value (NULL: absent, the defaults). Its preset (or kind), if
 * it has one, is read first, so that any value next to it may override the preset. */
static bool load_object(struct scenario *sc, int i, const cJSON *obj, GError **err)
{
	const struct model_desc *d = scenario_object(i);
	const char *skip[] = { d->preset_key, NULL };
	void *params = sc->params[i];
	int preset = 0;

	if (d->preset_key) {
		const struct param_desc *pd = param_find(d->params, d->preset_key);
		const cJSON *pv = obj ? cJSON_GetObjectItemCaseSensitive(obj, d->preset_key) : NULL;

		for (int k = 0; pd->choices[k]; k++)
			if (strcmp(pd->choices[k], d->default_preset) == 0)
				preset = k;
		if (pv) {
			g_autofree char *pp = param_join_path(d->key, d->preset_key);

			/* Read the preset into the struct itself; defaults() rewrites it all. */
			if (!param_load_value(pd, pv, params, pp, err))
				return false;
			preset = *PARAM_FIELD(params, pd, int);
		}
	}
	d->defaults(params, preset);
	if (obj && !param_load_object(d->params, obj, params, d->key, skip, err))
		return false;
	if (d->loaded)
		d->loaded(params, obj);
	return true;
}

/* A validator's view of the scenario's objects, one of them possibly replaced by the
 * scratch copy a `set` is checked on. */
struct lookup_ctx {
	const struct scenario *sc;
	int replaced;
	const void *scratch;
};

static const void *lookup_params(const struct model_lookup *lk, const char *key)
{
	const struct lookup_ctx *c = lk->owner;
	int i = scenario_object_index(key);

	return i < 0 ? NULL : i == c->replaced ? c->scratch : c->sc->params[i];
}

/* The checks that involve several values of object i (or other objects' values),
 * on `params` (its own or a scratch copy, which replaces object `replaced`). */
static bool validate_object(struct scenario *sc, int i, const void *params, int replaced,
			    const void *scratch, const char *path, GError **err)
{
	const struct model_desc *d = scenario_object(i);
	struct lookup_ctx c = { sc, replaced, scratch };
	struct model_lookup lk = { lookup_params, &c };

	return !d->validate || d->validate(params, &lk, path, err);
}

/* After loading a section: object i, after the objects it reads (`needs`) that were
 * loaded with it (objects [first, end)). */
static bool validate_loaded(struct scenario *sc, int i, int first, int end, bool *done,
			    GError **err)
{
	const struct model_desc *d = scenario_object(i);

	if (done[i])
		return true;
	done[i] = true;
	for (const char *const *n = d->needs; n && *n; n++) {
		int j = scenario_object_index(*n);

		if (j >= first && j < end && !validate_loaded(sc, j, first, end, done, err))
			return false;
	}
	return validate_object(sc, i, sc->params[i], -1, NULL, d->key, err);
}

/* The length of the section name at the start of key ("device" of "device.pmic"). */
static size_t section_len(const char *key)
{
	const char *dot = strchr(key, '.');

	return dot ? (size_t)(dot - key) : strlen(key);
}

/* One section: the objects [first, end) whose keys start with its name. */
static bool load_section(struct scenario *sc, const cJSON *doc, int first, int end, bool *done,
			 GError **err)
{
	const char *key = scenario_object(first)->key;
	size_t len = section_len(key);
	g_autofree char *name = g_strndup(key, len);
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(doc, name);

	if (key[len] == '.') {
		g_autofree const char **keys = g_new0(const char *, (gsize)(end - first) + 1);
		const char *expected = strcmp(name, "device") == 0 ?
				       "an object with pmic, battery, load" : "an object";

		if (node && !cJSON_IsObject(node))
			return fail_found(err, node, expected, "%s", name);
		/* No table: every key must name one of the section's objects. */
		for (int i = first; i < end; i++)
			keys[i - first] = scenario_object(i)->key + len + 1;
		if (node && !param_load_object(NULL, node, NULL, name, keys, err))
			return false;
	}
	for (int i = first; i < end; i++) {
		const char *sub = scenario_object(i)->key + len;
		const cJSON *obj = !*sub ? node :
				   node ? cJSON_GetObjectItemCaseSensitive(node, sub + 1) : NULL;

		if (!load_object(sc, i, obj, err))
			return false;
	}
	for (int i = first; i < end; i++)
		if (!validate_loaded(sc, i, first, end, done, err))
			return false;
	return true;
}

/* Every scenario object, section by section in object order. */
static bool load_objects(struct scenario *sc, const cJSON *doc, GError **err)
{
	int n = scenario_n_objects();
	g_autofree bool *done = g_new0(bool, (gsize)n);

	sc->params = g_new0(void *, (gsize)n);
	for (int i = 0; i < n; i++)
		sc->params[i] = g_malloc0(scenario_object(i)->params_size);
	for (int first = 0, end; first < n; first = end) {
		const char *key = scenario_object(first)->key;
		size_t len = section_len(key);

		for (end = first + 1; end < n; end++) {
			const char *k = scenario_object(end)->key;

			if (section_len(k) != len || strncmp(k, key, len) != 0)
				break;
		}
		if (!load_section(sc, doc, first, end, done, err))
			return false;
	}
	return true;
}

/* name, description, ..., the sections of the objects, policy, events, expect */
GPtrArray *scenario_top_keys(void)
{
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);

	for (int i = 0; head_keys[i]; i++)
		g_ptr_array_add(keys, g_strdup(head_keys[i]));
	for (int i = 0; i < scenario_n_objects(); i++) {
		const char *key = scenario_object(i)->key;
		g_autofree char *name = g_strndup(key, section_len(key));

		if (!g_ptr_array_find_with_equal_func(keys, name, g_str_equal, NULL))
			g_ptr_array_add(keys, g_steal_pointer(&name));
	}
	for (int i = 0; tail_keys[i]; i++)
		g_ptr_array_add(keys, g_strdup(tail_keys[i]));
	g_ptr_array_add(keys, NULL);
	return keys;
}

static bool load_policy(struct scenario *sc, const cJSON *v, GError **err)
{
	const cJSON *k;

	if (!v || cJSON_IsString(v)) {
		sc->policy.name = g_strdup(v ? v->valuestring : "fixed");
		return true;
	}
	if (!cJSON_IsObject(v))
		return fail_found(err, v,
				  "a policy name or {\"name\": ..., \"params\": {...}}", "policy");
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

			if (!g_strv_contains(keys, k->string)) {
				param_error_unknown_key(NULL, keys, k->string, "policy", err);
				return false;
			}
			return fail_found(err, k, strcmp(k->string, "params") == 0 ?
					  "an object" : "a string", "policy.%s", k->string);
		}
	}
	return !sc->policy.name != !sc->policy.plugin ||
	       scenario_error(err, "policy: found %s, expected exactly one of \"name\" or \"plugin\"",
			      sc->policy.name ? "both" : "neither");
}

const struct param_desc *scenario_param_at(const struct param_desc *table, const char *path,
					  const char *rest, bool full_after, const char *where,
					  size_t *off, GError **err)
{
	g_auto(GStrv) segs = g_strsplit(rest, ".", -1);
	g_autoptr(GString) at = g_string_new_len(path, rest - path - 1);
	const struct param_desc *d = NULL;
	GError *inner = NULL;

	*off = 0;
	for (int i = 0; segs[i]; i++) {
		d = param_find(table, segs[i]);
		if (!d) {
			param_error_unknown_key(table, NULL, segs[i], at->str, &inner);
			scenario_error_in_file(err, where, inner);
			return NULL;
		}
		g_string_append_printf(at, ".%s", segs[i]);
		if (segs[i + 1] && d->kind != PARAM_OBJECT) {
			scenario_error(err, "%s: found \"%s\" after %s, expected nothing: %s has no fields",
				       where, segs[i + 1], full_after ? at->str : d->key, d->key);
			return NULL;
		}
		if (segs[i + 1]) {
			*off += d->off;
			table = d->sub;
		}
	}
	return d;
}

/* Resolve "device.pmic.adc.vbus.noise" to (object, table entry, base offset). Only
 * the models' parameters and the policy's can change during a run. */
static bool resolve_set_path(struct scenario_event *e, const char *path,
			     const char *where, GError **err)
{
	static const char policy_prefix[] = "policy.params.";
	const struct param_desc *table = NULL, *d;
	const char *rest = NULL;
	size_t off;

	for (int i = 0; i < model_count(); i++) {
		const char *key = model_registry[i]->key;
		size_t len = strlen(key);

		if (strncmp(path, key, len) == 0 && path[len] == '.') {
			e->obj = i;
			rest = path + len + 1;
			table = model_registry[i]->params;
		}
	}
	if (g_str_has_prefix(path, policy_prefix)) {
		e->obj = SCN_OBJ_POLICY;
		rest = path + strlen(policy_prefix);
	}
	if (!rest || !*rest) {
		g_autoptr(GString) roots = g_string_new(NULL);

		for (int i = 0; i < model_count(); i++)
			g_string_append_printf(roots, "%s%s.", i ? ", " : "", model_registry[i]->key);
		return scenario_error(err, "%s: found the path \"%s\", expected one starting with %s or %s",
			    where, path, roots->str, policy_prefix);
	}
	if (e->obj == SCN_OBJ_POLICY)
		return true; /* checked against the policy's table when the run is built */
	d = scenario_param_at(table, path, rest, false, where, &off, err);
	if (!d)
		return false;
	/* A value that owns memory (a load profile) belongs to the scenario: a run's
	 * shallow copy of the parameters cannot replace it. */
	if ((d->kind == PARAM_ENUM && (strcmp(d->key, "kind") == 0 || strcmp(d->key, "preset") == 0)) ||
	    d->kind == PARAM_OBJECT || d->release)
		return scenario_error(err, "%s: found \"%s\", a parameter that cannot change during a run, expected one such as device.load.current",
			    where, path);
	e->desc = d;
	e->base_off = off;
	return true;
}

/* A `set` value is checked now, against a scratch copy of its object: the object's
 * own checks, then those of every object that reads it. */
static bool validate_set_value(struct scenario *sc, struct scenario_event *e, const char *path,
			       GError **err)
{
	const struct model_desc *d;
	g_autofree char *scratch = NULL;

	if (e->obj == SCN_OBJ_POLICY)
		return true;
	d = scenario_object(e->obj);
	scratch = g_memdup2(sc->params[e->obj], d->params_size);
	if (!param_load_value(e->desc, e->value, scratch + e->base_off, path, err))
		return false;
	if (e->desc->kind == PARAM_STR)
		g_free(*PARAM_FIELD(scratch + e->base_off, e->desc, char *));
	for (int i = 0; i < scenario_n_objects(); i++) {
		const char *const *needs = scenario_object(i)->needs;
		g_autoptr(GError) check = NULL;

		if (i != e->obj && !(needs && g_strv_contains(needs, d->key)))
			continue;
		if (validate_object(sc, i, i == e->obj ? scratch : sc->params[i], e->obj, scratch,
				    scenario_object(i)->key, &check))
			continue;
		/* The check names the other value; say which event broke it. */
		g_autofree char *value = param_describe_json(e->value);
		g_autofree char *where = g_strndup(path, strlen(path) - strlen(".value"));

		return scenario_error(err, "%s: found a set of %s to %s that breaks a check: %s",
				      where, e->path, value, check->message);
	}
	return true;
}

/* events[N].at: a time within the run, not before the previous event. */
static bool load_event_time(struct scenario *sc, struct scenario_event *e, const cJSON *at,
			    const char *ep, sim_time_t prev, GError **err)
{
	g_autofree char *ap = g_strdup_printf("%s.at", ep);

	if (!param_json_time(at, &e->at, ap, err))
		return false;
	if (e->at < 0 || e->at > sc->duration)
		return scenario_error(err, "%s: found %g s, expected a time from 0 to the duration (%g s)",
				      ap, sim_time_to_s(e->at), sim_time_to_s(sc->duration));
	if (e->at < prev)
		return scenario_error(err, "%s: found %g s, before the previous event (%g s); expected events in time order",
				      ap, sim_time_to_s(e->at), sim_time_to_s(prev));
	return true;
}

/* events[N].do: one of scenario_event_names, or -1 with the error set. */
static int load_event_kind(const cJSON *what, const char *ep, GError **err)
{
	const char *hint;

	for (int i = 0; scenario_event_names[i]; i++)
		if (strcmp(scenario_event_names[i], what->valuestring) == 0)
			return i;
	hint = cs_did_you_mean(what->valuestring, scenario_event_names, 6);
	scenario_error(err, "%s.do: found \"%s\", expected one of plug, unplug, set, suspend, resume, fault%s%s%s",
		       ep, what->valuestring, hint ? " (did you mean \"" : "", hint ? hint : "",
		       hint ? "\"?)" : "");
	return -1;
}

/* A set: "path" resolved to a parameter that may change, "value" checked against it. */
static bool load_event_set(struct scenario *sc, struct scenario_event *e, const cJSON *it,
			   const char *ep, const char **allowed, GError **err)
{
	const cJSON *path = cJSON_GetObjectItemCaseSensitive(it, "path");
	const cJSON *value = cJSON_GetObjectItemCaseSensitive(it, "value");
	g_autofree char *pp = g_strdup_printf("%s.path", ep), *vp = g_strdup_printf("%s.value", ep);

	allowed[2] = "path";
	allowed[3] = "value";
	if (!cJSON_IsString(path) || !value)
		return scenario_error(err, "%s: found a set without %s, expected \"path\" and \"value\"",
				      ep, !cJSON_IsString(path) ? "a string \"path\"" : "\"value\"");
	e->path = g_strdup(path->valuestring);
	e->value = cJSON_Duplicate(value, true);
	return resolve_set_path(e, e->path, pp, err) && validate_set_value(sc, e, vp, err);
}

/* An adc_stuck fault: the channel (default vbus) and the reading it sticks at. */
static bool load_event_adc_stuck(struct scenario_event *e, const cJSON *it, const char *ep,
				 GError **err)
{
	const cJSON *ch = cJSON_GetObjectItemCaseSensitive(it, "channel");
	const cJSON *val = cJSON_GetObjectItemCaseSensitive(it, "value");
	g_autofree char *vp = g_strdup_printf("%s.value", ep);

	e->kind = SCN_EV_FAULT_ADC_STUCK;
	e->channel = ch ? -1 : PMIC_ADC_VBUS;
	for (int i = 0; cJSON_IsString(ch) && pmic_adc_names[i]; i++)
		if (strcmp(pmic_adc_names[i], ch->valuestring) == 0)
			e->channel = i;
	if (e->channel < 0)
		return fail_found(err, ch, "one of vbus, ibus, vbat, ibat", "%s.channel", ep);
	if (!val)
		return scenario_error(err, "%s: found no \"value\", expected the stuck reading", ep);
	return param_json_number(val, e->channel == PMIC_ADC_VBUS || e->channel == PMIC_ADC_VBAT ?
				 UNIT_VOLT : UNIT_AMP, &e->stuck_value, vp, err);
}

/* A fault: vbus_dropout or adc_stuck, "for" how long. */
static bool load_event_fault(struct scenario_event *e, const cJSON *it, const char *ep,
			     const char **allowed, GError **err)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(it, "fault");
	const cJSON *dur = cJSON_GetObjectItemCaseSensitive(it, "for");
	g_autofree char *fp = g_strdup_printf("%s.for", ep);

	allowed[2] = "fault";
	allowed[3] = "for";
	allowed[4] = "channel";
	allowed[5] = "value";
	if (!cJSON_IsString(f) || (strcmp(f->valuestring, "vbus_dropout") &&
				   strcmp(f->valuestring, "adc_stuck")))
		return fail_found(err, f, "\"vbus_dropout\" or \"adc_stuck\"", "%s.fault", ep);
	if (!dur)
		return scenario_error(err, "%s: found no \"for\", expected how long the fault lasts",
				      ep);
	if (!param_json_time(dur, &e->duration, fp, err))
		return false;
	if (e->duration <= 0)
		return scenario_error(err, "%s: found %g s, expected a duration above 0 s", fp,
				      sim_time_to_s(e->duration));
	return strcmp(f->valuestring, "adc_stuck") != 0 || load_event_adc_stuck(e, it, ep, err);
}

static bool load_event(struct scenario *sc, const cJSON *it, int idx, sim_time_t prev,
		       GError **err)
{
	struct scenario_event *e = &sc->events[idx];
	g_autofree char *ep = g_strdup_printf("events[%d]", idx);
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(it, "at");
	const cJSON *what = cJSON_GetObjectItemCaseSensitive(it, "do");
	const char *allowed[8] = { "at", "do", NULL };

	if (!cJSON_IsObject(it))
		return fail_found(err, it, "an object with \"at\" and \"do\"", "%s", ep);
	if (!at)
		return fail_found(err, NULL, "a time such as \"10 s\"", "%s.at", ep);
	if (!cJSON_IsString(what))
		return fail_found(err, what, "one of plug, unplug, set, suspend, resume, fault",
				  "%s.do", ep);
	if (!load_event_time(sc, e, at, ep, prev, err))
		return false;
	e->kind = load_event_kind(what, ep, err);
	/* "fault" is SCN_EV_FAULT_DROPOUT until its kind is read */
	return e->kind >= 0 &&
	       (e->kind != SCN_EV_SET || load_event_set(sc, e, it, ep, allowed, err)) &&
	       (e->kind != SCN_EV_FAULT_DROPOUT || load_event_fault(e, it, ep, allowed, err)) &&
	       param_load_object(NULL, it, NULL, ep, allowed, err);
}

static bool load_events(struct scenario *sc, const cJSON *v, GError **err)
{
	const cJSON *it;
	sim_time_t prev = 0;
	int i = 0, n;

	sc->attach_at_start = true;
	if (!v)
		return true;
	if (!cJSON_IsArray(v))
		return fail_found(err, v, "a list of {\"at\", \"do\", ...}", "events");
	n = cJSON_GetArraySize(v);
	if (n > SCENARIO_MAX_EVENTS)
		return scenario_error(err, "events: found %d events, expected at most %d", n, SCENARIO_MAX_EVENTS);
	sc->events = g_new0(struct scenario_event, (gsize)n + 1);
	cJSON_ArrayForEach(it, v) {
		sc->n_events = i + 1;
		if (!load_event(sc, it, i, prev, err))
			return false;
		prev = sc->events[i++].at;
	}
	sc->attach_at_start = n == 0 || sc->events[0].kind != SCN_EV_PLUG;
	return true;
}

static bool load_expect(struct scenario *sc, const cJSON *v, GError **err)
{
	const cJSON *it;
	int i = 0;

	if (!v)
		return true;
	if (!cJSON_IsArray(v))
		return fail_found(err, v, "a list of expectations", "expect");
	cJSON_ArrayForEach(it, v) {
		static const char *const kind_keys[] = { "metric", "signal", "golden", "fingerprint" };
		int kinds = 0;

		for (int k = 0; k < 4; k++)
			kinds += cJSON_GetObjectItemCaseSensitive(it, kind_keys[k]) != NULL;
		if (!cJSON_IsObject(it) || kinds != 1)
			return scenario_error(err, "expect[%d]: found %s, expected an object with exactly one of metric, signal, golden, fingerprint",
				    i, !cJSON_IsObject(it) ? "something else" :
				    kinds ? "several kinds" : "none of them");
		i++;
	}
	sc->expect = cJSON_Duplicate(v, true);
	return true;
}

/* A rejected name as a message shows it: bytes that are not UTF-8 as U+FFFD, control
 * characters as \uXXXX (as JSON writes them), at most 40 characters. */
static char *shown_name(const char *name)
{
	g_autofree char *valid = g_utf8_make_valid(name, -1);
	GString *s = g_string_new(NULL);
	int n = 0;

	for (const char *c = valid; *c && n < 40; c = g_utf8_next_char(c), n++) {
		gunichar u = g_utf8_get_char(c);

		if (u < 0x20 || (u >= 0x7f && u < 0xa0))
			g_string_append_printf(s, "\\u%04x", u);
		else
			g_string_append_unichar(s, u);
	}
	if (*g_utf8_offset_to_pointer(valid, MIN(n, (int)g_utf8_strlen(valid, -1))))
		g_string_append(s, "...");
	return g_string_free(s, FALSE);
}

/*
 * The scenario's name: its "name", else its file name without ".json". Either way it
 * becomes the default output directory (out/NAME), a JUnit name and plot titles, so
 * both pass the one rule for names (cs_name_check).
 */
static bool scenario_name(struct scenario *sc, const cJSON *v, GError **err)
{
	g_autofree char *name = v ? g_strdup(v->valuestring) : g_path_get_basename(sc->file);
	g_autofree char *shown = NULL;
	const char *why;

	if (!v && g_str_has_suffix(name, ".json"))
		name[strlen(name) - 5] = '\0';
	if (cs_name_check(name, &why)) {
		sc->name = g_steal_pointer(&name);
		return true;
	}
	shown = shown_name(name);
	if (v)
		return scenario_error(err, "name: found \"%s\", expected a name usable as a directory (" CS_NAME_RULE "): it %s",
				      shown, why);
	return scenario_error(err, "the scenario has no \"name\", and its file name \"%s\" %s, so it cannot name the outputs (" CS_NAME_RULE "); add a \"name\" to the scenario or rename the file",
			      shown, why);
}

/* scenario_top_keys(), built once (the registry is constant) and kept for the process:
 * every scenario loaded, each variant of a sweep among them, checks its keys. */
static const char *const *top_keys(void)
{
	static gsize once;
	static GPtrArray *keys;

	if (g_once_init_enter(&once)) {
		keys = scenario_top_keys();
		g_once_init_leave(&once, 1);
	}
	return (const char *const *)keys->pdata;
}

static bool scenario_build(struct scenario *sc, cJSON *doc, GError **err)
{
	const cJSON *v;

	if (!cJSON_IsObject(doc)) {
		g_autofree char *found = param_describe_json(doc);

		return scenario_error(err, "found %s at the top, expected a JSON object", found);
	}
	if (!param_load_object(NULL, doc, NULL, "", top_keys(), err))
		return false;
	v = cJSON_GetObjectItemCaseSensitive(doc, "name");
	if (v && !cJSON_IsString(v))
		return scenario_error(err, "name: found a non-string, expected a string");
	if (!scenario_name(sc, v, err))
		return false;
	v = cJSON_GetObjectItemCaseSensitive(doc, "description");
	if (v && (!cJSON_IsString(v) || !g_utf8_validate(v->valuestring, -1, NULL)))
		return scenario_error(err, "description: found %s, expected UTF-8 text",
				      cJSON_IsString(v) ? "bytes that are not UTF-8" :
				      "a value that is not a string");
	sc->description = g_strdup(cJSON_IsString(v) ? v->valuestring : "");
	sc->seed = 1;
	if (!scenario_json_seed(cJSON_GetObjectItemCaseSensitive(doc, "seed"), "seed", &sc->seed, err))
		return false;
	v = cJSON_GetObjectItemCaseSensitive(doc, "duration");
	sc->duration = SIM_HOUR;
	if (v) {
		if (!param_json_time(v, &sc->duration, "duration", err))
			return false;
		if (sc->duration <= 0 || sc->duration > 366 * 24 * SIM_HOUR)
			return scenario_error(err, "duration: found %g s, expected a time above 0 and at most 366 days",
					      sim_time_to_s(sc->duration));
	}
	return load_objects(sc, doc, err) && scenario_load_profile_csv(sc, err) &&
	       load_policy(sc, cJSON_GetObjectItemCaseSensitive(doc, "policy"), err) &&
	       load_events(sc, cJSON_GetObjectItemCaseSensitive(doc, "events"), err) &&
	       load_expect(sc, cJSON_GetObjectItemCaseSensitive(doc, "expect"), err);
}

/*
 * "UTF-16LE", "UTF-32BE", ... when text is in a wide encoding, by its byte order mark
 * or, without one, by where the NUL bytes of ASCII characters fall in the first
 * character (a JSON text starts with ASCII: whitespace or "{"); NULL otherwise.
 */
static const char *wide_encoding(const char *text, size_t len)
{
	const unsigned char *u = (const unsigned char *)text;

	/* with a byte order mark, iconv's names without the order */
	if (len >= 4 && (!memcmp(u, "\xff\xfe\0\0", 4) || !memcmp(u, "\0\0\xfe\xff", 4)))
		return "UTF-32";
	if (len >= 2 && (!memcmp(u, "\xff\xfe", 2) || !memcmp(u, "\xfe\xff", 2)))
		return "UTF-16";
	if (len >= 4 && u[0] && !u[1] && !u[2] && !u[3])
		return "UTF-32LE";
	if (len >= 4 && !u[0] && !u[1] && !u[2] && u[3])
		return "UTF-32BE";
	if (len >= 2 && u[0] && !u[1])
		return "UTF-16LE";
	if (len >= 2 && !u[0] && u[1])
		return "UTF-16BE";
	return NULL;
}

struct scenario *scenario_load_text(const char *file, const char *text, size_t len,
				    const char *const *sets, GError **err)
{
	const char *end = NULL, *p;
	struct scenario *sc;
	GError *inner = NULL;
	cJSON *doc;
	int line, col;

	if (wide_encoding(text, len))
		return scenario_fail(err, CS_SCENARIO_ERROR_SYNTAX,
				  "%s: found %s text, expected UTF-8 JSON (convert it, e.g. iconv -f %s -t UTF-8)",
				  file, wide_encoding(text, len), wide_encoding(text, len));
	if (memchr(text, '\0', len))
		return scenario_fail(err, CS_SCENARIO_ERROR_SYNTAX,
				  "%s: found a NUL byte, expected a JSON text", file);
	if (memmem(text, len, "\\u0000", 6))	/* cJSON would cut the string there */
		return scenario_fail(err, CS_SCENARIO_ERROR_SYNTAX,
				  "%s: found \\u0000 in a string, expected text without NUL characters",
				  file);
	for (p = text; p < text + len && g_ascii_isspace(*p); p++)
		;
	if (p == text + len)
		return scenario_fail(err, CS_SCENARIO_ERROR_SYNTAX,
				  "%s: found an empty file, expected a JSON scenario such as scenarios/demo.json",
				  file);
	scenario_json_begin();
	doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!doc) {
		scenario_json_error(err, file, text, len, end ? end : text);
		return NULL;
	}
	for (p = end; p && p < text + len; p++)
		if (!g_ascii_isspace(*p)) {
			position_of(text, p, &line, &col);
			cJSON_Delete(doc);
			return scenario_fail(err, CS_SCENARIO_ERROR_SYNTAX,
					  "%s:%d:%d: found text after the JSON document, expected the end of the file",
					  file, line, col);
		}
	sc = g_new0(struct scenario, 1);
	sc->file = g_strdup(file);
	sc->dir = g_path_get_dirname(file);
	sc->doc = doc;
	/* the messages of the document's contents start with the file; those of --set
	 * with "--set" */
	if (!check_duplicates(doc, NULL, &inner))
		goto in_file;
	for (; sets && *sets; sets++)
		if (!scenario_apply_set(doc, *sets, err))
			goto fail;
	if (scenario_build(sc, doc, &inner))
		return sc;
in_file:
	scenario_error_in_file(err, file, inner);
fail:
	scenario_free(sc);
	return NULL;
}

/* Read a regular file (traces/infile.h), at most SCENARIO_MAX_BYTES bytes of it: the
 * cap is enforced while reading too, as a file may grow after stat(). */
static char *read_bounded(const char *file, gsize *len, GError **err)
{
	char *text;
	const char *found;
	int fd = cs_open_regular(file, &found), e = errno;

	if (fd < 0 && found)   /* a FIFO would block, a device never end */
		return scenario_fail(err, CS_SCENARIO_ERROR_IO,
				     "%s: found %s, expected a scenario file (a regular file, .json)",
				     file, found);
	if (fd < 0)
		return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the scenario: %s", file,
				  g_strerror(e));
	text = cs_read_capped(fd, SCENARIO_MAX_BYTES, len, &e);
	if (text)
		return text;
	if (e)
		return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the scenario: %s", file,
				  g_strerror(e));
	return scenario_fail(err, CS_SCENARIO_ERROR_IO,
			  "%s: found more than %u MiB, expected a scenario of at most %u MiB",
			  file, SCENARIO_MAX_BYTES >> 20, SCENARIO_MAX_BYTES >> 20);
}

struct scenario *scenario_load(const char *file, const char *const *sets, GError **err)
{
	g_autofree char *text = NULL;
	struct stat st;
	gsize len = 0;

	if (stat(file, &st) != 0)
		return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the scenario: %s", file,
				  g_strerror(errno));
	if (S_ISDIR(st.st_mode))
		return scenario_fail(err, CS_SCENARIO_ERROR_IO,
				  "%s: found a directory, expected a scenario file (.json)", file);
	if (st.st_size > SCENARIO_MAX_BYTES)
		return scenario_fail(err, CS_SCENARIO_ERROR_IO,
				  "%s: found a file of %lld bytes, expected a scenario of at most %u MiB",
				  file, (long long)st.st_size, SCENARIO_MAX_BYTES >> 20);
	text = read_bounded(file, &len, err);
	return text ? scenario_load_text(file, text, len, sets, err) : NULL;
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
	for (int i = 0; sc->params && i < scenario_n_objects(); i++) {
		param_free_strings(scenario_object(i)->params, sc->params[i]);
		g_free(sc->params[i]);
	}
	g_free(sc->params);
	g_free(sc->file);
	g_free(sc->dir);
	g_free(sc->name);
	g_free(sc->description);
	g_free(sc);
}
