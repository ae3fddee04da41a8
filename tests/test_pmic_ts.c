// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_pmic_ts.c - the charger's thermistor (TS) input against the datasheets'
 * numbers: the bq25890's JEITA steps (SLUSC86: 20 % of ICHG from 0 to 10 C, VREG -
 * 200 mV from 45 to 60 C, suspended outside 0 to 60 C) and the bq24190's cold/hot
 * window (SLUSAW5: 0 to 45 C), the hysteresis on the way back, the cell's own heating
 * feeding the input, chips without one; and thermal regulation (TREG) of the die.
 */
#include <math.h>
#include <string.h>
#include "models/pmic/pmic.h"
#include "run/scenario.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* A bq25890 (or `preset`) on a stiff 3 A port and cable, its input limit at 3 A (the
 * fixed policy's one limit), no system load, the cell at `temp`: the charge current is
 * the charger's own; `extra` goes into the scenario's top level. */
static char *ts_scenario(const char *preset, const char *temp, const char *soc, const char *dur,
			 const char *extra)
{
	return g_strdup_printf(
		"{ \"name\": \"ts\", \"duration\": \"%s\", \"source\": { \"kind\": \"dcp\", \"ilim\": \"3 A\","
		"  \"rout\": \"0.01 ohm\" }, \"cable\": { \"r_loop\": \"0.02 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"%s\" },"
		"    \"battery\": { \"soc\": \"%s\", \"temperature\": \"%s\" }, \"load\": { \"current\": 0 } },"
		"  \"policy\": { \"name\": \"fixed\", \"params\": { \"ilim\": \"3 A\" } }%s%s }",
		dur, preset, soc, temp, extra ? ", " : "", extra ? extra : "");
}

/* The trace row at or after time t. */
static const double *row_at(const struct tu_run *r, double t)
{
	int tc = tu_col(r, "time_s");

	for (guint i = 0; i < r->rows->len; i++) {
		const double *row = g_ptr_array_index(r->rows, i);

		if (row[tc] >= t)
			return row;
	}
	return g_ptr_array_index(r->rows, r->rows->len - 1);
}

/* A cell at 5 C is in the bq25890's cool zone (T1 0 C to T2 10 C): it charges at 20 %
 * of ICHG, 0.2 * 2.048 A = 409.6 mA; at 25 C the full 2.048 A (the input allows it:
 * 3 A at 5 V is 15 W, more than 2.048 A into a 3.9 V cell takes). */
static void test_cool_ichg(void)
{
	g_autofree char *cool = ts_scenario("bq25890", "5 C", "30 %", "2 min", NULL);
	g_autofree char *room = ts_scenario("bq25890", "25 C", "30 %", "2 min", NULL);
	struct tu_run r;
	const cJSON *ev;

	CU_ASSERT_FATAL(tu_run(&r, cool) && tu_read_trace(&r));
	CS_ASSERT_NEAR(row_at(&r, 60)[tu_col(&r, "ibat_A")], 0.2 * 2.048, 1e-6);
	ev = tu_event(&r, "ts_zone", NULL, NULL, 0);
	CU_ASSERT_STRING_EQUAL(tu_str(ev, "zone"), "cool");
	CS_ASSERT_NEAR(tu_event_time(ev), 0, 0);
	tu_done(&r);
	CU_ASSERT_FATAL(tu_run(&r, room) && tu_read_trace(&r));
	CS_ASSERT_NEAR(row_at(&r, 60)[tu_col(&r, "ibat_A")], 2.048, 1e-6);
	CU_ASSERT_EQUAL(tu_count(&r, "ts_zone"), 0);
	tu_done(&r);
}

/* A cell at 50 C is in the warm zone (T3 45 C to T5 60 C): from half charge it charges
 * at ICHG, then at constant voltage VREG - 200 mV = 4.208 - 0.2 = 4.008 V; the battery
 * never goes above it. */
