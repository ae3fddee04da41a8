/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report/report_priv.h - what the tables (tables.c) and the HTML page (html.c) share:
 * a run's metrics as text, exactly as metrics.json writes them.
 */
#ifndef CS_REPORT_PRIV_H
#define CS_REPORT_PRIV_H

#include <stdbool.h>
#include <glib.h>
#include "report/report.h"

/* One metric of a run as metrics.json writes it. */
struct rmetric {
	char *key;
	char *text;     /* the number's text (its significant digits) or the string; NULL: null */
	bool string;    /* a text metric (detected_type, policy) */
};

/* The written metrics of m in metrics.json order (struct rmetric *, freed with the
 * array). */
GPtrArray *report_metrics(const struct world_metrics *m);
/* The metric of a run by key, NULL when that run lacks it. */
const struct rmetric *report_metric_find(const GPtrArray *ms, const char *key);

/* text as HTML into out (html.c): valid UTF-8, the markup characters escaped. */
void html_text(GString *out, const char *text);
/* The pages' style sheet (html.c). */
extern const char report_style[];

#endif
