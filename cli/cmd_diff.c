// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/cmd_diff.c - `chargesim diff A.csv B.csv`: compare two CSV traces column by
 * column with tolerances, B being the reference. Prints a table with the worst
 * deviation of every column shared by the two files and where it occurs, then a
 * verdict line. The reading and the comparison are traces/'s (csv.h, diff.h); the
 * rules are in docs/diff.md.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "traces/column.h"
#include "traces/diff.h"
#include "sim/units.h"

enum { T_COL, T_RESULT, T_WORST, T_TOLUSE, T_AT, T_LINE, T_A, T_B, T_TOL, T_ROWS, T_N };

static const char *const t_head[T_N] = {
	"column", "result", "worst |A-B|", "of tol", "at t [s]", "line", "A", "B",
	"tolerance", "rows outside",
};
static const bool t_right[T_N] = {
	false, false, true, true, true, true, true, true, false, true,
};

static void print_table(GPtrArray *rows)
{
	int w[T_N];

	for (int k = 0; k < T_N; k++)
		w[k] = (int)g_utf8_strlen(t_head[k], -1);
	for (guint i = 0; i < rows->len; i++) {
		char **r = rows->pdata[i];

		for (int k = 0; k < T_N; k++)
			w[k] = MAX(w[k], (int)g_utf8_strlen(r[k], -1));
	}
	for (guint i = 0; i <= rows->len; i++) {
		const char *const *r = i == 0 ? t_head : (const char *const *)rows->pdata[i - 1];
		g_autoptr(GString) line = g_string_new(NULL);

		for (int k = 0; k < T_N; k++) {
			int pad = w[k] - (int)g_utf8_strlen(r[k], -1);

			if (k)
				g_string_append(line, "  ");
			if (t_right[k])
				g_string_append_printf(line, "%*s", pad, "");
			g_string_append(line, r[k]);
			if (!t_right[k] && k < T_N - 1)
				g_string_append_printf(line, "%*s", pad, "");
		}
		while (line->len && line->str[line->len - 1] == ' ')
			g_string_truncate(line, line->len - 1);
		{
			g_autofree char *safe = cli_term_text(line->str, false);   /* column names */

			printf("%s\n", safe);
		}
	}
}

static char **table_row(const struct cs_diff_col *c)
{
	char **r = g_new0(char *, T_N + 1);

	r[T_COL] = g_strdup(c->name);
	r[T_RESULT] = g_strdup(c->pass ? "ok" : "FAIL");
	r[T_TOL] = c->is_label ? g_strdup("exact (text)") : cs_tolerance_describe(c->name, c->abs, c->rel);
	r[T_ROWS] = g_strdup_printf("%zu/%zu", c->n_failed, c->n_compared);
	if (c->kind_mismatch) {
		r[T_WORST] = g_strdup(c->is_label ? "text in A, numbers in B" : "numbers in A, text in B");
		g_free(r[T_TOL]);
		r[T_TOL] = g_strdup("-");
	} else if (!c->has_worst) {
		r[T_WORST] = g_strdup(c->is_label ? "-" : "0");
	} else {
		r[T_AT] = cs_csv_fmt_value("", c->t, 0);
		r[T_LINE] = g_strdup_printf("%zu", c->line);
		if (c->is_label) {
			r[T_WORST] = g_strdup("-");
			r[T_A] = g_strdup(c->cand_label);
			r[T_B] = g_strdup(c->ref_label);
		} else {
			r[T_WORST] = cs_csv_fmt_value(c->name, c->dev, 3);
			r[T_A] = cs_csv_fmt_value(c->name, c->cand, 10);
			r[T_B] = cs_csv_fmt_value(c->name, c->ref, 10);
			if (c->allowed > 0 && c->dev / c->allowed < 9.995)
				r[T_TOLUSE] = g_strdup_printf("%.3g%%", 100 * c->dev / c->allowed);
			else if (c->allowed > 0)
				r[T_TOLUSE] = g_strdup(">999%");
		}
	}
	for (int k = 0; k < T_N; k++)
		if (!r[k])
			r[k] = g_strdup("-");
	return r;
}

static void print_names(const struct cs_diff *d, enum cs_diff_presence which, const char *label)
{
	int n = 0;

	for (int i = 0; i < d->ncols; i++) {
		if (d->cols[i].presence != which)
			continue;
		g_autofree char *name = cli_term_text(d->cols[i].name, false);

		printf("%s%s", n++ ? ", " : label, name);
	}
	if (n)
		printf("\n");
}

static void print_source(const char *tag, const cs_csv_trace *tr, const char *role)
{
	g_autofree char *t0 = cs_csv_fmt_value("_s", tr->t[0], 0);
	g_autofree char *t1 = cs_csv_fmt_value("_s", tr->t[tr->nrows - 1], 0);
	g_autofree char *file = cli_term_text(tr->file, false);
	g_autofree char *time = cli_term_text(tr->cols[tr->time_col].name, false);

	printf("%s: %s (%s): %zu rows, %s .. %s, time column \"%s\"\n", tag, file, role,
	       tr->nrows, t0, t1, time);
}

