// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/pmic/pmic.c - charger IC presets, parameter table and state machine.
 *
 * Preset numbers and where they come from:
 *  twl4030: linear; input/charge current register ~1.66 mA per step up to 1.7 A
 *    (the Linux driver ramps it in 20 mA steps); VBUS ADC 10 bits over 7 V
 *    (7/1023 V per count); no VINDPM; termination at 80 mA (ichg_eoc 80.1 mA)
 *    [Linux drivers/power/supply/twl4030_charger.c]; stays off after a dip until replug
 *    (NeilBrown's 2015 patch "twl4030_charger: add software controlled linear charging
 *    mode": automatic mode switches off on a momentary drop); VBUS overvoltage at
 *    6.8 V [TPS65950 datasheet SWCS032E, Table 8-2]. UVLO 3.5 V, pass element 0.3 ohm,
 *    200 mV UVLO hysteresis, 1 ms UVLO deglitch, 1 s termination deglitch and the
 *    50 ms VBUS-gone debounce that counts as a replug are assumptions (no public figure).
 *  bq24190: switching; IINLIM ladder 100/150/500/900/1200/1500/2000/3000 mA, default
 *    500 mA; VINDPM 4.36 V; ICHG 2048 mA; IPRECHG 256 mA; ITERM 256 mA; VREG 4.208 V;
 *    VRECHG 100 mV; SYS_MIN 3.5 V; BATLOWV 3.0 V; safety timer 8 h [TI bq24190
 *    datasheet register defaults]; input OVP (VACOV) 18 V, 700 mV hysteresis
 *    [SLUSAW5]. No ADC on this part: every channel absent, one DPM_STAT bit (see
 *    pmic_params_default()).
 *  bq25890: switching; IINLIM 100-3250 mA in 50 mA steps, default 500 mA; VINDPM
 *    4.4 V; ICHG 2048 mA; IPRECHG 128 mA; ITERM 256 mA; VREG 4.208 V; SYS_MIN 3.5 V;
 *    safety timer 12 h; ICO starting at 500 mA; ADC VBUS 100 mV/LSB from 2.6 V,
 *    BATV 20 mV/LSB from 2.304 V, charge current 50 mA/LSB, no input current, a
 *    conversion every 1 s (pmic_adc_bq25890()); input OVP (VACOV) 14 V
 *    [TI bq25890 datasheet SLUSC86].
 *  Input high-impedance mode (hiz): bq24190 and bq25890 EN_HIZ, REG00 bit 7 [SLUSAW5,
 *    SLUSC86]; generic-switching as the bq25600's EN_HIZ (REG00 bit 7, SLUSCJ4B);
 *    twl4030: the charger switched off (BCIAUTOUSB cleared, as the Linux driver's
 *    twl4030_charger_enable_usb() does) draws nothing from VBUS, the chip having no
 *    power path; generic-linear has none (a charge-enable pin stops the charge, the
 *    system still runs from VBUS through the pass element): assumed.
 *  generic-linear / generic-switching: round numbers, assumed (UVLO 3.6 V,
 *    termination C/10-ish, input OVP 6.8 V for a 5 V-only linear part and 14 V for a
 *    12 V-capable switching one, with the hysteresis of the twl4030 and the bq25890);
 *    efficiency 0.92 (TI bq24190 datasheet SLUSAW5: 92 % at 2 A); VINDPM 4.5 V as on
 *    bq25601. Sources in docs/models.md, Charger IC.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "models/battery/battery.h"
#include "models/pmic/pmic.h"
#include "sim/evlog.h"

const char *const pmic_preset_names[] = {
	"twl4030", "bq24190", "bq25890", "generic-linear", "generic-switching", NULL,
};
const char *const charger_state_names[] = {
	"off", "precharge", "cc", "cv", "done", "uvlo", "fault", "ovp", NULL,
};
G_STATIC_ASSERT(G_N_ELEMENTS(charger_state_names) == CHG_STATE_COUNT + 1);
const char *const pmic_adc_names[] = { "vbus", "ibus", "vbat", "ibat", NULL };
G_STATIC_ASSERT(G_N_ELEMENTS(pmic_adc_names) == PMIC_ADC_COUNT + 1);
const char *const pmic_dpm_stat_names[] = { "none", "combined", "separate", NULL };
const char *const pmic_ts_zone_names[] = { "cold", "cool", "normal", "warm", "hot", NULL };
G_STATIC_ASSERT(G_N_ELEMENTS(pmic_ts_zone_names) == PMIC_TS_ZONE_COUNT + 1);

static const char *const topology_names[] = { "linear", "switching", NULL };
static const char *const restart_names[] = { "auto", "replug", NULL };

/* Hysteresis between precharge and fast charge around vlowv (typical of TI parts). */
#define PMIC_VLOWV_HYST_V 0.1
/* Input OVP hysteresis where the datasheet gives none: 0.2 V as the UVLO's (assumed). */
#define PMIC_OVP_HYST_V 0.2

/* iindpm as {"min", "max", "step", "default"} (offsets in struct pmic_params) */
static const struct param_desc iindpm_range_desc[] = {
	{ "min", PARAM_NUM, UNIT_AMP, offsetof(struct pmic_params, iindpm_min), 0, 20, .doc = "lowest value" },
	{ "max", PARAM_NUM, UNIT_AMP, offsetof(struct pmic_params, iindpm_max), 1e-3, 20,
	  0, .doc = "highest value" },
	{ "step", PARAM_NUM, UNIT_AMP, offsetof(struct pmic_params, iindpm_step), 0, 20, .doc = "resolution" },
	{ "default", PARAM_NUM, UNIT_AMP, offsetof(struct pmic_params, iindpm_default), 0, 20,
	  .doc = "value after reset / plug" },
	PARAM_END,
};

static bool pmic_parse_iindpm(const struct param_desc *d, const cJSON *v, void *field,
			      const char *path, GError **err)
{
	static const struct param_list_spec ladder_spec = {
		.dim = UNIT_AMP, .min = 1e-3, .max = 20, .ascending = true,
		.max_n = PMIC_LADDER_MAX,
		.expected_list = "{\"min\", \"max\", \"step\"} or a ladder of 1 to "
				 G_STRINGIFY(PMIC_LADDER_MAX) " currents",
		.expected_item = "currents from 1 mA to 20 A, ascending",
	};
	struct pmic_params *p = field;
	int n = 0;

	(void)d;
	if (cJSON_IsObject(v)) {
		p->ladder_n = 0;
		if (!param_load_object(iindpm_range_desc, v, p, path, NULL, err))
			return false;
		if (p->iindpm_min > p->iindpm_max)
			return model_error(err, "%s: found min %g A above max %g A, expected min <= max",
					   path, p->iindpm_min, p->iindpm_max);
		if (p->iindpm_default < p->iindpm_min || p->iindpm_default > p->iindpm_max)
			return model_error(err, "%s.default: found %g A, expected a value from min %g A to max %g A",
					   path, p->iindpm_default, p->iindpm_min, p->iindpm_max);
		return true;
	}
	if (!param_json_number_list(v, &ladder_spec, p->ladder, &n, path, err))
		return false;
	p->ladder_n = n;
	p->iindpm_min = p->ladder[0];
	p->iindpm_max = p->ladder[n - 1];
	if (p->iindpm_default < p->iindpm_min || p->iindpm_default > p->iindpm_max)
		p->iindpm_default = p->iindpm_min;
	return true;
}

/* vindpm_reg as {"min", "max", "step"} */
static const struct param_desc vindpm_reg_desc[] = {
	{ "min", PARAM_NUM, UNIT_VOLT, offsetof(struct pmic_params, vindpm_min), 0, 25, .doc = "lowest value" },
	{ "max", PARAM_NUM, UNIT_VOLT, offsetof(struct pmic_params, vindpm_max), 0, 25, .doc = "highest value" },
	{ "step", PARAM_NUM, UNIT_VOLT, offsetof(struct pmic_params, vindpm_step), 0, 5,
	  .doc = "resolution (0: any value)" },
	PARAM_END,
};

#define AOFF(f) offsetof(struct pmic_adc_params, f)
static const struct param_desc adc_chan_desc[] = {
	{ "absent", PARAM_BOOL, .off = AOFF(absent),
	  .doc = "the chip has no such channel: a driver's read fails (-ENODATA)" },
	{ "lsb", PARAM_NUM, UNIT_NONE, AOFF(lsb), 0, 1e3, .doc = "resolution, in the channel's unit (0 = ideal)" },
	{ "offset", PARAM_NUM, UNIT_NONE, AOFF(offset), -1e3, 1e3, .doc = "value of code 0" },
	{ "full_scale", PARAM_NUM, UNIT_NONE, AOFF(full_scale), 0, 1e3, .doc = "highest reading (0 = unlimited)" },
	{ "noise", PARAM_NUM, UNIT_NONE, AOFF(noise), 0, 1e3, .doc = "gaussian sigma of one sample" },
	{ "average", PARAM_INT, .off = AOFF(average), .min = 1, .max = 1024, .doc = "samples averaged per reading" },
	{ "conv_time", PARAM_TIME, .off = AOFF(conv_time), .min = 0, .max = 60,
	  .doc = "conversion window: a read returns the last completed conversion, the value at its start (0: at once)" },
	PARAM_END,
};
#undef AOFF

/* ts as {"enabled", "t1", ..., "warm_vreg_drop"}: the hysteresis and the thresholds
 * in kelvin and degrees Celsius over the range a phone's cell can see */
#define TOFF(f) offsetof(struct pmic_ts_params, f)
static const struct param_desc ts_desc[] = {
	{ "enabled", PARAM_BOOL, .off = TOFF(enabled), .doc = "the thermistor input acts on charging" },
	{ "t1", PARAM_NUM, UNIT_CELSIUS, TOFF(t1), -40, 100, .doc = "cold: charging suspended below" },
	{ "t2", PARAM_NUM, UNIT_CELSIUS, TOFF(t2), -40, 100, .doc = "cool (cool_ichg) below, from t1" },
	{ "t3", PARAM_NUM, UNIT_CELSIUS, TOFF(t3), -40, 100, .doc = "warm (vreg - warm_vreg_drop, warm_ichg) above, to t5" },
	{ "t5", PARAM_NUM, UNIT_CELSIUS, TOFF(t5), -40, 100, .doc = "hot: charging suspended above" },
	{ "t1_hyst", PARAM_NUM, UNIT_NONE, TOFF(t1_hyst), 0, 20, .doc = "K above t1 before a cold cell charges again" },
	{ "t2_hyst", PARAM_NUM, UNIT_NONE, TOFF(t2_hyst), 0, 20, .doc = "K above t2 before a cool cell is normal again" },
	{ "t3_hyst", PARAM_NUM, UNIT_NONE, TOFF(t3_hyst), 0, 20, .doc = "K below t3 before a warm cell is normal again" },
	{ "t5_hyst", PARAM_NUM, UNIT_NONE, TOFF(t5_hyst), 0, 20, .doc = "K below t5 before a hot cell charges again" },
	{ "cool_ichg", PARAM_NUM, UNIT_FRACTION, TOFF(cool_ichg), 0, 1, .doc = "fast-charge current in the cool zone, a fraction of ichg" },
	{ "warm_ichg", PARAM_NUM, UNIT_FRACTION, TOFF(warm_ichg), 0, 1, .doc = "fast-charge current in the warm zone, a fraction of ichg" },
	{ "warm_vreg_drop", PARAM_NUM, UNIT_VOLT, TOFF(warm_vreg_drop), 0, 1, .doc = "charge voltage lowered by this in the warm zone" },
	PARAM_END,
};
#undef TOFF

/* "adc": "ideal" instead of an object: every channel present, exact and at once, over
 * whatever the preset's datasheet says (a scenario whose point is not the sensing). */
static bool pmic_parse_adc_word(const struct param_desc *d, const cJSON *v, void *field,
				const char *path, GError **err)
{
	(void)d;
	if (!cJSON_IsString(v) || strcmp(v->valuestring, "ideal") != 0)
		return param_error_found(err, path, v,
					 "an object with keys such as \"vbus\", or \"ideal\"");
	pmic_adc_ideal((struct pmic_params *)((char *)field - offsetof(struct pmic_params, adc)));
	return true;
}

static const char *const adc_words[] = { "ideal", NULL };

#define OFF(f) offsetof(struct pmic_params, f)
static const struct param_desc adc_desc[] = {
	{ "vbus", PARAM_OBJECT, .off = OFF(adc[PMIC_ADC_VBUS]) - OFF(adc), .sub = adc_chan_desc, .doc = "VBUS channel, V" },
	{ "ibus", PARAM_OBJECT, .off = OFF(adc[PMIC_ADC_IBUS]) - OFF(adc), .sub = adc_chan_desc, .doc = "input current channel, A" },
	{ "vbat", PARAM_OBJECT, .off = OFF(adc[PMIC_ADC_VBAT]) - OFF(adc), .sub = adc_chan_desc, .doc = "battery voltage channel, V" },
	{ "ibat", PARAM_OBJECT, .off = OFF(adc[PMIC_ADC_IBAT]) - OFF(adc), .sub = adc_chan_desc, .doc = "battery current channel, A" },
	PARAM_END,
};

const struct param_desc pmic_param_desc[] = {
	{ "preset", PARAM_ENUM, .off = OFF(preset), .choices = pmic_preset_names,
	  .doc = "charger IC preset the other values default from" },
	{ "topology", PARAM_ENUM, .off = OFF(topology), .choices = topology_names,
	  .doc = "linear (input = system + charge current) or switching (power in * eff = power out)" },
	{ "iindpm", PARAM_CUSTOM, .parse = pmic_parse_iindpm, .sub = iindpm_range_desc,
	  .doc = "input limit register: {\"min\", \"max\", \"step\", \"default\"} or a ladder [..]" },
	{ "reg_latency", PARAM_TIME, .off = OFF(reg_latency), .min = 0, .max = 10,
	  .doc = "delay before a register write takes effect" },
	{ "vindpm", PARAM_NUM, UNIT_VOLT, OFF(vindpm), 0, 25, PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "input voltage regulation (null = none)" },
	{ "vindpm_reg", PARAM_OBJECT, .off = 0, .sub = vindpm_reg_desc,
	  .doc = "VINDPM register a driver writes: {\"min\", \"max\", \"step\"} (step 0: any value)" },
	{ "uvlo_falling", PARAM_NUM, UNIT_VOLT, OFF(uvlo_falling), 0, 25, PARAM_F_RUNTIME,
	  .doc = "input disconnects below this (after uvlo_deglitch)" },
	{ "uvlo_rising", PARAM_NUM, UNIT_VOLT, OFF(uvlo_rising), 0, 25, PARAM_F_RUNTIME,
	  .doc = "input reconnects above this (after t_restart)" },
	{ "uvlo_deglitch", PARAM_TIME, .off = OFF(uvlo_deglitch), .min = 0, .max = 10,
	  .doc = "time below uvlo_falling before the input disconnects" },
	/* Delays the pmic repeats (restart, ICO steps) take at least 1 ms: no chip
	 * reacts faster, and a 0 would repeat forever at one instant. Currents that
	 * must flow start at 1 mA; the efficiency at 10 %. */
	{ "t_restart", PARAM_TIME, .off = OFF(t_restart), .min = 1e-3, .max = 60,
	  .doc = "time above uvlo_rising before the input connects" },
	{ "t_replug", PARAM_TIME, .off = OFF(t_replug), .min = 0, .max = 60,
	  .doc = "VBUS must stay below 0.8 V this long to count as a replug (restart = replug)" },
	{ "restart", PARAM_ENUM, .off = OFF(restart), .choices = restart_names,
	  .doc = "after UVLO: auto, or replug (stay off until VBUS goes away)" },
	{ "ichg", PARAM_NUM, UNIT_AMP, OFF(ichg), 1e-3, 20, PARAM_F_RUNTIME,
	  .doc = "fast-charge (CC) current" },
	{ "ipre", PARAM_NUM, UNIT_AMP, OFF(ipre), 1e-3, 5, 0, .doc = "precharge current" },
	{ "vlowv", PARAM_NUM, UNIT_VOLT, OFF(vlowv), 0, 5, .doc = "precharge below this battery voltage" },
	{ "vreg", PARAM_NUM, UNIT_VOLT, OFF(vreg), 3, 5, PARAM_F_RUNTIME, .doc = "CV regulation voltage" },
	{ "iterm", PARAM_NUM, UNIT_AMP, OFF(iterm), 0, 5, PARAM_F_RUNTIME,
	  .doc = "terminate when the CV current falls below this for t_term" },
	/* A termination deglitch of 0 lets a charger whose iterm is above what it can
	 * deliver terminate and recharge forever at one instant (1 ns: a billion times a
	 * simulated second). 10 ms: shorter than any charger's termination filter we know,
	 * long enough that even that loop runs an hour in seconds. */
	{ "t_term", PARAM_TIME, .off = OFF(t_term), .min = 10e-3, .max = 600, .doc = "termination deglitch" },
	{ "vrechg_delta", PARAM_NUM, UNIT_VOLT, OFF(vrechg_delta), 0, 1,
	  .doc = "recharge when the battery falls this far below vreg" },
	{ "safety_timer", PARAM_TIME, .off = OFF(safety_timer), .min = 0, .max = 7 * 86400,
	  .flags = PARAM_F_NULL_ZERO, .doc = "charge time before a fault (null = none)" },
	{ "efficiency", PARAM_NUM, UNIT_FRACTION, OFF(efficiency), 0.1, 1, 0,
	  .doc = "switching converter efficiency" },
	{ "r_on", PARAM_NUM, UNIT_OHM, OFF(r_on), 0, 10, .doc = "linear pass element resistance when fully on" },
	{ "vsys_min", PARAM_NUM, UNIT_VOLT, OFF(vsys_min), 0, 5, PARAM_F_NULL_ZERO,
	  .doc = "switching: minimum system voltage regulation (SYS_MIN)" },
	{ "ico", PARAM_BOOL, .off = OFF(ico), .doc = "hardware input current optimiser present" },
	{ "ico_step", PARAM_NUM, UNIT_AMP, OFF(ico_step), 1e-3, 1, 0, .doc = "ICO increment" },
	{ "ico_interval", PARAM_TIME, .off = OFF(ico_interval), .min = 1e-3, .max = 10,
	  .doc = "ICO time per increment" },
	{ "adc", PARAM_OBJECT, .off = OFF(adc), .sub = adc_desc, .parse = pmic_parse_adc_word,
	  .choices = adc_words,
	  .doc = "ADC channels vbus/ibus/vbat/ibat (absent, lsb, offset, full_scale, noise, average, conv_time), or \"ideal\"" },
	{ "dpm_stat", PARAM_ENUM, .off = OFF(dpm_stat), .choices = pmic_dpm_stat_names,
	  .doc = "input regulation status bits: none, combined (one bit for IINDPM or VINDPM) or separate" },
	{ "ovp_rising", PARAM_NUM, UNIT_VOLT, OFF(ovp_rising), 0, 30, PARAM_F_NULL_ZERO | PARAM_F_RUNTIME,
	  .doc = "input over-voltage protection: the input disconnects above this (null = none)" },
	{ "ovp_falling", PARAM_NUM, UNIT_VOLT, OFF(ovp_falling), 0, 30, PARAM_F_RUNTIME,
	  .doc = "input over-voltage protection clears below this" },
	{ "hiz", PARAM_BOOL, .off = OFF(hiz),
	  .doc = "input high-impedance mode: a driver can switch the input off (the system then runs from the battery)" },
	{ "treg", PARAM_NUM, UNIT_CELSIUS, OFF(treg), 40, 150, PARAM_F_NULL_ZERO,
	  .doc = "thermal regulation: the charge current falls to hold the die at this (null = none)" },
	{ "theta_ja", PARAM_NUM, UNIT_NONE, OFF(theta_ja), 1, 500,
	  .doc = "K/W from the die to ambient (the battery's temperature): die = ambient + theta_ja * loss" },
	{ "ts", PARAM_OBJECT, .off = OFF(ts), .sub = ts_desc,
	  .doc = "battery temperature windows (JEITA): enabled, t1/t2/t3/t5 and their hysteresis, cool_ichg, warm_ichg, warm_vreg_drop" },
	PARAM_END,
};
#undef OFF

/* What a preset sets over the common defaults of pmic_params_default(). */
struct pmic_preset {
	int topology;
	double iindpm[4];       /* min, max, step (0 with a ladder), default */
	double vindpm[4];       /* the threshold (0: none), the register's min, max, step */
	double charge[4];       /* ichg, ipre, iterm, vreg */
	double vsys_min;
	double ovp[2];          /* input OVP rising, hysteresis (the datasheet's where it gives one) */
	bool hiz;               /* input high-impedance mode */
};

/* In the order of pmic_preset_names; the ladder, UVLO, restart, timer, ICO and ADC
 * values of the presets that differ are set in pmic_params_default(). */
static const struct pmic_preset presets[] = {
	/* TWL4030: linear, a 10-bit input limit. TPS65950 (TWL4030 family) datasheet
	 * SWCS032E, Table 8-2: VBUS overvoltage threshold 6.5 / 6.8 / 7.3 V (min / typ /
	 * max); the VBUS input range is 4.4 to 6 V (Table 8-1). */
	{ PMIC_LINEAR, { 0, 1.7, 1.7 / 1023, 0.1 }, { 0 }, { 1.7, 0.1, 0.08, 4.2 }, 0,
	  { 6.8, PMIC_OVP_HYST_V }, true },
	/* bq24190: switching, an input limit ladder. SLUSAW5, REG00 VINDPM[3:0]: 3.88 V
	 * offset, 80 mV per code, 3.88-5.08 V; Electrical Characteristics: VACOV 18 V
	 * rising (17.4 V min), falling 700 mV lower (VACOV_HYST). */
	{ PMIC_SWITCHING, { 0.1, 3.0, 0, 0.5 }, { 4.36, 3.88, 5.08, 0.08 },
	  { 2.048, 0.256, 0.256, 4.208 }, 3.5, { 18.0, 0.7 }, true },
	/* bq25890: switching, ICO and coarse ADCs. SLUSC86, REG0D VINDPM[6:0]: 2.6 V
	 * offset, 100 mV per code, codes under 3.9 V clamped to it, up to 15.3 V.
	 * SLUSC86 / SLUSCC5, Electrical Characteristics: V(ACOV) 14 V rising (14.6 V
	 * max); the hysteresis as the bq24190's 700 mV (assumed). */
	{ PMIC_SWITCHING, { 0.1, 3.25, 0.05, 0.5 }, { 4.4, 3.9, 15.3, 0.1 },
	  { 2.048, 0.128, 0.256, 4.208 }, 3.5, { 14.0, 0.7 }, true },
	/* A generic linear charger, 5 V only: the twl4030's 6.8 V OVP (assumed). */
	{ PMIC_LINEAR, { 0.1, 1.5, 0.05, 0.5 }, { 0 }, { 1.0, 0.1, 0.1, 4.2 }, 0,
	  { 6.8, PMIC_OVP_HYST_V }, false },
	/* A generic switching charger, also for an unknown preset. VINDPM as the
	 * bq25600's (SLUSCJ4B, REG06 VINDPM[3:0]): 3.9 V offset, 100 mV per code,
	 * 3.9-5.4 V; the input OVP of a 12 V-capable switching charger (as the
	 * bq25890's). */
	{ PMIC_SWITCHING, { 0.1, 3.0, 0.05, 0.5 }, { 4.5, 3.9, 5.4, 0.1 },
	  { 2.0, 0.2, 0.2, 4.2 }, 3.5, { 14.0, 0.7 }, true },
};
G_STATIC_ASSERT(G_N_ELEMENTS(presets) == G_N_ELEMENTS(pmic_preset_names) - 1);
enum { PRESET_TWL4030, PRESET_BQ24190, PRESET_BQ25890, PRESET_GENERIC_SWITCHING = 4 };

void pmic_adc_ideal(struct pmic_params *p)
{
	for (int i = 0; i < PMIC_ADC_COUNT; i++)
		p->adc[i] = (struct pmic_adc_params){ .average = 1 };
}

/*
 * TWL4030 MADC: 10 bits over a 1.5 V reference behind a prescaler per channel (Linux
 * drivers/iio/adc/twl4030-madc.c, twl4030_divider_ratios[]: ADCIN8 VBUS 3/14, so
 * 7.0 V full scale; ADCIN12 VBAT 1/4, 6.0 V). The charge current (ADCIN10 through
 * the BCI's BCIICHG) reads in signed 10-bit counts of 3.32 mA with CGAIN set, as the
 * Linux driver sets it above 852 mA (drivers/power/supply/twl4030_charger.c,
 * regval2ua(): (regval * 16618 - 8500) / 5 uA). There is no input current channel:
 * the BCI measures the charge current only. A conversion is started by the driver's
 * request and done within its read (a few tens of microseconds): no window. No
 * reading noise figure is published: quantisation only. No input regulation status
 * either: a linear charger without VINDPM or IINDPM loop bits.
 */
static void pmic_adc_twl4030(struct pmic_params *p)
{
	const double ichg_lsb = 16618e-6 / 5;

	p->adc[PMIC_ADC_VBUS] = (struct pmic_adc_params){ .lsb = 7.0 / 1023, .full_scale = 7.0,
							  .average = 1 };
	p->adc[PMIC_ADC_IBUS] = (struct pmic_adc_params){ .absent = true, .average = 1 };
	p->adc[PMIC_ADC_VBAT] = (struct pmic_adc_params){ .lsb = 6.0 / 1023, .full_scale = 6.0,
							  .average = 1 };
	p->adc[PMIC_ADC_IBAT] = (struct pmic_adc_params){ .lsb = ichg_lsb,
							  .offset = -512 * ichg_lsb,
							  .full_scale = 511 * ichg_lsb, .average = 1 };
	p->dpm_stat = PMIC_DPM_STAT_NONE;
}

/*
 * bq25890 battery monitor (SLUSBX2 / SLUSC86, REG0E-REG13): BATV 20 mV per code from
 * 2.304 V (7 bits: up to 4.844 V); VBUSV 100 mV per code from 2.6 V (7 bits: up to
 * 15.3 V); ICHGR 50 mA per code from 0 (7 bits: up to 6.35 A); no input current
 * channel. The Linux driver runs it in continuous conversion (CONV_RATE = 1), which
 * gives a result every 1 s (the bq25895's datasheet SLUSC88C, Battery Monitor; a
 * one-shot conversion takes 8 ms typical, 1 s at most: tCONV). No noise figure is
 * published: quantisation only. REG13 reports VINDPM (VDPM_STAT, bit 7) and IINDPM
 * (IDPM_STAT, bit 6) each on its own.
 */
static void pmic_adc_bq25890(struct pmic_params *p)
{
	p->adc[PMIC_ADC_VBUS] = (struct pmic_adc_params){ .lsb = 0.1, .offset = 2.6,
							  .full_scale = 2.6 + 127 * 0.1,
							  .average = 1, .conv_time = 1 * SIM_S };
	p->adc[PMIC_ADC_IBUS] = (struct pmic_adc_params){ .absent = true, .average = 1 };
	p->adc[PMIC_ADC_VBAT] = (struct pmic_adc_params){ .lsb = 0.02, .offset = 2.304,
							  .full_scale = 2.304 + 127 * 0.02,
							  .average = 1, .conv_time = 1 * SIM_S };
	p->adc[PMIC_ADC_IBAT] = (struct pmic_adc_params){ .lsb = 0.05, .full_scale = 127 * 0.05,
							  .average = 1, .conv_time = 1 * SIM_S };
	p->dpm_stat = PMIC_DPM_STAT_SEPARATE;
}

void pmic_params_default(void *params, int preset)
{
	static const double bq24190_ladder[] = { 0.1, 0.15, 0.5, 0.9, 1.2, 1.5, 2.0, 3.0 };
	const struct pmic_preset *s = &presets[preset >= 0 && preset < (int)G_N_ELEMENTS(presets) ?
					       preset : PRESET_GENERIC_SWITCHING];
	struct pmic_params *p = params;

	*p = (struct pmic_params){
		.preset = preset, .topology = s->topology,
		.iindpm_min = s->iindpm[0], .iindpm_max = s->iindpm[1],
		.iindpm_step = s->iindpm[2], .iindpm_default = s->iindpm[3],
		.vindpm = s->vindpm[0], .vindpm_min = s->vindpm[1], .vindpm_max = s->vindpm[2],
		.vindpm_step = s->vindpm[3], .uvlo_falling = 3.6, .uvlo_rising = 3.8,
		.uvlo_deglitch = 1 * SIM_MS, .t_restart = 100 * SIM_MS, .t_replug = 50 * SIM_MS,
		.restart = PMIC_RESTART_AUTO, .ichg = s->charge[0], .ipre = s->charge[1],
		.vlowv = 3.0, .vreg = s->charge[3], .iterm = s->charge[2], .vrechg_delta = 0.1,
		.t_term = 1 * SIM_S, .safety_timer = 12 * SIM_HOUR, .efficiency = 0.92,
		.r_on = 0.3, .vsys_min = s->vsys_min, .ico_start = 0.5, .ico_step = 0.05,
		.ico_interval = 50 * SIM_MS, .ovp_rising = s->ovp[0],
		.ovp_falling = s->ovp[0] - s->ovp[1], .hiz = s->hiz,
		/* TS input off; should a scenario turn it on, the JEITA guideline's windows
		 * (0/10/45/60 C), half the current when cool and 4.1 V for a 4.2 V cell when
		 * warm, with 1 K of hysteresis (assumed) */
		.ts = { .t1 = 0, .t2 = 10, .t3 = 45, .t5 = 60, .t1_hyst = 1, .t2_hyst = 1,
			.t3_hyst = 1, .t5_hyst = 1, .cool_ichg = 0.5, .warm_ichg = 1,
			.warm_vreg_drop = 0.1 },
		/* no thermal regulation; a 24-pin QFN's junction-to-ambient resistance for a
		 * scenario that sets treg (the bq25895's RTW, SLUSC88A: 32.2 C/W) */
		.theta_ja = 32.2,
		/* input regulation reported loop by loop; ADC channels ideal (below) */
		.dpm_stat = PMIC_DPM_STAT_SEPARATE,
	};
	pmic_adc_ideal(p);
	G_STATIC_ASSERT(PMIC_ADC_COUNT == 4);
	switch (preset) {
	case PRESET_TWL4030:
		p->uvlo_falling = 3.5;
		p->uvlo_rising = 3.7;
		p->restart = PMIC_RESTART_REPLUG;
		pmic_adc_twl4030(p);
		break;
	case PRESET_BQ24190:
		p->ladder_n = G_N_ELEMENTS(bq24190_ladder);
		memcpy(p->ladder, bq24190_ladder, sizeof(bq24190_ladder));
		p->safety_timer = 8 * SIM_HOUR;
		/* SLUSAW5, REG08 System Status: no ADC at all; DPM_STAT (bit 3) is set
		 * while VINDPM or IINDPM regulates, one bit for both. */
		for (int i = 0; i < PMIC_ADC_COUNT; i++)
			p->adc[i].absent = true;
		p->dpm_stat = PMIC_DPM_STAT_COMBINED;
		/* SLUSAW5, Electrical Characteristics, COLD/HOT thermistor comparator
		 * (bq24190): no JEITA steps, a cold/hot window; charge suspended below
		 * V_LTF (73.5 % of REGN) and, during a charge, below V_TCO (44.7 %, hot
		 * cut-off); a charge starts again above V_LTF - 0.4 % (V_LTF_HYS) and
		 * below V_HTF (47.2 %). The design example's network (103AT, RT1 5.52 k,
		 * RT2 31.23 k) puts the window at 0 to 45 C; through it (the 103AT's B
		 * from its 27.28 k at 0 C and 4.911 k at 45 C) 0.4 % is 0.9 K and V_HTF lies
		 * 3.5 K below V_TCO. */
		p->ts = (struct pmic_ts_params){ .enabled = true, .t1 = 0, .t2 = 0, .t3 = 45,
						 .t5 = 45, .t1_hyst = 0.9, .t5_hyst = 3.5,
						 .cool_ichg = 1, .warm_ichg = 1 };
		/* SLUSAW5: T_Junction_REG 120 C (REG06[1:0] TREG reset 11); theta_ja as the
		 * bq24296's in the same RGE package (SLUSBP6B, 32.2 C/W; assumed) */
		p->treg = 120;
		break;
	case PRESET_BQ25890:
		p->ico = true;
		pmic_adc_bq25890(p);
		/* SLUSC86 / SLUSCC5, Electrical Characteristics, JEITA thermistor
		 * comparator: T1 0 C (suspended below), T2 10 C, T3 45 C, T5 60 C
		 * (suspended above), hysteresis 1.4 / 1.4 / 1 / 1.25 % of REGN; T1-T2 charges
		 * at a fraction of ICHG, 20 % with REG07[0] JEITA_ISET at its reset value 1
		 * (0: 50 %; Linux bq25890_charger.c divides ICHG by 5 or 2 by it); T3-T5 at
		 * ICHG and VREG - 200 mV (REG09[4] JEITA_VSET reset 0). The hysteresis in
		 * kelvin through a 103AT network sized for 0 to 60 C (B from the 103AT's
		 * 27.28 k at 0 C and 4.911 k at 45 C): 2.9, 2.4, 1.4 and 2.0 K. */
		p->ts = (struct pmic_ts_params){ .enabled = true, .t1 = 0, .t2 = 10, .t3 = 45,
						 .t5 = 60, .t1_hyst = 2.9, .t2_hyst = 2.4,
						 .t3_hyst = 1.4, .t5_hyst = 2.0, .cool_ichg = 0.2,
						 .warm_ichg = 1, .warm_vreg_drop = 0.2 };
		/* SLUSCC5: TREG 120 C (REG08[1:0] reset 11); theta_ja as the bq25895's in
		 * the same RTW package (SLUSC88A, 32.2 C/W) */
		p->treg = 120;
		break;
	}
}

/* VREG is checked against the cell's v_max (device.battery). */
static bool pmic_validate(const void *params, const struct model_lookup *others,
			  const char *path, GError **err)
{
	const struct pmic_params *p = params;
	double vbat_max = ((const struct battery_params *)
			   others->params_of(others, "device.battery"))->v_max;

	if (p->vreg > vbat_max + 1e-9)
		return model_error(err, "%s.vreg: found %.4g V, expected at most the battery's v_max %.4g V",
				   path, p->vreg, vbat_max);
	if (p->ovp_rising > 0 && p->ovp_falling > p->ovp_rising)
		return model_error(err, "%s.ovp_falling: found %.4g V, expected at most ovp_rising (%.4g V)",
				   path, p->ovp_falling, p->ovp_rising);
	if (p->uvlo_rising < p->uvlo_falling)
		return model_error(err, "%s.uvlo_rising: found %.4g V, expected at least uvlo_falling (%.4g V)",
				   path, p->uvlo_rising, p->uvlo_falling);
	if (p->ts.t2 < p->ts.t1 || p->ts.t3 < p->ts.t2 || p->ts.t5 < p->ts.t3)
		return model_error(err, "%s.ts: found t1 %.4g C, t2 %.4g C, t3 %.4g C, t5 %.4g C, expected t1 <= t2 <= t3 <= t5",
				   path, p->ts.t1, p->ts.t2, p->ts.t3, p->ts.t5);
	if (p->vindpm_step > 0 && p->vindpm_max < p->vindpm_min)
		return model_error(err, "%s.vindpm_reg.max: found %.4g V, expected at least vindpm_reg.min (%.4g V)",
				   path, p->vindpm_max, p->vindpm_min);
	return true;
}

double pmic_quantize_iindpm(const struct pmic_params *p, double amps)
{
	if (!(amps > p->iindpm_min))
		return p->iindpm_min;
	if (amps >= p->iindpm_max)
		return p->iindpm_max;
	if (p->ladder_n > 0) {
		double best = p->ladder[0];

		for (int i = 0; i < p->ladder_n; i++)
			if (p->ladder[i] <= amps + 1e-12)
				best = p->ladder[i];
		return best;
	}
	if (p->iindpm_step > 0) {
		/* Registers round down: a request never gives more than asked. The
		 * epsilon keeps exact multiples (0.5 A / 50 mA) from rounding a step low. */
		double k = floor((amps - p->iindpm_min) / p->iindpm_step + 1e-9);

		return p->iindpm_min + k * p->iindpm_step;
	}
	return amps;
}

static void pmic_reg_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	(void)ev;
	c->iindpm = c->reg_q[0].amps;
	c->reg_n--;
	memmove(&c->reg_q[0], &c->reg_q[1], c->reg_n * sizeof(c->reg_q[0]));
	if (c->reg_n > 0)
		sim_at(c->sim, &c->ev_reg, c->reg_q[0].at);
	MODEL_NOTIFY(c);
}

