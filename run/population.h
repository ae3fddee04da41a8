/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/population.h - a population of charging setups, drawn by seed: the setups
 * `chargesim score` and bench/bench_regret run every policy on (docs/score.md,
 * "Populations").
 *
 * A population is data: a JSON file naming classes of setups, each with a weight and
 * the draws that make one of its setups - scenario paths (the words of a scenario
 * file: "source.voc", "device.battery.soc") each with a fixed value, a uniform range,
 * a weighted choice or a list to pick from, some only with a given share of the
 * setups. The default and hard mixes are such files (populations/, built in and
 * installed under PREFIX/share/chargesim/populations/). A file is checked as it is
 * loaded, like a scenario: every draw's values are tried on a scenario, and an error
 * names the file, the JSON path, what was found and what was expected.
 *
 * Setup i of a seed is a function of (population file, seed, i) only: the same
 * whatever the number of setups, the shard or the thread that draws it. Nothing here
 * knows a model: a setup is a scenario text.
 */
#ifndef CS_RUN_POPULATION_H
#define CS_RUN_POPULATION_H

#include <stdbool.h>
#include <glib.h>

#define POP_MAX_CLASSES 32
#define POP_MAX_DRAWS 64
#define POP_HORIZON "3 h"
#define POP_HORIZON_S (3 * 3600.0)

struct pop_list;

struct pop_class {
	char *name;
	double weight;
	struct pop_list *draws;
};

struct population {
	char *name;            /* the file's "name" */
	char *file;            /* as given (a built-in one: "default", "hard") */
	char *sha256;          /* of the file's text */
	char *text;            /* the file's text */
	bool has_stream;       /* the file's "stream": which random stream its setups take */
	guint32 stream;        /* (0: the plain (seed, index) one); else one from sha256 */
	int n_class;
	struct pop_class cls[POP_MAX_CLASSES];
	int n_column;          /* every draw's path, in order of first appearance */
	char *column[2048];
	bool column_set[2048]; /* false: a path drawn only to be read ("set": false) */
};

struct pop_setup {
	int index;
	int cls;
	char *name;            /* regret-SEED-INDEX-CLASS */
	char *text;            /* the scenario's JSON without its policy and closing brace */
	int n_values;
	char **values;         /* per population column, the value drawn (NULL: none) */
	double *numbers;       /* its number as drawn, before it was written to 4 digits */
};

/* The built-in populations' names, NULL-terminated ("default", "field", "hard"). */
extern const char *const pop_builtin_names[];
/* Load a population: a built-in name, or a file. False with err (CS_SCENARIO_ERROR,
 * "FILE: JSON-PATH: found X, expected Y") when it is not a valid population. */
bool population_load(const char *name_or_file, struct population *pop, GError **err);
/* The same from text (file names it in messages). */
bool population_load_text(const char *file, const char *text, gsize len, struct population *pop,
			  GError **err);
void population_clear(struct population *pop);
/* The index of a class by name, -1 when there is none. */
int population_class(const struct population *pop, const char *name);
/* Draw setup i of seed. */
void population_setup(const struct population *pop, guint32 seed, int i, struct pop_setup *s);
void pop_setup_clear(struct pop_setup *s);
/* The number a setup drew for path, exact (the scenario has it to 4 digits); NAN when
 * the setup drew none. */
double pop_setup_number(const struct population *pop, const struct pop_setup *s,
			const char *path);
/* The setup's scenario with this policy object (JSON text), complete: caller frees. */
char *pop_setup_scenario(const struct pop_setup *s, const char *policy_json);

#endif
