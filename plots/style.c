// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plots/style.c - the names and colours of the stacked plot that are data rather than
 * script text: the trace columns it reads, the rows of the state band, the event kinds
 * (one colour and one key entry each), the colours of runs and of states. The styles
 * of the panels' lines are in plots/templates/.
 */
#include <string.h>
#include "plots/stacked.h"

const char *const plot_column_names[COL_COUNT] = {
	"time_s", "vsrc_V", "vbus_V", "ibus_A", "ilim_A", "vbat_V", "soc", "charger_state",
	"source_state", "src_ilim_A", "ibat_A", "iload_A", "budget_A",
};

const char *const plot_band_names[BAND_COUNT] = {
	"charger", "source", "detected", "psy type", "boot",
};

/* The charger state fills the row; above the text the source's state (unless on) and
 * the boot stage (unless running), below it the detected port and the power supply's
 * type (two thin stripes: where they disagree, as in bug zoo 6, the colours differ). */
const struct band_stripe plot_band_stripes[BAND_COUNT] = {
	[BAND_CHARGER] = { -0.42, 0.42, NULL, true },
	[BAND_SOURCE] = { 0.24, 0.42, "on", false },
	[BAND_BOOT] = { 0.17, 0.24, "running", false },
	[BAND_DETECTED] = { -0.42, -0.33, NULL, false },
	[BAND_PSY] = { -0.33, -0.24, NULL, false },
};

const char *const plot_merge_panel_names[MP_COUNT] = {
	[MP_A] = "VBUS", [MP_B] = "currents", [MP_C] = "battery", [MP_E] = "zoom",
	[MP_BAND] = "states",
};

const struct mark_style plot_mark_groups[MG_COUNT] = {
	[MG_ATTACH] = { "attach/detach", "#7f7f7f" },
	[MG_DETECT] = { "detect", "#0072b2" },
	[MG_DRAW] = { "enumerate/vbus_draw", "#009e73" },
	[MG_TRIP] = { "source_trip", "#d62728" },
	[MG_UVLO] = { "uvlo", "#e7298a" },
	[MG_BROWNOUT] = { "brownout", "#8c564b" },
	[MG_BOOT] = { "boot_state", "#9467bd" },
	[MG_FAULT] = { "charger_fault", "#000000" },
	[MG_SCENARIO] = { "scenario set/fault", "#ff7f0e" },
	[MG_SUSPEND] = { "suspend/resume", "#17becf" },
	[MG_LOAD] = { "load step", "#bcbd22" },
};

/* Okabe-Ito for runs (distinguishable with the common colour-vision deficiencies),
 * then four of Paul Tol's "muted" set, so that up to 11 runs differ in colour. */
static const char *const run_colours[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
	"#882255", "#44aa99", "#999933", "#aa4499",
};

const char *plot_run_colour(int i)
{
	return run_colours[i % (int)G_N_ELEMENTS(run_colours)];
}

/* Known states have fixed colours, so that plots compare; others a pale colour
 * picked by their name. */
const char *plot_state_colour(int band, const char *s)
{
	static const char *const pale[] = {
		"#fdd0a2", "#dadaeb", "#c7e9c0", "#fee391", "#c6dbef", "#fcc5c0", "#d9f0a3",
		"#e5d8bd",
	};
	static const struct { const char *s; const char *c; } fixed[] = {
		{ "off", "#d9d9d9" }, { "-", "#f0f0f0" }, { "detached", "#d9d9d9" },
		{ "precharge", "#fdd0a2" }, { "cc", "#a1d99b" }, { "cv", "#74c476" },
		{ "done", "#6baed6" }, { "uvlo", "#fb6a4a" }, { "fault", "#a50f15" },
		{ "on", "#a1d99b" }, { "limiting", "#fdae6b" }, { "tripped", "#fb6a4a" },
		{ "running", "#a1d99b" },
		{ "SDP", "#c6dbef" }, { "USB", "#c6dbef" }, { "CDP", "#9ecae1" },
		{ "USB_CDP", "#9ecae1" }, { "DCP", "#6baed6" }, { "USB_DCP", "#6baed6" },
		{ "Unknown", "#d9d9d9" }, { "NONE", "#d9d9d9" },
	};
	guint h;

	for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
		if (strcmp(fixed[i].s, s) == 0)
			return fixed[i].c;
	h = g_str_hash(s) + (guint)band;
	return pale[h % G_N_ELEMENTS(pale)];
}
