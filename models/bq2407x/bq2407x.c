// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/bq2407x/bq2407x.c - the bq2407x's pins over the charger model (see
 * bq2407x.h for the source and the pin functions).
 */
#include <string.h>
#include "models/bq2407x/bq2407x.h"

#define USB100_A 0.1
#define USB500_A 0.5

int bq2407x_get(const struct bq2407x *c, enum bq2407x_line line)
{
	const struct pmic *p = c->env.pmic;

	switch (line) {
	case BQ2407X_PGOOD: return p->connected && !p->hiz ? 0 : 1;   /* open drain, low = good */
	case BQ2407X_CHG:
		return p->connected && !p->hiz &&
		       (p->state == CHG_PRECHARGE || p->state == CHG_CC || p->state == CHG_CV) ? 0 : 1;
	case BQ2407X_EN2: return c->en2;
	case BQ2407X_EN1: return c->en1;
	default: return 0;
	}
}

/* EN2/EN1 to the charger model's input: limit or standby. The pins hold the limit
 * all the time, so it is put back whenever the charger model's differs (after an
 * unplug reset it). */
static void apply_en(struct bq2407x *c)
{
	bool standby = c->en2 && c->en1;
	double a = c->en2 ? c->env.ilim_a : c->en1 ? USB500_A : USB100_A;
	const struct pmic *p = c->env.pmic;

	if (standby != p->hiz)
		pmic_set_hiz(c->env.pmic, standby);
	if (!standby && (a != c->ilim_applied ||
			 (p->reg_n == 0 && p->iindpm != pmic_quantize_iindpm(p->p, a)))) {
		c->ilim_applied = a;
		pmic_write_iindpm_as(c->env.pmic, "bq2407x", a);
	}
}

void bq2407x_init(struct bq2407x *c, const struct bq2407x_env *env)
{
	memset(c, 0, sizeof(*c));
	c->env = *env;
	c->ilim_applied = -1;
	apply_en(c);   /* EN pins pulled low: USB100 */
	for (int i = 0; i < BQ2407X_NLINES; i++)
		c->level[i] = bq2407x_get(c, i);
}

void bq2407x_set(struct bq2407x *c, enum bq2407x_line line, int value)
{
	if (line == BQ2407X_EN1)
		c->en1 = !!value;
	else if (line == BQ2407X_EN2)
		c->en2 = !!value;
	else
		return;
	apply_en(c);
}

void bq2407x_update(struct bq2407x *c)
{
	apply_en(c);
	for (int i = BQ2407X_PGOOD; i <= BQ2407X_CHG; i++) {
		int v = bq2407x_get(c, i);

		if (v != c->level[i]) {
			c->level[i] = v;
			if (c->env.edge)
				c->env.edge(c->env.ctx, i);
		}
	}
}
