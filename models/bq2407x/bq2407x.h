/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/bq2407x/bq2407x.h - a charger with no registers, only pins: the TI
 * bq24072/3/4/5 family's control and status lines, as a view of the charger model
 * (models/pmic). This is the hardware Linux's gpio-charger.c drives.
 *
 * Source: TI "bq2407x 1.5-A USB-Friendly Li-Ion Battery Charger and Power-Path
 * Management IC", SLUS810: pin functions and the EN2/EN1 table -
 *   EN2 EN1 = 0 0: USB100 (100 mA input limit), 0 1: USB500 (500 mA),
 *             1 0: the limit set by the ILIM resistor, 1 1: standby (input off);
 * /PGOOD (open drain) low while the input is a good source, /CHG (open drain) low
 * while charging. The ILIM resistor's limit is a board choice (here: the charger
 * model's highest input limit).
 *
 * Lines, as a GPIO controller numbers them here: 0 /PGOOD, 1 /CHG (inputs to the
 * SoC, active low), 2 EN2, 3 EN1 (outputs from the SoC; pulled low at reset). A
 * change of /PGOOD or /CHG is an edge the SoC's GPIO block turns into an interrupt.
 */
#ifndef CS_MODELS_BQ2407X_H
#define CS_MODELS_BQ2407X_H

#include <stdbool.h>
#include "models/pmic/pmic.h"

enum bq2407x_line { BQ2407X_PGOOD, BQ2407X_CHG, BQ2407X_EN2, BQ2407X_EN1, BQ2407X_NLINES };

struct bq2407x_env {
	struct pmic *pmic;
	struct evlog *log;
	struct sim *sim;
	double ilim_a;                                   /* what the ILIM resistor sets */
	void (*edge)(void *ctx, enum bq2407x_line line); /* /PGOOD or /CHG changed */
	void *ctx;
};

struct bq2407x {
	struct bq2407x_env env;
	int en1, en2;
	int level[BQ2407X_NLINES];    /* pin levels last seen */
	double ilim_applied;
};

void bq2407x_init(struct bq2407x *c, const struct bq2407x_env *env);
/* The level on a line (0/1). */
int bq2407x_get(const struct bq2407x *c, enum bq2407x_line line);
/* Drive an EN line (writes to the status lines are ignored). */
void bq2407x_set(struct bq2407x *c, enum bq2407x_line line, int value);
/* The world has settled: status pins follow the charger; edges are reported. */
void bq2407x_update(struct bq2407x *c);

#endif
