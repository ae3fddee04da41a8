// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output/trace.c - streaming CSV and VCD writers for the signal recorder.
 *
 * Numbers are formatted by hand rather than with printf: a full-charge run writes tens
 * of thousands of values and printf would dominate its run time. The CSV has fixed
 * decimals via integer arithmetic; the VCD has reals as printf's "%.9g" would print
 * them, byte for byte (trace_fmt_g9: the usual values in floating point, printf itself
 * for the rest). Each output collects
 * whole rows in its own buffer and hands it to stdio in large chunks, so that a row
 * costs no stdio call per field. Header fields go through libcsv so that any name
 * that needs quoting is quoted the standard way.
 */
#include <errno.h>
#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "output/outfile.h"
#include "output/trace.h"
#include "sim/units.h"

/*
 * Bytes collected before they go to the file in one write: enough that the per-call
 * cost vanishes, few enough pages that a short run does not pay for touching them
 * (4 to 32 kB measured alike on a full charge). A row is at most trace->row_max bytes
 * and is only started with that much room left.
 */
#define TRACE_CHUNK (8 * 1024)

/* The number formatters copy fixed-size blocks and may write up to this many bytes
 * past the end of what they format. */
#define ROW_SLACK 32

/* One output file and the rows waiting for it. */
struct trace_out {
	struct cs_outfile *f;
	char *buf;             /* TRACE_CHUNK + row_max + ROW_SLACK bytes */
	size_t len;
	int err;               /* errno of the first write that failed; 0: none */
	uint64_t bytes;        /* handed to the file so far */
};

/*
 * A state label as the CSV writes it: its length, and the text in a fixed-size,
 * zero-padded array so that a row copies it whole, without strlen or a call (a label
 * longer than the array is copied from the column's own string).
 */
#define LABEL_TEXT_W 16
struct label_text {
	char text[LABEL_TEXT_W];
	size_t len;
};

#define CSV_CACHE_W 24
struct trace_col_out {
	struct trace_col c;
	/* The last CSV text: many columns keep their value from row to row (limits,
	 * states, temperature), and copying the text is cheaper than formatting it. */
	uint64_t csv_bits;     /* the value's bit pattern */
	int csv_len;           /* 0: nothing cached */
	char csv_text[CSV_CACHE_W];
	struct label_text *label_text;  /* with labels: each label padded */
	double vcd_last;       /* the last value written to the VCD, NAN before the first */
	char vcd_id[8];        /* VCD identifier code, zero-padded */
	int vcd_id_len;
};

struct trace {
	struct trace_col_out *cols;
	int ncols;
	size_t row_max;        /* the longest CSV row or VCD change block */
	struct trace_out csv;
	struct trace_out vcd;
	sim_time_t vcd_last_t;
	uint64_t rows;
};

/* 10^k as doubles for |k| <= 22, all exact. */
#define POW10(k) g_pow10[(k) + 22]
static const double g_pow10[] = {
	1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11,
	1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4,
	1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
	1e20, 1e21, 1e22,
};

/* '0' in every byte: added to a word of digits (0..9 a byte) it makes their text. */
#define ASCII_ZEROS 0x3030303030303030ull

/*
 * The eight decimal digits of x < 10^8, most significant first, one a byte of a
 * little-endian word (values 0..9, not yet text), worked out in parallel lanes rather
 * than digit by digit: x = h * 10^4 + l puts h and l in two 32-bit lanes, each lane's
 * n < 10^4 becomes n / 100 and n % 100 in two 16-bit lanes, and each of those m < 100
 * becomes m / 10 and m % 10 in two bytes. The divisions are multiply-and-shift:
 * n * 10486 >> 20 is n / 100 for every n < 10^4, m * 103 >> 10 is m / 10 for every
 * m < 100 (tests/test_trace.c checks both over their whole ranges), and no product
 * reaches the next lane.
 */
