// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_scenario.c - the scenario loader (run/scenario.c) and --set overrides.
 *
 * Good files: values written with units land in the typed fields in base units (A,
 * ns, ohm, fraction), presets and kinds apply their documented defaults (datasheet
 * values for the bq25890: VINDPM 4.4 V, VREG 4.208 V, ITERM 256 mA) and keys next to
 * them win whatever their order, events and policies parse in the documented forms.
 *
 * Bad files: docs/scenarios.md (sections 2 and 12.1) promises a message that names the
 * file, the JSON path, what was found and what was expected; each case checks those
 * pieces of the message against the input written in the test, and that nothing is
 * loaded.
 *
 * --set: scenario_apply_set() on a cJSON document, checked node by node.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "models/battery/battery.h"
#include "models/cable/cable.h"
#include "models/load/load.h"
#include "models/pmic/pmic.h"
#include "models/source/source.h"
#include "run/scenario.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* A loaded scenario's parameters of one object, typed. */
#define SC_SOURCE(sc) ((const struct source_params *)scenario_params(sc, "source"))
#define SC_CABLE(sc) ((const struct cable_params *)scenario_params(sc, "cable"))
#define SC_PMIC(sc) ((const struct pmic_params *)scenario_params(sc, "device.pmic"))
#define SC_BATTERY(sc) ((const struct battery_params *)scenario_params(sc, "device.battery"))
#define SC_LOAD(sc) ((const struct load_params *)scenario_params(sc, "device.load"))

/* The name bad inputs are loaded under; every message must start with it. */
#define BAD_FILE "cases/bad.json"

static struct scenario *load_json(const char *file, const char *json, GError **err)
{
	return scenario_load_text(file, json, strlen(json), NULL, err);
}

/* Load json as a good file; print the error when it fails. */
static struct scenario *load_ok(const char *json)
{
	GError *err = NULL;
	struct scenario *sc = load_json("cases/good.json", json, &err);

	if (!sc)
		fprintf(stderr, "\n  good scenario rejected: %s\n  input: %s\n",
			err ? err->message : "(no error set)", json);
	else if (err)
		fprintf(stderr, "\n  success with an error set: %s\n", err->message);
	g_clear_error(&err);
	return sc;
}

/*
 * Check a failed load: no scenario, an error in the scenario domain, a message that
 * starts with prefix (the file name, or "FILE:LINE:COL:") and contains every needle.
 * A needle starting with '!' must NOT appear. The list ends with NULL.
 */
static bool check_failure(struct scenario *sc, GError *err, const char *prefix,
			  const char *input, va_list ap)
{
	const char *needle;
	bool ok = true;

	if (sc) {
		fprintf(stderr, "\n  accepted a bad scenario: %s\n", input);
		scenario_free(sc);
		g_clear_error(&err);
		return false;
	}
	if (!err) {
		fprintf(stderr, "\n  failed without an error: %s\n", input);
		return false;
	}
	if (err->domain != CS_SCENARIO_ERROR) {
		fprintf(stderr, "\n  error not in CS_SCENARIO_ERROR: %s\n", err->message);
		ok = false;
	}
	if (!g_str_has_prefix(err->message, prefix)) {
		fprintf(stderr, "\n  message does not start with \"%s\": %s\n", prefix,
			err->message);
		ok = false;
	}
	while ((needle = va_arg(ap, const char *))) {
		bool neg = needle[0] == '!';
		bool has = strstr(err->message, neg ? needle + 1 : needle) != NULL;

		if (has == neg) {
			fprintf(stderr, "\n  message %s \"%s\": %s\n",
				neg ? "contains" : "lacks", neg ? needle + 1 : needle,
				err->message);
			ok = false;
		}
	}
	g_clear_error(&err);
	return ok;
}

static bool fails_with_prefix(const char *prefix, const char *json, ...)
{
	GError *err = NULL;
	struct scenario *sc = load_json(BAD_FILE, json, &err);
	va_list ap;
	bool ok;

	va_start(ap, json);
	ok = check_failure(sc, err, prefix, json, ap);
	va_end(ap);
	return ok;
}

#define FAILS(json, ...) \
	CU_ASSERT(fails_with_prefix(BAD_FILE ": ", json, __VA_ARGS__, NULL))
#define FAILS_AT(pos, json, ...) \
	CU_ASSERT(fails_with_prefix(BAD_FILE ":" pos ": ", json, __VA_ARGS__, NULL))

/* Load with --set assignments; fails the same way. */
static bool set_fails(const char *json, const char *const *sets, ...)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load_text(BAD_FILE, json, strlen(json), sets, &err);
	va_list ap;
	bool ok;

	va_start(ap, sets);
	ok = check_failure(sc, err, "", json, ap);
	va_end(ap);
	return ok;
}

/* ---- good files ---- */

static void test_units_in_strings(void)
{
	struct scenario *sc = load_ok(
		"{ \"duration\": \"2 h\","
		"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"500 mA\", \"voc\": \"5.1 V\","
		"              \"rout\": \"130 mohm\", \"t_trip\": \"10 ms\" },"
		"  \"cable\": { \"length\": \"500 mm\", \"r_contact\": \"30 mohm\", \"awg\": 24 },"
		"  \"device\": { \"battery\": { \"soc\": \"95 %\", \"capacity\": \"3000 mAh\","
		"                             \"temperature\": \"35 C\" },"
		"              \"load\": { \"current\": \"250 mA\" } } }");

	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(sc->duration, (sim_time_t)7200 * 1000000000);
	CU_ASSERT(SC_SOURCE(sc)->ilim == 0.5);
	CU_ASSERT(SC_SOURCE(sc)->voc == 5.1);
	CU_ASSERT(SC_SOURCE(sc)->rout == 0.13);
	CU_ASSERT_EQUAL(SC_SOURCE(sc)->t_trip, (sim_time_t)10000000);
	CU_ASSERT(SC_CABLE(sc)->r_contact == 0.03);
	CU_ASSERT_EQUAL(SC_CABLE(sc)->awg, 24);
	CU_ASSERT(SC_BATTERY(sc)->soc == 0.95);
	CU_ASSERT(SC_BATTERY(sc)->capacity_ah == 3.0);
	CU_ASSERT(SC_BATTERY(sc)->temperature_c == 35.0);
	CU_ASSERT(SC_LOAD(sc)->current == 0.25);
	scenario_free(sc);
}

/* Bare numbers are in the documented base unit (capacity takes none: below). */
static void test_bare_numbers(void)
{
	struct scenario *sc = load_ok(
		"{ \"duration\": 90, \"seed\": 42,"
		"  \"source\": { \"ilim\": 1.1, \"t_off\": 0.5 },"
		"  \"device\": { \"battery\": { \"soc\": 0.2, \"capacity\": \"2 Ah\" } } }");

	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(sc->duration, (sim_time_t)90 * 1000000000);
	CU_ASSERT_EQUAL(sc->seed, 42u);
	CU_ASSERT(SC_SOURCE(sc)->ilim == 1.1);
	CU_ASSERT_EQUAL(SC_SOURCE(sc)->t_off, (sim_time_t)500000000);
	CU_ASSERT(SC_BATTERY(sc)->soc == 0.2);
	CU_ASSERT(SC_BATTERY(sc)->capacity_ah == 2.0);
	scenario_free(sc);
}

/* The preset gives every value; a key next to it overrides, in either order. */
static void test_pmic_preset_override(void)
{
	static const char *const docs[] = {
		"{ \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"vreg\": \"4.35 V\" } } }",
		"{ \"device\": { \"pmic\": { \"vreg\": \"4.35 V\", \"preset\": \"bq25890\" } } }",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(docs); i++) {
		struct scenario *sc = load_ok(docs[i]);

		CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
		CU_ASSERT_STRING_EQUAL(pmic_preset_names[SC_PMIC(sc)->preset], "bq25890");
		CU_ASSERT(SC_PMIC(sc)->vindpm == 4.4);   /* datasheet default, from the preset */
		CU_ASSERT(SC_PMIC(sc)->iterm == 0.256);  /* datasheet default, from the preset */
		CU_ASSERT(SC_PMIC(sc)->vreg == 4.35);    /* the override */
		scenario_free(sc);
	}
}

