// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/test_stack.c - the charging stack end to end: PHY detection of every port
 * kind, Type-C and PD, extcon, power_supply type strings and sysfs, gadget/host power
 * negotiation and the USB charger framework.
 *
 * Most tests run a short scenario the way `chargesim run` does (tu_run() of
 * tests/testutil.h: outputs in a temporary directory), then read events.jsonl,
 * metrics.json and trace.csv back and compare
 * with numbers taken from the specifications and the kernel, worked out by hand here:
 *
 *  BC1.2 timing [BC1.2 Table 5-5; docs/models.md, PHY detection]: TDCD_DBNC >= 10 ms,
 *   TDCD_TIMEOUT 300-900 ms (default 600 ms), TVDPSRC_ON >= 40 ms, TVDMSRC_ON >= 40 ms.
 *   Counted from the PHY's VBUS-valid report (the usb_phy VBUS event: BC1.2 step 1),
 *   a port is known no earlier than the sum of the steps it needs, and no later than
 *   that sum plus 1 ms of PHY processing per reading (the assumption phy.c documents:
 *   "~1 ms ... after each reading"), i.e. +2 ms for DCD+primary (SDP, proprietary),
 *   +3 ms for DCD+primary+secondary (CDP, DCP). Every detection must also be inside
 *   TSVLD_CON_PWD (1 s).
 *  Type-C: Rd 5.1 kohm, Rp 56 k / 22 k / 10 k to 5 V, CC = 5 * Rd / (Rp + Rd); sink
 *   windows 0.25-0.61 / 0.70-1.16 / 1.31-2.04 V; tCCDebounce 100-200 ms; tSinkAdj
 *   <= 60 ms. PD: tSrcTransition 25-35 ms, tPSTransition <= 550 ms.
 *  Kernel strings: power_supply_sysfs.c type_text / usb_type_text (kernel commits
 *   85efc8a18ced and 6659b55dae09, and later additions; docs/stack.md 3.5).
 *  Gadget: MaxPower in 2 mA units (USB 2, max 500 mA) or 8 mA units (USB 3, max
 *   900 mA -> 112 units = 896 mA); CONFIG_USB_GADGET_VBUS_DRAW 2 mA; suspend 2.5 mA.
 *  Charger framework [docs/stack.md 3.8; Linux drivers/usb/phy/phy.c]: 2016 notifies
 *   1500 mA for a charger; merged notifies the type's max (SDP 500, DCP/CDP/ACA 5000 mA).
 *
 * A test whose assertion fails because of a bug in the code under test keeps the
 * assertion, with a comment naming the bug.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include <glib.h>
#include <linux/extcon-provider.h>
#include <linux/of.h>
#include <linux/power_supply.h>
#include <linux/usb/phy.h>
#include <linux/usb/gadget.h>
#include <chargesim/kernel.h>
#include <chargesim/linux_module.h>
#include <chargesim/policy.h>
#include "cli/cli.h"
#include "models/phy/phy.h"
#include "models/source/source.h"
#include "sim/evlog.h"
#include "run/scenario.h"
#include "sim/sim.h"
#include "run/world.h"
#include "tests/suites.h"
#include "tests/testutil.h"

#define MS 1e-3
#define T_EPS 1e-9   /* event times are exact nanoseconds printed as seconds */

/* ---- running a scenario and reading its outputs back (tests/testutil.h) ---- */

/* A scenario: source object, then optional extra top-level members (", ..."). */
static char *scn(const char *duration, const char *source, const char *extra)
{
	return g_strdup_printf("{ \"name\": \"stack\", \"duration\": \"%s\", \"source\": %s%s }",
			       duration, source, extra ? extra : "");
}

/* The numeric field key of the events ev, in order, into out; how many (at most max). */
static int ev_numbers(const struct tu_run *r, const char *ev, const char *key, double *out, int max)
{
	const cJSON *e;
	int n = 0;

	while (n < max && (e = tu_event(r, ev, NULL, NULL, n))) {
		out[n] = tu_num(e, key);
		n++;
	}
	return n;
}

#define ASSERT_STR(actual, expected) \
	do { \
		const char *a_ = (actual), *e_ = (expected); \
		if (!a_ || strcmp(a_, e_) != 0) \
			fprintf(stderr, "\n  %s:%d: got \"%s\", expected \"%s\"\n", __FILE__, \
				__LINE__, a_ ? a_ : "(null)", e_); \
		CU_ASSERT(a_ && strcmp(a_, e_) == 0); \
	} while (0)

