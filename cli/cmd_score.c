// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_score.c - `chargesim score`: policies against the hindsight oracle on a
 * population of setups (docs/score.md), and `chargesim merge` of its shards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include <chargesim/linux_module.h>
#include "cli/cli.h"
#include "output/outfile.h"
#include "output/outset.h"
#include "report/report.h"
#include "run/population.h"
#include "run/score.h"
#include "run/score_merge.h"
#include "run/score_table.h"
#include "run/sweep.h"
#include "sim/units.h"

#define SCORE_DEFAULT_SEED 2      /* held out: safe-ramp was tuned on seed 1 */
#define SCORE_DEFAULT_SETUPS 200
#define SCORE_MAX_SETUPS 1000000

static const char *const default_policies[] = {
	"safe-ramp", "ec-ramp", "hw-ico", "twl4030", "usb-charger-fw", NULL,
};

/* The entries of a score's output set (output/outset.h). */
static const char *const score_outputs[] = { "score.csv", "score.json", SCORE_MANIFEST,
					      "report.html", NULL };

struct score_cli {
	char **policies, *population, *outdir, *shard, *grid_min, *grid_step, *limit_time;
	gint setups, seed, jobs, explain;
	gboolean quiet, report;
};

/* ---- writing and printing ---- */

static bool stage_file(const struct cs_outset *set, const char *name, const char *text,
		       GError **err)
{
	g_autofree char *path = g_build_filename(cs_outset_path(set), name, NULL);

	return cs_outfile_write_all(path, text, strlen(text), err);
}

static char *json_text(cJSON *doc)
{
	char *t = cJSON_Print(doc);
	char *out = g_strconcat(t, "\n", NULL);

	free(t);
	cJSON_Delete(doc);
	return out;
}

/* Write score.csv, score.json and score-manifest.json of options o as one set into
 * outdir, then print the table. The figures come from csv's text whatever made it (a
 * run or a merge). */
/* Below the tables: which bytes of each real driver were scored (a driver given twice,
 * with other parameters, once). */
static void print_kernel_files(const struct score_options *o)
{
	bool blank = true;

	for (int k = 0; k < o->n_pol; k++) {
		g_autofree char *lead = NULL;
		bool seen = false;

		for (int j = 0; j < k; j++)
			seen |= o->pol[j].driver && o->pol[k].driver &&
				strcmp(o->pol[j].driver, o->pol[k].driver) == 0;
		if (!o->pol[k].driver || seen || !cs_linux_policy_files(o->pol[k].driver))
			continue;
		if (blank)
			printf("\n");
		blank = false;
		lead = g_strdup_printf("%s: ", o->pol[k].driver);
		cli_print_kernel_files(o->pol[k].driver, lead);
	}
}

static int write_score(const char *outdir, const char *csv, const struct score_options *o,
		       bool quiet, bool report)
{
	g_auto(GStrv) names = g_new0(char *, o->n_pol + 1);
	g_autofree char *json = NULL, *manifest = NULL, *table = NULL;
	g_autoptr(GError) err = NULL;
	struct score_summary sum;
	struct cs_outset *set;

	for (int k = 0; k < o->n_pol; k++)
		names[k] = g_strdup(o->pol[k].spec);
	if (!score_summarize(csv, "score.csv", names, o->n_pol, o->pop, &sum, &err)) {
		cli_error("internal error: %s", err->message);
		return CLI_EXIT_INTERNAL;
	}
	json = json_text(score_summary_json(&sum, o->seed, o->pop, &o->oracle));
	manifest = json_text(score_manifest_json(o, csv));
	table = score_summary_text(&sum);
	set = cs_outset_begin(outdir, score_outputs, &err);
	if (!set || !stage_file(set, "score.csv", csv, &err) ||
	    !stage_file(set, "score.json", json, &err) ||
	    !stage_file(set, SCORE_MANIFEST, manifest, &err) ||
	    (report && !report_write_score_html(cs_outset_path(set), &sum, o->seed, o->pop,
						&o->oracle, &err)) ||
	    !cs_outset_commit(g_steal_pointer(&set), &err)) {
		if (set)
			cs_outset_unstage(set, err);
		cs_outset_abort(set);
		cli_error("%s", err->message);
		score_summary_clear(&sum);
		return CLI_EXIT_USAGE;
	}
	if (!quiet) {
		printf("oracle: the best fixed input limit in hindsight with no trip, UVLO or brownout "
		       "(%g mA grid from %g mA); %d setup%s without one left out\n",
		       o->oracle.grid_step_a * 1e3, o->oracle.grid_min_a * 1e3,
		       sum.censored[SCORE_ORACLE], sum.censored[SCORE_ORACLE] == 1 ? "" : "s");
		printf("regret: time to 80 %% over the oracle's - 1, or the SOC shortfall where 80 %% "
		       "is out of reach; trips, UVLO, brown(outs), starved, (over) budget: setups\n\n");
		fputs(table, stdout);
		print_kernel_files(o);
		printf("\noutputs in %s/: score.csv, score.json, %s%s\n", outdir, SCORE_MANIFEST,
		       report ? ", report.html" : "");
	}
	score_summary_clear(&sum);
	return CLI_EXIT_OK;
}