/* vindpm may be switched off with null. */
static void test_pmic_null_vindpm(void)
{
	struct scenario *sc = load_ok(
		"{ \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"vindpm\": null } } }");

	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT(SC_PMIC(sc)->vindpm == 0);
	CU_ASSERT(SC_PMIC(sc)->vreg == 4.208);
	scenario_free(sc);
}

static void test_source_kinds(void)
{
	struct scenario *sc;

	/* the port's name is its rating */
	sc = load_ok("{ \"source\": { \"kind\": \"apple-2.1a\" } }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(SC_SOURCE(sc)->kind, SRC_KIND_APPLE_2_1A);
	CU_ASSERT(SC_SOURCE(sc)->ilim == 2.1);
	scenario_free(sc);

	sc = load_ok("{ \"source\": { \"kind\": \"samsung-2a\" } }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT(SC_SOURCE(sc)->ilim == 2.0);
	scenario_free(sc);

	sc = load_ok("{ \"source\": { \"ilim\": \"1.1 A\", \"kind\": \"apple-2.4a\" } }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT(SC_SOURCE(sc)->ilim == 1.1);
	scenario_free(sc);

	sc = load_ok("{ \"source\": { \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 2A\", \"15 V 1.5 A\"] } }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(SC_SOURCE(sc)->n_pdos, 3);
	CU_ASSERT(SC_SOURCE(sc)->pdos[1].v == 9.0 && SC_SOURCE(sc)->pdos[1].i == 2.0);
	CU_ASSERT(SC_SOURCE(sc)->pdos[2].v == 15.0 && SC_SOURCE(sc)->pdos[2].i == 1.5);
	scenario_free(sc);
}

/* Type-C: the current follows Rp (default USB 2.0 500 mA, 1.5 A, 3.0 A) unless given. */
static void test_typec_rp(void)
{
	static const struct { const char *json; double ilim; } cases[] = {
		{ "{ \"source\": { \"kind\": \"typec\" } }", 0.5 },
		{ "{ \"source\": { \"kind\": \"typec\", \"rp\": \"1.5A\" } }", 1.5 },
		{ "{ \"source\": { \"kind\": \"typec\", \"rp\": \"3.0A\" } }", 3.0 },
		{ "{ \"source\": { \"kind\": \"typec\", \"rp\": \"3.0A\", \"ilim\": \"2 A\" } }", 2.0 },
		{ "{ \"source\": { \"ilim\": \"700 mA\", \"kind\": \"typec\", \"rp\": \"1.5A\" } }", 0.7 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct scenario *sc = load_ok(cases[i].json);

		CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
		if (SC_SOURCE(sc)->ilim != cases[i].ilim)
			fprintf(stderr, "\n  %s: ilim %g, want %g\n", cases[i].json,
				SC_SOURCE(sc)->ilim, cases[i].ilim);
		CU_ASSERT(SC_SOURCE(sc)->ilim == cases[i].ilim);
		scenario_free(sc);
	}
}

/* Defaults documented in scenario.h and docs/scenarios.md section 3: name from the
 * file, policy fixed, source attached at t = 0. */
static void test_defaults(void)
{
	GError *err = NULL;
	struct scenario *sc = load_json("some/dir/my-case.json", "{}", &err);

	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_PTR_NULL(err);
	CU_ASSERT_STRING_EQUAL(sc->name, "my-case");
	CU_ASSERT_STRING_EQUAL(sc->dir, "some/dir");
	CU_ASSERT_STRING_EQUAL(sc->policy.name, "fixed");
	CU_ASSERT_PTR_NULL(sc->policy.plugin);
	CU_ASSERT(sc->attach_at_start);
	CU_ASSERT_EQUAL(sc->n_events, 0);
	CU_ASSERT_PTR_NULL(sc->expect);
	CU_ASSERT_STRING_EQUAL(pmic_preset_names[SC_PMIC(sc)->preset], "generic-switching");
	scenario_free(sc);
}

static void test_events_in_order(void)
{
	struct scenario *sc = load_ok(
		"{ \"duration\": \"3 h\", \"events\": ["
		"  { \"at\": \"1 s\", \"do\": \"plug\" },"
		"  { \"at\": \"40 min\", \"do\": \"set\", \"path\": \"device.load.current\", \"value\": \"150 mA\" },"
		"  { \"at\": \"40 min\", \"do\": \"suspend\" },"
		"  { \"at\": 3000, \"do\": \"resume\" },"
		"  { \"at\": \"1 h\", \"do\": \"fault\", \"fault\": \"vbus_dropout\", \"for\": \"300 ms\" },"
		"  { \"at\": \"90 min\", \"do\": \"fault\", \"fault\": \"adc_stuck\", \"channel\": \"vbat\","
		"    \"value\": \"3.9 V\", \"for\": \"2 s\" },"
		"  { \"at\": \"2 h\", \"do\": \"set\", \"path\": \"device.pmic.adc.vbus.noise\", \"value\": 0.01 },"
		"  { \"at\": \"2 h\", \"do\": \"set\", \"path\": \"policy.params.max\", \"value\": \"1.7 A\" },"
		"  { \"at\": \"3 h\", \"do\": \"unplug\" } ] }");
	const struct scenario_event *e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL_FATAL(sc->n_events, 9);
	e = sc->events;
	CU_ASSERT_FALSE(sc->attach_at_start);   /* the first event is a plug */
	CU_ASSERT_EQUAL(e[0].kind, SCN_EV_PLUG);
	CU_ASSERT_EQUAL(e[0].at, (sim_time_t)1000000000);

	CU_ASSERT_EQUAL(e[1].kind, SCN_EV_SET);
	CU_ASSERT_EQUAL(e[1].at, (sim_time_t)2400 * 1000000000);
	CU_ASSERT_STRING_EQUAL(e[1].path, "device.load.current");
	CU_ASSERT_EQUAL(e[1].obj, scenario_object_index("device.load"));
	CU_ASSERT_PTR_NOT_NULL(e[1].desc);
	if (e[1].desc)
		CU_ASSERT_STRING_EQUAL(e[1].desc->key, "current");
	CU_ASSERT(cJSON_IsString(e[1].value) &&
		  strcmp(e[1].value->valuestring, "150 mA") == 0);

	CU_ASSERT_EQUAL(e[2].kind, SCN_EV_SUSPEND);
	CU_ASSERT_EQUAL(e[3].kind, SCN_EV_RESUME);
	CU_ASSERT_EQUAL(e[3].at, (sim_time_t)3000 * 1000000000);

	CU_ASSERT_EQUAL(e[4].kind, SCN_EV_FAULT_DROPOUT);
	CU_ASSERT_EQUAL(e[4].at, (sim_time_t)3600 * 1000000000);
	CU_ASSERT_EQUAL(e[4].duration, (sim_time_t)300000000);

	CU_ASSERT_EQUAL(e[5].kind, SCN_EV_FAULT_ADC_STUCK);
	CU_ASSERT_EQUAL(e[5].channel, PMIC_ADC_VBAT);
	CU_ASSERT(e[5].stuck_value == 3.9);
	CU_ASSERT_EQUAL(e[5].duration, (sim_time_t)2000000000);

	CU_ASSERT_EQUAL(e[6].obj, scenario_object_index("device.pmic"));
	CU_ASSERT_PTR_NOT_NULL(e[6].desc);
	if (e[6].desc)
		CU_ASSERT_STRING_EQUAL(e[6].desc->key, "noise");
	/* the field it names is adc[VBUS].noise inside struct pmic_params */
	CU_ASSERT_EQUAL(e[6].base_off + (e[6].desc ? e[6].desc->off : 0),
			offsetof(struct pmic_params, adc[PMIC_ADC_VBUS].noise));

	CU_ASSERT_EQUAL(e[7].obj, SCN_OBJ_POLICY);
	CU_ASSERT_PTR_NULL(e[7].desc);

	CU_ASSERT_EQUAL(e[8].kind, SCN_EV_UNPLUG);
	CU_ASSERT_EQUAL(e[8].at, (sim_time_t)3 * 3600 * 1000000000);
	scenario_free(sc);
}

static void test_policy_forms(void)
{
	struct scenario *sc;
	const cJSON *max;

	sc = load_ok("{ \"policy\": \"twl4030\" }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_STRING_EQUAL(sc->policy.name, "twl4030");
	CU_ASSERT_PTR_NULL(sc->policy.params);
	scenario_free(sc);

	sc = load_ok("{ \"policy\": { \"name\": \"twl4030\", \"params\": { \"max\": \"1.7 A\" } } }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_STRING_EQUAL(sc->policy.name, "twl4030");
	CU_ASSERT_PTR_NULL(sc->policy.plugin);
	max = cJSON_GetObjectItemCaseSensitive(sc->policy.params, "max");
	CU_ASSERT(cJSON_IsString(max) && strcmp(max->valuestring, "1.7 A") == 0);
	scenario_free(sc);

	/* a relative plugin path is resolved against the scenario's directory */
	sc = load_ok("{ \"policy\": { \"plugin\": \"plugins/mine.so\" } }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_PTR_NULL(sc->policy.name);
	CU_ASSERT_STRING_EQUAL(sc->policy.plugin, "cases/plugins/mine.so");
	scenario_free(sc);

	FAILS("{ \"policy\": { \"name\": \"a\", \"plugin\": \"b.so\" } }", "policy", "found both");
	FAILS("{ \"policy\": { \"params\": {} } }", "policy", "found neither");
	FAILS("{ \"policy\": 3 }", "policy: found 3", "expected");
	FAILS("{ \"policy\": { \"name\": \"fixed\", \"parms\": {} } }", "policy.parms",
	      "did you mean \"params\"");
}

static void test_expect_kept(void)
{
	struct scenario *sc = load_ok(
		"{ \"expect\": [ { \"metric\": \"source_trips\", \">=\": 1 },"
		"               { \"metric\": \"vbus_min_V\", \"<\": \"4.5 V\" } ] }");

	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT(cJSON_IsArray(sc->expect));
	CU_ASSERT_EQUAL(cJSON_GetArraySize(sc->expect), 2);
	scenario_free(sc);
	FAILS("{ \"expect\": [ { \"metric\": \"a\", \"signal\": \"b\" } ] }", "expect[0]", "expected");
}

/* --set assignments given to the loader are applied before the document is read. */
static void test_load_with_sets(void)
{
	static const char *const sets[] = {
		"source.ilim=\"2 A\"", "seed=7", "events[0].at=\"5 s\"", NULL,
	};
	GError *err = NULL;
	const char *json = "{ \"source\": { \"ilim\": \"1 A\" },"
			   "  \"events\": [ { \"at\": \"1 s\", \"do\": \"unplug\" } ] }";
	struct scenario *sc = scenario_load_text("cases/good.json", json, strlen(json), sets, &err);

	if (!sc)
		fprintf(stderr, "\n  %s\n", err->message);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT(SC_SOURCE(sc)->ilim == 2.0);
	CU_ASSERT_EQUAL(sc->seed, 7u);
	CU_ASSERT_EQUAL(sc->events[0].at, (sim_time_t)5000000000);
	scenario_free(sc);

	/* a misspelt path set from the command line is an unknown key like any other */
	{
		static const char *const bad[] = { "source.ilimm=1", NULL };

		CU_ASSERT(set_fails("{}", bad, "source.ilimm", "did you mean \"ilim\"", NULL));
	}
	/* a value of the wrong dimension */
	{
		static const char *const bad[] = { "device.pmic.iterm=\"5 V\"", NULL };

		CU_ASSERT(set_fails("{}", bad, "device.pmic.iterm", "found \"5 V\" (a voltage)", NULL));
	}
}

/*
 * The usual way to write a --set on a command line is without JSON quotes:
 * --set device.pmic.iterm=100mA. docs/scenarios.md section 10: VALUE is JSON when it
 * parses as JSON, else a string; "100mA" is not JSON, so it must mean 100 mA (0.1 A),
 * not 100 A.
 */
static void test_load_with_unquoted_unit_sets(void)
{
	static const char *const sets[] = {
		"device.pmic.iterm=100mA", "duration=90min", "device.load.current=250 mA", NULL,
	};
	GError *err = NULL;
	struct scenario *sc = scenario_load_text("cases/good.json", "{}", 2, sets, &err);

	if (!sc)
		fprintf(stderr, "\n  --set device.pmic.iterm=100mA duration=90min: %s\n",
			err ? err->message : "?");
	g_clear_error(&err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT(SC_PMIC(sc)->iterm == 0.1);
	CU_ASSERT_EQUAL(sc->duration, (sim_time_t)5400 * 1000000000);
	CU_ASSERT(SC_LOAD(sc)->current == 0.25);
	scenario_free(sc);
}

/* ---- bad files ---- */

static void test_syntax_error_position(void)
{
	/* line 3 is `  "b": }`: the '}' where a value should be is column 8 */
	FAILS_AT("3:8", "{\n  \"a\": 1,\n  \"b\": }\n", "found", "expected");
	/* a missing comma: the second key starts at line 2, column 2 */
	FAILS_AT("2:2", "{\"seed\": 1\n \"name\": \"x\"}", "found", "expected");
	/* a tab counts as one column */
	FAILS_AT("2:9", "{\n\t\"seed\" 1 }", "found", "expected");
}

static void test_trailing_garbage(void)
{
	/* a stray brace at the start of line 2 */
	FAILS_AT("2:1", "{}\n}", "found", "expected");
	FAILS_AT("1:4", "{} {}", "found", "expected");
	/* trailing whitespace is fine */
	{
		struct scenario *sc = load_ok("{}\n\n  \t\n");

		CU_ASSERT_PTR_NOT_NULL(sc);
		scenario_free(sc);
	}
}

static void test_wrong_dimension(void)
{
	FAILS("{ \"device\": { \"pmic\": { \"iterm\": \"5 V\" } } }",
	      "device.pmic.iterm", "found \"5 V\" (a voltage)", "expected a current");
	FAILS("{ \"duration\": \"5 V\" }", "duration", "found \"5 V\"", "expected");
	FAILS("{ \"source\": { \"ilim\": true } }", "source.ilim", "found true", "expected a current");
}

static void test_unknown_keys(void)
{
	FAILS("{ \"source\": { \"ilimm\": 1 } }", "source.ilimm", "found an unknown key",
	      "did you mean \"ilim\"");
	FAILS("{ \"sourec\": { } }", "sourec", "found an unknown key", "did you mean \"source\"");
	FAILS("{ \"frobnicate\": 1 }", "frobnicate", "found an unknown key", "expected one of",
	      "!did you mean");
	FAILS("{ \"device\": { \"batery\": { } } }", "device.batery", "did you mean \"battery\"");
	FAILS("{ \"device\": { \"pmic\": { \"preset\": \"bq25890\", \"vregg\": 4.2 } } }",
	      "device.pmic.vregg", "did you mean \"vreg\"");
	FAILS("{ \"device\": { \"pmic\": { \"preset\": \"bq2589\" } } }",
	      "device.pmic.preset", "found \"bq2589\"", "did you mean \"bq25890\"");
	FAILS("{ \"events\": [ { \"at\": 1, \"do\": \"unplug\", \"value\": 2 } ] }",
	      "events[0].value", "found an unknown key");
}

static void test_duplicate_keys(void)
{
	FAILS("{ \"seed\": 1, \"seed\": 2 }", "seed", "twice");
	FAILS("{ \"source\": { \"ilim\": \"1 A\", \"ilim\": \"2 A\" } }", "source.ilim", "twice");
	FAILS("{ \"events\": [ { \"at\": 1, \"do\": \"plug\", \"do\": \"unplug\" } ] }",
	      "events[0].do", "twice");
}

static void test_out_of_range(void)
{
	FAILS("{ \"cable\": { \"r_contact\": \"-5 mohm\" } }", "cable.r_contact",
	      "found \"-5 mohm\"", "expected");
	FAILS("{ \"cable\": { \"r_loop\": -1 } }", "cable.r_loop", "found -1", "expected");
	/* docs/scenarios.md 14.4: capacity from 1 mAh to 1000 Ah */
	FAILS("{ \"device\": { \"battery\": { \"capacity\": \"0 Ah\" } } }", "device.battery.capacity",
	      "found \"0 Ah\"", "expected a value of at least 1 mAh and at most 1000 Ah");
	FAILS("{ \"device\": { \"battery\": { \"capacity\": \"5e-324 Ah\" } } }",
	      "device.battery.capacity", "expected 0 or a charge of at least 1 nAh");
	/* fractions are bounded in % whichever way they were written */
	FAILS("{ \"device\": { \"battery\": { \"soc\": 1.5 } } }", "device.battery.soc",
	      "found 1.5", "at most 100 %");
	FAILS("{ \"device\": { \"battery\": { \"soc\": \"150 %\" } } }", "device.battery.soc",
	      "found \"150 %\"", "expected");
	FAILS("{ \"source\": { \"ilim\": 1e999 } }", "source.ilim", "out of range");
	FAILS("{ \"seed\": -1 }", "seed: found -1", "expected a whole number");
	FAILS("{ \"seed\": 1.5 }", "seed: found 1.5", "expected a whole number");
	FAILS("{ \"duration\": \"0 s\" }", "duration", "expected a time above 0");
	FAILS("{ \"name\": \"../x\" }", "name", "found \"../x\"", "expected");
}

/*
 * Issue 16.2, capacity: the only key not in an SI base unit takes no bare number. A
 * newcomer's 4000 is 4000 mAh (4000 Ah is out of range); 2 may be either.
 */
static void test_capacity_needs_unit(void)
{
	struct scenario *sc;

	FAILS("{ \"device\": { \"battery\": { \"capacity\": 4000 } } }", "device.battery.capacity",
	      "found 4000 without a unit", "did you mean \"4000 mAh\"?");
	FAILS("{ \"device\": { \"battery\": { \"capacity\": 400 } } }", "device.battery.capacity",
	      "found 400 without a unit", "\"400 mAh\"");
	FAILS("{ \"device\": { \"battery\": { \"capacity\": \"2\" } } }", "device.battery.capacity",
	      "without a unit", "did you mean \"2 Ah\" or \"2 mAh\"?");
	sc = load_ok("{ \"device\": { \"battery\": { \"capacity\": \"4000 mAh\" } } }");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_DOUBLE_EQUAL(SC_BATTERY(sc)->capacity_ah, 4.0, 1e-15);
	scenario_free(sc);
}

/*
 * Issue 15.6: a bound is reached however the value is written. "1 min" is exactly
 * the 60 s maximum of t_restart, "358.15 K" the 85 C maximum of temperature (a ULP
 * above it after the kelvin offset, stored as 85).
 */
static void test_bounds_in_other_units(void)
{
	static const char *const ok[] = {
		"{ \"device\": { \"pmic\": { \"t_restart\": \"1 min\", \"t_replug\": \"1 min\" } } }",
		"{ \"source\": { \"t_ocp\": \"1 min\", \"t_enumerate\": 60 } }",
		"{ \"device\": { \"battery\": { \"temperature\": \"358.15 K\" } } }",
		"{ \"device\": { \"battery\": { \"soc\": \"100 %\" } } }",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(ok); i++) {
		struct scenario *sc = load_ok(ok[i]);

		CU_ASSERT_PTR_NOT_NULL(sc);
		if (sc && i == 0)
			CU_ASSERT_EQUAL(SC_PMIC(sc)->t_restart, 60 * SIM_S);
		if (sc && i == 2)
			CU_ASSERT(SC_BATTERY(sc)->temperature_c == 85.0);
		scenario_free(sc);
	}
	/* one nanosecond over is over, and the message gives the bound in minutes */
	FAILS("{ \"device\": { \"pmic\": { \"t_restart\": \"60.000000001 s\" } } }",
	      "device.pmic.t_restart", "expected a value of at least 1 ms and at most 1 min");
	FAILS("{ \"device\": { \"battery\": { \"soc\": \"120 %\" } } }", "device.battery.soc",
	      "found \"120 %\"", "expected a value of at least 0 % and at most 100 %");
}

/* Issue 16.2: Rp is written as a current in any spelling, or by its Type-C name. */
static void test_rp_spellings(void)
{
	static const struct { const char *text; int rp; } cases[] = {
		{ "3A", SRC_RP_3A0 }, { "3.0A", SRC_RP_3A0 }, { "3000 mA", SRC_RP_3A0 },
		{ "1.5A", SRC_RP_1A5 }, { "1.5 A", SRC_RP_1A5 }, { "default", SRC_RP_DEFAULT },
		{ "usb", SRC_RP_DEFAULT }, { "Default", SRC_RP_DEFAULT },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *json = g_strdup_printf(
			"{ \"source\": { \"kind\": \"typec\", \"rp\": \"%s\" } }", cases[i].text);
		struct scenario *sc = load_ok(json);

		CU_ASSERT_PTR_NOT_NULL(sc);
		if (sc)
			CU_ASSERT_EQUAL(SC_SOURCE(sc)->rp, cases[i].rp);
		scenario_free(sc);
	}
	FAILS("{ \"source\": { \"kind\": \"typec\", \"rp\": \"2A\" } }", "source.rp",
	      "found \"2A\"", "expected one of \"default\", \"1.5A\", \"3.0A\"");
}

/* Issue 15.6: messages that name what is wrong. */
static void test_input_messages(void)
{
	static const char valid[] = "{ \"duration\": \"10 s\" }";
	static const char *const not_utf8[] = { "device.load.current=\xff\xfe", NULL };
	static const char *const huge[] = { "device.battery.ocv[99999999999999999999]=1", NULL };
	static const char *const past[] = { "device.pmic.iindpm[7]=1", NULL };
	static const char *const set_cap[] = { "device.battery.capacity=4000", NULL };
	static const char utf16[] = "\xff\xfe{\0}\0";
	static const char utf16be[] = "\0{\0}";
	static const char utf32[] = "{\0\0\0}\0\0\0";
	GError *err = NULL;

	CU_ASSERT(set_fails(valid, not_utf8, "--set: found \"device.load.current=\\xff\\xfe\"",
			    "not UTF-8", NULL));
	CU_ASSERT(set_fails(valid, huge, "found no element 99999999999999999999 in \"ocv\"", NULL));
	CU_ASSERT(set_fails("{ \"device\": { \"pmic\": { \"iindpm\": [\"1 A\", \"2 A\"] } } }", past,
			    "found no element 7 in \"iindpm\", expected an index from 0 to 1", NULL));
	CU_ASSERT(set_fails(valid, set_cap, "device.battery.capacity: found 4000 without a unit",
			    "\"4000 mAh\"", NULL));
	CU_ASSERT_PTR_NULL(scenario_load_text("u.json", utf16, sizeof(utf16) - 1, NULL, &err));
	CU_ASSERT(err && strstr(err->message, "u.json: found UTF-16 text, expected UTF-8 JSON"));
	g_clear_error(&err);
	CU_ASSERT_PTR_NULL(scenario_load_text("u.json", utf16be, sizeof(utf16be) - 1, NULL, &err));
	CU_ASSERT(err && strstr(err->message, "found UTF-16BE text"));
	g_clear_error(&err);
	CU_ASSERT_PTR_NULL(scenario_load_text("u.json", utf32, sizeof(utf32) - 1, NULL, &err));
	CU_ASSERT(err && strstr(err->message, "found UTF-32LE text"));
	g_clear_error(&err);
	/* a set event that breaks another object's check names the event */
	FAILS("{ \"duration\": \"1 min\", \"events\": [ { \"at\": \"1 s\", \"do\": \"set\","
	      "  \"path\": \"device.battery.v_max\", \"value\": \"4 V\" } ] }",
	      "events[0]: found a set of device.battery.v_max to \"4 V\" that breaks a check",
	      "device.pmic.vreg: found 4.2 V, expected at most the battery's v_max 4 V");
	/* a long list is described by its length */
	{
		GString *j = g_string_new("{ \"device\": { \"pmic\": { \"iindpm\": [");

		for (int i = 0; i < 300; i++)
			g_string_append_printf(j, "%s\"%d mA\"", i ? "," : "", 100 + i);
		g_string_append(j, "] } } }");
		FAILS(j->str, "device.pmic.iindpm: found a list of 300 items", "1 to 16 currents");
		g_string_free(j, TRUE);
	}
}

/* AWG is one of 20, 22, 24, 26, 28 (cable.c documents exactly these); 21 has no
 * resistance per metre and must not be accepted. */
static void test_odd_awg(void)
{
	FAILS("{ \"cable\": { \"awg\": 21 } }", "cable.awg", "found 21", "expected");
}

static void test_event_errors(void)
{
	FAILS("{ \"duration\": \"1 h\", \"events\": [ { \"at\": \"2 h\", \"do\": \"unplug\" } ] }",
	      "events[0].at", "found 7200 s", "expected");
	FAILS("{ \"events\": [ { \"at\": \"20 min\", \"do\": \"unplug\" },"
	      "              { \"at\": \"10 min\", \"do\": \"plug\" } ] }",
	      "events[1].at", "found 600 s", "expected events in time order");
	FAILS("{ \"events\": [ { \"at\": \"-1 s\", \"do\": \"unplug\" } ] }",
	      "events[0].at", "found -1 s", "expected");
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"unplugg\" } ] }",
	      "events[0].do", "found \"unplugg\"", "did you mean \"unplug\"");
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"fault\", \"fault\": \"vbus_dropout\" } ] }",
	      "events[0]", "\"for\"");
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"fault\", \"fault\": \"meteor\", \"for\": 1 } ] }",
	      "events[0].fault", "found \"meteor\"", "expected");
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"device.load.current\" } ] }",
	      "events[0]", "\"value\"");
	FAILS("{ \"events\": { \"at\": 1 } }", "events: found {\"at\":1}", "expected a list");
	/* a kind or preset cannot change during a run */
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"source.kind\", \"value\": \"sdp\" } ] }",
	      "source.kind", "cannot change");
}

/* A set value is validated at load, against the parameter it names. */
static void test_set_event_value(void)
{
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"device.load.current\","
	      " \"value\": \"5 V\" } ] }",
	      "events[0].value", "found \"5 V\" (a voltage)", "expected a current");
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"device.load.current\","
	      " \"value\": \"25 A\" } ] }",
	      "events[0].value", "found \"25 A\"", "at most 20");
}

/* An unknown set path: the message names the event's "path" member and the path
 * that was found, once, with a suggestion for the misspelt last part. */
static void test_set_event_unknown_path(void)
{
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"device.load.currnet\","
	      " \"value\": \"1 A\" } ] }",
	      "events[0].path", "currnet", "did you mean \"current\"", "!currnet.currnet");
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"battery.soc\","
	      " \"value\": 0.5 } ] }",
	      "events[0].path", "found the path \"battery.soc\"", "expected");
}

