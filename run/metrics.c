// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/metrics.c - what a run measures (metrics.json): the run's own figures of the
 * circuit, accumulated over every step (energy terms, charge in, VBUS minimum, ...) or
 * taken at the end (events, steps, the energy balance), and the metrics each model
 * declares (models/model.h: taken at the start or the end, the highest observed, the
 * first time a condition held, or integrated by the model over every step), in one
 * list ordered by rank. The VBUS floor's time and the port's budget are the source
 * model's (models/source/source.c): they follow its contract.
 *
 * Energy terms integrate the powers of the operating points at both ends of a step
 * (trapezoidal, the stepper's own rule), so the balance closes to the stepper's
 * accuracy: energy_balance_error is |E_emf - (losses + load + stored)| / scale.
 */
#include <math.h>
#include <string.h>
#include "models/source/source.h"
#include "run/world_priv.h"
#include "sim/fmax.h"

/* discharged_while_plugged_s: the port delivers more than METRICS_DELIVER_A while the
 * battery current is below METRICS_DISCHARGE_A - far above the solver's rounding and a
 * relaxing cell's currents, below any real system draw (a phone idles at tens of mA). */
#define METRICS_DELIVER_A   0.001
#define METRICS_DISCHARGE_A (-0.010)

#define ACC_METRIC(fn, field, scale) \
	static double fn(const void *s, const struct model_point *pt) \
	{ \
		(void)pt; \
		return ((const struct world *)s)->acc.field * (scale); \
	}
ACC_METRIC(m_vbus_min, vbus_min_v, 1)
ACC_METRIC(m_discharged_s, discharged_s, 1)
ACC_METRIC(m_discharged_mah, discharged_mah, 1)
ACC_METRIC(m_time_limiting, time_limiting_s, 1)
ACC_METRIC(m_ibus_max, ibus_max_a, 1)
ACC_METRIC(m_charge_in, charge_in_mah, 1)
ACC_METRIC(m_energy_source, e_emf, 1 / 3600.0)
ACC_METRIC(m_steps, steps, 1)
#undef ACC_METRIC

static double m_balance(const void *s, const struct model_point *pt)
{
	const struct world *w = s;
	const struct world_acc *a = &w->acc;
	const struct battery *b = world_cell(w);
	double rc_stored = battery_rc_energy(&b->eff, &b->x) - a->rc_e0;
	double stored = a->e_chem + a->e_r0 + a->e_rc_loss + rc_stored;
	double rhs = a->e_src_loss + a->e_cable + a->e_chg_loss + a->e_load + stored;
	double scale = fmax(fmax(fabs(a->e_emf), fabs(a->e_load)), fabs(a->e_chem));

	(void)pt;
	return scale > 1e-9 ? fabs(a->e_emf - rhs) / scale : 0;
}

static double m_events(const void *s, const struct model_point *pt)
{
	(void)pt;
	return (double)evlog_count(((const struct world *)s)->log);
}

static double m_trace_rows(const void *s, const struct model_point *pt)
{
	const struct world *w = s;

	(void)pt;
	return w->trace ? (double)trace_rows(w->trace) : 0;
}

static const char *m_detected(const void *s)
{
	return ((const struct world *)s)->drv.detected_type;
}

static const char *m_policy(const void *s)
{
	return ((const struct world *)s)->policy_name;   /* loaded by world_new() */
}

/* Ranks: below 100 the figures (the models' among them; 17-99 are free), then the
 * run's summary (detected type to policy), then the unwritten ones. */
#define END MODEL_METRIC_AT_END
static const struct model_metric world_own_metrics[] = {
	{ 0, "vbus_min_V", MODEL_METRIC_DIGITS, 7, END, false, m_vbus_min, NULL },
	{ 2, "discharged_while_plugged_s", MODEL_METRIC_DIGITS, 7, END, false, m_discharged_s,
	  NULL },
	{ 10, "ibus_max_A", MODEL_METRIC_DIGITS, 7, END, false, m_ibus_max, NULL },
	{ 11, "charge_in_mAh", MODEL_METRIC_DIGITS, 7, END, false, m_charge_in, NULL },
	{ 12, "energy_source_Wh", MODEL_METRIC_DIGITS, 7, END, false, m_energy_source, NULL },
	{ 100, "detected_type", MODEL_METRIC_STRING, 0, END, false, NULL, m_detected },
	{ 101, "energy_balance_error", MODEL_METRIC_DIGITS, 3, END, false, m_balance, NULL },
	{ 102, "events", MODEL_METRIC_COUNT, 0, END, false, m_events, NULL },
	{ 103, "steps", MODEL_METRIC_COUNT, 0, END, false, m_steps, NULL },
	{ 104, "policy", MODEL_METRIC_STRING, 0, END, false, NULL, m_policy },
	{ 200, "discharged_while_plugged_mAh", MODEL_METRIC_UNWRITTEN, 0, END, false,
	  m_discharged_mah, NULL },
	{ 201, "time_source_limiting_s", MODEL_METRIC_UNWRITTEN, 0, END, false, m_time_limiting,
	  NULL },
	{ 202, "trace_rows", MODEL_METRIC_UNWRITTEN, 0, END, false, m_trace_rows, NULL },
};
#undef END

/* A metric and its owner: a model's registry index, -1 for the run. */
struct world_metric_ref {
	const struct model_metric *d;
	int model;
};

/* Every metric in metrics.json order (the unwritten ones last) and those whose margins
 * the stepper watches (cut), as indices into all. */
static struct metric_tab {
	struct world_metric_ref *all;
	int *cut;
	int n_all, n_cut;
} tab;

/* Puts ref among the first n of l, which are in rank order (built once: a handful). */
static void insert_by_rank(struct world_metric_ref *l, int n, struct world_metric_ref ref)
{
	for (; n > 0 && l[n - 1].d->rank > ref.d->rank; n--)
		l[n] = l[n - 1];
	l[n] = ref;
}

/* Built once (the registry is constant) and kept for the process. */
static const struct metric_tab *metric_tab(void)
{
	static gsize once;
	int n = G_N_ELEMENTS(world_own_metrics);

	if (!g_once_init_enter(&once))
		return &tab;
	for (int i = 0; model_registry[i]; i++)
		n += model_registry[i]->n_metrics;
	tab.all = g_new(struct world_metric_ref, (gsize)n);
	for (guint i = 0; i < G_N_ELEMENTS(world_own_metrics); i++)
		insert_by_rank(tab.all, tab.n_all++,
			       (struct world_metric_ref){ &world_own_metrics[i], -1 });
	for (int i = 0; model_registry[i]; i++)
		for (int k = 0; k < model_registry[i]->n_metrics; k++)
			insert_by_rank(tab.all, tab.n_all++, (struct world_metric_ref){
					       &model_registry[i]->metrics[k], i });
	tab.cut = g_new(int, (gsize)tab.n_all);
	for (int i = 0; i < tab.n_all; i++)
		if (tab.all[i].d->cut)
			tab.cut[tab.n_cut++] = i;
	g_once_init_leave(&once, 1);
	return &tab;
}

static int metric_index(const char *name)
{
	const struct world_metric_ref *l = metric_tab()->all;
	int n = tab.n_all;

	for (int i = 0; i < n; i++)
		if (strcmp(l[i].d->name, name) == 0)
			return i;
	g_error("no metric \"%s\"", name);
}

double world_metric(const struct world_metrics *m, const char *name)
{
	return m->v[metric_index(name)];
}

const char *world_metric_text(const struct world_metrics *m, const char *name)
{
	return m->s[metric_index(name)];
}

void world_metrics_copy(struct world_metrics *dst, const struct world_metrics *src)
{
	int n = metric_tab()->n_all;

	dst->v = g_memdup2(src->v, sizeof(double) * (size_t)n);
	dst->s = g_new(char *, (gsize)n);
	for (int i = 0; i < n; i++)
		dst->s[i] = g_strdup(src->s[i]);
}

void world_metrics_clear(struct world_metrics *m)
{
	int n = metric_tab()->n_all;

	for (int i = 0; m->s && i < n; i++)
		g_free(m->s[i]);
	g_clear_pointer(&m->s, g_free);
	g_clear_pointer(&m->v, g_free);
}

void world_metrics_start(struct world *w, const struct model_point *pt)
{
	const struct world_metric_ref *l = metric_tab()->all;
	int n = tab.n_all;

	w->m.v = g_new0(double, (gsize)n);
	w->m.s = g_new0(char *, (gsize)n);
	/* what every operating point updates, resolved once: it is read at every settling */
	w->firsts = g_new(struct metric_watch, (gsize)n);
	w->maxima = g_new(struct metric_watch, (gsize)n);
	for (int i = 0; i < n; i++) {
		enum model_metric_rule r = l[i].d->rule;
		const void *st = world_owner_state(w, l[i].model);
		struct metric_watch m = { l[i].d->value, st, &w->m.v[i] };

		if (r == MODEL_METRIC_FIRST) {
			w->firsts[w->n_firsts++] = m;
			w->m.v[i] = -1;   /* not yet */
		} else if (r == MODEL_METRIC_MAX) {
			w->maxima[w->n_maxima++] = m;
		} else if (r == MODEL_METRIC_AT_START) {
			w->m.v[i] = l[i].d->value(st, pt);
		}
	}
	w->cuts = g_new(struct metric_cut, (gsize)tab.n_cut);
	for (int k = 0; k < tab.n_cut; k++) {
		const struct world_metric_ref *r = &l[tab.cut[k]];

		w->cuts[w->n_cuts++] = (struct metric_cut){ r->d->value,
							    world_owner_state(w, r->model) };
	}
	w->integrate = g_new(struct world_integrate_hook, (gsize)w->n_models);
	for (int i = 0; i < w->n_models; i++)
		if (model_registry[i]->integrate)
			w->integrate[w->n_integrate++] = (struct world_integrate_hook){
				model_registry[i]->integrate, w->state[i] };
	w->acc.vbus_min_v = NAN;   /* null until the source delivers */
	w->acc.vbus_min_t = w->acc.ibus_max_t = -1;
	w->acc.port = world_model(w, "source");
	w->acc.rc_e0 = battery_rc_energy(&world_cell(w)->eff, &world_cell(w)->x);
}

/* The models' figures integrated over the step (models/model.h, integrate). */
static void world_metrics_integrate(struct world *w, const struct net_out *o1,
				    const struct battery_state *x1, double dt, bool hold)
{
	const struct model_point p0 = { &w->net, &w->op, &w->wires, &world_cell(w)->x };
	const struct model_point p1 = { &w->net, o1, &w->wires, x1 };

	for (int k = 0; k < w->n_integrate; k++)
		w->integrate[k].integrate(w->integrate[k].state, &p0, &p1, dt, hold);
}

/*
 * The lowest VBUS while the port is on and the highest IBUS, with their instants: at
 * every step's end and every instant's settled point, so over every operating point a
 * trace row can show (a dropout's 0 V with the port on among them; a step is smooth
 * between its ends).
 */
static void metrics_extremes(struct world *w, const struct net_out *op, sim_time_t t)
{
	struct world_acc *m = &w->acc;

	if (op->ibus > m->ibus_max_a) {
		m->ibus_max_a = op->ibus;
		m->ibus_max_t = t;
	}
	if (source_port_on(m->port) && !(op->vbus >= m->vbus_min_v)) {   /* NaN at first */
		m->vbus_min_v = op->vbus;
		m->vbus_min_t = t;
	}
}

void world_metrics_step(struct world *w, const struct net_out *o1,
			const struct battery_state *x1, double i1, double ocv0, double ocv1,
			double dt, bool hold, sim_time_t t1)
{
	const struct net_out *o0 = &w->op;
	const struct battery *b = world_cell(w);
	const struct battery_eff *e = &b->eff;
	struct world_acc *m = &w->acc;
	/* the step's own rule: trapezoidal, or the end value held over the step for a
	 * backward-Euler step (run/step.c), whose start is a transient already over */
	double h0 = hold ? 0 : 0.5 * dt, h1 = hold ? dt : 0.5 * dt;

	m->steps++;
	m->e_emf += h0 * o0->p_emf + h1 * o1->p_emf;
	m->e_src_loss += h0 * o0->p_src_loss + h1 * o1->p_src_loss;
	m->e_cable += h0 * o0->p_cable + h1 * o1->p_cable;
	m->e_chg_loss += h0 * o0->p_chg_loss + h1 * o1->p_chg_loss;
	m->e_load += h0 * o0->p_load + h1 * o1->p_load;
	m->e_chem += h0 * ocv0 * o0->ibat + h1 * ocv1 * i1;
	m->e_r0 += e->r0 * (h0 * o0->ibat * o0->ibat + h1 * i1 * i1);
	m->e_rc_loss += h0 * (b->x.v1 * b->x.v1 / e->r1 + b->x.v2 * b->x.v2 / e->r2) +
			h1 * (x1->v1 * x1->v1 / e->r1 + x1->v2 * x1->v2 / e->r2);
	m->charge_in_mah += (h0 * fmax_inline(o0->ibat, 0) + h1 * fmax_inline(i1, 0)) / 3.6;
	metrics_extremes(w, o1, t1);
	world_metrics_integrate(w, o1, x1, dt, hold);
	if (w->net.src_on) {
		m->time_limiting_s += h0 * !!(o0->flags & NET_F_LIMITING) +
				      h1 * !!(o1->flags & NET_F_LIMITING);
		/* Starving: the port delivers, yet less than the phone draws, so the
		 * battery makes up the rest (an input limit or a source below the load). */
		if (o0->ibus > METRICS_DELIVER_A && o1->ibus > METRICS_DELIVER_A) {
			m->discharged_s += model_time_below(o0->ibat, i1, METRICS_DISCHARGE_A, dt);
			/* the charge, by the step's own rule as charge_in_mah */
			m->discharged_mah +=
				(h0 * fmax_inline(-o0->ibat, 0) + h1 * fmax_inline(-i1, 0)) / 3.6;
		}
	}
}

/* The values are read-only looks at the models' states, so their order is free: a
 * first time that happened is done with (its place goes to the last one's). */
void world_metrics_observe(struct world *w, const struct model_point *pt, bool settled)
{
	if (settled) {
		metrics_extremes(w, pt->op, sim_now(&w->sim));
	} else {
		for (const struct metric_watch *m = w->maxima, *end = m + w->n_maxima; m < end;
		     m++) {
			double x = m->value(m->state, pt);

			if (x > *m->v)
				*m->v = x;
		}
	}
	for (int k = 0; k < w->n_firsts;) {
		const struct metric_watch *m = &w->firsts[k];

		if (m->value(m->state, pt) >= 0) {
			*m->v = sim_time_to_s(sim_now(&w->sim));
			w->firsts[k] = w->firsts[--w->n_firsts];
		} else {
			k++;
		}
	}
}

/* Where an extreme metric happened, as a record at the end of the run: {"metric":
 * name, "value": its value, "at": the instant (s)}. */
static void metrics_extreme_record(struct world *w, const char *name, double v, sim_time_t at)
{
	cJSON *rec;

	if (at < 0)
		return;
	rec = evlog_begin(w->log, sim_now(&w->sim), "metrics", "extreme");
	evlog_put_string(rec, "metric", name);
	evlog_put_number(rec, "value", v);
	evlog_put_number(rec, "at", sim_time_to_s(at));
	evlog_end(w->log, rec);
}

void world_metrics_finish(struct world *w)
{
	const struct world_metric_ref *l = metric_tab()->all;
	int n = tab.n_all;
	struct model_point pt = { &w->net, &w->op, &w->wires, &world_cell(w)->x };

	metrics_extreme_record(w, "vbus_min_V", w->acc.vbus_min_v, w->acc.vbus_min_t);
	metrics_extreme_record(w, "ibus_max_A", w->acc.ibus_max_a, w->acc.ibus_max_t);

	for (int i = 0; i < n; i++) {
		const struct model_metric *d = l[i].d;
		const void *st = world_owner_state(w, l[i].model);

		if (d->write == MODEL_METRIC_STRING) {
			g_free(w->m.s[i]);
			w->m.s[i] = g_strdup(d->text(st));
		} else if (d->rule == MODEL_METRIC_AT_END) {
			w->m.v[i] = d->value(st, &pt);
		}
	}
}

/* A number written with `digits` significant digits ("%.*g"), as a raw JSON number;
 * null when it is not finite, "0" for a negative zero. */
static void emit_num(const struct world_metrics_sink *k, const char *key, double v, int digits)
{
	char buf[64];

	if (!isfinite(v)) {
		k->string(k->ctx, key, NULL);
		return;
	}
	trace_fmt_g(buf, v, digits);   /* "%.*g" */
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	k->raw(k->ctx, key, buf);
}

/* A count (a whole number, far below 2^53) as its digits: what cJSON's "%1.15g" prints
 * for a whole number below 10^15, without its printf and its check by sscanf (3.5 k
 * instructions a number; metrics.json and every sweep row have six counts). */
static void emit_count(const struct world_metrics_sink *k, const char *key, double v)
{
	char buf[32];

	g_snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, (gint64)v);
	k->raw(k->ctx, key, buf);
}

