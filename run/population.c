// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/population.c - population files: loading and checking them, and drawing a setup
 * (run/population.h). The file format is docs/score.md's "Populations".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cJSON.h>
#include "run/population.h"
#include "run/scenario.h"
#include "sim/param.h"
#include "traces/infile.h"
#include "sim/units.h"

/* the files of populations/ compiled in (the Makefile, scripts/json2c.sh) */
extern const char *const pop_builtin_texts[];

/* How a draw makes its value. */
enum pop_form { POP_FIXED, POP_UNIFORM, POP_CHOICE, POP_ONE_OF, POP_TIMES };

struct pop_draw {
	char *path;            /* the scenario path */
	char *where;           /* its JSON path in the population file */
	int form;
	double share;          /* drawn for this share of the setups (1: all) */
	double lo, hi;         /* uniform, times: in the base unit of dim */
	int dim;               /* enum unit_dim; UNIT_NONE: a bare number */
	int n;                 /* choice, one_of: the values (JSON texts); fixed: 1 */
	char **values;
	double *weights;       /* choice */
	char *times;           /* times: the path whose drawn value it multiplies */
	double min, max;       /* times: the bounds of the product (base unit of mdim) */
	int mdim;
};

/* ---- drawing ---- */

static int pick(GRand *r, const double *w, int n)
{
	double sum = 0, x;

	for (int i = 0; i < n; i++)
		sum += w[i];
	x = g_rand_double(r) * sum;
	for (int i = 0; i < n; i++) {
		if (x < w[i])
			return i;
		x -= w[i];
	}
	return n - 1;
}

/* A quantity in the base unit of dim as scenario text ("5.095 V", "22.3 %", or a bare
 * number), to 4 significant digits. */
static char *quantity(double v, int dim)
{
	if (dim == UNIT_NONE)
		return g_strdup_printf("%.4g", v);
	if (dim == UNIT_FRACTION)
		return g_strdup_printf("\"%.4g %%\"", v * 100);
	return g_strdup_printf("\"%.4g %s\"", v, units_dim_symbol(dim));
}

/* The number a drawn value stands for, in its base unit (NAN when it is none). */
static double value_number(const char *json)
{
	g_autoptr(GError) err = NULL;
	cJSON *v = cJSON_Parse(json);
	double x = NAN;

	if (cJSON_IsNumber(v)) {
		x = v->valuedouble;
	} else if (cJSON_IsString(v)) {
		for (int d = 0; d < UNIT_DIM_COUNT && !isfinite(x); d++)
			if (d != UNIT_NONE && !units_parse(v->valuestring, d, &x, NULL))
				x = NAN;
	}
	cJSON_Delete(v);
	return x;
}

/* The value of draw d (JSON text), given the values drawn before it (by column). */
static char *draw_value(const struct population *pop, const struct pop_draw *d, GRand *r,
			char **drawn)
{
	double base;

	switch (d->form) {
	case POP_UNIFORM:
		return quantity(d->lo + (d->hi - d->lo) * g_rand_double(r), d->dim);
	case POP_CHOICE:
		return g_strdup(d->values[pick(r, d->weights, d->n)]);
	case POP_ONE_OF:
		return g_strdup(d->values[g_rand_int_range(r, 0, d->n)]);
	case POP_TIMES:
		base = NAN;
		for (int c = 0; c < pop->n_column; c++)
			if (strcmp(pop->column[c], d->times) == 0 && drawn[c])
				base = value_number(drawn[c]);
		base *= d->lo + (d->hi - d->lo) * g_rand_double(r);
		return quantity(fmin(fmax(isfinite(base) ? base : d->min, d->min), d->max), d->mdim);
	default:
		return g_strdup(d->values[0]);
	}
}

static int column_of(const struct population *pop, const char *path)
{
	for (int c = 0; c < pop->n_column; c++)
		if (strcmp(pop->column[c], path) == 0)
			return c;
	return -1;
}

