// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/charger_ic.c - the hardware as the stack's drivers see it.
 *
 * The charger-IC ops (chargesim/charger_ic.h) a policy calls turn into the pmic
 * model's register writes and ADC reads; the board's power_supply properties
 * (run/board.h) are read from the pmic, the battery and the port, and written to
 * sysfs dumps at given times. Reads re-solve the operating point first when a model
 * changed since the last solution, so a register write followed by an ADC read in the
 * same work function sees its effect.
 */
#include <errno.h>
#include <math.h>
#include "models/pmic/pmic.h"
#include "run/world_priv.h"

/* The charger IC behind the ops (hw is the world). */
static struct pmic *ic_pmic(void *hw)
{
	struct world *w = hw;

	return w->state[w->chip];
}

static int ic_set_ilim(void *hw, int ua)
{
	return (int)lround(pmic_write_iindpm(ic_pmic(hw), ua * 1e-6) * 1e6);
}

static int ic_get_ilim(void *hw)
{
	return (int)lround(ic_pmic(hw)->iindpm * 1e6);
}

static void ic_range(void *hw, int *min_ua, int *max_ua, int *step_ua)
{
	const struct pmic_params *p = ic_pmic(hw)->p;

	*min_ua = (int)lround(p->iindpm_min * 1e6);
	*max_ua = (int)lround(p->iindpm_max * 1e6);
	*step_ua = p->ladder_n ? 0 : (int)lround(p->iindpm_step * 1e6);
}

static int ic_read_adc(void *hw, enum cs_adc_channel ch, int *val)
{
	struct world *w = hw;
	double truth, x;

	world_refresh(w);
	switch (ch) {
	case CS_ADC_VBUS: truth = w->op.vbus; break;
	case CS_ADC_IBUS: truth = w->op.ibus; break;
	case CS_ADC_VBAT: truth = w->op.vbat; break;
	case CS_ADC_IBAT: truth = w->op.ibat; break;
	default: return -EINVAL;
	}
	/* a channel the chip does not have: no reading, as a power_supply property
	 * its driver does not list */
	if (ic_pmic(hw)->p->adc[ch].absent)
		return -ENODATA;
	x = pmic_adc_read(ic_pmic(hw), (enum pmic_adc_chan)ch, truth);
	*val = (int)lround(x * 1e6);
	return 0;
}

static int ic_adc_lsb(void *hw, enum cs_adc_channel ch)
{
	if ((unsigned int)ch > CS_ADC_IBAT)
		return -EINVAL;
	if (ic_pmic(hw)->p->adc[ch].absent)
		return -ENODATA;
	return (int)lround(ic_pmic(hw)->p->adc[ch].lsb * 1e6);
}

static int ic_adc_conv_time(void *hw, enum cs_adc_channel ch)
{
	if ((unsigned int)ch > CS_ADC_IBAT)
		return -EINVAL;
	if (ic_pmic(hw)->p->adc[ch].absent)
		return -ENODATA;
	return (int)(ic_pmic(hw)->p->adc[ch].conv_time / SIM_US);
}

static int ic_charge_enable(void *hw, bool on)
{
	pmic_set_charge_enable(ic_pmic(hw), on);
	return 0;
}

static int ic_input_enable(void *hw, bool on)
{
	/* only a chip with an input high-impedance mode can switch its input off */
	if (!ic_pmic(hw)->p->hiz)
		return -EOPNOTSUPP;
	pmic_set_hiz(ic_pmic(hw), !on);
	return 0;
}

static int ic_set_ichg(void *hw, int ua)
{
	if (ua <= 0)
		return -EINVAL;
	pmic_write_ichg(ic_pmic(hw), ua * 1e-6);
	return 0;
}

static int ic_set_vreg(void *hw, int uv)
{
	/* The chip refuses what the cell cannot take, as a register range would. */
	if (uv <= 3000000 || uv * 1e-6 > world_cell(hw)->p->v_max + 1e-9)
		return -EINVAL;
	pmic_write_vreg(ic_pmic(hw), uv * 1e-6);
	return 0;
}

static int ic_get_vindpm(void *hw)
{
	if (!((struct world *)hw)->vindpm_hw)
		return -EOPNOTSUPP;
	return (int)lround(ic_pmic(hw)->p->vindpm * 1e6);
}

