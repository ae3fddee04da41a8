// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/trace.c - streaming CSV and VCD writers for the signal recorder.
 *
 * Numbers are formatted by hand (fixed decimals via integer arithmetic) rather than
 * with printf("%g"): a full-charge run writes tens of thousands of values and printf
 * would dominate its run time. Header fields go through libcsv so that any name that
 * needs quoting is quoted the standard way.
 */
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim/outfile.h"
#include "sim/trace.h"

struct trace {
	struct trace_col *cols;
	int ncols;
	struct cs_outfile *csv;
	struct cs_outfile *vcd;
	double *vcd_last;      /* last values written to the VCD, NAN before the first */
	char (*vcd_id)[8];     /* VCD identifier code of each column */
	sim_time_t vcd_last_t;
	uint64_t rows;
};

static const int64_t pow10_tab[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

/* Write the decimal digits of u (u >= 0) at buf, return the count. */
static int fmt_u64(char *buf, uint64_t u)
{
	char tmp[24];
	int n = 0, i;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* Append ".frac" with `digits` digits, then cut trailing zeros (and a bare dot). */
static int fmt_frac(char *buf, int len, uint64_t frac, int digits)
{
	int i;

	if (digits == 0 || frac == 0)
		return len;
	buf[len++] = '.';
	for (i = digits - 1; i >= 0; i--) {
		buf[len + i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	len += digits;
	while (buf[len - 1] == '0')
		len--;
	return len;
}

int trace_fmt_time(char *buf, sim_time_t t)
{
	int len = 0;
	uint64_t u;

	if (t < 0) {
		buf[len++] = '-';
		u = (uint64_t)(-(t + 1)) + 1;
	} else {
		u = (uint64_t)t;
	}
	len += fmt_u64(buf + len, u / 1000000000u);
	len = fmt_frac(buf, len, u % 1000000000u, 9);
	buf[len] = '\0';
	return len;
}

int trace_fmt_fixed(char *buf, double v, int decimals)
{
	int64_t scale, x;
	uint64_t u;
	int len = 0;

	if (!isfinite(v))
		return snprintf(buf, 40, "nan");
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	scale = pow10_tab[decimals];
	if (fabs(v) * (double)scale >= 9e18)
		return snprintf(buf, 40, "%.*f", decimals, v);
	x = llround(v * (double)scale);
	if (x == 0) {
		buf[0] = '0';
		buf[1] = '\0';
		return 1;
	}
	if (x < 0) {
		buf[len++] = '-';
		u = (uint64_t)(-x);
	} else {
		u = (uint64_t)x;
	}
	len += fmt_u64(buf + len, u / (uint64_t)scale);
	len = fmt_frac(buf, len, u % (uint64_t)scale, decimals);
	buf[len] = '\0';
	return len;
}

struct trace *trace_new(const struct trace_col *cols, int ncols)
{
	struct trace *tr = g_new0(struct trace, 1);

	tr->cols = g_memdup2(cols, sizeof(*cols) * (size_t)ncols);
	tr->ncols = ncols;
	tr->vcd_last = g_new(double, (size_t)ncols);
	tr->vcd_id = g_malloc0_n((gsize)ncols, sizeof(*tr->vcd_id));
	tr->vcd_last_t = -1;
	for (int i = 0; i < ncols; i++) {
		int k = i, n = 0;

		tr->vcd_last[i] = NAN;
		/* Identifier codes in base 94 over the printable ASCII range. */
		do {
			tr->vcd_id[i][n++] = (char)('!' + k % 94);
			k /= 94;
		} while (k && n < 7);
	}
	return tr;
}

/* Write one CSV field: plain when it needs no quoting, else through libcsv. */
static void csv_put_field(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(fp, s, strlen(s));
	else
		fputs(s, fp);
}

static void trace_write_vcd_header(struct trace *tr)
{
	FILE *fp = tr->vcd->fp;

	fprintf(fp, "$version chargesim %s $end\n$timescale 1 ns $end\n", CHARGESIM_VERSION);
	fprintf(fp, "$scope module chargesim $end\n");
	for (int i = 0; i < tr->ncols; i++) {
		const struct trace_col *c = &tr->cols[i];

		if (c->labels) {
			fprintf(fp, "$comment %s:", c->name);
			for (int k = 0; k < c->n_labels; k++)
				fprintf(fp, " %d=%s", k, c->labels[k]);
			fprintf(fp, " $end\n$var integer 8 %s %s $end\n", tr->vcd_id[i], c->name);
		} else {
			fprintf(fp, "$var real 64 %s %s $end\n", tr->vcd_id[i], c->name);
		}
	}
	fprintf(fp, "$upscope $end\n$enddefinitions $end\n");
}

bool trace_open(struct trace *tr, const char *csv_path, const char *vcd_path, GError **err)
{
	if (csv_path) {
		tr->csv = cs_outfile_open(csv_path, false, err);
		if (!tr->csv)
			return false;
		fputs("time_s", tr->csv->fp);
		for (int i = 0; i < tr->ncols; i++) {
			fputc(',', tr->csv->fp);
			csv_put_field(tr->csv->fp, tr->cols[i].name);
		}
		fputc('\n', tr->csv->fp);
	}
	if (vcd_path) {
		tr->vcd = cs_outfile_open(vcd_path, false, err);
		if (!tr->vcd) {
			cs_outfile_abort(tr->csv);
			tr->csv = NULL;
			return false;
		}
		trace_write_vcd_header(tr);
	}
	return true;
}

static void trace_vcd_row(struct trace *tr, sim_time_t t, const double *v)
{
	FILE *fp = tr->vcd->fp;
	bool stamped = false;

	for (int i = 0; i < tr->ncols; i++) {
		if (v[i] == tr->vcd_last[i])
			continue;
		if (!stamped && t != tr->vcd_last_t) {
			fprintf(fp, "#%lld\n", (long long)t);
			tr->vcd_last_t = t;
		}
		stamped = true;
		if (tr->cols[i].labels) {
			unsigned k = (unsigned)v[i];
			char bits[9];
			int n = 0;

			for (int b = 7; b >= 0; b--)
				if (n || (k >> b) & 1u || b == 0)
					bits[n++] = (char)('0' + ((k >> b) & 1u));
			bits[n] = '\0';
			fprintf(fp, "b%s %s\n", bits, tr->vcd_id[i]);
		} else {
			fprintf(fp, "r%.9g %s\n", v[i], tr->vcd_id[i]);
		}
		tr->vcd_last[i] = v[i];
	}
}

void trace_row(struct trace *tr, sim_time_t t, const double *v)
{
	char buf[48];

	tr->rows++;
	if (tr->csv) {
		FILE *fp = tr->csv->fp;
		int n = trace_fmt_time(buf, t);

		fwrite(buf, 1, (size_t)n, fp);
		for (int i = 0; i < tr->ncols; i++) {
			const struct trace_col *c = &tr->cols[i];

			fputc(',', fp);
			if (c->labels) {
				int k = (int)v[i];

				fputs(k >= 0 && k < c->n_labels ? c->labels[k] : "?", fp);
			} else {
				n = trace_fmt_fixed(buf, v[i], c->decimals);
				fwrite(buf, 1, (size_t)n, fp);
			}
		}
		fputc('\n', fp);
	}
	if (tr->vcd)
		trace_vcd_row(tr, t, v);
}

uint64_t trace_rows(const struct trace *tr)
{
	return tr->rows;
}

bool trace_close(struct trace *tr, GError **err)
{
	bool ok = true;

	if (tr->csv) {
		ok = cs_outfile_commit(tr->csv, err);
		tr->csv = NULL;
	}
	if (tr->vcd) {
		if (ok)
			ok = cs_outfile_commit(tr->vcd, err);
		else
			cs_outfile_abort(tr->vcd);
		tr->vcd = NULL;
	}
	return ok;
}

void trace_free(struct trace *tr)
{
	if (!tr)
		return;
	cs_outfile_abort(tr->csv);
	cs_outfile_abort(tr->vcd);
	g_free(tr->cols);
	g_free(tr->vcd_last);
	g_free(tr->vcd_id);
	g_free(tr);
}
