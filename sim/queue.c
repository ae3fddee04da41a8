// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/queue.c - the event queue: a radix heap with a sorted front run (see sim/queue.h).
 *
 * Times are compared as unsigned images u = t ^ 2^63, which keeps their order for the
 * whole int64 range (negative times included).
 *
 * Times are read as digits of DIGIT_BITS bits. The front, front[front_head ..
 * front_tail), is sorted by (time, seq) and holds every pending event whose time is
 * <= the base time; every other pending event is in bucket (d, v): d is the highest
 * digit in which its time differs from base, v its value of that digit (larger than
 * base's). Buckets are numbered d << DIGIT_BITS | v, which is the order of their items.
 * The front is never empty while an event is pending: whenever it runs dry, refill()
 * takes the lowest non-empty bucket (d, v). Any time T of that bucket may become the
 * new base: it agrees with the old base above digit d, so items of higher buckets keep
 * their bucket, and has digit d = v, so items of (d, v') with v' != v keep theirs too.
 *   - A small bucket becomes the front whole, sorted, with its latest time as base.
 *   - A larger one is split: its earliest time m becomes the base, the items of time
 *     m go to the front and the others, which agree with m down to digit d, drop to
 *     buckets of lower digits.
 * Hence an item only ever moves down, at most 64 / DIGIT_BITS times; in the hold
 * model, once or twice.
 *
 * A push later than base goes to its bucket (an append). A push at or before base goes
 * into the front at its sorted place: its seq is the largest yet, so that is after
 * every front item of the same or an earlier time. In a simulation that is the tail
 * (an event for "now") or close to it, and the front is short, so the shifting this
 * may cost stays small; when a push would shift many items, the front turns into a
 * binary heap until it next runs dry (see front_insert()).
 *
 * Storage: the front is one array of cap items. Buckets are chains of fixed-size blocks
 * from one pool of items, linked through block_next/block_prev; unused blocks are on a
 * free list. Every block of a chain but the last is full, so a bucket of c items uses
 * at most c / BLOCK + 1 blocks, and as no more than min(cap, BUCKETS) buckets have
 * items the pool needs at most cap / BLOCK + min(cap, BUCKETS) blocks (plus one: while
 * a bucket is split, its block being read still counts). An event's
 * heap_idx is its item's pool index, or FRONT_BIT | its index in front[]; indices stay
 * valid when the arrays are reallocated.
 *
 * Invariants kept by every function here (sim_queue_check() verifies them):
 *   - len == front items + the counts of all buckets; front empty only when len == 0;
 *   - the front is sorted by (time, seq) (or a heap by (time, seq) in heap mode), every
 *     front time is <= base, every bucket item is in the bucket its time gives
 *     relative to base; bit b of nonempty is set exactly when bucket b has items, bit
 *     w of nonempty_words exactly when nonempty[w] is not 0;
 *   - every queued event's heap_idx locates its item and the item's time equals the
 *     event's; an event not queued has heap_idx == SIM_EVENT_IDLE;
 *   - seq values are unique within a queue (next_seq only grows), so keys never tie.
 * Ownership: the queue owns its arrays and nothing else. Events belong to the caller,
 * who must keep a queued event alive (and unmoved) until it is popped or cancelled.
 * Memory is allocated only when a push finds the queue full and in sim_queue_reserve();
 * g_realloc aborts on failure, so nothing here returns an error.
 */
#include <string.h>
#include <glib.h>
#include "sim/queue.h"

#define DIGIT_BITS SIM_QUEUE_DIGIT_BITS
#define BLOCK SIM_QUEUE_BLOCK
#define BLOCK_NONE UINT32_MAX
#define FRONT_BIT SIM_QUEUE_FRONT_BIT
#define QUEUE_MIN_CAP 64u
/*
 * A push into the middle of the sorted front shifts the later items by one. Beyond
 * this many the front becomes a binary heap until it next runs dry: pushes that keep
 * landing before earlier ones (e.g. filling a queue in random order) then cost
 * O(log n) each instead of O(n).
 */
#define FRONT_SHIFT_MAX 32u
/*
 * A bucket of at most this many items is sorted into the front whole (see refill()).
 * Insertion sort costs about n / 4 compares per item; splitting costs a move per item
 * and the sorting is only deferred. At most BLOCK, and at most FRONT_SHIFT_MAX, so
 * that pushes landing inside such a front keep it sorted.
 */
#define FRONT_SORT_MAX 32u
G_STATIC_ASSERT(FRONT_SORT_MAX <= BLOCK && FRONT_SORT_MAX <= FRONT_SHIFT_MAX);
/* Keeps FRONT_BIT and SIM_EVENT_IDLE out of the index ranges of front[] and the pool. */
#define QUEUE_MAX_CAP (1u << 30)
/*
 * Split prefetch distance, in items: moving an item writes its event's heap_idx, a
 * miss at 10^6 pending events; asking for the event this many items ahead lets those
 * misses overlap. Tuned with bench/bench_queue.c (8 to 32 measure the same).
 */
#define SPLIT_PREFETCH 16u

static inline uint64_t time_key(sim_time_t t)
{
	return (uint64_t)t ^ (1ull << 63);
}

/*
 * The bucket of an item later than base (u > base): d, the highest digit in which u
 * and base differ, and v, that digit of u (larger than base's). Buckets are numbered
 * d << DIGIT_BITS | v, in the order of their items.
 */
static inline unsigned bucket_of(uint64_t u, uint64_t base)
{
	unsigned d = (63u - (unsigned)__builtin_clzll(u ^ base)) / DIGIT_BITS;
	unsigned v = (unsigned)(u >> (d * DIGIT_BITS)) & ((1u << DIGIT_BITS) - 1);

	return d << DIGIT_BITS | v;
}

static inline void mark_nonempty(struct sim_queue *q, unsigned b)
{
	q->nonempty[b / 64] |= 1ull << (b % 64);
	q->nonempty_words |= 1ull << (b / 64);
}

static inline bool is_nonempty(const struct sim_queue *q, unsigned b)
{
	return (q->nonempty[b / 64] >> (b % 64)) & 1u;
}

static inline void mark_empty(struct sim_queue *q, unsigned b)
{
	if ((q->nonempty[b / 64] &= ~(1ull << (b % 64))) == 0)
		q->nonempty_words &= ~(1ull << (b / 64));
}

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
	memset(q, 0, sizeof(*q));
	q->free_block = BLOCK_NONE;
}

/*
 * Events still queued keep their heap_idx: the caller may already have freed them
 * (teardown order is the caller's), so the queue must not write to them here.
 */
void sim_queue_destroy(struct sim_queue *q)
{
	g_free(q->front);
	g_free(q->pool);
	g_free(q->block_next);
	g_free(q->block_prev);
	g_free(q->bucket);
	sim_queue_init(q);
}

static void queue_set_cap(struct sim_queue *q, uint32_t cap)
{
	/* Each non-empty bucket has one partly filled block at most, and there are no
	 * more non-empty buckets than items. */
	uint32_t blocks = cap / BLOCK + MIN(cap, SIM_QUEUE_BUCKETS) + 1;

	g_assert(cap <= QUEUE_MAX_CAP);
	/* Not zeroed: a bucket is read only while its nonempty bit is set, and set up
	 * when that bit is, so pages of buckets never used are never touched. */
	if (!q->bucket)
		q->bucket = g_new(struct sim_queue_bucket, SIM_QUEUE_BUCKETS);
	q->front = g_realloc_n(q->front, cap, sizeof(q->front[0]));
	if (blocks > q->n_blocks) {
		q->pool = g_realloc_n(q->pool, (gsize)blocks * BLOCK, sizeof(q->pool[0]));
		q->block_next = g_realloc_n(q->block_next, blocks, sizeof(uint32_t));
		q->block_prev = g_realloc_n(q->block_prev, blocks, sizeof(uint32_t));
		/* New blocks join the free list, lowest index first. */
		for (uint32_t b = blocks; b-- > q->n_blocks;) {
			q->block_next[b] = q->free_block;
			q->free_block = b;
		}
		q->n_blocks = blocks;
	}
	q->cap = cap;
}

/* n is the total number of pending events to make room for, not an increment. */
void sim_queue_reserve(struct sim_queue *q, uint32_t n)
{
	uint32_t cap = q->cap ? q->cap : QUEUE_MIN_CAP;

	if (n <= q->cap)
		return;
	g_assert(n <= QUEUE_MAX_CAP);
	/* Keep the capacity a power-of-two multiple of the start so that growth stays
	 * geometric whether it comes from here or from push. */
	while (cap < n)
		cap *= 2;
	queue_set_cap(q, cap);
}

/* --- buckets --- */

static inline uint32_t block_alloc(struct sim_queue *q)
{
	uint32_t b = q->free_block;

	/* The pool has a block for every item plus one per bucket (see the top). */
	g_assert(b != BLOCK_NONE);
	q->free_block = q->block_next[b];
	return b;
}

static inline void block_free(struct sim_queue *q, uint32_t b)
{
	q->block_next[b] = q->free_block;
	q->free_block = b;
}

static inline __attribute__((always_inline))
void bucket_append(struct sim_queue *q, unsigned b, struct sim_queue_item it)
{
	struct sim_queue_bucket *bk = &q->bucket[b];
	uint32_t p;

	if (!is_nonempty(q, b)) {
		bk->count = 0;
		uint32_t blk = block_alloc(q);

		q->block_next[blk] = BLOCK_NONE;
		q->block_prev[blk] = BLOCK_NONE;
		bk->first = bk->last = blk;
		bk->fill = 0;
		mark_nonempty(q, b);
	} else if (bk->fill == BLOCK) {
		uint32_t blk = block_alloc(q);

		q->block_next[blk] = BLOCK_NONE;
		q->block_prev[blk] = bk->last;
		q->block_next[bk->last] = blk;
		bk->last = blk;
		bk->fill = 0;
	}
	p = bk->last * BLOCK + bk->fill++;
	bk->count++;
	q->pool[p] = it;
	it.ev->heap_idx = p;
}

/* Remove the item at pool index p from bucket b: the bucket's last item fills the hole. */
static void bucket_remove(struct sim_queue *q, unsigned b, uint32_t p)
{
	struct sim_queue_bucket *bk = &q->bucket[b];
	uint32_t last = bk->last * BLOCK + bk->fill - 1;

	if (p != last) {
		q->pool[p] = q->pool[last];
		q->pool[p].ev->heap_idx = p;
	}
	bk->count--;
	if (--bk->fill > 0)
		return;
	block_free(q, bk->last);
	if (bk->count == 0) {
		mark_empty(q, b);
	} else {
		bk->last = q->block_prev[bk->last];
		q->block_next[bk->last] = BLOCK_NONE;
		bk->fill = BLOCK;
	}
}

/* --- the front --- */

static inline void front_put(struct sim_queue *q, uint32_t i, struct sim_queue_item it)
{
	q->front[i] = it;
	it.ev->heap_idx = FRONT_BIT | i;
}

/* Move front[from .. to) to start at dst, telling each moved event where it went. */
static void front_move(struct sim_queue *q, uint32_t from, uint32_t to, uint32_t dst)
{
	memmove(&q->front[dst], &q->front[from], (to - from) * sizeof(q->front[0]));
	for (uint32_t i = dst; i < dst + (to - from); i++)
		q->front[i].ev->heap_idx = FRONT_BIT | i;
}

/* (time, seq) order; seq is read from the events only when the times are equal. */
static inline bool item_less(const struct sim_queue_item *a, const struct sim_queue_item *b)
{
	if (G_LIKELY(a->time != b->time))
		return a->time < b->time;
	return a->ev->seq < b->ev->seq;
}

/* Heap mode: fill the hole at i with x, moving x towards the root. */
static void fheap_up(struct sim_queue *q, uint32_t i, struct sim_queue_item x)
{
	struct sim_queue_item *f = q->front;

	while (i > 0) {
		uint32_t p = (i - 1) / 2;

		if (!item_less(&x, &f[p]))
			break;
		front_put(q, i, f[p]);
		i = p;
	}
	front_put(q, i, x);
}

/* Heap mode: fill the hole at i of front[0 .. n) with x, moving x towards the leaves. */
static void fheap_down(struct sim_queue *q, uint32_t n, uint32_t i, struct sim_queue_item x)
{
	struct sim_queue_item *f = q->front;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && item_less(&f[c + 1], &f[c]))
			c++;
		if (!item_less(&f[c], &x))
			break;
		front_put(q, i, f[c]);
		i = c;
	}
	front_put(q, i, x);
}

