// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/expect.c - checking a run against its scenario's expectations.
 *
 * expect_prepare() reads and validates every expectation before the run (so a
 * malformed one is an input error, not a surprise afterwards), collects the times
 * `signal` expectations sample and the fingerprints to compute; expect_listen()
 * hooks the fingerprint hashes onto the event log; expect_check() decides.
 * Fingerprints hash the events.jsonl stream with SHA-256 over the chosen ingredients
 * (time, src, kind, payload), so that a timing-only change can be accepted without
 * hiding a change in the sequence.
 */
#include <math.h>
#include <string.h>
#include "run/expect.h"
#include "output/outfile.h"
#include "sim/units.h"
#include "traces/diff.h"

static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", "between", NULL };

static enum unit_dim dim_of_name(const char *name)
{
	static const char *const suffix[] = { "_V", "_A", "_s", "_Wh" };
	static const enum unit_dim dim[] = { UNIT_VOLT, UNIT_AMP, UNIT_SECOND, UNIT_WH };

	for (int i = 0; i < 4; i++)
		if (g_str_has_suffix(name, suffix[i]))
			return dim[i];
	if (g_str_has_prefix(name, "soc"))
		return UNIT_FRACTION;
	return g_str_has_suffix(name, "_C") ? UNIT_CELSIUS : UNIT_NONE;
}

/* mAh metrics are written in mAh but a unit string parses to Ah. */
static bool expected_number(const char *name, const cJSON *v, double *out, const char *path,
			    GError **err)
{
	g_autoptr(GError) uerr = NULL;
	enum unit_dim dim = g_str_has_suffix(name, "_mAh") ? UNIT_AH : dim_of_name(name);
	sim_time_t t;

	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return isfinite(*out) || scenario_error(err, "%s: found a number out of range", path);
	}
	if (!cJSON_IsString(v)) {
		char *found = cJSON_PrintUnformatted(v);

		scenario_error(err, "%s: found %s, expected a number or a value with a unit", path,
			     found);
		cJSON_free(found);
		return false;
	}
	if (dim == UNIT_SECOND ? !units_parse_time(v->valuestring, &t, &uerr) :
	    !units_parse(v->valuestring, dim, out, &uerr))
		return scenario_error(err, "%s: %s", path, uerr->message);
	if (dim == UNIT_SECOND)
		*out = sim_time_to_s(t);
	if (dim == UNIT_AH)
		*out *= 1000.0;
	return true;
}

static char *fmt_value(const char *name, double v)
{
	const char *sym = g_str_has_suffix(name, "_mAh") ? "mAh" : units_dim_symbol(dim_of_name(name));

	return g_strdup_printf("%.6g%s%s", v, *sym ? " " : "", sym);
}

/*
 * The unit an expected value was written in, so that the report speaks the scenario's
 * language: "90 %" against soc_final reads ">= 90 %" and "got 87.3 %", not 0.9 and
 * 0.873; "35 min" against a time in seconds reads "35 min" and "got 36.1 min". The
 * value in that unit is (base - zero) / (one - zero), zero and one being "0 UNIT" and
 * "1 UNIT" in the base unit (an offset for kelvin against degrees Celsius). A bare
 * number, or a unit that does not parse, keeps the base unit.
 */
struct shown_unit {
	char *sym;           /* NULL: the base unit (fmt_value) */
	double zero, one;
};

static double unit_base(const char *name, const char *text, bool *ok)
{
	enum unit_dim dim = g_str_has_suffix(name, "_mAh") ? UNIT_AH : dim_of_name(name);
	double x = 0;
	sim_time_t t = 0;

	if (dim == UNIT_SECOND) {
		*ok = *ok && units_parse_time(text, &t, NULL);
		return sim_time_to_s(t);
	}
	*ok = *ok && units_parse(text, dim, &x, NULL);
	return dim == UNIT_AH ? x * 1000.0 : x;
}

static void shown_unit_of(const char *name, const cJSON *v, struct shown_unit *u)
{
	g_autofree char *zero = NULL, *one = NULL;
	const char *rest;
	char *end;
	bool ok = true;

	if (u->sym || !cJSON_IsString(v))
		return;
	g_ascii_strtod(v->valuestring, &end);
	for (rest = end; *rest == ' '; rest++)
		;
	if (end == v->valuestring || !*rest)
		return;
	zero = g_strdup_printf("0 %s", rest);
	one = g_strdup_printf("1 %s", rest);
	u->zero = unit_base(name, zero, &ok);
	u->one = unit_base(name, one, &ok);
	if (ok && u->one != u->zero)
		u->sym = g_strdup(rest);
}

/* v (in the base unit) as shown in u: "87.3 %", or fmt_value's form. */
static char *fmt_shown(const char *name, double v, const struct shown_unit *u)
{
	if (!u->sym)
		return fmt_value(name, v);
	return g_strdup_printf("%.6g %s", (v - u->zero) / (u->one - u->zero), u->sym);
}

