// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/score_table.c - score.csv's rows, and the figures made from them
 * (run/score_table.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/score_table.h"

#define RUN_COLUMNS "policy,ran,goal_s,soc_final,trips,uvlo,brownouts," \
	"discharged_while_plugged_s,discharged_while_plugged_mAh,ibus_max_A,over_budget"
#define ORACLE_COLUMNS(x) x "_ilim_A," x "_goal_s," x "_soc_final," x "_regret," x "_regret_in," \
	x "_starved"

/* The column prefix of each oracle (score_oracle_names, as CSV names). */
static const char *const oracle_cols[SCORE_N_ORACLES] = { "oracle", "unbudgeted", "out_of_limit" };

static void text(GString *s, const char *t);

char *score_csv_header(const struct population *pop)
{
	GString *s = g_string_new("seed,setup,class,budget_A," RUN_COLUMNS ","
				  ORACLE_COLUMNS("oracle") "," ORACLE_COLUMNS("unbudgeted") ","
				  ORACLE_COLUMNS("out_of_limit") ",");

	for (int c = 0; c < pop->n_column; c++)
		text(s, pop->column[c]);
	s->str[s->len - 1] = '\n';
	return g_string_free(s, FALSE);
}

/* A number, empty when it is not finite. */
static void num(GString *s, const char *fmt, double v)
{
	if (isfinite(v))
		g_string_append_printf(s, fmt, v);
	g_string_append_c(s, ',');
}

/* A text cell, quoted when it holds a comma, a quote or a line break. */
static void text(GString *s, const char *t)
{
	if (!strpbrk(t, ",\"\r\n")) {
		g_string_append(s, t);
	} else {
		g_string_append_c(s, '"');
		for (; *t; t++) {
			if (*t == '"')
				g_string_append_c(s, '"');
			g_string_append_c(s, *t);
		}
		g_string_append_c(s, '"');
	}
	g_string_append_c(s, ',');
}

static void setup_cells(GString *s, guint32 seed, const struct population *pop,
			const struct score_setup *st)
{
	g_string_append_printf(s, "%u,%d,%s,", seed, st->p.index, pop->cls[st->p.cls].name);
	num(s, "%.4g", st->budget);
}

/* The setup's drawn values, last (a list's cell is quoted): a string as its text
 * ("5.095 V"), anything else as JSON. */
static void drawn_cells(GString *s, const struct score_setup *st)
{
	for (int c = 0; c < st->p.n_values; c++) {
		cJSON *v = st->p.values[c] ? cJSON_Parse(st->p.values[c]) : NULL;

		text(s, !v ? "" : cJSON_IsString(v) ? v->valuestring : st->p.values[c]);
		cJSON_Delete(v);
	}
}

static void run_cells(GString *s, const struct score_setup *st, const struct score_policy *pol,
		      const struct score_result *p)
{
	text(s, pol->spec);
	g_string_append_printf(s, "%d,", p->ok);
	if (!p->ok) {
		g_string_append(s, ",,,,,,,,,");
		return;
	}
	num(s, "%.6g", p->goal >= 0 ? p->goal : NAN);
	num(s, "%.6g", p->soc_final);
	g_string_append_printf(s, "%d,%d,%d,", p->trips, p->uvlo, p->brownouts);
	num(s, "%.6g", p->starve_s);
	num(s, "%.6g", p->starve_mah);
	num(s, "%.6g", p->ibus_max);
	g_string_append_printf(s, "%d,", score_over_budget(st, p));
}

static void oracle_cells(GString *s, const struct score_setup *st, enum score_oracle_kind o,
			 const struct score_result *p)
{
	const struct score_result *r;
	bool timed = false;
	double reg;

	if (st->oracle[o] < 0) {
		g_string_append(s, ",,,,,,");
		return;
	}
	r = &st->grid_res[st->oracle[o]];
	num(s, "%.4g", st->grid[st->oracle[o]]);
	num(s, "%.6g", r->goal >= 0 ? r->goal : NAN);
	num(s, "%.6g", r->soc_final);
	if (!p->ok) {
		g_string_append(s, ",,,");
		return;
	}
	reg = score_regret(st, o, p, &timed);
	num(s, "%.6g", reg);
	g_string_append_printf(s, "%s,%d,", timed ? "time" : "soc", score_starved(st, o, p));
}

char *score_csv_rows(const struct score *sc, const struct score_options *opt)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < sc->n_set; i++) {
		const struct score_setup *st = &sc->set[i];

		for (int k = 0; k < opt->n_pol; k++) {
			setup_cells(s, opt->seed, opt->pop, st);
			run_cells(s, st, &opt->pol[k], &st->pol_res[k]);
			for (int o = 0; o < SCORE_N_ORACLES; o++)
				oracle_cells(s, st, o, &st->pol_res[k]);
			drawn_cells(s, st);
			/* the last cell's comma becomes the line's end */
			s->str[s->len - 1] = '\n';
		}
	}
	return g_string_free(s, FALSE);
}

