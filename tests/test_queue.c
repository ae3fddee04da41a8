// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_queue.c - the event queue (sim/queue.c).
 *
 * Expected orders come from hand-built cases, from qsort() of the pushed keys, and
 * from a deliberately naive reference model (an unordered array scanned for the
 * minimum), never from the queue itself. The queue's structural invariants (sorted
 * front, every item in the bucket its time gives, heap_idx back-pointers, block
 * accounting) are also checked, through sim_queue_check(), since cancel relies on
 * them; and the tests steer events into each place an event can be (front head,
 * front behind the head, front in heap mode, middle and end of a bucket).
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

static bool heap_valid(const struct sim_queue *q)
{
	return sim_queue_check(q);
}

static bool in_front(const struct sim_event *ev)
{
	return ev->heap_idx != SIM_EVENT_IDLE && (ev->heap_idx & SIM_QUEUE_FRONT_BIT);
}

/* The bucket an event sits in (-1 if it is in the front or idle). */
static int bucket_of_event(const struct sim_queue *q, const struct sim_event *ev)
{
	if (ev->heap_idx == SIM_EVENT_IDLE || in_front(ev))
		return -1;
	for (int b = 0; b < (int)SIM_QUEUE_BUCKETS; b++) {
		const struct sim_queue_bucket *bk = &q->bucket[b];
		bool used = (q->nonempty[b / 64] >> (b % 64)) & 1u;   /* else bk is not kept */

		for (uint32_t blk = used ? bk->first : UINT32_MAX; blk != UINT32_MAX;
		     blk = q->block_next[blk])
			if (ev->heap_idx / SIM_QUEUE_BLOCK == blk)
				return b;
	}
	return -1;
}

/* The last item of bucket b (what fills a hole left by a cancel). */
static struct sim_event *bucket_last(const struct sim_queue *q, int b)
{
	const struct sim_queue_bucket *bk = &q->bucket[b];

	return q->pool[bk->last * SIM_QUEUE_BLOCK + bk->fill - 1].ev;
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
 * Cancel the head, an event in the middle of a bucket (the bucket's last item fills the
 * hole), the last item of a bucket, a front event behind the head and the latest
 * event; the rest must still pop in order and the cancelled ones must be idle.
 */
static void test_cancel(void)
{
	enum { N = 31 };
	/* Times 10, 20, .. 310 pushed in the scrambled order 13 i mod 31, plus three
	 * events at time 20 pushed last. */
	static struct sim_event evs[N + 3];
	bool cancelled[N + 3] = { false };
	struct sim_queue q;
	struct sim_event *head, *mid = NULL, *filler = NULL, *end, *last;
	int expect, n_cancelled = 0, b;

	sim_queue_init(&q);
	for (int i = 0; i < N; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		sim_queue_push(&q, &evs[i], 10 * (sim_time_t)((13 * i) % N + 1));
	}
	CU_ASSERT_TRUE(heap_valid(&q));

	/* evs[0] has time 10, the earliest: it must be at the head of the front. */
	head = &evs[0];
	CU_ASSERT_PTR_EQUAL(sim_queue_peek(&q), head);
	CU_ASSERT_TRUE(in_front(head));
	sim_queue_cancel(&q, head);
	CU_ASSERT_EQUAL(head->heap_idx, SIM_EVENT_IDLE);
	CU_ASSERT_FALSE(sim_event_is_queued(head));
	CU_ASSERT_EQUAL(sim_queue_len(&q), N - 1);
	CU_ASSERT_TRUE(heap_valid(&q));
	cancelled[0] = true;
	/* Time 20 (13 i == 1 mod 31: i == 12) is now the head. */
	CU_ASSERT_PTR_EQUAL(sim_queue_peek(&q), &evs[12]);

	/* Cancelling an idle event again changes nothing. */
	sim_queue_cancel(&q, head);
	CU_ASSERT_EQUAL(sim_queue_len(&q), N - 1);
	CU_ASSERT_TRUE(heap_valid(&q));

	/* An event of a bucket with two or more items that is not the bucket's last. */
	for (int i = 1; i < N && !mid; i++) {
		b = bucket_of_event(&q, &evs[i]);
		if (b >= 0 && q.bucket[b].count >= 2 && bucket_last(&q, b) != &evs[i]) {
			mid = &evs[i];
			filler = bucket_last(&q, b);
		}
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(mid);
	sim_queue_cancel(&q, mid);
	CU_ASSERT_FALSE(sim_event_is_queued(mid));
	CU_ASSERT_TRUE(sim_event_is_queued(filler));
	CU_ASSERT_TRUE(heap_valid(&q));
	cancelled[mid - evs] = true;

	/* The last item of the bucket holding the latest time, 310 ((13 i mod 31) + 1 ==
	 * 31, i.e. 13 i == 30 mod 31: i == 19, as 13 * 19 = 247 = 7 * 31 + 30). */
	last = &evs[19];
	CU_ASSERT_EQUAL(last->time, 310);
	if (!cancelled[19]) {
		b = bucket_of_event(&q, last);
		CU_ASSERT_FATAL(b >= 0);
		end = bucket_last(&q, b);
		sim_queue_cancel(&q, end);
		CU_ASSERT_FALSE(sim_event_is_queued(end));
		CU_ASSERT_TRUE(heap_valid(&q));
		cancelled[end - evs] = true;
		if (!cancelled[19]) {
			sim_queue_cancel(&q, last);
			CU_ASSERT_FALSE(sim_event_is_queued(last));
			CU_ASSERT_TRUE(heap_valid(&q));
			cancelled[19] = true;
		}
	}

	/* Three more events at 20, the head's time: they join the front behind it. Cancel
	 * the middle one. */
	for (int i = N; i < N + 3; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		sim_queue_push(&q, &evs[i], 20);
		CU_ASSERT_TRUE(in_front(&evs[i]));
	}
	sim_queue_cancel(&q, &evs[N + 1]);
	CU_ASSERT_FALSE(sim_event_is_queued(&evs[N + 1]));
	CU_ASSERT_TRUE(heap_valid(&q));
	cancelled[N + 1] = true;

	/* The survivors, in time order: every multiple of 10 not cancelled, with the
	 * late events at 20 right after evs[12], in push order. */
	for (int i = 0; i < N + 3; i++)
		n_cancelled += cancelled[i];
	CU_ASSERT_TRUE(n_cancelled >= 5);
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
		if (k == 2) {
			CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[N]);
			CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[N + 2]);
			expect += 2;
		}
		CU_ASSERT_TRUE(heap_valid(&q));
	}
	CU_ASSERT_EQUAL(expect, N + 3 - n_cancelled);
	CU_ASSERT_EQUAL(sim_queue_len(&q), 0);

	/* A cancelled event can be queued again. */
	sim_queue_push(&q, head, 1);
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), head);
	sim_queue_destroy(&q);
}

