/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux/regulator/consumer.h (chargesim) - no regulator framework (see driver.h). */
#ifndef CS_LINUX_REGULATOR_CONSUMER_H
#define CS_LINUX_REGULATOR_CONSUMER_H

#include <linux/regulator/driver.h>

struct regulator;

#endif
