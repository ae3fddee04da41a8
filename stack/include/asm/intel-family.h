/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * asm/intel-family.h (chargesim) - the Intel CPU models the simulated machines have,
 * as family 6 model numbers (Linux 6.12's arch/x86/include/asm/intel-family.h; Intel's
 * CPUID model numbers): the Atom cores of the tablets the AXP288 PMIC sits in.
 */
#ifndef CS_ASM_INTEL_FAMILY_H
#define CS_ASM_INTEL_FAMILY_H

#include <asm/cpu_device_id.h>

#define IFM(family, model) VFM_MAKE(X86_VENDOR_INTEL, family, model)

#define INTEL_ATOM_SILVERMONT IFM(6, 0x37)   /* Bay Trail */
#define INTEL_ATOM_AIRMONT    IFM(6, 0x4C)   /* Cherry Trail */

#endif
