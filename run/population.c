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
enum pop_form { POP_FIXED, POP_UNIFORM, POP_CHOICE, POP_ONE_OF, POP_TIMES, POP_COPY };

struct pop_list;

struct pop_draw {
	char *path;            /* the scenario path (a name only, with "set": false) */
	char *where;           /* its JSON path in the population file */
	int form;
	bool has_share;        /* drawn for `share` of the setups: one coin first */
	double share;
	bool set;              /* false: drawn (for the stream, a condition, a copy), not set */
	double lo, hi;         /* uniform, times: in the base unit of dim */
	int dim;               /* enum unit_dim; UNIT_NONE: a bare number */
	char *unit;            /* uniform: the unit the range is written in ("mAh"), or NULL */
	double scale;          /* its size in the base unit's: 1000 for mAh */
	int n;                 /* choice, one_of: the values (JSON texts); fixed: 1 */
	char **values;
	double *weights;       /* choice */
	char *ref;             /* times, copy: the path of an earlier draw */
	double min, max;       /* times: the bounds of the product (base unit of mdim) */
	int mdim;
};

/* An entry of a draw list: a draw, or a group of draws taken for a share of the setups
 * or when an earlier draw has one of some values, with what is taken otherwise. */
struct pop_item {
	bool group;
	struct pop_draw d;
	bool has_share;
	double share;
	char *when;            /* the path the condition reads, or NULL */
	int n_when;            /* the values that meet it; 0: any drawn value */
	char **when_values;
	struct pop_list *then, *otherwise;
};

struct pop_list {
	int n;
	struct pop_item *items;
};

/* A setup being drawn: per population column, the value drawn last. */
struct pop_table {
	char **text;           /* JSON text, NULL: not drawn */
	double *num;           /* its number, exact as drawn (NAN: none) */
	int *copy;             /* >= 0: resolve as this column's final value */
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

/* The number of a text: a quantity, or of several words ("9V 1.67A", a PD offer) the
 * last that is one; NAN when none is. */
static double text_number(const char *t)
{
	g_auto(GStrv) words = g_strsplit(t, " ", -1);
	double x = NAN;

	for (int w = (int)g_strv_length(words) - 1; w >= 0 && !isfinite(x); w--)
		for (int d = 0; d < UNIT_DIM_COUNT && !isfinite(x); d++)
			if (!units_parse(words[w], d, &x, NULL))
				x = NAN;
	if (!isfinite(x))
		for (int d = 0; d < UNIT_DIM_COUNT && !isfinite(x); d++)
			if (!units_parse(t, d, &x, NULL))
				x = NAN;
	return x;
}

/* The number a value stands for, in its base unit: a number, a quantity, of a list its
 * last item (a PD source's highest offer); NAN when it is none. */
static double value_number(const char *json)
{
	cJSON *v = cJSON_Parse(json), *e = v;
	double x = NAN;

	if (cJSON_IsArray(v))
		e = cJSON_GetArrayItem(v, cJSON_GetArraySize(v) - 1);
	if (cJSON_IsNumber(e))
		x = e->valuedouble;
	else if (cJSON_IsString(e))
		x = text_number(e->valuestring);
	cJSON_Delete(v);
	return x;
}

static int column_of(const struct population *pop, const char *path)
{
	for (int c = 0; c < pop->n_column; c++)
		if (strcmp(pop->column[c], path) == 0)
			return c;
	return -1;
}

/* Draw d into the table (its coin first when it has a share). */
static void draw_one(const struct population *pop, const struct pop_draw *d, GRand *r,
		     struct pop_table *t)
{
	int c = column_of(pop, d->path), rc = d->ref ? column_of(pop, d->ref) : -1;
	double x = NAN, base;
	char *text;

