/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linux/moduleparam.h (chargesim) - module parameters become parameters of the
 * driver's policy ("linux/<file>"): a scenario sets them under "policy": {"params":
 * {...}} as a kernel command line sets <module>.<param>=<value>, and `chargesim list
 * policies` shows them with their MODULE_PARM_DESC text. Each run starts from the
 * values the file initialised them with.
 */
#ifndef CS_LINUX_MODULEPARAM_H
#define CS_LINUX_MODULEPARAM_H

#include <linux/kernel_types.h>
#include <chargesim/linux_module.h>

/* The C type each parameter type needs (the kernel's param_check_<type>). */
typedef bool cs_kparam_ctype_bool;
typedef bool cs_kparam_ctype_invbool;
typedef unsigned char cs_kparam_ctype_byte;
typedef short cs_kparam_ctype_short;
typedef unsigned short cs_kparam_ctype_ushort;
typedef int cs_kparam_ctype_int;
typedef unsigned int cs_kparam_ctype_uint;
typedef long cs_kparam_ctype_long;
typedef unsigned long cs_kparam_ctype_ulong;
typedef unsigned int cs_kparam_ctype_hexint;
typedef char *cs_kparam_ctype_charp;

/* The type token is pasted before anything expands it (bool is a macro). */
#define __cs_module_param(pname, var, ctype, ktype, mode) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(var), ctype), \
		       "module_param " #pname ": the variable's type does not match"); \
	__CS_MODINFO(.modname = KBUILD_MODNAME, .kind = CS_MODINFO_PARAM, .name = #pname, \
		     .type = ktype, .arg = &(var), .size = sizeof(var), .perm = (mode))
#define module_param(pname, type, mode) \
	__cs_module_param(pname, pname, cs_kparam_ctype_##type, CS_KPARAM_##type, mode)
#define MODULE_PARM_DESC(pname, desc) \
	__CS_MODINFO(.modname = KBUILD_MODNAME, .kind = CS_MODINFO_PARM_DESC, .name = #pname, \
		     .text = (desc))

#endif
