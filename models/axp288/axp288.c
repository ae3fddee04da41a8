// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/axp288/axp288.c - the AXP288's charger registers over the charger model
 * (see axp288.h for the sources of the register layout).
 */
#include <math.h>
#include <string.h>
#include "models/axp288/axp288.h"

#define PWR_INPUT_STATUS 0x00
#define PWR_OP_MODE      0x01
#define VBUS_IPSOUT_MGMT 0x30
#define CHRG_CTRL1       0x33
#define CHRG_BAK_CTRL    0x35
#define CC_CTRL          0xb8

#define PATH_DIS   0x80
#define CHG_EN     0x80
#define ITERM_20P  0x10

static const double ipsout_lim_a[] = { 0.9, 1.5, 2.0, 2.5 };
static const double bak_lim_a[] = { 0.1, 0.5, 0.9, 1.5, 2.0, 2.5, 3.0, 3.5 };   /* 8+: 4.0 */
static const double cv_v[] = { 4.10, 4.15, 4.20, 4.35 };

#define VHOLD_V(code) (4.0 + 0.1 * (code))
#define CC_A(code)    (0.2 + 0.2 * (code))

/* Registers to the charger model; the limit also after an unplug reset it. */
static void apply(struct axp288 *c)
{
	struct pmic *p = c->env.pmic;
	uint8_t c1 = c->reg[CHRG_CTRL1];
	unsigned int bak = c->reg[CHRG_BAK_CTRL] >> 4;
	double ichg = CC_A(c1 & 0x0f);
	/* the input limit: the lower of the two VBUS limits */
	double lim = fmin(ipsout_lim_a[c->reg[VBUS_IPSOUT_MGMT] & 0x03],
			  bak < 8 ? bak_lim_a[bak] : 4.0);
	bool hiz = c->reg[VBUS_IPSOUT_MGMT] & PATH_DIS;

	p->p->iterm = ichg * ((c1 & ITERM_20P) ? 0.2 : 0.1);
	if (p->p->ichg != ichg)
		pmic_write_ichg(p, ichg);
	if (p->p->vreg != cv_v[(c1 >> 5) & 0x03])
		pmic_write_vreg(p, cv_v[(c1 >> 5) & 0x03]);
	if (p->p->vindpm != VHOLD_V((c->reg[VBUS_IPSOUT_MGMT] >> 3) & 0x07))
		pmic_write_vindpm(p, VHOLD_V((c->reg[VBUS_IPSOUT_MGMT] >> 3) & 0x07));
	if (p->charge_enabled != !!(c1 & CHG_EN))
		pmic_set_charge_enable(p, c1 & CHG_EN);
	if (p->hiz != hiz)
		pmic_set_hiz(p, hiz);
	if (lim != c->ilim_applied || (p->reg_n == 0 && p->iindpm != pmic_quantize_iindpm(p->p, lim))) {
		c->ilim_applied = lim;
		pmic_write_iindpm_as(p, "axp288", lim);
	}
}

/* The largest field value at or below x in an ascending table. */
static uint8_t floor_index(const double *tab, int n, double x)
{
	int i = 0;

	while (i + 1 < n && tab[i + 1] <= x + 1e-9)
		i++;
	return (uint8_t)i;
}

void axp288_init(struct axp288 *c, const struct axp288_env *env, double vreg_v, double ichg_a)
{
	int cc = (int)floor((ichg_a - 0.2) / 0.2 + 1e-9);

	memset(c, 0, sizeof(*c));
	c->env = *env;
	c->ilim_applied = -1;
	c->reg[VBUS_IPSOUT_MGMT] = 0x04 << 3 | 0x03;       /* VHOLD 4.4 V, no current limit */
	c->reg[CHRG_CTRL1] = (uint8_t)(CHG_EN | floor_index(cv_v, 4, vreg_v) << 5 |
				       (cc < 0 ? 0 : cc > 15 ? 15 : cc));
	c->reg[CHRG_BAK_CTRL] = 0x01 << 4;                 /* 500 mA */
	c->reg[CC_CTRL] = 0xc0;                            /* fuel gauge running */
	c->last_state = CHG_OFF;
	apply(c);
}

int axp288_read(struct axp288 *c, uint8_t reg, uint8_t *val)
{
	const struct pmic *p = c->env.pmic;
	bool vbus = c->env.vbus(c->env.ctx);

	if (reg == PWR_INPUT_STATUS) {
		c->reg[reg] = (uint8_t)((vbus ? 0x20 : 0) | (vbus && p->connected ? 0x10 : 0) |
					(c->env.adc(c->env.ctx, PMIC_ADC_IBAT) > 0 ? 0x04 : 0));
	} else if (reg == PWR_OP_MODE) {
		bool charging = p->state == CHG_PRECHARGE || p->state == CHG_CC || p->state == CHG_CV;

		c->reg[reg] = (uint8_t)((charging ? 0x40 : 0) | 0x20 | 0x10 | (p->fault ? 0x08 : 0));
	}
	*val = c->reg[reg];
	return 0;
}

int axp288_write(struct axp288 *c, uint8_t reg, uint8_t val)
{
	if (reg == PWR_INPUT_STATUS || reg == PWR_OP_MODE)
		return 0;   /* status: read-only */
	c->reg[reg] = val;
	if (reg == VBUS_IPSOUT_MGMT || reg == CHRG_CTRL1 || reg == CHRG_BAK_CTRL)
		apply(c);
	return 0;
}

void axp288_update(struct axp288 *c)
{
	const struct pmic *p = c->env.pmic;
	bool charging = p->state == CHG_PRECHARGE || p->state == CHG_CC || p->state == CHG_CV;
	bool was = c->last_state == CHG_PRECHARGE || c->last_state == CHG_CC ||
		   c->last_state == CHG_CV;

	apply(c);
	if (charging && !was && c->env.irq)
		c->env.irq(c->env.ctx, AXP288_IRQ_CHARGING);
	if (p->state == CHG_DONE && c->last_state != CHG_DONE && c->env.irq)
		c->env.irq(c->env.ctx, AXP288_IRQ_DONE);
	if (p->fault != c->last_fault && c->env.irq)
		c->env.irq(c->env.ctx, p->fault ? AXP288_IRQ_SAFE_ENTER : AXP288_IRQ_SAFE_QUIT);
	c->last_state = p->state;
	c->last_fault = p->fault;
}
