/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/bench_common.h - what several benchmarks share: the median of repeated
 * measurements, process CPU time, a child process's wall and CPU time. Static
 * functions: include it from a benchmark's one source file.
 */
#ifndef CS_BENCH_COMMON_H
#define CS_BENCH_COMMON_H

#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <glib.h>

extern char **environ;

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0 .. n) (sorts v). */
static inline double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), bench_cmp_double);
	return v[n / 2];
}

/*
 * CPU time of this process in seconds. The machine may be shared: CPU time leaves out
 * the time the process waits for a core, which wall time would count, and still
 * counts every stall on memory.
 */
static inline double bench_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double bench_wall_s(void)
{
	return (double)g_get_monotonic_time() * 1e-6;
}

/*
 * Spawn argv (argv[0] a path), wait; the wall time from spawn to exit and the child's
 * CPU time (user + system, from wait4) in seconds. stdout and stderr go to /dev/null.
 * False, with a message naming the benchmark `who`, when it cannot be spawned, is
 * killed by a signal or exits with a status above max_status.
 */
static inline bool bench_spawn_timed(const char *who, char *const argv[], int max_status,
				     double *wall, double *cpu)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	pid_t pid;
	int status = 0, rc;
	double w0 = bench_wall_s();

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fprintf(stderr, "%s: cannot run %s: %s\n", who, argv[0], g_strerror(rc));
		return false;
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > max_status) {
		fprintf(stderr, "%s: %s %s failed\n", who, argv[0], argv[1]);
		return false;
	}
	*wall = bench_wall_s() - w0;
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	return true;
}

#endif
