// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_queue.c - the event queue (sim/queue.c).
 *
 * Expected orders come from hand-built cases, from qsort() of the pushed keys, and
 * from a deliberately naive reference model (an unordered array scanned for the
 * minimum), never from the heap itself. The heap's internal invariants (parent <=
 * child, slot keys equal event keys, heap_idx back-pointers) are also checked
 * directly, since cancel relies on them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib.h>
#include <CUnit/CUnit.h>
#include "sim/queue.h"
#include "tests/suites.h"

/*
 * For loops of millions of checks: CUnit is only called on failure, so the run
 * summary is not flooded with passed assertions; the failing expression and line are
 * still reported, and the test stops there.
 */
#define REQUIRE(cond) do { if (!(cond)) CU_ASSERT_FATAL(cond); } while (0)

static void nop_cb(struct sim_event *ev, void *data)
{
	(void)ev;
	(void)data;
}

static bool key_before(sim_time_t ta, uint64_t sa, sim_time_t tb, uint64_t sb)
{
	return ta < tb || (ta == tb && sa < sb);
}

/* Every structural invariant sim/queue.c promises to keep. */
static bool heap_valid(const struct sim_queue *q)
{
	if (q->len > q->cap)
		return false;
	for (uint32_t i = 0; i < q->len; i++) {
		const struct sim_queue_slot *s = &q->slots[i];

		if (s->ev->heap_idx != i || s->ev->time != s->time || s->ev->seq != s->seq)
			return false;
		if (i > 0) {
			const struct sim_queue_slot *p = &q->slots[(i - 1) / 2];

			if (key_before(s->time, s->seq, p->time, p->seq))
				return false;
		}
	}
	return true;
}

static void test_empty(void)
{
	struct sim_queue q;
	struct sim_event ev;

	sim_queue_init(&q);
	sim_event_init(&ev, nop_cb, NULL);
	CU_ASSERT_EQUAL(ev.heap_idx, SIM_EVENT_IDLE);
	CU_ASSERT_FALSE(sim_event_is_queued(&ev));
	CU_ASSERT_EQUAL(sim_queue_len(&q), 0);
	CU_ASSERT_PTR_NULL(sim_queue_peek(&q));
	CU_ASSERT_PTR_NULL(sim_queue_pop(&q));
	sim_queue_cancel(&q, &ev);	/* idle: a no-op */
	CU_ASSERT_EQUAL(sim_queue_len(&q), 0);
	CU_ASSERT_EQUAL(ev.heap_idx, SIM_EVENT_IDLE);

	sim_queue_push(&q, &ev, 7 * SIM_S);
	CU_ASSERT_TRUE(sim_event_is_queued(&ev));
	CU_ASSERT_EQUAL(ev.time, 7 * SIM_S);
	CU_ASSERT_PTR_EQUAL(sim_queue_peek(&q), &ev);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &ev);
	CU_ASSERT_FALSE(sim_event_is_queued(&ev));
	CU_ASSERT_PTR_NULL(sim_queue_pop(&q));
	sim_queue_destroy(&q);
}

/* Many events at one time pop in push order, and so do later arrivals at that time. */
static void test_fifo_equal_times(void)
{
	enum { N = 1000 };
	static struct sim_event evs[N + 1];
	struct sim_queue q;
	bool fifo = true, idle = true;

	sim_queue_init(&q);
	for (int i = 0; i <= N; i++)
		sim_event_init(&evs[i], nop_cb, NULL);
	/* A later time first, so that the equal-time events are not all pushed into an
	 * empty heap in order. */
	sim_queue_push(&q, &evs[N], 43);
	for (int i = 0; i < N; i++)
		sim_queue_push(&q, &evs[i], 42);
	CU_ASSERT_TRUE(heap_valid(&q));
	for (int i = 0; i < N; i++) {
		struct sim_event *ev = sim_queue_pop(&q);

		fifo &= ev == &evs[i];
		idle &= ev->heap_idx == SIM_EVENT_IDLE;
	}
	CU_ASSERT_TRUE(fifo);
	CU_ASSERT_TRUE(idle);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[N]);

	/* An event pushed for "now" while "now" is being dispatched runs after the
	 * events already queued for now: a, b queued; a pops; c pushed; then b, c. */
	sim_queue_push(&q, &evs[0], 5);
	sim_queue_push(&q, &evs[1], 5);
	sim_queue_push(&q, &evs[2], 6);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[0]);
	sim_queue_push(&q, &evs[3], 5);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[1]);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[3]);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[2]);
	CU_ASSERT_EQUAL(sim_queue_len(&q), 0);
	sim_queue_destroy(&q);
}