static int ic_set_vindpm(void *hw, int uv)
{
	/* Only a chip that has a VINDPM loop (its preset or scenario set one) can take it. */
	if (!((struct world *)hw)->vindpm_hw)
		return -EOPNOTSUPP;
	if (uv < 0)
		return -EINVAL;
	/* the register holds what its grid can: a write lands on the code below */
	pmic_write_vindpm(ic_pmic(hw), pmic_vindpm_register(ic_pmic(hw)->p, uv * 1e-6));
	return 0;
}

static int ic_vindpm_range(void *hw, int *min_uv, int *max_uv, int *step_uv)
{
	const struct pmic_params *p = ic_pmic(hw)->p;

	if (!((struct world *)hw)->vindpm_hw)
		return -EOPNOTSUPP;
	*min_uv = (int)lround(p->vindpm_min * 1e6);
	*max_uv = (int)lround(p->vindpm_max * 1e6);
	*step_uv = (int)lround(p->vindpm_step * 1e6);
	return 0;
}

static int ic_start_ico(void *hw)
{
	if (!ic_pmic(hw)->p->ico)
		return -EOPNOTSUPP;
	pmic_start_ico(ic_pmic(hw));
	return 0;
}

static int ic_ico_result(void *hw)
{
	const struct pmic *c = ic_pmic(hw);

	if (!c->p->ico)
		return -EOPNOTSUPP;
	return c->ico_running ? 0 : (int)lround(c->ico_result * 1e6);
}

static enum cs_chg_status ic_status(void *hw)
{
	switch (ic_pmic(hw)->state) {
	case CHG_PRECHARGE: return CS_CHG_STATUS_PRECHARGE;
	case CHG_CC: return CS_CHG_STATUS_FAST;
	case CHG_CV: return CS_CHG_STATUS_TAPER;
	case CHG_DONE: return CS_CHG_STATUS_DONE;
	case CHG_UVLO: return CS_CHG_STATUS_UVLO;
	case CHG_FAULT: return CS_CHG_STATUS_FAULT;
	case CHG_OVP: return CS_CHG_STATUS_FAULT;   /* an input fault, as the bq25890 reports OVP */
	default: return CS_CHG_STATUS_OFF;
	}
}

static bool ic_vbus_present(void *hw)
{
	struct world *w = hw;

	world_refresh(w);
	return model_wire(w->wires.vbus_attached) && w->op.vbus >= ic_pmic(hw)->p->uvlo_falling;
}

/* The chip's input regulation status bits at the present operating point. */
static int ic_input_regulation(void *hw)
{
	struct world *w = hw;
	const struct pmic *c = ic_pmic(hw);
	int bits = 0;

	if (c->p->dpm_stat == PMIC_DPM_STAT_NONE)
		return -EOPNOTSUPP;
	world_refresh(w);
	if (!c->connected)
		return 0;
	if (w->op.flags & NET_F_IINDPM)
		bits |= CS_CHG_INREG_CURRENT;
	if (w->op.flags & NET_F_VINDPM)
		bits |= CS_CHG_INREG_VOLTAGE;
	if (c->p->dpm_stat == PMIC_DPM_STAT_COMBINED && bits)
		bits = CS_CHG_INREG_DPM;
	return bits;
}

const struct cs_charger_ic_ops world_ic_ops = {
	.set_input_current_limit = ic_set_ilim,
	.get_input_current_limit = ic_get_ilim,
	.input_current_range = ic_range,
	.read_adc = ic_read_adc,
	.adc_lsb = ic_adc_lsb,
	.adc_conv_time = ic_adc_conv_time,
	.set_charge_enable = ic_charge_enable,
	.set_input_enable = ic_input_enable,
	.set_charge_current = ic_set_ichg,
	.set_charge_voltage = ic_set_vreg,
	.set_vindpm = ic_set_vindpm,
	.get_vindpm = ic_get_vindpm,
	.vindpm_range = ic_vindpm_range,
	.start_ico = ic_start_ico,
	.get_ico_result = ic_ico_result,
	.get_status = ic_status,
	.vbus_present = ic_vbus_present,
	.get_input_regulation = ic_input_regulation,
};

