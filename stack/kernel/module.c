// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/module.c - the module information real driver files register from
 * constructors (chargesim/linux_module.h): parameters with their initial values,
 * descriptions, exit functions. Filled before main() runs, read-only afterwards.
 */
#include <string.h>
#include <chargesim/linux_module.h>

static struct cs_modinfo *modinfo_head;
static struct cs_modinfo **modinfo_tail = &modinfo_head;

void cs_modinfo_register(struct cs_modinfo *mi)
{
	if (mi->kind == CS_MODINFO_PARAM && mi->size <= sizeof(mi->dflt))
		memcpy(mi->dflt, mi->arg, mi->size);
	mi->next = NULL;
	*modinfo_tail = mi;
	modinfo_tail = &mi->next;
}

const struct cs_modinfo *cs_modinfo_first(void)
{
	return modinfo_head;
}
