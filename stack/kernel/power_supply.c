// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/power_supply.c - power_supply registration, properties, uevents,
 * sysfs text and user-space writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <linux/of.h>
#include <linux/power_supply.h>
#include <linux/slab.h>
#include <chargesim/kernel.h>
#include "sim/evlog.h"

/* The kernel defers a new supply's first uevent by 10 ms
 * (POWER_SUPPLY_DEFERRED_REGISTER_TIME, drivers/power/supply/power_supply_core.c). */
#define PSY_DEFERRED_REGISTER_MS 10

static const char *const type_text[] = {
	"Unknown", "Battery", "UPS", "Mains", "USB", "USB_DCP", "USB_CDP", "USB_ACA", "USB_C",
	"USB_PD", "USB_PD_DRP", "BrickID", "Wireless",
};
G_STATIC_ASSERT(G_N_ELEMENTS(type_text) == POWER_SUPPLY_TYPE_COUNT);

static const char *const usb_type_text[] = {
	"Unknown", "SDP", "DCP", "CDP", "ACA", "C", "PD", "PD_DRP", "PD_PPS", "BrickID",
};
G_STATIC_ASSERT(G_N_ELEMENTS(usb_type_text) == POWER_SUPPLY_USB_TYPE_COUNT);

static const char *const status_text[] = {
	"Unknown", "Charging", "Discharging", "Not charging", "Full",
};
static const char *const charge_type_text[] = {
	"Unknown", "N/A", "Trickle", "Fast", "Standard", "Adaptive", "Custom", "Long Life", "Bypass",
};
static const char *const health_text[] = {
	"Unknown", "Good", "Overheat", "Dead", "Over voltage", "Unspecified failure", "Cold",
	"Watchdog timer expire", "Safety timer expire", "Over current", "Calibration required",
	"Warm", "Cool", "Hot", "No battery",
};
static const char *const technology_text[] = {
	"Unknown", "NiMH", "Li-ion", "Li-poly", "LiFe", "NiCd", "LiMn",
};
static const char *const capacity_level_text[] = {
	"Unknown", "Critical", "Low", "Normal", "High", "Full",
};
static const char *const scope_text[] = { "Unknown", "System", "Device" };
static const char *const behaviour_text[] = { "auto", "inhibit-charge", "force-discharge" };

