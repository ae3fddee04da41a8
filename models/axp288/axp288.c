// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/axp288/axp288.c - the AXP288's charger, power-source and BC1.2 detection
 * registers over the charger model and the data lines (see axp288.h for the sources
 * of the register layout and what is assumed).
 */
#include <math.h>
#include <string.h>
#include "models/axp288/axp288.h"
#include "sim/evlog.h"

#define PS_STAT          0x00
#define PWR_OP_MODE      0x01
#define PS_BOOT_REASON   0x02
#define BC_GLOBAL        0x2c
#define BC_VBUS_CNTL     0x2d
#define BC_USB_STAT      0x2e
#define BC_DET_STAT      0x2f
#define VBUS_IPSOUT_MGMT 0x30
#define CHRG_CTRL1       0x33
#define CHRG_BAK_CTRL    0x35
#define IRQ1_EN          0x40
#define IRQ1_STATE       0x48
#define IRQ_BANKS        6
#define CC_CTRL          0xb8

#define PS_VBUS_PRESENT  0x20
#define PS_VBUS_VALID    0x10
#define PS_CHRG_DIR      0x04

#define BC_RUN           0x01
#define BC_BUSY          0x04   /* DET_STAT: detection under way */
#define BC_DCD_TOUT(reg) (((reg) >> 5) & 0x03)
#define DET_SHIFT        5

#define PATH_DIS   0x80
#define CHG_EN     0x80
#define ITERM_20P  0x10

static const double ipsout_lim_a[] = { 0.9, 1.5, 2.0, 2.5 };
static const double bak_lim_a[] = { 0.1, 0.5, 0.9, 1.5, 2.0, 2.5, 3.0, 3.5 };   /* 8+: 4.0 */
static const double cv_v[] = { 4.10, 4.15, 4.20, 4.35 };
/* BC_GLOBAL bits 6:5 (extcon-axp288.c's BC_GLOBAL_DCD_TOUT_*) */
static const sim_time_t dcd_timeout[] = { 300 * SIM_MS, 100 * SIM_MS, 500 * SIM_MS, 900 * SIM_MS };
static const char *const bc_result_names[] = { "none", "sdp", "cdp", "dcp" };

#define VHOLD_V(code) (4.0 + 0.1 * (code))
#define CC_A(code)    (0.2 + 0.2 * (code))

enum { BC_IDLE, BC_DCD, BC_PRIMARY, BC_SECONDARY, BC_DONE };

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

/* An interrupt: its state bit set (until written 1 to clear), the line raised. */
static void raise_irq(struct axp288 *c, enum axp288_irq irq)
{
	c->reg[IRQ1_STATE + irq / 8] |= (uint8_t)(1u << (irq % 8));
	if (c->env.irq)
		c->env.irq(c->env.ctx, irq);
}

static bool vbus_valid(const struct axp288 *c)
{
	return c->env.vbus(c->env.ctx) && c->env.pmic->connected;
}

/* ---- the BC module: BC1.2 detection on the data lines ---- */

static void bc_log(struct axp288 *c, const char *step, const char *key, double v,
		   const char *result)
{
	cJSON *rec = evlog_begin(c->env.log, sim_now(c->env.sim), "axp288", "bc_step");

	evlog_put_string(rec, "step", step);
	if (key)
		evlog_put_number(rec, key, floor(v * 1e4 + 0.5) / 1e4);
	evlog_put_string(rec, "result", result);
	evlog_end(c->env.log, rec);
}

static void bc_next(struct axp288 *c, int stage, sim_time_t at)
{
	c->bc_stage = stage;
	sim_reschedule(c->env.sim, &c->ev_bc, at);
}

/* A detection starts: no result until it is done. Data contact detect waits for D+
 * to read low for TDCD_DBNC, or gives up after BC_GLOBAL's timeout and goes on. */