/* ---- options ---- */

static bool parse_amps(const char *opt, const char *text, double *out)
{
	g_autoptr(GError) err = NULL;

	if (text && !units_parse(text, UNIT_AMP, out, &err))
		return cli_error("score: %s: %s", opt, err->message);
	return true;
}

static bool parse_oracle(const struct score_cli *c, struct score_oracle_def *d)
{
	g_autoptr(GError) err = NULL;
	sim_time_t t;

	*d = score_oracle_default;
	if (!parse_amps("--oracle-grid-min", c->grid_min, &d->grid_min_a) ||
	    !parse_amps("--oracle-grid-step", c->grid_step, &d->grid_step_a))
		return false;
	if (c->limit_time) {
		if (!units_parse_time(c->limit_time, &t, &err))
			return cli_error("score: --oracle-limit-time: %s", err->message);
		d->in_limit_s = sim_time_to_s(t);
	}
	if (!(d->grid_min_a >= 0.001 && d->grid_min_a <= 10) ||
	    !(d->grid_step_a >= 0.001 && d->grid_step_a <= 10) || !(d->in_limit_s >= 0))
		return cli_error("score: found --oracle-grid-min %g A, --oracle-grid-step %g A, "
				 "--oracle-limit-time %g s, expected 1 mA to 10 A, 1 mA to 10 A and "
				 "a time of at least 0 s", d->grid_min_a, d->grid_step_a, d->in_limit_s);
	return true;
}

/* --policy values into o->pol (built-in when none); false with the message printed. */
static bool parse_policies(char **given, struct score_options *o)
{
	const char *const *list = given ? (const char *const *)given : default_policies;
	g_autoptr(GError) err = NULL;

	o->n_pol = (int)g_strv_length((char **)list);
	if (o->n_pol > SCORE_MAX_POLICIES)
		return cli_error("score: found %d --policy options, expected at most %d",
				 o->n_pol, SCORE_MAX_POLICIES);
	o->pol = g_new0(struct score_policy, o->n_pol);
	for (int k = 0; k < o->n_pol; k++) {
		for (int j = 0; j < k; j++)
			if (strcmp(list[j], list[k]) == 0)
				return cli_error("score: --policy %s: found it twice, expected each "
						 "policy once", list[k]);
		if (!score_policy_parse(list[k], &o->pol[k], &err))
			return cli_error("score: %s", err->message);
	}
	return true;
}

static void options_clear(struct score_options *o)
{
	for (int k = 0; k < o->n_pol; k++)
		score_policy_clear(&o->pol[k]);
	g_free(o->pol);
}

static bool check_cli(struct score_cli *c, struct score_options *o, struct sweep_shard *sh)
{
	g_autoptr(GError) err = NULL;

	if (c->setups < 1 || c->setups > SCORE_MAX_SETUPS || c->seed < 0 || c->jobs < 0 ||
	    c->jobs > 1024)
		return cli_error("score: found --setups %d, --seed %d, -j %d, expected 1 to %d setups, "
				 "a seed of 0 or more and 0 to 1024 jobs (0: default)", c->setups,
				 c->seed, c->jobs, SCORE_MAX_SETUPS);
	if (c->explain >= c->setups && c->explain >= 0)
		c->setups = c->explain + 1;
	if (c->explain < 0 && !c->outdir)
		return cli_error("score: -o DIR is required (the directory for score.csv and score.json)");
	if ((c->shard && !sweep_parse_shard(c->shard, sh, &err)) ||
	    (!c->shard && !sweep_shard_from_env(sh, &err) && err))
		return cli_error("%s", err->message);
	o->seed = (guint32)c->seed;
	o->n = c->setups;
	o->jobs = c->jobs ? c->jobs : cli_default_jobs();
	o->shard_i = (int)sh->index;
	o->shard_n = (int)MIN(sh->count, (guint64)c->setups);
	if (sh->index >= (guint64)o->shard_n)
		return cli_error("score: --shard %s: a shard with no setup (there are %d)",
				 c->shard ? c->shard : "(from Slurm)", c->setups);
	return parse_oracle(c, &o->oracle) && parse_policies(c->policies, o);
}

