/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/suites.h - the test suites, one CU_TestInfo table per tests/test_*.c file.
 *
 * Each file exports its table; tests/test_main.c lists them in one CU_SuiteInfo
 * table. Tests check behaviour against independent numbers (spec values, analytic
 * solutions, hand calculations), never against the code's own earlier output.
 */
#ifndef CS_TESTS_SUITES_H
#define CS_TESTS_SUITES_H

#include <stdbool.h>
#include <CUnit/CUnit.h>

extern CU_TestInfo queue_tests[];
extern CU_TestInfo policies_tests[];
extern CU_TestInfo units_tests[];
extern CU_TestInfo scenario_tests[];
extern CU_TestInfo bounds_tests[];
extern CU_TestInfo outputs_tests[];
extern CU_TestInfo trace_tests[];
extern CU_TestInfo stack_tests[];
extern CU_TestInfo board_glue_tests[];
extern CU_TestInfo physics_tests[];
extern CU_TestInfo charge_tests[];
extern CU_TestInfo sweep_tests[];
extern CU_TestInfo diff_tests[];
extern CU_TestInfo models_tests[];
extern CU_TestInfo budget_tests[];
extern CU_TestInfo load_profile_tests[];
extern CU_TestInfo pmic_ts_tests[];
extern CU_TestInfo sensing_tests[];
extern CU_TestInfo safe_ramp_linear_tests[];
extern CU_TestInfo source_tests[];
extern CU_TestInfo docs_tests[];
extern CU_TestInfo linux_layer_tests[];
extern CU_TestInfo linux_driver_tests[];
extern CU_TestInfo score_tests[];
/* Were real Linux drivers compiled into this build (a kernel source was there)? */
bool linux_drivers_built(void);

/* Compare doubles within an absolute tolerance, printing both on failure. */
#define CS_ASSERT_NEAR(actual, expected, tol) \
	CU_ASSERT_DOUBLE_EQUAL((actual), (expected), (tol))

#endif
