/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/list.h (chargesim) - the kernel's doubly linked circular list: a list is a
 * struct list_head whose next/prev point at itself when empty; an entry embeds a
 * struct list_head and is found from it with list_entry() (container_of).
 * list_add() inserts right after the head (a stack), list_add_tail() before it (a
 * queue). list_del() unlinks an entry and leaves its pointers unusable, as the
 * kernel's poisoning does (here NULL, so a use after list_del() faults at once).
 * struct list_head itself is in linux/kernel_types.h (the kernel's linux/types.h).
 * Names and semantics are the kernel's (include/linux/list.h, Linux 6.12); the code
 * is this project's.
 */
#ifndef CS_LINUX_LIST_H
#define CS_LINUX_LIST_H

#include <linux/kernel_types.h>

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

/* Link `entry` between two adjacent entries. */
static inline void __cs_list_link(struct list_head *entry, struct list_head *prev,
				  struct list_head *next)
{
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	prev->next = entry;
}

static inline void list_add(struct list_head *entry, struct list_head *head)
{
	__cs_list_link(entry, head, head->next);
}

static inline void list_add_tail(struct list_head *entry, struct list_head *head)
{
	__cs_list_link(entry, head->prev, head);
}

static inline void __cs_list_unlink(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
}

static inline void list_del(struct list_head *entry)
{
	__cs_list_unlink(entry);
	entry->next = NULL;
	entry->prev = NULL;
}

static inline void list_del_init(struct list_head *entry)
{
	__cs_list_unlink(entry);
	INIT_LIST_HEAD(entry);
}

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_last_entry(head, type, member) list_entry((head)->prev, type, member)
#define list_next_entry(pos, member) list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each_entry(pos, head, member) \
	for (pos = list_first_entry(head, __typeof__(*pos), member); &pos->member != (head); \
	     pos = list_next_entry(pos, member))
/* Safe against removing pos inside the loop: the next entry is taken first. */
#define list_for_each_entry_safe(pos, n, head, member) \
	for (pos = list_first_entry(head, __typeof__(*pos), member), \
	     n = list_next_entry(pos, member); \
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))

#endif