#define ASSERT_BETWEEN(x, lo, hi) \
	do { \
		double x_ = (x), lo_ = (lo), hi_ = (hi); \
		if (!(x_ >= lo_ - T_EPS && x_ <= hi_ + T_EPS)) \
			fprintf(stderr, "\n  %s:%d: %s = %.9g not in [%.9g, %.9g]\n", __FILE__, \
				__LINE__, #x, x_, lo_, hi_); \
		CU_ASSERT(x_ >= lo_ - T_EPS && x_ <= hi_ + T_EPS); \
	} while (0)

/* ---- detection of every port kind ---- */

/* When the PHY reported VBUS valid (usb_phy VBUS event): BC1.2 step 1, after which
 * the detection timers run. The attach is at t = 0. */
static double vbus_valid_t(const struct tu_run *r)
{
	return tu_event_time(tu_event(r, "usb_phy_event", "event", "vbus", 0));
}

/*
 * Run `source` (with `extra` members) for 2 s and check: the expected port in the
 * first detect event that found something, its time inside [tmin, tmax] seconds
 * after the PHY saw VBUS valid and within TSVLD_CON_PWD (1 s) of it, and
 * metrics.detected_type.
 */
static void check_detect(const char *source, const char *extra, const char *port,
			 const char *type, double tmin, double tmax)
{
	g_autofree char *json = scn("2 s", source, extra);
	struct tu_run r;
	const cJSON *d;
	double t0, td;

	CU_ASSERT_FATAL(tu_run(&r, json));
	t0 = vbus_valid_t(&r);
	CU_ASSERT_FALSE(isnan(t0));
	ASSERT_BETWEEN(t0, 0, 1.0);
	/* the first detection that found something ("none" only follows an unplug) */
	for (int i = 0; (d = tu_event(&r, "detect", NULL, NULL, i)); i++)
		if (strcmp(tu_str(d, "port"), "none") != 0)
			break;
	CU_ASSERT_PTR_NOT_NULL(d);
	if (d) {
		td = tu_event_time(d);
		if (!(td - t0 >= tmin - T_EPS && td - t0 <= tmax + T_EPS))
			fprintf(stderr, "\n  source %s%s: detected %s at %.9g s, VBUS valid at %.9g s\n",
				source, extra ? extra : "", tu_str(d, "port"), td, t0);
		ASSERT_STR(tu_str(d, "port"), port);
		ASSERT_BETWEEN(td - t0, tmin, tmax);
		ASSERT_BETWEEN(td - t0, 0, 1.0);  /* TSVLD_CON_PWD */
	}
	ASSERT_STR(tu_str(r.metrics, "detected_type"), type);
	tu_done(&r);
}

/* SDP: DCD (10 ms) + primary (40 ms) -> 50 ms; +2 ms for two readings. */
static void test_detect_sdp(void)
{
	check_detect("{ \"kind\": \"sdp\" }", NULL, "sdp", "USB", 50 * MS, 52 * MS);
}

static void test_detect_sdp_usb3(void)
{
	check_detect("{ \"kind\": \"sdp-usb3\" }", NULL, "sdp", "USB", 50 * MS, 52 * MS);
}

/* CDP, DCP: DCD 10 + primary 40 + secondary 40 = 90 ms; +3 ms for three readings. */
static void test_detect_cdp(void)
{
	check_detect("{ \"kind\": \"cdp\" }", NULL, "cdp", "USB_CDP", 90 * MS, 93 * MS);
}

static void test_detect_dcp(void)
{
	check_detect("{ \"kind\": \"dcp\" }", NULL, "dcp", "USB_DCP", 90 * MS, 93 * MS);
}

/*
 * Proprietary chargers hold D+ high with their divider, so DCD never sees contact and
 * waits for TDCD_TIMEOUT (spec 300-900 ms), then primary detection (40 ms) reads D-
 * above VLGC and the divider voltages classify the charger: [340, 942] ms by the spec;
 * with the 600 ms default exactly 640 ms + processing.
 */
static void test_detect_apple_1a(void)
{
	check_detect("{ \"kind\": \"apple-1a\" }", NULL, "apple-1a", "USB_DCP", 640 * MS, 642 * MS);
}

static void test_detect_apple_2_1a(void)
{
	check_detect("{ \"kind\": \"apple-2.1a\" }", NULL, "apple-2.1a", "USB_DCP", 640 * MS, 642 * MS);
}

static void test_detect_apple_2_4a(void)
{
	check_detect("{ \"kind\": \"apple-2.4a\" }", NULL, "apple-2.4a", "USB_DCP", 640 * MS, 642 * MS);
}

static void test_detect_samsung_2a(void)
{
	check_detect("{ \"kind\": \"samsung-2a\" }", NULL, "samsung-2a", "USB_DCP", 640 * MS, 642 * MS);
}

/* ACA: read from the ID resistance (RID_C 36.5 k); the spec gives no timing beyond
 * TSVLD_CON_PWD. */
static void test_detect_aca(void)
{
	check_detect("{ \"kind\": \"aca\" }", NULL, "aca", "USB_ACA", 0, 1.0);
}

/* Type-C 1.5 A / 3.0 A: read on CC after tCCDebounce (100-200 ms), +1 ms processing. */
static void test_detect_typec_1a5(void)
{
	check_detect("{ \"kind\": \"typec\", \"rp\": \"1.5A\" }", NULL, "typec-1.5a", "USB_C",
		     100 * MS, 201 * MS);
}

static void test_detect_typec_3a0(void)
{
	check_detect("{ \"kind\": \"typec\", \"rp\": \"3.0A\" }", NULL, "typec-3.0a", "USB_C",
		     100 * MS, 201 * MS);
}

/* Type-C Default Rp: CC (100-200 ms) then BC1.2 on the adapter's D+/D- short, a DCP
 * after a further 90 ms: [190, 200 + 90 + 4] ms. */
static void test_detect_typec_default(void)
{
	check_detect("{ \"kind\": \"typec\", \"rp\": \"default\" }", NULL, "dcp", "USB_DCP",
		     190 * MS, 294 * MS);
}

/* PD: CC debounce (>= 100 ms), then the contract; reported no later than 1 s. */
static void test_detect_pd(void)
{
	check_detect("{ \"kind\": \"pd\" }", NULL, "pd", "USB_PD", 100 * MS, 1.0);
}

/* ---- bad cables ---- */

/* Floating data lines on a DCP: DCD gives up after TDCD_TIMEOUT (600 ms default,
 * spec 300-900 ms), primary detection reads D- pulled low by IDM_SINK: an SDP. */
static void test_floating_data_dcp(void)
{
	g_autofree char *json = scn("2 s", "{ \"kind\": \"dcp\" }",
				    ", \"cable\": { \"data\": \"floating\" }");
	struct tu_run r;
	const cJSON *dcd, *d;
	double t0;

	CU_ASSERT_FATAL(tu_run(&r, json));
	t0 = vbus_valid_t(&r);
	CU_ASSERT_FALSE_FATAL(isnan(t0));
	dcd = tu_event(&r, "detect_step", "step", "dcd", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dcd);
	ASSERT_STR(tu_str(dcd, "result"), "timeout");
	ASSERT_BETWEEN(tu_event_time(dcd) - t0, 300 * MS, 900 * MS);
	ASSERT_BETWEEN(tu_event_time(dcd) - t0, 600 * MS, 600 * MS);
	d = tu_event(&r, "detect", NULL, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	ASSERT_STR(tu_str(d, "port"), "sdp");
	ASSERT_BETWEEN(tu_event_time(d) - t0, 640 * MS, 642 * MS);
	ASSERT_STR(tu_str(r.metrics, "detected_type"), "USB");
	/* A DCP has no host behind it: nothing ever enumerates the gadget. */
	CU_ASSERT_EQUAL(tu_count_where(&r, "enumerate", NULL, NULL), 0);
	tu_done(&r);
}

/*
 * Data lines touching 300 ms after VBUS (the cable's mating, t = 0): the PHY is in
 * DCD by then (VBUS valid earlier), sees D+ low at 300 ms, debounces TDCD_DBNC
 * (10 ms), then primary and secondary detection (40 + 40 ms): a DCP known at
 * 390 ms after the plug, +3 ms processing at most.
 */
static void test_late_contact_dcp(void)
{
	g_autofree char *json = scn("2 s", "{ \"kind\": \"dcp\" }",
				    ", \"cable\": { \"data\": { \"late\": \"300 ms\" } }");
	struct tu_run r;
	const cJSON *att, *d;
	double t0;

	CU_ASSERT_FATAL(tu_run(&r, json));
	att = tu_event(&r, "attach", "src", "source", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(att);
	CS_ASSERT_NEAR(tu_event_time(att), 0, T_EPS);
	t0 = vbus_valid_t(&r);
	CU_ASSERT(t0 < 300 * MS);
	d = tu_event(&r, "detect", NULL, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	ASSERT_STR(tu_str(d, "port"), "dcp");
	/* Counted from the plug, not from the PHY's debounced VBUS report: counting
	 * from the report was a bug that put contact at 310 ms and the DCP at 401 ms. */
	ASSERT_BETWEEN(tu_event_time(d) - tu_event_time(att), 390 * MS, 393 * MS);
	ASSERT_STR(tu_str(r.metrics, "detected_type"), "USB_DCP");
	tu_done(&r);
}

/* ---- Type-C ---- */

static void test_cc_voltage(void)
{
	static const struct { int rp; double r, lo, hi; } c[] = {
		{ SRC_RP_DEFAULT, 56e3, 0.25, 0.61 },
		{ SRC_RP_1A5, 22e3, 0.70, 1.16 },
		{ SRC_RP_3A0, 10e3, 1.31, 2.04 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(c); i++) {
		double v = phy_cc_voltage(c[i].rp, 5100);
		double hand = 5.0 * 5.1e3 / (c[i].r + 5.1e3);

		CS_ASSERT_NEAR(v, hand, 1e-9);
		ASSERT_BETWEEN(v, c[i].lo, c[i].hi);
		CU_ASSERT_EQUAL(phy_cc_level(v), c[i].rp);
	}
	/* 5 * 5.1 / 61.1, 5 * 5.1 / 27.1, 5 * 5.1 / 15.1, written out */
	CS_ASSERT_NEAR(phy_cc_voltage(SRC_RP_DEFAULT, 5100), 0.417349, 1e-6);
	CS_ASSERT_NEAR(phy_cc_voltage(SRC_RP_1A5, 5100), 0.940959, 1e-6);
	CS_ASSERT_NEAR(phy_cc_voltage(SRC_RP_3A0, 5100), 1.688742, 1e-6);
	/* window edges are inside; the gaps between windows read as nothing */
	CU_ASSERT_EQUAL(phy_cc_level(0.25), SRC_RP_DEFAULT);
	CU_ASSERT_EQUAL(phy_cc_level(0.61), SRC_RP_DEFAULT);
	CU_ASSERT_EQUAL(phy_cc_level(0.70), SRC_RP_1A5);
	CU_ASSERT_EQUAL(phy_cc_level(1.16), SRC_RP_1A5);
	CU_ASSERT_EQUAL(phy_cc_level(1.31), SRC_RP_3A0);
	CU_ASSERT_EQUAL(phy_cc_level(2.04), SRC_RP_3A0);
	CU_ASSERT_EQUAL(phy_cc_level(0.10), -1);
	CU_ASSERT_EQUAL(phy_cc_level(0.65), -1);
	CU_ASSERT_EQUAL(phy_cc_level(1.25), -1);
	CU_ASSERT_EQUAL(phy_cc_level(2.50), -1);
}

/* An Rp change at 2 s is followed by a new detection within tSinkAdj (60 ms). */
static void check_rp_change(const char *from_rp, const char *first_port)
{
	g_autofree char *src = g_strdup_printf("{ \"kind\": \"typec\", \"rp\": \"%s\" }", from_rp);
	g_autofree char *json = scn("3 s", src,
		", \"events\": [ { \"at\": \"2 s\", \"do\": \"set\","
		" \"path\": \"source.rp\", \"value\": \"3.0A\" } ]");
	struct tu_run r;
	const cJSON *d1, *d2;

	CU_ASSERT_FATAL(tu_run(&r, json));
	d1 = tu_event(&r, "detect", NULL, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d1);
	ASSERT_STR(tu_str(d1, "port"), first_port);
	CU_ASSERT(tu_event_time(d1) < 1.0);
	d2 = tu_event(&r, "detect", NULL, NULL, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d2);
	ASSERT_STR(tu_str(d2, "port"), "typec-3.0a");
	CU_ASSERT(tu_event_time(d2) > 2.0);
	ASSERT_BETWEEN(tu_event_time(d2), 2.0, 2.0 + 60 * MS);
	CU_ASSERT_EQUAL(tu_count_where(&r, "detect", NULL, NULL), 2);
	ASSERT_STR(tu_str(r.metrics, "detected_type"), "USB_C");
	tu_done(&r);
}

static void test_rp_change_default_to_3a0(void)
{
	check_rp_change("default", "dcp");
}

static void test_rp_change_1a5_to_3a0(void)
{
	check_rp_change("1.5A", "typec-1.5a");
}

/* ---- PD ---- */

/*
 * 5 V / 9 V PDOs, sink up to 9 V: Source_Capabilities, Request (PDO 2, 9 V),
 * Accept, PS_RDY in this order. The source starts its transition no earlier than
 * tSrcTransition (25 ms) after Accept and its output reaches voc + 4 V = 9.1 V at
 * the terminals (vsrc_V + Rout * ibus_A, Rout 0.13 ohm) before PS_RDY; PS_RDY comes
 * within tPSTransition (550 ms at most) of Accept.
 */
static void test_pd_contract_9v(void)
{
	g_autofree char *json = scn("1 s", "{ \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 3A\"] }",
				    ", \"device\": { \"phy\": { \"pd_max_v\": \"9 V\" } }");
	static const char *const seq[] = { "Source_Capabilities", "Request", "Accept", "PS_RDY" };
	struct tu_run r;
	const cJSON *m[4];
	double t_acc, t_rdy, t_rise = NAN, v_rise = NAN;
	int cv, ci, ct;

	CU_ASSERT_FATAL(tu_run(&r, json) && tu_read_trace(&r));
	for (int i = 0; i < 4; i++) {
		m[i] = tu_event(&r, "pd_msg", NULL, NULL, i);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m[i]);
		ASSERT_STR(tu_str(m[i], "msg"), seq[i]);
	}
	CU_ASSERT_PTR_NULL(tu_event(&r, "pd_msg", NULL, NULL, 4));
	CS_ASSERT_NEAR(tu_num(m[1], "V"), 9.0, 1e-9);
	CS_ASSERT_NEAR(tu_num(m[1], "pdo"), 2, 1e-9);
	for (int i = 1; i < 4; i++)
		CU_ASSERT(tu_event_time(m[i]) >= tu_event_time(m[i - 1]));
	t_acc = tu_event_time(m[2]);
	t_rdy = tu_event_time(m[3]);
	CU_ASSERT(t_rdy > t_acc);
	ASSERT_BETWEEN(t_rdy - t_acc, 0, 550 * MS);

	ct = tu_col(&r, "time_s");
	cv = tu_col(&r, "vsrc_V");
	ci = tu_col(&r, "ibus_A");
	CU_ASSERT_FATAL(ct >= 0 && cv >= 0 && ci >= 0);
	for (guint i = 0; i < r.rows->len; i++) {
		const double *row = g_ptr_array_index(r.rows, i);

		if (row[ct] < t_acc - T_EPS)
			CU_ASSERT(row[cv] <= 5.1 + 1e-6);  /* nothing above voc before Accept */
		if (isnan(t_rise) && row[cv] > 7.0) {
			t_rise = row[ct];
			v_rise = row[cv] + 0.13 * row[ci];
		}
	}
	CU_ASSERT_FALSE_FATAL(isnan(t_rise));
	ASSERT_BETWEEN(t_rise, t_acc + 25 * MS, t_rdy);
	CS_ASSERT_NEAR(v_rise, 9.1, 0.005);
	ASSERT_STR(tu_str(r.metrics, "detected_type"), "USB_PD");
	tu_done(&r);
}

/* A sink limited to 5 V requests PDO 1 and VBUS stays at the 5 V level. */
static void test_pd_contract_5v_sink(void)
{
	g_autofree char *json = scn("1 s", "{ \"kind\": \"pd\", \"pdos\": [\"5V 3A\", \"9V 3A\"] }",
				    ", \"device\": { \"phy\": { \"pd_max_v\": \"5 V\" } }");
	struct tu_run r;
	const cJSON *req;
	int cv;

	CU_ASSERT_FATAL(tu_run(&r, json) && tu_read_trace(&r));
	req = tu_event(&r, "pd_msg", "msg", "Request", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(req);
	CS_ASSERT_NEAR(tu_num(req, "pdo"), 1, 1e-9);
	CS_ASSERT_NEAR(tu_num(req, "V"), 5.0, 1e-9);
	cv = tu_col(&r, "vsrc_V");
	CU_ASSERT_FATAL(cv >= 0);
	for (guint i = 0; i < r.rows->len; i++)
		CU_ASSERT(((const double *)g_ptr_array_index(r.rows, i))[cv] <= 5.1 + 1e-6);
	ASSERT_STR(tu_str(r.metrics, "detected_type"), "USB_PD");
	tu_done(&r);
}

/* ---- extcon ---- */

struct ext_counter {
	struct notifier_block nb;
	int calls;
	unsigned long last_action;
	void *last_data;
};

static int ext_cb(struct notifier_block *nb, unsigned long action, void *data)
{
	struct ext_counter *c = container_of(nb, struct ext_counter, nb);

	c->calls++;
	c->last_action = action;
	c->last_data = data;
	return NOTIFY_OK;
}

/* The extcon core (6.12's drivers/extcon/extcon.c, or kcore_absent.c without the
 * kernel tree): a device registered under its parent's name, cables it lists, and
 * notifiers that run on every extcon_set_state_sync(), changed or not (extcon_sync()
 * calls the chains unconditionally). */
static void test_extcon(void)
{
	static const unsigned int cables[] = {
		EXTCON_USB, EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_DCP, EXTCON_NONE,
	};
	struct device parent = { .init_name = "test-extcon" };
	struct extcon_dev *edev;
	struct cs_kernel k = { 0 };
	struct sim s;
	struct ext_counter none = { .nb.notifier_call = ext_cb };
	struct ext_counter fast = { .nb.notifier_call = ext_cb };
	struct ext_counter dcp = { .nb.notifier_call = ext_cb };
	struct ext_counter usb = { .nb.notifier_call = ext_cb };
	struct ext_counter all = { .nb.notifier_call = ext_cb };
	struct cs_kernel *saved = cs_kernel_current;

	sim_init(&s, 1);
	k.sim = &s;
	k.log = evlog_new();
	cs_kernel_current = &k;
	CU_ASSERT_PTR_EQUAL(extcon_get_extcon_dev("test-extcon"), ERR_PTR(-EPROBE_DEFER));
	edev = devm_extcon_dev_allocate(&parent, cables);
	CU_ASSERT_FATAL(!IS_ERR(edev));
	CU_ASSERT_EQUAL_FATAL(devm_extcon_dev_register(&parent, edev), 0);
	ASSERT_STR(extcon_get_edev_name(edev), "test-extcon");

	/* EXTCON_NONE and an id the device does not list are refused */
	CU_ASSERT_EQUAL(extcon_register_notifier(edev, EXTCON_NONE, &none.nb), -EINVAL);
	CU_ASSERT_EQUAL(extcon_register_notifier(edev, EXTCON_CHG_USB_FAST, &fast.nb), -EINVAL);
	CU_ASSERT_EQUAL(extcon_get_state(edev, EXTCON_CHG_USB_FAST), -EINVAL);
	CU_ASSERT_EQUAL(extcon_get_state(edev, EXTCON_NONE), -EINVAL);
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_CHG_USB_CDP, true), -EINVAL);
	CU_ASSERT_EQUAL(extcon_register_notifier(edev, EXTCON_CHG_USB_DCP, &dcp.nb), 0);
	CU_ASSERT_EQUAL(extcon_register_notifier(edev, EXTCON_USB, &usb.nb), 0);
	CU_ASSERT_EQUAL(extcon_register_notifier_all(edev, &all.nb), 0);

	/* a set notifies with the cable's state and the device ... */
	CU_ASSERT_EQUAL(extcon_get_state(edev, EXTCON_CHG_USB_DCP), 0);
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_CHG_USB_DCP, true), 0);
	CU_ASSERT_EQUAL(dcp.calls, 1);
	CU_ASSERT_EQUAL(dcp.last_action, 1);
	CU_ASSERT_PTR_EQUAL(dcp.last_data, edev);
	CU_ASSERT_EQUAL(extcon_get_state(edev, EXTCON_CHG_USB_DCP), 1);
	/* ... and the same state again notifies again (6.12: on every set, not on change) */
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_CHG_USB_DCP, true), 0);
	CU_ASSERT_EQUAL(dcp.calls, 2);
	CU_ASSERT_EQUAL(dcp.last_action, 1);
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_CHG_USB_DCP, false), 0);
	CU_ASSERT_EQUAL(dcp.calls, 3);
	CU_ASSERT_EQUAL(dcp.last_action, 0);
	CU_ASSERT_EQUAL(all.calls, 3);
	/* other cables do not reach this notifier, and vice versa */
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_USB, true), 0);
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_CHG_USB_SDP, true), 0);
	CU_ASSERT_EQUAL(dcp.calls, 3);
	CU_ASSERT_EQUAL(usb.calls, 1);
	CU_ASSERT_EQUAL(usb.last_action, 1);
	CU_ASSERT_EQUAL(all.calls, 5);
	/* the refused registrations never ran */
	CU_ASSERT_EQUAL(none.calls, 0);
	CU_ASSERT_EQUAL(fast.calls, 0);
	/* extcon_set_state() alone tells nobody; extcon_sync() then does */
	CU_ASSERT_EQUAL(extcon_set_state(edev, EXTCON_USB, false), 0);
	CU_ASSERT_EQUAL(usb.calls, 1);
	CU_ASSERT_EQUAL(extcon_sync(edev, EXTCON_USB), 0);
	CU_ASSERT_EQUAL(usb.calls, 2);
	CU_ASSERT_EQUAL(usb.last_action, 0);
	/* unregistering stops notifications */
	CU_ASSERT_EQUAL(extcon_unregister_notifier(edev, EXTCON_USB, &usb.nb), 0);
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_USB, true), 0);
	CU_ASSERT_EQUAL(usb.calls, 2);
	CU_ASSERT_EQUAL(extcon_set_state_sync(edev, EXTCON_USB, false), 0);

	/* the boards report edges: cs_extcon_report() sets, syncs and logs a change only */
	CU_ASSERT_EQUAL(evlog_count(k.log), 0);
	CU_ASSERT_EQUAL(cs_extcon_report(edev, EXTCON_CHG_USB_DCP, true), 0);
	CU_ASSERT_EQUAL(cs_extcon_report(edev, EXTCON_CHG_USB_DCP, true), 0);
	CU_ASSERT_EQUAL(dcp.calls, 4);
	CU_ASSERT_EQUAL(evlog_count(k.log), 1);
	CU_ASSERT_EQUAL(cs_extcon_report(edev, EXTCON_CHG_USB_FAST, true), -EINVAL);

	/* the kernel's extcon_info names */
	ASSERT_STR(cs_extcon_cable_name(EXTCON_USB), "USB");
	ASSERT_STR(cs_extcon_cable_name(EXTCON_USB_HOST), "USB-HOST");
	ASSERT_STR(cs_extcon_cable_name(EXTCON_CHG_USB_SDP), "SDP");
	ASSERT_STR(cs_extcon_cable_name(EXTCON_CHG_USB_DCP), "DCP");
	ASSERT_STR(cs_extcon_cable_name(EXTCON_CHG_USB_CDP), "CDP");
	ASSERT_STR(cs_extcon_cable_name(EXTCON_CHG_USB_ACA), "ACA");
	ASSERT_STR(cs_extcon_cable_name(EXTCON_CHG_USB_FAST), "FAST-CHARGER");
	ASSERT_STR(cs_extcon_cable_name(EXTCON_CHG_USB_SLOW), "SLOW-CHARGER");
	CU_ASSERT_PTR_EQUAL(extcon_get_extcon_dev("test-extcon"), edev);
	CU_ASSERT_PTR_EQUAL(extcon_get_extcon_dev("no-such-extcon"), ERR_PTR(-EPROBE_DEFER));

	/* the parent going away unregisters and frees it */
	devres_release_all(&parent);
	CU_ASSERT_PTR_EQUAL(extcon_get_extcon_dev("test-extcon"), ERR_PTR(-EPROBE_DEFER));

	cs_kernel_current = saved;
	evlog_free(k.log);
	sim_destroy(&s);
}

