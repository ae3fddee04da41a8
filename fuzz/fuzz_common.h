/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz/fuzz_common.h - what every libFuzzer harness of chargesim shares.
 *
 * - fuzz_init(): G_SLICE=always-malloc (so AddressSanitizer and LeakSanitizer see every
 *   GLib allocation: GError and friends still go through g_slice in GLib 2.74), the C
 *   locale for numbers, and stdin on /dev/null (nothing a harness runs may read it).
 * - FUZZ_CHECK(): a documented contract broken by an input that parsed: print what and
 *   abort, so libFuzzer saves the input as a crash.
 * - g_module_open() is replaced for the whole harness binary: a fuzzed scenario can name
 *   any shared object as policy.plugin, and world_new() would dlopen() it (running its
 *   constructors). Here every plugin "fails to load", which still exercises the error
 *   path of stack/policies/loader.c. A definition in the executable takes precedence over
 *   libgmodule's for every caller linked into it, libchargesim.a included.
 *
 * - CHARGESIM_FUZZ_VERBOSE=1: the harnesses print what each input came to (loaded, the
 *   error message, ...) on stderr, for triage and for checking the seeds; off when fuzzing.
 *
 * Include this from exactly one .c file per harness binary (it defines functions).
 */
#ifndef CS_FUZZ_COMMON_H
#define CS_FUZZ_COMMON_H

#include <fcntl.h>
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <gmodule.h>

#define FUZZ_CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz contract broken at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

/* libFuzzer's entry points, defined by each harness */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_verbose;

static inline void fuzz_init(void)
{
	int fd;

	fuzz_verbose = g_strcmp0(getenv("CHARGESIM_FUZZ_VERBOSE"), "1") == 0;
	setenv("G_SLICE", "always-malloc", 1);
	setlocale(LC_ALL, "C");
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
}

/* A harness whose start-up is fuzz_init() alone defines FUZZ_PLAIN_INIT before
 * including this file. */
#ifdef FUZZ_PLAIN_INIT
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}
#endif

/* A NUL-terminated copy of the fuzzer's bytes (the caller g_free()s it). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = g_malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

GModule *g_module_open(const gchar *file_name, GModuleFlags flags);
GModule *g_module_open(const gchar *file_name, GModuleFlags flags)
{
	(void)file_name;
	(void)flags;
	return NULL;
}

#endif