static const char *const prop_names[] = {
	[POWER_SUPPLY_PROP_STATUS] = "status",
	[POWER_SUPPLY_PROP_CHARGE_TYPE] = "charge_type",
	[POWER_SUPPLY_PROP_HEALTH] = "health",
	[POWER_SUPPLY_PROP_PRESENT] = "present",
	[POWER_SUPPLY_PROP_ONLINE] = "online",
	[POWER_SUPPLY_PROP_VOLTAGE_NOW] = "voltage_now",
	[POWER_SUPPLY_PROP_VOLTAGE_MAX] = "voltage_max",
	[POWER_SUPPLY_PROP_CURRENT_NOW] = "current_now",
	[POWER_SUPPLY_PROP_CURRENT_MAX] = "current_max",
	[POWER_SUPPLY_PROP_INPUT_CURRENT_LIMIT] = "input_current_limit",
	[POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT] = "constant_charge_current",
	[POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE] = "constant_charge_voltage",
	[POWER_SUPPLY_PROP_CHARGE_FULL_DESIGN] = "charge_full_design",
	[POWER_SUPPLY_PROP_CAPACITY] = "capacity",
	[POWER_SUPPLY_PROP_TEMP] = "temp",
	[POWER_SUPPLY_PROP_TYPE] = "type",
	[POWER_SUPPLY_PROP_USB_TYPE] = "usb_type",
	[POWER_SUPPLY_PROP_MODEL_NAME] = "model_name",
	[POWER_SUPPLY_PROP_MANUFACTURER] = "manufacturer",
	[POWER_SUPPLY_PROP_AUTHENTIC] = "authentic",
	[POWER_SUPPLY_PROP_TECHNOLOGY] = "technology",
	[POWER_SUPPLY_PROP_CYCLE_COUNT] = "cycle_count",
	[POWER_SUPPLY_PROP_VOLTAGE_MIN] = "voltage_min",
	[POWER_SUPPLY_PROP_VOLTAGE_MAX_DESIGN] = "voltage_max_design",
	[POWER_SUPPLY_PROP_VOLTAGE_MIN_DESIGN] = "voltage_min_design",
	[POWER_SUPPLY_PROP_VOLTAGE_AVG] = "voltage_avg",
	[POWER_SUPPLY_PROP_VOLTAGE_OCV] = "voltage_ocv",
	[POWER_SUPPLY_PROP_VOLTAGE_BOOT] = "voltage_boot",
	[POWER_SUPPLY_PROP_CURRENT_AVG] = "current_avg",
	[POWER_SUPPLY_PROP_CURRENT_BOOT] = "current_boot",
	[POWER_SUPPLY_PROP_POWER_NOW] = "power_now",
	[POWER_SUPPLY_PROP_POWER_AVG] = "power_avg",
	[POWER_SUPPLY_PROP_CHARGE_EMPTY_DESIGN] = "charge_empty_design",
	[POWER_SUPPLY_PROP_CHARGE_FULL] = "charge_full",
	[POWER_SUPPLY_PROP_CHARGE_EMPTY] = "charge_empty",
	[POWER_SUPPLY_PROP_CHARGE_NOW] = "charge_now",
	[POWER_SUPPLY_PROP_CHARGE_AVG] = "charge_avg",
	[POWER_SUPPLY_PROP_CHARGE_COUNTER] = "charge_counter",
	[POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT_MAX] = "constant_charge_current_max",
	[POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE_MAX] = "constant_charge_voltage_max",
	[POWER_SUPPLY_PROP_CHARGE_CONTROL_LIMIT] = "charge_control_limit",
	[POWER_SUPPLY_PROP_CHARGE_CONTROL_LIMIT_MAX] = "charge_control_limit_max",
	[POWER_SUPPLY_PROP_CHARGE_CONTROL_START_THRESHOLD] = "charge_control_start_threshold",
	[POWER_SUPPLY_PROP_CHARGE_CONTROL_END_THRESHOLD] = "charge_control_end_threshold",
	[POWER_SUPPLY_PROP_CHARGE_BEHAVIOUR] = "charge_behaviour",
	[POWER_SUPPLY_PROP_INPUT_VOLTAGE_LIMIT] = "input_voltage_limit",
	[POWER_SUPPLY_PROP_INPUT_POWER_LIMIT] = "input_power_limit",
	[POWER_SUPPLY_PROP_ENERGY_FULL_DESIGN] = "energy_full_design",
	[POWER_SUPPLY_PROP_ENERGY_EMPTY_DESIGN] = "energy_empty_design",
	[POWER_SUPPLY_PROP_ENERGY_FULL] = "energy_full",
	[POWER_SUPPLY_PROP_ENERGY_EMPTY] = "energy_empty",
	[POWER_SUPPLY_PROP_ENERGY_NOW] = "energy_now",
	[POWER_SUPPLY_PROP_ENERGY_AVG] = "energy_avg",
	[POWER_SUPPLY_PROP_CAPACITY_ALERT_MIN] = "capacity_alert_min",
	[POWER_SUPPLY_PROP_CAPACITY_ALERT_MAX] = "capacity_alert_max",
	[POWER_SUPPLY_PROP_CAPACITY_ERROR_MARGIN] = "capacity_error_margin",
	[POWER_SUPPLY_PROP_CAPACITY_LEVEL] = "capacity_level",
	[POWER_SUPPLY_PROP_TEMP_MAX] = "temp_max",
	[POWER_SUPPLY_PROP_TEMP_MIN] = "temp_min",
	[POWER_SUPPLY_PROP_TEMP_ALERT_MIN] = "temp_alert_min",
	[POWER_SUPPLY_PROP_TEMP_ALERT_MAX] = "temp_alert_max",
	[POWER_SUPPLY_PROP_TEMP_AMBIENT] = "temp_ambient",
	[POWER_SUPPLY_PROP_TEMP_AMBIENT_ALERT_MIN] = "temp_ambient_alert_min",
	[POWER_SUPPLY_PROP_TEMP_AMBIENT_ALERT_MAX] = "temp_ambient_alert_max",
	[POWER_SUPPLY_PROP_TIME_TO_EMPTY_NOW] = "time_to_empty_now",
	[POWER_SUPPLY_PROP_TIME_TO_EMPTY_AVG] = "time_to_empty_avg",
	[POWER_SUPPLY_PROP_TIME_TO_FULL_NOW] = "time_to_full_now",
	[POWER_SUPPLY_PROP_TIME_TO_FULL_AVG] = "time_to_full_avg",
	[POWER_SUPPLY_PROP_SCOPE] = "scope",
	[POWER_SUPPLY_PROP_PRECHARGE_CURRENT] = "precharge_current",
	[POWER_SUPPLY_PROP_CHARGE_TERM_CURRENT] = "charge_term_current",
	[POWER_SUPPLY_PROP_CALIBRATE] = "calibrate",
	[POWER_SUPPLY_PROP_MANUFACTURE_YEAR] = "manufacture_year",
	[POWER_SUPPLY_PROP_MANUFACTURE_MONTH] = "manufacture_month",
	[POWER_SUPPLY_PROP_MANUFACTURE_DAY] = "manufacture_day",
	[POWER_SUPPLY_PROP_SERIAL_NUMBER] = "serial_number",
};
G_STATIC_ASSERT(G_N_ELEMENTS(prop_names) == POWER_SUPPLY_PROP_COUNT);

