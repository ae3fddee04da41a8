// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/util.c - option parsing, error reporting and file lists shared by the subcommands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "stack/policies/loader.h"
#include <chargesim/linux_module.h>

char *cli_term_text(const char *text, bool lines)
{
	GString *o = g_string_sized_new(strlen(text ? text : ""));

	for (const char *p = text ? text : ""; *p;) {
		gunichar c;
		size_t n = 0;

		/* printable ASCII, nearly all of a message, goes as one run */
		while ((unsigned char)p[n] >= 0x20 && (unsigned char)p[n] < 0x7f)
			n++;
		if (n) {
			g_string_append_len(o, p, (gssize)n);
			p += n;
			continue;
		}
		c = g_utf8_get_char_validated(p, -1);
		if (c == (gunichar)-1 || c == (gunichar)-2) {   /* no UTF-8: one byte */
			g_string_append_printf(o, "\\x%02x", (unsigned char)*p++);
			continue;
		}
		n = (size_t)(g_utf8_next_char(p) - p);
		if ((c < 0x20 && !(lines && (c == '\n' || c == '\t'))) || c == 0x7f)
			g_string_append_printf(o, "\\x%02x", c);
		else if (c >= 0x80 && c <= 0x9f)   /* C1: U+009B is ESC [ to some terminals */
			g_string_append_printf(o, "\\u%04x", c);
		else
			g_string_append_len(o, p, (gssize)n);
		p += n;
	}
	return g_string_free(o, FALSE);
}

void cli_print_message(const char *msg)
{
	g_autofree char *safe = cli_term_text(msg, true);

	fprintf(stderr, "%s\n", safe);
}

bool cli_error(const char *fmt, ...)
{
	g_autofree char *msg = NULL, *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	safe = cli_term_text(msg, true);
	fprintf(stderr, "chargesim: %s\n", safe);
	return false;
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

/* "-jN" with N digits. */
static bool is_jobs_digits(const char *a)
{
	return a[0] == '-' && a[1] == 'j' && a[2] && strspn(a + 2, "0123456789") == strlen(a + 2);
}

/*
 * GOption wants "-j 2"; people used to make(1) type "-j2". Rewrite "-jN" (N digits)
 * into "-j" "N" before parsing, and leave everything else as it is.
 */
static void cli_split_jobs(int *argc, char ***argv)
{
	int n = 0, k = 0;

	for (int i = 1; i < *argc && strcmp((*argv)[i], "--") != 0; i++)
		n += is_jobs_digits((*argv)[i]);
	if (n == 0 || split_argv)
		return;
	split_argv = g_new0(char *, *argc + n + 1);
	for (int i = 0, operands = 0; i < *argc; i++) {
		const char *a = (*argv)[i];

		/* after "--" every word is an operand, even one that reads "-j3" */
		operands = operands || (i > 0 && strcmp(a, "--") == 0);
		if (i > 0 && !operands && is_jobs_digits(a)) {
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
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output: %s", g_strerror(errno ? errno : EIO));
		exit(CLI_EXIT_USAGE);
	}
	exit(CLI_EXIT_OK);
}

bool cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
	g_autoptr(GError) err = NULL;

	cli_split_jobs(argc, argv);
	cli_help_if_asked(ctx, *argc, *argv);
	if (!g_option_context_parse(ctx, argc, argv, &err))
		return cli_error("%s (see --help)", err->message);
	return true;
}

bool cli_allow_plugins(char **dirs)
{
	for (int i = 0; dirs && dirs[i]; i++) {
		g_autoptr(GError) err = NULL;

		if (!cs_plugin_allow_dir(dirs[i], &err))
			return cli_error("%s", err->message);
	}
	return true;
}

/* g_ptr_array_sort hands the comparator pointers to the elements. */
gint cli_cmp_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A set of "DEV:INODE" strings: a file or directory as the kernel knows it, whatever
 * path led there. */
GHashTable *cli_file_ids_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

bool cli_file_id_first(GHashTable *seen, const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return true;   /* dangling or unreadable: let the reader report it */
	return g_hash_table_add(seen, g_strdup_printf("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
						      (guint64)st.st_dev, (guint64)st.st_ino));
}

/* One directory: its entries in name order (so that which path of a file reached
 * twice is kept does not depend on the file system), each file and directory once. */
static void find_json(const char *dir, GPtrArray *paths, GHashTable *seen)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *n;

	while (d && (n = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(n));
	g_ptr_array_sort(names, cli_cmp_strings);
	for (guint i = 0; i < names->len; i++) {
		const char *name = names->pdata[i];
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
			if (cli_file_id_first(seen, path))
				find_json(path, paths, seen);
		} else if (g_str_has_suffix(name, ".json") && cli_file_id_first(seen, path)) {
			g_ptr_array_add(paths, g_steal_pointer(&path));
		}
	}
}

