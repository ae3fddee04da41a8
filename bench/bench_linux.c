// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_linux.c - a real Linux driver against its port, same run.
 *
 * For each pair the same scenario runs with the port and with the real driver compiled
 * from the kernel tree (docs/linux-drivers.md): wall time from world_new to world_free,
 * outputs written to a temporary directory, the median of REPS runs after one warm-up
 * each. The driver pays for what the port does not do: register accesses through the
 * chip model, interrupts, uevents read back through the driver. Target: the driver's
 * run within TARGET_RATIO of the port's. Without real drivers in the build it says so
 * and exits 0; it exits non-zero only when a run fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <chargesim/linux_module.h>
#include "run/scenario.h"
#include "run/world.h"
#include "tests/testutil.h"

#define REPS 15
#define TARGET_RATIO 2.0

struct pair {
	const char *scenario;
	const char *port;
	const char *driver;
};

static const struct pair pairs[] = {
	{ "scenarios/bugzoo/twl4030-full-battery.json", "twl4030", "linux/twl4030_charger" },
	{ "scenarios/linux/bq25890-ico-weak-adapter.json", "hw-ico", "linux/bq25890_charger" },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median wall time (s) of REPS runs of sc under policy; < 0 when a run fails. */
static double median_run(const struct scenario *sc, const char *policy, const char *dir,
			 uint64_t *events)
{
	double walls[REPS];

	for (int i = 0; i <= REPS; i++) {
		g_autoptr(GError) err = NULL;
		struct world_options opt = { .outdir = dir, .policy = policy };
		gint64 t0 = g_get_monotonic_time();
		struct world *w = world_new(sc, &opt, &err);

		if (!w || !world_run(w, &err) || !world_finish(w, &err)) {
			fprintf(stderr, "bench_linux: %s under %s: %s\n", sc->name, policy,
				err ? err->message : "?");
			world_free(w);
			return -1;
		}
		*events = (uint64_t)world_metric(world_metrics(w), "events");
		world_free(w);
		if (i > 0)
			walls[i - 1] = (double)(g_get_monotonic_time() - t0) * 1e-6;
	}
	qsort(walls, REPS, sizeof(walls[0]), cmp_double);
	return walls[REPS / 2];
}

int main(void)
{
	g_autofree char *tmp = NULL;
	int rc = 0;

	if (!cs_linux_modules[0]) {
		printf("bench_linux: skipped - this build has no real Linux drivers "
		       "(linux-source-6.12 is not installed and no KERNEL_SRC was given)\n");
		return 0;
	}
	tmp = tu_make_tmpdir("cs-bench-linux-XXXXXX");
	if (!tmp)
		return 1;
	for (size_t i = 0; i < G_N_ELEMENTS(pairs) && rc == 0; i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(scenario) sc = scenario_load(pairs[i].scenario, NULL, &err);
		uint64_t ev_port = 0, ev_drv = 0;
		double port, drv;

		if (!sc) {
			fprintf(stderr, "bench_linux: %s\n", err->message);
			rc = 1;
			break;
		}
		port = median_run(sc, pairs[i].port, tmp, &ev_port);
		drv = median_run(sc, pairs[i].driver, tmp, &ev_drv);
		if (port < 0 || drv < 0) {
			rc = 1;
			break;
		}
		printf("%s: port %s median %.2f ms (%llu events), driver %s median %.2f ms "
		       "(%llu events), ratio %.2f [target <= %.1f] (%d runs each)\n",
		       pairs[i].scenario, pairs[i].port, port * 1e3, (unsigned long long)ev_port,
		       pairs[i].driver, drv * 1e3, (unsigned long long)ev_drv, drv / port,
		       TARGET_RATIO, REPS);
		fflush(stdout);
	}
	tu_rm_tree(tmp);
	return rc;
}