static inline uint64_t digits8(uint32_t x)
{
	uint64_t v = x / 10000u | (uint64_t)(x % 10000u) << 32;
	uint64_t q = (v * 10486u >> 20) & 0x0000007f0000007full;

	v = q | (v - q * 100u) << 16;
	q = (v * 103u >> 10) & 0x000f000f000f000full;
	return q | (v - q * 10u) << 8;
}

/* How many digits of a nonzero digits8() word are left once trailing zeros are cut. */
static inline int digits8_len(uint64_t w)
{
	return 8 - (__builtin_clzll(w) >> 3);
}

/* Write the decimal digits of u at buf, return the count (10 bytes written at most). */
static inline int fmt_u32(char *buf, uint32_t u)
{
	uint64_t w;
	uint32_t hi;
	int lead, n;

	if (u < 10) {
		buf[0] = (char)('0' + u);
		return 1;
	}
	if (u < 100000000u) {
		/* Leading zeros are the word's low zero bytes (u >= 10: not all of them). */
		w = digits8(u);
		lead = __builtin_ctzll(w) >> 3;
		w = (w + ASCII_ZEROS) >> (8 * lead);
		memcpy(buf, &w, 8);
		return 8 - lead;
	}
	/* one or two leading digits; with one, the eight that follow overwrite buf[1] */
	hi = u / 100000000u;
	n = hi >= 10 ? 2 : 1;
	buf[0] = (char)('0' + (n == 2 ? hi / 10 : hi));
	buf[1] = (char)('0' + hi % 10);
	w = digits8(u % 100000000u) + ASCII_ZEROS;
	memcpy(buf + n, &w, 8);
	return n + 8;
}

/* Write the decimal digits of u at buf, return the count (20 bytes written at most). */
static inline int fmt_u64(char *buf, uint64_t u)
{
	uint64_t w;
	int n;

	if (u <= UINT32_MAX)
		return fmt_u32(buf, (uint32_t)u);
	if (u < 10000000000000000ull) {
		/* u / 10^8 >= 42: its own digits, then eight. */
		n = fmt_u32(buf, (uint32_t)(u / 100000000u));
	} else {
		uint64_t hi = u / 100000000u;

		n = fmt_u32(buf, (uint32_t)(hi / 100000000u));
		w = digits8((uint32_t)(hi % 100000000u)) + ASCII_ZEROS;
		memcpy(buf + n, &w, 8);
		n += 8;
	}
	w = digits8((uint32_t)(u % 100000000u)) + ASCII_ZEROS;
	memcpy(buf + n, &w, 8);
	return n + 8;
}

static int fmt_i64(char *buf, int64_t x)
{
	if (x < 0) {
		buf[0] = '-';
		return 1 + fmt_u64(buf + 1, (uint64_t)(-(x + 1)) + 1);
	}
	return fmt_u64(buf, (uint64_t)x);
}

/* Append ".frac" with `digits` digits (frac < 10^digits, digits <= 9), trailing zeros
 * cut, nothing when frac is 0; up to 10 bytes are written after buf + len. */
static inline int fmt_frac(char *buf, int len, uint32_t frac, int digits)
{
	uint64_t w;

	if (digits == 0 || frac == 0)
		return len;
	buf[len++] = '.';
	if (digits == 9) {
		buf[len++] = (char)('0' + frac / 100000000u);
		frac %= 100000000u;
		if (frac == 0)
			return len;
	} else {
		frac *= (uint32_t)POW10(8 - digits);
	}
	w = digits8(frac);
	memcpy(buf + len, &(uint64_t){ w + ASCII_ZEROS }, 8);
	return len + digits8_len(w);
}

/*
 * A time of u nanoseconds, split once for both files: the CSV writes seconds
 * "S.fffffffff" with trailing zeros cut, the VCD the whole number of nanoseconds,
 * whose digits are the same seconds followed by the nine of the fraction.
 */
struct row_time {
	char sec[32];          /* the digits of u / 10^9 (fmt_u64 writes 28 bytes at most) */
	int sec_len;
	uint32_t frac;         /* u % 10^9 */
	uint64_t frac8;        /* digits8() of frac % 10^8 */
};

