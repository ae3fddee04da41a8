// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_models.c - the models' less travelled paths against hand calculations.
 *
 * The load's time profile and constant-power steps, the boot model's power-on rules,
 * the port's ratings, latch recovery and PD contract limit, the PHY's BC1.2 options,
 * unknown dividers, Rp changes and PD rules, the 4.2 V cell preset and the thermal
 * model, and the charger's register latency, ICO, safety timer, precharge, current
 * ladder and ADC. Every expected number is worked out in the comment above its test
 * from the parameters in the scenario text, the defaults docs/models.md gives with
 * their sources, or an analytic solution; none is an earlier output of the code. Bad
 * inputs check that the run is refused with a message naming the file, the JSON path
 * and what was expected.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include "models/battery/battery.h"
#include "models/cable/cable.h"
#include "models/load/load.h"
#include "models/model.h"
#include "models/phy/phy.h"
#include "models/pmic/pmic.h"
#include "models/source/source.h"
#include "sim/evlog.h"
#include "run/scenario.h"
#include "sim/sim.h"
#include "run/world.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* ---- helpers ---- */


/*
 * A run with probes: the scenario runs without output files; every events.jsonl
 * record is collected (printed and parsed back, as the file would be read) into a
 * struct tu_run so that tu_event()/tu_metric() work on it; the trace columns are
 * sampled exactly at the probe times (seconds, ascending).
 */
#define MR_MAX_PROBES 8

struct mr {
	struct tu_run r;
	struct scenario *sc;
	struct world *w;
	int n;
	sim_time_t at[MR_MAX_PROBES];
};

static void mr_collect(void *data, sim_time_t t, const char *src, const char *ev,
		       const cJSON *rec)
{
	GPtrArray *a = data;
	char *text = cJSON_PrintUnformatted(rec);
	cJSON *o = text ? cJSON_Parse(text) : NULL;

	(void)t;
	(void)src;
	(void)ev;
	cJSON_free(text);
	if (o)
		g_ptr_array_add(a, o);
}

static bool mr_run(struct mr *m, const char *json, int n, const double *t_s)
{
	GError *err = NULL;
	struct world_options wo = { 0 };

	memset(m, 0, sizeof(*m));
	g_assert(n <= MR_MAX_PROBES);
	m->n = n;
	for (int i = 0; i < n; i++)
		m->at[i] = sim_time_from_s(t_s[i]);
	m->r.ev = g_ptr_array_new_with_free_func((GDestroyNotify)cJSON_Delete);
	m->sc = scenario_load_text("models.json", json, strlen(json), NULL, &err);
	if (!m->sc)
		goto fail;
	wo.n_probes = n;
	wo.probe_at = m->at;
	m->w = world_new(m->sc, &wo, &err);
	if (!m->w)
		goto fail;
	world_add_event_listener(m->w, mr_collect, m->r.ev);
	if (!world_run(m->w, &err) || !world_finish(m->w, &err))
		goto fail;
	{
		/* Printed and parsed back, as metrics.json would be read. */
		cJSON *j = world_metrics_json(m->w);
		char *text = cJSON_PrintUnformatted(j);

		m->r.metrics = text ? cJSON_Parse(text) : NULL;
		cJSON_free(text);
		cJSON_Delete(j);
	}
	m->r.ok = m->r.metrics != NULL;
	return m->r.ok;
fail:
	fprintf(stderr, "\n  scenario failed: %s\n", err ? err->message : "?");
	g_clear_error(&err);
	return false;
}

static double mr_probe(const struct mr *m, int i, const char *col)
{
	double v;

	if (!m->w || i >= m->n || !world_probe_value(m->w, i, col, &v))
		return NAN;
	return v;
}

static void mr_done(struct mr *m)
{
	world_free(m->w);
	scenario_free(m->sc);
	tu_done(&m->r);
	memset(m, 0, sizeof(*m));
}

#define REQUIRE_MR(m, json, n, t) \
	do { \
		if (!mr_run((m), (json), (n), (t))) { \
			CU_FAIL("scenario did not run"); \
			mr_done(m); \
			return; \
		} \
	} while (0)

/* Time of the i-th event ev whose field key equals value (NAN when there is none). */
static double ev_time(const struct tu_run *r, const char *ev, const char *key,
		      const char *value, int i)
{
	return tu_event_time(tu_event(r, ev, key, value, i));
}

/*
 * A scenario that must be refused: loading it (or, if loading passes, building the
 * run) fails with a message that starts with the file name and contains every
 * needle (the JSON path and what was expected). The list ends with NULL.
 */
static bool refused(const char *json, ...)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load_text("models.json", json, strlen(json), NULL, &err);
	struct world *w = NULL;
	struct world_options wo = { 0 };
	const char *needle;
	bool ok = true;
	va_list ap;

	if (sc) {
		w = world_new(sc, &wo, &err);
		if (w) {
			fprintf(stderr, "\n  accepted a bad scenario: %s\n", json);
			world_free(w);
			scenario_free(sc);
			return false;
		}
		scenario_free(sc);
	}
	if (!err) {
		fprintf(stderr, "\n  refused without a message: %s\n", json);
		return false;
	}
	if (!g_str_has_prefix(err->message, "models.json: ")) {
		fprintf(stderr, "\n  message does not start with the file: %s\n", err->message);
		ok = false;
	}
	va_start(ap, json);
	while ((needle = va_arg(ap, const char *)))
		if (!strstr(err->message, needle)) {
			fprintf(stderr, "\n  message lacks \"%s\": %s\n", needle, err->message);
			ok = false;
		}
	va_end(ap);
	g_clear_error(&err);
	return ok;
}

#define REFUSED(json, ...) CU_ASSERT(refused(json, __VA_ARGS__, NULL))

static int pmic_preset(const char *name)
{
	for (int i = 0; pmic_preset_names[i]; i++)
		if (strcmp(pmic_preset_names[i], name) == 0)
			return i;
	g_assert_not_reached();
	return -1;
}

static int source_kind(const char *name)
{
	for (int i = 0; source_kind_names[i]; i++)
		if (strcmp(source_kind_names[i], name) == 0)
			return i;
	g_assert_not_reached();
	return -1;
}

/* ---- load: profile, constant power, override, brownout hysteresis ---- */

/*
 * No source; the cell at 50 % (OCV 3.829 V, R0 0.10 ohm, relaxed at t = 0). Profile:
 * 2 W from 0 s, 1 A from 2 s, 0.2 A from 4 s.
 *  t = 0: constant power from a relaxed cell, V = 3.829 - 0.1*I and V*I = 2 W:
 *     0.1 I^2 - 3.829 I + 2 = 0, I = (3.829 - sqrt(3.829^2 - 0.8))/0.2
 *     = (3.829 - 3.723069)/0.2 = 0.529656 A, VSYS = 2/0.529656 = 3.776034 V.
 *  t = 1 s: still 2 W whatever the RC voltages: VSYS * I_load = 2 W.
 *  t = 3 s: a current step: I_load = 1 A exactly, the battery gives it (I_bat = -1 A).
 *  t = 4.5 s: I_load = 0.2 A.
 */
static void test_load_profile_steps(void)
{
	static const double t[] = { 0, 1, 3, 4.5 };
	const char *json =
		"{ \"duration\": \"5 s\", \"source\": { \"kind\": \"none\" },"
		"  \"device\": { \"battery\": { \"soc\": \"50 %\" },"
		"    \"load\": { \"current\": \"0 A\", \"profile\": ["
		"      { \"at\": 0, \"power\": \"2 W\" }, { \"at\": \"2 s\", \"current\": \"1 A\" },"
		"      { \"at\": \"4 s\", \"current\": \"200 mA\" } ] } },"
		"  \"policy\": \"none\" }";
	const double i0 = (3.829 - sqrt(3.829 * 3.829 - 0.8)) / 0.2;
	struct mr m;

	REQUIRE_MR(&m, json, 4, t);
	ASSERT_NEAR(i0, 0.529656, 1e-6);
	ASSERT_NEAR(mr_probe(&m, 0, "iload_A"), i0, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 0, "vsys_V"), 2.0 / i0, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 0, "vsys_V"), 3.776034, 1e-6);
	ASSERT_NEAR(mr_probe(&m, 1, "vsys_V") * mr_probe(&m, 1, "iload_A"), 2.0, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 2, "iload_A"), 1.0, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 2, "ibat_A"), -1.0, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 3, "iload_A"), 0.2, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 3, "ibat_A"), -0.2, 1e-12);
	mr_done(&m);
}

/*
 * load_demand: the default draw is 250 mA (load.c); a power replaces the current
 * (1.5 W, no current); an override (the boot model owning the draw) wins over both
 * (0.8 A, no power).
 * Brownout at vsys_min 3.4 V, re-armed at 3.4 + LOAD_BROWNOUT_HYST_V = 3.5 V: 3.39 V
 * browns out, 3.45 V and 3.3 V do not again, 3.5 V re-arms, 3.39 V browns out again.
 * The margin is vsys_min - VSYS before (3.4 - 3.3 = 0.1) and VSYS - 3.5 after
 * (3.45 - 3.5 = -0.05); an unpowered device has -1 and re-arms.
 */
static void test_load_demand_and_brownout(void)
{
	struct load_params p;
	struct load l;
	struct sim s;
	struct evlog *log = evlog_new();
	double i, pw;

	load_params_default(&p);
	sim_init(&s, 1);
	load_init(&l, &p, &s, log, NULL, NULL);
	load_demand(&l, &i, &pw);
	ASSERT_NEAR(i, 0.25, 1e-15);
	ASSERT_NEAR(pw, 0, 0);
	p.power = 1.5;
	load_demand(&l, &i, &pw);
	ASSERT_NEAR(i, 0, 0);
	ASSERT_NEAR(pw, 1.5, 0);
	l.override = true;
	l.override_current = 0.8;
	load_demand(&l, &i, &pw);
	ASSERT_NEAR(i, 0.8, 0);
	ASSERT_NEAR(pw, 0, 0);

	ASSERT_NEAR(load_margin(&l, 3.3, true), 0.1, 1e-12);
	CU_ASSERT_TRUE(load_observe(&l, 3.39, true));
	CU_ASSERT_FALSE(load_observe(&l, 3.45, true));
	ASSERT_NEAR(load_margin(&l, 3.45, true), -0.05, 1e-12);
	CU_ASSERT_FALSE(load_observe(&l, 3.3, true));
	CU_ASSERT_FALSE(load_observe(&l, 3.5, true));
	CU_ASSERT_TRUE(load_observe(&l, 3.39, true));
	CU_ASSERT_EQUAL(l.brownouts, 2);
	ASSERT_NEAR(load_margin(&l, 3.0, false), -1, 0);
	CU_ASSERT_FALSE(load_observe(&l, 3.0, false));
	CU_ASSERT_TRUE(load_observe(&l, 3.0, true));
	CU_ASSERT_EQUAL(evlog_count(log), 3);
	load_cleanup(&l);
	sim_destroy(&s);
	evlog_free(log);
}

