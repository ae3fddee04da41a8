/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/schema.h - the JSON Schema of a scenario file, made from the tables the loader
 * reads (the models' and the board's parameter tables, the built-in policies'), so an
 * editor's completion and checks cannot drift from what `chargesim run` accepts.
 *
 * The schema is JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).
 * It describes the keys and value types; the loader checks more than a schema can say
 * (units in strings such as "500 mA", presets, values that only make sense together,
 * event order), so a file the schema accepts may still be refused, never the reverse.
 */
#ifndef CS_RUN_SCHEMA_H
#define CS_RUN_SCHEMA_H

/* The schema as JSON text, indented, ending in a newline (g_free). The same bytes for
 * every build: the real Linux drivers compiled in are described by their name pattern
 * ("linux/..."), not listed. */
char *scenario_schema_text(void);

#endif
