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
	{ "merge", cmd_merge, "merge the results of sharded sweeps" },
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

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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
