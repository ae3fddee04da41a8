// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/sweep.c - sweep files, variants, results.csv rows and shard manifests (see
 * sweep.h); the merge of shards is sweep_merge.c's, the running sweep_runner.c's.
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run/sweep.h"
#include "output/outfile.h"
#include "sim/param.h"
#include "run/scenario.h"
#include "sim/units.h"
#include "run/run.h"
#include "run/world.h"
#include "stack/policies/loader.h"
#include "traces/infile.h"

#define SWEEP_MAX_BYTES (16u << 20)

static const char *const sweep_keys[] = { "base", "vary", "seed", "random", "description", NULL };
static const char *const random_keys[] = { "n", "seed", "ranges", NULL };

/* ---- hashing ---- */

uint64_t sweep_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

guint32 sweep_variant_seed(guint32 sweep_seed, guint64 index)
{
	return (guint32)(sweep_mix64(((uint64_t)sweep_seed << 32) + index) >> 32);
}

/* ---- reading ---- */

/* The file read through a descriptor of a regular file (traces/infile.h: a FIFO is
 * refused before it could block), at most SWEEP_MAX_BYTES of it. */
char *sweep_read_file(const char *file, const char *what, gsize *len, GError **err)
{
	const char *found;
	int fd = cs_open_regular(file, &found), e = errno;
	struct stat st;
	char *text;

	if (fd < 0 && !found)
		return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the %s: %s", file, what,
				     g_strerror(e));
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size <= SWEEP_MAX_BYTES) {
		text = cs_read_capped(fd, SWEEP_MAX_BYTES, len, &e);
		if (text)
			return text;
		if (e)
			return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: cannot read the %s: %s", file,
					     what, g_strerror(e));
		found = "a larger file";   /* it grew */
	} else if (fd >= 0) {
		close(fd);
		found = "a larger file";
	}
	return scenario_fail(err, CS_SCENARIO_ERROR_IO, "%s: found %s, expected a %s file of at most %u MiB",
			     file, found, what, SWEEP_MAX_BYTES >> 20);
}

/* Each key of obj once, and (keys not NULL) one of keys (NULL-terminated); path names obj
 * in messages, "" the top. */
static bool check_keys(const cJSON *obj, const char *const *keys, const char *path, GError **err)
{
	const cJSON *a;
	int dup = scenario_first_duplicate(obj), i = 0;

	cJSON_ArrayForEach(a, obj)
		if (i++ == dup)
			return scenario_error(err, "%s: found the key \"%s\" twice, expected each key once",
					      *path ? path : "(top)", a->string);
	cJSON_ArrayForEach(a, obj)
		if (keys && !g_strv_contains(keys, a->string)) {
			param_error_unknown_key(NULL, keys, a->string, path, err);
			return false;
		}
	return true;
}

/* The dimension a string value carries: -1 none (a plain word or number). */
static int value_dim(const char *text)
{
	double v;

	if (units_parse(text, UNIT_NONE, &v, NULL))
		return -1;
	for (int d = UNIT_NONE + 1; d < UNIT_DIM_COUNT; d++)
		if (units_parse(text, (enum unit_dim)d, &v, NULL))
			return d;
	return -1;
}

/* The run built to validate a scenario of the sweep. A plugin is code, and loading the
 * sweep (`sweep --show` too) runs none: the plugin is only checked against the trust
 * boundary (stack/policies/loader.h), and the built-in "none" holds its place. */
static struct world *build_world(const struct scenario *sc, GError **err)
{
	struct world_options wo = { 0 };
	g_autofree char *real = NULL;

	if (sc->policy.plugin) {
		GError *inner = NULL;

		real = cs_plugin_check(sc->policy.plugin, false, &inner);
		if (!real) {
			scenario_error_in_file(err, sc->file, inner);
			return NULL;
		}
		wo.policy = "none";
	}
	return world_new(sc, &wo, err);
}

/* Each policy a validation run built is one the sweep's variants run (a variant's
 * policy comes from the base or from one varied value, and each is built alone). */
static void note_driver(const struct sweep *sw, const char *policy)
{
	if (!policy || !g_str_has_prefix(policy, "linux/"))
		return;
	for (guint i = 0; i < sw->drivers->len; i++)
		if (strcmp(g_ptr_array_index(sw->drivers, i), policy) == 0)
			return;
	g_ptr_array_add(sw->drivers, g_strdup(policy));
}