/* An expected value as written: a value with a unit in that unit, its number as
 * written ("90%" reads "90 %"), else fmt_value's form of x. */
static char *fmt_expected(const char *name, const cJSON *v, double x)
{
	struct shown_unit u = { 0 };
	char *s;

	shown_unit_of(name, v, &u);
	s = fmt_shown(name, x, &u);
	g_free(u.sym);
	return s;
}

static void add_result(GArray *out, bool pass, char *what, char *got)
{
	struct expect_result r = { .pass = pass, .what = what, .got = got };

	g_array_append_val(out, r);
}

/* Compare got against the operator(s) of item (all present ones must hold). */
static bool compare_number(const char *name, const cJSON *item, const char *path, double got,
			   bool got_null, GArray *out, const char *label, GError **err)
{
	int n_ops = 0;

	for (int k = 0; ops[k]; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, ops[k]);
		g_autofree char *opath = g_strdup_printf("%s.%s", path, ops[k]);
		struct shown_unit u = { 0 };
		double lo, hi, x;
		bool pass;
		char *what;

		if (!v)
			continue;
		n_ops++;
		if (strcmp(ops[k], "between") == 0) {
			if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
				return scenario_error(err, "%s: found something else, expected [LO, HI]",
						    opath);
			if (!expected_number(name, cJSON_GetArrayItem(v, 0), &lo, opath, err) ||
			    !expected_number(name, cJSON_GetArrayItem(v, 1), &hi, opath, err))
				return false;
			if (lo > hi)
				return scenario_error(err, "%s: found a range from %g to %g, expected LO <= HI",
						    opath, lo, hi);
			pass = !got_null && got >= lo && got <= hi;
			g_autofree char *a = fmt_expected(name, cJSON_GetArrayItem(v, 0), lo);
			g_autofree char *b = fmt_expected(name, cJSON_GetArrayItem(v, 1), hi);
			what = g_strdup_printf("%s between %s and %s", label, a, b);
			shown_unit_of(name, cJSON_GetArrayItem(v, 0), &u);
			shown_unit_of(name, cJSON_GetArrayItem(v, 1), &u);
		} else if (cJSON_IsNull(v)) {
			if (k > 1)
				return scenario_error(err, "%s: found null, expected a value (null only with == or !=)",
						    opath);
			pass = k == 0 ? got_null : !got_null;
			what = g_strdup_printf("%s %s null", label, ops[k]);
		} else {
			if (!expected_number(name, v, &x, opath, err))
				return false;
			/* != holds for null as well; the others need a value */
			pass = k == 1 ? got_null || got != x :
			       !got_null && (k == 0 ? got == x : k == 2 ? got < x : k == 3 ? got <= x :
					     k == 4 ? got > x : got >= x);
			g_autofree char *xs = fmt_expected(name, v, x);
			what = g_strdup_printf("%s %s %s", label, ops[k], xs);
			shown_unit_of(name, v, &u);
		}
		add_result(out, pass, what, got_null ? g_strdup("null") : fmt_shown(name, got, &u));
		g_free(u.sym);
	}
	return n_ops > 0 ||
	       scenario_error(err, "%s: found no comparison, expected one of ==, !=, <, <=, >, >=, between",
			      path);
}

static bool compare_string(const cJSON *item, const char *path, const char *got,
			   GArray *out, const char *label, GError **err)
{
	int n_ops = 0;

	for (int k = 0; k < 2; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, ops[k]);
		bool eq;

		if (!v)
			continue;
		n_ops++;
		if (!cJSON_IsString(v) && !cJSON_IsNull(v))
			return scenario_error(err, "%s.%s: found a non-string, expected a string such as \"USB_DCP\"",
					    path, ops[k]);
		eq = cJSON_IsNull(v) ? got == NULL : got && strcmp(got, v->valuestring) == 0;
		add_result(out, k == 0 ? eq : !eq,
			   g_strdup_printf("%s %s %s", label, ops[k], cJSON_IsNull(v) ? "null" : v->valuestring),
			   g_strdup(got ? got : "null"));
	}
	for (int k = 2; ops[k]; k++)
		if (cJSON_GetObjectItemCaseSensitive(item, ops[k]))
			return scenario_error(err, "%s.%s: found an ordering on a text value, expected == or !=",
					    path, ops[k]);
	return n_ops > 0 || scenario_error(err, "%s: found no comparison, expected == or !=", path);
}

/* The keys each kind of expectation takes; anything else is a mistake worth naming
 * (a misspelt "tolerance" would otherwise mean "compare exactly"). */
