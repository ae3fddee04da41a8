/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * asm/iosf_mbi.h (chargesim) - on Intel Bay/Cherry Trail the SoC's power unit shares
 * the PMIC's I2C bus, and drivers block it around their transfers. The simulated bus
 * has no other master: blocking always succeeds at once.
 */
#ifndef CS_ASM_IOSF_MBI_H
#define CS_ASM_IOSF_MBI_H

static inline int iosf_mbi_block_punit_i2c_access(void)
{
	return 0;
}

static inline void iosf_mbi_unblock_punit_i2c_access(void)
{
}

#endif
