/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/device.h (chargesim) - struct device, drivers, device-managed resources
 * (devres), device attributes and the dev_* log helpers.
 *
 * A device has a parent, driver data, the device-tree node it was made from and
 * optional platform data, as drivers expect to find them. Device-managed resources
 * (devm_*) are released in reverse order when the device's driver is removed or its
 * probe fails, as the kernel's devres does. Device attributes (DEVICE_ATTR) made with
 * device_create_file() appear in the sysfs dump (--sysfs-at) next to the power-supply
 * properties, and user-space writes in a scenario reach their store() function.
 * Messages from dev_err() and friends are printk records in events.jsonl with the
 * device's name; dev_dbg() only prints with the layer's "dyndbg" switch (the kernel's
 * dynamic debug) or when the file defines DEBUG.
 */
#ifndef CS_LINUX_DEVICE_H
#define CS_LINUX_DEVICE_H

#include <linux/kernel_types.h>

struct device;
struct device_node;
struct fwnode_handle;
struct device_driver;
struct module;
struct dev_pm_ops;
struct of_device_id;
struct acpi_device_id;

struct kobject {
	const char *name;
};

struct attribute {
	const char *name;
	unsigned short mode;
};

struct attribute_group {
	const char *name;
	struct attribute **attrs;
};

struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr, const char *buf,
			 size_t count);
};

#define __ATTR(_name, _mode, _show, _store) { \
	.attr = { .name = __stringify(_name), .mode = (_mode) }, .show = (_show), .store = (_store) }
#define DEVICE_ATTR(_name, _mode, _show, _store) \
	struct device_attribute dev_attr_##_name = __ATTR(_name, _mode, _show, _store)
#define DEVICE_ATTR_RO(_name) DEVICE_ATTR(_name, 0444, _name##_show, NULL)
/* ATTRIBUTE_GROUPS(foo): foo_group over foo_attrs, and the NULL-ended foo_groups */
#define ATTRIBUTE_GROUPS(_name) \
	static const struct attribute_group _name##_group = { .attrs = _name##_attrs }; \
	static const struct attribute_group *_name##_groups[] = { &_name##_group, NULL }

/* uevents: a device tells user space it changed (KOBJ_CHANGE) with KEY=value lines. */
enum kobject_action { KOBJ_ADD, KOBJ_REMOVE, KOBJ_CHANGE };
#define UEVENT_NUM_ENVP 64
#define UEVENT_BUFFER_SIZE 2048
struct kobj_uevent_env {
	char *envp[UEVENT_NUM_ENVP];
	int envp_idx;
	char buf[UEVENT_BUFFER_SIZE];
	int buflen;
};
__printf(2, 3) int add_uevent_var(struct kobj_uevent_env *env, const char *format, ...);
int kobject_uevent(struct kobject *kobj, enum kobject_action action);
int kobject_uevent_env(struct kobject *kobj, enum kobject_action action, char *envp[]);

/* A kind of device (its sysfs groups, uevent variables and release) and a class of
 * devices (/sys/class/NAME). */
struct device_type {
	const char *name;
	const struct attribute_group **groups;
	int (*uevent)(const struct device *dev, struct kobj_uevent_env *env);
	void (*release)(struct device *dev);
};

struct class {
	const char *name;
	const struct attribute_group **dev_groups;
};

struct bus_type {
	const char *name;
};

struct device_driver {
	const char *name;
	const struct bus_type *bus;
	struct module *owner;
	const struct of_device_id *of_match_table;
	const struct acpi_device_id *acpi_match_table;
	const struct dev_pm_ops *pm;
};

struct cs_devres;
struct cs_dev_attr;

struct device {
	struct kobject kobj;
	struct device *parent;
	const char *init_name;
	const struct bus_type *bus;
	struct device_driver *driver;
	void *platform_data;
	void *driver_data;
	struct device_node *of_node;
	struct fwnode_handle *fwnode;
	const struct attribute_group **groups;
	const struct device_type *type;
	const struct class *class;
	void (*release)(struct device *dev);
	/* chargesim */
	struct cs_devres *cs_devres;        /* managed resources, newest first */
	struct cs_dev_attr *cs_attrs;       /* device_create_file() attributes */
	bool cs_wakeup;
	char *cs_name;                      /* dev_set_name() storage */
	int cs_refs;                        /* get_device() minus put_device() */
};

static inline const char *dev_name(const struct device *dev)
{
	if (!dev)
		return "(no device)";
	if (dev->init_name)
		return dev->init_name;
	return dev->kobj.name ? dev->kobj.name : "(no name)";
}

