// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sim/units.c - parse values with units ("500 mA", "2 h", "30 mΩ") from scenarios.
 *
 * Grammar: [ws] number [ws] [[prefix] unit] [ws]. The number is an ASCII decimal with
 * optional sign, fraction and exponent. It is scanned by hand before any conversion
 * so that strtod never sees, and never accepts, "nan", "inf" or hex floats. The
 * scanned digits are then converted in one g_ascii_strtod call with the prefix's
 * power of ten folded into the exponent, so "30 mohm" is the double nearest 0.03
 * rather than 30 * 0.001, and the C locale's decimal point does not matter.
 *
 * Invariants: a successful parse yields a finite value (an integer nanosecond count
 * below 9.2e18 in magnitude for units_parse_time); a failed one leaves *out alone
 * and sets a CS_UNITS_ERROR whose message starts 'found "<text>"' and names the
 * expected dimension with an example, so the caller only adds the file and path.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "sim/units.h"

G_DEFINE_QUARK(cs-units-error-quark, cs_units_error)

struct dim_info {
	const char *name;
	const char *symbol;
	const char *example;
};

static const struct dim_info dims[UNIT_DIM_COUNT] = {
	[UNIT_NONE]     = { "plain number", "",    "2" },
	[UNIT_VOLT]     = { "voltage",      "V",   "4.2 V" },
	[UNIT_AMP]      = { "current",      "A",   "500 mA" },
	[UNIT_OHM]      = { "resistance",   "ohm", "30 mohm" },
	[UNIT_SECOND]   = { "time",         "s",   "100 ms" },
	[UNIT_FARAD]    = { "capacitance",  "F",   "703 F" },
	[UNIT_AH]       = { "charge",       "Ah",  "3000 mAh" },
	[UNIT_FRACTION] = { "fraction",     "",    "95 %" },
	[UNIT_CELSIUS]  = { "temperature",  "C",   "25 C" },
	[UNIT_WATT]     = { "power",        "W",   "2.5 W" },
	[UNIT_METER]    = { "length",       "m",   "1 m" },
	[UNIT_WH]       = { "energy",       "Wh",  "5 Wh" },
};

struct prefix {
	const char *sym;
	int exp10;
};

/* Both micro signs: U+00B5 is what keyboards type, U+03BC what Unicode
 * normalisation (NFKC) turns it into, and scenario files see both. */
static const struct prefix prefixes[] = {
	{ "n", -9 },
	{ "u", -6 },
	{ "\xc2\xb5", -6 },	/* U+00B5 MICRO SIGN */
	{ "\xce\xbc", -6 },	/* U+03BC GREEK SMALL LETTER MU */
	{ "m", -3 },
	{ "k", 3 },
	{ "M", 6 },
};

/*
 * value in base unit = number * 10^exp10 * mult / div + offset. The power of ten is
 * exact because it goes into the decimal conversion; mult is an integer so that
 * units_parse_time can stay in integer arithmetic; div and offset exist only for
 * joule and kelvin, which are never exact anyway.
 */
struct unit {
	const char *sym;
	enum unit_dim dim;
	int exp10;
	int64_t mult;
	double div;
	double offset;
	bool prefixable;
};

