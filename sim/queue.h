/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/queue.h - the event queue: an intrusive binary min-heap.
 *
 * Events are ordered by (time, seq). seq is a per-queue counter stamped on every push,
 * so events with equal times pop in the order they were pushed (FIFO), and an event
 * pushed at time t while events of time t are being dispatched runs after all those
 * already queued for t.
 *
 * Intrusive: the caller owns struct sim_event (usually embedded in a bigger struct and
 * recovered with container_of). The queue stores pointers only and writes the event's
 * heap index back into it, so cancel anywhere is O(log n). The pointer array grows by
 * doubling; after sim_queue_reserve() no push allocates. Push, pop and cancel never
 * allocate otherwise and never fail.
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
	uint32_t heap_idx;   /* position in the heap, SIM_EVENT_IDLE when not queued */
	sim_event_cb cb;     /* called by the dispatcher (sim/sim.c), not by the queue */
	void *data;
};

/* One heap slot: the key is copied beside the pointer so that comparisons during
 * sift-up/down stay inside the slot array (cache friendly at 10^6 pending events). */
struct sim_queue_slot {
	sim_time_t time;
	uint64_t seq;
	struct sim_event *ev;
};

struct sim_queue {
	struct sim_queue_slot *slots;
	uint32_t len;
	uint32_t cap;
	uint64_t next_seq;
};

/* Initialise an idle event (heap_idx = SIM_EVENT_IDLE) with its callback. */
void sim_event_init(struct sim_event *ev, sim_event_cb cb, void *data);
static inline bool sim_event_is_queued(const struct sim_event *ev)
{
	return ev->heap_idx != SIM_EVENT_IDLE;
}

void sim_queue_init(struct sim_queue *q);
void sim_queue_destroy(struct sim_queue *q);      /* frees the array; events are the caller's */
void sim_queue_reserve(struct sim_queue *q, uint32_t n);
/* Queue ev at time t. ev must be idle (assertion). */
void sim_queue_push(struct sim_queue *q, struct sim_event *ev, sim_time_t t);
/* Earliest event or NULL; does not remove it. */
static inline struct sim_event *sim_queue_peek(const struct sim_queue *q)
{
	return q->len ? q->slots[0].ev : NULL;
}
/* Remove and return the earliest event (now idle), or NULL when empty. */
struct sim_event *sim_queue_pop(struct sim_queue *q);
/* Remove ev wherever it is; a no-op for an idle event. */
void sim_queue_cancel(struct sim_queue *q, struct sim_event *ev);
static inline uint32_t sim_queue_len(const struct sim_queue *q)
{
	return q->len;
}

#endif
