// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/twl4030_bci/twl4030_bci.c - the TWL4030 BCI registers over the charger
 * model (see twl4030_bci.h for the sources and what each register does).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "models/twl4030_bci/twl4030_bci.h"

/* BCI block (MAIN_CHARGE) register offsets [TRM BCI register map] */
#define BCIMDEN     0x00
#define BCIMDKEY    0x01
#define BCIMSTATEC  0x02
#define BCIICHG     0x08   /* + 0x09: 10-bit charge current ADC */
#define BCIVAC      0x0a   /* + 0x0b: AC voltage ADC */
#define BCIVBUS     0x0c   /* + 0x0d: VBUS ADC */
#define BCIMFKEY    0x11
#define BCIMFEN3    0x14
#define BCIMFTH8    0x1d
#define BCIMFTH9    0x1e
#define BCICTL1     0x23
#define BCIIREF1    0x27
#define BCIIREF2    0x28
/* INTERRUPTS block */
#define BCIISR1A    0x00
#define BCIISR2A    0x01
#define BCIIMR1A    0x02
#define BCIIMR2A    0x03
/* PM_MASTER block */
#define BOOT_BCI    0x07

/* bits */
#define CGAIN         0x20   /* BCICTL1: double current range, half the resolution */
#define BCIAUTOUSB    0x02   /* BOOT_BCI: charge from USB automatically */
#define ICHGLOW       0x08   /* BCIISR1A: charge current low / main FSM state change */
#define ICHGEOC       0x10   /* BCIISR1A: end of charge */
#define MSTATEC_USB   0x10   /* BCIMSTATEC: charging from USB */

/* BCIMFKEY values that unlock one write [as twl4030_charger.c writes them] */
#define MFKEY_IREF_MFTH9 0xE7
#define MFKEY_MFTH8      0xF4
#define MFKEY_MFEN3      0x9C
#define MDKEY_OFF        0x2A

/* Assumed BCIMSTATEC encodings (see twl4030_bci.h) */
#define MSTATE_NO_DEVICE 0x00
#define MSTATE_OFF       0x01
#define MSTATE_QUICK1    0x02   /* precharge */
#define MSTATE_QUICK2    0x03   /* constant current */
#define MSTATE_QUICK3    0x04   /* constant voltage */
#define MSTATE_COMPLETE1 0x0b
#define MSTATE_FAULT     0x0f

#define ADC_FULL_CODE 1023
#define VBUS_FULL_SCALE_V 7.0   /* ADCIN8: 7 V over 1023 codes */

double twl4030_bci_code_to_amps(unsigned int code, bool cgain)
{
	double a = code * 1.7 / ADC_FULL_CODE - 0.85;

	return cgain ? 2 * a : a;
}

/* The inverse for the current ADC, rounded to the nearest code. */
static unsigned int amps_to_code(double amps, bool cgain)
{
	double code = ((cgain ? amps / 2 : amps) + 0.85) * ADC_FULL_CODE / 1.7;

	if (code < 0)
		return 0;
	if (code > ADC_FULL_CODE)
		return ADC_FULL_CODE;
	return (unsigned int)lround(code);
}

static bool cgain(const struct twl4030_bci *c)
{
	return c->reg[TWL4030_BLOCK_MAIN_CHARGE][BCICTL1] & CGAIN;
}


static void apply_iref(struct twl4030_bci *c)
{
	unsigned int code = c->reg[TWL4030_BLOCK_MAIN_CHARGE][BCIIREF1] |
			    (c->reg[TWL4030_BLOCK_MAIN_CHARGE][BCIIREF2] & 0x03) << 8;
	double amps = fmax(twl4030_bci_code_to_amps(code, cgain(c)), 0);

	/* every write lands, also one of the value before an unplug reset the charger */
	c->iref_a = amps;
	pmic_write_iindpm_as(c->env.pmic, "twl4030", amps);
}