cJSON *sweep_kernel_files_json(const struct sweep *sw)
{
	cJSON *kf = NULL;

	for (guint i = 0; i < sw->drivers->len; i++) {
		const char *name = g_ptr_array_index(sw->drivers, i);
		cJSON *f = world_kernel_files_json(name);

		if (!f)
			continue;
		if (!kf)
			kf = cJSON_CreateObject();
		cJSON_AddItemToObject(kf, name, f);
	}
	return kf;
}

/* The base scenario with `set` (NULL: none) loaded and built into a run, not run; its
 * metrics.json keys into names when asked. Errors are "SWEEP: WHAT: MESSAGE". */
static bool build_base(const struct sweep *sw, const char *set, const char *what, char ***names,
		       GError **err)
{
	const char *sets[] = { set, NULL };
	g_autoptr(GError) inner = NULL;
	struct scenario *sc = scenario_load_text(sw->base_file, sw->base_text, sw->base_len, sets,
						 &inner);
	struct world *w = sc ? build_world(sc, &inner) : NULL;

	if (w)
		note_driver(sw, world_policy_name(w));
	if (w && names) {
		cJSON *m = world_metrics_json(w), *k;
		int i = 0;

		*names = g_new0(char *, (gsize)cJSON_GetArraySize(m) + 1);
		cJSON_ArrayForEach(k, m)
			(*names)[i++] = g_strdup(k->string);
		cJSON_Delete(m);
	}
	world_free(w);
	scenario_free(sc);
	return w || scenario_error(err, "%s: %s", what, inner->message);
}

/* Try PATH=VALUE alone on the base scenario. */
static bool try_value(const struct sweep *sw, const char *path, const char *value,
		      const char *where, GError **err)
{
	g_autofree char *set = g_strdup_printf("%s=%s", path, value);
	g_autofree char *what = g_strdup_printf("%s: the base scenario rejects %s", where, set);

	return build_base(sw, set, what, NULL, err);
}

static bool check_path(const char *key, const char *where, GError **err)
{
	return (*key && key[0] != '.' && !g_str_has_suffix(key, ".") && !strstr(key, "..") &&
		!strchr(key, '=')) ||
	       scenario_error(err, "%s: found the path \"%s\", expected a dotted scenario path such as \"source.ilim\"",
			      where, key);
}

static bool path_in(const struct sweep_dim *dims, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (strcmp(dims[i].path, path) == 0)
			return true;
	return false;
}

static bool mul_total(guint64 *total, guint64 n)
{
	if (n && *total > SWEEP_MAX_VARIANTS / n)
		return false;
	*total *= n;
	return *total <= SWEEP_MAX_VARIANTS;
}

static bool load_vary(struct sweep *sw, const cJSON *vary, GError **err)
{
	const cJSON *k;
	int i = 0;

	if (!cJSON_IsObject(vary))
		return param_error_found(err, "vary", vary,
					 "an object of scenario path -> list of values");
	if (!check_keys(vary, NULL, "vary", err))
		return false;
	sw->n_grid = cJSON_GetArraySize(vary);
	sw->grid = g_new0(struct sweep_dim, (gsize)sw->n_grid + 1);
	cJSON_ArrayForEach(k, vary) {
		struct sweep_dim *d = &sw->grid[i++];
		g_autofree char *where = g_strdup_printf("vary[\"%s\"]", k->string);
		const cJSON *v, *first_unit = NULL;
		int j = 0, dim0 = -1;

		d->path = g_strdup(k->string);
		if (!check_path(k->string, where, err))
			return false;
		if (!cJSON_IsArray(k))
			return param_error_found(err, where, k,
						 "a list of values such as [\"0.5 A\", \"1 A\"]");
		d->n = cJSON_GetArraySize(k);
		if (d->n == 0)
			return scenario_error(err, "%s: found an empty list, expected at least one value", where);
		if (!mul_total(&sw->total, (guint64)d->n))
			return scenario_error(err, "%s: found a grid of more than %llu variants, expected at most that many",
					      where, (unsigned long long)SWEEP_MAX_VARIANTS);
		d->values = g_new0(cJSON *, (gsize)d->n);
		cJSON_ArrayForEach(v, k) {
			int dim = cJSON_IsString(v) ? value_dim(v->valuestring) : -1;

			if (dim >= 0 && dim0 >= 0 && dim != dim0)
				return scenario_error(err, "%s[%d]: found \"%s\" (%s) in a list that starts with \"%s\" (%s), expected values of one dimension",
						      where, j, v->valuestring, units_dim_name((enum unit_dim)dim),
						      first_unit->valuestring, units_dim_name((enum unit_dim)dim0));
			if (dim >= 0 && dim0 < 0) {
				dim0 = dim;
				first_unit = v;
			}
			d->values[j++] = (cJSON *)v;
		}
		for (j = 0; j < d->n; j++) {
			g_autofree char *val = cJSON_PrintUnformatted(d->values[j]);
			g_autofree char *w = g_strdup_printf("%s[%d]", where, j);

			if (!try_value(sw, d->path, val, w, err))
				return false;
		}
	}
	return true;
}