/* Bad profiles: each message names the entry's path and what was expected. */
static void test_load_profile_errors(void)
{
	REFUSED("{ \"device\": { \"load\": { \"profile\": { \"at\": 0 } } } }",
		"device.load.profile: found", "expected a list of at most 10000000");
	REFUSED("{ \"device\": { \"load\": { \"profile\": [ { \"at\": 0, \"current\": \"1 A\", \"power\": \"1 W\" } ] } } }",
		"device.load.profile[0]: found", "expected {\"at\": TIME, \"current\": A} or {\"at\": TIME, \"power\": W}");
	REFUSED("{ \"device\": { \"load\": { \"profile\": [ 5 ] } } }",
		"device.load.profile[0]: found 5", "expected {\"at\": TIME");
	REFUSED("{ \"device\": { \"load\": { \"profile\": [ { \"at\": 0, \"current\": \"1 A\" }, { \"at\": 1, \"current\": \"1 A\", \"volts\": 1 } ] } } }",
		"device.load.profile[1].volts: found an unknown key \"volts\"", "expected at, current or power");
	REFUSED("{ \"device\": { \"load\": { \"profile\": [ { \"at\": \"5 V\", \"current\": \"1 A\" } ] } } }",
		"device.load.profile[0].at: found \"5 V\"", "expected a time");
	REFUSED("{ \"device\": { \"load\": { \"profile\": [ { \"at\": 0, \"power\": \"5 A\" } ] } } }",
		"device.load.profile[0].power: found \"5 A\"", "expected a power");
	REFUSED("{ \"device\": { \"load\": { \"profile\": [ { \"at\": 0, \"power\": \"150 W\" } ] } } }",
		"device.load.profile[0]: found a step at 0 s of 150", "values from 0 to 100");
	REFUSED("{ \"device\": { \"load\": { \"profile\": [ { \"at\": \"-1 s\", \"current\": \"1 A\" } ] } } }",
		"device.load.profile[0]: found a step at -1 s", "expected times ascending from 0");
}

/* ---- the empty cell ---- */

/*
 * An empty cell gives no more charge (docs/models.md, Battery: pack protection).
 * No source until 700 s, the cell at 10 % under a constant 1 A system load: SOC falls
 * at 1/5400 per second plus self-discharge 0.02/2592000 per second, so the cell is
 * empty at t = 0.1 / (1/5400 + 0.02/2592000) = 539.9775 s: the protection opens
 * ("cutoff", reason "empty"), the cell's current is 0 from then on and VSYS, with
 * nothing else to feed it, collapses to 0 (the system draws nothing at 0 V). VSYS
 * fell below vsys_min (3.4 V) long before (323.66 s, docs/models.md, System load,
 * ex-l), so that is the one brownout. At 650 s the load drops to 300 mA; the port is
 * plugged at 700 s and the charger connects 100 ms later: 2.25 W on the output side
 * (0.5 A IINDPM) covers the 300 mA system at SYS_MIN (3.5 * 0.3 = 1.05 W), the rest
 * charges the cell, and the protection closes ("cutoff_end") at that instant.
 * Before: the cell went on delivering 1 A at "0 %" (OCV 3.3 V) for ever.
 */
static void test_battery_empty_cutoff(void)
{
	static const double t[] = { 600, 710 };
	const char *json =
		"{ \"duration\": \"720 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\" },"
		"    \"battery\": { \"soc\": \"10 %\" }, \"load\": { \"current\": \"1 A\","
		"      \"profile\": [ { \"at\": \"650 s\", \"current\": \"300 mA\" } ] } },"
		"  \"events\": [ { \"at\": \"700 s\", \"do\": \"plug\" } ],"
		"  \"policy\": \"none\" }";
	const double t_empty = 0.1 / (1.0 / 5400 + 0.02 / 2592000);
	struct mr m;

	REQUIRE_MR(&m, json, 2, t);
	ASSERT_NEAR(t_empty, 539.9775, 1e-4);
	ASSERT_NEAR(ev_time(&m.r, "cutoff", "reason", "empty", 0), t_empty, 1e-4);
	CU_ASSERT_EQUAL(tu_count(&m.r, "cutoff"), 1);
	ASSERT_NEAR(mr_probe(&m, 0, "ibat_A"), 0, 0);
	ASSERT_NEAR(mr_probe(&m, 0, "soc"), 0, 0);
	ASSERT_NEAR(mr_probe(&m, 0, "vsys_V"), 0, 0);
	ASSERT_NEAR(mr_probe(&m, 0, "iload_A"), 0, 0);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "brownouts"), 1);
	ASSERT_NEAR(ev_time(&m.r, "brownout", NULL, NULL, 0), 323.6618, 1e-3);
	ASSERT_NEAR(ev_time(&m.r, "cutoff_end", NULL, NULL, 0), 700.1, 1e-9);
	CU_ASSERT(mr_probe(&m, 1, "ibat_A") > 0.1);
	ASSERT_NEAR(mr_probe(&m, 1, "vsys_V"), 3.5, 1e-9);
	CU_ASSERT(mr_probe(&m, 1, "soc") > 0);
	CU_ASSERT(tu_metric(&m.r, "energy_balance_error") < 1e-3);
	mr_done(&m);
}

/*
 * No brownout at t = 0 (issue: a scenario with no system load logged one). The cell
 * at 0 % reads its OCV, 3.3 V, below vsys_min 3.4 V, until the charger's input
 * connects at t_restart = 0.1 s and holds VSYS at SYS_MIN, 3.5 V: that is where the
 * run starts, not a system browning out. With no load the empty cell does not
 * discharge, so its protection stays closed.
 */
static void test_load_no_brownout_at_start(void)
{
	static const double t[] = { 0.05, 0.2 };
	const char *json =
		"{ \"duration\": \"1 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\" },"
		"    \"battery\": { \"soc\": \"0 %\" }, \"load\": { \"current\": \"0 A\" } },"
		"  \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 2, t);
	ASSERT_NEAR(mr_probe(&m, 0, "vsys_V"), 3.3, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 1, "vsys_V"), 3.5, 1e-9);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "brownouts"), 0);
	CU_ASSERT_EQUAL(tu_count(&m.r, "brownout"), 0);
	CU_ASSERT_EQUAL(tu_count(&m.r, "cutoff"), 0);
	mr_done(&m);
}

/* ---- full charge and the OCV table ---- */

/*
 * A CV charge to VREG that terminates at ITERM leaves the cell at an OCV of about
 * VREG - ITERM*(R0 + R1 + R2) (docs/models.md, Battery); above the OCV table's 100 %
 * point SOC passes 1.
 * (a) Every preset pairing ends at or below 100 %: for each charger and cell preset,
 *     VREG - ITERM*(0.1 + 0.047 + 0.05) against the cell's OCV at 100 % (4.328 V, or
 *     4.2 V for generic-4v2), computed here from the presets' values.
 * (b) The demo charges the default cell to 4.34 V (the cell's own maximum charge
 *     voltage, Linux samsung-sdi-battery.c) with 75 mA termination: 4.34 - 0.075*0.197
 *     = 4.325225 V < 4.328 V, so no warning and SOC ends at or below 1 (issue: it
 *     read 100.3 % at 4.35 V).
 * (c) A table whose 100 % point is 4.2 V under a 4.35 V charge with 150 mA
 *     termination: 4.35 - 0.15*0.197 = 4.32045 V > 4.2 V: a "warning" record at
 *     t = 0 with those numbers, and the terminated charge ends above SOC 1.
 */
static void test_full_charge_vs_ocv_table(void)
{
	const char *json =
		"{ \"duration\": \"3 h\", \"source\": { \"kind\": \"dcp\", \"ilim\": \"3 A\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\", \"vreg\": \"4.35 V\","
		"      \"ichg\": \"1 A\", \"iterm\": \"150 mA\", \"vindpm\": null,"
		"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"3 A\", \"step\": \"50 mA\", \"default\": \"3 A\" } },"
		"    \"battery\": { \"soc\": \"50 %\", \"ocv\": [[0, 3.3], [0.5, 3.8], [1, 4.2]] },"
		"    \"load\": { \"current\": \"0 A\" } },"
		"  \"policy\": \"none\" }";
	struct mr m;
	const cJSON *w;

	for (int cp = 0; battery_preset_names[cp]; cp++) {
		struct battery_params bp;

		battery_params_default(&bp, cp);
		for (int pp = 0; pmic_preset_names[pp]; pp++) {
			struct pmic_params p;
			double end;

			pmic_params_default(&p, pp);
			end = p.vreg - p.iterm * (0.1 + 0.047 + 0.05);
			CU_ASSERT(end <= bp.ocv_v[bp.ocv_n - 1]);
			CU_ASSERT(tu_near(bp.ocv_soc[bp.ocv_n - 1], 1, 0, "table top at 100 %"));
		}
	}

	{
		g_autofree char *text = NULL;

		CU_ASSERT(g_file_get_contents("scenarios/demo.json", &text, NULL, NULL));
		if (text && mr_run(&m, text, 0, NULL)) {
			CU_ASSERT_EQUAL(tu_count(&m.r, "warning"), 0);
			CU_ASSERT(tu_metric(&m.r, "soc_final") <= 1.0);
			CU_ASSERT(tu_metric(&m.r, "time_to_full_s") > 0);
		} else {
			CU_FAIL("the demo did not run");
		}
		mr_done(&m);
	}

	REQUIRE_MR(&m, json, 0, NULL);
	w = tu_event(&m.r, "warning", NULL, NULL, 0);
	CU_ASSERT(w != NULL);
	ASSERT_NEAR(tu_event_time(w), 0, 0);
	ASSERT_NEAR(tu_num(w, "ocv_end_V"), 4.35 - 0.15 * 0.197, 1e-9);
	ASSERT_NEAR(tu_num(w, "ocv_full_V"), 4.2, 1e-12);
	CU_ASSERT(tu_metric(&m.r, "time_to_full_s") > 0);
	CU_ASSERT(tu_metric(&m.r, "soc_final") > 1.0);
	mr_done(&m);
}

/* ---- boot ---- */

/*
 * power_on "always" on a dead cell without any source: OCV(0 %) = 3.3 V, a one-stage
 * boot drawing 1 A gives VSYS = 3.3 - 0.1*1 = 3.2 V < vsys_min 3.4 V: a brownout at
 * the instant of each power-on. "always" powers on at t = 0 and again `restart` (3 s)
 * after each brownout without waiting for VBUS: power-ons at 0, 3, 6, 9 s in 10.5 s,
 * so boots = brownouts = 4, and the device never runs.
 * The cell is empty (SOC 0): the first discharge opens its pack protection at t = 0
 * ("cutoff", reason "empty", docs/models.md, Battery) and nothing charges it again, so
 * the first brownout sees the 3.2 V of the power-on instant and the later ones a
 * collapsed VSYS (0 V): the cell gives no charge at all (SOC stays 0, no discharge).
 */
static void test_boot_power_on_always(void)
{
	const char *json =
		"{ \"duration\": \"10.5 s\", \"source\": { \"kind\": \"none\" },"
		"  \"device\": { \"battery\": { \"soc\": \"0 %\" },"
		"    \"load\": { \"current\": \"100 mA\", \"boot\": { \"power_on\": \"always\","
		"      \"stages\": [ { \"name\": \"rom\", \"current\": \"1 A\", \"for\": \"1 s\" } ] } } },"
		"  \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 0, NULL);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "boots"), 4);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "brownouts"), 4);
	CU_ASSERT(isnan(tu_metric(&m.r, "time_to_running_s")));
	for (int k = 0; k < 4; k++) {
		const cJSON *b = tu_event(&m.r, "brownout", NULL, NULL, k);

		ASSERT_NEAR(ev_time(&m.r, "boot_state", "state", "rom", k), 3.0 * k, 1e-9);
		ASSERT_NEAR(ev_time(&m.r, "boot_state", "state", "off", k), 3.0 * k, 1e-9);
		ASSERT_NEAR(tu_event_time(b), 3.0 * k, 1e-9);
		ASSERT_NEAR(tu_num(b, "vsys_V"), k == 0 ? 3.2 : 0, 1e-9);
	}
	ASSERT_NEAR(ev_time(&m.r, "cutoff", "reason", "empty", 0), 0, 1e-12);
	CU_ASSERT_EQUAL(tu_count(&m.r, "cutoff"), 1);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "soc_final"), 0);
	CU_ASSERT_STRING_EQUAL(tu_str(tu_event(&m.r, "boot_state", "state", "off", 0), "reason"),
			       "brownout");
	CU_ASSERT_PTR_NULL(tu_event(&m.r, "boot_state", "state", "running", 0));
	mr_done(&m);
}

