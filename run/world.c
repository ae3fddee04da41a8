// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/world.c - one run's life cycle: build it, run it, commit its outputs, free it.
 *
 * The kernel-style code the policy and the board run on resolves its globals through
 * cs_kernel_current (chargesim/kernel.h). It is switched to this run's kernel where
 * that code is entered: building the board (world_new), probing and dispatching
 * (world_run; every event, step and settle happens inside it), removing (world_free).
 */
#include <string.h>
#include "output/evfile.h"
#include "output/outfile.h"
#include "models/load/load.h"
#include "models/phy/phy.h"
#include "models/pmic/pmic.h"
#include "models/source/source.h"
#include "run/linux_board.h"
#include "run/world_priv.h"
#include <chargesim/linux_module.h>

G_DEFINE_QUARK(cs-run-error-quark, cs_run_error)

int world_error_status(const GError *err)
{
	return err->domain == CS_RUN_ERROR && err->code == CS_RUN_ERROR_INTERNAL ? 3 : 2;
}

static void *env_params_of(const struct model_env *env, const char *key)
{
	int i = scenario_object_index(key);

	return i >= 0 ? ((const struct world *)env->owner)->params[i] : NULL;
}

void *world_model(const struct world *w, const char *key)
{
	int i = model_index(key);

	return i >= 0 ? w->state[i] : NULL;
}

static void *env_state_of(const struct model_env *env, const char *key)
{
	return world_model(env->owner, key);
}

/* A model changed: the operating point is solved again before it is read (run/step.c). */
static void world_changed_cb(void *ctx)
{
	((struct world *)ctx)->dirty = true;
}

/* The run's copies of the parameters (shallow: strings stay the scenario's), the
 * models' states, initialised in registry order. */
static void world_models_init(struct world *w, const struct scenario *sc)
{
	const struct model_env env = {
		.sim = &w->sim,
		.log = w->log,
		.changed = world_changed_cb,
		.ctx = w,
		.wires = &w->wires,
		.params_of = env_params_of,
		.state_of = env_state_of,
		.owner = w,
	};
	int n_objects = scenario_n_objects();

	w->params = g_new0(void *, (gsize)n_objects);
	for (int i = 0; i < n_objects; i++)
		w->params[i] = g_memdup2(sc->params[i], scenario_object(i)->params_size);
	w->n_models = model_count();
	w->cell = model_index("device.battery");
	w->chip = model_index("device.pmic");
	w->state = g_new0(void *, (gsize)w->n_models);
	for (int i = 0; i < w->n_models; i++)
		w->state[i] = g_malloc0(MAX(model_registry[i]->state_size, 1));
	for (int i = 0; i < w->n_models; i++)
		if (model_registry[i]->init)
			model_registry[i]->init(w->state[i], w->params[i], &env);
	world_hooks_init(w);
}

static struct boot *world_boot(void *hw)
{
	return &((struct load_model *)world_model(hw, "device.load"))->boot;
}

static void world_boot_set_gate(void *hw, cs_boot_gate_fn fn, void *ctx)
{
	boot_set_gate(world_boot(hw), fn, ctx);
}

static const char *world_boot_state(void *hw)
{
	return boot_stage_name(world_boot(hw));
}

/* The PHY's debounced VBUS comparator: the board's drivers (ctx) hear it first. */
static void world_phy_vbus_cb(void *ctx, bool valid)
{
	board_vbus(ctx, valid);
}

static void world_phy_result_cb(void *ctx, const struct phy_result *r)
{
	board_detected(ctx, r);
}

/* Built-in names never end in the module suffix, though some have a '/'
 * ("linux/twl4030_charger"). */
bool world_policy_is_plugin(const char *policy)
{
	return g_str_has_suffix(policy, "." G_MODULE_SUFFIX);
}

/* The scenario's "params" (or none) with the command line's over them, key by key
 * (into nested objects: "iindpm": {"min": ...} keeps the scenario's other keys). */
static void merge_into(cJSON *dst, const cJSON *src)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, src) {
		cJSON *have = cJSON_GetObjectItemCaseSensitive(dst, c->string);

		if (have && cJSON_IsObject(have) && cJSON_IsObject(c))
			merge_into(have, c);
		else if (have)
			cJSON_ReplaceItemInObjectCaseSensitive(dst, c->string, cJSON_Duplicate(c, true));
		else
			cJSON_AddItemToObject(dst, c->string, cJSON_Duplicate(c, true));
	}
}