/* A 32-bit key of the population, so that another file draws other setups. */
static guint32 pop_key(const struct population *pop)
{
	return (guint32)g_ascii_strtoull(pop->sha256 + 56, NULL, 16);
}

/* The scenario document of class k drawn with r (values by column into drawn). */
static cJSON *class_doc(const struct population *pop, int k, GRand *r, char **drawn,
			const char *name)
{
	const struct pop_class *cl = &pop->cls[k];
	cJSON *doc = cJSON_CreateObject();

	cJSON_AddStringToObject(doc, "name", name);
	cJSON_AddNumberToObject(doc, "seed", 1);
	cJSON_AddStringToObject(doc, "duration", POP_HORIZON);
	for (int j = 0; j < cl->n_draw; j++) {
		const struct pop_draw *d = &cl->draw[j];
		int c = column_of(pop, d->path);
		g_autofree char *set = NULL, *val = NULL;

		if (d->share < 1 && g_rand_double(r) >= d->share)
			continue;
		val = draw_value(pop, d, r, drawn);
		set = g_strdup_printf("%s=%s", d->path, val);
		/* The paths were checked when the file was loaded; a draw into a list this
		 * setup does not have (a profile drawn for a share of them) is left out. */
		if (scenario_apply_set(doc, set, NULL)) {
			g_free(drawn[c]);
			drawn[c] = g_steal_pointer(&val);
		}
	}
	return doc;
}

void population_setup(const struct population *pop, guint32 seed, int i, struct pop_setup *s)
{
	guint32 seeds[3] = { seed, (guint32)i, pop_key(pop) };
	g_autoptr(GRand) r = g_rand_new_with_seed_array(seeds, 3);
	double w[POP_MAX_CLASSES];
	cJSON *doc;
	char *text;

	memset(s, 0, sizeof(*s));
	for (int k = 0; k < pop->n_class; k++)
		w[k] = pop->cls[k].weight;
	s->index = i;
	s->cls = pick(r, w, pop->n_class);
	s->name = g_strdup_printf("regret-%u-%03d-%s", seed, i, pop->cls[s->cls].name);
	s->values = g_new0(char *, pop->n_column + 1);
	s->n_values = pop->n_column;
	doc = class_doc(pop, s->cls, r, s->values, s->name);
	{
		g_autofree char *desc = g_strdup_printf("chargesim score: population %s, seed %u, setup %d "
							"(class %s)", pop->name, seed, i,
							pop->cls[s->cls].name);

		cJSON_AddStringToObject(doc, "description", desc);
	}
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	s->text = g_strndup(text, strlen(text) - 1);
	free(text);
}

void pop_setup_clear(struct pop_setup *s)
{
	g_clear_pointer(&s->name, g_free);
	g_clear_pointer(&s->text, g_free);
	for (int c = 0; c < s->n_values; c++)
		g_free(s->values[c]);
	g_clear_pointer(&s->values, g_free);
}

char *pop_setup_scenario(const struct pop_setup *s, const char *policy_json)
{
	return g_strdup_printf("%s,\"policy\":%s}", s->text, policy_json);
}

int population_class(const struct population *pop, const char *name)
{
	for (int k = 0; k < pop->n_class; k++)
		if (strcmp(pop->cls[k].name, name) == 0)
			return k;
	return -1;
}

/* ---- loading ---- */

static bool key_in(const char *key, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

static bool pop_error(GError **err, const char *file, const char *where, const cJSON *found,
		      const char *expected)
{
	g_autofree char *f = found ? cJSON_PrintUnformatted(found) : g_strdup("nothing");

	if (f && strlen(f) > 60)
		strcpy(f + 56, "...");
	g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID, "%s: %s: found %s, expected %s",
		    file, where, f, expected);
	return false;
}

/* A range end: a number, or a quantity with a unit ("4.95 V"); *dim its dimension. */
static bool range_end(const cJSON *v, double *out, int *dim)
{
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		*dim = UNIT_NONE;
		return true;
	}
	if (!cJSON_IsString(v))
		return false;
	for (int d = 0; d < UNIT_DIM_COUNT; d++)
		if (d != UNIT_NONE && units_parse(v->valuestring, d, out, NULL)) {
			*dim = d;
			return true;
		}
	return false;
}