static bool item_keys_ok(const cJSON *item, const char *path, const char *kind, GError **err)
{
	static const char *const metric_keys[] = { "metric", "==", "!=", "<", "<=", ">", ">=", "between", "for", NULL };
	static const char *const signal_keys[] = { "signal", "at", "==", "!=", "<", "<=", ">", ">=", "between", "for", NULL };
	static const char *const golden_keys[] = { "golden", "tolerance", "for", NULL };
	static const char *const fp_keys[] = { "fingerprint", "of", "for", NULL };
	const char *const *keys = !strcmp(kind, "metric") ? metric_keys : !strcmp(kind, "signal") ? signal_keys :
				  !strcmp(kind, "golden") ? golden_keys : fp_keys;
	const cJSON *k;

	cJSON_ArrayForEach(k, item) {
		g_autoptr(GString) list = g_string_new(NULL);
		const char *hint;
		size_t n;

		if (g_strv_contains(keys, k->string))
			continue;
		for (n = 0; keys[n]; n++)
			g_string_append_printf(list, "%s%s", n ? ", " : "", keys[n]);
		hint = cs_did_you_mean(k->string, keys, n);
		return scenario_error(err, "%s.%s: found an unknown key, expected one of %s%s%s%s",
				    path, k->string, list->str, hint ? " (did you mean \"" : "",
				    hint ? hint : "", hint ? "\"?)" : "");
	}
	return true;
}

/* A metric or signal item: its name (v, the `kind` member) must be a string and
 * its keys those of the kind. */
static bool item_name_ok(const cJSON *item, const cJSON *v, const char *path, const char *kind,
			 const char *expected, GError **err)
{
	if (!cJSON_IsString(v)) {
		g_autofree char *found = param_describe_json(v);

		return scenario_error(err, "%s.%s: found %s, expected %s", path, kind, found,
				    expected);
	}
	return item_keys_ok(item, path, kind, err);
}

/* ---- which policies an expectation is for ---- */

/*
 * "for": a policy name or a list of them. An expectation with it describes those
 * policies' behaviour (a fingerprint of their events, a golden trace, the symptom of
 * a bug they have) and is checked only when the run's policy is one of them; one
 * without it is an outcome every policy is held to (no source trips, VBUS kept up,
 * the port's detected type). So a scenario run with --policy or under compare checks
 * what means something for that policy (docs/scenarios.md section 9).
 */
static bool for_ok(const cJSON *item, const char *path, GError **err)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(item, "for"), *e;
	int i = 0;

	if (!f || (cJSON_IsString(f) && *f->valuestring))
		return true;
	if (!cJSON_IsArray(f) || !cJSON_GetArraySize(f)) {
		g_autofree char *found = param_describe_json(f);

		return scenario_error(err, "%s.for: found %s, expected a policy name or a non-empty list of them such as [\"twl4030\", \"linux/twl4030_charger\"]",
				      path, found);
	}
	cJSON_ArrayForEach(e, f) {
		if (!cJSON_IsString(e) || !*e->valuestring) {
			g_autofree char *found = param_describe_json(e);

			return scenario_error(err, "%s.for[%d]: found %s, expected a policy name such as \"twl4030\"",
					      path, i, found);
		}
		i++;
	}
	return true;
}

/* Is the item checked for a run of policy? (NULL: validation, every item is.) */
static bool for_policy(const cJSON *item, const char *policy)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(item, "for"), *e;

	if (!f || !policy)
		return true;
	if (cJSON_IsString(f))
		return strcmp(f->valuestring, policy) == 0;
	cJSON_ArrayForEach(e, f)
		if (cJSON_IsString(e) && strcmp(e->valuestring, policy) == 0)
			return true;
	return false;
}

/* ---- fingerprints ---- */

#define FP_PAYLOAD 0x8u   /* 1 << the index of "payload" in fp_names */
#define FP_ALL     0xfu
#define FP_HEX_LEN 16     /* 64 bits of SHA-256 are plenty to notice a change */

static const char *const fp_names[] = { "time", "src", "kind", "payload", NULL };

struct fingerprint {
	unsigned mask;
	GChecksum *sum;
	char *expected;
	char *got;
	int item;            /* index in the expect list */
};

struct expect_run {
	const cJSON *expect;
	char *file;
	char *dir;
	GArray *probes;      /* sim_time_t, in the order of the signal expectations */
	GArray *sorted;      /* the same times sorted and unique: what the world samples */
	GArray *fps;         /* struct fingerprint */
	unsigned fp_masks;   /* every ingredient some fingerprint takes */
	GString *fp_text;    /* a record's ingredients (fp_listener) */
	int n_other;         /* items "for" other policies than the run's, not checked */
};

static char *fp_put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	p[n] = '\x1f';
	return p + n + 1;
}

static bool fp_header_key(const char *key)
{
	return !strcmp(key, "t") || !strcmp(key, "src") || !strcmp(key, "ev");
}

/*
 * A record's ingredients, each followed by 0x1f, the record by 0x1e: its time's text,
 * source and kind, then each payload member's key and value as cJSON prints it (the
 * text events.jsonl has, printed once by the event log for the file and every
 * fingerprint). They are laid out once in er->fp_text, in the order of fp_names, and a
 * fingerprint hashes the runs of the ingredients it takes, a call each (a call per
 * ingredient and separator took 1.012x the instructions on a check of the library;
 * appending each to a GString and looking for t, src and ev among the payload by name
 * another 1.013x). They are never longer than the record's line: each member there has
 * its key in quotes and a colon or comma where the ingredients have a 0x1f.
 */
