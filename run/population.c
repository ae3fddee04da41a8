// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/population.c - the classes of setups, their mixes and the draw of one setup
 * (run/population.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cJSON.h>
#include "run/population.h"

enum pop_class {
	POP_HEALTHY, POP_WEAK_FULL, POP_THIN_CABLE, POP_LINEAR, POP_HICCUP_LATCH, POP_HOST,
	POP_TYPEC, POP_PD,
};

const char *const pop_class_names[POP_NCLASS] = {
	"healthy", "weak-full", "thin-cable", "linear", "hiccup-latch", "host", "typec", "pd",
};

/* Class weights of the default mix, and of the "hard" mix (the difficult classes). */
static const double pop_mix_default[POP_NCLASS] = { 25, 10, 15, 12, 12, 10, 8, 8 };
static const double pop_mix_hard[POP_NCLASS] = { 5, 20, 25, 20, 20, 4, 3, 3 };

static double U(GRand *r, double lo, double hi)
{
	return lo + (hi - lo) * g_rand_double(r);
}

static bool coin(GRand *r, double p)
{
	return g_rand_double(r) < p;
}

static int pick(GRand *r, const double *w, int n)
{
	double sum = 0, x;

	for (int i = 0; i < n; i++)
		sum += w[i];
	x = g_rand_double(r) * sum;
	for (int i = 0; i < n; i++) {
		if (x < w[i])
			return i;
		x -= w[i];
	}
	return n - 1;
}

static void add_q(cJSON *o, const char *key, double v, const char *unit)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.4g %s", v, unit);
	cJSON_AddStringToObject(o, key, buf);
}

/* The source object: its kind, the port's own rules (the host's configuration, the
 * Type-C Rp advertisement, the PD offers) and the USB budget they grant. */
static void pop_draw_port(GRand *r, int cls, struct pop_setup *s, cJSON *dev, cJSON *src, cJSON *cab)
{
	struct pop_desc *d = &s->d;

	cJSON_AddStringToObject(src, "kind", d->kind);
	add_q(src, "voc", d->voc, "V");
	add_q(src, "rout", d->rout, "ohm");
	s->budget = 0;
	if (cls == POP_HOST) {
		/* The host port's own switch and limit (kind defaults); the budget is what
		 * the host grants the gadget's configuration, or BC1.2's 1.5 A on a CDP. */
		cJSON *g = cJSON_AddObjectToObject(dev, "gadget");
		bool ss = strcmp(d->kind, "sdp-usb3") == 0;

		cJSON_AddItemToObject(g, "configs", cJSON_CreateStringArray((const char *[]){ ss ? "900 mA" : "500 mA" }, 1));
		if (ss)
			cJSON_AddBoolToObject(g, "usb3", true);
		s->budget = strcmp(d->kind, "cdp") == 0 ? 1.5 : ss ? 0.896 : 0.5;
		d->ilim = NAN;
		d->overload = "host";
	} else if (cls == POP_TYPEC) {
		bool hi = coin(r, 0.5);

		cJSON_AddStringToObject(src, "rp", hi ? "3.0A" : "1.5A");
		s->budget = hi ? 3.0 : 1.5;
		d->ilim = s->budget * U(r, 0.7, 1.1);   /* some adapters cannot give what they advertise */
	} else if (cls == POP_PD) {
		static const char *const offers[][2] = {
			{ "5V 3A", "9V 3A" }, { "5V 3A", "9V 2A" }, { "5V 2A", "9V 1.67A" },
		};
		static const double contract[] = { 3.0, 2.0, 1.67 };
		int k = g_rand_int_range(r, 0, 3);

		cJSON_AddItemToObject(src, "pdos", cJSON_CreateStringArray(offers[k], 2));
		s->budget = contract[k];
		d->ilim = s->budget * U(r, 0.8, 1.05);
	}
	if (isfinite(d->ilim))
		add_q(src, "ilim", d->ilim, "A");
	if (cls != POP_HOST)
		cJSON_AddStringToObject(src, "overload", d->overload);
	if (d->t_limit_max > 0)
		add_q(src, "t_limit_max", d->t_limit_max, "s");
	add_q(cab, "r_loop", d->r_cable, "ohm");

}

static const char *const ovl_names[] = { "cc", "hiccup", "latch" };

/*
 * One setup of class cls. The numbers are the population: adapters 0.5-3 A
 * with cc, hiccup and latch overload (5 V +- 5 % at no load, 50-300 mohm inside),
 * cables 0.05-0.8 ohm, switching and linear chargers, 1.5-5 Ah cells from 5 to 99 %,
 * system loads 0-1.5 A (a third of them change once during the charge), host ports,
 * Type-C and PD sources.
 */