static const struct unit units[] = {
	{ "V",     UNIT_VOLT,     0,    1,    1, 0,       true },
	{ "A",     UNIT_AMP,      0,    1,    1, 0,       true },
	{ "ohm",   UNIT_OHM,      0,    1,    1, 0,       true },
	{ "Ohm",   UNIT_OHM,      0,    1,    1, 0,       true },
	{ "\xe2\x84\xa6", UNIT_OHM, 0,  1,    1, 0,       true },	/* U+2126 OHM SIGN */
	{ "\xce\xa9", UNIT_OHM,   0,    1,    1, 0,       true },	/* U+03A9 CAPITAL OMEGA */
	{ "s",     UNIT_SECOND,   0,    1,    1, 0,       true },
	{ "min",   UNIT_SECOND,   0,   60,    1, 0,       false },
	{ "h",     UNIT_SECOND,   0, 3600,    1, 0,       false },
	{ "d",     UNIT_SECOND,   0, 86400,   1, 0,       false },   /* a day: durations run to 366 */
	{ "F",     UNIT_FARAD,    0,    1,    1, 0,       true },
	{ "Ah",    UNIT_AH,       0,    1,    1, 0,       true },
	{ "%",     UNIT_FRACTION, -2,   1,    1, 0,       false },
	{ "C",     UNIT_CELSIUS,  0,    1,    1, 0,       false },
	{ "\xc2\xb0" "C", UNIT_CELSIUS, 0, 1, 1, 0,       false },	/* U+00B0 DEGREE SIGN */
	{ "degC",  UNIT_CELSIUS,  0,    1,    1, 0,       false },
	{ "K",     UNIT_CELSIUS,  0,    1,    1, -273.15, false },
	{ "W",     UNIT_WATT,     0,    1,    1, 0,       true },
	{ "m",     UNIT_METER,    0,    1,    1, 0,       true },
	{ "Wh",    UNIT_WH,       0,    1,    1, 0,       true },
	{ "J",     UNIT_WH,       0,    1, 3600, 0,       true },
};

/*
 * Exponents are clamped here while scanning: far beyond any double's range, yet far
 * enough from INT64_MAX that adding digit counts and prefix powers cannot overflow.
 */
#define EXP_CLAMP 1000000000000000LL

/* The largest duration accepted, in ns: below INT64_MAX (SIM_TIME_NEVER) with margin,
 * and the same bound sim_time_from_s() saturates at. */
#define NS_LIMIT 9200000000000000000ULL

/* A scanned number: pointers into the caller's text, nothing converted yet. */
struct number {
	bool neg;
	const char *ip;		/* integer digits */
	size_t in;
	const char *fp;		/* fraction digits */
	size_t fn;
	int64_t exp;		/* written exponent, clamped to +-EXP_CLAMP */
};

struct parsed {
	struct number num;
	const struct unit *unit;	/* NULL for a bare number */
	int pexp;			/* prefix power of ten */
};

const char *units_dim_name(enum unit_dim dim)
{
	return (unsigned)dim < UNIT_DIM_COUNT ? dims[dim].name : "unknown dimension";
}

const char *units_dim_symbol(enum unit_dim dim)
{
	return (unsigned)dim < UNIT_DIM_COUNT ? dims[dim].symbol : "";
}

const char *units_dim_example(enum unit_dim dim)
{
	return (unsigned)dim < UNIT_DIM_COUNT ? dims[dim].example : "";
}

char *units_format(double x, enum unit_dim dim)
{
	static const struct { double scale; const char *sym; } small[] = {
		{ 1e-3, "m" }, { 1e-6, "u" }, { 1e-9, "n" },
	};
	const char *sym = units_dim_symbol(dim);
	double m = fabs(x);

	if (dim == UNIT_FRACTION)
		return g_strdup_printf("%.6g %%", x * 100);
	if (!*sym)
		return g_strdup_printf("%.6g", x);
	if (dim != UNIT_CELSIUS && m != 0 && m < 1) {
		for (size_t i = 0; i < G_N_ELEMENTS(small); i++)
			if (m >= small[i].scale * (1 - 1e-12) || i + 1 == G_N_ELEMENTS(small))
				return g_strdup_printf("%.6g %s%s", x / small[i].scale, small[i].sym, sym);
	}
	if (dim == UNIT_OHM && m >= 1e6)
		return g_strdup_printf("%.6g M%s", x / 1e6, sym);
	if (dim == UNIT_OHM && m >= 1e3)
		return g_strdup_printf("%.6g k%s", x / 1e3, sym);
	return g_strdup_printf("%.6g %s", x, sym);
}

