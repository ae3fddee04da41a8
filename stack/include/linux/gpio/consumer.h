/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/gpio/consumer.h (chargesim) - GPIO lines as drivers use them.
 *
 * A line is found as on a device-tree system: the consumer's node has a property
 * "<con_id>-gpios" (or "gpios" without a con_id) = <&controller line flags>, and the
 * controller is a chip model's GPIO block the simulated board registered with that
 * node (cs_gpio_chip_add). Flag bit 0 is GPIO_ACTIVE_LOW: values read and written
 * through the descriptor are then inverted. gpiod_to_irq() gives the chip model's
 * interrupt for the line, raised on its edges.
 */
#ifndef CS_LINUX_GPIO_CONSUMER_H
#define CS_LINUX_GPIO_CONSUMER_H

#include <linux/kernel_types.h>
#include <linux/device.h>
#include <linux/err.h>

#define GPIO_ACTIVE_LOW 1

#define GPIOD_FLAGS_BIT_DIR_SET BIT(0)
#define GPIOD_FLAGS_BIT_DIR_OUT BIT(1)
#define GPIOD_FLAGS_BIT_DIR_VAL BIT(2)
#define GPIOD_FLAGS_BIT_OPEN_DRAIN BIT(3)

enum gpiod_flags {
	GPIOD_ASIS = 0,
	GPIOD_IN = GPIOD_FLAGS_BIT_DIR_SET,
	GPIOD_OUT_LOW = GPIOD_FLAGS_BIT_DIR_SET | GPIOD_FLAGS_BIT_DIR_OUT,
	GPIOD_OUT_HIGH = GPIOD_FLAGS_BIT_DIR_SET | GPIOD_FLAGS_BIT_DIR_OUT | GPIOD_FLAGS_BIT_DIR_VAL,
	GPIOD_OUT_LOW_OPEN_DRAIN = GPIOD_OUT_LOW | GPIOD_FLAGS_BIT_OPEN_DRAIN,
	GPIOD_OUT_HIGH_OPEN_DRAIN = GPIOD_OUT_HIGH | GPIOD_FLAGS_BIT_OPEN_DRAIN,
};

struct gpio_desc;

struct gpio_descs {
	unsigned int ndescs;
	struct gpio_desc *desc[];
};

struct gpio_desc *devm_gpiod_get(struct device *dev, const char *con_id, enum gpiod_flags flags);
struct gpio_desc *devm_gpiod_get_optional(struct device *dev, const char *con_id,
					  enum gpiod_flags flags);
struct gpio_descs *devm_gpiod_get_array_optional(struct device *dev, const char *con_id,
						 enum gpiod_flags flags);

int gpiod_get_value(const struct gpio_desc *desc);
void gpiod_set_value(struct gpio_desc *desc, int value);
#define gpiod_get_value_cansleep gpiod_get_value
#define gpiod_set_value_cansleep gpiod_set_value
int gpiod_direction_output(struct gpio_desc *desc, int value);
int gpiod_to_irq(const struct gpio_desc *desc);

/* ---- chargesim: the board side ---- */
struct device_node;
struct cs_gpio_chip {
	const char *label;
	struct device_node *of_node;    /* the controller node consumers' phandles name */
	unsigned int ngpio;
	int (*get)(void *hw, unsigned int line);                /* 0/1, or -errno */
	void (*set)(void *hw, unsigned int line, int value);    /* NULL: input-only */
	int (*to_irq)(void *hw, unsigned int line);             /* > 0, or -ENXIO */
	void *hw;
	struct cs_gpio_chip *cs_next;
};
void cs_gpio_chip_add(struct cs_gpio_chip *chip);
void cs_gpio_chip_remove(struct cs_gpio_chip *chip);

#endif
