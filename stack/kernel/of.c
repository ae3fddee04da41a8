// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/of.c - the run's device tree: building it (the simulated board's
 * firmware), reading it (of_* and device_property_*), and .dts property statements
 * a scenario applies to a node.
 */
#include <ctype.h>
#include <stdlib.h>
#include <glib.h>
#include <linux/of.h>
#include <chargesim/kernel.h>

/* ---- building ---- */

struct device_node *cs_of_node_new(struct device_node *parent, const char *full_name,
				   const char *label)
{
	struct device_node *np = g_new0(struct device_node, 1);
	const char *at = strchr(full_name, '@');

	np->full_name = g_strdup(full_name);
	np->name = at ? g_strndup(full_name, (gsize)(at - full_name)) : g_strdup(full_name);
	np->cs_label = g_strdup(label);
	np->parent = parent;
	if (parent) {
		struct device_node **pp = &parent->child;

		while (*pp)
			pp = &(*pp)->sibling;
		*pp = np;
	} else if (cs_kernel() && !cs_kernel()->of_root) {
		cs_kernel()->of_root = np;
	}
	return np;
}

static struct property *find_prop(const struct device_node *np, const char *name,
				  struct property ***link)
{
	struct property **pp = (struct property **)&np->properties;

	for (; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->name, name) == 0) {
			if (link)
				*link = pp;
			return *pp;
		}
	if (link)
		*link = pp;
	return NULL;
}

static void set_prop(struct device_node *np, const char *name, const void *value, int len)
{
	struct property **link, *p = find_prop(np, name, &link);

	if (!p) {
		p = g_new0(struct property, 1);
		p->name = g_strdup(name);
		*link = p;
	}
	g_free(p->value);
	p->value = len > 0 ? g_memdup2(value, (gsize)len) : NULL;
	p->length = len;
}

void cs_of_set_u32s(struct device_node *np, const char *name, const u32 *vals, int n)
{
	set_prop(np, name, vals, n * (int)sizeof(u32));
}

void cs_of_set_u32(struct device_node *np, const char *name, u32 val)
{
	cs_of_set_u32s(np, name, &val, 1);
}

void cs_of_set_string(struct device_node *np, const char *name, const char *s)
{
	set_prop(np, name, s, (int)strlen(s) + 1);
}

void cs_of_set_bool(struct device_node *np, const char *name)
{
	set_prop(np, name, NULL, 0);
}

static void cs_of_delete_property(struct device_node *np, const char *name)
{
	struct property **link, *p = find_prop(np, name, &link);

	if (!p)
		return;
	*link = p->next;
	g_free(p->name);
	g_free(p->value);
	g_free(p);
}

/* Give np a phandle (unique in the run) and return it. */
static phandle cs_of_phandle(struct device_node *np)
{
	if (!np->phandle) {
		np->phandle = ++cs_kernel()->of_last_phandle;
		cs_of_set_u32(np, "phandle", np->phandle);
	}
	return np->phandle;
}

void cs_of_free_tree(struct device_node *np)
{
	while (np) {
		struct device_node *next = np->sibling;

		cs_of_free_tree(np->child);
		while (np->properties)
			cs_of_delete_property(np, np->properties->name);
		if (cs_kernel() && cs_kernel()->of_root == np)
			cs_kernel()->of_root = NULL;
		g_free((char *)np->name);
		g_free((char *)np->full_name);
		g_free(np->cs_label);
		g_free(np);
		np = next;
	}
}

/* ---- reading ---- */

struct property *of_find_property(const struct device_node *np, const char *name, int *lenp)
{
	struct property *p = np ? find_prop(np, name, NULL) : NULL;

	if (lenp)
		*lenp = p ? p->length : 0;
	return p;
}

bool of_property_read_bool(const struct device_node *np, const char *propname)
{
	return of_find_property(np, propname, NULL) != NULL;
}

/* The property with a value: 0, -EINVAL when absent, -ENODATA when it is a boolean. */
static int prop_with_value(const struct device_node *np, const char *name, struct property **out)
{
	*out = of_find_property(np, name, NULL);
	if (!*out)
		return -EINVAL;
	return (*out)->value ? 0 : -ENODATA;
}

