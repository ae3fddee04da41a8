/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/csvtrace.h - reading CSV traces and comparing two of them with tolerances.
 *
 * Reading. Any CSV with a header row of column names: chargesim's trace.csv, or a
 * capture from another tool such as a USB power meter ("Time(s),Voltage(V),Current(A)").
 * The file is parsed with libcsv (strict quoting). The delimiter is ',' unless the
 * header line has more ';' or tabs than commas; a UTF-8 byte order mark is skipped.
 * One column is the time axis: the one the caller names, else the first of time_s,
 * time, t, "time [s]", "Time(s)" (case and blanks ignored). Its cells must be finite
 * numbers in seconds that never decrease (equal times are allowed: chargesim writes
 * two rows at an event instant, the state before and after). A column whose every cell
 * is a number is numeric (double, parsed locale-independently); a column with any
 * other text is a label column (charger_state) kept as strings. In a numeric column
 * "nan", "inf" or an empty cell is an error. Every error is a CS_CSV_ERROR whose
 * message starts with the file and, where there is one, the line and the column:
 *   trace.csv: line 12, column "vbus_V": found "nan", expected a finite number
 * Bad input never crashes; a file over the size cap (1 GiB by default) is refused
 * before it is read.
 *
 * Comparing. cs_diff_traces(cand, ref, opts): the reference (golden, B) is
 * interpolated linearly onto every row time of the candidate (A) inside the
 * reference's time range, so every candidate sample is checked against the trusted
 * trace. A value passes when
 *     |A - B| <= abs + rel * |B|          (B: the reference value at that time)
 * with abs and rel from the column's tolerance, else from "*", else 0 (exact). Rows
 * at an instant the reference holds several times (before/after an event) are
 * matched in order, the last candidate row with the last reference row; label columns
 * compare exactly with the reference row at or before each candidate time. See
 * docs/diff.md for the reasons.
 */
#ifndef CS_TRACES_CSVTRACE_H
#define CS_TRACES_CSVTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>
#include "sim/units.h"

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
	CS_CSV_ERROR_TOLERANCE,  /* a tolerance that does not parse */
};

#define CS_CSV_MAX_BYTES ((size_t)1 << 30)   /* default size cap: 1 GiB */

