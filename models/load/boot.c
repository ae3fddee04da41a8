// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/load/boot.c - the boot sequence and its brownout resets (see boot.h).
 *
 * Default stages when a scenario gives none: bootloader 150 mA for 3 s, kernel
 * 800 mA for 20 s (order-of-magnitude figures for a phone SoC; assumed). Off draws
 * 1 mA, the bootloader's charging hold 100 mA, a restart comes 3 s after a brownout.
 */
#include <string.h>
#include "models/load/boot.h"
#include "sim/evlog.h"

static const char *const power_on_names[] = { "vbus", "always", NULL };

#define OFF(f) offsetof(struct boot_params, f)
const struct param_desc boot_keys_desc[] = {
	{ "off_current", PARAM_NUM, UNIT_AMP, OFF(off_current), 0, 5, .doc = "draw while off" },
	{ "hold_current", PARAM_NUM, UNIT_AMP, OFF(hold_current), 0, 5,
	  .doc = "draw while the bootloader holds at the gate (low-power charging)" },
	/* A restart of 0 after a brownout browns out again at the same instant, forever.
	 * 10 ms: below a system's power-on reset time, long enough that a brownout loop
	 * runs an hour in seconds. */
	{ "restart", PARAM_TIME, .off = OFF(restart), .min = 10e-3, .max = 3600,
	  .doc = "off time after a brownout before powering on again" },
	{ "gate_poll", PARAM_TIME, .off = OFF(gate_poll), .min = 1e-3, .max = 3600,
	  .doc = "how often a holding bootloader asks the gate again" },
	{ "power_on", PARAM_ENUM, .off = OFF(power_on), .choices = power_on_names,
	  .doc = "power on when VBUS is present (vbus) or whenever possible (always)" },
	PARAM_END,
};
#undef OFF

void boot_params_default(struct boot_params *p)
{
	*p = (struct boot_params){
		.n_stages = 2,
		.stages = { { "bootloader", 0.15, 3 * SIM_S }, { "kernel", 0.8, 20 * SIM_S } },
		.off_current = 0.001, .hold_current = 0.1, .restart = 3 * SIM_S,
		.gate_poll = 1 * SIM_S, .power_on = BOOT_ON_VBUS,
	};
}

static bool parse_stages(const cJSON *v, struct boot_params *p, const char *path, GError **err)
{
	const cJSON *it;
	int n = 0;

	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > BOOT_MAX_STAGES)
		return model_error_found(err, path, v, "expected 1 to %d stages [{\"name\", \"current\", \"for\"}, ...]",
					 BOOT_MAX_STAGES);
	cJSON_ArrayForEach(it, v) {
		g_autofree char *ip = g_strdup_printf("%s[%d]", path, n);
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
		const cJSON *cur = cJSON_GetObjectItemCaseSensitive(it, "current");
		const cJSON *dur = cJSON_GetObjectItemCaseSensitive(it, "for");
		struct boot_stage *st = &p->stages[n];
		const cJSON *k;

		if (cJSON_IsString(name) && strlen(name->valuestring) >= sizeof(st->name))
			return model_error(err, "%s.name: found a name of %zu bytes, expected at most %zu",
					   ip, strlen(name->valuestring), sizeof(st->name) - 1);
		if (!cJSON_IsObject(it) || !cJSON_IsString(name) || !cur || !dur)
			return model_error_found(err, ip, it, "expected {\"name\": \"kernel\", \"current\": \"800 mA\", \"for\": \"20 s\"}");
		cJSON_ArrayForEach(k, it)
			if (strcmp(k->string, "name") && strcmp(k->string, "current") && strcmp(k->string, "for"))
				return model_error(err, "%s.%s: found an unknown key \"%s\", expected name, current or for",
						   ip, k->string, k->string);
		g_autofree char *cp = g_strdup_printf("%s.current", ip);
		g_autofree char *dp = g_strdup_printf("%s.for", ip);
		if (!param_json_number(cur, UNIT_AMP, &st->current, cp, err) ||
		    !param_json_time(dur, &st->duration, dp, err))
			return false;
		if (st->current < 0 || st->current > 10 || st->duration <= 0)
			return model_error(err, "%s: found %g A for %g s, expected 0 to 10 A for a time above 0 s",
					   ip, st->current, sim_time_to_s(st->duration));
		g_strlcpy(st->name, name->valuestring, sizeof(st->name));
		n++;
	}
	p->n_stages = n;
	return true;
}

