/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/notifier.h (chargesim) - notifier chains, as the kernel has them.
 *
 * A chain is a priority-ordered singly linked list of notifier_block. Calling a chain
 * runs each callback in order until one returns a value with NOTIFY_STOP_MASK. There
 * is no locking: a simulation is single-threaded, so blocking, atomic and raw chains
 * are the same thing here; the three names exist so driver code compiles unchanged.
 */
#ifndef CS_LINUX_NOTIFIER_H
#define CS_LINUX_NOTIFIER_H

struct notifier_block;
typedef int (*notifier_fn_t)(struct notifier_block *nb, unsigned long action, void *data);

struct notifier_block {
	notifier_fn_t notifier_call;
	struct notifier_block *next;
	int priority;
};

struct raw_notifier_head {
	struct notifier_block *head;
};
#define blocking_notifier_head raw_notifier_head
#define atomic_notifier_head raw_notifier_head

#define RAW_NOTIFIER_INIT(name) { .head = NULL }
#define RAW_NOTIFIER_HEAD(name) struct raw_notifier_head name = RAW_NOTIFIER_INIT(name)
#define BLOCKING_NOTIFIER_HEAD(name) RAW_NOTIFIER_HEAD(name)
#define ATOMIC_NOTIFIER_HEAD(name) RAW_NOTIFIER_HEAD(name)
#define RAW_INIT_NOTIFIER_HEAD(nh) ((nh)->head = NULL)
#define BLOCKING_INIT_NOTIFIER_HEAD(nh) RAW_INIT_NOTIFIER_HEAD(nh)
#define ATOMIC_INIT_NOTIFIER_HEAD(nh) RAW_INIT_NOTIFIER_HEAD(nh)

#define NOTIFY_DONE       0x0000
#define NOTIFY_OK         0x0001
#define NOTIFY_STOP_MASK  0x8000
#define NOTIFY_BAD        (NOTIFY_STOP_MASK | 0x0002)
#define NOTIFY_STOP       (NOTIFY_OK | NOTIFY_STOP_MASK)

int raw_notifier_chain_register(struct raw_notifier_head *nh, struct notifier_block *nb);
int raw_notifier_chain_unregister(struct raw_notifier_head *nh, struct notifier_block *nb);
int raw_notifier_call_chain(struct raw_notifier_head *nh, unsigned long val, void *v);

#define blocking_notifier_chain_register raw_notifier_chain_register
#define blocking_notifier_chain_unregister raw_notifier_chain_unregister
#define blocking_notifier_call_chain raw_notifier_call_chain
#define atomic_notifier_chain_register raw_notifier_chain_register
#define atomic_notifier_chain_unregister raw_notifier_chain_unregister
#define atomic_notifier_call_chain raw_notifier_call_chain

/*
 * An errno carried through a chain as a stopping return value, and back (the kernel's
 * include/linux/notifier.h): -E becomes NOTIFY_STOP_MASK | (NOTIFY_OK + E), so that
 * notifier_to_errno() gives -E again; 0 is NOTIFY_OK, and any return value without an
 * errno in it (NOTIFY_DONE, NOTIFY_OK, NOTIFY_STOP) gives 0.
 */
static inline int notifier_from_errno(int err)
{
	return err ? (NOTIFY_STOP_MASK | (NOTIFY_OK - err)) : NOTIFY_OK;
}

static inline int notifier_to_errno(int ret)
{
	ret &= ~NOTIFY_STOP_MASK;
	return ret > NOTIFY_OK ? NOTIFY_OK - ret : 0;
}

#endif
