/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/power_supply.h (chargesim) - the power_supply class.
 *
 * Types and their sysfs strings are the kernel's, in the kernel's order: Battery..USB
 * (2.6), USB_DCP/CDP/ACA (2010, BC1.2 types), USB_C/USB_PD/USB_PD_DRP (2016, Type-C
 * and PD), BrickID, Wireless; the usb_type property (2018) lists the supported USB
 * types with the active one in brackets. Properties are in the kernel's units (uV,
 * uA, tenths of a degree). power_supply_changed() produces a uevent record with the
 * POWER_SUPPLY_* environment, tells the supplies this one supplies
 * (external_power_changed) and runs the power_supply notifier chain - at once, where
 * the kernel defers the same steps to a work item at the same instant.
 *
 * A supply embeds its struct device (parent, driver data, attributes), as drivers
 * expect: to_power_supply(), psy->dev.parent, device_create_file(&psy->dev, ...).
 * The property enum lists every property of Linux 6.12; its numbering starts with
 * the ones chargesim's own board supplies report, which is the order uevent records
 * list them in (a kernel lists a supply's properties in its driver's order).
 */
#ifndef CS_LINUX_POWER_SUPPLY_H
#define CS_LINUX_POWER_SUPPLY_H

#include <linux/kernel_types.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>

struct device_node;
struct fwnode_handle;

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
	POWER_SUPPLY_CHARGE_TYPE_ADAPTIVE,
	POWER_SUPPLY_CHARGE_TYPE_CUSTOM,
	POWER_SUPPLY_CHARGE_TYPE_LONGLIFE,
	POWER_SUPPLY_CHARGE_TYPE_BYPASS,
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
	POWER_SUPPLY_HEALTH_OVERCURRENT,
	POWER_SUPPLY_HEALTH_CALIBRATION_REQUIRED,
	POWER_SUPPLY_HEALTH_WARM,
	POWER_SUPPLY_HEALTH_COOL,
	POWER_SUPPLY_HEALTH_HOT,
	POWER_SUPPLY_HEALTH_NO_BATTERY,
};

enum {
	POWER_SUPPLY_TECHNOLOGY_UNKNOWN = 0,
	POWER_SUPPLY_TECHNOLOGY_NiMH,
	POWER_SUPPLY_TECHNOLOGY_LION,
	POWER_SUPPLY_TECHNOLOGY_LIPO,
	POWER_SUPPLY_TECHNOLOGY_LiFe,
	POWER_SUPPLY_TECHNOLOGY_NiCd,
	POWER_SUPPLY_TECHNOLOGY_LiMn,
};

enum {
	POWER_SUPPLY_CAPACITY_LEVEL_UNKNOWN = 0,
	POWER_SUPPLY_CAPACITY_LEVEL_CRITICAL,
	POWER_SUPPLY_CAPACITY_LEVEL_LOW,
	POWER_SUPPLY_CAPACITY_LEVEL_NORMAL,
	POWER_SUPPLY_CAPACITY_LEVEL_HIGH,
	POWER_SUPPLY_CAPACITY_LEVEL_FULL,
};

enum {
	POWER_SUPPLY_SCOPE_UNKNOWN = 0,
	POWER_SUPPLY_SCOPE_SYSTEM,
	POWER_SUPPLY_SCOPE_DEVICE,
};