char *units_format_time(sim_time_t t)
{
	static const struct { sim_time_t unit; const char *sym; } scale[] = {
		{ SIM_HOUR, "h" }, { SIM_MIN, "min" }, { SIM_S, "s" }, { SIM_MS, "ms" },
		{ SIM_US, "us" },
	};

	if (t == 0)
		return g_strdup("0 s");
	for (size_t i = 0; i < G_N_ELEMENTS(scale); i++)
		if (t % scale[i].unit == 0)
			return g_strdup_printf("%lld %s", (long long)(t / scale[i].unit), scale[i].sym);
	return g_strdup_printf("%lld ns", (long long)t);
}

int units_time_text(char *buf, sim_time_t t)
{
	uint64_t u = t < 0 ? 0 - (uint64_t)t : (uint64_t)t;
	char tmp[32], *p = tmp + sizeof(tmp);
	bool frac = false;
	int len;

	/* from the last digit up: nine decimals without the trailing zeros, the seconds */
	for (int i = 0; i < 9; i++, u /= 10) {
		frac |= u % 10 != 0;
		if (frac)
			*--p = (char)('0' + u % 10);
	}
	if (frac)
		*--p = '.';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (t < 0)
		*--p = '-';
	len = (int)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, (size_t)len);
	buf[len] = '\0';
	return len;
}

/* "an energy", "a voltage": the message reads as English for every dimension name. */
static const char *article(const char *noun)
{
	return strchr("aeiou", noun[0]) && noun[0] ? "an" : "a";
}

/*
 * Quote user text for a message: escape what would break the quotes or the terminal,
 * and every high byte too when the text is not UTF-8, so the GError message always
 * is (GLib's printing functions assume it).
 */
static void append_quoted(GString *s, const char *text)
{
	bool utf8 = g_utf8_validate(text, -1, NULL);

	g_string_append_c(s, '"');
	for (size_t i = 0; text[i]; i++) {
		unsigned char c = text[i];

		if (c == '"' || c == '\\')
			g_string_append_printf(s, "\\%c", c);
		else if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8))
			g_string_append_printf(s, "\\x%02x", c);
		else
			g_string_append_c(s, c);
	}
	g_string_append_c(s, '"');
}

char *cs_quote(const char *text)
{
	GString *s = g_string_new(NULL);

	append_quoted(s, text);
	return g_string_free(s, FALSE);
}

/*
 * found "<text>"[ (a <found dim>)], expected a <dim> such as "<example>"[ (<reason>)]
 * found is UNIT_DIM_COUNT when the text did not name a dimension.
 */
G_GNUC_PRINTF(6, 7)
static bool fail(GError **err, int code, const char *text, enum unit_dim want,
		 enum unit_dim found, const char *reason_fmt, ...)
{
	g_autoptr(GString) s = NULL;
	const char *name = units_dim_name(want);

	if (!err)	/* a caller trying a reading: no message to build */
		return false;
	s = g_string_new("found ");
	append_quoted(s, text);
	if (found < UNIT_DIM_COUNT)
		g_string_append_printf(s, " (%s %s)", article(dims[found].name),
				       dims[found].name);
	g_string_append_printf(s, ", expected %s %s such as \"%s\"", article(name), name,
			       units_dim_example(want));
	if (reason_fmt) {
		va_list ap;

		g_string_append(s, " (");
		va_start(ap, reason_fmt);
		g_string_append_vprintf(s, reason_fmt, ap);
		va_end(ap);
		g_string_append_c(s, ')');
	}
	g_set_error_literal(err, CS_UNITS_ERROR, code, s->str);
	return false;
}

/*
 * Scan [+-] digits [. digits] [(e|E) [+-] digits], at least one digit before the
 * exponent. On success *end points past the number; on failure *why says what is
 * wrong in words for the message.
 */
