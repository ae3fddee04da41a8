// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/gp.c - gnuplot text, data file fields and templates (see gp.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "plots/gp.h"
#include "plots/plot.h"

/* The one escaping path for outside text (see gp.h); quotes doubled for a script, as
 * they are for a data file (whose fields are not gnuplot strings). Gnuplot escapes
 * '<' and '&' in an SVG itself but passes every other character on, and "&#" too (a
 * character reference such as "&#1;" XML forbids) and "]]>" (which XML text may not
 * hold): so the characters XML 1.0 forbids (U+FFFE, U+FFFF; surrogates are no UTF-8)
 * become U+FFFD here, a WORD JOINER (invisible) goes between '&' and '#' and before
 * the '>' of "]]>", and the C1 controls (U+0080-U+009F: a terminal reads U+009B as
 * ESC [) become blanks as C0 ones. svg false: a file name for the script to open,
 * which needs none of the two joiners (it is never shown as it is). */
static void escape(GString *s, const char *text, bool script, bool svg)
{
	g_autofree char *valid = g_utf8_make_valid(text ? text : "", -1);
	size_t start = s->len;

	for (const char *c = valid; *c; c = g_utf8_next_char(c)) {
		gunichar u = g_utf8_get_char(c);

		if (u == '\'' && script)
			g_string_append(s, "''");
		else if (u < 0x20 || (u >= 0x7f && u <= 0x9f))
			g_string_append_c(s, ' ');
		else if (u == 0xfffe || u == 0xffff)
			g_string_append(s, "\xef\xbf\xbd");
		else if (svg && u == '&' && c[1] == '#')   /* an SVG character reference to gnuplot */
			g_string_append(s, "&\xe2\x81\xa0");   /* U+2060 WORD JOINER: no reference */
		else if (svg && u == '>' && s->len >= start + 2 && g_str_has_suffix(s->str, "]]"))
			g_string_append(s, "\xe2\x81\xa0>");   /* "]]>" may not stand in XML text */
		else
			g_string_append_len(s, c, g_utf8_next_char(c) - c);
	}
	if (s->len > start && s->str[s->len - 1] == '\\')
		g_string_append_c(s, ' ');
}

void gp_escape(GString *s, const char *text)
{
	escape(s, text, true, true);
}

void gp_quote(GString *s, const char *text)
{
	g_string_append_c(s, '\'');
	escape(s, text, true, true);
	g_string_append_c(s, '\'');
}

bool gp_check_file_name(const char *name, GError **err)
{
	g_autoptr(GString) s = g_string_new(NULL);
	g_autofree char *shown = NULL;

	escape(s, name, false, false);   /* quotes kept: the rest must come out as it went in */
	if (strcmp(s->str, name) == 0)
		return true;
	shown = g_strescape(name, NULL);
	g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
		    "\"%s\": found a file name with a control character, bytes that are not UTF-8 or a final backslash, expected a name gnuplot can be given as it is; rename the file",
		    shown);
	return false;
}

char *gp_dat_field(const char *text)
{
	GString *s = g_string_new(NULL);

	escape(s, text && *text ? text : "-", false, true);
	for (char *c = s->str; *c; c++)
		if (*c == ',' || *c == '#')
			*c = ';';
	return g_string_free(s, FALSE);
}

unsigned gp_rgb(const char *hex)
{
	return (unsigned)strtoul(hex + 1, NULL, 16);
}

char *gp_relative_path(const char *dir, const char *file)
{
	g_autofree char *d = g_canonicalize_filename(dir, NULL);
	g_autofree char *f = g_canonicalize_filename(file, NULL);
	g_auto(GStrv) dp = g_strsplit(d, G_DIR_SEPARATOR_S, -1);
	g_auto(GStrv) fp = g_strsplit(f, G_DIR_SEPARATOR_S, -1);
	GString *r = g_string_new(NULL);
	int i = 0, nd = (int)g_strv_length(dp), nf = (int)g_strv_length(fp);

	while (i < nd && i < nf - 1 && strcmp(dp[i], fp[i]) == 0)
		i++;
	for (int k = i; k < nd; k++)
		if (*dp[k])
			g_string_append(r, "../");
	for (int k = i; k < nf; k++) {
		g_string_append(r, fp[k]);
		if (k < nf - 1)
			g_string_append_c(r, '/');
	}
	return g_string_free(r, FALSE);
}

char *gp_strip_ext(const char *script)
{
	if (g_str_has_suffix(script, ".gp"))
		return g_strndup(script, strlen(script) - 3);
	return g_strdup(script);
}

void gp_num(GString *s, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(v)) {
		g_string_append(s, "NaN");
		return;
	}
	g_ascii_formatd(buf, sizeof(buf), "%.10g", v);
	g_string_append(s, buf);
}

void gp_num_then(GString *s, double v, const char *after)
{
	gp_num(s, v);
	g_string_append(s, after);
}

const char *gp_formats(bool png, bool svg)
{
	return png && svg ? "png svg" : png ? "png" : svg ? "svg" : "";
}

double gp_frac(double px, double total)
{
	return floor(px / total * 1e5 + 0.5) / 1e5;
}

/* ---- templates ---- */

GPtrArray *gp_vars_new(void)
{
	return g_ptr_array_new_with_free_func(g_free);
}

