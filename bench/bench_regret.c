// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_regret.c - input-current policies against a hindsight oracle, on a seeded
 * population of realistic charging setups: the developers' benchmark of the regret
 * evaluation (`make bench` times it).
 *
 * It is a thin caller of the code behind `chargesim score` (docs/score.md says what the
 * figures mean): the population (run/population.c, the files of populations/: healthy
 * adapters, a weak adapter with a full battery, thin or long cables, linear chargers,
 * hiccup and latch adapters with overload timers, host ports with their USB budget,
 * Type-C Rp and USB PD sources), the runs and the oracles (run/score.c: the best safe
 * fixed limit in hindsight, with the budget, without it, and out of the port's current
 * limit), the rows and the table (run/score_table.c). Every run happens in this process
 * on a GLib thread pool; the same seed, size and population give the same table
 * whatever the thread count. Options: --seed, --n, --mix (a population: default, hard,
 * field or a file), --policies, --jobs, --csv FILE (score.csv), --write-scenarios DIR (each
 * setup as a scenario file for `chargesim run`). Run from anywhere; exits non-zero only
 * when a run fails or the options are bad.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "run/population.h"
#include "run/score.h"
#include "run/score_table.h"

#define RG_DEFAULT_SEED    2       /* held out: safe-ramp was tuned on seed 1 */
#define RG_DEFAULT_N       200

static const char *const rg_default_policies[] = {
	"safe-ramp", "ec-ramp", "hw-ico", "twl4030", "usb-charger-fw", NULL,
};

struct rg_opts {
	int seed, n, jobs;
	char *mix, *policies, *csv, *write_dir;
};

static bool rg_write_scenarios(const char *dir, const struct population *pop, guint32 seed, int n)
{
	if (g_mkdir_with_parents(dir, 0755) < 0) {
		fprintf(stderr, "bench_regret: cannot make %s: %s\n", dir, g_strerror(errno));
		return false;
	}
	for (int i = 0; i < n; i++) {
		struct pop_setup s;
		g_autofree char *text = NULL, *path = NULL, *out = NULL;
		g_autoptr(GError) err = NULL;
		cJSON *doc;
		char *pretty;

		population_setup(pop, seed, i, &s);
		path = g_strdup_printf("%s/%s.json", dir, s.name);
		text = pop_setup_scenario(&s, "\"safe-ramp\"");
		pop_setup_clear(&s);
		doc = cJSON_Parse(text);
		pretty = cJSON_Print(doc);
		out = g_strconcat(pretty, "\n", NULL);
		free(pretty);
		cJSON_Delete(doc);
		if (!g_file_set_contents(path, out, -1, &err)) {
			fprintf(stderr, "bench_regret: %s\n", err->message);
			return false;
		}
	}
	return true;
}

