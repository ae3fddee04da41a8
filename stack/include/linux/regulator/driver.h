/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/regulator/driver.h (chargesim) - the provider side of regulators.
 *
 * A driver file cannot register a regulator here: CONFIG_REGULATOR is not set for the
 * driver files (chargesim/kconfig.h), so their provider code (bq25890's OTG boost
 * regulator, for instance) is compiled out, and only the types their disabled
 * branches name exist. The board registers its own regulators instead (struct
 * cs_regulator), as a PMIC's regulator driver would on a device: the consumer API of
 * linux/regulator/consumer.h then finds them.
 */
#ifndef CS_LINUX_REGULATOR_DRIVER_H
#define CS_LINUX_REGULATOR_DRIVER_H

#include <linux/kernel_types.h>

struct device_node;
struct regulator_dev;
struct regulator_init_data;
struct regulator_desc;
struct regulator_config;
struct regulator_ops;

#define REGULATOR_CHANGE_CURRENT 0x2
#define REGULATOR_CHANGE_STATUS  0x8

/* What the board's device tree allows (of_get_regulation_constraints()). */
struct regulation_constraints {
	const char *name;                  /* regulator-name */
	int min_uA, max_uA;                /* regulator-min/max-microamp */
	unsigned int valid_ops_mask;
	bool always_on;                    /* regulator-always-on */
	bool boot_on;                      /* regulator-boot-on */
};

/* The hardware behind a board's regulator; hw is the board's. */
struct cs_regulator_ops {
	int (*enable)(void *hw);
	int (*disable)(void *hw);
	int (*is_enabled)(void *hw);       /* 1, 0 or -errno; absent: always on */
	/* the highest current the hardware can set within [min_uA, max_uA], or -EINVAL */
	int (*set_current_limit)(void *hw, int min_uA, int max_uA);
	int (*get_current_limit)(void *hw);
};

/* A regulator on the board (the kernel's struct regulator_dev). The board fills
 * of_node, ops and hw and registers it; the rest is the core's. */
struct cs_regulator {
	struct device_node *of_node;       /* its node: constraints, phandle for <id>-supply */
	const struct cs_regulator_ops *ops;
	void *hw;
	struct regulation_constraints constraints;
	const char *name;                  /* regulator-name, else the node's name */
	int use_count;                     /* consumers that have it enabled */
	struct cs_regulator *cs_next;
};

/* Read the constraints from of_node (NULL: none: fixed, always on), switch it on if
 * they say always-on or boot-on, and make it findable. 0 or -errno. */
int cs_regulator_register(struct cs_regulator *rdev);
void cs_regulator_unregister(struct cs_regulator *rdev);

#endif
