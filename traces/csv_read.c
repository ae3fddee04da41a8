// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/csv_read.c - reading CSV traces with libcsv (see csv.h).
 *
 * The file is read up to the cap and parsed once by libcsv, which checks the shape
 * (header, same number of fields in every row, the time column) and keeps every
 * cell's text; when every row is in, each column becomes numbers or labels. Feeding
 * the parser one physical line at a time gives every row and cell its line number for
 * messages.
 */
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/units.h"
#include "traces/csv.h"
#include "traces/infile.h"

G_DEFINE_QUARK(cs-csv-error-quark, cs_csv_error)

/* Set err; false, for `return csv_fail(...)`. */
#define csv_fail(err, code, ...) (g_set_error(err, CS_CSV_ERROR, code, __VA_ARGS__), false)

/* cs_csv_read_header() reads at most this much: a header row longer than 1 MiB is not
 * a row of column names. */
#define CSV_MAX_HEADER_BYTES ((size_t)1 << 20)

static const struct cs_csv_read_opts default_opts;

enum cell_kind { CELL_NUMBER, CELL_NONFINITE, CELL_EMPTY, CELL_TEXT };

/* A cell as libcsv gives it (NUL-terminated at len; the text has no NUL byte, see
 * check_text()). Blanks around the number are
 * allowed (libcsv keeps them inside quotes); hex floats are text. */
