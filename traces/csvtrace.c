// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/csvtrace.c - reading CSV traces with libcsv and comparing two of them.
 *
 * The file is mapped (or, when it is not a regular file, read up to the cap) and
 * parsed twice by libcsv: the first pass checks the shape (header, same number of
 * fields in every row, the time column) and learns which columns are numeric; the
 * second fills arrays of exactly the right size. Feeding the parser one physical line
 * at a time gives every row and cell its line number for messages. The comparison
 * maps each candidate row to a reference position once (an index and a weight), then
 * walks every column over that map. See sim/csvtrace.h and docs/diff.md.
 */
#include <csv.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "traces/csvtrace.h"

G_DEFINE_QUARK(cs-csv-error-quark, cs_csv_error)

/* ---- cells ---- */

enum cell_kind { CELL_NUMBER, CELL_NONFINITE, CELL_EMPTY, CELL_TEXT };

/* A cell as libcsv gives it (NUL-terminated at len). Blanks around the number are
 * allowed (libcsv keeps them inside quotes); hex floats are text. */
static enum cell_kind classify_cell(const char *s, size_t len, double *out)
{
	const char *b = s, *e = s + len;
	char *end;
	double v;

	if (strlen(s) != len)
		return CELL_TEXT;               /* an embedded NUL byte */
	while (b < e && g_ascii_isspace(*b))
		b++;
	while (e > b && g_ascii_isspace(e[-1]))
		e--;
	if (b == e)
		return CELL_EMPTY;
	for (const char *c = b; c < e; c++)
		if (*c == 'x' || *c == 'X')
			return CELL_TEXT;
	v = g_ascii_strtod(b, &end);
	if (end != e)
		return CELL_TEXT;
	if (!isfinite(v))
		return CELL_NONFINITE;          /* "nan", "inf", "1e999" */
	*out = v;
	return CELL_NUMBER;
}

/* Cell text for a message: escaped, at most about 40 characters. */
static char *cell_text(const char *s, size_t len)
{
	g_autofree char *cut = g_strndup(s, MIN(len, 40));
	g_autofree char *esc = g_strescape(cut, NULL);

	return g_strdup_printf("\"%s\"%s", esc, len > 40 ? "..." : "");
}

/* ---- reading ---- */

struct colstat {
	bool bad;                  /* some cell is NaN/Inf or empty */
	size_t bad_line;           /* the first such cell */
	char *bad_text;            /* its text for the message, NULL when empty */
	size_t n_number, n_text;   /* cells of each kind (text: not a number) */
	size_t text_line;          /* the first text cell */
	char *first_text;
};

struct reader {
	const char *file;
	const struct cs_csv_read_opts *opts;
	int pass;
	size_t line;               /* physical line being fed to the parser */
	size_t row_line;           /* line of the current row's first field */
	size_t header_line;
	int field;                 /* fields seen in the current row */
	bool header_done;
	GPtrArray *names;          /* header cells (pass 1) */
	int ncols;
	struct colstat *st;
	int time_col;
	size_t nrows;              /* data rows seen in this pass */
	double last_t;
	size_t last_t_line;
	GError *error;
	cs_csv_trace *tr;          /* pass 2 */
};

static void rd_fail(struct reader *r, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void rd_fail(struct reader *r, int code, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	if (r->error)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(&r->error, CS_CSV_ERROR, code, "%s: %s", r->file, msg);
}

static const char *const default_time_names[] = { "time_s", "time", "t", "time[s]", "time(s)" };

/* Lower case, blanks removed: "Time (s)" -> "time(s)". */
static char *time_key(const char *name)
{
	GString *s = g_string_new(NULL);

	for (const char *c = name; *c; c++)
		if (!g_ascii_isspace(*c))
			g_string_append_c(s, g_ascii_tolower(*c));
	return g_string_free(s, FALSE);
}

static char *column_list(GPtrArray *names)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < names->len; i++) {
		if (i == 12) {
			g_string_append_printf(s, ", ... (%u in all)", names->len);
			break;
		}
		g_string_append_printf(s, "%s\"%s\"", i ? ", " : "", (char *)names->pdata[i]);
	}
	return g_string_free(s, FALSE);
}