static inline void row_time_split(struct row_time *rt, uint64_t u)
{
	rt->sec_len = fmt_u64(rt->sec, u / 1000000000u);
	rt->frac = (uint32_t)(u % 1000000000u);
	rt->frac8 = digits8(rt->frac % 100000000u);
}

/* The CSV's time, without a sign or the NUL (24 bytes written at least). */
static inline int row_time_csv(char *buf, const struct row_time *rt)
{
	int len = rt->sec_len;

	memcpy(buf, rt->sec, 24);
	if (rt->frac == 0)
		return len;
	buf[len++] = '.';
	buf[len++] = (char)('0' + rt->frac / 100000000u);
	if (rt->frac8 == 0)
		return len;
	memcpy(buf + len, &(uint64_t){ rt->frac8 + ASCII_ZEROS }, 8);
	return len + digits8_len(rt->frac8);
}

/* The VCD's time stamp: fmt_u64() of u. */
static inline int row_time_vcd(char *buf, const struct row_time *rt)
{
	int len = rt->sec_len;

	if (len == 1 && rt->sec[0] == '0')
		return fmt_u32(buf, rt->frac);
	memcpy(buf, rt->sec, 24);
	buf[len++] = (char)('0' + rt->frac / 100000000u);
	memcpy(buf + len, &(uint64_t){ rt->frac8 + ASCII_ZEROS }, 8);
	return len + 8;
}

/*
 * The longest fixed-point number: "%.9f" of -DBL_MAX is a sign, 309 integer digits, a
 * point and 9 decimals.
 */
#define FIXED_MAX 330

/*
 * llround() for |y| < 2^63, inline: y's integer part and fractional part are both
 * exact doubles, so the half-way test is exact; halves round away from zero.
 */
static inline int64_t round_half_away(double y)
{
	int64_t r = (int64_t)y;
	double f = y - (double)r;

	if (f >= 0.5)
		r++;
	else if (f <= -0.5)
		r--;
	return r;
}

/* trace_fmt_fixed into a buffer of FIXED_MAX bytes: never cut. */
static int fmt_fixed(char *buf, double v, int decimals)
{
	uint64_t u, scale;
	int64_t x;
	int len = 0;

	if (!isfinite(v)) {
		memcpy(buf, "nan", 4);
		return 3;
	}
	decimals = CLAMP(decimals, 0, 9);
	scale = (uint64_t)POW10(decimals);
	if (fabs(v) * (double)scale >= 9e18)
		return snprintf(buf, FIXED_MAX, "%.*f", decimals, v);
	x = round_half_away(v * (double)scale);
	if (x < 0)
		buf[len++] = '-';
	u = x < 0 ? -(uint64_t)x : (uint64_t)x;
	len += fmt_u64(buf + len, u / scale);
	len = fmt_frac(buf, len, (uint32_t)(u % scale), decimals);
	buf[len] = '\0';
	return len;
}

/*
 * The CSV's usual number inline: six decimals and |v| < 4e9, so that the integer part
 * fits 32 bits; the same digits as fmt_fixed() (no NUL: the row goes on after it).
 * Anything else goes to fmt_fixed().
 */
static inline int csv_fixed(char *buf, double v, int decimals)
{
	char *o = buf;
	int64_t x;
	uint64_t u;
	uint32_t frac;

	if (decimals != 6 || !(fabs(v) < 4e9))
		return fmt_fixed(buf, v, decimals);
	x = round_half_away(v * 1e6);
	if (x < 0)
		*o++ = '-';
	u = (uint64_t)(x < 0 ? -x : x);
	frac = (uint32_t)(u % 1000000u);
	o += fmt_u32(o, (uint32_t)(u / 1000000u));
	return fmt_frac(buf, (int)(o - buf), frac, 6);
}

int trace_fmt_fixed(char *buf, double v, int decimals)
{
	char tmp[FIXED_MAX];
	/* cut to fit 40 bytes (only numbers of 9e18 units of the last decimal or more) */
	int n = MIN(fmt_fixed(tmp, v, decimals), 39);

	memcpy(buf, tmp, (size_t)n);
	buf[n] = '\0';
	return n;
}

