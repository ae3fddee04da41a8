/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/bench_common.h - what several benchmarks share: the median of repeated
 * measurements, process CPU time, and the full-charge scenario (a 3000 mAh cell from
 * 0 % to full on a 2 A DCP through a good cable, fixed 2 A policy, 3 h simulated;
 * bench/bench_run.c times the same run). Static functions: include it from a
 * benchmark's one source file.
 */
#ifndef CS_BENCH_COMMON_H
#define CS_BENCH_COMMON_H

#include <stdlib.h>
#include <time.h>

static const char bench_full_charge_json[] =
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

#endif