static void test_warm_vreg(void)
{
	g_autofree char *warm = ts_scenario("bq25890", "50 C", "50 %", "1 h", NULL);
	struct tu_run r;
	int vc, sc;
	double vmax = 0;
	bool cv = false;

	CU_ASSERT_FATAL(tu_run(&r, warm) && tu_read_trace(&r));
	vc = tu_col(&r, "vbat_V");
	sc = tu_col(&r, "ibat_A");
	for (guint i = 0; i < r.rows->len; i++) {
		const double *row = g_ptr_array_index(r.rows, i);

		vmax = fmax(vmax, row[vc]);
		/* in CV: at VREG with the current tapering below ICHG */
		if (fabs(row[vc] - 4.008) < 1e-6 && row[sc] > 0.3 && row[sc] < 2.0)
			cv = true;
	}
	CS_ASSERT_NEAR(vmax, 4.008, 1e-6);
	CU_ASSERT_TRUE(cv);
	CU_ASSERT_STRING_EQUAL(tu_str(tu_event(&r, "ts_zone", NULL, NULL, 0), "zone"), "warm");
	tu_done(&r);
}

/* Above T5 (60 C) charging stops; it resumes only 2.0 K below (1.25 % of REGN), at
 * 58 C: a cell set to 61 C stops, at 59 C stays stopped, at 57.5 C charges again (in
 * the warm zone, at ICHG). */
static void test_hot_hysteresis(void)
{
	g_autofree char *s = ts_scenario("bq25890", "50 C", "30 %", "4 min",
		"\"events\": ["
		" { \"at\": \"60 s\", \"do\": \"set\", \"path\": \"device.battery.temperature\", \"value\": \"61 C\" },"
		" { \"at\": \"120 s\", \"do\": \"set\", \"path\": \"device.battery.temperature\", \"value\": \"59 C\" },"
		" { \"at\": \"180 s\", \"do\": \"set\", \"path\": \"device.battery.temperature\", \"value\": \"57.5 C\" } ]");
	struct tu_run r;
	int ic;

	CU_ASSERT_FATAL(tu_run(&r, s) && tu_read_trace(&r));
	ic = tu_col(&r, "ibat_A");
	CS_ASSERT_NEAR(row_at(&r, 50)[ic], 2.048, 1e-6);
	CS_ASSERT_NEAR(row_at(&r, 90)[ic], 0, 1e-9);
	CS_ASSERT_NEAR(row_at(&r, 150)[ic], 0, 1e-9);
	CS_ASSERT_NEAR(row_at(&r, 210)[ic], 2.048, 1e-6);
	CU_ASSERT_EQUAL(tu_count(&r, "ts_zone"), 3);   /* warm, hot, warm */
	CS_ASSERT_NEAR(tu_event_time(tu_event(&r, "ts_zone", "zone", "hot", 0)), 60, 1e-9);
	CS_ASSERT_NEAR(tu_event_time(tu_event(&r, "ts_zone", "zone", "warm", 1)), 180, 1e-9);
	CU_ASSERT_STRING_EQUAL(tu_str(tu_event(&r, "charger_state", "state", "off", 0), "state"),
			       "off");
	tu_done(&r);
}

/* The bq24190 has a cold/hot window, 0 to 45 C, no cool or warm step: at -1 C it does
 * not charge, at 0.5 C still not (0.9 K of hysteresis), at 1 C it charges (at its CV
 * voltage at once: the cold cell's resistance is high); at 44 C the full 2.048 A, at
 * 46 C none. */
