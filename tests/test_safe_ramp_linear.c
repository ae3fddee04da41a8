// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_safe_ramp_linear.c - safe-ramp on a linear charger read through its charge
 * current (the twl4030: no input current ADC, no input regulation bits; docs/models.md,
 * Charger sensing): system load steps, a recharge, a dropout pin that climbs, a
 * power-limited adapter (docs/safe-ramp.md, "Reading what the chip exposes").
 *
 * Each setup is one of the regret benchmark's (bench_regret --write-scenarios), named
 * by population, seed and setup; the figures asserted are hand calculations from the
 * scenario's numbers or the run's own physics (the battery discharging while plugged).
 */
#include <math.h>
#include <CUnit/CUnit.h>
#include "tests/suites.h"
#include "tests/testutil.h"

/*
 * The default population's seed 1, setup 80: a twl4030 nearly full (constant voltage,
 * the charger getting all it asks: 0.34 A in), a 1.72 A hiccup adapter at 5.181 V behind
 * 0.1505 + 0.3436 ohm, the system load stepping from 0.1956 A to 0.9304 A at 3972 s. The
 * step raises IBUS along the line to the pass element's dropout, (5.181 - 4.663) /
 * 0.4941 = 1.049 A, and barely moves the charge current (0.143 to 0.118 A). Read as the
 * draw before plus what the charge current moved (0.31 A) with VBUS far below the line,
 * it was a knee: the limit went to 0.31 A, then to 0 A, and climbed back 100 mA a
 * minute while the battery carried the phone for 540 s. Now the limit goes under the
 * draw before and the ramp climbs back a verified step every 20 ms: the battery never
 * carries the phone, and the limit is under 0.9 A for well under a second.
 */
static void test_free_draw_load_step(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-free-draw-step\", \"duration\": \"5000 s\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.181 V\", \"rout\": \"0.1505 ohm\","
		"    \"ilim\": \"1.72 A\", \"overload\": \"hiccup\" },"
		"  \"cable\": { \"r_loop\": \"0.3436 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.244 A\" },"
		"    \"battery\": { \"soc\": \"57.45 %\", \"capacity\": \"2210 mAh\" },"
		"    \"load\": { \"profile\": [ { \"at\": \"0 s\", \"current\": \"0.1956 A\" },"
		"      { \"at\": \"3972 s\", \"current\": \"0.9304 A\" } ] } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CU_ASSERT_FATAL(tu_read_trace(&r));
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	CU_ASSERT(tu_metric(&r, "discharged_while_plugged_s") < 1);
	CU_ASSERT(tu_time_within(&r, "ilim_A", -INFINITY, 0.9, 3900) < 0.5);
	tu_done(&r);
}

/*
 * The field population's seed 3, setup 53 (bursty): a twl4030 behind a 1.421 A cc
 * adapter at 5.124 V (0.1692 + 0.2573 ohm), the system load 0.4 A with a 1.8 A burst of
 * 60 s every 600 s, more than the adapter gives. Each burst starts under a free draw
 * (the charge tapering), and one restarts a charge that had terminated (the charger
 * drawing nothing, the battery carrying the system). Read through the charge current,
 * bursts were knees at 0 mA, and the phone spent 5161 s of 3 h on its battery. Now the
 * limit stays near the adapter's wall through each burst: under 1 A for less than a
 * second in all, counted from after the first burst.
 */
static void test_bursts_and_recharge(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-bursts\", \"duration\": \"6000 s\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.124 V\", \"rout\": \"0.1692 ohm\","
		"    \"ilim\": \"1.421 A\", \"overload\": \"cc\" },"
		"  \"cable\": { \"r_loop\": \"0.2573 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"67.03 %\", \"capacity\": \"2443 mAh\" },"
		"    \"load\": { \"profile\": ["
		"      { \"at\": \"0 s\", \"current\": \"0.4 A\" }, { \"at\": \"600 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"660 s\", \"current\": \"0.4 A\" }, { \"at\": \"1200 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"1260 s\", \"current\": \"0.4 A\" }, { \"at\": \"1800 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"1860 s\", \"current\": \"0.4 A\" }, { \"at\": \"2400 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"2460 s\", \"current\": \"0.4 A\" }, { \"at\": \"3000 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"3060 s\", \"current\": \"0.4 A\" }, { \"at\": \"3600 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"3660 s\", \"current\": \"0.4 A\" }, { \"at\": \"4200 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"4260 s\", \"current\": \"0.4 A\" }, { \"at\": \"4800 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"4860 s\", \"current\": \"0.4 A\" }, { \"at\": \"5400 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"5460 s\", \"current\": \"0.4 A\" } ] } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CU_ASSERT_FATAL(tu_read_trace(&r));
	CS_ASSERT_NEAR(tu_metric(&r, "brownouts"), 0, 0);
	CU_ASSERT(tu_time_within(&r, "ilim_A", -INFINITY, 1.0, 700) < 1);
	tu_done(&r);
}

/*
 * The field population's seed 2, setup 324 (bursty, of 400): a twl4030 charging under a
 * dropout pin, the limit above it: a 2.21 A latch adapter at 4.953 V behind 0.269 +
 * 0.3701 ohm, the pin (4.953 - VBAT) / (0.6391 + r_on) about 1.09 A, the system load
 * 0.4 A with 1.8 A bursts. A burst pulls the cell down and the pin up the line (VBUS
 * falls 58 mV) while the charge current falls by 1.3 A: taken for a wall under the
 * draw, it was a knee at 0 mA at each burst from the second on. The limit must stay
 * above 0.9 A but for the checks that climb back, from the first burst on.
 */
