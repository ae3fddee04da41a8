// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/gp.c - gnuplot text and data file fields (see gp.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plots/gp.h"

/* Quote a string for gnuplot: single quotes, '' for a quote. */
void gp_quote(GString *s, const char *text)
{
	g_string_append_c(s, '\'');
	for (const char *c = text; *c; c++) {
		if (*c == '\'')
			g_string_append(s, "''");
		else if (*c == '\n')
			g_string_append_c(s, ' ');
		else
			g_string_append_c(s, *c);
	}
	g_string_append_c(s, '\'');
}

/* A field for the comma-separated data files: no commas, no line breaks. */
char *gp_dat_field(const char *text)
{
	char *s = g_strdup(text && *text ? text : "-");

	for (char *c = s; *c; c++)
		if (*c == ',' || *c == '\n' || *c == '\r' || *c == '#')
			*c = ';';
	return s;
}

unsigned gp_rgb(const char *hex)
{
	return (unsigned)strtoul(hex + 1, NULL, 16);
}

/* The path of `file` relative to directory `dir` (both made absolute first). */
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

/* "DIR/NAME.gp" -> "DIR/NAME" */
char *gp_strip_ext(const char *script)
{
	if (g_str_has_suffix(script, ".gp"))
		return g_strndup(script, strlen(script) - 3);
	return g_strdup(script);
}

/* A number written for gnuplot (always with a point, never "nan"). */
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

void gp_printf_num(GString *s, const char *before, double v, const char *after)
{
	g_string_append(s, before);
	gp_num(s, v);
	g_string_append(s, after);
}

/* The script's FORMATS: "png", "svg" or "png svg". */
const char *gp_formats(bool png, bool svg)
{
	return png && svg ? "png svg" : png ? "png" : svg ? "svg" : "";
}

/* Screen fraction of a pixel position (x from the left, y from the bottom). */
double gp_frac(double px, double total)
{
	return floor(px / total * 1e5 + 0.5) / 1e5;
}