/*
 * power_on "vbus" waits for the charger's input. generic-linear (no power path when
 * short of input: VSYS = VBAT), IINDPM at its 500 mA reset value, a dead cell and a
 * 2 A boot stage: VBAT = 3.3 + 0.1*(0.5 - 2.0) = 3.15 V < 3.4 V, a brownout as soon as
 * the input connects at 0.1 s. Unplugged at 1 s, so at the restart (0.1 + 3 = 3.1 s)
 * there is no VBUS and the device stays off. Plugged again at 5 s, the input connects
 * after t_restart at 5.1 s and the device powers on (and browns out) then:
 * boots = brownouts = 2, power-ons at 0.1 and 5.1 s.
 */
static void test_boot_restart_waits_for_vbus(void)
{
	const char *json =
		"{ \"duration\": \"8 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-linear\" }, \"battery\": { \"soc\": \"0 %\" },"
		"    \"load\": { \"current\": \"100 mA\", \"boot\": {"
		"      \"stages\": [ { \"name\": \"rom\", \"current\": \"2 A\", \"for\": \"1 s\" } ] } } },"
		"  \"events\": [ { \"at\": \"1 s\", \"do\": \"unplug\" }, { \"at\": \"5 s\", \"do\": \"plug\" } ],"
		"  \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 0, NULL);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "boots"), 2);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "brownouts"), 2);
	ASSERT_NEAR(ev_time(&m.r, "boot_state", "state", "rom", 0), 0.1, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "boot_state", "state", "rom", 1), 5.1, 1e-9);
	ASSERT_NEAR(tu_num(tu_event(&m.r, "brownout", NULL, NULL, 0), "vsys_V"), 3.15, 1e-6);
	CU_ASSERT_PTR_NULL(tu_event(&m.r, "boot_state", "state", "rom", 2));
	mr_done(&m);
}

/*
 * "boot": {"restart": "1 s"} (no stages) keeps the default stages: bootloader 150 mA
 * for 3 s, kernel 800 mA for 20 s (boot.c). On the default 2 A DCP with a charged-enough
 * cell the input connects at 0.1 s: bootloader at 0.1, kernel at 3.1, running at
 * 23.1 s (docs/models.md "boot timing"); the draw steps 0.001 -> 0.15 -> 0.8 -> 0.25 A.
 */
static void test_boot_default_stages(void)
{
	static const double t[] = { 0.05, 1, 10, 23.5 };
	const char *json =
		"{ \"duration\": \"24 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"battery\": { \"soc\": \"50 %\" },"
		"    \"load\": { \"current\": \"250 mA\", \"boot\": { \"restart\": \"1 s\" } } },"
		"  \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 4, t);
	ASSERT_NEAR(ev_time(&m.r, "boot_state", "state", "bootloader", 0), 0.1, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "boot_state", "state", "kernel", 0), 3.1, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "boot_state", "state", "running", 0), 23.1, 1e-9);
	ASSERT_NEAR(tu_metric(&m.r, "time_to_running_s"), 23.1, 1e-9);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "boots"), 1);
	ASSERT_NEAR(mr_probe(&m, 0, "iload_A"), 0.001, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 1, "iload_A"), 0.15, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 2, "iload_A"), 0.8, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 3, "iload_A"), 0.25, 1e-12);
	mr_done(&m);
}

/* Bad boot objects and stages: the message names the path and what was expected. */
static void test_boot_errors(void)
{
	REFUSED("{ \"device\": { \"load\": { \"boot\": [ 1 ] } } }",
		"device.load.boot: found [1]", "expected an object such as {\"stages\": [...]}");
	REFUSED("{ \"device\": { \"load\": { \"boot\": { \"stages\": [ { \"name\": \"rom\", \"current\": \"1 A\" } ] } } } }",
		"device.load.boot.stages[0]: found", "expected {\"name\": \"kernel\", \"current\": \"800 mA\", \"for\": \"20 s\"}");
	REFUSED("{ \"device\": { \"load\": { \"boot\": { \"stages\": [ { \"name\": \"rom\", \"current\": \"1 A\", \"for\": \"1 s\", \"watts\": 2 } ] } } } }",
		"device.load.boot.stages[0].watts: found an unknown key \"watts\"", "expected name, current or for");
	REFUSED("{ \"device\": { \"load\": { \"boot\": { \"stages\": [ { \"name\": \"rom\", \"current\": \"1 A\", \"for\": \"2 V\" } ] } } } }",
		"device.load.boot.stages[0].for: found \"2 V\"", "expected a time");
	REFUSED("{ \"device\": { \"load\": { \"boot\": { \"stages\": [ { \"name\": \"rom\", \"current\": \"1 V\", \"for\": \"2 s\" } ] } } } }",
		"device.load.boot.stages[0].current: found \"1 V\"", "expected a current");
	REFUSED("{ \"device\": { \"load\": { \"boot\": { \"stages\": [ { \"name\": \"rom\", \"current\": \"11 A\", \"for\": \"2 s\" } ] } } } }",
		"device.load.boot.stages[0]: found 11 A for 2 s", "expected 0 to 10 A");
}

/* ---- source ---- */

/*
 * Rated currents [docs/models.md, Charging port; USB 2.0, BC1.2, Type-C]: SDP 500 mA
 * (100 mA behind a bus-powered hub), SDP USB 3 900 mA (150 mA), CDP 1.5 A, DCP 1.5 A
 * drawn, Type-C by Rp: Default 0.5 A (0.9 A at SuperSpeed), 1.5 A, 3.0 A;
 * proprietary, ACA and PD ports are rated at what they give (Apple 1 / 2.1 / 2.4 A,
 * Samsung 2 A, ACA 1.5 A, PD 3 A); no port 0.
 * Host ports sit at 5.0 V behind 0.15 ohm with the switch at 1.0 A (SDP) and the
 * limit 20 % above it (1.2 A).
 */
static void test_source_rated_current(void)
{
	static const struct { const char *kind; double rated; } c[] = {
		{ "none", 0 }, { "sdp", 0.5 }, { "sdp-usb3", 0.9 }, { "cdp", 1.5 }, { "dcp", 1.5 },
		{ "apple-1a", 1.0 }, { "apple-2.1a", 2.1 }, { "apple-2.4a", 2.4 },
		{ "samsung-2a", 2.0 }, { "aca", 1.5 }, { "typec", 0.5 }, { "pd", 3.0 },
	};
	struct source_params p;

	for (size_t k = 0; k < G_N_ELEMENTS(c); k++) {
		source_params_default(&p, source_kind(c[k].kind));
		if (!tu_near(source_rated_current(&p), c[k].rated, 1e-12, c[k].kind))
			CU_FAIL("rated current");
	}
	source_params_default(&p, source_kind("sdp"));
	ASSERT_NEAR(p.voc, 5.0, 0);
	ASSERT_NEAR(p.rout, 0.15, 0);
	ASSERT_NEAR(p.ocp, 1.0, 0);
	ASSERT_NEAR(p.ilim, 1.2, 1e-12);
	p.port = SRC_PORT_HUB;
	ASSERT_NEAR(source_rated_current(&p), 0.1, 0);
	source_params_default(&p, source_kind("sdp-usb3"));
	p.port = SRC_PORT_HUB;
	ASSERT_NEAR(source_rated_current(&p), 0.15, 0);
	source_params_default(&p, source_kind("typec"));
	p.usb3 = true;
	ASSERT_NEAR(source_rated_current(&p), 0.9, 0);
	p.rp = SRC_RP_1A5;
	ASSERT_NEAR(source_rated_current(&p), 1.5, 0);
	p.rp = SRC_RP_3A0;
	ASSERT_NEAR(source_rated_current(&p), 3.0, 0);
}

/*
 * A latching port with an overload timer and latch recovery: ilim 0.8 A, t_limit_max
 * 500 ms, t_recover 2 s. The linear charger (1 A from a 50 % cell) puts the port into
 * limit when it connects at 0.1 s: trip at 0.1 + 0.5 = 0.6 s (overload_timer, latch),
 * recovery at 0.6 + 2 = 2.6 s, the charger reconnects after t_restart at 2.7 s and
 * the port trips again at 3.2 s. In the limit VBUS = 3.829 + (r_on 0.3 + R0 0.1)*0.8
 * = 4.149 V (docs/models.md's hiccup example, same port), plus the RC voltages of 0.2 s
 * at 0.8 A at t = 0.3 s (0.8*0.047*0.2/33 = 0.23 mV and less for V2); while latched
 * (t = 1 s) the port is off: VBUS 0, source_state "tripped" (3).
 */
static void test_source_latch_recover(void)
{
	static const double t[] = { 0.3, 1.0 };
	const char *json =
		"{ \"duration\": \"4 s\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"0.8 A\", \"overload\": \"latch\","
		"    \"t_limit_max\": \"500 ms\", \"t_recover\": \"2 s\" },"
		"  \"cable\": { \"length\": \"1 m\", \"awg\": 24 },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-linear\", \"ichg\": \"1 A\","
		"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"1.5 A\", \"step\": \"50 mA\", \"default\": \"1.5 A\" } },"
		"    \"battery\": { \"soc\": \"50 %\" }, \"load\": { \"current\": \"0 A\" } },"
		"  \"policy\": \"none\" }";
	struct mr m;
	const cJSON *trip;

	REQUIRE_MR(&m, json, 2, t);
	CU_ASSERT_EQUAL(tu_metric(&m.r, "source_trips"), 2);
	trip = tu_event(&m.r, "source_trip", NULL, NULL, 0);
	ASSERT_NEAR(tu_event_time(trip), 0.6, 1e-9);
	CU_ASSERT_STRING_EQUAL(tu_str(trip, "reason"), "overload_timer");
	CU_ASSERT_STRING_EQUAL(tu_str(trip, "mode"), "latch");
	ASSERT_NEAR(ev_time(&m.r, "source_recover", NULL, NULL, 0), 2.6, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "input_connect", NULL, NULL, 1), 2.7, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "source_trip", NULL, NULL, 1), 3.2, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 0, "vbus_V"), 4.149, 1e-3);
	ASSERT_NEAR(mr_probe(&m, 0, "ibus_A"), 0.8, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 1, "vbus_V"), 0, 0);
	ASSERT_NEAR(mr_probe(&m, 1, "source_state"), SRC_TRIPPED, 0);
	mr_done(&m);
}

/*
 * A `plug` event on kind "none" attaches nothing: no VBUS, no charger connect, the
 * cell carries the 250 mA default load alone (ibat = -0.25 A), the port reads
 * "detached" (0) and the event log has no attach.
 */
static void test_source_none_never_attaches(void)
{
	static const double t[] = { 1.5 };
	const char *json =
		"{ \"duration\": \"2 s\", \"source\": { \"kind\": \"none\" },"
		"  \"events\": [ { \"at\": \"1 s\", \"do\": \"plug\" } ], \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 1, t);
	ASSERT_NEAR(mr_probe(&m, 0, "vbus_V"), 0, 0);
	ASSERT_NEAR(mr_probe(&m, 0, "ibus_A"), 0, 0);
	ASSERT_NEAR(mr_probe(&m, 0, "ibat_A"), -0.25, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 0, "source_state"), SRC_DETACHED, 0);
	CU_ASSERT_EQUAL(tu_count(&m.r, "input_connect"), 0);
	CU_ASSERT_EQUAL(tu_count(&m.r, "detect"), 0);
	CU_ASSERT_EQUAL(tu_count(&m.r, "attach"), 0);
	mr_done(&m);
}