/* A register reset or an ICO result: the input limit is now `amps` (quantized), over
 * the writes still in flight. */
static void pmic_reg_force(struct pmic *c, double amps)
{
	c->reg_n = 0;
	sim_cancel(c->sim, &c->ev_reg);
	c->iindpm = pmic_quantize_iindpm(c->p, amps);
}

double pmic_write_iindpm(struct pmic *c, double amps)
{
	double q = pmic_quantize_iindpm(c->p, amps);

	if (c->p->reg_latency > 0) {
		/* Every write lands reg_latency after it was made, in order (a later
		 * write does not hold back an earlier one). With the queue full, the
		 * newest write replaces the last one queued. */
		if (c->reg_n == PMIC_REG_QUEUE)
			c->reg_n--;
		c->reg_q[c->reg_n].at = sim_now(c->sim) + c->p->reg_latency;
		c->reg_q[c->reg_n].amps = q;
		if (c->reg_n++ == 0)
			sim_at(c->sim, &c->ev_reg, c->reg_q[0].at);
	} else {
		c->iindpm = q;
		MODEL_NOTIFY(c);
	}
	return q;
}

void pmic_write_iindpm_as(struct pmic *c, const char *chip, double amps)
{
	double applied = pmic_write_iindpm(c, amps);
	cJSON *rec = evlog_begin(c->log, sim_now(c->sim), chip, "ilim_set");

	evlog_put_number(rec, "request_mA", amps * 1000);
	evlog_put_number(rec, "applied_mA", applied * 1000);
	evlog_end(c->log, rec);
}

