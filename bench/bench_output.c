// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_output.c - a full charge with every output written, in one process and
 * as whole `chargesim` processes (start-up included).
 *
 * The run: bench_full_charge_json (bench/bench_common.h), 3 h simulated, adaptive
 * steps, a trace row at every step and event, writing trace.csv, trace.vcd,
 * events.jsonl and metrics.json.
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
 *    SCENARIO -o DIR --vcd -q` (DIR on tmpfs when there is one, as above), each
 *    spawned PROC_REPS times: median wall time from
 *    spawn to exit, and median CPU time of the child (user + system, from wait4).
 *    The binary is build/chargesim beside this program's directory. With
 *    CHARGESIM_SPEED_BASELINE=/path/to/another/chargesim (an older build, say), the two are
 *    run alternately and the ratios printed, so that both see the same machine load.
 *    Each binary is first copied into the scratch directory and run from there: how a
 *    file came into the page cache (just written by the linker, or read back from
 *    disk) changes what its page faults cost, and two copies of one binary, one in
 *    build/ and one elsewhere, measured 0.92-0.96x apart when run where they lay. Two
 *    copies in the same directory still differ: 1.662 against 1.719 ms in 201
 *    alternating rounds, the memory a copy lands in being one more draw of chance.
 *    So each binary is copied PROC_COPIES times and the rounds take the copies in
 *    turn: a figure is a median over those draws, not one of them.
 *
 * 3. In process against another tree: CHARGESIM_SPEED_BASELINE_BENCH names this program
 *    built against that tree's library (it uses only run/world.h and run/scenario.h;
 *    `make bench` builds it for the revision SPEED_BASELINE). IP_ROUNDS rounds, each
 *    the in-process median of this build and of that program (run as `in-process`),
 *    the two in turn first, both on tmpfs when there is one and in the temporary
 *    directory; the ratio of the medians of the rounds' CPU times. The other program
 *    leaves its scratch directory in ours (CHARGESIM_BENCH_SCRATCH), removed at the
 *    end: a file deleted between rounds would make the next round's files dearer to
 *    create (below).
 *
 *    The target (2x) is read on tmpfs, where the figure is the simulator's work. In
 *    the temporary directory, on this machine's ext4 without a journal, creating a
 *    file also costs a search past every inode of its group deleted in the last
 *    60-360 s (fs/ext4/ialloc.c: find_inode_bit, recently_deleted), which both
 *    builds pay alike and which depends on what ran before: 0.3 to 2.5 ms a run
 *    (docs/scaling.md). So each line also prints the time saved per run, which
 *    depends on it far less (until that cost is large and moving: noise then).
 *
 * Usage: bench_output [in-process | processes]   (default: both)
 * Exits non-zero only when a run fails, never because of a figure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "run/scenario.h"
#include "run/world.h"
#include "tests/testutil.h"
#include "bench/bench_common.h"

#define REPS 21
#define PROC_REPS 201
#define PROC_COPIES 8
#define IP_ROUNDS 5

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
	*rows = (uint64_t)world_metric(world_metrics(w), "trace_rows");
	world_free(w);
	return true;
}

/* Warm-up and REPS timed runs; outdir NULL for no outputs, else a new sub-directory
 * per run. */
static bool run_bench_median(const struct scenario *sc, const char *outdir, double *wall,
		       double *cpu, uint64_t *rows)
{
	double walls[REPS], cpus[REPS];

	for (int i = -1; i < REPS; i++) {
		struct world_options opt = { .vcd = true };
		g_autofree char *dir = outdir ? g_strdup_printf("%s/run-%d", outdir, i + 1) : NULL;
		double w0, c0;

		opt.outdir = dir;
		w0 = bench_wall_s();
		c0 = bench_cpu_s();
		if (!run_once(sc, &opt, rows))
			return false;
		if (i >= 0) {
			walls[i] = bench_wall_s() - w0;
			cpus[i] = bench_cpu_s() - c0;
		}
	}
	*wall = bench_median(walls, REPS);
	*cpu = bench_median(cpus, REPS);
	return true;
}

/* The benchmark's scenario (bench_common.h); NULL, said on stderr, on failure. */
static struct scenario *bench_scenario(void)
{
	g_autoptr(GError) err = NULL;
	struct scenario *sc = scenario_load_text("bench-full-charge", bench_full_charge_json,
						 strlen(bench_full_charge_json), NULL, &err);

	if (!sc)
		fprintf(stderr, "bench_output: %s\n", err->message);
	return sc;
}

/* The full charge with every output, in process, into new sub-directories of dir:
 * median CPU and wall time of REPS runs. */
static bool in_process_figure(const char *dir, double *wall, double *cpu)
{
	g_autoptr(scenario) sc = bench_scenario();
	uint64_t rows;

	return sc && run_bench_median(sc, dir, wall, cpu, &rows);
}

/* The other tree's program run as `in-process`, its scratch directory left in kept:
 * its two "new files:" figures (tmpfs or the temporary directory first, then the
 * temporary directory), CPU times, as cpu[0][r] and cpu[1][r]. */
static bool baseline_figures(const char *bench, const char *kept, double cpu[2][IP_ROUNDS],
			     int r)
{
	char *argv[] = { (char *)bench, "in-process", NULL };
	g_auto(GStrv) env = g_environ_setenv(
		g_environ_unsetenv(g_get_environ(), "CHARGESIM_SPEED_BASELINE_BENCH"),
		"CHARGESIM_BENCH_SCRATCH", kept, TRUE);
	g_autofree char *out = NULL;
	const char *p;
	double wall;
	int status;

	if (!g_spawn_sync(NULL, argv, env, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
			  &status, NULL) || !g_spawn_check_wait_status(status, NULL)) {
		fprintf(stderr, "bench_output: %s in-process failed\n", bench);
		return false;
	}
	p = out;
	for (int k = 0; k < 2; k++) {
		p = strstr(p, "new files: ");
		if (!p || sscanf(p, "new files: %lf ms wall, %lf ms CPU", &wall, &cpu[k][r]) != 2) {
			fprintf(stderr, "bench_output: cannot read the figures of %s\n", bench);
			return false;
		}
		cpu[k][r] *= 1e-3;
		p++;
	}
	return true;
}

/* Section 3 of the top: this build against the other tree's program, alternately. */
static bool in_process_vs_baseline(const char *fast, const char *scratch, const char *bench)
{
	const char *dirs[2] = { fast, scratch };
	g_autofree char *kept = g_build_filename(scratch, "baseline", NULL);
	double ours[2][IP_ROUNDS], theirs[2][IP_ROUNDS];

	if (g_mkdir(kept, 0700) != 0) {
		fprintf(stderr, "bench_output: cannot create %s\n", kept);
		return false;
	}
	for (int r = 0; r < IP_ROUNDS; r++) {
		for (int turn = 0; turn < 2; turn++) {
			double wall;

			if ((turn + r) % 2 == 1) {
				if (!baseline_figures(bench, kept, theirs, r))
					return false;
				continue;
			}
			for (int k = 0; k < 2; k++) {
				g_autofree char *d = g_strdup_printf("%s/vs-%d-%d", dirs[k], r, k);

				if (!in_process_figure(d, &wall, &ours[k][r]))
					return false;
			}
		}
	}
	printf("full charge with every output, in process, against %s, median of %d rounds "
	       "(each a median of %d runs, the two builds in turn first), CPU; outside tmpfs "
	       "both also pay the file system's own cost of creating the files (see the top of "
	       "bench/bench_output.c):\n", bench, IP_ROUNDS, REPS);
	for (int k = 0; k < 2; k++) {
		double o = bench_median(ours[k], IP_ROUNDS), t = bench_median(theirs[k], IP_ROUNDS);
		bool on_tmpfs = k == 0 && fast != scratch;

		printf("  outputs in %s: this build %.3f ms, baseline %.3f ms: %.2fx, %.3f ms less%s\n",
		       on_tmpfs ? "tmpfs" : g_get_tmp_dir(), o * 1e3, t * 1e3, t / o, (t - o) * 1e3,
		       on_tmpfs ? " [target >= 2x]" : "");
	}
	fflush(stdout);
	return true;
}

static bool bench_in_process(const char *scratch, const char *where)
{
	g_autoptr(scenario) sc = bench_scenario();
	g_autofree char *outdir = g_build_filename(scratch, "in-process", NULL);
	double w_out, c_out, w_none, c_none;
	uint64_t rows;

	if (!sc || !run_bench_median(sc, outdir, &w_out, &c_out, &rows) ||
	    !run_bench_median(sc, NULL, &w_none, &c_none, &rows))
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

struct proc_fig {
	double ver_wall, ver_cpu, run_wall, run_cpu;
};

/* A copy of the executable `bin` as dir/name (see the top); NULL on failure. */
static char *copy_binary(const char *bin, const char *dir, const char *name)
{
	g_autofree char *data = NULL;
	char *path = g_build_filename(dir, name, NULL);
	gsize len;

	if (!g_file_get_contents(bin, &data, &len, NULL) ||
	    !g_file_set_contents(path, data, (gssize)len, NULL) || g_chmod(path, 0755) != 0) {
		fprintf(stderr, "bench_output: cannot copy %s to %s\n", bin, path);
		g_free(path);
		return NULL;
	}
	return path;
}

/*
 * PROC_REPS rounds; in each, every binary runs --version and then the full charge into
 * a new directory, the binaries in turn first. Alternating keeps the binaries under the
 * same load; round i runs copy i % PROC_COPIES of each binary.
 */
static bool bench_processes(const char *scratch, const char *scenario_path,
			    char *bins[][PROC_COPIES], int nbins, struct proc_fig *fig)
{
	typedef double figs[4][PROC_REPS];
	figs *v = g_new0(figs, nbins);
	bool ok = true;

	for (int i = 0; i < PROC_REPS && ok; i++) {
		for (int turn = 0; turn < nbins && ok; turn++) {
			int b = (turn + i) % nbins;
			g_autofree char *dir = g_strdup_printf("%s/proc-%d-%d", scratch, b, i);
			char *exe = bins[b][i % PROC_COPIES];
			char *ver[] = { exe, "--version", NULL };
			char *run[] = { exe, "run", (char *)scenario_path, "-o", dir, "--vcd", "-q", NULL };

			ok = bench_spawn_timed("bench_output", ver, &v[b][0][i], &v[b][1][i]) &&
			     bench_spawn_timed("bench_output", run, &v[b][2][i], &v[b][3][i]);
		}
	}
	for (int b = 0; b < nbins && ok; b++) {
		fig[b].ver_wall = bench_median(v[b][0], PROC_REPS);
		fig[b].ver_cpu = bench_median(v[b][1], PROC_REPS);
		fig[b].run_wall = bench_median(v[b][2], PROC_REPS);
		fig[b].run_cpu = bench_median(v[b][3], PROC_REPS);
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
	const char *baseline = g_getenv("CHARGESIM_SPEED_BASELINE");
	const char *baseline_bench = g_getenv("CHARGESIM_SPEED_BASELINE_BENCH");
	/* set by section 3 when this program is the other tree's: the scratch directory
	 * goes in there and is left to the caller */
	const char *kept = g_getenv("CHARGESIM_BENCH_SCRATCH");
	g_autofree char *scratch = kept ? g_build_filename(kept, "bench-output-XXXXXX", NULL)
					: g_dir_make_tmp("bench-output-XXXXXX", NULL);
	char shm[] = "/dev/shm/bench-output-XXXXXX";
	const char *fast = g_mkdtemp(shm) ? shm : scratch;
	g_autofree char *scenario_path = NULL;
	bool in_process = argc < 2 || strcmp(argv[1], "in-process") == 0;
	bool processes = argc < 2 || strcmp(argv[1], "processes") == 0;
	struct proc_fig fig[2];
	int status = 1;

	if (!scratch || (kept && !g_mkdtemp(scratch))) {
		fprintf(stderr, "bench_output: cannot make a scratch directory\n");
		return 1;
	}
	scenario_path = g_build_filename(fast, "full-charge.json", NULL);
	if (!g_file_set_contents(scenario_path, bench_full_charge_json, -1, NULL))
		goto out;
	if (in_process) {
		if (fast != scratch && !bench_in_process(fast, "tmpfs (/dev/shm)"))
			goto out;
		if (!bench_in_process(scratch, g_get_tmp_dir()))
			goto out;
		if (baseline_bench && *baseline_bench &&
		    !in_process_vs_baseline(fast, scratch, baseline_bench))
			goto out;
	}
	if (processes) {
		char *copies[2][PROC_COPIES] = { { NULL } };
		int nbins = baseline ? 2 : 1;
		bool copied = true;

		for (int k = 0; k < PROC_COPIES; k++) {
			g_autofree char *c = g_strdup_printf("chargesim-%d", k);
			g_autofree char *b = g_strdup_printf("baseline-%d", k);

			copies[0][k] = copy_binary(bin, fast, c);
			copies[1][k] = baseline ? copy_binary(baseline, fast, b) : NULL;
			copied = copied && copies[0][k] && (!baseline || copies[1][k]);
		}
		copied = copied && bench_processes(fast, scenario_path, copies, nbins, fig);
		for (int k = 0; k < PROC_COPIES; k++) {
			g_free(copies[0][k]);
			g_free(copies[1][k]);
		}
		if (!copied)
			goto out;
		printf("whole processes, outputs in %s, median of %d (spawn to exit; CPU = the "
		       "child's user + system):\n", fast == scratch ? g_get_tmp_dir() : "tmpfs",
		       PROC_REPS);
		print_proc("this build", bin, &fig[0]);
		if (baseline) {
			print_proc("baseline", baseline, &fig[1]);
			printf("  baseline / this build: --version %.2fx wall, %.2fx CPU; "
			       "run %.2fx wall, %.2fx CPU [target >= 1.5x]\n",
			       fig[1].ver_wall / fig[0].ver_wall, fig[1].ver_cpu / fig[0].ver_cpu,
			       fig[1].run_wall / fig[0].run_wall, fig[1].run_cpu / fig[0].run_cpu);
		}
	}
	status = 0;
out:
	if (fast != scratch)
		tu_rm_tree(fast);
	if (!kept)
		tu_rm_tree(scratch);
	return status;
}