/*
 * PD sink rules [USB PD; phy.c pd_pick] over PDOs 5 V 3 A, 9 V 3 A, 15 V 2 A,
 * 20 V 1 A (15, 27, 30, 20 W) with pd_max_v 20 V:
 *  max_power   -> PDO 3 (15 V, 30 W);  max_voltage -> PDO 4 (20 V);  5v -> PDO 1;
 *  max_voltage with the default pd_max_v 9 V -> PDO 2 (9 V).
 * Timing: CC read at 10 + 150 ms, Source_Capabilities 50 ms later (0.21 s), Request
 * at 0.22 s, Accept at 0.225 s, PS_RDY after 30 + 50 ms at 0.305 s.
 * The port's limit in force becomes the contract's current when that is below ilim
 * (source.h): 20 V 1 A under ilim 3 A -> 1 A after the transition (0.255 s), 3 A
 * before. The EMF moves to Voc + (20 - 5) = 20.1 V.
 */
static void test_pd_rules_and_contract_limit(void)
{
	static const struct { const char *rule; const char *max_v; int pdo; double v; } c[] = {
		{ "max_power", "20 V", 3, 15 }, { "max_voltage", "20 V", 4, 20 },
		{ "5v", "20 V", 1, 5 }, { "max_voltage", "9 V", 2, 9 },
	};
	static const double t[] = { 0.2, 0.4 };

	for (size_t k = 0; k < G_N_ELEMENTS(c); k++) {
		g_autofree char *json = g_strdup_printf(
			"{ \"duration\": \"0.5 s\","
			"  \"source\": { \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 3A\", \"15V 2A\", \"20V 1A\"] },"
			"  \"device\": { \"phy\": { \"pd_rule\": \"%s\", \"pd_max_v\": \"%s\" } },"
			"  \"policy\": \"none\" }", c[k].rule, c[k].max_v);
		const cJSON *req;
		struct mr m;

		REQUIRE_MR(&m, json, 2, t);
		req = tu_event(&m.r, "pd_msg", "msg", "Request", 0);
		ASSERT_NEAR(tu_event_time(tu_event(&m.r, "pd_msg", "msg", "Source_Capabilities", 0)), 0.21, 1e-9);
		ASSERT_NEAR(tu_event_time(req), 0.22, 1e-9);
		ASSERT_NEAR(tu_num(req, "pdo"), c[k].pdo, 0);
		ASSERT_NEAR(tu_num(req, "V"), c[k].v, 0);
		ASSERT_NEAR(ev_time(&m.r, "pd_msg", "msg", "Accept", 0), 0.225, 1e-9);
		ASSERT_NEAR(ev_time(&m.r, "pd_msg", "msg", "PS_RDY", 0), 0.305, 1e-9);
		ASSERT_NEAR(mr_probe(&m, 0, "src_ilim_A"), 3.0, 0);
		if (c[k].pdo == 4) {
			ASSERT_NEAR(mr_probe(&m, 1, "src_ilim_A"), 1.0, 0);
			ASSERT_NEAR(mr_probe(&m, 1, "vsrc_V") + 0.13 * mr_probe(&m, 1, "ibus_A"), 20.1, 1e-9);
		}
		mr_done(&m);
	}
}

/* Bad PDO strings: the entry's path, the expected form and the unit parser's reason. */
static void test_pdo_errors(void)
{
	REFUSED("{ \"source\": { \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 3Q\"] } }",
		"source.pdos[1]: found \"9V 3Q\"", "expected a PDO such as \"9V 3A\"",
		"expected a current");
	REFUSED("{ \"source\": { \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"nineV 3A\"] } }",
		"source.pdos[1]: found \"nineV 3A\"", "expected a PDO such as \"9V 3A\"",
		"expected a voltage");
	REFUSED("{ \"source\": { \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9 3A\"] } }",
		"source.pdos[1]: found \"9 3A\"", "no voltage in \"9 3A\"");
}

/* ---- cable ---- */

/*
 * "data": "connected" written out is the default: an SDP is found at 10 (VBUS
 * debounce) + 10 (DCD) + 40 (primary) + 1 = 61 ms (docs/models.md detection table).
 * Bad values name cable.data.late / cable.r_loop and what was expected.
 */
static void test_cable_data_values(void)
{
	const char *json =
		"{ \"duration\": \"0.2 s\", \"source\": { \"kind\": \"sdp\" },"
		"  \"cable\": { \"data\": \"connected\" }, \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 0, NULL);
	ASSERT_NEAR(ev_time(&m.r, "detect", "port", "sdp", 0), 0.061, 1e-9);
	mr_done(&m);
	REFUSED("{ \"cable\": { \"data\": { \"late\": \"-5 ms\" } } }",
		"cable.data.late: found a negative delay", "expected a time of at least 0 s");
	REFUSED("{ \"cable\": { \"data\": { \"late\": \"5 V\" } } }",
		"cable.data.late: found \"5 V\"", "expected a time");
	REFUSED("{ \"cable\": { \"r_loop\": \"5 V\" } }",
		"cable.r_loop: found \"5 V\"", "expected a resistance");
}

/* ---- phy ---- */

/*
 * Detection options on a DCP (D+/D- shorted through 20 ohm):
 *  bc12 off: nothing is read, "none" reported once VBUS is debounced (10 ms);
 *  dcd off: primary detection right after the debounce: 10 + 40 + 40 + 1 = 91 ms,
 *    D- and D+ read 0.6 - 100 uA * 20 ohm = 0.598 V: DCP.
 * Dividers the classifier does not know [phy.c, +-0.25 V around Apple/Samsung]:
 *  D+ = D- = 3.3 V: DCD times out (D+ held high) at 10 + 600 ms, D- 3.3 V > VLGC
 *    0.8 V: proprietary, reported at 651 ms with 500 mA;
 *  D+ 2.0 V, D- 0.5 V: D- inside VDAT_REF..VLGC (0.325..0.8 V) goes to secondary
 *    detection, D+ 2.0 V > VDAT_REF: DCP at 10 + 600 + 40 + 40 + 1 = 691 ms.
 */
static void test_phy_options_and_dividers(void)
{
	static const struct {
		const char *src, *phy;
		const char *port;
		double t, ma;
	} c[] = {
		{ "\"kind\": \"dcp\"", "\"bc12\": false", "none", 0.010, 0 },
		{ "\"kind\": \"dcp\"", "\"dcd\": false", "dcp", 0.091, 1500 },
		{ "\"kind\": \"dcp\", \"dp_v\": \"3.3 V\", \"dm_v\": \"3.3 V\"", "\"dcd\": true", "proprietary", 0.651, 500 },
		{ "\"kind\": \"dcp\", \"dp_v\": \"2 V\", \"dm_v\": \"0.5 V\"", "\"dcd\": true", "dcp", 0.691, 1500 },
	};

	for (size_t k = 0; k < G_N_ELEMENTS(c); k++) {
		g_autofree char *json = g_strdup_printf(
			"{ \"duration\": \"1 s\", \"source\": { %s }, \"device\": { \"phy\": { %s } },"
			"  \"policy\": \"none\" }", c[k].src, c[k].phy);
		const cJSON *d;
		struct mr m;

		REQUIRE_MR(&m, json, 0, NULL);
		d = tu_event(&m.r, "detect", NULL, NULL, 0);
		CU_ASSERT_STRING_EQUAL(tu_str(d, "port"), c[k].port);
		ASSERT_NEAR(tu_event_time(d), c[k].t, 1e-9);
		ASSERT_NEAR(tu_num(d, "current_mA"), c[k].ma, 0);
		CU_ASSERT_EQUAL(tu_count(&m.r, "detect"), 1);
		if (k == 1)
			ASSERT_NEAR(tu_num(tu_event(&m.r, "detect_step", "step", "primary", 0), "dm_V"), 0.598, 1e-9);
		if (k == 3)
			ASSERT_NEAR(tu_num(tu_event(&m.r, "detect_step", "step", "secondary", 0), "dp_V"), 2.0, 1e-9);
		mr_done(&m);
	}
}

/*
 * Rp changes on a Type-C port (Rd 5.1 k; V_CC = 5 * 5.1/(Rp + 5.1) with Rp 10 k /
 * 22 k / 56 k = 1.6887 / 0.9410 / 0.4173 V):
 *  plugged at 0 with 3.0 A: typec-3.0a at 10 + 150 ms = 0.16 s;
 *  Rp -> Default at 1 s: read after tSinkAdj 40 ms (1.04 s, 0.4173 V), Default falls
 *    back to BC1.2: DCD 10 + primary 40 + secondary 40 + 1 ms -> dcp at 1.131 s;
 *  Rp -> Default again at 2 s: no change, nothing read or reported;
 *  unplugged at 2.5 s ("none" at 2.51 s); Rp -> 1.5A at 3 s while unplugged: nothing
 *    is read until the next attach; plugged at 3.2 s: 3.2 + 0.01 + 0.15 = 3.36 s,
 *    typec-1.5a.
 */
static void test_phy_rp_changes(void)
{
	const char *json =
		"{ \"duration\": \"4 s\", \"source\": { \"kind\": \"typec\", \"rp\": \"3.0A\" },"
		"  \"events\": ["
		"    { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"source.rp\", \"value\": \"default\" },"
		"    { \"at\": \"2 s\", \"do\": \"set\", \"path\": \"source.rp\", \"value\": \"default\" },"
		"    { \"at\": \"2.5 s\", \"do\": \"unplug\" },"
		"    { \"at\": \"3 s\", \"do\": \"set\", \"path\": \"source.rp\", \"value\": \"1.5A\" },"
		"    { \"at\": \"3.2 s\", \"do\": \"plug\" } ],"
		"  \"policy\": \"none\" }";
	struct mr m;
	const cJSON *cc;

	REQUIRE_MR(&m, json, 0, NULL);
	ASSERT_NEAR(ev_time(&m.r, "detect", "port", "typec-3.0a", 0), 0.16, 1e-9);
	cc = tu_event(&m.r, "detect_step", "result", "default", 0);
	ASSERT_NEAR(tu_event_time(cc), 1.04, 1e-9);
	ASSERT_NEAR(tu_num(cc, "cc_V"), 0.4173, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "detect", "port", "dcp", 0), 1.131, 1e-9);
	CU_ASSERT_PTR_NULL(tu_event(&m.r, "detect_step", "result", "default", 1));
	ASSERT_NEAR(ev_time(&m.r, "detect", "port", "none", 0), 2.51, 1e-9);
	cc = tu_event(&m.r, "detect_step", "result", "1.5A", 0);
	ASSERT_NEAR(tu_event_time(cc), 3.36, 1e-9);
	ASSERT_NEAR(tu_num(cc, "cc_V"), 0.941, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "detect", "port", "typec-1.5a", 0), 3.36, 1e-9);
	CU_ASSERT_EQUAL(tu_count(&m.r, "detect"), 4);
	mr_done(&m);
}

/*
 * A non-standard Rd of 1 kohm moves V_CC = 5 * 1/(Rp + 1) [kohm] out of the spec's
 * windows (0.25-0.61 / 0.70-1.16 / 1.31-2.04 V): Rp 3.0A (10 k) reads 5/11 =
 * 0.4545 V, inside the Default window: BC1.2 fallback, DCP at 0.16 + 0.091 = 0.251 s.
 * Rp 1.5A (22 k) set at 1 s reads 5/23 = 0.2174 V, below every window: the reading
 * after tSinkAdj (1.04 s) is "none" (not a Default advertisement), BC1.2 runs again:
 * DCP at 1.04 + 0.091 = 1.131 s.
 */