/* The text table of a property shown as words, or NULL for a number or string. */
static const char *const *prop_texts(enum power_supply_property p, size_t *n)
{
	switch (p) {
	case POWER_SUPPLY_PROP_STATUS: *n = G_N_ELEMENTS(status_text); return status_text;
	case POWER_SUPPLY_PROP_CHARGE_TYPE: *n = G_N_ELEMENTS(charge_type_text); return charge_type_text;
	case POWER_SUPPLY_PROP_HEALTH: *n = G_N_ELEMENTS(health_text); return health_text;
	case POWER_SUPPLY_PROP_TECHNOLOGY: *n = G_N_ELEMENTS(technology_text); return technology_text;
	case POWER_SUPPLY_PROP_CAPACITY_LEVEL:
		*n = G_N_ELEMENTS(capacity_level_text);
		return capacity_level_text;
	case POWER_SUPPLY_PROP_SCOPE: *n = G_N_ELEMENTS(scope_text); return scope_text;
	case POWER_SUPPLY_PROP_CHARGE_BEHAVIOUR: *n = G_N_ELEMENTS(behaviour_text); return behaviour_text;
	case POWER_SUPPLY_PROP_TYPE: *n = G_N_ELEMENTS(type_text); return type_text;
	default: *n = 0; return NULL;
	}
}

static bool prop_is_string(enum power_supply_property p)
{
	return p == POWER_SUPPLY_PROP_MODEL_NAME || p == POWER_SUPPLY_PROP_MANUFACTURER ||
	       p == POWER_SUPPLY_PROP_SERIAL_NUMBER;
}

const char *power_supply_type_text(enum power_supply_type t)
{
	return (unsigned)t < G_N_ELEMENTS(type_text) ? type_text[t] : "Unknown";
}

const char *power_supply_usb_type_text(enum power_supply_usb_type t)
{
	return (unsigned)t < G_N_ELEMENTS(usb_type_text) ? usb_type_text[t] : "Unknown";
}

const char *power_supply_prop_name(enum power_supply_property p)
{
	return (unsigned)p < G_N_ELEMENTS(prop_names) ? prop_names[p] : "unknown";
}

/* The property whose sysfs file is called name, or -1. */
static int power_supply_prop_by_name(const char *name)
{
	for (int p = 0; p < POWER_SUPPLY_PROP_COUNT; p++)
		if (strcmp(prop_names[p], name) == 0)
			return p;
	return -1;
}

struct power_supply *cs_power_supply_first(void)
{
	return cs_kernel() ? cs_kernel()->psy_head : NULL;
}

/* ---- registration ---- */

struct psy_private {
	struct power_supply psy;
	struct delayed_work deferred_register_work;
	struct work_struct changed_work;
};

static void psy_changed_now(struct power_supply *psy, bool kernel_order);

/* A driver's supply: power_supply_changed() only marks it and queues this work
 * (drivers call it with their own locks held, and the uevent reads properties back
 * through the driver). */
static void psy_changed_work(struct work_struct *work)
{
	struct psy_private *pp = container_of(work, struct psy_private, changed_work);

	if (!pp->psy.changed)
		return;
	pp->psy.changed = false;
	psy_changed_now(&pp->psy, true);
}