/* ---- reading score.csv back ---- */

/* Split one line (without its line break) into cells; quoted cells unquoted. */
static GPtrArray *split_line(const char *p, const char *end)
{
	GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);

	for (;;) {
		GString *c = g_string_new(NULL);

		if (p < end && *p == '"') {
			for (p++; p < end; p++) {
				if (*p == '"' && (p + 1 >= end || p[1] != '"'))
					break;
				if (*p == '"')
					p++;
				g_string_append_c(c, *p);
			}
			p++;
		}
		for (; p < end && *p != ','; p++)
			g_string_append_c(c, *p);
		g_ptr_array_add(cells, g_string_free(c, FALSE));
		if (p >= end)
			return cells;
		p++;
	}
}

/* The column numbers score_summarize() reads. */
struct cols {
	int setup, cls, policy, ran, trips, uvlo, brownouts, over;
	int ilim[SCORE_N_ORACLES], regret[SCORE_N_ORACLES], starved[SCORE_N_ORACLES];
};

static int col_of(GPtrArray *head, const char *name)
{
	for (guint i = 0; i < head->len; i++)
		if (strcmp(head->pdata[i], name) == 0)
			return (int)i;
	return -1;
}

static bool find_cols(GPtrArray *head, struct cols *c)
{
	c->setup = col_of(head, "setup");
	c->cls = col_of(head, "class");
	c->policy = col_of(head, "policy");
	c->ran = col_of(head, "ran");
	c->trips = col_of(head, "trips");
	c->uvlo = col_of(head, "uvlo");
	c->brownouts = col_of(head, "brownouts");
	c->over = col_of(head, "over_budget");
	for (int o = 0; o < SCORE_N_ORACLES; o++) {
		g_autofree char *a = g_strdup_printf("%s_ilim_A", oracle_cols[o]);
		g_autofree char *b = g_strdup_printf("%s_regret", oracle_cols[o]);
		g_autofree char *d = g_strdup_printf("%s_starved", oracle_cols[o]);

		c->ilim[o] = col_of(head, a);
		c->regret[o] = col_of(head, b);
		c->starved[o] = col_of(head, d);
		if (c->ilim[o] < 0 || c->regret[o] < 0 || c->starved[o] < 0)
			return false;
	}
	return c->setup >= 0 && c->cls >= 0 && c->policy >= 0 && c->ran >= 0 && c->trips >= 0 && c->uvlo >= 0 &&
	       c->brownouts >= 0 && c->over >= 0;
}

/* A row's regret values against each oracle, per policy and class, gathered. */
struct gather {
	GArray *v[SCORE_N_ORACLES][1 + POP_MAX_CLASSES];   /* double */
};

static int policy_of(char **policies, int n_pol, const char *name)
{
	for (int k = 0; k < n_pol; k++)
		if (strcmp(policies[k], name) == 0)
			return k;
	return -1;
}

static bool cell_int(const char *t)
{
	return atoi(t) > 0;
}