void world_metrics_emit(const struct world_metrics *m, const struct world_metrics_sink *k)
{
	const struct world_metric_ref *l = metric_tab()->all;
	int n = tab.n_all;

	for (int i = 0; i < n; i++) {
		const struct model_metric *d = l[i].d;
		double v = m ? m->v[i] : 0;

		switch (d->write) {
		case MODEL_METRIC_DIGITS:
		case MODEL_METRIC_TIME:   /* null while negative: it never happened */
			emit_num(k, d->name, d->write == MODEL_METRIC_TIME && v < 0 ? NAN : v,
				 d->digits);
			break;
		case MODEL_METRIC_COUNT:
			emit_count(k, d->name, v);
			break;
		case MODEL_METRIC_STRING:
			k->string(k->ctx, d->name, m ? m->s[i] : "");
			break;
		case MODEL_METRIC_UNWRITTEN:
			break;
		}
	}
}

/* The sink that builds metrics.json's object. Its keys are the metrics' names, constant
 * strings of their descriptors, which the object refers to rather than copies. */
static void json_raw(void *ctx, const char *key, const char *text)
{
	cJSON_AddItemToObjectCS(ctx, key, cJSON_CreateRaw(text));
}

static void json_string(void *ctx, const char *key, const char *s)
{
	cJSON_AddItemToObjectCS(ctx, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

cJSON *world_metrics_json(const struct world *w)
{
	return world_metrics_to_json(&w->m);
}

cJSON *world_metrics_to_json(const struct world_metrics *m)
{
	cJSON *o = cJSON_CreateObject();
	struct world_metrics_sink k = { json_raw, json_string, o };

	world_metrics_emit(m, &k);
	return o;
}

const struct world_metrics *world_metrics(const struct world *w)
{
	return &w->m;
}
