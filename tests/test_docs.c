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
#include <cJSON.h>
#include <chargesim/policy.h>
#include "models/model.h"
#include "run/scenario.h"
#include "run/schema.h"
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

/* The rows of the reference tables (header "| key | unit / type | accepted range |
 * default | meaning |") under the heading that names `key` in section 14; the tables of
 * per-kind or per-preset values that follow some are left out. */
static GPtrArray *reference_rows(const char *doc, const char *key)
{
	g_autofree char *heading = g_strdup_printf("`%s`", key);
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) lines = g_strsplit(doc, "\n", -1);
	bool in14 = false, in = false, ref = false;

	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (g_str_has_prefix(l, "## "))
			in14 = g_str_has_prefix(l, "## 14.");
		if (g_str_has_prefix(l, "### "))
			in = in14 && g_str_has_prefix(l, "### 14.") && strstr(l, heading) &&
			     strstr(l, heading)[strlen(heading)] != '.';
		else if (g_str_has_prefix(l, "| key |"))
			ref = g_str_has_prefix(l, "| key | unit / type | accepted range | default | meaning |");
		else if (in && ref && g_str_has_prefix(l, "| `"))
			g_ptr_array_add(rows, g_strdup(l));
	}
	return rows;
}

/* The default of a row's key ("adc.CH.lsb" read as adc.vbus.lsb) as `list` prints it,
 * from the defaults of the model's default preset; NULL when the key is not a leaf. */
static char *default_text(const struct model_desc *m, const void *params, const char *key,
			  const struct param_desc **out)
{
	g_auto(GStrv) parts = g_strsplit(key, ".", -1);
	const struct param_desc *table = m->params, *d = NULL;
	const char *base = params;

	for (int i = 0; parts[i]; i++) {
		d = param_find(table, strcmp(parts[i], "CH") == 0 ? "vbus" : parts[i]);
		if (!d)
			return NULL;
		if (parts[i + 1]) {
			if (d->kind != PARAM_OBJECT)
				return NULL;
			base += d->off;
		}
		table = d->sub;
	}
	*out = d;
	return d->kind == PARAM_OBJECT || d->kind == PARAM_CUSTOM ? NULL :
	       param_format_value(d, base);
}

/*
 * Section 14 says its tables "were generated from the parameter tables": each row's
 * default is what `chargesim list` prints for the default kind or preset, its meaning
 * the table's help line, and every key of a model has its row. (A default changed in
 * a table without the doc used to pass unnoticed.)
 */
static void test_reference_defaults(void)
{
	g_autofree char *path = tu_repo_file("docs/scenarios.md");
	g_autofree char *doc = NULL;
	int checked = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &doc, NULL, NULL));
	for (int i = 0; i < scenario_n_objects(); i++) {
		const struct model_desc *m = scenario_object(i);
		g_autoptr(GPtrArray) rows = NULL;
		g_autofree void *p = NULL;
		g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		int preset = 0;

		if (!m->params)
			continue;
		rows = reference_rows(doc, m->key);
		if (rows->len == 0)
			continue;
		if (m->preset_key) {
			const struct param_desc *pd = param_find(m->params, m->preset_key);

			for (int k = 0; pd->choices[k]; k++)
				if (strcmp(pd->choices[k], m->default_preset) == 0)
					preset = k;
		}
		p = g_malloc0(m->params_size);
		m->defaults(p, preset);
		for (guint r = 0; r < rows->len; r++) {
			g_auto(GStrv) cell = g_strsplit(rows->pdata[r], "|", -1);
			guint n = g_strv_length(cell);
			const struct param_desc *d = NULL;
			g_autofree char *key = NULL, *want = NULL, *meaning = NULL;
			const char *got;

			if (n < 7)
				continue;
			/* the help line may hold a "|" ("current"|"power") */
			g_free(cell[n - 1]);
			cell[n - 1] = NULL;
			meaning = g_strjoinv("|", cell + 5);
			g_strstrip(meaning);
			{   /* markdown writes a | in a cell as \| */
				g_auto(GStrv) bits = g_strsplit(meaning, "\\|", -1);

				g_free(meaning);
				meaning = g_strjoinv("|", bits);
			}
			g_strstrip(cell[1]);
			key = g_strndup(cell[1] + 1, strlen(cell[1]) - 2);   /* `k` -> k */
			g_hash_table_add(seen, g_strndup(key, strcspn(key, ".")));
			want = default_text(m, p, key, &d);
			got = g_strstrip(cell[4]);
			if (!d)
				continue;   /* not a key: test_reference_ranges says so */
			checked++;
			/* an object's row summarises its keys in the doc's own words */
			if ((want && strcmp(want, got) != 0) ||
			    (d->doc && d->kind != PARAM_OBJECT && strcmp(d->doc, meaning) != 0)) {
				fprintf(stderr, "\n  docs/scenarios.md 14: %s.%s reads default \"%s\", \"%s\"; the table has \"%s\", \"%s\"\n",
					m->key, key, got, meaning, want ? want : "(see below)", d->doc);
				CU_FAIL("a documented default or help line that is not the table's");
			}
		}
		for (const struct param_desc *d = m->params; d->key; d++)
			if (!g_hash_table_contains(seen, d->key)) {
				fprintf(stderr, "\n  docs/scenarios.md 14: no row for %s.%s\n", m->key, d->key);
				CU_FAIL("a key of the tables without its reference row");
			}
		param_free_strings(m->params, p);
	}
	CU_ASSERT(checked >= 80);
}