static void header_done(struct reader *r)
{
	GPtrArray *names = r->names;
	int tc = -1;

	r->ncols = (int)names->len;
	for (int i = 0; i < r->ncols; i++) {
		char *n = names->pdata[i];

		g_strstrip(n);
		if (!*n) {
			g_free(n);
			names->pdata[i] = n = g_strdup_printf("column %d", i + 1);
		}
		for (int j = 0; j < i; j++)
			if (strcmp(names->pdata[j], n) == 0) {
				rd_fail(r, CS_CSV_ERROR_SYNTAX,
					"line %zu: column name \"%s\" appears twice (columns %d and %d); names must be unique",
					r->header_line, n, j + 1, i + 1);
				return;
			}
	}
	if (r->opts->time_column) {
		for (int i = 0; i < r->ncols && tc < 0; i++)
			if (strcmp(names->pdata[i], r->opts->time_column) == 0)
				tc = i;
		for (int i = 0; i < r->ncols && tc < 0; i++)
			if (g_ascii_strcasecmp(names->pdata[i], r->opts->time_column) == 0)
				tc = i;
		if (tc < 0) {
			g_autofree char *list = column_list(names);
			const char *dym;

			g_ptr_array_add(names, NULL);
			dym = cs_did_you_mean(r->opts->time_column, (const char *const *)names->pdata,
					      names->len - 1);
			g_ptr_array_remove_index(names, names->len - 1);
			rd_fail(r, CS_CSV_ERROR_NO_TIME,
				"line %zu: no time column \"%s\"%s%s%s; the columns are %s",
				r->header_line, r->opts->time_column, dym ? " (did you mean \"" : "",
				dym ? dym : "", dym ? "\"?)" : "", list);
			return;
		}
	} else {
		for (size_t k = 0; k < G_N_ELEMENTS(default_time_names) && tc < 0; k++)
			for (int i = 0; i < r->ncols && tc < 0; i++) {
				g_autofree char *key = time_key(names->pdata[i]);

				if (strcmp(key, default_time_names[k]) == 0)
					tc = i;
			}
		if (tc < 0) {
			g_autofree char *list = column_list(names);

			rd_fail(r, CS_CSV_ERROR_NO_TIME,
				"line %zu: no time column: expected one named time_s, time, t, \"time [s]\" or \"Time(s)\" (any case), found %s",
				r->header_line, list);
			return;
		}
	}
	r->time_col = tc;
	r->st = g_new0(struct colstat, (gsize)r->ncols);
}

static void on_field(void *s, size_t len, void *data)
{
	struct reader *r = data;
	const char *cell = s ? s : "";
	int c = r->field++;
	double v = 0;
	enum cell_kind kind;

	if (r->error)
		return;
	if (c == 0)
		r->row_line = r->line;
	if (!s)
		len = 0;
	if (!r->header_done) {
		if (r->pass == 1) {
			if (c == 0)
				r->header_line = r->line;
			g_ptr_array_add(r->names, g_strndup(cell, len));
		}
		return;
	}
	if (c >= r->ncols)
		return;                         /* reported at the end of the row */
	if (r->pass == 2) {
		struct cs_csv_col *col = &r->tr->cols[c];

		if (col->is_label)
			col->s[r->nrows] = g_string_chunk_insert_const(r->tr->strings, cell);
		else if (classify_cell(cell, len, &v) == CELL_NUMBER)
			col->v[r->nrows] = v;
		else
			col->v[r->nrows] = 0;   /* cannot happen after pass 1 */
		return;
	}
	kind = classify_cell(cell, len, &v);
	if (c == r->time_col) {
		if (kind != CELL_NUMBER) {
			g_autofree char *txt = cell_text(cell, len);

			rd_fail(r, CS_CSV_ERROR_TIME,
				"line %zu, column \"%s\": found %s, expected a time in seconds (a finite number)",
				r->line, (char *)r->names->pdata[c], kind == CELL_EMPTY ? "an empty cell" : txt);
			return;
		}
		if (r->nrows > 0 && v < r->last_t) {
			rd_fail(r, CS_CSV_ERROR_TIME,
				"line %zu, column \"%s\": time goes backwards: %.17g s after %.17g s on line %zu",
				r->line, (char *)r->names->pdata[c], v, r->last_t, r->last_t_line);
			return;
		}
		r->last_t = v;
		r->last_t_line = r->line;
	}
	switch (kind) {
	case CELL_NUMBER:
		r->st[c].n_number++;
		break;
	case CELL_TEXT:
		if (!r->st[c].n_text++) {
			r->st[c].text_line = r->line;
			r->st[c].first_text = cell_text(cell, len);
		}
		break;
	case CELL_EMPTY:
	case CELL_NONFINITE:
		if (!r->st[c].bad) {
			r->st[c].bad = true;
			r->st[c].bad_line = r->line;
			r->st[c].bad_text = kind == CELL_EMPTY ? NULL : cell_text(cell, len);
		}
		break;
	}
}

static void on_row(int term, void *data)
{
	struct reader *r = data;
	int nf = r->field;

	(void)term;
	if (r->error)
		return;
	r->field = 0;
	if (nf == 0)
		return;
	if (!r->header_done) {
		r->header_done = true;
		if (r->pass == 1)
			header_done(r);
		return;
	}
	if (nf != r->ncols) {
		rd_fail(r, CS_CSV_ERROR_SYNTAX,
			"line %zu: found %d field%s, expected %d as in the header on line %zu",
			r->row_line, nf, nf == 1 ? "" : "s", r->ncols, r->header_line);
		return;
	}
	if (r->pass == 2)
		r->tr->line[r->nrows] = r->row_line;
	r->nrows++;
}

