/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/power_supply.h (chargesim) - the power_supply class.
 *
 * Types and their sysfs strings are the kernel's, in the kernel's order: Battery..USB
 * (2.6), USB_DCP/CDP/ACA (2010, BC1.2 types), USB_C/USB_PD/USB_PD_DRP (2016, Type-C
 * and PD), BrickID, Wireless; the usb_type property (2018) lists the supported USB
 * types with the active one in brackets. Properties are in the kernel's units (uV,
 * uA, tenths of a degree). power_supply_changed() produces a uevent record with the
 * POWER_SUPPLY_* environment, and runs the power_supply notifier chain.
 */
#ifndef CS_LINUX_POWER_SUPPLY_H
#define CS_LINUX_POWER_SUPPLY_H

#include <linux/kernel_types.h>
#include <linux/notifier.h>

enum power_supply_type {
	POWER_SUPPLY_TYPE_UNKNOWN = 0,
	POWER_SUPPLY_TYPE_BATTERY,
	POWER_SUPPLY_TYPE_UPS,
	POWER_SUPPLY_TYPE_MAINS,
	POWER_SUPPLY_TYPE_USB,          /* Standard Downstream Port */
	POWER_SUPPLY_TYPE_USB_DCP,      /* Dedicated Charging Port */
	POWER_SUPPLY_TYPE_USB_CDP,      /* Charging Downstream Port */
	POWER_SUPPLY_TYPE_USB_ACA,      /* Accessory Charger Adapters */
	POWER_SUPPLY_TYPE_USB_TYPE_C,   /* Type C Port */
	POWER_SUPPLY_TYPE_USB_PD,       /* Power Delivery Port */
	POWER_SUPPLY_TYPE_USB_PD_DRP,   /* PD Dual Role Port */
	POWER_SUPPLY_TYPE_APPLE_BRICK_ID,
	POWER_SUPPLY_TYPE_WIRELESS,
	POWER_SUPPLY_TYPE_COUNT
};

enum power_supply_usb_type {
	POWER_SUPPLY_USB_TYPE_UNKNOWN = 0,
	POWER_SUPPLY_USB_TYPE_SDP,
	POWER_SUPPLY_USB_TYPE_DCP,
	POWER_SUPPLY_USB_TYPE_CDP,
	POWER_SUPPLY_USB_TYPE_ACA,
	POWER_SUPPLY_USB_TYPE_C,
	POWER_SUPPLY_USB_TYPE_PD,
	POWER_SUPPLY_USB_TYPE_PD_DRP,
	POWER_SUPPLY_USB_TYPE_PD_PPS,
	POWER_SUPPLY_USB_TYPE_APPLE_BRICK_ID,
	POWER_SUPPLY_USB_TYPE_COUNT
};

enum {
	POWER_SUPPLY_STATUS_UNKNOWN = 0,
	POWER_SUPPLY_STATUS_CHARGING,
	POWER_SUPPLY_STATUS_DISCHARGING,
	POWER_SUPPLY_STATUS_NOT_CHARGING,
	POWER_SUPPLY_STATUS_FULL,
};

enum {
	POWER_SUPPLY_CHARGE_TYPE_UNKNOWN = 0,
	POWER_SUPPLY_CHARGE_TYPE_NONE,
	POWER_SUPPLY_CHARGE_TYPE_TRICKLE,
	POWER_SUPPLY_CHARGE_TYPE_FAST,
	POWER_SUPPLY_CHARGE_TYPE_STANDARD,
};

enum {
	POWER_SUPPLY_HEALTH_UNKNOWN = 0,
	POWER_SUPPLY_HEALTH_GOOD,
	POWER_SUPPLY_HEALTH_OVERHEAT,
	POWER_SUPPLY_HEALTH_DEAD,
	POWER_SUPPLY_HEALTH_OVERVOLTAGE,
	POWER_SUPPLY_HEALTH_UNSPEC_FAILURE,
	POWER_SUPPLY_HEALTH_COLD,
	POWER_SUPPLY_HEALTH_WATCHDOG_TIMER_EXPIRE,
	POWER_SUPPLY_HEALTH_SAFETY_TIMER_EXPIRE,
};

