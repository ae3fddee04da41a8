// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_queue.c - event queue throughput in the classic hold model.
 *
 * n events are pending; each step pops the earliest and pushes it back at its time
 * plus an exponential increment (mean 1 s). One pop + push counts as one event. Three
 * queues run the same model in the same process with the same increments:
 *   - sim/queue.c, the simulator's queue (a radix heap with a sorted front);
 *   - the binary heap it replaced (bench/heap_baseline.h);
 *   - GLib's GSequence (a balanced tree, what one would use without a dedicated queue).
 *
 * Increments are drawn before timing into a table that the hold loops cycle through,
 * so the timed loops measure the queues, not log() and the random generator. Each
 * queue is pre-filled with the same n times and warmed up with n steps (so the
 * pending times reach the hold model's steady state); the warm-up also hashes the
 * sequence of popped events, and the three hashes must be equal: the same pop order,
 * ties included. The timed repetitions continue the same run. Prints the median rate
 * of REPS repetitions (rates from process CPU time, see bench_cpu_s()) and the ratios;
 * exits 1 if the pop orders differ or any queue
 * ever pops out of time order (a cheap check that also keeps the loops from being
 * optimised away).
 *
 * The "1 ms grid" cases round every increment to a whole millisecond, so that many
 * pending events share a time (as with jiffy-based timers) and the FIFO order among
 * equal times decides the pop order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <glib.h>
#include "sim/queue.h"
#include "bench/heap_baseline.h"
#include "bench/bench_common.h"

#define REPS 5
#define INC_BITS 16
#define INC_MASK ((1u << INC_BITS) - 1)
#define SEED 20261203u
#define HASH_MUL 0x100000001b3ull   /* FNV-1a's 64-bit prime */

struct hold_case {
	uint32_t n;
	uint64_t ops;          /* timed steps per repetition, radix heap and binary heap */
	uint64_t base_ops;     /* the same for GSequence */
	bool ms_grid;          /* increments rounded to whole milliseconds */
};

/*
 * Up to about a second per repetition for the fastest queue, so that the whole run
 * takes about a minute on a 2-core machine. GSequence gets fewer steps: only its rate
 * is compared.
 */
static const struct hold_case cases[] = {
	{ 1000,    20000000, 2000000, false },
	{ 10000,   10000000, 1000000, false },
	{ 100000,  5000000,  1000000, false },
	{ 1000000, 3000000,  300000,  false },
	{ 1000,    20000000, 2000000, true },
	{ 100000,  5000000,  500000,  true },
	{ 1000000, 3000000,  300000,  true },
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

static void nop_cb(struct sim_event *ev, void *data)
{
	(void)ev;
	(void)data;
}

/* State of one queue's run, shared by the hold loops. */
struct hold_state {
	uint32_t k;            /* next increment */
	sim_time_t last;       /* last popped time */
	uint64_t hash;         /* of the popped events' indices, during the warm-up */
	bool ok;               /* no pop went back in time */
};

static inline void hold_pop(struct hold_state *st, sim_time_t t, size_t index, bool hash)
{
	st->ok &= t >= st->last;
	st->last = t;
	if (hash)
		st->hash = (st->hash ^ index) * HASH_MUL;
}

/*
 * The hold loop, once per queue type. QUEUE_T is the queue, POP and PUSH its
 * operations. `hash` is a constant at each call site, so the timed loops do not hash.
 */
#define DEFINE_HOLD(name, QUEUE_T, POP, PUSH)                                            \
	static void name(QUEUE_T *q, struct sim_event *evs, const sim_time_t *inc,       \
			 uint64_t ops, struct hold_state *st, bool hash)                 \
	{                                                                                 \
		for (uint64_t i = 0; i < ops; i++) {                                      \
			struct sim_event *ev = POP(q);                                    \
                                                                                          \
			hold_pop(st, ev->time, (size_t)(ev - evs), hash);                 \
			PUSH(q, ev, st->last + inc[st->k++ & INC_MASK]);                  \
		}                                                                         \
	}

DEFINE_HOLD(radix_hold, struct sim_queue, sim_queue_pop, sim_queue_push)
DEFINE_HOLD(heap_hold, struct heapq, heapq_pop, heapq_push)

/* Prefill times: the same n draws for every queue of a case. */
static sim_time_t *initial_times(const struct hold_case *c, GRand *r)
{
	const sim_time_t *inc = c->ms_grid ? inc_ms : inc_ns;
	sim_time_t *t = g_new(sim_time_t, c->n);

	for (uint32_t i = 0; i < c->n; i++)
		t[i] = inc[g_rand_int(r) & INC_MASK];
	return t;
}

/* Times REPS repetitions of `ops` steps of `hold`; the median rate in events/s. */
#define TIME_REPS(rate, ops, hold_call)                                                  \
	do {                                                                             \
		double rates_[REPS];                                                     \
		for (int rep_ = 0; rep_ < REPS; rep_++) {                                \
			double t0_ = bench_cpu_s();                                            \
			hold_call;                                                       \
			rates_[rep_] = (double)(ops) / (bench_cpu_s() - t0_);                  \
		}                                                                        \
		(rate) = bench_median(rates_, REPS);                                           \
	} while (0)

/* Pre-fill, warm up (hashing the pops), then time REPS repetitions: once per queue type. */
#define DEFINE_BENCH(name, QUEUE_T, INIT, RESERVE, PUSH, HOLD, DESTROY)                  \
	static struct hold_state name(const struct hold_case *c, const sim_time_t *t0,  \
				      double *rate)                                       \
	{                                                                                 \
		const sim_time_t *inc = c->ms_grid ? inc_ms : inc_ns;                     \
		struct sim_event *evs = g_new(struct sim_event, c->n);                    \
		struct hold_state st = { .ok = true };                                    \
		QUEUE_T q;                                                                \
                                                                                          \
		INIT(&q);                                                                 \
		RESERVE(&q, c->n);                                                        \
		for (uint32_t i = 0; i < c->n; i++) {                                     \
			sim_event_init(&evs[i], nop_cb, NULL);                            \
			PUSH(&q, &evs[i], t0[i]);                                         \
		}                                                                         \
		HOLD(&q, evs, inc, c->n, &st, true);                                      \
		TIME_REPS(*rate, c->ops, HOLD(&q, evs, inc, c->ops, &st, false));         \
		DESTROY(&q);                                                              \
		g_free(evs);                                                              \
		return st;                                                                \
	}

DEFINE_BENCH(bench_radix, struct sim_queue, sim_queue_init, sim_queue_reserve, sim_queue_push,
	     radix_hold, sim_queue_destroy)
DEFINE_BENCH(bench_heap, struct heapq, heapq_init, heapq_reserve, heapq_push, heap_hold,
	     heapq_destroy)

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

static void seq_hold(GSequence *s, const struct base_ev *evs, const sim_time_t *inc,
		     uint64_t ops, uint64_t *next_seq, struct hold_state *st, bool hash)
{
	for (uint64_t i = 0; i < ops; i++) {
		GSequenceIter *it = g_sequence_get_begin_iter(s);
		struct base_ev *ev = g_sequence_get(it);

		g_sequence_remove(it);   /* no free func: the event stays ours */
		hold_pop(st, ev->time, (size_t)(ev - evs), hash);
		ev->time = st->last + inc[st->k++ & INC_MASK];
		ev->seq = (*next_seq)++;
		g_sequence_insert_sorted(s, ev, base_cmp, NULL);
	}
}

static struct hold_state bench_gsequence(const struct hold_case *c, const sim_time_t *t0,
					 double *rate)
{
	const sim_time_t *inc = c->ms_grid ? inc_ms : inc_ns;
	struct base_ev *evs = g_new(struct base_ev, c->n);
	GSequence *s = g_sequence_new(NULL);
	struct hold_state st = { .ok = true };
	uint64_t next_seq = 0;

	for (uint32_t i = 0; i < c->n; i++) {
		evs[i].time = t0[i];
		evs[i].seq = next_seq++;
		g_sequence_insert_sorted(s, &evs[i], base_cmp, NULL);
	}
	seq_hold(s, evs, inc, c->n, &next_seq, &st, true);
	TIME_REPS(*rate, c->base_ops, seq_hold(s, evs, inc, c->base_ops, &next_seq, &st, false));
	g_sequence_free(s);
	g_free(evs);
	return st;
}

/* Usage: bench_queue [N]: every case, or only those with N pending events. */
int main(int argc, char **argv)
{
	GRand *r = g_rand_new_with_seed(SEED);
	uint32_t only = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 0;
	int status = 0;

	fill_increments(r);
	printf("queue hold model, M events/s (one pop + one push), median of %d; "
	       "radix = sim/queue.c, heap = the binary heap it replaced\n", REPS);
	printf("%-22s %8s %8s %10s %12s %12s\n", "case", "radix", "heap", "GSequence",
	       "radix/heap", "radix/GSeq");
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const struct hold_case *c = &cases[i];
		g_autofree sim_time_t *t0 = initial_times(c, r);
		double radix, heap, base;
		struct hold_state sr, sh, sg;
		char name[32];

		if (only && c->n != only)
			continue;
		sr = bench_radix(c, t0, &radix);
		sh = bench_heap(c, t0, &heap);
		sg = bench_gsequence(c, t0, &base);
		if (!sr.ok || !sh.ok || !sg.ok) {
			fprintf(stderr, "bench_queue: n=%u: an event popped out of time order\n",
				c->n);
			status = 1;
		}
		if (sr.hash != sh.hash || sr.hash != sg.hash) {
			fprintf(stderr, "bench_queue: n=%u: the queues popped in different orders\n",
				c->n);
			status = 1;
		}
		snprintf(name, sizeof(name), "n=%u%s", c->n, c->ms_grid ? " (1 ms grid)" : "");
		printf("%-22s %8.2f %8.2f %10.2f %11.1fx %11.1fx\n", name, radix * 1e-6,
		       heap * 1e-6, base * 1e-6, radix / heap, radix / base);
		fflush(stdout);
	}
	g_rand_free(r);
	return status;
}
