// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/kcore.c - what the kernel's core files (drivers/extcon/extcon.c and
 * devres.c, drivers/usb/phy/phy.c, compiled unmodified) call below them: the run's
 * share of their global state, the allocators, classes and registered devices,
 * uevents; and the layer's glue for providers that are no kernel driver (the board).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <linux/device.h>
#include <linux/extcon-provider.h>
#include <linux/of.h>
#include <linux/usb/phy.h>
#include <linux/slab.h>
#include <chargesim/kernel.h>
#include <chargesim/linux_module.h>
#include "stack/kernel/kformat.h"

/* extcon.c's module_init (the class every extcon device joins): its one process-wide
 * variable, set once before any run uses it, whichever thread comes first. Weak: a
 * build without the kernel tree has no extcon.c. */
extern const struct cs_linux_module cs_linux_module_extcon_core __attribute__((weak));

static gpointer kcore_init_once(gpointer data)
{
	(void)data;
	if (&cs_linux_module_extcon_core)
		cs_linux_module_extcon_core.init();
	return NULL;
}

struct cs_kcore *cs_kcore(void)
{
	static GOnce once = G_ONCE_INIT;
	struct cs_kcore *c = &cs_kernel()->kcore;

	g_once(&once, kcore_init_once, NULL);

	if (!c->extcon_dev_list.next)
		INIT_LIST_HEAD(&c->extcon_dev_list);
	if (!c->phy_list.next)
		INIT_LIST_HEAD(&c->phy_list);
	return c;
}

/* ---- allocators ---- */

void *kmalloc(size_t size, gfp_t gfp)
{
	return (gfp & __GFP_ZERO) ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

/* The kernel's printf (its %p extensions too), measured, then written into a kmalloc'd
 * string that kfree() takes. */
char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = cs_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = kmalloc((size_t)n + 1, gfp);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	cs_vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	(void)gfp;
	return (unsigned long)calloc(1, PAGE_SIZE);
}

void free_page(unsigned long addr)
{
	free((void *)addr);
}

/* ---- classes and registered devices ---- */

struct class *class_create(const char *name)
{
	struct class *cls = calloc(1, sizeof(*cls));

	if (!cls)
		return ERR_PTR(-ENOMEM);
	cls->name = name;
	return cls;
}

void class_destroy(const struct class *cls)
{
	if (!IS_ERR_OR_NULL(cls))
		free((void *)cls);
}

struct device *get_device(struct device *dev)
{
	if (dev)
		dev->cs_refs++;
	return dev;
}

void put_device(struct device *dev)
{
	if (!dev || --dev->cs_refs > 0)
		return;
	if (dev->type && dev->type->release)
		dev->type->release(dev);
	else if (dev->release)
		dev->release(dev);
}

/* No sysfs tree or uevent daemon here: registering keeps the reference the kernel's
 * device_initialize() gives, and the name dev_set_name() gave. */
int device_register(struct device *dev)
{
	dev->cs_refs = 1;
	return 0;
}

void device_unregister(struct device *dev)
{
	put_device(dev);
	g_free(dev->cs_name);
	dev->cs_name = NULL;
	dev->kobj.name = NULL;
}

/* ---- uevents: built as the kernel does, heard by nobody (no user space) ---- */

int add_uevent_var(struct kobj_uevent_env *env, const char *format, ...)
{
	va_list ap;
	int len;

	if (env->envp_idx >= UEVENT_NUM_ENVP)
		return -ENOMEM;
	va_start(ap, format);
	len = vsnprintf(&env->buf[env->buflen], sizeof(env->buf) - env->buflen, format, ap);
	va_end(ap);
	if (len < 0 || len >= (int)sizeof(env->buf) - env->buflen)
		return -ENOMEM;
	env->envp[env->envp_idx++] = &env->buf[env->buflen];
	env->buflen += len + 1;
	return 0;
}