/* The lines under the heading that names `key` in section 14 (NULL-terminated). */
static GPtrArray *section14_lines(const char *doc, const char *key)
{
	g_autofree char *heading = g_strdup_printf("`%s`", key);
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) lines = g_strsplit(doc, "\n", -1);
	bool in14 = false, in = false;

	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (g_str_has_prefix(l, "## "))
			in14 = g_str_has_prefix(l, "## 14.");
		if (g_str_has_prefix(l, "### "))
			in = in14 && g_str_has_prefix(l, "### 14.") && strstr(l, heading) &&
			     strstr(l, heading)[strlen(heading)] != '.';
		else if (in)
			g_ptr_array_add(out, g_strdup(l));
	}
	return out;
}

/* One preset table: header "| key | `a` | `b` | ...", each row's cells the defaults of
 * those presets; *covered collects the keys with a row. */
static void check_preset_table(const struct model_desc *m, GPtrArray *lines, guint *i,
			       GHashTable *covered, int *checked)
{
	g_auto(GStrv) head = g_strsplit(lines->pdata[*i], "|", -1);
	const struct param_desc *pd = param_find(m->params, m->preset_key);
	guint ncol = g_strv_length(head) - 3;   /* "", " key ", columns..., "" */
	g_autofree int *col = g_new0(int, ncol);

	for (guint c = 0; c < ncol; c++) {
		char *name = g_strstrip(head[c + 2]);

		col[c] = -1;
		for (int k = 0; pd->choices[k]; k++)
			if (strlen(name) > 2 && strncmp(name + 1, pd->choices[k], strlen(name) - 2) == 0 &&
			    strlen(pd->choices[k]) == strlen(name) - 2)
				col[c] = k;
		CU_ASSERT(col[c] >= 0);
	}
	for ((*i) += 2; *i < lines->len && g_str_has_prefix(lines->pdata[*i], "| `"); (*i)++) {
		g_auto(GStrv) cell = g_strsplit(lines->pdata[*i], "|", -1);
		g_autofree char *key = NULL;

		if (g_strv_length(cell) != ncol + 3)
			continue;
		g_strstrip(cell[1]);
		key = g_strndup(cell[1] + 1, strlen(cell[1]) - 2);
		g_hash_table_add(covered, g_strdup(key));
		for (guint c = 0; c < ncol; c++) {
			g_autofree void *p = g_malloc0(m->params_size);
			const struct param_desc *d = NULL;
			g_autofree char *want = NULL;

			if (col[c] < 0)
				continue;
			m->defaults(p, col[c]);
			want = default_text(m, p, key, &d);
			if (d && d->kind == PARAM_OBJECT)
				continue;   /* summarised in the doc's words ("3.9-5.4 V, 0.1 V steps") */
			(*checked)++;
			if (!want || strcmp(want, g_strstrip(cell[c + 2])) != 0) {
				fprintf(stderr, "\n  docs/scenarios.md 14: %s.%s of %s reads \"%s\"; the table has \"%s\"\n",
					m->key, key, pd->choices[col[c]], cell[c + 2], want ? want : "no such key");
				CU_FAIL("a documented preset value that is not the table's");
			}
			param_free_strings(m->params, p);
		}
	}
}

