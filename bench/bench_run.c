// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/bench_run.c - whole runs: wall time of a full charge, and peak memory of a long
 * idle run against a short one.
 *
 * 1. A 3000 mAh cell from 0 % to full on a 2 A DCP through a good cable (1 m, AWG 20),
 *    switching charger, fixed 2 A policy, 3 h simulated. Timed per run: run_scenario()
 *    (world_new to world_free; the scenario is loaded once, outside the timing),
 *    the median over ADAPTIVE_REPS runs after one warm-up:
 *      - adaptive steps, default trace decimation (every step and event), outputs to
 *        a temporary directory;
 *      - the same, each run into a new sub-directory: replacing files by rename costs
 *        extra on some file systems (ext4 starts writeback on a rename over a file);
 *      - the same without output files (outdir NULL), so the cost of writing shows;
 *      - fixed 1 ms steps (world_options.max_step, the brute-force check) and no
 *        trace.csv, FIXED_REPS runs without a warm-up (each takes seconds); printed
 *        with the ratio to the adaptive run.
 * 2. Peak RSS of a 1 h and a 30 day idle-on-charger run (battery full, 50 mA load,
 *    safe-ramp checking VBUS every second), trace_dt = 60 s, outputs to a temporary
 *    directory. Each run is a forked child; the child reports its VmRSS before the run
 *    and its VmHWM after it through a pipe, and the parent also reads the child's
 *    ru_maxrss from wait4(). A run that streams its outputs has the same peak for
 *    both durations.
 *
 * Targets are printed beside the numbers; the program exits non-zero only when a run
 * fails, never because a target is missed.
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
#include "bench/bench_common.h"
#include "run/run.h"
#include "tests/testutil.h"

#define ADAPTIVE_REPS 9
#define FIXED_REPS 3
#define TARGET_WALL_MS 10.0
#define TARGET_STEPS 5000

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

struct bench_result {
	double wall_s;
	uint64_t steps, events, trace_rows;
	double soc_final;
	double time_to_full_s;
};

static struct scenario *load(const char *name, const char *text)
{
	g_autoptr(GError) err = NULL;
	struct scenario *sc = scenario_load_text(name, text, strlen(text), NULL, &err);

	if (!sc)
		fprintf(stderr, "bench_run: %s\n", err->message);
	return sc;
}

/* One run (run_scenario: world_new to world_free), timed. */
static bool run_once(const struct scenario *sc, const struct world_options *opt,
		     struct bench_result *r)
{
	struct run_options ro = { .world = *opt };
	struct run_result res;
	gint64 t0 = g_get_monotonic_time();

	if (run_scenario(sc, &ro, &res) != 0) {
		fprintf(stderr, "bench_run: %s: %s\n", sc->name, res.error->message);
		run_result_clear(&res);
		return false;
	}
	r->steps = (uint64_t)world_metric(&res.metrics, "steps");
	r->events = (uint64_t)world_metric(&res.metrics, "events");
	r->trace_rows = (uint64_t)world_metric(&res.metrics, "trace_rows");
	r->soc_final = world_metric(&res.metrics, "soc_final");
	r->time_to_full_s = world_metric(&res.metrics, "time_to_full_s");
	run_result_clear(&res);
	r->wall_s = (double)(g_get_monotonic_time() - t0) * 1e-6;
	return true;
}

/*
 * warmup + reps runs; *r gets the last run's counts and the median wall time. With
 * fresh_dirs, each run writes into a new sub-directory of opt->outdir instead of
 * replacing the previous run's files.
 */
static bool run_median(const struct scenario *sc, const struct world_options *opt, int warmup,
		       int reps, bool fresh_dirs, struct bench_result *r)
{
	double walls[ADAPTIVE_REPS > FIXED_REPS ? ADAPTIVE_REPS : FIXED_REPS];
	struct world_options o = *opt;

	g_assert(reps <= (int)G_N_ELEMENTS(walls));
	for (int i = 0; i < warmup + reps; i++) {
		g_autofree char *dir = NULL;

		if (fresh_dirs && opt->outdir) {
			dir = g_strdup_printf("%s/fresh-%d", opt->outdir, i);
			o.outdir = dir;
		}
		if (!run_once(sc, &o, r))
			return false;
		if (i >= warmup)
			walls[i - warmup] = r->wall_s;
	}
	r->wall_s = bench_median(walls, reps);
	return true;
}

