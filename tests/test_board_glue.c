// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_board_glue.c - the board's PHY glue (run/phy_glue.c, run/board.h;
 * docs/linux-drivers.md section 4): which usb_phy events each glue sends, with what
 * data, and whether the USB charger framework attaches.
 *
 * The facts checked, from Linux 6.12:
 *  - the OMAP3 musb glue (drivers/usb/musb/omap2430.c, omap_musb_set_mailbox()) calls
 *    the notifier with USB_EVENT_VBUS (1), USB_EVENT_NONE (0) or USB_EVENT_ID (2) and
 *    NULL data, never USB_EVENT_CHARGER (3), and only when the cable's state changes
 *    (drivers/phy/ti/phy-twl4030-usb.c, twl4030_usb_irq());
 *  - the no-op transceiver (drivers/usb/phy/phy-generic.c, nop_gpio_vbus_thread())
 *    passes the gadget as data;
 *  - drivers/usb/phy/phy.c attaches the charger framework only to a PHY whose node
 *    has "extcon" (usb_add_extcon()); the framework notifies with its limit as the
 *    event (e.g. 5000 for a DCP, 0 when the cable goes), so a board without it sees
 *    no event but 0 and 1.
 * Each run plugs at t = 0, unplugs at 1 s and plugs again at 1.5 s: two VBUS events
 * and one NONE are what an edge-driven glue sends.
 */
#include <string.h>
#include <glib.h>
#include <linux/notifier.h>
#include <linux/usb/phy.h>
#include "run/board.h"
#include "run/scenario.h"
#include "run/world.h"
#include "run/world_priv.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define MAX_EVENTS 64

/* What a driver registered on the board's PHY hears. */
struct heard {
	struct notifier_block nb;
	int n;
	unsigned long event[MAX_EVENTS];
	void *data[MAX_EVENTS];
	void *gadget;            /* the board's gadget, for the phy-generic payload */
	int charger_ma;          /* the mA a CHARGER event's data points to (-1: none) */
};

static int heard_cb(struct notifier_block *nb, unsigned long event, void *data)
{
	struct heard *h = container_of(nb, struct heard, nb);

	if (h->n < MAX_EVENTS) {
		h->event[h->n] = event;
		h->data[h->n] = data;
	}
	/* read now: the data lives in the run (the generic glue's payload is mA) */
	if (event == USB_EVENT_CHARGER && data && data != h->gadget)
		h->charger_ma = (int)*(unsigned int *)data;
	h->n++;
	return NOTIFY_OK;
}

static int count(const struct heard *h, unsigned long event)
{
	int n = 0;

	for (int i = 0; i < h->n && i < MAX_EVENTS; i++)
		n += h->event[i] == event;
	return n;
}

static char *glue_json(const char *source, const char *kernel, const char *policy)
{
	return g_strdup_printf(
		"{ \"name\": \"glue\", \"duration\": \"3 s\", \"source\": %s,"
		"  \"device\": { \"kernel\": %s }, \"policy\": \"%s\","
		"  \"events\": [ { \"at\": \"1 s\", \"do\": \"unplug\" },"
		"               { \"at\": \"1.5 s\", \"do\": \"plug\" } ] }",
		source, kernel, policy);
}

/* Run the scenario with h registered on the board's PHY before the policy probes;
 * false (err set, if given) when the world cannot be built. */
static bool glue_run(const char *source, const char *kernel, const char *policy,
		     struct heard *h, GError **err)
{
	g_autofree char *json = glue_json(source, kernel, policy);
	struct world_options opt = { 0 };
	struct scenario *sc;
	struct world *w;
	bool ok;

	memset(h, 0, sizeof(*h));
	h->nb.notifier_call = heard_cb;
	h->charger_ma = -1;
	sc = scenario_load_text("glue.json", json, strlen(json), NULL, err);
	if (!sc)
		return false;
	w = world_new(sc, &opt, err);
	if (!w) {
		scenario_free(sc);
		return false;
	}
	h->gadget = w->board.gadget;
	usb_register_notifier(w->board.phy, &h->nb);
	ok = world_run(w, err);
	usb_unregister_notifier(w->board.phy, &h->nb);
	world_free(w);
	scenario_free(sc);
	return ok;
}