static bool scan_number(const char *s, struct number *n, const char **end, const char **why)
{
	const char *p = s;

	memset(n, 0, sizeof(*n));
	if (*p == '+' || *p == '-')
		n->neg = *p++ == '-';
	n->ip = p;
	while (g_ascii_isdigit(*p))
		p++;
	n->in = p - n->ip;
	n->fp = p;
	if (*p == '.') {
		n->fp = ++p;
		while (g_ascii_isdigit(*p))
			p++;
		n->fn = p - n->fp;
	}
	if (n->in + n->fn == 0) {
		if (g_ascii_strncasecmp(p, "nan", 3) == 0 || g_ascii_strncasecmp(p, "inf", 3) == 0)
			*why = "not a finite number";
		else
			*why = "no number";
		return false;
	}
	/* Only "0x" is called hex: "5x" reads better as an unknown unit. */
	if (n->in == 1 && n->ip[0] == '0' && p == n->ip + 1 && (*p == 'x' || *p == 'X')) {
		*why = "hexadecimal numbers are not accepted";
		return false;
	}
	/* No unit starts with e or E, so an 'e' here can only be a (bad) exponent. */
	if (*p == 'e' || *p == 'E') {
		bool eneg = false;

		p++;
		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		if (!g_ascii_isdigit(*p)) {
			*why = "malformed exponent";
			return false;
		}
		for (; g_ascii_isdigit(*p); p++)
			if (n->exp < EXP_CLAMP)
				n->exp = n->exp * 10 + (*p - '0');
		if (n->exp > EXP_CLAMP)
			n->exp = EXP_CLAMP;
		if (eneg)
			n->exp = -n->exp;
	}
	*end = p;
	return true;
}

/* Convert the scanned number times 10^exp10 with a single correctly rounded strtod of
 * "[-]DIGITSeEXP", the digits without their point. The text is put together on the
 * stack (unless the digits are very many): a scenario's values are a few digits each,
 * and a printf into a new string cost more than the strtod. */
static double number_to_double(const struct number *n, int64_t exp10)
{
	char stack[96], *s = stack, *p, e_text[24];
	g_autofree char *heap = NULL;
	int64_t e = n->exp - (int64_t)n->fn + exp10;
	uint64_t u = e < 0 ? -(uint64_t)e : (uint64_t)e;
	int k = 0;

	if (n->in + n->fn + 2 + sizeof(e_text) > sizeof(stack))
		s = heap = g_malloc(n->in + n->fn + 2 + sizeof(e_text));
	do {   /* the exponent's digits, last first */
		e_text[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	p = s;
	if (n->neg)
		*p++ = '-';
	memcpy(p, n->ip, n->in);
	p += n->in;
	memcpy(p, n->fp, n->fn);
	p += n->fn;
	*p++ = 'e';
	if (e < 0)
		*p++ = '-';
	while (k)
		*p++ = e_text[--k];
	*p = '\0';
	return g_ascii_strtod(s, NULL);
}

/*
 * Look a unit token up: an exact symbol first, so "m" is the metre and "min" the
 * minute, then prefix + prefixable symbol ("ms", "mA", "mohm", "mAh"). When the token
 * is a prefix on a unit that takes none ("kmin", "mC"), *bare_unit gets that unit so
 * the message can say so.
 */
static const struct unit *find_unit(const char *tok, int *pexp, const struct unit **bare_unit)
{
	*pexp = 0;
	*bare_unit = NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
		if (strcmp(tok, units[i].sym) == 0)
			return &units[i];
	for (size_t j = 0; j < G_N_ELEMENTS(prefixes); j++) {
		size_t pl = strlen(prefixes[j].sym);

		if (strncmp(tok, prefixes[j].sym, pl) != 0)
			continue;
		for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
			if (strcmp(tok + pl, units[i].sym) != 0)
				continue;
			if (!units[i].prefixable) {
				*bare_unit = &units[i];
				return NULL;
			}
			*pexp = prefixes[j].exp10;
			return &units[i];
		}
	}
	return NULL;
}

/*
 * A suggestion for an unknown unit among the spellings of the expected dimension.
 * One-letter tokens are within edit distance 1 of every one-letter unit, so for them
 * only a case slip ("v" for "V") counts as close.
 */
static char *suggest_unit(const char *tok, enum unit_dim want)
{
	g_autoptr(GPtrArray) cand = g_ptr_array_new_with_free_func(g_free);
	const char *best = NULL;

	for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
		if (units[i].dim != want)
			continue;
		g_ptr_array_add(cand, g_strdup(units[i].sym));
		if (!units[i].prefixable)
			continue;
		for (size_t j = 0; j < G_N_ELEMENTS(prefixes); j++)
			g_ptr_array_add(cand, g_strconcat(prefixes[j].sym, units[i].sym, NULL));
	}
	if (strlen(tok) == 1) {
		for (guint i = 0; i < cand->len && !best; i++)
			if (g_ascii_strcasecmp(tok, cand->pdata[i]) == 0)
				best = cand->pdata[i];
	} else {
		best = cs_did_you_mean(tok, (const char *const *)cand->pdata, cand->len);
	}
	return g_strdup(best);
}