/* Heap mode: remove front[i] (the last item fills the hole). */
static void fheap_remove(struct sim_queue *q, uint32_t i)
{
	uint32_t n = --q->front_tail;
	struct sim_queue_item x = q->front[n];

	if (i == n)
		return;
	if (i > 0 && item_less(&x, &q->front[(i - 1) / 2]))
		fheap_up(q, i, x);
	else
		fheap_down(q, n, i, x);
}

/*
 * Insert an item whose time is <= base and whose seq is the queue's newest: after every
 * front item of the same or an earlier time. In sorted mode that is an append, a
 * prepend, or a short shift; a longer shift turns the front into a heap instead (the
 * sorted run, moved to front[0], already is one), so that no push costs more than
 * O(log n) however the times come.
 */
static void front_insert(struct sim_queue *q, struct sim_queue_item it)
{
	uint32_t k = q->front_tail;

	if (q->front_heap) {
		fheap_up(q, q->front_tail++, it);
		return;
	}
	if (q->front_head > 0 && it.time < q->front[q->front_head].time) {
		/* Earlier than the whole front: the slot before it is free. */
		front_put(q, --q->front_head, it);
		return;
	}
	while (k > q->front_head && q->front[k - 1].time > it.time) {
		if (q->front_tail - k == FRONT_SHIFT_MAX) {
			if (q->front_head > 0)
				front_move(q, q->front_head, q->front_tail, 0);
			q->front_tail -= q->front_head;
			q->front_head = 0;
			q->front_heap = true;
			fheap_up(q, q->front_tail++, it);
			return;
		}
		k--;
	}
	if (q->front_tail == q->cap) {
		/* Out of room at the end (front_head > 0, as len < cap): slide to 0. */
		uint32_t h = q->front_head;

		front_move(q, h, q->front_tail, 0);
		q->front_tail -= h;
		q->front_head = 0;
		k -= h;
	}
	if (k < q->front_tail)
		front_move(q, k, q->front_tail, k + 1);
	front_put(q, k, it);
	q->front_tail++;
}