bool boot_parse(const struct param_desc *d, const cJSON *v, void *field, const char *path,
		GError **err)
{
	struct boot_params *p = field;
	static const char *const skip[] = { "stages", NULL };
	const cJSON *stages;

	(void)d;
	if (!cJSON_IsObject(v))
		return model_error_found(err, path, v, "expected an object such as {\"stages\": [...]}");
	boot_params_default(p);
	p->enabled = true;
	if (!param_load_object(boot_keys_desc, v, p, path, skip, err))
		return false;
	stages = cJSON_GetObjectItemCaseSensitive(v, "stages");
	if (stages) {
		g_autofree char *sp = g_strdup_printf("%s.stages", path);

		return parse_stages(stages, p, sp, err);
	}
	return true;
}

static void boot_log(struct boot *b, const char *reason)
{
	cJSON *rec = evlog_begin(b->log, sim_now(b->sim), "boot", "boot_state");

	evlog_put_string(rec, "state", boot_stage_name(b));
	if (reason)
		evlog_put_string(rec, "reason", reason);
	evlog_end(b->log, rec);
	MODEL_NOTIFY(b);
}

static void boot_enter(struct boot *b, int stage, const char *reason)
{
	sim_cancel(b->sim, &b->ev_stage);
	b->stage = stage;
	b->holding = false;
	if (stage >= 0 && stage < b->p->n_stages)
		sim_after(b->sim, &b->ev_stage, b->p->stages[stage].duration);
	if (stage >= b->p->n_stages && b->t_running < 0)
		b->t_running = sim_time_to_s(sim_now(b->sim));
	boot_log(b, reason);
}

static void boot_power_on(struct boot *b)
{
	b->boots++;
	boot_enter(b, 0, NULL);
}

static void boot_stage_cb(struct sim_event *ev, void *data)
{
	struct boot *b = data;

	(void)ev;
	if (b->stage == 0 && b->gate && !b->gate(b->gate_ctx)) {
		/* The bootloader holds: charge in a low-power state, ask again later. */
		if (!b->holding) {
			b->holding = true;
			boot_log(b, "gate");
		}
		sim_after(b->sim, &b->ev_stage, b->p->gate_poll);
		return;
	}
	boot_enter(b, b->stage + 1, NULL);
}

static void boot_restart_cb(struct sim_event *ev, void *data)
{
	struct boot *b = data;

	(void)ev;
	if (b->stage < 0 && (b->vbus || b->p->power_on == BOOT_ON_ALWAYS))
		boot_power_on(b);
}

void boot_init(struct boot *b, const struct boot_params *p, struct sim *sim,
	       struct evlog *log, model_changed_fn *changed, void *ctx)
{
	/* without a boot model the device is simply running (stage n_stages) */
	*b = (struct boot){ .p = p, .sim = sim, .log = log, .changed = changed, .ctx = ctx,
			    .stage = p->n_stages, .t_running = -1 };
	sim_event_init(&b->ev_stage, boot_stage_cb, b);
	sim_event_init(&b->ev_restart, boot_restart_cb, b);
}

void boot_start(struct boot *b)
{
	if (!b->p->enabled)
		return;
	b->stage = -1;
	if (b->p->power_on == BOOT_ON_ALWAYS)
		boot_power_on(b);
	else
		boot_log(b, NULL);
}

void boot_cleanup(struct boot *b)
{
	sim_cancel(b->sim, &b->ev_stage);
	sim_cancel(b->sim, &b->ev_restart);
}

void boot_set_gate(struct boot *b, boot_gate_cb gate, void *ctx)
{
	b->gate = gate;
	b->gate_ctx = ctx;
}

void boot_vbus(struct boot *b, bool present)
{
	b->vbus = present;
	if (present && b->p->enabled && b->stage < 0 && !sim_event_is_queued(&b->ev_restart))
		boot_power_on(b);
}

void boot_brownout(struct boot *b)
{
	if (!b->p->enabled || b->stage < 0)
		return;
	boot_enter(b, -1, "brownout");
	sim_reschedule(b->sim, &b->ev_restart, sim_now(b->sim) + b->p->restart);
}

bool boot_current(const struct boot *b, double *amps)
{
	if (!b->p->enabled || b->stage >= b->p->n_stages)
		return false;
	if (b->stage < 0)
		*amps = b->p->off_current;
	else if (b->holding)
		*amps = b->p->hold_current;
	else
		*amps = b->p->stages[b->stage].current;
	return true;
}

const char *boot_stage_name(const struct boot *b)
{
	if (b->stage < 0)
		return "off";
	if (b->stage >= b->p->n_stages)
		return "running";
	return b->holding ? "bootloader-hold" : b->p->stages[b->stage].name;
}