/* The load-time rule "vreg at most the battery's v_max" also holds for a value a set
 * event puts there: a loaded scenario is valid, and a run never reports input errors. */
static void test_set_event_vreg_above_vmax(void)
{
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"device.pmic.vreg\","
	      " \"value\": \"4.6 V\" } ] }",
	      "events[0]", "vreg", "4.6", "v_max");
}

/*
 * A `set` on the battery checks the battery, then every object that reads it: the
 * pmic's VREG (4.2 V in generic-switching, the default preset) must stay at most the
 * new v_max, so 4.0 V is refused with the pmic's message and 4.3 V is taken.
 */
static void test_set_event_vmax_rechecks_pmic(void)
{
	FAILS("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"device.battery.v_max\","
	      " \"value\": \"4.0 V\" } ] }",
	      "device.pmic.vreg: found 4.2 V, expected at most the battery's v_max 4 V");
	{
		struct scenario *sc = load_ok(
			"{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\","
			"  \"path\": \"device.battery.v_max\", \"value\": \"4.3 V\" } ] }");

		CU_ASSERT_PTR_NOT_NULL(sc);
		if (sc)
			CU_ASSERT_EQUAL(sc->events[0].obj, scenario_object_index("device.battery"));
		scenario_free(sc);
	}
}

/* Only the models' parameters and the policy's can change during a run: the board's
 * objects (device.gadget, device.kernel) are loaded like the models but not `set`. */
