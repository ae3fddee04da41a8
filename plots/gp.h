/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plots/gp.h - inside plots/: writing gnuplot text (quoted strings, numbers, screen
 * fractions), the comma-separated data files the scripts read, and running gnuplot
 * on a script (gnuplot.c).
 */
#ifndef CS_PLOTS_GP_H
#define CS_PLOTS_GP_H

#include <stdbool.h>
#include <glib.h>

/* Quote a string for gnuplot: single quotes, '' for a quote, a line break a blank. */
void gp_quote(GString *s, const char *text);
/* A number written for gnuplot (always with a point, never "nan": NaN). */
void gp_num(GString *s, double v);
void gp_printf_num(GString *s, const char *before, double v, const char *after);
/* The script's FORMATS: "png", "svg" or "png svg". */
const char *gp_formats(bool png, bool svg);
/* Screen fraction of a pixel position (x from the left, y from the bottom). */
double gp_frac(double px, double total);
/* A field for the comma-separated data files: no commas, no line breaks ("-" when
 * empty). Caller frees. */
char *gp_dat_field(const char *text);
/* "#rrggbb" as the number gnuplot's "rgb variable" reads. */
unsigned gp_rgb(const char *hex);
/* "DIR/NAME.gp" -> "DIR/NAME". */
char *gp_strip_ext(const char *script);
/* The path of file relative to directory dir (both made absolute first). */
char *gp_relative_path(const char *dir, const char *file);

/* Run gnuplot on script (in its directory) for the formats, writing the images under
 * temporary names and renaming them to the script's name with .png/.svg. Errors are
 * CS_PLOT_ERROR (NO_GNUPLOT, GNUPLOT with its stderr, IO). */
bool gp_run(const char *script, bool png, bool svg, GError **err);

#endif