/* Times pushed in a scrambled order pop sorted, including negative and extreme times. */
static void test_time_order(void)
{
	enum { N = 1000 };
	static struct sim_event evs[N + 3];
	struct sim_queue q;
	bool sorted = true;

	sim_queue_init(&q);
	for (int i = 0; i < N + 3; i++)
		sim_event_init(&evs[i], nop_cb, NULL);
	/* 7919 is prime, so i -> 7919 i mod N visits every time 0 .. N-1 exactly once. */
	for (int i = 0; i < N; i++)
		sim_queue_push(&q, &evs[i], (sim_time_t)((i * 7919) % N) * SIM_MS);
	sim_queue_push(&q, &evs[N], SIM_TIME_NEVER);
	sim_queue_push(&q, &evs[N + 1], INT64_MIN);
	sim_queue_push(&q, &evs[N + 2], -1);
	CU_ASSERT_EQUAL(sim_queue_len(&q), N + 3);
	CU_ASSERT_TRUE(heap_valid(&q));

	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[N + 1]);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[N + 2]);
	for (int k = 0; k < N; k++) {
		struct sim_event *ev = sim_queue_pop(&q);

		sorted &= ev != NULL && ev->time == (sim_time_t)k * SIM_MS;
	}
	CU_ASSERT_TRUE(sorted);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[N]);
	CU_ASSERT_PTR_NULL(sim_queue_pop(&q));
	sim_queue_destroy(&q);
}

/*
 * Cancel the head, an event in the middle, the event in the last slot and the latest
 * event; the rest must still pop in order and the cancelled ones must be idle.
 */
static void test_cancel(void)
{
	enum { N = 31 };
	/* Times 10, 20, .. 310 pushed in the scrambled order 13 i mod 31. */
	static struct sim_event evs[N];
	bool cancelled[N] = { false };
	struct sim_queue q;
	struct sim_event *head, *tail, *mid, *last;
	int expect, n_cancelled = 0;

	sim_queue_init(&q);
	for (int i = 0; i < N; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		sim_queue_push(&q, &evs[i], 10 * (sim_time_t)((13 * i) % N + 1));
	}
	CU_ASSERT_TRUE(heap_valid(&q));

	/* evs[0] has time 10, the earliest: it must be at the root. */
	head = &evs[0];
	CU_ASSERT_EQUAL(head->heap_idx, 0);
	sim_queue_cancel(&q, head);
	CU_ASSERT_EQUAL(head->heap_idx, SIM_EVENT_IDLE);
	CU_ASSERT_FALSE(sim_event_is_queued(head));
	CU_ASSERT_EQUAL(sim_queue_len(&q), N - 1);
	CU_ASSERT_TRUE(heap_valid(&q));
	cancelled[0] = true;

	/* Cancelling an idle event again changes nothing. */
	sim_queue_cancel(&q, head);
	CU_ASSERT_EQUAL(sim_queue_len(&q), N - 1);
	CU_ASSERT_TRUE(heap_valid(&q));

	/* Whatever sits in the last slot (removal without any sifting). */
	tail = q.slots[q.len - 1].ev;
	sim_queue_cancel(&q, tail);
	CU_ASSERT_FALSE(sim_event_is_queued(tail));
	CU_ASSERT_EQUAL(sim_queue_len(&q), N - 2);
	CU_ASSERT_TRUE(heap_valid(&q));
	cancelled[tail - evs] = true;

	/* An event in an inner slot (neither root nor leaf), then the latest event. */
	mid = q.slots[3].ev;
	sim_queue_cancel(&q, mid);
	CU_ASSERT_FALSE(sim_event_is_queued(mid));
	CU_ASSERT_TRUE(heap_valid(&q));
	cancelled[mid - evs] = true;
	/* Time 310 is (13 i mod 31) + 1 == 31, i.e. 13 i == 30 mod 31: i == 19
	 * (13 * 19 = 247 = 7 * 31 + 30). */
	last = &evs[19];
	CU_ASSERT_EQUAL(last->time, 310);
	if (!cancelled[19]) {
		sim_queue_cancel(&q, last);
		CU_ASSERT_FALSE(sim_event_is_queued(last));
		CU_ASSERT_TRUE(heap_valid(&q));
		cancelled[19] = true;
	}

	/* The survivors, in time order: every multiple of 10 not cancelled. */
	for (int i = 0; i < N; i++)
		n_cancelled += cancelled[i];
	CU_ASSERT_TRUE(n_cancelled >= 3);
	expect = 0;
	for (int k = 1; k <= N; k++) {
		int i = 0;
		struct sim_event *ev;

		while ((13 * i) % N + 1 != k)
			i++;
		if (cancelled[i])
			continue;
		ev = sim_queue_pop(&q);
		CU_ASSERT_PTR_EQUAL(ev, &evs[i]);
		CU_ASSERT_EQUAL(ev->time, 10 * k);
		CU_ASSERT_EQUAL(ev->heap_idx, SIM_EVENT_IDLE);
		expect++;
	}
	CU_ASSERT_EQUAL(expect, N - n_cancelled);
	CU_ASSERT_EQUAL(sim_queue_len(&q), 0);

	/* A cancelled event can be queued again. */
	sim_queue_push(&q, head, 1);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), head);
	sim_queue_destroy(&q);
}

