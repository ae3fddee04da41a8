/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/jsonout.h - a cJSON tree as text, appended to a GString.
 *
 * The text is byte for byte what cJSON (1.7.15, Debian 12's libcjson) returns from
 * cJSON_Print (formatted) and cJSON_PrintUnformatted, so outputs keep their form, but
 * without a malloc'ed buffer per call and without sscanf for every number: the event
 * log prints a record per event and the metrics once per run.
 */
#ifndef CS_SIM_JSONOUT_H
#define CS_SIM_JSONOUT_H

#include <stdbool.h>
#include <cJSON.h>
#include <glib.h>

/* Append item's text to out. false when cJSON would refuse to print the tree (an item
 * of no known type, a raw item without text); out then holds a part of it. */
bool cs_json_append(GString *out, const cJSON *item, bool formatted);
/* Append a number as cJSON prints a number item of that value ("null" when it is not
 * finite). */
void cs_json_append_number(GString *out, double d);

#endif
