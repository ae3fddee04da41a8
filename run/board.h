/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run/board.h - the device's kernel drivers as the simulator provides them.
 *
 * A policy under test sees a board (struct cs_board): an extcon device, a USB PHY, a
 * USB power supply and a battery power supply, a gadget, the USB charger framework.
 * This file plays the drivers behind those: it turns the PHY model's detection result
 * into extcon cable states, power_supply type / usb_type and uevents, usb_phy
 * notifications; it plays the USB host (enumeration after connect, configuration
 * choice within the port's budget, suspend/resume) and the gadget's vbus_draw path.
 * Real drivers disagree on how they report; each habit the article describes is a
 * board parameter ("device.kernel" in a scenario).
 */
#ifndef CS_RUN_BOARD_H
#define CS_RUN_BOARD_H

#include <stdbool.h>
#include <linux/extcon-provider.h>
#include <linux/of.h>
#include <linux/power_supply.h>
#include <linux/usb/charger.h>
#include <linux/usb/gadget.h>
#include <linux/usb/phy.h>
#include <chargesim/policy.h>
#include "models/model.h"
#include "models/phy/phy.h"
#include "models/source/source.h"
#include "sim/param.h"

enum board_extcon_habit { BOARD_EXTCON_CONSISTENT, BOARD_EXTCON_MAX14577, BOARD_EXTCON_VBUS };
enum board_framework { BOARD_FW_NONE, BOARD_FW_2016, BOARD_FW_MERGED };

/*
 * The PHY glue: the code between a board's USB PHY and the usb_phy notifier that
 * drivers such as twl4030_charger.c listen to (on an OMAP3 phone, the musb glue of
 * drivers/usb/musb/omap2430.c over the TWL4030's USB PHY). Real boards differ in
 * which events it sends and with what data, and in whether the USB charger framework
 * of drivers/usb/phy/phy.c attaches to the PHY at all (only when the PHY's device-tree
 * node has an "extcon" property: usb_add_extcon()). The board sends per the glue of
 * the run (run/phy_glue.c): a real driver's machine states its board's own
 * (run/linux/machine.h), other policies get the generic one, and
 * device.kernel.phy_glue picks another. The board never names a chip.
 */
struct board_phy_glue {
	const char *key;          /* its name in device.kernel.phy_glue */
	const char *what;         /* one line for messages and `chargesim list` */
	/* USB_EVENT_VBUS when VBUS comes, USB_EVENT_NONE when it goes; also the plug
	 * signal user space's after_plug waits for (stack/linux/policy.c) */
	bool vbus_events;
	/* USB_EVENT_CHARGER, with the detected mA as payload, after each detection */
	bool charger_event;
	/* the device.kernel knobs phy_payload and phy_set_power decide the data and the
	 * USB_EVENT_ENUMERATED on usb_phy_set_power() (the generic glue); else below */
	bool knobs;
	int payload;              /* enum cs_phy_payload: what every event carries */
	bool set_power_event;     /* USB_EVENT_ENUMERATED on usb_phy_set_power() */
	/* the PHY's device-tree node has "extcon": the merged USB charger framework
	 * attaches to it (device.kernel.charger_framework "merged" then applies) */
	bool dt_extcon;
};

/* The glues, NULL-terminated; the first is the generic one. */
extern const struct board_phy_glue *const board_phy_glues[];
extern const struct board_phy_glue board_glue_generic, board_glue_omap2430,
	board_glue_nop_xceiv, board_glue_intel_cht, board_glue_no_usb_phy;

struct gadget_params {
	int n_configs;
	double configs_ma[CS_GADGET_MAX_CONFIGS];   /* MaxPower as written, mA */
	bool usb3;
};

struct kernel_params {
	int extcon;              /* enum board_extcon_habit */
	int payload;             /* enum cs_phy_payload */
	int usb_psy_type;        /* 0 = as detected, else a fixed power_supply type + 1 */
	int framework;           /* enum board_framework */
	bool udc_vbus_draw;      /* the UDC driver passes vbus_draw to usb_phy_set_power */
	bool phy_set_power;      /* the PHY driver notifies ENUMERATED on set_power */
	char *usb_psy_name;
	int phy_glue;            /* 0: the board's own, else board_phy_glues[phy_glue - 1] */
};

/* What the drivers read from the hardware, filled by the world on demand. */
struct board_readings {
	bool vbus_online;
	int vbus_uv, ibus_ua, ilim_ua, ichg_ua, vreg_uv;
	int status;              /* POWER_SUPPLY_STATUS_* of the charger */
	int charge_type;
	int bat_uv, bat_ua, bat_capacity, bat_temp_decic, bat_full_design_uah;
	const char *chip;
};

typedef void (*board_read_cb)(void *ctx, struct board_readings *r);

struct board {
	struct sim *sim;
	struct evlog *log;
	const struct gadget_params *gp;
	const struct kernel_params *kp;
	const struct source_params *sp;
	struct source *src;      /* the port, told what the host grants (its budget) */
	board_read_cb read;
	void *read_ctx;

	struct device edev_parent;   /* the board's connector, parent of edev */
	struct extcon_dev *edev;
	struct usb_phy *phy;
	struct device_driver phy_drv;   /* the PHY glue's driver, bound to phy->dev */
	struct device_node *dt;         /* board_add_phy()'s device tree */
	bool phy_added;
	struct power_supply_desc usb_desc, bat_desc;
	struct power_supply *usb_psy, *bat_psy;
	struct usb_gadget gadget;
	struct usb_gadget_ops gadget_ops;
	struct usb_charger uchger;

	const struct board_phy_glue *glue;   /* the glue of the run */
	enum board_framework framework;      /* the framework that attached */
	struct phy_result det;
	enum power_supply_type psy_type;
	enum power_supply_usb_type usb_type;
	bool attached;
	bool suspended;
	struct sim_event ev_enumerate;
	char *detected_type;     /* last reported power_supply type text, NULL before */
};

/* The board's scenario objects, device.gadget and device.kernel: parameters only (the
 * board plays them), loaded after the models' (run/scenario.h). NULL-terminated. */
extern const struct model_desc *const board_objects[];

/* own_glue: the glue of the real driver's machine (run/linux_board.h), NULL for other
 * policies (the generic one); device.kernel.phy_glue overrides it. */
void board_init(struct board *b, struct sim *sim, struct evlog *log, struct usb_phy *phy,
		struct source *src, const struct gadget_params *gp,
		const struct kernel_params *kp, const struct board_phy_glue *own_glue,
		board_read_cb read, void *read_ctx);
/* False with err when device.kernel sets a knob (phy_payload, phy_set_power) that the
 * run's glue fixes; who: the board, for the message ("policy \"linux/...\""). */
bool board_glue_check(const struct board *b, const char *file, const char *who, GError **err);
void board_fill(struct board *b, struct cs_board *cb);
/* Declare the board's PHY (usb_add_phy_dev) with the device tree of a board that has
 * the merged USB charger framework or not (device.kernel's charger_framework), when
 * no real Linux machine declares it instead. */
void board_add_phy(struct board *b);
void board_cleanup(struct board *b);
/* VBUS came or went (the PHY's VBUS comparator). */
void board_vbus(struct board *b, bool on);
/* The PHY model's detection result. */
void board_detected(struct board *b, const struct phy_result *r);
void board_suspend(struct board *b, bool suspend);
/* Write class/power_supply/<name>/<property> files under dir. */
bool board_sysfs_dump(const char *dir, GError **err);

#endif