	if (d->has_share && !(g_rand_double(r) < d->share))
		return;
	switch (d->form) {
	case POP_UNIFORM:
		x = d->lo + (d->hi - d->lo) * g_rand_double(r);
		text = d->unit ? g_strdup_printf("\"%.4g %s\"", x * d->scale, d->unit) :
				 quantity(x, d->dim);
		break;
	case POP_CHOICE:
		text = g_strdup(d->values[pick(r, d->weights, d->n)]);
		break;
	case POP_ONE_OF:
		text = g_strdup(d->values[g_rand_int_range(r, 0, d->n)]);
		break;
	case POP_TIMES:
		base = rc >= 0 && t->text[rc] ? t->num[rc] : NAN;
		x = base * (d->lo + (d->hi - d->lo) * g_rand_double(r));
		x = fmin(fmax(isfinite(x) ? x : d->min, d->min), d->max);
		text = quantity(x, d->mdim);
		break;
	case POP_COPY:
		if (rc < 0 || !t->text[rc])
			return;
		text = g_strdup(t->text[rc]);
		x = t->num[rc];
		break;
	default:
		text = g_strdup(d->values[0]);
		break;
	}
	g_free(t->text[c]);
	t->text[c] = text;
	t->num[c] = isfinite(x) ? x : value_number(text);
	t->copy[c] = d->form == POP_COPY ? rc : -1;
}

/* Does the table meet item it's condition (a drawn value among its values)? */
static bool when_met(const struct population *pop, const struct pop_item *it,
		     const struct pop_table *t)
{
	int c = column_of(pop, it->when);
	cJSON *v;
	bool met = false;

	if (c < 0 || !t->text[c])
		return false;
	if (it->n_when == 0)
		return true;
	v = cJSON_Parse(t->text[c]);
	for (int i = 0; i < it->n_when && cJSON_IsString(v); i++)
		met |= strcmp(v->valuestring, it->when_values[i]) == 0;
	cJSON_Delete(v);
	return met;
}

static void draw_list(const struct population *pop, const struct pop_list *l, GRand *r,
		      struct pop_table *t)
{
	for (int i = 0; i < l->n; i++) {
		const struct pop_item *it = &l->items[i];
		bool take;

		if (!it->group) {
			draw_one(pop, &it->d, r, t);
			continue;
		}
		take = it->has_share ? g_rand_double(r) < it->share : when_met(pop, it, t);
		if (take || it->otherwise)
			draw_list(pop, take ? it->then : it->otherwise, r, t);
	}
}

/* A 32-bit key of the population, so that another file draws other setups: its
 * "stream", else one from its SHA-256. */
static guint32 pop_key(const struct population *pop)
{
	return pop->has_stream ? pop->stream : (guint32)g_ascii_strtoull(pop->sha256 + 56, NULL, 16);
}

void population_setup(const struct population *pop, guint32 seed, int i, struct pop_setup *s)
{
	guint32 key = pop_key(pop);
	guint32 seeds[3] = { seed, (guint32)i, key };
	g_autoptr(GRand) r = g_rand_new_with_seed_array(seeds, key ? 3 : 2);
	struct pop_table t;
	double w[POP_MAX_CLASSES];
	g_autofree char *desc = NULL;
	cJSON *doc = cJSON_CreateObject();
	char *text;

	memset(s, 0, sizeof(*s));
	for (int k = 0; k < pop->n_class; k++)
		w[k] = pop->cls[k].weight;
	s->index = i;
	s->cls = pick(r, w, pop->n_class);
	s->name = g_strdup_printf("regret-%u-%03d-%s", seed, i, pop->cls[s->cls].name);
	s->n_values = pop->n_column;
	s->values = g_new0(char *, pop->n_column + 1);
	t.text = s->values;
	t.num = s->numbers = g_new0(double, pop->n_column + 1);
	t.copy = g_new(int, pop->n_column + 1);
	for (int c = 0; c <= pop->n_column; c++)
		t.copy[c] = -1;
	draw_list(pop, pop->cls[s->cls].draws, r, &t);
	cJSON_AddStringToObject(doc, "name", s->name);
	cJSON_AddNumberToObject(doc, "seed", 1);
	cJSON_AddStringToObject(doc, "duration", POP_HORIZON);
	/* the values as drawn last, in the order of their paths' first draw (a list before
	 * its items); a copy is of its source's final value */
	for (int c = 0; c < pop->n_column; c++) {
		g_autofree char *set = NULL;

		if (t.copy[c] >= 0 && s->values[t.copy[c]])
			g_free(s->values[c]), s->values[c] = g_strdup(s->values[t.copy[c]]);
		if (!s->values[c] || !pop->column_set[c])
			continue;
		set = g_strdup_printf("%s=%s", pop->column[c], s->values[c]);
		/* checked when the file was loaded; an item of a list this setup lacks is left out */
		if (!scenario_apply_set(doc, set, NULL))
			g_clear_pointer(&s->values[c], g_free);
	}
	for (int c = 0; c < pop->n_column; c++)
		if (!pop->column_set[c])
			g_clear_pointer(&s->values[c], g_free);
	desc = g_strdup_printf("chargesim score: population %s, seed %u, setup %d (class %s)",
			       pop->name, seed, i, pop->cls[s->cls].name);
	cJSON_AddStringToObject(doc, "description", desc);
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	s->text = g_strndup(text, strlen(text) - 1);
	free(text);
	g_free(t.copy);
}

double pop_setup_number(const struct population *pop, const struct pop_setup *s,
			const char *path)
{
	int c = column_of(pop, path);

	return c >= 0 && c < s->n_values && s->values[c] ? s->numbers[c] : NAN;
}

void pop_setup_clear(struct pop_setup *s)
{
	g_clear_pointer(&s->name, g_free);
	g_clear_pointer(&s->text, g_free);
	for (int c = 0; c < s->n_values; c++)
		g_free(s->values[c]);
	g_clear_pointer(&s->values, g_free);
	g_clear_pointer(&s->numbers, g_free);
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

/* The unit a range end is written in ("1500 mAh": "mAh", 1000 of the base unit's), so
 * that its draws are written in it. */
static void unit_of(const cJSON *v, struct pop_draw *d)
{
	const char *t = cJSON_IsString(v) ? v->valuestring : "";
	char *end = NULL;
	double num = g_ascii_strtod(t, &end), scale;

	while (end && *end == ' ')
		end++;
	if (!end || !*end || !(fabs(d->lo) > 0) || !isfinite(num) || d->dim == UNIT_NONE)
		return;
	scale = num / d->lo;
	if (fabs(scale - round(scale)) < 1e-9 * scale)
		scale = round(scale);
	d->unit = g_strdup(end);
	d->scale = scale;
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
	unit_of(cJSON_GetArrayItem(v, 0), d);
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
	d->ref = g_strdup(t->valuestring);
	return parse_range(u, d, file, wu, err) &&
	       (d->dim == UNIT_NONE || pop_error(err, file, wu, u, "two plain numbers (factors)"));
}

static const char *const draw_keys[] = { "uniform", "choice", "one_of", "times", "copy",
					 "share", "set", "min", "max" };

static bool known_keys(const cJSON *v, const char *const *keys, size_t n, const char *file,
		       const char *where, const char *expected, GError **err)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, v)
		if (!key_in(e->string, keys, n)) {
			g_autofree char *w = g_strdup_printf("%s.%s", where, e->string);

			return pop_error(err, file, w, e, expected);
		}
	return true;
}

