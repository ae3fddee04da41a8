// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * models/registry.c - the models of a run, in the order of every loop over them (which
 * is part of a run's outputs: models/model.h). A new model adds its folder under
 * models/, its extern line and its line in the list.
 */
#include <stdarg.h>
#include <string.h>
#include "models/model.h"
#include "sim/evlog.h"

extern const struct model_desc model_source;
extern const struct model_desc model_cable;
extern const struct model_desc model_pmic;
extern const struct model_desc model_battery;
extern const struct model_desc model_load;
extern const struct model_desc model_phy;

const struct model_desc *const model_registry[] = {
	&model_source,     /* the charging port (drives vbus_attached) */
	&model_cable,      /* refines the source's part: loop resistance, dropouts */
	&model_pmic,       /* the charger IC (drives power_good) */
	&model_battery,    /* the cell (stepped by the run) */
	&model_load,       /* the system's draw and its boot */
	&model_phy,        /* detection and the VBUS comparator */
	NULL,
};

int model_count(void)
{
	return (int)G_N_ELEMENTS(model_registry) - 1;
}

int model_index(const char *key)
{
	for (int i = 0; model_registry[i]; i++)
		if (strcmp(model_registry[i]->key, key) == 0)
			return i;
	return -1;
}

void model_log_number(struct evlog *log, struct sim *sim, const char *src, const char *ev,
		      const char *key, double value)
{
	cJSON *rec = evlog_begin(log, sim_now(sim), src, ev);

	evlog_put_number(rec, key, value);
	evlog_end(log, rec);
}

bool model_error(GError **err, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(err, CS_PARAM_ERROR, CS_PARAM_ERROR_INVALID, "%s", msg);
	return false;
}

bool model_error_found(GError **err, const char *path, const cJSON *v, const char *fmt, ...)
{
	g_autofree char *found = param_describe_json(v);
	g_autofree char *rest = NULL;
	va_list ap;

	va_start(ap, fmt);
	rest = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return model_error(err, "%s: found %s, %s", path, found, rest);
}
