// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz/fuzz_of.c - libFuzzer harness for the device-tree property parser and readers
 * (stack/kernel/of.c).
 *
 * The input bytes (up to the first NUL, as the scenario string "of" holds them) are
 * applied with cs_of_apply_dts() to a node of a small tree that has one labelled node
 * ("pins", for &label cells). Then every property of the node is read with each reader
 * a driver may call, into buffers with guard words on either side. Besides the
 * sanitizers, the contracts of linux/of.h are checked on every input:
 *   - a failed apply is -EINVAL with a message; a successful one leaves none;
 *   - a fixed-size read (of_property_read_u32_array(), of_property_read_u32()) writes
 *     exactly the cells asked for, and succeeds exactly when the property holds at
 *     least that many bytes (a boolean is -ENODATA);
 *   - a variable-size read returns a count within its bounds and writes that many;
 *   - of_property_count_strings() and of_property_read_string_index() agree, and every
 *     string they give ends inside its property.
 * Nothing is written anywhere.
 */
#include "fuzz/fuzz_common.h"
#include <linux/of.h>
#include <chargesim/kernel.h>
#include "sim/evlog.h"
#include "sim/sim.h"

#define GUARD 0xa5a5a5a5u
#define NBUF 8

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

static bool guards_intact(const u32 *buf, size_t from)
{
	for (size_t i = from; i < NBUF + 2; i++)
		if (buf[i] != GUARD)
			return false;
	return buf[0] == GUARD;
}

static void fill_guards(u32 *buf)
{
	for (size_t i = 0; i < NBUF + 2; i++)
		buf[i] = GUARD;
}

static void check_u32_readers(const struct device_node *np, const struct property *p)
{
	u32 buf[NBUF + 2];
	size_t cells = p->value ? (size_t)p->length / sizeof(u32) : 0;

	for (size_t n = 1; n <= NBUF; n++) {
		int ret;

		fill_guards(buf);
		ret = of_property_read_u32_array(np, p->name, buf + 1, n);
		FUZZ_CHECK(ret == (!p->value ? -ENODATA : cells >= n ? 0 : -EOVERFLOW),
			   "%s (%d bytes): read of %zu cells gave %d", p->name, p->length, n, ret);
		FUZZ_CHECK(guards_intact(buf, ret == 0 ? n + 1 : 1),
			   "%s: read of %zu cells wrote outside them", p->name, n);
		fill_guards(buf);
		ret = of_property_read_variable_u32_array(np, p->name, buf + 1, 1, n);
		if (ret >= 0) {
			FUZZ_CHECK(ret >= 1 && (size_t)ret <= n && (size_t)ret == cells,
				   "%s: variable read 1..%zu gave %d of %zu cells", p->name, n, ret,
				   cells);
			FUZZ_CHECK(guards_intact(buf, (size_t)ret + 1),
				   "%s: variable read wrote past its %d cells", p->name, ret);
		} else {
			FUZZ_CHECK(guards_intact(buf, 1), "%s: a failed read wrote", p->name);
		}
	}
	if (p->value) {
		u32 v = 0;

		FUZZ_CHECK(of_property_read_u32_index(np, p->name, 0xffffffffu, &v) == -EOVERFLOW,
			   "%s: index 0xffffffff", p->name);
	}
}

static void check_string_readers(const struct device_node *np, const struct property *p)
{
	int n = of_property_count_strings(np, p->name);
	const char *s = NULL, *end;

	if (!p->value) {
		FUZZ_CHECK(n == -ENODATA, "%s: a boolean counted %d strings", p->name, n);
		return;
	}
	end = (const char *)p->value + p->length;
	if (n < 0) {
		FUZZ_CHECK(n == -ENODATA || n == -EILSEQ, "%s: count %d", p->name, n);
		return;
	}
	for (int i = 0; i < n; i++) {
		FUZZ_CHECK(of_property_read_string_index(np, p->name, i, &s) == 0,
			   "%s: string %d of %d", p->name, i, n);
		FUZZ_CHECK(s >= (const char *)p->value && s + strlen(s) < end,
			   "%s: string %d outside its property", p->name, i);
	}
	FUZZ_CHECK(of_property_read_string_index(np, p->name, n, &s) == -ENODATA,
		   "%s: string %d of %d", p->name, n, n);
	if (of_property_read_string(np, p->name, &s) == 0)
		FUZZ_CHECK(s + strlen(s) < end, "%s: the string runs past its property", p->name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = fuzz_strndup(data, size);
	struct cs_kernel k, *saved = cs_kernel_current;
	struct sim sim;
	struct evlog *log;
	struct device_node *root, *np;
	char *msg = NULL;
	int ret;

	memset(&k, 0, sizeof(k));
	sim_init(&sim, 1);
	k.sim = &sim;
	k.log = evlog_new();
	cs_kernel_current = &k;
	root = cs_of_node_new(NULL, "", NULL);
	cs_of_node_new(root, "gpio@4", "pins");
	np = cs_of_node_new(root, "charger@6a", NULL);
	cs_of_set_u32(np, "reg", 0x6a);
	ret = cs_of_apply_dts(np, text, &msg);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL && msg && *msg, "apply: %d with message %s", ret,
			   msg ? msg : "(none)");
		if (fuzz_verbose)
			fprintf(stderr, "refused: %s\n", msg);
	} else {
		FUZZ_CHECK(msg == NULL, "apply succeeded with a message");
	}
	g_free(msg);
	for (const struct property *p = np->properties; p; p = p->next) {
		check_u32_readers(np, p);
		check_string_readers(np, p);
	}
	cs_of_free_tree(root);
	log = k.log;   /* cs_kernel_exit() clears it */
	cs_kernel_exit(&k);
	evlog_free(log);
	sim_destroy(&sim);
	cs_kernel_current = saved;
	return 0;
}