static void test_phy_rp_outside_windows(void)
{
	const char *json =
		"{ \"duration\": \"2 s\", \"source\": { \"kind\": \"typec\", \"rp\": \"3.0A\" },"
		"  \"device\": { \"phy\": { \"rd\": \"1 kohm\" } },"
		"  \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"source.rp\", \"value\": \"1.5A\" } ],"
		"  \"policy\": \"none\" }";
	const cJSON *cc;
	struct mr m;

	REQUIRE_MR(&m, json, 0, NULL);
	cc = tu_event(&m.r, "detect_step", "step", "cc", 0);
	ASSERT_NEAR(tu_event_time(cc), 0.16, 1e-9);
	ASSERT_NEAR(tu_num(cc, "cc_V"), 0.4545, 1e-9);
	CU_ASSERT_STRING_EQUAL(tu_str(cc, "result"), "default");
	ASSERT_NEAR(ev_time(&m.r, "detect", "port", "dcp", 0), 0.251, 1e-9);
	cc = tu_event(&m.r, "detect_step", "step", "cc", 1);
	ASSERT_NEAR(tu_event_time(cc), 1.04, 1e-9);
	ASSERT_NEAR(tu_num(cc, "cc_V"), 0.2174, 1e-9);
	CU_ASSERT_STRING_EQUAL(tu_str(cc, "result"), "none");
	ASSERT_NEAR(ev_time(&m.r, "detect", "port", "dcp", 1), 1.131, 1e-9);
	mr_done(&m);
}

/* ---- battery ---- */

/*
 * generic-4v2: the EB425161LU curve scaled so 100 % reads 4.2 V,
 * OCV' = 3.3 + (OCV - 3.3) * 0.9/1.028: 50 % 3.829 -> 3.3 + 0.529*0.875486 = 3.763132 V,
 * 100 % -> 4.2 V, 0 % stays 3.3 V; v_max 4.25 V, so VREG 4.3 V is refused with the
 * path device.pmic.vreg and the cell's limit, and 4.25 V is accepted.
 */
static void test_battery_generic_4v2(void)
{
	struct battery_params p;
	struct scenario *sc;
	GError *err = NULL;
	const char *ok = "{ \"device\": { \"battery\": { \"preset\": \"generic-4v2\" }, \"pmic\": { \"vreg\": \"4.25 V\" } } }";

	battery_params_default(&p, 1);
	CU_ASSERT_STRING_EQUAL(battery_preset_names[1], "generic-4v2");
	ASSERT_NEAR(battery_ocv(&p, 1.0), 4.2, 1e-12);
	ASSERT_NEAR(battery_ocv(&p, 0.5), 3.763132, 1e-6);
	ASSERT_NEAR(battery_ocv(&p, 0.0), 3.3, 1e-12);
	ASSERT_NEAR(p.v_max, 4.25, 0);
	REFUSED("{ \"device\": { \"battery\": { \"preset\": \"generic-4v2\" }, \"pmic\": { \"vreg\": \"4.3 V\" } } }",
		"device.pmic.vreg: found 4.3 V", "expected at most the battery's v_max 4.25 V");
	sc = scenario_load_text("models.json", ok, strlen(ok), NULL, &err);
	CU_ASSERT_PTR_NOT_NULL(sc);
	g_clear_error(&err);
	scenario_free(sc);
}

/* An OCV table longer than BATTERY_OCV_MAX (64) points is refused with its path. */
static void test_battery_ocv_too_long(void)
{
	GString *s = g_string_new("{ \"device\": { \"battery\": { \"ocv\": [");

	for (int i = 0; i <= BATTERY_OCV_MAX; i++)
		g_string_append_printf(s, "%s[%g, %g]", i ? ", " : "", (double)i / BATTERY_OCV_MAX,
				       3.3 + i * 0.01);
	g_string_append(s, "] } } }");
	REFUSED(s->str, "device.battery.ocv: found 65 points", "expected at most 64");
	g_string_free(s, TRUE);
}

/*
 * Lumped thermal model, C dT/dt = P - (T - Ta)/Rth, exact for constant P:
 * T(dt) = T_inf + (T0 - T_inf) e^(-dt/tau), tau = C Rth, T_inf = Ta + P Rth.
 * Default 30 J/K and 25 K/W: tau = 750 s; 0.2 W gives T_inf = 30 C; from 25 C after
 * 750 s: 30 - 5/e = 28.160603 C. Loss at 1 A with V1 = 47 mV, V2 = 50 mV:
 * 0.1 + 0.047^2/0.047 + 0.05^2/0.05 = 0.197 W.
 */
static void test_battery_thermal_api(void)
{
	struct battery_params p;
	struct battery_eff e;
	struct battery_state s = { .soc = 0.5, .v1 = 0.047, .v2 = 0.05, .temp_c = 25 };

	battery_params_default(&p, 0);
	battery_effective(&p, 25, &e);
	ASSERT_NEAR(battery_thermal_advance(&p, 25, 25, 0.2, 750), 30 - 5 / M_E, 1e-9);
	ASSERT_NEAR(battery_thermal_advance(&p, 25, 25, 0.2, 750), 28.160603, 1e-6);
	ASSERT_NEAR(battery_thermal_advance(&p, 40, 25, 0, 1e9), 25, 1e-9);
	ASSERT_NEAR(battery_loss_w(&e, &s, 1.0), 0.197, 1e-12);
}

/*
 * A whole run with the thermal model on: no source, a constant 2 A load from a full
 * 3 Ah cell (R scaled by 1.5/3: R0 + R1 + R2 = 0.197/2 = 0.0985 ohm; tau1, tau2
 * unchanged at 33 s and 224 s), thermal mass 3 J/K (tau = 75 s), Rth 25 K/W, ambient
 * 25 C, 1 h (16 tau2; SOC ends at 1 - 7200/10800 = 0.33). In steady state V_k = I R_k,
 * so the loss is I^2 (R0 + R1 + R2)(T).
 *  activation_energy 0: T = 25 + 4 * 0.0985 * 25 = 34.85 C.
 *  20 kJ/mol: R(T) = 0.0985 exp(Ea/Rgas (1/(T + 273.15) - 1/298.15)); the steady state
 *    solves T = 25 + 100 R(T) (bisection below): 32.9815 C.
 */
static double thermal_fixed_point(double ea)
{
	double lo = 25, hi = 60;

	for (int k = 0; k < 100; k++) {
		double t = (lo + hi) / 2;
		double r = 0.0985 * exp(ea / 8.314462618 * (1 / (t + 273.15) - 1 / 298.15));

		if (t - 25 - 100 * r > 0)
			hi = t;
		else
			lo = t;
	}
	return (lo + hi) / 2;
}

static void test_battery_thermal_run(void)
{
	static const double t[] = { 3600 };
	static const double ea[] = { 0, 20000 };

	ASSERT_NEAR(thermal_fixed_point(0), 34.85, 1e-9);
	ASSERT_NEAR(thermal_fixed_point(20000), 32.9815, 1e-4);
	for (size_t k = 0; k < G_N_ELEMENTS(ea); k++) {
		g_autofree char *json = g_strdup_printf(
			"{ \"duration\": \"1 h\", \"source\": { \"kind\": \"none\" },"
			"  \"device\": { \"battery\": { \"soc\": \"100 %%\", \"capacity\": \"3 Ah\", \"thermal\": true,"
			"      \"thermal_mass\": 3, \"activation_energy\": %g },"
			"    \"load\": { \"current\": \"2 A\" } }, \"policy\": \"none\" }", ea[k]);
		struct mr m;

		REQUIRE_MR(&m, json, 1, t);
		ASSERT_NEAR(mr_probe(&m, 0, "temp_C"), thermal_fixed_point(ea[k]), 2e-3);
		mr_done(&m);
	}
}

/* ---- pmic ---- */

/*
 * reg_latency: every IINDPM write takes effect reg_latency after it was made
 * (docs/models.md, Charger IC: register writes "take effect after `reg_latency`").
 * bq25890 (50 mA steps, reset 500 mA), latency 200 ms: 1.234 A written at 0 rounds
 * down to 1.2 A and lands at 0.2 s; 2.0 A written at 0.1 s lands at 0.3 s.
 * A second write inside the latency must not hold back the first (pmic.c used to keep
 * one pending value and restart its timer on every write: the register stayed at
 * 0.5 A until 0.3 s, and a ramp writing faster than the latency never moved it).
 */
static void test_pmic_reg_latency(void)
{
	struct pmic_params p;
	struct pmic c;
	struct sim s;

	pmic_params_default(&p, pmic_preset("bq25890"));
	p.reg_latency = 200 * SIM_MS;
	sim_init(&s, 1);
	pmic_init(&c, &p, &s, NULL, NULL, NULL);
	ASSERT_NEAR(c.iindpm, 0.5, 1e-12);
	ASSERT_NEAR(pmic_write_iindpm(&c, 1.234), 1.2, 1e-9);
	ASSERT_NEAR(c.iindpm, 0.5, 1e-12);
	sim_run_until(&s, 100 * SIM_MS);
	ASSERT_NEAR(pmic_write_iindpm(&c, 2.0), 2.0, 1e-9);
	sim_run_until(&s, 199 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 0.5, 1e-12);
	sim_run_until(&s, 200 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 1.2, 1e-9);
	sim_run_until(&s, 299 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 1.2, 1e-9);
	sim_run_until(&s, 300 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 2.0, 1e-9);
	pmic_cleanup(&c);
	sim_destroy(&s);
}

/*
 * More writes in flight than PMIC_REG_QUEUE (64): the newest replaces the last one
 * queued (pmic.c). Latency 200 ms, one write per millisecond from t = 0: writes 0..62
 * of 1.0 A, write 63 (63 ms) of 1.5 A, write 64 (64 ms) of 2.0 A takes write 63's
 * place. 1.0 A lands at 200 ms and holds to 263 ms; 1.5 A never lands; 2.0 A lands at
 * 264 ms.
 */
static void test_pmic_reg_queue_full(void)
{
	struct pmic_params p;
	struct pmic c;
	struct sim s;

	pmic_params_default(&p, pmic_preset("bq25890"));
	p.reg_latency = 200 * SIM_MS;
	sim_init(&s, 1);
	pmic_init(&c, &p, &s, NULL, NULL, NULL);
	for (int k = 0; k <= 64; k++) {
		sim_run_until(&s, k * SIM_MS);
		pmic_write_iindpm(&c, k < 63 ? 1.0 : k == 63 ? 1.5 : 2.0);
	}
	CU_ASSERT_EQUAL(c.reg_n, PMIC_REG_QUEUE);
	sim_run_until(&s, 199 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 0.5, 1e-12);
	sim_run_until(&s, 200 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 1.0, 1e-9);
	sim_run_until(&s, 263 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 1.0, 1e-9);
	sim_run_until(&s, 264 * SIM_MS);
	ASSERT_NEAR(c.iindpm, 2.0, 1e-9);
	CU_ASSERT_EQUAL(c.reg_n, 0);
	pmic_cleanup(&c);
	sim_destroy(&s);
}

/*
 * ICHG, VREG and VINDPM writes take effect at once (pmic.h): the solver inputs carry
 * them the next time they are built. generic-switching defaults 2 A / 4.2 V / 4.5 V
 * -> 1.0 A / 4.1 V / 4.6 V; the charge target is IPRE (0.2 A) only in precharge.
 */
