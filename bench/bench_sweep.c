// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_sweep.c - a 10,000-variant sweep of full charges: variants per CPU-second
 * with -j 1 and -j 2, and against another build.
 *
 * The sweep is scenarios/sweeps/full-charge-10k.json: its base,
 * scenarios/sweeps/full-charge.json, charges a cell from 0 % to full on a 2.2 A DCP
 * (bq25890 switching charger, fixed 2 A input limit, 4 h simulated); the grid varies
 * the charge current, the cable length, the cell capacity and the system load, ten
 * values each.
 *
 * 1. In process: the sweep through cmd_sweep() exactly as `chargesim sweep ... -q`
 *    does (thread pool, durable chunks, results.csv), REPS rounds of -j 1 then -j 2,
 *    each run into a new directory. Medians of the wall time and of the process CPU
 *    time (all threads): variants per CPU-second (what a sweep costs, whatever else
 *    runs on the machine: CPU time leaves out waiting for a core) and per wall-second,
 *    the speed-up, and whether every results.csv is byte-identical. Target: -j 2
 *    <= 30 s wall on a 2-core machine.
 * 2. With CHARGESIM_BASELINE=/path/to/another/chargesim (`make bench` sets it, see the
 *    Makefile): `chargesim sweep ... -j 1 -q` of this build (build/chargesim beside
 *    this program's directory) and of the baseline as whole processes, alternately,
 *    PROC_REPS times each, so that both see the same machine load. The median CPU time
 *    of each (the child's user + system), variants per CPU-second, their ratio, and
 *    whether the two builds' results.csv are byte-identical.
 *
 * The load average is printed before and after. Scratch directories are on tmpfs
 * (/dev/shm) when there is one. Run from the repository root (`make bench` does).
 * Exits non-zero only when a sweep fails or results differ, never because a target or
 * ratio is missed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "cli/cli.h"
#include "tests/testutil.h"
#include "bench/bench_common.h"

#define SWEEP_FILE "scenarios/sweeps/full-charge-10k.json"
#define TARGET_WALL_S 30.0
#define REPS 5        /* in-process rounds of -j 1 and -j 2 (about 3 s each) */
#define PROC_REPS 7   /* whole-process runs of each build */

static char *load_average(void)
{
	char *load = NULL;

	if (g_file_get_contents("/proc/loadavg", &load, NULL, NULL))
		load[strcspn(load, " ")] = '\0';
	else
		load = g_strdup("?");
	return load;
}

static char *read_results(const char *dir, gsize *len)
{
	g_autofree char *path = g_build_filename(dir, "results.csv", NULL);
	g_autoptr(GError) err = NULL;
	char *text = NULL;

	if (!g_file_get_contents(path, &text, len, &err))
		fprintf(stderr, "bench_sweep: %s\n", err->message);
	return text;
}

/* Rows and rows with a time_to_full_s (no quoted cells in this sweep). */
static void count_rows(const char *text, long *rows, long *full)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
	int col = -1;

	*rows = *full = 0;
	for (int i = 0; head[i]; i++)
		if (strcmp(head[i], "time_to_full_s") == 0)
			col = i;
	for (int l = 1; lines[l] && lines[l][0]; l++) {
		g_auto(GStrv) cells = g_strsplit(lines[l], ",", -1);

		(*rows)++;
		if (col >= 0 && (int)g_strv_length(cells) > col && cells[col][0])
			(*full)++;
	}
}

/* results.csv of dir against ref (len bytes); dir's text kept in *first when NULL. */
static bool same_results(const char *dir, char **first, gsize *first_len)
{
	gsize len = 0;
	g_autofree char *text = read_results(dir, &len);

	if (!text)
		return false;
	if (!*first) {
		*first = g_steal_pointer(&text);
		*first_len = len;
		return true;
	}
	return len == *first_len && memcmp(text, *first, len) == 0;
}

/* ---- 1. in process ---- */

struct in_fig {
	double wall[REPS], cpu[REPS];
};

static bool run_in_process(const char *dir, int jobs, double *wall, double *cpu)
{
	g_autofree char *j = g_strdup_printf("%d", jobs);
	char *argv[] = { "sweep", SWEEP_FILE, "-o", (char *)dir, "-j", j, "-q", NULL };
	double w0 = bench_wall_s(), c0 = bench_cpu_s();
	int status = cmd_sweep((int)G_N_ELEMENTS(argv) - 1, argv);

	*wall = bench_wall_s() - w0;
	*cpu = bench_cpu_s() - c0;
	if (status != 0)
		fprintf(stderr, "bench_sweep: the sweep failed with -j %d (exit %d)\n", jobs, status);
	return status == 0;
}

/* REPS rounds of -j 1 and -j 2; *same: every results.csv as the first. */
static bool bench_in_process(const char *scratch, struct in_fig fig[2], char **results,
			     gsize *len, bool *same)
{
	*same = true;
	for (int i = 0; i < REPS; i++)
		for (int k = 0; k < 2; k++) {
			g_autofree char *dir = g_strdup_printf("%s/in-j%d-%d", scratch, k + 1, i);

			if (!run_in_process(dir, k + 1, &fig[k].wall[i], &fig[k].cpu[i]))
				return false;
			*same &= same_results(dir, results, len);
			tu_rm_tree(dir);
		}
	return true;
}

/* ---- 2. this build against a baseline, as processes ---- */

static bool bench_processes(const char *scratch, char *bins[2], double cpu[2][PROC_REPS],
			    bool *same)
{
	g_autofree char *ref = NULL;
	gsize ref_len = 0;

	*same = true;
	for (int i = 0; i < PROC_REPS; i++)
		for (int b = 0; b < 2; b++) {
			g_autofree char *dir = g_strdup_printf("%s/proc-%d-%d", scratch, b, i);
			char *argv[] = { bins[b], "sweep", SWEEP_FILE, "-o", dir, "-j", "1", "-q",
					 NULL };
			double wall;

			if (!bench_spawn_timed("bench_sweep", argv, &wall, &cpu[b][i]))
				return false;
			*same &= same_results(dir, &ref, &ref_len);
			tu_rm_tree(dir);
		}
	return true;
}

int main(int argc, char **argv)
{
	g_autofree char *self_dir = g_path_get_dirname(argv[0]);
	g_autofree char *bin = g_build_filename(self_dir, "..", "chargesim", NULL);
	const char *baseline = g_getenv("CHARGESIM_BASELINE");
	g_autofree char *results = NULL, *load0 = NULL, *load1 = NULL, *scratch = NULL;
	char shm[] = "/dev/shm/cs-bench-sweep-XXXXXX";
	struct in_fig fig[2];
	double proc_cpu[2][PROC_REPS];
	gsize len = 0;
	long rows = 0, full = 0;
	bool same_in = false, same_proc = true;
	int status = 1;

	(void)argc;
	if (!g_file_test(SWEEP_FILE, G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "bench_sweep: %s not found; run from the repository root\n", SWEEP_FILE);
		return 2;
	}
	scratch = g_mkdtemp(shm) ? g_strdup(shm) : tu_make_tmpdir("cs-bench-sweep-XXXXXX");
	if (!scratch)
		return 2;
	load0 = load_average();

	if (!bench_in_process(scratch, fig, &results, &len, &same_in))
		goto out;
	count_rows(results, &rows, &full);
	{
		double w1 = bench_median(fig[0].wall, REPS), c1 = bench_median(fig[0].cpu, REPS);
		double w2 = bench_median(fig[1].wall, REPS), c2 = bench_median(fig[1].cpu, REPS);

		printf("sweep %s: %ld variants, full charges of scenarios/sweeps/full-charge.json\n"
		       "  (0 %% -> full, 4 h simulated, charge current x cable x capacity x load); "
		       "%ld reached full\n", SWEEP_FILE, rows, full);
		printf("in process, median of %d rounds of -j 1 and -j 2:\n", REPS);
		printf("  -j 1: %6.2f s wall, CPU %.2f s: %7.0f variants per CPU-second, %7.0f per wall-second\n",
		       w1, c1, (double)rows / c1, (double)rows / w1);
		printf("  -j 2: %6.2f s wall, CPU %.2f s: %7.0f variants per CPU-second, %7.0f per wall-second"
		       " (%.2f cores busy on average)\n", w2, c2, (double)rows / c2, (double)rows / w2,
		       c2 / w2);
		printf("  speed-up -j 1 -> -j 2: %.2f x wall on %u CPUs\n", w1 / w2,
		       g_get_num_processors());
		printf("  target: -j 2 <= %.0f s wall: %s; every results.csv byte-identical: %s\n",
		       TARGET_WALL_S, w2 <= TARGET_WALL_S ? "met" : "MISSED", same_in ? "yes" : "NO");
	}
	fflush(stdout);

	if (baseline) {
		char *bins[2] = { bin, (char *)baseline };
		double c_this, c_base;

		if (!bench_processes(scratch, bins, proc_cpu, &same_proc))
			goto out;
		c_this = bench_median(proc_cpu[0], PROC_REPS);
		c_base = bench_median(proc_cpu[1], PROC_REPS);
		printf("whole processes, sweep -j 1, alternately, median of %d each:\n", PROC_REPS);
		printf("  this build (%s): CPU %.2f s, %7.0f variants per CPU-second\n", bin, c_this,
		       (double)rows / c_this);
		printf("  baseline (%s): CPU %.2f s, %7.0f variants per CPU-second\n", baseline, c_base,
		       (double)rows / c_base);
		printf("  this build / baseline: %.2f x the variants per CPU-second; "
		       "results.csv byte-identical: %s\n", c_base / c_this, same_proc ? "yes" : "NO");
	} else {
		printf("(no baseline: CHARGESIM_BASELINE=/path/to/another/chargesim compares this build with it)\n");
	}
	load1 = load_average();
	printf("load average (1 min): %s before, %s after\n", load0, load1);
	status = same_in && same_proc ? 0 : 1;
out:
	tu_rm_tree(scratch);
	return status;
}
