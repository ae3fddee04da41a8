// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/bq25890/bq25890.c - the bq25890's registers over the charger model (see
 * bq25890.h for the source and what each register does). Register numbers, bit
 * positions, encodings and reset values are SLUSC86D section 9.5.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "models/bq25890/bq25890.h"

enum {
	REG00 = 0x00, REG01, REG02, REG03, REG04, REG05, REG06, REG07, REG08, REG09, REG0A,
	REG0B, REG0C, REG0D, REG0E, REG0F, REG10, REG11, REG12, REG13, REG14,
};

/* REG00 */
#define EN_HIZ        0x80
#define IINLIM_MASK   0x3f
/* REG02 */
#define CONV_START    0x80
#define ICO_EN        0x10
#define FORCE_DPDM    0x02
/* REG03 */
#define CHG_CONFIG    0x10
/* REG07 */
#define EN_TERM       0x80
#define EN_TIMER      0x08
/* REG09 */
#define FORCE_ICO     0x80
/* REG0D */
#define FORCE_VINDPM  0x80
/* REG14 */
#define REG_RST       0x80
#define ICO_OPTIMIZED 0x40

/* Reset values [SLUSC86D 9.5]. REG14: PN 011 (bq25890), TS_PROFILE 1 (JEITA);
 * DEV_REV 01 is assumed. */
static const uint8_t reset_values[BQ25890_NREGS] = {
	[REG00] = 0x48,   /* EN_ILIM, IINLIM 500 mA */
	[REG01] = 0x06,   /* VINDPM_OS 600 mV */
	[REG02] = 0x3d,   /* BOOST_FREQ, ICO_EN, HVDCP_EN, MAXC_EN, AUTO_DPDM_EN */
	[REG03] = 0x3a,   /* OTG_CONFIG, CHG_CONFIG, SYS_MIN 3.5 V */
	[REG04] = 0x20,   /* ICHG 2048 mA */
	[REG05] = 0x13,   /* IPRECHG 128 mA, ITERM 256 mA */
	[REG06] = 0x5e,   /* VREG 4.208 V, BATLOWV 3.0 V, VRECHG 100 mV */
	[REG07] = 0x9d,   /* EN_TERM, WATCHDOG 40 s, EN_TIMER, CHG_TIMER 12 h, JEITA_ISET */
	[REG08] = 0x03,   /* TREG 120 C */
	[REG09] = 0x44,   /* TMR2X_EN, BATFET_RST_EN */
	[REG0A] = 0x73,   /* BOOSTV 4.998 V, BOOST_LIM 1.3 A */
	[REG0D] = 0x12,   /* VINDPM 4.4 V (absolute value; relative mode by default) */
	[REG14] = 0x1d,
};

/* field encodings [SLUSC86D 9.5] */
#define IINLIM_A(code)   (0.1 + 0.05 * (code))
#define ICHG_A(code)     (0.064 * (code))
#define IPRE_A(code)     (0.064 + 0.064 * (code))
#define ITERM_A(code)    (0.064 + 0.064 * (code))
#define VREG_V(code)     (3.84 + 0.016 * (code))
#define SYSMIN_V(code)   (3.0 + 0.1 * (code))
#define VINDPM_V(code)   (2.6 + 0.1 * (code))
#define VINDPM_MIN_V     3.9      /* codes below it clamp here */
#define VINDPM_OS_V(code) (0.1 * (code))
#define BATV_OFFSET_V    2.304
#define BATV_LSB_V       0.02
#define VBUSV_OFFSET_V   2.6
#define VBUSV_LSB_V      0.1
#define ICHGR_LSB_A      0.05
#define TSPCT_OFFSET_PCT 21.0
#define TSPCT_LSB_PCT    0.465
static const double chg_timer_h[] = { 5, 8, 12, 20 };

/* The TS pin's divider: REGN - RT1 - TS - (RT2 || NTC) - GND, with the datasheet's
 * JEITA values RT1 = 5.23 kohm, RT2 = 30.1 kohm and a 103AT NTC (10 kohm at 25 C,
 * B = 3435 K) [SLUSC86D 9.2.7.5]. */
