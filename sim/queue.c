// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/queue.c - the event queue: an intrusive binary min-heap (see sim/queue.h).
 *
 * The heap lives in q->slots[0 .. q->len): slot i's children are 2i+1 and 2i+2, and no
 * slot's key (time, seq) is smaller than its parent's. Every slot carries a copy of its
 * event's key, so sifting reads only the slot array; the events themselves are touched
 * only to write back heap_idx. Invariants kept by every function here:
 *   - slots[i].ev->heap_idx == i for every i < len, and slots[i].time/seq equal
 *     slots[i].ev->time/seq;
 *   - an event not in the array has heap_idx == SIM_EVENT_IDLE;
 *   - seq values are unique within a queue (q->next_seq only grows), so keys never tie.
 * Ownership: the queue owns the slot array and nothing else. Events belong to the
 * caller, who must keep a queued event alive (and unmoved) until it is popped or
 * cancelled. Memory is allocated only when a push finds the array full and in
 * sim_queue_reserve(); g_realloc aborts on failure, so nothing here returns an error.
 */
#include <glib.h>
#include "sim/queue.h"

#define SIM_QUEUE_MIN_CAP 64u
/* Keeps 2i+2 from overflowing uint32_t and keeps SIM_EVENT_IDLE out of the index range. */
#define SIM_QUEUE_MAX_CAP (UINT32_MAX / 2u)

void sim_event_init(struct sim_event *ev, sim_event_cb cb, void *data)
{
	ev->time = 0;
	ev->seq = 0;
	ev->heap_idx = SIM_EVENT_IDLE;
	ev->cb = cb;
	ev->data = data;
}

void sim_queue_init(struct sim_queue *q)
{
	/* No allocation here: an unused queue costs nothing, the first push allocates. */
	q->slots = NULL;
	q->len = 0;
	q->cap = 0;
	q->next_seq = 0;
}

/*
 * Events still queued keep their heap_idx: the caller may already have freed them
 * (teardown order is the caller's), so the queue must not write to them here.
 */
void sim_queue_destroy(struct sim_queue *q)
{
	g_free(q->slots);
	q->slots = NULL;
	q->len = 0;
	q->cap = 0;
}

static void queue_set_cap(struct sim_queue *q, uint32_t cap)
{
	g_assert(cap <= SIM_QUEUE_MAX_CAP);
	q->slots = g_realloc_n(q->slots, cap, sizeof(q->slots[0]));
	q->cap = cap;
}

/* n is the total number of pending events to make room for, not an increment. */
void sim_queue_reserve(struct sim_queue *q, uint32_t n)
{
	uint32_t cap = q->cap ? q->cap : SIM_QUEUE_MIN_CAP;

	if (n <= q->cap)
		return;
	g_assert(n <= SIM_QUEUE_MAX_CAP);
	/* Keep the capacity a power-of-two multiple of the start so that growth stays
	 * geometric whether it comes from here or from push. */
	while (cap < n)
		cap = cap > SIM_QUEUE_MAX_CAP / 2 ? SIM_QUEUE_MAX_CAP : cap * 2;
	queue_set_cap(q, cap);
}

/*
 * Lexicographic (time, seq). Equal times take a separate branch: it is rarely taken
 * when times are ns apart, and paying a mispredict only on ties keeps the common path
 * to one compare, which measured faster than a fully branch-free form. Runs with
 * many simultaneous events pay a little more, but stay correct.
 */
static inline bool key_less(sim_time_t ta, uint64_t sa, sim_time_t tb, uint64_t sb)
{
	if (G_LIKELY(ta != tb))
		return ta < tb;
	return sa < sb;
}

static inline bool slot_less(const struct sim_queue_slot *a, const struct sim_queue_slot *b)
{
	return key_less(a->time, a->seq, b->time, b->seq);
}

/* Store x in slot i and tell its event where it is. */
static inline void slot_put(struct sim_queue_slot *s, uint32_t i, struct sim_queue_slot x)
{
	s[i] = x;
	x.ev->heap_idx = i;
}

/*
 * Fill the hole at i with x, moving x towards the root. Ancestors that move down are
 * written once each; x's event is written once, at its final place.
 */
static inline void sift_up(struct sim_queue_slot *s, uint32_t i, struct sim_queue_slot x)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;

		if (!slot_less(&x, &s[p]))
			break;
		slot_put(s, i, s[p]);
		i = p;
	}
	slot_put(s, i, x);
}

/* Fill the hole at i with x, moving x towards the leaves (used by cancel). */
static void sift_down(struct sim_queue_slot *s, uint32_t len, uint32_t i,
		      struct sim_queue_slot x)
{
	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= len)
			break;
		if (c + 1 < len)
			c += slot_less(&s[c + 1], &s[c]);
		if (!slot_less(&s[c], &x))
			break;
		slot_put(s, i, s[c]);
		i = c;
	}
	slot_put(s, i, x);
}

void sim_queue_push(struct sim_queue *q, struct sim_event *ev, sim_time_t t)
{
	struct sim_queue_slot x;

	g_assert(ev->heap_idx == SIM_EVENT_IDLE);
	if (G_UNLIKELY(q->len == q->cap)) {
		g_assert(q->cap < SIM_QUEUE_MAX_CAP);
		queue_set_cap(q, q->cap ? MIN(q->cap * 2, SIM_QUEUE_MAX_CAP) : SIM_QUEUE_MIN_CAP);
	}
	ev->time = t;
	ev->seq = q->next_seq++;
	x.time = t;
	x.seq = ev->seq;
	x.ev = ev;
	sift_up(q->slots, q->len++, x);
}