/*
 * The usual case in floating point, for prec significant digits (1 to 9):
 * |v| * 10^(prec - 1 - x) with an exact power of ten is correctly rounded, so it is
 * within 2^-53 * 10^prec < 2^-23 of the exact product. Unless its fraction lies within
 * 2^-20 of one half, rounding it gives the exact product's rounding. Near a half, near
 * the ends of the prec-digit range, or when x was not the exponent: false, and printf
 * decides. *q gets the digits padded with zeros to nine.
 */
static inline __attribute__((always_inline))
bool g_fast(double v, int x, int prec, uint32_t *q)
{
	int p = prec - 1 - x;
	double a = fabs(v), qd, fl, fr;

	if (p < -22 || p > 22)
		return false;
	qd = p >= 0 ? a * POW10(p) : a / POW10(-p);
	if (!(qd >= POW10(prec - 1) + 1.0 && qd < POW10(prec) - 1.0))
		return false;
	fl = (double)(uint32_t)qd;
	fr = qd - fl;
	if (fabs(fr - 0.5) <= 0x1p-20)
		return false;
	*q = ((uint32_t)fl + (fr > 0.5)) * (uint32_t)POW10(9 - prec);
	return true;
}

/* How many of the nine digits q count once trailing zeros are cut; *a gets the last
 * eight as text. */
static inline int g9_digits(uint32_t q, uint64_t *a)
{
	uint64_t w = digits8(q % 100000000u);

	*a = w + ASCII_ZEROS;
	return w ? 1 + digits8_len(w) : 1;
}

/*
 * Style f of "%.9g" at o, for the nine digits q (10^8 <= q < 10^9) of a number whose
 * decimal exponent is x (-4 <= x <= 8): trailing zeros cut, no NUL; returns the end.
 * The eight digits after the first are one word of text, written whole: the bytes
 * past the digits that count are scratch, overwritten or past the end.
 */
static inline char *g9_style_f(char *o, uint32_t q, int x)
{
	uint64_t a;
	int nd = g9_digits(q, &a);
	char d0 = (char)('0' + q / 100000000u);

	if (x >= 0) {
		/* x + 1 integer digits; the point goes in after them and the digits after
		 * it move up one */
		o[0] = d0;
		memcpy(o + 1, &a, 8);
		if (nd > x + 1) {
			o[x + 1] = '.';
			memcpy(o + x + 2, &(uint64_t){ a >> (8 * x) }, 8);
			return o + nd + 1;
		}
		return o + x + 1;
	}
	memcpy(o, "0.00000", 8);
	o += 1 - x;
	o[0] = d0;
	memcpy(o + 1, &a, 8);
	return o + nd;
}

/*
 * The usual value, inline: zero, or a normal number from 10^-4 to below 10^prec whose
 * prec digits the floating-point path settles, in style f (the digits padded to nine,
 * whose trailing zeros style f cuts); the length written (no NUL), or -1 for any
 * other, which printf takes. The VCD writer calls it first, and so does trace_fmt_g()
 * (whose tests therefore cover it).
 */
static inline __attribute__((always_inline))
int g_usual(char *buf, double v, int prec)
{
	uint64_t bits;
	int bexp, x;
	uint32_t q;
	char *o = buf;

	memcpy(&bits, &v, sizeof(bits));
	if (bits >> 63)
		*o++ = '-';
	if (!(bits << 1)) {
		*o = '0';
		return (int)(o + 1 - buf);
	}
	bexp = (int)(bits >> 52) & 0x7ff;
	/* floor(log10 |v|) or one less: floor(log2 |v|) (bexp - 1023 for a normal number)
	 * times log10(2), rounded down (78913 / 2^18 is log10(2) to 6 digits) */
	x = ((bexp - 1023) * 78913) >> 18;
	if (bexp == 0 || bexp == 0x7ff || x < -5 || x >= prec)
		return -1;
	if (fabs(v) >= POW10(x + 1))
		x++;
	if (x < -4 || x >= prec || !g_fast(v, x, prec, &q))
		return -1;
	return (int)(g9_style_f(o, q, x) - buf);
}