static cJSON *world_merge_params(const cJSON *own, const cJSON *cli)
{
	cJSON *m = cJSON_IsObject(own) ? cJSON_Duplicate(own, true) : cJSON_CreateObject();

	merge_into(m, cli);
	return m;
}

/* The scenario's policy (or --policy's), with its parameters; errors name the file. */
static bool world_load_policy(struct world *w, const struct scenario *sc, GError **err)
{
	const struct scenario_policy *cfg = &sc->policy;
	const char *name = w->opt.policy ? w->opt.policy : cfg->name;
	const char *plugin = w->opt.policy ? NULL : cfg->plugin;
	g_autofree char *opt_plugin = NULL, *cfg_plugin = NULL;
	const cJSON *params = NULL;
	cJSON *merged = NULL;
	GError *inner = NULL;
	bool loaded;

	/* --policy path/to/x.so: a plugin, relative to the working directory (a bare
	 * "x.so" would otherwise be looked up in the library path) */
	if (w->opt.policy && world_policy_is_plugin(w->opt.policy)) {
		plugin = opt_plugin = g_canonicalize_filename(w->opt.policy, NULL);
		cfg_plugin = cfg->plugin ? g_canonicalize_filename(cfg->plugin, NULL) : NULL;
	}
	/* The scenario's params belong to the scenario's policy: with --policy naming
	 * another one they are left out. */
	if (!w->opt.policy || (cfg->name && strcmp(w->opt.policy, cfg->name) == 0) ||
	    (cfg_plugin && strcmp(opt_plugin, cfg_plugin) == 0))
		params = cfg->params;
	/* --policy is the user's own word; a file's plugin needs --allow-plugins (loader.h) */
	if (!cs_policy_open(&w->policy, name, plugin, opt_plugin != NULL, &inner))
		goto fail;
	w->pdesc = w->policy.desc;
	w->policy_name = w->pdesc->name;
	if (w->opt.policy_params)
		params = merged = world_merge_params(params, w->opt.policy_params);
	loaded = cs_policy_load_params(&w->policy, params, &inner);
	cJSON_Delete(merged);
	if (!loaded)
		goto fail;
	w->pparams = w->policy.params;
	return true;
fail:
	g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT, "%s: %s", sc->file, inner->message);
	g_error_free(inner);
	return false;
}

static bool world_open_outputs(struct world *w, GError **err)
{
	const struct world_options *opt = &w->opt;
	g_autofree char *ev = NULL, *csv = NULL, *vcd = NULL;

	if (!opt->outdir)
		return true;
	w->outdir = g_strdup(opt->outdir);
	if (!cs_mkdir_p(w->outdir, err))
		return false;
	ev = g_build_filename(w->outdir, "events.jsonl", NULL);
	w->evfile = evfile_open(w->log, ev, err);
	if (!w->evfile)
		return false;
	if (!opt->no_trace || opt->vcd) {
		const struct trace_col *cols;
		int n = world_columns(&cols);

		csv = opt->no_trace ? NULL : g_build_filename(w->outdir, "trace.csv", NULL);
		vcd = opt->vcd ? g_build_filename(w->outdir, "trace.vcd", NULL) : NULL;
		w->trace = trace_new(cols, n);
		if (!trace_open(w->trace, csv, vcd, err))
			return false;
	}
	return true;
}

struct world *world_new(const struct scenario *sc, const struct world_options *opt, GError **err)
{
	struct world *w = g_new0(struct world, 1);
	struct pmic *chg;

	w->opt = *opt;
	w->duration = sc->duration;
	sim_init(&w->sim, sc->seed);
	w->kernel.sim = &w->sim;
	w->log = evlog_new();
	w->kernel.log = w->log;
	cs_kernel_current = &w->kernel;
	if (!world_open_outputs(w, err))
		goto fail;

