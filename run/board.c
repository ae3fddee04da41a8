// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/board.c - the drivers behind the policy's board: PHY reporting, extcon, the
 * USB and battery power supplies, the host and the gadget (see board.h).
 *
 * Reporting order after a detection, as a PHY driver does it: extcon cables (old ones
 * detached first), the power supply's type and its uevent, then the usb_phy
 * notifier's CHARGER event if the run's PHY glue sends one (run/phy_glue.c: the
 * generic glue does, an OMAP3 phone's does not). A data port then enumerates the
 * gadget after the host's delay; the chosen configuration's MaxPower goes through
 * vbus_draw().
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "run/board.h"
#include "run/world.h"
#include "sim/evlog.h"
#include "output/outfile.h"

static const char *const extcon_habit_names[] = { "consistent", "max14577", "vbus", NULL };
static const char *const payload_names[] = { "mA", "gadget", "null", NULL };
static const char *const framework_names[] = { "none", "2016", "merged", NULL };
/* "board", then the keys of board_phy_glues[] in order (tests/test_stack.c checks) */
static const char *const phy_glue_names[] = {
	"board", "generic", "omap2430", "usb-nop-xceiv", "intel-cht", "no-usb-phy", NULL,
};
/* "detected", then the power_supply type strings in enum order. */
static const char *const psy_type_choices[] = {
	"detected", "Unknown", "Battery", "UPS", "Mains", "USB", "USB_DCP", "USB_CDP",
	"USB_ACA", "USB_C", "USB_PD", "USB_PD_DRP", "BrickID", "Wireless", NULL,
};
G_STATIC_ASSERT(G_N_ELEMENTS(psy_type_choices) == POWER_SUPPLY_TYPE_COUNT + 2);

static bool gadget_parse_configs(const struct param_desc *d, const cJSON *v, void *field,
				 const char *path, GError **err)
{
	static const struct param_list_spec configs_spec = {
		.dim = UNIT_AMP, .min = 0, .max = 0.9, .max_n = CS_GADGET_MAX_CONFIGS,
		.expected_list = "a list of 1 to " G_STRINGIFY(CS_GADGET_MAX_CONFIGS)
				 " MaxPower values such as [\"500 mA\"]",
		.expected_item = "a MaxPower from 0 to 900 mA",
	};
	struct gadget_params *p = field;
	double ma[CS_GADGET_MAX_CONFIGS];
	int n = 0;

	(void)d;
	if (!param_json_number_list(v, &configs_spec, ma, &n, path, err))
		return false;
	for (int i = 0; i < n; i++)
		p->configs_ma[i] = ma[i] * 1000;
	p->n_configs = n;
	return true;
}

static const struct param_desc gadget_param_desc[] = {
	{ "configs", PARAM_CUSTOM, .parse = gadget_parse_configs,
	  .doc = "configurations' MaxPower in order, e.g. [\"500 mA\", \"100 mA\"] (default [\"2 mA\"])" },
	{ "usb3", PARAM_BOOL, .off = offsetof(struct gadget_params, usb3),
	  .doc = "SuperSpeed gadget (MaxPower in 8 mA units, up to 900 mA)" },
	PARAM_END,
};

#define OFF(f) offsetof(struct kernel_params, f)
static const struct param_desc kernel_param_desc[] = {
	{ "extcon", PARAM_ENUM, .off = OFF(extcon), .choices = extcon_habit_names,
	  .doc = "cable reporting: consistent (data ports also as USB), max14577 (SDP as USB+SDP, CDP only as CDP) or vbus (USB for every detected cable)" },
	{ "phy_payload", PARAM_ENUM, .off = OFF(payload), .choices = payload_names,
	  .doc = "usb_phy notifier data: pointer to mA, pointer to the gadget, or NULL (generic glue)" },
	{ "usb_psy_type", PARAM_ENUM, .off = OFF(usb_psy_type), .choices = psy_type_choices,
	  .doc = "the USB power supply's type: as detected, or fixed (gpio-charger style)" },
	{ "charger_framework", PARAM_ENUM, .off = OFF(framework), .choices = framework_names,
	  .doc = "USB charger framework: none, 2016 (usb-charger.0) or merged (usb_phy; attaches only where the glue's PHY node has extcon)" },
	{ "udc_vbus_draw", PARAM_BOOL, .off = OFF(udc_vbus_draw),
	  .doc = "the UDC's vbus_draw() calls usb_phy_set_power() (false: ignores it)" },
	{ "phy_set_power", PARAM_BOOL, .off = OFF(phy_set_power),
	  .doc = "the PHY driver notifies USB_EVENT_ENUMERATED on usb_phy_set_power() (generic glue)" },
	{ "phy_glue", PARAM_ENUM, .off = OFF(phy_glue), .choices = phy_glue_names,
	  .doc = "the PHY glue: board (a real driver's machine's own, else generic), generic, omap2430, usb-nop-xceiv, intel-cht or no-usb-phy (docs/linux-drivers.md, section 4)" },
	{ "usb_psy_name", PARAM_STR, .off = OFF(usb_psy_name), .doc = "name of the USB power supply" },
	PARAM_END,
};
#undef OFF

static void gadget_defaults(void *params, int preset)
{
	(void)preset;
	*(struct gadget_params *)params = (struct gadget_params){
		.n_configs = 1, .configs_ma = { CONFIG_USB_GADGET_VBUS_DRAW } };
}

static void kernel_defaults(void *params, int preset)
{
	(void)preset;
	/* usb_psy_name NULL: "usb" */
	*(struct kernel_params *)params = (struct kernel_params){
		.extcon = BOARD_EXTCON_CONSISTENT, .payload = CS_PHY_PAYLOAD_MA,
		.framework = BOARD_FW_MERGED, .udc_vbus_draw = true, .phy_set_power = true };
}

static const struct model_desc board_gadget = {
	MODEL_PARAMS("device.gadget", gadget_param_desc, struct gadget_params),
	.defaults = gadget_defaults,
};

/* The USB supply's name becomes a directory of the --sysfs-at dumps
 * (sysfs-T/class/power_supply/NAME), so it is a name, never a path: "../../x" would
 * write outside the output directory. Refused rather than rewritten, because a policy
 * finds the supply by this name and a silently different one would mislead. */
static bool kernel_validate(const void *params, const struct model_lookup *others,
			    const char *path, GError **err)
{
	const struct kernel_params *p = params;
	g_autofree char *shown = NULL;
	const char *why;

	(void)others;
	if (!p->usb_psy_name || cs_name_check(p->usb_psy_name, &why))
		return true;
	shown = g_strescape(p->usb_psy_name, NULL);
	return model_error(err, "%s.usb_psy_name: found \"%s\", expected a power supply name (" CS_NAME_RULE "): it %s",
			   path, shown, why);
}

static const struct model_desc board_kernel = {
	MODEL_PARAMS("device.kernel", kernel_param_desc, struct kernel_params),
	.defaults = kernel_defaults,
	.validate = kernel_validate,
};

const struct model_desc *const board_objects[] = { &board_gadget, &board_kernel, NULL };

/* ---- power supplies ---- */

static const u32 usb_types =
	BIT(POWER_SUPPLY_USB_TYPE_UNKNOWN) | BIT(POWER_SUPPLY_USB_TYPE_SDP) | BIT(POWER_SUPPLY_USB_TYPE_DCP) |
	BIT(POWER_SUPPLY_USB_TYPE_CDP) | BIT(POWER_SUPPLY_USB_TYPE_ACA) | BIT(POWER_SUPPLY_USB_TYPE_C) |
	BIT(POWER_SUPPLY_USB_TYPE_PD);

static const enum power_supply_property usb_props[] = {
	POWER_SUPPLY_PROP_STATUS, POWER_SUPPLY_PROP_ONLINE, POWER_SUPPLY_PROP_USB_TYPE,
	POWER_SUPPLY_PROP_VOLTAGE_NOW, POWER_SUPPLY_PROP_CURRENT_NOW, POWER_SUPPLY_PROP_CURRENT_MAX,
	POWER_SUPPLY_PROP_INPUT_CURRENT_LIMIT, POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
	POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE, POWER_SUPPLY_PROP_MODEL_NAME,
	POWER_SUPPLY_PROP_MANUFACTURER,
};

static const enum power_supply_property bat_props[] = {
	POWER_SUPPLY_PROP_STATUS, POWER_SUPPLY_PROP_CHARGE_TYPE, POWER_SUPPLY_PROP_HEALTH,
	POWER_SUPPLY_PROP_PRESENT, POWER_SUPPLY_PROP_VOLTAGE_NOW, POWER_SUPPLY_PROP_CURRENT_NOW,
	POWER_SUPPLY_PROP_CAPACITY, POWER_SUPPLY_PROP_TEMP, POWER_SUPPLY_PROP_CHARGE_FULL_DESIGN,
};

/* Both power supplies' properties (the core asks each only for those it lists). */
static int get_property(struct power_supply *psy, enum power_supply_property psp,
			union power_supply_propval *val)
{
	struct board *b = power_supply_get_drvdata(psy);
	struct board_readings r = { 0 };
	bool bat = psy->desc == &b->bat_desc;

	b->read(b->read_ctx, &r);
	switch (psp) {
	case POWER_SUPPLY_PROP_STATUS: val->intval = r.status; break;
	case POWER_SUPPLY_PROP_ONLINE: val->intval = r.vbus_online; break;
	case POWER_SUPPLY_PROP_USB_TYPE: val->intval = b->usb_type; break;
	case POWER_SUPPLY_PROP_VOLTAGE_NOW: val->intval = bat ? r.bat_uv : r.vbus_uv; break;
	case POWER_SUPPLY_PROP_CURRENT_NOW: val->intval = bat ? r.bat_ua : r.ibus_ua; break;
	case POWER_SUPPLY_PROP_CURRENT_MAX:
		val->intval = r.vbus_online ? (int)lround(b->det.current_a * 1e6) : 0;
		break;
	case POWER_SUPPLY_PROP_INPUT_CURRENT_LIMIT: val->intval = r.ilim_ua; break;
	case POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT: val->intval = r.ichg_ua; break;
	case POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE: val->intval = r.vreg_uv; break;
	case POWER_SUPPLY_PROP_MODEL_NAME: val->strval = r.chip; break;
	case POWER_SUPPLY_PROP_MANUFACTURER: val->strval = "chargesim"; break;
	case POWER_SUPPLY_PROP_CHARGE_TYPE: val->intval = r.charge_type; break;
	case POWER_SUPPLY_PROP_HEALTH: val->intval = POWER_SUPPLY_HEALTH_GOOD; break;
	case POWER_SUPPLY_PROP_PRESENT: val->intval = 1; break;
	case POWER_SUPPLY_PROP_CAPACITY: val->intval = r.bat_capacity; break;
	case POWER_SUPPLY_PROP_TEMP: val->intval = r.bat_temp_decic; break;
	case POWER_SUPPLY_PROP_CHARGE_FULL_DESIGN: val->intval = r.bat_full_design_uah; break;
	default: return -EINVAL;
	}
	return 0;
}

/* ---- the gadget path ---- */

static int board_udc_vbus_draw(struct usb_gadget *gadget, unsigned int mA)
{
	struct board *b = gadget->cs_priv;

	if (b->framework == BOARD_FW_2016)
		cs_usb_charger_2016_vbus_draw(&b->uchger, mA);
	if (!b->kp->udc_vbus_draw)
		return 0;   /* several UDC drivers ignore the value */
	return usb_phy_set_power(b->phy, mA);
}

static int board_phy_set_power(struct usb_phy *phy, unsigned int mA)
{
	struct board *b = phy->cs_priv;

	if (b->glue->knobs ? b->kp->phy_set_power : b->glue->set_power_event)
		cs_usb_phy_notify(phy, USB_EVENT_ENUMERATED, mA);
	return 0;
}

/* Configuration i's MaxPower as the host reads it from the descriptor at the
 * gadget's speed, mA. */
static unsigned int config_ma(const struct board *b, int i)
{
	return usb_decode_max_power(b->gadget.speed,
		usb_encode_max_power(b->gadget.speed, b->gadget.cs_configs[i].MaxPower));
}

/* Tell the port what the host grants now: the configuration taken, a suspend, the
 * link's speed (its budget, models/source/source.h). */
static void board_tell_port(struct board *b)
{
	struct source_host h = {
		.config_ma = b->gadget.cs_selected >= 0 ? (int)config_ma(b, b->gadget.cs_selected) : -1,
		.suspended = b->suspended,
		.superspeed = b->sp->usb3 && b->gp->usb3,
	};

	source_set_host(b->src, &h);
}

static void board_enumerate_cb(struct sim_event *ev, void *data)
{
	struct board *b = data;
	bool ss = b->sp->usb3 && b->gp->usb3;
	/* the host port's budget: a bus-powered hub's or a root port's, mA */
	unsigned int budget = b->sp->port == SRC_PORT_HUB ? (ss ? 150 : 100) : (ss ? 900 : 500);
	cJSON *rec;

	(void)ev;
	b->gadget.speed = ss ? USB_SPEED_SUPER : USB_SPEED_HIGH;
	b->gadget.cs_selected = -1;
	/* The host takes the first configuration its port can power. */
	for (int i = 0; i < b->gadget.cs_n_configs; i++)
		if (config_ma(b, i) <= budget) {
			b->gadget.cs_selected = i;
			break;
		}
	rec = evlog_begin(b->log, sim_now(b->sim), "host", "enumerate");
	evlog_put_number(rec, "budget_mA", budget);
	if (b->gadget.cs_selected >= 0) {
		unsigned int mp = config_ma(b, b->gadget.cs_selected);

		evlog_put_number(rec, "config", b->gadget.cs_selected + 1);
		evlog_put_number(rec, "MaxPower_mA", mp);
		evlog_end(b->log, rec);
		board_tell_port(b);
		if (!b->suspended)
			usb_gadget_vbus_draw(&b->gadget, mp);
	} else {
		evlog_put_null(rec, "config");
		evlog_end(b->log, rec);
	}
}

void board_suspend(struct board *b, bool suspend)
{
	if (suspend == b->suspended || !b->sp->data)
		return;   /* only a USB host suspends the bus */
	b->suspended = suspend;
	board_tell_port(b);
	/* What the port now allows: 2.5 mA suspended (USB 2.0 7.2.3), else the
	 * configured MaxPower (100 mA unconfigured). */
	model_log_number(b->log, b->sim, "host", suspend ? "suspend" : "resume", "allowance_mA",
			 suspend ? 2.5 : b->gadget.cs_selected >= 0 ?
			 config_ma(b, b->gadget.cs_selected) : 100);
	if (!b->attached || b->gadget.cs_selected < 0)
		return;
	/* USB 2.0 allows 2.5 mA in suspend; the composite core passes 2. */
	usb_gadget_vbus_draw(&b->gadget, suspend ? 2 : config_ma(b, b->gadget.cs_selected));
}

/* ---- reporting a detection ---- */

/* How Linux reports each port: power_supply type and usb_type (proprietary chargers
 * are dedicated charging ports to the kernel). */
#define DCP_REPORT { POWER_SUPPLY_TYPE_USB_DCP, POWER_SUPPLY_USB_TYPE_DCP }
static const struct {
	enum power_supply_type type;
	enum power_supply_usb_type usb_type;
} port_report[PHY_PORT_COUNT] = {
	[PHY_PORT_NONE] = { POWER_SUPPLY_TYPE_USB, POWER_SUPPLY_USB_TYPE_UNKNOWN },
	[PHY_PORT_SDP] = { POWER_SUPPLY_TYPE_USB, POWER_SUPPLY_USB_TYPE_SDP },
	[PHY_PORT_CDP] = { POWER_SUPPLY_TYPE_USB_CDP, POWER_SUPPLY_USB_TYPE_CDP },
	[PHY_PORT_ACA] = { POWER_SUPPLY_TYPE_USB_ACA, POWER_SUPPLY_USB_TYPE_ACA },
	[PHY_PORT_DCP] = DCP_REPORT, [PHY_PORT_APPLE_1A] = DCP_REPORT,
	[PHY_PORT_APPLE_2_1A] = DCP_REPORT, [PHY_PORT_APPLE_2_4A] = DCP_REPORT,
	[PHY_PORT_SAMSUNG_2A] = DCP_REPORT, [PHY_PORT_PROPRIETARY] = DCP_REPORT,
	[PHY_PORT_TYPEC_1A5] = { POWER_SUPPLY_TYPE_USB_TYPE_C, POWER_SUPPLY_USB_TYPE_C },
	[PHY_PORT_TYPEC_3A0] = { POWER_SUPPLY_TYPE_USB_TYPE_C, POWER_SUPPLY_USB_TYPE_C },
	[PHY_PORT_PD] = { POWER_SUPPLY_TYPE_USB_PD, POWER_SUPPLY_USB_TYPE_PD },
};
#undef DCP_REPORT

/* The charger cable each port type is reported as (EXTCON_NONE: none). */
static const unsigned int port_cable[PHY_PORT_COUNT] = {
	[PHY_PORT_SDP] = EXTCON_CHG_USB_SDP, [PHY_PORT_CDP] = EXTCON_CHG_USB_CDP,
	[PHY_PORT_DCP] = EXTCON_CHG_USB_DCP, [PHY_PORT_APPLE_1A] = EXTCON_CHG_USB_DCP,
	[PHY_PORT_ACA] = EXTCON_CHG_USB_ACA, [PHY_PORT_APPLE_2_1A] = EXTCON_CHG_USB_FAST,
	[PHY_PORT_APPLE_2_4A] = EXTCON_CHG_USB_FAST, [PHY_PORT_SAMSUNG_2A] = EXTCON_CHG_USB_FAST,
	[PHY_PORT_PROPRIETARY] = EXTCON_CHG_USB_SLOW, [PHY_PORT_PD] = EXTCON_CHG_USB_PD,
};

/* The extcon cables a detected port is reported as, under each habit. */
static int port_cables(const struct board *b, const struct phy_result *r, unsigned int *out)
{
	bool consistent = b->kp->extcon == BOARD_EXTCON_CONSISTENT;
	bool aca = consistent && r->port == PHY_PORT_ACA;
	int n = 0;

	/* ACA-A (RID_A) makes the device the host, ACA-C (RID_C) a device with data,
	 * ACA-B (RID_B) charging only [BC1.2]. */
	if (aca && b->sp->rid_ohm >= 122e3)
		out[n++] = EXTCON_USB_HOST;
	else if (r->port == PHY_PORT_SDP || (consistent && r->port == PHY_PORT_CDP) ||
		 (aca && b->sp->rid_ohm < 40e3))
		out[n++] = EXTCON_USB;
	if (port_cable[r->port] != EXTCON_NONE)
		out[n++] = port_cable[r->port];
	if ((r->port == PHY_PORT_TYPEC_1A5 || r->port == PHY_PORT_TYPEC_3A0 ||
	     r->port == PHY_PORT_PD) && r->data)
		out[n++] = EXTCON_USB;
	if (b->kp->extcon == BOARD_EXTCON_VBUS && r->port != PHY_PORT_NONE) {
		/* USB means "a USB cable with VBUS", whatever the port type. */
		bool have = false;

		for (int i = 0; i < n; i++)
			have |= out[i] == EXTCON_USB;
		if (!have)
			out[n++] = EXTCON_USB;
	}
	return n;
}

static const unsigned int board_cables[] = {
	EXTCON_USB, EXTCON_USB_HOST, EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_DCP, EXTCON_CHG_USB_CDP,
	EXTCON_CHG_USB_ACA, EXTCON_CHG_USB_FAST, EXTCON_CHG_USB_SLOW, EXTCON_CHG_USB_PD,
	EXTCON_NONE,
};

/* Edge-driven, as a PHY's interrupt reports a change: only cables whose state changes
 * are set and synced (the kernel's extcon notifies on every sync, changed or not). */
static void board_set_cables(struct board *b, const unsigned int *cables, int n)
{
	/* Cables that went away first, then the new ones. */
	for (int i = 0; board_cables[i] != EXTCON_NONE; i++) {
		bool keep = false;

		for (int k = 0; k < n; k++)
			keep |= cables[k] == board_cables[i];
		if (!keep)
			cs_extcon_report(b->edev, board_cables[i], false);
	}
	for (int k = 0; k < n; k++)
		cs_extcon_report(b->edev, cables[k], true);
}

void board_detected(struct board *b, const struct phy_result *r)
{
	unsigned int cables[6];
	int n;

	b->det = *r;
	b->psy_type = port_report[r->port].type;
	b->usb_type = port_report[r->port].usb_type;
	if (b->kp->usb_psy_type > 0)
		b->psy_type = b->kp->usb_psy_type - 1;  /* fixed from the "device tree" */
	b->usb_desc.type = b->psy_type;
	n = port_cables(b, r, cables);
	board_set_cables(b, cables, n);
	if (r->port != PHY_PORT_NONE) {
		g_free(b->detected_type);
		b->detected_type = g_strdup(power_supply_type_text(b->psy_type));
	}
	power_supply_changed(b->usb_psy);
	if (r->port == PHY_PORT_NONE)
		return;
	if (b->glue->charger_event)
		cs_usb_phy_notify(b->phy, USB_EVENT_CHARGER, (unsigned int)lround(r->current_a * 1000));
	/* A data port: the gadget connects and the host enumerates it. */
	if (r->data && (r->port == PHY_PORT_SDP || r->port == PHY_PORT_CDP ||
			r->port == PHY_PORT_TYPEC_1A5 || r->port == PHY_PORT_TYPEC_3A0 ||
			r->port == PHY_PORT_PD))
		sim_reschedule(b->sim, &b->ev_enumerate, sim_now(b->sim) + b->sp->t_enumerate);
}

void board_vbus(struct board *b, bool on)
{
	if (on == b->attached)
		return;
	b->attached = on;
	if (!on) {
		sim_cancel(b->sim, &b->ev_enumerate);
		b->gadget.cs_selected = -1;
		b->suspended = false;
		board_tell_port(b);
	}
	if (b->glue->vbus_events)
		cs_usb_phy_notify(b->phy, on ? USB_EVENT_VBUS : USB_EVENT_NONE, on ? 100 : 0);
	power_supply_changed(b->usb_psy);
}

void board_init(struct board *b, struct sim *sim, struct evlog *log, struct usb_phy *phy,
		struct source *src, const struct gadget_params *gp,
		const struct kernel_params *kp, const struct board_phy_glue *own_glue,
		board_read_cb read, void *read_ctx)
{
	struct power_supply_config cfg = { .drv_data = b };
	const struct source_params *sp = src->p;
	const struct board_phy_glue *glue = kp->phy_glue > 0 ? board_phy_glues[kp->phy_glue - 1] :
					    own_glue ? own_glue : &board_glue_generic;

	*b = (struct board){
		.sim = sim, .log = log, .sp = sp, .src = src, .gp = gp, .kp = kp, .read = read,
		.read_ctx = read_ctx, .phy = phy, .glue = glue,
		/* phy.c attaches the merged framework only to a PHY whose node has extcon */
		.framework = kp->framework == BOARD_FW_MERGED && !glue->dt_extcon ?
			     BOARD_FW_NONE : kp->framework,
		.psy_type = kp->usb_psy_type > 0 ? kp->usb_psy_type - 1 : POWER_SUPPLY_TYPE_USB,
		.gadget_ops = { .vbus_draw = board_udc_vbus_draw },
		.gadget = { .name = "udc", .ops = &b->gadget_ops, .cs_priv = b, .cs_selected = -1,
			    .speed = USB_SPEED_HIGH, .cs_n_configs = gp->n_configs },
	};
	phy->cs_payload = glue->knobs ? kp->payload : glue->payload;
	phy->cs_priv = b;
	phy->set_power = board_phy_set_power;
	phy->cs_gadget = &b->gadget;
	/* phy.c takes a reference on the PHY's driver when a consumer gets the PHY */
	b->phy_drv.name = "usb-phy-glue";
	phy->dev->driver = &b->phy_drv;
	/* the extcon device's parent, whose name it is registered under */
	b->edev_parent.init_name = "extcon-usb";
	b->edev = devm_extcon_dev_allocate(&b->edev_parent, board_cables);
	if (IS_ERR(b->edev) || devm_extcon_dev_register(&b->edev_parent, b->edev))
		g_error("board: the extcon device cannot be registered");
	sim_event_init(&b->ev_enumerate, board_enumerate_cb, b);

	b->usb_desc = (struct power_supply_desc){
		.name = kp->usb_psy_name ? kp->usb_psy_name : "usb",
		.type = b->psy_type,
		.usb_types = usb_types,
		.properties = usb_props, .num_properties = G_N_ELEMENTS(usb_props),
		.get_property = get_property,
	};
	b->bat_desc = (struct power_supply_desc){
		.name = "battery", .type = POWER_SUPPLY_TYPE_BATTERY,
		.properties = bat_props, .num_properties = G_N_ELEMENTS(bat_props),
		.get_property = get_property,
	};
	b->usb_psy = power_supply_register(NULL, &b->usb_desc, &cfg);
	b->bat_psy = power_supply_register(NULL, &b->bat_desc, &cfg);

	for (int i = 0; i < gp->n_configs; i++) {
		b->gadget.cs_configs[i].label = "c";
		b->gadget.cs_configs[i].bConfigurationValue = (u8)(i + 1);
		b->gadget.cs_configs[i].MaxPower = (unsigned int)lround(gp->configs_ma[i]);
	}
	if (b->framework == BOARD_FW_2016)
		cs_usb_charger_2016_init(&b->uchger, b->edev, b->usb_psy, &b->gadget);
	board_tell_port(b);
}

bool board_glue_check(const struct board *b, const char *file, const char *policy, GError **err)
{
	g_autofree char *found = NULL, *whose = NULL;
	const char *key;

	if (b->glue->knobs)
		return true;
	if (b->kp->payload != CS_PHY_PAYLOAD_MA) {
		key = "phy_payload";
		found = g_strdup_printf("\"%s\"", payload_names[b->kp->payload]);
	} else if (!b->kp->phy_set_power) {
		key = "phy_set_power";
		found = g_strdup("false");
	} else {
		return true;
	}
	whose = b->kp->phy_glue > 0 ? g_strdup("the PHY glue") :
		g_strdup_printf("policy \"%s\" runs on its board's PHY glue, and that glue", policy);
	g_set_error(err, CS_RUN_ERROR, CS_RUN_ERROR_INPUT,
		    "%s: device.kernel.%s: found %s, expected it left out: %s, \"%s\" (%s), fixes what its usb_phy events carry; \"phy_glue\": \"generic\" makes it a setting",
		    file, key, found, whose, b->glue->key, b->glue->what);
	return false;
}

/* The merged framework is phy.c's: usb_add_phy_dev() attaches it when the PHY's
 * device-tree node has an "extcon" property (usb_add_extcon), so the board's firmware
 * gives the PHY node one, naming the connector's node, exactly when the scenario asks
 * for the merged framework. */
void board_add_phy(struct board *b)
{
	struct device_node *ext, *phyn;
	g_autofree char *msg = NULL;

	b->dt = cs_of_node_new(NULL, "", NULL);
	ext = cs_of_node_new(b->dt, "extcon-usb", "extcon_usb");
	phyn = cs_of_node_new(b->dt, "usb-phy", NULL);
	if (b->framework == BOARD_FW_MERGED &&
	    cs_of_apply_dts(phyn, "extcon = <&extcon_usb>;", &msg))
		g_error("board: %s", msg);
	b->edev_parent.of_node = ext;
	b->phy->dev->of_node = phyn;
	b->phy->type = USB_PHY_TYPE_USB2;
	if (usb_add_phy_dev(b->phy))
		g_error("board: the USB PHY cannot be added");
	cs_usb_phy_log_framework(b->phy);
	b->phy_added = true;
}

void board_fill(struct board *b, struct cs_board *cb)
{
	cb->phy = b->phy;
	cb->edev = b->edev;
	cb->usb_psy = b->usb_psy;
	cb->bat_psy = b->bat_psy;
	cb->gadget = &b->gadget;
	cb->uchger = b->framework == BOARD_FW_2016 ? &b->uchger : NULL;
}

void board_cleanup(struct board *b)
{
	sim_cancel(b->sim, &b->ev_enumerate);
	if (b->framework == BOARD_FW_2016)
		cs_usb_charger_2016_cleanup(&b->uchger);
	if (b->phy_added) {
		usb_remove_phy(b->phy);
		devres_release_all(b->phy->dev);   /* the framework's extcon notifiers */
		if (b->phy->chg_work.func)   /* phy.c's framework set it up */
			cancel_work_sync(&b->phy->chg_work);
		b->phy->dev->of_node = NULL;
		b->phy_added = false;
	}
	cs_of_free_tree(b->dt);
	b->dt = NULL;
	b->edev_parent.of_node = NULL;
	power_supply_unregister(b->usb_psy);
	power_supply_unregister(b->bat_psy);
	b->usb_psy = b->bat_psy = NULL;
	devres_release_all(&b->edev_parent);   /* the extcon device */
	b->edev = NULL;
	g_free(b->detected_type);
	b->detected_type = NULL;
}

bool board_sysfs_dump(const char *dir, GError **err)
{
	for (struct power_supply *psy = cs_power_supply_first(); psy; psy = psy->cs_next) {
		g_autofree char *pdir = NULL;
		const char *why;

		/* every supply's name, whoever registered it, stays one directory under dir */
		if (!cs_name_check(psy->desc->name, &why)) {
			g_autofree char *shown = g_strescape(psy->desc->name, NULL);

			g_set_error(err, CS_OUTPUT_ERROR, CS_OUTPUT_ERROR_IO,
				    "--sysfs-at: the power supply \"%s\" cannot name a directory (" CS_NAME_RULE "): it %s",
				    shown, why);
			return false;
		}
		pdir = g_build_filename(dir, "class", "power_supply", psy->desc->name, NULL);
		if (!cs_mkdir_p(pdir, err))
			return false;
		for (int p = 0; p < POWER_SUPPLY_PROP_COUNT; p++) {
			g_autofree char *text = power_supply_show_property(psy, p);
			g_autofree char *path = NULL;

			if (!text)
				continue;
			path = g_build_filename(pdir, power_supply_prop_name(p), NULL);
			if (!cs_outfile_write_all(path, text, strlen(text), err))
				return false;
		}
		/* a driver's own attributes (DEVICE_ATTR, device_create_file) */
		for (const struct device_attribute *a = cs_device_attr_next(&psy->dev, NULL); a;
		     a = cs_device_attr_next(&psy->dev, a)) {
			g_autofree char *text = cs_device_attr_read(&psy->dev, a);
			g_autofree char *path = g_build_filename(pdir, a->attr.name, NULL);

			if (text && !cs_outfile_write_all(path, text, strlen(text), err))
				return false;
		}
	}
	return true;
}
