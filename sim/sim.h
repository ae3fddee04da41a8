/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/sim.h - the simulation kernel: virtual clock, event dispatch, RNG.
 *
 * One struct sim per run. It owns the event queue and the run's only random number
 * generator (a GRand seeded from the scenario), and it advances virtual time from
 * event to event. Between events an optional continuous system (the electrical
 * world, see sim/world.h) is advanced; it may stop short of the next event when it
 * locates a threshold crossing, after queueing the events that handle the crossing.
 *
 * Invariants: sim->now never decreases; an event never fires before sim->now; events
 * with equal times fire in the order they were scheduled (the queue's (time, seq)
 * key), including events scheduled for "now" by a callback running at "now".
 * The kernel allocates nothing while running; events belong to their owners, who
 * must cancel them before freeing them.
 */
#ifndef CS_SIM_SIM_H
#define CS_SIM_SIM_H

#include <stdbool.h>
#include <glib.h>
#include "sim/queue.h"
#include "sim/time.h"

struct sim;

/* The continuous part of a run, advanced between discrete events. */
struct sim_cont_ops {
	/* Advance from s->now to at most `to`. Return the time reached: `to`, or an
	 * earlier time at which a threshold crossing was located and handled (handlers
	 * may have queued events at that time). While it works it moves s->now along
	 * (via sim_clock_set) so that whatever its models schedule is relative to the
	 * instant they observe. */
	sim_time_t (*advance)(void *ctx, sim_time_t from, sim_time_t to);
	/* Called once after all events of one time instant have been dispatched, so
	 * that the continuous part can take note of the new discrete state. */
	void (*settle)(void *ctx, sim_time_t now);
};

struct sim {
	struct sim_queue queue;
	sim_time_t now;
	bool stopped;
	GRand *rng;          /* made at the first draw (sim_rng()): most runs draw nothing */
	guint32 seed;
	const struct sim_cont_ops *cont;
	void *cont_ctx;
	bool stalled;        /* stopped: too many events at one instant (time stopped moving) */
};

/* More events than this at one instant means a loop that never lets time advance
 * (e.g. zero delays feeding each other); the run stops with sim->stalled set. */
#define SIM_MAX_EVENTS_PER_INSTANT 1000000

enum sim_run_result {
	SIM_RUN_REACHED,   /* reached the requested end time */
	SIM_RUN_EMPTY,     /* queue ran dry before it (only without an end time) */
	SIM_RUN_STOPPED,   /* sim_stop() was called */
};

void sim_init(struct sim *s, guint32 seed);
void sim_destroy(struct sim *s);
void sim_set_cont(struct sim *s, const struct sim_cont_ops *ops, void *ctx);

static inline sim_time_t sim_now(const struct sim *s)
{
	return s->now;
}

/* For the continuous system only: move the clock within its current advance. */
static inline void sim_clock_set(struct sim *s, sim_time_t t)
{
	s->now = t;
}

/* Schedule an idle event at absolute time t (>= now) or after a delay (>= 0). */
void sim_at(struct sim *s, struct sim_event *ev, sim_time_t t);
void sim_after(struct sim *s, struct sim_event *ev, sim_time_t delay);
/* (Re)schedule: cancels first if the event is pending. */
void sim_reschedule(struct sim *s, struct sim_event *ev, sim_time_t t);
void sim_cancel(struct sim *s, struct sim_event *ev);

/* Run until virtual time `end` (the continuous part is advanced up to it), until
 * sim_stop(), or - with end == SIM_TIME_NEVER - until the queue is empty. */
enum sim_run_result sim_run_until(struct sim *s, sim_time_t end);
void sim_stop(struct sim *s);

/* The run's random numbers: a GRand seeded from the scenario, made at the first call
 * (seeding it fills 624 words, which a run that draws nothing would throw away). */
GRand *sim_rng(struct sim *s);
/* Standard normal deviate from the run's RNG (Box-Muller on GRand doubles). */
double sim_rng_gauss(struct sim *s);

#endif