/* Sort front[0 .. n) by (time, seq) and tell each event where it is. Insertion sort:
 * n is small, or the items come nearly sorted (a tie group in bucket order, which is
 * push order unless a cancel moved one). */
static void front_sort(struct sim_queue *q, uint32_t n)
{
	struct sim_queue_item *f = q->front;

	for (uint32_t i = 1; i < n; i++) {
		struct sim_queue_item x = f[i];
		uint32_t j = i;

		while (j > 0 && item_less(&x, &f[j - 1])) {
			f[j] = f[j - 1];
			j--;
		}
		f[j] = x;
	}
	for (uint32_t i = 0; i < n; i++)
		f[i].ev->heap_idx = FRONT_BIT | i;
}

/*
 * The front is empty and events are pending: take the lowest non-empty bucket into
 * the front whole, or split it. A split makes two passes over the bucket's chain: the
 * earliest time, then every item to the front or to its lower bucket. Each block is
 * freed once read, and the chain's own blocks are reused by the lower buckets.
 */
static void refill(struct sim_queue *q)
{
	unsigned w, b;
	struct sim_queue_bucket bk;
	const struct sim_queue_item *pool = q->pool;
	uint32_t nf = 0, blk, left;
	uint64_t m = UINT64_MAX;

	w = (unsigned)__builtin_ctzll(q->nonempty_words);
	b = w * 64 + (unsigned)__builtin_ctzll(q->nonempty[w]);
	bk = q->bucket[b];
	if (bk.count <= FRONT_SORT_MAX) {
		/*
		 * A small bucket (one block) becomes the front whole, sorted, and its latest
		 * time the base: every item of the other buckets still differs from that
		 * time in the digit that placed it. Cheaper than moving the items down
		 * once more and sorting them there.
		 */
		const struct sim_queue_item *it = &pool[bk.first * BLOCK];

		memcpy(q->front, it, bk.count * sizeof(*it));
		block_free(q, bk.first);
		q->bucket[b].count = 0;
		mark_empty(q, b);
		front_sort(q, bk.count);
		q->base = time_key(q->front[bk.count - 1].time);
		q->front_head = 0;
		q->front_tail = bk.count;
		return;
	}
	blk = bk.first;
	left = bk.count;
	while (blk != BLOCK_NONE) {
		const struct sim_queue_item *it = &pool[blk * BLOCK];
		uint32_t n = MIN(left, BLOCK);

		for (uint32_t i = 0; i < n; i++) {
			uint64_t u = time_key(it[i].time);

			m = u < m ? u : m;
		}
		left -= n;
		blk = q->block_next[blk];
	}

	q->bucket[b].count = 0;
	mark_empty(q, b);
	q->base = m;
	blk = bk.first;
	left = bk.count;
	while (blk != BLOCK_NONE) {
		uint32_t next = q->block_next[blk];
		uint32_t n = MIN(left, BLOCK);
		uint32_t p0 = blk * BLOCK;

		if (next != BLOCK_NONE)
			__builtin_prefetch(&q->pool[next * BLOCK]);
		for (uint32_t i = 0; i < n; i++) {
			struct sim_queue_item it = q->pool[p0 + i];
			uint64_t u = time_key(it.time);

			if (i + SPLIT_PREFETCH < n)
				__builtin_prefetch(q->pool[p0 + i + SPLIT_PREFETCH].ev, 1);
			if (u == m) {
				q->front[nf] = it;
				it.ev->heap_idx = FRONT_BIT | nf;
				nf++;
			} else {
				bucket_append(q, bucket_of(u, m), it);
			}
		}
		left -= n;
		block_free(q, blk);
		blk = next;
	}
	q->front_head = 0;
	q->front_tail = nf;
	if (nf > 1)
		front_sort(q, nf);
}