int of_property_count_elems_of_size(const struct device_node *np, const char *propname,
				    int elem_size)
{
	struct property *p;
	int err = prop_with_value(np, propname, &p);

	if (err)
		return err;
	if (p->length % elem_size)
		return -EINVAL;
	return p->length / elem_size;
}

/*
 * The property's value when it holds between min and max bytes (max 0: no upper bound),
 * as Linux's readers check it before they copy: -EINVAL when absent, -ENODATA when it is
 * a boolean, -EOVERFLOW when too short or too long. A caller copies only what it asked
 * for, never the property's length, so a long property cannot overrun its buffer.
 */
static const void *prop_value_of_size(const struct device_node *np, const char *name,
				      size_t min, size_t max, size_t *len, int *err)
{
	struct property *p;

	*err = prop_with_value(np, name, &p);
	if (*err)
		return NULL;
	if ((size_t)p->length < min || (max && (size_t)p->length > max)) {
		*err = -EOVERFLOW;
		return NULL;
	}
	if (len)
		*len = (size_t)p->length;
	return p->value;
}

int of_property_read_u32_index(const struct device_node *np, const char *propname, u32 index,
			       u32 *out_value)
{
	int err;
	const u32 *v = prop_value_of_size(np, propname, ((size_t)index + 1) * sizeof(u32), 0,
					  NULL, &err);

	if (!v)
		return err;
	*out_value = v[index];
	return 0;
}

/*
 * sz_min..sz_max cells (sz_max 0: exactly sz_min are read, however many the property
 * holds, which is how of_property_read_u32() reads the first cell of a list).
 */
int of_property_read_variable_u32_array(const struct device_node *np, const char *propname,
					u32 *out_values, size_t sz_min, size_t sz_max)
{
	size_t len, n;
	int err;
	const u32 *v = prop_value_of_size(np, propname, sz_min * sizeof(u32),
					  sz_max * sizeof(u32), &len, &err);

	if (!v)
		return err;
	n = sz_max ? len / sizeof(u32) : sz_min;
	memcpy(out_values, v, n * sizeof(u32));
	return (int)n;
}

int of_property_read_string(const struct device_node *np, const char *propname,
			    const char **out_string)
{
	struct property *p;
	int err = prop_with_value(np, propname, &p);

	if (err)
		return err;
	if (strnlen(p->value, (size_t)p->length) >= (size_t)p->length)
		return -EILSEQ;
	*out_string = p->value;
	return 0;
}

/*
 * Skip the first skip strings and point out_strs at up to sz more (count them all when
 * out_strs is NULL). A string not ending inside the property is -EILSEQ, never a read
 * past its end; none left after skipping is -ENODATA.
 */
int of_property_read_string_helper(const struct device_node *np, const char *propname,
				   const char **out_strs, size_t sz, int skip)
{
	struct property *p;
	const char *s, *end;
	size_t l, i = 0;
	int err = prop_with_value(np, propname, &p);

	if (err)
		return err;
	if (skip < 0)
		return -EINVAL;
	s = p->value;
	end = s + p->length;
	for (; s < end && (!out_strs || i < (size_t)skip + sz); i++, s += l) {
		l = strnlen(s, (size_t)(end - s)) + 1;
		if (s + l > end)
			return -EILSEQ;
		if (out_strs && i >= (size_t)skip)
			*out_strs++ = s;
	}
	return i <= (size_t)skip ? -ENODATA : (int)(i - (size_t)skip);
}

static int of_property_match_string(const struct device_node *np, const char *propname,
				    const char *string)
{
	struct property *p;
	const char *s, *end;
	size_t l;
	int err = prop_with_value(np, propname, &p);

	if (err)
		return err;
	s = p->value;
	end = s + p->length;
	for (int i = 0; s < end; s += l, i++) {
		l = strnlen(s, (size_t)(end - s)) + 1;
		if (s + l > end)
			return -EILSEQ;
		if (strcmp(s, string) == 0)
			return i;
	}
	return -ENODATA;
}

int of_device_is_compatible(const struct device_node *np, const char *compat)
{
	return np && of_property_match_string(np, "compatible", compat) >= 0;
}

struct device_node *of_get_next_child(const struct device_node *np, struct device_node *prev)
{
	if (!np)
		return NULL;
	return prev ? prev->sibling : np->child;
}