static void test_pmic_register_writes(void)
{
	struct pmic_params p;
	struct pmic c;
	struct sim s;
	struct net_in in;

	pmic_params_default(&p, pmic_preset("generic-switching"));
	sim_init(&s, 1);
	pmic_init(&c, &p, &s, NULL, NULL, NULL);
	memset(&in, 0, sizeof(in));
	pmic_net(&c, &in);
	ASSERT_NEAR(in.ichg, 2.0, 0);
	ASSERT_NEAR(in.vreg, 4.2, 0);
	ASSERT_NEAR(in.vindpm, 4.5, 0);
	pmic_write_ichg(&c, 1.0);
	pmic_write_vreg(&c, 4.1);
	pmic_write_vindpm(&c, 4.6);
	pmic_net(&c, &in);
	ASSERT_NEAR(in.ichg, 1.0, 0);
	ASSERT_NEAR(in.vreg, 4.1, 0);
	ASSERT_NEAR(in.vindpm, 4.6, 0);
	c.precharge = true;
	pmic_net(&c, &in);
	ASSERT_NEAR(in.ichg, 0.2, 0);
	pmic_cleanup(&c);
	sim_destroy(&s);
}

/*
 * ICO on a bq25890 under the hw-ico policy (limit register at the top, ICO started on
 * detection). Default DCP 5.1 V behind 0.13 ohm, default cable 0.4658 ohm: R = 0.5958.
 *  VINDPM 4.5 V (written by the policy): the input current at which VBUS falls to
 *    VINDPM is (5.1 - 4.5)/0.5958 = 1.007049 A. The ceiling starts at 0.5 A and rises
 *    50 mA per 50 ms; 1.05 A (after 11 steps) is the first above 1.007 A, the next
 *    tick sees VINDPM and steps back once: 1.0 A, at ico_start + 12 * 50 ms.
 *  Voc 4.6 V, chip's own VINDPM 4.4 V: (4.6 - 4.4)/0.5958 = 0.336 A < 0.5 A, VINDPM
 *    binds at the start: one step back is clamped to the 0.5 A start, done at the
 *    first tick (ico_start + 50 ms).
 */
static void test_pmic_ico(void)
{
	static const struct { const char *voc, *vindpm; double ilim; int ticks; } c[] = {
		{ "5.1 V", "4.5 V", 1.0, 12 }, { "4.6 V", "0 V", 0.5, 1 },
	};

	ASSERT_NEAR((5.1 - 4.5) / (0.13 + 2 * 0.2129 + 4 * 0.010), 1.007049, 1e-6);
	for (size_t k = 0; k < G_N_ELEMENTS(c); k++) {
		g_autofree char *json = g_strdup_printf(
			"{ \"duration\": \"1.5 s\", \"source\": { \"kind\": \"dcp\", \"voc\": \"%s\" },"
			"  \"device\": { \"pmic\": { \"preset\": \"bq25890\" } },"
			"  \"policy\": { \"name\": \"hw-ico\", \"params\": { \"vindpm\": \"%s\" } } }",
			c[k].voc, c[k].vindpm);
		const cJSON *done;
		double t0;
		struct mr m;

		REQUIRE_MR(&m, json, 0, NULL);
		t0 = ev_time(&m.r, "ico_start", NULL, NULL, 0);
		done = tu_event(&m.r, "ico_done", NULL, NULL, 0);
		/* started on detection: a DCP is detected at 101 ms (docs/models.md) */
		CU_ASSERT(t0 >= 0.101 - 1e-9 && t0 < 0.2);
		ASSERT_NEAR(tu_event_time(done), t0 + 0.05 * c[k].ticks, 1e-9);
		ASSERT_NEAR(tu_num(done, "ilim_A"), c[k].ilim, 1e-9);
		ASSERT_NEAR(tu_metric(&m.r, "ilim_final_A"), c[k].ilim, 1e-9);
		mr_done(&m);
	}
}

/*
 * Safety timer 2 s: armed when the input connects at 0.1 s, fires at 2.1 s: a
 * charger_fault (safety_timer) and state "fault"; charging stops (I_bat = 0) and the
 * switching charger carries only the system: VBUS * IBUS * 0.92 = VSYS * 0.25 A.
 */
static void test_pmic_safety_timer(void)
{
	static const double t[] = { 1.0, 2.5 };
	const char *json =
		"{ \"duration\": \"3 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\", \"safety_timer\": \"2 s\" } },"
		"  \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 2, t);
	ASSERT_NEAR(ev_time(&m.r, "charger_fault", "reason", "safety_timer", 0), 2.1, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "charger_state", "state", "fault", 0), 2.1, 1e-9);
	CU_ASSERT(mr_probe(&m, 0, "ibat_A") > 0.1);
	ASSERT_NEAR(mr_probe(&m, 1, "ibat_A"), 0, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 1, "charger_state"), CHG_FAULT, 0);
	ASSERT_NEAR(mr_probe(&m, 1, "vbus_V") * mr_probe(&m, 1, "ibus_A") * 0.92,
		    mr_probe(&m, 1, "vsys_V") * 0.25, 1e-9);
	mr_done(&m);
}

/*
 * Input over-voltage protection. twl4030: the TPS65950 datasheet (SWCS032E, Table
 * 8-2) puts the VBUS overvoltage threshold at 6.8 V typical; the input clears 0.2 V
 * lower (6.6 V, assumed: docs/models.md, Charger IC). A 5.1 V adapter, policy none
 * (IINDPM at the 0.1 A reset value), connects at 0.1 s; its EMF is set to 9 V at
 * 1 s: VBUS jumps to 9 V minus the drop of 0.1 A, above 6.8 V, and the input opens
 * at that instant ("ovp", charger_state "ovp", no input current: VBUS = 9 V). At 2 s
 * 6.7 V: below 6.8 V but above 6.6 V, the input stays off. At 3 s 6.5 V: cleared,
 * the input connects t_restart = 100 ms later (3.1 s) and charges at 6.5 V.
 * bq25890: VACOV 14 V (SLUSC86): 9 V is taken (no "ovp"), 15 V is not.
 * A 9 V PD contract into the twl4030: the input opens when VBUS rises at the
 * contract, instead of the ~6.4 W the pass element would burn at 1.5 A.
 */
static void test_pmic_ovp(void)
{
	static const double t[] = { 0.5, 1.5, 2.5, 3.5 };
	const char *twl =
		"{ \"duration\": \"4 s\", \"source\": { \"kind\": \"dcp\", \"voc\": \"5.1 V\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\" } },"
		"  \"events\": ["
		"    { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"source.voc\", \"value\": \"9 V\" },"
		"    { \"at\": \"2 s\", \"do\": \"set\", \"path\": \"source.voc\", \"value\": \"6.7 V\" },"
		"    { \"at\": \"3 s\", \"do\": \"set\", \"path\": \"source.voc\", \"value\": \"6.5 V\" } ],"
		"  \"policy\": \"none\" }";
	const char *bq =
		"{ \"duration\": \"3 s\", \"source\": { \"kind\": \"dcp\", \"voc\": \"5.1 V\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"bq25890\" } },"
		"  \"events\": ["
		"    { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"source.voc\", \"value\": \"9 V\" },"
		"    { \"at\": \"2 s\", \"do\": \"set\", \"path\": \"source.voc\", \"value\": \"15 V\" } ],"
		"  \"policy\": \"none\" }";
	const char *pd =
		"{ \"duration\": \"2 s\", \"source\": { \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 3A\"] },"
		"  \"device\": { \"pmic\": { \"preset\": \"twl4030\" }, \"phy\": { \"pd_max_v\": \"9 V\" } },"
		"  \"policy\": { \"name\": \"fixed\", \"params\": { \"ilim\": \"1.5 A\" } } }";
	struct mr m;
	const cJSON *e;

	REQUIRE_MR(&m, twl, 4, t);
	ASSERT_NEAR(mr_probe(&m, 0, "charger_state"), CHG_CC, 0);
	CU_ASSERT(mr_probe(&m, 0, "ibus_A") > 0.09);
	e = tu_event(&m.r, "ovp", NULL, NULL, 0);
	ASSERT_NEAR(tu_event_time(e), 1.0, 1e-9);
	CU_ASSERT(tu_num(e, "vbus_V") >= 6.8 && tu_num(e, "vbus_V") <= 9.0);
	CU_ASSERT_EQUAL(tu_count(&m.r, "ovp"), 1);
	ASSERT_NEAR(ev_time(&m.r, "charger_state", "state", "ovp", 0), 1.0, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 1, "charger_state"), CHG_OVP, 0);
	ASSERT_NEAR(mr_probe(&m, 1, "ibus_A"), 0, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 1, "vbus_V"), 9.0, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 2, "charger_state"), CHG_OVP, 0);
	ASSERT_NEAR(mr_probe(&m, 2, "vbus_V"), 6.7, 1e-9);
	CU_ASSERT_EQUAL(tu_count(&m.r, "input_connect"), 2);
	ASSERT_NEAR(ev_time(&m.r, "input_connect", NULL, NULL, 1), 3.1, 1e-9);
	CU_ASSERT(mr_probe(&m, 3, "ibus_A") > 0.09);
	CU_ASSERT(mr_probe(&m, 3, "vbus_V") < 6.5);
	mr_done(&m);

	REQUIRE_MR(&m, bq, 0, NULL);
	CU_ASSERT_EQUAL(tu_count(&m.r, "ovp"), 1);
	ASSERT_NEAR(ev_time(&m.r, "ovp", NULL, NULL, 0), 2.0, 1e-9);
	mr_done(&m);

	REQUIRE_MR(&m, pd, 0, NULL);
	e = tu_event(&m.r, "ovp", NULL, NULL, 0);
	CU_ASSERT(e != NULL);
	CU_ASSERT(tu_event_time(e) > ev_time(&m.r, "pd_msg", "msg", "Accept", 0));
	CU_ASSERT(tu_event_time(e) <= ev_time(&m.r, "pd_msg", "msg", "PS_RDY", 0));
	CU_ASSERT_EQUAL(tu_count(&m.r, "input_connect"), 1);
	mr_done(&m);
}

/*
 * A `set` of a charger parameter restarts the connect deglitch (docs/models.md): a
 * set at 50 ms, half-way through t_restart, moves input_connect from 0.1 s to
 * 0.05 + 0.1 = 0.15 s. A set of ichg takes effect at once: generic-linear with
 * IINDPM 1.5 A and no system load charges at ichg, 1 A before the set at 1 s and
 * 0.5 A after it.
 */
static void test_pmic_set_restarts_deglitch(void)
{
	static const double t[] = { 0.12, 0.5, 1.5 };
	const char *json =
		"{ \"duration\": \"2 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-linear\", \"ichg\": \"1 A\","
		"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"1.5 A\", \"step\": \"50 mA\", \"default\": \"1.5 A\" } },"
		"    \"load\": { \"current\": \"0 A\" } },"
		"  \"events\": [ { \"at\": \"50 ms\", \"do\": \"set\", \"path\": \"device.pmic.vreg\", \"value\": \"4.1 V\" },"
		"              { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"device.pmic.ichg\", \"value\": \"0.5 A\" } ],"
		"  \"policy\": \"none\" }";
	struct mr m;

	REQUIRE_MR(&m, json, 3, t);
	ASSERT_NEAR(ev_time(&m.r, "input_connect", NULL, NULL, 0), 0.15, 1e-9);
	CU_ASSERT_EQUAL(tu_count(&m.r, "input_connect"), 1);
	ASSERT_NEAR(mr_probe(&m, 0, "ibus_A"), 0, 0);
	ASSERT_NEAR(mr_probe(&m, 1, "ibat_A"), 1.0, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 2, "ibat_A"), 0.5, 1e-12);
	mr_done(&m);
}

/*
 * Precharge: generic-linear with vlowv 3.5 V, the cell at 0 % (OCV 3.3 V), IINDPM
 * 1.5 A, no load. At connect (0.1 s) VBAT is below vlowv: precharge at IPRE 0.1 A.
 * It ends when VBAT = OCV(SOC) + R0*I + V1 + V2 reaches 3.5 V with, from t' = t - 0.1:
 *   SOC = (0.1/5400 - 0.02/2592000) t',  V1 = 0.1*0.047 (1 - e^(-t'/33.041)),
 *   V2 = 0.1*0.05 (1 - e^(-t'/223.75)),  OCV from the EB425161LU table of
 *   docs/models.md, Battery (0..5 %: 3.300..3.656 V). Solved below by bisection:
 *   t = 1368.1977 s. Then fast charge at ICHG 1 A (VBAT jumps 0.09 V + RC, far from
 *   re-entering below 3.4 V).
 */
