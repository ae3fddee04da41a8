// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_policies.c - the charger policies' state machines against hand-computed
 * sequences.
 *
 * Each test builds a source whose VBUS-versus-current line is known exactly (an
 * ideal ADC and, where it matters, a continuous input-limit register, so that the
 * thresholds fall where the hand calculation puts them), runs the policy, and checks
 * its decisions against the sequence the policy's published rules produce.
 */
#include <math.h>
#include <string.h>
#include "tests/suites.h"
#include "tests/testutil.h"

#define REQUIRE_RUN(r, json) \
	do { \
		if (!tu_run((r), (json))) { \
			CU_FAIL("scenario did not run"); \
			tu_done(r); \
			return; \
		} \
	} while (0)

/*
 * twl4030: VBUS = 5.1 - 0.40686 * IBUS (Rout 0.13 + cable 0.27686 ohm), the linear
 * charger draws the whole limit (1.7 A of demand from a 30 % cell). The ramp starts
 * from the chip's 100 mA, climbs in 20 mA steps to the 500 mA plug target, then to the
 * 1.7 A target userspace sets after 1 s. VBUS at 860 mA: 5.1 - 0.34990 = 4.75010 V
 * (not low); at 880 mA: 4.74196 V < 4.75 V: step back to 860 mA and stop for good.
 */
static const char *const scn_twl_sag =
	"{ \"duration\": \"30 s\","
	"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.1 V\", \"rout\": \"0.13 ohm\", \"ilim\": \"3 A\" },"
	"  \"cable\": { \"r_loop\": \"0.27686 ohm\" },"
	"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\","
	"      \"iindpm\": { \"min\": \"0 A\", \"max\": \"1.7 A\", \"step\": 0, \"default\": \"100 mA\" },"
	"      \"adc\": { \"vbus\": { \"lsb\": 0, \"full_scale\": 0 } } },"
	"    \"battery\": { \"soc\": \"30 %\" }, \"load\": { \"current\": \"0 A\" } },"
	"  \"policy\": { \"name\": \"twl4030\", \"params\": { \"max\": \"1.7 A\", \"t_max_set\": \"1 s\" } } }";

static void test_twl4030_settles_below_sag(void)
{
	struct tu_run r;
	int n = 0;
	double last = NAN, prev = NAN;
	const cJSON *e;

	REQUIRE_RUN(&r, scn_twl_sag);
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_final_A"), 0.860, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_max_A"), 0.880, 1e-9);
	/* Every write is 20 mA above the previous one, except the final step back. */
	while ((e = tu_event(&r, "ilim_set", NULL, NULL, n++))) {
		prev = last;
		last = tu_num(e, "applied_mA");
		if (!isnan(prev) && n > 2 && last > prev)
			CU_ASSERT_DOUBLE_EQUAL(last - prev, 20.0, 1e-6);
	}
	CU_ASSERT_DOUBLE_EQUAL(last, 860.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(prev, 880.0, 1e-6);
	/* From 100 mA: 20 writes to 500 mA, 19 more to 880 mA, one back: 40 after the first. */
	CU_ASSERT_EQUAL(tu_count(&r, "ilim_set"), 41);
	tu_done(&r);
}

/*
 * twl4030 underflow: a 4.7 V adapter reads below 4.75 V at once; the limit starts at
 * the chip's 0 mA. The 2015 code subtracts one 20 mA step from an unsigned 0 and
 * wraps around to ~4.29e9 uA, which the register clamps to its 1.7 A maximum. With
 * the fix it stays at 0.
 */
static const char *scn_twl_underflow(bool fixed)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{ \"duration\": \"5 s\","
		 "  \"source\": { \"kind\": \"dcp\", \"voc\": \"4.7 V\", \"ilim\": \"3 A\" },"
		 "  \"device\": { \"pmic\": { \"preset\": \"twl4030\","
		 "      \"iindpm\": { \"min\": \"0 A\", \"max\": \"1.7 A\", \"step\": 0, \"default\": \"0 A\" } },"
		 "    \"battery\": { \"soc\": \"30 %%\" } },"
		 "  \"policy\": { \"name\": \"twl4030\", \"params\": { \"fix_underflow\": %s } } }",
		 fixed ? "true" : "false");
	return buf;
}