	world_models_init(w, sc);
	world_trace_init(w);   /* after the models: it keeps their states */
	chg = w->state[w->chip];
	w->vindpm_hw = chg->p->vindpm > 0;
	world_metrics_start(w, &(struct model_point){ &w->net, &w->op, &w->wires,
						      &world_cell(w)->x });
	/* the board the policy sees */
	phy_set_owner(world_model(w, "device.phy"), world_phy_vbus_cb, world_phy_result_cb,
		      &w->drv);
	w->boot_hook = (struct cs_boot){ world_boot_set_gate, world_boot_state, w };
	w->phy_dev.init_name = "usb-phy";
	w->phy.dev = &w->phy_dev;
	w->phy.label = "usb-phy";
	w->ic = (struct cs_charger_ic){ pmic_preset_names[chg->p->preset], &world_ic_ops, w };
	/* before the board: a real driver's machine says which PHY glue the board has */
	if (!world_load_policy(w, sc, err))
		goto fail;
	board_init(&w->drv, &w->sim, w->log, &w->phy,
		   world_model(w, "source"),
		   w->params[scenario_object_index("device.gadget")],
		   w->params[scenario_object_index("device.kernel")],
		   linux_board_glue(w->policy_name), world_board_read_cb, w);
	board_fill(&w->drv, &w->board);
	if (!board_glue_check(&w->drv, sc->file, w->policy_name, err))
		goto fail;
	w->board.name = sc->name;
	w->board.ic = &w->ic;
	w->board.boot = &w->boot_hook;
	world_sysfs_init(w);
	/* linux/<driver> policies: the board the real driver runs on (run/linux_board.c) */
	if (!linux_board_new(&w->lb, w->policy_name, &(struct linux_board_env){
			.sim = &w->sim, .log = w->log, .pmic = chg, .drv = &w->drv,
			.phy = world_model(w, "device.phy"), .board = &w->board, .file = sc->file }, err))
		goto fail;
	if (!w->lb)
		board_add_phy(&w->drv);   /* a real Linux machine declares its own */
	if (!world_events_init(w, sc, err))
		goto fail;
	world_step_init(w);
	return w;
fail:
	world_free(w);
	return NULL;
}

/* A real driver's event log says which bytes of it ran, as metrics.json does: someone
 * handed only events.jsonl can still tell a stock driver's log from an edit's
 * (docs/scenarios.md, "stack" events). Runs of other policies log nothing new. */
static void log_kernel_files(struct world *w)
{
	cJSON *kf = world_kernel_files_json(w->policy_name), *rec;

	if (!kf)
		return;
	rec = evlog_begin(w->log, 0, "stack", "kernel_files");
	evlog_put_string(rec, "policy", w->policy_name);
	if (rec)
		cJSON_AddItemToObjectCS(rec, "files", kf);
	else
		cJSON_Delete(kf);
	evlog_end(w->log, rec);
}

bool world_run(struct world *w, GError **err)
{
	int rc;

	cs_kernel_current = &w->kernel;
	rc = w->pdesc->probe(w->pdesc, &w->board, w->pparams, &w->ppriv);
	if (rc < 0) {
		g_autofree char *why = cs_probe_error_text(rc);  /* "-EINVAL (first kernel error)" */

		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "policy \"%s\" failed to probe: %s", w->policy_name, why);
		return false;
	}
	evlog_emit(w->log, 0, "stack", "probe", "policy", w->policy_name);
	log_kernel_files(w);
	world_events_schedule(w);
	world_sysfs_schedule(w);
	for (int i = 0; i < w->n_models; i++)
		if (model_registry[i]->start)
			model_registry[i]->start(w->state[i]);

	/* the state at t = 0, before anything happens */
	world_settle_state(w);
	world_trace_row(w, false);
	sim_run_until(&w->sim, w->duration);
	if (w->write_err) {
		g_propagate_prefixed_error(err, g_steal_pointer(&w->write_err),
					   "stopped at t = %.9g s: ", sim_time_to_s(sim_now(&w->sim)));
		return false;
	}
	if (w->sim.stalled)
		world_fail(w, "time stopped advancing at t = %.9g s: more than %d events at one instant (zero delays feeding each other?)",
			   sim_time_to_s(sim_now(&w->sim)), SIM_MAX_EVENTS_PER_INSTANT);
	if (w->fail_msg) {
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INTERNAL, "internal error: %s", w->fail_msg);
		return false;
	}
	return true;
}

/* A real driver's run names the kernel files it was compiled from, so that a result
 * says which bytes of the driver made it (docs/linux-drivers.md section 2). */
