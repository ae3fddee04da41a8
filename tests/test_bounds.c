// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_bounds.c - every numeric parameter at the edges of its range.
 *
 * The rule (sim/param.h, docs/scenarios.md section 2): whatever the loader accepts
 * runs to the end with finite values; whatever it refuses is refused as an input
 * error (exit 2) that names the parameter's path. This suite walks every parameter
 * table the loader reads, through the same lists it uses - the models
 * (models/registry.c) and the board's objects (run/board.c) via scenario_object(),
 * the keys of custom objects (their .sub), and the built-in policies
 * (stack/policies/registry.c) - and for each numeric or time parameter:
 *   - runs a two-minute scenario at its minimum, its maximum and just inside each,
 *     and checks that it loads, runs without an error and ends with finite metrics;
 *   - checks that a value just below the minimum, just above the maximum and the
 *     smallest denormal (5e-324) are refused with a message naming the path.
 * Values are passed as --set strings with their unit ("0.001 Ah", "60000000000 ns"),
 * so they reach the parameter exactly as a user's would. Some parameters are checked
 * against others (ishort <= ilim, uvlo_falling <= uvlo_rising, vreg <= v_max, ...):
 * `companions` moves the other one out of the way so that the bound itself runs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <chargesim/policy.h>
#include "run/scenario.h"
#include "run/world.h"
#include "tests/suites.h"

/*
 * The scenarios every value runs in, two minutes each: a DCP with a bq25890 charging a
 * half-full cell, unplugged at 40 s and plugged again at 50 s so detection, the policy
 * and the charger's start-up run twice; a PD charger at 9 V into a linear twl4030
 * with a warm cell and its thermal model; an empty cell on a laptop port booting a
 * device (the boot model, brownouts, enumeration).
 */
static const char *const bases[] = {
	"{ \"name\": \"bounds-dcp\", \"duration\": \"2 min\","
	"  \"source\": { \"kind\": \"dcp\" },"
	"  \"device\": { \"pmic\": { \"preset\": \"bq25890\" },"
	"              \"battery\": { \"preset\": \"eb425161lu\", \"soc\": \"50 %\" } },"
	"  \"policy\": { \"name\": \"fixed\" },"
	"  \"events\": [ { \"at\": \"40 s\", \"do\": \"unplug\" }, { \"at\": \"50 s\", \"do\": \"plug\" } ] }",
	"{ \"name\": \"bounds-pd\", \"duration\": \"2 min\","
	"  \"source\": { \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 3A\"] },"
	"  \"device\": { \"pmic\": { \"preset\": \"twl4030\" },"
	"              \"battery\": { \"soc\": \"90 %\", \"thermal\": true, \"temperature\": \"40 C\" },"
	"              \"phy\": { \"pd_max_v\": \"9 V\" } },"
	"  \"policy\": { \"name\": \"fixed\" } }",
	"{ \"name\": \"bounds-boot\", \"duration\": \"2 min\","
	"  \"source\": { \"kind\": \"sdp\" },"
	"  \"device\": { \"pmic\": { \"preset\": \"bq24190\" }, \"battery\": { \"soc\": \"0 %\" },"
	"              \"load\": { \"current\": \"400 mA\", \"boot\": { \"power_on\": \"vbus\" } } },"
	"  \"policy\": { \"name\": \"fixed\" } }",
};

struct bparam {
	char path[160];
	const struct param_desc *d;
	const char *policy;          /* NULL: a scenario object's parameter */
};

/*
 * Values of other parameters a bound needs to load at all (cross-checks); %s is the
 * value under test. Each names a check of the loader, not a bound of the parameter.
 */