/* The hardware as the board's drivers read it (power_supply properties). */
void world_board_read_cb(void *ctx, struct board_readings *r)
{
	struct world *w = ctx;
	/* the charger's state as POWER_SUPPLY_STATUS_* and POWER_SUPPLY_CHARGE_TYPE_* */
	static const struct { int status, type; } of[] = {
		[CHG_OFF] = { POWER_SUPPLY_STATUS_DISCHARGING, POWER_SUPPLY_CHARGE_TYPE_NONE },
		[CHG_PRECHARGE] = { POWER_SUPPLY_STATUS_CHARGING, POWER_SUPPLY_CHARGE_TYPE_TRICKLE },
		[CHG_CC] = { POWER_SUPPLY_STATUS_CHARGING, POWER_SUPPLY_CHARGE_TYPE_FAST },
		[CHG_CV] = { POWER_SUPPLY_STATUS_CHARGING, POWER_SUPPLY_CHARGE_TYPE_FAST },
		[CHG_DONE] = { POWER_SUPPLY_STATUS_FULL, POWER_SUPPLY_CHARGE_TYPE_NONE },
		[CHG_UVLO] = { POWER_SUPPLY_STATUS_NOT_CHARGING, POWER_SUPPLY_CHARGE_TYPE_NONE },
		[CHG_FAULT] = { POWER_SUPPLY_STATUS_NOT_CHARGING, POWER_SUPPLY_CHARGE_TYPE_NONE },
		[CHG_OVP] = { POWER_SUPPLY_STATUS_NOT_CHARGING, POWER_SUPPLY_CHARGE_TYPE_NONE },
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(of) == CHG_STATE_COUNT);
	const struct pmic *c = ic_pmic(w);
	const struct battery *b = world_cell(w);
	double soc = b->x.soc;

	world_refresh(w);
	r->vbus_online = model_wire(w->wires.vbus_attached) && w->op.vbus >= PMIC_VBUS_SESSION_V;
	r->vbus_uv = (int)lround(w->op.vbus * 1e6);
	r->ibus_ua = (int)lround(w->op.ibus * 1e6);
	r->ilim_ua = (int)lround(c->iindpm * 1e6);
	r->ichg_ua = (int)lround(c->p->ichg * 1e6);
	r->vreg_uv = (int)lround(c->p->vreg * 1e6);
	r->status = of[c->state].status;
	r->charge_type = of[c->state].type;
	r->bat_uv = (int)lround(w->op.vbat * 1e6);
	r->bat_ua = (int)lround(w->op.ibat * 1e6);
	r->bat_capacity = (int)lround(fmin(fmax(soc, 0), 1) * 100);
	r->bat_temp_decic = (int)lround(b->x.temp_c * 10);
	r->bat_full_design_uah = (int)lround(b->p->capacity_ah * 1e6);
	r->chip = pmic_preset_names[c->p->preset];
}

/* ---- sysfs dumps ---- */

static void world_sysfs_cb(struct sim_event *ev, void *data)
{
	struct world *w = data;
	int i = (int)(ev - w->sysfs_ev);
	g_autofree char *dir = NULL;
	GError *err = NULL;

	if (!w->outdir)
		return;
	world_refresh(w);
	dir = g_strdup_printf("%s/sysfs-%s", w->outdir, w->opt.sysfs_labels[i]);
	if (!board_sysfs_dump(dir, &err)) {
		world_fail(w, "%s", err->message);
		g_error_free(err);
	}
}

void world_sysfs_init(struct world *w)
{
	if (w->opt.n_sysfs <= 0)
		return;
	w->sysfs_ev = g_new0(struct sim_event, (gsize)w->opt.n_sysfs);
	for (int i = 0; i < w->opt.n_sysfs; i++)
		sim_event_init(&w->sysfs_ev[i], world_sysfs_cb, w);
}

void world_sysfs_schedule(struct world *w)
{
	for (int i = 0; i < w->opt.n_sysfs; i++)
		if (w->opt.sysfs_at[i] <= w->duration)
			sim_at(&w->sim, &w->sysfs_ev[i], w->opt.sysfs_at[i]);
}

void world_sysfs_cancel(struct world *w)
{
	for (int i = 0; w->sysfs_ev && i < w->opt.n_sysfs; i++)
		sim_cancel(&w->sim, &w->sysfs_ev[i]);
}