/*
 * Prefetch depth for the pop descent. A descent is a chain of dependent loads, one
 * level per step; once the rows no longer fit in cache every step would wait for
 * memory. Asking for the whole row PF_LEVELS below the hole (2^PF_LEVELS slots,
 * 384 bytes) lets those misses overlap. Rows that start before PF_MIN_IDX are
 * assumed cached and not prefetched: the extra instructions cost more than they
 * save at small n. Both values were tuned with bench/bench_queue.c.
 */
#define PF_LEVELS 4u
#define PF_MIN_IDX 8192u

/*
 * always_inline is load-bearing: gcc treats __builtin_prefetch as side-effect free,
 * so an out-of-line prefetch_row is deduced "const" and every call to it is deleted.
 */
static inline __attribute__((always_inline))
void prefetch_row(const struct sim_queue_slot *s, uint32_t len, uint32_t i)
{
	/* The descendants of i PF_LEVELS levels down are contiguous from here. */
	size_t lo = ((size_t)i + 1) * (1u << PF_LEVELS) - 1;
	size_t hi = MIN(lo + (1u << PF_LEVELS), (size_t)len);
	const char *p, *end;

	if (lo < PF_MIN_IDX || lo >= hi)
		return;
	p = (const char *)&s[lo];
	end = (const char *)&s[hi];
	for (; p < end; p += 64)
		__builtin_prefetch(p);
	__builtin_prefetch(end - 1);
}

/*
 * Move a hole at the root of s[0 .. len) down to a leaf, promoting the smaller child
 * at each level, and return the leaf's index.
 *
 * The main loop keeps the times of the hole's two children in registers and loads
 * all four grandchildren before deciding which child wins; the winner's pair is then
 * picked with a mask instead of a dependent load. That takes a load latency off the
 * per-level critical path (the choice is a coin toss, so neither a branch nor a load
 * that waits for it is cheap). gcc turns a ?: here into a branch, hence the masks.
 */
static inline uint32_t hole_to_leaf(struct sim_queue_slot *s, uint32_t len)
{
	uint32_t i = 0, c = 2;	/* c is always the hole's right child, 2i + 2 */

	if (len > 6) {
		sim_time_t tl = s[1].time, tr = s[2].time;

		/* Entered only while all four grandchildren 2c-1 .. 2c+2 exist. */
		do {
			const struct sim_queue_slot *g = &s[2 * c - 1];
			sim_time_t g0 = g[0].time, g1 = g[1].time;
			sim_time_t g2 = g[2].time, g3 = g[3].time;
			uint64_t m;
			bool left;

			prefetch_row(s, len, i);
			left = key_less(tl, s[c - 1].seq, tr, s[c].seq);
			c -= left;
			slot_put(s, i, s[c]);
			i = c;
			c = 2 * c + 2;
			m = -(uint64_t)left;
			tl = (sim_time_t)(((uint64_t)g0 & m) | ((uint64_t)g2 & ~m));
			tr = (sim_time_t)(((uint64_t)g1 & m) | ((uint64_t)g3 & ~m));
		} while (2 * c + 2 < len);
	}
	/* The last level or two, where some grandchildren are missing. */
	while (c < len) {
		c -= slot_less(&s[c - 1], &s[c]);
		slot_put(s, i, s[c]);
		i = c;
		c = 2 * c + 2;
	}
	if (c == len) {
		/* Only a left child, the last slot of the heap. */
		slot_put(s, i, s[c - 1]);
		i = c - 1;
	}
	return i;
}

/*
 * Bottom-up (Floyd) pop: the element that replaces the root is the old last leaf,
 * which almost always belongs near the bottom again. So walk the hole from the root
 * down to a leaf (one comparison per level instead of the two of a classic
 * sift-down), then sift the last element up from that leaf, which usually stops
 * after a step or two. The slot at len, which holds that element, is outside the
 * shrunken heap the hole walks through. (Measured: bottom-up alone merely matched
 * the classic sift-down, whose extra compare is well predicted; it wins because its
 * one-compare-per-level loop allows the lookahead in hole_to_leaf.)
 */
struct sim_event *sim_queue_pop(struct sim_queue *q)
{
	struct sim_queue_slot *s = q->slots;
	struct sim_event *top;
	uint32_t len;

	if (q->len == 0)
		return NULL;
	top = s[0].ev;
	top->heap_idx = SIM_EVENT_IDLE;
	len = --q->len;
	if (len > 0)
		sift_up(s, hole_to_leaf(s, len), s[len]);
	return top;
}

void sim_queue_cancel(struct sim_queue *q, struct sim_event *ev)
{
	struct sim_queue_slot *s = q->slots;
	uint32_t i = ev->heap_idx, len;

	if (i == SIM_EVENT_IDLE)
		return;
	/* Catches an event queued in another queue, or a corrupted heap_idx. */
	g_assert(i < q->len && s[i].ev == ev);
	ev->heap_idx = SIM_EVENT_IDLE;
	len = --q->len;
	if (i == len)
		return;
	/* The last element may be smaller than i's parent (it came from another subtree)
	 * or larger than i's children; exactly one direction applies. */
	if (i > 0 && slot_less(&s[len], &s[(i - 1) / 2]))
		sift_up(s, i, s[len]);
	else
		sift_down(s, len, i, s[len]);
}
