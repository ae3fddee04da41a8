/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/heap_baseline.h - the event queue chargesim used before the radix heap: an
 * intrusive binary min-heap with the key copied into each slot, bottom-up (Floyd) pop
 * with a two-level lookahead and row prefetch. Kept here, renamed heapq_*, so that
 * bench/bench_queue.c can compare it with sim/queue.c in one process on the same key
 * stream. Static functions: include it in one benchmark only.
 *
 * It uses struct sim_event's time, seq and heap_idx fields as the old queue did.
 */
#ifndef CS_BENCH_HEAP_BASELINE_H
#define CS_BENCH_HEAP_BASELINE_H

#include <glib.h>
#include "sim/queue.h"

/* One heap slot: the key is copied beside the pointer so that comparisons during
 * sift-up/down stay inside the slot array. */
struct heapq_slot {
	sim_time_t time;
	uint64_t seq;
	struct sim_event *ev;
};

struct heapq {
	struct heapq_slot *slots;
	uint32_t len;
	uint32_t cap;
	uint64_t next_seq;
};

static inline struct sim_event *heapq_peek(const struct heapq *q)
{
	return q->len ? q->slots[0].ev : NULL;
}

#define HEAPQ_MIN_CAP 64u
/* Keeps 2i+2 from overflowing uint32_t and keeps SIM_EVENT_IDLE out of the index range. */
#define HEAPQ_MAX_CAP (UINT32_MAX / 2u)

static inline void heapq_init(struct heapq *q)
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
static inline void heapq_destroy(struct heapq *q)
{
	g_free(q->slots);
	q->slots = NULL;
	q->len = 0;
	q->cap = 0;
}

static inline void heapq_set_cap(struct heapq *q, uint32_t cap)
{
	g_assert(cap <= HEAPQ_MAX_CAP);
	q->slots = g_realloc_n(q->slots, cap, sizeof(q->slots[0]));
	q->cap = cap;
}

/* n is the total number of pending events to make room for, not an increment. */
static inline void heapq_reserve(struct heapq *q, uint32_t n)
{
	uint32_t cap = q->cap ? q->cap : HEAPQ_MIN_CAP;

	if (n <= q->cap)
		return;
	g_assert(n <= HEAPQ_MAX_CAP);
	/* Keep the capacity a power-of-two multiple of the start so that growth stays
	 * geometric whether it comes from here or from push. */
	while (cap < n)
		cap = cap > HEAPQ_MAX_CAP / 2 ? HEAPQ_MAX_CAP : cap * 2;
	heapq_set_cap(q, cap);
}

/*
 * Lexicographic (time, seq). Equal times take a separate branch: it is rarely taken
 * when times are ns apart, and paying a mispredict only on ties keeps the common path
 * to one compare, which measured faster than a fully branch-free form. Runs with
 * many simultaneous events pay a little more, but stay correct.
 */
static inline bool heapq_key_less(sim_time_t ta, uint64_t sa, sim_time_t tb, uint64_t sb)
{
	if (G_LIKELY(ta != tb))
		return ta < tb;
	return sa < sb;
}

static inline bool heapq_slot_less(const struct heapq_slot *a, const struct heapq_slot *b)
{
	return heapq_key_less(a->time, a->seq, b->time, b->seq);
}

/* Store x in slot i and tell its event where it is. */
static inline void heapq_slot_put(struct heapq_slot *s, uint32_t i, struct heapq_slot x)
{
	s[i] = x;
	x.ev->heap_idx = i;
}

/*
 * Fill the hole at i with x, moving x towards the root. Ancestors that move down are
 * written once each; x's event is written once, at its final place.
 */
static inline void heapq_sift_up(struct heapq_slot *s, uint32_t i, struct heapq_slot x)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;

		if (!heapq_slot_less(&x, &s[p]))
			break;
		heapq_slot_put(s, i, s[p]);
		i = p;
	}
	heapq_slot_put(s, i, x);
}