/* The tables of "Defaults that differ between kinds/presets" hold each preset's value,
 * and every key whose default differs between presets has its row (the keys read by
 * their own parser, and objects, are described in their sections). */
static void test_preset_tables(void)
{
	g_autofree char *path = tu_repo_file("docs/scenarios.md");
	g_autofree char *doc = NULL;
	int checked = 0, tables = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &doc, NULL, NULL));
	for (int i = 0; i < scenario_n_objects(); i++) {
		const struct model_desc *m = scenario_object(i);
		g_autoptr(GPtrArray) lines = NULL;
		g_autoptr(GHashTable) covered = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		const struct param_desc *pd;
		int n;

		if (!m->preset_key)
			continue;
		pd = param_find(m->params, m->preset_key);
		n = (int)g_strv_length((char **)pd->choices);
		lines = section14_lines(doc, m->key);
		for (guint l = 0; l < lines->len; l++)
			if (g_str_has_prefix(lines->pdata[l], "| key | `")) {
				tables++;
				check_preset_table(m, lines, &l, covered, &checked);
			}
		for (const struct param_desc *d = m->params; d->key; d++) {
			bool differs = false;
			g_autofree char *first = NULL;

			if (d->kind == PARAM_CUSTOM || d->kind == PARAM_OBJECT || d == pd)
				continue;
			for (int k = 0; k < n; k++) {
				g_autofree void *p = g_malloc0(m->params_size);
				g_autofree char *v = NULL;

				m->defaults(p, k);
				v = param_format_value(d, p);
				if (!first)
					first = g_strdup(v);
				differs |= strcmp(first, v) != 0;
				param_free_strings(m->params, p);
			}
			if (differs && !g_hash_table_contains(covered, d->key)) {
				fprintf(stderr, "\n  docs/scenarios.md 14: %s.%s differs between presets but has no row\n",
					m->key, d->key);
				CU_FAIL("a key whose default differs between presets without its row");
			}
		}
	}
	CU_ASSERT(tables >= 3);
	CU_ASSERT(checked >= 100);
}

/* A policy's reference row: its default and help line (the range by check_row()). */
static void check_policy_row(const struct cs_policy_desc *pd, const void *p, const char *row,
			     GHashTable *seen, int *checked)
{
	struct model_desc m = { .key = pd->name, .params = pd->params };
	g_auto(GStrv) cell = g_strsplit(row, "|", -1);
	const struct param_desc *d = NULL;
	g_autofree char *key = NULL, *want = NULL;

	if (g_strv_length(cell) != 7)
		return;
	check_row(&m, row, checked);
	g_strstrip(cell[1]);
	key = g_strndup(cell[1] + 1, strlen(cell[1]) - 2);
	g_hash_table_add(seen, g_strdup(key));
	want = default_text(&m, p, key, &d);
	if (d && ((want && strcmp(want, g_strstrip(cell[4])) != 0) ||
		  (d->doc && strcmp(d->doc, g_strstrip(cell[5])) != 0))) {
		fprintf(stderr, "\n  docs/scenarios.md 14.8: %s %s reads \"%s\", \"%s\"; the table has \"%s\", \"%s\"\n",
			pd->name, key, cell[4], cell[5], want ? want : "", d->doc);
		CU_FAIL("a documented policy parameter that is not the table's");
	}
}

/* Section 14.8 lists every built-in policy ("**`name`**: summary") with its parameters,
 * each row the table's. */