/* Keep regret r of setup among the policy's worst. */
static void keep_worst(struct score_summary *sum, int pol, int setup, int cls, double r)
{
	struct score_worst *w = sum->worst[pol];
	int n = sum->n_worst[pol], i;

	if (n == SCORE_WORST && !(r > w[n - 1].regret))
		return;
	if (n < SCORE_WORST)
		n = ++sum->n_worst[pol];
	for (i = n - 1; i > 0 && r > w[i - 1].regret; i--)
		w[i] = w[i - 1];
	w[i] = (struct score_worst){ .setup = setup, .cls = cls, .regret = r };
}

/* Add one row's figures to sum and g. */
static void add_row(GPtrArray *cells, const struct cols *c, int pol, int cls,
		    struct score_summary *sum, struct gather *g)
{
	const char *const *v = (const char *const *)cells->pdata;

	if (pol == 0) {
		sum->n_setups++;
		sum->class_n[cls]++;
		for (int o = 0; o < SCORE_N_ORACLES; o++)
			sum->censored[o] += !*v[c->ilim[o]];
	}
	for (int o = 0; o < SCORE_N_ORACLES; o++) {
		double r;

		if (!cell_int(v[c->ran]) || !*v[c->regret[o]])
			continue;
		r = g_ascii_strtod(v[c->regret[o]], NULL);
		if (o == SCORE_ORACLE)
			keep_worst(sum, pol, atoi(v[c->setup]), cls, r);
		for (int part = 0; part < 2; part++) {
			struct score_stats *st = &sum->st[pol][o][part ? 1 + cls : 0];

			st->n++;
			st->trips += cell_int(v[c->trips]);
			st->uvlo += cell_int(v[c->uvlo]);
			st->brownouts += cell_int(v[c->brownouts]);
			st->starved += cell_int(v[c->starved[o]]);
			st->over_budget += cell_int(v[c->over]);
			g_array_append_val(g[pol].v[o][part ? 1 + cls : 0], r);
		}
	}
}