/* ---- --explain ---- */

/* The scenario of setup i, with the first --policy that is no plugin (else safe-ramp),
 * on stdout or as DIR/NAME.json. */
static int explain(const struct score_cli *c, const struct score_options *o)
{
	const char *policy = "\"safe-ramp\"";
	g_autofree char *text = NULL, *out = NULL, *path = NULL;
	g_autoptr(GError) err = NULL;
	struct pop_setup s;
	cJSON *doc;

	for (int k = o->n_pol - 1; k >= 0; k--)
		if (!o->pol[k].plugin)
			policy = o->pol[k].json;
	population_setup(o->pop, o->seed, c->explain, &s);
	text = pop_setup_scenario(&s, policy);
	doc = cJSON_Parse(text);
	out = json_text(doc);
	if (c->outdir) {
		path = g_strdup_printf("%s/%s.json", c->outdir, s.name);
		if (!cs_mkdir_p(c->outdir, &err) ||
		    !cs_outfile_write_all(path, out, strlen(out), &err)) {
			pop_setup_clear(&s);
			return cli_error("%s", err->message), CLI_EXIT_USAGE;
		}
		if (!c->quiet)
			printf("setup %d of seed %d: %s\n", c->explain, c->seed, path);
	} else {
		fputs(out, stdout);
	}
	pop_setup_clear(&s);
	return CLI_EXIT_OK;
}

/* ---- the commands ---- */

static int score_main(struct score_cli *c, struct score_options *o)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *rows = NULL, *csv = NULL, *header = NULL;
	gint64 t0 = g_get_monotonic_time();
	struct score *sc;
	int status;

	if (c->explain >= 0)
		return explain(c, o);
	sc = score_run(o, &err);
	if (!sc) {
		cli_error("score: %s", err->message);
		return CLI_EXIT_USAGE;
	}
	if (sc->failed) {
		cli_error("score: %d run%s failed, so nothing was written; the first: %s", sc->failed,
			  sc->failed == 1 ? "" : "s", sc->first_error->message);
		status = sc->fail_status ? sc->fail_status : CLI_EXIT_INTERNAL;
		score_free(sc);
		return status;
	}
	rows = score_csv_rows(sc, o);
	header = score_csv_header(o->pop);
	csv = g_strconcat(header, rows, NULL);
	if (!c->quiet) {
		printf("score: seed %u, %d setups", o->seed, sc->n_set);
		if (o->shard_n > 1)
			printf(" (shard %d/%d of %d)", o->shard_i, o->shard_n, o->n);
		printf(" of population %s, %d runs over %s each in %.1f s on %d thread%s\n",
		       o->pop->name, sc->n_runs, POP_HORIZON,
		       (double)(g_get_monotonic_time() - t0) * 1e-6, o->jobs, o->jobs == 1 ? "" : "s");
	}
	score_free(sc);
	return write_score(c->outdir, csv, o, c->quiet, c->report);
}

