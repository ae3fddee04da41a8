// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_json.c - libFuzzer harness for the JSON and number writers: a differential
 * test against cJSON's own printers and printf.
 *
 * The input bytes are parsed with cJSON (cJSON_ParseWithLength); a tree that parses is
 * printed with cs_json_append() (sim/jsonout.c), formatted and not, and the text must
 * equal cJSON_Print() / cJSON_PrintUnformatted() byte for byte. Every number of the
 * tree, and the input's first eight bytes read as a double, are formatted with
 * trace_fmt_g() for every precision from 1 to 9 and trace_fmt_g9() (sim/trace.c) and
 * must equal snprintf's "%.*g". Nothing is written anywhere.
 */
#include <stdio.h>
#include <string.h>
#define FUZZ_PLAIN_INIT
#include "fuzz/fuzz_common.h"
#include "sim/jsonout.h"
#include "sim/trace.h"

static void check_number(double v)
{
	char want[48], got[48];

	for (int prec = 1; prec <= 9; prec++) {
		int nw = snprintf(want, 40, "%.*g", prec, v);
		int ng = trace_fmt_g(got, v, prec);

		FUZZ_CHECK(ng == nw && strcmp(got, want) == 0, "%a at %d digits: \"%s\", printf \"%s\"",
			   v, prec, got, want);
	}
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

static void check_tree(const cJSON *tree, bool formatted)
{
	char *want = formatted ? cJSON_Print(tree) : cJSON_PrintUnformatted(tree);
	GString *got = g_string_new(NULL);
	bool ok = cs_json_append(got, tree, formatted);

	FUZZ_CHECK(ok == (want != NULL), "%s: cJSON %s, cs_json_append %s",
		   formatted ? "formatted" : "unformatted", want ? "printed" : "refused",
		   ok ? "printed" : "refused");
	if (want)
		FUZZ_CHECK(strcmp(got->str, want) == 0, "%s: cJSON \"%s\", ours \"%s\"",
			   formatted ? "formatted" : "unformatted", want, got->str);
	cJSON_free(want);
	g_string_free(got, TRUE);
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
	check_tree(tree, false);
	check_tree(tree, true);
	check_numbers(tree);
	cJSON_Delete(tree);
	return 0;
}
