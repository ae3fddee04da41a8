// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_builds.c - this build against a baseline build on the four workloads the
 * project's speed rule names, each as whole processes:
 *
 *   check -j 1, -j 2  `chargesim check scenarios/ -j N -o DIR -q`: CI checking the library
 *   sweep 1k -j 2     `chargesim sweep scenarios/sweeps/full-charge-1k.json -o DIR -j 2 -q`:
 *                     1,000 full charges; the two builds' results.csv must be the same
 *   regret --n 40     `bench/bench_regret --n 40`: the regret benchmark on 40 setups (the
 *                     default 200 take half a minute each), each build's own program
 *   full charge       `chargesim run scenarios/sweeps/full-charge.json -o DIR --vcd -q`
 *
 * Each workload runs its rounds with the two builds alternately, the baseline first in
 * every other round, so that both see the same machine load; every run writes into a
 * new directory (DIR), on tmpfs when there is one. One table: the median wall time from
 * spawn to exit and the median CPU time (the child's user + system, which leaves out
 * the time a process waits for a core on a busy machine) of each build, and the ratio
 * baseline / this build (above 1: this build is faster).
 *
 * Usage: bench_builds BASELINE_BUILD_DIR [ROUNDS_SCALE]   (run from the repository root)
 * A build directory holds chargesim and bench/bench_regret; this build's is the one
 * above this program's. A program missing from the baseline's directory leaves its
 * column n/a. ROUNDS_SCALE (default 1) multiplies every workload's rounds.
 * Exits non-zero when a run fails or the sweep's results differ, never on a figure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "tests/testutil.h"
#include "bench/bench_common.h"

#define MAX_ROUNDS 201

static const struct workload {
	const char *name;
	const char *prog;       /* in a build directory */
	const char *args[10];   /* "DIR": a new output directory for the run */
	int rounds;
	bool results;           /* the two builds' DIR/results.csv must be the same */
} workloads[] = {
	{ "check scenarios/ -j 1", "chargesim",
	  { "check", "scenarios/", "-j", "1", "-o", "DIR", "-q" }, 7, false },
	{ "check scenarios/ -j 2", "chargesim",
	  { "check", "scenarios/", "-j", "2", "-o", "DIR", "-q" }, 7, false },
	{ "sweep 1,000 variants -j 2", "chargesim",
	  { "sweep", "scenarios/sweeps/full-charge-1k.json", "-o", "DIR", "-j", "2", "-q" }, 5,
	  true },
	{ "bench_regret --n 40", "bench/bench_regret", { "--n", "40" }, 3, false },
	{ "full charge, run --vcd", "chargesim",
	  { "run", "scenarios/sweeps/full-charge.json", "-o", "DIR", "--vcd", "-q" }, 201, false },
};

/* The results.csv of dir, or NULL (said on stderr). */
static char *results(const char *dir, gsize *len)
{
	g_autofree char *path = g_build_filename(dir, "results.csv", NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, len, NULL))
		fprintf(stderr, "bench_builds: cannot read %s\n", path);
	return text;
}

/* One run of w by the program prog, into scratch/run; false when it fails or, for a
 * sweep, writes other results than *ref (the first run's, kept there). */
static bool run_one(const struct workload *w, const char *prog, const char *scratch,
		    double *wall, double *cpu, char **ref, gsize *ref_len, bool *same)
{
	g_autofree char *dir = g_build_filename(scratch, "run", NULL);
	char *argv[G_N_ELEMENTS(w->args) + 2] = { (char *)prog };
	bool ok;

	for (size_t i = 0; w->args[i]; i++)
		argv[i + 1] = strcmp(w->args[i], "DIR") == 0 ? dir : (char *)w->args[i];
	ok = bench_spawn_timed("bench_builds", argv, wall, cpu);
	if (ok && w->results) {
		gsize len = 0;
		g_autofree char *text = results(dir, &len);

		ok = text != NULL;
		if (ok && !*ref) {
			*ref = g_steal_pointer(&text);
			*ref_len = len;
		} else if (ok) {
			*same &= len == *ref_len && memcmp(text, *ref, len) == 0;
		}
	}
	tu_rm_tree(dir);
	return ok;
}

