/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plots/gp.h - inside plots/: writing gnuplot text (quoted strings, numbers, screen
 * fractions), filling in the templates of plots/templates/, the comma-separated data
 * files the scripts read, and running gnuplot on a script (gnuplot.c).
 *
 * Templates are gnuplot text with placeholders:
 *   @NAME@        the value of NAME (NAME: capitals, digits and '_')
 *   @NAME|TEXT@   the value of NAME, or TEXT when NAME is not given
 *   @?NAME@       at the start of a line: the line only when NAME is given
 * An '@' that starts none of these is text. Values are inserted as they are (never
 * expanded again); a placeholder without a value or a default is a programming error:
 * g_critical, and the placeholder stays in the text (tests/test_plot.sh looks for it).
 */
#ifndef CS_PLOTS_GP_H
#define CS_PLOTS_GP_H

#include <stdbool.h>
#include <glib.h>

/*
 * Every text that reaches gnuplot from outside the program (a scenario's name, a file
 * name, a label, a title, a column name) goes through gp_escape(), alone or inside
 * gp_quote(): gnuplot runs a command in `backquotes` inside double quotes and on a
 * command line, and a line break ends a comment or a statement; inside single quotes
 * nothing is expanded and '' stands for a quote. So: '' for a quote, a blank for every
 * control character (C0, DEL), U+FFFD for bytes that are not UTF-8 (an SVG must be),
 * U+FFFD for U+FFFE and U+FFFF (no XML 1.0 character), a blank for C1 controls too,
 * an invisible U+2060 between "&" and "#" and in "]]>" (gnuplot passes SVG references
 * such as "&#1;" on, and a ">" as it is),
 * and a blank after a final backslash (which would continue a comment line). The
 * result is safe inside single quotes and on a comment line; nothing else may be
 * written unescaped into a script, a data file or gnuplot's command line.
 */
void gp_escape(GString *s, const char *text);
/* gp_escape() in single quotes: a gnuplot string constant. */
void gp_quote(GString *s, const char *text);
/* Whether gp_escape() leaves a file name the script will open as it is but for
 * doubled quotes (UTF-8 without control characters), as it must be or gnuplot would
 * open another; false with a CS_PLOT_ERROR_INPUT error asking for another name. */
bool gp_check_file_name(const char *name, GError **err);
/* A number written for gnuplot (always with a point, never "nan": NaN). */
void gp_num(GString *s, double v);
/* gp_num(), then the text after. */
void gp_num_then(GString *s, double v, const char *after);
/* The script's FORMATS: "png", "svg" or "png svg". */
const char *gp_formats(bool png, bool svg);
/* Screen fraction of a pixel position (x from the left, y from the bottom). */
double gp_frac(double px, double total);
/* A field for the comma-separated data files: escaped as gp_escape() does but for
 * the quotes (a data field is no gnuplot string), no commas or '#' ("-" when empty).
 * Also for text on a data file's comment lines. Caller frees. */
char *gp_dat_field(const char *text);
/* "#rrggbb" as the number gnuplot's "rgb variable" reads. */
unsigned gp_rgb(const char *hex);
/* "DIR/NAME.gp" -> "DIR/NAME". */
char *gp_strip_ext(const char *script);
/* The path of file relative to directory dir (both made absolute first). */
char *gp_relative_path(const char *dir, const char *file);

/* Template values: pairs of name and value, set with gp_set*() (a later set of a name
 * replaces its value). */
GPtrArray *gp_vars_new(void);
/* value NULL: NAME is not given (its @?NAME@ lines are left out). */
void gp_set(GPtrArray *vars, const char *name, const char *value);
void gp_setf(GPtrArray *vars, const char *name, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* A number as gp_num() writes it; a string quoted as gp_quote() does. */
void gp_set_num(GPtrArray *vars, const char *name, double v);
void gp_set_quoted(GPtrArray *vars, const char *name, const char *text);
/* text through gp_escape(), for a placeholder a template puts inside single quotes or
 * on a comment line. */
void gp_set_escaped(GPtrArray *vars, const char *name, const char *text);
/* Append template tpl with vars (NULL: none) filled in. */
void gp_expand(GString *out, const char *tpl, const GPtrArray *vars);
/* The same as a string without its last line break: a block of lines that takes the
 * place of a @NAME@ line of another template. Caller frees. */
char *gp_expand_block(const char *tpl, const GPtrArray *vars);

/* vars[name] = gp_expand_block(tpl, tvars). */
void gp_set_block(GPtrArray *vars, const char *name, const char *tpl, const GPtrArray *tvars);

/* Run gnuplot on script (in its directory) for the formats, writing the images under
 * temporary names and renaming them to the script's name with .png/.svg. Errors are
 * CS_PLOT_ERROR (NO_GNUPLOT, GNUPLOT with its stderr, IO). */
bool gp_run(const char *script, bool png, bool svg, GError **err);

#endif