static void print_verdict(const struct cs_diff *d)
{
	if (d->pass) {
		printf("PASS: %d column%s within tolerance over %zu rows\n", d->n_compared,
		       d->n_compared == 1 ? "" : "s", d->n_rows);
		return;
	}
	if (!d->span_ok || d->n_rows == 0 || d->n_compared == 0) {
		g_autofree char *reason = cs_diff_reason(d);
		g_autofree char *why = cli_term_text(reason, false);

		printf("FAIL: %s", why);
		if (d->n_failed)
			printf("; %d of %d columns outside tolerance", d->n_failed, d->n_compared);
		printf("\n");
		return;
	}
	printf("FAIL: %d of %d column%s outside tolerance: ", d->n_failed, d->n_compared,
	       d->n_compared == 1 ? "" : "s");
	for (int i = 0, n = 0; i < d->ncols; i++) {
		g_autofree char *name = d->cols[i].pass ? NULL : cli_term_text(d->cols[i].name, false);

		if (name)
			printf("%s%s", n++ ? ", " : "", name);
	}
	printf("\n");
}

static cs_csv_trace *read_trace(const char *path, const struct cs_csv_read_opts *ro)
{
	g_autoptr(GError) err = NULL;
	cs_csv_trace *tr = cs_csv_read(path, ro, &err);

	if (!tr)
		cli_error("%s%s", err->message,
			  g_error_matches(err, CS_CSV_ERROR, CS_CSV_ERROR_NO_TIME) && !ro->time_column ?
			  " (name it with --time-column NAME)" : "");
	return tr;
}

/* --map A_NAME=B_NAME: rename A's columns; false (the message printed) on a bad map. */
static bool apply_maps(cs_csv_trace *a, char **maps)
{
	for (int i = 0; maps && maps[i]; i++) {
		g_autoptr(GError) err = NULL;
		const char *eq = strrchr(maps[i], '=');
		g_autofree char *from = eq ? g_strstrip(g_strndup(maps[i], (gsize)(eq - maps[i]))) : NULL;
		g_autofree char *to = eq ? g_strstrip(g_strdup(eq + 1)) : NULL;

		if (!eq || !*from || !*to)
			return cli_error("--map: found \"%s\", expected A_NAME=B_NAME such as \"Voltage(V)=vbus_V\"",
					 maps[i]);
		if (!cs_csv_rename_col(a, from, to, &err))
			return cli_error("--map: %s", err->message);
	}
	return true;
}

/* --tol COLUMN=...: a column that is in neither file is a typo, said before any unit
 * error; false (the message printed) on a bad tolerance. */
static bool add_tolerances(struct cs_tolerances *tol, char **tols, const cs_csv_trace *a,
			   const cs_csv_trace *b)
{
	for (int i = 0; tols && tols[i]; i++) {
		g_autoptr(GError) err = NULL;
		const char *eq = strrchr(tols[i], '=');
		g_autofree char *col = eq ? g_strstrip(g_strndup(tols[i], (gsize)(eq - tols[i]))) : NULL;

		if (col && *col && strcmp(col, "*") != 0 && cs_csv_find_col(a, col) < 0 &&
		    cs_csv_find_col(b, col) < 0) {
			g_autoptr(GPtrArray) names = g_ptr_array_new();
			const char *dym;

			for (int k = 0; k < a->ncols + b->ncols; k++)
				g_ptr_array_add(names, (char *)(k < a->ncols ? a->cols[k] :
								b->cols[k - a->ncols]).name);
			dym = cs_did_you_mean(col, (const char *const *)names->pdata, names->len);
			return cli_error("--tol \"%s\": no column \"%s\" in %s or %s%s%s%s",
					 tols[i], col, a->file, b->file,
					 dym ? " (did you mean \"" : "", dym ? dym : "",
					 dym ? "\"?)" : "");
		}
		if (!cs_tolerances_parse(tol, tols[i], &err))
			return cli_error("--tol: %s", err->message);
	}
	return true;
}

/* Both files, the table of the compared columns, the one-sided ones, the verdict. */
static void print_report(const struct cs_diff *d, const cs_csv_trace *a, const cs_csv_trace *b)
{
	g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);

	print_source("A", a, "candidate");
	print_source("B", b, "reference, interpolated onto A's row times");
	if (d->time_shift > 0) {
		g_autofree char *ts = g_strdup_printf("%g s", d->time_shift);

		printf("--time-shift %s: a value of A also passes when B comes within tolerance of it "
		       "up to %s before or after its row\n", ts, ts);
	}
	if (d->n_outside) {
		printf("%zu of A's %zu rows lie outside B's time range and are not compared\n",
		       d->n_outside, a->nrows);
	}
	printf("\n");
	for (int i = 0; i < d->ncols; i++)
		if (d->cols[i].presence == CS_DIFF_BOTH)
			g_ptr_array_add(rows, table_row(&d->cols[i]));
	if (rows->len)
		print_table(rows);
	print_names(d, CS_DIFF_ONLY_CAND, "only in A (not compared): ");
	print_names(d, CS_DIFF_ONLY_REF, "only in B (not compared): ");
	print_verdict(d);
}

