/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/export.h (chargesim) - symbol exports: every function is visible here. */
#ifndef CS_LINUX_EXPORT_H
#define CS_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym) _Static_assert(1, "")
#define EXPORT_SYMBOL_GPL(sym) _Static_assert(1, "")
#define EXPORT_SYMBOL_NS_GPL(sym, ns) _Static_assert(1, "")

#endif