static int cmp_double(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile q of n sorted values, linear between ranks. */
static double quantile(const double *v, int n, double q)
{
	double x = q * (n - 1);
	int i = (int)floor(x);

	if (n == 0)
		return NAN;
	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (x - i) * (v[i + 1] - v[i]);
}

static void finish_stats(struct score_stats *st, GArray *v)
{
	g_array_sort(v, cmp_double);
	st->median = quantile((double *)v->data, (int)v->len, 0.5);
	st->p90 = quantile((double *)v->data, (int)v->len, 0.9);
	st->max = v->len ? g_array_index(v, double, v->len - 1) : NAN;
	g_array_free(v, TRUE);
}

static bool bad_line(GError **err, const char *file, int line, const char *what)
{
	g_set_error(err, CS_SCORE_ERROR, CS_SCORE_ERROR_INPUT, "%s: line %d: %s", file, line, what);
	return false;
}

static bool read_rows(const char *csv, const char *file, const struct population *pop,
		      struct score_summary *sum, struct gather *g, GError **err)
{
	const char *p = csv, *nl = strchr(p, '\n');
	g_autoptr(GPtrArray) head = NULL;
	struct cols c;
	int line = 1;

	if (!nl)
		return bad_line(err, file, 1, "found no header, expected score.csv's");
	head = split_line(p, nl);
	if (!find_cols(head, &c))
		return bad_line(err, file, 1, "found another header, expected score.csv's");
	for (p = nl + 1; *p; p = nl + 1) {
		g_autoptr(GPtrArray) cells = NULL;
		int pol, cls;

		line++;
		nl = strchr(p, '\n');
		if (!nl)
			return bad_line(err, file, line, "found a line without its end, expected whole lines");
		cells = split_line(p, nl);
		if (cells->len != head->len)
			return bad_line(err, file, line, "found another number of cells than the header's");
		pol = policy_of(sum->policies, sum->n_pol, cells->pdata[c.policy]);
		cls = population_class(pop, cells->pdata[c.cls]);
		if (pol < 0 || cls < 0)
			return bad_line(err, file, line, "found a policy or class this score does not have");
		add_row(cells, &c, pol, cls, sum, g);
	}
	return true;
}

bool score_summarize(const char *csv, const char *file, char **policies, int n_pol,
		     const struct population *pop, struct score_summary *sum, GError **err)
{
	struct gather *g = g_new0(struct gather, n_pol);
	bool ok;

	memset(sum, 0, sizeof(*sum));
	sum->n_pol = n_pol;
	sum->policies = g_strdupv(policies);
	sum->n_class = pop->n_class;
	for (int c = 0; c < pop->n_class; c++)
		sum->classes[c] = g_strdup(pop->cls[c].name);
	sum->st = g_malloc0(sizeof(*sum->st) * (size_t)n_pol);
	sum->worst = g_malloc0(sizeof(*sum->worst) * (size_t)n_pol);
	sum->n_worst = g_new0(int, n_pol);
	for (int k = 0; k < n_pol; k++)
		for (int o = 0; o < SCORE_N_ORACLES; o++)
			for (int c = 0; c <= POP_MAX_CLASSES; c++)
				g[k].v[o][c] = g_array_new(FALSE, FALSE, sizeof(double));
	ok = read_rows(csv, file, pop, sum, g, err);
	for (int k = 0; k < n_pol; k++)
		for (int o = 0; o < SCORE_N_ORACLES; o++)
			for (int c = 0; c <= POP_MAX_CLASSES; c++)
				finish_stats(&sum->st[k][o][c], g[k].v[o][c]);
	g_free(g);
	if (!ok)
		score_summary_clear(sum);
	return ok;
}

void score_summary_clear(struct score_summary *sum)
{
	g_strfreev(sum->policies);
	for (int c = 0; c < sum->n_class; c++)
		g_free(sum->classes[c]);
	g_free(sum->st);
	g_free(sum->worst);
	g_free(sum->n_worst);
	memset(sum, 0, sizeof(*sum));
}

/* ---- the table and score.json ---- */

/* A regret as a percentage, "-" when there is none. */
static void pct_cell(GString *s, double v, int width)
{
	if (isfinite(v))
		g_string_append_printf(s, " %*.1f %%", width, 100 * v);
	else
		g_string_append_printf(s, " %*s  ", width, "-");
}

static void row_text(GString *s, const char *name, const struct score_stats *st, int indent,
		     int name_w)
{
	g_string_append_printf(s, "%*s%-*s %4d", indent, "", name_w - indent, name, st->n);
	pct_cell(s, st->median, 8);
	pct_cell(s, st->p90, 7);
	pct_cell(s, st->max, 8);
	g_string_append_printf(s, " %6d %6d %6d %8d %8d\n", st->trips, st->uvlo, st->brownouts,
			       st->starved, st->over_budget);
}

/* The name column: the longest policy name, indented by 2 in the per-class rows. */
static int name_width(const struct score_summary *sum)
{
	int w = 16;

	for (int k = 0; k < sum->n_pol; k++)
		w = MAX(w, (int)g_utf8_strlen(sum->policies[k], -1) + 2);
	return w;
}

static void block_text(GString *s, const struct score_summary *sum, int o, int cls, int indent)
{
	for (int k = 0; k < sum->n_pol; k++)
		row_text(s, sum->policies[k], &sum->st[k][o][cls], indent, name_width(sum));
}

char *score_summary_text(const struct score_summary *sum)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "%-*s %4s %10s %9s %10s %6s %6s %6s %8s %8s\n", name_width(sum), "policy", "n",
			       "median", "p90", "max", "trips", "UVLO", "brown", "starved", "budget");
	block_text(s, sum, SCORE_ORACLE, 0, 0);
	g_string_append(s, "\nagainst the unbudgeted oracle (the best safe fixed limit, the port's USB "
			"budget ignored)\n");
	block_text(s, sum, SCORE_ORACLE_FREE, 0, 0);
	g_string_append(s, "\nagainst the out-of-limit oracle (the best safe fixed limit that also "
			"keeps the port out of its current limit)\n");
	block_text(s, sum, SCORE_ORACLE_OUT, 0, 0);
	g_string_append(s, "\nper class, against the oracle\n");
	for (int c = 0; c < sum->n_class; c++) {
		if (!sum->class_n[c])
			continue;
		g_string_append_printf(s, "%s (%d setup%s)\n", sum->classes[c], sum->class_n[c],
				       sum->class_n[c] == 1 ? "" : "s");
		block_text(s, sum, SCORE_ORACLE, 1 + c, 2);
	}
	return g_string_free(s, FALSE);
}