static bool parse_range(const cJSON *v, struct pop_draw *d, const char *file, const char *where,
			GError **err)
{
	int d0 = -1, d1 = -1;

	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2 ||
	    !range_end(cJSON_GetArrayItem(v, 0), &d->lo, &d0) ||
	    !range_end(cJSON_GetArrayItem(v, 1), &d->hi, &d1) || d0 != d1 || !(d->lo <= d->hi))
		return pop_error(err, file, where, v, "[LOW, HIGH]: two numbers or two values of one "
				 "unit such as [\"4.75 V\", \"5.25 V\"], LOW at most HIGH");
	d->dim = d0;
	return true;
}

/* {"choice": {VALUE: WEIGHT, ...}} */
static bool parse_choice(const cJSON *v, struct pop_draw *d, const char *file, const char *where,
			 GError **err)
{
	const cJSON *e;
	double sum = 0;
	int i = 0;

	d->n = cJSON_GetArraySize(v);
	if (!cJSON_IsObject(v) || d->n < 1)
		return pop_error(err, file, where, v, "an object {VALUE: WEIGHT, ...} such as "
				 "{\"cc\": 40, \"hiccup\": 60}");
	d->values = g_new0(char *, d->n + 1);
	d->weights = g_new0(double, d->n);
	cJSON_ArrayForEach(e, v) {
		g_autofree char *w = g_strdup_printf("%s.%s", where, e->string);
		cJSON *s = cJSON_CreateString(e->string);

		if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0) || !isfinite(e->valuedouble)) {
			cJSON_Delete(s);
			return pop_error(err, file, w, e, "a weight, a number of 0 or more");
		}
		d->values[i] = cJSON_PrintUnformatted(s);
		d->weights[i++] = e->valuedouble;
		sum += e->valuedouble;
		cJSON_Delete(s);
	}
	return sum > 0 || pop_error(err, file, where, v, "at least one weight above 0");
}

static bool parse_one_of(const cJSON *v, struct pop_draw *d, const char *file, const char *where,
			 GError **err)
{
	const cJSON *e;
	int i = 0;

	d->n = cJSON_GetArraySize(v);
	if (!cJSON_IsArray(v) || d->n < 1)
		return pop_error(err, file, where, v, "a list of values to pick from, each as likely");
	d->values = g_new0(char *, d->n + 1);
	cJSON_ArrayForEach(e, v)
		d->values[i++] = cJSON_PrintUnformatted(e);
	return true;
}

/* {"times": PATH, "uniform": [LO, HI], "min": Q, "max": Q} */
static bool parse_times(const cJSON *v, struct pop_draw *d, const char *file, const char *where,
			GError **err)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "times");
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(v, "uniform");
	const cJSON *mn = cJSON_GetObjectItemCaseSensitive(v, "min");
	const cJSON *mx = cJSON_GetObjectItemCaseSensitive(v, "max");
	g_autofree char *wu = g_strdup_printf("%s.uniform", where);
	int d1 = -1;

	if (!cJSON_IsString(t) || !u || !range_end(mn, &d->min, &d->mdim) ||
	    !range_end(mx, &d->max, &d1) || d1 != d->mdim || !(d->min <= d->max))
		return pop_error(err, file, where, v, "{\"times\": PATH, \"uniform\": [LOW, HIGH], "
				 "\"min\": VALUE, \"max\": VALUE} (a multiple of a value drawn "
				 "before, kept between min and max of one unit)");
	d->times = g_strdup(t->valuestring);
	return parse_range(u, d, file, wu, err) &&
	       (d->dim == UNIT_NONE || pop_error(err, file, wu, u, "two plain numbers (factors)"));
}

static const char *const draw_keys[] = { "uniform", "choice", "one_of", "times", "share", "min",
					 "max" };

