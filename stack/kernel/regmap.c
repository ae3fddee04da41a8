// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/kernel/regmap.c - register maps over I2C with the kernel's cache rules and
 * register fields (see linux/regmap.h).
 */
#include <glib.h>
#include <linux/i2c.h>
#include <linux/regmap.h>
#include <linux/slab.h>

struct regmap {
	struct device *dev;
	struct i2c_client *client;
	struct regmap_config cfg;
	bool cached;
	unsigned int *cache;       /* max_register + 1 values */
	bool *valid;
};

struct regmap_field {
	struct regmap *map;
	unsigned int reg;
	unsigned int mask;
	unsigned int shift;
};

static bool in_table(const struct regmap_access_table *t, unsigned int reg)
{
	for (unsigned int i = 0; i < t->n_no_ranges; i++)
		if (reg >= t->no_ranges[i].range_min && reg <= t->no_ranges[i].range_max)
			return false;
	if (!t->n_yes_ranges)
		return true;
	for (unsigned int i = 0; i < t->n_yes_ranges; i++)
		if (reg >= t->yes_ranges[i].range_min && reg <= t->yes_ranges[i].range_max)
			return true;
	return false;
}

/* May reg be read (written): up to max_register, then the driver's callback, else its
 * table, else yes. */
static bool reg_allowed(const struct regmap *map, unsigned int reg,
			bool (*cb)(struct device *dev, unsigned int reg),
			const struct regmap_access_table *t)
{
	if (map->cfg.max_register && reg > map->cfg.max_register)
		return false;
	if (cb)
		return cb(map->dev, reg);
	return !t || in_table(t, reg);
}

static bool reg_volatile(const struct regmap *map, unsigned int reg)
{
	if (!map->cached)
		return true;
	if (map->cfg.volatile_reg)
		return map->cfg.volatile_reg(map->dev, reg);
	if (map->cfg.volatile_table)
		return in_table(map->cfg.volatile_table, reg);
	return false;
}

static struct regmap *regmap_new(struct i2c_client *i2c, const struct regmap_config *config)
{
	struct regmap *map;

	if (config->reg_bits != 8 || config->val_bits != 8) {
		dev_err(&i2c->dev, "regmap: %d-bit registers of %d bits are not supported here (8/8 only)",
			config->reg_bits, config->val_bits);
		return ERR_PTR(-ENOTSUPP);
	}
	map = g_new0(struct regmap, 1);
	map->dev = &i2c->dev;
	map->client = i2c;
	map->cfg = *config;
	map->cached = config->cache_type != REGCACHE_NONE;
	if (map->cached) {
		unsigned int n = (config->max_register ? config->max_register : 0xff) + 1;

		map->cache = g_new0(unsigned int, n);
		map->valid = g_new0(bool, n);
		for (unsigned int i = 0; i < config->num_reg_defaults; i++) {
			unsigned int r = config->reg_defaults[i].reg;

			if (r < n) {
				map->cache[r] = config->reg_defaults[i].def;
				map->valid[r] = true;
			}
		}
	}
	return map;
}

struct regmap *regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config)
{
	return regmap_new(i2c, config);
}

void regmap_exit(struct regmap *map)
{
	if (IS_ERR_OR_NULL(map))
		return;
	g_free(map->cache);
	g_free(map->valid);
	g_free(map);
}

static void devm_regmap_release(struct device *dev, void *res)
{
	(void)dev;
	regmap_exit(*(struct regmap **)res);
}

struct regmap *devm_regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config)
{
	struct regmap **r = devres_alloc(devm_regmap_release, sizeof(*r), GFP_KERNEL);
	struct regmap *map;

	if (!r)
		return ERR_PTR(-ENOMEM);
	map = regmap_new(i2c, config);
	if (IS_ERR(map)) {
		devres_free(r);
		return map;
	}
	*r = map;
	devres_add(&i2c->dev, r);
	return map;
}

static int hw_read(struct regmap *map, unsigned int reg, unsigned int *val)
{
	s32 v = i2c_smbus_read_byte_data(map->client, (u8)reg);

	if (v < 0)
		return v;
	*val = (unsigned int)v;
	return 0;
}

static int hw_write(struct regmap *map, unsigned int reg, unsigned int val)
{
	return i2c_smbus_write_byte_data(map->client, (u8)reg, (u8)val);
}

