/*
 * cli/util.c - option parsing and error reporting shared by the subcommands.
 */
#include <stdarg.h>
#include <stdio.h>
#include "cli/cli.h"
#include "sim/outfile.h"
#include "sim/scenario.h"
#include "sim/world.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("chargesim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
	g_autoptr(GError) err = NULL;

	if (!g_option_context_parse(ctx, argc, argv, &err)) {
		cli_error("%s (see --help)", err->message);
		return false;
	}
	return true;
}

int cli_exit_for(const GError *err)
{
	if (err->domain == CS_RUN_ERROR && err->code == CS_RUN_ERROR_INTERNAL)
		return CLI_EXIT_INTERNAL;
	return CLI_EXIT_USAGE;
}

int cmd_not_yet(const char *name, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("`chargesim %s` is not available in this version yet; see `chargesim --help` for what is", name);
	return CLI_EXIT_USAGE;
}