/* One draw: a fixed value, or an object {"uniform"|"choice"|"one_of"|"times": ...}
 * with "share" beside it. */
static bool parse_draw(const cJSON *v, struct pop_draw *d, const char *file, GError **err)
{
	const cJSON *share = cJSON_GetObjectItemCaseSensitive(v, "share");
	const cJSON *e;

	d->share = 1;
	if (!cJSON_IsObject(v)) {
		d->form = POP_FIXED;
		d->n = 1;
		d->values = g_new0(char *, 2);
		d->values[0] = cJSON_PrintUnformatted(v);
		return true;
	}
	cJSON_ArrayForEach(e, v) {
		bool known = false;

		for (size_t k = 0; k < G_N_ELEMENTS(draw_keys); k++)
			known |= strcmp(e->string, draw_keys[k]) == 0;
		if (!known) {
			g_autofree char *w = g_strdup_printf("%s.%s", d->where, e->string);

			return pop_error(err, file, w, e, "no such key: a draw is a value, or an "
					 "object with \"uniform\", \"choice\", \"one_of\" or \"times\", "
					 "and \"share\"");
		}
	}
	if (share && (!cJSON_IsNumber(share) || !(share->valuedouble >= 0 && share->valuedouble <= 1)))
		return pop_error(err, file, d->where, share, "\"share\": a fraction from 0 to 1");
	if (share)
		d->share = share->valuedouble;
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "times"))) {
		d->form = POP_TIMES;
		return parse_times(v, d, file, d->where, err);
	}
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "uniform"))) {
		g_autofree char *w = g_strdup_printf("%s.uniform", d->where);

		d->form = POP_UNIFORM;
		return parse_range(e, d, file, w, err);
	}
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "choice"))) {
		g_autofree char *w = g_strdup_printf("%s.choice", d->where);

		d->form = POP_CHOICE;
		return parse_choice(e, d, file, w, err);
	}
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "one_of"))) {
		g_autofree char *w = g_strdup_printf("%s.one_of", d->where);

		d->form = POP_ONE_OF;
		return parse_one_of(e, d, file, w, err);
	}
	return pop_error(err, file, d->where, v, "\"uniform\", \"choice\", \"one_of\" or \"times\"");
}

static void draw_clear(struct pop_draw *d)
{
	g_free(d->path);
	g_free(d->where);
	if (d->values)
		for (int i = 0; i < d->n; i++)
			free(d->values[i]);
	g_free(d->values);
	g_free(d->weights);
	g_free(d->times);
}

/* Value v of draw d as a check tries it: the ends of a range, each choice. */
static char *check_value(const struct pop_draw *d, int v)
{
	if (d->form == POP_UNIFORM)
		return quantity(v ? d->hi : d->lo, d->dim);
	if (d->form == POP_TIMES)
		return quantity(v ? d->max : d->min, d->mdim);
	return g_strdup(d->values[v]);
}

/* The class's scenario with each draw at its first value but draw j at value v. */
static char *check_text(const struct pop_class *cl, int j, int v, GError **err)
{
	cJSON *doc = cJSON_CreateObject();
	bool ok = true;
	char *text;

	cJSON_AddStringToObject(doc, "name", "population-check");
	cJSON_AddStringToObject(doc, "duration", POP_HORIZON);
	for (int f = 0; f < cl->n_draw && ok; f++) {
		g_autofree char *val = check_value(&cl->draw[f], f == j ? v : 0);
		g_autofree char *set = g_strdup_printf("%s=%s", cl->draw[f].path, val);

		ok = scenario_apply_set(doc, set, f == j ? err : NULL) || f != j;
	}
	text = ok ? cJSON_PrintUnformatted(doc) : NULL;
	cJSON_Delete(doc);
	return text;
}

/* Every value draw j of a class can take, tried on the class's scenario (the others at
 * their first values): the error names the draw in the file and quotes the scenario's. */