/* A range end: a bare number (base unit) or a string with a unit. */
static bool range_end(const cJSON *v, const char *where, double *out, int *dim, GError **err)
{
	*dim = -1;
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return true;
	}
	if (cJSON_IsString(v)) {
		*dim = value_dim(v->valuestring);
		if (units_parse(v->valuestring, *dim < 0 ? UNIT_NONE : (enum unit_dim)*dim, out, NULL))
			return true;
	}
	return param_error_found(err, where, v, "a number or a value with a unit such as \"0.5 m\"");
}

static char *random_text(const struct sweep *sw, guint64 r, int j)
{
	const struct sweep_dim *d = &sw->random[j];
	uint64_t h = sweep_mix64(sweep_mix64(((uint64_t)sw->random_seed << 32) + r) + (uint64_t)j);
	double u = (double)(h >> 11) * 0x1.0p-53;

	if (d->integer) {
		double span = d->hi - d->lo + 1;
		double k = floor(u * span);

		if (k > span - 1)
			k = span - 1;
		return g_strdup_printf("%.0f", d->lo + k);
	}
	return g_strdup_printf("%.6g", d->lo + u * (d->hi - d->lo) + 0.0);
}

/* random.ranges[PATH]: [low, high] of one dimension, low <= high, both ends accepted
 * by the base scenario. d is sw->random[i]. */
static bool load_range(struct sweep *sw, const cJSON *k, int i, GError **err)
{
	struct sweep_dim *d = &sw->random[i];
	g_autofree char *where = g_strdup_printf("random.ranges[\"%s\"]", k->string);
	g_autofree char *w0 = g_strdup_printf("%s[0]", where);
	g_autofree char *w1 = g_strdup_printf("%s[1]", where);
	g_autofree char *lo = NULL, *hi = NULL;
	int dim_lo, dim_hi;

	d->path = g_strdup(k->string);
	if (!check_path(k->string, where, err))
		return false;
	if (path_in(sw->grid, sw->n_grid, k->string) || path_in(sw->random, i, k->string))
		return scenario_error(err, "%s: found a path that is already varied, expected each path once", where);
	if (!cJSON_IsArray(k) || cJSON_GetArraySize(k) != 2) {
		g_autofree char *found = param_describe_json(k);

		return scenario_error(err, "%s: found %s%s, expected [low, high] such as [\"0.5 m\", \"2 m\"]",
				      where, found, cJSON_IsArray(k) ? " without exactly two values" : "");
	}
	if (!range_end(cJSON_GetArrayItem(k, 0), w0, &d->lo, &dim_lo, err) ||
	    !range_end(cJSON_GetArrayItem(k, 1), w1, &d->hi, &dim_hi, err))
		return false;
	if (dim_lo >= 0 && dim_hi >= 0 && dim_lo != dim_hi)
		return scenario_error(err, "%s: found a low end in %s and a high end in %s, expected values of one dimension",
				      where, units_dim_name((enum unit_dim)dim_lo), units_dim_name((enum unit_dim)dim_hi));
	if (!(d->lo <= d->hi))
		return scenario_error(err, "%s: found low %g above high %g, expected low <= high", where, d->lo, d->hi);
	d->integer = cJSON_IsNumber(cJSON_GetArrayItem(k, 0)) &&
		     cJSON_IsNumber(cJSON_GetArrayItem(k, 1)) &&
		     d->lo == floor(d->lo) && d->hi == floor(d->hi) && fabs(d->lo) < 1e15 &&
		     fabs(d->hi) < 1e15;
	lo = d->integer ? g_strdup_printf("%.0f", d->lo) : g_strdup_printf("%.17g", d->lo);
	hi = d->integer ? g_strdup_printf("%.0f", d->hi) : g_strdup_printf("%.17g", d->hi);
	return try_value(sw, d->path, lo, w0, err) && try_value(sw, d->path, hi, w1, err);
}