static void test_twl4030_unsigned_underflow(void)
{
	struct tu_run r;

	REQUIRE_RUN(&r, scn_twl_underflow(false));
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_final_A"), 1.7, 1e-9);
	tu_done(&r);
	REQUIRE_RUN(&r, scn_twl_underflow(true));
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_max_A"), 0.0, 1e-9);
	tu_done(&r);
}

/*
 * ec-ramp: VBUS = 5.1 - 0.4 * IBUS, too low below 4.5 V, i.e. above 1.5 A. The EC
 * enters RAMP from OVERCURRENT_DETECT, whose wait is one second; then it ramps
 * 500 + 64 k mA every 500 ms; 1524 mA (k = 16, written 1 + 15 * 0.5 s after entering
 * RAMP) is the first limit whose check, 500 ms later, reads VBUS 4.4904 V: back off
 * 128 mA to 1396 mA, STABILIZE at 1 + 16 * 0.5 = 9 s, and STABLE exactly 5 s later.
 */
static const char *const scn_ec_dip =
	"{ \"duration\": \"60 s\","
	"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.1 V\", \"rout\": \"0.3 ohm\", \"ilim\": \"3 A\" },"
	"  \"cable\": { \"r_loop\": \"0.1 ohm\" },"
	"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\", \"vindpm\": null, \"ichg\": \"3 A\","
	"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"3 A\", \"step\": 0, \"default\": \"500 mA\" } },"
	"    \"battery\": { \"soc\": \"50 %\" }, \"load\": { \"current\": \"500 mA\" } },"
	"  \"policy\": \"ec-ramp\" }";

static void test_ec_ramp_backoff_stable(void)
{
	struct tu_run r;
	double t_stab, t_stable, t_ramp;

	REQUIRE_RUN(&r, scn_ec_dip);
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_max_A"), 1.524, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_final_A"), 1.396, 1e-9);
	t_ramp = tu_event_time(tu_event(&r, "ec_ramp_state", "state", "ramp", 0));
	t_stab = tu_event_time(tu_event(&r, "ec_ramp_state", "state", "stabilize", 0));
	t_stable = tu_event_time(tu_event(&r, "ec_ramp_state", "state", "stable", 0));
	/* One second in OVERCURRENT_DETECT's wait, 16 increments of 500 ms. */
	CU_ASSERT_DOUBLE_EQUAL(t_stab - t_ramp, 1.0 + 16 * 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t_stable - t_stab, 5.0, 1e-9);
	/* The detect delay: the ramp starts 2 s after the charger was reported. */
	CU_ASSERT_DOUBLE_EQUAL(t_ramp - tu_event_time(tu_event(&r, "ec_ramp_state", "state", "detect_delay", 0)),
			       2.0, 1e-9);
	tu_done(&r);
}

/*
 * ec-ramp and the battery window: at 97 % the system does not draw full current, so
 * the EC stays in OVERCURRENT_DETECT at its 500 mA minimum and never ramps.
 */
static void test_ec_ramp_waits_when_full(void)
{
	struct tu_run r;
	g_autofree char *json = g_strdup(scn_ec_dip);
	char *p = strstr(json, "50 %");

	memcpy(p, "97 %", 4);
	REQUIRE_RUN(&r, json);
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_max_A"), 0.5, 1e-9);
	CU_ASSERT_PTR_NULL(tu_event(&r, "ec_ramp_state", "state", "ramp", 0));
	tu_done(&r);
}

/*
 * safe-ramp R2: a full cell with a 200 mA system draws about 0.2 A from the input,
 * below 90 % of the 500 mA start limit: the limit must never rise.
 */
static void test_safe_ramp_holds_when_draw_is_low(void)
{
	struct tu_run r;

	REQUIRE_RUN(&r,
		"{ \"duration\": \"10 min\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"1.1 A\" }, \"cable\": { \"r_loop\": \"0.1 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"vreg\": \"4.35 V\" },"
		"    \"battery\": { \"soc\": \"100 %\" }, \"load\": { \"current\": \"200 mA\" } },"
		"  \"policy\": \"safe-ramp\" }");
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_max_A"), 0.5, 1e-9);
	CU_ASSERT(tu_metric(&r, "ibus_max_A") < 0.45);
	tu_done(&r);
}

/*
 * safe-ramp R2/R3/R4 on a sagging source: VBUS = 5.1 - 0.4 * IBUS is below 4.75 V
 * above 875 mA. From 500 mA in 100 mA steps: 900 mA reads 4.74 V right after the
 * probe, so the limit goes back to the verified 800 mA (4.78 V), which becomes the
 * ceiling (until a minute of quiet allows one more step). Then at 20 s the adapter
 * weakens (Rout 0.3 -> 0.4 ohm: VBUS 4.70 V at 800 mA) with no probe in flight: R4
 * drops two steps, to 600 mA (4.80 V).
 */