/* Split text into number and unit and check the unit's dimension against want. */
static bool parse(const char *text, enum unit_dim want, struct parsed *pp, GError **err)
{
	const char *p = text, *tok, *why;
	const struct unit *bare_unit;
	g_autofree char *t = NULL;

	while (g_ascii_isspace(*p))
		p++;
	if (!*p)
		return fail(err, CS_UNITS_ERROR_SYNTAX, text, want, UNIT_DIM_COUNT,
			    "empty value");
	if (!scan_number(p, &pp->num, &p, &why))
		return fail(err, CS_UNITS_ERROR_SYNTAX, text, want, UNIT_DIM_COUNT,
			    "%s", why);
	while (g_ascii_isspace(*p))
		p++;
	pp->unit = NULL;
	pp->pexp = 0;
	if (!*p)
		return true;

	tok = p;
	while (*p && !g_ascii_isspace(*p))
		p++;
	t = g_strndup(tok, p - tok);
	while (g_ascii_isspace(*p))
		p++;

	/* "1.2.3 V", "5,5 V", "5 6 V": a second number, not a unit. */
	if (g_ascii_isdigit(t[0]) || (g_ascii_ispunct(t[0]) && t[0] != '%')) {
		g_autofree char *q = cs_quote(t);

		return fail(err, CS_UNITS_ERROR_SYNTAX, text, want, UNIT_DIM_COUNT,
			    "unexpected %s after the number", q);
	}
	pp->unit = find_unit(t, &pp->pexp, &bare_unit);
	if (!pp->unit) {
		g_autofree char *q = cs_quote(bare_unit ? bare_unit->sym : t);
		g_autofree char *sugg = bare_unit ? NULL : suggest_unit(t, want);

		if (bare_unit)
			return fail(err, CS_UNITS_ERROR_SYNTAX, text, want, UNIT_DIM_COUNT,
				    "%s takes no prefix", q);
		return fail(err, CS_UNITS_ERROR_SYNTAX, text, want, UNIT_DIM_COUNT,
			    "unknown unit %s%s%s%s", q, sugg ? "; did you mean \"" : "",
			    sugg ? sugg : "", sugg ? "\"?" : "");
	}
	if (*p) {
		g_autofree char *rest = g_strchomp(g_strdup(p));
		g_autofree char *q = cs_quote(rest);

		return fail(err, CS_UNITS_ERROR_SYNTAX, text, want, UNIT_DIM_COUNT,
			    "unexpected %s after the unit", q);
	}
	/* The one mix-up the grammar invites: "m" is metres, not minutes. */
	if (pp->unit->dim != want && want == UNIT_SECOND && strcmp(t, "m") == 0)
		return fail(err, CS_UNITS_ERROR_DIMENSION, text, want, pp->unit->dim,
			    "minutes are \"min\"");
	if (pp->unit->dim != want)
		return fail(err, CS_UNITS_ERROR_DIMENSION, text, want, pp->unit->dim, NULL);
	return true;
}