static const struct {
	const char *path;
	const char *sets[3];
} companions[] = {
	/* source: ishort <= ilim */
	{ "source.ishort", { "source.ilim=20 A" } },
	/* source: a PPS request needs a PD source with an APDO that covers it */
	{ "source.pps_v", { "source.kind=pd", "source.pdos=[\"5V 3A\", \"PPS 3-21V 5A\"]" } },
	{ "source.pps_i", { "source.kind=pd", "source.pdos=[\"5V 3A\", \"PPS 3-21V 5A\"]",
			    "source.pps_v=9 V" } },
	/* pmic: uvlo_falling <= uvlo_rising, vreg <= battery v_max */
	{ "device.pmic.uvlo_falling", { "device.pmic.uvlo_rising=25 V" } },
	{ "device.pmic.uvlo_rising", { "device.pmic.uvlo_falling=0 V" } },
	{ "device.pmic.vreg", { "device.battery.v_max=5 V" } },
	{ "device.battery.v_max", { "device.pmic.vreg=3 V" } },
	/* pmic: ovp_falling <= ovp_rising */
	{ "device.pmic.ovp_rising", { "device.pmic.ovp_falling=0 V" } },
	{ "device.pmic.ovp_falling", { "device.pmic.ovp_rising=30 V" } },
	/* iindpm: min <= default <= max */
	{ "device.pmic.iindpm.min", { "device.pmic.iindpm.max=20 A", "device.pmic.iindpm.default=%s" } },
	{ "device.pmic.iindpm.max", { "device.pmic.iindpm.min=0 A", "device.pmic.iindpm.default=%s" } },
	{ "device.pmic.iindpm.default", { "device.pmic.iindpm.min=0 A", "device.pmic.iindpm.max=20 A" } },
	/* vindpm_reg: min <= max */
	{ "device.pmic.vindpm_reg.min", { "device.pmic.vindpm_reg.max=25 V" } },
	{ "device.pmic.vindpm_reg.max", { "device.pmic.vindpm_reg.min=0 V" } },
	/* ts: t1 <= t2 <= t3 <= t5 */
	{ "device.pmic.ts.t1", { "device.pmic.ts.t2=100 C", "device.pmic.ts.t3=100 C",
				 "device.pmic.ts.t5=100 C" } },
	{ "device.pmic.ts.t2", { "device.pmic.ts.t1=-40 C", "device.pmic.ts.t3=100 C",
				 "device.pmic.ts.t5=100 C" } },
	{ "device.pmic.ts.t3", { "device.pmic.ts.t1=-40 C", "device.pmic.ts.t2=-40 C",
				 "device.pmic.ts.t5=100 C" } },
	{ "device.pmic.ts.t5", { "device.pmic.ts.t1=-40 C", "device.pmic.ts.t2=-40 C",
				 "device.pmic.ts.t3=-40 C" } },
};

static GPtrArray *collect(void)
{
	GPtrArray *all = g_ptr_array_new_with_free_func(g_free);
	GQueue todo = G_QUEUE_INIT;

	/* (table, path prefix, policy) triples, walked breadth-first */
	for (int i = 0; i < scenario_n_objects(); i++) {
		struct bparam *t = g_new0(struct bparam, 1);

		g_strlcpy(t->path, scenario_object(i)->key, sizeof(t->path));
		t->d = scenario_object(i)->params;
		g_queue_push_tail(&todo, t);
	}
	for (int i = 0; cs_builtin_policies[i]; i++) {
		struct bparam *t = g_new0(struct bparam, 1);

		g_strlcpy(t->path, "policy.params", sizeof(t->path));
		t->d = cs_builtin_policies[i]->params;
		t->policy = cs_builtin_policies[i]->name;
		g_queue_push_tail(&todo, t);
	}
	while (!g_queue_is_empty(&todo)) {
		g_autofree struct bparam *t = g_queue_pop_head(&todo);

		for (const struct param_desc *d = t->d; d && d->key; d++) {
			struct bparam *p = g_new0(struct bparam, 1);

			g_snprintf(p->path, sizeof(p->path), "%s.%s", t->path, d->key);
			p->d = d;
			p->policy = t->policy;
			if (d->sub && (d->kind == PARAM_OBJECT || d->kind == PARAM_CUSTOM)) {
				p->d = d->sub;
				g_queue_push_tail(&todo, p);
			} else if (d->kind == PARAM_NUM || d->kind == PARAM_TIME || d->kind == PARAM_INT) {
				g_ptr_array_add(all, p);
			} else {
				g_free(p);
			}
		}
	}
	return all;
}