void cli_find_json(const char *dir, GPtrArray *paths)
{
	g_autoptr(GHashTable) seen = cli_file_ids_new();

	if (cli_file_id_first(seen, dir))
		find_json(dir, paths, seen);
}

/* The installed library beside the binary: BINDIR/../share/chargesim/scenarios. Found
 * from /proc/self/exe rather than compiled in, so that a tree installed under DESTDIR
 * or moved to another prefix still finds its own library. */
static char *installed_scenarios(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *bindir = exe ? g_path_get_dirname(exe) : NULL;
	g_autofree char *prefix = bindir ? g_path_get_dirname(bindir) : NULL;

	return prefix ? g_build_filename(prefix, CLI_SCENARIO_LIBRARY, NULL) : NULL;
}

char *cli_scenario_source_library(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *bindir = exe ? g_path_get_dirname(exe) : NULL;
	g_autofree char *top = bindir ? g_path_get_dirname(bindir) : NULL;
	char *lib = top ? g_build_filename(top, "scenarios", NULL) : NULL;

	if (lib && g_file_test(lib, G_FILE_TEST_IS_DIR))
		return lib;
	g_free(lib);
	return NULL;
}

char *cli_scenario_library(void)
{
	const char *env = g_getenv(CLI_SCENARIOS_ENV);
	g_autofree char *installed = NULL;

	if (env && *env)
		return g_file_test(env, G_FILE_TEST_IS_DIR) ? g_strdup(env) : NULL;
	if (g_file_test("scenarios", G_FILE_TEST_IS_DIR))
		return g_strdup("scenarios");
	installed = installed_scenarios();
	return installed && g_file_test(installed, G_FILE_TEST_IS_DIR) ? g_steal_pointer(&installed) :
									  NULL;
}

char *cli_scenario_dir(const char *cmd)
{
	const char *env = g_getenv(CLI_SCENARIOS_ENV);
	g_autofree char *installed = NULL;

	if (env && *env) {
		if (g_file_test(env, G_FILE_TEST_IS_DIR))
			return g_strdup(env);
		cli_error("%s: %s=%s: no such directory; point it at a scenario library, or unset it",
			  cmd, CLI_SCENARIOS_ENV, env);
		return NULL;
	}
	if (g_file_test("scenarios", G_FILE_TEST_IS_DIR))
		return g_strdup("scenarios");
	installed = installed_scenarios();
	if (installed && g_file_test(installed, G_FILE_TEST_IS_DIR))
		return g_steal_pointer(&installed);
	cli_error("%s: found no scenario library: no scenarios/ here%s%s, and %s is not set; name a file or directory",
		  cmd, installed ? " nor " : "", installed ? installed : "", CLI_SCENARIOS_ENV);
	return NULL;
}

void cli_print_kernel_files(const char *policy, const char *lead)
{
	const struct cs_kfile *const *f = cs_linux_policy_files(policy);

	for (; f && *f; f++)
		printf("%s%s sha256 %.16s (%s)\n", lead, (*f)->path, (*f)->sha256, (*f)->status);
}