int regmap_read(struct regmap *map, unsigned int reg, unsigned int *val)
{
	int ret;

	if (!reg_allowed(map, reg, map->cfg.readable_reg, map->cfg.rd_table))
		return -EIO;
	if (!reg_volatile(map, reg) && map->valid[reg]) {
		*val = map->cache[reg];
		return 0;
	}
	ret = hw_read(map, reg, val);
	if (ret == 0 && !reg_volatile(map, reg)) {
		map->cache[reg] = *val;
		map->valid[reg] = true;
	}
	return ret;
}

int regmap_write(struct regmap *map, unsigned int reg, unsigned int val)
{
	if (!reg_allowed(map, reg, map->cfg.writeable_reg, map->cfg.wr_table))
		return -EIO;
	if (map->cached && !reg_volatile(map, reg)) {
		map->cache[reg] = val & 0xff;
		map->valid[reg] = true;
	}
	return hw_write(map, reg, val & 0xff);
}

int regmap_update_bits_base(struct regmap *map, unsigned int reg, unsigned int mask,
			    unsigned int val, bool *change, bool async, bool force)
{
	unsigned int orig, tmp;
	int ret;

	(void)async;
	if (change)
		*change = false;
	ret = regmap_read(map, reg, &orig);
	if (ret)
		return ret;
	tmp = (orig & ~mask) | (val & mask);
	if (!force && tmp == orig)
		return 0;   /* regmap skips a write that changes nothing */
	ret = regmap_write(map, reg, tmp);
	if (ret == 0 && change)
		*change = true;
	return ret;
}

/* ---- fields ---- */

struct regmap_field *regmap_field_alloc(struct regmap *regmap, struct reg_field reg_field)
{
	struct regmap_field *f = g_new0(struct regmap_field, 1);

	f->map = regmap;
	f->reg = reg_field.reg;
	f->shift = reg_field.lsb;
	f->mask = (unsigned int)GENMASK(reg_field.msb, reg_field.lsb);
	return f;
}

void regmap_field_free(struct regmap_field *field)
{
	g_free(field);
}

static int regmap_field_bulk_alloc(struct regmap *regmap, struct regmap_field **rm_field,
				   const struct reg_field *reg_field, int num_fields)
{
	for (int i = 0; i < num_fields; i++)
		rm_field[i] = regmap_field_alloc(regmap, reg_field[i]);
	return 0;
}

struct bulk_res {
	struct regmap_field **fields;
	int n;
};

static void devm_bulk_release(struct device *dev, void *res)
{
	struct bulk_res *b = res;

	(void)dev;
	for (int i = 0; i < b->n; i++)
		regmap_field_free(b->fields[i]);
}

int devm_regmap_field_bulk_alloc(struct device *dev, struct regmap *regmap,
				 struct regmap_field **field, const struct reg_field *reg_field,
				 int num_fields)
{
	struct bulk_res *b = devres_alloc(devm_bulk_release, sizeof(*b), GFP_KERNEL);

	if (!b)
		return -ENOMEM;
	regmap_field_bulk_alloc(regmap, field, reg_field, num_fields);
	b->fields = field;
	b->n = num_fields;
	devres_add(dev, b);
	return 0;
}

int regmap_field_read(struct regmap_field *field, unsigned int *val)
{
	unsigned int reg_val;
	int ret = regmap_read(field->map, field->reg, &reg_val);

	if (ret)
		return ret;
	*val = (reg_val & field->mask) >> field->shift;
	return 0;
}

int regmap_field_update_bits_base(struct regmap_field *field, unsigned int mask,
				  unsigned int val, bool *change, bool async, bool force)
{
	return regmap_update_bits_base(field->map, field->reg, (mask << field->shift) & field->mask,
				       val << field->shift, change, async, force);
}

/* ---- interrupt chips ---- */

struct regmap_irq_chip_data {
	int n;
	int map[][2];   /* hwirq, virq */
};

struct regmap_irq_chip_data *cs_regmap_irq_chip_new(const int *hwirqs, const int *virqs, int n)
{
	struct regmap_irq_chip_data *d = g_malloc(sizeof(*d) + (size_t)n * sizeof(d->map[0]));

	d->n = n;
	for (int i = 0; i < n; i++) {
		d->map[i][0] = hwirqs[i];
		d->map[i][1] = virqs[i];
	}
	return d;
}

void cs_regmap_irq_chip_free(struct regmap_irq_chip_data *data)
{
	g_free(data);
}

int regmap_irq_get_virq(struct regmap_irq_chip_data *data, int irq)
{
	for (int i = 0; data && i < data->n; i++)
		if (data->map[i][0] == irq)
			return data->map[i][1];
	return -EINVAL;
}