/* Each run is a kernel of its own: extcon.c's and phy.c's lists are the run's
 * (chargesim/kcore.h), so a device registered in one run is not found from another,
 * as `check -j N` runs them side by side in threads. */
static void test_kcore_per_run(void)
{
	static const unsigned int cables[] = { EXTCON_USB, EXTCON_NONE };
	struct device parent = { .init_name = "per-run" };
	struct cs_kernel a = { 0 }, b = { 0 };
	struct cs_kernel *saved = cs_kernel_current;
	struct extcon_dev *edev;

	cs_kernel_current = &a;
	edev = devm_extcon_dev_allocate(&parent, cables);
	CU_ASSERT_FATAL(!IS_ERR(edev));
	CU_ASSERT_EQUAL(devm_extcon_dev_register(&parent, edev), 0);
	CU_ASSERT_PTR_EQUAL(extcon_get_extcon_dev("per-run"), edev);
	cs_kernel_current = &b;
	CU_ASSERT_PTR_EQUAL(extcon_get_extcon_dev("per-run"), ERR_PTR(-EPROBE_DEFER));
	CU_ASSERT(IS_ERR(usb_get_phy(USB_PHY_TYPE_USB2)));
	cs_kernel_current = &a;
	devres_release_all(&parent);
	cs_kernel_current = saved;
}