#define TS_RT1_OHM 5230.0
#define TS_RT2_OHM 30100.0
#define NTC_R25_OHM 10000.0
#define NTC_BETA_K 3435.0

static uint8_t code_of(double value, double offset, double lsb, uint8_t max)
{
	double c = floor((value - offset) / lsb + 1e-9);

	if (c < 0)
		return 0;
	return c > max ? max : (uint8_t)c;
}

/* The input limit D+/D- detection sets, A, and the VBUS_STAT code [SLUSC86D
 * 9.2.3.3.1]. */
static double detected_limit(enum phy_port port, uint8_t *stat)
{
	switch (port) {
	case PHY_PORT_SDP: *stat = 1; return 0.5;
	case PHY_PORT_CDP: *stat = 2; return 1.5;
	case PHY_PORT_DCP: *stat = 3; return 3.25;
	case PHY_PORT_APPLE_1A: *stat = 6; return 1.0;     /* divider 3 */
	case PHY_PORT_APPLE_2_1A: *stat = 6; return 2.1;   /* divider 1 */
	case PHY_PORT_SAMSUNG_2A: *stat = 6; return 2.0;   /* divider 2 */
	case PHY_PORT_APPLE_2_4A: *stat = 6; return 2.4;   /* divider 4 */
	case PHY_PORT_NONE: *stat = 0; return 0;
	default: *stat = 5; return 0.5;                    /* unknown adapter */
	}
}

/* ---- writes reaching the charger model ---- */

/* A write of REG00 that changes IINLIM, or a detection (force: the charger model's
 * limit went back to its reset value at the unplug before). */
static void apply_iinlim(struct bq25890 *c, bool force)
{
	double a = IINLIM_A(c->reg[REG00] & IINLIM_MASK);

	if (a == c->iinlim_a && !force)
		return;
	c->iinlim_a = a;
	pmic_write_iindpm_as(c->env.pmic, "bq25890", a);
}

static void apply_targets(struct bq25890 *c)
{
	struct pmic *p = c->env.pmic;
	uint8_t tmr = c->reg[REG07];

	p->p->ipre = IPRE_A(c->reg[REG05] >> 4);
	p->p->iterm = (tmr & EN_TERM) ? ITERM_A(c->reg[REG05] & 0x0f) : 0;
	p->p->vsys_min = SYSMIN_V((c->reg[REG03] >> 1) & 0x07);
	p->p->safety_timer = (tmr & EN_TIMER) ?
		(sim_time_t)(chg_timer_h[(tmr >> 1) & 0x03] * SIM_HOUR) : 0;
	/* the two setters below also tell the world that the charger changed */
	pmic_write_ichg(c->env.pmic, fmax(ICHG_A(c->reg[REG04] & 0x7f), 1e-3));
	pmic_write_vreg(c->env.pmic, VREG_V(c->reg[REG06] >> 2));
}

static void apply_switches(struct bq25890 *c)
{
	bool hiz = c->reg[REG00] & EN_HIZ;
	bool chg = c->reg[REG03] & CHG_CONFIG;

	if (hiz != c->env.pmic->hiz)
		pmic_set_hiz(c->env.pmic, hiz);
	if (chg != c->env.pmic->charge_enabled)
		pmic_set_charge_enable(c->env.pmic, chg);
}

/* VINDPM: the register's absolute value when forced, else VBUS before the converter
 * started minus VINDPM_OS; 3.9 V at least. */
static void apply_vindpm(struct bq25890 *c, double vbus_unloaded)
{
	double v;

	if (c->reg[REG0D] & FORCE_VINDPM)
		v = VINDPM_V(c->reg[REG0D] & 0x7f);
	else if (vbus_unloaded > 0)
		v = vbus_unloaded - VINDPM_OS_V(c->reg[REG01] & 0x1f);
	else
		return;
	v = fmax(v, VINDPM_MIN_V);
	c->reg[REG0D] = (uint8_t)((c->reg[REG0D] & FORCE_VINDPM) | code_of(v, 2.6, 0.1, 0x7f));
	pmic_write_vindpm(c->env.pmic, v);
}