/* --- the API --- */

void sim_queue_push(struct sim_queue *q, struct sim_event *ev, sim_time_t t)
{
	struct sim_queue_item it = { t, ev };
	uint64_t u = time_key(t);

	g_assert(ev->heap_idx == SIM_EVENT_IDLE);
	if (G_UNLIKELY(q->len == q->cap)) {
		g_assert(q->cap < QUEUE_MAX_CAP);
		queue_set_cap(q, q->cap ? q->cap * 2 : QUEUE_MIN_CAP);
	}
	ev->time = t;
	ev->seq = q->next_seq++;
	if (q->len++ == 0) {
		/* Every bucket is empty: any base will do. */
		q->base = u;
		q->front_head = 0;
		q->front_tail = 1;
		front_put(q, 0, it);
	} else if (u > q->base) {
		bucket_append(q, bucket_of(u, q->base), it);
	} else {
		front_insert(q, it);
	}
}

/* Take the earliest item out of the front, which must then stay non-empty while
 * events are pending. */
static inline void front_drop_head(struct sim_queue *q)
{
	if (G_UNLIKELY(q->front_heap)) {
		fheap_remove(q, 0);
		if (q->front_tail > 0)
			return;
		q->front_heap = false;
	} else if (++q->front_head < q->front_tail) {
		return;
	}
	q->front_head = q->front_tail = 0;
	if (q->len)
		refill(q);
}