/*
 * phy.c's rules, called directly on a PHY whose node names an extcon device:
 * __usb_phy_get_charger_type reads SDP, then CDP, then DCP, then ACA, so a CDP with a
 * DCP cable also set is a CDP; usb_phy_set_charger_current clamps an SDP's maximum at
 * DEFAULT_SDP_CUR_MAX_SS (900 mA) and a DCP's at DEFAULT_DCP_CUR_MAX (5000 mA); the
 * defaults are SDP 2/500, DCP 500/5000, CDP 1500/5000 mA (usb_phy_set_default_current).
 */
static void test_phy_framework_rules(void)
{
	static const unsigned int cables[] = {
		EXTCON_USB, EXTCON_CHG_USB_SDP, EXTCON_CHG_USB_DCP, EXTCON_CHG_USB_CDP,
		EXTCON_CHG_USB_ACA, EXTCON_NONE,
	};
	struct cs_kernel k = { 0 };
	struct cs_kernel *saved = cs_kernel_current;
	struct device_driver drv = { .name = "glue" };
	struct device ext_dev = { .init_name = "ext" }, phy_dev = { .init_name = "phy" };
	struct usb_phy phy = { .dev = &phy_dev };
	struct device_node *root, *phyn;
	struct extcon_dev *edev;
	unsigned int min = 0, max = 0;
	char *msg = NULL;
	struct sim s;

	sim_init(&s, 1);
	k.sim = &s;
	k.log = evlog_new();
	cs_kernel_current = &k;
	root = cs_of_node_new(NULL, "", NULL);
	ext_dev.of_node = cs_of_node_new(root, "ext", "ext");
	phyn = cs_of_node_new(root, "phy", NULL);
	CU_ASSERT_EQUAL_FATAL(cs_of_apply_dts(phyn, "extcon = <&ext>;", &msg), 0);
	phy_dev.of_node = phyn;
	phy_dev.driver = &drv;
	edev = devm_extcon_dev_allocate(&ext_dev, cables);
	CU_ASSERT_FATAL(!IS_ERR(edev));
	CU_ASSERT_EQUAL_FATAL(devm_extcon_dev_register(&ext_dev, edev), 0);
	CU_ASSERT_EQUAL_FATAL(usb_add_phy_dev(&phy), 0);
	CU_ASSERT_PTR_EQUAL(phy.edev, edev);
	CU_ASSERT_EQUAL(phy.chg_state, USB_CHARGER_ABSENT);

	extcon_set_state_sync(edev, EXTCON_CHG_USB_DCP, true);
	CU_ASSERT_EQUAL(phy.chg_type, DCP_TYPE);
	extcon_set_state_sync(edev, EXTCON_CHG_USB_CDP, true);
	CU_ASSERT_EQUAL(phy.chg_type, CDP_TYPE);
	usb_phy_get_charger_current(&phy, &min, &max);
	CU_ASSERT_EQUAL(min, 1500);
	CU_ASSERT_EQUAL(max, 5000);
	extcon_set_state_sync(edev, EXTCON_CHG_USB_CDP, false);
	usb_phy_set_charger_current(&phy, 7000);
	usb_phy_get_charger_current(&phy, &min, &max);
	CU_ASSERT_EQUAL(min, 500);
	CU_ASSERT_EQUAL(max, 5000);
	extcon_set_state_sync(edev, EXTCON_CHG_USB_DCP, false);
	extcon_set_state_sync(edev, EXTCON_CHG_USB_SDP, true);
	CU_ASSERT_EQUAL(phy.chg_type, SDP_TYPE);
	usb_phy_get_charger_current(&phy, &min, &max);
	CU_ASSERT_EQUAL(min, 2);
	CU_ASSERT_EQUAL(max, 500);
	usb_phy_set_charger_current(&phy, 1500);
	usb_phy_get_charger_current(&phy, &min, &max);
	CU_ASSERT_EQUAL(max, 900);

	usb_remove_phy(&phy);
	devres_release_all(&phy_dev);
	cancel_work_sync(&phy.chg_work);
	devres_release_all(&ext_dev);
	cs_of_free_tree(root);
	cs_kernel_current = saved;
	evlog_free(k.log);
	sim_destroy(&s);
}

