// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_load_profile.c - load profiles of any length, from a JSON list or a CSV
 * file beside the scenario (run/load_profile.c): the steps read, the energy the load
 * draws against a hand sum, bad files refused with their line and column, paths kept
 * inside the scenario's directory.
 */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "models/load/load.h"
#include "run/scenario.h"
#include "run/world.h"
#include "run/world_priv.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* A scenario s.json and a profile p.csv (its text) in a fresh directory; the scenario
 * text's "%s" is where the profile's name goes. */
struct pf {
	char *dir, *json;
};

static bool pf_make(struct pf *f, const char *csv_name, const char *csv, const char *scen_fmt)
{
	g_autofree char *cp = NULL, *text = NULL;

	f->dir = tu_make_tmpdir("cs-profile-XXXXXX");
	if (!f->dir)
		return false;
	f->json = g_build_filename(f->dir, "s.json", NULL);
	cp = g_build_filename(f->dir, csv_name, NULL);
	text = g_strdup_printf(scen_fmt, csv_name);
	return (!csv || g_file_set_contents(cp, csv, -1, NULL)) &&
	       g_file_set_contents(f->json, text, -1, NULL);
}

static void pf_done(struct pf *f)
{
	if (f->dir)
		tu_rm_tree(f->dir);
	g_free(f->dir);
	g_free(f->json);
}

static const char battery_only[] =
	"{ \"name\": \"p\", \"duration\": \"60 s\", \"source\": { \"kind\": \"none\" },"
	"  \"device\": { \"load\": { \"profile\": \"%s\" } } }";

/* The rows become steps: times in ns, the value column, other columns ignored (a
 * meter's voltage), the first row's time kept as it is. */