static bool load_random(struct sweep *sw, const cJSON *rnd, GError **err)
{
	const cJSON *n, *ranges, *k;
	g_autofree char *found = NULL;
	int i = 0;

	if (!cJSON_IsObject(rnd))
		return param_error_found(err, "random", rnd, "an object {\"n\", \"seed\", \"ranges\"}");
	if (!check_keys(rnd, random_keys, "random", err))
		return false;
	n = cJSON_GetObjectItemCaseSensitive(rnd, "n");
	if (!cJSON_IsNumber(n) || n->valuedouble < 1 || n->valuedouble > (double)SWEEP_MAX_VARIANTS ||
	    n->valuedouble != floor(n->valuedouble)) {
		found = param_describe_json(n);
		return scenario_error(err, "random.n: found %s, expected a whole number of samples from 1 to %llu",
				      found, (unsigned long long)SWEEP_MAX_VARIANTS);
	}
	sw->random_n = (guint64)n->valuedouble;
	if (!mul_total(&sw->total, sw->random_n))
		return scenario_error(err, "random.n: found a sweep of more than %llu variants, expected at most that many",
				      (unsigned long long)SWEEP_MAX_VARIANTS);
	sw->random_seed = sw->seed;
	if (!scenario_json_seed(cJSON_GetObjectItemCaseSensitive(rnd, "seed"), "random.seed",
				&sw->random_seed, err))
		return false;
	ranges = cJSON_GetObjectItemCaseSensitive(rnd, "ranges");
	if (!cJSON_IsObject(ranges) || cJSON_GetArraySize(ranges) == 0) {
		found = param_describe_json(ranges);
		return scenario_error(err, "random.ranges: found %s, expected an object of scenario path -> [low, high]",
				      cJSON_IsObject(ranges) ? "an empty object" : found);
	}
	if (!check_keys(ranges, NULL, "random.ranges", err))
		return false;
	sw->n_random = cJSON_GetArraySize(ranges);
	sw->random = g_new0(struct sweep_dim, (gsize)sw->n_random + 1);
	cJSON_ArrayForEach(k, ranges)
		if (!load_range(sw, k, i++, err))
			return false;
	return true;
}

/* A metric named like a varied path ("policy": the policy the run used, and the
 * varied policy) would be a second column of the same name in results.csv, and a
 * reader keyed by name (csv.DictReader, plot --heatmap --by policy) sees only one of
 * them. The varied value identifies the variant, so the metric column is left out. */
static void drop_varied_metrics(struct sweep *sw)
{
	int k = 0;

	for (int i = 0; i < sw->n_metrics; i++) {
		if (path_in(sw->grid, sw->n_grid, sw->metric_names[i]) ||
		    path_in(sw->random, sw->n_random, sw->metric_names[i]))
			g_free(sw->metric_names[i]);
		else
			sw->metric_names[k++] = sw->metric_names[i];
	}
	sw->metric_names[k] = NULL;
	sw->n_metrics = k;
}

/* Whether a JSON string in text holds the escape \u0000: cJSON would cut the string
 * there, and a varied value would silently lose its tail. A backslash before it that
 * is itself escaped ("\\u0000", text) does not count. */
static bool has_nul_escape(const char *text, gsize len)
{
	for (const char *p = text; (p = memmem(p, len - (gsize)(p - text), "\\u0000", 6)); p++) {
		gsize n = 1;

		while ((gsize)(p - text) >= n && p[-(gssize)n] == '\\')
			n++;
		if (n % 2)
			return true;
	}
	return false;
}

/* The sweep file's JSON text (its SHA-256 kept for the manifests). */
static bool parse_doc(struct sweep *sw, const char *text, gsize len, GError **err)
{
	const char *end = NULL;

	if (memchr(text, '\0', len))
		return scenario_fail(err, CS_SCENARIO_ERROR_SYNTAX,
				     "%s: found a NUL byte, expected a JSON text", sw->file) != NULL;
	if (has_nul_escape(text, len))
		return scenario_fail(err, CS_SCENARIO_ERROR_SYNTAX,
				     "%s: found \\u0000 in a string, expected text without NUL characters",
				     sw->file) != NULL;
	sw->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	scenario_json_begin();
	sw->doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (sw->doc)
		for (const char *p = end; p && p < text + len; p++)
			if (!g_ascii_isspace(*p)) {
				cJSON_Delete(sw->doc);
				sw->doc = NULL;
				end = p;
				break;
			}
	if (!sw->doc)
		scenario_json_error(err, sw->file, text, len, end ? end : text);
	return sw->doc != NULL;
}

#define SWEEP_BASE_TREES 4
static char *base_trees[SWEEP_BASE_TREES];   /* sweep_allow_base_tree() */