static void test_safe_ramp_backoff(void)
{
	struct tu_run r;
	const cJSON *e;
	int n = 0;
	double last = NAN;

	REQUIRE_RUN(&r,
		"{ \"duration\": \"30 s\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.1 V\", \"rout\": \"0.3 ohm\", \"ilim\": \"3 A\" },"
		"  \"cable\": { \"r_loop\": \"0.1 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\", \"vindpm\": null, \"ichg\": \"3 A\","
		"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"3 A\", \"step\": 0, \"default\": \"500 mA\" } },"
		"    \"battery\": { \"soc\": \"50 %\" }, \"load\": { \"current\": \"500 mA\" } },"
		"  \"events\": [ { \"at\": \"20 s\", \"do\": \"set\", \"path\": \"source.rout\", \"value\": \"0.4 ohm\" } ],"
		"  \"policy\": \"safe-ramp\" }");
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_max_A"), 0.9, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_final_A"), 0.6, 1e-9);
	while ((e = tu_event(&r, "ilim_set", NULL, NULL, n++)))
		last = tu_num(e, "applied_mA");
	CU_ASSERT_DOUBLE_EQUAL(last, 600.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(tu_num(tu_event(&r, "ilim_set", NULL, NULL, 5), "applied_mA"), 800.0, 1e-6);
	/* 500 (start), 600, 700, 800, 900, back to 800, then 600: seven writes. */
	CU_ASSERT_EQUAL(tu_count(&r, "ilim_set"), 7);
	tu_done(&r);
}

/*
 * safe-ramp R7 on the same sagging source (VBUS < 4.75 V above 875 mA), without the
 * weakening: the 900 mA probe fails each time. After a minute of quiet the ceiling
 * allows 900 mA again; failing at the same level doubles the wait: the probes come
 * 60 s, 120 s and 240 s after the previous failure (each 0.1 s after its probe),
 * plus up to one 1 s check interval of latency while stable.
 */
static void test_safe_ramp_reprobe_backoff(void)
{
	static const double wait_s[] = { 60, 120, 240 };
	struct tu_run r;
	const cJSON *e;
	double probe[4];
	int n = 0, k = 0;

	REQUIRE_RUN(&r,
		"{ \"duration\": \"8 min\","
		"  \"source\": { \"kind\": \"dcp\", \"voc\": \"5.1 V\", \"rout\": \"0.3 ohm\", \"ilim\": \"3 A\" },"
		"  \"cable\": { \"r_loop\": \"0.1 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\", \"vindpm\": null, \"ichg\": \"3 A\","
		"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"3 A\", \"step\": 0, \"default\": \"500 mA\" } },"
		"    \"battery\": { \"soc\": \"50 %\" }, \"load\": { \"current\": \"500 mA\" } },"
		"  \"policy\": \"safe-ramp\" }");
	while ((e = tu_event(&r, "ilim_set", NULL, NULL, n++)) && k < 4)
		if (fabs(tu_num(e, "applied_mA") - 900.0) < 1e-6)
			probe[k++] = tu_event_time(e);
	CU_ASSERT_EQUAL_FATAL(k, 4);
	for (int i = 0; i < 3; i++) {
		double gap = probe[i + 1] - (probe[i] + 0.1);

		CU_ASSERT(gap >= wait_s[i] - 1e-6 && gap <= wait_s[i] + 1.0 + 1e-6);
	}
	/* Never above the failing level, and back to 800 mA after each probe. */
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_max_A"), 0.9, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "ilim_final_A"), 0.8, 1e-9);
	tu_done(&r);
}

/*
 * safe-ramp R8: the twl4030 model latches its charger off after VBUS drops below
 * UVLO until the input is restarted. A 5 ms dropout at 30.05 s comes while the ramp
 * is stable (a check each second): the first check after it, within 1 s, sees UVLO
 * with VBUS back above 4.75 V, the next one 100 ms later restarts the input, so the
 * restart lands 0.1-1.1 s after the dip; the charger is charging again (cc) after it,
 * and the limit is left alone (nothing was drawn, lowering it would not help).
 */
