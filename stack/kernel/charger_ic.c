// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/charger_ic.c - thin dispatch of the charger IC calls to the simulator,
 * logging every input-limit write (the `ilim_set` event) since that is what ramp
 * policies are judged on.
 */
#include <errno.h>
#include <chargesim/charger_ic.h>
#include <chargesim/kernel.h>
#include "sim/evlog.h"

int cs_chg_set_input_current_limit(struct cs_charger_ic *ic, int ua)
{
	struct cs_kernel *k = cs_kernel();
	int applied = ic->ops->set_input_current_limit(ic->hw, ua);
	cJSON *rec;

	rec = evlog_begin(k->log, sim_now(k->sim), "stack", "ilim_set");
	evlog_put_number(rec, "request_mA", ua / 1000.0);
	evlog_put_number(rec, "applied_mA", applied / 1000.0);
	evlog_end(k->log, rec);
	return applied;
}

int cs_chg_get_input_current_limit(struct cs_charger_ic *ic)
{
	return ic->ops->get_input_current_limit(ic->hw);
}

void cs_chg_input_current_range(struct cs_charger_ic *ic, int *min_ua, int *max_ua, int *step_ua)
{
	ic->ops->input_current_range(ic->hw, min_ua, max_ua, step_ua);
}

int cs_chg_read_adc(struct cs_charger_ic *ic, enum cs_adc_channel ch, int *val)
{
	return ic->ops->read_adc(ic->hw, ch, val);
}

int cs_chg_adc_lsb(struct cs_charger_ic *ic, enum cs_adc_channel ch)
{
	return ic->ops->adc_lsb ? ic->ops->adc_lsb(ic->hw, ch) : -EOPNOTSUPP;
}

int cs_chg_adc_conv_time(struct cs_charger_ic *ic, enum cs_adc_channel ch)
{
	return ic->ops->adc_conv_time ? ic->ops->adc_conv_time(ic->hw, ch) : 0;
}

int cs_chg_set_charge_enable(struct cs_charger_ic *ic, bool on)
{
	cs_stack_event("charge_enable", "on", on ? "true" : "false");
	return ic->ops->set_charge_enable(ic->hw, on);
}

int cs_chg_set_input_enable(struct cs_charger_ic *ic, bool on)
{
	cs_stack_event("input_enable", "on", on ? "true" : "false");
	return ic->ops->set_input_enable(ic->hw, on);
}

int cs_chg_set_charge_current(struct cs_charger_ic *ic, int ua)
{
	return ic->ops->set_charge_current(ic->hw, ua);
}

int cs_chg_set_charge_voltage(struct cs_charger_ic *ic, int uv)
{
	return ic->ops->set_charge_voltage(ic->hw, uv);
}

int cs_chg_set_vindpm(struct cs_charger_ic *ic, int uv)
{
	return ic->ops->set_vindpm(ic->hw, uv);
}

int cs_chg_get_vindpm(struct cs_charger_ic *ic)
{
	return ic->ops->get_vindpm ? ic->ops->get_vindpm(ic->hw) : -EOPNOTSUPP;
}

int cs_chg_vindpm_range(struct cs_charger_ic *ic, int *min_uv, int *max_uv, int *step_uv)
{
	return ic->ops->vindpm_range ? ic->ops->vindpm_range(ic->hw, min_uv, max_uv, step_uv) :
				       -EOPNOTSUPP;
}

int cs_chg_start_ico(struct cs_charger_ic *ic)
{
	return ic->ops->start_ico ? ic->ops->start_ico(ic->hw) : -EOPNOTSUPP;
}

int cs_chg_get_ico_result(struct cs_charger_ic *ic)
{
	return ic->ops->get_ico_result ? ic->ops->get_ico_result(ic->hw) : -EOPNOTSUPP;
}

enum cs_chg_status cs_chg_get_status(struct cs_charger_ic *ic)
{
	return ic->ops->get_status(ic->hw);
}

bool cs_chg_vbus_present(struct cs_charger_ic *ic)
{
	return ic->ops->vbus_present(ic->hw);
}

int cs_chg_get_input_regulation(struct cs_charger_ic *ic)
{
	return ic->ops->get_input_regulation ? ic->ops->get_input_regulation(ic->hw) :
					       -EOPNOTSUPP;
}