void pmic_set_charge_enable(struct pmic *c, bool on)
{
	c->charge_enabled = on;
	MODEL_NOTIFY(c);
}

void pmic_set_hiz(struct pmic *c, bool on)
{
	/* Re-enabling the input is a commanded restart: it clears a replug latch. */
	if (c->hiz && !on)
		c->replug_wait = false;
	c->hiz = on;
	MODEL_NOTIFY(c);
}

void pmic_write_ichg(struct pmic *c, double amps)
{
	c->p->ichg = amps;
	MODEL_NOTIFY(c);
}

void pmic_write_vreg(struct pmic *c, double volts)
{
	c->p->vreg = volts;
	MODEL_NOTIFY(c);
}

double pmic_vindpm_register(const struct pmic_params *p, double volts)
{
	double k;

	if (p->vindpm_step <= 0)
		return volts;
	volts = CLAMP(volts, p->vindpm_min, fmax(p->vindpm_min, p->vindpm_max));
	/* 1e-9: a value on the grid computed in floating point stays on its code */
	k = floor((volts - p->vindpm_min) / p->vindpm_step + 1e-9);
	return p->vindpm_min + k * p->vindpm_step;
}

void pmic_write_vindpm(struct pmic *c, double volts)
{
	c->p->vindpm = volts;
	MODEL_NOTIFY(c);
}

