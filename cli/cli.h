/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli/cli.h - the subcommands of `chargesim` and what they share.
 *
 * Exit statuses (docs/scenarios.md 12.1): 0 success and every expectation held; 1 an
 * expectation, check or diff failed; 2 bad usage or bad input; 3 an internal error
 * (NaN, broken invariant) during a run.
 */
#ifndef CS_CLI_H
#define CS_CLI_H

#include <stdbool.h>
#include <glib.h>

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAILED 1
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_INTERNAL 3

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_score(int argc, char **argv);
/* `chargesim merge` of score shards (cli/cmd_score.c): dirs hold score-manifest.json. */
int cmd_score_merge(char **dirs, int n_dirs, const char *outdir, bool quiet);
/* -j when not given (cli/cmd_sweep.c): SLURM_CPUS_PER_TASK, else the CPUs this process
 * may run on. */
int cli_default_jobs(void);
/* `--plot` of run and compare (cli/cmd_plot.c), once the runs' outputs are written
 * into dir (the staging directory of their output set, which becomes `shown`):
 * write dir/plot.gp and render dir/plot.{png,svg}. False with err (naming `shown`)
 * when the plot failed (bad input, gnuplot missing or failing). A run's plot has the
 * zoom panel when zoom is true (run --report). */
bool cli_plot_render_run(const char *dir, const char *shown, const char *scenario,
			 const char *policy, double uvlo_v, bool zoom, GError **err);
bool cli_plot_render_compare(const char *dir, const char *shown, const char *scenario,
			     char **policies, double uvlo_v, GError **err);
/* Then print where the plot is (unless quiet), or why it failed (err): returns
 * `status`, or 2 when it failed. */
int cli_plot_report(const char *outdir, const GError *err, bool compare, bool quiet, int status);

/* Whether DIR holds a plot (plot.gp, .png or .svg). A run or compare written again
 * without --plot removes it with the outputs it showed (the plot's files belong to
 * the output set, output/outset.h), and says so. */
bool cli_plot_exists(const char *outdir);
#define CLI_STALE_PLOT_NOTE "removed the plot of an earlier run (plot.gp, plot.png, plot.svg): " \
	"it showed the outputs this run replaced; --plot draws the new ones"

/* Parse options with a GOptionContext; prints the error and returns false on bad
 * usage. argv keeps the positional arguments (argv[0] is the subcommand). */
bool cli_parse(GOptionContext *ctx, int *argc, char ***argv);
/*
 * Text from input files (names, descriptions, messages quoting what a file holds)
 * reaches terminals and CI logs; a control character in it would act there (ESC moves
 * the cursor or retitles the window, CR rewrites the line, BEL rings). cli_term_text()
 * returns text with every such character shown as an escape: C0 controls and DEL as
 * \xNN (but line feeds and tabs when lines is true: a message of several lines),
 * C1 controls as \u00NN, bytes that are not UTF-8 as \xNN. Caller frees.
 */
char *cli_term_text(const char *text, bool lines);
/* For a linux/<file> policy, a line per kernel file it was compiled from, each LEAD,
 * the path, the first 16 hex digits of its sha256 and stock / edited /
 * not-from-tarball (docs/linux-drivers.md section 2); nothing for another policy. */
void cli_print_kernel_files(const char *policy, const char *lead);
/* A message (a GError's, say) on a line of stderr, through cli_term_text(). */
void cli_print_message(const char *msg);
/* Print "chargesim: MESSAGE" to stderr, through cli_term_text(); false, for
 * `return cli_error(...)`. */
bool cli_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* --allow-plugins DIR (run, check, sweep): the trust boundary of stack/policies/loader.h.
 * A scenario or sweep file is data; the plugins (code) it may load are those under
 * the DIRs the user gives here. cli_allow_plugins() registers them (false with the
 * message printed when one is not a directory). */
#define CLI_ALLOW_PLUGINS_ENTRY(dirs) \
	{ "allow-plugins", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, (dirs), \
	  "Let scenarios load the policy plugins (code) under DIR, after symbolic links (repeatable)", "DIR" }
#define CLI_ALLOW_PLUGINS_NOTE \
	"Plugins: a scenario or sweep file is data and loads no code by itself. A plugin it\n" \
	"names (\"policy\": {\"plugin\": FILE.so}) runs only when its real path is under a\n" \
	"directory given with --allow-plugins DIR; any other is refused (exit 2) before its\n" \
	"code runs. Built-in policies and linux/* drivers need nothing (docs/policy-sdk.md).\n"
bool cli_allow_plugins(char **dirs);
/* Comparator for g_ptr_array_sort() of strings. */
gint cli_cmp_strings(gconstpointer a, gconstpointer b);
/* Append the *.json files under dir (recursively, each directory in name order) to
 * paths (g_free'd strings). Symbolic links are followed, and every directory and file
 * is visited once whatever the links (a link to "." is no loop). */
void cli_find_json(const char *dir, GPtrArray *paths);
/* The scenario library `check` and `list scenarios` use without a path: $CHARGESIM_SCENARIOS,
 * else scenarios/ in the current directory (a source tree), else the library installed
 * with the binary (PREFIX/share/chargesim/scenarios, PREFIX being the binary's
 * directory's parent). NULL, with a message naming cmd, when there is none. */
#define CLI_SCENARIOS_ENV "CHARGESIM_SCENARIOS"
#define CLI_SCENARIO_LIBRARY "share/chargesim/scenarios"
char *cli_scenario_dir(const char *cmd);
/* The same library, quietly: NULL when there is none. */
char *cli_scenario_library(void);
/* The library of the source tree the binary was built in (TOP/scenarios for
 * TOP/build/chargesim), or NULL: where a sweep run from elsewhere (a Slurm job's
 * directory) finds the scenarios its base names. */
char *cli_scenario_source_library(void);
/* A set of files by device and inode (cli_file_id_first), to visit each once. */
GHashTable *cli_file_ids_new(void);
/* True the first time path's file is seen (and when it cannot be stat'ed). */
bool cli_file_id_first(GHashTable *seen, const char *path);

#endif