__printf(2, 3) int dev_set_name(struct device *dev, const char *fmt, ...);

static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

static inline void *dev_get_platdata(const struct device *dev)
{
	return dev->platform_data;
}

/* Wakeup sources: recorded, never used (no system suspend here). */
static inline int device_init_wakeup(struct device *dev, bool enable)
{
	dev->cs_wakeup = enable;
	return 0;
}
static inline bool device_may_wakeup(struct device *dev)
{
	return dev->cs_wakeup;
}
static inline int device_set_wakeup_capable(struct device *dev, bool capable)
{
	dev->cs_wakeup = capable;
	return 0;
}

static inline struct device_node *dev_of_node(struct device *dev)
{
	return dev ? dev->of_node : NULL;
}

static inline bool device_match_of_node(struct device *dev, const void *np)
{
	return np && dev->of_node == np;
}

/* Classes and registered devices. The class is a name (no sysfs tree here);
 * registering a device holds a reference, unregistering drops it, and the last
 * put_device() calls its release (the type's, else the device's). */
struct class *class_create(const char *name);
void class_destroy(const struct class *cls);
int device_register(struct device *dev);
void device_unregister(struct device *dev);
struct device *get_device(struct device *dev);
void put_device(struct device *dev);

/* sysfs attributes of a device */
int device_create_file(struct device *dev, const struct device_attribute *attr);
void device_remove_file(struct device *dev, const struct device_attribute *attr);
int device_add_groups(struct device *dev, const struct attribute_group **groups);

/* chargesim: the attributes made with device_create_file(), in order (prev NULL:
 * the first), for the sysfs dump and user-space writes; and forgetting them all
 * (the device is going away). */
const struct device_attribute *cs_device_attr_next(const struct device *dev,
						   const struct device_attribute *prev);
void cs_device_attrs_clear(struct device *dev);

/* ---- device-managed resources ---- */
typedef void (*dr_release_t)(struct device *dev, void *res);

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp);
void *devm_kcalloc(struct device *dev, size_t n, size_t size, gfp_t gfp);
void *devm_kmalloc_array(struct device *dev, size_t n, size_t size, gfp_t gfp);
__printf(3, 4) char *devm_kasprintf(struct device *dev, gfp_t gfp, const char *fmt, ...);
int devm_add_action(struct device *dev, void (*action)(void *), void *data);
int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data);
/* A resource with its own release function (the base of the devm_* helpers). */
void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp);
void devres_add(struct device *dev, void *res);
void devres_free(void *res);
typedef int (*dr_match_t)(struct device *dev, void *res, void *match_data);
/* Release and free the newest resource of dev with this release function that match
 * accepts (NULL: any); -ENOENT when there is none. */
int devres_release(struct device *dev, dr_release_t release, dr_match_t match, void *match_data);
/* Release every managed resource of dev, newest first (driver detach, failed probe). */
void devres_release_all(struct device *dev);

/* ---- messages ---- */
/* Is dynamic debug on for this module (the policy's "dyndbg" switch)? */
bool cs_dyndbg_enabled(const char *modname);
#ifdef KBUILD_MODNAME
#define CS_MODNAME KBUILD_MODNAME
#else
#define CS_MODNAME NULL
#endif

#define dev_crit(d, ...)   cs_printk("crit", dev_name(d), __VA_ARGS__)
#define dev_err(d, ...)    cs_printk("err", dev_name(d), __VA_ARGS__)
#define dev_warn(d, ...)   cs_printk("warn", dev_name(d), __VA_ARGS__)
#define dev_info(d, ...)   cs_printk("info", dev_name(d), __VA_ARGS__)
#ifdef DEBUG
#define dev_dbg(d, ...) cs_printk("debug", dev_name(d), __VA_ARGS__)
#else
#define dev_dbg(d, ...) do { \
	if (cs_dyndbg_enabled(CS_MODNAME)) \
		cs_printk("debug", dev_name(d), __VA_ARGS__); \
	else \
		cs_no_printk(__VA_ARGS__); \
} while (0)
#endif

#define dev_WARN_ONCE(d, cond, ...) WARN(cond, __VA_ARGS__)

/* Log "error <errno name>: <message>" (debug level for -EPROBE_DEFER) and return err. */
__printf(3, 4) int dev_err_probe(const struct device *dev, int err, const char *fmt, ...);

/* What the kernel's device.h brings along (kobject, sysfs, mutex, pm, idr, jiffies,
 * lists). */
#include <linux/idr.h>
#include <linux/jiffies.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pm.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#endif