static void pmic_log_state(struct pmic *c, enum charger_state st)
{
	if (st == c->state)
		return;
	c->state = st;
	evlog_emit(c->log, sim_now(c->sim), "pmic", "charger_state", "state",
		   charger_state_names[st]);
}

static void pmic_uvlo_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	(void)ev;
	c->connected = false;
	c->uvlo = true;
	c->uvlo_events++;
	c->cond_low = false;
	sim_cancel(c->sim, &c->ev_term);
	sim_cancel(c->sim, &c->ev_safety);
	if (c->p->restart == PMIC_RESTART_REPLUG)
		c->replug_wait = true;
	evlog_emit(c->log, sim_now(c->sim), "pmic", "uvlo", "restart",
		   c->p->restart == PMIC_RESTART_REPLUG ? "replug" : "auto");
	MODEL_NOTIFY(c);
}

static void pmic_connect_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	(void)ev;
	c->connected = true;
	c->cond_good = false;
	/* A new connection starts a new charge cycle. */
	c->done = false;
	c->fault = false;
	if (c->p->safety_timer > 0)
		sim_reschedule(c->sim, &c->ev_safety, sim_now(c->sim) + c->p->safety_timer);
	evlog_emit(c->log, sim_now(c->sim), "pmic", "input_connect", NULL, NULL);
	MODEL_NOTIFY(c);
}

