/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/module.h (chargesim) - a driver file as a loadable module: module_init /
 * module_exit, the MODULE_* information, THIS_MODULE and module_driver().
 *
 * "Loading" the module is probing its policy: the layer runs the file's init function
 * (which registers its platform or I2C driver, binding it to the devices of the
 * simulated board's device tree) at the start of the run and its exit function at
 * the end (see chargesim/linux_module.h).
 */
#ifndef CS_LINUX_MODULE_H
#define CS_LINUX_MODULE_H

#include <linux/kernel_types.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/mod_devicetable.h>

struct module;
#define THIS_MODULE ((struct module *)0)
/* Modules are never unloaded under a user: a reference always succeeds. */
static inline bool try_module_get(struct module *m)
{
	(void)m;
	return true;
}
static inline void module_put(struct module *m)
{
	(void)m;
}

#ifndef CS_KMODSYM
#define module_init(fn) _Static_assert(0, "module_init: build this file with the Makefile's kernel rule (it defines CS_KMODSYM)");
#else
#define module_init(fn) \
	const struct cs_linux_module __CS_CAT(cs_linux_module_, CS_KMODSYM) = { \
		.file = CS_KFILE, .modname = KBUILD_MODNAME, .init = (fn), .variant = CS_KVARIANT }
#endif
#define module_exit(fn) \
	__CS_MODINFO(.modname = KBUILD_MODNAME, .kind = CS_MODINFO_EXIT, .exit = (fn))
#define late_initcall(fn) module_init(fn)

#define MODULE_DESCRIPTION(d) \
	__CS_MODINFO(.modname = KBUILD_MODNAME, .kind = CS_MODINFO_DESCRIPTION, .text = (d))
#define MODULE_AUTHOR(a) \
	__CS_MODINFO(.modname = KBUILD_MODNAME, .kind = CS_MODINFO_AUTHOR, .text = (a))
#define MODULE_LICENSE(l) \
	__CS_MODINFO(.modname = KBUILD_MODNAME, .kind = CS_MODINFO_LICENSE, .text = (l))
#define MODULE_ALIAS(a) _Static_assert(1, "")
/* The table is what module autoloading reads; here it is only kept referenced. */
#define MODULE_DEVICE_TABLE(type, name) \
	static const void *const __CS_CAT(__cs_devtable_, __COUNTER__) __used = &(name)

/* module_driver(): the init/exit pair that only registers one driver. */
#define module_driver(__driver, __register, __unregister, ...) \
	static int __driver##_init(void) \
	{ \
		return __register(&(__driver), ##__VA_ARGS__); \
	} \
	module_init(__driver##_init); \
	static void __driver##_exit(void) \
	{ \
		__unregister(&(__driver), ##__VA_ARGS__); \
	} \
	module_exit(__driver##_exit)

#endif