int of_get_child_count(const struct device_node *np)
{
	int n = 0;

	for (struct device_node *c = np ? np->child : NULL; c; c = c->sibling)
		n++;
	return n;
}

struct device_node *of_get_compatible_child(const struct device_node *parent,
					    const char *compatible)
{
	for (struct device_node *c = parent ? parent->child : NULL; c; c = c->sibling)
		if (of_device_is_compatible(c, compatible))
			return c;
	return NULL;
}

/* Depth-first, the node after np in the whole tree. */
static struct device_node *next_node(struct device_node *np)
{
	if (np->child)
		return np->child;
	while (np) {
		if (np->sibling)
			return np->sibling;
		np = np->parent;
	}
	return NULL;
}

struct device_node *of_find_node_by_phandle(phandle handle)
{
	for (struct device_node *np = cs_kernel()->of_root; np && handle; np = next_node(np))
		if (np->phandle == handle)
			return np;
	return NULL;
}

static struct device_node *find_by_label(const char *label)
{
	for (struct device_node *np = cs_kernel()->of_root; np; np = next_node(np))
		if (np->cs_label && strcmp(np->cs_label, label) == 0)
			return np;
	return NULL;
}

struct device_node *of_parse_phandle(const struct device_node *np, const char *phandle_name,
				     int index)
{
	u32 ph;

	if (index < 0 || of_property_read_u32_index(np, phandle_name, (u32)index, &ph))
		return NULL;
	return of_find_node_by_phandle(ph);
}

const struct of_device_id *of_match_node(const struct of_device_id *matches,
					 const struct device_node *node)
{
	if (!matches || !node)
		return NULL;
	for (; matches->name[0] || matches->type[0] || matches->compatible[0]; matches++)
		if (matches->compatible[0] && of_device_is_compatible(node, matches->compatible))
			return matches;
	return NULL;
}

/* ---- device properties: the device's node ---- */

static const struct device_node *dev_node(const struct device *dev)
{
	return dev ? dev->of_node : NULL;
}

bool device_property_read_bool(const struct device *dev, const char *propname)
{
	return of_property_read_bool(dev_node(dev), propname);
}

int device_property_read_u32_array(const struct device *dev, const char *propname, u32 *val,
				   size_t nval)
{
	const struct device_node *np = dev_node(dev);

	if (!val)
		return of_property_count_u32_elems(np, propname);
	return of_property_read_u32_array(np, propname, val, nval);
}

int device_property_read_string(const struct device *dev, const char *propname, const char **val)
{
	return of_property_read_string(dev_node(dev), propname, val);
}

/* ---- .dts property statements ---- */

struct dts {
	const char *s;
	char *err;
};

static void dts_space(struct dts *d)
{
	for (;;) {
		while (isspace((unsigned char)*d->s))
			d->s++;
		if (d->s[0] == '/' && d->s[1] == '*') {
			const char *e = strstr(d->s + 2, "*/");

			d->s = e ? e + 2 : d->s + strlen(d->s);
		} else if (d->s[0] == '/' && d->s[1] == '/') {
			while (*d->s && *d->s != '\n')
				d->s++;
		} else {
			return;
		}
	}
}