static void bc_start(struct axp288 *c)
{
	const struct phy *ph = c->env.phy;
	sim_time_t now = sim_now(c->env.sim);
	sim_time_t timeout = now + dcd_timeout[BC_DCD_TOUT(c->reg[BC_GLOBAL])];
	sim_time_t low = phy_bc12_dcd_low_at(ph);
	sim_time_t contact = low == SIM_TIME_NEVER ? SIM_TIME_NEVER :
			     (low > now ? low : now) + ph->p->t_dcd_dbnc;

	c->reg[BC_GLOBAL] |= BC_BUSY;
	c->reg[BC_DET_STAT] &= (uint8_t)~(0x07 << DET_SHIFT);
	c->bc_result = AXP288_BC_NONE;
	c->bc_contact = contact < timeout;
	bc_next(c, BC_DCD, c->bc_contact ? contact : timeout);
}

static void bc_stop(struct axp288 *c)
{
	sim_cancel(c->env.sim, &c->ev_bc);
	c->bc_stage = BC_IDLE;
	c->reg[BC_GLOBAL] &= (uint8_t)~BC_BUSY;
}

static void bc_step_cb(struct sim_event *ev, void *data)
{
	struct axp288 *c = data;
	const struct phy *ph = c->env.phy;
	sim_time_t now = sim_now(c->env.sim);
	double v;

	(void)ev;
	switch (c->bc_stage) {
	case BC_DCD:
		bc_log(c, "dcd", NULL, 0, c->bc_contact ? "contact" : "timeout");
		bc_next(c, BC_PRIMARY, now + ph->p->t_vdpsrc_on);
		break;
	case BC_PRIMARY:
		/* VDP_SRC on D+: D- below VDAT_REF is an SDP, else a CDP or a DCP */
		v = phy_bc12_primary_dm(ph);
		bc_log(c, "primary", "dm_V", v, v < ph->p->vdat_ref ? "sdp" : "cdp_or_dcp");
		if (v < ph->p->vdat_ref) {
			c->bc_result = AXP288_BC_SDP;
			bc_next(c, BC_DONE, now + ph->p->t_margin);
		} else {
			bc_next(c, BC_SECONDARY, now + ph->p->t_vdmsrc_on);
		}
		break;
	case BC_SECONDARY:
		/* VDM_SRC on D-: D+ above VDAT_REF is a DCP (D+ and D- shorted), else a CDP */
		v = phy_bc12_secondary_dp(ph);
		c->bc_result = v > ph->p->vdat_ref ? AXP288_BC_DCP : AXP288_BC_CDP;
		bc_log(c, "secondary", "dp_V", v, bc_result_names[c->bc_result]);
		bc_next(c, BC_DONE, now + ph->p->t_margin);
		break;
	case BC_DONE:
		c->bc_stage = BC_IDLE;
		c->reg[BC_DET_STAT] = (uint8_t)((c->reg[BC_DET_STAT] & 0x1f) |
						c->bc_result << DET_SHIFT);
		c->reg[BC_GLOBAL] &= (uint8_t)~BC_BUSY;
		bc_log(c, "done", NULL, 0, bc_result_names[c->bc_result]);
		raise_irq(c, AXP288_IRQ_BC_USB_CHNG);
		break;
	}
}

/* ---- registers ---- */

void axp288_init(struct axp288 *c, const struct axp288_env *env, double vreg_v, double ichg_a)
{
	int cc = (int)floor((ichg_a - 0.2) / 0.2 + 1e-9);

	memset(c, 0, sizeof(*c));
	c->env = *env;
	c->ilim_applied = -1;
	sim_event_init(&c->ev_bc, bc_step_cb, c);
	c->reg[VBUS_IPSOUT_MGMT] = 0x04 << 3 | 0x03;       /* VHOLD 4.4 V, no current limit */
	c->reg[CHRG_CTRL1] = (uint8_t)(CHG_EN | floor_index(cv_v, 4, vreg_v) << 5 |
				       (cc < 0 ? 0 : cc > 15 ? 15 : cc));
	c->reg[CHRG_BAK_CTRL] = 0x01 << 4;                 /* 500 mA */
	c->reg[CC_CTRL] = 0xc0;                            /* fuel gauge running */
	c->last_state = CHG_OFF;
	apply(c);
}

void axp288_cleanup(struct axp288 *c)
{
	if (c->env.sim)
		sim_cancel(c->env.sim, &c->ev_bc);
}