static void fp_listener(void *data, const char *src, const char *ev,
			const struct evlog_text *text)
{
	struct expect_run *er = data;
	const struct evlog_member *m = text->members;
	GString *b = er->fp_text;
	char *at[6];   /* where each ingredient starts in b, then the 0x1e, then the end */

	/* The metrics' records at the end of a run (the instants of vbus_min_V ...) sum it
	 * up: a fingerprint pins what happened, and a metric added or refined must not
	 * change every fingerprint. A real driver's kernel_files record names the bytes
	 * that ran, not what they did: an edit that changes nothing keeps its fingerprint. */
	if (!strcmp(src, "metrics") || !strcmp(ev, "kernel_files"))
		return;
	g_string_set_size(b, text->len + 1);
	at[0] = b->str;
	at[1] = fp_put(at[0], m[0].value, m[0].len);   /* "t" is the record's first member */
	at[2] = fp_put(at[1], src, strlen(src));
	at[3] = fp_put(at[2], ev, strlen(ev));
	at[4] = at[3];
	if (er->fp_masks & FP_PAYLOAD)
		for (int j = 3; j < text->n_members; j++) {   /* after t, src and ev */
			if (fp_header_key(m[j].key))
				continue;
			at[4] = fp_put(at[4], m[j].key, strlen(m[j].key));
			at[4] = fp_put(at[4], m[j].value, m[j].len);
		}
	*at[4] = '\x1e';
	at[5] = at[4] + 1;
	g_assert(at[5] <= b->str + b->len);
	for (guint i = 0; i < er->fps->len; i++) {
		struct fingerprint *fp = &g_array_index(er->fps, struct fingerprint, i);
		/* the 0x1e as a fifth ingredient every fingerprint takes */
		unsigned mask = fp->mask | 1u << 4;
		int run = -1;   /* the first ingredient of the run being gathered */

		for (int k = 0; k <= 5; k++) {
			bool in = k < 5 && (mask & (1u << k));

			if (in && run < 0)
				run = k;
			if (!in && run >= 0) {
				g_checksum_update(fp->sum, (const guchar *)at[run],
						  (gssize)(at[k] - at[run]));
				run = -1;
			}
		}
	}
}

/* ---- preparing ---- */

static GArray *expect_eval(struct expect_run *er, const struct world *w, const char *trace_path,
			   GError **err);

static bool parse_time_value(const cJSON *at, sim_time_t *t, GError **uerr)
{
	if (cJSON_IsNumber(at) && isfinite(at->valuedouble) && fabs(at->valuedouble) < 9e9) {
		*t = sim_time_from_s(at->valuedouble);
		return true;
	}
	if (cJSON_IsString(at))
		return units_parse_time(at->valuestring, t, uerr);
	return false;
}

static gint cmp_time(gconstpointer a, gconstpointer b)
{
	sim_time_t x = *(const sim_time_t *)a, y = *(const sim_time_t *)b;

	return x < y ? -1 : x > y;
}

/* A signal expectation: its time, within 0..duration, joins the probes. */
static bool prepare_signal(struct expect_run *er, const cJSON *item, int i, sim_time_t duration,
			   GError **err)
{
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(item, "at");
	g_autoptr(GError) uerr = NULL;
	sim_time_t t;

	if (!parse_time_value(at, &t, &uerr) || t < 0 || t > duration) {
		g_autofree char *found = param_describe_json(at);

		return scenario_error(err, "expect[%d].at: %s%s%s", i,
				    uerr ? uerr->message : "found ", uerr ? "" : found,
				    uerr ? "" : ", expected a time such as \"10 s\" from 0 to the scenario's duration");
	}
	g_array_append_val(er->probes, t);
	return true;
}

/* A fingerprint's "of" (in item, at path ip): which ingredients it hashes (all when
 * absent). */
static bool fingerprint_mask(const cJSON *item, const char *ip, unsigned *mask, GError **err)
{
	const cJSON *of = cJSON_GetObjectItemCaseSensitive(item, "of"), *o;
	g_autofree char *path = g_strdup_printf("%s.of", ip);

	*mask = FP_ALL;
	if (!of)
		return true;
	*mask = 0;
	if (cJSON_IsArray(of) && cJSON_GetArraySize(of) >= 1) {
		cJSON_ArrayForEach(o, of) {
			int k;

			for (k = 0; fp_names[k]; k++)
				if (cJSON_IsString(o) && !strcmp(o->valuestring, fp_names[k]))
					break;
			if (!fp_names[k])
				break;
			*mask |= 1u << k;
		}
		if (!o)
			return true;
	}
	return param_error_found(err, path, of, "a list of time, src, kind, payload");
}

