/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/fs.h (chargesim) - no file system here: what its includers also expect (devices). */
#ifndef CS_LINUX_FS_H
#define CS_LINUX_FS_H

#include <linux/device.h>

#endif