bool units_parse(const char *text, enum unit_dim dim, double *out, GError **err)
{
	struct parsed pp;
	double v;

	g_return_val_if_fail((unsigned)dim < UNIT_DIM_COUNT, false);
	if (!text)
		text = "";
	if (!parse(text, dim, &pp, err))
		return false;

	v = number_to_double(&pp.num, pp.unit ? pp.pexp + pp.unit->exp10 : 0);
	/* exact where mult and div are 1 and offset 0 (x * 1 and x / 1 are x) */
	if (pp.unit)
		v = v * (double)pp.unit->mult / pp.unit->div + pp.unit->offset;
	if (!isfinite(v))
		return fail(err, CS_UNITS_ERROR_RANGE, text, dim, UNIT_DIM_COUNT,
			    "out of range");
	*out = v + 0.0;		/* no "-0" for "-0 V" */
	return true;
}

enum exact { EXACT_OK, EXACT_RANGE, EXACT_GIVE_UP, EXACT_FRACTION, EXACT_BELOW_NS };

/*
 * Times are whole nanoseconds. A value within UNITS_NS_TOL ns of one is that one (the
 * digits of a decimal conversion, "0.10000000000000000001 s", or a double's last bits);
 * any other fraction ("1.5 ns", "1e-10 s") is refused, as is a value other than zero
 * that would round to 0 ns ("1e-30 s", a denormal number): the clock cannot hold it,
 * and rounding it silently would move an event or a step.
 */
#define UNITS_NS_TOL 1e-6
#define UNITS_WHY_FRACTION "not a whole number of nanoseconds: time is counted in ns"
#define UNITS_WHY_BELOW_NS "above 0 but below 1 ns: time is counted in ns"

const char *units_ns_whole(double ns, sim_time_t *out)
{
	double n = nearbyint(ns);

	if (!isfinite(ns) || fabs(ns) > (double)NS_LIMIT)
		return "out of range";
	if (fabs(ns - n) > fmax(UNITS_NS_TOL, 4 * DBL_EPSILON * fabs(ns)))
		return UNITS_WHY_FRACTION;
	if (n == 0 && ns != 0)
		return UNITS_WHY_BELOW_NS;
	*out = (sim_time_t)n;
	return NULL;
}

static int digit_at(const struct number *n, size_t i)
{
	return (i < n->in ? n->ip[i] : n->fp[i - n->in]) - '0';
}

/*
 * |value| in ns = digits * 10^e * mult, rounded half away from zero like llround,
 * in integer arithmetic so that "0.1 s" and "1.000000001 s" are exact. Gives up
 * (for the double path) only on more than 19 significant digits or a product that
 * would need to be divided back down.
 */
static enum exact exact_ns(const struct number *n, int64_t e, uint64_t mult, uint64_t *mag)
{
	size_t len = n->in + n->fn, first = 0, last;
	uint64_t x = 0;

	while (first < len && digit_at(n, first) == 0)
		first++;
	if (first == len) {
		*mag = 0;
		return EXACT_OK;
	}
	last = len - 1;
	while (digit_at(n, last) == 0)
		last--;
	e += (int64_t)(len - 1 - last);
	if (last - first + 1 > 19)
		return EXACT_GIVE_UP;
	for (size_t i = first; i <= last; i++)
		x = x * 10 + digit_at(n, i);