/* The properties chargesim models; sysfs names in power_supply_prop_name(). */
enum power_supply_property {
	POWER_SUPPLY_PROP_STATUS = 0,
	POWER_SUPPLY_PROP_CHARGE_TYPE,
	POWER_SUPPLY_PROP_HEALTH,
	POWER_SUPPLY_PROP_PRESENT,
	POWER_SUPPLY_PROP_ONLINE,
	POWER_SUPPLY_PROP_VOLTAGE_NOW,
	POWER_SUPPLY_PROP_VOLTAGE_MAX,
	POWER_SUPPLY_PROP_CURRENT_NOW,
	POWER_SUPPLY_PROP_CURRENT_MAX,
	POWER_SUPPLY_PROP_INPUT_CURRENT_LIMIT,
	POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT,
	POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE,
	POWER_SUPPLY_PROP_CHARGE_FULL_DESIGN,
	POWER_SUPPLY_PROP_CAPACITY,
	POWER_SUPPLY_PROP_TEMP,
	POWER_SUPPLY_PROP_TYPE,
	POWER_SUPPLY_PROP_USB_TYPE,
	POWER_SUPPLY_PROP_MODEL_NAME,
	POWER_SUPPLY_PROP_MANUFACTURER,
	POWER_SUPPLY_PROP_COUNT
};

union power_supply_propval {
	int intval;
	const char *strval;
};

struct power_supply;

struct power_supply_desc {
	const char *name;
	enum power_supply_type type;
	const enum power_supply_usb_type *usb_types;
	size_t num_usb_types;
	const enum power_supply_property *properties;
	size_t num_properties;
	int (*get_property)(struct power_supply *psy, enum power_supply_property psp,
			    union power_supply_propval *val);
	int (*set_property)(struct power_supply *psy, enum power_supply_property psp,
			    const union power_supply_propval *val);
	int (*property_is_writeable)(struct power_supply *psy, enum power_supply_property psp);
};

struct power_supply_config {
	void *drv_data;
};

struct power_supply {
	const struct power_supply_desc *desc;
	void *drv_data;
	struct power_supply *cs_next;   /* the run's list of registered supplies */
};

/* power_supply notifier events */
#define PSY_EVENT_PROP_CHANGED 0

struct power_supply *power_supply_register(struct device *parent,
					   const struct power_supply_desc *desc,
					   const struct power_supply_config *cfg);
#define devm_power_supply_register power_supply_register
void power_supply_unregister(struct power_supply *psy);
void power_supply_changed(struct power_supply *psy);
struct power_supply *power_supply_get_by_name(const char *name);
void power_supply_put(struct power_supply *psy);
int power_supply_get_property(struct power_supply *psy, enum power_supply_property psp,
			      union power_supply_propval *val);
int power_supply_set_property(struct power_supply *psy, enum power_supply_property psp,
			      const union power_supply_propval *val);
void *power_supply_get_drvdata(struct power_supply *psy);
int power_supply_reg_notifier(struct notifier_block *nb);
void power_supply_unreg_notifier(struct notifier_block *nb);

/* sysfs text */
const char *power_supply_type_text(enum power_supply_type t);
const char *power_supply_usb_type_text(enum power_supply_usb_type t);
const char *power_supply_prop_name(enum power_supply_property p);
/* Format one property as its sysfs file reads (with the trailing newline); returns
 * a g_malloc'd string, or NULL when the supply does not have the property. */
char *power_supply_show_property(struct power_supply *psy, enum power_supply_property p);
/* The run's registered supplies (first, then ->cs_next). */
struct power_supply *cs_power_supply_first(void);

#endif