static enum cell_kind classify_cell(const char *s, size_t len, double *out)
{
	const char *b = s, *e = s + len;
	char *end;
	double v;

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

struct colstat {
	bool bad;                  /* some cell is NaN/Inf or empty */
	size_t bad_line;           /* the first such cell */
	char *bad_text;            /* its text for the message, NULL when empty */
	size_t n_number, n_text;   /* cells of each kind (text: not a number) */
	size_t text_line;          /* the first text cell */
	char *first_text;
	GPtrArray *cells;          /* every cell's text, in the reader's chunk */
};

struct reader {
	const char *file;
	const struct cs_csv_read_opts *opts;
	size_t line;               /* physical line being fed to the parser */
	size_t row_line;           /* line of the current row's first field */
	size_t header_line;
	int field;                 /* fields seen in the current row */
	bool header_done;
	bool header_only;          /* stop after the header row (cs_csv_read_header) */
	GPtrArray *names;          /* header cells */
	int ncols;
	struct colstat *st;
	int time_col;
	size_t nrows;              /* data rows seen */
	double last_t;
	size_t last_t_line;
	GError *error;
	GArray *lines;             /* size_t: each row's line */
	GStringChunk *cells;       /* the cells' text until the trace is built */
};

static bool rd_fail(struct reader *r, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* The reader's first error (later ones are dropped); false. */
static bool rd_fail(struct reader *r, int code, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	if (r->error)
		return false;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(&r->error, CS_CSV_ERROR, code, "%s: %s", r->file, msg);
	return false;
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

/* The time column: the one the caller names (exactly, else ignoring case), else the
 * first of the default names; -1 with the reader's error set when there is none. */
static int find_time_col(struct reader *r)
{
	GPtrArray *names = r->names;
	int tc = -1;

	if (r->opts->time_column) {
		for (int i = 0; i < r->ncols && tc < 0; i++)
			if (strcmp(names->pdata[i], r->opts->time_column) == 0)
				tc = i;
		for (int i = 0; i < r->ncols && tc < 0; i++)
			if (g_ascii_strcasecmp(names->pdata[i], r->opts->time_column) == 0)
				tc = i;
		if (tc < 0) {
			g_autofree char *list = column_list(names);
			const char *const *cand = (const char *const *)names->pdata;
			const char *dym = cs_did_you_mean(r->opts->time_column, cand, names->len);

			rd_fail(r, CS_CSV_ERROR_NO_TIME,
				"line %zu: no time column \"%s\"%s%s%s; the columns are %s",
				r->header_line, r->opts->time_column, dym ? " (did you mean \"" : "",
				dym ? dym : "", dym ? "\"?)" : "", list);
		}
		return tc;
	}
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
	}
	return tc;
}

static void header_done(struct reader *r)
{
	GPtrArray *names = r->names;

	r->ncols = (int)names->len;
	for (int i = 0; i < r->ncols; i++) {
		char *n = names->pdata[i];

		g_strstrip(n);
		if (!*n && !r->header_only) {
			g_free(n);
			names->pdata[i] = n = g_strdup_printf("column %d", i + 1);
		}
	}
	if (r->header_only)
		return;
	/* a table may repeat a name: a sweep's results.csv has the varied "policy" and
	 * the metric "policy" */
	for (int i = 0; i < r->ncols && !r->opts->table; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(names->pdata[j], names->pdata[i]) == 0) {
				rd_fail(r, CS_CSV_ERROR_SYNTAX,
					"line %zu: column name \"%s\" appears twice (columns %d and %d); names must be unique",
					r->header_line, (char *)names->pdata[i], j + 1, i + 1);
				return;
			}
	r->time_col = -1;
	if (!r->opts->table && (r->time_col = find_time_col(r)) < 0)
		return;
	r->st = g_new0(struct colstat, (gsize)r->ncols);
	for (int i = 0; i < r->ncols; i++)
		r->st[i].cells = g_ptr_array_new();
}

/* The time column: a finite number, never less than the row before. */
static bool check_time(struct reader *r, int c, enum cell_kind kind, double v, const char *cell,
		       size_t len)
{
	if (kind != CELL_NUMBER) {
		g_autofree char *txt = cell_text(cell, len);

		return rd_fail(r, CS_CSV_ERROR_TIME,
			       "line %zu, column \"%s\": found %s, expected a time in seconds (a finite number)",
			       r->line, (char *)r->names->pdata[c],
			       kind == CELL_EMPTY ? "an empty cell" : txt);
	}
	if (r->nrows > 0 && v < r->last_t)
		return rd_fail(r, CS_CSV_ERROR_TIME,
			       "line %zu, column \"%s\": time goes backwards: %.17g s after %.17g s on line %zu",
			       r->line, (char *)r->names->pdata[c], v, r->last_t, r->last_t_line);
	r->last_t = v;
	r->last_t_line = r->line;
	return true;
}

/* Count the kinds of cells of the column, keeping the first odd one for the message. */
static void count_cell(struct colstat *st, size_t line, enum cell_kind kind, const char *cell,
		       size_t len)
{
	if (kind == CELL_NUMBER) {
		st->n_number++;
	} else if (kind == CELL_TEXT) {
		if (!st->n_text++) {
			st->text_line = line;
			st->first_text = cell_text(cell, len);
		}
	} else if (!st->bad) {          /* empty or not finite */
		st->bad = true;
		st->bad_line = line;
		st->bad_text = kind == CELL_EMPTY ? NULL : cell_text(cell, len);
	}
}

static void on_field(void *s, size_t len, void *data)
{
	struct reader *r = data;
	const char *cell = s ? s : "";
	int c = r->field++;
	double v = 0;
	enum cell_kind kind;

	if (r->error || (r->header_only && r->header_done))
		return;
	if (c == 0)
		r->row_line = r->line;
	if (!s)
		len = 0;
	if (!r->header_done) {
		if (c == 0)
			r->header_line = r->line;
		g_ptr_array_add(r->names, g_strndup(cell, len));
		return;
	}
	if (c >= r->ncols)
		return;                         /* reported at the end of the row */
	g_ptr_array_add(r->st[c].cells, g_string_chunk_insert(r->cells, cell));
	kind = classify_cell(cell, len, &v);
	if (c == r->time_col && !check_time(r, c, kind, v, cell, len))
		return;
	count_cell(&r->st[c], r->line, kind, cell, len);
}

static void on_row(int term, void *data)
{
	struct reader *r = data;
	int nf = r->field;

	(void)term;
	if (r->error || (r->header_only && r->header_done))
		return;
	r->field = 0;
	if (nf == 0)
		return;
	if (!r->header_done) {
		r->header_done = true;
		header_done(r);
		return;
	}
	if (nf != r->ncols) {
		rd_fail(r, CS_CSV_ERROR_SYNTAX,
			"line %zu: found %d field%s, expected %d as in the header on line %zu",
			r->row_line, nf, nf == 1 ? "" : "s", r->ncols, r->header_line);
		return;
	}
	g_array_append_val(r->lines, r->row_line);
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

static bool run_parser(struct reader *r, const char *data, size_t len, char delim)
{
	struct csv_parser p;
	size_t pos = 0;

	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return rd_fail(r, CS_CSV_ERROR_IO, "out of memory starting the CSV parser");
	csv_set_delim(&p, (unsigned char)delim);
	r->line = 1;
	while (pos < len && !r->error && !(r->header_only && r->header_done)) {
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
	if (!r->error && !(r->header_only && r->header_done) &&
	    csv_fini(&p, on_field, on_row, r) != 0)
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

/* A column kept as text whatever its cells: every column of a table, and the ones the
 * caller names (never the time column). */
static bool kept_as_text(const struct reader *r, int c)
{
	return r->opts->table || (c != r->time_col && r->opts->text_columns &&
				  g_strv_contains(r->opts->text_columns, r->names->pdata[c]));
}

/* After the last row: every numeric column holds finite numbers only. */
static bool check_columns(struct reader *r)
{
	for (int c = 0; c < r->ncols; c++) {
		struct colstat *st = &r->st[c];

		if (kept_as_text(r, c))
			continue;
		/* A column of numbers with a stray word in it is a number column with a
		 * bad cell, not a column of labels. */
		if (st->n_text && st->n_number > st->n_text)
			return rd_fail(r, CS_CSV_ERROR_VALUE,
				       "line %zu, column \"%s\": found %s, expected a number (the column's other cells are numbers)",
				       st->text_line, (char *)r->names->pdata[c], st->first_text);
		if (st->n_text || !st->bad)
			continue;
		/* All cells empty: a column of empty labels. */
		if (!st->n_number && !st->bad_text)
			continue;
		return rd_fail(r, CS_CSV_ERROR_VALUE,
			       "line %zu, column \"%s\": found %s, expected a finite number (the column's other cells are numbers)",
			       st->bad_line, (char *)r->names->pdata[c],
			       st->bad_text ? st->bad_text : "an empty cell");
	}
	return true;
}

/* The trace of the cells read: each column its numbers (checked finite by then) or its
 * labels. */
static cs_csv_trace *trace_new(struct reader *r, const char *name, char delim)
{
	cs_csv_trace *tr = g_new(cs_csv_trace, 1);

	*tr = (cs_csv_trace){ .file = g_strdup(name), .nrows = r->nrows, .ncols = r->ncols,
		.cols = g_new0(struct cs_csv_col, (gsize)r->ncols), .time_col = r->time_col,
		.line = (size_t *)(void *)g_array_free(g_steal_pointer(&r->lines), FALSE),
		.delim = delim, .strings = g_string_chunk_new(4096) };
	for (int c = 0; c < r->ncols; c++) {
		struct cs_csv_col *col = &tr->cols[c];
		const char *const *cells = (const char *const *)r->st[c].cells->pdata;

		col->name = g_string_chunk_insert(tr->strings, r->names->pdata[c]);
		col->is_label = kept_as_text(r, c) || r->st[c].n_text || !r->st[c].n_number;
		if (col->is_label)
			col->s = g_new0(const char *, r->nrows);
		else
			col->v = g_new0(double, r->nrows);
		for (size_t i = 0; i < r->nrows; i++)
			if (col->is_label)
				col->s[i] = g_string_chunk_insert_const(tr->strings, cells[i]);
			else
				classify_cell(cells[i], strlen(cells[i]), &col->v[i]);
	}
	tr->t = tr->time_col >= 0 ? tr->cols[tr->time_col].v : NULL;
	return tr;
}

/* No NUL byte, within the cap; skips a byte order mark. False with err. */
static bool check_text(const char *name, const char **data, size_t *len,
		       const struct cs_csv_read_opts *opts, GError **err)
{
	size_t cap = opts->max_bytes ? opts->max_bytes : CS_CSV_MAX_BYTES;

	if (memchr(*data, '\0', *len))
		return csv_fail(err, CS_CSV_ERROR_SYNTAX,
				"%s: found a NUL byte (a binary file?), expected CSV text", name);
	if (*len > cap)
		return csv_fail(err, CS_CSV_ERROR_TOO_BIG,
				"%s: the file is %zu bytes, over the limit of %zu bytes", name, *len,
				cap);
	if (*len >= 3 && memcmp(*data, "\xEF\xBB\xBF", 3) == 0) {
		*data += 3;
		*len -= 3;
	}
	return true;
}

static void reader_clear(struct reader *r)
{
	for (int c = 0; r->st && c < r->ncols; c++) {
		g_free(r->st[c].bad_text);
		g_free(r->st[c].first_text);
		g_ptr_array_free(r->st[c].cells, TRUE);
	}
	g_free(r->st);
	g_ptr_array_free(r->names, TRUE);
	if (r->lines)
		g_array_free(r->lines, TRUE);
	if (r->cells)
		g_string_chunk_free(r->cells);
}

cs_csv_trace *cs_csv_parse(const char *name, const char *data, size_t len,
			   const struct cs_csv_read_opts *opts, GError **err)
{
	struct reader r;
	cs_csv_trace *tr = NULL;
	char delim;

	if (!opts)
		opts = &default_opts;
	if (!check_text(name, &data, &len, opts, err))
		return NULL;
	r = (struct reader){ .file = name, .opts = opts,
		.names = g_ptr_array_new_with_free_func(g_free),
		.lines = g_array_new(FALSE, FALSE, sizeof(size_t)),
		.cells = g_string_chunk_new(65536) };
	delim = opts->delim ? opts->delim : sniff_delim(data, len);

	if (run_parser(&r, data, len, delim) &&
	    (r.header_done || rd_fail(&r, CS_CSV_ERROR_EMPTY,
				      "the file is empty, expected a header row of column names")) &&
	    (r.nrows > 0 || rd_fail(&r, CS_CSV_ERROR_EMPTY,
				    "no data rows after the header on line %zu", r.header_line)) &&
	    check_columns(&r))
		tr = trace_new(&r, name, delim);
	if (r.error)
		g_propagate_error(err, r.error);
	reader_clear(&r);
	return tr;
}

/* "PATH: cannot read: WHY" for errno; NULL. */
static void *read_failed(GError **err, const char *path)
{
	int e = errno;

	g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO, "%s: cannot read: %s", path, g_strerror(e));
	return NULL;
}

/* path opened for reading when it is a regular file; NULL with *special set and err
 * (naming what it is) when it is not (traces/infile.h: a FIFO would block), or with
 * errno when it cannot be opened. */
static FILE *open_regular(const char *path, bool *special, GError **err)
{
	const char *found;
	int fd = cs_open_regular(path, &found);
	FILE *fp;

	*special = fd < 0 && found;
	if (*special)
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO,
			    "%s: found %s, expected a CSV file (a regular file)", path, found);
	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "rb");
	if (!fp) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return fp;
}

/* The first row of a file (up to the first line break outside quotes), at most cap
 * bytes; "" for an empty file. NULL with err when it cannot be read. */
static char *read_first_row(const char *path, size_t cap, gsize *len, GError **err)
{
	bool quoted = false, content = false, done = false, failed, special;
	FILE *fp = open_regular(path, &special, err);
	GString *s;
	int c;

	if (!fp)
		return special ? NULL : read_failed(err, path);
	s = g_string_new(NULL);
	while (!done && s->len < cap && (c = getc(fp)) != EOF) {
		g_string_append_c(s, (char)c);
		if (c == '"')
			quoted = !quoted;
		if (c == '\n' && !quoted)
			done = content;   /* blank lines before the header do not count */
		else if (!g_ascii_isspace(c) && !(s->len <= 3 && g_str_has_prefix("\xEF\xBB\xBF", s->str)))
			content = true;   /* nor does a byte order mark */
	}
	failed = ferror(fp);
	fclose(fp);
	if (failed)
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO, "%s: read error", path);
	*len = s->len;
	return g_string_free(s, failed);   /* NULL when it failed */
}

char **cs_csv_read_header(const char *path, const struct cs_csv_read_opts *opts, GError **err)
{
	struct reader r;
	g_autofree char *text = NULL;
	const char *data;
	gsize len = 0;
	char **names = NULL;

	if (!opts)
		opts = &default_opts;
	text = read_first_row(path, MIN(opts->max_bytes ? opts->max_bytes : CS_CSV_MAX_BYTES,
					CSV_MAX_HEADER_BYTES), &len, err);
	if (!text)
		return NULL;
	data = text;
	if (!check_text(path, &data, &len, opts, err))
		return NULL;
	r = (struct reader){ .file = path, .opts = opts, .header_only = true,
		.names = g_ptr_array_new_with_free_func(g_free) };
	if (run_parser(&r, data, len, opts->delim ? opts->delim : sniff_delim(data, len))) {
		g_ptr_array_add(r.names, NULL);
		names = g_strdupv((char **)r.names->pdata);
	} else {
		g_propagate_error(err, r.error);
	}
	reader_clear(&r);
	return names;
}

/* Read the whole file, at most cap bytes of it, and parse it. */
static cs_csv_trace *read_file(const char *path, const GStatBuf *sb, size_t cap,
			       const struct cs_csv_read_opts *opts, GError **err)
{
	bool failed, special;
	FILE *fp = open_regular(path, &special, err);
	g_autoptr(GByteArray) buf = NULL;
	char chunk[65536];
	size_t n;

	if (fp == NULL && special)
		return NULL;
	if (fp == NULL && S_ISREG(sb->st_mode)) {
		int e = errno;
		g_autofree char *shown = g_filename_display_name(path);

		/* a regular file's message in the words of GLib, which used to open it */
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO,
			    "%s: cannot read: Failed to open file \xe2\x80\x9c%s\xe2\x80\x9d: open() failed: %s",
			    path, shown, g_strerror(e));
		return NULL;
	}
	if (!fp)
		return read_failed(err, path);
	buf = g_byte_array_new();
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0 && buf->len + n <= cap)
		g_byte_array_append(buf, (const guint8 *)chunk, (guint)n);
	failed = n > 0 || ferror(fp);
	fclose(fp);
	if (n > 0)
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOO_BIG,
			    "%s: more than the limit of %zu bytes", path, cap);
	else if (failed)
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO, "%s: read error", path);
	if (failed)
		return NULL;
	return cs_csv_parse(path, buf->len ? (const char *)buf->data : "", buf->len, opts, err);
}