/* The delimiter: ',' unless the first line has more ';' or tabs (outside quotes). */
static char sniff_delim(const char *data, size_t len)
{
	size_t n_comma = 0, n_semi = 0, n_tab = 0;
	bool quoted = false;

	for (size_t i = 0; i < len && (quoted || (data[i] != '\n' && data[i] != '\r')); i++) {
		if (data[i] == '"')
			quoted = !quoted;
		else if (!quoted && data[i] == ',')
			n_comma++;
		else if (!quoted && data[i] == ';')
			n_semi++;
		else if (!quoted && data[i] == '\t')
			n_tab++;
	}
	if (n_semi > n_comma && n_semi >= n_tab)
		return ';';
	if (n_tab > n_comma && n_tab > n_semi)
		return '\t';
	return ',';
}

static bool run_pass(struct reader *r, const char *data, size_t len, char delim)
{
	struct csv_parser p;
	size_t pos = 0;

	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		rd_fail(r, CS_CSV_ERROR_IO, "out of memory starting the CSV parser");
		return false;
	}
	csv_set_delim(&p, (unsigned char)delim);
	r->line = 1;
	r->field = 0;
	r->nrows = 0;
	r->header_done = false;
	while (pos < len && !r->error) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (data + pos)) + 1 : len - pos;

		if (csv_parse(&p, data + pos, n, on_field, on_row, r) != n) {
			rd_fail(r, CS_CSV_ERROR_SYNTAX, "line %zu: %s", r->line,
				csv_error(&p) == CSV_EPARSE ?
				"malformed quoting (a quote inside an unquoted field, or text after a closing quote)" :
				csv_strerror(csv_error(&p)));
			break;
		}
		pos += n;
		if (nl)
			r->line++;
	}
	if (!r->error && csv_fini(&p, on_field, on_row, r) != 0)
		rd_fail(r, CS_CSV_ERROR_SYNTAX,
			"line %zu: the file ends inside a quoted field (a quote is not closed)",
			r->line);
	csv_free(&p);
	return !r->error;
}

void cs_csv_trace_free(cs_csv_trace *tr)
{
	if (!tr)
		return;
	for (int i = 0; i < tr->ncols; i++) {
		g_free(tr->cols[i].v);
		g_free(tr->cols[i].s);
	}
	g_free(tr->cols);
	g_free(tr->line);
	g_free(tr->file);
	if (tr->strings)
		g_string_chunk_free(tr->strings);
	g_free(tr);
}

cs_csv_trace *cs_csv_parse(const char *name, const char *data, size_t len,
			   const struct cs_csv_read_opts *opts, GError **err)
{
	static const struct cs_csv_read_opts defaults = { 0 };
	struct reader r = { 0 };
	cs_csv_trace *tr = NULL;
	size_t cap;
	char delim;

	if (!opts)
		opts = &defaults;
	if (memchr(data, '\0', len)) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_SYNTAX,
			    "%s: found a NUL byte (a binary file?), expected CSV text", name);
		return NULL;
	}
	cap = opts->max_bytes ? opts->max_bytes : CS_CSV_MAX_BYTES;
	if (len > cap) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOO_BIG,
			    "%s: the file is %zu bytes, over the limit of %zu bytes", name, len, cap);
		return NULL;
	}
	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
		data += 3;
		len -= 3;
	}
	r.file = name;
	r.opts = opts;
	r.names = g_ptr_array_new_with_free_func(g_free);
	delim = sniff_delim(data, len);

	r.pass = 1;
	if (!run_pass(&r, data, len, delim))
		goto out;
	if (!r.header_done) {
		rd_fail(&r, CS_CSV_ERROR_EMPTY, "the file is empty, expected a header row of column names");
		goto out;
	}
	if (r.nrows == 0) {
		rd_fail(&r, CS_CSV_ERROR_EMPTY, "no data rows after the header on line %zu", r.header_line);
		goto out;
	}
	for (int c = 0; c < r.ncols; c++) {
		struct colstat *st = &r.st[c];

		/* A column of numbers with a stray word in it is a number column with a
		 * bad cell, not a column of labels. */
		if (st->n_text && st->n_number > st->n_text) {
			rd_fail(&r, CS_CSV_ERROR_VALUE,
				"line %zu, column \"%s\": found %s, expected a number (the column's other cells are numbers)",
				st->text_line, (char *)r.names->pdata[c], st->first_text);
			goto out;
		}
		if (st->n_text || !st->bad)
			continue;
		/* All cells empty: a column of empty labels. */
		if (!st->n_number && !st->bad_text)
			continue;
		rd_fail(&r, CS_CSV_ERROR_VALUE,
			"line %zu, column \"%s\": found %s, expected a finite number (the column's other cells are numbers)",
			st->bad_line, (char *)r.names->pdata[c],
			st->bad_text ? st->bad_text : "an empty cell");
		goto out;
	}

	tr = g_new0(cs_csv_trace, 1);
	tr->file = g_strdup(name);
	tr->nrows = r.nrows;
	tr->ncols = r.ncols;
	tr->cols = g_new0(struct cs_csv_col, (gsize)r.ncols);
	tr->time_col = r.time_col;
	tr->line = g_new0(size_t, r.nrows);
	tr->delim = delim;
	tr->strings = g_string_chunk_new(4096);
	for (int c = 0; c < r.ncols; c++) {
		struct cs_csv_col *col = &tr->cols[c];

		col->name = g_string_chunk_insert(tr->strings, r.names->pdata[c]);
		col->is_label = r.st[c].n_text || !r.st[c].n_number;
		if (col->is_label)
			col->s = g_new0(const char *, r.nrows);
		else
			col->v = g_new0(double, r.nrows);
	}
	tr->t = tr->cols[tr->time_col].v;
	r.tr = tr;
	r.pass = 2;
	if (!run_pass(&r, data, len, delim) || r.nrows != tr->nrows) {
		if (!r.error)
			rd_fail(&r, CS_CSV_ERROR_IO, "the file changed while it was read");
		goto out;
	}
