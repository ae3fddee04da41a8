/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output/trace.h - the signal recorder: trace.csv and trace.vcd.
 *
 * A trace has a time column ("time_s", exact to the nanosecond) followed by a fixed
 * list of columns (numbers with a unit and a number of decimals,
 * or labels drawn from a fixed list) declared before the first row. Rows are streamed
 * to the files as they come, so memory does not grow with simulated time. The CSV
 * starts with a header row; the VCD (IEEE 1364 value change dump, real-valued
 * variables, 1 ns timescale) writes only the values that changed. Both files are
 * atomic outputs: they appear under their final names only when trace_close()
 * succeeds. Deciding *when* to write a row (decimation) is the caller's business.
 */
#ifndef CS_OUTPUT_TRACE_H
#define CS_OUTPUT_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include "sim/time.h"

struct trace_col {
	const char *name;           /* CSV header and VCD variable name, e.g. "vbus_V" */
	const char *unit;           /* "V", "A", "" */
	int decimals;               /* fixed decimals in the CSV (ignored for labels) */
	const char *const *labels;  /* non-NULL: value is an index into labels */
	int n_labels;
};

struct trace;

struct trace *trace_new(const struct trace_col *cols, int ncols);
/* Open the outputs; either path may be NULL. */
bool trace_open(struct trace *tr, const char *csv_path, const char *vcd_path, GError **err);
void trace_row(struct trace *tr, sim_time_t t, const double *values);
uint64_t trace_rows(const struct trace *tr);
/* Bytes of trace.csv written or waiting to be, so far. */
uint64_t trace_bytes(const struct trace *tr);
/* True, with err set ("PATH: cannot write output file: REASON"), once a write to one
 * of the files has failed (a full disk, a file size limit): the caller should stop,
 * since nothing more is written; trace_close() then fails the same way. */
bool trace_write_failed(const struct trace *tr, GError **err);
/* Commit the files (atomic rename). */
bool trace_close(struct trace *tr, GError **err);
/* Drop any open outputs (temporary files removed) and free. NULL is fine. */
void trace_free(struct trace *tr);

/* Format helpers shared with other writers. Each returns the length written into
 * buf (which must hold 40 bytes, NUL included). */
/* "4.123456", trailing 0s cut; NaN and infinities as "nan"; numbers of 9e18 units of
 * the last decimal or more are cut to 39 characters (the CSV writes them whole). */
int trace_fmt_fixed(char *buf, double v, int decimals);
/* Exactly what snprintf(buf, 40, "%.9g", v) writes, for every double (the VCD's reals). */
int trace_fmt_g9(char *buf, double v);
/* Exactly what snprintf(buf, 40, "%.*g", prec, v) writes, for every double and
 * 1 <= prec <= 9 (the metrics' numbers); other precisions go to snprintf itself. */
int trace_fmt_g(char *buf, double v, int prec);

#endif