int kobject_uevent_env(struct kobject *kobj, enum kobject_action action, char *envp[])
{
	(void)kobj;
	(void)action;
	(void)envp;
	return 0;
}

int kobject_uevent(struct kobject *kobj, enum kobject_action action)
{
	return kobject_uevent_env(kobj, action, NULL);
}

/* ---- extcon glue ---- */

static const char *const cable_names[EXTCON_NUM] = {
	[EXTCON_USB] = "USB", [EXTCON_USB_HOST] = "USB-HOST", [EXTCON_CHG_USB_SDP] = "SDP",
	[EXTCON_CHG_USB_DCP] = "DCP", [EXTCON_CHG_USB_CDP] = "CDP", [EXTCON_CHG_USB_ACA] = "ACA",
	[EXTCON_CHG_USB_FAST] = "FAST-CHARGER", [EXTCON_CHG_USB_SLOW] = "SLOW-CHARGER",
	[EXTCON_CHG_WPT] = "WPT", [EXTCON_CHG_USB_PD] = "PD", [EXTCON_DOCK] = "DOCK",
	[EXTCON_JIG] = "JIG", [EXTCON_MECHANICAL] = "MECHANICAL",
};

const char *cs_extcon_cable_name(unsigned int id)
{
	return id < EXTCON_NUM ? cable_names[id] : NULL;
}

int cs_extcon_report(struct extcon_dev *edev, unsigned int id, bool state)
{
	int now = extcon_get_state(edev, id);
	char buf[64];

	if (now < 0)
		return now;
	if (now == state)
		return 0;   /* edge-driven: an unchanged cable is not sent again */
	snprintf(buf, sizeof(buf), "%s=%d", cs_extcon_cable_name(id) ? cs_extcon_cable_name(id) : "?",
		 state);
	cs_stack_event("extcon", "cable", buf);
	return extcon_set_state_sync(edev, id, state);
}

/* ---- what phy.c reads of the device tree ---- */

bool of_device_is_available(const struct device_node *np)
{
	const char *status;

	if (!np)
		return false;
	if (of_property_read_string(np, "status", &status))
		return true;
	return strcmp(status, "okay") == 0 || strcmp(status, "ok") == 0;
}

/* ---- the board's PHY glue ---- */

static const char *const usb_phy_event_names[] = {
	"none", "vbus", "id", "charger", "enumerated",
};

void cs_usb_phy_notify(struct usb_phy *x, enum usb_phy_events event, unsigned int mA)
{
	void *data = NULL;

	usb_phy_set_event(x, event);
	switch (x->cs_payload) {
	case CS_PHY_PAYLOAD_MA:
		x->cs_ma = mA;
		data = &x->cs_ma;
		break;
	case CS_PHY_PAYLOAD_GADGET:
		data = x->cs_gadget;
		break;
	case CS_PHY_PAYLOAD_NULL:
		data = NULL;
		break;
	}
	cs_stack_event("usb_phy_event", "event",
		       (unsigned int)event < ARRAY_SIZE(usb_phy_event_names) ?
		       usb_phy_event_names[event] : "?");
	atomic_notifier_call_chain(&x->notifier, event, data);
}

/* The framework (phy.c's usb_phy_notify_charger_work) notifies with the PHY as data
 * and the current in mA as action; a glue driver never passes the PHY itself. */
static int usb_phy_log_cb(struct notifier_block *nb, unsigned long action, void *data)
{
	struct usb_phy *x = container_of(nb, struct usb_phy, cs_log_nb);

	if (data == x)
		cs_stack_event_int("usb_charger_notify", "mA", (long long)action);
	return NOTIFY_DONE;
}

void cs_usb_phy_log_framework(struct usb_phy *x)
{
	x->cs_log_nb = (struct notifier_block){ .notifier_call = usb_phy_log_cb,
						.priority = INT_MAX };
	usb_register_notifier(x, &x->cs_log_nb);
}