/* A fingerprint expectation: a hex string and what it hashes; its hash starts. */
static bool prepare_fingerprint(struct expect_run *er, const cJSON *item, const cJSON *fp,
				int i, GError **err)
{
	struct fingerprint f = { .item = i };
	g_autofree char *ip = g_strdup_printf("expect[%d]", i);
	g_autofree char *fpp = g_strdup_printf("%s.fingerprint", ip);

	if (!cJSON_IsString(fp) || strlen(fp->valuestring) < 1 ||
	    strspn(fp->valuestring, "0123456789abcdefABCDEF") != strlen(fp->valuestring))
		return param_error_found(err, fpp, fp, "a hex string (run `chargesim check --accept` to fill it in)");
	if (!fingerprint_mask(item, ip, &f.mask, err))
		return false;
	f.sum = g_checksum_new(G_CHECKSUM_SHA256);
	f.expected = g_ascii_strdown(fp->valuestring, -1);
	g_array_append_val(er->fps, f);
	er->fp_masks |= f.mask;
	return item_keys_ok(item, ip, "fingerprint", err);
}

static char *golden_path(const struct expect_run *er, const char *rel, int i, GError **err);

static bool golden_ok(const struct expect_run *er, const char *rel, int i, GError **err)
{
	g_autofree char *p = golden_path(er, rel, i, err);

	return p != NULL;
}

struct expect_run *expect_prepare(const cJSON *expect, const char *file, sim_time_t duration,
				  GError **err)
{
	struct expect_run *er = g_new0(struct expect_run, 1);
	GError *inner = NULL;
	const cJSON *item;
	GArray *dry;
	int i = 0;

	er->expect = expect;
	er->file = g_strdup(file);
	er->dir = g_path_get_dirname(file);
	er->probes = g_array_new(FALSE, FALSE, sizeof(sim_time_t));
	er->fps = g_array_new(FALSE, TRUE, sizeof(struct fingerprint));
	er->fp_text = g_string_sized_new(1024);
	cJSON_ArrayForEach(item, expect) {
		const cJSON *fp = cJSON_GetObjectItemCaseSensitive(item, "fingerprint");
		const cJSON *golden = cJSON_GetObjectItemCaseSensitive(item, "golden");
		bool ok = true;

		if (cJSON_GetObjectItemCaseSensitive(item, "signal"))
			ok = prepare_signal(er, item, i, duration, &inner);
		else if (fp)
			ok = prepare_fingerprint(er, item, fp, i, &inner);
		else if (golden && (!cJSON_IsString(golden) || !*golden->valuestring))
			ok = scenario_error(&inner, "expect[%d].golden: expected the path of a CSV trace (relative to the scenario)",
					    i);
		else if (golden)
			ok = golden_ok(er, golden->valuestring, i, &inner);
		if (!ok) {
			scenario_error_in_file(err, file, inner);
			goto fail;
		}
		i++;
	}
	/* the times the world samples: the probes sorted, each once */
	er->sorted = g_array_copy(er->probes);
	g_array_sort(er->sorted, cmp_time);
	for (guint k = er->sorted->len; k-- > 1;)
		if (g_array_index(er->sorted, sim_time_t, k) == g_array_index(er->sorted, sim_time_t, k - 1))
			g_array_remove_index(er->sorted, k);
	/* Every expectation validated now, against zero values. */
	dry = expect_eval(er, NULL, NULL, err);
	if (dry) {
		expect_results_free(dry);
		return er;
	}
fail:
	expect_run_free(er);
	return NULL;
}

void expect_options(struct expect_run *er, struct world_options *wo)
{
	wo->n_probes = (int)er->sorted->len;
	wo->probe_at = (const sim_time_t *)(void *)er->sorted->data;
}

void expect_listen(struct expect_run *er, struct world *w)
{
	if (er->fps->len)
		world_add_event_text_listener(w, fp_listener, er);
}

/* A golden file: inside the scenario's directory tree (cs_path_confined), else NULL
 * with "expect[i].golden: ..." in err; nothing outside is read, written or shown. */
static char *golden_path(const struct expect_run *er, const char *rel, int i, GError **err)
{
	g_autofree char *why = NULL;
	char *p = cs_path_confined(er->dir, rel, &why);

	if (!p)
		scenario_error(err, "expect[%d].golden: found \"%s\", expected a path inside %s (the scenario's directory): it %s",
			       i, rel, er->dir, why);
	return p;
}

/* ---- golden traces (docs/scenarios.md section 9.3): the run's trace.csv against the
 * golden file by traces/diff.h; a golden file that does not exist yet fails, so that
 * `chargesim check --accept` writes it ---- */