int cmd_score(int argc, char **argv)
{
	struct score_cli c = { .setups = SCORE_DEFAULT_SETUPS, .seed = SCORE_DEFAULT_SEED,
			       .explain = -1 };
	GOptionEntry entries[] = {
		{ "policy", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.policies, "A policy to score (repeatable), as run --policy takes it: a built-in name, linux/DRIVER or a plugin FILE.so, with parameters as NAME:KEY=VALUE,... (default: safe-ramp, ec-ramp, hw-ico, twl4030, usb-charger-fw)", "NAME|FILE.so" },
		{ "setups", 'n', 0, G_OPTION_ARG_INT, &c.setups, "Number of setups drawn (default 200)", "N" },
		{ "seed", 's', 0, G_OPTION_ARG_INT, &c.seed, "The population's seed (default 2)", "S" },
		{ "population", 'p', 0, G_OPTION_ARG_STRING, &c.population, "The population: the built-in default, hard or field, or a population FILE.json (docs/score.md)", "NAME|FILE" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &c.jobs, "Threads (default: SLURM_CPUS_PER_TASK, else every CPU this process may use); the results do not depend on it", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &c.outdir, "Write score.csv, score.json and score-manifest.json into DIR (required)", "DIR" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &c.shard, "Score only the setups with index % N == I (default: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, else 0/1); `chargesim merge` joins the shards", "I/N" },
		{ "explain", 0, 0, G_OPTION_ARG_INT, &c.explain, "Write the scenario of setup SETUP (score.csv's setup column) to stdout, or to DIR/NAME.json with -o, and exit", "SETUP" },
		{ "oracle-grid-min", 0, 0, G_OPTION_ARG_STRING, &c.grid_min, "The oracle's first fixed limit (default 100 mA)", "CURRENT" },
		{ "oracle-grid-step", 0, 0, G_OPTION_ARG_STRING, &c.grid_step, "The oracle's grid step (default 50 mA)", "CURRENT" },
		{ "oracle-limit-time", 0, 0, G_OPTION_ARG_STRING, &c.limit_time, "The out-of-limit oracle's time allowed in the port's current limit (default 1 s)", "TIME" },
		{ "report", 0, 0, G_OPTION_ARG_NONE, &c.report, "Also write DIR/report.html: the tables, per class, and the setups where each policy did worst", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &c.quiet, "Print nothing but errors", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("[POPULATION] -o DIR - score policies against the hindsight oracle");
	struct score_options o = { 0 };
	struct sweep_shard sh = { 0, 1 };
	struct population pop = { 0 };
	g_autoptr(GError) err = NULL;
	int status = CLI_EXIT_USAGE;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Runs every policy on a seeded population of charging setups (adapters, cables,\n"
		"chargers, cells, loads, host ports, Type-C and PD), and every setup at each fixed\n"
		"input limit of the oracle's grid; the oracle is the fastest of those limits that\n"
		"causes no trip, UVLO or brownout. Prints each policy's regret (median, p90, max),\n"
		"the setups with trips, UVLO, brownouts, starved phones and draws over the USB\n"
		"budget, against three oracles and per class; writes DIR/score.csv (a row per setup\n"
		"and policy), DIR/score.json and DIR/score-manifest.json. A real driver\n"
		"(linux/...) is scored on the setups whose charger is its chip. The results are the\n"
		"same for every -j and shard split. docs/score.md explains the figures.\n"
		"Example: chargesim score --policy safe-ramp --policy ./my_policy.so --setups 200 -o out/score");
	if (!cli_parse(ctx, &argc, &argv))
		goto out;
	if (argc > 2 || (argc == 2 && c.population)) {
		cli_error("score: found the argument '%s', expected at most one population file and "
			  "options (see --help)", argv[argc - 1]);
		goto out;
	}
	if (argc == 2)
		c.population = g_strdup(argv[1]);
	if (!population_load(c.population ? c.population : "default", &pop, &err)) {
		cli_print_message(err->message);
		goto out;
	}
	o.pop = &pop;
	if (check_cli(&c, &o, &sh))
		status = score_main(&c, &o);
out:
	options_clear(&o);
	population_clear(&pop);
	g_strfreev(c.policies);
	g_free(c.population);
	g_free(c.outdir);
	g_free(c.shard);
	g_free(c.grid_min);
	g_free(c.grid_step);
	g_free(c.limit_time);
	return status;
}

/* A merge writes report.html when the shards have one. */
static bool score_report_in(char **dirs, int n_dirs)
{
	for (int d = 0; d < n_dirs; d++) {
		g_autofree char *p = g_build_filename(dirs[d], "report.html", NULL);

		if (!g_file_test(p, G_FILE_TEST_IS_REGULAR))
			return false;
	}
	return n_dirs > 0;
}

int cmd_score_merge(char **dirs, int n_dirs, const char *outdir, bool quiet)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *csv = NULL;
	struct score_manifest m = { 0 };
	struct score_options o = { 0 };
	int status;

	if (!score_merge(dirs, n_dirs, &csv, &m, &err)) {
		cli_error("merge: %s", err->message);
		return CLI_EXIT_USAGE;
	}
	o.pop = &m.pop;
	o.seed = m.seed;
	o.n = m.n;
	o.shard_n = 1;
	o.oracle = m.oracle;
	o.n_pol = m.n_pol;
	o.pol = g_new0(struct score_policy, m.n_pol);
	for (int k = 0; k < m.n_pol; k++)
		o.pol[k].spec = g_strdup(m.policies[k]);
	if (!quiet)
		printf("merge: %d shard%s of a score of %d setups (seed %u, population %s)\n",
		       n_dirs, n_dirs == 1 ? "" : "s", m.n, m.seed, m.pop.name);
	status = write_score(outdir, csv, &o, quiet, score_report_in(dirs, n_dirs));
	options_clear(&o);
	score_manifest_clear(&m);
	return status;
}
