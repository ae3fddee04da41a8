// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/util.c - option parsing, error reporting and file lists shared by the subcommands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "run/world.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("chargesim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The split argument vector, when cli_split_jobs() made one, and its strings
 * (GOption drops pointers from the vector as it parses); freed at exit. */
static char **split_argv, **split_strings;

static void split_argv_free(void)
{
	g_strfreev(split_strings);
	g_free(split_argv);
	split_argv = split_strings = NULL;
}

/*
 * GOption wants "-j 2"; people used to make(1) type "-j2". Rewrite "-jN" (N digits)
 * into "-j" "N" before parsing, and leave everything else as it is.
 */
static void cli_split_jobs(int *argc, char ***argv)
{
	int n = 0, k = 0;

	for (int i = 1; i < *argc; i++) {
		const char *a = (*argv)[i];

		if (!strcmp(a, "--"))
			break;
		if (a[0] == '-' && a[1] == 'j' && a[2] && strspn(a + 2, "0123456789") == strlen(a + 2))
			n++;
	}
	if (n == 0 || split_argv)
		return;
	split_argv = g_new0(char *, *argc + n + 1);
	for (int i = 0; i < *argc; i++) {
		const char *a = (*argv)[i];

		if (i > 0 && a[0] == '-' && a[1] == 'j' && a[2] &&
		    strspn(a + 2, "0123456789") == strlen(a + 2)) {
			split_argv[k++] = g_strdup("-j");
			split_argv[k++] = g_strdup(a + 2);
		} else {
			split_argv[k++] = g_strdup(a);
		}
	}
	split_strings = g_memdup2(split_argv, (k + 1) * sizeof(char *));
	atexit(split_argv_free);
	*argc = k;
	*argv = split_argv;
}

/*
 * --help, printed here rather than by GOption: GOption converts its text to the
 * locale's character set, and in the C locale its "[OPTION…]" becomes "[OPTION?]".
 * Plain ASCII dots read the same everywhere. Exits 0, as GOption's own --help does.
 */
static void cli_help_if_asked(GOptionContext *ctx, int argc, char **argv)
{
	static const char *const asks[] = { "--help", "-h", "-?", "--help-all", NULL };
	g_autofree char *help = NULL;
	GString *s;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (g_strv_contains(asks, argv[i]))
			break;
	if (i >= argc || strcmp(argv[i], "--") == 0)
		return;
	help = g_option_context_get_help(ctx, TRUE, NULL);
	s = g_string_new(help);
	g_string_replace(s, "\xe2\x80\xa6", "...", 0);
	fputs(s->str, stdout);
	g_string_free(s, TRUE);
	exit(CLI_EXIT_OK);
}

bool cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
	g_autoptr(GError) err = NULL;

	cli_split_jobs(argc, argv);
	cli_help_if_asked(ctx, *argc, *argv);
	if (!g_option_context_parse(ctx, argc, argv, &err)) {
		cli_error("%s (see --help)", err->message);
		return false;
	}
	return true;
}

int cli_exit_for(const GError *err)
{
	return world_error_status(err);
}

/* g_ptr_array_sort hands the comparator pointers to the elements. */
gint cli_cmp_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void cli_find_json(const char *dir, GPtrArray *paths)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, n, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR))
			cli_find_json(path, paths);
		else if (g_str_has_suffix(n, ".json"))
			g_ptr_array_add(paths, g_steal_pointer(&path));
	}
}