/* After pop or cancel an event is idle; every event still queued is where it says. */
static void test_heap_idx(void)
{
	enum { N = 100 };
	static struct sim_event evs[N];
	struct sim_queue q;
	GRand *r = g_rand_new_with_seed(11);

	sim_queue_init(&q);
	for (int i = 0; i < N; i++) {
		sim_event_init(&evs[i], nop_cb, NULL);
		sim_queue_push(&q, &evs[i], (sim_time_t)(N - i) * 1000 + g_rand_int_range(r, 0, 3));
	}
	for (int k = 0; k < N / 2 && sim_queue_len(&q) > 2; k++) {
		struct sim_event *ev = sim_queue_pop(&q);

		CU_ASSERT_EQUAL(ev->heap_idx, SIM_EVENT_IDLE);
		/* Cancel a random queued event. */
		do
			ev = &evs[g_rand_int_range(r, 0, N)];
		while (!sim_event_is_queued(ev));
		sim_queue_cancel(&q, ev);
		CU_ASSERT_EQUAL(ev->heap_idx, SIM_EVENT_IDLE);
		CU_ASSERT_TRUE(heap_valid(&q));
	}
	for (int i = 0; i < N; i++) {
		bool found = false;
		uint32_t x = evs[i].heap_idx;

		if (x != SIM_EVENT_IDLE && (x & SIM_QUEUE_FRONT_BIT))
			found = q.front[x & ~SIM_QUEUE_FRONT_BIT].ev == &evs[i];
		else if (x != SIM_EVENT_IDLE)
			found = q.pool[x].ev == &evs[i];
		CU_ASSERT_EQUAL(sim_event_is_queued(&evs[i]), found);
	}
	g_rand_free(r);
	sim_queue_destroy(&q);
}

/* After reserve(n), n pending events fit without moving any of the queue's arrays,
 * whatever their times. */
static void test_reserve(void)
{
	enum { N = 1000 };
	static struct sim_event evs[N];
	struct sim_queue q;
	const void *front, *pool;
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
	front = q.front;
	pool = q.pool;
	/* Times 10 .. 999 spread over many buckets (i * 2^k for growing k would leave the
	 * range), then all of them popped: every bucket split reuses blocks. */
	for (int i = 10; i < N; i++)
		sim_queue_push(&q, &evs[i], (sim_time_t)i);
	CU_ASSERT_PTR_EQUAL(q.front, front);
	CU_ASSERT_PTR_EQUAL(q.pool, pool);
	CU_ASSERT_EQUAL(sim_queue_len(&q), N);
	/* Reserving less than is already there changes nothing either. */
	sim_queue_reserve(&q, 10);
	CU_ASSERT_PTR_EQUAL(q.front, front);
	CU_ASSERT_TRUE(heap_valid(&q));
	/* Times 1 .. 10 (evs[9] .. evs[0]) then 10 .. 999 (evs[10] .. evs[999]). */
	for (int k = 0; k < N; k++) {
		struct sim_event *ev = sim_queue_pop(&q);

		ordered &= ev == (k < 10 ? &evs[9 - k] : &evs[k]);
	}
	CU_ASSERT_TRUE(ordered);
	CU_ASSERT_PTR_EQUAL(q.front, front);
	CU_ASSERT_PTR_EQUAL(q.pool, pool);
	/* All N at one time, then N in one bucket each: still no reallocation. */
	for (int i = 0; i < N; i++)
		sim_queue_push(&q, &evs[i], 5000);
	for (int i = 0; i < N; i++)
		CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[i]);
	for (int i = 0; i < N; i++)
		sim_queue_push(&q, &evs[i], (sim_time_t)1 << (i % 62));
	CU_ASSERT_TRUE(heap_valid(&q));
	for (int i = 0; i < N; i++)
		sim_queue_cancel(&q, &evs[(i * 7) % N]);
	CU_ASSERT_EQUAL(sim_queue_len(&q), 0);
	CU_ASSERT_PTR_EQUAL(q.front, front);
	CU_ASSERT_PTR_EQUAL(q.pool, pool);
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
 * Pushes at or before the base land in the front, which stays sorted while they need
 * at most a short shift and turns into a binary heap when they keep landing before
 * many others; either way the pop order is qsort's order of (time, push index),
 * cancels included.
 */