static void test_csv_steps(void)
{
	struct pf f = { 0 };
	struct scenario *sc;
	const struct load_params *p;
	GError *err = NULL;

	CU_ASSERT_FATAL(pf_make(&f, "p.csv", "time_s,voltage_V,current_A\n"
				"0.5,5.01,0.12\n1.25,5.00,0.875\n7,4.98,0\n", battery_only));
	sc = scenario_load(f.json, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	p = scenario_params(sc, "device.load");
	CU_ASSERT_EQUAL(p->n_profile, 3);
	CU_ASSERT_EQUAL(p->profile[0].at, 500 * SIM_MS);
	CU_ASSERT_EQUAL(p->profile[1].at, 1250 * SIM_MS);
	CU_ASSERT_EQUAL(p->profile[2].at, 7 * SIM_S);
	CU_ASSERT_FALSE(p->profile[1].is_power);
	CS_ASSERT_NEAR(p->profile[0].value, 0.12, 1e-15);
	CS_ASSERT_NEAR(p->profile[1].value, 0.875, 1e-15);
	CS_ASSERT_NEAR(p->profile[2].value, 0, 0);
	scenario_free(sc);
	pf_done(&f);
}

/* The energy the load draws is the integral of the CSV's power, held from each row to
 * the next and the last to the end (60 s): by hand,
 *   0-10 s at 1.5 W, 10-10.5 s at 6 W, 10.5-31 s at 0.25 W, 31-60 s at 2 W
 *   = 15 + 3 + 5.125 + 58 = 81.125 J.
 * A profile's steps are events, so the run steps there and the integral is exact. */
static void test_csv_energy(void)
{
	struct pf f = { 0 };
	struct scenario *sc;
	struct world *w;
	GError *err = NULL;

	CU_ASSERT_FATAL(pf_make(&f, "p.csv", "time_s,power_W\n0,1.5\n10,6\n10.5,0.25\n31,2\n",
				battery_only));
	sc = scenario_load(f.json, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	w = world_new(sc, &(struct world_options){ 0 }, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_TRUE(world_run(w, &err) && world_finish(w, &err));
	CS_ASSERT_NEAR(w->acc.e_load, 81.125, 81.125 * 1e-9);
	world_free(w);
	scenario_free(sc);
	pf_done(&f);
}

/* More steps than the old 256-step cap, from JSON and from CSV: the last step's draw
 * is the one at the end (at 1 kHz steps, 2000 of them). */
static void test_long_profiles(void)
{
	g_autoptr(GString) j = g_string_new("{ \"duration\": \"3 s\", \"source\": { \"kind\": \"none\" },"
					    " \"device\": { \"load\": { \"profile\": [");
	g_autoptr(GString) csv = g_string_new("time_s,current_A\n");
	struct tu_run r;
	struct pf f = { 0 };
	struct scenario *sc;
	GError *err = NULL;

	for (int i = 0; i < 2000; i++) {
		g_string_append_printf(j, "%s{ \"at\": \"%d ms\", \"current\": \"%d mA\" }",
				       i ? "," : "", i, 100 + i % 7);
		g_string_append_printf(csv, "%d.%03d,0.%03d\n", i / 1000, i % 1000, 100 + i % 7);
	}
	g_string_append(j, "] } } }");
	CU_ASSERT_FATAL(tu_run(&r, j->str));
	/* the last step, at 1.999 s: 100 + 1999 % 7 = 100 + 4 = 104 mA */
	CS_ASSERT_NEAR(tu_num(r.metrics, "brownouts"), 0, 0);
	CU_ASSERT_TRUE(tu_read_trace(&r));
	CS_ASSERT_NEAR(((double *)g_ptr_array_index(r.rows, r.rows->len - 1))[tu_col(&r, "iload_A")],
		       0.104, 1e-9);
	tu_done(&r);

	CU_ASSERT_FATAL(pf_make(&f, "p.csv", csv->str, battery_only));
	sc = scenario_load(f.json, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	CU_ASSERT_EQUAL(((const struct load_params *)scenario_params(sc, "device.load"))->n_profile,
			2000);
	scenario_free(sc);
	pf_done(&f);
}

/* Each bad file is refused with the file, the line and the column, and what was
 * expected. */
static void test_csv_errors(void)
{
	static const struct {
		const char *csv, *want1, *want2;
	} cases[] = {
		{ "time_s,current_A\n0,0.1\n5,0.1\n5,0.2\n", "line 4, column \"time_s\": found 5 s",
		  "the time of line 3 too, expected each row later than the one before" },
		{ "time_s,current_A\n0,0.1\n5,0.1\n4,0.2\n", "line 4, column \"time_s\"",
		  "backwards" },
		{ "time_s,current_A\n-1,0.1\n", "line 2, column \"time_s\": found -1 s",
		  "expected times from 0" },
		{ "time_s,current_A\n0,0.1\n1,-0.2\n", "line 3, column \"current_A\": found -0.2",
		  "expected a current from 0 to 20 A" },
		{ "time_s,power_W\n0,1\n1,nan\n", "line 3, column \"power_W\": found \"nan\"",
		  "finite number" },
		{ "time_s,power_W\n0,101\n", "line 2, column \"power_W\": found 101",
		  "expected a power from 0 to 100 W" },
		{ "time_s,current_A\n0,0.1\n1,lots\n", "line 3, column \"current_A\": found \"lots\"",
		  "expected a number" },
		{ "time_s,voltage_V\n0,5\n", "found no current_A or power_W column",
		  "time_s,current_A" },
		{ "time_s,current_A,power_W\n0,1,1\n", "found both current_A and power_W", "one of them" },
		{ "t,current_A\n0,1\n", "no time column \"time_s\"", "current_A" },
		{ "time_s,current_A\n", "no data rows", "p.csv" },
		{ "", "p.csv", "empty" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct pf f = { 0 };
		GError *err = NULL;
		struct scenario *sc;

		CU_ASSERT_FATAL(pf_make(&f, "p.csv", cases[i].csv, battery_only));
		sc = scenario_load(f.json, NULL, &err);
		CU_ASSERT_PTR_NULL(sc);
		if (!err || !strstr(err->message, "s.json: device.load.profile: ") ||
		    !strstr(err->message, "p.csv") || !strstr(err->message, cases[i].want1) ||
		    !strstr(err->message, cases[i].want2)) {
			fprintf(stderr, "\n  case %zu: %s\n", i, err ? err->message : "(accepted)");
			CU_FAIL("message");
		}
		CU_ASSERT_EQUAL(err ? world_error_status(err) : 0, 2);
		g_clear_error(&err);
		scenario_free(sc);
		pf_done(&f);
	}
}

/* The file must lie inside the scenario's directory tree, as a golden file must. */
static void test_csv_confined(void)
{
	static const char *const names[] = { "../p.csv", "/etc/passwd", "link.csv" };
	static const char *const whys[] = { "goes up with \"..\"", "is an absolute path",
					    "through a symbolic link" };

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		struct pf f = { 0 };
		GError *err = NULL;
		struct scenario *sc;

		CU_ASSERT_FATAL(pf_make(&f, "x.csv", "time_s,current_A\n0,0.1\n", battery_only));
		g_free(f.json);
		f.json = g_build_filename(f.dir, "c.json", NULL);
		{
			g_autofree char *text = g_strdup_printf(battery_only, names[i]);
			g_autofree char *link = g_build_filename(f.dir, "link.csv", NULL);

			CU_ASSERT_FATAL(g_file_set_contents(f.json, text, -1, NULL));
			CU_ASSERT_FATAL(symlink("/etc/hostname", link) == 0);
		}
		sc = scenario_load(f.json, NULL, &err);
		CU_ASSERT_PTR_NULL(sc);
		if (!err || !strstr(err->message, "device.load.profile: found \"") ||
		    !strstr(err->message, "expected a CSV file inside") ||
		    !strstr(err->message, whys[i])) {
			fprintf(stderr, "\n  %s: %s\n", names[i], err ? err->message : "(accepted)");
			CU_FAIL("message");
		}
		g_clear_error(&err);
		scenario_free(sc);
		pf_done(&f);
	}
}

/* The profile belongs to the scenario: a `set` event cannot replace it mid-run. */
static void test_profile_not_settable(void)
{
	GError *err = NULL;
	static const char text[] =
		"{ \"duration\": \"1 min\", \"events\": [ { \"at\": \"1 s\", \"do\": \"set\","
		"  \"path\": \"device.load.profile\", \"value\": [ { \"at\": 0, \"current\": 0.2 } ] } ] }";
	struct scenario *sc = scenario_load_text("t.json", text, strlen(text), NULL, &err);

	CU_ASSERT_PTR_NULL(sc);
	CU_ASSERT_TRUE(err && strstr(err->message, "cannot change during a run"));
	g_clear_error(&err);
	scenario_free(sc);
}

/* The library's measured-style trace is what its script writes (so that it can be made
 * again and changed), and it loads: a few thousand rows, times ascending, within 1.6 A
 * (the 1.5 A camera session and its noise). */
static void test_library_trace(void)
{
	g_autofree char *script = tu_repo_file("scenarios/loads/make-phone-load.sh");
	g_autofree char *csv = tu_repo_file("scenarios/loads/phone-load.csv");
	g_autofree char *scen = tu_repo_file("scenarios/loads/phone-bursty.json");
	g_autofree char *out = NULL, *file = NULL;
	const char *argv[] = { "sh", script, NULL };
	const struct load_params *p;
	struct scenario *sc;
	GError *err = NULL;
	gint status = -1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(script);
	CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
	CU_ASSERT_FATAL(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
				     &out, NULL, &status, &err));
	CU_ASSERT_EQUAL(status, 0);
	CU_ASSERT_FATAL(g_file_get_contents(csv, &file, NULL, NULL));
	CU_ASSERT_STRING_EQUAL(out, file);
	sc = scenario_load(scen, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
	p = scenario_params(sc, "device.load");
	CU_ASSERT(p->n_profile > 3000 && p->n_profile < 5000);
	for (int i = 1; i < p->n_profile; i++) {
		CU_ASSERT(p->profile[i].at > p->profile[i - 1].at);
		CU_ASSERT(p->profile[i].value >= 0 && p->profile[i].value <= 1.6);
	}
	scenario_free(sc);
}

CU_TestInfo load_profile_tests[] = {
	{ "csv: rows become steps, other columns ignored", test_csv_steps },
	{ "csv: load energy is the integral of the file's power", test_csv_energy },
	{ "json and csv: profiles longer than 256 steps", test_long_profiles },
	{ "csv: bad files named with line and column", test_csv_errors },
	{ "csv: the file stays inside the scenario's directory", test_csv_confined },
	{ "a set event cannot replace the profile", test_profile_not_settable },
	{ "the library's trace is its script's output", test_library_trace },
	CU_TEST_INFO_NULL,
};