/* After pop or cancel an event is idle; everything still queued knows its slot. */
static void test_heap_idx(void)
{
	enum { N = 100 };
	static struct sim_event evs[N];
	struct sim_queue q;

	sim_queue_init(&q);
	for (int i = 0; i < N; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		sim_queue_push(&q, &evs[i], (sim_time_t)(N - i));
	}
	for (int k = 0; k < N / 2; k++) {
		struct sim_event *ev = sim_queue_pop(&q);

		CU_ASSERT_EQUAL(ev->heap_idx, SIM_EVENT_IDLE);
		/* A cancel lands on slot 1 or 2: a live neighbour of the root. */
		ev = q.slots[1 + k % 2].ev;
		sim_queue_cancel(&q, ev);
		CU_ASSERT_EQUAL(ev->heap_idx, SIM_EVENT_IDLE);
		CU_ASSERT_TRUE(heap_valid(&q));
		if (q.len < 3)
			break;
	}
	for (int i = 0; i < N; i++) {
		bool in_array = false;

		for (uint32_t j = 0; j < q.len; j++)
			in_array |= q.slots[j].ev == &evs[i];
		CU_ASSERT_EQUAL(sim_event_is_queued(&evs[i]), in_array);
	}
	sim_queue_destroy(&q);
}

/* After reserve(n), n pending events fit without moving the slot array. */
static void test_reserve(void)
{
	enum { N = 1000 };
	static struct sim_event evs[N];
	struct sim_queue q;
	struct sim_queue_slot *slots;
	bool ordered = true;

	sim_queue_init(&q);
	for (int i = 0; i < N; i++)
		sim_event_init(&evs[i], nop_cb, NULL);
	/* Reserving with events queued keeps them. */
	for (int i = 0; i < 10; i++)
		sim_queue_push(&q, &evs[i], (sim_time_t)(10 - i));
	sim_queue_reserve(&q, N);
	CU_ASSERT_TRUE(q.cap >= N);
	CU_ASSERT_TRUE(heap_valid(&q));
	slots = q.slots;
	for (int i = 10; i < N; i++)
		sim_queue_push(&q, &evs[i], (sim_time_t)i);
	CU_ASSERT_PTR_EQUAL(q.slots, slots);
	CU_ASSERT_EQUAL(sim_queue_len(&q), N);
	/* Reserving less than is already there changes nothing either. */
	sim_queue_reserve(&q, 10);
	CU_ASSERT_PTR_EQUAL(q.slots, slots);
	CU_ASSERT_TRUE(heap_valid(&q));
	/* Times 1 .. 10 (evs[9] .. evs[0]) then 10 .. 999 (evs[10] .. evs[999]). */
	for (int k = 0; k < N; k++) {
		struct sim_event *ev = sim_queue_pop(&q);

		ordered &= ev == (k < 10 ? &evs[9 - k] : &evs[k]);
	}
	CU_ASSERT_TRUE(ordered);
	CU_ASSERT_PTR_EQUAL(q.slots, slots);
	sim_queue_destroy(&q);
}