static bool try_draw(const struct population *pop, const struct pop_class *cl, int j,
		     GError **err)
{
	const struct pop_draw *d = &cl->draw[j];
	int n = d->form == POP_CHOICE || d->form == POP_ONE_OF ? d->n : d->form == POP_FIXED ? 1 : 2;

	for (int v = 0; v < n; v++) {
		g_autoptr(GError) inner = NULL;
		g_autoptr(scenario) sc = NULL;
		g_autofree char *text = check_text(cl, j, v, &inner);
		g_autofree char *val = NULL;

		if (text)
			sc = scenario_load_text(pop->file, text, strlen(text), NULL, &inner);
		if (!inner)
			continue;
		val = check_value(d, v);
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "%s: %s: found %s, which a scenario refuses (%s), expected a value "
			    "of the scenario path \"%s\"", pop->file, d->where, val, inner->message,
			    d->path);
		return false;
	}
	return true;
}

static bool add_column(struct population *pop, const char *path)
{
	if (column_of(pop, path) >= 0)
		return true;
	pop->column[pop->n_column++] = g_strdup(path);
	return true;
}

static bool drawn_before(const struct pop_class *cl, int j, const char *path)
{
	for (int f = 0; f < j; f++)
		if (strcmp(cl->draw[f].path, path) == 0)
			return true;
	return false;
}

static const char *const class_keys[] = { "weight", "description", "draw" };

static bool parse_class(struct population *pop, const cJSON *v, struct pop_class *cl, GError **err)
{
	g_autofree char *where = g_strdup_printf("classes.%s", v->string);
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(v, "weight");
	const cJSON *draws = cJSON_GetObjectItemCaseSensitive(v, "draw");
	g_autofree char *ww = g_strdup_printf("%s.weight", where);
	g_autofree char *wd = g_strdup_printf("%s.draw", where);
	const cJSON *e;

	cl->name = g_strdup(v->string);
	if (!cJSON_IsObject(v) || !*v->string || strspn(v->string, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
	    strlen(v->string))
		return pop_error(err, pop->file, where, v, "a class: a name of lower-case letters, "
				 "digits and '-', and an object {\"weight\", \"draw\"}");
	cJSON_ArrayForEach(e, v)
		if (!key_in(e->string, class_keys, G_N_ELEMENTS(class_keys))) {
			g_autofree char *we = g_strdup_printf("%s.%s", where, e->string);

			return pop_error(err, pop->file, we, e, "\"weight\", \"description\" or \"draw\"");
		}
	if (!cJSON_IsNumber(w) || !(w->valuedouble >= 0) || !isfinite(w->valuedouble))
		return pop_error(err, pop->file, ww, w,
				 "a weight, a number of 0 or more");
	cl->weight = w->valuedouble;
	if (!cJSON_IsObject(draws) || cJSON_GetArraySize(draws) > POP_MAX_DRAWS)
		return pop_error(err, pop->file, wd, draws,
				 "an object {SCENARIO-PATH: DRAW, ...} of at most 64 draws");
	cl->draw = g_new0(struct pop_draw, cJSON_GetArraySize(draws));
	cJSON_ArrayForEach(e, draws) {
		struct pop_draw *d = &cl->draw[cl->n_draw++];

		d->path = g_strdup(e->string);
		d->where = g_strdup_printf("%s.draw.%s", where, e->string);
		if (!parse_draw(e, d, pop->file, err) || !add_column(pop, d->path))
			return false;
		if (d->form == POP_TIMES && !drawn_before(cl, cl->n_draw - 1, d->times)) {
			g_autofree char *wt = g_strdup_printf("%s.times", d->where);

			return pop_error(err, pop->file, wt, cJSON_GetObjectItemCaseSensitive(e, "times"),
					 "a scenario path this class draws before this one");
		}
	}
	for (int j = 0; j < cl->n_draw; j++)
		if (!try_draw(pop, cl, j, err))
			return false;
	return true;
}

static const char *const top_keys[] = { "name", "description", "classes" };

static bool parse_population(struct population *pop, const cJSON *doc, GError **err)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "name");
	const cJSON *classes = cJSON_GetObjectItemCaseSensitive(doc, "classes");
	double sum = 0;
	const cJSON *e;

	if (!cJSON_IsObject(doc))
		return pop_error(err, pop->file, "(top)", doc, "a population: an object {\"name\", \"classes\"}");
	cJSON_ArrayForEach(e, doc)
		if (!key_in(e->string, top_keys, G_N_ELEMENTS(top_keys)))
			return pop_error(err, pop->file, e->string, e, "\"name\", \"description\" or \"classes\"");
	if (!cJSON_IsString(name) || !*name->valuestring)
		return pop_error(err, pop->file, "name", name, "the population's name, a string");
	pop->name = g_strdup(name->valuestring);
	if (!cJSON_IsObject(classes) || cJSON_GetArraySize(classes) < 1 ||
	    cJSON_GetArraySize(classes) > POP_MAX_CLASSES)
		return pop_error(err, pop->file, "classes", classes, "an object of 1 to 32 classes "
				 "{NAME: {\"weight\", \"draw\"}}");
	cJSON_ArrayForEach(e, classes) {
		if (!parse_class(pop, e, &pop->cls[pop->n_class++], err))
			return false;
		sum += pop->cls[pop->n_class - 1].weight;
	}
	return sum > 0 || pop_error(err, pop->file, "classes", classes, "a class with a weight above 0");
}