/* ---- power_supply strings ---- */

static void test_psy_type_strings(void)
{
	/* power_supply_sysfs.c type_text[], in enum order (commits 85efc8a18ced and
	 * 6659b55dae09, then later additions) */
	static const char *const kernel_type[] = {
		"Unknown", "Battery", "UPS", "Mains", "USB", "USB_DCP", "USB_CDP", "USB_ACA",
		"USB_C", "USB_PD", "USB_PD_DRP", "BrickID", "Wireless",
	};
	static const char *const kernel_usb_type[] = {
		"Unknown", "SDP", "DCP", "CDP", "ACA", "C", "PD", "PD_DRP", "PD_PPS", "BrickID",
	};

	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_COUNT, G_N_ELEMENTS(kernel_type));
	for (int t = 0; t < (int)G_N_ELEMENTS(kernel_type); t++)
		ASSERT_STR(power_supply_type_text(t), kernel_type[t]);
	/* the enum values those two commits add, by name */
	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_USB, 4);
	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_USB_DCP, 5);
	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_USB_CDP, 6);
	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_USB_ACA, 7);
	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_USB_TYPE_C, 8);
	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_USB_PD, 9);
	CU_ASSERT_EQUAL(POWER_SUPPLY_TYPE_USB_PD_DRP, 10);

	CU_ASSERT_EQUAL(POWER_SUPPLY_USB_TYPE_COUNT, G_N_ELEMENTS(kernel_usb_type));
	for (int t = 0; t < (int)G_N_ELEMENTS(kernel_usb_type); t++)
		ASSERT_STR(power_supply_usb_type_text(t), kernel_usb_type[t]);
}