out:
	if (r.error) {
		g_propagate_error(err, r.error);
		cs_csv_trace_free(tr);
		tr = NULL;
	}
	for (int c = 0; r.st && c < r.ncols; c++) {
		g_free(r.st[c].bad_text);
		g_free(r.st[c].first_text);
	}
	g_free(r.st);
	g_ptr_array_free(r.names, TRUE);
	return tr;
}

cs_csv_trace *cs_csv_read(const char *path, const struct cs_csv_read_opts *opts, GError **err)
{
	size_t cap = opts && opts->max_bytes ? opts->max_bytes : CS_CSV_MAX_BYTES;
	GStatBuf sb;
	cs_csv_trace *tr;

	if (g_stat(path, &sb) != 0) {
		int e = errno;

		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO, "%s: cannot read: %s", path,
			    g_strerror(e));
		return NULL;
	}
	if (S_ISDIR(sb.st_mode)) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO,
			    "%s: is a directory, expected a CSV file", path);
		return NULL;
	}
	if (S_ISREG(sb.st_mode)) {
		GMappedFile *mf;
		GError *merr = NULL;

		if ((guint64)sb.st_size > (guint64)cap) {
			g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOO_BIG,
				    "%s: the file is %llu bytes, over the limit of %zu bytes", path,
				    (unsigned long long)sb.st_size, cap);
			return NULL;
		}
		mf = g_mapped_file_new(path, FALSE, &merr);
		if (!mf) {
			g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO, "%s: cannot read: %s", path,
				    merr->message);
			g_error_free(merr);
			return NULL;
		}
		tr = cs_csv_parse(path, g_mapped_file_get_contents(mf) ? g_mapped_file_get_contents(mf) : "",
				  g_mapped_file_get_length(mf), opts, err);
		g_mapped_file_unref(mf);
		return tr;
	}
	/* A pipe or a device: read up to the cap. */
	{
		FILE *fp = fopen(path, "rb");
		GByteArray *buf;
		char chunk[65536];
		size_t n;
		bool too_big = false, failed;

		if (!fp) {
			int e = errno;

			g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO, "%s: cannot read: %s", path,
				    g_strerror(e));
			return NULL;
		}
		buf = g_byte_array_new();
		while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
			if (buf->len + n > cap) {
				too_big = true;
				break;
			}
			g_byte_array_append(buf, (const guint8 *)chunk, (guint)n);
		}
		failed = ferror(fp);
		fclose(fp);
		if (too_big || failed) {
			if (too_big)
				g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOO_BIG,
					    "%s: more than the limit of %zu bytes", path, cap);
			else
				g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO, "%s: read error", path);
			g_byte_array_free(buf, TRUE);
			return NULL;
		}
		tr = cs_csv_parse(path, buf->len ? (const char *)buf->data : "", buf->len, opts, err);
		g_byte_array_free(buf, TRUE);
		return tr;
	}
}

int cs_csv_find_col(const cs_csv_trace *tr, const char *name)
{
	for (int i = 0; i < tr->ncols; i++)
		if (strcmp(tr->cols[i].name, name) == 0)
			return i;
	return -1;
}

bool cs_csv_rename_col(cs_csv_trace *tr, const char *from, const char *to, GError **err)
{
	int i = cs_csv_find_col(tr, from);

	if (i < 0) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_SYNTAX, "%s: no column \"%s\" to rename",
			    tr->file, from);
		return false;
	}
	if (!*to || (strcmp(from, to) != 0 && cs_csv_find_col(tr, to) >= 0)) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_SYNTAX,
			    "%s: cannot rename \"%s\" to \"%s\": %s", tr->file, from, to,
			    *to ? "a column has that name already" : "the new name is empty");
		return false;
	}
	tr->cols[i].name = g_string_chunk_insert(tr->strings, to);
	return true;
}