static bool dts_fail(struct dts *d, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static bool dts_fail(struct dts *d, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *m = NULL;

	va_start(ap, fmt);
	m = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	d->err = g_strdup_printf("%s, near \"%.20s\"", m, d->s);
	return false;
}

static bool dts_name(struct dts *d, char *out, size_t n)
{
	size_t len = 0;

	dts_space(d);
	while (*d->s && (isalnum((unsigned char)*d->s) || strchr(",._+?#-", *d->s))) {
		if (len + 1 >= n)
			return dts_fail(d, "a property name longer than %zu characters", n - 1);
		out[len++] = *d->s++;
	}
	out[len] = '\0';
	return len > 0 || dts_fail(d, "expected a property name");
}

/* <cell cell &label ...> appended to cells */
static bool dts_cells(struct dts *d, GArray *cells)
{
	d->s++;   /* '<' */
	for (;;) {
		dts_space(d);
		if (*d->s == '>') {
			d->s++;
			return true;
		}
		if (*d->s == '&') {
			char label[64];
			struct device_node *np;
			u32 ph;

			d->s++;
			if (!dts_name(d, label, sizeof(label)))
				return false;
			np = find_by_label(label);
			if (!np)
				return dts_fail(d, "no node labelled &%s in the board's device tree", label);
			ph = cs_of_phandle(np);
			if (cells->len >= CS_OF_DTS_MAX_CELLS)
				return dts_fail(d, "a property with more than %d cells",
						CS_OF_DTS_MAX_CELLS);
			g_array_append_val(cells, ph);
		} else {
			char *end;
			unsigned long long v = strtoull(d->s, &end, 0);
			u32 c;

			if (end == d->s || (*end && !isspace((unsigned char)*end) && *end != '>'))
				return dts_fail(d, "expected a number, a &label or '>'");
			if (v > 0xffffffffULL)
				return dts_fail(d, "a cell above 0xffffffff");
			c = (u32)v;
			if (cells->len >= CS_OF_DTS_MAX_CELLS)
				return dts_fail(d, "a property with more than %d cells",
						CS_OF_DTS_MAX_CELLS);
			g_array_append_val(cells, c);
			d->s = end;
		}
	}
}

static bool dts_string(struct dts *d, GString *strs)
{
	d->s++;   /* '"' */
	while (*d->s && *d->s != '"') {
		if (*d->s == '\\' && d->s[1])
			d->s++;
		if (strs->len >= CS_OF_DTS_MAX_STRBYTES - 1)
			return dts_fail(d, "a property whose strings are longer than %d bytes",
					CS_OF_DTS_MAX_STRBYTES);
		g_string_append_c(strs, *d->s++);
	}
	if (*d->s != '"')
		return dts_fail(d, "a string without its closing quote");
	d->s++;
	g_string_append_c(strs, '\0');
	return true;
}

static bool dts_statement(struct dts *d, struct device_node *np)
{
	char name[64];

	if (strncmp(d->s, "/delete-property/", 17) == 0) {
		d->s += 17;
		if (!dts_name(d, name, sizeof(name)))
			return false;
		cs_of_delete_property(np, name);
	} else {
		if (!dts_name(d, name, sizeof(name)))
			return false;
		dts_space(d);
		if (*d->s == ';') {
			cs_of_set_bool(np, name);
		} else if (*d->s == '=') {
			g_autoptr(GArray) cells = g_array_new(FALSE, FALSE, sizeof(u32));
			g_autoptr(GString) strs = g_string_new(NULL);

			d->s++;
			for (;;) {
				dts_space(d);
				if (*d->s == '<' && strs->len == 0) {
					if (!dts_cells(d, cells))
						return false;
				} else if (*d->s == '"' && cells->len == 0) {
					if (!dts_string(d, strs))
						return false;
				} else {
					return dts_fail(d, "expected <cells> or \"string\" (not both in one property)");
				}
				dts_space(d);
				if (*d->s != ',')
					break;
				d->s++;
			}
			if (cells->len)
				cs_of_set_u32s(np, name, (const u32 *)(void *)cells->data, (int)cells->len);
			else
				set_prop(np, name, strs->str, (int)strs->len);
		} else {
			return dts_fail(d, "expected '=' or ';' after \"%s\"", name);
		}
	}
	dts_space(d);
	if (*d->s != ';')
		return dts_fail(d, "expected ';'");
	d->s++;
	return true;
}

int cs_of_apply_dts(struct device_node *np, const char *text, char **msg)
{
	struct dts d = { text, NULL };
	size_t len = strnlen(text, CS_OF_DTS_MAX_TEXT + 1);

	if (len > CS_OF_DTS_MAX_TEXT) {
		*msg = g_strdup_printf("the text is longer than %d bytes", CS_OF_DTS_MAX_TEXT);
		return -EINVAL;
	}
	for (int n = 0;; n++) {
		dts_space(&d);
		if (!*d.s)
			return 0;
		if (n == CS_OF_DTS_MAX_STATEMENTS) {
			*msg = g_strdup_printf("more than %d property statements",
					       CS_OF_DTS_MAX_STATEMENTS);
			return -EINVAL;
		}
		if (!dts_statement(&d, np)) {
			*msg = d.err;
			return -EINVAL;
		}
	}
}