/* Every property of Linux 6.12 (sysfs names in power_supply_prop_name()): first the
 * ones chargesim's board supplies report (uevent order), then the rest in the
 * kernel's order; the string-valued ones last. */
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
	/* the rest of the kernel's list */
	POWER_SUPPLY_PROP_AUTHENTIC,
	POWER_SUPPLY_PROP_TECHNOLOGY,
	POWER_SUPPLY_PROP_CYCLE_COUNT,
	POWER_SUPPLY_PROP_VOLTAGE_MIN,
	POWER_SUPPLY_PROP_VOLTAGE_MAX_DESIGN,
	POWER_SUPPLY_PROP_VOLTAGE_MIN_DESIGN,
	POWER_SUPPLY_PROP_VOLTAGE_AVG,
	POWER_SUPPLY_PROP_VOLTAGE_OCV,
	POWER_SUPPLY_PROP_VOLTAGE_BOOT,
	POWER_SUPPLY_PROP_CURRENT_AVG,
	POWER_SUPPLY_PROP_CURRENT_BOOT,
	POWER_SUPPLY_PROP_POWER_NOW,
	POWER_SUPPLY_PROP_POWER_AVG,
	POWER_SUPPLY_PROP_CHARGE_EMPTY_DESIGN,
	POWER_SUPPLY_PROP_CHARGE_FULL,
	POWER_SUPPLY_PROP_CHARGE_EMPTY,
	POWER_SUPPLY_PROP_CHARGE_NOW,
	POWER_SUPPLY_PROP_CHARGE_AVG,
	POWER_SUPPLY_PROP_CHARGE_COUNTER,
	POWER_SUPPLY_PROP_CONSTANT_CHARGE_CURRENT_MAX,
	POWER_SUPPLY_PROP_CONSTANT_CHARGE_VOLTAGE_MAX,
	POWER_SUPPLY_PROP_CHARGE_CONTROL_LIMIT,
	POWER_SUPPLY_PROP_CHARGE_CONTROL_LIMIT_MAX,
	POWER_SUPPLY_PROP_CHARGE_CONTROL_START_THRESHOLD,
	POWER_SUPPLY_PROP_CHARGE_CONTROL_END_THRESHOLD,
	POWER_SUPPLY_PROP_CHARGE_BEHAVIOUR,
	POWER_SUPPLY_PROP_INPUT_VOLTAGE_LIMIT,
	POWER_SUPPLY_PROP_INPUT_POWER_LIMIT,
	POWER_SUPPLY_PROP_ENERGY_FULL_DESIGN,
	POWER_SUPPLY_PROP_ENERGY_EMPTY_DESIGN,
	POWER_SUPPLY_PROP_ENERGY_FULL,
	POWER_SUPPLY_PROP_ENERGY_EMPTY,
	POWER_SUPPLY_PROP_ENERGY_NOW,
	POWER_SUPPLY_PROP_ENERGY_AVG,
	POWER_SUPPLY_PROP_CAPACITY_ALERT_MIN,
	POWER_SUPPLY_PROP_CAPACITY_ALERT_MAX,
	POWER_SUPPLY_PROP_CAPACITY_ERROR_MARGIN,
	POWER_SUPPLY_PROP_CAPACITY_LEVEL,
	POWER_SUPPLY_PROP_TEMP_MAX,
	POWER_SUPPLY_PROP_TEMP_MIN,
	POWER_SUPPLY_PROP_TEMP_ALERT_MIN,
	POWER_SUPPLY_PROP_TEMP_ALERT_MAX,
	POWER_SUPPLY_PROP_TEMP_AMBIENT,
	POWER_SUPPLY_PROP_TEMP_AMBIENT_ALERT_MIN,
	POWER_SUPPLY_PROP_TEMP_AMBIENT_ALERT_MAX,
	POWER_SUPPLY_PROP_TIME_TO_EMPTY_NOW,
	POWER_SUPPLY_PROP_TIME_TO_EMPTY_AVG,
	POWER_SUPPLY_PROP_TIME_TO_FULL_NOW,
	POWER_SUPPLY_PROP_TIME_TO_FULL_AVG,
	POWER_SUPPLY_PROP_SCOPE,
	POWER_SUPPLY_PROP_PRECHARGE_CURRENT,
	POWER_SUPPLY_PROP_CHARGE_TERM_CURRENT,
	POWER_SUPPLY_PROP_CALIBRATE,
	POWER_SUPPLY_PROP_MANUFACTURE_YEAR,
	POWER_SUPPLY_PROP_MANUFACTURE_MONTH,
	POWER_SUPPLY_PROP_MANUFACTURE_DAY,
	POWER_SUPPLY_PROP_SERIAL_NUMBER,
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
	u32 usb_types;                   /* BIT(POWER_SUPPLY_USB_TYPE_*) of each supported type */
	const enum power_supply_property *properties;
	size_t num_properties;
	int (*get_property)(struct power_supply *psy, enum power_supply_property psp,
			    union power_supply_propval *val);
	int (*set_property)(struct power_supply *psy, enum power_supply_property psp,
			    const union power_supply_propval *val);
	int (*property_is_writeable)(struct power_supply *psy, enum power_supply_property psp);
	void (*external_power_changed)(struct power_supply *psy);
	bool no_thermal;
};

struct power_supply_config {
	struct device_node *of_node;
	struct fwnode_handle *fwnode;
	void *drv_data;
	const struct attribute_group **attr_grp;
	char **supplied_to;
	size_t num_supplicants;
};

struct power_supply {
	const struct power_supply_desc *desc;
	char **supplied_to;
	size_t num_supplicants;
	struct device_node *of_node;
	void *drv_data;
	struct device dev;
	bool changed;
	/* chargesim */
	struct power_supply *cs_next;   /* the run's list of registered supplies */
};

#define to_power_supply(device) container_of((device), struct power_supply, dev)

/* power_supply notifier events */
enum power_supply_notifier_events {
	PSY_EVENT_PROP_CHANGED,
};

/* Register a supply: the supply, or ERR_PTR(-EINVAL) for a bad description,
 * ERR_PTR(-ENOMEM). The devm form unregisters it when parent's driver goes away. */
struct power_supply *power_supply_register(struct device *parent,
					   const struct power_supply_desc *desc,
					   const struct power_supply_config *cfg);
struct power_supply *devm_power_supply_register(struct device *parent,
						const struct power_supply_desc *desc,
						const struct power_supply_config *cfg);
void power_supply_unregister(struct power_supply *psy);
void power_supply_changed(struct power_supply *psy);
struct power_supply *power_supply_get_by_name(const char *name);
void power_supply_put(struct power_supply *psy);
int power_supply_get_property(struct power_supply *psy, enum power_supply_property psp,
			      union power_supply_propval *val);
int power_supply_set_property(struct power_supply *psy, enum power_supply_property psp,
			      const union power_supply_propval *val);
/* The property from the first supply that supplies psy and has it (-ENODEV: none). */
int power_supply_get_property_from_supplier(struct power_supply *psy,
					    enum power_supply_property psp,
					    union power_supply_propval *val);
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
/* What reading a device attribute's sysfs file gives (g_free), NULL if unreadable. */
char *cs_device_attr_read(struct device *dev, const struct device_attribute *attr);
/* User space writes text to class/power_supply/<name>/<property or attribute>:
 * 0, or -errno with a message in *msg (g_free). */
int cs_sysfs_write(const char *path, const char *text, char **msg);

#endif
