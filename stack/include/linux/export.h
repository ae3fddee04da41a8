/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/export.h (chargesim) - one program, no module symbol table: exports are no-ops. */
#ifndef CS_LINUX_EXPORT_H
#define CS_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym) extern int cs_export_semicolon
#define EXPORT_SYMBOL_GPL(sym) extern int cs_export_semicolon

#endif
