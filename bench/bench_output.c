// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_output.c - a full charge with every output written, in one process and
 * as whole `chargesim` processes (start-up included).
 *
 * The run: a 3000 mAh cell from 0 % to full on a 2 A DCP (the scenario of
 * bench/bench_run.c), 3 h simulated, adaptive steps, a trace row at every step and
 * event, writing trace.csv, trace.vcd, events.jsonl and metrics.json.
 *
 * 1. In process: world_new .. world_free, each run into a new sub-directory of a
 *    scratch directory (no file replaced: what replacing costs belongs to the file
 *    system, see bench_run), and the same without outputs. Median of REPS runs after
 *    one warm-up, as wall time and as process CPU time (the machine may be shared;
 *    CPU time leaves out waiting for a core). Twice: in a directory on tmpfs
 *    (/dev/shm, when there is one), where creating a file costs little, so that the
 *    figure is the simulator's own work; and in the temporary directory (ext4 here),
 *    where creating the four files costs the kernel about as much again, and more
 *    when many files were deleted there recently.
 * 2. Whole processes: `chargesim --version` (start-up alone) and `chargesim run
 *    SCENARIO -o DIR --vcd -q`, each spawned PROC_REPS times: median wall time from
 *    spawn to exit, and median CPU time of the child (user + system, from wait4).
 *    The binary is build/chargesim beside this program's directory. With
 *    CHARGESIM_BASELINE=/path/to/another/chargesim (an older build, say), the two are
 *    run alternately and the ratios printed, so that both see the same machine load.
 *
 * Usage: bench_output [in-process | processes]   (default: both)
 * To compare the in-process figure with another tree, build and run that tree's
 * bench_output too (it uses only run/world.h and run/scenario.h).
 * Exits non-zero only when a run fails, never because of a figure.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "run/scenario.h"
#include "run/world.h"
#include "tests/testutil.h"

#define REPS 21
#define PROC_REPS 41

extern char **environ;

static const char full_charge_json[] =
	"{\n"
	"  \"name\": \"bench-full-charge\",\n"
	"  \"seed\": 1,\n"
	"  \"duration\": \"3 h\",\n"
	"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"2.2 A\" },\n"
	"  \"cable\": { \"length\": \"1 m\", \"awg\": 20 },\n"
	"  \"device\": {\n"
	"    \"pmic\": { \"preset\": \"bq25890\", \"vreg\": \"4.35 V\", \"ichg\": \"2 A\","
	" \"iterm\": \"150 mA\" },\n"
	"    \"battery\": { \"preset\": \"eb425161lu\", \"capacity\": \"3000 mAh\","
	" \"soc\": \"0 %\" },\n"
	"    \"load\": { \"current\": \"0 mA\" }\n"
	"  },\n"
	"  \"policy\": { \"name\": \"fixed\","
	" \"params\": { \"ilim\": \"2 A\", \"fullbatt_vchkdrop\": 0 } }\n"
	"}\n";

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_s(void)
{
	return (double)g_get_monotonic_time() * 1e-6;
}

/* One run from world_new to world_free; false on any error. */
static bool run_once(const struct scenario *sc, const struct world_options *opt,
		     uint64_t *rows)
{
	g_autoptr(GError) err = NULL;
	struct world *w = world_new(sc, opt, &err);

	if (!w) {
		fprintf(stderr, "bench_output: world_new: %s\n", err->message);
		return false;
	}
	if (!world_run(w, &err) || !world_finish(w, &err)) {
		fprintf(stderr, "bench_output: %s\n", err->message);
		world_free(w);
		return false;
	}
	*rows = world_metrics(w)->trace_rows;
	world_free(w);
	return true;
}

/* Warm-up and REPS timed runs; outdir NULL for no outputs, else a new sub-directory
 * per run. */
static bool run_median(const struct scenario *sc, const char *outdir, double *wall,
		       double *cpu, uint64_t *rows)
{
	double walls[REPS], cpus[REPS];

	for (int i = -1; i < REPS; i++) {
		struct world_options opt = { .vcd = true };
		g_autofree char *dir = outdir ? g_strdup_printf("%s/run-%d", outdir, i + 1) : NULL;
		double w0, c0;

		opt.outdir = dir;
		w0 = wall_s();
		c0 = cpu_s();
		if (!run_once(sc, &opt, rows))
			return false;
		if (i >= 0) {
			walls[i] = wall_s() - w0;
			cpus[i] = cpu_s() - c0;
		}
	}
	*wall = median(walls, REPS);
	*cpu = median(cpus, REPS);
	return true;
}

static bool bench_in_process(const char *scratch, const char *where)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(scenario) sc = scenario_load_text("bench-full-charge", full_charge_json,
						     strlen(full_charge_json), NULL, &err);
	g_autofree char *outdir = g_build_filename(scratch, "in-process", NULL);
	double w_out, c_out, w_none, c_none;
	uint64_t rows;

	if (!sc) {
		fprintf(stderr, "bench_output: %s\n", err->message);
		return false;
	}
	if (!run_median(sc, outdir, &w_out, &c_out, &rows) ||
	    !run_median(sc, NULL, &w_none, &c_none, &rows))
		return false;
	printf("full charge (3 h simulated), in process, outputs in %s, median of %d:\n", where,
	       REPS);
	printf("  every output (trace.csv, trace.vcd, events.jsonl, metrics.json), new files: "
	       "%.3f ms wall, %.3f ms CPU\n", w_out * 1e3, c_out * 1e3);
	printf("  no output files: %.3f ms wall, %.3f ms CPU; the outputs cost %.3f ms CPU\n",
	       w_none * 1e3, c_none * 1e3, (c_out - c_none) * 1e3);
	fflush(stdout);
	return true;
}

