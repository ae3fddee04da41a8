// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_merge.c - libFuzzer harness for the shard checks of `chargesim merge`
 * (run/sweep_merge.c: sweep_shard_reader_*()), which read results.csv files that come
 * back from other machines and so are untrusted.
 *
 * One sweep file is loaded at start-up (SWEEP_TEXT below: 8 variants on the base
 * "101" = scenarios/ports/sdp.json, with a policy object whose compact JSON holds
 * commas and quotes, so its cells are quoted, and a random range), from a memory file
 * as in fuzz_sweep.c; no variant is run.
 *
 * Input: its first byte picks the shard (N = 1 + b % 4, I = (b / 4) % N); the rest is
 * the shard's results.csv, read through fmemopen() (no file is written). The reader
 * checks the header, then the rows of variants I, I+N, ..., then the end, with the
 * input's own SHA-256 as the manifest's results_sha256 (so that a valid shard passes
 * and the row checks are what the fuzzer explores), and once more with a wrong one.
 *
 * Contracts (a break aborts: libFuzzer saves the input):
 *  - a refused shard sets a CS_SCENARIO_ERROR whose message starts with the file name
 *    and holds no control character (cells from the file are escaped in messages);
 *  - an accepted shard: the header and the rows given back are the input's bytes, in
 *    order and whole, each row ends with its newline and holds no NUL byte; and the
 *    same bytes with another checksum are refused.
 * Seeds (fuzz/corpus/merge/): shards 0/1, 1/2 and 2/4 of SWEEP_TEXT as chargesim wrote
 * them, and tampered copies of them.
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

#define SWEEP_TEXT \
	"{\"base\": \"101\", \"seed\": 5,\n" \
	" \"vary\": {\"duration\": [\"2 s\"], \"source.ilim\": [\"0.5 A\", \"1.5 A\"],\n" \
	"          \"policy\": [\"fixed\", {\"name\": \"fixed\", \"params\": {\"dcp\": \"1 A\"}}]},\n" \
	" \"random\": {\"n\": 2, \"seed\": 3, \"ranges\": {\"cable.length\": [\"0.3 m\", \"2 m\"]}}}\n"
#define NAME "fuzz-shard/results.csv"

static struct sweep *sw;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *src = getenv("CHARGESIM_FUZZ_SRCDIR");
	g_autofree char *base = NULL;
	char path[64];
	GError *err = NULL;
	int fd, mfd;

	(void)argc;
	(void)argv;
	fuzz_init();
	if (!src || !*src)
		src = FUZZ_SRCDIR;
	base = g_build_filename(src, "scenarios/ports/sdp.json", NULL);
	fd = open(base, O_RDONLY | O_CLOEXEC);
	mfd = memfd_create("fuzz-merge-sweep.json", MFD_CLOEXEC);
	if (fd < 0 || dup2(fd, 101) < 0 || mfd < 0 ||
	    write(mfd, SWEEP_TEXT, strlen(SWEEP_TEXT)) != (ssize_t)strlen(SWEEP_TEXT)) {
		fprintf(stderr, "fuzz_merge: cannot set up %s (set CHARGESIM_FUZZ_SRCDIR): %s\n", base,
			g_strerror(errno));
		exit(2);
	}
	close(fd);
	g_snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	sw = sweep_load(path, &err);
	if (!sw) {
		fprintf(stderr, "fuzz_merge: the harness's sweep file: %s\n", err->message);
		exit(2);
	}
	close(mfd);
	return 0;
}

static void check_error(GError *err)
{
	FUZZ_CHECK(err != NULL, "a shard refused without an error");
	FUZZ_CHECK(err->domain == CS_SCENARIO_ERROR, "error domain %s: %s",
		   g_quark_to_string(err->domain), err->message);
	FUZZ_CHECK(g_str_has_prefix(err->message, NAME ": "), "message without the file: %s",
		   err->message);
	for (const char *c = err->message; *c; c++)
		FUZZ_CHECK((unsigned char)*c >= 0x20 && *c != 0x7f, "control character 0x%02x in: %s",
			   (unsigned char)*c, err->message);
	if (fuzz_verbose)
		fprintf(stderr, "refused: %s\n", err->message);
	g_error_free(err);
}

/* Read the shard of text: true when every check passed; *got the bytes given back. */
static bool read_shard(const struct sweep_shard *sh, const char *text, size_t len,
		       const char *sha256, GString *got)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	struct sweep_shard_reader *r;
	GError *err = NULL;
	bool ok;

	FUZZ_CHECK(fp != NULL, "fmemopen: %s", g_strerror(errno));
	r = sweep_shard_reader_new(sw, fp, NAME);
	ok = sweep_shard_reader_header(r, &err);
	if (ok) {
		const char *nl = memchr(text, '\n', len);

		/* the header is the sweep's own line: what comes before the first row */
		g_string_append_len(got, text, nl ? nl - text + 1 : (gssize)len);
	}
	for (guint64 i = sh->index; ok && i < sw->total; i += sh->count) {
		const char *row;
		gsize n;

		ok = sweep_shard_reader_next(r, i, &row, &n, &err);
		if (ok) {
			FUZZ_CHECK(n > 0 && row[n - 1] == '\n' && !memchr(row, '\0', n),
				   "variant %llu: a row without its newline or with a NUL byte",
				   (unsigned long long)i);
			g_string_append_len(got, row, (gssize)n);
		}
	}
	ok = ok && sweep_shard_reader_end(r, sha256, &err);
	if (!ok)
		check_error(err);
	sweep_shard_reader_free(r);
	fclose(fp);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweep_shard sh;
	g_autofree char *sha = NULL;
	g_autoptr(GString) got = g_string_new(NULL);
	const char *text = (const char *)data + 1;
	size_t len;

	if (size < 1)
		return 0;
	len = size - 1;
	sh.count = 1 + data[0] % 4;
	sh.index = (data[0] / 4) % sh.count;
	sha = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	if (!read_shard(&sh, text, len, sha, got))
		return 0;
	if (fuzz_verbose)
		fprintf(stderr, "accepted: shard %llu/%llu\n", (unsigned long long)sh.index,
			(unsigned long long)sh.count);
	FUZZ_CHECK(got->len == len && memcmp(got->str, text, len) == 0,
		   "accepted, but the header and rows given back are not the input (%zu of %zu bytes)",
		   got->len, len);
	g_string_truncate(got, 0);
	sha[0] = sha[0] == '0' ? '1' : '0';
	FUZZ_CHECK(!read_shard(&sh, text, len, sha, got), "accepted with a wrong results_sha256");
	return 0;
}
