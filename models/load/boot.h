/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * models/load/boot.h - the device's boot: off -> stages (bootloader, kernel, ...) ->
 * running, with a brownout resetting it to off.
 *
 * Each stage draws its own current for its duration; after the last stage the
 * device runs and the normal load (device.load) applies. A brownout (VSYS below
 * vsys_min) resets the device to off; it powers on again after `restart` if the charger's
 * input is connected (power good), or always with power_on "always". A dead battery on a weak port whose
 * boot draws more than the port gives loops: boot, brownout, boot... The first stage
 * is the bootloader: at its end it asks a gate (the policy's boot-gating hook, if one
 * is registered) whether the battery can carry the rest; while the gate says no, it
 * stays in a low-power charging state drawing `hold_current` and asks again every
 * `gate_poll`.
 */
#ifndef CS_MODELS_BOOT_H
#define CS_MODELS_BOOT_H

#include "models/model.h"

#define BOOT_MAX_STAGES 8

enum boot_power_on { BOOT_ON_VBUS, BOOT_ON_ALWAYS };

struct boot_stage {
	char name[24];
	double current;         /* A */
	sim_time_t duration;
};

struct boot_params {
	bool enabled;           /* a "boot" object was given */
	int n_stages;
	struct boot_stage stages[BOOT_MAX_STAGES];
	double off_current;     /* A while off */
	double hold_current;    /* A while the bootloader holds at the gate */
	sim_time_t restart;     /* off time after a brownout before powering on again */
	sim_time_t gate_poll;
	int power_on;           /* enum boot_power_on */
};

typedef bool (*boot_gate_cb)(void *ctx);

struct boot {
	const struct boot_params *p;
	struct sim *sim;
	struct evlog *log;
	model_changed_fn *changed;
	void *ctx;
	boot_gate_cb gate;
	void *gate_ctx;
	int stage;              /* -1 off, 0..n-1 stages, n running */
	bool holding;           /* bootloader waiting at the gate */
	bool vbus;
	int boots;              /* power-on attempts */
	double t_running;       /* s when the device first reached "running", < 0 never */
	struct sim_event ev_stage, ev_restart;
};

/* The keys of device.load.boot besides "stages" (offsets in struct boot_params). */
extern const struct param_desc boot_keys_desc[];
void boot_params_default(struct boot_params *p);
bool boot_parse(const struct param_desc *d, const cJSON *v, void *field, const char *path,
		GError **err);

void boot_init(struct boot *b, const struct boot_params *p, struct sim *sim,
	       struct evlog *log, model_changed_fn *changed, void *ctx);
void boot_start(struct boot *b);
void boot_cleanup(struct boot *b);
void boot_set_gate(struct boot *b, boot_gate_cb gate, void *ctx);
void boot_vbus(struct boot *b, bool present);
void boot_brownout(struct boot *b);
/* The draw right now: true when the boot model sets it (not yet running). */
bool boot_current(const struct boot *b, double *amps);
const char *boot_stage_name(const struct boot *b);

#endif