static void pop_draw(GRand *r, int cls, struct pop_setup *s, cJSON *doc)
{
	static const char *const switching[] = { "bq25890", "bq24190", "generic-switching" };
	static const double w_switching[] = { 40, 30, 30 };
	static const char *const linear[] = { "twl4030", "generic-linear" };
	static const double w_linear[] = { 60, 40 };
	cJSON *src = cJSON_AddObjectToObject(doc, "source");
	cJSON *cab = cJSON_AddObjectToObject(doc, "cable");
	cJSON *dev = cJSON_AddObjectToObject(doc, "device");
	cJSON *pm = cJSON_AddObjectToObject(dev, "pmic");
	cJSON *bat = cJSON_AddObjectToObject(dev, "battery");
	cJSON *load = cJSON_AddObjectToObject(dev, "load");
	struct pop_desc *d = &s->d;
	double p_linear = 0.25, rc_lo = 0.05, rc_hi = 0.3, il_lo = 1.0, il_hi = 3.0;
	double w_ovl[3] = { 40, 40, 20 };   /* cc, hiccup, latch */
	double p_timer = 0.2;               /* hiccup/latch with an overload timer */

	d->kind = "dcp";
	d->soc0 = U(r, 0.05, 0.70);
	d->cap_ah = U(r, 1.5, 5.0);
	d->load = U(r, 0, 1.5);
	d->load2_at = -1;
	if (coin(r, 1.0 / 3)) {
		d->load2 = U(r, 0, 1.5);
		d->load2_at = U(r, 10 * 60, 90 * 60);
	}
	d->voc = U(r, 4.95, 5.25);
	d->rout = U(r, 0.05, 0.3);
	switch (cls) {
	case POP_HEALTHY:
		il_lo = 1.5;
		rc_hi = 0.25;
		p_linear = 0;
		w_ovl[2] = 0;
		p_timer = 0;
		if (coin(r, 0.3))
			d->kind = (const char *[]){ "apple-2.1a", "apple-2.4a", "samsung-2a" }[g_rand_int_range(r, 0, 3)];
		break;
	case POP_WEAK_FULL:
		il_lo = 0.5;
		il_hi = 1.2;
		rc_hi = 0.4;
		p_linear = 0.6;
		w_ovl[0] = 0;
		w_ovl[1] = 60;
		w_ovl[2] = 40;
		d->soc0 = U(r, 0.90, 0.99);
		d->load = U(r, 0, 0.5);
		if (d->load2_at > 0)
			d->load2 = U(r, 0, 0.5);
		break;
	case POP_THIN_CABLE:
		rc_lo = 0.3;
		rc_hi = 0.8;
		p_linear = 0.3;
		break;
	case POP_LINEAR:
		il_lo = 0.5;
		il_hi = 2.5;
		rc_hi = 0.5;
		p_linear = 1;
		break;
	case POP_HICCUP_LATCH:
		il_lo = 0.5;
		il_hi = 2.5;
		rc_hi = 0.5;
		w_ovl[0] = 0;
		w_ovl[1] = 50;
		w_ovl[2] = 50;
		p_timer = 0.5;
		break;
	case POP_HOST:
		d->kind = (const char *[]){ "sdp", "sdp-usb3", "cdp" }[pick(r, (const double[]){ 40, 30, 30 }, 3)];
		d->voc = U(r, 4.9, 5.15);
		d->rout = U(r, 0.1, 0.25);
		rc_lo = 0.1;
		rc_hi = 0.6;
		break;
	case POP_TYPEC:
		d->kind = "typec";
		rc_hi = 0.4;
		p_linear = 0.1;
		break;
	case POP_PD:
		d->kind = "pd";
		rc_hi = 0.4;
		p_linear = 0;
		break;
	default:
		break;
	}
	d->r_cable = U(r, rc_lo, rc_hi);
	d->ilim = U(r, il_lo, il_hi);
	d->overload = ovl_names[pick(r, w_ovl, 3)];
	d->t_limit_max = strcmp(d->overload, "cc") != 0 && coin(r, p_timer) ? U(r, 0.2, 2.0) : 0;
	d->pmic = coin(r, p_linear) ? linear[pick(r, w_linear, 2)] : switching[pick(r, w_switching, 3)];

	pop_draw_port(r, cls, s, dev, src, cab);
	cJSON_AddStringToObject(pm, "preset", d->pmic);
	cJSON_AddStringToObject(pm, "vreg", "4.35 V");
	d->ichg = d->cap_ah * U(r, 0.5, 1.0);      /* 0.5-1 C */
	d->ichg = fmin(fmax(d->ichg, 0.5), strcmp(d->pmic, "twl4030") == 0 ? 1.7 :
				       strcmp(d->pmic, "generic-linear") == 0 ? 1.5 : 3.0);
	add_q(pm, "ichg", d->ichg, "A");
	add_q(bat, "capacity", d->cap_ah * 1000, "mAh");
	add_q(bat, "soc", d->soc0 * 100, "%");
	if (d->load2_at > 0) {
		cJSON *prof = cJSON_AddArrayToObject(load, "profile");
		cJSON *a = cJSON_CreateObject(), *b = cJSON_CreateObject();

		cJSON_AddStringToObject(a, "at", "0 s");
		add_q(a, "current", d->load, "A");
		add_q(b, "at", d->load2_at, "s");
		add_q(b, "current", d->load2, "A");
		cJSON_AddItemToArray(prof, a);
		cJSON_AddItemToArray(prof, b);
	} else {
		add_q(load, "current", d->load, "A");
	}
}