static bool load_tolerances(const cJSON *tobj, const char *path, struct cs_tolerances *tol,
			    GError **err)
{
	const cJSON *col;

	if (!tobj)
		return true;
	if (!cJSON_IsObject(tobj))
		return scenario_error(err, "%s.tolerance: expected an object {COLUMN: {\"abs\": X, \"rel\": Y}, \"*\": {...}}",
				    path);
	cJSON_ArrayForEach(col, tobj) {
		double v[2] = { 0, 0 };   /* abs, rel */
		const cJSON *k;

		if (!cJSON_IsObject(col))
			return scenario_error(err, "%s.tolerance.%s: expected {\"abs\": X, \"rel\": Y}",
					    path, col->string);
		cJSON_ArrayForEach(k, col) {
			int i = strcmp(k->string, "abs") == 0 ? 0 : strcmp(k->string, "rel") == 0 ? 1 : -1;
			g_autofree char *where = g_strdup_printf("%s.tolerance.%s.%s", path, col->string,
							       k->string);
			g_autofree char *text = NULL;

			if (i < 0)
				return scenario_error(err, "%s: found an unknown key, expected abs or rel",
						    where);
			if (cJSON_IsNumber(k))
				text = g_strdup_printf("%.17g", k->valuedouble);
			else if (cJSON_IsString(k))
				text = g_strdup(k->valuestring);
			else
				return scenario_error(err, "%s: expected a number or a value with a unit",
						    where);
			if (!cs_tolerance_value_parse(col->string, i == 1, text, &v[i], where, err))
				return false;
		}
		if (!cs_tolerances_set(tol, col->string, v[0], v[1], err))
			return false;
	}
	return true;
}

/* A word for a shell command line: as it is when it holds nothing a shell reads,
 * else in single quotes. */
static void append_shell_word(GString *cmd, const char *word)
{
	g_autofree char *q = NULL;

	if (*word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./:=,+-@%") == strlen(word)) {
		g_string_append(cmd, word);
		return;
	}
	q = g_shell_quote(word);
	g_string_append(cmd, q);
}

/* The golden expectation's tolerance (validated) as `chargesim diff` options,
 * " --tol COLUMN=abs:X,rel:Y" each, so that the diff a failure suggests judges as the
 * check did. */
static char *tol_args(const cJSON *tobj)
{
	GString *args = g_string_new(NULL);
	const cJSON *col, *k;

	cJSON_ArrayForEach(col, tobj) {
		g_autoptr(GString) t = g_string_new(col->string);

		g_string_append_c(t, '=');
		cJSON_ArrayForEach(k, col) {
			char *num = cJSON_IsString(k) ? NULL : cJSON_PrintUnformatted(k);

			g_string_append_printf(t, "%s%s:%s", k != col->child ? "," : "",
					       k->string, num ? num : k->valuestring);
			cJSON_free(num);
		}
		if (!col->child)
			g_string_append(t, "abs:0");   /* {} is exact */
		g_string_append(args, " --tol ");
		append_shell_word(args, t->str);
	}
	return g_string_free(args, FALSE);
}

static bool check_golden(const cJSON *item, const char *path, const char *golden_path,
			 const char *trace_path, GArray *out, GError **err)
{
	g_autoptr(cs_tolerances) tol = cs_tolerances_new();
	g_autoptr(cs_csv_trace) run = NULL;
	g_autoptr(cs_csv_trace) gold = NULL;
	g_autoptr(cs_diff) d = NULL;
	g_autoptr(GError) gerr = NULL;
	struct cs_diff_opts opts = { .tol = tol };
	struct expect_result *r;

	if (!load_tolerances(cJSON_GetObjectItemCaseSensitive(item, "tolerance"), path, tol, err))
		return false;
	/* Validating before the run (no trace_path): an existing golden file must be a CSV
	 * trace. */
	if (!trace_path && g_file_test(golden_path, G_FILE_TEST_IS_DIR))
		return scenario_error(err, "%s.golden: found a directory (%s), expected a CSV trace",
				    path, golden_path);
	if (!g_file_test(golden_path, G_FILE_TEST_EXISTS)) {
		if (trace_path)
			add_result(out, false, g_strdup_printf("golden %s within tolerance", golden_path),
				   g_strdup("no golden file yet (chargesim check --accept writes it)"));
		return true;
	}
	gold = cs_csv_read(golden_path, NULL, &gerr);
	if (!gold)
		return scenario_error(err, "%s.golden: %s", path, gerr->message);
	if (!trace_path)
		return true;
	run = cs_csv_read(trace_path, NULL, &gerr);
	if (!run)
		return scenario_error(err, "%s: the run's trace cannot be read: %s", path,
				    gerr->message);
	d = cs_diff_traces(run, gold, &opts);
	add_result(out, d->pass, g_strdup_printf("golden %s within tolerance", golden_path),
		   d->pass ? g_strdup("within tolerance") : cs_diff_reason(d));
	r = &g_array_index(out, struct expect_result, out->len - 1);
	r->reference = g_strdup(golden_path);
	r->diff_tol = tol_args(cJSON_GetObjectItemCaseSensitive(item, "tolerance"));
	return true;
}