static void test_policy_tables(void)
{
	g_autofree char *path = tu_repo_file("docs/scenarios.md");
	g_autofree char *doc = NULL;
	int checked = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &doc, NULL, NULL));
	for (const struct cs_policy_desc *const *all = cs_builtin_policies; *all; all++) {
		const struct cs_policy_desc *pd = *all;
		g_autofree char *head = g_strdup_printf("\n**`%s`**: %s\n", pd->name, pd->summary);
		g_autofree void *p = g_malloc0(pd->params_size ? pd->params_size : 1);
		g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		const char *at = strstr(doc, head);

		if (!at) {
			fprintf(stderr, "\n  docs/scenarios.md 14.8 lacks \"%s\"\n", g_strstrip(head));
			CU_FAIL("a built-in policy without its entry in section 14.8");
			continue;
		}
		if (pd->params_default)
			pd->params_default(pd, p);
		at += strlen(head);
		for (const char *nl; *at && !g_str_has_prefix(at, "**`") && !g_str_has_prefix(at, "#");
		     at = nl + 1) {
			g_autofree char *line = NULL;

			nl = strchr(at, '\n');
			if (!nl)
				break;
			line = g_strndup(at, (gsize)(nl - at));
			if (g_str_has_prefix(line, "| `"))
				check_policy_row(pd, p, line, seen, &checked);
		}
		for (const struct param_desc *d = pd->params; d && d->key; d++)
			if (!g_hash_table_contains(seen, d->key)) {
				fprintf(stderr, "\n  docs/scenarios.md 14.8: %s has no row for %s\n",
					pd->name, d->key);
				CU_FAIL("a policy parameter without its row in section 14.8");
			}
		if (pd->params)
			param_free_strings(pd->params, p);
	}
	CU_ASSERT(checked >= 20);
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC(cJSON, cJSON_Delete)

/* docs/policy-sdk.md states the plugin ABI in three ways ("This is ABI N", "(currently
 * N)", the loader's "expected ABI N"): each is the header's CS_POLICY_ABI. (It said 1
 * while the header said 2.) */
static void test_policy_sdk_abi(void)
{
	g_autofree char *path = tu_repo_file("docs/policy-sdk.md");
	g_autofree char *text = NULL;
	g_autoptr(GRegex) re = g_regex_new("This is ABI ([0-9]+)|\\(currently ([0-9]+)\\)|"
					   "expected ABI ([0-9]+)", 0, 0, NULL);
	g_autoptr(GMatchInfo) mi = NULL;
	int n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &text, NULL, NULL));
	for (g_regex_match(re, text, 0, &mi); g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
		g_autofree char *all = g_match_info_fetch(mi, 0);
		const char *num = all + strcspn(all, "0123456789");

		n++;
		if (strtoul(num, NULL, 10) != CS_POLICY_ABI) {
			fprintf(stderr, "\n  docs/policy-sdk.md: \"%s\", but CS_POLICY_ABI is %u\n", all,
				CS_POLICY_ABI);
			CU_FAIL("docs/policy-sdk.md names another ABI than the header");
		}
	}
	CU_ASSERT(n >= 3);
}

/* docs/man/chargesim-scenario.5 names every top-level key, every object of "device",
 * every source kind, event kind and expectation kind the loader takes (a `.B KEY`
 * line, or the kinds in the source entry): a key added to the tables without its
 * manual entry fails here. */
static void test_man_scenario(void)
{
	g_autofree char *path = tu_repo_file("docs/man/chargesim-scenario.5");
	g_autofree char *text = NULL, *plain = NULL;
	g_autoptr(GPtrArray) top = scenario_top_keys();
	g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func(g_free);
	const struct model_desc *src = model_registry[0];
	const struct param_desc *kind = param_find(src->params, "kind");
	static const char *const expect_kinds[] = { "metric", "signal", "golden", "fingerprint",
						    NULL };

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &text, NULL, NULL));
	{   /* roff's \- is a hyphen */
		g_auto(GStrv) parts = g_strsplit(text, "\\-", -1);

		plain = g_strjoinv("-", parts);
	}
	for (guint i = 0; i + 1 < top->len; i++)
		g_ptr_array_add(want, g_strdup_printf("\n.B %s\n", (char *)top->pdata[i]));
	for (int i = 0; i < scenario_n_objects(); i++) {
		const char *k = scenario_object(i)->key, *dot = strrchr(k, '.');

		g_ptr_array_add(want, g_strdup_printf("\n.B %s\n", dot ? dot + 1 : k));
	}
	for (int i = 0; scenario_event_names[i]; i++)
		g_ptr_array_add(want, g_strdup_printf("\n.B %s\n", scenario_event_names[i]));
	for (int i = 0; expect_kinds[i]; i++)
		g_ptr_array_add(want, g_strdup_printf("{\\(dq%s\\(dq:", expect_kinds[i]));
	CU_ASSERT_STRING_EQUAL_FATAL(src->key, "source");
	CU_ASSERT_PTR_NOT_NULL_FATAL(kind);
	for (int i = 0; kind->choices[i]; i++)
		g_ptr_array_add(want, g_strdup_printf("%s%s", kind->choices[i],
						      kind->choices[i + 1] ? "," : ")"));
	for (guint i = 0; i < want->len; i++)
		if (!strstr(plain, want->pdata[i])) {
			fprintf(stderr, "\n  docs/man/chargesim-scenario.5 lacks \"%s\"\n",
				g_strstrip(g_strdup(want->pdata[i])));
			CU_FAIL("the scenario manual page misses a key the loader takes");
		}
	CU_ASSERT(want->len >= 30);
}