/* The value as a user writes it: with its unit, exact for durations. */
static char *value_text(const struct param_desc *d, double x)
{
	const char *sym;

	if (d->kind == PARAM_TIME)
		return g_strdup_printf("%lld ns", (long long)llround(x * 1e9));
	if (d->kind == PARAM_INT)
		return g_strdup_printf("%.0f", x);
	sym = units_dim_symbol(d->dim);
	return g_strdup_printf("%.17g%s%s", x, *sym ? " " : "", sym);
}

/* with_value: also the companions that take the value (for values in range only: out
 * of range they would be refused under their own path first). */
static GPtrArray *sets_for(const struct bparam *p, const char *value, bool with_value)
{
	GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);

	if (p->policy)
		g_ptr_array_add(sets, g_strdup_printf("policy.name=%s", p->policy));
	for (size_t i = 0; i < G_N_ELEMENTS(companions); i++) {
		if (strcmp(companions[i].path, p->path) != 0)
			continue;
		for (int k = 0; k < 3 && companions[i].sets[k]; k++) {
			const char *pct = strstr(companions[i].sets[k], "%s");

			if (pct && !with_value)
				continue;
			g_ptr_array_add(sets, pct ?
					g_strdup_printf("%.*s%s", (int)(pct - companions[i].sets[k]),
							companions[i].sets[k], value) :
					g_strdup(companions[i].sets[k]));
		}
	}
	g_ptr_array_add(sets, g_strdup_printf("%s=%s", p->path, value));
	g_ptr_array_add(sets, NULL);
	return sets;
}

static bool all_finite(const cJSON *j)
{
	const cJSON *c;

	if (cJSON_IsNumber(j))
		return isfinite(j->valuedouble);
	cJSON_ArrayForEach(c, j)
		if (!all_finite(c))
			return false;
	return true;
}

/* Load and run; returns 0 when it ran to the end with finite metrics, 2 for an
 * input error (message in *msg), 3 for anything else. */
static int run_value(const char *base, const struct bparam *p, const char *value, bool inside,
		     char **msg, struct world_metrics *out)
{
	g_autoptr(GPtrArray) sets = sets_for(p, value, inside);
	g_autoptr(GError) err = NULL;
	struct world_options wo = { 0 };
	struct scenario *sc;
	struct world *w = NULL;
	int status = 3;

	*msg = NULL;
	sc = scenario_load_text("bounds.json", base, strlen(base),
				(const char *const *)sets->pdata, &err);
	if (sc)
		w = world_new(sc, &wo, &err);
	if (w && world_run(w, &err) && world_finish(w, &err)) {
		cJSON *m = world_metrics_json(w);

		status = all_finite(m) ? 0 : 3;
		if (out)
			world_metrics_copy(out, world_metrics(w));
		if (status)
			*msg = g_strdup("a metric is not finite");
		cJSON_Delete(m);
	} else {
		status = world_error_status(err);
		*msg = g_strdup(err->message);
	}
	world_free(w);
	scenario_free(sc);
	return status;
}

/* The values inside the range: the bounds and just inside each. */
static int inside_values(const struct param_desc *d, double *v)
{
	double lo = d->min, hi = d->max;

	if (d->kind == PARAM_TIME) {
		v[0] = lo;
		v[1] = lo + 1e-9;
		v[2] = hi - 1e-9;
		v[3] = hi;
		return 4;
	}
	if (d->kind == PARAM_INT) {
		v[0] = lo;
		v[1] = hi;
		return 2;
	}
	v[0] = lo;
	v[1] = lo != 0 ? lo + fabs(lo) * 1e-9 : PARAM_SMALLEST;
	v[2] = hi - fabs(hi) * 1e-9;
	v[3] = hi;
	return 4;
}

