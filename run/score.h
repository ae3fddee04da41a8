/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/score.h - policies against the hindsight oracle on a population of setups: the
 * evaluation behind `chargesim score` and bench/bench_regret (docs/score.md).
 *
 * Every setup of the population (run/population.h) runs for the population's horizon
 *  - with the `fixed` policy at every input limit of the oracle's grid (grid_min_a,
 *    then grid_step_a steps, each rounded to the charger's register, up to the
 *    charger's largest limit);
 *  - with each policy under test.
 * The oracle of a setup is the best of the fixed limits in hindsight that is safe: no
 * source trip, no UVLO event, no brownout. Best is the shortest time to the goal (80 %
 * SOC; for a cell that starts at 80 % or more, the charger's termination), or where no
 * safe limit reaches the goal, the highest final SOC. Three oracles are kept:
 *  - the oracle: the safe limits at or below the port's USB budget (host ports,
 *    Type-C Rp, a PD contract), which is what a well-behaved device may draw;
 *  - the unbudgeted oracle: every safe limit, the budget ignored, so that a policy that
 *    honours the budget is seen against the speed it gives up;
 *  - the out-of-limit oracle: the budgeted safe limits that also keep the port out of
 *    its current limit (at most in_limit_s in it), what a policy can reach that does
 *    not know whether the adapter survives its limit.
 * A setup with no safe limit has no oracle (censored): it is counted and left out.
 *
 * A policy's regret on a setup is its time to the goal over the oracle's, minus one (a
 * run that never gets there counts the whole horizon), or where neither gets there,
 * the SOC shortfall at the end relative to the oracle's SOC gain (at least 5 points).
 *
 * Every run happens in this process on `jobs` threads sharing nothing but the read-only
 * setups; a result lands in its own slot, so the figures do not depend on `jobs`. Runs
 * of one real Linux driver go one after the other (its static variables exist once per
 * process: docs/linux-drivers.md); a driver is scored only on the setups whose charger
 * is its chip. Nothing here reads the clock or prints.
 */
#ifndef CS_RUN_SCORE_H
#define CS_RUN_SCORE_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>
#include "run/population.h"
#include "run/scenario.h"

#define CS_SCORE_ERROR (cs_score_error_quark())
GQuark cs_score_error_quark(void);
enum { CS_SCORE_ERROR_INPUT, CS_SCORE_ERROR_RUN };

#define SCORE_SOC_TARGET   0.80   /* "time to 80 %", the figure phone makers quote */
#define SCORE_SOC_FLOOR    0.05   /* a shortfall is relative to at least 5 SOC points */
#define SCORE_STARVE_SOC   0.005  /* SOC "fell" when it ended 0.5 points below the start */
#define SCORE_STARVE_EXTRA_S 300.0 /* or the battery carried the phone 5 min longer */
#define SCORE_BUDGET_TOL_A 0.005  /* above the budget by more than a rounding */
#define SCORE_MAX_POLICIES 16

/* The oracle's definition (docs/score.md, "The oracle"). */
struct score_oracle_def {
	double grid_min_a;     /* the first limit tried (default 0.10 A) */
	double grid_step_a;    /* the grid's step (default 0.05 A, bq25890's register step) */
	double in_limit_s;     /* out-of-limit oracle: time allowed in the port's limit (1 s) */
};
extern const struct score_oracle_def score_oracle_default;

/* A policy under test, as `run --policy` takes it (stack/policies/loader.h,
 * cs_policy_spec): "NAME" or "NAME:KEY=VALUE,..." - a built-in, a real driver
 * "linux/NAME", or a plugin FILE.so (the user's own), with parameters of its own. */
struct score_policy {
	char *spec;            /* as given: the policy's name in every output */
	char *name;            /* the policy (world_options.policy) */
	cJSON *params;         /* its parameters (world_options.policy_params), or NULL */
	char *json;            /* the policy object a scenario of it holds (--explain) */
	char *plugin;          /* FILE.so, or NULL */
	char *driver;          /* "linux/NAME" for a real driver, or NULL */
};

/* One run's figures (metrics.json's, by name). */
struct score_result {
	bool ok;               /* ran (false: failed, or the policy does not fit) */
	bool fits;             /* the policy runs on this setup's charger */
	double goal;           /* s to the goal, < 0: not reached */
	double t_full;         /* s to the first termination, < 0: none */
	double soc_final;
	double starve_s;       /* discharged_while_plugged_s */
	double starve_mah;     /* discharged_while_plugged_mAh */
	double limit_s;        /* time the port spent in its current limit */
	double ibus_max;
	int trips, uvlo, brownouts;
};

enum score_oracle_kind { SCORE_ORACLE, SCORE_ORACLE_FREE, SCORE_ORACLE_OUT, SCORE_N_ORACLES };
extern const char *const score_oracle_names[SCORE_N_ORACLES];

struct score_setup {
	struct pop_setup p;
	double soc0;           /* the cell's SOC at the start */
	double budget;         /* A: the USB budget the port grants, 0 = none (a charger) */
	double ilim_max;       /* A: the charger's largest input limit */
	const char *preset;    /* the charger's device.pmic preset */
	int n_grid;            /* limits tried */
	int n_grid_budget;     /* the first n_grid_budget of them are within the budget */
	double *grid;          /* A, as the register applies them */
	struct score_result *grid_res;
	struct score_result *pol_res;     /* one per policy */
	int oracle[SCORE_N_ORACLES];      /* index into grid, -1 = none (censored) */
};

struct score_options {
	const struct population *pop;
	guint32 seed;
	int n;                 /* setups 0 .. n-1 */
	int shard_i, shard_n;  /* run the setups i with i % shard_n == shard_i (0/1: all) */
	int jobs;              /* threads, at least 1 */
	struct score_oracle_def oracle;
	int n_pol;
	struct score_policy *pol;
};

struct score {
	int n_set;             /* the setups run (the shard's) */
	struct score_setup *set;
	int n_runs;
	int failed;            /* runs that failed (the first error is kept) */
	GError *first_error;
	int fail_status;       /* the worst exit status of a failed run (2 input, 3 internal) */
};

/* The USB budget (A) a scenario's port grants its device, 0 for a charger. */
double score_budget(const struct scenario *sc);

/* Parse a policy spec into pol (free with score_policy_clear); false with err (exit 2)
 * when it names no policy of this build and no plugin file that would load. */
bool score_policy_parse(const char *spec, struct score_policy *pol, GError **err);
void score_policy_clear(struct score_policy *pol);

/* Draw the shard's setups, run them all and pick the oracles. NULL with err on bad
 * input (a setup that does not load, bad options); a run that fails is counted in
 * ->failed, with the first error kept. */
struct score *score_run(const struct score_options *opt, GError **err);
void score_free(struct score *sc);

/* The grid index of setup s's oracle of this kind from its grid results (the budgeted
 * limits are the first n_grid_budget), -1 when no limit is safe. */
int score_pick_oracle(const struct score_setup *s, enum score_oracle_kind kind, double in_limit_s);
/* The regret of result p on setup s against oracle o (which exists); *timed: regret
 * in time, else an SOC shortfall. */
double score_regret(const struct score_setup *s, enum score_oracle_kind o,
		    const struct score_result *p, bool *timed);
bool score_starved(const struct score_setup *s, enum score_oracle_kind o,
		   const struct score_result *p);
bool score_over_budget(const struct score_setup *s, const struct score_result *p);

#endif