/* "share": a fraction, one coin per setup. */
static bool parse_share(const cJSON *v, bool *has, double *share, const char *file,
			const char *where, GError **err)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(v, "share");

	*has = s != NULL;
	*share = s ? s->valuedouble : 1;
	return !s || (cJSON_IsNumber(s) && s->valuedouble >= 0 && s->valuedouble <= 1) ||
	       pop_error(err, file, where, s, "\"share\": a fraction from 0 to 1");
}

/* One draw: a fixed value, or an object {"uniform"|"choice"|"one_of"|"times"|"copy": ...}
 * with "share" and "set" beside it. */
static bool parse_draw(const cJSON *v, struct pop_draw *d, const char *file, GError **err)
{
	const cJSON *e, *set = cJSON_GetObjectItemCaseSensitive(v, "set");
	g_autofree char *w = NULL;

	d->set = true;
	if (!cJSON_IsObject(v)) {
		d->form = POP_FIXED;
		d->n = 1;
		d->values = g_new0(char *, 2);
		d->values[0] = cJSON_PrintUnformatted(v);
		return true;
	}
	if (!known_keys(v, draw_keys, G_N_ELEMENTS(draw_keys), file, d->where,
			"no such key: a draw is a value, or an object with \"uniform\", \"choice\", "
			"\"one_of\", \"times\" or \"copy\", and \"share\" and \"set\"", err) ||
	    !parse_share(v, &d->has_share, &d->share, file, d->where, err))
		return false;
	if (set && !cJSON_IsBool(set))
		return pop_error(err, file, d->where, set, "\"set\": true or false");
	d->set = !cJSON_IsFalse(set);
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "times"))) {
		d->form = POP_TIMES;
		return parse_times(v, d, file, d->where, err);
	}
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "copy"))) {
		d->form = POP_COPY;
		d->ref = cJSON_IsString(e) ? g_strdup(e->valuestring) : NULL;
		return d->ref || pop_error(err, file, d->where, e, "\"copy\": the path of an earlier draw");
	}
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "uniform"))) {
		w = g_strdup_printf("%s.uniform", d->where);
		d->form = POP_UNIFORM;
		return parse_range(e, d, file, w, err);
	}
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "choice"))) {
		w = g_strdup_printf("%s.choice", d->where);
		d->form = POP_CHOICE;
		return parse_choice(e, d, file, w, err);
	}
	if ((e = cJSON_GetObjectItemCaseSensitive(v, "one_of"))) {
		w = g_strdup_printf("%s.one_of", d->where);
		d->form = POP_ONE_OF;
		return parse_one_of(e, d, file, w, err);
	}
	return pop_error(err, file, d->where, v, "\"uniform\", \"choice\", \"one_of\", \"times\" or \"copy\"");
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
	g_free(d->ref);
	g_free(d->unit);
}