static bool has_unit_suffix(const char *name, const char *u)
{
	g_autofree char *a = g_strdup_printf("_%s", u);
	g_autofree char *b = g_strdup_printf("(%s)", u);
	g_autofree char *c = g_strdup_printf("[%s]", u);
	g_autofree char *d = g_strdup_printf(" %s", u);

	return g_str_has_suffix(name, a) || g_str_has_suffix(name, b) ||
	       g_str_has_suffix(name, c) || g_str_has_suffix(name, d);
}

enum unit_dim cs_csv_col_dim(const char *name)
{
	if (has_unit_suffix(name, "V"))
		return UNIT_VOLT;
	if (has_unit_suffix(name, "A"))
		return UNIT_AMP;
	if (has_unit_suffix(name, "s"))
		return UNIT_SECOND;
	if (has_unit_suffix(name, "W"))
		return UNIT_WATT;
	if (g_str_has_prefix(name, "soc"))
		return UNIT_FRACTION;
	return UNIT_NONE;
}

/* ---- formatting ---- */

/* The shortest "%.Ng" that reads back as v (digits 0), or "%.{digits}g". */
static void fmt_num(char *buf, size_t size, double v, int digits)
{
	char fmt[8];

	if (digits > 0) {
		g_snprintf(fmt, sizeof fmt, "%%.%dg", MIN(digits, 17));
		g_ascii_formatd(buf, (gint)size, fmt, v);
		return;
	}
	/* At least the integer digits, so that 7200 does not come out as 7.2e+03. */
	int p0 = fabs(v) >= 1 && fabs(v) < 1e15 ? (int)floor(log10(fabs(v))) + 1 : 1;

	for (int p = MAX(p0, 1); p <= 17; p++) {
		g_snprintf(fmt, sizeof fmt, "%%.%dg", p);
		g_ascii_formatd(buf, (gint)size, fmt, v);
		if (g_ascii_strtod(buf, NULL) == v)
			return;
	}
}

char *cs_csv_fmt_value(const char *column, double v, int digits)
{
	enum unit_dim dim = cs_csv_col_dim(column);
	const char *sym = "", *prefix = "";
	double x = v;
	char num[64];

	if (dim == UNIT_VOLT || dim == UNIT_AMP || dim == UNIT_WATT) {
		double m = fabs(v);

		sym = units_dim_symbol(dim);
		if (m > 0 && m < 1e-6) {
			prefix = "n";
			x = v * 1e9;
		} else if (m > 0 && m < 1e-3) {
			prefix = "u";
			x = v * 1e6;
		} else if (m > 0 && m < 1) {
			prefix = "m";
			x = v * 1e3;
		}
	} else if (dim == UNIT_SECOND) {
		sym = "s";
	}
	fmt_num(num, sizeof num, x, digits);
	return g_strdup_printf("%s%s%s%s", num, *sym ? " " : "", prefix, sym);
}

/* ---- tolerances ---- */

struct tol_entry {
	char *column;
	double abs, rel;
};

struct cs_tolerances {
	GArray *entries;           /* struct tol_entry */
};

struct cs_tolerances *cs_tolerances_new(void)
{
	struct cs_tolerances *tol = g_new0(struct cs_tolerances, 1);

	tol->entries = g_array_new(FALSE, TRUE, sizeof(struct tol_entry));
	return tol;
}

void cs_tolerances_free(struct cs_tolerances *tol)
{
	if (!tol)
		return;
	for (guint i = 0; i < tol->entries->len; i++)
		g_free(g_array_index(tol->entries, struct tol_entry, i).column);
	g_array_free(tol->entries, TRUE);
	g_free(tol);
}

static struct tol_entry *tol_find(const struct cs_tolerances *tol, const char *column)
{
	for (guint i = 0; tol && i < tol->entries->len; i++) {
		struct tol_entry *e = &g_array_index(tol->entries, struct tol_entry, i);

		if (strcmp(e->column, column) == 0)
			return e;
	}
	return NULL;
}

bool cs_tolerances_set(struct cs_tolerances *tol, const char *column, double abs, double rel,
		       GError **err)
{
	struct tol_entry *e;

	if (!column || !*column) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
			    "a tolerance needs a column name (or \"*\")");
		return false;
	}
	if (!isfinite(abs) || abs < 0 || !isfinite(rel) || rel < 0) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
			    "%s: found abs %g, rel %g, expected finite tolerances of at least 0",
			    column, abs, rel);
		return false;
	}
	e = tol_find(tol, column);
	if (!e) {
		struct tol_entry n = { g_strdup(column), 0, 0 };

		g_array_append_val(tol->entries, n);
		e = &g_array_index(tol->entries, struct tol_entry, tol->entries->len - 1);
	}
	e->abs = abs;
	e->rel = rel;
	return true;
}

