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

struct cs_charger_ic;

struct cs_charger_ic_ops {
	int (*set_input_current_limit)(void *hw, int ua);   /* returns the applied uA */
	int (*get_input_current_limit)(void *hw);
	void (*input_current_range)(void *hw, int *min_ua, int *max_ua, int *step_ua);
	int (*read_adc)(void *hw, enum cs_adc_channel ch, int *val);
	/* a channel's resolution, uV or uA (0: finer than 1); -errno when not known */
	int (*adc_lsb)(void *hw, enum cs_adc_channel ch);
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

#endif
