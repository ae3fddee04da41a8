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

/*
 * The default population's seed 6, setup 38 (linear): a twl4030 behind a 1.032 A hiccup
 * adapter without an overload timer at 4.971 V (0.2184 + 0.2716 ohm), a system load of
 * 1.036 A, more than the adapter gives. The knee read through the charge current came
 * at 1028 mA (a difference of two readings of 3.32 mA counts, taken a count low), and
 * the limit settled on 1.0253 A: the battery gave 11 mA for the whole 3 h, past the
 * 10 mA that counts as discharging while plugged, where a fixed limit over the wall
 * (the adapter held at it) leaves it 4 mA. Stepped up a register value (1.7 A / 1023)
 * at a time until VBUS leaves the line, the limit ends on the highest value under the
 * wall, 621 * 1.7 / 1023 = 1031.97 mA, and the battery gives 1.036 - 1.03197 = 4 mA.
 */
static void test_fine_wall(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-fine-wall\", \"duration\": \"30 min\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"4.971 V\", \"rout\": \"0.2184 ohm\","
		"    \"ilim\": \"1.032 A\", \"overload\": \"hiccup\" },"
		"  \"cable\": { \"r_loop\": \"0.2716 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"49.87 %\", \"capacity\": \"2891 mAh\" },"
		"    \"load\": { \"current\": \"1.036 A\" } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	const double reg = 1.7 / 1023;   /* the input limit register's step (A): 10 bits to 1.7 A */
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	CS_ASSERT_NEAR(tu_metric(&r, "uvlo_events"), 0, 0);
	CS_ASSERT_NEAR(tu_metric(&r, "ilim_final_A"), floor(1.032 / reg) * reg, 1e-6);
	CU_ASSERT(tu_metric(&r, "discharged_while_plugged_s") < 1);
	tu_done(&r);
}

/*
 * The field population's seed 2, setup 20 (short timer): a twl4030 behind a 1.468 A
 * hiccup adapter with a 477 ms overload timer at 5.191 V (0.283 + 0.181 ohm), a 55 mA
 * load. The approach to the wall (test_fine_wall) visits it once more for 20 ms, which
 * the timer allows; and as the cell's voltage rises the pass element's dropout current
 * nears the wall, and a limit over the wall pulls VBUS 28 mV under the line at 3721 s,
 * which a step of the approach could not tell from the line (the adapter latched off
 * 0.48 s later, three times in 3 h, when every knee was approached): a knee that close
 * to the line is not approached. The limit is on the highest register value under the
 * wall from the first knee until then.
 */
static void test_fine_wall_timer(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-fine-timer\", \"duration\": \"4000 s\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.191 V\", \"rout\": \"0.283 ohm\","
		"    \"ilim\": \"1.468 A\", \"overload\": \"hiccup\", \"t_limit_max\": \"477 ms\" },"
		"  \"cable\": { \"r_loop\": \"0.181 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"23.94 %\", \"capacity\": \"3753 mAh\" },"
		"    \"load\": { \"current\": \"0.0549 A\" } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	const double reg = 1.7 / 1023, top = floor(1.468 / reg) * reg;
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CU_ASSERT_FATAL(tu_read_trace(&r));
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	CS_ASSERT_NEAR(tu_metric(&r, "uvlo_events"), 0, 0);
	/* between R9's re-probes (each 0.14 s off the value) from the first knee on */
	CU_ASSERT(tu_time_within(&r, "ilim_A", top - 1e-6, top + 1e-6, 1) > 1900);
	tu_done(&r);
}

/*
 * The hard population's seed 4, setup 82 (linear): a twl4030 behind a 2.382 A cc adapter
 * at 5.053 V (0.2921 + 0.4735 ohm), a 1.1 A system load, more than the path gives: the
 * pass element in dropout pins the input at (5.053 - VBAT) / (0.7656 + 0.3) A (its
 * 0.3 ohm, docs/models.md), 1.0555 A at plug-in, climbing as the cell discharges. Held
 * on the register value under the pin as read (a count low), the limit sat 5 to 10 mA
 * under it, and the phone ended 0.53 SOC points under its start (0.12 under a fixed
 * 1.098 A limit): starved. Climbed a register value at a time while the charge current
 * follows, the hold is within 5 mA of the pin (8.4 mA before), which this checks against
 * the pin computed from the trace's VBAT until R9's first re-probe, 60 s after the first
 * knee (the pin then climbs away from the hold until each re-probe), and the limit
 * over the pin only for the checks of R9's probes and the climb's last steps (40 ms
 * each, under 5 s in all).
 */