static void start_ico(struct bq25890 *c)
{
	c->ico_pending = false;
	c->ico_ran = true;
	c->reg[REG14] &= (uint8_t)~ICO_OPTIMIZED;
	pmic_start_ico(c->env.pmic);
}

static void chip_reset(struct bq25890 *c)
{
	uint8_t keep0d = c->reg[REG0D];

	memcpy(c->reg, reset_values, sizeof(c->reg));
	/* VINDPM in relative mode keeps the threshold it measured */
	c->reg[REG0D] = (uint8_t)(keep0d & 0x7f);
	apply_iinlim(c, true);
	apply_targets(c);
	apply_switches(c);
}

void bq25890_init(struct bq25890 *c, const struct bq25890_env *env)
{
	memset(c, 0, sizeof(*c));
	c->env = *env;
	memcpy(c->reg, reset_values, sizeof(c->reg));
	c->iinlim_a = IINLIM_A(c->reg[REG00] & IINLIM_MASK);
	c->port = PHY_PORT_NONE;
	apply_targets(c);
	apply_switches(c);
}

/* ---- reads of status and measurements ---- */

static uint8_t status_reg(struct bq25890 *c)
{
	const struct pmic *p = c->env.pmic;
	uint8_t vbus_stat = 0, chrg = 0;

	if (c->vbus)
		detected_limit(c->port, &vbus_stat);
	switch (p->state) {
	case CHG_PRECHARGE: chrg = 1; break;
	case CHG_CC:
	case CHG_CV: chrg = 2; break;
	case CHG_DONE: chrg = 3; break;
	default: chrg = 0; break;
	}
	return (uint8_t)(vbus_stat << 5 | chrg << 3 | (p->connected ? 0x04 : 0) |
			 (c->port != PHY_PORT_NONE && c->vbus ? 0x02 : 0) |
			 ((p->last_flags & NET_F_SUPPLEMENT) ? 0x01 : 0));
}

static uint8_t faults_now(const struct bq25890 *c)
{
	const struct pmic *p = c->env.pmic;
	uint8_t chrg_fault = 0;

	if (p->fault)
		chrg_fault = 3;          /* safety timer expired */
	else if (p->uvlo && c->vbus)
		chrg_fault = 1;          /* input fault: VBUS below its minimum */
	return (uint8_t)(chrg_fault << 4);
}

static uint8_t ts_code(const struct bq25890 *c)
{
	double t = c->env.temp_c ? c->env.temp_c(c->env.ctx) : 25.0;
	double r_ntc = NTC_R25_OHM * exp(NTC_BETA_K * (1 / (t + 273.15) - 1 / 298.15));
	double r_low = TS_RT2_OHM * r_ntc / (TS_RT2_OHM + r_ntc);
	double pct = 100 * r_low / (TS_RT1_OHM + r_low);

	return code_of(pct, TSPCT_OFFSET_PCT, TSPCT_LSB_PCT, 0x7f);
}

int bq25890_read(struct bq25890 *c, uint8_t reg, uint8_t *val)
{
	const struct pmic *p = c->env.pmic;

	if (reg >= BQ25890_NREGS)
		return -ENXIO;
	switch (reg) {
	case REG0B:
		c->reg[REG0B] = status_reg(c);
		break;
	case REG0C:
		/* faults latch until read [SLUSC86D 9.5: REG0C] */
		c->reg[REG0C] = c->fault_latch | faults_now(c);
		c->fault_latch = 0;
		break;
	case REG0E:
	case REG0F:
		/* BATV; SYS (REG0F) follows the battery within the BATFET's drop (not in
		 * the model) */
		c->reg[reg] = code_of(c->env.adc(c->env.ctx, PMIC_ADC_VBAT), BATV_OFFSET_V,
				      BATV_LSB_V, 0x7f);
		break;
	case REG10:
		c->reg[REG10] = ts_code(c);
		break;
	case REG11: {
		double v = c->env.adc(c->env.ctx, PMIC_ADC_VBUS);

		c->reg[REG11] = (uint8_t)((c->vbus ? 0x80 : 0) |
					  (c->vbus ? code_of(v, VBUSV_OFFSET_V, VBUSV_LSB_V, 0x7f) : 0));
		break;
	}
	case REG12:
		c->reg[REG12] = code_of(fmax(c->env.adc(c->env.ctx, PMIC_ADC_IBAT), 0), 0,
					ICHGR_LSB_A, 0x7f);
		break;
	case REG13: {
		double lim = p->ico_running && p->ico_limit < p->iindpm ? p->ico_limit : p->iindpm;

		c->reg[REG13] = (uint8_t)(((p->last_flags & NET_F_VINDPM) ? 0x80 : 0) |
					  ((p->last_flags & NET_F_IINDPM) ? 0x40 : 0) |
					  code_of(lim, 0.1, 0.05, 0x3f));
		break;
	}
	default:
		break;
	}
	*val = c->reg[reg];
	return 0;
}

