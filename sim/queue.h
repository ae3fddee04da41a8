/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/queue.h - the event queue: a radix heap with a sorted front run.
 *
 * Events are ordered by (time, seq). seq is a per-queue counter stamped on every push,
 * so events with equal times pop in the order they were pushed (FIFO), and an event
 * pushed at time t while events of time t are being dispatched runs after all those
 * already queued for t. Any time may be pushed at any moment, including one earlier
 * than the last event popped.
 *
 * Intrusive: the caller owns struct sim_event (usually embedded in a bigger struct and
 * recovered with container_of). The queue stores (time, pointer) pairs only and writes
 * the pair's position back into the event (heap_idx), so cancel anywhere needs no
 * search. Capacity grows by doubling; after sim_queue_reserve(n) no operation
 * allocates while at most n events are pending. Push, pop and cancel never allocate
 * otherwise and never fail.
 *
 * How it works is told in sim/queue.c: the earliest events sit in a sorted array, the
 * later ones in 2048 unsorted buckets by their times' digits. Each event moves down
 * once or twice in its lifetime, reading and writing memory in sequence, where a binary
 * heap walks a dependent path of cache misses on every pop (bench/bench_queue.c
 * compares the two).
 *
 * Invariant: ev->heap_idx == SIM_EVENT_IDLE exactly when ev is not in any queue.
 */
#ifndef CS_SIM_QUEUE_H
#define CS_SIM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sim/time.h"

#define SIM_EVENT_IDLE UINT32_MAX

struct sim_event;
typedef void (*sim_event_cb)(struct sim_event *ev, void *data);

struct sim_event {
	sim_time_t time;     /* when it fires (set by sim_queue_push) */
	uint64_t seq;        /* tie-breaker, set by sim_queue_push */
	uint32_t heap_idx;   /* where the queue keeps it, SIM_EVENT_IDLE when not queued */
	sim_event_cb cb;     /* called by the dispatcher (sim/sim.c), not by the queue */
	void *data;
};

/* One stored event: its time is copied beside the pointer so that splitting a bucket
 * reads the items only (16 bytes each), touching an event just to tell it where it
 * went. */
struct sim_queue_item {
	sim_time_t time;
	struct sim_event *ev;
};

/*
 * Buckets: times are read as 64 / SIM_QUEUE_DIGIT_BITS digits; an item is in the
 * bucket of (the highest digit in which its time differs from base, the value of that
 * digit in its time). A split drops every item of the bucket by a digit or more.
 */
#define SIM_QUEUE_DIGIT_BITS 8u
#define SIM_QUEUE_BUCKETS ((63u / SIM_QUEUE_DIGIT_BITS + 1) << SIM_QUEUE_DIGIT_BITS)
/*
 * Items per pool block: 64 items (1 KiB) make walking a bucket one link per 16 cache
 * lines and leave at most 64 KiB in partly filled blocks over all buckets.
 */
#define SIM_QUEUE_BLOCK 64u
/* heap_idx of an event in the front: this bit | its index in front[]; of an event in a
 * bucket: its index in the pool. */
#define SIM_QUEUE_FRONT_BIT 0x80000000u

/* A bucket is a chain of blocks from the queue's pool; every block but the last is full. */
struct sim_queue_bucket {
	uint32_t first;      /* first and last block of the chain */
	uint32_t last;
	uint32_t fill;       /* items in the last block */
	uint32_t count;      /* items in the bucket, 0 when the chain is empty */
};

struct sim_queue {
	/* The front: items [front_head, front_tail) of front[], sorted by (time, seq), or
	 * after out-of-order pushes a binary heap by (time, seq). */
	struct sim_queue_item *front;
	uint32_t front_head;
	uint32_t front_tail;
	bool front_heap;     /* the front is a binary heap in front[0 .. front_tail) */
	/* The buckets: bucket (d << DIGIT_BITS | v) holds the items later than base whose
	 * highest digit differing from base is digit d, of value v. */
	uint64_t base;       /* order-preserving unsigned image of the base time */
	uint64_t nonempty[(SIM_QUEUE_BUCKETS + 63) / 64];  /* bit b: bucket b has items */
	uint64_t nonempty_words;      /* bit w: nonempty[w] != 0 */
	struct sim_queue_bucket *bucket;  /* SIM_QUEUE_BUCKETS, allocated with the front */
	struct sim_queue_item *pool;  /* n_blocks blocks of SIM_QUEUE_BLOCK items */
	uint32_t *block_next;         /* chain links (and the free list) */
	uint32_t *block_prev;
	uint32_t n_blocks;
	uint32_t free_block;          /* head of the free list */
	uint32_t len;        /* pending events */
	uint32_t cap;        /* pending events that fit without allocating */
	uint64_t next_seq;
};

/* Initialise an idle event (heap_idx = SIM_EVENT_IDLE) with its callback. */
void sim_event_init(struct sim_event *ev, sim_event_cb cb, void *data);
static inline bool sim_event_is_queued(const struct sim_event *ev)
{
	return ev->heap_idx != SIM_EVENT_IDLE;
}

void sim_queue_init(struct sim_queue *q);
void sim_queue_destroy(struct sim_queue *q);      /* frees the arrays; events are the caller's */
void sim_queue_reserve(struct sim_queue *q, uint32_t n);
/* Queue ev at time t. ev must be idle (assertion). */
void sim_queue_push(struct sim_queue *q, struct sim_event *ev, sim_time_t t);
/* Earliest event or NULL; does not remove it. (The front is never empty while any
 * event is pending.) */
static inline struct sim_event *sim_queue_peek(const struct sim_queue *q)
{
	return q->len ? q->front[q->front_head].ev : NULL;
}
/* Remove and return the earliest event (now idle), or NULL when empty. */
struct sim_event *sim_queue_pop(struct sim_queue *q);
/* Remove ev wherever it is; a no-op for an idle event. */
void sim_queue_cancel(struct sim_queue *q, struct sim_event *ev);
static inline uint32_t sim_queue_len(const struct sim_queue *q)
{
	return q->len;
}
/* For tests: check every structural invariant (O(n)); false if one is broken. */
bool sim_queue_check(const struct sim_queue *q);

#endif