static void test_set_event_roots(void)
{
	static const char *const paths[] = { "device.gadget.usb3", "device.kernel.extcon", "dock.x" };

	for (size_t i = 0; i < G_N_ELEMENTS(paths); i++) {
		g_autofree char *json = g_strdup_printf(
			"{ \"events\": [ { \"at\": \"1 s\", \"do\": \"set\", \"path\": \"%s\","
			"  \"value\": 1 } ] }", paths[i]);
		g_autofree char *found = g_strdup_printf("found the path \"%s\"", paths[i]);

		FAILS(json, "events[0].path", found,
		      "expected one starting with source., cable., device.pmic., device.battery.,"
		      " device.load., device.phy. or policy.params.");
	}
	/* every object loads from the section its key names */
	{
		struct scenario *sc = load_ok(
			"{ \"source\": { \"voc\": \"5.2 V\" }, \"cable\": { \"length\": \"2 m\" },"
			"  \"device\": { \"pmic\": { \"ichg\": \"1 A\" }, \"battery\": { \"soc\": 0.3 },"
			"    \"load\": { \"current\": \"0.1 A\" }, \"phy\": { \"vbus_valid\": \"3 V\" },"
			"    \"gadget\": { \"usb3\": true }, \"kernel\": { \"udc_vbus_draw\": false } } }");
		const struct phy_params *ph;
		const struct gadget_params *g;
		const struct kernel_params *k;

		CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
		ph = scenario_params(sc, "device.phy");
		g = scenario_params(sc, "device.gadget");
		k = scenario_params(sc, "device.kernel");
		CU_ASSERT(SC_SOURCE(sc)->voc == 5.2);
		CU_ASSERT(SC_CABLE(sc)->length_m == 2.0);
		CU_ASSERT(SC_PMIC(sc)->ichg == 1.0);
		CU_ASSERT(SC_BATTERY(sc)->soc == 0.3);
		CU_ASSERT(SC_LOAD(sc)->current == 0.1);
		CU_ASSERT(ph && ph->vbus_valid == 3.0);
		CU_ASSERT(g && g->usb3);
		CU_ASSERT(k && !k->udc_vbus_draw);
		CU_ASSERT_PTR_NULL(scenario_params(sc, "device.nope"));
		scenario_free(sc);
	}
}