static const char *const sources[] = {
	"{ \"kind\": \"sdp\" }", "{ \"kind\": \"cdp\" }", "{ \"kind\": \"dcp\" }",
	"{ \"kind\": \"apple-2.1a\" }",
};

/* device.kernel.phy_glue's choices are "board" and the glues' keys, in order. */
static void test_glue_choices(void)
{
	const struct param_desc *d = NULL;
	int n = 0;

	for (int i = 0; board_objects[i]; i++)
		if (strcmp(board_objects[i]->key, "device.kernel") == 0)
			d = param_find(board_objects[i]->params, "phy_glue");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_STRING_EQUAL(d->choices[0], "board");
	for (; board_phy_glues[n]; n++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(d->choices[n + 1]);
		CU_ASSERT_STRING_EQUAL(d->choices[n + 1], board_phy_glues[n]->key);
	}
	CU_ASSERT_PTR_NULL(d->choices[n + 1]);
	CU_ASSERT_PTR_EQUAL(board_phy_glues[0], &board_glue_generic);
}

/* The OMAP3 glue on every kind of port: VBUS at each plug, NONE at the unplug, NULL
 * data, never a charger event and no charger framework (no other event at all). */
static void test_omap2430_vbus_none_only(void)
{
	for (size_t k = 0; k < G_N_ELEMENTS(sources); k++) {
		struct heard h;

		CU_ASSERT_TRUE_FATAL(glue_run(sources[k], "{ \"phy_glue\": \"omap2430\" }", "none",
					      &h, NULL));
		CU_ASSERT_EQUAL(count(&h, USB_EVENT_VBUS), 2);
		CU_ASSERT_EQUAL(count(&h, USB_EVENT_NONE), 1);
		CU_ASSERT_EQUAL(count(&h, USB_EVENT_CHARGER), 0);
		CU_ASSERT_EQUAL(h.n, 3);
		for (int i = 0; i < h.n && i < MAX_EVENTS; i++)
			CU_ASSERT_PTR_NULL(h.data[i]);
	}
}

/* The no-op transceiver: the same two events, the gadget as data. */
static void test_nop_xceiv_gadget_data(void)
{
	struct heard h;

	CU_ASSERT_TRUE_FATAL(glue_run(sources[0], "{ \"phy_glue\": \"usb-nop-xceiv\" }", "none",
				      &h, NULL));
	CU_ASSERT_EQUAL(h.n, 3);
	CU_ASSERT_EQUAL(count(&h, USB_EVENT_VBUS), 2);
	for (int i = 0; i < h.n && i < MAX_EVENTS; i++)
		CU_ASSERT_PTR_EQUAL(h.data[i], h.gadget);
}

/* Every real board's glue: VBUS and NONE only (no charger event, no framework). */
static void test_real_glues_no_charger_event(void)
{
	for (int g = 0; board_phy_glues[g]; g++) {
		g_autofree char *kernel = g_strdup_printf("{ \"phy_glue\": \"%s\" }",
							  board_phy_glues[g]->key);
		struct heard h;

		if (board_phy_glues[g]->knobs)
			continue;
		CU_ASSERT_TRUE_FATAL(glue_run(sources[2], kernel, "none", &h, NULL));
		CU_ASSERT_EQUAL(h.n, 3);
		CU_ASSERT_EQUAL(count(&h, USB_EVENT_CHARGER), 0);
	}
}

/* The generic glue, for comparison: after detection a charger event with the DCP's
 * 1500 mA, and the merged framework's 5000 mA (its DCP maximum) as an event. */