static int outside_values(const struct param_desc *d, double *v)
{
	double lo = d->min, hi = d->max;

	if (d->kind == PARAM_TIME) {
		v[0] = lo - 1e-9;
		v[1] = hi + 1e-9;
		return 2;
	}
	if (d->kind == PARAM_INT) {
		v[0] = lo - 1;
		v[1] = hi + 1;
		return 2;
	}
	v[0] = lo - MAX(fabs(lo), 1) * 1e-6;
	v[1] = hi + MAX(fabs(hi), 1) * 1e-6;
	v[2] = 5e-324;     /* the smallest denormal: out of range or below PARAM_SMALLEST */
	return d->dim == UNIT_CELSIUS && lo <= 0 ? 2 : 3;
}

static int n_params, n_runs, n_refusals;

static void test_every_parameter_at_its_bounds(void)
{
	g_autoptr(GPtrArray) all = collect();

	n_params = (int)all->len;
	/* models, board and policies together have well over a hundred numeric keys */
	CU_ASSERT(all->len > 100);
	for (guint i = 0; i < all->len; i++) {
		const struct bparam *p = all->pdata[i];
		double v[4];
		int n;

		if (p->d->min == 0 && p->d->max == 0) {
			fprintf(stderr, "\n  %s: no range in its table\n", p->path);
			CU_FAIL("a numeric parameter without a range");
			continue;
		}
		n = inside_values(p->d, v);
		for (size_t b = 0; b < G_N_ELEMENTS(bases); b++)
			for (int k = 0; k < n; k++) {
				g_autofree char *text = value_text(p->d, v[k]);
				g_autofree char *msg = NULL;
				int st = run_value(bases[b], p, text, true, &msg, NULL);

				n_runs++;
				if (st != 0)
					fprintf(stderr, "\n  base %zu: %s=%s: status %d: %s\n", b,
						p->path, text, st, msg);
				CU_ASSERT_EQUAL(st, 0);
			}
		n = outside_values(p->d, v);
		for (int k = 0; k < n; k++) {
			g_autofree char *text = value_text(p->d, v[k]);
			g_autofree char *msg = NULL;
			int st = run_value(bases[0], p, text, false, &msg, NULL);
			/* policy parameters are named policy.params.KEY */
			bool named = msg && strstr(msg, p->path) != NULL;

			n_refusals++;
			if (st != 2 || !named)
				fprintf(stderr, "\n  %s=%s: status %d: %s\n", p->path, text, st,
					msg ? msg : "(ran)");
			CU_ASSERT_EQUAL(st, 2);
			CU_ASSERT(named);
		}
	}
	printf("\n  bounds: %d parameters, %d runs in range, %d values refused\n", n_params,
	       n_runs, n_refusals);
}

/*
 * The bases do what the bounds test relies on: they run, and they charge. A DCP
 * gives its 1.5-2 A for about 110 of the 120 s into a 1.5 Ah cell: at least 1.5 %
 * of SOC even at the bq25890's 2 A input limit less the 250 mA system load.
 */
static void test_bases_run_and_charge(void)
{
	struct bparam soc = { .d = NULL };
	static const struct param_desc soc_desc = { .key = "soc", .kind = PARAM_NUM,
						     .dim = UNIT_FRACTION };

	g_strlcpy(soc.path, "device.battery.soc", sizeof(soc.path));
	soc.d = &soc_desc;
	for (size_t b = 0; b < G_N_ELEMENTS(bases); b++) {
		struct world_metrics m = { 0 };
		g_autofree char *msg = NULL;

		CU_ASSERT_EQUAL_FATAL(run_value(bases[b], &soc, b == 2 ? "0" : "0.5", true, &msg, &m), 0);
		if (b == 0)
			CU_ASSERT(world_metric(&m, "soc_final") >
				  world_metric(&m, "soc_initial") + 0.015);
		if (b == 2)   /* the device powers on from the laptop port */
			CU_ASSERT(world_metric(&m, "boots") >= 1);
		world_metrics_clear(&m);
	}
}

CU_TestInfo bounds_tests[] = {
	{ "the scenarios of the bounds test run and charge", test_bases_run_and_charge },
	{ "every numeric parameter at and beyond its bounds", test_every_parameter_at_its_bounds },
	CU_TEST_INFO_NULL,
};