/* ---- checking ---- */

/* {"metric": NAME, OP: VALUE}: a member of metrics.json. */
static bool eval_metric(const cJSON *item, const cJSON *m, const char *path, const cJSON *metrics,
			GArray *out, GError **inner)
{
	const cJSON *val;
	g_autofree char *label = NULL;

	if (!item_name_ok(item, m, path, "metric", "a metric name such as \"vbus_min_V\"", inner))
		return false;
	val = cJSON_GetObjectItemCaseSensitive(metrics, m->valuestring);
	if (!val)
		return scenario_error(inner, "%s.metric: found \"%s\", expected a metric of metrics.json such as vbus_min_V",
				    path, m->valuestring);
	label = g_strdup_printf("metric %s", m->valuestring);
	if (cJSON_IsString(val))
		return compare_string(item, path, val->valuestring, out, label, inner);
	if (cJSON_IsNull(val) && strcmp(m->valuestring, "detected_type") == 0)
		return compare_string(item, path, NULL, out, label, inner);
	return compare_number(m->valuestring, item, path,
			      cJSON_IsNumber(val) ? val->valuedouble :
			      cJSON_IsRaw(val) ? g_ascii_strtod(val->valuestring, NULL) : NAN,
			      cJSON_IsNull(val), out, label, inner);
}

/* {"signal": COLUMN, "at": TIME, OP: VALUE}: the trace column sampled at probe t (with
 * w NULL, only that the column exists). */
static bool eval_signal(const struct expect_run *er, const struct world *w, const cJSON *item,
			const cJSON *s, const char *path, sim_time_t t, GArray *out,
			GError **inner)
{
	int pi = 0;
	double got = 0;
	g_autofree char *label = NULL;
	const char *const *names;   /* a label column's state names */
	const cJSON *at;

	if (!item_name_ok(item, s, path, "signal", "a trace column such as \"vbus_V\"", inner))
		return false;
	while (g_array_index(er->sorted, sim_time_t, pi) != t)
		pi++;
	if (!world_trace_column(s->valuestring, &names) ||
	    (w && !world_probe_value(w, pi, s->valuestring, &got)))
		return scenario_error(inner, "%s.signal: found \"%s\", expected a trace column such as vbus_V",
				    path, s->valuestring);
	/* the time as the scenario wrote it ("5 min"), a bare number in seconds */
	at = cJSON_GetObjectItemCaseSensitive(item, "at");
	if (cJSON_IsString(at))
		label = g_strdup_printf("signal %s at %s", s->valuestring, at->valuestring);
	else
		label = g_strdup_printf("signal %s at %.9g s", s->valuestring, sim_time_to_s(t));
	if (names)
		return compare_string(item, path, names[(int)got], out, label, inner);
	return compare_number(s->valuestring, item, path, got, false, out, label, inner);
}

/* {"fingerprint": HEX, "of": [...]}: the hash of the run's events. */
static void eval_fingerprint(struct fingerprint *fp, GArray *out)
{
	g_autoptr(GString) of = g_string_new(NULL);

	g_free(fp->got);
	fp->got = g_strndup(g_checksum_get_string(fp->sum), FP_HEX_LEN);
	for (int k = 0; fp_names[k]; k++)
		if (fp->mask & (1u << k))
			g_string_append_printf(of, "%s%s", of->len ? "," : "", fp_names[k]);
	add_result(out, strcmp(fp->got, fp->expected) == 0,
		   g_strdup_printf("fingerprint of %s == %s", of->str, fp->expected),
		   g_strdup(fp->got));
}

/* Decide (or, with w NULL, only validate) every expectation: the results, or NULL with
 * err ("FILE: ..."). Validation runs the same code against zero metrics and signals, so
 * a malformed expectation is found before the run instead of after it. */
static GArray *expect_eval(struct expect_run *er, const struct world *w, const char *trace_path,
			   GError **err)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct expect_result));
	cJSON *metrics = w ? world_metrics_json(w) : world_metrics_to_json(NULL);
	GError *inner = NULL;
	const cJSON *item;
	int i = 0, probe = 0, fpi = 0;
	bool ok = true;

	er->n_other = 0;
	cJSON_ArrayForEach(item, er->expect) {
		g_autofree char *path = g_strdup_printf("expect[%d]", i++);
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(item, "metric");
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(item, "signal");
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(item, "golden");
		guint before = out->len;

		if (!for_ok(item, path, &inner)) {
			ok = false;
			break;
		}
		if (w && !for_policy(item, world_policy_name(w))) {
			/* not this policy's: its probe and hash go unused */
			probe += s != NULL;
			fpi += !m && !s && !g;
			er->n_other++;
			continue;
		}
		if (m) {
			ok = eval_metric(item, m, path, metrics, out, &inner);
		} else if (s) {
			ok = eval_signal(er, w, item, s, path,
					 g_array_index(er->probes, sim_time_t, probe++), out, &inner);
		} else if (g) {
			g_autofree char *gp = NULL;

			ok = item_keys_ok(item, path, "golden", &inner) &&
			     (gp = golden_path(er, g->valuestring, i - 1, &inner)) &&
			     check_golden(item, path, gp, trace_path, out, &inner);
		} else if (w) {
			eval_fingerprint(&g_array_index(er->fps, struct fingerprint, fpi++), out);
		}
		if (!ok)
			break;
		for (guint k = before; k < out->len; k++)
			g_array_index(out, struct expect_result, k).item = i - 1;
	}
	cJSON_Delete(metrics);
	if (ok)
		return out;
	expect_results_free(out);
	scenario_error_in_file(err, er->file, inner);
	return NULL;
}