int trace_fmt_g(char *buf, double v, int prec)
{
	int n = prec >= 1 && prec <= 9 ? g_usual(buf, v, prec) : -1;

	if (n < 0)
		return snprintf(buf, 40, "%.*g", prec, v);
	buf[n] = '\0';
	return n;
}

int trace_fmt_g9(char *buf, double v)
{
	return trace_fmt_g(buf, v, 9);
}

/* Longest VCD line for one column: 'r', a number (snprintf into 40 bytes at most), a
 * space, an identifier of up to 7 characters and a newline. */
#define VCD_COL_MAX (1 + 39 + 1 + 7 + 1)
/* "#" and a signed 64-bit time in decimal, newline. */
#define VCD_STAMP_MAX (1 + 20 + 1)

struct trace *trace_new(const struct trace_col *cols, int ncols)
{
	struct trace *tr = g_new(struct trace, 1);
	size_t csv_max = 21 + 1;        /* time_s ("-9223372036.854775808") and newline */

	*tr = (struct trace){ .cols = g_new0(struct trace_col_out, (size_t)ncols), .ncols = ncols,
			      .vcd_last_t = -1 };
	for (int i = 0; i < ncols; i++) {
		struct trace_col_out *co = &tr->cols[i];
		int k = i, n = 0;
		size_t field = FIXED_MAX;

		co->c = cols[i];
		co->vcd_last = NAN;
		/* Identifier codes in base 94 over the printable ASCII range. */
		do {
			co->vcd_id[n++] = (char)('!' + k % 94);
			k /= 94;
		} while (k && n < 7);
		co->vcd_id_len = n;
		if (cols[i].labels)
			co->label_text = g_new0(struct label_text, (size_t)cols[i].n_labels);
		for (int l = 0; cols[i].labels && l < cols[i].n_labels; l++) {
			size_t len = strlen(cols[i].labels[l]);

			field = MAX(field, len);
			co->label_text[l].len = len;
			memcpy(co->label_text[l].text, cols[i].labels[l], MIN(len, LABEL_TEXT_W));
		}
		csv_max += 1 + field;
	}
	tr->row_max = MAX(csv_max, VCD_STAMP_MAX + (size_t)ncols * VCD_COL_MAX);
	return tr;
}

/* Write bytes to the file at once (it is unbuffered), noting the first failure: a
 * full disk is seen by the run within a chunk of rows (trace_write_failed()), not
 * at the commit after the whole run. After a failure nothing more is written. */
static void out_write(struct trace_out *o, const char *data, size_t len)
{
	if (o->err || !len)
		return;
	errno = 0;
	if (fwrite(data, 1, len, o->f->fp) != len)
		o->err = errno ? errno : EIO;
	o->bytes += len;
}

/* Hand the collected rows to the file. */
static void out_flush(struct trace_out *o)
{
	out_write(o, o->buf, o->len);
	o->len = 0;
}

static void out_abort(struct trace_out *o)
{
	cs_outfile_abort(o->f);
	o->f = NULL;
	g_clear_pointer(&o->buf, g_free);
}

static bool out_commit(struct trace_out *o, GError **err)
{
	bool ok;

	out_flush(o);
	if (o->err) {
		cs_io_error(err, "cannot write output file", o->f->final_path, o->err);
		out_abort(o);
		return false;
	}
	ok = cs_outfile_commit(g_steal_pointer(&o->f), err);
	out_abort(o);
	return ok;
}

/* One CSV header field: plain when it needs no quoting, else quoted by libcsv. */
static void csv_append_field(GString *h, const char *s)
{
	size_t n = strlen(s), need;

	if (!strpbrk(s, ",\"\r\n")) {
		g_string_append_len(h, s, (gssize)n);
		return;
	}
	need = csv_write(NULL, 0, s, n);
	g_string_set_size(h, h->len + need);
	csv_write(h->str + h->len - need, need, s, n);
}