struct cs_csv_read_opts {
	const char *time_column;   /* NULL: the default names above */
	size_t max_bytes;          /* 0: CS_CSV_MAX_BYTES */
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
	int time_col;              /* index of the time column in cols */
	const double *t;           /* == cols[time_col].v, non-decreasing */
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

/* Index of the column named name (exact match), or -1. */
int cs_csv_find_col(const cs_csv_trace *tr, const char *name);

/* Rename a column (to compare a capture's "Voltage(V)" with a trace's vbus_V). False
 * with err when from is not there or to already is. */
bool cs_csv_rename_col(cs_csv_trace *tr, const char *from, const char *to, GError **err);

/* The dimension a column's name implies, for units in tolerances and messages:
 * suffix _V, "(V)" or "[V]" volts; _A amps; _s seconds; _W watts; a name starting with
 * "soc" a fraction ("0.5 %"); anything else UNIT_NONE (plain numbers). */
enum unit_dim cs_csv_col_dim(const char *name);

/* ---- tolerances ---- */

struct cs_tolerances;          /* column name (or "*") -> abs, rel */

typedef struct cs_tolerances cs_tolerances;
struct cs_tolerances *cs_tolerances_new(void);
void cs_tolerances_free(struct cs_tolerances *tol);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(cs_tolerances, cs_tolerances_free)

/* Set (or replace) the entry of column ("*" for the default). An entry replaces "*"
 * entirely for its column: a column given only abs has rel 0. abs and rel must be
 * finite and >= 0; false with err otherwise. */
bool cs_tolerances_set(struct cs_tolerances *tol, const char *column, double abs,
		       double rel, GError **err);
/* Parse "COLUMN=abs:X,rel:Y" (either or both, in any order) or "COLUMN=exact" and
 * set it. X may carry a unit of the column's dimension ("5mV" for vbus_V, "2 ms" for
 * time_s); Y is a plain number or a percentage ("1e-3", "0.1%"). */
bool cs_tolerances_parse(struct cs_tolerances *tol, const char *text, GError **err);
/* Parse one value as the scenario's "tolerance" object writes it: an abs value for
 * column (a number, or a string with a unit of the column's dimension), or a rel value
 * (plain number or "0.1 %") when is_rel. where prefixes the error message. */
bool cs_tolerance_value_parse(const char *column, bool is_rel, const char *text,
			      double *out, const char *where, GError **err);
/* The tolerance applying to column: its own entry, else "*", else 0 and 0. Returns
 * true when an entry (own or "*") applied. */
bool cs_tolerances_lookup(const struct cs_tolerances *tol, const char *column, double *abs,
			  double *rel);
/* Number of entries and the i-th column name (in the order they were first set). */
guint cs_tolerances_count(const struct cs_tolerances *tol);
const char *cs_tolerances_column(const struct cs_tolerances *tol, guint i);
/* "exact", "5 mV", "1e-3*|B|", "5 mV + 1e-3*|B|" (unit from the column name). */
char *cs_tolerance_describe(const char *column, double abs, double rel);

/* ---- comparison ---- */

struct cs_diff_opts {
	const struct cs_tolerances *tol;  /* NULL: every column exact */
	/* false (default): the two time ranges must agree (within the time column's
	 * tolerance) or the diff fails; true: compare the overlap only. */
	bool overlap_only;
};

enum cs_diff_presence {
	CS_DIFF_BOTH,
	CS_DIFF_ONLY_CAND,       /* column only in the candidate (A): not compared */
	CS_DIFF_ONLY_REF,        /* column only in the reference (B): not compared */
};

struct cs_diff_col {
	const char *name;          /* points into the candidate (or reference) trace */
	enum cs_diff_presence presence;
	bool is_label;
	bool kind_mismatch;        /* numeric in one file, labels in the other: fails */
	bool pass;                 /* true for columns not compared */
	double abs, rel;           /* the tolerance applied */
	size_t n_compared;         /* candidate rows compared */
	size_t n_failed;           /* of which outside tolerance / label differs */
	/* The worst row: the largest |A-B| / (abs + rel*|B|), ties to the larger |A-B|,
	 * then the earlier row; for labels the first differing row. has_worst is false
	 * when every compared row is identical. */
	bool has_worst;
	size_t row;                /* candidate row index */
	size_t line;               /* its line in the candidate file */
	double t;                  /* its time, s */
	double cand, ref;          /* numeric: A and B (interpolated) values there */
	double dev, allowed;       /* |A-B| and abs + rel*|B| there */
	const char *cand_label, *ref_label;   /* label columns */
	double max_dev, max_dev_t; /* the largest |A-B| and its time (numeric) */
};

typedef struct cs_diff {
	int ncols;                 /* compared and one-sided columns, time excluded */
	struct cs_diff_col *cols;  /* candidate's columns in order, then reference-only */
	double cand_t0, cand_t1;   /* time ranges of the two traces */
	double ref_t0, ref_t1;
	bool span_ok;              /* ranges agree, or overlap_only */
	size_t n_rows;             /* candidate rows inside the reference's range */
	size_t n_outside;          /* candidate rows outside it (not compared) */
	int n_compared;            /* columns present in both */
	int n_failed;              /* of which failed */
	bool pass;                 /* span_ok, something compared, every column passed */
} cs_diff;

/* Compare candidate (A) against reference (B). Never fails on valid traces. */
struct cs_diff *cs_diff_traces(const cs_csv_trace *cand, const cs_csv_trace *ref,
			       const struct cs_diff_opts *opts);
void cs_diff_free(struct cs_diff *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(cs_diff, cs_diff_free)

/* One line about a column, for messages:
 *   vbus_V at t = 312.4 s (line 80): A 4.8123 V, B 4.8 V, |A-B| 12.3 mV > allowed 9.8 mV (17 of 784 rows)
 *   charger_state at t = 1803.2 s (line 400): A "cv", B "cc" (3 of 784 rows)
 * Caller frees. */
char *cs_diff_col_describe(const struct cs_diff_col *c);
/* Why the diff failed, in one line (the time-range mismatch, nothing compared, or
 * the first failed column), or NULL when it passed. Caller frees. */
char *cs_diff_reason(const struct cs_diff *d);
/* A value with the column's unit and an SI prefix: "12.3 mV", "4.8123 V", "0.25". */
char *cs_csv_fmt_value(const char *column, double v, int digits);

#endif
