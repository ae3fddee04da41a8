/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/fmax.h - fmax() inline, for the solver and the stepper, which call it several
 * times per trial step: libm's is a call, and around a call every live floating-point
 * register is saved (the ABI preserves none of them).
 *
 * The result is that of glibc's x86-64 fmax() (sysdeps/x86_64/fpu/s_fmax.S) bit for
 * bit, as tests/test_physics.c checks: the larger of two numbers, y when neither is
 * larger (fmax(+0, -0) is -0), the other argument when one is a NaN, x (quiet) when
 * both are. (GCC may swap the arguments of libm's fmax, which it takes as commutative;
 * none of the callers here can meet the two cases where the order shows, +0 against
 * -0 and two NaNs.)
 */
#ifndef CS_SIM_FMAX_H
#define CS_SIM_FMAX_H

#include <math.h>

static inline double fmax_inline(double x, double y)
{
	if (__builtin_expect(isnan(x) || isnan(y), 0))
		return isnan(x) && isnan(y) ? x + 0.0 : isnan(x) ? y : x;
	return x > y ? x : y;
}

#endif