void sweep_allow_base_tree(const char *dir)
{
	g_autofree char *real = dir ? realpath(dir, NULL) : NULL;

	for (int i = 0; real && i < SWEEP_BASE_TREES; i++) {
		g_autofree char *had = base_trees[i] ? realpath(base_trees[i], NULL) : NULL;

		if (had && strcmp(had, real) == 0)
			return;   /* one library found twice: named once */
		if (!base_trees[i]) {
			base_trees[i] = g_strdup(dir);
			return;
		}
	}
}

/*
 * The base is read on the sweep file's behalf, so it must lie in the sweep file's
 * directory tree or in the scenario library (the library's sweeps share
 * scenarios/bugzoo/ through ".."; a sweep of one's own names a library scenario by its
 * path), after symbolic links. Anything else (/etc/passwd, ../.env) is refused before
 * it is read: a syntax error would show its text.
 */
static bool base_confined(const char *file, const char *given, const char *dir, GError **err)
{
	const char *roots[SWEEP_BASE_TREES + 1] = { dir };
	g_autoptr(GString) libs = g_string_new(NULL);
	g_autofree char *real = NULL;

	for (int i = 0; i < SWEEP_BASE_TREES && base_trees[i]; i++) {
		roots[i + 1] = base_trees[i];
		g_string_append_printf(libs, "%s%s", i ? ", " : " or the scenario library ",
				       base_trees[i]);
	}
	if (cs_path_inside_any(file, roots, SWEEP_BASE_TREES + 1, &real))
		return true;
	return scenario_error(err, "base: found \"%s\", expected a scenario inside %s (the sweep file's directory)%s: it leads to %s",
			      given, dir, libs->str, real);
}

/* "base": the scenario file, relative to the sweep file, read once. */
static bool load_base(struct sweep *sw, GError **err)
{
	const cJSON *base = cJSON_GetObjectItemCaseSensitive(sw->doc, "base");
	g_autofree char *dir = g_path_get_dirname(sw->file);
	GError *inner = NULL;

	if (!cJSON_IsString(base) || !*base->valuestring)
		return param_error_found(err, "base", base,
					 "the path of a scenario file (relative to the sweep file)");
	sw->base_file = g_path_is_absolute(base->valuestring) || strcmp(dir, ".") == 0 ?
				g_strdup(base->valuestring) :
				g_build_filename(dir, base->valuestring, NULL);
	if (!base_confined(sw->base_file, base->valuestring, dir, err))
		return false;
	sw->base_text = sweep_read_file(sw->base_file, "base scenario", &sw->base_len, &inner);
	if (!sw->base_text)
		return scenario_error_in_file(err, "base", inner);
	sw->base_sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)sw->base_text,
						      sw->base_len);
	return true;
}

/* The parsed sweep file: one object, each key once, only known keys; the base; the
 * seed; what varies. Messages without the file name. */
static bool load_doc(struct sweep *sw, GError **err)
{
	const cJSON *vary, *rnd;

	if (!cJSON_IsObject(sw->doc))
		return scenario_error(err, "found %s at the top, expected a JSON object with \"base\" and \"vary\"",
				      cJSON_IsArray(sw->doc) ? "an array" : "a single value");
	/* The base must load on its own before its variants are tried; metrics.json's
	 * keys are the metric columns. */
	if (!check_keys(sw->doc, sweep_keys, "", err) || !load_base(sw, err) ||
	    !scenario_json_seed(cJSON_GetObjectItemCaseSensitive(sw->doc, "seed"), "seed", &sw->seed,
				err) ||
	    !build_base(sw, NULL, "base", &sw->metric_names, err))
		return false;
	sw->n_metrics = (int)g_strv_length(sw->metric_names);
	vary = cJSON_GetObjectItemCaseSensitive(sw->doc, "vary");
	rnd = cJSON_GetObjectItemCaseSensitive(sw->doc, "random");
	if (!vary && !rnd)
		return scenario_error(err, "vary: found nothing, expected an object of scenario path -> list of values (or \"random\")");
	if (vary && !load_vary(sw, vary, err))
		return false;
	if (vary && sw->n_grid == 0 && !rnd)
		return scenario_error(err, "vary: found an empty object, expected at least one scenario path -> list of values");
	if (rnd && !load_random(sw, rnd, err))
		return false;
	drop_varied_metrics(sw);
	return true;
}

struct sweep *sweep_load(const char *file, GError **err)
{
	g_autoptr(sweep) sw = g_new0(struct sweep, 1);
	g_autofree char *text = NULL;
	GError *inner = NULL;
	gsize len = 0;