static bool bench_full_charge(const char *tmpdir)
{
	g_autoptr(scenario) sc = load("bench-full-charge", bench_full_charge_json);
	struct world_options opt = { 0 };
	struct bench_result ad, fresh, noout, fixed;
	double sim_s;

	if (!sc)
		return false;
	sim_s = sim_time_to_s(sc->duration);

	opt.outdir = tmpdir;
	if (!run_median(sc, &opt, 1, ADAPTIVE_REPS, false, &ad))
		return false;
	printf("full charge 3000 mAh 0 -> 100 %% / 2 A DCP, %.0f h simulated, adaptive, "
	       "trace of every step and event to a temp dir (each run replaces the files): "
	       "median %.2f ms wall (%d runs), %llu steps, %llu events, %llu trace rows, %.3g x real time "
	       "[target <= %.0f ms, <= %d steps]\n",
	       sim_s / 3600, ad.wall_s * 1e3, ADAPTIVE_REPS, (unsigned long long)ad.steps,
	       (unsigned long long)ad.events, (unsigned long long)ad.trace_rows,
	       sim_s / ad.wall_s, TARGET_WALL_MS, TARGET_STEPS);
	printf("  (SOC final %.1f %%, full at %.1f min)\n", ad.soc_final * 100,
	       ad.time_to_full_s / 60);
	fflush(stdout);

	if (!run_median(sc, &opt, 1, ADAPTIVE_REPS, true, &fresh))
		return false;
	printf("full charge, adaptive, the same outputs into a new directory per run (no file "
	       "replaced): median %.2f ms wall (%d runs), %.3g x real time\n",
	       fresh.wall_s * 1e3, ADAPTIVE_REPS, sim_s / fresh.wall_s);
	fflush(stdout);

	opt.outdir = NULL;
	if (!run_median(sc, &opt, 1, ADAPTIVE_REPS, false, &noout))
		return false;
	printf("full charge, adaptive, no output files (outdir NULL): median %.2f ms wall "
	       "(%d runs), %llu steps, %.3g x real time; writing outputs costs %.2f ms (%.0f %%)\n",
	       noout.wall_s * 1e3, ADAPTIVE_REPS, (unsigned long long)noout.steps,
	       sim_s / noout.wall_s, (ad.wall_s - noout.wall_s) * 1e3,
	       100 * (ad.wall_s - noout.wall_s) / ad.wall_s);
	fflush(stdout);

	opt.outdir = tmpdir;
	opt.no_trace = true;
	opt.max_step = SIM_MS;
	if (!run_median(sc, &opt, 0, FIXED_REPS, false, &fixed))
		return false;
	printf("full charge, fixed 1 ms steps (max_step), no trace.csv (no_trace): median "
	       "%.0f ms wall (%d runs, no warm-up), %llu steps, %llu events, %.3g x real time; "
	       "adaptive is %.0f x faster with %.0f x fewer steps\n",
	       fixed.wall_s * 1e3, FIXED_REPS, (unsigned long long)fixed.steps,
	       (unsigned long long)fixed.events, sim_s / fixed.wall_s, fixed.wall_s / ad.wall_s,
	       ad.steps ? (double)fixed.steps / (double)ad.steps : 0.0);
	printf("  (SOC final %.1f %%, full at %.1f min; adaptive: %.1f %%, %.1f min)\n",
	       fixed.soc_final * 100, fixed.time_to_full_s / 60, ad.soc_final * 100,
	       ad.time_to_full_s / 60);
	fflush(stdout);
	return true;
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
	struct world_options opt = { 0 };
	struct rss_result res = { 0 };
	struct bench_result r = { 0 };
	bool ok;

	opt.outdir = outdir;
	opt.trace_dt = 60 * SIM_S;
	res.start_kib = proc_status_kib("VmRSS");
	ok = run_once(sc, &opt, &r);
	res.hwm_kib = proc_status_kib("VmHWM");
	res.wall_s = r.wall_s;
	res.steps = r.steps;
	res.trace_rows = r.trace_rows;
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
	ok = bench_full_charge(tmpdir);
	ok = ok && bench_rss(tmpdir);
	tu_rm_tree(tmpdir);
	g_free(tmpdir);
	return ok ? 0 : 1;
}