static void test_pinned_load_step(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-pinned-step\", \"duration\": \"3700 s\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"4.953 V\", \"rout\": \"0.269 ohm\","
		"    \"ilim\": \"2.21 A\", \"overload\": \"latch\" },"
		"  \"cable\": { \"r_loop\": \"0.3701 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"41.5 %\", \"capacity\": \"2289 mAh\" },"
		"    \"load\": { \"profile\": ["
		"      { \"at\": \"0 s\", \"current\": \"0.4 A\" }, { \"at\": \"600 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"660 s\", \"current\": \"0.4 A\" }, { \"at\": \"1200 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"1260 s\", \"current\": \"0.4 A\" }, { \"at\": \"1800 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"1860 s\", \"current\": \"0.4 A\" }, { \"at\": \"2400 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"2460 s\", \"current\": \"0.4 A\" }, { \"at\": \"3000 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"3060 s\", \"current\": \"0.4 A\" }, { \"at\": \"3600 s\", \"current\": \"1.8 A\" },"
		"      { \"at\": \"3660 s\", \"current\": \"0.4 A\" } ] } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CU_ASSERT_FATAL(tu_read_trace(&r));
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	CU_ASSERT(tu_time_within(&r, "ilim_A", -INFINITY, 0.9, 590) < 1);
	tu_done(&r);
}

/*
 * The hard population's seed 4, setup 16 (thin cable): a twl4030 behind a 1.423 A cc
 * adapter at 5.062 V and 0.1952 + 0.6488 ohm, the system load stepping from 0.5243 A to
 * 1.459 A at 2386 s, more than the path gives. The pass element's dropout then pins the
 * input, (E - VBAT) / (R + r_on), a current that climbs as the cell discharges (VBUS
 * moving down the line a fraction of a mV a second). Held on the register value under
 * the pin, the limit was never re-probed: the charge current said IBUS had not moved,
 * and the phone browned out at 10429 s. Followed along the line, the pin reaches the
 * limit, R2 re-probes it, and the phone never browns out.
 */
static void test_pin_climbs(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-pin-climbs\", \"duration\": \"3 h\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.062 V\", \"rout\": \"0.1952 ohm\","
		"    \"ilim\": \"1.423 A\", \"overload\": \"cc\" },"
		"  \"cable\": { \"r_loop\": \"0.6488 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"10.26 %\", \"capacity\": \"3409 mAh\" },"
		"    \"load\": { \"profile\": [ { \"at\": \"0 s\", \"current\": \"0.5243 A\" },"
		"      { \"at\": \"2386 s\", \"current\": \"1.459 A\" } ] } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CS_ASSERT_NEAR(tu_metric(&r, "brownouts"), 0, 0);
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	CU_ASSERT(tu_metric(&r, "soc_final") > 0.03);
	tu_done(&r);
}

/*
 * The field population's seed 3, setup 137 (power-limited): a twl4030 behind a 5.703 W
 * latch brick at 4.974 V behind 0.07466 ohm (a 1.322 s overload timer) and 0.2704 ohm
 * of cable, a 0.6031 A load. The brick leaves its line where 4.974 I -
 * 0.07466 I^2 = 5.703: I = (4.974 - sqrt(4.974^2 - 4 * 0.07466 * 5.703)) / (2 *
 * 0.07466) = 1.1670 A. The 1.2 A probe's knee settled at 1.197 A, still in the power
 * limit (the charger's input current limit holds the probe, VBUS on the hyperbola),
 * and the brick latched off 1.3 s later for the rest of the run: the phone ran flat. Now
 * R5 settles under where the hyperbola meets the line on a linear charger too.
 */
static void test_power_limit(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-power-limit\", \"duration\": \"30 min\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"4.974 V\", \"rout\": \"0.07466 ohm\","
		"    \"ilim\": \"1.649 A\", \"overload\": \"latch\", \"t_limit_max\": \"1.322 s\","
		"    \"pmax\": \"5.703 W\" },"
		"  \"cable\": { \"r_loop\": \"0.2704 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"20.52 %\", \"capacity\": \"3627 mAh\" },"
		"    \"load\": { \"current\": \"0.6031 A\" } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	struct tu_run r;
	double knee = (4.974 - sqrt(4.974 * 4.974 - 4 * 0.07466 * 5.703)) / (2 * 0.07466);

	CU_ASSERT_FATAL(tu_run(&r, text));
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	CS_ASSERT_NEAR(tu_metric(&r, "brownouts"), 0, 0);
	CU_ASSERT(tu_metric(&r, "ilim_final_A") < knee);
	CU_ASSERT(tu_metric(&r, "ilim_final_A") > knee - 0.025);
	tu_done(&r);
}

CU_TestInfo safe_ramp_linear_tests[] = {
	{ "safe-ramp on the twl4030: a load step under a free draw is no knee", test_free_draw_load_step },
	{ "safe-ramp on the twl4030: bursts and a recharge they start are no knees", test_bursts_and_recharge },
	{ "safe-ramp on the twl4030: a load step under a pinned draw is no knee", test_pinned_load_step },
	{ "safe-ramp on the twl4030: a dropout pin that climbs is re-probed", test_pin_climbs },
	{ "safe-ramp on the twl4030: a power limit's knee is where its hyperbola meets the line", test_power_limit },
	CU_TEST_INFO_NULL,
};
