// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/score_html.c - `chargesim score --report`: the score as one page for a design
 * review, in the comparison report's style (report/report.h, docs/score.md): what was
 * scored, the table against each oracle, per class, and the setups where each policy
 * did worst with the command that opens each as a scenario. Made from the summary of
 * score.csv only, so a score merged from shards gives the same page.
 */
#include <math.h>
#include <string.h>
#include "output/outfile.h"
#include "report/report.h"
#include "report/report_priv.h"

static void pct(GString *out, double v)
{
	if (isfinite(v))
		g_string_append_printf(out, "<td class=\"num\">%.1f %%</td>", 100 * v);
	else
		g_string_append(out, "<td class=\"num\">-</td>");
}

/* A count, flagged when it is a failure the policy caused. */
static void count(GString *out, int n, bool flag)
{
	g_string_append_printf(out, "<td class=\"num%s\">%d</td>", n && flag ? " flag" : "", n);
}

static void stats_row(GString *out, const char *label, const struct score_stats *st)
{
	g_string_append(out, "<tr><th>");
	html_text(out, label);
	g_string_append_printf(out, "</th><td class=\"num\">%d</td>", st->n);
	pct(out, st->median);
	pct(out, st->p90);
	pct(out, st->max);
	count(out, st->trips, true);
	count(out, st->uvlo, true);
	count(out, st->brownouts, true);
	count(out, st->starved, true);
	count(out, st->over_budget, true);
	g_string_append(out, "</tr>\n");
}

static const char table_head[] =
	"<table>\n<thead><tr><th>policy</th><th>setups</th><th>median regret</th><th>p90</th>"
	"<th>max</th><th>trips</th><th>UVLO</th><th>brownouts</th><th>starved</th>"
	"<th>over budget</th></tr></thead>\n<tbody>\n";

static void oracle_table(GString *out, const struct score_summary *sum, int o, int cls)
{
	g_string_append(out, table_head);
	for (int k = 0; k < sum->n_pol; k++)
		stats_row(out, sum->policies[k], &sum->st[k][o][cls]);
	g_string_append(out, "</tbody>\n</table>\n");
}

static void head(GString *out, const struct score_summary *sum, guint32 seed,
		 const struct population *pop, const struct score_oracle_def *def)
{
	g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			     "<title>chargesim score: ");
	html_text(out, pop->name);
	g_string_append_printf(out, ", seed %u</title>\n<style>\n%s</style>\n</head>\n<body>\n",
			       seed, report_style);
	g_string_append(out, "<h1 id=\"score\">Score: population ");
	html_text(out, pop->name);
	g_string_append_printf(out, ", seed %u, %d setups</h1>\n<p class=\"note\">Policies: ", seed,
			       sum->n_setups);
	for (int k = 0; k < sum->n_pol; k++) {
		g_string_append(out, k ? ", " : "");
		g_string_append(out, "<span class=\"policy\">");
		html_text(out, sum->policies[k]);
		g_string_append(out, "</span>");
	}
	g_string_append_printf(out, ". The oracle is the best fixed input limit in hindsight with no "
			       "trip, UVLO or brownout (%g mA grid from %g mA, %s per setup); %d "
			       "setup%s without one %s left out. Regret: the time to 80 %% over the "
			       "oracle's, minus one, or the SOC shortfall where 80 %% is out of "
			       "reach. Counts are setups. Population SHA-256 ",
			       def->grid_step_a * 1e3, def->grid_min_a * 1e3, POP_HORIZON,
			       sum->censored[SCORE_ORACLE], sum->censored[SCORE_ORACLE] == 1 ? "" : "s",
			       sum->censored[SCORE_ORACLE] == 1 ? "is" : "are");
	html_text(out, pop->sha256);
	g_string_append(out, ".</p>\n");
}

static void classes(GString *out, const struct score_summary *sum)
{
	g_string_append(out, "<h2 id=\"classes\">Per class, against the oracle</h2>\n");
	for (int c = 0; c < sum->n_class; c++) {
		if (!sum->class_n[c])
			continue;
		g_string_append(out, "<h3>");
		html_text(out, sum->classes[c]);
		g_string_append_printf(out, " (%d setup%s)</h3>\n", sum->class_n[c],
				       sum->class_n[c] == 1 ? "" : "s");
		oracle_table(out, sum, SCORE_ORACLE, 1 + c);
	}
}

static void worst(GString *out, const struct score_summary *sum, guint32 seed,
		  const struct population *pop)
{
	bool builtin = false;

	for (int i = 0; pop_builtin_names[i]; i++)
		builtin |= strcmp(pop->name, pop_builtin_names[i]) == 0;
	g_string_append(out, "<h2 id=\"worst\">Where each policy did worst</h2>\n<p class=\"note\">"
			     "Open a setup as a scenario with the command beside it (FILE: the "
			     "population file of the SHA-256 above), then run, plot or compare it "
			     "(docs/score.md).</p>\n<table>\n<thead><tr><th>policy</th>"
			     "<th>setup</th><th>class</th><th>regret</th><th>open it</th></tr></thead>\n"
			     "<tbody>\n");
	for (int k = 0; k < sum->n_pol; k++)
		for (int i = 0; i < sum->n_worst[k]; i++) {
			const struct score_worst *w = &sum->worst[k][i];
			g_autofree char *cmd = g_strdup_printf("chargesim score --population %s --seed %u "
							       "--explain %d -o worst", builtin ? pop->name :
							       "FILE", seed, w->setup);

			g_string_append(out, "<tr><th>");
			html_text(out, sum->policies[k]);
			g_string_append_printf(out, "</th><td class=\"num\">%d</td><td>", w->setup);
			html_text(out, sum->classes[w->cls]);
			g_string_append(out, "</td>");
			pct(out, w->regret);
			g_string_append(out, "<td><code>");
			html_text(out, cmd);
			g_string_append(out, "</code></td></tr>\n");
		}
	g_string_append(out, "</tbody>\n</table>\n");
}

bool report_write_score_html(const char *dir, const struct score_summary *sum, guint32 seed,
			     const struct population *pop, const struct score_oracle_def *def,
			     GError **err)
{
	g_autofree char *path = g_build_filename(dir, "report.html", NULL);
	GString *out = g_string_new(NULL);
	bool ok;

	head(out, sum, seed, pop, def);
	g_string_append(out, "<h2 id=\"oracle\">Against the oracle</h2>\n");
	oracle_table(out, sum, SCORE_ORACLE, 0);
	g_string_append(out, "<h2 id=\"unbudgeted\">Against the unbudgeted oracle</h2>\n<p class=\"note\">"
			     "The best safe fixed limit, the port's USB budget ignored: what a policy "
			     "that honours the budget gives up.</p>\n");
	oracle_table(out, sum, SCORE_ORACLE_FREE, 0);
	g_string_append(out, "<h2 id=\"out-of-limit\">Against the out-of-limit oracle</h2>\n<p "
			     "class=\"note\">The best safe fixed limit that also keeps the port out of "
			     "its current limit.</p>\n");
	oracle_table(out, sum, SCORE_ORACLE_OUT, 0);
	classes(out, sum);
	worst(out, sum, seed, pop);
	g_string_append(out, "<h2 id=\"files\">Files</h2>\n<p><a href=\"score.csv\">score.csv</a> "
			     "(a row per setup and policy), <a href=\"score.json\">score.json</a>, "
			     "<a href=\"score-manifest.json\">score-manifest.json</a></p>\n"
			     "</body>\n</html>\n");
	ok = cs_outfile_write_all(path, out->str, out->len, err);
	g_string_free(out, TRUE);
	return ok;
}