static void psy_deferred_register_work(struct work_struct *work)
{
	struct psy_private *pp = container_of(to_delayed_work(work), struct psy_private,
					      deferred_register_work);

	power_supply_changed(&pp->psy);
}

struct power_supply *power_supply_register(struct device *parent,
					   const struct power_supply_desc *desc,
					   const struct power_supply_config *cfg)
{
	struct cs_kernel *k = cs_kernel();
	struct psy_private *priv;
	struct power_supply *psy, **pp;

	if (!k)
		return ERR_PTR(-ENODEV);
	if (!desc || !desc->name || !desc->properties != !desc->num_properties) {
		cs_printk("err", parent ? dev_name(parent) : NULL,
			  "power_supply_register: a description without a name or with a bad property list");
		return ERR_PTR(-EINVAL);
	}
	if (power_supply_get_by_name(desc->name)) {
		cs_printk("err", parent ? dev_name(parent) : NULL,
			  "power_supply_register: a supply named %s exists already", desc->name);
		return ERR_PTR(-EEXIST);
	}
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return ERR_PTR(-ENOMEM);
	psy = &priv->psy;
	psy->desc = desc;
	psy->dev.parent = parent;
	psy->dev.init_name = desc->name;
	dev_set_drvdata(&psy->dev, psy);
	if (cfg) {
		psy->drv_data = cfg->drv_data;
		psy->of_node = cfg->fwnode ? to_of_node(cfg->fwnode) : cfg->of_node;
		psy->supplied_to = cfg->supplied_to;
		psy->num_supplicants = cfg->num_supplicants;
	}
	psy->dev.of_node = psy->of_node;
	if (cfg && cfg->attr_grp)
		device_add_groups(&psy->dev, cfg->attr_grp);
	INIT_DELAYED_WORK(&priv->deferred_register_work, psy_deferred_register_work);
	INIT_WORK(&priv->changed_work, psy_changed_work);
	/* Keep registration order: sysfs listings come out the same every run. */
	for (pp = &k->psy_head; *pp; pp = &(*pp)->cs_next)
		;
	*pp = psy;
	/* A driver's supply announces itself once its probe is over; the board's own
	 * supplies (no parent device) report through the board instead. */
	if (parent)
		schedule_delayed_work(&priv->deferred_register_work,
				      msecs_to_jiffies(PSY_DEFERRED_REGISTER_MS));
	return psy;
}

void power_supply_unregister(struct power_supply *psy)
{
	struct cs_kernel *k = cs_kernel();
	struct psy_private *priv;

	if (IS_ERR_OR_NULL(psy))
		return;
	priv = container_of(psy, struct psy_private, psy);
	cancel_delayed_work_sync(&priv->deferred_register_work);
	cancel_work_sync(&priv->changed_work);
	for (struct power_supply **pp = &k->psy_head; *pp; pp = &(*pp)->cs_next)
		if (*pp == psy) {
			*pp = psy->cs_next;
			break;
		}
	cs_device_attrs_clear(&psy->dev);
	free(priv);
}

static void devm_psy_release(struct device *dev, void *res)
{
	(void)dev;
	power_supply_unregister(*(struct power_supply **)res);
}

struct power_supply *devm_power_supply_register(struct device *parent,
						const struct power_supply_desc *desc,
						const struct power_supply_config *cfg)
{
	struct power_supply **r = devres_alloc(devm_psy_release, sizeof(*r), GFP_KERNEL);
	struct power_supply *psy;

	if (!r)
		return ERR_PTR(-ENOMEM);
	psy = power_supply_register(parent, desc, cfg);
	if (IS_ERR(psy)) {
		devres_free(r);
		return psy;
	}
	*r = psy;
	devres_add(parent, r);
	return psy;
}

struct power_supply *power_supply_get_by_name(const char *name)
{
	for (struct power_supply *p = cs_power_supply_first(); p; p = p->cs_next)
		if (strcmp(p->desc->name, name) == 0)
			return p;
	return NULL;
}

void power_supply_put(struct power_supply *psy)
{
	(void)psy;
}

void *power_supply_get_drvdata(struct power_supply *psy)
{
	return psy->drv_data;
}

/* ---- properties ---- */

static bool psy_has(const struct power_supply *psy, enum power_supply_property p)
{
	if (p == POWER_SUPPLY_PROP_TYPE)
		return true;
	for (size_t i = 0; i < psy->desc->num_properties; i++)
		if (psy->desc->properties[i] == p)
			return true;
	return false;
}

