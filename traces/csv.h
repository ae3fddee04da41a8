/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/csv.h - reading CSV traces: the one reader of trace.csv, golden traces,
 * captures from other tools and a sweep's results.csv.
 *
 * Any CSV with a header row of column names: chargesim's trace.csv, or a capture from
 * another tool such as a USB power meter ("Time(s),Voltage(V),Current(A)"). The file
 * is parsed with libcsv (strict quoting). The delimiter is ',' unless the header line
 * has more ';' or tabs than commas (or the caller fixes it); a UTF-8 byte order mark
 * is skipped. One column is the time axis: the one the caller names, else the first
 * of time_s, time, t, "time [s]", "Time(s)" (case and blanks ignored). Its cells must
 * be finite numbers in seconds that never decrease (equal times are allowed:
 * chargesim writes two rows at an event instant, the state before and after). A
 * column whose every cell is a number is numeric (double, parsed
 * locale-independently); a column with any other text is a label column
 * (charger_state) kept as strings. In a numeric column "nan", "inf" or an empty cell
 * is an error. Every error is a CS_CSV_ERROR whose message starts with the file and,
 * where there is one, the line and the column:
 *   trace.csv: line 12, column "vbus_V": found "nan", expected a finite number
 * Bad input never crashes; a file over the size cap (1 GiB by default) is refused
 * before it is read.
 *
 * A table (opts.table: a sweep's results.csv) has no time column, keeps every column
 * as text and may repeat a column name (cs_csv_find_col() finds the first); only its
 * shape is checked.
 */
#ifndef CS_TRACES_CSV_H
#define CS_TRACES_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

#define CS_CSV_ERROR (cs_csv_error_quark())
GQuark cs_csv_error_quark(void);
enum cs_csv_error {
	CS_CSV_ERROR_IO,         /* cannot open or read the file */
	CS_CSV_ERROR_TOO_BIG,    /* over the size cap */
	CS_CSV_ERROR_EMPTY,      /* no header, or no data row */
	CS_CSV_ERROR_SYNTAX,     /* quoting, ragged row, duplicated column name */
	CS_CSV_ERROR_NO_TIME,    /* no time column */
	CS_CSV_ERROR_TIME,       /* a time cell not a number, or time going backwards */
	CS_CSV_ERROR_VALUE,      /* NaN, Inf or empty cell in a numeric column */
	CS_CSV_ERROR_TOLERANCE,  /* a tolerance that does not parse (traces/tolerance.h) */
};

#define CS_CSV_MAX_BYTES ((size_t)1 << 30)   /* default size cap: 1 GiB */

struct cs_csv_read_opts {
	const char *time_column;   /* NULL: the default names above */
	size_t max_bytes;          /* 0: CS_CSV_MAX_BYTES */
	char delim;                /* 0: sniffed from the header line */
	/* Columns kept as text even when every cell is a number (state columns);
	 * NULL-terminated, or NULL. */
	const char *const *text_columns;
	bool table;                /* no time column; every column kept as text */
};

struct cs_csv_col {
	const char *name;          /* owned by the trace's string chunk */
	bool is_label;
	double *v;                 /* numeric column: nrows finite values, else NULL */
	const char **s;            /* label column: nrows strings, else NULL */
};

typedef struct cs_csv_trace {
	char *file;                /* as given, for messages */
	size_t nrows;              /* data rows (>= 1) */
	int ncols;                 /* including the time column */
	struct cs_csv_col *cols;
	int time_col;              /* index of the time column in cols; -1 for a table */
	const double *t;           /* == cols[time_col].v, non-decreasing; NULL for a table */
	size_t *line;              /* 1-based line of each row in the file */
	char delim;
	GStringChunk *strings;     /* owns the column names and label strings */
} cs_csv_trace;

/* Read a file. NULL opts: defaults. NULL and err set on any failure. */
cs_csv_trace *cs_csv_read(const char *path, const struct cs_csv_read_opts *opts, GError **err);
/* The same from memory; name is used in messages. */
cs_csv_trace *cs_csv_parse(const char *name, const char *data, size_t len,
			   const struct cs_csv_read_opts *opts, GError **err);
void cs_csv_trace_free(cs_csv_trace *tr);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(cs_csv_trace, cs_csv_trace_free)

/* The names of the header row alone (blanks around them removed), to check a file's
 * columns before reading it whole; opts as for cs_csv_read() (only delim and
 * max_bytes matter). An empty vector for a file without a header; NULL with err
 * when the file cannot be read or its header line does not parse. g_strfreev. */
char **cs_csv_read_header(const char *path, const struct cs_csv_read_opts *opts, GError **err);

/* Index of the column named name (exact match), or -1. */
int cs_csv_find_col(const cs_csv_trace *tr, const char *name);

/* Rename a column (to compare a capture's "Voltage(V)" with a trace's vbus_V). False
 * with err when from is not there or to already is. */
bool cs_csv_rename_col(cs_csv_trace *tr, const char *from, const char *to, GError **err);

#endif