static void list_free(struct pop_list *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->n; i++) {
		struct pop_item *it = &l->items[i];

		draw_clear(&it->d);
		g_free(it->when);
		g_strfreev(it->when_values);
		list_free(it->then);
		list_free(it->otherwise);
	}
	g_free(l->items);
	g_free(l);
}

static bool add_column(struct population *pop, const char *path, bool set)
{
	int c = column_of(pop, path);

	if (c < 0) {
		if (pop->n_column >= (int)G_N_ELEMENTS(pop->column))
			return false;
		c = pop->n_column++;
		pop->column[c] = g_strdup(path);
		pop->column_set[c] = true;
	}
	pop->column_set[c] &= set;
	return true;
}

static bool parse_list(struct population *pop, const cJSON *v, const char *where,
		       struct pop_list **out, GError **err);

static const char *const group_keys[] = { "share", "when", "draw", "else" };

/* {"share": P | "when": {PATH: [VALUE, ...] | true}, "draw": LIST, "else": LIST} */
static bool parse_group(struct population *pop, const cJSON *v, const char *where,
			struct pop_item *it, GError **err)
{
	const cJSON *when = cJSON_GetObjectItemCaseSensitive(v, "when");
	const cJSON *els = cJSON_GetObjectItemCaseSensitive(v, "else");
	g_autofree char *wd = g_strdup_printf("%s.draw", where);
	g_autofree char *we = g_strdup_printf("%s.else", where);
	g_autofree char *ww = g_strdup_printf("%s.when", where);
	const cJSON *cond = when ? when->child : NULL, *e;
	int i = 0;

	it->group = true;
	if (!known_keys(v, group_keys, G_N_ELEMENTS(group_keys), pop->file, where,
			"a group: \"share\" or \"when\", \"draw\" and \"else\"", err) ||
	    !parse_share(v, &it->has_share, &it->share, pop->file, where, err))
		return false;
	if (it->has_share == (when != NULL) ||
	    (when && (!cJSON_IsObject(when) || cJSON_GetArraySize(when) != 1 ||
		      !(cJSON_IsTrue(cond) || cJSON_IsArray(cond)))))
		return pop_error(err, pop->file, when ? ww : where, when ? when : v,
				 "either \"share\": P or \"when\": {PATH: [VALUE, ...]} (or {PATH: true}: "
				 "drawn at all)");
	if (when) {
		it->when = g_strdup(cond->string);
		it->n_when = cJSON_IsArray(cond) ? cJSON_GetArraySize(cond) : 0;
		it->when_values = g_new0(char *, it->n_when + 1);
		for (e = cJSON_IsArray(cond) ? cond->child : NULL; e; e = e->next) {
			if (!cJSON_IsString(e))
				return pop_error(err, pop->file, ww, e, "a value as text");
			it->when_values[i++] = g_strdup(e->valuestring);
		}
		if (column_of(pop, it->when) < 0)
			return pop_error(err, pop->file, ww, cond, "a path drawn before the group");
	}
	return parse_list(pop, cJSON_GetObjectItemCaseSensitive(v, "draw"), wd, &it->then, err) &&
	       (!els || parse_list(pop, els, we, &it->otherwise, err));
}

/* A draw list: an object {PATH: DRAW, ...}, or a list of such objects and groups (an
 * object with "draw"), taken in order. */