cJSON *world_kernel_files_json(const char *policy)
{
	const struct cs_kfile *const *f = cs_linux_policy_files(policy);
	cJSON *a;

	if (!f)
		return NULL;
	a = cJSON_CreateArray();
	for (; *f; f++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "path", (*f)->path);
		cJSON_AddStringToObject(e, "sha256", (*f)->sha256);
		cJSON_AddStringToObject(e, "status", (*f)->status);
		cJSON_AddItemToArray(a, e);
	}
	return a;
}

bool world_finish(struct world *w, GError **err)
{
	g_autofree char *path = NULL, *text = NULL;
	cJSON *o, *kf;
	char *printed;
	bool ok;

	world_metrics_finish(w);
	if (!w->outdir)
		return true;
	if ((w->trace && !trace_close(w->trace, err)) || !evfile_commit(w->evfile, err))
		return false;
	o = world_metrics_json(w);
	kf = world_kernel_files_json(w->policy_name);
	if (kf)
		cJSON_AddItemToObject(o, "kernel_files", kf);
	path = g_build_filename(w->outdir, "metrics.json", NULL);
	printed = cJSON_Print(o);
	/* the metrics are numbers, raw numbers, strings, null: cJSON prints them all */
	if (!printed)
		g_error("metrics.json: a tree that cJSON cannot print");
	text = g_strconcat(printed, "\n", NULL);
	cJSON_free(printed);
	ok = cs_outfile_write_all(path, text, strlen(text), err);
	cJSON_Delete(o);
	return ok;
}

const char *world_trace_warning(const struct world *w)
{
	return w ? w->trace_warning : NULL;
}

void world_add_event_listener(struct world *w, evlog_listener_cb cb, void *data)
{
	evlog_add_listener(w->log, cb, data);
}

void world_add_event_listener_for(struct world *w, const char *ev, evlog_listener_cb cb, void *data)
{
	evlog_add_listener_for(w->log, ev, cb, data);
}

void world_add_event_text_listener(struct world *w, evlog_text_cb cb, void *data)
{
	evlog_add_text_listener(w->log, cb, data);
}

void world_stop(struct world *w)
{
	sim_stop(&w->sim);
}

const char *world_policy_name(const struct world *w)
{
	return w->policy_name;
}

void world_free(struct world *w)
{
	if (!w)
		return;
	cs_kernel_current = &w->kernel;
	if (w->pdesc && w->ppriv && w->pdesc->remove)
		w->pdesc->remove(w->ppriv);
	linux_board_free(w->lb);
	for (int i = 0; w->state && i < w->n_models; i++)   /* all initialised, or none */
		if (model_registry[i]->cleanup)
			model_registry[i]->cleanup(w->state[i]);
	if (w->drv.sim)   /* board_init ran (after the models and the policy's loading) */
		board_cleanup(&w->drv);
	/* the states and parameters after the board, which holds pointers into them */
	for (int i = 0; w->state && i < w->n_models; i++)
		g_free(w->state[i]);
	g_free(w->state);
	for (int i = 0, n = scenario_n_objects(); w->params && i < n; i++)
		g_free(w->params[i]);
	g_free(w->params);
	world_sysfs_cancel(w);
	g_free(w->sysfs_ev);
	world_events_cancel(w);
	trace_free(w->trace);
	evlog_free(w->log);
	evfile_free(w->evfile);
	sim_destroy(&w->sim);
	cs_policy_close(&w->policy);
	g_free(w->sev);
	g_free(w->sev_desc);
	g_free(w->sev_off);
	g_free(w->row_block);
	g_free(w->rows);
	world_metrics_clear(&w->m);
	g_free(w->firsts);
	g_free(w->maxima);
	g_free(w->cuts);
	g_free(w->integrate);
	g_free(w->nets);
	g_free(w->margins);
	g_free(w->observe);
	g_free(w->settled);
	g_free(w->g);
	g_free(w->g_try);
	g_free(w->outdir);
	g_free(w->fail_msg);
	g_clear_error(&w->write_err);
	g_free(w->trace_warning);
	cs_kernel_exit(&w->kernel);
	if (cs_kernel_current == &w->kernel)
		cs_kernel_current = NULL;
	g_free(w);
}