static void test_cross_checks(void)
{
	/* eb425161lu allows 4.40 V */
	FAILS("{ \"device\": { \"pmic\": { \"vreg\": \"4.5 V\" } } }",
	      "device.pmic.vreg", "found 4.5 V", "v_max");
	FAILS("{ \"device\": { \"battery\": { \"v_max\": \"4.2 V\" }, \"pmic\": { \"vreg\": \"4.35 V\" } } }",
	      "device.pmic.vreg", "found 4.35 V", "v_max 4.2 V");
	FAILS("{ \"source\": { \"ilim\": \"1 A\", \"ishort\": \"2 A\" } }",
	      "source.ishort", "found 2 A", "expected");
	/* and a consistent pair is fine */
	{
		struct scenario *sc = load_ok(
			"{ \"device\": { \"battery\": { \"v_max\": \"4.45 V\" },"
			"              \"pmic\": { \"vreg\": \"4.45 V\" } } }");

		CU_ASSERT_PTR_NOT_NULL(sc);
		if (sc)
			CU_ASSERT(SC_PMIC(sc)->vreg == 4.45);
		scenario_free(sc);
	}
}

static void test_ocv_table(void)
{
	FAILS("{ \"device\": { \"battery\": { \"ocv\": [[0, 3.0], [0.5, 3.7], [0.4, 3.8], [1, 4.2]] } } }",
	      "device.battery.ocv[2]", "found [0.4, 3.8]", "ascending");
	FAILS("{ \"device\": { \"battery\": { \"ocv\": [[0, 3.0], [0.5, \"3.7 A\"], [1, 4.2]] } } }",
	      "device.battery.ocv[1]", "found \"3.7 A\" (a current)", "expected a voltage");
	FAILS("{ \"device\": { \"battery\": { \"ocv\": [[0.1, 3.0], [1, 4.2]] } } }",
	      "device.battery.ocv", "expected it to cover soc 0 to 1");
	{
		struct scenario *sc = load_ok(
			"{ \"device\": { \"battery\": { \"ocv\": [[0, \"3 V\"], [\"50 %\", 3.7], [1, 4.2]] } } }");

		CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
		CU_ASSERT_EQUAL(SC_BATTERY(sc)->ocv_n, 3);
		CU_ASSERT(SC_BATTERY(sc)->ocv_soc[1] == 0.5 && SC_BATTERY(sc)->ocv_v[1] == 3.7);
		CU_ASSERT(SC_BATTERY(sc)->ocv_v[0] == 3.0 && SC_BATTERY(sc)->ocv_v[2] == 4.2);
		scenario_free(sc);
	}
}