	sw->file = g_strdup(file);
	sw->random_n = 1;
	sw->total = 1;
	sw->seed = 1;
	sw->drivers = g_ptr_array_new_with_free_func(g_free);
	text = sweep_read_file(file, "sweep", &len, err);
	if (!text || !parse_doc(sw, text, len, err))
		return NULL;
	if (load_doc(sw, &inner))
		return g_steal_pointer(&sw);
	scenario_error_in_file(err, file, inner);
	return NULL;
}

void sweep_free(struct sweep *sw)
{
	if (!sw)
		return;
	for (int i = 0; sw->grid && i < sw->n_grid; i++) {
		g_free(sw->grid[i].path);
		g_free(sw->grid[i].values);
	}
	for (int i = 0; sw->random && i < sw->n_random; i++)
		g_free(sw->random[i].path);
	g_free(sw->grid);
	g_free(sw->random);
	g_strfreev(sw->metric_names);
	cJSON_Delete(sw->doc);
	g_free(sw->file);
	g_free(sw->base_file);
	g_free(sw->base_text);
	g_free(sw->sha256);
	g_free(sw->base_sha256);
	if (sw->drivers)
		g_ptr_array_unref(sw->drivers);
	g_free(sw);
}

/* ---- variants ---- */

/* The grid value numbers of variant index (out[n_grid]) and its random sample. */
static guint64 decode(const struct sweep *sw, guint64 index, int *out)
{
	guint64 g = index / sw->random_n;

	for (int d = sw->n_grid - 1; d >= 0; d--) {
		out[d] = (int)(g % (guint64)sw->grid[d].n);
		g /= (guint64)sw->grid[d].n;
	}
	return index % sw->random_n;
}

char **sweep_variant_sets(const struct sweep *sw, guint64 index)
{
	GPtrArray *a = g_ptr_array_new();
	g_autofree int *v = g_new0(int, (gsize)sw->n_grid + 1);
	guint64 r = decode(sw, index, v);

	g_ptr_array_add(a, g_strdup_printf("seed=%u", sweep_variant_seed(sw->seed, index)));
	for (int d = 0; d < sw->n_grid; d++) {
		g_autofree char *val = cJSON_PrintUnformatted(sw->grid[d].values[v[d]]);

		g_ptr_array_add(a, g_strdup_printf("%s=%s", sw->grid[d].path, val));
	}
	for (int j = 0; j < sw->n_random; j++) {
		g_autofree char *val = random_text(sw, r, j);

		g_ptr_array_add(a, g_strdup_printf("%s=%s", sw->random[j].path, val));
	}
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

void sweep_csv_cell(GString *out, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		g_string_append(out, text);
		return;
	}
	g_string_append_c(out, '"');
	for (const char *c = text; *c; c++) {
		if (*c == '"')
			g_string_append_c(out, '"');
		g_string_append_c(out, *c);
	}
	g_string_append_c(out, '"');
}

/* A value of the sweep file as a cell: strings bare, null empty, the rest as compact
 * JSON. */
static void json_cell(GString *out, const cJSON *v)
{
	char *t;

	if (!v || cJSON_IsNull(v))
		return;
	if (cJSON_IsString(v)) {
		sweep_csv_cell(out, v->valuestring);
		return;
	}
	t = cJSON_PrintUnformatted(v);
	sweep_csv_cell(out, t);
	cJSON_free(t);
}

char *sweep_csv_header(const struct sweep *sw)
{
	GString *s = g_string_new("index");

	for (int d = 0; d < sw->n_grid; d++) {
		g_string_append_c(s, ',');
		sweep_csv_cell(s, sw->grid[d].path);
	}
	for (int j = 0; j < sw->n_random; j++) {
		g_string_append_c(s, ',');
		sweep_csv_cell(s, sw->random[j].path);
	}
	for (int i = 0; i < sw->n_metrics; i++) {
		g_string_append_c(s, ',');
		sweep_csv_cell(s, sw->metric_names[i]);
	}
	g_string_append(s, ",warnings,error\n");
	return g_string_free(s, FALSE);
}

/*
 * The metric cells of a row, written as world_metrics_emit() gives the metrics: the
 * columns are metrics.json's keys in that order (build_base), less the varied
 * ones (drop_varied_metrics), so a metric either fills the next column or has none.
 * A cell holds the metric's metrics.json text (a string bare, null empty), without a
 * JSON tree.
 */
struct row_cells {
	GString *row;
	const struct sweep *sw;
	int next;
};

static bool row_column(struct row_cells *c, const char *key)
{
	if (c->next >= c->sw->n_metrics || strcmp(c->sw->metric_names[c->next], key) != 0)
		return false;
	g_string_append_c(c->row, ',');
	c->next++;
	return true;
}

