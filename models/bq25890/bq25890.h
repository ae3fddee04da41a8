/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/bq25890/bq25890.h - the TI bq25890 switching charger at register level, as
 * a view of the charger model (models/pmic).
 *
 * Source: TI "BQ25890/BQ25892 I2C Controlled Single Cell 5-A Fast Charger with
 * MaxCharge Technology for High Input Voltage and Adjustable Voltage 3.1-A Boost
 * Operation", SLUSC86D (March 2015, revised October 2022): section 9.2.3.3.1 (D+/D-
 * detection sets the input current limit: SDP 500 mA, CDP 1.5 A, DCP 3.25 A,
 * non-standard dividers 1 / 2 / 2.1 / 2.4 A, unknown 500 mA; VBUS_STAT codes),
 * 9.2.3.4 (VINDPM: relative, VBUS before the converter starts minus VINDPM_OS, unless
 * FORCE_VINDPM), 9.2.4 (ICO: starts after detection when EN_ICO, result in
 * IDPM_LIM, ICO_OPTIMIZED), 9.2.9 (INT pulse on a status change or a new fault) and
 * 9.5 (register map REG00-REG14, reset values, field encodings).
 *
 * Writes reach the charger model: IINLIM (REG00) its input limit, EN_HIZ its input
 * switch, CHG_CONFIG (REG03) charging, ICHG/VREG/ITERM/IPRECHG/SYS_MIN its targets,
 * EN_TERM and the safety timer its termination and timer, FORCE_VINDPM/VINDPM its
 * input voltage loop, FORCE_ICO its optimiser. Status (REG0B, REG0C, REG11, REG13,
 * REG14) and ADC registers (REG0E-REG12) read the charger model's state and ADC when
 * read; REG_RST and CONV_START clear themselves at once (no time passes inside a
 * register access). Not modelled: the watchdog (the Linux driver disables it), the
 * ILIM pin (as if its resistor allowed more than IINLIM), OTG boost mode, IR
 * compensation, thermal regulation, HVDCP / MaxCharge handshakes, PUMPX.
 */
#ifndef CS_MODELS_BQ25890_H
#define CS_MODELS_BQ25890_H

#include <stdbool.h>
#include <stdint.h>
#include "models/phy/phy.h"
#include "models/pmic/pmic.h"

#define BQ25890_NREGS 0x15
#define BQ25890_I2C_ADDR 0x6a   /* 7-bit address [SLUSC86D 9.5.1] */

struct bq25890_env {
	struct pmic *pmic;
	struct evlog *log;
	struct sim *sim;
	double (*adc)(void *ctx, enum pmic_adc_chan ch);   /* the charger model's ADC, V or A */
	double (*temp_c)(void *ctx);                       /* battery (thermistor) temperature */
	bool (*vbus)(void *ctx);                           /* VBUS present */
	double (*vbus_now)(void *ctx);  /* VBUS as the chip measures it for VINDPM, V (NULL: adc) */
	enum phy_port (*port)(void *ctx);                  /* the D+/D- detection's result */
	void (*irq)(void *ctx);                            /* an INT pulse */
	void *ctx;
};

struct bq25890 {
	struct bq25890_env env;
	uint8_t reg[BQ25890_NREGS];
	uint8_t fault_latch;       /* REG0C faults seen since it was last read */
	bool vbus;                 /* VBUS seen at the last update */
	enum phy_port port;        /* detection result applied */
	bool ico_pending;          /* detection asked for ICO; starts once the input is on */
	bool ico_ran;              /* ICO finished since it was last started */
	uint8_t last_status, last_faults;
	double iinlim_a;           /* what REG00 last set */
};

void bq25890_init(struct bq25890 *c, const struct bq25890_env *env);
/* Register access: 0, or -ENXIO beyond REG14. */
int bq25890_read(struct bq25890 *c, uint8_t reg, uint8_t *val);
int bq25890_write(struct bq25890 *c, uint8_t reg, uint8_t val);
/* The world has settled: detection results, status and faults; INT on a change. */
void bq25890_update(struct bq25890 *c);

#endif