static void oo_push(struct sim_queue *q, struct sim_event *evs, struct key *keys, int i,
		    sim_time_t t)
{
	sim_queue_push(q, &evs[i], t);
	keys[i].time = t;
	keys[i].seq = (uint64_t)i;
}

static void test_out_of_order_front(void)
{
	enum { N = 400, DESC = 360 };
	static struct sim_event evs[N];
	static struct key keys[N], left[N];
	bool gone[N] = { false };
	struct sim_queue q;
	bool ok = true;
	int m = 0;

	sim_queue_init(&q);
	for (int i = 0; i < N; i++)
		sim_event_init(&evs[i], nop_cb, NULL);
	/* evs[0] sets the base, 1000; three ties at 1000 are appended; 999 is shifted in
	 * before four. */
	for (int i = 0; i < 4; i++)
		oo_push(&q, evs, keys, i, 1000);
	oo_push(&q, evs, keys, 4, 999);
	for (int i = 0; i < 5; i++)
		CU_ASSERT_TRUE(in_front(&evs[i]));
	CU_ASSERT_FALSE(q.front_heap);
	CU_ASSERT_TRUE(heap_valid(&q));
	/* With the head popped the slot before the front is free: 500 goes there. */
	CU_ASSERT_PTR_EQUAL(sim_queue_pop(&q), &evs[4]);
	gone[4] = true;
	oo_push(&q, evs, keys, 5, 500);
	CU_ASSERT_PTR_EQUAL(sim_queue_peek(&q), &evs[5]);
	CU_ASSERT_FALSE(q.front_heap);
	CU_ASSERT_TRUE(heap_valid(&q));
	/* Later than the base: into the buckets. */
	oo_push(&q, evs, keys, 6, 2000);
	oo_push(&q, evs, keys, 7, 1500);
	CU_ASSERT_FALSE(in_front(&evs[6]));
	CU_ASSERT_FALSE(in_front(&evs[7]));
	/* 999 down to 820, two events each: each lands before all but evs[5], so after
	 * a few shifts the front becomes a heap. */
	for (int i = 8; i < 8 + DESC; i++)
		oo_push(&q, evs, keys, i, 999 - (i - 8) / 2);
	CU_ASSERT_TRUE(q.front_heap);
	CU_ASSERT_TRUE(heap_valid(&q));
	/* Cancel in heap mode: an inner front event, the head, a bucket event. */
	sim_queue_cancel(&q, &evs[100]);
	sim_queue_cancel(&q, &evs[5]);
	sim_queue_cancel(&q, &evs[6]);
	gone[100] = gone[5] = gone[6] = true;
	CU_ASSERT_TRUE(heap_valid(&q));
	/* More pushes in heap mode, ties with earlier ones among them. */
	for (int i = 8 + DESC; i < N; i++)
		oo_push(&q, evs, keys, i, 900 + (i % 7) * 20);
	CU_ASSERT_TRUE(heap_valid(&q));
	for (int i = 0; i < N; i++)
		if (!gone[i])
			left[m++] = keys[i];
	qsort(left, (size_t)m, sizeof(left[0]), key_cmp);
	CU_ASSERT_EQUAL(sim_queue_len(&q), (uint32_t)m);
	for (int k = 0; k < m; k++) {
		ok &= sim_queue_pop(&q) == &evs[left[k].seq];
		if (k % 50 == 0)
			ok &= heap_valid(&q);
	}
	CU_ASSERT_TRUE(ok);
	/* Drained: the next refill starts a sorted front again. */
	CU_ASSERT_FALSE(q.front_heap);
	CU_ASSERT_PTR_NULL(sim_queue_pop(&q));
	sim_queue_destroy(&q);
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
	{ "cancel head, bucket middle and end, front; idle no-op", test_cancel },
	{ "out-of-order pushes into the front (heap mode)", test_out_of_order_front },
	{ "heap_idx idle after pop and cancel", test_heap_idx },
	{ "reserve then push does not reallocate", test_reserve },
	{ "200000 events pop in qsort order", test_large_sorted },
	{ "10^6 random ops vs reference model", test_random_vs_reference },
	{ "push of a queued event, foreign cancel abort", test_programming_errors },
	CU_TEST_INFO_NULL,
};