/* VBUS stayed below session-valid for t_replug: as far as the chip can tell, the
 * cable was unplugged. A replug-restart chip may connect again; the input limit
 * register is back at its reset value. */
static void pmic_gone_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	(void)ev;
	/* cond_gone stays set: the timer re-arms only after VBUS has come back. */
	c->replug_wait = false;
	c->uvlo = false;
	pmic_reg_force(c, c->p->iindpm_default);
	MODEL_NOTIFY(c);
}

static void pmic_term_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	(void)ev;
	c->done = true;
	c->cond_term = false;
	sim_cancel(c->sim, &c->ev_safety);
	MODEL_NOTIFY(c);
}

static void pmic_safety_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	(void)ev;
	c->fault = true;
	evlog_emit(c->log, sim_now(c->sim), "pmic", "charger_fault", "reason", "safety_timer");
	MODEL_NOTIFY(c);
}

static void pmic_stuck_end_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	for (int i = 0; i < PMIC_ADC_COUNT; i++)
		if (&c->stuck[i].ev_end == ev)
			c->stuck[i].stuck = false;
}

/* ICO: raise the optimiser's ceiling step by step until VBUS falls into VINDPM (or
 * the input stops taking more), then settle one step below. */
static void pmic_ico_cb(struct sim_event *ev, void *data);

void pmic_init(struct pmic *c, struct pmic_params *p, struct sim *sim, struct evlog *log,
	       model_changed_fn *changed, void *ctx)
{
	*c = (struct pmic){ .p = p, .sim = sim, .log = log, .changed = changed, .ctx = ctx,
			    .charge_enabled = true, .state = CHG_OFF, .ts_zone = PMIC_TS_NORMAL,
			    .iindpm = pmic_quantize_iindpm(p, p->iindpm_default) };
	sim_event_init(&c->ev_reg, pmic_reg_cb, c);
	sim_event_init(&c->ev_uvlo, pmic_uvlo_cb, c);
	sim_event_init(&c->ev_connect, pmic_connect_cb, c);
	sim_event_init(&c->ev_term, pmic_term_cb, c);
	sim_event_init(&c->ev_safety, pmic_safety_cb, c);
	sim_event_init(&c->ev_ico, pmic_ico_cb, c);
	sim_event_init(&c->ev_gone, pmic_gone_cb, c);
	for (int i = 0; i < PMIC_ADC_COUNT; i++)
		sim_event_init(&c->stuck[i].ev_end, pmic_stuck_end_cb, c);
}

