// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_builds.c - this build against a baseline build on the four workloads the
 * project's speed rule names, each as whole processes:
 *
 *   check -j 1, -j 2  `chargesim check LIB -j N -o DIR -q`: CI checking the library
 *   sweep 1k -j 2     `chargesim sweep LIB/sweeps/full-charge-1k.json -o DIR -j 2 -q`:
 *                     1,000 full charges
 *   regret --n 40     `bench/bench_regret --n 40`: the regret benchmark on 40 setups (the
 *                     default 200 take half a minute each), each build's own program
 *   full charge       `chargesim run LIB/sweeps/full-charge.json -o DIR --vcd -q`
 *
 * Both builds run the same inputs, ones the baseline understands: LIB is the scenario
 * library as it stood at the revision INPUTS (`git archive INPUTS scenarios`, normally
 * the baseline's own revision) in a scratch directory, with two changes: of two
 * scenarios of one name only the first in sorted order is kept (`check` refuses the
 * second since issue 38, so this build would run one scenario fewer), and this tree's
 * sweeps/full-charge-1k.json is added (a cut of full-charge-10k.json over the library's
 * own sweeps/full-charge.json). A scenario whose expectations fail still ran (the
 * builds differ in behaviour since b52e5c8): `check` may exit 1; any other failure, a
 * signal or an internal error stops the benchmark.
 *
 * Before each workload both builds' programs are dropped from the page cache, so that
 * both are read back from the disk alike (page_cache_drop()). Each workload runs its
 * rounds with the two builds alternately, the baseline first in
 * every other round, so that both see the same machine load; every run writes into a
 * new directory (DIR), on tmpfs when there is one. One table: the median wall time from
 * spawn to exit and the median CPU time (the child's user + system, which leaves out
 * the time a process waits for a core on a busy machine) of each build, and the ratio
 * baseline / this build (above 1: this build is faster).
 *
 * Usage: bench_builds BASELINE_BUILD_DIR INPUTS [ROUNDS_SCALE]   (from the repository root)
 * A build directory holds chargesim and bench/bench_regret; this build's is the one
 * above this program's. A program missing from the baseline's directory leaves its
 * column n/a. ROUNDS_SCALE (default 1) multiplies every workload's rounds; the
 * environment's BENCH_ONLY=PREFIX runs only the workloads whose name starts with it.
 * Exits non-zero when a run fails, never on a figure.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cJSON.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "tests/testutil.h"
#include "bench/bench_common.h"

#define MAX_ROUNDS 201

static const struct workload {
	const char *name;
	const char *prog;       /* in a build directory */
	const char *args[10];   /* "DIR": a new output directory; "LIB...": in the library */
	int rounds;
	int max_status;         /* the highest exit status of a run that worked */
} workloads[] = {
	{ "check scenarios/ -j 1", "chargesim",
	  { "check", "LIB", "-j", "1", "-o", "DIR", "-q" }, 7, 1 },
	{ "check scenarios/ -j 2", "chargesim",
	  { "check", "LIB", "-j", "2", "-o", "DIR", "-q" }, 7, 1 },
	{ "sweep 1,000 variants -j 2", "chargesim",
	  { "sweep", "LIB/sweeps/full-charge-1k.json", "-o", "DIR", "-j", "2", "-q" }, 5, 0 },
	{ "bench_regret --n 40", "bench/bench_regret", { "--n", "40" }, 3, 0 },
	{ "full charge, run --vcd", "chargesim",
	  { "run", "LIB/sweeps/full-charge.json", "-o", "DIR", "--vcd", "-q" }, 201, 0 },
};

/* Every *.json under dir, recursively, into files. */
static void list_json(const char *dir, GPtrArray *files)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR))
			list_json(path, files);
		if (g_str_has_suffix(name, ".json") && !g_file_test(path, G_FILE_TEST_IS_DIR))
			g_ptr_array_add(files, path);
		else
			g_free(path);
	}
}

/* A scenario's name as `check` knows it: its "name", else its file name less .json. */
static char *scenario_name(const char *path)
{
	g_autofree char *text = NULL;
	cJSON *doc, *name;
	char *out;

	g_file_get_contents(path, &text, NULL, NULL);
	doc = text ? cJSON_Parse(text) : NULL;
	name = cJSON_GetObjectItemCaseSensitive(doc, "name");
	if (cJSON_IsString(name)) {
		out = g_strdup(name->valuestring);
	} else {
		out = g_path_get_basename(path);
		out[strlen(out) - strlen(".json")] = '\0';
	}
	cJSON_Delete(doc);
	return out;
}

