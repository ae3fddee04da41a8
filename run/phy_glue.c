// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/phy_glue.c - the PHY glues boards have (struct board_phy_glue, run/board.h): what
 * each tells the usb_phy notifier, with what data, and whether the USB charger
 * framework attaches to its PHY. Each real driver's machine points at its board's
 * (run/linux/<driver>.c); device.kernel.phy_glue names one for any run.
 *
 * Sources are Linux 6.12 files (linux-source-6.12). Every glue sends VBUS and NONE:
 * on the boards without a usb_phy (no driver can find one) these reach only user
 * space's after_plug hook, the simulator's stand-in for a udev rule on the plug.
 */
#include "run/board.h"

/* The simulator's own board, as the ports were written for: VBUS, NONE, a CHARGER
 * event with the detected mA after each detection; the device.kernel knobs say the
 * data and whether usb_phy_set_power() notifies ENUMERATED; its PHY node has
 * "extcon", so charger_framework "merged" attaches. */
const struct board_phy_glue board_glue_generic = {
	.key = "generic",
	.what = "the generic board: USB_EVENT_CHARGER with the detected mA after each detection, the charger framework attached",
	.vbus_events = true, .charger_event = true, .knobs = true, .dt_extcon = true,
};

/*
 * OMAP3 phones (GTA04, Nokia N900): the TWL4030's USB PHY
 * (drivers/phy/ti/phy-twl4030-usb.c) calls musb_mailbox() only when the cable's
 * connected state changes (twl4030_usb_irq(), atomic_add_unless on `connected`), and
 * the musb OMAP glue (drivers/usb/musb/omap2430.c, omap_musb_set_mailbox()) calls the
 * notifier with USB_EVENT_VBUS, USB_EVENT_NONE or USB_EVENT_ID and NULL data, never
 * USB_EVENT_CHARGER: the TWL4030 does no BC1.2 detection. Its usb_phy has no
 * set_power, so usb_phy_set_power() notifies nothing. The PHY's node in
 * arch/arm/boot/dts/ti/omap/twl4030.dtsi (usb2_phy: twl4030-usb) has no "extcon"
 * property, so phy.c's usb_add_extcon() attaches no charger framework. (ID, an
 * OTG host cable, has no source in the simulator.)
 */
const struct board_phy_glue board_glue_omap2430 = {
	.key = "omap2430",
	.what = "OMAP3 musb glue over the TWL4030 USB PHY: VBUS and NONE with NULL data, no charger event, no charger framework",
	.vbus_events = true, .payload = CS_PHY_PAYLOAD_NULL,
};

/*
 * The bq25890 binding's board (Documentation/devicetree/bindings/power/supply/
 * bq25890.yaml): the charger alone on I2C, detecting the port on D+/D- itself; the
 * binding names no USB PHY. bq25890_charger.c takes whatever USB2 PHY the board has
 * (devm_usb_get_phy()) and acts on NONE and ID only. The machine gives it the
 * simplest one Linux has, the no-op transceiver with a VBUS line
 * (drivers/usb/phy/phy-generic.c): nop_gpio_vbus_thread() notifies USB_EVENT_VBUS or
 * USB_EVENT_NONE on each VBUS edge with the gadget as data; it has no set_power; its
 * binding (Documentation/devicetree/bindings/usb/usb-nop-xceiv.yaml,
 * additionalProperties: false) allows no "extcon", so no charger framework.
 */
const struct board_phy_glue board_glue_nop_xceiv = {
	.key = "usb-nop-xceiv",
	.what = "no-op USB transceiver with a VBUS line: VBUS and NONE with the gadget, no charger event, no charger framework",
	.vbus_events = true, .payload = CS_PHY_PAYLOAD_GADGET,
};

/*
 * Intel Cherry Trail tablets with the AXP288 PMIC: the PMIC does the BC1.2 detection
 * and drivers/extcon/extcon-axp288.c reports the charger type as extcon cables, which
 * axp288_charger.c listens to; no usb_phy notifies it of anything. The machine is
 * ACPI-enumerated (no device tree), so phy.c finds no "extcon" property and attaches
 * no charger framework.
 */
const struct board_phy_glue board_glue_intel_cht = {
	.key = "intel-cht",
	.what = "Intel Cherry Trail with the AXP288: the charger type as extcon cables from the PMIC, no usb_phy events, no charger framework",
	.vbus_events = true, .payload = CS_PHY_PAYLOAD_NULL,
};

/*
 * A board whose charger driver takes no usb_phy: gpio-charger's binding board
 * (Documentation/devicetree/bindings/power/supply/gpio-charger.yaml: the charger's
 * lines only) and charger-manager's (Documentation/devicetree/bindings/power/supply/
 * charger-manager.yaml: cables through extcon). No charger event, no charger
 * framework (no PHY node with "extcon").
 */
const struct board_phy_glue board_glue_no_usb_phy = {
	.key = "no-usb-phy",
	.what = "no usb_phy a charger driver listens to: no charger event, no charger framework",
	.vbus_events = true, .payload = CS_PHY_PAYLOAD_NULL,
};

const struct board_phy_glue *const board_phy_glues[] = {
	&board_glue_generic,
	&board_glue_omap2430,
	&board_glue_nop_xceiv,
	&board_glue_intel_cht,
	&board_glue_no_usb_phy,
	NULL,
};
