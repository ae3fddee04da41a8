// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_json.c - libFuzzer harness for the VCD's number writer: a differential
 * test against printf.
 *
 * The input bytes are parsed with cJSON (cJSON_ParseWithLength); every number of a tree
 * that parses, and the input's first eight bytes read as a double, are formatted with
 * trace_fmt_g9() (output/trace.c) and must equal snprintf's "%.9g". Nothing is written
 * anywhere.
 */
#include <stdio.h>
#include <string.h>
#include <cJSON.h>
#define FUZZ_PLAIN_INIT
#include "fuzz/fuzz_common.h"
#include "output/trace.h"

static void check_number(double v)
{
	char want[48], got[48];

	snprintf(want, 40, "%.9g", v);
	trace_fmt_g9(got, v);
	FUZZ_CHECK(strcmp(got, want) == 0, "%a by trace_fmt_g9: \"%s\", printf \"%s\"", v, got, want);
}

static void check_numbers(const cJSON *item)
{
	for (; item; item = item->next) {
		if (cJSON_IsNumber(item))
			check_number(item->valuedouble);
		check_numbers(item->child);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON *tree = cJSON_ParseWithLength((const char *)data, size);

	if (size >= sizeof(double)) {
		double v;

		memcpy(&v, data, sizeof(v));
		check_number(v);
	}
	if (!tree)
		return 0;
	check_numbers(tree);
	cJSON_Delete(tree);
	return 0;
}