static void test_bq24190_window(void)
{
	g_autofree char *s = ts_scenario("bq24190", "-1 C", "30 %", "3 min",
		"\"events\": ["
		" { \"at\": \"60 s\", \"do\": \"set\", \"path\": \"device.battery.temperature\", \"value\": \"0.5 C\" },"
		" { \"at\": \"120 s\", \"do\": \"set\", \"path\": \"device.battery.temperature\", \"value\": \"1 C\" } ]");
	g_autofree char *warm = ts_scenario("bq24190", "44 C", "30 %", "2 min", NULL);
	g_autofree char *hot = ts_scenario("bq24190", "46 C", "30 %", "2 min", NULL);
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, s) && tu_read_trace(&r));
	CS_ASSERT_NEAR(row_at(&r, 30)[tu_col(&r, "ibat_A")], 0, 1e-9);
	CS_ASSERT_NEAR(row_at(&r, 90)[tu_col(&r, "ibat_A")], 0, 1e-9);
	CU_ASSERT(row_at(&r, 150)[tu_col(&r, "ibat_A")] > 1.0);
	CU_ASSERT_EQUAL(tu_count(&r, "ts_zone"), 2);   /* cold at 0 s, normal at 120 s */
	CU_ASSERT_STRING_EQUAL(tu_str(tu_event(&r, "ts_zone", NULL, NULL, 1), "zone"), "normal");
	CS_ASSERT_NEAR(tu_event_time(tu_event(&r, "ts_zone", NULL, NULL, 1)), 120, 1e-9);
	tu_done(&r);
	CU_ASSERT_FATAL(tu_run(&r, warm) && tu_read_trace(&r));
	CS_ASSERT_NEAR(row_at(&r, 60)[tu_col(&r, "ibat_A")], 2.048, 1e-6);
	tu_done(&r);
	CU_ASSERT_FATAL(tu_run(&r, hot) && tu_read_trace(&r));
	CS_ASSERT_NEAR(row_at(&r, 60)[tu_col(&r, "ibat_A")], 0, 1e-9);
	tu_done(&r);
}

/* A chip without a TS input in its preset (generic-switching: ICHG 2 A) charges at
 * 70 C at its full 2 A and at -10 C too (at its CV voltage: the cold cell's resistance
 * is high), and logs no zone. */
static void test_no_ts(void)
{
	static const char *const temps[] = { "-10 C", "70 C" };

	for (size_t i = 0; i < G_N_ELEMENTS(temps); i++) {
		g_autofree char *s = ts_scenario("generic-switching", temps[i], "30 %", "2 min", NULL);
		struct tu_run r;

		CU_ASSERT_FATAL(tu_run(&r, s) && tu_read_trace(&r));
		if (i == 1) {
			CS_ASSERT_NEAR(row_at(&r, 60)[tu_col(&r, "ibat_A")], 2.0, 1e-6);
		} else {
			CU_ASSERT(row_at(&r, 60)[tu_col(&r, "ibat_A")] > 1.0);
		}
		CU_ASSERT_EQUAL(tu_count(&r, "ts_zone"), 0);
		tu_done(&r);
	}
}

/* The cell's own heating feeds the input: a cell at 44 C ambient with the thermal model
 * on warms under a 2 A charge and enters the warm zone when it passes 45 C, logged
 * there (the run steps to the crossing). */