static double precharge_vbat(double tp)
{
	const double i = 0.1;

	return tu_ref_ocv((i / 5400 - 0.02 / 2592000) * tp) + 0.1 * i +
	       i * 0.047 * (1 - exp(-tp / 33.041)) + i * 0.05 * (1 - exp(-tp / 223.75));
}

static void test_pmic_precharge(void)
{
	static const double t[] = { 10, 1400 };
	const char *json =
		"{ \"duration\": \"1500 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-linear\", \"vlowv\": \"3.5 V\","
		"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"1.5 A\", \"step\": \"50 mA\", \"default\": \"1.5 A\" } },"
		"    \"battery\": { \"soc\": \"0 %\" }, \"load\": { \"current\": \"0 A\" } },"
		"  \"policy\": \"none\" }";
	double lo = 1, hi = 3000;
	struct mr m;

	for (int k = 0; k < 200; k++) {
		double mid = (lo + hi) / 2;

		if (precharge_vbat(mid) >= 3.5)
			hi = mid;
		else
			lo = mid;
	}
	ASSERT_NEAR(lo + 0.1, 1368.1977, 1e-3);
	REQUIRE_MR(&m, json, 2, t);
	ASSERT_NEAR(ev_time(&m.r, "charger_state", "state", "precharge", 0), 0.1, 1e-9);
	ASSERT_NEAR(ev_time(&m.r, "charger_state", "state", "cc", 0), lo + 0.1, 2e-5);
	ASSERT_NEAR(mr_probe(&m, 0, "ibat_A"), 0.1, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 0, "charger_state"), CHG_PRECHARGE, 0);
	ASSERT_NEAR(mr_probe(&m, 1, "ibat_A"), 1.0, 1e-12);
	mr_done(&m);
}

/*
 * Precharge hysteresis: fast charge goes back to precharge only below vlowv - 0.1 V.
 * generic-linear, vlowv 3.5 V (re-entry below 3.4 V), IINDPM 1.5 A, cell at 5 %
 * (OCV 3.656 V): at connect (0.1 s) VBAT = 3.656 + 0.1 = 3.756 V, so CC at 1 A. At 1 s
 * the load steps to 3 A: the input holds at 1.5 A, the battery gives 1.5 A, and
 *   VBAT(t) = OCV(SOC(t)) - 0.15 + V1(t) + V2(t),  d = t - 1:
 *   V_k(t) = V_k(1) e^(-d/tau_k) - 1.5 R_k (1 - e^(-d/tau_k)),
 *   V1(1) = 0.047 (1 - e^(-0.9/33.041)), V2(1) = 0.05 (1 - e^(-0.9/223.75)),
 *   SOC(t) = 0.05 + 0.9/5400 - 0.02/2592000 * t - 1.5 d/5400
 * starts at 3.5076 V (above 3.4) and falls towards 3.31 V; the bisection below puts
 * the crossing of 3.4 V at t = 30.07035 s, located by the stepper to within its
 * 10 us tolerance. The state then reads "precharge" although the cell discharges
 * (docs/models.md: the state is the controller's phase).
 */
static double reentry_vbat(double t)
{
	const double sd = 0.02 / 2592000, d = t - 1;
	const double v1 = 0.047 * -expm1(-0.9 / 33.041), v2 = 0.05 * -expm1(-0.9 / 223.75);
	const double e1 = exp(-d / 33.041), e2 = exp(-d / 223.75);

	return tu_ref_ocv(0.05 + 0.9 / 5400 - sd * t - 1.5 * d / 5400) - 0.15 +
	       v1 * e1 - 1.5 * 0.047 * (1 - e1) + v2 * e2 - 1.5 * 0.05 * (1 - e2);
}

static void test_pmic_precharge_reentry(void)
{
	static const double t[] = { 0.5, 40 };
	const char *json =
		"{ \"duration\": \"45 s\", \"source\": { \"kind\": \"dcp\" },"
		"  \"device\": { \"pmic\": { \"preset\": \"generic-linear\", \"vlowv\": \"3.5 V\","
		"      \"iindpm\": { \"min\": \"100 mA\", \"max\": \"1.5 A\", \"step\": \"50 mA\", \"default\": \"1.5 A\" } },"
		"    \"battery\": { \"soc\": \"5 %\" },"
		"    \"load\": { \"current\": \"0 A\", \"profile\": [ { \"at\": \"1 s\", \"current\": \"3 A\" } ] } },"
		"  \"policy\": \"none\" }";
	double lo = 1, hi = 45;
	struct mr m;

	ASSERT_NEAR(reentry_vbat(1), 3.5076, 1e-4);
	for (int k = 0; k < 200; k++) {
		double mid = (lo + hi) / 2;

		if (reentry_vbat(mid) < 3.4)
			hi = mid;
		else
			lo = mid;
	}
	ASSERT_NEAR(lo, 30.07035, 1e-5);
	REQUIRE_MR(&m, json, 2, t);
	ASSERT_NEAR(ev_time(&m.r, "charger_state", "state", "cc", 0), 0.1, 1e-9);
	ASSERT_NEAR(mr_probe(&m, 0, "ibat_A"), 1.0, 1e-12);
	ASSERT_NEAR(ev_time(&m.r, "charger_state", "state", "precharge", 0), lo, 2e-5);
	ASSERT_NEAR(mr_probe(&m, 1, "charger_state"), CHG_PRECHARGE, 0);
	ASSERT_NEAR(mr_probe(&m, 1, "ibus_A"), 1.5, 1e-12);
	ASSERT_NEAR(mr_probe(&m, 1, "ibat_A"), -1.5, 1e-12);
	mr_done(&m);
}

/* A bad value inside the iindpm object names its key's path. */
static void test_pmic_iindpm_errors(void)
{
	REFUSED("{ \"device\": { \"pmic\": { \"iindpm\": { \"min\": \"5 V\" } } } }",
		"device.pmic.iindpm.min: found \"5 V\"", "expected a current");
	REFUSED("{ \"device\": { \"pmic\": { \"iindpm\": { \"mn\": \"1 A\" } } } }",
		"device.pmic.iindpm.mn: found an unknown key \"mn\"", "min, max, step, default");
}

/*
 * An IINDPM ladder ["100 mA", "500 mA", "1 A", "2 A"]: the fixed policy's 800 mA
 * rounds down to 500 mA. A ladder that leaves the preset's 500 mA reset value out
 * (["1 A", "2 A"]) resets to its lowest rung, 1 A.
 */
static void test_pmic_iindpm_ladder(void)
{
	static const struct { const char *ladder, *policy; double ilim; } c[] = {
		{ "[\"100 mA\", \"500 mA\", \"1 A\", \"2 A\"]",
		  "{ \"name\": \"fixed\", \"params\": { \"ilim\": \"800 mA\" } }", 0.5 },
		{ "[\"1 A\", \"2 A\"]", "\"none\"", 1.0 },
	};

	for (size_t k = 0; k < G_N_ELEMENTS(c); k++) {
		g_autofree char *json = g_strdup_printf(
			"{ \"duration\": \"1 s\", \"source\": { \"kind\": \"dcp\" },"
			"  \"device\": { \"pmic\": { \"preset\": \"generic-switching\", \"iindpm\": %s } },"
			"  \"policy\": %s }", c[k].ladder, c[k].policy);
		struct mr m;

		REQUIRE_MR(&m, json, 0, NULL);
		ASSERT_NEAR(tu_metric(&m.r, "ilim_final_A"), c[k].ilim, 1e-9);
		ASSERT_NEAR(tu_metric(&m.r, "ilim_max_A"), c[k].ilim, 1e-9);
		mr_done(&m);
	}
}

/*
 * ADC (pmic.h; docs/models.md): x = mean of n samples of (true + N(0, noise)),
 * code = round((x - offset)/lsb) clamped to [0, (full_scale - offset)/lsb], reading
 * offset + code*lsb; full_scale 0 means unlimited.
 *  Stuck: VBUS stuck at 0 V for 500 ms reads 0 whatever the truth, then bq25890's
 *    VBUS channel again: 4.7616 V -> round(21.616) = 22 -> 2.6 + 2.2 = 4.8 V; VBAT is
 *    not stuck meanwhile: 3.929 V -> round(81.25) = 81 -> 2.304 + 1.62 = 3.924 V.
 *  Ideal channel with full_scale 2 A: 1.5 A reads 1.5 A, 2.5 A reads 2.0 A.
 *  Signed channel: lsb 10 mA, offset -2 A, full_scale 0 (unlimited): 1.234 A ->
 *    round(323.4) = 323 -> 1.23 A; -1.5 A -> 50 -> -1.5 A; -2.5 A -> code 0 -> -2 A.
 *    (pmic.c used to take full_scale 0 > offset -2 as a range and clamp at 0 A.)
 *  Noise sigma 10 mA: one sample has sigma 0.01, the mean of 16 has 0.01/4 = 0.0025.
 *    Over 4000 readings the sample mean is within 4 sigma/sqrt(4000) of the truth and
 *    the sample deviation within 8 % of sigma (its relative error is ~1/sqrt(8000)).
 */
static void sample_stats(struct pmic *c, enum pmic_adc_chan ch, double truth, double *mean,
			 double *sd)
{
	const int n = 4000;
	double s = 0, s2 = 0;

	for (int k = 0; k < n; k++) {
		double x = pmic_adc_read(c, ch, truth);

		s += x;
		s2 += x * x;
	}
	*mean = s / n;
	*sd = sqrt((s2 - s * s / n) / (n - 1));
}

static void test_pmic_adc(void)
{
	struct pmic_params p;
	struct pmic c;
	struct sim s;
	double mean, sd;

	pmic_params_default(&p, pmic_preset("bq25890"));
	p.adc[PMIC_ADC_IBUS] = (struct pmic_adc_params){ .full_scale = 2.0, .average = 1 };
	p.adc[PMIC_ADC_IBAT] = (struct pmic_adc_params){ .lsb = 0.01, .offset = -2.0, .average = 1 };
	sim_init(&s, 7);
	pmic_init(&c, &p, &s, NULL, NULL, NULL);
	pmic_adc_stick(&c, PMIC_ADC_VBUS, 0.0, 500 * SIM_MS);
	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_VBUS, 4.7616), 0.0, 0);
	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_VBAT, 3.929), 3.924, 1e-9);
	sim_run_until(&s, 499 * SIM_MS);
	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_VBUS, 4.7616), 0.0, 0);
	sim_run_until(&s, 500 * SIM_MS);
	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_VBUS, 4.7616), 4.8, 1e-9);

	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_IBUS, 1.5), 1.5, 0);
	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_IBUS, 2.5), 2.0, 0);

	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_IBAT, 1.234), 1.23, 1e-9);
	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_IBAT, -1.5), -1.5, 1e-9);
	ASSERT_NEAR(pmic_adc_read(&c, PMIC_ADC_IBAT, -2.5), -2.0, 1e-9);

	p.adc[PMIC_ADC_IBUS] = (struct pmic_adc_params){ .noise = 0.01, .average = 1 };
	sample_stats(&c, PMIC_ADC_IBUS, 0.7, &mean, &sd);
	ASSERT_NEAR(mean, 0.7, 4 * 0.01 / sqrt(4000));
	ASSERT_NEAR(sd, 0.01, 0.08 * 0.01);
	p.adc[PMIC_ADC_IBUS].average = 16;
	sample_stats(&c, PMIC_ADC_IBUS, 0.7, &mean, &sd);
	ASSERT_NEAR(mean, 0.7, 4 * 0.0025 / sqrt(4000));
	ASSERT_NEAR(sd, 0.0025, 0.08 * 0.0025);
	pmic_cleanup(&c);
	sim_destroy(&s);
}