static void row_raw(void *ctx, const char *key, const char *text)
{
	if (row_column(ctx, key))
		sweep_csv_cell(((struct row_cells *)ctx)->row, text);
}

static void row_string(void *ctx, const char *key, const char *text)
{
	if (row_column(ctx, key) && text)
		sweep_csv_cell(((struct row_cells *)ctx)->row, text);
}

/* The index and varied cells of variant index's row (no comma after them). */
static void row_start(const struct sweep *sw, guint64 index, const char *const *sets, GString *row)
{
	g_autofree int *v = g_new0(int, (gsize)sw->n_grid + 1);

	g_string_append_printf(row, "%" G_GUINT64_FORMAT, index);
	decode(sw, index, v);
	for (int d = 0; d < sw->n_grid; d++) {
		g_string_append_c(row, ',');
		json_cell(row, sw->grid[d].values[v[d]]);
	}
	/* a random value as its set prints it: "PATH=VALUE" (no path holds a '=') */
	for (int j = 0; j < sw->n_random; j++) {
		g_string_append_c(row, ',');
		sweep_csv_cell(row, sets[1 + sw->n_grid + j] + strlen(sw->random[j].path) + 1);
	}
}

char *sweep_row_start(const struct sweep *sw, guint64 index)
{
	g_auto(GStrv) sets = sweep_variant_sets(sw, index);
	GString *row = g_string_new(NULL);

	row_start(sw, index, (const char *const *)sets, row);
	return g_string_free(row, FALSE);
}

/* The run's warnings ("SRC: MESSAGE", as `run` shows them), one cell, joined by " | "
 * on one line: a variant whose result may not mean what it seems (a charge past 100 %
 * SOC) says so in its row; empty when there were none. Line breaks in a message
 * become blanks (a row is one line for every reader of results.csv). */
