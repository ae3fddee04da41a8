/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/cable/cable.h - the USB cable: VBUS/GND loop resistance, data and CC lines.
 *
 *   R_loop = 2 * rho(AWG) * length + contacts * r_contact     (or r_loop given)
 *
 * The data lines may be connected, floating (never make contact) or late (contact a
 * given time after VBUS); the CC line may be present or not. An injected dropout
 * (intermittent contact) is the run's business: sim/world.c opens VBUS for a while.
 */
#ifndef CS_MODELS_CABLE_H
#define CS_MODELS_CABLE_H

#include <stdbool.h>
#include "sim/param.h"

enum cable_data { CABLE_DATA_CONNECTED, CABLE_DATA_FLOATING, CABLE_DATA_LATE };

struct cable_params {
	double length_m;
	int awg;
	int contacts;
	double r_contact;
	bool r_loop_given;
	double r_loop;           /* used when r_loop_given */
	int data;                /* enum cable_data */
	sim_time_t data_late;    /* for CABLE_DATA_LATE */
	bool cc;                 /* CC wire present (Type-C) */
};

extern const struct param_desc cable_param_desc[];

void cable_params_default(struct cable_params *p);
/* Resistance per conductor in ohm/m for an AWG in 20..28 (even), or -1. */
double cable_ohm_per_m(int awg);
double cable_r_loop(const struct cable_params *p);

#endif
