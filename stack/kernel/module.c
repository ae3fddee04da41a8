// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/module.c - the module information real driver files register from
 * constructors (chargesim/linux_module.h): parameters with their initial values,
 * descriptions, exit functions. The records of the binary's own drivers are filled
 * before main() runs; a policy plugin built from a kernel file adds its records when
 * it is loaded and its destructors take them off again when it is unloaded, so that
 * the list never points into an unmapped object.
 */
#include <string.h>
#include <glib.h>
#include <chargesim/linux_module.h>

static struct cs_modinfo *modinfo_head;
static struct cs_modinfo **modinfo_tail = &modinfo_head;
/* plugins may be loaded and unloaded by several threads (sweeps) */
G_LOCK_DEFINE_STATIC(modinfo);

void cs_modinfo_register(struct cs_modinfo *mi)
{
	if (mi->kind == CS_MODINFO_PARAM && mi->size <= sizeof(mi->dflt))
		memcpy(mi->dflt, mi->arg, mi->size);
	G_LOCK(modinfo);
	mi->next = NULL;
	*modinfo_tail = mi;
	modinfo_tail = &mi->next;
	G_UNLOCK(modinfo);
}

void cs_modinfo_unregister(struct cs_modinfo *mi)
{
	G_LOCK(modinfo);
	for (struct cs_modinfo **pp = &modinfo_head; *pp; pp = &(*pp)->next) {
		if (*pp != mi)
			continue;
		*pp = mi->next;
		if (modinfo_tail == &mi->next)
			modinfo_tail = pp;
		mi->next = NULL;
		break;
	}
	G_UNLOCK(modinfo);
}

const struct cs_modinfo *cs_modinfo_first(void)
{
	return modinfo_head;
}