bool population_load_text(const char *file, const char *text, gsize len, struct population *pop,
			  GError **err)
{
	const char *end = NULL;
	cJSON *doc;
	bool ok;

	memset(pop, 0, sizeof(*pop));
	pop->file = g_strdup(file);
	pop->text = g_strndup(text, len);
	pop->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!doc) {
		int line = 1, col = 1;

		for (const char *p = text; end && p < end && p < text + len; p++, col++)
			if (*p == '\n')
				line++, col = 0;
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_SYNTAX,
			    "%s:%d:%d: found text that is not JSON, expected valid JSON (a population "
			    "file, docs/score.md)", file, line, col);
		population_clear(pop);
		return false;
	}
	ok = parse_population(pop, doc, err);
	cJSON_Delete(doc);
	if (!ok)
		population_clear(pop);
	return ok;
}

/* A population file: a regular file of at most 1 MiB. */
static char *read_file(const char *file, gsize *len, GError **err)
{
	const char *found = NULL;
	int fd = cs_open_regular(file, &found);
	char *text;
	int e = 0;

	if (fd < 0) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO,
			    "%s: %s%s, expected a population file", file, found ? "found " : "",
			    found ? found : g_strerror(errno));
		return NULL;
	}
	text = cs_read_capped(fd, 1024 * 1024, len, &e);
	close(fd);
	if (!text)
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_IO, "%s: %s", file,
			    e ? g_strerror(e) : "found more than 1 MiB, expected a population file");
	return text;
}

bool population_load(const char *name_or_file, struct population *pop, GError **err)
{
	g_autofree char *text = NULL;
	gsize len;

	for (int i = 0; pop_builtin_names[i]; i++)
		if (strcmp(name_or_file, pop_builtin_names[i]) == 0)
			return population_load_text(name_or_file, pop_builtin_texts[i],
						    strlen(pop_builtin_texts[i]), pop, err);
	text = read_file(name_or_file, &len, err);
	return text && population_load_text(name_or_file, text, len, pop, err);
}

void population_clear(struct population *pop)
{
	for (int k = 0; k < pop->n_class; k++) {
		for (int j = 0; j < pop->cls[k].n_draw; j++)
			draw_clear(&pop->cls[k].draw[j]);
		g_free(pop->cls[k].draw);
		g_free(pop->cls[k].name);
	}
	for (int c = 0; c < pop->n_column; c++)
		g_free(pop->column[c]);
	g_free(pop->name);
	g_free(pop->file);
	g_free(pop->sha256);
	g_free(pop->text);
	memset(pop, 0, sizeof(*pop));
}