static void test_safe_ramp_restarts_latched_charger(void)
{
	struct tu_run r;
	const cJSON *e;
	double t_restart;
	int n = 0;

	REQUIRE_RUN(&r,
		"{ \"duration\": \"40 s\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"2 A\" }, \"cable\": { \"r_loop\": \"0.1 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\", \"vreg\": \"4.35 V\" },"
		"    \"battery\": { \"soc\": \"40 %\" }, \"load\": { \"current\": \"150 mA\" } },"
		"  \"events\": [ { \"at\": \"30.05 s\", \"do\": \"fault\", \"fault\": \"vbus_dropout\", \"for\": \"5 ms\" } ],"
		"  \"policy\": \"safe-ramp\" }");
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "uvlo_events"), 1, 0);
	e = tu_event(&r, "printk", NULL, NULL, 0);
	while (e && !strstr(cJSON_GetStringValue(cJSON_GetObjectItem(e, "msg")) ?: "", "restarting"))
		e = tu_event(&r, "printk", NULL, NULL, ++n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	t_restart = tu_event_time(e);
	CU_ASSERT(t_restart >= 30.05 + 0.1 && t_restart <= 30.05 + 1.1 + 1e-6);
	n = 0;
	while ((e = tu_event(&r, "charger_state", "state", "cc", n++)) && tu_event_time(e) < t_restart)
		;
	CU_ASSERT_PTR_NOT_NULL(e);
	n = 0;
	while ((e = tu_event(&r, "ilim_set", NULL, NULL, n++)))
		CU_ASSERT(tu_event_time(e) < 30.0 || tu_event_time(e) > 32.0);
	tu_done(&r);
}

/*
 * safe-ramp is not slower than the EC ramp on a healthy 2.4 A adapter: it starts
 * right after detection (no 2 s delay) and climbs 100 mA per 100 ms instead of
 * 64 mA per 500 ms, with the same VBUS margin never reached.
 */
static void test_safe_ramp_not_slower_than_ec(void)
{
	static const char *fmt =
		"{ \"duration\": \"1 h\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"2.4 A\", \"rout\": \"0.05 ohm\" },"
		"  \"cable\": { \"r_loop\": \"0.05 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"ichg\": \"3 A\", \"vreg\": \"4.35 V\" },"
		"    \"battery\": { \"soc\": \"20 %%\" }, \"load\": { \"current\": \"300 mA\" } },"
		"  \"policy\": \"%s\" }";
	struct tu_run a, b;
	g_autofree char *ja = g_strdup_printf(fmt, "safe-ramp");
	g_autofree char *jb = g_strdup_printf(fmt, "ec-ramp");
	double ta, tb;

	REQUIRE_RUN(&a, ja);
	if (!tu_run(&b, jb)) {
		CU_FAIL("ec-ramp run failed");
		tu_done(&a);
		tu_done(&b);
		return;
	}
	ta = tu_metric(&a, "time_to_soc_80_s");
	tb = tu_metric(&b, "time_to_soc_80_s");
	CU_ASSERT(isfinite(ta) && isfinite(tb));
	CU_ASSERT(ta <= tb);
	CU_ASSERT(tu_metric(&a, "source_trips") == 0);
	tu_done(&a);
	tu_done(&b);
}

/* axp288 2015: extcon_register_notifier(EXTCON_NONE) fails with -EINVAL (-22). */
static void test_axp288_extcon_none(void)
{
	struct tu_run r;
	const cJSON *e;
	bool found = false;

	REQUIRE_RUN(&r,
		"{ \"duration\": \"5 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\" } },"
		"  \"policy\": { \"name\": \"axp288\", \"params\": { \"api\": \"2015\" } } }");
	for (int i = 0; (e = tu_event(&r, "printk", NULL, NULL, i)); i++) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "msg");

		found |= cJSON_IsString(m) && strstr(m->valuestring, "failed to register extcon notifier -22");
	}
	CU_ASSERT(found);
	CU_ASSERT_EQUAL(tu_count(&r, "ilim_set"), 0);
	tu_done(&r);
}

/*
 * charger-manager style monitor on a linear charger (no power path: after the
 * charger's own termination the 300 mA load discharges the cell): at the first poll
 * that sees Full the policy disables charging; it enables it again at the first poll
 * where the battery reads fullbatt_vchkdrop = 150 mV below the voltage seen at Full.
 */
