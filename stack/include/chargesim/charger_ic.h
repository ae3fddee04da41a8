/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/charger_ic.h - the charger IC as its driver sees it.
 *
 * In the kernel a charger driver reaches its chip through regmap or I2C register
 * writes and an IIO/ADC channel. Here the same operations are chip-neutral calls in
 * the kernel's units (uA, uV); the simulator routes them to models/pmic, with the
 * chip's register resolution, write latency and ADC behaviour. Porting a driver means
 * replacing its register accessors with these calls (see docs/stack.md).
 */
#ifndef CS_CHARGESIM_CHARGER_IC_H
#define CS_CHARGESIM_CHARGER_IC_H

#include <stdbool.h>

enum cs_adc_channel { CS_ADC_VBUS, CS_ADC_IBUS, CS_ADC_VBAT, CS_ADC_IBAT };

enum cs_chg_status {
	CS_CHG_STATUS_OFF,        /* no input, or charging disabled */
	CS_CHG_STATUS_PRECHARGE,
	CS_CHG_STATUS_FAST,       /* constant current */
	CS_CHG_STATUS_TAPER,      /* constant voltage */
	CS_CHG_STATUS_DONE,
	CS_CHG_STATUS_UVLO,
	CS_CHG_STATUS_FAULT,
};

/*
 * Which input regulation loop holds the charger's input, as its status register says
 * (a bit mask; 0: neither, the input takes what the system and the charge ask). A chip
 * with one bit for both (bq24190 REG08 DPM_STAT) reports CS_CHG_INREG_DPM; one with a
 * bit each (bq25890 REG13 IDPM_STAT, VDPM_STAT) reports CURRENT and/or VOLTAGE.
 */
#define CS_CHG_INREG_CURRENT 0x1   /* IINDPM: the input current at its limit */
#define CS_CHG_INREG_VOLTAGE 0x2   /* VINDPM: VBUS held at its threshold */
#define CS_CHG_INREG_DPM     0x4   /* one of the two; the chip does not say which */

struct cs_charger_ic;

struct cs_charger_ic_ops {
	int (*set_input_current_limit)(void *hw, int ua);   /* returns the applied uA */
	int (*get_input_current_limit)(void *hw);
	void (*input_current_range)(void *hw, int *min_ua, int *max_ua, int *step_ua);
	/* 0, or -ENODATA for a channel the chip does not have (a power_supply property
	 * it does not list), -EINVAL for no channel at all */
	int (*read_adc)(void *hw, enum cs_adc_channel ch, int *val);
	/* a channel's resolution, uV or uA (0: finer than 1); -errno when not known */
	int (*adc_lsb)(void *hw, enum cs_adc_channel ch);
	/* a channel's conversion time, us: a read returns the last completed conversion,
	 * so a change shows within two of them (0: a read converts at once); -errno */
	int (*adc_conv_time)(void *hw, enum cs_adc_channel ch);
	int (*set_charge_enable)(void *hw, bool on);
	int (*set_input_enable)(void *hw, bool on);
	int (*set_charge_current)(void *hw, int ua);
	int (*set_charge_voltage)(void *hw, int uv);
	int (*set_vindpm)(void *hw, int uv);
	int (*get_vindpm)(void *hw);                        /* uV, or -errno */
	/* VINDPM register: min + k * step up to max (step 0: any value); -errno without one */
	int (*vindpm_range)(void *hw, int *min_uv, int *max_uv, int *step_uv);
	int (*start_ico)(void *hw);
	int (*get_ico_result)(void *hw);                    /* uA, 0 while running */
	enum cs_chg_status (*get_status)(void *hw);
	bool (*vbus_present)(void *hw);
	/* CS_CHG_INREG_* bits, or -EOPNOTSUPP for a chip without such status bits */
	int (*get_input_regulation)(void *hw);
};

struct cs_charger_ic {
	const char *name;                 /* "twl4030", "bq25890", ... */
	const struct cs_charger_ic_ops *ops;
	void *hw;
};

int cs_chg_set_input_current_limit(struct cs_charger_ic *ic, int ua);
int cs_chg_get_input_current_limit(struct cs_charger_ic *ic);
void cs_chg_input_current_range(struct cs_charger_ic *ic, int *min_ua, int *max_ua, int *step_ua);
int cs_chg_read_adc(struct cs_charger_ic *ic, enum cs_adc_channel ch, int *val);
int cs_chg_adc_lsb(struct cs_charger_ic *ic, enum cs_adc_channel ch);
int cs_chg_adc_conv_time(struct cs_charger_ic *ic, enum cs_adc_channel ch);
int cs_chg_set_charge_enable(struct cs_charger_ic *ic, bool on);
int cs_chg_set_input_enable(struct cs_charger_ic *ic, bool on);
int cs_chg_set_charge_current(struct cs_charger_ic *ic, int ua);
int cs_chg_set_charge_voltage(struct cs_charger_ic *ic, int uv);
int cs_chg_set_vindpm(struct cs_charger_ic *ic, int uv);
int cs_chg_get_vindpm(struct cs_charger_ic *ic);
int cs_chg_vindpm_range(struct cs_charger_ic *ic, int *min_uv, int *max_uv, int *step_uv);
int cs_chg_start_ico(struct cs_charger_ic *ic);
int cs_chg_get_ico_result(struct cs_charger_ic *ic);
enum cs_chg_status cs_chg_get_status(struct cs_charger_ic *ic);
bool cs_chg_vbus_present(struct cs_charger_ic *ic);
/* The input regulation status bits: CS_CHG_INREG_* (0: not in regulation), or
 * -EOPNOTSUPP. What a policy reads where the chip has no input current ADC. */
int cs_chg_get_input_regulation(struct cs_charger_ic *ic);

#endif