static void test_nan_infinity_strings(void)
{
	FAILS("{ \"source\": { \"ilim\": \"NaN A\" } }", "source.ilim", "found \"NaN A\"", "expected");
	FAILS("{ \"source\": { \"ilim\": \"Infinity A\" } }", "source.ilim", "found \"Infinity A\"",
	      "expected");
	FAILS("{ \"source\": { \"ilim\": \"inf\" } }", "source.ilim", "found \"inf\"", "expected");
	FAILS("{ \"duration\": \"nan s\" }", "duration", "found \"nan s\"", "expected");
	FAILS("{ \"source\": { \"ilim\": \"0x1p1 A\" } }", "source.ilim", "found \"0x1p1 A\"");
}

static void test_nul_byte(void)
{
	static const char text[] = "{ \"name\": \"a\0b\" }";
	GError *err = NULL;
	struct scenario *sc = scenario_load_text(BAD_FILE, text, sizeof text - 1, NULL, &err);

	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT(g_str_has_prefix(err->message, BAD_FILE));
	CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "NUL"));
	scenario_free(sc);
	g_clear_error(&err);
}

static void test_deep_nesting(void)
{
	size_t n = 10000;
	char *text = g_malloc(2 * n + 1);
	GError *err = NULL;
	struct scenario *sc;

	/* 10000 unclosed '[' */
	memset(text, '[', n);
	text[n] = '\0';
	sc = scenario_load_text(BAD_FILE, text, n, NULL, &err);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err)
		CU_ASSERT(g_str_has_prefix(err->message, BAD_FILE ":1:"));
	g_clear_error(&err);
	scenario_free(sc);

	/* 10000 '[' closed again: valid JSON, deeper than any scenario needs */
	memset(text + n, ']', n);
	text[2 * n] = '\0';
	sc = scenario_load_text(BAD_FILE, text, 2 * n, NULL, &err);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err)
		CU_ASSERT(g_str_has_prefix(err->message, BAD_FILE));
	g_clear_error(&err);
	scenario_free(sc);

	/* 10000 nested objects inside a known key */
	{
		GString *s = g_string_new("{ \"policy\": { \"name\": \"fixed\", \"params\": ");

		for (size_t i = 0; i < n; i++)
			g_string_append(s, "{\"a\":");
		g_string_append(s, "1");
		for (size_t i = 0; i < n; i++)
			g_string_append_c(s, '}');
		g_string_append(s, " } }");
		sc = scenario_load_text(BAD_FILE, s->str, s->len, NULL, &err);
		CU_ASSERT_PTR_NULL(sc);
		CU_ASSERT_PTR_NOT_NULL(err);
		g_clear_error(&err);
		scenario_free(sc);
		g_string_free(s, TRUE);
	}
	g_free(text);
}

static void test_top_level_not_object(void)
{
	FAILS("[1, 2]", "found [1,2]", "expected a JSON object");
	FAILS("\"x\"", "found \"x\"", "expected a JSON object");
	FAILS("{ \"device\": 3 }", "device: found 3", "expected an object");
	FAILS("{ \"source\": [] }", "source", "found []", "expected an object");
}

/*
 * A syntax-error message quotes at most 20 bytes of the text near the error. The
 * buffer handed to scenario_load_text() need not end in a NUL: a one-byte "n" in a
 * buffer of exactly one byte must not be read past (the ASan build of this test
 * catches an over-read). And a 20-byte cut inside a two-byte UTF-8 character must
 * not leave half of it in the message: "x" + 9 x "é" is 19 bytes, the 20th is the
 * first byte of the tenth "é".
 */
static void test_syntax_error_near_text(void)
{
	GError *err = NULL;
	char *one = g_malloc(1);
	struct scenario *sc;
	const char *utf = "{ \"a\": x\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9 }";

	one[0] = 'n';
	sc = scenario_load_text(BAD_FILE, one, 1, NULL, &err);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "1:1: found a JSON syntax error near \"n\""));
	g_clear_error(&err);
	g_free(one);

	sc = scenario_load_text(BAD_FILE, utf, strlen(utf), NULL, &err);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT(g_utf8_validate(err->message, -1, NULL));
	CU_ASSERT_PTR_NOT_NULL(strstr(err->message,
		"near \"x\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\""));
	g_clear_error(&err);
}

/* ---- files ---- */

static bool load_file_fails(const char *path, const char *needle)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load(path, NULL, &err);
	bool ok = true;

	if (sc) {
		fprintf(stderr, "\n  %s: loaded\n", path);
		scenario_free(sc);
		return false;
	}
	if (!err) {
		fprintf(stderr, "\n  %s: failed without an error\n", path);
		return false;
	}
	if (!g_str_has_prefix(err->message, path) || (needle && !strstr(err->message, needle))) {
		fprintf(stderr, "\n  %s: message \"%s\" (want the path first and \"%s\")\n", path,
			err->message, needle ? needle : "");
		ok = false;
	}
	if (err->domain != CS_SCENARIO_ERROR || err->code != CS_SCENARIO_ERROR_IO) {
		fprintf(stderr, "\n  %s: error code %d, want CS_SCENARIO_ERROR_IO\n", path,
			err->code);
		ok = false;
	}
	g_clear_error(&err);
	return ok;
}