static void csv_header(const struct trace *tr, GString *h)
{
	g_string_append(h, "time_s");
	for (int i = 0; i < tr->ncols; i++) {
		g_string_append_c(h, ',');
		csv_append_field(h, tr->cols[i].c.name);
	}
	g_string_append_c(h, '\n');
}

static void vcd_header(const struct trace *tr, GString *h)
{
	g_string_append_printf(h, "$version chargesim %s $end\n$timescale 1 ns $end\n",
			       CHARGESIM_VERSION);
	g_string_append(h, "$scope module chargesim $end\n");
	for (int i = 0; i < tr->ncols; i++) {
		const struct trace_col *c = &tr->cols[i].c;

		/* plain appends: printf's parsing would cost more than the header's text */
		if (c->labels) {
			char k_text[16];

			g_string_append(h, "$comment ");
			g_string_append(h, c->name);
			g_string_append_c(h, ':');
			for (int k = 0; k < c->n_labels; k++) {
				g_string_append_c(h, ' ');
				g_string_append_len(h, k_text, fmt_u32(k_text, (uint32_t)k));
				g_string_append_c(h, '=');
				g_string_append(h, c->labels[k]);
			}
			g_string_append(h, " $end\n$var integer 8 ");
		} else {
			g_string_append(h, "$var real 64 ");
		}
		g_string_append(h, tr->cols[i].vcd_id);
		g_string_append_c(h, ' ');
		g_string_append(h, c->name);
		g_string_append(h, " $end\n");
	}
	g_string_append(h, "$upscope $end\n$enddefinitions $end\n");
}

/*
 * Open path as o and queue its header. The rows go to the file in TRACE_CHUNK pieces,
 * so stdio's own buffer would only add a copy and cut each piece into 4 KiB writes:
 * the stream is made unbuffered before anything is written to it, and every byte
 * goes through o->buf.
 */
static bool out_open(struct trace *tr, struct trace_out *o, const char *path,
		     void (*header)(const struct trace *, GString *), GError **err)
{
	g_autoptr(GString) h = g_string_new(NULL);

	o->f = cs_outfile_open(path, false, err);
	if (!o->f)
		return false;
	setvbuf(o->f->fp, NULL, _IONBF, 0);
	o->buf = g_malloc(TRACE_CHUNK + tr->row_max + ROW_SLACK);
	header(tr, h);
	if (h->len > TRACE_CHUNK) {
		out_write(o, h->str, h->len);
	} else {
		memcpy(o->buf, h->str, h->len);
		o->len = h->len;
	}
	return true;
}

bool trace_open(struct trace *tr, const char *csv_path, const char *vcd_path, GError **err)
{
	if (csv_path && !out_open(tr, &tr->csv, csv_path, csv_header, err))
		return false;
	if (vcd_path && !out_open(tr, &tr->vcd, vcd_path, vcd_header, err)) {
		out_abort(&tr->csv);
		return false;
	}
	return true;
}

static void trace_vcd_row(struct trace *tr, sim_time_t t, const struct row_time *rt,
			  const double *v)
{
	struct trace_out *o = &tr->vcd;
	char *p = o->buf + o->len;
	bool stamped = false;

	for (int i = 0; i < tr->ncols; i++) {
		struct trace_col_out *co = &tr->cols[i];

		if (v[i] == co->vcd_last)
			continue;
		if (!stamped && t != tr->vcd_last_t) {
			*p++ = '#';
			p += rt ? row_time_vcd(p, rt) : fmt_i64(p, t);
			*p++ = '\n';
			tr->vcd_last_t = t;
		}
		stamped = true;
		if (co->c.labels) {
			unsigned k = (unsigned)v[i];
			bool lead = false;

			*p++ = 'b';
			for (int b = 7; b >= 0; b--) {
				lead |= (k >> b) & 1u || b == 0;
				if (lead)
					*p++ = (char)('0' + ((k >> b) & 1u));
			}
		} else {
			*p++ = 'r';
			int n = g_usual(p, v[i], 9);

			p += n >= 0 ? n : trace_fmt_g9(p, v[i]);
		}
		*p++ = ' ';
		memcpy(p, co->vcd_id, sizeof(co->vcd_id));   /* whole (zero-padded) array */
		p += co->vcd_id_len;
		*p++ = '\n';
		co->vcd_last = v[i];
	}
	o->len = (size_t)(p - o->buf);
	if (o->len >= TRACE_CHUNK)
		out_flush(o);
}

