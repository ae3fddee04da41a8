// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_sweep.c - a 10,000-variant sweep of full charges with -j 1 and -j 2.
 *
 * The sweep is scenarios/sweeps/full-charge-10k.json: its base,
 * scenarios/sweeps/full-charge.json, charges a cell from 0 % to full on a 2.2 A DCP
 * (bq25890 switching charger, fixed 2 A input limit, 4 h simulated); the grid varies
 * the charge current, the cable length, the cell capacity and the system load, ten
 * values each. The sweep runs through cmd_sweep() exactly as `chargesim sweep ... -q`
 * does (thread pool, durable chunks, results.csv), once with -j 1 and once with -j 2,
 * each into a new temporary directory, and reports for each the wall time, the
 * variants per second and the CPU time of the process (all threads), then the
 * speed-up and whether the two results.csv files are byte-identical.
 *
 * Target: <= 30 s wall for -j 2 on a 2-core machine. The load average at the start is
 * printed: other processes on the machine take cores away and shrink the speed-up.
 * The program exits non-zero only when a sweep fails or the results differ, never
 * because a target is missed. Run from the repository root (`make bench` does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <glib.h>
#include "cli/cli.h"
#include "tests/testutil.h"

#define SWEEP_FILE "scenarios/sweeps/full-charge-10k.json"
#define TARGET_WALL_S 30.0

struct timing {
	double wall_s, cpu_s;
	int status;
};

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static struct timing run_sweep(const char *dir, int jobs)
{
	g_autofree char *j = g_strdup_printf("%d", jobs);
	char *argv[] = { "sweep", SWEEP_FILE, "-o", (char *)dir, "-j", j, "-q", NULL };
	struct timing t;
	gint64 w0 = g_get_monotonic_time();
	double c0 = cpu_now();

	t.status = cmd_sweep((int)G_N_ELEMENTS(argv) - 1, argv);
	t.wall_s = (double)(g_get_monotonic_time() - w0) * 1e-6;
	t.cpu_s = cpu_now() - c0;
	return t;
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

int main(void)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *tmp = NULL, *d1 = NULL, *d2 = NULL, *r1 = NULL, *r2 = NULL;
	g_autofree char *t1 = NULL, *t2 = NULL, *load = NULL;
	gsize l1 = 0, l2 = 0;
	struct timing a, b;
	long rows = 0, full = 0;
	bool same;

	if (!g_file_test(SWEEP_FILE, G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "bench_sweep: %s not found; run from the repository root\n", SWEEP_FILE);
		return 2;
	}
	tmp = tu_make_tmpdir("cs-bench-sweep-XXXXXX");
	if (!tmp)
		return 2;
	d1 = g_build_filename(tmp, "j1", NULL);
	d2 = g_build_filename(tmp, "j2", NULL);
	if (g_file_get_contents("/proc/loadavg", &load, NULL, NULL))
		load[strcspn(load, " ")] = '\0';

	a = run_sweep(d1, 1);
	b = run_sweep(d2, 2);
	if (a.status || b.status) {
		fprintf(stderr, "bench_sweep: the sweep failed (exit %d with -j 1, %d with -j 2)\n",
			a.status, b.status);
		tu_rm_tree(tmp);
		return 1;
	}
	r1 = g_build_filename(d1, "results.csv", NULL);
	r2 = g_build_filename(d2, "results.csv", NULL);
	if (!g_file_get_contents(r1, &t1, &l1, &err) || !g_file_get_contents(r2, &t2, &l2, &err)) {
		fprintf(stderr, "bench_sweep: %s\n", err->message);
		tu_rm_tree(tmp);
		return 1;
	}
	same = l1 == l2 && memcmp(t1, t2, l1) == 0;
	count_rows(t1, &rows, &full);

	printf("sweep %s: %ld variants, full charges of scenarios/sweeps/full-charge.json\n"
	       "  (0 %% -> full, 4 h simulated, charge current x cable x capacity x load); "
	       "%ld reached full\n", SWEEP_FILE, rows, full);
	printf("  -j 1: %6.2f s wall, %7.0f variants/s, CPU %.2f s\n", a.wall_s,
	       (double)rows / a.wall_s, a.cpu_s);
	printf("  -j 2: %6.2f s wall, %7.0f variants/s, CPU %.2f s (%.2f cores busy on average)\n",
	       b.wall_s, (double)rows / b.wall_s, b.cpu_s, b.cpu_s / b.wall_s);
	printf("  speed-up -j 1 -> -j 2: %.2f x on %u CPUs (load average before: %s)\n",
	       a.wall_s / b.wall_s, g_get_num_processors(), load ? load : "?");
	printf("  target: -j 2 <= %.0f s wall: %s; results.csv of -j 1 and -j 2 byte-identical: %s\n",
	       TARGET_WALL_S, b.wall_s <= TARGET_WALL_S ? "met" : "MISSED", same ? "yes" : "NO");
	tu_rm_tree(tmp);
	return same ? 0 : 1;
}
