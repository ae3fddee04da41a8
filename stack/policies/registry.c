// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/registry.c - the built-in policies, in the order `list` shows them,
 * and the parser of a --policy with parameters of its own (loader.h). A new in-tree
 * policy adds its file under stack/policies/ and one line here.
 */
#include <string.h>
#include <chargesim/policy.h>
#include "sim/param.h"
#include "stack/policies/loader.h"

extern const struct cs_policy_desc policy_none;
extern const struct cs_policy_desc policy_fixed;
extern const struct cs_policy_desc policy_twl4030;
extern const struct cs_policy_desc policy_axp288;
extern const struct cs_policy_desc policy_usb_charger_fw;
extern const struct cs_policy_desc policy_ec_ramp;
extern const struct cs_policy_desc policy_hw_ico;
extern const struct cs_policy_desc policy_safe_ramp;

const struct cs_policy_desc *const cs_builtin_policies[] = {
	&policy_none,
	&policy_fixed,
	&policy_twl4030,
	&policy_axp288,
	&policy_usb_charger_fw,
	&policy_ec_ramp,
	&policy_hw_ico,
	&policy_safe_ramp,
	NULL,
};

static const struct cs_policy_desc *find_in(const struct cs_policy_desc *const *all,
					    const char *name)
{
	for (int i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

/* The built-in policies first: the real drivers' descriptors (cs_policies()) are built
 * from their modules' modinfo on first use, which a run of a built-in one never needs. */
const struct cs_policy_desc *cs_policy_find(const char *name)
{
	const struct cs_policy_desc *d = find_in(cs_builtin_policies, name);

	return d ? d : find_in(cs_policies(), name);
}

/* ---- a --policy with parameters (loader.h) ---- */

/* The end of the KEY=VALUE starting at p: the next ',' outside brackets, braces and
 * double quotes, or the end of the text. */
static const char *spec_item_end(const char *p)
{
	int depth = 0;
	bool quoted = false;

	for (; *p; p++) {
		if (quoted) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quoted = false;
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ']' || *p == '}') && depth > 0) {
			depth--;
		} else if (*p == ',' && depth == 0) {
			break;
		}
	}
	return p;
}

/* Put value at the dotted key under params, making the objects on the way. */
static bool spec_put(cJSON *params, const char *text, const char *key, cJSON *value,
		     GError **err)
{
	g_auto(GStrv) segs = g_strsplit(key, ".", -1);
	cJSON *node = params;

	for (int i = 0; segs[i]; i++) {
		cJSON *child = cJSON_GetObjectItemCaseSensitive(node, segs[i]);

		if (!*segs[i] || (child && (!segs[i + 1] || !cJSON_IsObject(child)))) {
			g_set_error(err, CS_POLICY_ERROR, 0,
				    "--policy %s: found the key \"%s\"%s, expected each parameter once, as KEY=VALUE such as step=50mA",
				    text, key, *segs[i] ? " twice" : " with an empty name");
			cJSON_Delete(value);
			return false;
		}
		if (!segs[i + 1]) {
			cJSON_AddItemToObject(node, segs[i], value);
			return true;
		}
		if (!child) {
			child = cJSON_CreateObject();
			cJSON_AddItemToObject(node, segs[i], child);
		}
		node = child;
	}
	return true;
}

/* "KEY=VALUE,..." into spec->params and spec->args. */
static bool spec_parse_items(const char *text, const char *items, struct cs_policy_spec *spec,
			     GError **err)
{
	GString *args = g_string_new(NULL);

	spec->params = cJSON_CreateObject();
	for (const char *p = items; ; p++) {
		const char *end = spec_item_end(p);
		g_autofree char *item = g_strndup(p, (gsize)(end - p));
		char *eq = strchr(item, '=');
		g_autofree char *key = NULL;
		cJSON *value;

		if (!eq || eq == item) {
			g_set_error(err, CS_POLICY_ERROR, 0,
				    "--policy %s: found \"%s\", expected KEY=VALUE (such as safe-ramp:step=50mA,interval=2s; `chargesim list policies` lists each policy's parameters)",
				    text, item);
			g_string_free(args, TRUE);
			return false;
		}
		key = g_strstrip(g_strndup(item, (gsize)(eq - item)));
		value = cJSON_ParseWithOpts(g_strstrip(eq + 1), NULL, true);
		if (!value)
			value = cJSON_CreateString(eq + 1);
		if (!spec_put(spec->params, text, key, value, err)) {
			g_string_free(args, TRUE);
			return false;
		}
		for (const char *c = item; *c; c++)
			if (*c != ' ' && *c != '\t')
				g_string_append_c(args, *c);
		if (!*end)
			break;
		g_string_append_c(args, ',');
		p = end;
	}
	spec->args = g_string_free(args, FALSE);
	return true;
}

/* Load the parameters against the policy's table (on a scratch struct), so that a bad
 * one is found before any run. */
static bool spec_validate(const char *text, const struct cs_policy_spec *spec, GError **err)
{
	struct cs_policy_handle h;
	g_autofree char *plugin = NULL;
	GError *inner = NULL;
	bool ok;

	if (g_str_has_suffix(spec->name, "." G_MODULE_SUFFIX))
		plugin = g_canonicalize_filename(spec->name, NULL);
	ok = cs_policy_open(&h, spec->name, plugin, true, &inner);
	if (ok && !h.desc->params) {
		g_set_error(&inner, CS_POLICY_ERROR, 0,
			    "found parameters, expected none (policy \"%s\" takes no parameters)",
			    h.desc->name);
		ok = false;
	} else if (ok) {
		h.params = g_malloc0(h.desc->params_size ? h.desc->params_size : 1);
		if (h.desc->params_default)
			h.desc->params_default(h.desc, h.params);
		ok = param_load_object(h.desc->params, spec->params, h.params, NULL, NULL, &inner);
	}
	cs_policy_close(&h);
	if (ok)
		return true;
	g_set_error(err, CS_POLICY_ERROR, 0, "--policy %s: %s", text, inner->message);
	g_error_free(inner);
	return false;
}

bool cs_policy_spec_parse(const char *text, struct cs_policy_spec *spec, GError **err)
{
	const char *slash = strrchr(text, '/');
	const char *colon = strchr(slash ? slash : text, ':');

	memset(spec, 0, sizeof(*spec));
	if (g_str_has_suffix(text, "." G_MODULE_SUFFIX) || !colon) {
		spec->name = g_strdup(text);
		return true;
	}
	spec->name = g_strndup(text, (gsize)(colon - text));
	if (!*spec->name || !colon[1]) {
		g_set_error(err, CS_POLICY_ERROR, 0,
			    "--policy %s: found %s, expected NAME or NAME:KEY=VALUE[,KEY=VALUE]... such as safe-ramp:step=50mA",
			    text, *spec->name ? "nothing after ':'" : "no policy name before ':'");
		cs_policy_spec_clear(spec);
		return false;
	}
	if (!spec_parse_items(text, colon + 1, spec, err) || !spec_validate(text, spec, err)) {
		cs_policy_spec_clear(spec);
		return false;
	}
	return true;
}

void cs_policy_spec_clear(struct cs_policy_spec *spec)
{
	g_free(spec->name);
	g_free(spec->args);
	cJSON_Delete(spec->params);
	memset(spec, 0, sizeof(*spec));
}
