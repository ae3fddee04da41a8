/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/twl4030_bci/twl4030_bci.h - the TWL4030 / TPS65950 Battery Charger
 * Interface (BCI) at register level, as a view of the charger model (models/pmic).
 *
 * Source: TPS65950 OMAP Power Management and System Companion Device, Technical
 * Reference Manual (TI SWCU050), chapter "Battery Charger Interface": the BCI register
 * block (BCIMDEN, BCIMDKEY, BCIMSTATEC, BCIICHG, BCIVAC, BCIVBUS, BCIMFSTS3/4,
 * BCIMFKEY, BCIMFEN3, BCIMFTH8/9, BCIWDKEY, BCICTL1, BCIIREF1/2), the BCI interrupt
 * registers of the INTERRUPTS module (BCIISR1A/2A, BCIIMR1A/2A), PM_MASTER's BOOT_BCI
 * and PM_RECEIVER's BB_CFG. The register offsets are the ones Linux's
 * twl4030_charger.c and include/linux/mfd/twl.h use; the current formula of the
 * reference and ADC registers is TI's, quoted in twl4030_charger.c:
 *   CGAIN = 0: I = code * 1.7 A / 1023 - 0.85 A;  CGAIN = 1: I = code * 3.4 A / 1023 - 1.7 A
 * and BCIVBUS counts 7 V / 1023 per code (ADCIN8).
 *
 * What the registers do here:
 *  - BCIIREF1/2 (10 bits, written under the BCIMFKEY 0xE7 one-write key) and CGAIN
 *    (BCICTL1 bit 5) set the USB charge current reference: it is written to the
 *    charger model's input limit (pmic_write_iindpm), the only current limit a
 *    linear charger without a power path has. The new value takes effect with the
 *    write of its low byte, BCIIREF1 (assumed: the driver writes it last);
 *  - BOOT_BCI.BCIAUTOUSB enables charging from USB; cleared, or after BCIMDKEY
 *    0x2A ("off mode"), the charger's input and charging are switched off
 *    (pmic_set_hiz, pmic_set_charge_enable: the chip has no power path);
 *  - BCIVBUS and BCIICHG read the charger model's ADC (its resolution, noise and
 *    stuck faults): reading a pair's high byte takes a reading, and the low byte read
 *    next returns the same one (assumed latching; the driver reads high then low);
 *  - BCIMSTATEC follows the charger's state (assumed encoding, consistent with how
 *    twl4030_charger.c decodes it: bit 4 USB charging, 0x02-0x07 the QUICK charge
 *    states, 0x0B the first COMPLETE state; the TRM's full state list is not modelled);
 *  - BCIISR1A gets ICHGLOW on every main-FSM state change and ICHGEOC at end of
 *    charge; an unmasked status bit asserts the BCI interrupt line. The status
 *    registers clear when read (the twl4030 core configures its secondary interrupt
 *    handlers clear-on-read).
 * Everything else reads back what was written. The AC charger input is not
 * modelled: BCIVAC reads 0 V.
 */
#ifndef CS_MODELS_TWL4030_BCI_H
#define CS_MODELS_TWL4030_BCI_H

#include <stdbool.h>
#include <stdint.h>
#include "models/pmic/pmic.h"

/* The four register blocks the BCI driver uses. */
enum twl4030_bci_block {
	TWL4030_BLOCK_MAIN_CHARGE,   /* the BCI registers */
	TWL4030_BLOCK_INTERRUPTS,    /* BCIISR/BCIIMR */
	TWL4030_BLOCK_PM_MASTER,     /* BOOT_BCI */
	TWL4030_BLOCK_PM_RECEIVER,   /* BB_CFG */
	TWL4030_BLOCK_COUNT
};

#define TWL4030_BCI_BLOCK_SIZE 0x40

/* What the chip model needs from the world around it. */
struct twl4030_bci_env {
	struct pmic *pmic;
	struct evlog *log;
	struct sim *sim;
	/* The ADC's reading of a channel now (the charger model's ADC applied), in V or A. */
	double (*adc)(void *ctx, enum pmic_adc_chan ch);
	/* Is VBUS present at the USB input (the PHY's comparator)? */
	bool (*vbus)(void *ctx);
	/* The BCI interrupt line was asserted. */
	void (*irq_bci)(void *ctx);
	void *ctx;
};

struct twl4030_bci {
	struct twl4030_bci_env env;
	uint8_t reg[TWL4030_BLOCK_COUNT][TWL4030_BCI_BLOCK_SIZE];
	uint8_t mfkey;            /* last BCIMFKEY write: unlocks one protected write */
	bool off_mode;            /* BCIMDKEY 0x2A */
	bool hiz;                 /* what the charger model was last told */
	double iref_a;            /* current reference in effect */
	uint8_t last_state;       /* BCIMSTATEC when last looked at */
	uint8_t adc_latched;      /* ADC pair whose high byte was just read (0: none) */
	bool line;                /* the BCI interrupt line's level */
};

void twl4030_bci_init(struct twl4030_bci *c, const struct twl4030_bci_env *env);
/* A register read or write in one block: 0, or -ENXIO for a register outside it. */
int twl4030_bci_read(struct twl4030_bci *c, enum twl4030_bci_block b, uint8_t reg, uint8_t *val);
int twl4030_bci_write(struct twl4030_bci *c, enum twl4030_bci_block b, uint8_t reg, uint8_t val);
/* The world has settled: follow the charger model's state, assert the interrupt. */
void twl4030_bci_update(struct twl4030_bci *c);
/* The reference current of a 10-bit code (A), for tests. */
double twl4030_bci_code_to_amps(unsigned int code, bool cgain);

#endif