int power_supply_get_property(struct power_supply *psy, enum power_supply_property psp,
			      union power_supply_propval *val)
{
	if (psp == POWER_SUPPLY_PROP_TYPE) {
		val->intval = psy->desc->type;
		return 0;
	}
	if (!psy_has(psy, psp) || !psy->desc->get_property)
		return -EINVAL;
	return psy->desc->get_property(psy, psp, val);
}

int power_supply_set_property(struct power_supply *psy, enum power_supply_property psp,
			      const union power_supply_propval *val)
{
	if (!psy->desc->set_property)
		return -ENODEV;
	return psy->desc->set_property(psy, psp, val);
}

static int power_supply_property_is_writeable(struct power_supply *psy,
					      enum power_supply_property psp)
{
	if (!psy->desc->property_is_writeable)
		return -ENODEV;
	return psy->desc->property_is_writeable(psy, psp);
}

/* Does supplier supply supply (by its supplied_to names)? */
static bool psy_supplies(const struct power_supply *supplier, const struct power_supply *supply)
{
	for (size_t i = 0; i < supplier->num_supplicants; i++)
		if (strcmp(supplier->supplied_to[i], supply->desc->name) == 0)
			return true;
	return false;
}

int power_supply_get_property_from_supplier(struct power_supply *psy,
					    enum power_supply_property psp,
					    union power_supply_propval *val)
{
	for (struct power_supply *p = cs_power_supply_first(); p; p = p->cs_next)
		if (p != psy && psy_supplies(p, psy) && power_supply_get_property(p, psp, val) == 0)
			return 0;
	return -ENODEV;
}

static void power_supply_external_power_changed(struct power_supply *psy)
{
	if (psy->desc->external_power_changed)
		psy->desc->external_power_changed(psy);
}

int power_supply_reg_notifier(struct notifier_block *nb)
{
	return raw_notifier_chain_register(&cs_kernel()->psy_nh, nb);
}

void power_supply_unreg_notifier(struct notifier_block *nb)
{
	raw_notifier_chain_unregister(&cs_kernel()->psy_nh, nb);
}

/* ---- sysfs text ---- */

static const char *text_of(const char *const *tab, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? tab[v] : "Unknown";
}

/* Append text to line (of size cap, holding *len bytes and a NUL), cut to fit. */
static void line_cat(char *line, size_t *len, size_t cap, const char *text)
{
	size_t n = MIN(strlen(text), cap - 1 - *len);

	memcpy(line + *len, text, n);
	*len += n;
	line[*len] = '\0';
}

/* Room for a property's text that psy_value_text() builds itself: an int, or the ten USB
 * types' names (8 characters at most) with brackets and spaces. */
#define PSY_TEXT_MAX 128

/* The decimal digits of v in buf (of PSY_TEXT_MAX). */
static const char *int_text(int v, char *buf)
{
	char *d = buf + PSY_TEXT_MAX;
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;

	*--d = '\0';
	do {
		*--d = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--d = '-';
	return d;
}

/* Every USB type the supply supports, the active one in brackets, with a space between
 * them, in buf (of PSY_TEXT_MAX). */
static const char *usb_types_text(const struct power_supply *psy, int active, char *buf)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int t = 0; t < POWER_SUPPLY_USB_TYPE_COUNT; t++) {
		if (!(psy->desc->usb_types & BIT(t)))
			continue;
		if (len)
			line_cat(buf, &len, PSY_TEXT_MAX, " ");
		if (t == active)
			line_cat(buf, &len, PSY_TEXT_MAX, "[");
		line_cat(buf, &len, PSY_TEXT_MAX, power_supply_usb_type_text(t));
		if (t == active)
			line_cat(buf, &len, PSY_TEXT_MAX, "]");
	}
	return buf;
}

/*
 * The text of property p's value as sysfs shows it, without the newline: a table's name
 * or the supply's own string as they are, a number or the USB types written in buf (of
 * PSY_TEXT_MAX). NULL when the supply does not have the property or its driver fails.
 */
