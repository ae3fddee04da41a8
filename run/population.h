/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/population.h - a population of charging setups, drawn by seed: the setups
 * `chargesim score` and bench/bench_regret run every policy on (docs/score.md).
 *
 * A population is a mix: a weight per class of setup (healthy adapters, a weak adapter
 * with a full battery, thin or long cables, linear chargers, hiccup and latch adapters
 * with overload timers, host ports with their USB budget, Type-C Rp and USB PD
 * sources). Setup i of a seed is a function of (seed, i, mix) only: the same whatever
 * the number of setups, the shard or the thread that draws it. A setup is a scenario
 * (its JSON text, without a policy) and the figures it was drawn from.
 */
#ifndef CS_RUN_POPULATION_H
#define CS_RUN_POPULATION_H

#include <stdbool.h>
#include <glib.h>

#define POP_NCLASS 8
#define POP_HORIZON "3 h"
#define POP_HORIZON_S (3 * 3600.0)

extern const char *const pop_class_names[POP_NCLASS];

struct population {
	char *name;                      /* "default", "hard", or the mix as given */
	double weight[POP_NCLASS];       /* a class's share (0: never drawn) */
};

/* What a setup was drawn from (score.csv's columns). ilim is NAN for a host port (its
 * own limit), load2_at < 0 when the load never changes. */
struct pop_desc {
	const char *kind, *overload, *pmic;
	double voc, rout, ilim, t_limit_max, r_cable, ichg, cap_ah, soc0, load, load2, load2_at;
};

struct pop_setup {
	int index;
	int cls;
	char *name;            /* regret-SEED-INDEX-CLASS */
	char *text;            /* the scenario's JSON without its policy and closing brace */
	struct pop_desc d;
	double budget;         /* A: the USB budget the port grants, 0 = none (a charger) */
};

/* "default", "hard" or "CLASS=WEIGHT,..." into pop (free with population_clear). */
bool population_mix(const char *spec, struct population *pop, GError **err);
void population_clear(struct population *pop);
/* Draw setup i of seed. */
void population_setup(const struct population *pop, guint32 seed, int i, struct pop_setup *s);
void pop_setup_clear(struct pop_setup *s);
/* The setup's scenario with this policy object (JSON text), complete: caller frees. */
char *pop_setup_scenario(const struct pop_setup *s, const char *policy_json);

#endif