static void apply_input(struct twl4030_bci *c)
{
	bool autousb = c->reg[TWL4030_BLOCK_PM_MASTER][BOOT_BCI] & BCIAUTOUSB;
	bool hiz = !autousb || c->off_mode;

	if (hiz == c->hiz)
		return;
	c->hiz = hiz;
	/* no power path: with USB charging off the input carries nothing at all */
	pmic_set_hiz(c->env.pmic, hiz);
	pmic_set_charge_enable(c->env.pmic, !hiz);
}

void twl4030_bci_init(struct twl4030_bci *c, const struct twl4030_bci_env *env)
{
	unsigned int code = amps_to_code(env->pmic->iindpm, false);

	memset(c, 0, sizeof(*c));
	c->env = *env;
	/* reset values: interrupts masked, charging from USB not enabled, current
	 * reference at the charger model's reset value */
	c->reg[TWL4030_BLOCK_INTERRUPTS][BCIIMR1A] = 0xff;
	c->reg[TWL4030_BLOCK_INTERRUPTS][BCIIMR2A] = 0xff;
	c->reg[TWL4030_BLOCK_MAIN_CHARGE][BCIIREF1] = code & 0xff;
	c->reg[TWL4030_BLOCK_MAIN_CHARGE][BCIIREF2] = (code >> 8) & 0x03;
	c->iref_a = c->env.pmic->iindpm;
	apply_input(c);   /* BCIAUTOUSB clear: the input off */
	c->last_state = MSTATE_NO_DEVICE;
}

/* The ADC registers are filled when their low byte is read. */
static void sample_adc(struct twl4030_bci *c, uint8_t reg)
{
	unsigned int code = 0;

	if (reg == BCIVBUS) {
		double v = c->env.adc(c->env.ctx, PMIC_ADC_VBUS);

		code = (unsigned int)fmin(fmax(lround(v * ADC_FULL_CODE / VBUS_FULL_SCALE_V), 0),
					  ADC_FULL_CODE);
	} else if (reg == BCIICHG) {
		code = amps_to_code(c->env.adc(c->env.ctx, PMIC_ADC_IBAT), cgain(c));
	}
	c->reg[TWL4030_BLOCK_MAIN_CHARGE][reg] = code & 0xff;
	c->reg[TWL4030_BLOCK_MAIN_CHARGE][reg + 1] = (code >> 8) & 0x03;
}

static uint8_t main_state(const struct twl4030_bci *c)
{
	const struct pmic *p = c->env.pmic;

	if (!c->env.vbus(c->env.ctx))
		return MSTATE_NO_DEVICE;
	if (c->hiz || !p->connected)
		return p->uvlo ? MSTATE_FAULT : MSTATE_OFF;
	switch (p->state) {
	case CHG_PRECHARGE: return MSTATEC_USB | MSTATE_QUICK1;
	case CHG_CC: return MSTATEC_USB | MSTATE_QUICK2;
	case CHG_CV: return MSTATEC_USB | MSTATE_QUICK3;
	case CHG_DONE: return MSTATEC_USB | MSTATE_COMPLETE1;
	case CHG_FAULT:
	case CHG_UVLO: return MSTATEC_USB | MSTATE_FAULT;
	default: return MSTATE_OFF;
	}
}

int twl4030_bci_read(struct twl4030_bci *c, enum twl4030_bci_block b, uint8_t reg, uint8_t *val)
{
	if ((unsigned)b >= TWL4030_BLOCK_COUNT || reg >= TWL4030_BCI_BLOCK_SIZE)
		return -ENXIO;
	if (b == TWL4030_BLOCK_MAIN_CHARGE) {
		if (reg == BCIVBUS + 1 || reg == BCIICHG + 1 || reg == BCIVAC + 1) {
			/* the high byte starts a reading; the low byte then reads the same one */
			sample_adc(c, reg - 1);
			c->adc_latched = reg - 1;
		} else if (reg == BCIVBUS || reg == BCIICHG || reg == BCIVAC) {
			if (c->adc_latched != reg)
				sample_adc(c, reg);
			c->adc_latched = 0;
		} else if (reg == BCIMSTATEC)
			c->reg[b][reg] = main_state(c);
		else if (reg == BCIMDEN)
			c->reg[b][reg] = c->hiz ? 0 : 0x01;   /* bit 0: USB charging enabled */
	}
	*val = c->reg[b][reg];
	if (b == TWL4030_BLOCK_INTERRUPTS && (reg == BCIISR1A || reg == BCIISR2A)) {
		c->reg[b][reg] = 0;   /* clear on read */
		c->line = false;
	}
	return 0;
}