	if (__builtin_mul_overflow(x, mult, &x))
		return e >= 0 ? EXACT_RANGE : EXACT_GIVE_UP;
	if (e >= 0) {
		for (; e > 0; e--)
			if (__builtin_mul_overflow(x, (uint64_t)10, &x))
				return EXACT_RANGE;
	} else if (e < -19) {
		/* x < 1.9e19, so x / 1e20 < 0.19 ns: not zero (x is not), not whole;
		 * below 1e-6 ns (x < 10^(-6-e)) it is a time that rounds to 0 */
		uint64_t p = 1;

		if (e <= -26)
			return EXACT_BELOW_NS;
		for (int64_t k = -6 - e; k > 0; k--)
			p *= 10;
		return x < p ? EXACT_BELOW_NS : EXACT_FRACTION;
	} else {
		uint64_t p10 = 1, r, tol;

		for (; e < 0; e++)
			p10 *= 10;
		tol = p10 / 1000000;   /* UNITS_NS_TOL */
		r = x % p10;
		x /= p10;
		if (r > tol && p10 - r > tol)
			return EXACT_FRACTION;
		if (r > tol)
			x++;
		if (x == 0)
			return EXACT_BELOW_NS;
	}
	if (x > NS_LIMIT)
		return EXACT_RANGE;
	*mag = x;
	return EXACT_OK;
}

bool units_parse_time(const char *text, sim_time_t *out, GError **err)
{
	struct parsed pp;
	int64_t e;
	uint64_t mult, mag;
	double v;
	sim_time_t t;
	const char *why = "out of range";

	if (!text)
		text = "";
	if (!parse(text, UNIT_SECOND, &pp, err))
		return false;

	mult = pp.unit ? (uint64_t)pp.unit->mult : 1;
	e = pp.pexp + (pp.unit ? pp.unit->exp10 : 0) + 9;	/* +9: s -> ns */
	switch (exact_ns(&pp.num, pp.num.exp - (int64_t)pp.num.fn + e, mult, &mag)) {
	case EXACT_OK:
		*out = pp.num.neg ? -(sim_time_t)mag : (sim_time_t)mag;
		return true;
	case EXACT_RANGE:
		break;
	case EXACT_FRACTION:
		why = UNITS_WHY_FRACTION;
		break;
	case EXACT_BELOW_NS:
		why = UNITS_WHY_BELOW_NS;
		break;
	case EXACT_GIVE_UP:
		v = number_to_double(&pp.num, e) * (double)mult;
		why = units_ns_whole(v, &t);
		if (!why) {
			*out = t;   /* v carries the sign */
			return true;
		}
		break;
	}
	return fail(err, CS_UNITS_ERROR_RANGE, text, UNIT_SECOND, UNIT_DIM_COUNT, "%s", why);
}

/* Optimal string alignment distance: Levenshtein plus adjacent transpositions,
 * which is the commonest typo ("ilmi" for "ilim"). */
static size_t edit_distance(const char *a, size_t al, const char *b, size_t bl)
{
	g_autofree size_t *rows = g_new(size_t, 3 * (bl + 1));
	size_t *pp = rows, *prev = rows + bl + 1, *cur = rows + 2 * (bl + 1), *tmp;

	for (size_t j = 0; j <= bl; j++)
		prev[j] = j;
	for (size_t i = 1; i <= al; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= bl; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = MIN(prev[j] + 1, cur[j - 1] + 1);

			best = MIN(best, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				best = MIN(best, pp[j - 2] + 1);
			cur[j] = best;
		}
		tmp = pp;
		pp = prev;
		prev = cur;
		cur = tmp;
	}
	return prev[bl];
}

const char *cs_did_you_mean(const char *word, const char *const *candidates, size_t n)
{
	size_t wl, max, best_d;
	const char *best = NULL;

	if (!word || !candidates)
		return NULL;
	wl = strlen(word);
	max = MAX(wl / 3, 1);
	best_d = max + 1;
	for (size_t i = 0; i < n; i++) {
		const char *c = candidates[i];
		size_t cl, d;

		if (!c)
			continue;
		cl = strlen(c);
		/* The length difference is a lower bound on the distance. */
		if ((cl > wl ? cl - wl : wl - cl) >= best_d)
			continue;
		d = edit_distance(word, wl, c, cl);
		if (d < best_d) {
			best = c;
			best_d = d;
		}
	}
	return best;
}