static bool parse_mix(const char *spec, double *w, GError **err)
{
	g_auto(GStrv) items = NULL;

	if (!spec || strcmp(spec, "default") == 0) {
		memcpy(w, pop_mix_default, sizeof(pop_mix_default));
		return true;
	}
	if (strcmp(spec, "hard") == 0) {
		memcpy(w, pop_mix_hard, sizeof(pop_mix_hard));
		return true;
	}
	memset(w, 0, sizeof(double) * POP_NCLASS);
	items = g_strsplit(spec, ",", -1);
	if (!items[0]) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--mix: empty");
		return false;
	}
	for (int i = 0; items[i]; i++) {
		char *eq = strchr(items[i], '=');
		char *end = NULL;
		int c;

		for (c = 0; c < POP_NCLASS; c++)
			if (eq && (size_t)(eq - items[i]) == strlen(pop_class_names[c]) &&
			    strncmp(items[i], pop_class_names[c], (size_t)(eq - items[i])) == 0)
				break;
		if (!eq || c == POP_NCLASS || (w[c] = g_ascii_strtod(eq + 1, &end), *end) || w[c] < 0) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--mix: '%s' is not CLASS=WEIGHT (classes: healthy, weak-full, thin-cable, "
				    "linear, hiccup-latch, host, typec, pd; or 'default', 'hard')", items[i]);
			return false;
		}
	}
	for (int c = 0; c < POP_NCLASS; c++)
		if (w[c] > 0)
			return true;
	g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--mix: every weight is 0");
	return false;
}

/* 0 for the default mix, else a hash of its weights. */
static guint32 pop_mix_key(const double *mix)
{
	guint32 h = 0;

	if (memcmp(mix, pop_mix_default, sizeof(pop_mix_default)) == 0)
		return 0;
	for (int c = 0; c < POP_NCLASS; c++)
		h = h * 1000003u + (guint32)lround(mix[c] * 1000);
	return h ? h : 1;
}

bool population_mix(const char *spec, struct population *pop, GError **err)
{
	memset(pop, 0, sizeof(*pop));
	if (!parse_mix(spec, pop->weight, err))
		return false;
	pop->name = g_strdup(spec ? spec : "default");
	return true;
}

void population_clear(struct population *pop)
{
	g_clear_pointer(&pop->name, g_free);
}

void population_setup(const struct population *pop, guint32 seed, int i, struct pop_setup *s)
{
	/* Setup i of a seed is the same whatever the number of setups; another mix draws
	 * other setups (the default mix keeps the plain (seed, i) stream). */
	guint32 key = pop_mix_key(pop->weight);
	guint32 seeds[3] = { seed, (guint32)i, key };
	g_autoptr(GRand) r = g_rand_new_with_seed_array(seeds, key ? 3 : 2);
	cJSON *doc = cJSON_CreateObject();
	g_autofree char *desc = NULL;
	char *text;

	memset(s, 0, sizeof(*s));
	s->index = i;
	s->cls = pick(r, pop->weight, POP_NCLASS);
	s->name = g_strdup_printf("regret-%u-%03d-%s", seed, i, pop_class_names[s->cls]);
	cJSON_AddStringToObject(doc, "name", s->name);
	cJSON_AddNumberToObject(doc, "seed", 1);
	cJSON_AddStringToObject(doc, "duration", POP_HORIZON);
	pop_draw(r, s->cls, s, doc);
	desc = g_strdup_printf("bench_regret seed %u setup %d (%s): %s %s, %s; %.2f ohm cable; %s; "
			       "%.1f Ah cell at %.0f %%; load %.2f A", seed, i, pop_class_names[s->cls],
			       s->d.kind, s->d.overload, isfinite(s->d.ilim) ? "" : "host limits",
			       s->d.r_cable, s->d.pmic, s->d.cap_ah, s->d.soc0 * 100, s->d.load);
	cJSON_AddStringToObject(doc, "description", desc);
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	s->text = g_strndup(text, strlen(text) - 1);
	free(text);
}

void pop_setup_clear(struct pop_setup *s)
{
	g_clear_pointer(&s->name, g_free);
	g_clear_pointer(&s->text, g_free);
}

char *pop_setup_scenario(const struct pop_setup *s, const char *policy_json)
{
	return g_strdup_printf("%s,\"policy\":%s}", s->text, policy_json);
}
