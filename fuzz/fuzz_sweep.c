// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_sweep.c - libFuzzer harness for the sweep file loader (run/sweep.c).
 *
 * sweep_load() takes a path, not a text, and resolves "base" against the sweep file's
 * directory. So that the harness never writes a file:
 *  - the input bytes go into an anonymous memory file (memfd_create) and are loaded as
 *    /proc/self/fd/<n>; the sweep's directory is therefore /proc/self/fd;
 *  - four base scenarios of the source tree are opened read-only at start-up and moved
 *    to fixed descriptors, so a relative "base" of "100" .. "103" names them:
 *        "100"  scenarios/bugzoo/twl4030-full-battery.json  (base of scenarios/sweeps/)
 *        "101"  scenarios/ports/sdp.json                    (10 s, small)
 *        "102"  scenarios/demo.json
 *        "103"  scenarios/ec/ec-fast-switch.json            (events)
 *    The corpus seeds use these names. Any other base is tried as written (a missing
 *    file, a directory, /dev/zero ...): sweep_load() only reads.
 * The source tree is FUZZ_SRCDIR (set by the Makefile to its directory), or
 * $CHARGESIM_FUZZ_SRCDIR.
 *
 * Per input: sweep_load(); on failure a CS_SCENARIO_ERROR must be set. On success: the
 * results.csv header, the assignments of the first, a middle and the last variant, and
 * the manifest of shard 0/1 and of the last shard of 3; no variant is run (a variant is
 * a whole simulation of the base scenario; the scenario harness covers runs). The input
 * is also given to sweep_parse_shard() ("I/N") when it is short.
 *
 * policy.plugin values are never dlopen()ed: g_module_open() is stubbed in
 * fuzz/fuzz_common.h (sweep_load() builds a world for every value it tries).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include "fuzz/fuzz_common.h"
#include "run/sweep.h"
#include "run/scenario.h"

#ifndef FUZZ_SRCDIR
#define FUZZ_SRCDIR "."
#endif

static const char *const bases[] = {
	"scenarios/bugzoo/twl4030-full-battery.json",
	"scenarios/ports/sdp.json",
	"scenarios/demo.json",
	"scenarios/ec/ec-fast-switch.json",
};
#define BASE_FD0 100

static int sweep_fd = -1;
static char sweep_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *src = getenv("CHARGESIM_FUZZ_SRCDIR");

	(void)argc;
	(void)argv;
	fuzz_init();
	if (!src || !*src)
		src = FUZZ_SRCDIR;
	for (size_t i = 0; i < G_N_ELEMENTS(bases); i++) {
		g_autofree char *path = g_build_filename(src, bases[i], NULL);
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || dup2(fd, BASE_FD0 + (int)i) < 0) {
			fprintf(stderr, "fuzz_sweep: cannot open %s (set CHARGESIM_FUZZ_SRCDIR): %s\n", path,
				g_strerror(errno));
			exit(2);
		}
		close(fd);
	}
	sweep_fd = memfd_create("fuzz-sweep.json", MFD_CLOEXEC);
	if (sweep_fd < 0) {
		perror("fuzz_sweep: memfd_create");
		exit(2);
	}
	g_snprintf(sweep_path, sizeof(sweep_path), "/proc/self/fd/%d", sweep_fd);
	return 0;
}

static void set_input(const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (ftruncate(sweep_fd, 0) != 0) {
		perror("fuzz_sweep: ftruncate");
		abort();
	}
	while (off < size) {
		ssize_t n = pwrite(sweep_fd, data + off, size - off, (off_t)off);

		if (n <= 0) {
			perror("fuzz_sweep: pwrite");
			abort();
		}
		off += (size_t)n;
	}
}

static void variant(const struct sweep *sw, guint64 index)
{
	char **sets = sweep_variant_sets(sw, index);

	FUZZ_CHECK(sets && sets[0] && g_str_has_prefix(sets[0], "seed="), "variant %llu: no seed first",
		   (unsigned long long)index);
	for (int i = 0; sets[i]; i++)
		FUZZ_CHECK(strchr(sets[i], '=') != NULL, "variant %llu: \"%s\"", (unsigned long long)index,
			   sets[i]);
	g_strfreev(sets);
}

static void shard(const char *text)
{
	struct sweep_shard sh;
	GError *err = NULL;

	if (sweep_parse_shard(text, &sh, &err)) {
		FUZZ_CHECK(err == NULL && sh.count > 0 && sh.index < sh.count, "shard \"%s\": %llu/%llu", text,
			   (unsigned long long)sh.index, (unsigned long long)sh.count);
		(void)sweep_shard_size(sh.index + 1000, &sh);
	} else {
		FUZZ_CHECK(err != NULL, "shard \"%s\" failed without an error", text);
		g_error_free(err);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct sweep *sw;

	if (size <= 64) {
		g_autofree char *text = fuzz_strndup(data, size);

		shard(text);
	}
	set_input(data, size);
	sw = sweep_load(sweep_path, &err);
	if (!sw) {
		FUZZ_CHECK(err != NULL, "sweep_load failed without an error");
		FUZZ_CHECK(err->domain == CS_SCENARIO_ERROR, "error domain %s: %s",
			   g_quark_to_string(err->domain), err->message);
		if (fuzz_verbose)
			fprintf(stderr, "sweep_load: %s\n", err->message);
		g_error_free(err);
		return 0;
	}
	FUZZ_CHECK(err == NULL, "sweep loaded with an error set");
	if (fuzz_verbose)
		fprintf(stderr, "sweep_load: %llu variants\n", (unsigned long long)sw->total);
	FUZZ_CHECK(sw->total >= 1 && sw->total <= SWEEP_MAX_VARIANTS, "total %llu",
		   (unsigned long long)sw->total);
	g_free(sweep_csv_header(sw));
	variant(sw, 0);
	variant(sw, sw->total / 2);
	variant(sw, sw->total - 1);
	{
		struct sweep_shard all = { 0, 1 }, last = { 2, 3 };
		cJSON *m = sweep_manifest(sw, &all, true);

		cJSON_Delete(m);
		m = sweep_manifest(sw, &last, false);
		cJSON_Delete(m);
	}
	sweep_free(sw);
	return 0;
}