/* Fill the hole at i with x, moving x towards the leaves (used by cancel). */
static inline void heapq_sift_down(struct heapq_slot *s, uint32_t len, uint32_t i,
		      struct heapq_slot x)
{
	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= len)
			break;
		if (c + 1 < len)
			c += heapq_slot_less(&s[c + 1], &s[c]);
		if (!heapq_slot_less(&s[c], &x))
			break;
		heapq_slot_put(s, i, s[c]);
		i = c;
	}
	heapq_slot_put(s, i, x);
}

static inline void heapq_push(struct heapq *q, struct sim_event *ev, sim_time_t t)
{
	struct heapq_slot x;

	g_assert(ev->heap_idx == SIM_EVENT_IDLE);
	if (G_UNLIKELY(q->len == q->cap)) {
		g_assert(q->cap < HEAPQ_MAX_CAP);
		heapq_set_cap(q, q->cap ? MIN(q->cap * 2, HEAPQ_MAX_CAP) : HEAPQ_MIN_CAP);
	}
	ev->time = t;
	ev->seq = q->next_seq++;
	x.time = t;
	x.seq = ev->seq;
	x.ev = ev;
	heapq_sift_up(q->slots, q->len++, x);
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
 * so an out-of-line heapq_prefetch_row is deduced "const" and every call to it is deleted.
 */
static inline __attribute__((always_inline))
void heapq_prefetch_row(const struct heapq_slot *s, uint32_t len, uint32_t i)
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
static inline uint32_t heapq_hole_to_leaf(struct heapq_slot *s, uint32_t len)
{
	uint32_t i = 0, c = 2;	/* c is always the hole's right child, 2i + 2 */

	if (len > 6) {
		sim_time_t tl = s[1].time, tr = s[2].time;

		/* Entered only while all four grandchildren 2c-1 .. 2c+2 exist. */
		do {
			const struct heapq_slot *g = &s[2 * c - 1];
			sim_time_t g0 = g[0].time, g1 = g[1].time;
			sim_time_t g2 = g[2].time, g3 = g[3].time;
			uint64_t m;
			bool left;

			heapq_prefetch_row(s, len, i);
			left = heapq_key_less(tl, s[c - 1].seq, tr, s[c].seq);
			c -= left;
			heapq_slot_put(s, i, s[c]);
			i = c;
			c = 2 * c + 2;
			m = -(uint64_t)left;
			tl = (sim_time_t)(((uint64_t)g0 & m) | ((uint64_t)g2 & ~m));
			tr = (sim_time_t)(((uint64_t)g1 & m) | ((uint64_t)g3 & ~m));
		} while (2 * c + 2 < len);
	}
	/* The last level or two, where some grandchildren are missing. */
	while (c < len) {
		c -= heapq_slot_less(&s[c - 1], &s[c]);
		heapq_slot_put(s, i, s[c]);
		i = c;
		c = 2 * c + 2;
	}
	if (c == len) {
		/* Only a left child, the last slot of the heap. */
		heapq_slot_put(s, i, s[c - 1]);
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
 * one-compare-per-level loop allows the lookahead in heapq_hole_to_leaf.)
 */
static inline struct sim_event *heapq_pop(struct heapq *q)
{
	struct heapq_slot *s = q->slots;
	struct sim_event *top;
	uint32_t len;

	if (q->len == 0)
		return NULL;
	top = s[0].ev;
	top->heap_idx = SIM_EVENT_IDLE;
	len = --q->len;
	if (len > 0)
		heapq_sift_up(s, heapq_hole_to_leaf(s, len), s[len]);
	return top;
}

static inline void heapq_cancel(struct heapq *q, struct sim_event *ev)
{
	struct heapq_slot *s = q->slots;
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
	if (i > 0 && heapq_slot_less(&s[len], &s[(i - 1) / 2]))
		heapq_sift_up(s, i, s[len]);
	else
		heapq_sift_down(s, len, i, s[len]);
}

#endif
