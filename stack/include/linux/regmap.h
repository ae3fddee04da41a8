/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/regmap.h (chargesim) - register maps over I2C, with the kernel's cache and
 * register-field semantics.
 *
 * A map reads and writes 8-bit registers of an I2C client through SMBus byte
 * transfers (the chip model's register functions behind the adapter). With a cache
 * (any cache_type but REGCACHE_NONE) a register that is not volatile is read from the
 * chip once and then served from the cache; writes go to the chip and the cache, and
 * update_bits skips a write that changes nothing - so a driver sees exactly the stale
 * values a real regmap would give it. Register fields (REG_FIELD) are masks within
 * one register. Polling helpers count their sleeps against the timeout without
 * advancing virtual time (linux/delay.h).
 */
#ifndef CS_LINUX_REGMAP_H
#define CS_LINUX_REGMAP_H

#include <linux/kernel_types.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>

struct i2c_client;
struct regmap;
struct regmap_field;

struct reg_field {
	unsigned int reg;
	unsigned int lsb;
	unsigned int msb;
};

#define REG_FIELD(_reg, _lsb, _msb) { .reg = (_reg), .lsb = (_lsb), .msb = (_msb) }

struct regmap_range {
	unsigned int range_min;
	unsigned int range_max;
};

#define regmap_reg_range(low, high) { .range_min = (low), .range_max = (high), }

struct regmap_access_table {
	const struct regmap_range *yes_ranges;
	unsigned int n_yes_ranges;
	const struct regmap_range *no_ranges;
	unsigned int n_no_ranges;
};

enum regcache_type {
	REGCACHE_NONE,
	REGCACHE_RBTREE,
	REGCACHE_FLAT,
	REGCACHE_MAPLE,
};

struct reg_default {
	unsigned int reg;
	unsigned int def;
};

struct regmap_config {
	const char *name;
	int reg_bits;
	int val_bits;
	bool (*writeable_reg)(struct device *dev, unsigned int reg);
	bool (*readable_reg)(struct device *dev, unsigned int reg);
	bool (*volatile_reg)(struct device *dev, unsigned int reg);
	unsigned int max_register;
	const struct regmap_access_table *wr_table;
	const struct regmap_access_table *rd_table;
	const struct regmap_access_table *volatile_table;
	const struct reg_default *reg_defaults;
	unsigned int num_reg_defaults;
	enum regcache_type cache_type;
};

struct regmap *regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config);
struct regmap *devm_regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config);
void regmap_exit(struct regmap *map);

int regmap_read(struct regmap *map, unsigned int reg, unsigned int *val);
int regmap_write(struct regmap *map, unsigned int reg, unsigned int val);
int regmap_update_bits_base(struct regmap *map, unsigned int reg, unsigned int mask,
			    unsigned int val, bool *change, bool async, bool force);

static inline int regmap_update_bits(struct regmap *map, unsigned int reg, unsigned int mask,
				     unsigned int val)
{
	return regmap_update_bits_base(map, reg, mask, val, NULL, false, false);
}

/* fields */
struct regmap_field *regmap_field_alloc(struct regmap *regmap, struct reg_field reg_field);
void regmap_field_free(struct regmap_field *field);
int devm_regmap_field_bulk_alloc(struct device *dev, struct regmap *regmap,
				 struct regmap_field **field, const struct reg_field *reg_field,
				 int num_fields);
int regmap_field_read(struct regmap_field *field, unsigned int *val);
int regmap_field_update_bits_base(struct regmap_field *field, unsigned int mask,
				  unsigned int val, bool *change, bool async, bool force);
static inline int regmap_field_write(struct regmap_field *field, unsigned int val)
{
	return regmap_field_update_bits_base(field, ~0u, val, NULL, false, false);
}

/* Interrupt chips behind a register map (regmap-irq): the board maps each of the
 * chip's interrupt bits (hwirq) to an interrupt line a driver can request. */
struct regmap_irq_chip_data;
int regmap_irq_get_virq(struct regmap_irq_chip_data *data, int irq);
/* chargesim: the board side */
struct regmap_irq_chip_data *cs_regmap_irq_chip_new(const int *hwirqs, const int *virqs, int n);
void cs_regmap_irq_chip_free(struct regmap_irq_chip_data *data);

/* Poll until cond holds or timeout_us worth of sleep_us sleeps have been counted
 * (virtual time does not advance: see linux/delay.h); 0 or -ETIMEDOUT, or the read's
 * error. The last value read is left in val. */
#define cs_regmap_poll(readop, val, cond, sleep_us, timeout_us) ({ \
	/* no timeout: at most 1 s of sleeps, or a poll of a register that only time \
	 * would change never ends */ \
	unsigned long __cs_left = (timeout_us) ? (unsigned long)(timeout_us) : 1000000UL; \
	unsigned long __cs_step = (sleep_us) > 0 ? (unsigned long)(sleep_us) : 1UL; \
	int __cs_ret; \
	for (;;) { \
		__cs_ret = (readop); \
		if (__cs_ret < 0 || (cond)) \
			break; \
		if (__cs_left == 0) { \
			__cs_ret = (readop); \
			if (__cs_ret >= 0) \
				__cs_ret = (cond) ? 0 : -ETIMEDOUT; \
			break; \
		} \
		if (sleep_us) \
			cs_sleep_us((unsigned long)(sleep_us), __func__); \
		__cs_left = __cs_left > __cs_step ? __cs_left - __cs_step : 0; \
	} \
	__cs_ret < 0 ? __cs_ret : 0; })
#define regmap_field_read_poll_timeout(field, val, cond, sleep_us, timeout_us) \
	cs_regmap_poll(regmap_field_read((field), &(val)), val, cond, sleep_us, timeout_us)

#endif