struct key {
	sim_time_t time;
	uint64_t seq;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * A heap big enough for the deep, prefetching part of pop (more than 2^16 events),
 * with many equal times: the pop order must be qsort's order of the pushed
 * (time, push index) pairs. A third of the events are cancelled first.
 */
static void test_large_sorted(void)
{
	enum { N = 200000 };
	struct sim_event *evs = g_new(struct sim_event, N);
	struct key *keys = g_new(struct key, N);
	bool *gone = g_new0(bool, N);
	GRand *r = g_rand_new_with_seed(7);
	struct sim_queue q;
	uint32_t m = 0;

	sim_queue_init(&q);
	for (uint32_t i = 0; i < N; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		sim_queue_push(&q, &evs[i], g_rand_int_range(r, 0, N / 4));
	}
	CU_ASSERT_TRUE(heap_valid(&q));
	for (uint32_t k = 0; k < N / 3; k++) {
		uint32_t i = (uint32_t)g_rand_int_range(r, 0, N);

		sim_queue_cancel(&q, &evs[i]);	/* a repeat pick is an idle no-op */
		gone[i] = true;
	}
	CU_ASSERT_TRUE(heap_valid(&q));
	for (uint32_t i = 0; i < N; i++) {
		if (gone[i])
			continue;
		keys[m].time = evs[i].time;
		keys[m].seq = i;	/* push order, independent of the queue's seq */
		m++;
	}
	qsort(keys, m, sizeof(keys[0]), key_cmp);
	CU_ASSERT_EQUAL(sim_queue_len(&q), m);
	for (uint32_t k = 0; k < m; k++) {
		struct sim_event *ev = sim_queue_pop(&q);

		REQUIRE(ev == &evs[keys[k].seq]);
		REQUIRE(ev->heap_idx == SIM_EVENT_IDLE);
	}
	CU_ASSERT_PTR_NULL(sim_queue_pop(&q));
	sim_queue_destroy(&q);
	g_rand_free(r);
	g_free(gone);
	g_free(keys);
	g_free(evs);
}

/*
 * 10^6 random pushes, pops and cancels, checked after every step against a reference
 * that keeps the pending events unordered and scans for the minimum of (time, its own
 * push counter). Pending events stay at most RM_MAX so the scans stay cheap; the push
 * probability alternates between filling and draining phases so that every size from
 * empty to RM_MAX is visited many times.
 */
#define RM_EVENTS 256
#define RM_MAX 200
#define RM_OPS 1000000

struct ref_entry {
	int ev;			/* index into the event pool */
	sim_time_t time;
	uint64_t order;		/* the reference's own push counter */
};

static sim_time_t random_time(GRand *r, sim_time_t base)
{
	static const sim_time_t extremes[] = { INT64_MIN, -1, 0, SIM_TIME_NEVER };
	int u = g_rand_int_range(r, 0, 100);

	if (u < 80)	/* a narrow window: many equal times */
		return base + g_rand_int_range(r, 0, 16);
	if (u < 90)	/* anywhere in the int64 range, negative included */
		return (sim_time_t)(((uint64_t)g_rand_int(r) << 32) | g_rand_int(r));
	return extremes[g_rand_int_range(r, 0, G_N_ELEMENTS(extremes))];
}

static int ref_min(const struct ref_entry *ref, int n)
{
	int best = -1;

	for (int k = 0; k < n; k++)
		if (best < 0 || key_before(ref[k].time, ref[k].order,
					   ref[best].time, ref[best].order))
			best = k;
	return best;
}

static void test_random_vs_reference(void)
{
	static struct sim_event evs[RM_EVENTS];
	static struct ref_entry ref[RM_EVENTS];
	static int idle[RM_EVENTS];
	GRand *r = g_rand_new_with_seed(20261203);
	struct sim_queue q;
	uint64_t order = 0;
	long pushes = 0, pops = 0, cancels = 0, idle_cancels = 0;
	int n = 0, n_idle = RM_EVENTS;

	sim_queue_init(&q);
	for (int i = 0; i < RM_EVENTS; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		idle[i] = i;
	}
	for (long op = 0; op < RM_OPS; op++) {
		double p_push = (op / 20000) % 2 ? 0.4 : 0.6;
		int best;

		if (n == 0 || (n < RM_MAX && g_rand_double(r) < p_push)) {
			int j = g_rand_int_range(r, 0, n_idle);
			int e = idle[j];
			sim_time_t t = random_time(r, 1000 + op / 1000);

			idle[j] = idle[--n_idle];
			sim_queue_push(&q, &evs[e], t);
			REQUIRE(evs[e].time == t);
			REQUIRE(sim_event_is_queued(&evs[e]));
			ref[n++] = (struct ref_entry){ e, t, order++ };
			pushes++;
		} else if (g_rand_int_range(r, 0, 3) < 2) {
			struct sim_event *ev = sim_queue_pop(&q);

			best = ref_min(ref, n);
			REQUIRE(ev == &evs[ref[best].ev]);
			REQUIRE(ev->time == ref[best].time);
			REQUIRE(ev->heap_idx == SIM_EVENT_IDLE);
			idle[n_idle++] = ref[best].ev;
			ref[best] = ref[--n];
			pops++;
		} else {
			int k = g_rand_int_range(r, 0, n);
			struct sim_event *ev = &evs[ref[k].ev];

			sim_queue_cancel(&q, ev);
			REQUIRE(ev->heap_idx == SIM_EVENT_IDLE);
			idle[n_idle++] = ref[k].ev;
			ref[k] = ref[--n];
			cancels++;
		}
		if (n_idle > 0 && g_rand_int_range(r, 0, 100) == 0) {
			sim_queue_cancel(&q, &evs[idle[g_rand_int_range(r, 0, n_idle)]]);
			idle_cancels++;
		}

		REQUIRE(sim_queue_len(&q) == (uint32_t)n);
		best = ref_min(ref, n);
		REQUIRE(sim_queue_peek(&q) == (n ? &evs[ref[best].ev] : NULL));
		if (op % 4096 == 0)
			REQUIRE(heap_valid(&q));
	}
	CU_ASSERT_TRUE(heap_valid(&q));
	/* The mix really exercised every operation. */
	CU_ASSERT_EQUAL(pushes + pops + cancels, RM_OPS);
	CU_ASSERT_TRUE(pops > RM_OPS / 5);
	CU_ASSERT_TRUE(cancels > RM_OPS / 10);
	CU_ASSERT_TRUE(idle_cancels > RM_OPS / 200);
	sim_queue_destroy(&q);
	g_rand_free(r);
}

/* Run fn in a child process; true if it died of SIGABRT (a failed g_assert). */
static bool aborts(void (*fn)(void))
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		/* Keep the expected assertion message out of the test report. */
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		fn();
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void push_twice(void)
{
	struct sim_queue q;
	struct sim_event ev;

	sim_queue_init(&q);
	sim_event_init(&ev, nop_cb, NULL);
	sim_queue_push(&q, &ev, 1);
	sim_queue_push(&q, &ev, 2);
}

static void cancel_foreign(void)
{
	struct sim_queue a, b;
	struct sim_event ev1, ev2;

	sim_queue_init(&a);
	sim_queue_init(&b);
	sim_event_init(&ev1, nop_cb, NULL);
	sim_event_init(&ev2, nop_cb, NULL);
	sim_queue_push(&a, &ev1, 1);
	sim_queue_push(&b, &ev2, 1);
	/* ev1 sits in slot 0 of a; slot 0 of b holds ev2. */
	sim_queue_cancel(&b, &ev1);
}

static void test_programming_errors(void)
{
	CU_ASSERT_TRUE(aborts(push_twice));
	CU_ASSERT_TRUE(aborts(cancel_foreign));
}

CU_TestInfo queue_tests[] = {
	{ "empty queue and a single event", test_empty },
	{ "FIFO among equal times", test_fifo_equal_times },
	{ "pop in time order", test_time_order },
	{ "cancel head, middle, tail; idle no-op", test_cancel },
	{ "heap_idx idle after pop and cancel", test_heap_idx },
	{ "reserve then push does not reallocate", test_reserve },
	{ "200000 events pop in qsort order", test_large_sorted },
	{ "10^6 random ops vs reference model", test_random_vs_reference },
	{ "push of a queued event, foreign cancel abort", test_programming_errors },
	CU_TEST_INFO_NULL,
};