static int rg_report(const struct rg_opts *o, const struct score_options *so, struct score *sc,
		     double wall_s)
{
	g_autofree char *rows = score_csv_rows(sc, so);
	g_autofree char *header = score_csv_header(so->pop);
	g_autofree char *csv = g_strconcat(header, rows, NULL);
	g_autofree char *table = NULL;
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) names = g_new0(char *, so->n_pol + 1);
	struct score_summary sum;

	for (int k = 0; k < so->n_pol; k++)
		names[k] = g_strdup(so->pol[k].spec);
	if (!score_summarize(csv, "score.csv", names, so->n_pol, so->pop, &sum, &err)) {
		fprintf(stderr, "bench_regret: %s\n", err->message);
		return 1;
	}
	printf("bench_regret: seed %d, %d setups (population %s), %d runs over %s each, %.1f s wall on %d thread%s\n",
	       o->seed, o->n, so->pop->name, sc->n_runs, POP_HORIZON, wall_s, o->jobs,
	       o->jobs == 1 ? "" : "s");
	printf("oracle: best fixed input limit in hindsight (%.0f mA grid) with no trip, UVLO or brownout; "
	       "%d setup%s without one left out\n", so->oracle.grid_step_a * 1e3,
	       sum.censored[SCORE_ORACLE], sum.censored[SCORE_ORACLE] == 1 ? "" : "s");
	printf("regret: time to 80 %% over the oracle's - 1, or the SOC shortfall where 80 %% is out of reach\n\n");
	table = score_summary_text(&sum);
	fputs(table, stdout);
	score_summary_clear(&sum);
	if (o->csv && !g_file_set_contents(o->csv, csv, -1, &err)) {
		fprintf(stderr, "bench_regret: %s\n", err->message);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rg_opts o = { .seed = RG_DEFAULT_SEED, .n = RG_DEFAULT_N, .jobs = 2 };
	GOptionEntry entries[] = {
		{ "seed", 's', 0, G_OPTION_ARG_INT, &o.seed, "Population seed (default 2; safe-ramp was tuned on 1)", "N" },
		{ "n", 'n', 0, G_OPTION_ARG_INT, &o.n, "Number of setups (default 200)", "N" },
		{ "mix", 'm', 0, G_OPTION_ARG_STRING, &o.mix, "The population: 'default', 'hard' or a population file", "NAME|FILE" },
		{ "policies", 'p', 0, G_OPTION_ARG_STRING, &o.policies, "Comma-separated policies, each NAME or NAME:KEY=VALUE:KEY=VALUE... (default safe-ramp, ec-ramp, hw-ico, twl4030, usb-charger-fw)", "LIST" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &o.jobs, "Threads (default 2)", "N" },
		{ "csv", 0, 0, G_OPTION_ARG_FILENAME, &o.csv, "Write one row per setup and policy (score.csv's format)", "FILE" },
		{ "write-scenarios", 0, 0, G_OPTION_ARG_FILENAME, &o.write_dir, "Write every setup as a scenario (policy safe-ramp)", "DIR" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- input-current policies against a hindsight oracle");
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) pols = NULL;
	struct population pop;
	struct score_options so = { .shard_i = 0, .shard_n = 1, .oracle = score_oracle_default };
	struct score *sc;
	gint64 t0 = g_get_monotonic_time();
	int status;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err) || !population_load(o.mix ? o.mix : "default", &pop, &err)) {
		fprintf(stderr, "bench_regret: %s\n", err->message);
		return 2;
	}
	if (o.n < 1 || o.jobs < 1 || argc > 1) {
		fprintf(stderr, "bench_regret: --n and --jobs must be at least 1, and no arguments are taken\n");
		return 2;
	}
	pols = o.policies ? g_strsplit(o.policies, ",", -1) : g_strdupv((char **)rg_default_policies);
	so.n_pol = (int)g_strv_length(pols);
	if (so.n_pol < 1 || so.n_pol > SCORE_MAX_POLICIES) {
		fprintf(stderr, "bench_regret: --policies takes 1 to %d names\n", SCORE_MAX_POLICIES);
		return 2;
	}
	so.pol = g_new0(struct score_policy, so.n_pol);
	for (int k = 0; k < so.n_pol; k++) {
		/* NAME:KEY=VALUE:KEY=VALUE, the list being comma-separated, is the policy spec
		 * NAME:KEY=VALUE,KEY=VALUE of `chargesim run --policy` */
		char *colon = strchr(pols[k], ':');

		for (char *c = colon ? strchr(colon + 1, ':') : NULL; c; c = strchr(c + 1, ':'))
			*c = ',';
		if (!score_policy_parse(pols[k], &so.pol[k], &err)) {
			fprintf(stderr, "bench_regret: %s\n", err->message);
			return 2;
		}
	}
	if (o.write_dir && !rg_write_scenarios(o.write_dir, &pop, (guint32)o.seed, o.n))
		return 1;
	so.pop = &pop;
	so.seed = (guint32)o.seed;
	so.n = o.n;
	so.jobs = o.jobs;
	sc = score_run(&so, &err);
	if (!sc) {
		fprintf(stderr, "bench_regret: %s\n", err->message);
		return 1;
	}
	if (sc->failed)
		fprintf(stderr, "bench_regret: %d run%s failed; the first: %s\n", sc->failed,
			sc->failed == 1 ? "" : "s", sc->first_error->message);
	status = rg_report(&o, &so, sc, (double)(g_get_monotonic_time() - t0) * 1e-6);
	if (sc->failed)
		status = 1;
	score_free(sc);
	for (int k = 0; k < so.n_pol; k++)
		score_policy_clear(&so.pol[k]);
	g_free(so.pol);
	population_clear(&pop);
	g_free(o.mix);
	g_free(o.policies);
	g_free(o.csv);
	g_free(o.write_dir);
	return status;
}
