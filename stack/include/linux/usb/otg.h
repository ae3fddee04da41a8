/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/usb/otg.h (chargesim) - OTG drivers reach their PHY through linux/usb/phy.h. */
#ifndef CS_LINUX_USB_OTG_H
#define CS_LINUX_USB_OTG_H

#include <linux/pm_runtime.h>
#include <linux/usb/phy.h>

#endif