static void test_files(void)
{
	g_autofree char *dir = tu_make_tmpdir("cs-scenario-XXXXXX");
	g_autofree char *missing = NULL, *big = NULL, *edge = NULL, *good = NULL, *syn = NULL;
	GError *err = NULL;
	struct scenario *sc;
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	missing = g_build_filename(dir, "does-not-exist.json", NULL);
	big = g_build_filename(dir, "big.json", NULL);
	edge = g_build_filename(dir, "edge.json", NULL);
	good = g_build_filename(dir, "good.json", NULL);
	syn = g_build_filename(dir, "syntax.json", NULL);

	CU_ASSERT(load_file_fails(missing, "No such file"));
	CU_ASSERT(load_file_fails(dir, "directory"));

	/* 16 MiB + 1 byte, sparse: refused by size, without reading it */
	fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(ftruncate(fd, (16 << 20) + 1) == 0);
	close(fd);
	CU_ASSERT(load_file_fails(big, "16 MiB"));

	/* exactly 16 MiB is not refused for its size (it is all NUL bytes, so it fails
	 * for that reason instead) */
	fd = open(edge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(ftruncate(fd, 16 << 20) == 0);
	close(fd);
	sc = scenario_load(edge, NULL, &err);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err)
		CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "NUL"));
	g_clear_error(&err);
	scenario_free(sc);

	/* a good file on disk; its directory becomes sc->dir */
	CU_ASSERT_FATAL(g_file_set_contents(good,
		"{ \"name\": \"disk\", \"source\": { \"ilim\": \"1.5 A\" } }\n", -1, NULL));
	sc = scenario_load(good, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL(sc);
	if (sc) {
		CU_ASSERT_STRING_EQUAL(sc->name, "disk");
		CU_ASSERT_STRING_EQUAL(sc->dir, dir);
		CU_ASSERT(SC_SOURCE(sc)->ilim == 1.5);
	}
	scenario_free(sc);
	g_clear_error(&err);

	/* a syntax error in a file on disk carries the file's path and the position */
	CU_ASSERT_FATAL(g_file_set_contents(syn, "{\n\n  \"seed\": ,\n}\n", -1, NULL));
	sc = scenario_load(syn, NULL, &err);
	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_PTR_NOT_NULL(err);
	if (err) {
		g_autofree char *want = g_strdup_printf("%s:3:11:", syn);

		if (!g_str_has_prefix(err->message, want))
			fprintf(stderr, "\n  want \"%s\": %s\n", want, err->message);
		CU_ASSERT(g_str_has_prefix(err->message, want));
	}
	g_clear_error(&err);
	scenario_free(sc);

	tu_rm_tree(dir);
}

/*
 * A file that never ends (/dev/zero, a device or a FIFO fed by a runaway program):
 * the 16 MiB cap must hold for what is read, not only for what stat() reports, so
 * the load ends with an error instead of eating all memory. Run in a child with a
 * memory limit and a timer, so that the bug shows as a failed test, not a dead runner.
 */
static void test_endless_file(void)
{
#if defined(__SANITIZE_ADDRESS__)
	/* the address-space limit below would only break the sanitizer's own mappings */
	return;
#else
	pid_t pid;
	int status = 0;

	fflush(NULL);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { 1024u << 20, 1024u << 20 };
		struct rusage ru;
		GError *err = NULL;
		struct scenario *sc;
		int dn = open("/dev/null", O_WRONLY);

		if (dn >= 0)
			dup2(dn, STDERR_FILENO);    /* glib's out-of-memory message */
		setrlimit(RLIMIT_AS, &rl);
		alarm(20);
		sc = scenario_load("/dev/zero", NULL, &err);
		getrusage(RUSAGE_SELF, &ru);
		/* a 16 MiB cap needs at most a few tens of MiB; ru_maxrss is in KiB */
		_exit(!sc && err && g_str_has_prefix(err->message, "/dev/zero") &&
		      ru.ru_maxrss < 256 * 1024 ? 0 : 1);
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status))
		fprintf(stderr, "\n  scenario_load(\"/dev/zero\") died with signal %d\n",
			WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		fprintf(stderr, "\n  scenario_load(\"/dev/zero\") read far beyond the 16 MiB cap"
			" or gave no error naming the file\n");
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
#endif
}

/* ---- scenario_apply_set ---- */

static cJSON *parse(const char *json)
{
	cJSON *doc = cJSON_Parse(json);

	CU_ASSERT_PTR_NOT_NULL(doc);
	return doc;
}

static const cJSON *at_path(const cJSON *doc, const char *a, const char *b, const char *c)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(doc, a);

	if (b)
		n = cJSON_GetObjectItemCaseSensitive(n, b);
	if (c)
		n = cJSON_GetObjectItemCaseSensitive(n, c);
	return n;
}

static bool is_string(const cJSON *v, const char *want)
{
	if (!cJSON_IsString(v) || strcmp(v->valuestring, want) != 0) {
		g_autofree char *got = v ? cJSON_PrintUnformatted(v) : g_strdup("(missing)");

		fprintf(stderr, "\n  got %s, want the string \"%s\"\n", got, want);
		return false;
	}
	return true;
}

static bool set_ok(cJSON *doc, const char *assignment)
{
	GError *err = NULL;
	bool ok = scenario_apply_set(doc, assignment, &err);

	if (!ok)
		fprintf(stderr, "\n  --set %s: %s\n", assignment, err ? err->message : "(no error)");
	g_clear_error(&err);
	return ok;
}

static bool set_rejected(cJSON *doc, const char *assignment)
{
	GError *err = NULL;
	bool ok = !scenario_apply_set(doc, assignment, &err);

	if (!ok)
		fprintf(stderr, "\n  --set %s: accepted\n", assignment);
	else if (!err || !*err->message) {
		fprintf(stderr, "\n  --set %s: rejected without a message\n", assignment);
		ok = false;
	}
	g_clear_error(&err);
	return ok;
}

static void test_set_creates_and_replaces(void)
{
	cJSON *doc = parse("{ \"source\": { \"ilim\": \"1 A\" } }");

	/* replace with a JSON string */
	CU_ASSERT(set_ok(doc, "source.ilim=\"2 A\""));
	CU_ASSERT(is_string(at_path(doc, "source", "ilim", NULL), "2 A"));
	/* create missing objects on the way */
	CU_ASSERT(set_ok(doc, "device.pmic.vreg=\"4.3 V\""));
	CU_ASSERT(is_string(at_path(doc, "device", "pmic", "vreg"), "4.3 V"));
	/* JSON values keep their type */
	CU_ASSERT(set_ok(doc, "seed=7"));
	CU_ASSERT(cJSON_IsNumber(at_path(doc, "seed", NULL, NULL)) &&
		  at_path(doc, "seed", NULL, NULL)->valuedouble == 7);
	CU_ASSERT(set_ok(doc, "cable.cc=false"));
	CU_ASSERT(cJSON_IsFalse(at_path(doc, "cable", "cc", NULL)));
	CU_ASSERT(set_ok(doc, "device.pmic.vindpm=null"));
	CU_ASSERT(cJSON_IsNull(at_path(doc, "device", "pmic", "vindpm")));
	CU_ASSERT(set_ok(doc, "cable.data={\"late\": \"300 ms\"}"));
	CU_ASSERT(is_string(at_path(doc, "cable", "data", "late"), "300 ms"));
	/* the value may contain '=' */
	CU_ASSERT(set_ok(doc, "name=a=b"));
	CU_ASSERT(is_string(at_path(doc, "name", NULL, NULL), "a=b"));
	/* one key, not two */
	CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "source")), 1);
	cJSON_Delete(doc);
}

/* A VALUE that is not JSON is a string, whole: "1.5A" is not the JSON number 1.5. */
static void test_set_non_json_is_string(void)
{
	cJSON *doc = parse("{}");

	CU_ASSERT(set_ok(doc, "source.ilim=1.5A"));
	CU_ASSERT(is_string(at_path(doc, "source", "ilim", NULL), "1.5A"));
	CU_ASSERT(set_ok(doc, "device.load.current=500mA"));
	CU_ASSERT(is_string(at_path(doc, "device", "load", "current"), "500mA"));
	CU_ASSERT(set_ok(doc, "duration=2 h"));
	CU_ASSERT(is_string(at_path(doc, "duration", NULL, NULL), "2 h"));
	CU_ASSERT(set_ok(doc, "description=true story"));
	CU_ASSERT(is_string(at_path(doc, "description", NULL, NULL), "true story"));
	CU_ASSERT(set_ok(doc, "name=dcp"));
	CU_ASSERT(is_string(at_path(doc, "name", NULL, NULL), "dcp"));
	cJSON_Delete(doc);
}