bool cs_tolerance_value_parse(const char *column, bool is_rel, const char *text, double *out,
			      const char *where, GError **err)
{
	g_autoptr(GError) uerr = NULL;
	bool star = strcmp(column, "*") == 0;
	enum unit_dim dim = is_rel ? UNIT_FRACTION : star ? UNIT_NONE : cs_csv_col_dim(column);
	double v;

	if (!units_parse(text, dim, &v, &uerr)) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE, "%s: %s%s", where, uerr->message,
			    star && !is_rel ? " (the \"*\" default applies to columns of every unit: give a plain number)" :
			    !is_rel && dim == UNIT_NONE ? " (the column's name shows no unit: give a plain number)" :
			    "");
		return false;
	}
	if (!isfinite(v) || v < 0) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
			    "%s: found \"%s\", expected a tolerance of at least 0", where, text);
		return false;
	}
	*out = v;
	return true;
}

bool cs_tolerances_parse(struct cs_tolerances *tol, const char *text, GError **err)
{
	const char *eq = strrchr(text, '=');
	g_autofree char *column = NULL;
	g_auto(GStrv) items = NULL;
	bool have_abs = false, have_rel = false, exact = false;
	double abs = 0, rel = 0;

	if (!eq) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
			    "found \"%s\", expected COLUMN=abs:VALUE,rel:VALUE such as vbus_V=abs:5mV,rel:1e-3",
			    text);
		return false;
	}
	column = g_strstrip(g_strndup(text, (gsize)(eq - text)));
	if (!*column) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
			    "\"%s\": no column name before '=' (use \"*\" for every column)", text);
		return false;
	}
	items = g_strsplit(eq + 1, ",", -1);
	for (int i = 0; items[i]; i++) {
		char *item = g_strstrip(items[i]);
		const char *colon = strchr(item, ':');
		g_autofree char *key = NULL;
		g_autofree char *where = NULL;
		const char *val;

		if (g_ascii_strcasecmp(item, "exact") == 0) {
			exact = true;
			continue;
		}
		if (!colon) {
			g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
				    "\"%s\": found \"%s\", expected abs:VALUE, rel:VALUE or exact",
				    text, item);
			return false;
		}
		key = g_strstrip(g_strndup(item, (gsize)(colon - item)));
		val = colon + 1;
		while (g_ascii_isspace(*val))
			val++;
		where = g_strdup_printf("\"%s\"", text);
		if (g_ascii_strcasecmp(key, "abs") == 0 && !have_abs) {
			if (!cs_tolerance_value_parse(column, false, val, &abs, where, err))
				return false;
			have_abs = true;
		} else if (g_ascii_strcasecmp(key, "rel") == 0 && !have_rel) {
			if (!cs_tolerance_value_parse(column, true, val, &rel, where, err))
				return false;
			have_rel = true;
		} else {
			g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
				    "\"%s\": found \"%s\"%s, expected abs:VALUE and/or rel:VALUE (each once), or exact",
				    text, key, (g_ascii_strcasecmp(key, "abs") == 0 ||
						g_ascii_strcasecmp(key, "rel") == 0) ? " twice" : "");
			return false;
		}
	}
	if (exact == (have_abs || have_rel)) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOLERANCE,
			    "\"%s\": expected abs:VALUE and/or rel:VALUE, or exact alone", text);
		return false;
	}
	return cs_tolerances_set(tol, column, abs, rel, err);
}

bool cs_tolerances_lookup(const struct cs_tolerances *tol, const char *column, double *abs,
			  double *rel)
{
	const struct tol_entry *e = tol_find(tol, column);

	if (!e)
		e = tol_find(tol, "*");
	*abs = e ? e->abs : 0;
	*rel = e ? e->rel : 0;
	return e != NULL;
}

guint cs_tolerances_count(const struct cs_tolerances *tol)
{
	return tol ? tol->entries->len : 0;
}

const char *cs_tolerances_column(const struct cs_tolerances *tol, guint i)
{
	return g_array_index(tol->entries, struct tol_entry, i).column;
}

char *cs_tolerance_describe(const char *column, double abs, double rel)
{
	g_autofree char *a = abs > 0 ? cs_csv_fmt_value(column, abs, 6) : NULL;
	char r[40];

	g_ascii_formatd(r, sizeof r, "%g", rel);
	if (abs > 0 && rel > 0)
		return g_strdup_printf("%s + %s*|B|", a, r);
	if (abs > 0)
		return g_strdup(a);
	if (rel > 0)
		return g_strdup_printf("%s*|B|", r);
	return g_strdup("exact");
}

/* ---- comparison ---- */

/* Where candidate row i reads the reference: rows j and j + 1 weighted by w (w = 0
 * at an exact time match, and for labels j alone). */
struct ref_pos {
	size_t j;
	double w;
	bool inside;
};

static double lerp_w(double t, double t0, double t1)
{
	double w = (t - t0) / (t1 - t0);

	if (!isfinite(w))
		w = (t / 2 - t0 / 2) / (t1 / 2 - t0 / 2);
	if (!(w >= 0))
		w = 0;
	if (w > 1)
		w = 1;
	return w;
}