int bq25890_write(struct bq25890 *c, uint8_t reg, uint8_t val)
{
	if (reg >= BQ25890_NREGS)
		return -ENXIO;
	if (reg >= REG0B && reg <= REG13 && reg != REG0D)
		return 0;   /* read-only */
	if (reg == REG14) {
		if (val & REG_RST)
			chip_reset(c);   /* REG_RST reads back 0: the reset is immediate */
		return 0;
	}
	c->reg[reg] = val;
	switch (reg) {
	case REG00:
		apply_iinlim(c, false);
		apply_switches(c);
		break;
	case REG02:
		/* a one-shot conversion completes before the next access */
		c->reg[REG02] &= (uint8_t)~CONV_START;
		if (val & FORCE_DPDM) {
			c->reg[REG02] &= (uint8_t)~FORCE_DPDM;
			c->port = PHY_PORT_NONE;   /* detect again on the next update */
		}
		break;
	case REG03:
		apply_targets(c);
		apply_switches(c);
		break;
	case REG04:
	case REG05:
	case REG06:
	case REG07:
		apply_targets(c);
		break;
	case REG09:
		if (val & FORCE_ICO) {
			c->reg[REG09] &= (uint8_t)~FORCE_ICO;
			if (c->reg[REG02] & ICO_EN)
				start_ico(c);
		}
		break;
	case REG0D:
		if (val & FORCE_VINDPM)
			apply_vindpm(c, 0);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- following the world ---- */

void bq25890_update(struct bq25890 *c)
{
	const struct pmic *p = c->env.pmic;
	bool vbus = c->env.vbus(c->env.ctx);
	uint8_t st, faults;

	if (vbus && !c->vbus) {
		/* VBUS came: the chip measures it before its converter starts */
		apply_vindpm(c, c->env.vbus_now ? c->env.vbus_now(c->env.ctx) :
				c->env.adc(c->env.ctx, PMIC_ADC_VBUS));
	} else if (!vbus && c->vbus) {
		c->port = PHY_PORT_NONE;
		c->ico_pending = false;
		c->ico_ran = false;
		c->reg[REG14] &= (uint8_t)~ICO_OPTIMIZED;
	}
	c->vbus = vbus;
	if (vbus && c->port == PHY_PORT_NONE) {
		enum phy_port port = c->env.port(c->env.ctx);
		uint8_t stat;
		double lim = detected_limit(port, &stat);

		if (port != PHY_PORT_NONE) {
			/* detection done: IINLIM set for the port found, then ICO */
			c->port = port;
			c->reg[REG00] = (uint8_t)((c->reg[REG00] & ~IINLIM_MASK) |
						  code_of(lim, 0.1, 0.05, IINLIM_MASK));
			apply_iinlim(c, true);
			if (c->reg[REG02] & ICO_EN)
				c->ico_pending = true;
		}
	}
	if (c->ico_pending && p->connected)
		start_ico(c);
	if (c->ico_ran && !p->ico_running && p->connected)
		c->reg[REG14] |= ICO_OPTIMIZED;
	st = status_reg(c);
	faults = faults_now(c);
	c->fault_latch |= faults & (uint8_t)~c->last_faults;
	if (st != c->last_status || (faults & (uint8_t)~c->last_faults)) {
		c->last_status = st;
		c->last_faults = faults;
		if (c->env.irq)
			c->env.irq(c->env.ctx);   /* a 256 us INT pulse */
	}
	c->last_faults = faults;
}