/* ---- the scenario JSON Schema (docs/scenario.schema.json, installed) ---- */

/* The shipped schema is the one the tables make: `chargesim list schema` writes it,
 * and an edit of a table without regenerating the file fails here. */
static void test_schema_shipped(void)
{
	g_autofree char *path = tu_repo_file("docs/scenario.schema.json");
	g_autofree char *shipped = NULL, *made = scenario_schema_text();

	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(path, &shipped, NULL, NULL));
	if (strcmp(shipped, made) != 0) {
		fprintf(stderr, "\n  docs/scenario.schema.json differs from the tables: run "
			"`build/chargesim list schema > docs/scenario.schema.json`\n");
		CU_FAIL("the shipped scenario schema is not the tables'");
	}
}

/*
 * A small validator for the part of JSON Schema the generator writes (type, enum,
 * const, pattern, required, minimum, maximum, properties with additionalProperties
 * false, items, anyOf, oneOf read as anyOf, allOf, if/then, $ref into $defs): written
 * here, apart from the generator, so that the schema is read the way any validator reads it. False with
 * *where set to the JSON path of the first refusal.
 */
static bool sv_ok(const cJSON *root, const cJSON *s, const cJSON *v, const char *path,
		  char **where);

static bool sv_type(const char *t, const cJSON *v)
{
	if (strcmp(t, "object") == 0)
		return cJSON_IsObject(v);
	if (strcmp(t, "array") == 0)
		return cJSON_IsArray(v);
	if (strcmp(t, "string") == 0)
		return cJSON_IsString(v);
	if (strcmp(t, "number") == 0)
		return cJSON_IsNumber(v);
	if (strcmp(t, "integer") == 0)
		return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble);
	if (strcmp(t, "boolean") == 0)
		return cJSON_IsBool(v);
	return strcmp(t, "null") == 0 && cJSON_IsNull(v);
}

static bool sv_equal(const cJSON *a, const cJSON *b)
{
	return cJSON_Compare(a, b, true);
}

/* type, enum, const, required, minimum/maximum */
static bool sv_simple(const cJSON *s, const cJSON *v)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(s, "type"), *x;
	bool found = false;

	if (cJSON_IsString(t) && !sv_type(t->valuestring, v))
		return false;
	if (cJSON_IsArray(t)) {
		cJSON_ArrayForEach(x, t)
			found |= sv_type(x->valuestring, v);
		if (!found)
			return false;
	}
	if ((x = cJSON_GetObjectItemCaseSensitive(s, "const")) && !sv_equal(x, v))
		return false;
	if ((x = cJSON_GetObjectItemCaseSensitive(s, "enum"))) {
		const cJSON *e;

		found = false;
		cJSON_ArrayForEach(e, x)
			found |= sv_equal(e, v);
		if (!found)
			return false;
	}
	if ((x = cJSON_GetObjectItemCaseSensitive(s, "pattern")) && cJSON_IsString(v) &&
	    !g_regex_match_simple(x->valuestring, v->valuestring, 0, 0))
		return false;
	if ((x = cJSON_GetObjectItemCaseSensitive(s, "required")) && cJSON_IsObject(v)) {
		const cJSON *r;

		cJSON_ArrayForEach(r, x)
			if (!cJSON_GetObjectItemCaseSensitive(v, r->valuestring))
				return false;
	}
	if (cJSON_IsNumber(v) && (x = cJSON_GetObjectItemCaseSensitive(s, "minimum")) &&
	    v->valuedouble < x->valuedouble)
		return false;
	if (cJSON_IsNumber(v) && (x = cJSON_GetObjectItemCaseSensitive(s, "exclusiveMinimum")) &&
	    v->valuedouble <= x->valuedouble)
		return false;
	if (cJSON_IsNumber(v) && (x = cJSON_GetObjectItemCaseSensitive(s, "maximum")) &&
	    v->valuedouble > x->valuedouble)
		return false;
	return true;
}

