// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_queue.c - event queue throughput in the classic hold model.
 *
 * n events are pending; each step pops the earliest and pushes it back at its time
 * plus an exponential increment (mean 1 s). One pop + push counts as one event. The
 * same model runs on GLib's GSequence (a balanced tree, what one would use without a
 * dedicated queue) as a baseline, in the same process and with the same increments.
 *
 * Increments are drawn before timing into a table that the hold loops cycle through,
 * so the timed loops measure the queues, not log() and the random generator. Each
 * queue is pre-filled and warmed up (n steps, so the pending times reach the hold
 * model's steady state) before the timed repetitions, which continue the same run.
 * Prints the median rate of REPS repetitions; exits 1 if either queue ever pops out of
 * time order (a cheap check that also keeps the loops from being optimised away).
 *
 * One case rounds every increment to a whole millisecond, so that many pending events
 * share a time (as with jiffy-based timers): the heap breaks such ties by reading seq
 * from the events, a path the exact-nanosecond cases almost never take.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>
#include "sim/queue.h"

#define REPS 5
#define INC_BITS 16
#define INC_MASK ((1u << INC_BITS) - 1)
#define SEED 20261203u

struct hold_case {
	uint32_t n;
	uint64_t ops;          /* timed steps per repetition, our heap */
	uint64_t base_ops;     /* the same for GSequence */
	bool ms_grid;          /* increments rounded to whole milliseconds */
};

/*
 * About a second per repetition, so that the whole run takes well under a minute on
 * a 2-core machine. GSequence gets fewer steps: only its rate is compared.
 */
static const struct hold_case cases[] = {
	{ 1000,    20000000, 2000000, false },
	{ 100000,  5000000,  1000000, false },
	{ 1000000, 2000000,  300000,  false },
	{ 100000,  3000000,  200000,  true },
};

/* The same draws twice: exact, and rounded to the nearest millisecond. */
static sim_time_t inc_ns[1u << INC_BITS], inc_ms[1u << INC_BITS];

static void fill_increments(GRand *r)
{
	for (size_t i = 0; i <= INC_MASK; i++) {
		/* 1 - u is in (0, 1], so log() is finite. */
		double u = 1.0 - g_rand_double(r);

		inc_ns[i] = (sim_time_t)llround(-log(u) * (double)SIM_S);
		inc_ms[i] = (inc_ns[i] + SIM_MS / 2) / SIM_MS * SIM_MS;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

static void nop_cb(struct sim_event *ev, void *data)
{
	(void)ev;
	(void)data;
}

/* --- our heap --- */

/* Runs ops hold steps; returns false if a pop went back in time. */
static bool heap_hold(struct sim_queue *q, const sim_time_t *inc, uint64_t ops, uint32_t *k,
		      sim_time_t *last)
{
	sim_time_t prev = *last;
	uint32_t j = *k;
	bool ok = true;

	for (uint64_t i = 0; i < ops; i++) {
		struct sim_event *ev = sim_queue_pop(q);

		ok &= ev->time >= prev;
		prev = ev->time;
		sim_queue_push(q, ev, prev + inc[j++ & INC_MASK]);
	}
	*k = j;
	*last = prev;
	return ok;
}

static bool bench_heap(const struct hold_case *c, GRand *r, double *rate)
{
	const sim_time_t *inc = c->ms_grid ? inc_ms : inc_ns;
	struct sim_event *evs = g_new(struct sim_event, c->n);
	double rates[REPS];
	struct sim_queue q;
	sim_time_t last = 0;
	uint32_t k = 0;
	bool ok;

	sim_queue_init(&q);
	for (uint32_t i = 0; i < c->n; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		sim_queue_push(&q, &evs[i], inc[g_rand_int(r) & INC_MASK]);
	}
	ok = heap_hold(&q, inc, c->n, &k, &last);
	for (int rep = 0; rep < REPS; rep++) {
		gint64 t0 = g_get_monotonic_time();

		ok &= heap_hold(&q, inc, c->ops, &k, &last);
		rates[rep] = (double)c->ops / ((double)(g_get_monotonic_time() - t0) * 1e-6);
	}
	sim_queue_destroy(&q);
	g_free(evs);
	*rate = median(rates, REPS);
	return ok;
}

/* --- GSequence baseline --- */

struct base_ev {
	sim_time_t time;
	uint64_t seq;
};

static gint base_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct base_ev *x = a, *y = b;

	(void)data;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static bool seq_hold(GSequence *s, const sim_time_t *inc, uint64_t ops, uint64_t *next_seq,
		     uint32_t *k, sim_time_t *last)
{
	sim_time_t prev = *last;
	uint32_t j = *k;
	bool ok = true;

	for (uint64_t i = 0; i < ops; i++) {
		GSequenceIter *it = g_sequence_get_begin_iter(s);
		struct base_ev *ev = g_sequence_get(it);

		g_sequence_remove(it);   /* no free func: the event stays ours */
		ok &= ev->time >= prev;
		prev = ev->time;
		ev->time = prev + inc[j++ & INC_MASK];
		ev->seq = (*next_seq)++;
		g_sequence_insert_sorted(s, ev, base_cmp, NULL);
	}
	*k = j;
	*last = prev;
	return ok;
}

static bool bench_gsequence(const struct hold_case *c, GRand *r, double *rate)
{
	const sim_time_t *inc = c->ms_grid ? inc_ms : inc_ns;
	struct base_ev *evs = g_new(struct base_ev, c->n);
	GSequence *s = g_sequence_new(NULL);
	double rates[REPS];
	uint64_t next_seq = 0;
	sim_time_t last = 0;
	uint32_t k = 0;
	bool ok;

	for (uint32_t i = 0; i < c->n; i++) {
		evs[i].time = inc[g_rand_int(r) & INC_MASK];
		evs[i].seq = next_seq++;
		g_sequence_insert_sorted(s, &evs[i], base_cmp, NULL);
	}
	/* Warm-up shorter than n at 10^6: GSequence is slow, and its tree shape does not
	 * depend on the key distribution the way a heap's sift lengths do. */
	ok = seq_hold(s, inc, MIN((uint64_t)c->n, c->base_ops), &next_seq, &k, &last);
	for (int rep = 0; rep < REPS; rep++) {
		gint64 t0 = g_get_monotonic_time();

		ok &= seq_hold(s, inc, c->base_ops, &next_seq, &k, &last);
		rates[rep] = (double)c->base_ops / ((double)(g_get_monotonic_time() - t0) * 1e-6);
	}
	g_sequence_free(s);
	g_free(evs);
	*rate = median(rates, REPS);
	return ok;
}

int main(void)
{
	GRand *r = g_rand_new_with_seed(SEED);
	int status = 0;

	fill_increments(r);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const struct hold_case *c = &cases[i];
		double ours, base;
		bool ok = bench_heap(c, r, &ours);

		ok &= bench_gsequence(c, r, &base);
		if (!ok) {
			fprintf(stderr, "bench_queue: n=%u: an event popped out of time order\n",
				c->n);
			status = 1;
		}
		printf("queue hold n=%u%s: %.1f M events/s (median of %d); "
		       "GSequence %.2f M events/s; ratio %.1fx\n",
		       c->n, c->ms_grid ? " (1 ms grid)" : "", ours * 1e-6, REPS, base * 1e-6,
		       ours / base);
		fflush(stdout);
	}
	g_rand_free(r);
	return status;
}
