/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/axp288/axp288.h - the X-Powers AXP288 PMIC's charger registers, as a view
 * of the charger model (models/pmic).
 *
 * Source: X-Powers does not publish the AXP288 datasheet. The register numbers and
 * field encodings here are the ones Linux 6.12 uses for this chip, read as facts
 * about the hardware: include/linux/mfd/axp20x.h (register numbers) and
 * drivers/power/supply/axp288_charger.c (field encodings):
 *   PWR_INPUT_STATUS 0x00: bit 5 VBUS present, bit 4 VBUS valid (usable), bit 2
 *     battery charging direction; PWR_OP_MODE 0x01: bit 6 charging, bit 5 battery
 *     present, bit 4 battery valid, bit 3 safe mode (timer expired);
 *   VBUS_IPSOUT_MGMT 0x30: bits 1:0 VBUS current limit 900 / 1500 / 2000 / 2500 mA
 *     (no limit), bits 5:3 VHOLD 4.0 V + 100 mV per step, bit 7 VBUS path disabled;
 *   CHRG_CTRL1 0x33: bits 3:0 charge current 200 mA + 200 mA per step, bit 4 end of
 *     charge at 20 % (else 10 %) of it, bits 6:5 charge voltage 4.10 / 4.15 / 4.20 /
 *     4.35 V, bit 7 charging enabled;
 *   CHRG_BAK_CTRL 0x35: bits 7:4 the input current limit BC1.2 detection sets,
 *     100 / 500 / 900 / 1500 / 2000 / 2500 / 3000 / 3500 / 4000 mA;
 *   CC_CTRL 0xB8: fuel-gauge control (non-zero while the fuel gauge runs).
 * The charger model's input limit is the lower of the two VBUS limits; VHOLD is its
 * input voltage loop. Reset values are assumed: the board firmware's settings are the
 * scenario's charger parameters (CV and CC rounded down to the register), BAK_CTRL
 * 500 mA, IPSOUT no limit and VHOLD 4.4 V ("factory default" per the driver), the fuel
 * gauge on. Interrupts (charger's share of the PMIC's IRQ registers): "charging" when
 * charging starts, "done" at end of charge, "safe mode" entered/left on a timer fault.
 */
#ifndef CS_MODELS_AXP288_H
#define CS_MODELS_AXP288_H

#include <stdbool.h>
#include <stdint.h>
#include "models/pmic/pmic.h"

#define AXP288_I2C_ADDR 0x34
#define AXP288_NREGS 0x100

/* The charger's interrupts, in the order axp288_charger.c numbers its resources. */
enum axp288_chg_irq {
	AXP288_IRQ_VBUS_OV, AXP288_IRQ_DONE, AXP288_IRQ_CHARGING, AXP288_IRQ_SAFE_QUIT,
	AXP288_IRQ_SAFE_ENTER, AXP288_IRQ_QCBTU, AXP288_IRQ_CBTU, AXP288_IRQ_QCBTO,
	AXP288_IRQ_CBTO, AXP288_NIRQ
};

struct axp288_env {
	struct pmic *pmic;
	struct evlog *log;
	struct sim *sim;
	bool (*vbus)(void *ctx);                             /* VBUS present */
	double (*adc)(void *ctx, enum pmic_adc_chan ch);     /* V or A */
	void (*irq)(void *ctx, enum axp288_chg_irq irq);
	void *ctx;
};

struct axp288 {
	struct axp288_env env;
	uint8_t reg[AXP288_NREGS];
	double ilim_applied;
	enum charger_state last_state;
	bool last_fault;
};

/* vreg_v, ichg_a: what the board's firmware programs (rounded down to the fields). */
void axp288_init(struct axp288 *c, const struct axp288_env *env, double vreg_v, double ichg_a);
int axp288_read(struct axp288 *c, uint8_t reg, uint8_t *val);
int axp288_write(struct axp288 *c, uint8_t reg, uint8_t val);
void axp288_update(struct axp288 *c);

#endif
