/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/of.h (chargesim) - the device tree as drivers read it.
 *
 * The simulated board (run/linux_board.c) builds one device tree per run from the
 * scenario: nodes with properties, compatibles and phandles, as a .dts would give
 * them. A scenario can add, change or delete properties of the driver's node in .dts
 * syntax (the policy parameter "of"; cs_of_apply_dts()). Integer cells are kept in
 * host order (the kernel keeps them big-endian and converts on every read; nothing
 * outside the accessors below can tell the difference).
 */
#ifndef CS_LINUX_OF_H
#define CS_LINUX_OF_H

#include <linux/kernel_types.h>
#include <linux/err.h>
#include <linux/mod_devicetable.h>
#include <linux/property.h>

typedef u32 phandle;

struct property {
	char *name;
	int length;              /* bytes */
	void *value;
	struct property *next;
};

struct device_node {
	const char *name;        /* node name without the unit address */
	const char *full_name;   /* "name@unit" */
	phandle phandle;
	struct fwnode_handle fwnode;
	struct property *properties;
	struct device_node *parent;
	struct device_node *child;
	struct device_node *sibling;
	/* chargesim */
	char *cs_label;          /* .dts label, for &label references */
};

#define of_match_ptr(_ptr) (_ptr)

static inline struct device_node *to_of_node(const struct fwnode_handle *fwnode)
{
	return fwnode ? container_of(fwnode, struct device_node, fwnode) : NULL;
}
#define of_fwnode_handle(np) ((np) ? &(np)->fwnode : NULL)

static inline void of_node_put(struct device_node *np)
{
	(void)np;
}

struct property *of_find_property(const struct device_node *np, const char *name, int *lenp);
bool of_property_read_bool(const struct device_node *np, const char *propname);
/* A node is available when it exists and has no "status" other than "okay" or "ok". */
bool of_device_is_available(const struct device_node *np);
int of_property_count_elems_of_size(const struct device_node *np, const char *propname,
				    int elem_size);
int of_property_read_u32_index(const struct device_node *np, const char *propname, u32 index,
			       u32 *out_value);
int of_property_read_variable_u32_array(const struct device_node *np, const char *propname,
					u32 *out_values, size_t sz_min, size_t sz_max);
int of_property_read_string(const struct device_node *np, const char *propname,
			    const char **out_string);
int of_property_read_string_helper(const struct device_node *np, const char *propname,
				   const char **out_strs, size_t sz, int skip);

static inline int of_property_read_u32_array(const struct device_node *np, const char *propname,
					     u32 *out_values, size_t sz)
{
	int ret = of_property_read_variable_u32_array(np, propname, out_values, sz, 0);

	return ret >= 0 ? 0 : ret;
}
static inline int of_property_read_u32(const struct device_node *np, const char *propname,
				       u32 *out_value)
{
	return of_property_read_u32_array(np, propname, out_value, 1);
}
static inline int of_property_count_u32_elems(const struct device_node *np, const char *propname)
{
	return of_property_count_elems_of_size(np, propname, sizeof(u32));
}
static inline int of_property_read_string_index(const struct device_node *np,
						const char *propname, int index,
						const char **output)
{
	int rc = of_property_read_string_helper(np, propname, output, 1, index);

	return rc < 0 ? rc : 0;
}
static inline int of_property_count_strings(const struct device_node *np, const char *propname)
{
	return of_property_read_string_helper(np, propname, NULL, 0, 0);
}

int of_device_is_compatible(const struct device_node *np, const char *compat);
struct device_node *of_get_next_child(const struct device_node *np, struct device_node *prev);
struct device_node *of_get_compatible_child(const struct device_node *parent,
					    const char *compatible);
struct device_node *of_find_node_by_phandle(phandle handle);
struct device_node *of_parse_phandle(const struct device_node *np, const char *phandle_name,
				     int index);
const struct of_device_id *of_match_node(const struct of_device_id *matches,
					 const struct device_node *node);
/* The number of children of np (0 for NULL). */
int of_get_child_count(const struct device_node *np);

#define for_each_child_of_node(parent, child) \
	for (child = of_get_next_child(parent, NULL); child != NULL; \
	     child = of_get_next_child(parent, child))

/* ---- chargesim: building a tree (the simulated board's firmware) ---- */
struct device_node *cs_of_node_new(struct device_node *parent, const char *full_name,
				   const char *label);
void cs_of_set_u32s(struct device_node *np, const char *name, const u32 *vals, int n);
void cs_of_set_u32(struct device_node *np, const char *name, u32 val);
void cs_of_set_string(struct device_node *np, const char *name, const char *s);
void cs_of_set_bool(struct device_node *np, const char *name);
void cs_of_free_tree(struct device_node *root);
/* Apply .dts property statements to np: `name = <1 2>;`, `name = "s", "t";`,
 * `name = <&label 3 0>;`, `name;` (a boolean), `/delete-property/ name;`.
 * Labels resolve in the run's tree. 0, or -EINVAL with a message in *msg (g_free).
 * The text is data from a scenario, so its size is bounded (the limits below, each
 * named in the message that refuses it) and parsing it takes time linear in its
 * length: no binding a charger driver reads comes near them. */
#define CS_OF_DTS_MAX_TEXT	65536	/* bytes of one text */
#define CS_OF_DTS_MAX_STATEMENTS 256	/* statements in one text */
#define CS_OF_DTS_MAX_CELLS	1024	/* cells in one property */
#define CS_OF_DTS_MAX_STRBYTES	4096	/* bytes of one property's strings */
int cs_of_apply_dts(struct device_node *np, const char *text, char **msg);

#endif