cs_csv_trace *cs_csv_read(const char *path, const struct cs_csv_read_opts *opts, GError **err)
{
	size_t cap = opts && opts->max_bytes ? opts->max_bytes : CS_CSV_MAX_BYTES;
	GStatBuf sb;

	if (g_stat(path, &sb) != 0)
		return read_failed(err, path);
	if (S_ISDIR(sb.st_mode)) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_IO,
			    "%s: is a directory, expected a CSV file", path);
		return NULL;
	}
	if (S_ISREG(sb.st_mode) && (guint64)sb.st_size > (guint64)cap) {
		g_set_error(err, CS_CSV_ERROR, CS_CSV_ERROR_TOO_BIG,
			    "%s: the file is %llu bytes, over the limit of %zu bytes", path,
			    (unsigned long long)sb.st_size, cap);
		return NULL;
	}
	return read_file(path, &sb, cap, opts, err);
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

	if (i < 0)
		return csv_fail(err, CS_CSV_ERROR_SYNTAX, "%s: no column \"%s\" to rename",
				tr->file, from);
	if (!*to || (strcmp(from, to) != 0 && cs_csv_find_col(tr, to) >= 0))
		return csv_fail(err, CS_CSV_ERROR_SYNTAX, "%s: cannot rename \"%s\" to \"%s\": %s",
				tr->file, from, to,
				*to ? "a column has that name already" : "the new name is empty");
	tr->cols[i].name = g_string_chunk_insert(tr->strings, to);
	return true;
}