static void warnings_cell(GString *row, const GPtrArray *warnings)
{
	g_autoptr(GString) text = g_string_new(NULL);

	for (guint i = 0; warnings && i < warnings->len; i++)
		g_string_append_printf(text, "%s%s", i ? " | " : "",
				       (const char *)warnings->pdata[i]);
	for (char *c = text->str; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	if (text->len)
		sweep_csv_cell(row, text->str);
}

char *sweep_run_variant(const struct sweep *sw, guint64 index, const char *outdir, int *failed)
{
	g_auto(GStrv) sets = sweep_variant_sets(sw, index);
	struct run_options ro = { .world.outdir = outdir, .sets = (const char *const *)sets };
	struct run_result res;
	GString *row = g_string_new(NULL);
	struct row_cells cells = { row, sw, 0 };
	const struct world_metrics_sink sink = { row_raw, row_string, &cells };

	row_start(sw, index, (const char *const *)sets, row);
	*failed = run_text(sw->base_file, sw->base_text, sw->base_len, &ro, &res);
	if (!*failed)
		world_metrics_emit(&res.metrics, &sink);
	/* the cells left empty: every metric cell of a failed variant (none of one that
	 * ran, whose metrics filled each column in turn) */
	for (; cells.next < sw->n_metrics; cells.next++)
		g_string_append_c(row, ',');
	g_string_append_c(row, ',');
	warnings_cell(row, res.warnings);
	g_string_append_c(row, ',');
	if (*failed) {
		const char *msg = res.error->message;

		/* the cell names the kind (no "internal error: internal error: ..."), on one line
		 * without commas or quotes, so a row's last field is the text after its last comma */
		if (g_str_has_prefix(msg, "internal error: "))
			msg += strlen("internal error: ");
		g_string_append(row, *failed == 3 ? "internal error: " : "input error: ");
		for (const char *c = msg; *c; c++)
			g_string_append_c(row, *c == ',' ? ';' : *c == '"' ? '\'' :
					       (*c == '\n' || *c == '\r') ? ' ' : *c);
	}
	g_string_append_c(row, '\n');
	run_result_clear(&res);
	return g_string_free(row, FALSE);
}

/* ---- shards ---- */

static bool parse_u64(const char *s, const char *end, guint64 *out)
{
	guint64 v = 0;

	if (s == end)
		return false;
	for (; s < end; s++) {
		if (!g_ascii_isdigit(*s) || v > (G_MAXUINT64 - 9) / 10)
			return false;
		v = v * 10 + (guint64)(*s - '0');
	}
	*out = v;
	return true;
}

bool sweep_row_index(const char *row, const char *end, guint64 *idx)
{
	const char *comma = memchr(row, ',', (size_t)(end - row));

	return comma && parse_u64(row, comma, idx);
}

const char *sweep_csv_record_end(const char *p, const char *end)
{
	bool quoted = false;

	for (; p < end && (quoted || *p != '\n'); p++)
		if (*p == '"')
			quoted = !quoted;
	return p;
}

bool sweep_parse_shard(const char *text, struct sweep_shard *out, GError **err)
{
	const char *slash = strchr(text, '/');

	if (!slash || !parse_u64(text, slash, &out->index) ||
	    !parse_u64(slash + 1, slash + strlen(slash), &out->count) || out->count == 0 ||
	    out->index >= out->count)
		return scenario_error(err, "--shard: found \"%s\", expected I/N with 0 <= I < N, such as 0/4 (shards are numbered from 0)",
			    text);
	return true;
}

bool sweep_shard_from_env(struct sweep_shard *out, GError **err)
{
	const char *id = g_getenv("SLURM_ARRAY_TASK_ID");
	const char *count = g_getenv("SLURM_ARRAY_TASK_COUNT");
	const char *min = g_getenv("SLURM_ARRAY_TASK_MIN");
	const char *step = g_getenv("SLURM_ARRAY_TASK_STEP");
	guint64 i, n, lo = 0;

	if (!id && !count)
		return false;
	if (step && strcmp(step, "1") != 0)
		return scenario_error(err, "SLURM_ARRAY_TASK_STEP=%s: found an array with a step, expected consecutive task numbers (submit with --array=0-N-1, or pass --shard I/N)",
			    step);
	if (!id || !count || !parse_u64(id, id + strlen(id), &i) ||
	    !parse_u64(count, count + strlen(count), &n) ||
	    (min && !parse_u64(min, min + strlen(min), &lo)) || i < lo || n == 0 || i - lo >= n)
		return scenario_error(err, "SLURM_ARRAY_TASK_ID=%s, SLURM_ARRAY_TASK_COUNT=%s, SLURM_ARRAY_TASK_MIN=%s: expected a task number from MIN to MIN+COUNT-1 (submit with --array=0-N-1, or pass --shard I/N)",
			    id ? id : "(unset)", count ? count : "(unset)", min ? min : "(unset)");
	out->index = i - lo;
	out->count = n;
	return true;
}

guint64 sweep_shard_size(guint64 total, const struct sweep_shard *sh)
{
	if (sh->index >= total)
		return 0;
	return (total - sh->index + sh->count - 1) / sh->count;
}

cJSON *sweep_manifest(const struct sweep *sw, const struct sweep_shard *sh, bool complete)
{
	cJSON *o = cJSON_CreateObject(), *s, *kf;
	guint64 m = sweep_shard_size(sw->total, sh);

	cJSON_AddStringToObject(o, "chargesim_version", CHARGESIM_VERSION);
	cJSON_AddStringToObject(o, "sweep_file", sw->file);
	cJSON_AddStringToObject(o, "sweep_sha256", sw->sha256);
	cJSON_AddStringToObject(o, "base_file", sw->base_file);
	cJSON_AddStringToObject(o, "base_sha256", sw->base_sha256);
	/* which driver bytes made the rows: shards of other bytes are not one sweep */
	kf = sweep_kernel_files_json(sw);
	if (kf)
		cJSON_AddItemToObject(o, "kernel_files", kf);
	s = cJSON_AddObjectToObject(o, "shard");
	cJSON_AddNumberToObject(s, "index", (double)sh->index);
	cJSON_AddNumberToObject(s, "count", (double)sh->count);
	cJSON_AddNumberToObject(o, "variants_total", (double)sw->total);
	cJSON_AddNumberToObject(o, "variants", (double)m);
	cJSON_AddItemToObject(o, "first_index",
			      m ? cJSON_CreateNumber((double)sh->index) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "last_index",
			      m ? cJSON_CreateNumber((double)(sh->index + (m - 1) * sh->count)) :
			      cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "stride", (double)sh->count);
	cJSON_AddBoolToObject(o, "complete", complete);
	return o;
}

bool sweep_manifest_write(const char *dir, cJSON *m, GError **err)
{
	g_autofree char *path = g_build_filename(dir, "manifest.json", NULL);
	char *t = cJSON_Print(m);
	struct cs_outfile *f = cs_outfile_open(path, true, err);
	bool ok = false;

	if (f) {
		fputs(t, f->fp);
		fputc('\n', f->fp);
		ok = cs_outfile_commit(f, err);
	}
	cJSON_free(t);
	cJSON_Delete(m);
	return ok;
}