/* properties / additionalProperties and items */
static bool sv_members(const cJSON *root, const cJSON *s, const cJSON *v, const char *path,
		       char **where)
{
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
	const cJSON *extra = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(s, "items"), *m;
	int i = 0;

	if (cJSON_IsObject(v))
		cJSON_ArrayForEach(m, v) {
			const cJSON *ps = props ? cJSON_GetObjectItemCaseSensitive(props, m->string) : NULL;
			g_autofree char *sub = g_strdup_printf("%s%s%s", path, *path ? "." : "",
							      m->string);

			if (!ps && cJSON_IsFalse(extra)) {
				*where = g_steal_pointer(&sub);
				return false;
			}
			if (ps && !sv_ok(root, ps, m, sub, where))
				return false;
		}
	if (cJSON_IsArray(v) && items)
		cJSON_ArrayForEach(m, v) {
			g_autofree char *sub = g_strdup_printf("%s[%d]", path, i++);

			if (!sv_ok(root, items, m, sub, where))
				return false;
		}
	return true;
}

static bool sv_ok(const cJSON *root, const cJSON *s, const cJSON *v, const char *path,
		  char **where)
{
	const cJSON *x, *b;

	if ((x = cJSON_GetObjectItemCaseSensitive(s, "$ref"))) {
		const char *name = x->valuestring + strlen("#/$defs/");

		s = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "$defs"),
						     name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	}
	if (!sv_simple(s, v) || !sv_members(root, s, v, path, where))
		goto refused;
	for (int k = 0; k < 2; k++) {
		bool any = false;

		if (!(x = cJSON_GetObjectItemCaseSensitive(s, k ? "oneOf" : "anyOf")))
			continue;
		cJSON_ArrayForEach(b, x) {
			g_autofree char *w = NULL;

			any |= sv_ok(root, b, v, path, &w);
		}
		if (!any)
			goto refused;
	}
	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(s, "allOf"))
		if (!sv_ok(root, b, v, path, where))
			return false;
	if ((x = cJSON_GetObjectItemCaseSensitive(s, "if"))) {
		g_autofree char *w = NULL;

		if (sv_ok(root, x, v, path, &w) &&
		    !sv_ok(root, cJSON_GetObjectItemCaseSensitive(s, "then"), v, path, where))
			return false;
	}
	return true;
refused:
	if (!*where)
		*where = g_strdup(*path ? path : "(top)");
	return false;
}

/* Does the schema take this JSON text? NULL if so, else where it refused it. */
static char *schema_refuses(const cJSON *schema, const char *text)
{
	g_autoptr(cJSON) doc = cJSON_Parse(text);
	char *where = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	if (sv_ok(schema, schema, doc, "", &where))
		return NULL;
	return where ? where : g_strdup("(top)");
}

static void library_files(const char *dir, GPtrArray *out)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *n;

	if (!d)
		return;
	while ((n = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, n, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			library_files(p, out);
		else if (g_str_has_suffix(n, ".json"))
			g_ptr_array_add(out, g_steal_pointer(&p));
	}
}

/* Every library scenario is a file the schema takes (sweep files aside), and the
 * schema refuses what the loader refuses by key: an unknown key at any level, a
 * policy parameter of another policy, an event kind that does not exist. */