static const char *psy_value_text(struct power_supply *psy, enum power_supply_property p,
				  char *buf)
{
	union power_supply_propval val = { 0 };
	const char *const *texts;
	size_t n;

	/* get_property refuses a property the supply does not have */
	if (power_supply_get_property(psy, p, &val) < 0)
		return NULL;
	if (p == POWER_SUPPLY_PROP_USB_TYPE)
		return usb_types_text(psy, val.intval, buf);
	if (prop_is_string(p))
		return val.strval ? val.strval : "";
	if (p == POWER_SUPPLY_PROP_TYPE)
		return power_supply_type_text(val.intval);
	texts = prop_texts(p, &n);
	if (texts)
		return text_of(texts, n, val.intval);
	return int_text(val.intval, buf);
}

char *power_supply_show_property(struct power_supply *psy, enum power_supply_property p)
{
	char buf[PSY_TEXT_MAX];
	const char *text = psy_value_text(psy, p, buf);

	return text ? g_strconcat(text, "\n", NULL) : NULL;
}

/* A user-space write to the property's sysfs file (text as `echo` writes it):
 * 0, or -EINVAL / -EPERM (not writeable) / the driver's error. */
static int power_supply_store_property(struct power_supply *psy, enum power_supply_property p,
				       const char *text)
{
	union power_supply_propval val = { 0 };
	const char *const *texts;
	size_t n;
	int ret;

	if (!psy_has(psy, p))
		return -EINVAL;
	if (power_supply_property_is_writeable(psy, p) <= 0)
		return -EPERM;
	texts = prop_texts(p, &n);
	ret = texts ? __sysfs_match_string(texts, n, text) : -EINVAL;
	if (ret < 0 && p == POWER_SUPPLY_PROP_USB_TYPE)
		ret = __sysfs_match_string(usb_type_text, G_N_ELEMENTS(usb_type_text), text);
	if (ret >= 0) {
		val.intval = ret;
	} else {
		long long v;

		ret = kstrtoll(text, 10, &v);
		if (ret < 0 || v < INT_MIN || v > INT_MAX)
			return -EINVAL;
		val.intval = (int)v;
	}
	return power_supply_set_property(psy, p, &val);
}

/* Which properties the supply has (psy_has() of each), read off its list once. */
static void psy_present(const struct power_supply *psy, bool present[POWER_SUPPLY_PROP_COUNT])
{
	memset(present, 0, POWER_SUPPLY_PROP_COUNT * sizeof(present[0]));
	present[POWER_SUPPLY_PROP_TYPE] = true;
	for (size_t i = 0; i < psy->desc->num_properties; i++)
		if ((unsigned)psy->desc->properties[i] < POWER_SUPPLY_PROP_COUNT)
			present[psy->desc->properties[i]] = true;
}

/* "POWER_SUPPLY_<NAME>=<text up to its first newline>", cut to the line (of size cap) as
 * snprintf would; the property's name in capitals, as uevents give it. */
static void uevent_line(char *line, size_t cap, enum power_supply_property p, const char *text)
{
	size_t len = 0, n;

	line_cat(line, &len, cap, "POWER_SUPPLY_");
	for (const char *c = prop_names[p]; *c && len < cap - 1; c++)
		line[len++] = *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
	line[len] = '\0';
	line_cat(line, &len, cap, "=");
	n = MIN(strcspn(text, "\n"), cap - 1 - len);
	memcpy(line + len, text, n);
	line[len + n] = '\0';
}

/* The uevent record: POWER_SUPPLY_NAME and every property the supply has, in the
 * properties' order. The kernel reads every property for a uevent whether or not anyone
 * listens (power_supply_uevent() in drivers/power/supply/power_supply_sysfs.c), and a
 * driver's get_property may read its chip; so does this, also when the record would go
 * nowhere (evlog_begin() gives no record) and is only counted. A property the supply
 * does not list is skipped without asking (get_property would refuse it). */
static void psy_uevent(struct cs_kernel *k, struct power_supply *psy)
{
	cJSON *rec = evlog_begin(k->log, sim_now(k->sim), "power_supply", "uevent");
	bool present[POWER_SUPPLY_PROP_COUNT];
	cJSON *env;
	char line[160];
	size_t len;

	psy_present(psy, present);
	if (!rec) {
		for (int p = 0; p < POWER_SUPPLY_PROP_COUNT; p++) {
			union power_supply_propval val = { 0 };

			if (present[p])
				power_supply_get_property(psy, p, &val);
		}
		evlog_end(k->log, NULL);
		return;
	}
	evlog_put_string(rec, "name", psy->desc->name);
	env = cJSON_AddArrayToObject(rec, "env");
	len = 0;
	line_cat(line, &len, sizeof(line), "POWER_SUPPLY_NAME=");
	line_cat(line, &len, sizeof(line), psy->desc->name);
	cJSON_AddItemToArray(env, cJSON_CreateString(line));
	for (int p = 0; p < POWER_SUPPLY_PROP_COUNT; p++) {
		char buf[PSY_TEXT_MAX];
		const char *text = present[p] ? psy_value_text(psy, p, buf) : NULL;

		if (!text)
			continue;
		uevent_line(line, sizeof(line), p, text);
		cJSON_AddItemToArray(env, cJSON_CreateString(line));
	}
	evlog_end(k->log, rec);
}

