// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_score.c - the score's definitions against hand calculations: the USB
 * budget a port grants (USB 2.0 and 3.2 section 9.6.3, BC1.2, Type-C Rp, a PD offer),
 * the oracle's choice among fixed limits, the regret, and what population files draw.
 */
#include <math.h>
#include <string.h>
#include <glib.h>
#include "run/population.h"
#include "run/scenario.h"
#include "run/score.h"
#include "tests/suites.h"

static double budget_of(const char *source, const char *gadget)
{
	g_autofree char *device = gadget ? g_strdup_printf(", \"device\": {\"gadget\": %s}", gadget) :
				  g_strdup("");
	g_autofree char *text = g_strdup_printf("{\"name\": \"b\", \"duration\": \"1 s\", "
						"\"source\": %s%s}", source, device);
	g_autoptr(GError) err = NULL;
	g_autoptr(scenario) sc = scenario_load_text("budget.json", text, strlen(text), NULL, &err);

	if (!sc) {
		fprintf(stderr, "\n  %s\n", err->message);
		return NAN;
	}
	return score_budget(sc);
}

static void test_budget(void)
{
	/* a USB 2.0 root port grants the 500 mA configuration (bMaxPower in 2 mA units) */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"sdp\"}", "{\"configs\": [\"500 mA\"]}"), 0.5, 1e-12);
	/* at SuperSpeed bMaxPower counts 8 mA units: 900 mA is 112 units, 896 mA */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"sdp-usb3\"}", "{\"configs\": [\"900 mA\"], \"usb3\": true}"),
		       0.896, 1e-12);
	/* the first configuration the port can power: 900 mA is too much for USB 2.0 */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"sdp\"}", "{\"configs\": [\"900 mA\", \"500 mA\"]}"), 0.5, 1e-12);
	/* a bus-powered hub's port powers 100 mA: no configuration fits, 100 mA unconfigured */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"sdp\", \"port\": \"hub\"}", "{\"configs\": [\"500 mA\"]}"),
		       0.1, 1e-12);
	/* BC1.2: a charging downstream port gives 1.5 A */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"cdp\"}", NULL), 1.5, 1e-12);
	/* Type-C: the Rp advertisement */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"typec\", \"rp\": \"3.0A\"}", NULL), 3.0, 1e-12);
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"typec\", \"rp\": \"1.5A\"}", NULL), 1.5, 1e-12);
	/* PD: the highest-voltage offer's current */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 2A\"]}", NULL), 2.0, 1e-12);
	/* a dedicated charger grants no budget */
	CS_ASSERT_NEAR(budget_of("{\"kind\": \"dcp\"}", NULL), 0, 1e-12);
}

static struct score_result fixed_run(double goal, double soc_final, int trips, double limit_s)
{
	return (struct score_result){ .ok = true, .fits = true, .goal = goal, .t_full = -1,
				      .soc_final = soc_final, .trips = trips, .limit_s = limit_s };
}

static void test_oracle_and_regret(void)
{
	double grid[4] = { 0.5, 1.0, 1.5, 2.0 };
	struct score_result res[4] = {
		fixed_run(5000, 0.95, 0, 0),     /* slow and safe */
		fixed_run(3000, 0.97, 0, 10),    /* faster, 10 s in the port's limit */
		fixed_run(2000, 0.99, 0, 0),     /* above the 1 A budget: fastest, safe */
		fixed_run(1000, 0.99, 1, 0),     /* fastest of all, but it tripped */
	};
	struct score_setup s = { .soc0 = 0.2, .budget = 1.0, .n_grid = 4, .n_grid_budget = 2,
				 .grid = grid, .grid_res = res };
	struct score_result p = fixed_run(4500, 0.96, 0, 0), never = fixed_run(-1, 0.7, 0, 0);
	bool timed;

	/* the best safe limit within the budget; without it; out of the port's limit */
	CU_ASSERT_EQUAL(score_pick_oracle(&s, SCORE_ORACLE, 1.0), 1);
	CU_ASSERT_EQUAL(score_pick_oracle(&s, SCORE_ORACLE_FREE, 1.0), 2);
	CU_ASSERT_EQUAL(score_pick_oracle(&s, SCORE_ORACLE_OUT, 1.0), 0);
	CU_ASSERT_EQUAL(score_pick_oracle(&s, SCORE_ORACLE_OUT, 10.0), 1);
	s.oracle[SCORE_ORACLE] = 1;
	s.oracle[SCORE_ORACLE_FREE] = 2;
	/* 4500 s against 3000 s: 50 % slower */
	CS_ASSERT_NEAR(score_regret(&s, SCORE_ORACLE, &p, &timed), 0.5, 1e-12);
	CU_ASSERT(timed);
	CS_ASSERT_NEAR(score_regret(&s, SCORE_ORACLE_FREE, &p, &timed), 1.25, 1e-12);
	/* never at 80 %: the whole 3 h against 3000 s */
	CS_ASSERT_NEAR(score_regret(&s, SCORE_ORACLE, &never, &timed), 10800.0 / 3000 - 1, 1e-12);
	/* neither at 80 %: the SOC shortfall relative to the oracle's gain,
	 * (0.97 - 0.7) / (0.97 - 0.2) */
	res[1].goal = -1;
	CS_ASSERT_NEAR(score_regret(&s, SCORE_ORACLE, &never, &timed), 0.27 / 0.77, 1e-12);
	CU_ASSERT(!timed);
	/* every limit trips: no oracle (censored) */
	for (int k = 0; k < 4; k++)
		res[k].trips = 1;
	CU_ASSERT_EQUAL(score_pick_oracle(&s, SCORE_ORACLE, 1.0), -1);
	CU_ASSERT_EQUAL(score_pick_oracle(&s, SCORE_ORACLE_FREE, 1.0), -1);
}