int axp288_read(struct axp288 *c, uint8_t reg, uint8_t *val)
{
	const struct pmic *p = c->env.pmic;

	if (reg == PS_STAT) {
		bool vbus = c->env.vbus(c->env.ctx);

		c->reg[reg] = (uint8_t)((vbus ? PS_VBUS_PRESENT : 0) |
					(vbus_valid(c) ? PS_VBUS_VALID : 0) |
					(c->env.adc(c->env.ctx, PMIC_ADC_IBAT) > 0 ? PS_CHRG_DIR : 0));
	} else if (reg == PWR_OP_MODE) {
		bool charging = p->state == CHG_PRECHARGE || p->state == CHG_CC || p->state == CHG_CV;

		c->reg[reg] = (uint8_t)((charging ? 0x40 : 0) | 0x20 | 0x10 | (p->fault ? 0x08 : 0));
	}
	*val = c->reg[reg];
	return 0;
}

/* RUN going from 0 to 1 with VBUS valid starts a detection, 1 to 0 stops one. */
static void write_bc_global(struct axp288 *c, uint8_t val)
{
	bool was = c->reg[BC_GLOBAL] & BC_RUN, run = val & BC_RUN;

	/* DET_STAT is the module's status, not the writer's */
	c->reg[BC_GLOBAL] = (uint8_t)((val & ~BC_BUSY) | (c->reg[BC_GLOBAL] & BC_BUSY));
	if (was && !run)
		bc_stop(c);
	else if (!was && run && vbus_valid(c))
		bc_start(c);
}

int axp288_write(struct axp288 *c, uint8_t reg, uint8_t val)
{
	switch (reg) {
	case PS_STAT:
	case PWR_OP_MODE:
	case BC_USB_STAT:
	case BC_DET_STAT:
		return 0;   /* status: read-only */
	case PS_BOOT_REASON:
		c->reg[reg] &= (uint8_t)~val;   /* written 1 to clear */
		return 0;
	case BC_GLOBAL:
		write_bc_global(c, val);
		return 0;
	default:
		break;
	}
	if (reg >= IRQ1_STATE && reg < IRQ1_STATE + IRQ_BANKS) {
		c->reg[reg] &= (uint8_t)~val;   /* written 1 to clear */
		return 0;
	}
	c->reg[reg] = val;
	if (reg == VBUS_IPSOUT_MGMT || reg == CHRG_CTRL1 || reg == CHRG_BAK_CTRL)
		apply(c);
	return 0;
}

/* VBUS valid rising: the interrupt, then a detection if RUN is set; falling: the
 * detection stops, its result goes, then the interrupt. */
static void follow_vbus(struct axp288 *c)
{
	bool valid = vbus_valid(c);

	if (valid == c->vbus_valid)
		return;
	c->vbus_valid = valid;
	if (valid) {
		raise_irq(c, AXP288_IRQ_VBUS_RISE);
		if (c->reg[BC_GLOBAL] & BC_RUN)
			bc_start(c);
	} else {
		bc_stop(c);
		c->reg[BC_DET_STAT] &= (uint8_t)~(0x07 << DET_SHIFT);
		c->bc_result = AXP288_BC_NONE;
		raise_irq(c, AXP288_IRQ_VBUS_FALL);
	}
}

void axp288_update(struct axp288 *c)
{
	const struct pmic *p = c->env.pmic;
	bool charging = p->state == CHG_PRECHARGE || p->state == CHG_CC || p->state == CHG_CV;
	bool was = c->last_state == CHG_PRECHARGE || c->last_state == CHG_CC ||
		   c->last_state == CHG_CV;

	apply(c);
	follow_vbus(c);
	if (charging && !was)
		raise_irq(c, AXP288_IRQ_CHARGING);
	if (p->state == CHG_DONE && c->last_state != CHG_DONE)
		raise_irq(c, AXP288_IRQ_DONE);
	if (p->fault != c->last_fault)
		raise_irq(c, p->fault ? AXP288_IRQ_SAFE_ENTER : AXP288_IRQ_SAFE_QUIT);
	c->last_state = p->state;
	c->last_fault = p->fault;
}