/*
 * Rows of the reference at exactly the candidate's time (an event instant where the
 * trace holds the state before and after): the candidate's rows at that time take
 * them in order, and the last candidate row always takes the last reference row, so
 * "after" meets "after" whatever the counts. Between reference times, the earlier
 * one is the last row of its instant (the state after it) and the later one the first
 * of its instant (the state before it): the interpolation never crosses a jump.
 */
static struct ref_pos *map_rows(const cs_csv_trace *a, const cs_csv_trace *b, size_t *inside)
{
	struct ref_pos *map = g_new0(struct ref_pos, a->nrows);
	size_t p = 0, q = 0, gs = 0, ge = 0, n = 0;

	for (size_t i = 0; i < a->nrows; i++) {
		double t = a->t[i];

		if (i >= ge) {
			gs = i;
			for (ge = i + 1; ge < a->nrows && a->t[ge] == t; ge++)
				;
		}
		while (p < b->nrows && b->t[p] < t)
			p++;
		if (q < p)
			q = p;
		while (q < b->nrows && b->t[q] <= t)
			q++;
		if (q > p) {
			size_t j = i - gs;

			map[i].j = i == ge - 1 ? q - 1 : MIN(p + j, q - 1);
			map[i].w = 0;
			map[i].inside = true;
		} else if (p > 0 && p < b->nrows) {
			map[i].j = p - 1;
			map[i].w = lerp_w(t, b->t[p - 1], b->t[p]);
			map[i].inside = true;
		}
		n += map[i].inside;
	}
	*inside = n;
	return map;
}

static double ref_value(const double *v, size_t nrows, const struct ref_pos *rp)
{
	double b0 = v[rp->j], b1, d;

	if (rp->w == 0 || rp->j + 1 >= nrows)
		return b0;
	b1 = v[rp->j + 1];
	if (b0 == b1)
		return b0;
	d = b1 - b0;
	if (isfinite(d))
		return b0 + rp->w * d;
	return (1 - rp->w) * b0 + rp->w * b1;
}

static void compare_numeric(struct cs_diff_col *c, const cs_csv_trace *a, int ca,
			    const cs_csv_trace *b, int cb, const struct ref_pos *map)
{
	const double *av = a->cols[ca].v, *bv = b->cols[cb].v;
	double best_score = 0;

	for (size_t i = 0; i < a->nrows; i++) {
		double x, y, dev, allowed, score;

		if (!map[i].inside)
			continue;
		x = av[i];
		y = ref_value(bv, b->nrows, &map[i]);
		dev = fabs(x - y);
		if (!isfinite(dev))
			dev = DBL_MAX;
		allowed = c->abs + c->rel * fabs(y);
		if (!isfinite(allowed))
			allowed = DBL_MAX;
		c->n_compared++;
		if (dev > allowed)
			c->n_failed++;
		if (dev > c->max_dev) {
			c->max_dev = dev;
			c->max_dev_t = a->t[i];
		}
		if (dev == 0)
			continue;
		score = allowed > 0 ? dev / allowed : INFINITY;
		if (!c->has_worst || score > best_score || (score == best_score && dev > c->dev)) {
			c->has_worst = true;
			best_score = score;
			c->row = i;
			c->line = a->line[i];
			c->t = a->t[i];
			c->cand = x;
			c->ref = y;
			c->dev = dev;
			c->allowed = allowed;
		}
	}
}

static void compare_labels(struct cs_diff_col *c, const cs_csv_trace *a, int ca,
			   const cs_csv_trace *b, int cb, const struct ref_pos *map)
{
	const char *const *as = a->cols[ca].s, *const *bs = b->cols[cb].s;

	for (size_t i = 0; i < a->nrows; i++) {
		const char *y;

		if (!map[i].inside)
			continue;
		y = bs[map[i].j];
		c->n_compared++;
		if (strcmp(as[i], y) == 0)
			continue;
		c->n_failed++;
		if (!c->has_worst) {
			c->has_worst = true;
			c->row = i;
			c->line = a->line[i];
			c->t = a->t[i];
			c->cand_label = as[i];
			c->ref_label = y;
		}
	}
}

static bool within(double a, double b, double abs, double rel)
{
	return fabs(a - b) <= abs + rel * fabs(b);
}