static char *read_text(const char *dir, const char *rel)
{
	g_autofree char *path = g_build_filename(dir, rel, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

/*
 * The acceptance check: `chargesim run scenarios/ports/dcp.json --sysfs-at 5s` writes
 * sysfs-5s/class/power_supply/usb/ as a real device reads on a DCP: type USB_DCP,
 * usb_type with [DCP], online 1, current_max 1500000 uA (BC1.2 DCP), input current
 * limit 1500000 uA (the scenario's fixed 1.5 A), voltage in uV below voc (5.1 V).
 */
static void test_sysfs_dcp(void)
{
	g_autofree char *file = tu_repo_file("scenarios/ports/dcp.json");
	static const sim_time_t at[] = { 5 * SIM_S };
	static const char *const labels[] = { "5s" };
	struct world_options wo = { .n_sysfs = 1, .sysfs_at = at, .sysfs_labels = labels };
	g_autofree char *json = NULL;
	g_autofree char *type = NULL, *usb_type = NULL, *online = NULL, *cur_max = NULL;
	g_autofree char *ilim = NULL, *vnow = NULL, *bat_type = NULL;
	struct tu_run r;
	char *end = NULL;
	long uv;

	CU_ASSERT_PTR_NOT_NULL_FATAL(file);
	CU_ASSERT_FATAL(g_file_get_contents(file, &json, NULL, NULL));
	CU_ASSERT_FATAL(tu_run_opts(&r, json, &wo));
	type = read_text(r.dir, "sysfs-5s/class/power_supply/usb/type");
	usb_type = read_text(r.dir, "sysfs-5s/class/power_supply/usb/usb_type");
	online = read_text(r.dir, "sysfs-5s/class/power_supply/usb/online");
	cur_max = read_text(r.dir, "sysfs-5s/class/power_supply/usb/current_max");
	ilim = read_text(r.dir, "sysfs-5s/class/power_supply/usb/input_current_limit");
	vnow = read_text(r.dir, "sysfs-5s/class/power_supply/usb/voltage_now");
	bat_type = read_text(r.dir, "sysfs-5s/class/power_supply/battery/type");
	ASSERT_STR(type, "USB_DCP\n");
	ASSERT_STR(usb_type, "Unknown SDP [DCP] CDP ACA C PD\n");
	ASSERT_STR(online, "1\n");
	ASSERT_STR(cur_max, "1500000\n");
	ASSERT_STR(ilim, "1500000\n");
	ASSERT_STR(bat_type, "Battery\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(vnow);
	uv = strtol(vnow, &end, 10);
	CU_ASSERT(end && strcmp(end, "\n") == 0);
	ASSERT_BETWEEN((double)uv, 4.0e6, 5.1e6);
	ASSERT_STR(tu_str(r.metrics, "detected_type"), "USB_DCP");
	tu_done(&r);
}

/* ---- gadget and host ---- */

static void test_max_power_encoding(void)
{
	/* USB 2: 2 mA units, 500 mA -> 250 */
	CU_ASSERT_EQUAL(usb_encode_max_power(USB_SPEED_HIGH, 500), 250);
	CU_ASSERT_EQUAL(usb_decode_max_power(USB_SPEED_HIGH, 250), 500);
	/* USB 3: 8 mA units, 900 mA is not a multiple: 112 units = 896 mA */
	CU_ASSERT_EQUAL(usb_encode_max_power(USB_SPEED_SUPER, 900), 112);
	CU_ASSERT_EQUAL(usb_decode_max_power(USB_SPEED_SUPER, 112), 896);
	/* CONFIG_USB_GADGET_VBUS_DRAW */
	CU_ASSERT_EQUAL(CONFIG_USB_GADGET_VBUS_DRAW, 2);
	CU_ASSERT_EQUAL(usb_encode_max_power(USB_SPEED_HIGH, 2), 1);
	CU_ASSERT_EQUAL(usb_decode_max_power(USB_SPEED_HIGH, 1), 2);
	/* 100 mA both ways at USB 2 */
	CU_ASSERT_EQUAL(usb_encode_max_power(USB_SPEED_HIGH, 100), 50);
	CU_ASSERT_EQUAL(usb_decode_max_power(USB_SPEED_HIGH, 50), 100);
	/* above the maximum: capped at 500 mA (USB 2) and 896 mA (USB 3) */
	CU_ASSERT_EQUAL(usb_decode_max_power(USB_SPEED_HIGH,
					     usb_encode_max_power(USB_SPEED_HIGH, 900)), 500);
	CU_ASSERT_EQUAL(usb_decode_max_power(USB_SPEED_SUPER,
					     usb_encode_max_power(USB_SPEED_SUPER, 1500)), 896);
}

/* Run an SDP scenario and return the vbus_draw mA values and the detect time. */
static int gadget_draws(const char *source, const char *extra, double *draws, int max,
			struct tu_run *r)
{
	g_autofree char *json = scn("3 s", source, extra);

	if (!tu_run(r, json))
		return -1;
	return ev_numbers(r, "vbus_draw", "mA", draws, max);
}

/* Root port (500 mA budget): the first configuration, 500 mA, 100 ms after connect. */
static void test_gadget_root_port(void)
{
	struct tu_run r;
	double d[8];
	int n = gadget_draws("{ \"kind\": \"sdp\" }",
			     ", \"device\": { \"gadget\": { \"configs\": [\"500 mA\", \"100 mA\"] } }",
			     d, 8, &r);
	const cJSON *det, *vd;

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 1);
	if (n >= 1)
		CS_ASSERT_NEAR(d[0], 500, 1e-9);
	det = tu_event(&r, "detect", "port", "sdp", 0);
	vd = tu_event(&r, "vbus_draw", NULL, NULL, 0);
	CU_ASSERT_FATAL(det && vd);
	CS_ASSERT_NEAR(tu_event_time(vd) - tu_event_time(det), 100 * MS, T_EPS);
	tu_done(&r);
}

/* Bus-powered hub port (100 mA budget): the host skips 500 mA and takes 100 mA. */
static void test_gadget_hub_port(void)
{
	struct tu_run r;
	double d[8];
	int n = gadget_draws("{ \"kind\": \"sdp\", \"port\": \"hub\" }",
			     ", \"device\": { \"gadget\": { \"configs\": [\"500 mA\", \"100 mA\"] } }",
			     d, 8, &r);
	const cJSON *en;

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 1);
	if (n >= 1)
		CS_ASSERT_NEAR(d[0], 100, 1e-9);
	en = tu_event(&r, "enumerate", NULL, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(en);
	CS_ASSERT_NEAR(tu_num(en, "budget_mA"), 100, 1e-9);
	CS_ASSERT_NEAR(tu_num(en, "config"), 2, 1e-9);
	tu_done(&r);
}

/* No configuration given: CONFIG_USB_GADGET_VBUS_DRAW, 2 mA. */
static void test_gadget_default_2ma(void)
{
	struct tu_run r;
	double d[8];
	int n = gadget_draws("{ \"kind\": \"sdp\" }", NULL, d, 8, &r);

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 1);
	if (n >= 1)
		CS_ASSERT_NEAR(d[0], 2, 1e-9);
	tu_done(&r);
}

/* Suspend: allowance 2.5 mA, the composite core passes 2 mA; resume restores 500. */
static void test_gadget_suspend_resume(void)
{
	struct tu_run r;
	double d[8];
	int n = gadget_draws("{ \"kind\": \"sdp\" }",
			     ", \"device\": { \"gadget\": { \"configs\": [\"500 mA\"] } }"
			     ", \"events\": [ { \"at\": \"1 s\", \"do\": \"suspend\" },"
			     " { \"at\": \"2 s\", \"do\": \"resume\" } ]",
			     d, 8, &r);
	const cJSON *sus, *res;

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 3);
	if (n == 3) {
		CS_ASSERT_NEAR(d[0], 500, 1e-9);
		CS_ASSERT_NEAR(d[1], 2, 1e-9);
		CS_ASSERT_NEAR(d[2], 500, 1e-9);
	}
	sus = tu_event(&r, "suspend", "src", "host", 0);
	res = tu_event(&r, "resume", "src", "host", 0);
	CU_ASSERT_FATAL(sus && res);
	CS_ASSERT_NEAR(tu_event_time(sus), 1.0, T_EPS);
	CS_ASSERT_NEAR(tu_num(sus, "allowance_mA"), 2.5, 1e-9);
	CS_ASSERT_NEAR(tu_event_time(res), 2.0, T_EPS);
	CS_ASSERT_NEAR(tu_num(res, "allowance_mA"), 500, 1e-9);
	/* the 2 mA draw happens at the suspend, the 500 mA again at the resume */
	CS_ASSERT_NEAR(tu_event_time(tu_event(&r, "vbus_draw", NULL, NULL, 1)), 1.0, T_EPS);
	CS_ASSERT_NEAR(tu_event_time(tu_event(&r, "vbus_draw", NULL, NULL, 2)), 2.0, T_EPS);
	tu_done(&r);
}

/* ---- the USB charger framework ---- */

static int notified(const char *source, const char *kernel, const char *gadget, double *mA,
		    int max)
{
	g_autofree char *extra = g_strdup_printf(", \"device\": { \"kernel\": %s%s%s }", kernel,
						 gadget ? ", \"gadget\": " : "", gadget ? gadget : "");
	g_autofree char *json = scn("1 s", source, extra);
	struct tu_run r;
	int n;

	if (!tu_run(&r, json)) {
		tu_done(&r);
		return -1;
	}
	n = ev_numbers(&r, "usb_charger_notify", "mA", mA, max);
	tu_done(&r);
	return n;
}

/*
 * 2016 form on a DCP, with an extcon driver that reports EXTCON_USB for every cable
 * with VBUS ("vbus" habit): the framework hears EXTCON_USB, asks the power supply
 * for its type (USB_DCP) and notifies its 1500 mA default (bug zoo 3).
 */
static void test_framework_2016_dcp(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"dcp\" }",
			 "{ \"charger_framework\": \"2016\", \"extcon\": \"vbus\" }", NULL, mA, 8);

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 1);
	if (n >= 1)
		CS_ASSERT_NEAR(mA[0], 1500, 1e-9);
}

/*
 * 2016 form on a DCP with the default ("consistent") extcon habit: a DCP is reported
 * only as EXTCON_CHG_USB_DCP (EXTCON_USB means a data cable), and the framework
 * listens only for EXTCON_USB [article], so it never notifies.
 */
static void test_framework_2016_dcp_consistent(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"dcp\" }", "{ \"charger_framework\": \"2016\" }", NULL, mA, 8);

	CU_ASSERT_EQUAL(n, 0);
}

/* 2016 form on a CDP reported as USB + CDP: 1500 mA. */
static void test_framework_2016_cdp(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"cdp\" }", "{ \"charger_framework\": \"2016\" }", NULL, mA, 8);

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT(n >= 1);
	if (n >= 1)
		CS_ASSERT_NEAR(mA[0], 1500, 1e-9);
}

/* 2016 form with max14577 reporting: a CDP comes only as EXTCON_CHG_USB_CDP, which
 * the framework does not listen to: it never notifies (bug zoo 7). */
static void test_framework_2016_max14577_cdp(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"cdp\" }",
			 "{ \"charger_framework\": \"2016\", \"extcon\": \"max14577\" }", NULL, mA, 8);

	CU_ASSERT_EQUAL(n, 0);
}

/*
 * The merged form is the kernel's drivers/usb/phy/phy.c. usb_add_phy_dev() finds the
 * "extcon" property in the PHY's node (usb_add_extcon), reads the cables once and
 * schedules the notification: nothing is attached at boot, so the first is
 * USB_CHARGER_ABSENT's 0 mA (usb_phy_notify_charger_work). A DCP then gets the DCP
 * maximum, DEFAULT_DCP_CUR_MAX = 5000 mA.
 */
static void test_framework_merged_dcp(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"dcp\" }", "{ \"charger_framework\": \"merged\" }", NULL, mA, 8);

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 2);
	if (n >= 2) {
		CS_ASSERT_NEAR(mA[0], 0, 1e-9);
		CS_ASSERT_NEAR(mA[1], 5000, 1e-9);
	}
}