/* A percentage to 0.001 % (NULL for none): what a table shows, and stable to print. */
static void add_pct(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, round(v * 1e5) / 1e3);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *stats_json(const struct score_stats *st)
{
	cJSON *o = cJSON_CreateObject();

	add_pct(o, "median_regret_pct", st->median);
	add_pct(o, "p90_regret_pct", st->p90);
	add_pct(o, "max_regret_pct", st->max);
	cJSON_AddNumberToObject(o, "trips", st->trips);
	cJSON_AddNumberToObject(o, "uvlo", st->uvlo);
	cJSON_AddNumberToObject(o, "brownouts", st->brownouts);
	cJSON_AddNumberToObject(o, "starved", st->starved);
	cJSON_AddNumberToObject(o, "over_budget", st->over_budget);
	cJSON_AddNumberToObject(o, "n", st->n);
	return o;
}

static cJSON *policy_json(const struct score_summary *sum, int k)
{
	cJSON *o = stats_json(&sum->st[k][SCORE_ORACLE][0]);
	cJSON *classes = cJSON_AddObjectToObject(o, "classes");

	for (int c = 0; c < sum->n_class; c++)
		if (sum->class_n[c])
			cJSON_AddItemToObject(classes, sum->classes[c],
					      stats_json(&sum->st[k][SCORE_ORACLE][1 + c]));
	cJSON_AddItemToObject(o, "unbudgeted_oracle", stats_json(&sum->st[k][SCORE_ORACLE_FREE][0]));
	cJSON_AddItemToObject(o, "out_of_limit_oracle", stats_json(&sum->st[k][SCORE_ORACLE_OUT][0]));
	return o;
}

cJSON *score_summary_json(const struct score_summary *sum, guint32 seed,
			  const struct population *pop, const struct score_oracle_def *def)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON *pols = cJSON_AddObjectToObject(doc, "policies");
	cJSON *p = cJSON_AddObjectToObject(doc, "population");
	cJSON *w = cJSON_AddObjectToObject(p, "weights");
	cJSON *n = cJSON_AddObjectToObject(p, "setups_per_class");
	cJSON *o = cJSON_AddObjectToObject(doc, "oracle");
	cJSON *cens = cJSON_AddObjectToObject(o, "censored");

	for (int k = 0; k < sum->n_pol; k++)
		cJSON_AddItemToObject(pols, sum->policies[k], policy_json(sum, k));
	cJSON_AddStringToObject(p, "name", pop->name);
	cJSON_AddStringToObject(p, "sha256", pop->sha256);
	cJSON_AddNumberToObject(p, "setups", sum->n_setups);
	for (int c = 0; c < pop->n_class; c++) {
		cJSON_AddNumberToObject(w, pop->cls[c].name, pop->cls[c].weight);
		cJSON_AddNumberToObject(n, pop->cls[c].name, sum->class_n[c]);
	}
	cJSON_AddNumberToObject(o, "grid_min_A", def->grid_min_a);
	cJSON_AddNumberToObject(o, "grid_step_A", def->grid_step_a);
	cJSON_AddNumberToObject(o, "out_of_limit_max_s", def->in_limit_s);
	cJSON_AddStringToObject(o, "horizon", POP_HORIZON);
	cJSON_AddNumberToObject(o, "soc_target", SCORE_SOC_TARGET);
	for (int k = 0; k < SCORE_N_ORACLES; k++)
		cJSON_AddNumberToObject(cens, oracle_cols[k], sum->censored[k]);
	cJSON_AddNumberToObject(doc, "seed", seed);
	return doc;
}
