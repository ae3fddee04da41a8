// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/notifier.c - notifier chains (see linux/notifier.h).
 *
 * Higher priority first; equal priorities in registration order, as in the kernel.
 * Registering a block twice is refused (-EEXIST) rather than corrupting the list.
 */
#include <errno.h>
#include <stddef.h>
#include <linux/notifier.h>

int raw_notifier_chain_register(struct raw_notifier_head *nh, struct notifier_block *nb)
{
	struct notifier_block **pp = &nh->head;

	for (struct notifier_block *p = nh->head; p; p = p->next)
		if (p == nb)
			return -EEXIST;
	while (*pp && (*pp)->priority >= nb->priority)
		pp = &(*pp)->next;
	nb->next = *pp;
	*pp = nb;
	return 0;
}

int raw_notifier_chain_unregister(struct raw_notifier_head *nh, struct notifier_block *nb)
{
	for (struct notifier_block **pp = &nh->head; *pp; pp = &(*pp)->next)
		if (*pp == nb) {
			*pp = nb->next;
			nb->next = NULL;
			return 0;
		}
	return -ENOENT;
}

int raw_notifier_call_chain(struct raw_notifier_head *nh, unsigned long val, void *v)
{
	int ret = NOTIFY_DONE;
	struct notifier_block *nb = nh->head, *next;

	while (nb) {
		/* Read next first: a callback may unregister itself. */
		next = nb->next;
		ret = nb->notifier_call(nb, val, v);
		if (ret & NOTIFY_STOP_MASK)
			break;
		nb = next;
	}
	return ret;
}