/* An SDP: DEFAULT_SDP_CUR_MAX = 500 mA at detection, then what the gadget's
 * vbus_draw() reported through usb_phy_set_power() (usb_phy_set_charger_current:
 * the type's maximum becomes the configured current, 100 mA here). */
static void test_framework_merged_sdp(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"sdp\" }", "{ \"charger_framework\": \"merged\" }",
			 "{ \"configs\": [\"100 mA\"] }", mA, 8);

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 3);
	if (n >= 3) {
		CS_ASSERT_NEAR(mA[0], 0, 1e-9);
		CS_ASSERT_NEAR(mA[1], 500, 1e-9);
		CS_ASSERT_NEAR(mA[2], 100, 1e-9);
	}
}

/* A CDP reported as both SDP and CDP cables is an SDP to phy.c, which checks SDP, then
 * CDP, then DCP, then ACA (__usb_phy_get_charger_type); a CDP reported as CDP alone
 * gets DEFAULT_CDP_CUR_MAX = 5000 mA, and its gadget's configured current (here the
 * default 2 mA of CONFIG_USB_GADGET_VBUS_DRAW) then becomes the CDP maximum too
 * (usb_phy_set_charger_current changes the maximum of whatever type is current). */
static void test_framework_merged_cdp(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"cdp\" }", "{ \"charger_framework\": \"merged\" }",
			 NULL, mA, 8);

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 3);
	if (n >= 3) {
		CS_ASSERT_NEAR(mA[0], 0, 1e-9);
		CS_ASSERT_NEAR(mA[1], 5000, 1e-9);
		CS_ASSERT_NEAR(mA[2], 2, 1e-9);
	}
}

/* A SuperSpeed gadget asking 900 mA on an SDP: phy.c clamps an SDP maximum at
 * DEFAULT_SDP_CUR_MAX_SS = 900 mA (its default stays 500 mA, SuperSpeed or not). */
static void test_framework_merged_sdp_usb3(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"sdp\", \"usb3\": true }",
			 "{ \"charger_framework\": \"merged\" }",
			 "{ \"configs\": [\"896 mA\"], \"usb3\": true }", mA, 8);

	CU_ASSERT_FATAL(n >= 0);
	CU_ASSERT_EQUAL(n, 3);
	if (n >= 3) {
		CS_ASSERT_NEAR(mA[1], 500, 1e-9);
		CS_ASSERT_NEAR(mA[2], 896, 1e-9);
	}
}

/* Unplug: USB_CHARGER_ABSENT resets the table to the defaults (usb_phy_set_default_current)
 * and notifies 0 mA; the next SDP starts from 500 mA again, not from the 100 mA the
 * gadget set before. */
static void test_framework_merged_reset_on_unplug(void)
{
	g_autofree char *json = scn("4 s", "{ \"kind\": \"sdp\" }",
				    ", \"device\": { \"kernel\": { \"charger_framework\": \"merged\" },"
				    " \"gadget\": { \"configs\": [\"100 mA\"] } },"
				    " \"events\": [ { \"at\": \"2 s\", \"do\": \"unplug\" },"
				    " { \"at\": \"3 s\", \"do\": \"plug\" } ]");
	struct tu_run r;
	double mA[12];
	int n;

	if (!tu_run(&r, json)) {
		CU_FAIL("scenario did not run");
		tu_done(&r);
		return;
	}
	n = ev_numbers(&r, "usb_charger_notify", "mA", mA, 12);
	CU_ASSERT_EQUAL(n, 6);
	if (n >= 6) {
		CS_ASSERT_NEAR(mA[1], 500, 1e-9);
		CS_ASSERT_NEAR(mA[2], 100, 1e-9);
		CS_ASSERT_NEAR(mA[3], 0, 1e-9);     /* unplugged */
		CS_ASSERT_NEAR(mA[4], 500, 1e-9);   /* the default again */
		CS_ASSERT_NEAR(mA[5], 100, 1e-9);
	}
	tu_done(&r);
}

/* No "extcon" in the PHY's node (charger_framework "none"): phy.c attaches nothing
 * and never notifies a current. */
static void test_framework_none(void)
{
	double mA[8];
	int n = notified("{ \"kind\": \"dcp\" }", "{ \"charger_framework\": \"none\" }", NULL,
			 mA, 8);

	CU_ASSERT_EQUAL(n, 0);
}

/* ---- extcon reporting habits and the static type ---- */

static void check_extcon_cables(const char *kind, const char *habit, const char *const *present,
				const char *const *absent)
{
	g_autofree char *src = g_strdup_printf("{ \"kind\": \"%s\" }", kind);
	g_autofree char *extra = g_strdup_printf(", \"device\": { \"kernel\": { \"extcon\": \"%s\" } }",
						 habit);
	g_autofree char *json = scn("1 s", src, extra);
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, json));
	for (int i = 0; present[i]; i++) {
		if (tu_count_where(&r, "extcon", "cable", present[i]) != 1)
			fprintf(stderr, "\n  %s/%s: expected one extcon %s\n", kind, habit, present[i]);
		CU_ASSERT_EQUAL(tu_count_where(&r, "extcon", "cable", present[i]), 1);
	}
	for (int i = 0; absent[i]; i++) {
		if (tu_count_where(&r, "extcon", "cable", absent[i]) != 0)
			fprintf(stderr, "\n  %s/%s: unexpected extcon %s\n", kind, habit, absent[i]);
		CU_ASSERT_EQUAL(tu_count_where(&r, "extcon", "cable", absent[i]), 0);
	}
	tu_done(&r);
}

static void test_extcon_max14577_cdp(void)
{
	static const char *const present[] = { "CDP=1", NULL };
	static const char *const absent[] = { "USB=1", NULL };

	check_extcon_cables("cdp", "max14577", present, absent);
}

static void test_extcon_max14577_sdp(void)
{
	/* max14577 reports a standard downstream port as both USB and SDP [article] */
	static const char *const present[] = { "USB=1", "SDP=1", NULL };
	static const char *const absent[] = { NULL };

	check_extcon_cables("sdp", "max14577", present, absent);
}

static void test_extcon_consistent_cdp(void)
{
	static const char *const present[] = { "USB=1", "CDP=1", NULL };
	static const char *const absent[] = { NULL };

	check_extcon_cables("cdp", "consistent", present, absent);
}

static void test_extcon_vbus_dcp(void)
{
	/* "vbus": EXTCON_USB for every cable with VBUS, next to the charger cable */
	static const char *const present[] = { "USB=1", "DCP=1", NULL };
	static const char *const absent[] = { NULL };

	check_extcon_cables("dcp", "vbus", present, absent);
}

static void test_extcon_consistent_dcp(void)
{
	static const char *const present[] = { "DCP=1", NULL };
	static const char *const absent[] = { "USB=1", NULL };

	check_extcon_cables("dcp", "consistent", present, absent);
}

/* gpio-charger: a type fixed by the device tree wins over the port plugged. */
static void test_static_psy_type(void)
{
	g_autofree char *json = scn("1 s", "{ \"kind\": \"sdp\" }",
				    ", \"device\": { \"kernel\": { \"usb_psy_type\": \"USB_DCP\" } }");
	struct tu_run r;

	CU_ASSERT_FATAL(tu_run(&r, json));
	CU_ASSERT_PTR_NOT_NULL(tu_event(&r, "detect", "port", "sdp", 0));
	ASSERT_STR(tu_str(r.metrics, "detected_type"), "USB_DCP");
	tu_done(&r);
}

/* ---- every scenario under scenarios/ports/ runs and holds its detected_type ---- */