struct sim_event *sim_queue_pop(struct sim_queue *q)
{
	struct sim_event *top;

	if (q->len == 0)
		return NULL;
	top = q->front[q->front_head].ev;
	top->heap_idx = SIM_EVENT_IDLE;
	q->len--;
	front_drop_head(q);
	return top;
}

void sim_queue_cancel(struct sim_queue *q, struct sim_event *ev)
{
	uint32_t i = ev->heap_idx;

	if (i == SIM_EVENT_IDLE)
		return;
	if (i & FRONT_BIT) {
		i &= ~FRONT_BIT;
		/* Catches an event queued in another queue, or a corrupted heap_idx. */
		g_assert(i >= q->front_head && i < q->front_tail && q->front[i].ev == ev);
		ev->heap_idx = SIM_EVENT_IDLE;
		q->len--;
		if (i == q->front_head) {
			front_drop_head(q);
		} else if (q->front_heap) {
			fheap_remove(q, i);
		} else {
			front_move(q, i + 1, q->front_tail, i);
			q->front_tail--;
		}
		return;
	}
	g_assert(i < q->n_blocks * BLOCK && q->pool[i].ev == ev);
	ev->heap_idx = SIM_EVENT_IDLE;
	q->len--;
	bucket_remove(q, bucket_of(time_key(q->pool[i].time), q->base), i);
}

