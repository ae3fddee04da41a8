// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli/main.c - `chargesim`: dispatch to a subcommand.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "output/outfile.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "run", cmd_run, "run one scenario and write its trace, events and metrics" },
	{ "check", cmd_check, "run scenarios as regression tests (expectations, golden traces)" },
	{ "compare", cmd_compare, "run one scenario under several policies, side by side" },
	{ "sweep", cmd_sweep, "run a grid of scenario variants" },
	{ "merge", cmd_merge, "merge the results of sharded sweeps or scores" },
	{ "score", cmd_score, "score policies against the hindsight oracle on a population" },
	{ "plot", cmd_plot, "plot trace files" },
	{ "diff", cmd_diff, "compare two CSV traces with tolerances" },
	{ "list", cmd_list, "list policies, sources, pmics, batteries or scenarios" },
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: chargesim COMMAND [OPTIONS] [ARGS]\n"
		"\n"
		"chargesim simulates a USB charging port, a cable and a battery-powered Linux\n"
		"device with its charger policy code, in virtual time.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(fp, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp,
		"\n"
		"Run `chargesim COMMAND --help` for the options of a command.\n"
		"Example: chargesim run scenarios/demo.json\n"
		"Exit status: 0 ok, 1 an expectation failed, 2 bad usage or input, 3 internal error.\n");
}

/* Ctrl-C or a kill: remove the temporary output files (nothing half-written ever
 * appears under a final name anyway) and leave with the shell's conventional code. */
static void on_signal(int sig)
{
	static const char msg[] = "chargesim: interrupted; no output was completed\n";

	cs_outfile_cleanup_all();
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(128 + sig);
	_exit(128 + sig);
}

/*
 * What a command printed must all have reached stdout: a listing or a report cut short
 * by a full disk or a closed pipe is no success. One check for every command, as it
 * returns: a failed write (seen by ferror(), or by the last fflush()) is exit 2 with
 * a message on stderr, unless the command already failed worse (3).
 */
static int stdout_status(int status)
{
	int e = 0;

	errno = 0;
	if (fflush(stdout) != 0)
		e = errno;
	if (!ferror(stdout) && !e)
		return status;
	cli_error("cannot write to standard output: %s (what it printed is incomplete)",
		  g_strerror(e ? e : EIO));
	return status == CLI_EXIT_INTERNAL ? status : CLI_EXIT_USAGE;
}

/* The command line, for on_glib_error() to name the input: made at start-up, since
 * there is no memory to make it when it is needed. */
static char oom_command[1024] = "chargesim";

static void oom_command_set(int argc, char **argv)
{
	size_t n = strlen(oom_command);

	for (int i = 1; i < argc && n + 2 < sizeof(oom_command); i++) {
		oom_command[n++] = ' ';
		g_strlcpy(oom_command + n, argv[i], sizeof(oom_command) - n);
		for (; oom_command[n]; n++)   /* text to a terminal: no control bytes */
			if ((unsigned char)oom_command[n] < 0x20 || oom_command[n] == 0x7f)
				oom_command[n] = '?';
	}
}

/*
 * g_malloc() and friends end the process when an allocation fails (g_error(): a trap,
 * exit 133). That is input-driven, not a bug (a large file under a tight ulimit -v),
 * so it becomes exit 2 with a message; temporary outputs are removed as on Ctrl-C.
 * Other fatal GLib errors are left to abort. Only write() and _exit() here: memory
 * has run out.
 */
static void on_glib_error(const gchar *domain, GLogLevelFlags level, const gchar *message,
			  gpointer data)
{
	static const char pre[] = ": out of memory (";
	static const char post[] = "); raise the memory limit (ulimit -v) or give a smaller input\n";

	(void)data;
	if (!message || !strstr(message, "failed to allocate")) {
		g_log_default_handler(domain, level, message, NULL);
		return;   /* GLib aborts after a fatal message */
	}
	cs_outfile_cleanup_all();
	if (write(STDERR_FILENO, oom_command, strlen(oom_command)) < 0 ||
	    write(STDERR_FILENO, pre, sizeof(pre) - 1) < 0 ||
	    write(STDERR_FILENO, message, strlen(message)) < 0 ||
	    write(STDERR_FILENO, post, sizeof(post) - 1) < 0)
		_exit(CLI_EXIT_USAGE);
	_exit(CLI_EXIT_USAGE);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	oom_command_set(argc, argv);
	g_log_set_handler("GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL, on_glib_error, NULL);
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (g_strv_contains((const char *const[]){ "--help", "-h", "help", NULL }, argv[1])) {
		usage(stdout);
		return stdout_status(CLI_EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("chargesim %s\n", CHARGESIM_VERSION);
		return stdout_status(CLI_EXIT_OK);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			g_autofree char *prgname = g_strconcat("chargesim ", commands[i].name, NULL);

			/* --help's "Usage:" line names the program: "chargesim run [OPTION…]" */
			g_set_prgname(prgname);
			return stdout_status(commands[i].fn(argc - 1, argv + 1));
		}
	cli_error("unknown command \"%s\"; run `chargesim --help` for the list", argv[1]);
	return CLI_EXIT_USAGE;
}
