/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * asm/cpu_device_id.h (chargesim) - matching the machine's CPU against a driver's
 * table, as arch/x86/kernel/cpu/match.c does for the fields drivers fill with
 * X86_MATCH_VFM(): vendor, family and model, any stepping, any feature. The CPU is
 * the machine's (cs_kernel()->x86_vfm, set by an x86 machine's platform code); a
 * machine that is not x86 matches nothing.
 *
 * A VFM value packs vendor, family and model as Linux 6.12 does: model in bits 7:0,
 * family in bits 15:8, vendor in bits 23:16.
 */
#ifndef CS_ASM_CPU_DEVICE_ID_H
#define CS_ASM_CPU_DEVICE_ID_H

#include <linux/kernel_types.h>

#define X86_VENDOR_INTEL 0

#define VFM_MAKE(vendor, family, model) (((vendor) << 16) | ((family) << 8) | (model))
#define VFM_MODEL(vfm)  ((vfm) & 0xff)
#define VFM_FAMILY(vfm) (((vfm) >> 8) & 0xff)
#define VFM_VENDOR(vfm) (((vfm) >> 16) & 0xff)

#define X86_STEPPING_ANY 0
#define X86_FEATURE_ANY  0

struct x86_cpu_id {
	u16 vendor;
	u16 family;
	u16 model;
	u16 steppings;
	u16 feature;
	u16 flags;
	unsigned long driver_data;
};

/* flags: the entry is in use (a table ends with an all-zero entry) */
#define X86_CPU_ID_FLAG_ENTRY_VALID 1

#define X86_MATCH_VFM(vfm, data) {                                              \
	.vendor = VFM_VENDOR(vfm), .family = VFM_FAMILY(vfm), .model = VFM_MODEL(vfm), \
	.steppings = X86_STEPPING_ANY, .feature = X86_FEATURE_ANY,                      \
	.flags = X86_CPU_ID_FLAG_ENTRY_VALID, .driver_data = (unsigned long)(data) }

/* The first entry matching the machine's CPU, or NULL. */
const struct x86_cpu_id *x86_match_cpu(const struct x86_cpu_id *match);

#endif