/* Prints a time in ms, or n/a when the build did not run. */
static void print_fig(double wall, double cpu, bool have)
{
	if (have)
		printf("  %10.2f %10.2f", wall * 1e3, cpu * 1e3);
	else
		printf("  %10s %10s", "n/a", "n/a");
}

static bool bench_workload(const struct workload *w, char *const dirs[2], int scale,
			   const char *scratch, bool *same)
{
	double fig[2][2][MAX_ROUNDS] = { { { 0 } } };   /* [build][wall, cpu][round] */
	char *progs[2];
	g_autofree char *ref = NULL;
	gsize ref_len = 0;
	int rounds = MIN(w->rounds * scale, MAX_ROUNDS);
	bool have[2];

	for (int b = 0; b < 2; b++) {
		progs[b] = g_build_filename(dirs[b], w->prog, NULL);
		have[b] = g_file_test(progs[b], G_FILE_TEST_IS_EXECUTABLE);
	}
	for (int r = 0; r < rounds; r++)
		for (int turn = 0; turn < 2; turn++) {
			int b = (r + turn) % 2;

			if (have[b] && !run_one(w, progs[b], scratch, &fig[b][0][r], &fig[b][1][r],
						&ref, &ref_len, same)) {
				g_free(progs[0]);
				g_free(progs[1]);
				return false;
			}
		}
	printf("%-26s %4d", w->name, rounds);
	for (int b = 0; b < 2; b++) {
		if (have[b]) {
			fig[b][0][0] = bench_median(fig[b][0], rounds);
			fig[b][1][0] = bench_median(fig[b][1], rounds);
		}
		print_fig(fig[b][0][0], fig[b][1][0], have[b]);
	}
	if (have[0] && have[1])
		printf("  %5.2fx %5.2fx", fig[0][0][0] / fig[1][0][0], fig[0][1][0] / fig[1][1][0]);
	if (w->results && have[0])
		printf("  results.csv %s", *same ? "identical" : "DIFFER");
	printf("\n");
	fflush(stdout);
	g_free(progs[0]);
	g_free(progs[1]);
	return true;
}

static char *load_average(void)
{
	char *load = NULL;

	if (g_file_get_contents("/proc/loadavg", &load, NULL, NULL))
		load[strcspn(load, " ")] = '\0';
	else
		load = g_strdup("?");
	return load;
}

int main(int argc, char **argv)
{
	g_autofree char *self = g_path_get_dirname(argv[0]);
	g_autofree char *here = g_path_get_dirname(self);
	g_autofree char *load0 = load_average(), *load1 = NULL, *scratch = NULL;
	char *dirs[2];
	char shm[] = "/dev/shm/cs-bench-builds-XXXXXX";
	int scale = argc > 2 ? atoi(argv[2]) : 1;
	bool ok = true, same = true;

	if (argc < 2 || scale < 1) {
		fprintf(stderr, "usage: bench_builds BASELINE_BUILD_DIR [ROUNDS_SCALE]\n");
		return 2;
	}
	if (!g_file_test("scenarios/sweeps/full-charge-1k.json", G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "bench_builds: run from the repository root\n");
		return 2;
	}
	scratch = g_mkdtemp(shm) ? g_strdup(shm) : tu_make_tmpdir("cs-bench-builds-XXXXXX");
	if (!scratch)
		return 2;
	dirs[0] = argv[1];
	dirs[1] = here;
	printf("baseline: %s; this build: %s; %u CPUs; medians of the rounds, ms "
	       "(CPU: user + system)\n", dirs[0], dirs[1], g_get_num_processors());
	printf("%-26s %4s  %21s  %21s  %13s\n", "workload", "runs", "baseline wall / CPU",
	       "this build wall / CPU", "ratio wall CPU");
	for (size_t i = 0; i < G_N_ELEMENTS(workloads) && ok; i++)
		ok = bench_workload(&workloads[i], dirs, scale, scratch, &same);
	load1 = load_average();
	printf("load average (1 min): %s before, %s after\n", load0, load1);
	tu_rm_tree(scratch);
	return ok && same ? 0 : 1;
}