/* Spawn argv, wait; wall and child CPU time in seconds. stdout and stderr go to
 * /dev/null. False when it cannot be spawned or exits non-zero. */
static bool spawn_timed(char *const argv[], double *wall, double *cpu)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int status = 0, rc;
	double w0 = wall_s();

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fprintf(stderr, "bench_output: cannot run %s: %s\n", argv[0], g_strerror(rc));
		return false;
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_output: %s %s failed\n", argv[0], argv[1]);
		return false;
	}
	*wall = wall_s() - w0;
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	return true;
}

struct proc_fig {
	double ver_wall, ver_cpu, run_wall, run_cpu;
};

/*
 * PROC_REPS rounds; in each, every binary runs --version and then the full charge into
 * a new directory. Alternating keeps the binaries under the same load.
 */
static bool bench_processes(const char *scratch, const char *scenario_path, char **bins, int nbins,
			    struct proc_fig *fig)
{
	typedef double figs[4][PROC_REPS];
	figs *v = g_new0(figs, nbins);
	bool ok = true;

	for (int i = 0; i < PROC_REPS && ok; i++) {
		for (int b = 0; b < nbins && ok; b++) {
			g_autofree char *dir = g_strdup_printf("%s/proc-%d-%d", scratch, b, i);
			char *ver[] = { bins[b], "--version", NULL };
			char *run[] = { bins[b], "run", (char *)scenario_path, "-o", dir, "--vcd", "-q",
					NULL };

			ok = spawn_timed(ver, &v[b][0][i], &v[b][1][i]) &&
			     spawn_timed(run, &v[b][2][i], &v[b][3][i]);
		}
	}
	for (int b = 0; b < nbins && ok; b++) {
		fig[b].ver_wall = median(v[b][0], PROC_REPS);
		fig[b].ver_cpu = median(v[b][1], PROC_REPS);
		fig[b].run_wall = median(v[b][2], PROC_REPS);
		fig[b].run_cpu = median(v[b][3], PROC_REPS);
	}
	g_free(v);
	return ok;
}

static void print_proc(const char *what, const char *bin, const struct proc_fig *f)
{
	printf("  %s (%s):\n", what, bin);
	printf("    --version: %.3f ms wall, %.3f ms CPU\n", f->ver_wall * 1e3, f->ver_cpu * 1e3);
	printf("    run, every output: %.3f ms wall, %.3f ms CPU\n", f->run_wall * 1e3,
	       f->run_cpu * 1e3);
}

int main(int argc, char **argv)
{
	g_autofree char *self_dir = g_path_get_dirname(argv[0]);
	g_autofree char *bin = g_build_filename(self_dir, "..", "chargesim", NULL);
	const char *baseline = g_getenv("CHARGESIM_BASELINE");
	g_autofree char *scratch = g_dir_make_tmp("bench-output-XXXXXX", NULL);
	g_autofree char *scenario_path = NULL;
	char *bins[2] = { bin, (char *)baseline };
	struct proc_fig fig[2];
	int status = 0;

	bool in_process = argc < 2 || strcmp(argv[1], "in-process") == 0;
	bool processes = argc < 2 || strcmp(argv[1], "processes") == 0;

	if (!scratch) {
		fprintf(stderr, "bench_output: cannot make a scratch directory\n");
		return 1;
	}
	scenario_path = g_build_filename(scratch, "full-charge.json", NULL);
	if (!g_file_set_contents(scenario_path, full_charge_json, -1, NULL)) {
		status = 1;
		goto out;
	}
	if (in_process) {
		char shm[] = "/dev/shm/bench-output-XXXXXX";

		if (g_mkdtemp(shm)) {
			bool ok = bench_in_process(shm, "tmpfs (/dev/shm)");

			tu_rm_tree(shm);
			if (!ok) {
				status = 1;
				goto out;
			}
		}
		if (!bench_in_process(scratch, g_get_tmp_dir())) {
			status = 1;
			goto out;
		}
	}
	if (!processes)
		goto out;
	if (!bench_processes(scratch, scenario_path, bins, baseline ? 2 : 1, fig)) {
		status = 1;
		goto out;
	}
	printf("whole processes, median of %d (spawn to exit; CPU = the child's user + system):\n",
	       PROC_REPS);
	print_proc("this build", bin, &fig[0]);
	if (baseline) {
		print_proc("baseline", baseline, &fig[1]);
		printf("  baseline / this build: --version %.2fx wall, %.2fx CPU; "
		       "run %.2fx wall, %.2fx CPU\n",
		       fig[1].ver_wall / fig[0].ver_wall, fig[1].ver_cpu / fig[0].ver_cpu,
		       fig[1].run_wall / fig[0].run_wall, fig[1].run_cpu / fig[0].run_cpu);
	}
out:
	tu_rm_tree(scratch);
	return status;
}