/* ---- the registry and the models' descriptors ---- */

/*
 * Every model the registry lists can be loaded, set and run through its descriptor
 * alone: a unique scenario key, a parameter table and its size, defaults; a list
 * name exactly when it has presets (and then the preset key is an enum of that
 * table); margins exactly when n_margins says so; state for init.
 */
static void test_registry_descriptors(void)
{
	CU_ASSERT(model_count() >= 6);
	for (int i = 0; model_registry[i]; i++) {
		const struct model_desc *d = model_registry[i];

		CU_ASSERT_PTR_NOT_NULL_FATAL(d->key);
		CU_ASSERT_EQUAL(model_index(d->key), i);
		CU_ASSERT_PTR_NOT_NULL(d->params);
		CU_ASSERT(d->params_size > 0);
		CU_ASSERT_PTR_NOT_NULL(d->defaults);
		CU_ASSERT_EQUAL(d->preset_key != NULL, d->list_name != NULL);
		if (d->preset_key) {
			const struct param_desc *pd = param_find(d->params, d->preset_key);

			CU_ASSERT(pd && pd->kind == PARAM_ENUM && pd->choices);
			CU_ASSERT_PTR_NOT_NULL(d->default_preset);
			CU_ASSERT_PTR_NOT_NULL(d->list_title);
		}
		CU_ASSERT_EQUAL(d->n_margins > 0, d->margins != NULL);
		CU_ASSERT_EQUAL(d->state_size > 0, d->init != NULL);
		for (const char *const *n = d->needs; n && *n; n++)
			CU_ASSERT(model_index(*n) >= 0);
	}
	CU_ASSERT_EQUAL(model_index("device.gadget"), -1);   /* the board's, not a model */
	CU_ASSERT_EQUAL(model_index("nope"), -1);
}

struct rec_log {
	int n;
	char what[8][32];
	sim_time_t t[8];
	double for_s[8];
};

static void rec_listener(void *data, sim_time_t t, const char *src, const char *ev,
			 const cJSON *rec)
{
	struct rec_log *l = data;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(rec, "for_s");

	if (l->n >= 8)
		return;
	g_snprintf(l->what[l->n], sizeof(l->what[0]), "%s/%s", src, ev);
	l->t[l->n] = t;
	l->for_s[l->n] = cJSON_IsNumber(f) ? f->valuedouble : -1;
	l->n++;
}

/* The cable's part of the circuit through its descriptor: with the source on. */
static bool cable_passes(struct cable *c)
{
	const struct model_desc *d = model_registry[model_index("cable")];
	struct net_out last = { 0 };
	struct net_in in = { .src_on = true };

	d->net(c, &last, &in);
	ASSERT_NEAR(in.r_cable, 2 * 0.2129 * 1.0 + 4 * 0.010, 1e-12);
	return in.src_on;
}

/*
 * A "vbus_dropout" fault: the cable opens what the source switched on for the
 * fault's duration. 1 m of 28 AWG with 4 new contacts: 2 * 0.2129 + 4 * 0.010 =
 * 0.4658 ohm in series either way. A second fault 100 ms into a 300 ms one extends
 * the dropout to 100 + 300 = 400 ms (one end record).
 */
static void test_cable_dropout(void)
{
	struct cable_params p;
	struct cable c;
	struct sim s;
	struct evlog *log = evlog_new();
	struct rec_log rl = { 0 };

	cable_params_default(&p);
	sim_init(&s, 1);
	evlog_add_listener(log, rec_listener, &rl);
	cable_init(&c, &p, &s, log, NULL, NULL);
	CU_ASSERT_TRUE(cable_passes(&c));
	cable_dropout(&c, 300 * SIM_MS);
	CU_ASSERT_FALSE(cable_passes(&c));
	sim_run_until(&s, 100 * SIM_MS);
	cable_dropout(&c, 300 * SIM_MS);
	sim_run_until(&s, 399 * SIM_MS);
	CU_ASSERT_FALSE(cable_passes(&c));
	sim_run_until(&s, 400 * SIM_MS);
	CU_ASSERT_TRUE(cable_passes(&c));
	CU_ASSERT_EQUAL_FATAL(rl.n, 3);
	CU_ASSERT_STRING_EQUAL(rl.what[0], "cable/dropout");
	ASSERT_NEAR(rl.for_s[0], 0.3, 1e-12);
	CU_ASSERT_STRING_EQUAL(rl.what[1], "cable/dropout");
	CU_ASSERT_EQUAL(rl.t[1], 100 * SIM_MS);
	CU_ASSERT_STRING_EQUAL(rl.what[2], "cable/dropout_end");
	CU_ASSERT_EQUAL(rl.t[2], 400 * SIM_MS);
	cable_cleanup(&c);
	sim_destroy(&s);
	evlog_free(log);
}

struct vbus_seen {
	int n;
	bool last;
	sim_time_t t;
	struct sim *sim;
};

static void vbus_seen_cb(void *ctx, bool valid)
{
	struct vbus_seen *v = ctx;

	v->n++;
	v->last = valid;
	v->t = sim_now(v->sim);
}

/* The PHY's comparator sees VBUS (op.vbus) at time t through its descriptor. */
static void phy_sees(struct sim *s, struct phy *ph, const struct model_wires *wires,
		     sim_time_t t, double vbus)
{
	const struct model_desc *d = model_registry[model_index("device.phy")];
	struct net_in in = { 0 };
	struct net_out op = { .vbus = vbus };
	struct model_point pt = { .in = &in, .op = &op, .wires = wires };

	sim_run_until(s, t);
	d->observe(ph, &pt);
}

/*
 * The VBUS comparator (vbus_valid 2.0 V, t_vbus_debounce 10 ms by default): a
 * session starts 10 ms after VBUS rises above 2.0 V; a dip to 1.0 V for 5 ms (shorter
 * than the debounce) is not seen; a collapse that lasts is, 10 ms after it began.
 * Without a plugged port (the vbus_attached wire) no VBUS is valid.
 */
static void test_phy_vbus_debounce(void)
{
	struct source_params sp;
	struct cable_params cp;
	struct phy_params pp;
	struct source src;
	struct phy ph;
	struct sim s;
	struct model_wires wires = { 0 };
	struct vbus_seen v = { .sim = &s };
	struct evlog *log = evlog_new();

	source_params_default(&sp, SRC_KIND_DCP);
	cable_params_default(&cp);
	phy_params_default(&pp);
	ASSERT_NEAR(pp.vbus_valid, 2.0, 0);
	CU_ASSERT_EQUAL(pp.t_vbus_debounce, 10 * SIM_MS);
	sim_init(&s, 1);
	source_init(&src, &sp, &s, log, NULL, NULL);
	phy_init(&ph, &pp, &sp, &cp, &src, &s, log);
	phy_set_owner(&ph, vbus_seen_cb, NULL, &v);
	wires.vbus_attached = &src.attached;

	phy_sees(&s, &ph, &wires, 0, 5.0);           /* not plugged: nothing valid */
	sim_run_until(&s, 50 * SIM_MS);
	CU_ASSERT_EQUAL(v.n, 0);
	source_attach(&src, true);
	phy_sees(&s, &ph, &wires, 50 * SIM_MS, 5.0);
	phy_sees(&s, &ph, &wires, 59 * SIM_MS, 5.0);
	CU_ASSERT_EQUAL(v.n, 0);
	sim_run_until(&s, 60 * SIM_MS);
	CU_ASSERT_EQUAL(v.n, 1);
	CU_ASSERT_TRUE(v.last);
	CU_ASSERT_EQUAL(v.t, 60 * SIM_MS);
	phy_sees(&s, &ph, &wires, 100 * SIM_MS, 1.0);
	phy_sees(&s, &ph, &wires, 105 * SIM_MS, 5.0);
	sim_run_until(&s, 200 * SIM_MS);
	CU_ASSERT_EQUAL(v.n, 1);
	phy_sees(&s, &ph, &wires, 200 * SIM_MS, 1.0);
	sim_run_until(&s, 300 * SIM_MS);
	CU_ASSERT_EQUAL(v.n, 2);
	CU_ASSERT_FALSE(v.last);
	CU_ASSERT_EQUAL(v.t, 210 * SIM_MS);
	phy_cleanup(&ph);
	source_cleanup(&src);
	sim_destroy(&s);
	evlog_free(log);
}

CU_TestInfo models_tests[] = {
	{ "registry: every model's descriptor is complete", test_registry_descriptors },
	{ "cable: dropout opens the circuit for its duration", test_cable_dropout },
	{ "phy: the vbus comparator's debounce", test_phy_vbus_debounce },
	{ "load: profile current and power steps", test_load_profile_steps },
	{ "load: demand (power, override) and brownout re-arm", test_load_demand_and_brownout },
	{ "load: bad profiles refused with their path", test_load_profile_errors },
	{ "boot: power_on always loops on a dead cell", test_boot_power_on_always },
	{ "boot: restart waits for vbus", test_boot_restart_waits_for_vbus },
	{ "boot: object without stages keeps the default stages", test_boot_default_stages },
	{ "boot: bad stages refused with their path", test_boot_errors },
	{ "source: rated current per kind", test_source_rated_current },
	{ "source: latch recovers after t_recover", test_source_latch_recover },
	{ "source: kind none never attaches", test_source_none_never_attaches },
	{ "source/phy: pd rules and the contract's current limit", test_pd_rules_and_contract_limit },
	{ "source: bad pdos refused with their path", test_pdo_errors },
	{ "cable: data connected, bad late and r_loop", test_cable_data_values },
	{ "phy: bc12/dcd off and unknown dividers", test_phy_options_and_dividers },
	{ "phy: rp changes (default, same, while unplugged)", test_phy_rp_changes },
	{ "phy: an rp reading outside every window is none", test_phy_rp_outside_windows },
	{ "battery: generic-4v2 preset and its v_max", test_battery_generic_4v2 },
	{ "battery: ocv table longer than 64 refused", test_battery_ocv_too_long },
	{ "battery: thermal step and loss (api)", test_battery_thermal_api },
	{ "battery: thermal steady state in a run", test_battery_thermal_run },
	{ "pmic: iindpm write latency, writes in flight", test_pmic_reg_latency },
	{ "pmic: more writes in flight than the queue holds", test_pmic_reg_queue_full },
	{ "pmic: ichg/vreg/vindpm writes take effect at once", test_pmic_register_writes },
	{ "pmic: ico under hw-ico", test_pmic_ico },
	{ "pmic: safety timer fault", test_pmic_safety_timer },
	{ "battery: an empty cell stops discharging, a charger releases it", test_battery_empty_cutoff },
	{ "load: no brownout at t = 0 below vsys_min", test_load_no_brownout_at_start },
	{ "full charge against the OCV table: presets, demo, a warning", test_full_charge_vs_ocv_table },
	{ "pmic: input over-voltage protection and its hysteresis", test_pmic_ovp },
	{ "pmic: set restarts the connect deglitch", test_pmic_set_restarts_deglitch },
	{ "pmic: precharge until vlowv", test_pmic_precharge },
	{ "pmic: precharge re-entered below vlowv - 0.1 V", test_pmic_precharge_reentry },
	{ "pmic: iindpm ladder", test_pmic_iindpm_ladder },
	{ "pmic: bad iindpm object refused with its path", test_pmic_iindpm_errors },
	{ "pmic: adc stuck, range, signed offset, noise", test_pmic_adc },
	CU_TEST_INFO_NULL,
};
