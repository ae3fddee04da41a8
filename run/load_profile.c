// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/load_profile.c - a load profile read from a CSV file, as a measured trace is.
 *
 * "device": {"load": {"profile": "phone-load.csv"}} names a CSV beside the scenario
 * (inside its directory tree, as golden files are: output/outfile.h
 * cs_path_confined()). Its header has a time_s column and one of current_A or power_W
 * (other columns, such as a meter's voltage, are ignored); each row is a step of the
 * draw from its time on, held until the next row, as in a JSON profile. The models
 * read no file (docs/architecture.md), so the scenario loader reads it here, checks
 * every row and gives the load model its steps (load_profile_set()). Errors name the
 * file, the line and the column:
 *   s.json: device.load.profile: load.csv: line 7, column "current_A": found -0.1, ...
 */
#include <string.h>
#include "models/load/load.h"
#include "output/outfile.h"
#include "run/scenario.h"
#include "traces/csv.h"

#define PROFILE_PATH "device.load.profile"
/* The largest file read: a week of a measured trace at 10 Hz (6 048 000 rows, under
 * LOAD_PROFILE_MAX_STEPS) at up to 88 bytes a row, room for a meter's few extra
 * columns. A larger file is refused before it is read. */
#define PROFILE_MAX_BYTES ((size_t)512 << 20)

/* The value column: exactly one of current_A and power_W. */
static int profile_value_col(const cs_csv_trace *tr, bool *is_power, GError **err)
{
	int ci = cs_csv_find_col(tr, "current_A");
	int pi = cs_csv_find_col(tr, "power_W");

	if (ci >= 0 && pi >= 0) {
		scenario_error(err, "%s: %s: found both current_A and power_W columns, expected one of them",
			       PROFILE_PATH, tr->file);
		return -1;
	}
	if (ci < 0 && pi < 0) {
		scenario_error(err, "%s: %s: found no current_A or power_W column, expected a header such as \"time_s,current_A\"",
			       PROFILE_PATH, tr->file);
		return -1;
	}
	*is_power = pi >= 0;
	return *is_power ? pi : ci;
}

/* The row of a column's first cell that is not a number (the reader keeps such a
 * column as text). */
static size_t profile_first_text(const cs_csv_trace *tr, const struct cs_csv_col *c)
{
	for (size_t i = 0; i < tr->nrows; i++) {
		char *end = NULL;
		const char *s = c->s[i];

		g_ascii_strtod(s, &end);
		while (end && g_ascii_isspace(*end))
			end++;
		if (!*s || end == s || (end && *end))
			return i;
	}
	return 0;
}

/* The steps of a read trace, each row checked: times from 0 and strictly ascending,
 * values finite (the reader checks that) and within the load's ranges. */
static bool profile_steps(const cs_csv_trace *tr, struct load_params *p, GError **err)
{
	g_autofree struct load_step *steps = NULL;
	const struct cs_csv_col *tc = &tr->cols[tr->time_col];
	const struct cs_csv_col *vc;
	bool is_power = false;
	int col = profile_value_col(tr, &is_power, err);
	double max = is_power ? LOAD_POWER_MAX_W : LOAD_CURRENT_MAX_A;

	if (col < 0)
		return false;
	vc = &tr->cols[col];
	if (tr->nrows > LOAD_PROFILE_MAX_STEPS)
		return scenario_error(err, "%s: %s: found %zu rows, expected at most %d (a week at 10 Hz fits)",
				      PROFILE_PATH, tr->file, tr->nrows, LOAD_PROFILE_MAX_STEPS);
	if (vc->is_label) {
		size_t i = profile_first_text(tr, vc);

		return scenario_error(err, "%s: %s: line %zu, column \"%s\": found \"%s\", expected a number",
				      PROFILE_PATH, tr->file, tr->line[i], vc->name, vc->s[i]);
	}
	steps = g_new(struct load_step, tr->nrows);
	for (size_t i = 0; i < tr->nrows; i++) {
		/* the reader refuses a time going backwards; a repeated one is ours */
		if (tc->v[i] < 0)
			return scenario_error(err, "%s: %s: line %zu, column \"%s\": found %.9g s, expected times from 0",
					      PROFILE_PATH, tr->file, tr->line[i], tc->name, tc->v[i]);
		if (i > 0 && tc->v[i] <= tc->v[i - 1])
			return scenario_error(err, "%s: %s: line %zu, column \"%s\": found %.9g s, the time of line %zu too, expected each row later than the one before",
					      PROFILE_PATH, tr->file, tr->line[i], tc->name, tc->v[i],
					      tr->line[i - 1]);
		if (!(vc->v[i] >= 0 && vc->v[i] <= max))
			return scenario_error(err, "%s: %s: line %zu, column \"%s\": found %.9g, expected a %s from 0 to %g %s",
					      PROFILE_PATH, tr->file, tr->line[i], vc->name, vc->v[i],
					      is_power ? "power" : "current", max, is_power ? "W" : "A");
		steps[i] = (struct load_step){ .at = sim_time_from_s(tc->v[i]),
					       .is_power = is_power, .value = vc->v[i] };
	}
	load_profile_set(p, g_steal_pointer(&steps), (int)tr->nrows);
	return true;
}

bool scenario_load_profile_csv(struct scenario *sc, GError **err)
{
	struct load_params *p = scenario_params(sc, "device.load");
	struct cs_csv_read_opts opts = { .time_column = "time_s", .max_bytes = PROFILE_MAX_BYTES };
	g_autofree char *why = NULL, *path = NULL;
	g_autoptr(cs_csv_trace) tr = NULL;
	GError *inner = NULL;

	if (!p || !p->profile_file)
		return true;
	path = cs_path_confined(sc->dir, p->profile_file, &why);
	if (!path)
		return scenario_error(err, "%s: found \"%s\", expected a CSV file inside %s (the scenario's directory): it %s",
				      PROFILE_PATH, p->profile_file, sc->dir, why);
	tr = cs_csv_read(path, &opts, &inner);
	if (!tr) {
		scenario_error(err, "%s: %s", PROFILE_PATH, inner->message);
		g_error_free(inner);
		return false;
	}
	return profile_steps(tr, p, err);
}