void gp_set(GPtrArray *vars, const char *name, const char *value)
{
	for (guint i = 0; i + 1 < vars->len; i += 2)
		if (strcmp(vars->pdata[i], name) == 0) {
			g_free(vars->pdata[i + 1]);
			vars->pdata[i + 1] = g_strdup(value);
			return;
		}
	g_ptr_array_add(vars, g_strdup(name));
	g_ptr_array_add(vars, g_strdup(value));
}

void gp_setf(GPtrArray *vars, const char *name, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *v = NULL;

	va_start(ap, fmt);
	v = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	gp_set(vars, name, v);
}

void gp_set_num(GPtrArray *vars, const char *name, double v)
{
	g_autoptr(GString) s = g_string_new(NULL);

	gp_num(s, v);
	gp_set(vars, name, s->str);
}

void gp_set_quoted(GPtrArray *vars, const char *name, const char *text)
{
	g_autoptr(GString) s = g_string_new(NULL);

	gp_quote(s, text);
	gp_set(vars, name, s->str);
}

void gp_set_escaped(GPtrArray *vars, const char *name, const char *text)
{
	g_autoptr(GString) s = g_string_new(NULL);

	gp_escape(s, text);
	gp_set(vars, name, s->str);
}

/* The value of name, NULL when not given. */
static const char *var_value(const GPtrArray *vars, const char *name)
{
	for (guint i = 0; vars && i + 1 < vars->len; i += 2)
		if (strcmp(vars->pdata[i], name) == 0)
			return vars->pdata[i + 1];
	return NULL;
}

/* A line starting with @?NAME@: the rest of it when NAME is given, else nothing. */
static gboolean fill_line(const GMatchInfo *mi, GString *out, gpointer vars)
{
	g_autofree char *name = g_match_info_fetch(mi, 1);

	if (var_value(vars, name)) {
		g_autofree char *rest = g_match_info_fetch(mi, 2);

		g_string_append(out, rest);
	}
	return FALSE;
}

/* @NAME@ or @NAME|TEXT@: the value, else TEXT, else the placeholder for the tests. */
static gboolean fill(const GMatchInfo *mi, GString *out, gpointer vars)
{
	g_autofree char *all = g_match_info_fetch(mi, 0);
	g_autofree char *name = g_match_info_fetch(mi, 1);
	g_autofree char *text = g_match_info_fetch(mi, 2);   /* "|TEXT", "" without */
	const char *v = var_value(vars, name);

	if (!v && !*text)
		g_critical("gp_expand: no value for %s", all);
	g_string_append(out, v ? v : *text ? text + 1 : all);
	return FALSE;
}

/* The lines first, then the placeholders, each in one pass: a value is never expanded. */
void gp_expand(GString *out, const char *tpl, const GPtrArray *vars)
{
	g_autoptr(GRegex) line = g_regex_new("^@\\?([A-Z][A-Z0-9_]*)@(.*\\n?)",
					     G_REGEX_MULTILINE | G_REGEX_NEWLINE_LF, 0, NULL);
	g_autoptr(GRegex) ph = g_regex_new("@([A-Z][A-Z0-9_]*)(\\|[^@\\n]*)?@", 0, 0, NULL);
	g_autofree char *kept = g_regex_replace_eval(line, tpl, -1, 0, 0, fill_line,
						     (gpointer)vars, NULL);
	g_autofree char *text = g_regex_replace_eval(ph, kept, -1, 0, 0, fill, (gpointer)vars, NULL);

	g_string_append(out, text);
}

char *gp_expand_block(const char *tpl, const GPtrArray *vars)
{
	GString *s = g_string_new(NULL);

	gp_expand(s, tpl, vars);
	if (s->len && s->str[s->len - 1] == '\n')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

void gp_set_block(GPtrArray *vars, const char *name, const char *tpl, const GPtrArray *tvars)
{
	g_autofree char *block = gp_expand_block(tpl, tvars);

	gp_set(vars, name, block);
}

/* Is name (a directory entry beside the script) a file a plot with base name base
 * writes or removes? A superset is fine: it is only compared with the inputs. */
static bool plot_output_name(const char *name, const char *base)
{
	size_t n = strlen(base);
	const char *rest = name + n;
	int end = -1;

	if (strncmp(name, base, n) != 0)
		return false;
	if (!strcmp(rest, ".gp") || !strcmp(rest, ".png") || !strcmp(rest, ".svg"))
		return true;
	if (rest[0] != '-')
		return false;
	if (g_str_has_suffix(rest, ".dat"))
		return true;
	sscanf(rest, "-trace-%*[0-9].csv%n", &end);
	return end > 0 && rest[end] == '\0';
}

bool plot_check_inputs(const char *script, const char *const *inputs, int n, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(script);
	g_autofree char *path = gp_strip_ext(script);
	g_autofree char *base = g_path_get_basename(path);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	struct stat in, out;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *f = NULL;

		if (!plot_output_name(name, base))
			continue;
		f = g_build_filename(dir, name, NULL);
		if (stat(f, &out) != 0)
			continue;
		for (int i = 0; i < n; i++)
			if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev &&
			    in.st_ino == out.st_ino) {
				g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_INPUT,
					    "%s: found an input of the plot among the files it writes (%s, for the script %s), expected -o to name another plot; nothing was written",
					    inputs[i], f, script);
				return false;
			}
	}
	return true;
}