void pmic_cleanup(void *pmic)
{
	struct pmic *c = pmic;

	sim_cancel(c->sim, &c->ev_reg);
	sim_cancel(c->sim, &c->ev_uvlo);
	sim_cancel(c->sim, &c->ev_connect);
	sim_cancel(c->sim, &c->ev_term);
	sim_cancel(c->sim, &c->ev_safety);
	sim_cancel(c->sim, &c->ev_ico);
	sim_cancel(c->sim, &c->ev_gone);
	for (int i = 0; i < PMIC_ADC_COUNT; i++)
		sim_cancel(c->sim, &c->stuck[i].ev_end);
}

/* ---- the thermistor (TS) input: the cell's temperature zone ---- */

/* The zone of temperature t read afresh (at the start of a run), without hysteresis:
 * a threshold's own temperature belongs to the milder side. */
static enum pmic_ts_zone pmic_ts_zone_of(const struct pmic_ts_params *ts, double t)
{
	if (t < ts->t1)
		return PMIC_TS_COLD;
	if (t < ts->t2)
		return PMIC_TS_COOL;
	if (t <= ts->t3)
		return PMIC_TS_NORMAL;
	return t <= ts->t5 ? PMIC_TS_WARM : PMIC_TS_HOT;
}

/* The thresholds that move zone z one zone colder (*down) or warmer (*up): a zone is
 * entered past its edge and left towards normal only hyst beyond it. NAN: none. */
static void pmic_ts_edges(const struct pmic_ts_params *ts, enum pmic_ts_zone z, double *down,
			  double *up)
{
	/* zone z's two edges only: the margins ask at every trial step */
	switch (z) {
	case PMIC_TS_COLD:
		*down = NAN;
		*up = ts->t1 + ts->t1_hyst;
		break;
	case PMIC_TS_COOL:
		*down = ts->t1;
		*up = ts->t2 + ts->t2_hyst;
		break;
	case PMIC_TS_NORMAL:
		*down = ts->t2;
		*up = ts->t3;
		break;
	case PMIC_TS_WARM:
		*down = ts->t3 - ts->t3_hyst;
		*up = ts->t5;
		break;
	default:   /* PMIC_TS_HOT */
		*down = ts->t5 - ts->t5_hyst;
		*up = NAN;
		break;
	}
}

/* The zone after z at temperature t: colder below `down` (normal and colder: strictly
 * below, warmer zones: at or below), warmer above `up` (normal and warmer: strictly
 * above; colder zones: at or above), as often as it takes (a chip with a plain
 * cold/hot window has empty cool and warm zones that are passed at once). */
static enum pmic_ts_zone pmic_ts_next(const struct pmic_ts_params *ts, enum pmic_ts_zone z,
				      double t)
{
	for (int i = 0; i < PMIC_TS_ZONE_COUNT; i++) {
		double down, up;
		bool warm_side = z >= PMIC_TS_WARM, cold_side = z <= PMIC_TS_COOL;

		pmic_ts_edges(ts, z, &down, &up);
		if (!isnan(down) && (warm_side ? t <= down : t < down))
			z--;
		else if (!isnan(up) && (cold_side ? t >= up : t > up))
			z++;
		else
			break;
	}
	return z;
}

static bool pmic_ts_suspended(const struct pmic *c)
{
	return c->p->ts.enabled && (c->ts_zone == PMIC_TS_COLD || c->ts_zone == PMIC_TS_HOT);
}

/* The cell's temperature at the TS input: a zone change is logged (pmic/ts_zone with
 * the zone left and the temperature) and changes the charge targets. */
static void pmic_ts_observe(struct pmic *c, double temp_c)
{
	const struct pmic_ts_params *ts = &c->p->ts;
	enum pmic_ts_zone z;
	cJSON *rec;

	if (!ts->enabled) {
		c->ts_zone = PMIC_TS_NORMAL;
		return;
	}
	z = c->ts_known ? pmic_ts_next(ts, c->ts_zone, temp_c) : pmic_ts_zone_of(ts, temp_c);
	c->ts_known = true;
	if (z == c->ts_zone)
		return;
	rec = evlog_begin(c->log, sim_now(c->sim), "pmic", "ts_zone");
	evlog_put_string(rec, "zone", pmic_ts_zone_names[z]);
	evlog_put_string(rec, "from", pmic_ts_zone_names[c->ts_zone]);
	evlog_put_number(rec, "temp_C", temp_c);
	evlog_end(c->log, rec);
	c->ts_zone = z;
	MODEL_NOTIFY(c);
}

/* The charge voltage and fast-charge current the TS zone leaves. */
static double pmic_vreg_eff(const struct pmic *c)
{
	return c->p->ts.enabled && c->ts_zone == PMIC_TS_WARM ?
	       c->p->vreg - c->p->ts.warm_vreg_drop : c->p->vreg;
}

static double pmic_ichg_eff(const struct pmic *c)
{
	const struct pmic_ts_params *ts = &c->p->ts;

	if (ts->enabled && c->ts_zone == PMIC_TS_COOL)
		return c->p->ichg * ts->cool_ichg;
	if (ts->enabled && c->ts_zone == PMIC_TS_WARM)
		return c->p->ichg * ts->warm_ichg;
	return c->p->ichg;
}

static inline bool pmic_charging(const struct pmic *c)
{
	return c->connected && c->charge_enabled && !c->done && !c->fault &&
	       !pmic_ts_suspended(c);
}

/* ---- thermal regulation (TREG) ---- */

/* How far the die may drift from treg while regulating before the charge current is
 * worked out again: a hundredth of the datasheets' +-5 C regulation accuracy
 * (SLUSAW5: 115 to 125 C at 120 C). */
#define PMIC_TREG_BAND_K 0.05

/* The die temperature at an operating point: the battery's ambient plus theta_ja times
 * the charger's own loss (no thermal mass: a die settles in seconds). */
static double pmic_die_c(const struct pmic *c, const struct net_out *op)
{
	double ambient = c->cell ? c->cell->temperature_c : 25;

	return ambient + c->p->theta_ja * op->p_chg_loss;
}

/* The charge current that holds the die at treg, from an operating point: the loss
 * scales with the power through the charger (system plus battery), so the battery's
 * share shrinks until the loss is (treg - ambient) / theta_ja. */
static double pmic_treg_ichg(const struct pmic *c, const struct net_out *op)
{
	double ambient = c->cell ? c->cell->temperature_c : 25;
	double loss_max = fmax(0, c->p->treg - ambient) / c->p->theta_ja;
	double p_out = op->p_load + op->p_bat;

	if (op->p_chg_loss <= 0 || op->vbat <= 0 || p_out <= 0)
		return INFINITY;
	return fmax(0, (loss_max / op->p_chg_loss * p_out - op->p_load) / op->vbat);
}

/* Enter regulation when the die passes treg while charging; the allowed current is
 * worked out again at each operating point (kept when it moves by under 1 uA, so
 * that the world settles) and regulation ends once it is above the charge current. */
static void pmic_treg_observe(struct pmic *c, const struct net_out *op)
{
	bool on = c->treg_active;
	double cap;

	if (c->p->treg <= 0 || !pmic_charging(c)) {
		on = false;
	} else if (!on) {
		on = pmic_die_c(c, op) > c->p->treg;
	}
	if (on) {
		/* the loss is a fixed share of the power through a switching charger, so
		 * the scaling holds from any operating point */
		cap = pmic_treg_ichg(c, op);
		on = cap < pmic_ichg_eff(c);
		if (on && (!c->treg_active || fabs(cap - c->treg_ichg) > 1e-6)) {
			c->treg_ichg = cap;
			MODEL_NOTIFY(c);
		}
	}
	if (on == c->treg_active)
		return;
	c->treg_active = on;
	model_log_number(c->log, c->sim, "pmic", on ? "treg_on" : "treg_off", "die_C",
			 pmic_die_c(c, op));
	MODEL_NOTIFY(c);
}


/* In constant-voltage regulation at the last operating point. */
static bool pmic_cv(const struct pmic *c)
{
	return (c->last_flags & NET_F_CV) != 0;
}

