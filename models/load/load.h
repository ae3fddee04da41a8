/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/load/load.h - the system load at VSYS and brownout detection.
 *
 * The device draws a constant current or a constant power at VSYS, changed by a time
 * profile or by scenario `set` events (screen on, suspend, camera burst). When VSYS
 * falls below vsys_min the system browns out (a `brownout` event); it is re-armed
 * once VSYS is back above vsys_min + LOAD_BROWNOUT_HYST_V. A system running from
 * t = 0 (no boot model) with VSYS already below vsys_min has not browned out: the
 * detector starts disarmed then (the load model's observe). What a brownout does to a
 * booting device is the boot model's business (models/load/boot.h).
 */
#ifndef CS_MODELS_LOAD_H
#define CS_MODELS_LOAD_H

#include "models/load/boot.h"

/* The most steps a profile holds, from a JSON list or a CSV trace: a week of a
 * measured trace at 10 Hz (6 048 000 rows) fits with room to spare, and the steps of
 * the largest (24 bytes each) take 240 MB, still within an ordinary machine's memory. */
#define LOAD_PROFILE_MAX_STEPS 10000000
#define LOAD_BROWNOUT_HYST_V 0.1
/* The ranges of a step's value (those of "current" and "power"). */
#define LOAD_CURRENT_MAX_A 20.0
#define LOAD_POWER_MAX_W 100.0

struct load_step {
	sim_time_t at;
	bool is_power;
	double value;           /* A or W */
};

struct load_params {
	double current;         /* A (used when power == 0) */
	double power;           /* W (0 = constant current) */
	double vsys_min;        /* brownout threshold */
	/* The profile's steps, in time order: heap memory the scenario's parameters own
	 * (freed by param_free_strings() through the table's release hook); a run's
	 * shallow copy of the parameters only reads them. */
	int n_profile;
	struct load_step *profile;
	/* "profile": "FILE.csv": the file as written, for the scenario loader to read
	 * (run/load_profile.c); the model itself reads no file. NULL otherwise. */
	char *profile_file;
	struct boot_params boot;
};

struct load {
	struct load_params *p;
	struct sim *sim;
	struct evlog *log;
	model_changed_fn *changed;
	void *ctx;
	int next_step;
	struct sim_event ev_step;
	bool browned_out;       /* below vsys_min, not yet re-armed */
	int brownouts;
	bool override;          /* the boot model owns the draw (set by the load model's net) */
	double override_current;
};

/* device.load as a model of the run: the system's draw and its boot sequence. */
struct load_model {
	struct load load;
	struct boot boot;
};

extern const struct param_desc load_param_desc[];

void load_params_default(struct load_params *p);
/* Give p the profile steps[0..n) (taking the array, g_new'd; it is g_free'd with the
 * parameters), in place of any it had. The caller has checked them: times from 0,
 * ascending, values within the ranges above. */
void load_profile_set(struct load_params *p, struct load_step *steps, int n);
void load_init(struct load *l, struct load_params *p, struct sim *sim, struct evlog *log,
	       model_changed_fn *changed, void *ctx);
void load_cleanup(struct load *l);
/* The draw right now: current (A) or power (W), one of them zero. */
void load_demand(const struct load *l, double *iload, double *pload);
/* React to VSYS; returns true when a brownout just happened. Only a powered device
 * browns out; while it is off the detector re-arms. */
bool load_observe(struct load *l, double vsys, bool powered);
double load_margin(const struct load *l, double vsys, bool powered);

#endif