static void test_fixed_fullbatt_vchkdrop(void)
{
	struct tu_run r;
	const cJSON *off, *on, *done;

	REQUIRE_RUN(&r,
		"{ \"duration\": \"6 h\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"2 A\" }, \"cable\": { \"r_loop\": \"0.05 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-linear\", \"vreg\": \"4.35 V\", \"iterm\": \"100 mA\" },"
		"    \"battery\": { \"soc\": \"95 %\" }, \"load\": { \"current\": \"300 mA\" } },"
		"  \"policy\": { \"name\": \"fixed\", \"params\": { \"polling\": \"30 s\" } } }");
	done = tu_event(&r, "charger_state", "state", "done", 0);
	off = tu_event(&r, "charge_enable", "on", "false", 0);
	on = tu_event(&r, "charge_enable", "on", "true", 0);
	CU_ASSERT_PTR_NOT_NULL(done);
	CU_ASSERT_PTR_NOT_NULL(off);
	CU_ASSERT_PTR_NOT_NULL(on);
	if (done && off && on) {
		double td = tu_event_time(done), toff = tu_event_time(off), ton = tu_event_time(on);

		/* Polls every 30 s from t = 30 s: the first one at or after "done". */
		CU_ASSERT(toff >= td && toff < td + 30.0 + 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(fmod(toff, 30.0), 0.0, 1e-6);
		CU_ASSERT(ton > toff + 30.0 - 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(fmod(ton, 30.0), 0.0, 1e-6);
	}
	/* The cell ran the load while charging was off, but the port delivered nothing
	 * then (no power path): that is not starving. */
	CU_ASSERT_EQUAL(tu_metric(&r, "discharged_while_plugged_s"), 0);
	tu_done(&r);
}

/*
 * discharged_while_plugged_s: a fixed 0.5 A limit under a 1.1 A system load. The
 * charger's input connects 0.1 s after plug-in (t_restart); from then the port
 * delivers 0.5 A and the battery makes up the rest until the load drops to 100 mA at
 * 60 s, after which the 0.5 A input charges it: 60 - 0.1 = 59.9 s of starving (the
 * crossing at 60 s is an event, so exact).
 */
static void test_discharged_while_plugged(void)
{
	struct tu_run r;

	REQUIRE_RUN(&r,
		"{ \"duration\": \"120 s\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"2 A\" }, \"cable\": { \"r_loop\": \"0.1 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"bq25890\" }, \"battery\": { \"soc\": \"50 %\" },"
		"    \"load\": { \"profile\": [ { \"at\": \"0 s\", \"current\": \"1.1 A\" },"
		"                           { \"at\": \"60 s\", \"current\": \"100 mA\" } ] } },"
		"  \"policy\": { \"name\": \"fixed\", \"params\": { \"ilim\": \"500 mA\" } } }");
	CU_ASSERT_DOUBLE_EQUAL(tu_metric(&r, "discharged_while_plugged_s"), 59.9, 1e-5);
	CU_ASSERT(tu_metric(&r, "soc_final") > 0.49 && tu_metric(&r, "soc_final") < 0.5);
	tu_done(&r);
}

CU_TestInfo policies_tests[] = {
	{ "twl4030 settles one step below the sag point", test_twl4030_settles_below_sag },
	{ "twl4030 unsigned step-back wraps to the cap (and the fix)", test_twl4030_unsigned_underflow },
	{ "ec-ramp backs off 128 mA, stable 5 s later", test_ec_ramp_backoff_stable },
	{ "ec-ramp waits above 95 %", test_ec_ramp_waits_when_full },
	{ "safe-ramp holds while the draw is below the limit", test_safe_ramp_holds_when_draw_is_low },
	{ "safe-ramp: one step back after a probe, two on a weakening source", test_safe_ramp_backoff },
	{ "safe-ramp: a probe failing at the same level doubles the re-probe wait", test_safe_ramp_reprobe_backoff },
	{ "safe-ramp restarts a charger latched off after a dip", test_safe_ramp_restarts_latched_charger },
	{ "safe-ramp reaches 80 % no later than ec-ramp", test_safe_ramp_not_slower_than_ec },
	{ "axp288 2015 registration fails with -EINVAL", test_axp288_extcon_none },
	{ "fixed: stop at full, restart after fullbatt_vchkdrop", test_fixed_fullbatt_vchkdrop },
	{ "discharged_while_plugged_s counts a load above the input limit", test_discharged_while_plugged },
	CU_TEST_INFO_NULL,
};