void pmic_net(const struct pmic *c, struct net_in *in)
{
	const struct pmic_params *p = c->p;

	in->chg_on = c->connected && !c->hiz;
	in->linear = p->topology == PMIC_LINEAR;
	in->iindpm = c->iindpm;
	if (c->ico_running && c->ico_limit < in->iindpm)
		in->iindpm = c->ico_limit;
	in->vindpm = p->vindpm;
	in->eff = p->efficiency;
	in->r_on = p->r_on;
	in->vsys_min = p->topology == PMIC_SWITCHING ? p->vsys_min : 0;
	in->charging = pmic_charging(c);
	in->ichg = c->precharge ? p->ipre : pmic_ichg_eff(c);
	if (c->treg_active && c->treg_ichg < in->ichg)
		in->ichg = c->treg_ichg;
	in->vreg = pmic_vreg_eff(c);
}

/* The input stage is switched off, for whatever reason but UVLO: no report, the
 * charge cycle's timers stop. */
static void pmic_input_off(struct pmic *c)
{
	c->connected = false;
	c->uvlo = false;
	sim_cancel(c->sim, &c->ev_term);
	sim_cancel(c->sim, &c->ev_safety);
	sim_cancel(c->sim, &c->ev_ico);
	c->ico_running = false;
}

/* Input over-voltage protection: at ovp_rising the input is disconnected at once (the
 * datasheets' reaction times are below a microsecond) and stays off, logged as "ovp",
 * until VBUS is back at ovp_falling; it then connects as after any plug (t_restart
 * above uvlo_rising). */
static void pmic_check_ovp(struct pmic *c, const struct net_out *op, bool vbus_attached)
{
	const struct pmic_params *p = c->p;

	if (!c->ovp && p->ovp_rising > 0 && vbus_attached && op->vbus >= p->ovp_rising) {
		c->ovp = true;
		if (c->connected)
			pmic_input_off(c);
		model_log_number(c->log, c->sim, "pmic", "ovp", "vbus_V", op->vbus);
		MODEL_NOTIFY(c);
	} else if (c->ovp && (p->ovp_rising <= 0 || !vbus_attached || op->vbus <= p->ovp_falling)) {
		c->ovp = false;
		MODEL_NOTIFY(c);
	}
}

void pmic_observe(struct pmic *c, const struct net_out *op, bool vbus_attached)
{
	const struct pmic_params *p = c->p;
	bool vbus_gone = !vbus_attached || op->vbus < PMIC_VBUS_SESSION_V;

	pmic_check_ovp(c, op, vbus_attached);
	model_timer(c->sim, &c->cond_gone, vbus_gone, &c->ev_gone, p->t_replug);
	if (!vbus_attached && c->connected) {
		/* Unplugged: the input simply goes away, no UVLO report. */
		pmic_input_off(c);
	}
	if (c->connected) {
		model_timer(c->sim, &c->cond_good, false, &c->ev_connect, 0);
		model_timer(c->sim, &c->cond_low, op->vbus < p->uvlo_falling, &c->ev_uvlo,
			       p->uvlo_deglitch);
	} else {
		model_timer(c->sim, &c->cond_low, false, &c->ev_uvlo, 0);
		model_timer(c->sim, &c->cond_good,
			       vbus_attached && !c->replug_wait && !c->ovp &&
				       op->vbus >= p->uvlo_rising,
			       &c->ev_connect, p->t_restart);
	}

	/* Regulation phase: precharge with hysteresis, CV from the solution. A new
	 * charge cycle decides on the battery voltage it finds. */
	if (!pmic_charging(c)) {
		c->phase_set = false;
	} else if (!c->phase_set) {
		c->phase_set = true;
		c->precharge = op->vbat < p->vlowv;
	} else {
		if (c->precharge && op->vbat >= p->vlowv)
			c->precharge = false;
		else if (!c->precharge && op->vbat < p->vlowv - PMIC_VLOWV_HYST_V)
			c->precharge = true;
	}
	c->last_flags = op->flags;
	pmic_adc_track(c, PMIC_ADC_VBUS, op->vbus);
	pmic_adc_track(c, PMIC_ADC_IBUS, op->ibus);
	pmic_adc_track(c, PMIC_ADC_VBAT, op->vbat);
	pmic_adc_track(c, PMIC_ADC_IBAT, op->ibat);
	model_timer(c->sim, &c->cond_term, pmic_charging(c) && pmic_cv(c) && op->ibat < p->iterm,
		       &c->ev_term, p->t_term);
	if (c->done && c->connected && op->vbat < pmic_vreg_eff(c) - p->vrechg_delta) {
		c->done = false;
		evlog_emit(c->log, sim_now(c->sim), "pmic", "recharge", NULL, NULL);
		if (p->safety_timer > 0)
			sim_after(c->sim, &c->ev_safety, p->safety_timer);
	}
}

/* The state as settled; logged only on change, once the world has re-solved the
 * operating point for the new discrete state (no zero-length states). */
static void pmic_model_settled(void *state, const struct model_point *pt)
{
	struct pmic *c = state;
	bool vbus_gone = !model_wire(pt->wires->vbus_attached) ||
			 pt->op->vbus < PMIC_VBUS_SESSION_V;
	enum charger_state st;

	if (!c->connected && c->ovp)
		st = CHG_OVP;
	else if (!c->connected)
		st = c->uvlo && !vbus_gone ? CHG_UVLO : CHG_OFF;
	else if (c->fault)
		st = CHG_FAULT;
	else if (c->done)
		st = CHG_DONE;
	else if (!c->charge_enabled || pmic_ts_suspended(c))
		st = CHG_OFF;
	else if (c->precharge)
		st = CHG_PRECHARGE;
	else
		st = pmic_cv(c) ? CHG_CV : CHG_CC;
	pmic_log_state(c, st);
}

/* The TS zone's edges at temperature t: g[0] >= 0 once it is colder than its lower
 * edge, g[1] once it is warmer than its upper one. */
static void pmic_ts_margins(const struct pmic *c, double t, double *g)
{
	double down, up;

	g[0] = g[1] = -1;
	if (!c->p->ts.enabled || !c->ts_known || isnan(t))
		return;
	pmic_ts_edges(&c->p->ts, c->ts_zone, &down, &up);
	if (!isnan(down))
		g[0] = down - t;
	if (!isnan(up))
		g[1] = t - up;
}

/* The thresholds of pmic_observe() and the entry into CV regulation (VBAT reaching
 * VREG). */
static void pmic_model_margins(const void *state, const struct model_point *pt, double *g)
{
	const struct pmic *c = state;
	const struct pmic_params *p = c->p;
	const struct net_out *op = pt->op;
	bool charging = pmic_charging(c);

	/* g >= 0 means "the condition holds"; constant -1 when it cannot change. */
	g[0] = c->connected ? p->uvlo_falling - op->vbus : -1;
	g[1] = !c->connected ? op->vbus - p->uvlo_rising : -1;
	g[2] = charging && pmic_cv(c) ? p->iterm - op->ibat : -1;
	g[3] = c->done ? (pmic_vreg_eff(c) - p->vrechg_delta) - op->vbat : -1;
	g[4] = charging ? (c->precharge ? op->vbat - p->vlowv
					: (p->vlowv - PMIC_VLOWV_HYST_V) - op->vbat) : -1;
	g[5] = p->ovp_rising <= 0 ? -1 : c->ovp ? p->ovp_falling - op->vbus : op->vbus - p->ovp_rising;
	g[6] = pt->in->charging ? (op->flags & NET_F_CV ? 1 : op->vbat - pmic_vreg_eff(c)) : -1;
	pmic_ts_margins(c, pt->x ? pt->x->temp_c : NAN, &g[7]);
	/* thermal regulation: the die reaching treg; while it regulates, the die
	 * leaving treg by PMIC_TREG_BAND_K (the cell's voltage moves the power under a
	 * fixed current), when the current is worked out again */
	g[9] = p->treg <= 0 || !charging ? -1 :
	       c->treg_active ? fabs(pmic_die_c(c, op) - p->treg) - PMIC_TREG_BAND_K :
	       pmic_die_c(c, op) - p->treg;
}

void pmic_start_ico(struct pmic *c)
{
	if (!c->p->ico || !c->connected)
		return;
	c->ico_running = true;
	c->ico_limit = c->p->ico_start;
	evlog_emit(c->log, sim_now(c->sim), "pmic", "ico_start", NULL, NULL);
	sim_reschedule(c->sim, &c->ev_ico, sim_now(c->sim) + c->p->ico_interval);
	MODEL_NOTIFY(c);
}