static void test_generic_charger_event(void)
{
	struct heard h;
	int charger = -1, vbus = -1;

	CU_ASSERT_TRUE_FATAL(glue_run(sources[2], "{ \"phy_glue\": \"generic\" }", "none", &h,
				      NULL));
	for (int i = 0; i < h.n && i < MAX_EVENTS; i++) {
		if (h.event[i] == USB_EVENT_CHARGER && charger < 0)
			charger = i;
		if (h.event[i] == USB_EVENT_VBUS && vbus < 0)
			vbus = i;
	}
	CU_ASSERT_FATAL(charger > 0);
	/* VBUS before the charger event (phy.c's framework may speak first: at boot it
	 * notifies 0 mA for an absent charger, usb_phy_notify_charger_work) */
	CU_ASSERT(vbus >= 0 && vbus < charger);
	CU_ASSERT_PTR_NOT_NULL(h.data[charger]);
	CU_ASSERT_EQUAL(h.charger_ma, 1500);
	CU_ASSERT_TRUE(count(&h, 5000) >= 1);   /* the framework, attached */
}

/* A glue that fixes its payload: phy_payload or phy_set_power set with it is an input
 * error naming the key, the value and the glue; with the generic glue it is a setting. */
static void test_glue_fixes_knobs(void)
{
	static const struct {
		const char *kernel, *words[3];
	} bad[] = {
		{ "{ \"phy_glue\": \"omap2430\", \"phy_payload\": \"null\" }",
		  { "device.kernel.phy_payload: found \"null\"", "\"omap2430\"", "\"generic\"" } },
		{ "{ \"phy_glue\": \"usb-nop-xceiv\", \"phy_set_power\": false }",
		  { "device.kernel.phy_set_power: found false", "\"usb-nop-xceiv\"", "glue.json" } },
	};
	struct heard h;

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *err = NULL;

		CU_ASSERT_FALSE(glue_run(sources[2], bad[i].kernel, "none", &h, &err));
		CU_ASSERT_PTR_NOT_NULL_FATAL(err);
		CU_ASSERT_EQUAL(world_error_status(err), 2);
		for (int k = 0; k < 3; k++) {
			if (!strstr(err->message, bad[i].words[k]))
				fprintf(stderr, "\n  no \"%s\" in: %s\n", bad[i].words[k], err->message);
			CU_ASSERT_PTR_NOT_NULL(strstr(err->message, bad[i].words[k]));
		}
		g_error_free(err);
	}
	CU_ASSERT_TRUE(glue_run(sources[2], "{ \"phy_glue\": \"generic\", \"phy_payload\": \"null\" }",
				"none", &h, NULL));
	CU_ASSERT_TRUE(h.n > 0);
	/* the PHY's own VBUS and CHARGER (the framework's 0 on unplug carries the PHY) */
	for (int i = 0; i < h.n && i < MAX_EVENTS; i++)
		if (h.event[i] == USB_EVENT_VBUS || h.event[i] == USB_EVENT_CHARGER)
			CU_ASSERT_PTR_NULL(h.data[i]);
}

/* Ports stay on the generic glue unless the scenario says otherwise. */
static void test_port_default_generic(void)
{
	struct heard h;

	CU_ASSERT_TRUE_FATAL(glue_run(sources[2], "{}", "none", &h, NULL));
	CU_ASSERT_EQUAL(count(&h, USB_EVENT_CHARGER), 2);
}

CU_TestInfo board_glue_tests[] = {
	{ "phy_glue choices: board, then the glues", test_glue_choices },
	{ "omap2430: VBUS and NONE with NULL, never CHARGER", test_omap2430_vbus_none_only },
	{ "usb-nop-xceiv: the gadget as data", test_nop_xceiv_gadget_data },
	{ "real boards' glues: no charger event, no framework", test_real_glues_no_charger_event },
	{ "generic glue: CHARGER 1500 mA, framework 5000 mA", test_generic_charger_event },
	{ "a fixed glue refuses phy_payload / phy_set_power", test_glue_fixes_knobs },
	{ "a port defaults to the generic glue", test_port_default_generic },
	CU_TEST_INFO_NULL,
};
