// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_main.c - runs every CUnit suite and prints "N passed, N failed".
 *
 * Usage: chargesim-tests [SUITE...]   (no argument: all suites)
 * The exit status is read from CU_get_number_of_tests_failed() before the registry
 * is cleaned up: CU_basic_run_tests() itself reports success even when tests fail.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/Basic.h>
#include "tests/suites.h"

static CU_SuiteInfo suites[] = {
	{ "queue", NULL, NULL, NULL, NULL, queue_tests },
	{ "units", NULL, NULL, NULL, NULL, units_tests },
	{ "scenario", NULL, NULL, NULL, NULL, scenario_tests },
	{ "bounds", NULL, NULL, NULL, NULL, bounds_tests },
	{ "outputs", NULL, NULL, NULL, NULL, outputs_tests },
	{ "trace", NULL, NULL, NULL, NULL, trace_tests },
	{ "stack", NULL, NULL, NULL, NULL, stack_tests },
	{ "board-glue", NULL, NULL, NULL, NULL, board_glue_tests },
	{ "physics", NULL, NULL, NULL, NULL, physics_tests },
	{ "charge", NULL, NULL, NULL, NULL, charge_tests },
	{ "sweep", NULL, NULL, NULL, NULL, sweep_tests },
	{ "diff", NULL, NULL, NULL, NULL, diff_tests },
	{ "policies", NULL, NULL, NULL, NULL, policies_tests },
	{ "models", NULL, NULL, NULL, NULL, models_tests },
	{ "budget", NULL, NULL, NULL, NULL, budget_tests },
	{ "load-profile", NULL, NULL, NULL, NULL, load_profile_tests },
	{ "pmic-ts", NULL, NULL, NULL, NULL, pmic_ts_tests },
	{ "sensing", NULL, NULL, NULL, NULL, sensing_tests },
	{ "safe-ramp-linear", NULL, NULL, NULL, NULL, safe_ramp_linear_tests },
	{ "source", NULL, NULL, NULL, NULL, source_tests },
	{ "docs", NULL, NULL, NULL, NULL, docs_tests },
	{ "linux", NULL, NULL, NULL, NULL, linux_layer_tests },
	{ "linux-drivers", NULL, NULL, NULL, NULL, linux_driver_tests },
	{ "score", NULL, NULL, NULL, NULL, score_tests },
	CU_SUITE_INFO_NULL,
};

static int suite_selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	CU_SuiteInfo selected[sizeof suites / sizeof suites[0]];
	size_t n = 0;
	unsigned failed, run;

	int skipped = 0;

	for (size_t i = 0; suites[i].pName; i++) {
		if (!suite_selected(suites[i].pName, argc, argv))
			continue;
		if (suites[i].pTests == linux_driver_tests && !linux_drivers_built()) {
			/* no kernel source at build time: say so in the summary */
			while (linux_driver_tests[skipped].pName)
				skipped++;
			continue;
		}
		selected[n++] = suites[i];
	}
	selected[n] = (CU_SuiteInfo)CU_SUITE_INFO_NULL;
	if (n == 0) {
		fprintf(stderr, "chargesim-tests: no suite matches the arguments\n");
		return 2;
	}

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (CU_register_suites(selected) != CUE_SUCCESS) {
		fprintf(stderr, "chargesim-tests: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	run = CU_get_number_of_tests_run();
	failed = CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	if (skipped)
		printf("%u passed, %u failed, %d skipped (linux-drivers: this build has no real Linux drivers, docs/linux-drivers.md)\n",
		       run - failed, failed, skipped);
	else
		printf("%u passed, %u failed\n", run - failed, failed);
	return failed ? 1 : 0;
}
