// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/metrics.c - what a run measures (metrics.json): accumulated over every step
 * (energy terms, charge in, VBUS minimum and time below 4.75 V), observed at every
 * operating point (time to 80 % and to full, highest input limit), collected from the
 * models at the end (trips, UVLO events, brownouts, boots).
 *
 * Energy terms integrate the powers of the operating points at both ends of a step
 * (trapezoidal, the stepper's own rule), so the balance closes to the stepper's
 * accuracy: energy_balance_error is |E_emf - (losses + load + stored)| / scale.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "run/world_priv.h"

#define METRICS_VBUS_OK_V   4.75   /* the USB 2.0 VBUS floor time_below_4v75_s counts against */
#define METRICS_SOC_MARK    0.8    /* time_to_soc_80_s: the state of charge it times */
/* discharged_while_plugged_s: the port delivers more than METRICS_DELIVER_A while the
 * battery current is below METRICS_DISCHARGE_A - far above the solver's rounding and a
 * relaxing cell's currents, below any real system draw (a phone idles at tens of mA). */
#define METRICS_DELIVER_A   0.001
#define METRICS_DISCHARGE_A (-0.010)

/* The part of a step of dt seconds during which a quantity going linearly from a to b
 * lies below level. */
static double time_below(double a, double b, double level, double dt)
{
	if (a < level && b < level)
		return dt;
	if ((a < level) != (b < level))
		return dt * (level - fmin(a, b)) / fabs(b - a);
	return 0;
}

void world_metrics_init(struct world *w)
{
	w->m.vbus_min_v = INFINITY;
	w->m.time_to_soc_80_s = -1;
	w->m.time_to_full_s = -1;
}

void world_metrics_step(struct world *w, const struct net_out *o1,
			const struct battery_state *x1, double i1, double dt, bool hold)
{
	const struct net_out *o0 = &w->op;
	const struct battery *b = w->bat;
	const struct battery_eff *e = &b->eff;
	struct world_metrics *m = &w->m;
	double ocv0 = world_ocv(w, b->x.soc), ocv1 = world_ocv(w, x1->soc);
	/* the step's own rule: trapezoidal, or the end value held over the step for a
	 * backward-Euler step (run/step.c), whose start is a transient already over */
	double h0 = hold ? 0 : 0.5 * dt, h1 = hold ? dt : 0.5 * dt;

	m->e_emf += h0 * o0->p_emf + h1 * o1->p_emf;
	m->e_src_loss += h0 * o0->p_src_loss + h1 * o1->p_src_loss;
	m->e_cable += h0 * o0->p_cable + h1 * o1->p_cable;
	m->e_chg_loss += h0 * o0->p_chg_loss + h1 * o1->p_chg_loss;
	m->e_load += h0 * o0->p_load + h1 * o1->p_load;
	m->e_chem += h0 * ocv0 * o0->ibat + h1 * ocv1 * i1;
	m->e_r0 += e->r0 * (h0 * o0->ibat * o0->ibat + h1 * i1 * i1);
	m->e_rc_loss += h0 * (b->x.v1 * b->x.v1 / e->r1 + b->x.v2 * b->x.v2 / e->r2) +
			h1 * (x1->v1 * x1->v1 / e->r1 + x1->v2 * x1->v2 / e->r2);
	m->charge_in_mah += (h0 * fmax(o0->ibat, 0) + h1 * fmax(i1, 0)) / 3.6;
	if (o1->ibus > m->ibus_max_a)
		m->ibus_max_a = o1->ibus;
	if (w->net.src_on) {
		double a = o0->vbus, v = o1->vbus;

		if (v < m->vbus_min_v)
			m->vbus_min_v = v;
		m->time_below_4v75_s += time_below(a, v, METRICS_VBUS_OK_V, dt);
		m->time_source_limiting_s += h0 * !!(o0->flags & NET_F_LIMITING) +
					     h1 * !!(o1->flags & NET_F_LIMITING);
		/* Starving: the port delivers, yet less than the phone draws, so the
		 * battery makes up the rest (an input limit or a source below the load). */
		if (o0->ibus > METRICS_DELIVER_A && o1->ibus > METRICS_DELIVER_A) {
			m->discharged_while_plugged_s +=
				time_below(o0->ibat, i1, METRICS_DISCHARGE_A, dt);
			/* the charge, by the step's own rule as charge_in_mah */
			m->discharged_while_plugged_mah +=
				(h0 * fmax(-o0->ibat, 0) + h1 * fmax(-i1, 0)) / 3.6;
		}
	}
}

/* Charging done: the first time the charger reports it. */
static void metrics_check_full(struct world *w)
{
	if (w->m.time_to_full_s < 0 && w->chg->state == CHG_DONE)
		w->m.time_to_full_s = sim_time_to_s(sim_now(&w->sim));
}

void world_metrics_observe(struct world *w)
{
	metrics_check_full(w);
	if (w->m.time_to_soc_80_s < 0 && w->bat->x.soc >= METRICS_SOC_MARK)
		w->m.time_to_soc_80_s = sim_time_to_s(sim_now(&w->sim));
	if (w->chg->iindpm > w->m.ilim_max_a && w->src->attached)
		w->m.ilim_max_a = w->chg->iindpm;
}

void world_metrics_settled(struct world *w)
{
	metrics_check_full(w);
}

/* The stepper cuts a step where SOC crosses the mark, so that time_to_soc_80_s is
 * located like any model threshold. */
void world_metrics_margins(const struct world *w, const struct battery_state *x, double *g)
{
	(void)w;
	g[0] = x->soc - METRICS_SOC_MARK;
}

void world_metrics_finish(struct world *w)
{
	struct world_metrics *m = &w->m;
	double stored, rhs, scale;

	m->source_trips = w->src->trips;
	m->uvlo_events = w->chg->uvlo_events;
	m->brownouts = w->load->load.brownouts;
	m->boots = w->load->boot.boots;
	m->time_to_running_s = w->load->boot.t_running;
	m->ilim_final_a = w->chg->iindpm;
	m->soc_final = w->bat->x.soc;
	m->energy_source_wh = m->e_emf / 3600.0;
	if (!isfinite(m->vbus_min_v))
		m->vbus_min_v = NAN;  /* reported as null: the source never delivered */
	m->e_rc_stored = battery_rc_energy(&w->bat->eff, &w->bat->x) - w->rc_e0;
	stored = m->e_chem + m->e_r0 + m->e_rc_loss + m->e_rc_stored;
	rhs = m->e_src_loss + m->e_cable + m->e_chg_loss + m->e_load + stored;
	scale = fmax(fmax(fabs(m->e_emf), fabs(m->e_load)), fabs(m->e_chem));
	m->energy_balance_error = scale > 1e-9 ? fabs(m->e_emf - rhs) / scale : 0;
	m->events = evlog_count(w->log);
	m->detected_type = w->drv.detected_type;
	m->trace_rows = w->trace ? trace_rows(w->trace) : 0;
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
	snprintf(buf, sizeof(buf), "%.*g", digits, v);
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	k->raw(k->ctx, key, buf);
}

void world_metrics_emit(const struct world_metrics *m, const char *policy,
			const struct world_metrics_sink *k)
{
	emit_num(k, "vbus_min_V", m->vbus_min_v, 7);
	emit_num(k, "time_below_4v75_s", m->time_below_4v75_s, 7);
	emit_num(k, "discharged_while_plugged_s", m->discharged_while_plugged_s, 7);
	k->number(k->ctx, "source_trips", m->source_trips);
	k->number(k->ctx, "uvlo_events", m->uvlo_events);
	k->number(k->ctx, "brownouts", m->brownouts);
	k->number(k->ctx, "boots", m->boots);
	emit_num(k, "time_to_running_s", m->time_to_running_s >= 0 ? m->time_to_running_s : NAN, 9);
	emit_num(k, "ilim_final_A", m->ilim_final_a, 7);
	emit_num(k, "ilim_max_A", m->ilim_max_a, 7);
	emit_num(k, "ibus_max_A", m->ibus_max_a, 7);
	emit_num(k, "charge_in_mAh", m->charge_in_mah, 7);
	emit_num(k, "energy_source_Wh", m->energy_source_wh, 7);
	emit_num(k, "soc_initial", m->soc_initial, 7);
	emit_num(k, "soc_final", m->soc_final, 7);
	emit_num(k, "time_to_soc_80_s", m->time_to_soc_80_s >= 0 ? m->time_to_soc_80_s : NAN, 9);
	emit_num(k, "time_to_full_s", m->time_to_full_s >= 0 ? m->time_to_full_s : NAN, 9);
	k->string(k->ctx, "detected_type", m->detected_type);
	emit_num(k, "energy_balance_error", m->energy_balance_error, 3);
	k->number(k->ctx, "events", (double)m->events);
	k->number(k->ctx, "steps", (double)m->steps);
	k->string(k->ctx, "policy", policy ? policy : "");
}

/* The sink that builds metrics.json's object. */
static void json_raw(void *ctx, const char *key, const char *text)
{
	cJSON_AddRawToObject(ctx, key, text);
}

static void json_number(void *ctx, const char *key, double v)
{
	cJSON_AddNumberToObject(ctx, key, v);
}

static void json_string(void *ctx, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(ctx, key, s);
	else
		cJSON_AddNullToObject(ctx, key);
}

cJSON *world_metrics_json(const struct world *w)
{
	return world_metrics_to_json(&w->m, w->policy_name);
}

cJSON *world_metrics_to_json(const struct world_metrics *m, const char *policy)
{
	cJSON *o = cJSON_CreateObject();
	struct world_metrics_sink k = { json_raw, json_number, json_string, o };

	world_metrics_emit(m, policy, &k);
	return o;
}

const struct world_metrics *world_metrics(const struct world *w)
{
	return &w->m;
}
