// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/events.c - the scenario's events in a run: plug, unplug, set, suspend, resume,
 * faults.
 *
 * A `set` writes the run's copy of a scenario object's parameters (or the policy's),
 * logs a scenario/set record and tells the model (its descriptor's params_changed)
 * or the policy; the value was checked when the scenario was loaded, except those of
 * policy.params.*, which are checked here once the run knows its policy.
 */
#include <string.h>
#include "models/cable/cable.h"
#include "models/pmic/pmic.h"
#include "models/source/source.h"
#include "run/world_priv.h"
#include "sim/units.h"

static void world_plug(struct world *w, bool on)
{
	struct source *src = world_model(w, "source");

	if (on == src->attached)
		return;
	source_attach(src, on);
	if (src->attached != on)
		return;         /* a "none" source: there is nothing to plug in */
	evlog_emit(w->log, sim_now(&w->sim), "source", on ? "attach" : "detach", "kind",
		   source_kind_names[src->p->kind]);
	w->dirty = true;
}

static void world_apply_set(struct world *w, const struct scenario_event *e, int idx)
{
	const struct param_desc *desc = w->sev_desc[idx];
	GError *err = NULL;
	char *base = e->obj == SCN_OBJ_POLICY ? (char *)w->pparams + w->sev_off[idx] :
						(char *)w->params[e->obj] + e->base_off;
	cJSON *rec;

	if (!param_load_value(desc, e->value, base, e->path, &err)) {
		/* Validated when the scenario was loaded: this cannot fail. */
		world_fail(w, "set %s failed: %s", e->path, err->message);
		g_error_free(err);
		return;
	}
	rec = evlog_begin(w->log, sim_now(&w->sim), "scenario", "set");
	evlog_put_string(rec, "path", e->path);
	if (rec)
		cJSON_AddItemToObject(rec, "value", cJSON_Duplicate(e->value, true));
	evlog_end(w->log, rec);
	if (e->obj == SCN_OBJ_POLICY) {
		if (w->pdesc->params_changed)
			w->pdesc->params_changed(w->ppriv);
	} else if (model_registry[e->obj]->params_changed) {
		model_registry[e->obj]->params_changed(w->state[e->obj], desc);
	}
	w->dirty = true;
}

static void world_scenario_event_cb(struct sim_event *ev, void *data)
{
	struct world *w = data;
	int idx = (int)(ev - w->sev);
	const struct scenario_event *e = &w->sev_def[idx];

	switch (e->kind) {
	case SCN_EV_PLUG:
	case SCN_EV_UNPLUG:
		world_plug(w, e->kind == SCN_EV_PLUG);
		break;
	case SCN_EV_SET:
		world_apply_set(w, e, idx);
		break;
	case SCN_EV_SUSPEND:
	case SCN_EV_RESUME:
		board_suspend(&w->drv, e->kind == SCN_EV_SUSPEND);
		break;
	case SCN_EV_FAULT_DROPOUT:
		cable_dropout(world_model(w, "cable"), e->duration);
		break;
	case SCN_EV_FAULT_ADC_STUCK: {
		cJSON *rec = evlog_begin(w->log, sim_now(&w->sim), "pmic", "adc_stuck");

		evlog_put_string(rec, "channel", pmic_adc_names[e->channel]);
		evlog_put_number(rec, "value", e->stuck_value);
		evlog_put_number(rec, "for_s", sim_time_to_s(e->duration));
		evlog_end(w->log, rec);
		pmic_adc_stick(world_model(w, "device.pmic"), e->channel, e->stuck_value, e->duration);
		break;
	}
	}
}

static void world_plug_at_start_cb(struct sim_event *ev, void *data)
{
	(void)ev;
	world_plug(data, true);
}

/* "policy.params.KEY[.SUBKEY...]": the path must lead to one of the policy's
 * parameters that may change after its probe, and the value must load into it
 * (validated on a scratch copy of the parameter struct). */
static bool world_resolve_policy_set(struct world *w, const struct scenario *sc,
				     const struct scenario_event *e, int i, GError **err)
{
	g_autofree char *where = g_strdup_printf("events[%d].path", i);
	g_autofree char *vwhere = g_strdup_printf("events[%d].value", i);
	g_autofree char *scratch = NULL;
	const struct param_desc *d;
	GError *inner = NULL;
	size_t off;

	d = scenario_param_at(w->pdesc->params, e->path, e->path + strlen("policy.params."), true,
			      where, &off, &inner);
	if (!d && w->opt.skip_foreign_policy_sets) {
		/* not this policy's parameter: world_events_schedule() skips it (sev_desc
		 * stays NULL) and says so */
		g_error_free(inner);
		return true;
	}
	if (!d) {
		/* the parameters are the run's policy's: say which (run --policy names
		 * another policy than the one the scenario was written for) */
		g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
			    "%s: %s (the parameters of policy \"%s\", which this run uses)",
			    sc->file, inner->message, w->policy_name);
		g_error_free(inner);
		return false;
	}
	if (d->kind == PARAM_OBJECT) {
		scenario_error(&inner, "%s: found %s, a group of parameters, expected one of its keys such as %s.%s",
			       where, e->path, e->path, d->sub[0].key);
	} else if (d && (d->flags & PARAM_F_PROBE_ONLY)) {
		scenario_error(&inner, "%s: found %s, which policy \"%s\" reads only when it probes, expected a parameter that can change during a run",
			       where, e->path, w->policy_name);
	} else if (d) {
		scratch = g_memdup2(w->pparams, w->pdesc->params_size ? w->pdesc->params_size : 1);
		if (d->kind == PARAM_STR)   /* the copy must not free the run's own string */
			*PARAM_FIELD(scratch + off, d, char *) = NULL;
		if (param_load_value(d, e->value, scratch + off, vwhere, &inner)) {
			if (d->kind == PARAM_STR)
				g_free(*PARAM_FIELD(scratch + off, d, char *));
			w->sev_desc[i] = d;
			w->sev_off[i] = off;
			return true;
		}
	}
	g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT, "%s: %s (policy \"%s\")", sc->file,
		    inner->message, w->policy_name);
	g_error_free(inner);
	return false;
}