static const char pop_text[] =
	"{\"name\": \"t\", \"stream\": 5, \"classes\": {"
	" \"never\": {\"weight\": 0, \"draw\": {\"source.ilim\": \"1 A\"}},"
	" \"a\": {\"weight\": 1, \"draw\": ["
	"  {\"source.overload\": {\"choice\": {\"cc\": 0, \"latch\": 2}},"
	"   \"source.ilim\": {\"uniform\": [\"700 mA\", \"700 mA\"]},"
	"   \"cable.r_loop\": {\"share\": 0, \"uniform\": [\"0.1 ohm\", \"0.2 ohm\"]},"
	"   \"device.battery.capacity\": {\"uniform\": [\"2 Ah\", \"2 Ah\"]},"
	"   \"device.pmic.ichg\": {\"times\": \"device.battery.capacity\", \"uniform\": [0.5, 0.5],"
	"    \"min\": \"0.5 A\", \"max\": \"3 A\"}},"
	"  {\"when\": {\"source.overload\": [\"latch\"]}, \"draw\": {\"source.t_limit_max\": \"1 s\"},"
	"   \"else\": {\"source.t_limit_max\": \"2 s\"}}]}}}";

static void test_population(void)
{
	g_autoptr(GError) err = NULL;
	struct population pop;

	CU_ASSERT_FATAL(population_load_text("t.json", pop_text, strlen(pop_text), &pop, &err));
	for (int i = 0; i < 50; i++) {
		struct pop_setup s;

		population_setup(&pop, 1, i, &s);
		/* a class of weight 0 and a choice of weight 0 are never drawn; a share of 0
		 * never; a range of one value is that value; 0.5 C of 2 Ah is 1 A; the
		 * condition holds for every setup (latch) */
		CU_ASSERT_EQUAL(s.cls, 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(s.text, "\"overload\":\"latch\""));
		CU_ASSERT_PTR_NOT_NULL(strstr(s.text, "\"ilim\":\"700 mA\""));
		CU_ASSERT_PTR_NULL(strstr(s.text, "r_loop"));
		CU_ASSERT_PTR_NOT_NULL(strstr(s.text, "\"ichg\":\"1 A\""));
		CU_ASSERT_PTR_NOT_NULL(strstr(s.text, "\"t_limit_max\":\"1 s\""));
		pop_setup_clear(&s);
	}
	population_clear(&pop);
}

/* Setup i is the same whatever was drawn before it, and another seed draws another. */
static void test_population_stream(void)
{
	g_autoptr(GError) err = NULL;
	struct population pop;
	struct pop_setup a, b, c;

	CU_ASSERT_FATAL(population_load("default", &pop, &err));
	population_setup(&pop, 9, 17, &a);
	for (int i = 0; i < 5; i++) {
		population_setup(&pop, 9, i, &c);
		pop_setup_clear(&c);
	}
	population_setup(&pop, 9, 17, &b);
	CU_ASSERT_STRING_EQUAL(a.text, b.text);
	population_setup(&pop, 10, 17, &c);
	CU_ASSERT(strcmp(a.text, c.text) != 0);
	pop_setup_clear(&a);
	pop_setup_clear(&b);
	pop_setup_clear(&c);
	population_clear(&pop);
}

CU_TestInfo score_tests[] = {
	{ "USB budget: host configuration, CDP, Rp, PD offer", test_budget },
	{ "oracle: best safe fixed limit, three kinds; regret", test_oracle_and_regret },
	{ "population: weights, shares, ranges, times, conditions", test_population },
	{ "population: setup i independent of the others", test_population_stream },
	CU_TEST_INFO_NULL,
};
