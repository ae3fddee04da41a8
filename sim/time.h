/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim/time.h - virtual time.
 *
 * All simulated time is an int64 count of nanoseconds since the start of the run
 * (sim_time_t). 2^63 ns is 292 years, so overflow is not a practical concern, but
 * conversions from user-supplied seconds saturate rather than wrap. Nothing here (or
 * anywhere under sim/, models/, stack/) reads the wall clock.
 */
#ifndef CS_SIM_TIME_H
#define CS_SIM_TIME_H

#include <stdint.h>
#include <math.h>

typedef int64_t sim_time_t;

#define SIM_NS   ((sim_time_t)1)
#define SIM_US   ((sim_time_t)1000)
#define SIM_MS   ((sim_time_t)1000000)
#define SIM_S    ((sim_time_t)1000000000)
#define SIM_MIN  (60 * SIM_S)
#define SIM_HOUR (3600 * SIM_S)
#define SIM_TIME_NEVER INT64_MAX

static inline double sim_time_to_s(sim_time_t t)
{
	return (double)t * 1e-9;
}

/* Seconds to nanoseconds, rounded to nearest, saturating at +/-SIM_TIME_NEVER. */
static inline sim_time_t sim_time_from_s(double s)
{
	double ns = s * 1e9;
	if (!(ns < 9.2e18))
		return SIM_TIME_NEVER;
	if (ns < -9.2e18)
		return -SIM_TIME_NEVER;
	return (sim_time_t)llround(ns);
}

#endif
