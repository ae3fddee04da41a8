// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_run.c - peak memory of a long idle run against a short one: a run streams
 * its outputs, so a 30-day run must need no more memory than a 1-hour one.
 *
 * Peak RSS of a 1 h and a 30 day idle-on-charger run (battery full, 50 mA load,
 * safe-ramp checking VBUS every second), trace_dt = 60 s, outputs to a temporary
 * directory. Each run is a forked child; the child reports its VmRSS before the run
 * and its VmHWM after it through a pipe, and the parent also reads the child's
 * ru_maxrss from wait4(). The target is printed beside the numbers; the program exits
 * non-zero only when a run fails, never because a target is missed. (What a run costs
 * in time is measured as whole processes by bench/bench_builds.c.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include "run/run.h"
#include "tests/testutil.h"

/* %s: the duration. */
static const char idle_json_fmt[] =
	"{\n"
	"  \"name\": \"bench-idle\",\n"
	"  \"seed\": 1,\n"
	"  \"duration\": \"%s\",\n"
	"  \"source\": { \"kind\": \"dcp\", \"ilim\": \"2.2 A\" },\n"
	"  \"cable\": { \"length\": \"1 m\", \"awg\": 20 },\n"
	"  \"device\": {\n"
	"    \"pmic\": { \"preset\": \"bq25890\", \"vreg\": \"4.35 V\", \"ichg\": \"2 A\","
	" \"iterm\": \"150 mA\" },\n"
	"    \"battery\": { \"preset\": \"eb425161lu\", \"capacity\": \"3000 mAh\","
	" \"soc\": \"100 %%\" },\n"
	"    \"load\": { \"current\": \"50 mA\" }\n"
	"  },\n"
	"  \"policy\": { \"name\": \"safe-ramp\", \"params\": { \"stable_interval\": \"1 s\" } }\n"
	"}\n";

static struct scenario *load(const char *name, const char *text)
{
	g_autoptr(GError) err = NULL;
	struct scenario *sc = scenario_load_text(name, text, strlen(text), NULL, &err);

	if (!sc)
		fprintf(stderr, "bench_run: %s\n", err->message);
	return sc;
}

/* A "Name:   1234 kB" line of /proc/self/status, in KiB; -1 if missing. */
static long proc_status_kib(const char *key)
{
	g_autofree char *text = NULL;
	size_t klen = strlen(key);

	if (!g_file_get_contents("/proc/self/status", &text, NULL, NULL))
		return -1;
	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (strncmp(line, key, klen) == 0 && line[klen] == ':')
			return strtol(line + klen + 1, NULL, 10);
	}
	return -1;
}

struct rss_result {
	long start_kib;   /* child's VmRSS before the run */
	long hwm_kib;     /* child's VmHWM after the run */
	long maxrss_kib;  /* ru_maxrss from wait4() */
	double wall_s;
	uint64_t steps;
	uint64_t trace_rows;
};

/* Child: run, report through fd, _exit(0) or _exit(1). */
G_GNUC_NORETURN static void rss_child(const struct scenario *sc, const char *outdir, int fd)
{
	struct run_options ro = { .world.outdir = outdir, .world.trace_dt = 60 * SIM_S };
	struct rss_result res = { 0 };
	struct run_result r;
	gint64 t0 = g_get_monotonic_time();
	bool ok;

	res.start_kib = proc_status_kib("VmRSS");
	ok = run_scenario(sc, &ro, &r) == 0;
	res.hwm_kib = proc_status_kib("VmHWM");
	res.wall_s = (double)(g_get_monotonic_time() - t0) * 1e-6;
	if (ok) {
		res.steps = (uint64_t)world_metric(&r.metrics, "steps");
		res.trace_rows = (uint64_t)world_metric(&r.metrics, "trace_rows");
	} else {
		fprintf(stderr, "bench_run: %s: %s\n", sc->name, r.error->message);
	}
	run_result_clear(&r);
	fflush(stderr);
	if (ok && write(fd, &res, sizeof(res)) != (ssize_t)sizeof(res))
		ok = false;
	close(fd);
	_exit(ok ? 0 : 1);
}

static bool rss_run(const char *duration, const char *outdir, struct rss_result *res)
{
	g_autofree char *text = g_strdup_printf(idle_json_fmt, duration);
	g_autoptr(scenario) sc = load("bench-idle", text);
	struct rusage ru;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (!sc)
		return false;
	if (pipe(fds) != 0) {
		fprintf(stderr, "bench_run: pipe: %s\n", g_strerror(errno));
		return false;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "bench_run: fork: %s\n", g_strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		rss_child(sc, outdir, fds[1]);
	}
	close(fds[1]);
	do
		n = read(fds[0], res, sizeof(*res));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "bench_run: wait4: %s\n", g_strerror(errno));
			return false;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || n != (ssize_t)sizeof(*res)) {
		fprintf(stderr, "bench_run: idle run of %s failed in the child (status %d)\n",
			duration, status);
		return false;
	}
	res->maxrss_kib = ru.ru_maxrss;
	return true;
}

static bool bench_rss(const char *tmpdir)
{
	static const struct { const char *duration, *label; } runs[] = {
		{ "1 h", "1 h" }, { "720 h", "30 days" },
	};
	struct rss_result res[G_N_ELEMENTS(runs)];

	for (size_t i = 0; i < G_N_ELEMENTS(runs); i++) {
		if (!rss_run(runs[i].duration, tmpdir, &res[i]))
			return false;
		printf("idle on charger %s (full 3000 mAh cell, 50 mA load, safe-ramp, "
		       "trace_dt 60 s, outputs to a temp dir), forked child: peak RSS %ld KiB "
		       "(VmHWM; %ld KiB at start; ru_maxrss %ld KiB), %.0f ms wall, %llu steps, "
		       "%llu trace rows\n",
		       runs[i].label, res[i].hwm_kib, res[i].start_kib, res[i].maxrss_kib,
		       res[i].wall_s * 1e3, (unsigned long long)res[i].steps,
		       (unsigned long long)res[i].trace_rows);
		fflush(stdout);
	}
	printf("peak RSS 30 days / 1 h: %.3f (VmHWM), %.3f (ru_maxrss); growth %+ld KiB "
	       "[target: about 1, outputs are streamed]\n",
	       (double)res[1].hwm_kib / (double)res[0].hwm_kib,
	       (double)res[1].maxrss_kib / (double)res[0].maxrss_kib,
	       res[1].hwm_kib - res[0].hwm_kib);
	return true;
}

int main(void)
{
	char *tmpdir = tu_make_tmpdir("bench_run-XXXXXX");
	bool ok;

	if (!tmpdir)
		return 1;
	ok = bench_rss(tmpdir);
	tu_rm_tree(tmpdir);
	g_free(tmpdir);
	return ok ? 0 : 1;
}
