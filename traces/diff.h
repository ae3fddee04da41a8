/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * traces/diff.h - comparing two CSV traces with tolerances.
 *
 * cs_diff_traces(cand, ref, opts): the reference (golden, B) is interpolated linearly
 * onto every row time of the candidate (A) inside the reference's time range
 * (traces/interp.h), so every candidate sample is checked against the trusted trace.
 * A value passes when
 *     |A - B| <= abs + rel * |B|          (B: the reference value at that time)
 * with abs and rel from the column's tolerance, else from "*", else 0 (exact)
 * (traces/tolerance.h). Label columns compare exactly with the reference row at or
 * before each candidate time. See docs/diff.md for the reasons.
 */
#ifndef CS_TRACES_DIFF_H
#define CS_TRACES_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>
#include "traces/csv.h"
#include "traces/tolerance.h"

struct cs_diff_opts {
	const struct cs_tolerances *tol;  /* NULL: every column exact */
	/* false (default): the two time ranges must agree (within the time column's
	 * tolerance) or the diff fails; true: compare the overlap only. */
	bool overlap_only;
	/* > 0 (seconds): a candidate value also passes when it lies within tolerance of
	 * the reference anywhere within this time of its row - between the lowest and
	 * highest reference value over [t - time_shift, t + time_shift], or any label in
	 * force there - so an event that moved by up to time_shift (a charge termination
	 * 70 ms later under fixed steps) is not a failure. 0: at the row's time only. */
	double time_shift;
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
	double cand, ref;          /* numeric: A and B (interpolated) values there; with
				    * time_shift, B is the reference value within the
				    * shift nearest to A */
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
	double time_shift;         /* the options' time_shift, s */
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

#endif
