/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/cable/cable.h - the USB cable: VBUS/GND loop resistance, data and CC lines.
 *
 *   R_loop = 2 * rho(AWG) * length + contacts * r_contact     (or r_loop given)
 *
 * The data lines may be connected, floating (never make contact) or late (contact a
 * given time after VBUS); the CC line may be present or not. An injected dropout
 * (intermittent contact, a scenario fault) opens VBUS for a while.
 */
#ifndef CS_MODELS_CABLE_H
#define CS_MODELS_CABLE_H

#include "models/model.h"

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

struct cable {
	const struct cable_params *p;
	struct sim *sim;
	struct evlog *log;
	model_changed_fn *changed;
	void *ctx;
	double r_loop;           /* VBUS/GND loop resistance now */
	bool dropout;            /* an injected intermittent contact holds VBUS open */
	struct sim_event ev_dropout_end;
};

extern const struct param_desc cable_param_desc[];

void cable_params_default(struct cable_params *p);
/* Resistance per conductor in ohm/m for an AWG in 20..28 (even), or -1. */
double cable_ohm_per_m(int awg);
double cable_r_loop(const struct cable_params *p);

void cable_init(struct cable *c, const struct cable_params *p, struct sim *sim,
		struct evlog *log, model_changed_fn *changed, void *ctx);
void cable_cleanup(void *cable);   /* a struct cable; also its model_desc cleanup */
/* Open VBUS for `duration` (a "vbus_dropout" fault); logs cable/dropout and, at the
 * end, cable/dropout_end. A dropout during one extends it to now + duration. */
void cable_dropout(struct cable *c, sim_time_t duration);

#endif