/* --- checking --- */

bool sim_queue_check(const struct sim_queue *q)
{
	uint32_t total = 0, free_blocks = 0, used_blocks = 0;

	if (q->len > q->cap || q->front_head > q->front_tail || q->front_tail > q->cap ||
	    (q->front_heap && q->front_head != 0))
		return false;
	if ((q->len == 0) != (q->front_head == q->front_tail))
		return false;
	for (uint32_t i = q->front_head; i < q->front_tail; i++) {
		const struct sim_queue_item *it = &q->front[i];

		if (it->ev->heap_idx != (FRONT_BIT | i) || it->ev->time != it->time ||
		    time_key(it->time) > q->base)
			return false;
		if (q->front_heap ? i > 0 && !item_less(&q->front[(i - 1) / 2], it) :
		    i > q->front_head && !item_less(&q->front[i - 1], it))
			return false;
		total++;
	}
	for (unsigned b = 0; b < SIM_QUEUE_BUCKETS; b++) {
		const struct sim_queue_bucket *bk = &q->bucket[b];
		uint32_t blk, left, prev = BLOCK_NONE;

		/* an empty bucket's fields are not kept (see queue_set_cap()) */
		if (!is_nonempty(q, b))
			continue;
		left = bk->count;
		if (bk->count == 0)
			return false;
		for (blk = bk->first; blk != BLOCK_NONE; blk = q->block_next[blk]) {
			uint32_t n = q->block_next[blk] == BLOCK_NONE ? bk->fill : BLOCK;

			if (blk >= q->n_blocks || q->block_prev[blk] != prev || n > left)
				return false;
			for (uint32_t k = 0; k < n; k++) {
				const struct sim_queue_item *it = &q->pool[blk * BLOCK + k];
				uint64_t u = time_key(it->time);

				if (it->ev->heap_idx != blk * BLOCK + k || it->ev->time != it->time ||
				    u <= q->base || bucket_of(u, q->base) != b)
					return false;
			}
			left -= n;
			prev = blk;
			used_blocks++;
		}
		if (left != 0 || prev != bk->last || bk->fill == 0 || bk->fill > BLOCK)
			return false;
		total += bk->count;
	}
	for (unsigned w = 0; w < G_N_ELEMENTS(q->nonempty); w++)
		if (((q->nonempty_words >> w) & 1u) != (q->nonempty[w] != 0))
			return false;
	for (uint32_t blk = q->free_block; blk != BLOCK_NONE; blk = q->block_next[blk])
		if (++free_blocks > q->n_blocks)
			return false;
	return total == q->len && used_blocks + free_blocks == q->n_blocks;
}