struct cs_diff *cs_diff_traces(const cs_csv_trace *cand, const cs_csv_trace *ref,
			       const struct cs_diff_opts *opts)
{
	static const struct cs_diff_opts defaults = { 0 };
	struct cs_diff *d = g_new0(struct cs_diff, 1);
	const struct cs_tolerances *tol;
	struct ref_pos *map;
	double ta, tr;
	int n = 0;

	if (!opts)
		opts = &defaults;
	tol = opts->tol;
	d->cand_t0 = cand->t[0];
	d->cand_t1 = cand->t[cand->nrows - 1];
	d->ref_t0 = ref->t[0];
	d->ref_t1 = ref->t[ref->nrows - 1];
	cs_tolerances_lookup(tol, cand->cols[cand->time_col].name, &ta, &tr);
	d->span_ok = opts->overlap_only ||
		     (within(d->cand_t0, d->ref_t0, ta, tr) && within(d->cand_t1, d->ref_t1, ta, tr));
	map = map_rows(cand, ref, &d->n_rows);
	d->n_outside = cand->nrows - d->n_rows;

	d->cols = g_new0(struct cs_diff_col, (gsize)(cand->ncols + ref->ncols));
	for (int ca = 0; ca < cand->ncols; ca++) {
		struct cs_diff_col *c;
		int cb;

		if (ca == cand->time_col)
			continue;
		c = &d->cols[n++];
		c->name = cand->cols[ca].name;
		c->pass = true;
		c->is_label = cand->cols[ca].is_label;
		cb = cs_csv_find_col(ref, c->name);
		if (cb < 0 || cb == ref->time_col) {
			c->presence = CS_DIFF_ONLY_CAND;
			continue;
		}
		c->presence = CS_DIFF_BOTH;
		d->n_compared++;
		cs_tolerances_lookup(tol, c->name, &c->abs, &c->rel);
		if (cand->cols[ca].is_label != ref->cols[cb].is_label) {
			c->kind_mismatch = true;
		} else if (c->is_label) {
			compare_labels(c, cand, ca, ref, cb, map);
		} else {
			compare_numeric(c, cand, ca, ref, cb, map);
		}
		c->pass = !c->kind_mismatch && c->n_failed == 0;
		d->n_failed += !c->pass;
	}
	for (int cb = 0; cb < ref->ncols; cb++) {
		struct cs_diff_col *c;
		int ca;

		if (cb == ref->time_col)
			continue;
		ca = cs_csv_find_col(cand, ref->cols[cb].name);
		if (ca >= 0 && ca != cand->time_col)
			continue;
		c = &d->cols[n++];
		c->name = ref->cols[cb].name;
		c->presence = CS_DIFF_ONLY_REF;
		c->is_label = ref->cols[cb].is_label;
		c->pass = true;
	}
	d->ncols = n;
	d->pass = d->span_ok && d->n_rows > 0 && d->n_compared > 0 && d->n_failed == 0;
	g_free(map);
	return d;
}

void cs_diff_free(struct cs_diff *d)
{
	if (!d)
		return;
	g_free(d->cols);
	g_free(d);
}

char *cs_diff_col_describe(const struct cs_diff_col *c)
{
	g_autofree char *t = NULL;

	if (c->presence != CS_DIFF_BOTH)
		return g_strdup_printf("%s: only in %s, not compared", c->name,
				       c->presence == CS_DIFF_ONLY_CAND ? "A" : "B");
	if (c->kind_mismatch)
		return g_strdup_printf("%s: numbers in %s, text in %s", c->name,
				       c->is_label ? "B" : "A", c->is_label ? "A" : "B");
	if (!c->has_worst)
		return g_strdup_printf("%s: identical over %zu rows", c->name, c->n_compared);
	t = cs_csv_fmt_value("_s", c->t, 0);
	if (c->is_label)
		return g_strdup_printf("%s at t = %s (line %zu): A \"%s\", B \"%s\" (%zu of %zu rows differ)",
				       c->name, t, c->line, c->cand_label, c->ref_label, c->n_failed,
				       c->n_compared);
	{
		g_autofree char *x = cs_csv_fmt_value(c->name, c->cand, 10);
		g_autofree char *y = cs_csv_fmt_value(c->name, c->ref, 10);
		g_autofree char *dev = cs_csv_fmt_value(c->name, c->dev, 3);
		g_autofree char *al = cs_csv_fmt_value(c->name, c->allowed, 3);

		return g_strdup_printf("%s at t = %s (line %zu): A %s, B %s, |A-B| %s %s allowed %s (%zu of %zu rows outside)",
				       c->name, t, c->line, x, y, dev, c->dev > c->allowed ? ">" : "<=",
				       al, c->n_failed, c->n_compared);
	}
}

char *cs_diff_reason(const struct cs_diff *d)
{
	if (d->pass)
		return NULL;
	if (!d->span_ok || d->n_rows == 0) {
		g_autofree char *a0 = cs_csv_fmt_value("_s", d->cand_t0, 0);
		g_autofree char *a1 = cs_csv_fmt_value("_s", d->cand_t1, 0);
		g_autofree char *b0 = cs_csv_fmt_value("_s", d->ref_t0, 0);
		g_autofree char *b1 = cs_csv_fmt_value("_s", d->ref_t1, 0);

		return g_strdup_printf("%s: A covers %s .. %s, B covers %s .. %s",
				       d->n_rows == 0 ? "the time ranges do not overlap" :
				       "the time ranges differ", a0, a1, b0, b1);
	}
	if (d->n_compared == 0)
		return g_strdup("no column in common besides time");
	for (int i = 0; i < d->ncols; i++)
		if (!d->cols[i].pass)
			return cs_diff_col_describe(&d->cols[i]);
	return g_strdup("failed");
}