static bool parse_list(struct population *pop, const cJSON *v, const char *where,
		       struct pop_list **out, GError **err)
{
	struct pop_list *l = *out = g_new0(struct pop_list, 1);
	bool list = cJSON_IsArray(v);
	const cJSON *part, *e;
	int k = 0;

	if (!cJSON_IsObject(v) && !list)
		return pop_error(err, pop->file, where, v, "draws: an object {SCENARIO-PATH: DRAW, ...} "
				 "or a list of such objects and groups");
	l->items = g_new0(struct pop_item, list ? cJSON_GetArraySize(v) * POP_MAX_DRAWS :
						   cJSON_GetArraySize(v) + 1);
	for (part = list ? v->child : v; part; part = list ? part->next : NULL, k++) {
		g_autofree char *wp = list ? g_strdup_printf("%s[%d]", where, k) : g_strdup(where);

		if (cJSON_GetObjectItemCaseSensitive(part, "draw")) {
			if (!parse_group(pop, part, wp, &l->items[l->n++], err))
				return false;
			continue;
		}
		if (!cJSON_IsObject(part) || cJSON_GetArraySize(part) > POP_MAX_DRAWS)
			return pop_error(err, pop->file, wp, part, "an object {SCENARIO-PATH: DRAW, ...} "
					 "of at most 64 draws, or a group");
		cJSON_ArrayForEach(e, part) {
			struct pop_draw *d = &l->items[l->n++].d;

			d->path = g_strdup(e->string);
			d->where = g_strdup_printf("%s.%s", wp, e->string);
			if (!parse_draw(e, d, pop->file, err))
				return false;
			if (d->ref && column_of(pop, d->ref) < 0)
				return pop_error(err, pop->file, d->where, e, "a draw of a path drawn before it "
						 "(\"times\" and \"copy\" read an earlier draw)");
			if (!add_column(pop, d->path, d->set))
				return pop_error(err, pop->file, d->where, e, "at most 2048 paths in a population");
		}
	}
	return true;
}

/* Each draw of a list in turn, the groups' branches flattened (a check's scenario). */
static void flatten(const struct pop_list *l, GPtrArray *out)
{
	for (int i = 0; l && i < l->n; i++) {
		if (!l->items[i].group) {
			g_ptr_array_add(out, (gpointer)&l->items[i].d);
			continue;
		}
		flatten(l->items[i].then, out);
		flatten(l->items[i].otherwise, out);
	}
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

static int check_values(const struct pop_draw *d)
{
	return d->form == POP_COPY ? 0 : d->form == POP_CHOICE || d->form == POP_ONE_OF ? d->n :
	       d->form == POP_FIXED ? 1 : 2;
}

/* The class's scenario with its draws up to upto each at its first value but draw j at
 * value v. */
static char *check_text(GPtrArray *all, int upto, int j, int v, GError **err)
{
	cJSON *doc = cJSON_CreateObject();
	bool ok = true;
	char *text;

	cJSON_AddStringToObject(doc, "name", "population-check");
	cJSON_AddStringToObject(doc, "duration", POP_HORIZON);
	for (guint f = 0; f < all->len && (int)f <= upto && ok; f++) {
		const struct pop_draw *d = all->pdata[f];
		g_autofree char *val = NULL, *set = NULL;

		if (!d->set || !check_values(d))
			continue;
		val = check_value(d, (int)f == j ? v : 0);
		set = g_strdup_printf("%s=%s", d->path, val);
		ok = scenario_apply_set(doc, set, (int)f == j ? err : NULL) || (int)f != j;
	}
	text = ok ? cJSON_PrintUnformatted(doc) : NULL;
	cJSON_Delete(doc);
	return text;
}

/* Load the check scenario of draw j at value v (j < 0: every draw at its first value);
 * false with inner set when the scenario refuses it. */
static bool check_one(const struct population *pop, GPtrArray *all, int upto, int j, int v,
		      GError **inner)
{
	g_autofree char *text = check_text(all, upto, j, v, inner);
	g_autoptr(scenario) sc = NULL;

	if (text)
		sc = scenario_load_text(pop->file, text, strlen(text), NULL, inner);
	return sc != NULL;
}

/* Every value a class's draw that is set can take, tried on the class's scenario (the
 * others at their first values): the error names the draw and quotes the scenario's. */
static bool try_draws(const struct population *pop, const struct pop_class *cl, const char *where,
		      GError **err)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new();
	g_autoptr(GError) inner = NULL;

	flatten(cl->draws, all);
	/* the draws at their first values, one more at a time: the first the scenario
	 * refuses is named */
	for (guint j = 0; j < all->len && !check_one(pop, all, (int)all->len, -1, 0, &inner); j++) {
		const struct pop_draw *d = all->pdata[j];
		g_autofree char *val = NULL;

		g_clear_error(&inner);
		if (!d->set || !check_values(d) || check_one(pop, all, (int)j, -1, 0, &inner))
			continue;
		val = check_value(d, 0);
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "%s: %s: found %s, which a scenario refuses (%s), expected a value of the "
			    "scenario path \"%s\"", pop->file, d->where, val, inner->message, d->path);
		return false;
	}
	if (inner) {
		g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
			    "%s: %s: found draws a scenario refuses together (%s), expected values "
			    "of their scenario paths", pop->file, where, inner->message);
		return false;
	}
	for (guint j = 0; j < all->len; j++) {
		const struct pop_draw *d = all->pdata[j];

		for (int v = 1; d->set && v < check_values(d); v++) {
			g_autofree char *val = NULL;

			if (check_one(pop, all, (int)all->len, (int)j, v, &inner))
				continue;
			val = check_value(d, v);
			g_set_error(err, CS_SCENARIO_ERROR, CS_SCENARIO_ERROR_INVALID,
				    "%s: %s: found %s, which a scenario refuses (%s), expected a value "
				    "of the scenario path \"%s\"", pop->file, d->where, val,
				    inner->message, d->path);
			return false;
		}
	}
	return true;
}

