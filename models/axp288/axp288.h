/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/axp288/axp288.h - the X-Powers AXP288 PMIC's charger, power-source and BC1.2
 * detection registers, as a view of the charger model (models/pmic) and of the USB
 * data lines (models/phy's readings).
 *
 * Sources. The AXP288 datasheet (X-Powers, "AXP288 Datasheet", Rev. 1.07, 2014-06-24;
 * given to Intel's tablet makers, not published by X-Powers) names the registers; the
 * field encodings here are the ones Linux 6.12 uses for this chip, read as facts about
 * the hardware: include/linux/mfd/axp20x.h (register and interrupt numbers),
 * drivers/mfd/axp20x.c (the interrupt registers and bits), drivers/power/supply/
 * axp288_charger.c (charger fields) and drivers/extcon/extcon-axp288.c (power-source
 * and BC1.2 fields):
 *   PS_STAT 0x00: bit 5 VBUS present, bit 4 VBUS valid (usable), bit 2 battery
 *     charging direction; PWR_OP_MODE 0x01: bit 6 charging, bit 5 battery present,
 *     bit 4 battery valid, bit 3 safe mode (timer expired);
 *   PS_BOOT_REASON 0x02: why the PMIC last woke or shut down, one bit each, written 1
 *     to clear;
 *   BC_GLOBAL 0x2C: bit 0 RUN (detection enabled), bit 2 DET_STAT (a detection is
 *     under way: no result to read), bit 3 dead-battery timeout, bit 4 VLGC comparator
 *     select, bits 6:5 data contact detect timeout 300 / 100 / 500 / 900 ms, bit 7 DCD
 *     detection select;
 *   BC_VBUS_CNTL 0x2D: bit 4 DPDM_PD_EN (D+/D- pull-downs), bit 5 DPDM_FD_EN, bit 6
 *     FIRST_PO_STAT (first power-on status); BC_USB_STAT 0x2E: bits 3:0 the USB bus state (attached,
 *     connected, suspended, configured), bit 4 SuperSpeed, bit 6 dead battery, bit 7
 *     dead-battery unconfigured;
 *   BC_DET_STAT 0x2F: bits 7:5 the BC1.2 result, 1 SDP, 2 CDP, 3 DCP (0 none; 4-7
 *     reserved);
 *   VBUS_IPSOUT_MGMT 0x30: bits 1:0 VBUS current limit 900 / 1500 / 2000 / 2500 mA
 *     (no limit), bits 5:3 VHOLD 4.0 V + 100 mV per step, bit 7 VBUS path disabled;
 *   CHRG_CTRL1 0x33: bits 3:0 charge current 200 mA + 200 mA per step, bit 4 end of
 *     charge at 20 % (else 10 %) of it, bits 6:5 charge voltage 4.10 / 4.15 / 4.20 /
 *     4.35 V, bit 7 charging enabled;
 *   CHRG_BAK_CTRL 0x35: bits 7:4 the input current limit BC1.2 detection sets,
 *     100 / 500 / 900 / 1500 / 2000 / 2500 / 3000 / 3500 / 4000 mA;
 *   IRQ1_EN..IRQ6_EN 0x40-0x45, IRQ1_STATE..IRQ6_STATE 0x48-0x4D: interrupt n is bit
 *     n % 8 of register n / 8 (the regmap-irq chip's numbering), its state written 1
 *     to clear;
 *   CC_CTRL 0xB8: fuel-gauge control (non-zero while the fuel gauge runs).
 * The charger model's input limit is the lower of the two VBUS limits; VHOLD is its
 * input voltage loop.
 *
 * The BC module runs the detection of the USB Battery Charging Specification 1.2
 * (section 3.2: data contact detect, primary detection, secondary detection) on the
 * data lines as models/phy reads them with the PHY's analog front end (device.phy:
 * VDP_SRC, VDAT_REF, IDM_SINK, TDCD_DBNC, TVDPSRC_ON, TVDMSRC_ON), with the data
 * contact detect timeout of BC_GLOBAL: on each rise of VBUS valid while RUN is set,
 * and when RUN goes from 0 to 1 with VBUS valid. DET_STAT stays set until the result
 * is in BC_DET_STAT; then the BC interrupt fires. A falling VBUS valid stops it and
 * clears the result. Without a VLGC comparison (BC_GLOBAL bit 4 clear, its reset value
 * and Linux's setting) a proprietary divider's D- (2.0 to 2.7 V) is above VDAT_REF in
 * primary detection and its D+ above it in secondary detection: the module reports a
 * DCP, as BC1.2's logic does for any port whose lines are high.
 *
 * Reset values are assumed: the board firmware's charger settings are the scenario's
 * (CV and CC rounded down to the register), BAK_CTRL 500 mA, IPSOUT no limit and VHOLD
 * 4.4 V ("factory default" per the charger driver), the fuel gauge on; BC_GLOBAL 0 (RUN
 * clear, 300 ms timeout), no boot reason recorded, every interrupt state clear. Not
 * modelled: the bus state of BC_USB_STAT (it needs the USB controller), the VLGC
 * comparison and the dead-battery provision (bits stored, no effect), the VBUS_TRIGGER
 * and VBUS-above-VHOLD status bits (read 0), interrupt masking (the layer's regmap-irq
 * chip delivers every raised interrupt; the enable registers are stored).
 */
#ifndef CS_MODELS_AXP288_H
#define CS_MODELS_AXP288_H

#include <stdbool.h>
#include <stdint.h>
#include "models/phy/phy.h"
#include "models/pmic/pmic.h"

#define AXP288_I2C_ADDR 0x34
#define AXP288_NREGS 0x100

/* The interrupts the model raises, by the AXP288's numbers (register n / 8 of the
 * IRQ banks, bit n % 8: include/linux/mfd/axp20x.h, drivers/mfd/axp20x.c). */
enum axp288_irq {
	AXP288_IRQ_VBUS_FALL = 2, AXP288_IRQ_VBUS_RISE = 3, AXP288_IRQ_VBUS_OV = 4,
	AXP288_IRQ_DONE = 10, AXP288_IRQ_CHARGING = 11, AXP288_IRQ_SAFE_QUIT = 12,
	AXP288_IRQ_SAFE_ENTER = 13, AXP288_IRQ_QCBTU = 20, AXP288_IRQ_CBTU = 21,
	AXP288_IRQ_QCBTO = 22, AXP288_IRQ_CBTO = 23, AXP288_IRQ_MV_CHNG = 40,
	AXP288_IRQ_BC_USB_CHNG = 41,
};

/* BC_DET_STAT bits 7:5 */
enum axp288_bc_result { AXP288_BC_NONE, AXP288_BC_SDP, AXP288_BC_CDP, AXP288_BC_DCP };

struct axp288_env {
	struct pmic *pmic;
	struct evlog *log;
	struct sim *sim;
	const struct phy *phy;                               /* the data lines' readings */
	bool (*vbus)(void *ctx);                             /* VBUS present */
	double (*adc)(void *ctx, enum pmic_adc_chan ch);     /* V or A */
	void (*irq)(void *ctx, enum axp288_irq irq);
	void *ctx;
};

struct axp288 {
	struct axp288_env env;
	uint8_t reg[AXP288_NREGS];
	double ilim_applied;
	enum charger_state last_state;
	bool last_fault;
	bool vbus_valid;                   /* PS_STAT's VBUS valid at the last update */
	int bc_stage;                      /* the BC module's detection step */
	enum axp288_bc_result bc_result;   /* what it found so far */
	bool bc_contact;                   /* data contact detect ends on contact, not timeout */
	struct sim_event ev_bc;
};

/* vreg_v, ichg_a: what the board's firmware programs (rounded down to the fields). */
void axp288_init(struct axp288 *c, const struct axp288_env *env, double vreg_v, double ichg_a);
/* Stop the BC module's timer (the run ends). */
void axp288_cleanup(struct axp288 *c);
int axp288_read(struct axp288 *c, uint8_t reg, uint8_t *val);
int axp288_write(struct axp288 *c, uint8_t reg, uint8_t val);
/* The world has settled: follow the charger model, VBUS and raise the interrupts. */
void axp288_update(struct axp288 *c);

#endif