bool world_events_init(struct world *w, const struct scenario *sc, GError **err)
{
	w->n_sev = sc->n_events;
	w->sev_def = sc->events;
	w->sev_desc = g_new0(const struct param_desc *, (gsize)sc->n_events + 1);
	w->sev_off = g_new0(size_t, (gsize)sc->n_events + 1);
	for (int i = 0; i < sc->n_events; i++) {
		const struct scenario_event *e = &sc->events[i];

		w->sev_desc[i] = e->desc;
		if (e->kind == SCN_EV_SET && e->obj == SCN_OBJ_POLICY &&
		    !world_resolve_policy_set(w, sc, e, i, err))
			return false;
	}
	w->sev = g_new0(struct sim_event, (gsize)sc->n_events + 1);
	for (int i = 0; i < sc->n_events; i++)
		sim_event_init(&w->sev[i], world_scenario_event_cb, w);
	sim_event_init(&w->ev_plug0, world_plug_at_start_cb, w);
	return true;
}

/* A set event on a parameter the run's policy does not have (compare, with
 * skip_foreign_policy_sets): left out of this run, as a "warning" record at t = 0 that
 * names the event and the policy. */
static bool world_event_skipped(struct world *w, int i)
{
	const struct scenario_event *e = &w->sev_def[i];
	g_autofree char *at = NULL, *msg = NULL;
	cJSON *rec;

	if (e->kind != SCN_EV_SET || e->obj != SCN_OBJ_POLICY || w->sev_desc[i])
		return false;
	at = units_format_time(e->at);
	msg = g_strdup_printf("events[%d] (set %s at %s) skipped: policy \"%s\" has no such parameter (the event is for another policy)",
			      i, e->path, at, w->policy_name);
	rec = evlog_begin(w->log, 0, "scenario", "warning");
	evlog_put_string(rec, "message", msg);
	evlog_put_string(rec, "path", e->path);
	evlog_put_string(rec, "policy", w->policy_name);
	evlog_end(w->log, rec);
	return true;
}

void world_events_schedule(struct world *w)
{
	const struct source *src = world_model(w, "source");

	if (src->p->kind != SRC_KIND_NONE && (w->n_sev == 0 || w->sev_def[0].kind != SCN_EV_PLUG))
		sim_at(&w->sim, &w->ev_plug0, 0);
	for (int i = 0; i < w->n_sev; i++)
		if (!world_event_skipped(w, i))
			sim_at(&w->sim, &w->sev[i], w->sev_def[i].at);
}

void world_events_cancel(struct world *w)
{
	if (!w->sev)
		return;
	for (int i = 0; i < w->n_sev; i++)
		sim_cancel(&w->sim, &w->sev[i]);
	sim_cancel(&w->sim, &w->ev_plug0);
}