static const char *const class_keys[] = { "weight", "description", "draw" };

static bool parse_class(struct population *pop, const cJSON *v, struct pop_class *cl, GError **err)
{
	g_autofree char *where = g_strdup_printf("classes.%s", v->string);
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(v, "weight");
	g_autofree char *ww = g_strdup_printf("%s.weight", where);
	g_autofree char *wd = g_strdup_printf("%s.draw", where);

	cl->name = g_strdup(v->string);
	if (!cJSON_IsObject(v) || !*v->string ||
	    strspn(v->string, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(v->string))
		return pop_error(err, pop->file, where, v, "a class: a name of lower-case letters, "
				 "digits and '-', and an object {\"weight\", \"draw\"}");
	if (!known_keys(v, class_keys, G_N_ELEMENTS(class_keys), pop->file, where,
			"\"weight\", \"description\" or \"draw\"", err))
		return false;
	if (!cJSON_IsNumber(w) || !(w->valuedouble >= 0) || !isfinite(w->valuedouble))
		return pop_error(err, pop->file, ww, w, "a weight, a number of 0 or more");
	cl->weight = w->valuedouble;
	return parse_list(pop, cJSON_GetObjectItemCaseSensitive(v, "draw"), wd, &cl->draws, err) &&
	       try_draws(pop, cl, wd, err);
}

static const char *const top_keys[] = { "name", "description", "stream", "classes" };

static bool parse_population(struct population *pop, const cJSON *doc, GError **err)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "name");
	const cJSON *classes = cJSON_GetObjectItemCaseSensitive(doc, "classes");
	const cJSON *stream = cJSON_GetObjectItemCaseSensitive(doc, "stream");
	double sum = 0;
	const cJSON *e;

	if (!cJSON_IsObject(doc))
		return pop_error(err, pop->file, "(top)", doc, "a population: an object {\"name\", \"classes\"}");
	cJSON_ArrayForEach(e, doc)
		if (!key_in(e->string, top_keys, G_N_ELEMENTS(top_keys)))
			return pop_error(err, pop->file, e->string, e, "\"name\", \"description\" or \"classes\"");
	if (!cJSON_IsString(name) || !*name->valuestring)
		return pop_error(err, pop->file, "name", name, "the population's name, a string");
	if (stream && (!cJSON_IsNumber(stream) || stream->valuedouble < 0 ||
		       stream->valuedouble > 4294967295.0 || stream->valuedouble != floor(stream->valuedouble)))
		return pop_error(err, pop->file, "stream", stream, "a whole number from 0 to 4294967295");
	pop->has_stream = stream != NULL;
	pop->stream = stream ? (guint32)stream->valuedouble : 0;
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
		list_free(pop->cls[k].draws);
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
