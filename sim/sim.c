// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/sim.c - the event loop and the run's random numbers.
 *
 * The loop alternates two things: advance the continuous system up to the time of
 * the earliest pending event (or the end), then dispatch every event due at that
 * instant, in (time, seq) order, then let the continuous system settle on the new
 * discrete state. Callbacks may schedule, cancel or stop freely.
 */
#include <math.h>
#include "sim/sim.h"

void sim_init(struct sim *s, guint32 seed)
{
	/* No reserve: the first push makes room for 64 events, which is more than a run
	 * has pending at once (a few timers per model and driver); the queue grows by
	 * doubling when it must. */
	*s = (struct sim){ .seed = seed };
	sim_queue_init(&s->queue);
}

void sim_destroy(struct sim *s)
{
	sim_queue_destroy(&s->queue);
	g_clear_pointer(&s->rng, g_rand_free);
}

void sim_set_cont(struct sim *s, const struct sim_cont_ops *ops, void *ctx)
{
	s->cont = ops;
	s->cont_ctx = ctx;
}

void sim_at(struct sim *s, struct sim_event *ev, sim_time_t t)
{
	g_assert(t >= s->now);
	sim_queue_push(&s->queue, ev, t);
}

void sim_after(struct sim *s, struct sim_event *ev, sim_time_t delay)
{
	g_assert(delay >= 0);
	sim_at(s, ev, delay > SIM_TIME_NEVER - s->now ? SIM_TIME_NEVER : s->now + delay);
}

void sim_reschedule(struct sim *s, struct sim_event *ev, sim_time_t t)
{
	sim_queue_cancel(&s->queue, ev);
	sim_at(s, ev, t);
}

void sim_cancel(struct sim *s, struct sim_event *ev)
{
	sim_queue_cancel(&s->queue, ev);
}

void sim_stop(struct sim *s)
{
	s->stopped = true;
}

/* Dispatch every event due at exactly `t`, including those scheduled for `t` by the
 * callbacks themselves (they carry later sequence numbers, so they come last). */
static void sim_dispatch_instant(struct sim *s, sim_time_t t)
{
	struct sim_event *ev;
	uint64_t n = 0;

	while (!s->stopped && (ev = sim_queue_peek(&s->queue)) && ev->time == t) {
		if (++n > SIM_MAX_EVENTS_PER_INSTANT) {
			s->stalled = true;
			s->stopped = true;
			return;
		}
		sim_queue_pop(&s->queue);
		ev->cb(ev, ev->data);
	}
	if (s->cont && s->cont->settle)
		s->cont->settle(s->cont_ctx, t);
}

enum sim_run_result sim_run_until(struct sim *s, sim_time_t end)
{
	s->stopped = false;
	while (!s->stopped) {
		struct sim_event *ev = sim_queue_peek(&s->queue);
		sim_time_t target = ev && ev->time < end ? ev->time : end;

		if (!ev && end == SIM_TIME_NEVER)
			return SIM_RUN_EMPTY;
		if (target > s->now) {
			if (s->cont) {
				sim_time_t from = s->now;
				sim_time_t reached = s->cont->advance(s->cont_ctx, from, target);

				g_assert(reached > from && reached <= target);
				s->now = reached;
				if (reached < target) {
					/* A crossing was handled at `reached`: whatever it
					 * queued is due now. */
					sim_dispatch_instant(s, reached);
					continue;
				}
			} else {
				s->now = target;
			}
		}
		ev = sim_queue_peek(&s->queue);
		if (ev && ev->time == s->now) {
			sim_dispatch_instant(s, s->now);
			continue;
		}
		return SIM_RUN_REACHED;
	}
	return SIM_RUN_STOPPED;
}

GRand *sim_rng(struct sim *s)
{
	if (!s->rng)
		s->rng = g_rand_new_with_seed(s->seed);
	return s->rng;
}

double sim_rng_gauss(struct sim *s)
{
	/* Box-Muller; u1 in (0, 1] so log() is finite. Both draws always happen, so the
	 * RNG stream does not depend on the values drawn. */
	double u1 = 1.0 - g_rand_double(sim_rng(s));
	double u2 = g_rand_double(sim_rng(s));

	return sqrt(-2.0 * log(u1)) * cos(2.0 * G_PI * u2);
}
