// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/run.c - one run of a scenario in one call (see run.h).
 */
#include <string.h>
#include "run/expect.h"
#include "run/run.h"

/* An error at `stage`: its status comes from the error (3 internal, else 2). */
static int fail(struct run_result *res, enum run_stage stage)
{
	res->stage = stage;
	res->status = world_error_status(res->error);
	return res->status;
}

/* --accept: rewrite what the failed expectations compare against. */
static void accept_failures(struct expect_run *er, const struct run_options *opt,
			    struct run_result *res, const char *trace)
{
	GString *report = g_string_new(NULL);

	if (opt->accept_lock)
		g_mutex_lock(opt->accept_lock);
	expect_accept(er, res->expect, trace, report, &res->accept_error);
	if (opt->accept_lock)
		g_mutex_unlock(opt->accept_lock);
	res->accepted = g_string_free(report, FALSE);
}

/* Decide the expectations after the run; status 1 when one failed. */
static int check(struct expect_run *er, const struct world *w, const struct run_options *opt,
		 struct run_result *res)
{
	const char *outdir = opt->world.outdir;
	g_autofree char *trace = outdir ? g_build_filename(outdir, "trace.csv", NULL) : NULL;

	if (!expect_check(er, w, trace, &res->expect, &res->error))
		return fail(res, RUN_STAGE_CHECK);
	res->stage = RUN_STAGE_DONE;
	res->status = run_failed_expectations(res) ? 1 : 0;
	if (res->status && opt->accept)
		accept_failures(er, opt, res, trace);
	return res->status;
}

/* What the caller reads after the world is gone. */
static void keep_outcome(struct run_result *res, const struct world *w)
{
	res->metrics = *world_metrics(w);
	res->detected = g_strdup(res->metrics.detected_type);
	res->metrics.detected_type = res->detected;
	res->policy = g_strdup(world_policy_name(w));
}

/* Build, run and finish the world, then check the expectations. */
static int run_loaded(const struct run_options *opt, struct run_result *res)
{
	const struct scenario *sc = res->scenario;
	struct world_options wo = opt->world;
	struct expect_run *er = NULL;
	struct world *w = NULL;

	if (opt->expect && sc->expect) {
		er = expect_prepare(sc->expect, sc->file, sc->duration, &res->error);
		if (!er)
			return fail(res, RUN_STAGE_EXPECT);
		expect_options(er, &wo);
	}
	if (opt->ready && !opt->ready(sc, opt->ready_data, &res->error)) {
		fail(res, RUN_STAGE_READY);
		goto out;
	}
	w = world_new(sc, &wo, &res->error);
	if (!w) {
		fail(res, RUN_STAGE_BUILD);
		goto out;
	}
	if (er)
		expect_listen(er, w);
	if (!world_run(w, &res->error)) {
		fail(res, RUN_STAGE_RUN);
		goto out;
	}
	if (!world_finish(w, &res->error)) {
		fail(res, RUN_STAGE_FINISH);
		goto out;
	}
	keep_outcome(res, w);
	res->stage = RUN_STAGE_DONE;
	res->status = 0;
	if (er)
		check(er, w, opt, res);
out:
	world_free(w);
	expect_run_free(er);
	return res->status;
}

int run_scenario(const struct scenario *sc, const struct run_options *opt,
		 struct run_result *res)
{
	memset(res, 0, sizeof(*res));
	res->scenario = sc;
	return run_loaded(opt, res);
}

int run_file(const char *file, const struct run_options *opt, struct run_result *res)
{
	memset(res, 0, sizeof(*res));
	res->owned = scenario_load(file, opt->sets, &res->error);
	if (!res->owned)
		return fail(res, RUN_STAGE_LOAD);
	res->scenario = res->owned;
	return run_loaded(opt, res);
}

int run_text(const char *name, const char *text, size_t len, const struct run_options *opt,
	     struct run_result *res)
{
	memset(res, 0, sizeof(*res));
	res->owned = scenario_load_text(name, text, len, opt->sets, &res->error);
	if (!res->owned)
		return fail(res, RUN_STAGE_LOAD);
	res->scenario = res->owned;
	return run_loaded(opt, res);
}

int run_doc(const char *name, const cJSON *doc, const struct run_options *opt,
	    struct run_result *res)
{
	memset(res, 0, sizeof(*res));
	res->owned = scenario_load_doc(name, doc, opt->sets, &res->error);
	if (!res->owned)
		return fail(res, RUN_STAGE_LOAD);
	res->scenario = res->owned;
	return run_loaded(opt, res);
}

guint run_failed_expectations(const struct run_result *res)
{
	guint n = 0;

	for (guint i = 0; res->expect && i < res->expect->len; i++)
		n += !g_array_index(res->expect, struct expect_result, i).pass;
	return n;
}

void run_result_clear(struct run_result *res)
{
	g_clear_error(&res->error);
	g_clear_error(&res->accept_error);
	expect_results_free(res->expect);
	g_free(res->accepted);
	g_free(res->policy);
	g_free(res->detected);
	scenario_free(res->owned);
	memset(res, 0, sizeof(*res));
}
