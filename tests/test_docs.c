// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_docs.c - what docs/scenarios.md promises about the scenario keys, read
 * back from the file and held against the tables the loader reads.
 *
 * Section 14's reference tables give, per model, each key's accepted range: "0 s …
 * 3600 s", "> 0 A … 20 A" (">": the lower bound itself is refused). A newcomer who
 * wrote `"t_off": 0` because the table said "0 s …" got an error (issue 16), so every
 * numeric row is checked here: the key exists, its bounds are the parameter table's,
 * and ">" appears exactly where the table refuses its lower bound.
 */
#include <math.h>
#include <string.h>
#include <glib.h>
#include "models/model.h"
#include "sim/param.h"
#include "sim/units.h"
#include "tests/suites.h"
#include "tests/testutil.h"

/* The rows of the table under the heading that names `key` in section 14. */
static GPtrArray *table_rows(const char *doc, const char *key)
{
	g_autofree char *heading = g_strdup_printf("`%s`", key);
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) lines = g_strsplit(doc, "\n", -1);
	bool in14 = false, in = false;

	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (g_str_has_prefix(l, "## "))
			in14 = g_str_has_prefix(l, "## 14.");
		if (g_str_has_prefix(l, "### "))
			in = in14 && g_str_has_prefix(l, "### 14.") && strstr(l, heading) &&
			     strstr(l, heading)[strlen(heading)] != '.';
		else if (in && g_str_has_prefix(l, "| `"))
			g_ptr_array_add(rows, g_strdup(l));
	}
	return rows;
}

/* A bound as written ("3600 s", "0 A", "1") in the parameter's unit; false when it
 * does not parse. */
static bool bound(const struct param_desc *d, const char *text, double *out)
{
	g_autoptr(GError) err = NULL;
	sim_time_t t;

	if (d->kind == PARAM_TIME) {
		if (!units_parse_time(text, &t, &err))
			return false;
		*out = sim_time_to_s(t);
		return true;
	}
	if (d->kind == PARAM_INT) {
		char *end;

		*out = g_ascii_strtod(text, &end);
		return end != text && !*end;
	}
	return units_parse(text, d->dim, out, &err);
}

/* A key of a table, nested ones by their dotted path; the docs' CH (any ADC channel)
 * reads as vbus. */
static const struct param_desc *find_key(const struct param_desc *table, const char *key)
{
	g_auto(GStrv) parts = g_strsplit(key, ".", -1);
	const struct param_desc *d = NULL;

	for (int i = 0; parts[i]; i++) {
		d = param_find(table, strcmp(parts[i], "CH") == 0 ? "vbus" : parts[i]);
		if (!d)
			return NULL;
		table = d->sub;
	}
	return d;
}

/* One row: "| `key` | unit | range | default | meaning |". */
static void check_row(const struct model_desc *m, const char *row, int *checked)
{
	g_auto(GStrv) cell = g_strsplit(row, "|", -1);
	g_autofree char *key = NULL;
	g_auto(GStrv) ends = NULL;
	const struct param_desc *d;
	char *range, *semi;
	bool excl;
	double lo, hi;

	if (g_strv_length(cell) < 5)
		return;
	key = g_strdup(g_strstrip(cell[1]));
	if (strlen(key) < 3)
		return;
	memmove(key, key + 1, strlen(key) - 1);
	key[strlen(key) - 2] = '\0';   /* `key` -> key */
	d = find_key(m->params, key);
	if (!d) {
		fprintf(stderr, "\n  docs/scenarios.md 14: %s.%s is not a key\n", m->key, key);
		CU_FAIL("a documented key that the loader does not know");
		return;
	}
	if (d->kind != PARAM_NUM && d->kind != PARAM_TIME && d->kind != PARAM_INT)
		return;
	range = g_strstrip(cell[3]);
	if ((semi = strchr(range, ';')))
		*semi = '\0';   /* "; `null` = none" */
	excl = g_str_has_prefix(range, "> ");
	ends = g_strsplit(range + (excl ? 2 : 0), "\xe2\x80\xa6", 2);
	if (g_strv_length(ends) != 2)
		return;   /* "see below" */
	(*checked)++;
	if (excl != !!(d->flags & PARAM_F_MIN_EXCL) || !bound(d, g_strstrip(ends[0]), &lo) ||
	    !bound(d, g_strstrip(ends[1]), &hi) || fabs(lo - d->min) > 1e-9 * fmax(1, fabs(d->min)) ||
	    fabs(hi - d->max) > 1e-9 * fmax(1, fabs(d->max))) {
		fprintf(stderr, "\n  docs/scenarios.md 14: %s.%s reads \"%s\"; the loader takes %s%g .. %g\n",
			m->key, key, range, d->flags & PARAM_F_MIN_EXCL ? "> " : "", d->min, d->max);
		CU_FAIL("a documented range that is not the loader's");
	}
}

