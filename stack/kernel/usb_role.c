// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/usb_role.c - USB role switches (linux/usb/role.h) and the software
 * nodes they are found by (linux/property.h), as drivers/usb/roles/class.c and
 * drivers/base/swnode.c of Linux 6.12 behave for the calls drivers make. Both belong
 * to the run (struct cs_kernel); their providers, a machine's platform code,
 * unregister them. Each role a switch takes is logged (a `usb_role` stack event: the
 * uevent class.c sends).
 */
#include <string.h>
#include <glib.h>
#include <linux/err.h>
#include <linux/property.h>
#include <linux/usb/role.h>
#include <chargesim/kernel.h>

struct cs_swnode {
	const struct software_node *node;
	struct fwnode_handle fwnode;
	struct cs_swnode *next;
};

struct usb_role_switch {
	struct usb_role_switch_desc desc;
	struct device *parent;
	enum usb_role role;
	struct usb_role_switch *next;
};

/* ---- software nodes ---- */

int software_node_register(const struct software_node *node)
{
	struct cs_kernel *k = cs_kernel();
	struct cs_swnode *n, **pp;

	for (pp = &k->swnodes; *pp; pp = &(*pp)->next)
		if ((*pp)->node == node)
			return -EEXIST;
	n = g_new0(struct cs_swnode, 1);
	n->node = node;
	*pp = n;
	return 0;
}

void software_node_unregister(const struct software_node *node)
{
	for (struct cs_swnode **pp = &cs_kernel()->swnodes; *pp; pp = &(*pp)->next)
		if ((*pp)->node == node) {
			struct cs_swnode *n = *pp;

			*pp = n->next;
			g_free(n);
			return;
		}
}

const struct software_node *software_node_find_by_name(const struct software_node *parent,
						       const char *name)
{
	for (struct cs_swnode *n = cs_kernel()->swnodes; n; n = n->next)
		if (n->node->name && strcmp(n->node->name, name) == 0 &&
		    (!parent || n->node->parent == parent))
			return n->node;
	return NULL;
}

struct fwnode_handle *software_node_fwnode(const struct software_node *node)
{
	for (struct cs_swnode *n = cs_kernel()->swnodes; n; n = n->next)
		if (n->node == node)
			return &n->fwnode;
	return NULL;
}

/* ---- role switches ---- */

const char *usb_role_string(enum usb_role role)
{
	static const char *const names[] = { "none", "host", "device" };

	return (unsigned int)role < G_N_ELEMENTS(names) ? names[role] : "unknown";
}

int usb_role_switch_set_role(struct usb_role_switch *sw, enum usb_role role)
{
	int ret;

	if (IS_ERR_OR_NULL(sw))
		return 0;
	ret = sw->desc.set(sw, role);
	if (ret == 0) {
		sw->role = role;
		cs_stack_event("usb_role", "role", usb_role_string(role));
	}
	return ret;
}

enum usb_role usb_role_switch_get_role(struct usb_role_switch *sw)
{
	if (IS_ERR_OR_NULL(sw))
		return USB_ROLE_NONE;
	return sw->desc.get ? sw->desc.get(sw) : sw->role;
}

struct usb_role_switch *usb_role_switch_find_by_fwnode(const struct fwnode_handle *fwnode)
{
	if (!fwnode)
		return NULL;
	for (struct usb_role_switch *sw = cs_kernel()->role_switches; sw; sw = sw->next)
		if (sw->desc.fwnode == fwnode)
			return sw;
	return NULL;
}

void usb_role_switch_put(struct usb_role_switch *sw)
{
	(void)sw;   /* the registration owns it */
}

struct usb_role_switch *usb_role_switch_register(struct device *parent,
						 const struct usb_role_switch_desc *desc)
{
	struct cs_kernel *k = cs_kernel();
	struct usb_role_switch *sw, **pp;

	if (!desc || !desc->set)
		return ERR_PTR(-EINVAL);
	sw = g_new0(struct usb_role_switch, 1);
	sw->desc = *desc;
	sw->parent = parent;
	for (pp = &k->role_switches; *pp; pp = &(*pp)->next)
		;
	*pp = sw;
	return sw;
}

void usb_role_switch_unregister(struct usb_role_switch *sw)
{
	if (IS_ERR_OR_NULL(sw))
		return;
	for (struct usb_role_switch **pp = &cs_kernel()->role_switches; *pp; pp = &(*pp)->next)
		if (*pp == sw) {
			*pp = sw->next;
			break;
		}
	g_free(sw);
}

void *usb_role_switch_get_drvdata(struct usb_role_switch *sw)
{
	return IS_ERR_OR_NULL(sw) ? NULL : sw->desc.driver_data;
}