static void pmic_ico_cb(struct sim_event *ev, void *data)
{
	struct pmic *c = data;

	(void)ev;
	if (!c->connected) {
		c->ico_running = false;
		return;
	}
	if (c->last_flags & NET_F_VINDPM) {
		/* VBUS reached VINDPM at this ceiling: the source is at its limit. */
		c->ico_limit -= c->p->ico_step;
		if (c->ico_limit < c->p->ico_start)
			c->ico_limit = c->p->ico_start;
	} else {
		c->ico_limit += c->p->ico_step;
	}
	if ((c->last_flags & NET_F_VINDPM) || c->ico_limit >= c->iindpm) {
		c->ico_running = false;
		c->ico_result = fmin(c->ico_limit, c->iindpm);
		pmic_reg_force(c, c->ico_result);
		model_log_number(c->log, c->sim, "pmic", "ico_done", "ilim_A", c->ico_result);
	} else {
		sim_after(c->sim, &c->ev_ico, c->p->ico_interval);
	}
	MODEL_NOTIFY(c);
}

void pmic_adc_track(struct pmic *c, enum pmic_adc_chan ch, double value)
{
	sim_time_t t = sim_now(c->sim), len = c->p->adc[ch].conv_time;
	struct pmic_adc_conv *w = &c->conv[ch];
	int64_t k;

	if (len <= 0)
		return;
	k = t / len;
	if (!w->have) {
		/* the first conversion reads what the chip found at power-up */
		*w = (struct pmic_adc_conv){ .have = true, .win = k, .start = value, .done = value,
				       .last = value };
		return;
	}
	if (k > w->win) {
		/* Windows ended since the last value: the values between are held
		 * (the operating point is piecewise constant between solutions), so
		 * the last completed window started on w->start if it is the one
		 * under way until now, else on the held value. */
		w->done = k - 1 == w->win ? w->start : w->last;
		w->start = k * len == t ? value : w->last;
		w->win = k;
	} else if (k * len == t) {
		w->start = value;   /* re-solved at the window's first instant */
	}
	w->last = value;
}

double pmic_adc_read(struct pmic *c, enum pmic_adc_chan ch, double true_value)
{
	const struct pmic_adc_params *a = &c->p->adc[ch];
	struct pmic_adc_conv *w = &c->conv[ch];
	double x = 0;
	int n = a->average > 0 ? a->average : 1;

	if (c->stuck[ch].stuck)
		return c->stuck[ch].value;
	if (a->conv_time > 0) {
		pmic_adc_track(c, ch, true_value);
		/* the register holds one conversion: every read of it alike */
		if (w->read_have && w->read_win == w->win)
			return w->reading;
		true_value = w->done;
	}
	for (int i = 0; i < n; i++)
		x += true_value + (a->noise > 0 ? a->noise * sim_rng_gauss(c->sim) : 0);
	x /= n;
	if (a->lsb > 0) {
		double code = floor((x - a->offset) / a->lsb + 0.5);
		/* full_scale 0 is "unlimited", also below a negative offset */
		double max_code = a->full_scale > 0 && a->full_scale > a->offset ?
					  floor((a->full_scale - a->offset) / a->lsb + 1e-9) : INFINITY;

		if (code < 0)
			code = 0;
		if (code > max_code)
			code = max_code;
		x = a->offset + code * a->lsb;
	} else if (a->full_scale > 0 && x > a->full_scale) {
		x = a->full_scale;
	}
	if (a->conv_time > 0) {
		w->read_have = true;
		w->read_win = w->win;
		w->reading = x;
	}
	return x;
}

void pmic_adc_stick(struct pmic *c, enum pmic_adc_chan ch, double value, sim_time_t dur)
{
	c->stuck[ch].stuck = true;
	c->stuck[ch].value = value;
	sim_cancel(c->sim, &c->stuck[ch].ev_end);
	sim_after(c->sim, &c->stuck[ch].ev_end, dur);
}

static void pmic_model_params_changed(void *state, const struct param_desc *changed)
{
	struct pmic *c = state;

	(void)changed;
	model_timer(c->sim, &c->cond_low, false, &c->ev_uvlo, 0);
	model_timer(c->sim, &c->cond_good, false, &c->ev_connect, 0);
	model_timer(c->sim, &c->cond_term, false, &c->ev_term, 0);
	MODEL_NOTIFY(c);
}

static const char *const pmic_needs[] = { "device.battery", NULL };

static void pmic_model_init(void *state, void *params, const struct model_env *env)
{
	struct pmic *c = state;

	pmic_init(c, params, env->sim, env->log, env->changed, env->ctx);
	env->wires->power_good = &c->connected;
	c->cell = env->params_of(env, "device.battery");
}

/* A pairing whose full charge ends beyond the cell's OCV table (a 'vreg' above what
 * the table's 100 % point holds at the termination current) reports SOC above 100 %:
 * say so at the start of the run, with the numbers. A charge that terminates at iterm
 * leaves the cell at vreg - iterm*(R0 + R1 + R2) (the RC pairs settled), with its
 * resistances at its capacity and temperature. */
static void pmic_model_start(void *state)
{
	struct pmic *c = state;
	struct battery_eff e;
	double end, full;
	cJSON *rec;
	char msg[256];

	if (!c->cell)
		return;
	battery_effective(c->cell, c->cell->temperature_c, &e);
	end = c->p->vreg - c->p->iterm * (e.r0 + e.r1 + e.r2);
	full = battery_ocv(c->cell, 1.0);
	if (end <= full + 1e-9)
		return;
	snprintf(msg, sizeof(msg),
		 "a charge to vreg %.4g V ending at iterm %.4g A leaves the cell at an OCV of %.4g V, above its OCV table's 100 %% point (%.4g V): SOC will pass 100 %%; lower vreg, raise iterm, or give the cell's own ocv table",
		 c->p->vreg, c->p->iterm, end, full);
	rec = evlog_begin(c->log, sim_now(c->sim), "pmic", "warning");
	evlog_put_string(rec, "message", msg);
	evlog_put_number(rec, "vreg_V", c->p->vreg);
	evlog_put_number(rec, "ocv_end_V", end);
	evlog_put_number(rec, "ocv_full_V", full);
	evlog_end(c->log, rec);
}

static void pmic_model_net(void *state, const struct net_out *last, struct net_in *in)
{
	(void)last;
	pmic_net(state, in);
}

static void pmic_model_observe(void *state, const struct model_point *pt)
{
	if (pt->x)
		pmic_ts_observe(state, pt->x->temp_c);
	pmic_observe(state, pt->op, model_wire(pt->wires->vbus_attached));
	pmic_treg_observe(state, pt->op);
}

MODEL_STATE_FIELD(pmic_ilim, struct pmic, iindpm)
MODEL_STATE_FIELD(pmic_uvlo_events, struct pmic, uvlo_events)

/* ilim_A, charger_state */
static void pmic_row(const void *state, const struct model_point *pt,
		     const struct model_row *r)
{
	const struct pmic *c = state;

	(void)pt;
	model_row_set(r, 0, c->iindpm);
	model_row_set(r, 1, c->state);
}

/* the input limit while a port is attached (0 without one) */
static double pmic_ilim_attached(const void *state, const struct model_point *pt)
{
	return model_wire(pt->wires->vbus_attached) ? ((const struct pmic *)state)->iindpm : 0;
}

/* charging done: >= 0 once the charger reports it */
static double pmic_done(const void *state, const struct model_point *pt)
{
	(void)pt;
	return ((const struct pmic *)state)->state == CHG_DONE ? 0 : -1;
}

static const struct model_column pmic_columns[] = {
	{ 3, "ilim_A", "A", 6, NULL, 0 },
	{ 8, "charger_state", "", 0, charger_state_names, CHG_STATE_COUNT },
};

static const struct model_metric pmic_metrics[] = {
	MODEL_METRIC(4, "uvlo_events", COUNT, 0, AT_END, false, pmic_uvlo_events),
	MODEL_METRIC(8, "ilim_final_A", DIGITS, 7, AT_END, false, pmic_ilim),
	MODEL_METRIC(9, "ilim_max_A", DIGITS, 7, MAX, false, pmic_ilim_attached),
	MODEL_METRIC(16, "time_to_full_s", TIME, 9, FIRST, false, pmic_done),
};

const struct model_desc model_pmic = {
	MODEL_PARAMS("device.pmic", pmic_param_desc, struct pmic_params),
	.preset_key = "preset",
	.default_preset = "generic-switching",
	.defaults = pmic_params_default,
	.validate = pmic_validate,
	.needs = pmic_needs,
	.list_name = "pmics",
	.list_title = "Charger IC presets (\"device\": {\"pmic\": {\"preset\": ...}}):",
	.state_size = sizeof(struct pmic),
	.init = pmic_model_init,
	.start = pmic_model_start,
	.cleanup = pmic_cleanup,
	.params_changed = pmic_model_params_changed,
	.net = pmic_model_net,
	.n_margins = 10,
	.margins = pmic_model_margins,
	.observe = pmic_model_observe,
	.settled = pmic_model_settled,
	MODEL_TABLE(columns, pmic_columns),
	.row = pmic_row,
	MODEL_TABLE(metrics, pmic_metrics),
};