static void trace_csv_row(struct trace *tr, sim_time_t t, const struct row_time *rt,
			  const double *v)
{
	struct trace_out *o = &tr->csv;
	/* Locals, not tr->...: a store through p (char *) may alias anything, and the
	 * compiler would load the trace's fields again after every byte written. */
	struct trace_col_out *cols = tr->cols;
	const int ncols = tr->ncols;
	char *p = o->buf + o->len;

	p += rt ? row_time_csv(p, rt) : units_time_text(p, t);
	for (int i = 0; i < ncols; i++) {
		struct trace_col_out *co = &cols[i];

		*p++ = ',';
		if (co->c.labels) {
			int k = (int)v[i];
			const struct label_text *lt;

			if (k < 0 || k >= co->c.n_labels) {
				*p++ = '?';
				continue;
			}
			lt = &co->label_text[k];
			if (lt->len <= LABEL_TEXT_W)
				memcpy(p, lt->text, LABEL_TEXT_W);
			else
				memcpy(p, co->c.labels[k], lt->len);
			p += lt->len;
		} else {
			uint64_t bits;
			int n;

			memcpy(&bits, &v[i], sizeof(bits));
			if (co->csv_len && co->csv_bits == bits) {
				memcpy(p, co->csv_text, CSV_CACHE_W);
				p += co->csv_len;
				continue;
			}
			n = csv_fixed(p, v[i], co->c.decimals);
			/* Fixed-size copies; the bytes after the text are scratch. */
			co->csv_len = n <= CSV_CACHE_W ? n : 0;
			if (co->csv_len) {
				memcpy(co->csv_text, p, CSV_CACHE_W);
				co->csv_bits = bits;
			}
			p += n;
		}
	}
	*p++ = '\n';
	o->len = (size_t)(p - o->buf);
	if (o->len >= TRACE_CHUNK)
		out_flush(o);
}

void trace_row(struct trace *tr, sim_time_t t, const double *v)
{
	struct row_time rt;
	const struct row_time *split = NULL;

	tr->rows++;
	if (t >= 0) {
		row_time_split(&rt, (uint64_t)t);
		split = &rt;
	}
	if (tr->csv.f)
		trace_csv_row(tr, t, split, v);
	if (tr->vcd.f)
		trace_vcd_row(tr, t, split, v);
}

uint64_t trace_rows(const struct trace *tr)
{
	return tr->rows;
}

uint64_t trace_bytes(const struct trace *tr)
{
	return tr->csv.bytes + tr->csv.len;
}

bool trace_write_failed(const struct trace *tr, GError **err)
{
	const struct trace_out *o = tr->csv.err ? &tr->csv : &tr->vcd;

	if (!o->err)
		return false;
	return !cs_io_error(err, "cannot write output file", o->f->final_path, o->err);
}

bool trace_close(struct trace *tr, GError **err)
{
	bool ok = !tr->csv.f || out_commit(&tr->csv, err);

	if (ok && tr->vcd.f)
		return out_commit(&tr->vcd, err);
	out_abort(&tr->vcd);
	return ok;
}

void trace_free(struct trace *tr)
{
	if (!tr)
		return;
	out_abort(&tr->csv);
	out_abort(&tr->vcd);
	for (int i = 0; i < tr->ncols; i++)
		g_free(tr->cols[i].label_text);
	g_free(tr->cols);
	g_free(tr);
}