static void test_reference_ranges(void)
{
	g_autofree char *path = tu_repo_file("docs/scenarios.md");
	g_autofree char *doc = NULL;
	int checked = 0, tables = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &doc, NULL, NULL));
	for (int i = 0; model_registry[i]; i++) {
		const struct model_desc *m = model_registry[i];
		g_autoptr(GPtrArray) rows = NULL;

		if (!m->params)
			continue;
		rows = table_rows(doc, m->key);
		tables += rows->len > 0;
		for (guint k = 0; k < rows->len; k++)
			check_row(m, rows->pdata[k], &checked);
	}
	/* source, cable, pmic, battery, load, phy: dozens of numeric keys between them */
	CU_ASSERT(tables >= 6);
	CU_ASSERT(checked >= 60);
	if (checked < 60)
		fprintf(stderr, "\n  only %d ranges checked in %d tables\n", checked, tables);
}

/* The section numbers of a markdown file's headings ("## 12. Running", "### 12.1 ..."),
 * or NULL when it cannot be read. */
static GHashTable *sections(const char *rel)
{
	g_autofree char *path = tu_repo_file(rel);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GHashTable *set;

	if (!path || !g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];
		size_t n;

		if (l[0] != '#')
			continue;
		l += strspn(l, "#");
		l += strspn(l, " ");
		n = strspn(l, "0123456789.");
		while (n > 0 && l[n - 1] == '.')
			n--;
		if (n > 0)
			g_hash_table_add(set, g_strndup(l, n));
	}
	return set;
}

/* "section N" in docs/scenarios.md (its own sections) and "`docs/X.md` section N"
 * anywhere in the docs and READMEs point at a heading that exists. */
static void test_section_references(void)
{
	static const char *const files[] = {
		"README.md", "scenarios/README.md", "docs/architecture.md", "docs/diff.md",
		"docs/models.md", "docs/plots.md", "docs/policy-sdk.md", "docs/safe-ramp.md",
		"docs/scaling.md", "docs/scenarios.md", "docs/stack.md", NULL,
	};
	g_autoptr(GRegex) re = g_regex_new("(`(docs/[a-z-]+\\.md)`\\s+)?section\\s+([0-9]+(\\.[0-9]+)*)",
					   0, 0, NULL);
	int refs = 0;

	for (int f = 0; files[f]; f++) {
		g_autofree char *path = tu_repo_file(files[f]);
		g_autofree char *text = NULL;
		g_autoptr(GMatchInfo) mi = NULL;

		CU_ASSERT_PTR_NOT_NULL_FATAL(path);
		CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &text, NULL, NULL));
		for (g_regex_match(re, text, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
			g_autofree char *doc = g_match_info_fetch(mi, 2);
			g_autofree char *num = g_match_info_fetch(mi, 3);
			const char *target = doc && *doc ? doc : files[f];
			g_autoptr(GHashTable) set = NULL;

			/* a bare "section N" outside scenarios.md is a datasheet's */
			if ((!doc || !*doc) && strcmp(files[f], "docs/scenarios.md") != 0)
				continue;
			set = sections(target);
			refs++;
			if (!set || !g_hash_table_contains(set, num)) {
				fprintf(stderr, "\n  %s: \"section %s\" of %s: no such heading\n", files[f],
					num, target);
				CU_FAIL("a reference to a section that does not exist");
			}
		}
	}
	CU_ASSERT(refs >= 15);
}

CU_TestInfo docs_tests[] = {
	{ "scenarios.md section 14: each range is the loader's", test_reference_ranges },
	{ "section references point at headings", test_section_references },
	CU_TEST_INFO_NULL,
};
