/*
 * tests/testutil.h - running a scenario from a test and reading its outputs back.
 *
 * tu_run() loads scenario JSON text, runs it with outputs in a fresh temporary
 * directory and parses events.jsonl and metrics.json back (independently of the code
 * that wrote them: plain cJSON per line). tu_done() removes the directory.
 */
#ifndef CS_TESTS_TESTUTIL_H
#define CS_TESTS_TESTUTIL_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>

struct tu_run {
	bool ok;
	char *dir;
	GPtrArray *ev;       /* cJSON * per events.jsonl line */
	cJSON *metrics;
};

bool tu_run(struct tu_run *r, const char *json);
void tu_done(struct tu_run *r);
/* Metric value (number) or NAN when absent or null. */
double tu_metric(const struct tu_run *r, const char *name);
/* The i-th record (0-based) with this src/ev whose string field key equals value
 * (key NULL: any); NULL when there is none. */
const cJSON *tu_event(const struct tu_run *r, const char *ev, const char *key,
		      const char *value, int i);
double tu_event_time(const cJSON *rec);
int tu_count(const struct tu_run *r, const char *ev);
/* Removes a directory tree (links are removed, not followed). */
void tu_rm_tree(const char *path);
/* A fresh directory from a g_dir_make_tmp() template; NULL (and a message on stderr)
 * when it cannot be made. The caller frees the name. */
char *tu_make_tmpdir(const char *tmpl);

#endif