static void test_pin_approach(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-pin-approach\", \"duration\": \"4200 s\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.053 V\", \"rout\": \"0.2921 ohm\","
		"    \"ilim\": \"2.382 A\", \"overload\": \"cc\" },"
		"  \"cable\": { \"r_loop\": \"0.4735 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"62.8 %\", \"capacity\": \"4579 mAh\" },"
		"    \"load\": { \"current\": \"1.1 A\" } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	struct tu_run r;
	int it, ii, iv, il;
	double far = 0, over = 0;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CU_ASSERT_FATAL(tu_read_trace(&r));
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	it = tu_col(&r, "time_s");
	ii = tu_col(&r, "ibus_A");
	iv = tu_col(&r, "vbat_V");
	il = tu_col(&r, "ilim_A");
	for (guint k = 0; k + 1 < r.rows->len; k++) {
		const double *row = g_ptr_array_index(r.rows, k), *next = g_ptr_array_index(r.rows, k + 1);
		double pin = (5.053 - row[iv]) / (0.2921 + 0.4735 + 0.3);

		CU_ASSERT(row[ii] <= pin + 1e-4);
		if (row[it] >= 10 && row[it] < 60 && row[ii] < pin - 0.005)
			far += next[it] - row[it];
		/* the limit over the pin only for the checks of a probe or a step */
		if (row[il] > pin + 1e-4)
			over += next[it] - row[it];
	}
	CU_ASSERT(far < 1);
	CU_ASSERT(over < 5);
	tu_done(&r);
}

/*
 * The default population's seed 4, setup 124 (linear, no safe fixed limit): a twl4030
 * behind a 0.6046 A hiccup adapter with a 1.581 s timer at 5.124 V (0.2962 + 0.3871
 * ohm), a 1.488 A load the port cannot carry: the phone runs flat and browns out at
 * about 4100 s whatever the limit. R9's re-probe at 5580 s then pulled VBUS past the
 * wall onto the empty cell, under the charger's UVLO. The knee's VBUS, moved by what
 * VBAT has fallen since, says where a probe past the wall takes VBUS: under the floor,
 * no re-probe, and no UVLO event in the 3 h.
 */
static void test_reprobe_under_floor(void)
{
	static const char text[] =
		"{ \"name\": \"twl4030-dead-phone\", \"duration\": \"3 h\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.124 V\", \"rout\": \"0.2962 ohm\","
		"    \"ilim\": \"0.6046 A\", \"overload\": \"hiccup\", \"t_limit_max\": \"1.581 s\" },"
		"  \"cable\": { \"r_loop\": \"0.3871 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1.7 A\" },"
		"    \"battery\": { \"soc\": \"34.7 %\", \"capacity\": \"3146 mAh\" },"
		"    \"load\": { \"current\": \"1.488 A\" } },"
		"  \"policy\": { \"name\": \"safe-ramp\" } }";
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, text));
	CS_ASSERT_NEAR(tu_metric(&r, "uvlo_events"), 0, 0);
	CS_ASSERT_NEAR(tu_metric(&r, "source_trips"), 0, 0);
	tu_done(&r);
}

CU_TestInfo safe_ramp_linear_tests[] = {
	{ "safe-ramp on the twl4030: a load step under a free draw is no knee", test_free_draw_load_step },
	{ "safe-ramp on the twl4030: bursts and a recharge they start are no knees", test_bursts_and_recharge },
	{ "safe-ramp on the twl4030: a load step under a pinned draw is no knee", test_pinned_load_step },
	{ "safe-ramp on the twl4030: a dropout pin that climbs is re-probed", test_pin_climbs },
	{ "safe-ramp on the twl4030: a power limit's knee is where its hyperbola meets the line", test_power_limit },
	{ "safe-ramp on the twl4030: a wall found a register value at a time", test_fine_wall },
	{ "safe-ramp on the twl4030: a knee near the line is not approached; a timer allows the visit", test_fine_wall_timer },
	{ "safe-ramp on the twl4030: a discharging phone's hold under a pin is found a register value at a time", test_pin_approach },
	{ "safe-ramp on the twl4030: no re-probe that would take VBUS onto an empty cell", test_reprobe_under_floor },
	CU_TEST_INFO_NULL,
};