/* What a change sets off: the supplies this one supplies hear of it, the notifier
 * chain runs, the uevent goes out - in the kernel's order (power_supply_changed_work)
 * for a driver's supply; the board's own supplies log their uevent first. */
static void psy_changed_now(struct power_supply *psy, bool kernel_order)
{
	struct cs_kernel *k = cs_kernel();

	if (!kernel_order)
		psy_uevent(k, psy);
	for (struct power_supply *p = k->psy_head; p; p = p->cs_next)
		if (p != psy && psy_supplies(psy, p))
			power_supply_external_power_changed(p);
	raw_notifier_call_chain(&k->psy_nh, PSY_EVENT_PROP_CHANGED, psy);
	if (kernel_order)
		psy_uevent(k, psy);
}

void power_supply_changed(struct power_supply *psy)
{
	struct psy_private *pp;

	if (!psy || !cs_kernel())
		return;
	if (!psy->dev.parent) {
		/* the simulated board's supplies report at once */
		psy_changed_now(psy, false);
		return;
	}
	pp = container_of(psy, struct psy_private, psy);
	psy->changed = true;
	schedule_work(&pp->changed_work);
}

/* ---- user space ---- */

char *cs_device_attr_read(struct device *dev, const struct device_attribute *attr)
{
	char *buf;
	ssize_t n;

	if (!attr->show)
		return NULL;
	buf = g_malloc0(PAGE_SIZE + 1);
	n = attr->show(dev, (struct device_attribute *)attr, buf);
	if (n < 0) {
		g_free(buf);
		return NULL;
	}
	buf[n < PAGE_SIZE ? n : PAGE_SIZE] = '\0';
	return buf;
}

int cs_sysfs_write(const char *path, const char *text, char **msg)
{
	g_auto(GStrv) parts = g_strsplit(path, "/", -1);
	struct power_supply *psy;
	g_autofree char *line = NULL;
	int p;

	if (g_strv_length(parts) != 4 || strcmp(parts[0], "class") != 0 ||
	    strcmp(parts[1], "power_supply") != 0) {
		*msg = g_strdup_printf("\"%s\" is not class/power_supply/<name>/<attribute>", path);
		return -EINVAL;
	}
	psy = power_supply_get_by_name(parts[2]);
	if (!psy) {
		*msg = g_strdup_printf("no power supply \"%s\"", parts[2]);
		return -ENODEV;
	}
	/* `echo VALUE > file` writes the value and a newline */
	line = g_strdup_printf("%s\n", text);
	p = power_supply_prop_by_name(parts[3]);
	if (p >= 0 && psy_has(psy, p)) {
		int ret = power_supply_store_property(psy, p, line);

		if (ret < 0)
			*msg = g_strdup_printf("writing \"%s\" to %s: %s%s", text, path,
					       ret == -EPERM ? "not writeable: " : "",
					       cs_errname(ret) ? cs_errname(ret) : "error");
		return ret;
	}
	for (const struct device_attribute *a = cs_device_attr_next(&psy->dev, NULL); a;
	     a = cs_device_attr_next(&psy->dev, a))
		if (strcmp(a->attr.name, parts[3]) == 0) {
			ssize_t ret = a->store ? a->store(&psy->dev, (struct device_attribute *)a, line,
							   strlen(line)) : -EPERM;

			if (ret < 0) {
				*msg = g_strdup_printf("writing \"%s\" to %s: %s", text, path,
						       cs_errname((int)ret) ? cs_errname((int)ret) : "error");
				return (int)ret;
			}
			return 0;
		}
	*msg = g_strdup_printf("power supply \"%s\" has no attribute \"%s\"", parts[2], parts[3]);
	return -ENOENT;
}