int cmd_diff(int argc, char **argv)
{
	g_auto(GStrv) tols = NULL;
	g_auto(GStrv) maps = NULL;
	g_autofree char *time_column = NULL;
	g_autofree char *time_shift = NULL;
	gboolean overlap_only = FALSE, quiet = FALSE;
	GOptionEntry entries[] = {
		{ "tol", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tols, "Tolerance of a column, e.g. vbus_V=abs:5mV,rel:1e-3 or *=abs:1e-6 (repeatable)", "COLUMN=abs:X,rel:Y" },
		{ "time-column", 0, 0, G_OPTION_ARG_STRING, &time_column, "The time column of both files (default: time_s, time, t, \"time [s]\" or \"Time(s)\")", "NAME" },
		{ "map", 0, 0, G_OPTION_ARG_STRING_ARRAY, &maps, "Compare A's column A_NAME with B's column B_NAME, e.g. 'Voltage(V)=vbus_V' (repeatable)", "A_NAME=B_NAME" },
		{ "overlap-only", 0, 0, G_OPTION_ARG_NONE, &overlap_only, "Compare where the time ranges overlap; different ranges are not a failure", NULL },
		{ "time-shift", 0, 0, G_OPTION_ARG_STRING, &time_shift, "A value also passes when it matches B anywhere within TIME of its row (events that moved by up to TIME)", "TIME" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print only the verdict line", NULL },
		G_OPTION_ENTRY_NULL,
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("A.csv B.csv - compare trace A against the reference B");
	g_autoptr(cs_tolerances) tol = cs_tolerances_new();
	g_autoptr(cs_csv_trace) a = NULL;
	g_autoptr(cs_csv_trace) b = NULL;
	g_autoptr(cs_diff) d = NULL;
	struct cs_csv_read_opts ro = { 0 };
	struct cs_diff_opts dopts = { 0 };

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Reads two CSV files with a header row (chargesim's trace.csv, or any other CSV\n"
		"with a time column in seconds, such as a USB power meter capture) and compares\n"
		"every column the two share. B is the reference: its values are interpolated\n"
		"linearly onto each row time of A, and a value passes when\n"
		"    |A - B| <= abs + rel * |B|\n"
		"with abs and rel from the column's --tol, else from the \"*\" entry, else 0:\n"
		"a column without a tolerance must match exactly. Text columns (charger_state)\n"
		"must match exactly at every row. Columns only in one file are listed, not\n"
		"compared (--map pairs columns named differently). The two time ranges must\n"
		"agree (within the time column's tolerance) unless --overlap-only.\n"
		"--time-shift T lets events move: a value (or a label) of A also passes when\n"
		"B takes it, within tolerance, anywhere from T before to T after A's row.\n"
		"\n"
		"Values of --tol may carry a unit of the column's dimension (_V, _A, _s, _W in\n"
		"the name, or \"(V)\", \"[A]\"): abs:5mV, abs:2ms; rel is a number or a percentage.\n"
		"\n"
		"Examples:\n"
		"  chargesim diff out/new/trace.csv golden/trace.csv --tol '*=abs:1e-6' \\\n"
		"      --tol vbus_V=abs:5mV,rel:1e-3 --tol soc=abs:0.1%\n"
		"  chargesim diff meter.csv out/demo/trace.csv --overlap-only \\\n"
		"      --map 'Voltage(V)=vbus_V' --map 'Current(A)=ibus_A' --tol '*=rel:2%'\n"
		"  chargesim diff out/adaptive/trace.csv out/fixed/trace.csv --time-shift 1s \\\n"
		"      --tol '*=abs:1e-6,rel:1e-3' --tol vbus_V=abs:2mV --tol soc=abs:1e-4\n"
		"\n"
		"Exit status: 0 every compared column within tolerance, 1 a column (or the time\n"
		"range) is not, 2 bad usage or an unreadable file. See docs/diff.md.");
	if (!cli_parse(ctx, &argc, &argv))
		return CLI_EXIT_USAGE;
	if (argc != 3) {
		cli_error("diff: expected two CSV files A and B, found %d argument%s (see --help)",
			  argc - 1, argc == 2 ? "" : "s");
		return CLI_EXIT_USAGE;
	}
	if (time_shift) {
		g_autoptr(GError) err = NULL;
		sim_time_t ts;

		if (!units_parse_time(time_shift, &ts, &err) || ts < 0) {
			cli_error("--time-shift: %s", err ? err->message :
				  "expected a time of at least 0 such as \"100 ms\"");
			return CLI_EXIT_USAGE;
		}
		dopts.time_shift = sim_time_to_s(ts);
	}
	ro.time_column = time_column;
	a = read_trace(argv[1], &ro);
	b = a ? read_trace(argv[2], &ro) : NULL;
	if (!b || !apply_maps(a, maps) || !add_tolerances(tol, tols, a, b))
		return CLI_EXIT_USAGE;
	dopts.tol = tol;
	dopts.overlap_only = overlap_only;
	d = cs_diff_traces(a, b, &dopts);
	if (quiet)
		print_verdict(d);
	else
		print_report(d, a, b);
	return d->pass ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}