static void test_set_indices(void)
{
	cJSON *doc = parse("{ \"events\": [ { \"at\": \"1 s\", \"do\": \"unplug\" },"
			   "               { \"at\": \"2 s\", \"do\": \"plug\" } ] }");
	const cJSON *ev;

	CU_ASSERT(set_ok(doc, "events[0].at=\"5 s\""));
	ev = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "events"), 0);
	CU_ASSERT(is_string(cJSON_GetObjectItemCaseSensitive(ev, "at"), "5 s"));
	CU_ASSERT(is_string(cJSON_GetObjectItemCaseSensitive(ev, "do"), "unplug"));
	/* replace a whole element */
	CU_ASSERT(set_ok(doc, "events[1]={\"at\": 9, \"do\": \"suspend\"}"));
	ev = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "events"), 1);
	CU_ASSERT(is_string(cJSON_GetObjectItemCaseSensitive(ev, "do"), "suspend"));
	CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "events")), 2);

	CU_ASSERT(set_rejected(doc, "events[2].at=1"));
	CU_ASSERT(set_rejected(doc, "events[-1].at=1"));
	CU_ASSERT(set_rejected(doc, "events[x].at=1"));
	CU_ASSERT(set_rejected(doc, "events[0.at=1"));
	CU_ASSERT(set_rejected(doc, "expect[0].metric=\"a\""));   /* no such list */
	CU_ASSERT(set_rejected(doc, "events[99999999999999999999].at=1"));
	cJSON_Delete(doc);
}

static void test_set_policy_string_to_object(void)
{
	cJSON *doc = parse("{ \"policy\": \"twl4030\" }");
	const cJSON *pol;

	CU_ASSERT(set_ok(doc, "policy.params.max=1.7A"));
	pol = cJSON_GetObjectItemCaseSensitive(doc, "policy");
	CU_ASSERT_FATAL(cJSON_IsObject(pol));
	CU_ASSERT(is_string(cJSON_GetObjectItemCaseSensitive(pol, "name"), "twl4030"));
	CU_ASSERT(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(pol, "params")));
	CU_ASSERT_PTR_NOT_NULL(at_path(doc, "policy", "params", "max"));
	/* the whole policy may be replaced by a name */
	CU_ASSERT(set_ok(doc, "policy=\"fixed\""));
	CU_ASSERT(is_string(at_path(doc, "policy", NULL, NULL), "fixed"));
	cJSON_Delete(doc);
}

static void test_set_malformed(void)
{
	cJSON *doc = parse("{ \"seed\": 1, \"name\": \"n\" }");

	CU_ASSERT(set_rejected(doc, "=x"));
	CU_ASSERT(set_rejected(doc, "noequals"));
	CU_ASSERT(set_rejected(doc, ""));
	CU_ASSERT(set_rejected(doc, "source..ilim=1"));
	CU_ASSERT(set_rejected(doc, ".seed=1"));
	CU_ASSERT(set_rejected(doc, "seed.=1"));
	/* through a value that is not an object */
	CU_ASSERT(set_rejected(doc, "seed.x=1"));
	CU_ASSERT(set_rejected(doc, "name.x=1"));
	CU_ASSERT(set_rejected(doc, "seed[0]=1"));
	/* the values in the way were not changed */
	CU_ASSERT(cJSON_GetObjectItemCaseSensitive(doc, "seed")->valuedouble == 1);
	CU_ASSERT(is_string(cJSON_GetObjectItemCaseSensitive(doc, "name"), "n"));
	cJSON_Delete(doc);
}

/* Bad usage messages say what was found and what was expected (docs/scenarios.md
 * section 10). */
static bool set_message_ok(const char *doc_text, const char *assignment)
{
	cJSON *doc = cJSON_Parse(doc_text);
	GError *err = NULL;
	bool ok = !scenario_apply_set(doc, assignment, &err) && err &&
		  strstr(err->message, "found") && strstr(err->message, "expected");

	if (!ok)
		fprintf(stderr, "\n  --set %s: message %s\n", assignment,
			err ? err->message : "(none)");
	g_clear_error(&err);
	cJSON_Delete(doc);
	return ok;
}

static void test_set_messages(void)
{
	CU_ASSERT(set_message_ok("{}", "noequals"));
	CU_ASSERT(set_message_ok("{}", "=x"));
	CU_ASSERT(set_message_ok("{ \"events\": [] }", "events[0].at=1"));
	CU_ASSERT(set_message_ok("{}", "a[x]=1"));
	CU_ASSERT(set_message_ok("{ \"seed\": 1 }", "seed.x=1"));
	CU_ASSERT(set_message_ok("{}", "source..ilim=1"));
}

CU_TestInfo scenario_tests[] = {
	{ "units in strings land in base units", test_units_in_strings },
	{ "bare numbers are in base units", test_bare_numbers },
	{ "pmic preset then overrides, any order", test_pmic_preset_override },
	{ "pmic vindpm null means none", test_pmic_null_vindpm },
	{ "source kinds give their ratings", test_source_kinds },
	{ "typec ilim follows rp unless given", test_typec_rp },
	{ "defaults of an empty scenario", test_defaults },
	{ "events parse in order", test_events_in_order },
	{ "policy forms", test_policy_forms },
	{ "expect list kept", test_expect_kept },
	{ "--set applied at load", test_load_with_sets },
	{ "--set with unquoted units at load", test_load_with_unquoted_unit_sets },
	{ "syntax error FILE:LINE:COL", test_syntax_error_position },
	{ "trailing garbage", test_trailing_garbage },
	{ "wrong dimension", test_wrong_dimension },
	{ "unknown keys, did you mean", test_unknown_keys },
	{ "duplicate keys", test_duplicate_keys },
	{ "out of range", test_out_of_range },
	{ "capacity needs a unit", test_capacity_needs_unit },
	{ "bounds reached in other units", test_bounds_in_other_units },
	{ "rp spellings", test_rp_spellings },
	{ "messages that name the problem", test_input_messages },
	{ "cable awg 21 rejected", test_odd_awg },
	{ "event errors", test_event_errors },
	{ "set event value validated", test_set_event_value },
	{ "set event unknown path", test_set_event_unknown_path },
	{ "set event vreg above v_max", test_set_event_vreg_above_vmax },
	{ "set event on v_max checks the pmic again", test_set_event_vmax_rechecks_pmic },
	{ "set roots: the models and the policy; every object loads", test_set_event_roots },
	{ "cross checks (vreg, ishort)", test_cross_checks },
	{ "ocv table", test_ocv_table },
	{ "NaN/Infinity in strings", test_nan_infinity_strings },
	{ "NUL byte", test_nul_byte },
	{ "deep nesting", test_deep_nesting },
	{ "top level and sections not objects", test_top_level_not_object },
	{ "syntax error text: bounded by the buffer, whole UTF-8 characters", test_syntax_error_near_text },
	{ "files: missing, directory, size cap", test_files },
	{ "endless file (/dev/zero)", test_endless_file },
	{ "set creates and replaces", test_set_creates_and_replaces },
	{ "set non-JSON value is a string", test_set_non_json_is_string },
	{ "set with indices", test_set_indices },
	{ "set policy string to object", test_set_policy_string_to_object },
	{ "set malformed", test_set_malformed },
	{ "set messages say found/expected", test_set_messages },
	CU_TEST_INFO_NULL,
};
