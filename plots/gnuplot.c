// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/gnuplot.c - finding gnuplot and running it on a script (see gp.h, plot.h).
 *
 * gnuplot runs as a child process in the script's directory, with OUTBASE and FORMATS
 * set on its command line so that the images are written under temporary names and
 * renamed into place only when gnuplot succeeded; its stderr is captured and returned
 * in the error when it fails.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "plots/gp.h"
#include "plots/plot.h"

/* The gnuplot program to run (absolute path); NULL with a CS_PLOT_ERROR_NO_GNUPLOT
 * error carrying the install command when there is none. */
static char *find_gnuplot(GError **err)
{
	const char *env = g_getenv(PLOT_GNUPLOT_ENV);
	char *path;

	if (env && *env) {
		path = g_find_program_in_path(env);
		if (!path)
			g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_NO_GNUPLOT,
				    "%s=%s: no such program; point it at a gnuplot binary, or unset it "
				    "to use gnuplot from PATH (install it with: %s)",
				    PLOT_GNUPLOT_ENV, env, PLOT_INSTALL_HINT);
		return path;
	}
	path = g_find_program_in_path("gnuplot");
	if (!path)
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_NO_GNUPLOT,
			    "gnuplot is not installed (not found in PATH); install it with: %s "
			    "(or set %s to a gnuplot binary)", PLOT_INSTALL_HINT, PLOT_GNUPLOT_ENV);
	return path;
}

/* Indent captured output for a message: its first max_lines non-blank lines. */
static char *indent_output(const char *out, int max_lines)
{
	g_auto(GStrv) lines = g_strsplit(out ? out : "", "\n", -1);
	GString *s = g_string_new(NULL);
	int n = 0;

	for (int i = 0; lines[i]; i++)
		if (*g_strchomp(lines[i]) && n++ < max_lines)
			g_string_append_printf(s, "%s    %s", s->len ? "\n" : "", lines[i]);
	if (n > max_lines)
		g_string_append_printf(s, "\n    ... (%d more lines)", n - max_lines);
	return g_string_free(s, FALSE);
}

/* gnuplot on the script in dir with OUTBASE=tmpbase; its warnings go to stderr when
 * it succeeds, its output into the error when it fails. */
static bool spawn_gnuplot(const char *script, const char *dir, const char *tmpbase, bool png,
			  bool svg, GError **err)
{
	g_autofree char *name = g_path_get_basename(script);
	g_autofree char *prog = find_gnuplot(err);
	g_autoptr(GString) sets = g_string_new("OUTBASE=");
	g_autofree char *out = NULL, *errout = NULL;
	g_autoptr(GError) e = NULL;
	int wait_status = 0;
	char *argv[] = { prog, "-e", NULL, name, NULL };

	if (!prog)
		return false;
	gp_quote(sets, tmpbase);   /* the script's name is the user's */
	g_string_append_printf(sets, "; FORMATS='%s'", gp_formats(png, svg));
	argv[2] = sets->str;
	if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL, &out, &errout,
			  &wait_status, &e)) {
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_NO_GNUPLOT,
			    "cannot run %s: %s; install gnuplot with: %s", prog, e->message,
			    PLOT_INSTALL_HINT);
		return false;
	}
	if (!g_spawn_check_wait_status(wait_status, &e)) {
		g_autofree char *text = indent_output(errout && *errout ? errout : out, 30);

		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_GNUPLOT,
			    "gnuplot failed on %s (%s); it said:\n%s", script, e->message,
			    *text ? text : "    (nothing)");
		return false;
	}
	if (errout && *g_strstrip(errout)) {
		g_autofree char *text = indent_output(errout, 30);

		fprintf(stderr, "chargesim: gnuplot warnings for %s:\n%s\n", script, text);
	}
	return true;
}

/* The image of one format from its temporary name to its own (ok), or removed (!ok). */
static bool move_image(const char *script, const char *dir, const char *tmpbase,
		       const char *base, const char *fmt, bool ok, GError **err)
{
	g_autofree char *tmp = g_strdup_printf("%s/%s.%s", dir, tmpbase, fmt);
	g_autofree char *final = g_strdup_printf("%s/%s.%s", dir, base, fmt);
	GStatBuf st;

	if (!ok) {
		g_unlink(tmp);
		return false;
	}
	if (g_stat(tmp, &st) != 0 || st.st_size == 0) {
		g_unlink(tmp);
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_GNUPLOT,
			    "gnuplot ran on %s but wrote no %s image (does the script still "
			    "set output OUTBASE.'.'.FMT?)", script, fmt);
		return false;
	}
	if (g_rename(tmp, final) != 0) {
		int en = errno;

		g_unlink(tmp);
		g_set_error(err, CS_PLOT_ERROR, CS_PLOT_ERROR_IO, "%s: cannot write: %s", final,
			    g_strerror(en));
		return false;
	}
	return true;
}

bool gp_run(const char *script, bool png, bool svg, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(script);
	g_autofree char *name = g_path_get_basename(script);
	g_autofree char *base = gp_strip_ext(name);
	g_autofree char *tmpbase = g_strdup_printf(".%s.tmp-%d", base, (int)getpid());
	const char *fmts[2] = { png ? "png" : NULL, svg ? "svg" : NULL };
	bool ok = spawn_gnuplot(script, dir, tmpbase, png, svg, err);

	for (int i = 0; i < 2; i++)
		if (fmts[i])
			ok = move_image(script, dir, tmpbase, base, fmts[i], ok, ok ? err : NULL) && ok;
	return ok;
}