bool expect_check(struct expect_run *er, const struct world *w, const char *trace_path,
		  GArray **results, GError **err)
{
	*results = expect_eval(er, w, trace_path, err);
	return *results != NULL;
}

int expect_not_for_policy(const struct expect_run *er)
{
	return er->n_other;
}

/* ---- accepting ---- */

/* Replace fp's old hex at a "fingerprint" key of the scenario's text, in place, so that
 * the file keeps its layout. */
static bool replace_fingerprint(GString *text, const struct fingerprint *fp)
{
	size_t n = strlen(fp->expected);

	for (char *k = strstr(text->str, "\"fingerprint\""); k;
	     k = strstr(k + 1, "\"fingerprint\"")) {
		char *v = k + strlen("\"fingerprint\"");

		while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r' || *v == ':')
			v++;
		if (*v == '"' && g_ascii_strncasecmp(v + 1, fp->expected, n) == 0 &&
		    v[1 + n] == '"') {
			gssize at = v + 1 - text->str;

			g_string_erase(text, at, (gssize)n);
			g_string_insert(text, at, fp->got);
			return true;
		}
	}
	return false;
}

bool expect_accept(struct expect_run *er, const GArray *results, const char *trace_path,
		   GString *report, GError **err)
{
	g_autoptr(GString) text = NULL;   /* the scenario's text, once a fingerprint changes */

	for (guint r = 0; r < results->len; r++) {
		const struct expect_result *res = &g_array_index(results, struct expect_result, r);
		const cJSON *item = cJSON_GetArrayItem(er->expect, res->item);
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(item, "golden");

		if (res->pass)
			continue;
		if (g) {
			GError *inner = NULL;
			g_autofree char *gp = golden_path(er, g->valuestring, res->item, &inner);
			g_autofree char *gdir = gp ? g_path_get_dirname(gp) : NULL;
			g_autofree char *data = NULL;
			gsize dlen;

			if (!gp)
				return scenario_error_in_file(err, er->file, inner);
			if (!g_file_get_contents(trace_path, &data, &dlen, err) || !cs_mkdir_p(gdir, err) ||
			    !cs_outfile_write_all(gp, data, dlen, err))
				return false;
			g_string_append_printf(report, "  %s: golden %s rewritten from the run's trace\n",
					       er->file, gp);
			continue;
		}
		for (guint f = 0; f < er->fps->len; f++) {
			struct fingerprint *fp = &g_array_index(er->fps, struct fingerprint, f);
			g_autofree char *data = NULL;
			gsize len;

			if (fp->item != res->item)
				continue;
			if (!text && !g_file_get_contents(er->file, &data, &len, err))
				return false;
			if (!text)
				text = g_string_new_len(data, (gssize)len);
			if (!replace_fingerprint(text, fp))
				return scenario_error(err, "%s: cannot find the fingerprint %s to replace",
						    er->file, fp->expected);
			g_string_append_printf(report, "  %s: fingerprint %s -> %s\n", er->file,
					       fp->expected, fp->got);
		}
	}
	return !text || cs_outfile_write_all(er->file, text->str, text->len, err);
}

void expect_run_free(struct expect_run *er)
{
	if (!er)
		return;
	/* (fps and probes are made with er, a fingerprint with its checksum) */
	for (guint i = 0; i < er->fps->len; i++) {
		struct fingerprint *fp = &g_array_index(er->fps, struct fingerprint, i);

		g_checksum_free(fp->sum);
		g_free(fp->expected);
		g_free(fp->got);
	}
	g_array_free(er->fps, TRUE);
	g_string_free(er->fp_text, TRUE);
	g_array_free(er->probes, TRUE);
	if (er->sorted)
		g_array_free(er->sorted, TRUE);
	g_free(er->file);
	g_free(er->dir);
	g_free(er);
}

void expect_results_free(GArray *results)
{
	if (!results)
		return;
	for (guint i = 0; i < results->len; i++) {
		struct expect_result *r = &g_array_index(results, struct expect_result, i);

		g_free(r->what);
		g_free(r->got);
		g_free(r->reference);
		g_free(r->diff_tol);
	}
	g_array_free(results, TRUE);
}
