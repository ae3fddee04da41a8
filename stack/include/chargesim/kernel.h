/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chargesim/kernel.h - the run context behind the kernel-style headers.
 *
 * Kernel code reads globals (jiffies) and calls printk without a context argument.
 * Here those resolve through cs_kernel_current, a thread-local pointer the simulator
 * sets to the run being stepped on this thread, so several runs can go on in parallel
 * threads (sweeps) without sharing anything. Everything the kernel-style code keeps
 * for the length of one run lives in struct cs_kernel; cs_kernel_exit() clears it
 * when the run ends, so nothing points into a finished run.
 */
#ifndef CS_CHARGESIM_KERNEL_H
#define CS_CHARGESIM_KERNEL_H

#include <stdint.h>
#include <linux/kernel_types.h>
#include <linux/notifier.h>
#include <linux/usb/charger.h>
#include <linux/workqueue.h>
#include <chargesim/klog.h>
#include <chargesim/kcore_state.h>
#include "sim/sim.h"

struct evlog;
struct power_supply;
struct extcon_dev;
struct cs_board;
struct device_node;
struct usb_phy;
struct cs_gpio_chip;
struct cs_twl_provider;
struct cs_kdevice;
struct cs_kdriver;
struct cs_irq_desc;
struct cs_iio_map;
struct cs_regulator;
struct device;
struct cs_acpi_device;
struct cs_swnode;
struct usb_role_switch;


struct cs_kernel {
	struct sim *sim;
	struct evlog *log;
	struct power_supply *psy_head;       /* registered power supplies */
	struct raw_notifier_head psy_nh;     /* power_supply_reg_notifier chain */
	struct cs_kcore kcore;               /* extcon.c's and phy.c's lists */
	struct usb_charger *uchger;          /* the 2016 framework's usb-charger.0 */
	struct work_struct uchger_work;
	struct {                             /* cs_boot_gate_vbat()'s gate */
		struct cs_board *board;
		int uv;
	} vbat_gate;

	/* The Linux device model the real drivers run on (stack/kernel/: bus.c, of.c,
	 * irq.c, gpio.c, iio.c, twl.c). The board's devices, nodes and chips belong to
	 * the board; the lists and tables here belong to the run and are freed by
	 * cs_kernel_exit(). */
	struct device_node *of_root;         /* the run's device tree */
	u32 of_last_phandle;
	struct cs_kdevice *devices;          /* devices, in registration order */
	struct cs_kdriver *drivers;          /* drivers registered in this run */
	struct cs_irq_desc **irqs;           /* interrupt lines by number, irqs[0] unused */
	int n_irqs;
	struct cs_gpio_chip *gpio_chips;
	struct cs_iio_map *iio_maps;
	const struct cs_twl_provider *twl;
	struct device *linux_dut;            /* the board's device for the driver under test */
	const char *dyndbg;                  /* module (KBUILD_MODNAME) with dev_dbg on */
	char *first_err;                     /* the first error-level kernel message */
	struct {                             /* the first probe that failed */
		char *dev, *drv;
		int err;
	} probe_failure;
	struct cs_regulator *regulators;     /* the board's (regulator.c) */
	struct cs_regulator *regulator_dummy;
	/* the machine's ACPI namespace (linux/acpi.h), NULL-hid terminated; NULL: none */
	const struct cs_acpi_device *acpi_devices;
	/* an x86 machine's SoC (asm/cpu_device_id.h: x86_match_cpu), as a VFM value
	 * (asm/intel-family.h); 0: not an x86 machine */
	u32 x86_vfm;
	struct cs_swnode *swnodes;           /* registered software nodes (linux/property.h) */
	struct usb_role_switch *role_switches;   /* registered (linux/usb/role.h) */
};

extern __thread struct cs_kernel *cs_kernel_current;

static inline struct cs_kernel *cs_kernel(void)
{
	return cs_kernel_current;
}

/* The run is over: free the run's tables and forget its per-run state (the objects
 * themselves belong to the run's owner, who cancels their events first). */
void cs_kernel_exit(struct cs_kernel *k);

/* Text for a failed probe: the errno's name, and the kernel's first error message
 * since the probe began when there is one ("-EINVAL (1-006a: Unable to read
 * property ...)"). g_free it. */
char *cs_probe_error_text(int err);

#endif