/* A write to a key-protected register: taken only right after its key. */
static bool unlocked(struct twl4030_bci *c, uint8_t reg)
{
	uint8_t key = c->mfkey;

	c->mfkey = 0;
	switch (reg) {
	case BCIIREF1:
	case BCIIREF2:
	case BCIMFTH9: return key == MFKEY_IREF_MFTH9;
	case BCIMFTH8: return key == MFKEY_MFTH8;
	case BCIMFEN3: return key == MFKEY_MFEN3;
	default: return true;
	}
}

int twl4030_bci_write(struct twl4030_bci *c, enum twl4030_bci_block b, uint8_t reg, uint8_t val)
{
	if ((unsigned)b >= TWL4030_BLOCK_COUNT || reg >= TWL4030_BCI_BLOCK_SIZE)
		return -ENXIO;
	if (b == TWL4030_BLOCK_MAIN_CHARGE) {
		switch (reg) {
		case BCIMFKEY:
			c->mfkey = val;
			return 0;
		case BCIMDKEY:
			if (val == MDKEY_OFF)
				c->off_mode = true;
			c->reg[b][reg] = val;
			apply_input(c);
			return 0;
		case BCIMSTATEC:
		case BCIVBUS:
		case BCIVBUS + 1:
		case BCIICHG:
		case BCIICHG + 1:
			return 0;   /* read-only */
		default:
			if (!unlocked(c, reg))
				return 0;   /* the chip ignores a protected write without its key */
			c->reg[b][reg] = val;
			/* the 10-bit reference takes effect with its low byte, written last */
			if (reg == BCIIREF1 || reg == BCICTL1)
				apply_iref(c);
			return 0;
		}
	}
	if (b == TWL4030_BLOCK_INTERRUPTS && (reg == BCIISR1A || reg == BCIISR2A)) {
		c->reg[b][reg] &= (uint8_t)~val;   /* write 1 to clear as well */
		return 0;
	}
	if (b == TWL4030_BLOCK_PM_MASTER && reg == BOOT_BCI) {
		bool was = c->reg[b][reg] & BCIAUTOUSB;

		c->reg[b][reg] = val;
		if (!was && (val & BCIAUTOUSB))
			c->off_mode = false;   /* automatic USB charging restarts the FSM */
		apply_input(c);
		return 0;
	}
	c->reg[b][reg] = val;
	return 0;
}

void twl4030_bci_update(struct twl4030_bci *c)
{
	uint8_t st = main_state(c);
	uint8_t *isr1 = &c->reg[TWL4030_BLOCK_INTERRUPTS][BCIISR1A];
	uint8_t imr1 = c->reg[TWL4030_BLOCK_INTERRUPTS][BCIIMR1A];
	uint8_t imr2 = c->reg[TWL4030_BLOCK_INTERRUPTS][BCIIMR2A];
	uint8_t isr2 = c->reg[TWL4030_BLOCK_INTERRUPTS][BCIISR2A];
	bool level;

	if (st != c->last_state) {
		*isr1 |= ICHGLOW;
		if ((st & 0x0f) == MSTATE_COMPLETE1 && (c->last_state & 0x0f) != MSTATE_COMPLETE1)
			*isr1 |= ICHGEOC;
		c->last_state = st;
	}
	level = (*isr1 & (uint8_t)~imr1) || (isr2 & (uint8_t)~imr2);
	if (level && !c->line && c->env.irq_bci)
		c->env.irq_bci(c->env.ctx);
	c->line = level;
}
