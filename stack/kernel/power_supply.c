// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/power_supply.c - power_supply registration, properties, uevents, sysfs text.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <linux/power_supply.h>
#include <chargesim/kernel.h>
#include "sim/evlog.h"

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
	"Unknown", "N/A", "Trickle", "Fast", "Standard",
};
static const char *const health_text[] = {
	"Unknown", "Good", "Overheat", "Dead", "Over voltage", "Unspecified failure", "Cold",
	"Watchdog timer expire", "Safety timer expire",
};

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
};
G_STATIC_ASSERT(G_N_ELEMENTS(prop_names) == POWER_SUPPLY_PROP_COUNT);

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

struct power_supply *cs_power_supply_first(void)
{
	return cs_kernel() ? cs_kernel()->psy_head : NULL;
}

struct power_supply *power_supply_register(struct device *parent,
					   const struct power_supply_desc *desc,
					   const struct power_supply_config *cfg)
{
	struct cs_kernel *k = cs_kernel();
	struct power_supply *psy, **pp;

	(void)parent;
	if (!desc || !desc->name || !k)
		return NULL;
	psy = calloc(1, sizeof(*psy));
	if (!psy)
		return NULL;
	psy->desc = desc;
	psy->drv_data = cfg ? cfg->drv_data : NULL;
	/* Keep registration order: sysfs listings come out the same every run. */
	for (pp = &k->psy_head; *pp; pp = &(*pp)->cs_next)
		;
	*pp = psy;
	return psy;
}

void power_supply_unregister(struct power_supply *psy)
{
	struct cs_kernel *k = cs_kernel();

	if (!psy)
		return;
	for (struct power_supply **pp = &k->psy_head; *pp; pp = &(*pp)->cs_next)
		if (*pp == psy) {
			*pp = psy->cs_next;
			break;
		}
	free(psy);
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

int power_supply_reg_notifier(struct notifier_block *nb)
{
	return raw_notifier_chain_register(&cs_kernel()->psy_nh, nb);
}

void power_supply_unreg_notifier(struct notifier_block *nb)
{
	raw_notifier_chain_unregister(&cs_kernel()->psy_nh, nb);
}

static const char *text_of(const char *const *tab, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? tab[v] : "Unknown";
}

char *power_supply_show_property(struct power_supply *psy, enum power_supply_property p)
{
	union power_supply_propval val = { 0 };

	/* get_property refuses a property the supply does not have */
	if (power_supply_get_property(psy, p, &val) < 0)
		return NULL;
	switch (p) {
	case POWER_SUPPLY_PROP_STATUS:
		return g_strdup_printf("%s\n", text_of(status_text, G_N_ELEMENTS(status_text), val.intval));
	case POWER_SUPPLY_PROP_CHARGE_TYPE:
		return g_strdup_printf("%s\n", text_of(charge_type_text, G_N_ELEMENTS(charge_type_text), val.intval));
	case POWER_SUPPLY_PROP_HEALTH:
		return g_strdup_printf("%s\n", text_of(health_text, G_N_ELEMENTS(health_text), val.intval));
	case POWER_SUPPLY_PROP_TYPE:
		return g_strdup_printf("%s\n", power_supply_type_text(val.intval));
	case POWER_SUPPLY_PROP_USB_TYPE: {
		/* Every supported USB type, the active one in brackets. */
		GString *s = g_string_new(NULL);

		for (size_t i = 0; i < psy->desc->num_usb_types; i++) {
			enum power_supply_usb_type t = psy->desc->usb_types[i];

			g_string_append_printf(s, (int)t == val.intval ? "[%s] " : "%s ",
					       power_supply_usb_type_text(t));
		}
		if (s->len)
			s->str[s->len - 1] = '\n';
		else
			g_string_append_c(s, '\n');
		return g_string_free(s, FALSE);
	}
	case POWER_SUPPLY_PROP_MODEL_NAME:
	case POWER_SUPPLY_PROP_MANUFACTURER:
		return g_strdup_printf("%s\n", val.strval ? val.strval : "");
	default:
		return g_strdup_printf("%d\n", val.intval);
	}
}

void power_supply_changed(struct power_supply *psy)
{
	struct cs_kernel *k = cs_kernel();
	cJSON *rec, *env;
	char line[160];

	if (!psy || !k)
		return;
	rec = evlog_begin(k->log, sim_now(k->sim), "power_supply", "uevent");
	cJSON_AddStringToObject(rec, "name", psy->desc->name);
	env = cJSON_AddArrayToObject(rec, "env");
	snprintf(line, sizeof(line), "POWER_SUPPLY_NAME=%s", psy->desc->name);
	cJSON_AddItemToArray(env, cJSON_CreateString(line));
	for (int p = 0; p < POWER_SUPPLY_PROP_COUNT; p++) {
		g_autofree char *v = NULL;
		char up[48];
		size_t i;

		v = power_supply_show_property(psy, p);
		if (!v)
			continue;
		v[strcspn(v, "\n")] = '\0';
		for (i = 0; prop_names[p][i] && i < sizeof(up) - 1; i++)
			up[i] = (char)toupper((unsigned char)prop_names[p][i]);
		up[i] = '\0';
		snprintf(line, sizeof(line), "POWER_SUPPLY_%s=%s", up, v);
		cJSON_AddItemToArray(env, cJSON_CreateString(line));
	}
	evlog_end(k->log, rec);
	raw_notifier_call_chain(&k->psy_nh, PSY_EVENT_PROP_CHANGED, psy);
}