static void test_port_scenarios(void)
{
	static const struct { const char *file, *type; } s[] = {
		{ "sdp", "USB" }, { "sdp-usb3", "USB" }, { "cdp", "USB_CDP" }, { "dcp", "USB_DCP" },
		{ "apple-1a", "USB_DCP" }, { "apple-2.1a", "USB_DCP" }, { "apple-2.4a", "USB_DCP" },
		{ "samsung-2a", "USB_DCP" }, { "aca", "USB_ACA" }, { "typec-default", "USB_DCP" },
		{ "typec-1.5a", "USB_C" }, { "typec-3.0a", "USB_C" }, { "pd-9v", "USB_PD" },
		{ "dcp-floating-data", "USB" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(s); i++) {
		g_autofree char *rel = g_strdup_printf("scenarios/ports/%s.json", s[i].file);
		g_autofree char *file = tu_repo_file(rel);
		g_autofree char *json = NULL;
		struct tu_run r;

		CU_ASSERT_PTR_NOT_NULL(file);
		if (!file || !g_file_get_contents(file, &json, NULL, NULL))
			continue;
		CU_ASSERT(tu_run(&r, json));
		if (strcmp(tu_str(r.metrics, "detected_type"), s[i].type) != 0)
			fprintf(stderr, "\n  %s\n", rel);
		ASSERT_STR(tu_str(r.metrics, "detected_type"), s[i].type);
		tu_done(&r);
	}
}

/* A policy by its name: the first descriptor of that name in cs_policies() (the
 * built-ins, then the real drivers), whichever list the lookup reads first; a built-in
 * has no kernel files, a real driver ("linux/...") has. */
static void test_policy_find_order(void)
{
	const struct cs_policy_desc *const *all = cs_policies();
	int n_linux = 0;

	for (int i = 0; all[i]; i++) {
		const struct cs_policy_desc *first = NULL;

		for (int k = 0; all[k] && !first; k++)
			if (strcmp(all[k]->name, all[i]->name) == 0)
				first = all[k];
		CU_ASSERT_PTR_EQUAL(cs_policy_find(all[i]->name), first);
		if (g_str_has_prefix(all[i]->name, "linux/")) {
			n_linux++;
			CU_ASSERT_PTR_NOT_NULL(cs_linux_policy_files(all[i]->name));
		} else {
			CU_ASSERT_PTR_NULL(cs_linux_policy_files(all[i]->name));
		}
	}
	CU_ASSERT_PTR_EQUAL(cs_policy_find("fixed"), cs_builtin_policies[1]);
	CU_ASSERT_PTR_NULL(cs_policy_find("no-such-policy"));
	CU_ASSERT_PTR_NULL(cs_policy_find("linux/no-such-driver"));
	CU_ASSERT_PTR_NULL(cs_linux_policy_files(NULL));
	for (int i = 0; cs_linux_modules[i]; i++)   /* one real driver per module built */
		n_linux--;
	CU_ASSERT_EQUAL(n_linux, 0);
}

/* Text for a terminal: printable ASCII and UTF-8 as they are; C0 controls and DEL as
 * \xNN (newline and tab kept in lines), C1 as \uNNNN, a byte that is not UTF-8 as
 * \xNN (ECMA-48: ESC and U+009B start control sequences). */
static void test_term_text(void)
{
	static const struct {
		const char *in;
		bool lines;
		const char *out;
	} t[] = {
		{ "SOC will pass 100 %; lower vreg", false, "SOC will pass 100 %; lower vreg" },
		{ "", false, "" },
		{ "a\x1b[2Jb", false, "a\\x1b[2Jb" },
		{ "two\nlines\tand a tab", true, "two\nlines\tand a tab" },
		{ "two\nlines", false, "two\\x0alines" },
		{ "del\x7f", true, "del\\x7f" },
		{ "csi \xc2\x9b", false, "csi \\u009b" },
		{ "25 \xc2\xb0""C", false, "25 \xc2\xb0""C" },
		{ "bad \xff byte", false, "bad \\xff byte" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
		g_autofree char *o = cli_term_text(t[i].in, t[i].lines);

		ASSERT_STR(o, t[i].out);
	}
	g_autofree char *none = cli_term_text(NULL, false);
	ASSERT_STR(none, "");
}

CU_TestInfo stack_tests[] = {
	{ "detect sdp: USB, 50-52 ms", test_detect_sdp },
	{ "detect sdp-usb3: USB, 50-52 ms", test_detect_sdp_usb3 },
	{ "detect cdp: USB_CDP, 90-93 ms", test_detect_cdp },
	{ "detect dcp: USB_DCP, 90-93 ms", test_detect_dcp },
	{ "detect apple-1a: USB_DCP after DCD timeout", test_detect_apple_1a },
	{ "detect apple-2.1a: USB_DCP after DCD timeout", test_detect_apple_2_1a },
	{ "detect apple-2.4a: USB_DCP after DCD timeout", test_detect_apple_2_4a },
	{ "detect samsung-2a: USB_DCP after DCD timeout", test_detect_samsung_2a },
	{ "detect aca: USB_ACA within 1 s", test_detect_aca },
	{ "detect typec 1.5A: USB_C after tCCDebounce", test_detect_typec_1a5 },
	{ "detect typec 3.0A: USB_C after tCCDebounce", test_detect_typec_3a0 },
	{ "detect typec default Rp: BC1.2 fallback, USB_DCP", test_detect_typec_default },
	{ "detect pd: USB_PD", test_detect_pd },
	{ "floating data on a DCP: DCD timeout 600 ms, USB", test_floating_data_dcp },
	{ "late data contact 300 ms on a DCP: USB_DCP at 390 ms", test_late_contact_dcp },
	{ "CC voltage of each Rp across Rd 5.1k and its window", test_cc_voltage },
	{ "Rp default -> 3.0A followed within tSinkAdj", test_rp_change_default_to_3a0 },
	{ "Rp 1.5A -> 3.0A followed within tSinkAdj", test_rp_change_1a5_to_3a0 },
	{ "PD 9 V contract: message order, VBUS, tPSTransition", test_pd_contract_9v },
	{ "PD 5 V sink: PDO 1, VBUS stays at 5 V", test_pd_contract_5v_sink },
	{ "extcon: EXTCON_NONE/unsupported refused, notify on change only", test_extcon },
	{ "power_supply type and usb_type strings are the kernel's", test_psy_type_strings },
	{ "sysfs of scenarios/ports/dcp.json at 5 s", test_sysfs_dcp },
	{ "MaxPower encoding: 2 mA / 8 mA units", test_max_power_encoding },
	{ "gadget on a root port: 500 mA", test_gadget_root_port },
	{ "gadget on a hub port: 100 mA", test_gadget_hub_port },
	{ "default gadget: 2 mA", test_gadget_default_2ma },
	{ "suspend 2 mA (2.5 mA allowance), resume 500 mA", test_gadget_suspend_resume },
	{ "charger framework 2016 on a DCP (extcon vbus): 1500 mA", test_framework_2016_dcp },
	{ "charger framework 2016 on a DCP (extcon consistent): silent",
	  test_framework_2016_dcp_consistent },
	{ "charger framework 2016 on a CDP: 1500 mA", test_framework_2016_cdp },
	{ "charger framework 2016 + max14577 CDP: never notified", test_framework_2016_max14577_cdp },
	{ "charger framework merged on a DCP: 5000 mA", test_framework_merged_dcp },
	{ "charger framework merged on an SDP: 500 then vbus_draw", test_framework_merged_sdp },
	{ "phy.c: CDP before DCP, 900 mA SDP clamp, the default table", test_phy_framework_rules },
	{ "extcon.c and phy.c keep their lists per run", test_kcore_per_run },
	{ "charger framework merged on a CDP: 5000, then the gadget's 2 mA", test_framework_merged_cdp },
	{ "charger framework merged, SuperSpeed SDP: up to 900 mA", test_framework_merged_sdp_usb3 },
	{ "charger framework merged: the table resets on unplug", test_framework_merged_reset_on_unplug },
	{ "charger framework: none without extcon in the PHY's node", test_framework_none },
	{ "extcon max14577 on a CDP: CDP only", test_extcon_max14577_cdp },
	{ "extcon max14577 on an SDP: USB and SDP", test_extcon_max14577_sdp },
	{ "extcon consistent on a CDP: USB and CDP", test_extcon_consistent_cdp },
	{ "extcon consistent on a DCP: DCP only", test_extcon_consistent_dcp },
	{ "extcon vbus on a DCP: USB and DCP", test_extcon_vbus_dcp },
	{ "static usb_psy_type USB_DCP on an SDP", test_static_psy_type },
	{ "scenarios/ports/*.json run and detect", test_port_scenarios },
	{ "a policy by its name: the first of that name, kernel files for real drivers only",
	  test_policy_find_order },
	{ "text for a terminal: plain text as it is, controls escaped", test_term_text },
	CU_TEST_INFO_NULL,
};