static void test_self_heating(void)
{
	g_autofree char *s = g_strdup_printf(
		"{ \"name\": \"ts\", \"duration\": \"1 h\", \"source\": { \"kind\": \"dcp\", \"ilim\": \"3 A\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"bq25890\" },"
		"    \"battery\": { \"soc\": \"30 %%\", \"temperature\": \"44 C\", \"thermal\": true,"
		"                 \"r_thermal\": 40 }, \"load\": { \"current\": 0 } },"
		"  \"policy\": { \"name\": \"fixed\", \"params\": { \"ilim\": \"3 A\" } } }");
	struct tu_run r;
	const cJSON *ev;

	CU_ASSERT_FATAL(tu_run(&r, s));
	ev = tu_event(&r, "ts_zone", "zone", "warm", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	CS_ASSERT_NEAR(tu_num(ev, "temp_C"), 45, 1e-3);
	CU_ASSERT(tu_event_time(ev) > 0);
	tu_done(&r);
}

/* The presets' hysteresis in kelvin, worked out again from the datasheets' figures in
 * % of REGN: a 103AT thermistor, R(T) = R0 exp(B (1/T - 1/T0)), with B from the two
 * values SLUSAW5 gives (27.28 k at 0 C, 4.911 k at 45 C), in the divider RT1 from REGN
 * to TS and RT2 || R(T) to ground: V(TS)/REGN = p / (RT1 + p), p = RT2 R / (RT2 + R). */
static double ntc(double t_c, double b)
{
	return 27.28e3 * exp(b * (1 / (t_c + 273.15) - 1 / 273.15));
}

static double ts_ratio(double t_c, double b, double rt1, double rt2)
{
	double p = rt2 * ntc(t_c, b) / (rt2 + ntc(t_c, b));

	return p / (rt1 + p);
}

/* The temperature at which the divider gives `ratio` (it falls as T rises). */
static double ts_temp(double ratio, double b, double rt1, double rt2)
{
	double lo = -40, hi = 120;

	for (int i = 0; i < 100; i++) {
		double mid = 0.5 * (lo + hi);

		if (ts_ratio(mid, b, rt1, rt2) > ratio)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

static void test_ts_hysteresis_derivation(void)
{
	double b = log(27.28 / 4.911) / (1 / 273.15 - 1 / 318.15);
	struct pmic_params p;
	double lo = 1, hi = 1e7, rt1, rt2;

	CS_ASSERT_NEAR(b, 3311, 0.5);
	/* bq24190: the datasheet's own network (RT1 5.52 k, RT2 31.23 k); LTF 73.5 % with
	 * 0.4 % of hysteresis, HTF 47.2 %, TCO 44.7 % */
	pmic_params_default(&p, 1);
	CU_ASSERT_STRING_EQUAL(pmic_preset_names[1], "bq24190");
	CS_ASSERT_NEAR(p.ts.t1_hyst, ts_temp(0.731, b, 5.52e3, 31.23e3) -
				     ts_temp(0.735, b, 5.52e3, 31.23e3), 0.05);
	CS_ASSERT_NEAR(p.ts.t5_hyst, ts_temp(0.447, b, 5.52e3, 31.23e3) -
				     ts_temp(0.472, b, 5.52e3, 31.23e3), 0.05);
	/* bq25890: the network that puts T1 (73.25 %) at 0 C and T5 (34.375 %) at 60 C,
	 * RT1 = p(0 C) (1/0.7325 - 1) = p(60 C) (1/0.34375 - 1), solved for RT2 */
	for (int i = 0; i < 200; i++) {
		double mid = sqrt(lo * hi);
		double p0 = mid * ntc(0, b) / (mid + ntc(0, b));
		double p60 = mid * ntc(60, b) / (mid + ntc(60, b));

		if (p0 * (1 / 0.7325 - 1) > p60 * (1 / 0.34375 - 1))
			hi = mid;
		else
			lo = mid;
	}
	rt2 = lo;
	rt1 = rt2 * ntc(0, b) / (rt2 + ntc(0, b)) * (1 / 0.7325 - 1);
	pmic_params_default(&p, 2);
	CU_ASSERT_STRING_EQUAL(pmic_preset_names[2], "bq25890");
	CS_ASSERT_NEAR(p.ts.t1_hyst, ts_temp(0.7325 - 0.014, b, rt1, rt2) -
				     ts_temp(0.7325, b, rt1, rt2), 0.05);
	CS_ASSERT_NEAR(p.ts.t2_hyst, ts_temp(0.6825 - 0.014, b, rt1, rt2) -
				     ts_temp(0.6825, b, rt1, rt2), 0.05);
	CS_ASSERT_NEAR(p.ts.t3_hyst, ts_temp(0.4475, b, rt1, rt2) -
				     ts_temp(0.4475 + 0.01, b, rt1, rt2), 0.05);
	CS_ASSERT_NEAR(p.ts.t5_hyst, ts_temp(0.34375, b, rt1, rt2) -
				     ts_temp(0.34375 + 0.0125, b, rt1, rt2), 0.05);
}

/* Thermal regulation: a bq25890 with TREG at 80 C (REG08 TREG = 01, one of the
 * register's 60/80/100/120 C) at 60 C ambient may lose (80 - 60) / 32.2 = 0.6211 W;
 * with 92 % efficiency the loss is 8 % of the input, so the power out of the charger
 * is held at 0.92 / 0.08 * 0.6211 = 7.143 W (0.5 A of system load and the rest into the
 * battery) and the die at 80 C (within the 0.05 K the model lets it drift between
 * updates of the current, and the power out within 0.05/20 of its value). At 10 min the ambient falls to 40 C: the die drops
 * under 80 C at the full 2.048 A and regulation ends there. */
static void test_treg(void)
{
	g_autofree char *s = g_strdup_printf(
		"{ \"name\": \"tr\", \"duration\": \"12 min\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"3 A\", \"rout\": \"0.01 ohm\" },"
		"  \"cable\": { \"r_loop\": \"0.02 ohm\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"treg\": \"80 C\","
		"      \"ts\": { \"enabled\": false } },"
		"    \"battery\": { \"soc\": \"20 %%\", \"temperature\": \"60 C\" },"
		"    \"load\": { \"current\": \"0.5 A\" } },"
		"  \"policy\": { \"name\": \"fixed\", \"params\": { \"ilim\": \"3 A\" } },"
		"  \"events\": [ { \"at\": \"10 min\", \"do\": \"set\","
		"    \"path\": \"device.battery.temperature\", \"value\": \"40 C\" } ] }");
	double p_out = 0.92 / 0.08 * (80.0 - 60.0) / 32.2;
	struct tu_run r;
	int n = 0;

	CU_ASSERT_FATAL(tu_run(&r, s) && tu_read_trace(&r));
	for (guint i = 0; i < r.rows->len; i++) {
		const double *row = g_ptr_array_index(r.rows, i);
		double t = row[tu_col(&r, "time_s")];
		double pin = row[tu_col(&r, "vbus_V")] * row[tu_col(&r, "ibus_A")];
		double out = row[tu_col(&r, "vbat_V")] * row[tu_col(&r, "ibat_A")] +
			     row[tu_col(&r, "vsys_V")] * row[tu_col(&r, "iload_A")];

		if (t < 1 || t > 590)
			continue;
		/* held within the model's 0.05 K band around 80 C */
		CS_ASSERT_NEAR(out, p_out, 0.051 / 20 * p_out);
		CS_ASSERT_NEAR(60 + 32.2 * 0.08 * pin, 80, 0.051);
		n++;
	}
	CU_ASSERT(n > 5);
	CS_ASSERT_NEAR(row_at(&r, 700)[tu_col(&r, "ibat_A")], 2.048, 1e-6);
	CU_ASSERT_EQUAL(tu_count(&r, "treg_on"), 1);
	CS_ASSERT_NEAR(tu_event_time(tu_event(&r, "treg_off", NULL, NULL, 0)), 600, 1e-9);
	tu_done(&r);
}

/* Windows out of order are refused with their path. */
static void test_ts_errors(void)
{
	static const char text[] =
		"{ \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"ts\": { \"t2\": \"50 C\" } } } }";
	GError *err = NULL;
	struct scenario *sc = scenario_load_text("t.json", text, strlen(text), NULL, &err);

	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_TRUE(err && strstr(err->message, "device.pmic.ts: found t1 0 C, t2 50 C, t3 45 C") &&
		       strstr(err->message, "expected t1 <= t2 <= t3 <= t5"));
	g_clear_error(&err);
}

CU_TestInfo pmic_ts_tests[] = {
	{ "bq25890: a cool cell charges at 20 % of ICHG", test_cool_ichg },
	{ "bq25890: a warm cell's CV is VREG - 200 mV", test_warm_vreg },
	{ "bq25890: hot stops charging, resumes 2 K lower", test_hot_hysteresis },
	{ "bq24190: a 0 to 45 C window with hysteresis", test_bq24190_window },
	{ "presets without a TS input charge at any temperature", test_no_ts },
	{ "self-heating crosses into the warm zone", test_self_heating },
	{ "ts windows out of order refused", test_ts_errors },
	{ "preset hysteresis from the datasheets' % of REGN", test_ts_hysteresis_derivation },
	{ "thermal regulation holds the die at treg", test_treg },
	CU_TEST_INFO_NULL,
};
