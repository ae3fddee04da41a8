// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/run.c - one run of a scenario in one call (see run.h).
 */
#include <string.h>
#include "run/expect.h"
#include "run/run.h"
#include "output/outset.h"

const char *const run_output_names[] = {
	"trace.csv", "trace.vcd", "events.jsonl", "metrics.json", "sysfs-*",
	"plot.gp", "plot-*", "plot.png", "plot.svg", "report.html", NULL,
};

/* An error at `stage`: its status comes from the error (3 internal, else 2). */
static int fail(struct run_result *res, enum run_stage stage)
{
	res->stage = stage;
	res->status = world_error_status(res->error);
	return res->status;
}

/* Decide the expectations after the run (its outputs in outdir, or none); status 1
 * when one failed, and with --accept what they compare against rewritten. */
static int check(struct expect_run *er, const struct world *w, const struct run_options *opt,
		 const char *outdir, struct run_result *res)
{
	g_autofree char *trace = outdir ? g_build_filename(outdir, "trace.csv", NULL) : NULL;

	if (!expect_check(er, w, trace, &res->expect, &res->error))
		return fail(res, RUN_STAGE_CHECK);
	res->expect_other = expect_not_for_policy(er);
	res->stage = RUN_STAGE_DONE;
	res->status = run_failed_expectations(res) ? 1 : 0;
	if (res->status && opt->accept) {
		GString *report = g_string_new(NULL);

		if (opt->accept_lock)
			g_mutex_lock(opt->accept_lock);
		expect_accept(er, res->expect, trace, report, &res->accept_error);
		if (opt->accept_lock)
			g_mutex_unlock(opt->accept_lock);
		res->accepted = g_string_free(report, FALSE);
	}
	return res->status;
}

/* A run's output set (output/outset.h): staged, then committed when the run went through
 * (status 0 or 1), else dropped; the error names the final paths. */
static bool open_set(const struct run_options *opt, struct world_options *wo,
		     struct cs_outset **set, struct run_result *res)
{
	if (!opt->world.outdir || opt->outdir_staged)
		return true;
	*set = cs_outset_begin(opt->world.outdir, run_output_names, &res->error);
	if (*set)
		wo->outdir = cs_outset_path(*set);
	return *set != NULL;
}

static void close_set(struct cs_outset *set, const struct run_options *opt,
		      struct run_result *res)
{
	const char *dir = set ? cs_outset_path(set) : opt->world.outdir;

	if (res->stage == RUN_STAGE_DONE && opt->staged && dir)
		opt->staged(res, dir, opt->staged_data);
	if (!set)
		return;
	cs_outset_unstage(set, res->error);
	if (res->stage != RUN_STAGE_DONE) {
		cs_outset_abort(set);
	} else if (!cs_outset_commit(set, &res->error)) {
		res->stage = RUN_STAGE_FINISH;
		res->status = 2;
	}
}

/* A model's "warning" record (e.g. a charge that will pass the cell's 100 %): kept
 * for the command to show, besides its line in events.jsonl. Hears "warning" records
 * only (world_add_event_listener_for). */
static void collect_warning(void *data, sim_time_t t, const char *src, const char *ev,
			    const cJSON *rec)
{
	struct run_result *res = data;
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(rec, "message");

	(void)t;
	(void)ev;
	if (!cJSON_IsString(msg))
		return;
	if (!res->warnings)
		res->warnings = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(res->warnings, g_strdup_printf("%s: %s", src, msg->valuestring));
}

/* Build, run and finish the world, then check the expectations. */
static int run_loaded(const struct run_options *opt, struct run_result *res)
{
	const struct scenario *sc = res->scenario;
	struct world_options wo = opt->world;
	struct expect_run *er = NULL;
	struct world *w = NULL;
	struct cs_outset *set = NULL;
	enum run_stage stage = RUN_STAGE_READY;   /* the one a failure stops at */
	bool ran;

	if (opt->expect && sc->expect) {
		er = expect_prepare(sc->expect, sc->file, sc->duration, &res->error);
		if (!er)
			return fail(res, RUN_STAGE_EXPECT);
		expect_options(er, &wo);
	}
	if (opt->ready && !opt->ready(sc, opt->ready_data, &res->error))
		goto out;
	stage = RUN_STAGE_BUILD;
	if (!open_set(opt, &wo, &set, res))
		goto out;
	w = world_new(sc, &wo, &res->error);
	if (!w)
		goto out;
	if (er)
		expect_listen(er, w);
	world_add_event_listener_for(w, "warning", collect_warning, res);
	stage = RUN_STAGE_RUN;
	ran = world_run(w, &res->error);
	if (world_trace_warning(w)) {
		if (!res->warnings)
			res->warnings = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(res->warnings, g_strdup(world_trace_warning(w)));
	}
	if (!ran)
		goto out;
	stage = RUN_STAGE_FINISH;
	if (!world_finish(w, &res->error))
		goto out;
	/* what the caller reads after the world is gone */
	world_metrics_copy(&res->metrics, world_metrics(w));
	res->policy = g_strdup(world_policy_name(w));
	stage = res->stage = RUN_STAGE_DONE;
	res->status = 0;
	if (er)
		check(er, w, opt, wo.outdir, res);
out:
	if (stage != RUN_STAGE_DONE)
		fail(res, stage);
	world_free(w);
	expect_run_free(er);
	close_set(set, opt, res);
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
	world_metrics_clear(&res->metrics);
	if (res->warnings)
		g_ptr_array_unref(res->warnings);
	scenario_free(res->owned);
	memset(res, 0, sizeof(*res));
}