static void test_schema_library(void)
{
	g_autofree char *text = scenario_schema_text();
	g_autoptr(cJSON) schema = cJSON_Parse(text);
	g_autofree char *demo = tu_repo_file("scenarios/demo.json");
	g_autofree char *lib = demo ? g_path_get_dirname(demo) : NULL;
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	static const char *const refused[][2] = {
		{ "{\"sorce\": {}}", "sorce" },
		{ "{\"source\": {\"kind\": \"dcp\", \"ilimm\": \"1 A\"}}", "source.ilimm" },
		{ "{\"source\": {\"kind\": \"dcpp\"}}", "source.kind" },
		{ "{\"device\": {\"pmic\": {\"preset\": \"bq25890\", \"vindpm_x\": 4.5}}}",
		  "device.pmic.vindpm_x" },
		{ "{\"device\": {\"phone\": {}}}", "device.phone" },
		{ "{\"policy\": {\"name\": \"twl4030\", \"params\": {\"step\": \"50 mA\"}}}",
		  "policy" },
		{ "{\"policy\": \"no-such-policy\"}", "policy" },
		{ "{\"events\": [{\"at\": \"1 s\", \"do\": \"unplugg\"}]}", "events[0].do" },
		{ "{\"events\": [{\"at\": \"1 s\", \"do\": \"plug\", \"when\": 1}]}",
		  "events[0].when" },
		{ "{\"expect\": [{\"metric\": \"soc_final\", \"=>\": 0.9}]}", "expect[0]" },
		{ "{\"source\": {\"voc\": 99}}", "source.voc" },
	};
	int checked = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(schema);
	CU_ASSERT_PTR_NOT_NULL_FATAL(lib);
	library_files(lib, files);
	for (guint i = 0; i < files->len; i++) {
		g_autofree char *json = NULL, *where = NULL;
		g_autoptr(cJSON) doc = NULL;

		CU_ASSERT_TRUE_FATAL(g_file_get_contents(files->pdata[i], &json, NULL, NULL));
		doc = cJSON_Parse(json);
		if (!doc || cJSON_GetObjectItemCaseSensitive(doc, "vary"))
			continue;   /* a sweep file */
		checked++;
		where = schema_refuses(schema, json);
		if (where) {
			fprintf(stderr, "\n  %s: the schema refuses %s\n", (char *)files->pdata[i], where);
			CU_FAIL("a library scenario the schema refuses");
		}
	}
	CU_ASSERT(checked >= 50);
	/* the policy params of one policy are its table's: safe-ramp takes step */
	CU_ASSERT_PTR_NULL(schema_refuses(schema,
		"{\"policy\": {\"name\": \"safe-ramp\", \"params\": {\"step\": \"50 mA\"}}}"));
	/* never stricter than the loader: a choice in another case, a quantity choice
	 * spelt another way, "null = none" (docs/scenarios.md section 2) */
	CU_ASSERT_PTR_NULL(schema_refuses(schema, "{\"source\": {\"kind\": \"DCP\"}}"));
	CU_ASSERT_PTR_NULL(schema_refuses(schema,
		"{\"source\": {\"kind\": \"typec\", \"rp\": \"3000 mA\"}}"));
	CU_ASSERT_PTR_NULL(schema_refuses(schema,
		"{\"source\": {\"kind\": \"typec\", \"rp\": \"usb\"}}"));
	CU_ASSERT_PTR_NULL(schema_refuses(schema,
		"{\"device\": {\"pmic\": {\"vindpm\": null}}}"));
	for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
		g_autofree char *where = schema_refuses(schema, refused[i][0]);

		if (!where || strcmp(where, refused[i][1]) != 0) {
			fprintf(stderr, "\n  schema: %s: refused at %s, expected at %s\n", refused[i][0],
				where ? where : "nowhere", refused[i][1]);
			CU_FAIL("the schema takes a key the loader refuses");
		}
	}
}

CU_TestInfo docs_tests[] = {
	{ "scenarios.md section 14: each range is the loader's", test_reference_ranges },
	{ "scenarios.md section 14: each default and help line is the table's",
	  test_reference_defaults },
	{ "scenarios.md section 14: the per-kind and per-preset values are the tables'",
	  test_preset_tables },
	{ "scenarios.md section 14.8: every built-in policy and parameter", test_policy_tables },
	{ "section references point at headings", test_section_references },
	{ "policy-sdk.md: the ABI is the header's", test_policy_sdk_abi },
	{ "chargesim-scenario.5 names every key and kind", test_man_scenario },
	{ "the shipped scenario schema is the tables'", test_schema_shipped },
	{ "the schema takes the library and refuses unknown keys", test_schema_library },
	CU_TEST_INFO_NULL,
};
