// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/jsonout.c - a cJSON tree as text (see jsonout.h).
 *
 * The form is cJSON 1.7.15's (cJSON.c: print_value, print_number, print_string_ptr,
 * print_array, print_object):
 * - null, false, true; a raw item's text as it is;
 * - a number that is not finite is null; else "%1.15g", unless that text reads back
 *   as a different double (more than DBL_EPSILON apart, relatively), then "%1.17g";
 * - a string in double quotes, with \" \\ \b \f \n \r \t and \u00xx (lower-case hex)
 *   for the other bytes below 32; every other byte as it is; no string at all is "";
 * - an array: elements between [ and ], separated by "," (", " formatted);
 * - an object: "key":value pairs between { and }, separated by ","; formatted, "{" and
 *   every pair end a line, a pair starts with one tab per level of nesting (arrays
 *   count as levels), ":" is followed by a tab, and "}" has one tab fewer.
 * tests/test_jsonout.c holds this to cJSON's own printers on random trees.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/jsonout.h"

/* Append n bytes: GLib 2.74's g_string_append_len is a general insertion. */
static inline void put(GString *out, const char *text, size_t n)
{
	if (G_UNLIKELY(out->len + n >= out->allocated_len)) {
		gsize len = out->len;

		g_string_set_size(out, len + n);   /* grows the buffer */
		out->len = len;
	}
	memcpy(out->str + out->len, text, n);
	out->len += n;
	out->str[out->len] = '\0';
}

/*
 * "%1.15g" of d, without printf, when d is a short decimal: n / 10^k rounded to a
 * double, for an integer n below 10^15 and a value of at least 10^-4 (the usual case:
 * parameters like 4.35, currents in mA). Such a d lies within half an ulp (d * 2^-53)
 * of n / 10^k, which sits on the grid of 15 significant digits whose half step is at
 * least d * 5e-16, so rounding to 15 digits gives n / 10^k back; with an exponent
 * from -4 to 14 %g uses style f and drops the trailing zeros. And strtod reads n / 10^k
 * back as d, so cJSON keeps this text (no "%1.17g"). -1 for any other d.
 */
static int g15_short(char *buf, double d)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
				      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };
	double a = fabs(d);
	char digits[20];
	uint64_t n = 0;
	int k, nd = 0, len = 0;

	if (!(a >= 1e-4 && a < 1e15))
		return -1;
	for (k = 0; k < (int)G_N_ELEMENTS(p10); k++) {
		double s = a * p10[k];

		if (s >= 1e15)
			return -1;
		n = (uint64_t)s;
		if ((double)n == s && (double)n / p10[k] == a)
			break;
	}
	if (k == (int)G_N_ELEMENTS(p10))
		return -1;
	for (; k > 0 && n % 10 == 0; k--)
		n /= 10;
	do {
		digits[nd++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	if (d < 0)
		buf[len++] = '-';
	if (nd <= k) {   /* 0.00ddd */
		buf[len++] = '0';
		buf[len++] = '.';
		for (int z = k - nd; z > 0; z--)
			buf[len++] = '0';
	}
	while (nd > 0) {
		buf[len++] = digits[--nd];
		if (nd == k && k > 0)
			buf[len++] = '.';
	}
	return len;
}

static void put_number(GString *out, double d)
{
	char text[32];
	double back, big;
	int n;

	if (!isfinite(d)) {
		put(out, "null", 4);
		return;
	}
	if (d == 0) {   /* "%1.15g" writes the sign of a negative zero */
		put(out, signbit(d) ? "-0" : "0", signbit(d) ? 2 : 1);
		return;
	}
	n = g15_short(text, d);
	if (n < 0) {
		n = snprintf(text, sizeof(text), "%1.15g", d);
		/* cJSON reads the text back with sscanf("%lg"), which converts as strtod does */
		back = strtod(text, NULL);
		big = fmax(fabs(back), fabs(d));
		if (!(fabs(back - d) <= big * DBL_EPSILON))
			n = snprintf(text, sizeof(text), "%1.17g", d);
	}
	put(out, text, (size_t)n);
}

/* The two-character escapes; every other byte below 32 is \u00xx. */
static const char short_escape[] = {
	['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
	['"'] = '"', ['\\'] = '\\',
};

static void put_string(GString *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t plain;

	g_string_append_c(out, '"');
	while (p && *p) {
		/* the longest run that needs no escape goes in one piece */
		for (plain = 0; p[plain] > 31 && p[plain] != '"' && p[plain] != '\\'; plain++)
			;
		put(out, (const char *)p, plain);
		p += plain;
		if (!*p)
			break;
		if (short_escape[*p]) {
			char e[2] = { '\\', short_escape[*p] };

			put(out, e, 2);
		} else {
			char u[6] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15] };

			put(out, u, 6);
		}
		p++;
	}
	g_string_append_c(out, '"');
}

static void put_tabs(GString *out, unsigned n)
{
	while (n--)
		g_string_append_c(out, '\t');
}

static bool put_value(GString *out, const cJSON *item, bool fmt, unsigned depth)
{
	const cJSON *c;

	switch (item->type & 0xFF) {
	case cJSON_NULL:
		put(out, "null", 4);
		return true;
	case cJSON_False:
		put(out, "false", 5);
		return true;
	case cJSON_True:
		put(out, "true", 4);
		return true;
	case cJSON_Number:
		put_number(out, item->valuedouble);
		return true;
	case cJSON_Raw:
		if (!item->valuestring)
			return false;
		put(out, item->valuestring, strlen(item->valuestring));
		return true;
	case cJSON_String:
		put_string(out, item->valuestring);
		return true;
	case cJSON_Array:
		g_string_append_c(out, '[');
		for (c = item->child; c; c = c->next) {
			if (!put_value(out, c, fmt, depth + 1))
				return false;
			if (c->next)
				put(out, ", ", fmt ? 2 : 1);
		}
		g_string_append_c(out, ']');
		return true;
	case cJSON_Object:
		put(out, "{\n", fmt ? 2 : 1);
		for (c = item->child; c; c = c->next) {
			if (fmt)
				put_tabs(out, depth + 1);
			put_string(out, c->string);
			put(out, ":\t", fmt ? 2 : 1);
			if (!put_value(out, c, fmt, depth + 1))
				return false;
			if (c->next)
				g_string_append_c(out, ',');
			if (fmt)
				g_string_append_c(out, '\n');
		}
		if (fmt)
			put_tabs(out, depth);
		g_string_append_c(out, '}');
		return true;
	default:
		return false;
	}
}

void cs_json_append_number(GString *out, double d)
{
	put_number(out, d);
}

bool cs_json_append(GString *out, const cJSON *item, bool formatted)
{
	return item && put_value(out, item, formatted, 0);
}