static int cmp_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The inputs (see the top of the file) in lib, a new directory: false, said, on failure. */
static bool make_library(const char *rev, const char *lib)
{
	g_autofree char *dir = g_path_get_dirname(lib), *sweep = NULL;
	g_autofree char *text = NULL;
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							     NULL);
	const char *argv[] = { "sh", "-c", "git archive \"$0\" scenarios | tar -x -C \"$1\"",
			       rev, dir, NULL };
	gsize len = 0;
	int status = 1;

	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
			  NULL, &status, NULL) || !g_spawn_check_wait_status(status, NULL) ||
	    !g_file_test(lib, G_FILE_TEST_IS_DIR)) {
		fprintf(stderr, "bench_builds: cannot export scenarios/ of %s\n", rev);
		return false;
	}
	list_json(lib, files);
	g_ptr_array_sort(files, cmp_paths);
	for (guint i = 0; i < files->len; i++)
		if (!g_hash_table_add(names, scenario_name(files->pdata[i])))
			g_unlink(files->pdata[i]);
	sweep = g_build_filename(lib, "sweeps", "full-charge-1k.json", NULL);
	if (!g_file_get_contents("scenarios/sweeps/full-charge-1k.json", &text, &len, NULL) ||
	    !g_file_set_contents(sweep, text, (gssize)len, NULL)) {
		fprintf(stderr, "bench_builds: cannot write %s\n", sweep);
		return false;
	}
	return true;
}

/* One run of w by the program prog, its outputs into scratch/run. */
static bool run_one(const struct workload *w, const char *prog, const char *scratch,
		    const char *lib, double *wall, double *cpu)
{
	g_autofree char *dir = g_build_filename(scratch, "run", NULL);
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	bool ok;

	g_ptr_array_add(argv, g_strdup(prog));
	for (size_t i = 0; w->args[i]; i++) {
		const char *a = w->args[i];

		g_ptr_array_add(argv, strcmp(a, "DIR") == 0 ? g_strdup(dir) :
				g_str_has_prefix(a, "LIB") ? g_strconcat(lib, a + 3, NULL) :
				g_strdup(a));
	}
	g_ptr_array_add(argv, NULL);
	ok = bench_spawn_timed("bench_builds", (char *const *)argv->pdata, w->max_status,
			       wall, cpu);
	tu_rm_tree(dir);
	return ok;
}

/*
 * Drop a program's pages from the page cache (written to the disk first), so that both
 * builds' programs are read back from the disk alike: a binary the linker has just
 * written can take a few more page faults a run than the same bytes read back, which
 * put one binary at 0.93-0.94x of a copy of itself on the full charge. Best effort: a
 * file that cannot be opened is left as it is.
 */
static void page_cache_drop(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	(void)fsync(fd);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
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
			   const char *scratch, const char *lib)
{
	double fig[2][2][MAX_ROUNDS] = { { { 0 } } };   /* [build][wall, cpu][round] */
	g_autofree char *prog0 = g_build_filename(dirs[0], w->prog, NULL);
	g_autofree char *prog1 = g_build_filename(dirs[1], w->prog, NULL);
	const char *progs[2] = { prog0, prog1 };
	int rounds = MIN(w->rounds * scale, MAX_ROUNDS);
	bool have[2];

	for (int b = 0; b < 2; b++) {
		have[b] = g_file_test(progs[b], G_FILE_TEST_IS_EXECUTABLE);
		page_cache_drop(progs[b]);
	}
	for (int r = 0; r < rounds; r++)
		for (int turn = 0; turn < 2; turn++) {
			int b = (r + turn) % 2;

			if (have[b] && !run_one(w, progs[b], scratch, lib, &fig[b][0][r],
						&fig[b][1][r]))
				return false;
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
	printf("\n");
	fflush(stdout);
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
	g_autofree char *load0 = load_average(), *load1 = NULL, *scratch = NULL, *lib = NULL;
	char *dirs[2];
	char shm[] = "/dev/shm/cs-bench-builds-XXXXXX";
	const char *only = g_getenv("BENCH_ONLY");
	int scale = argc > 3 ? atoi(argv[3]) : 1;
	bool ok;

	if (argc < 3 || scale < 1) {
		fprintf(stderr, "usage: bench_builds BASELINE_BUILD_DIR INPUTS [ROUNDS_SCALE]\n");
		return 2;
	}
	if (!g_file_test("scenarios/sweeps/full-charge-1k.json", G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "bench_builds: run from the repository root\n");
		return 2;
	}
	scratch = g_mkdtemp(shm) ? g_strdup(shm) : tu_make_tmpdir("cs-bench-builds-XXXXXX");
	if (!scratch)
		return 2;
	lib = g_build_filename(scratch, "scenarios", NULL);
	ok = make_library(argv[2], lib);
	dirs[0] = argv[1];
	dirs[1] = here;
	printf("baseline: %s; this build: %s; inputs: scenarios/ of %s; %u CPUs; medians of "
	       "the rounds, ms (CPU: user + system)\n", dirs[0], dirs[1], argv[2],
	       g_get_num_processors());
	printf("%-26s %4s  %21s  %21s  %13s\n", "workload", "runs", "baseline wall / CPU",
	       "this build wall / CPU", "ratio wall CPU");
	for (size_t i = 0; i < G_N_ELEMENTS(workloads) && ok; i++)
		if (!only || g_str_has_prefix(workloads[i].name, only))
			ok = bench_workload(&workloads[i], dirs, scale, scratch, lib);
	load1 = load_average();
	printf("load average (1 min): %s before, %s after\n", load0, load1);
	tu_rm_tree(scratch);
	return ok ? 0 : 1;
}
