// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack/policies/none.c - no policy at all: the charger IC keeps its reset values.
 *
 * What a device charges at when no driver manages the input limit (a driver that
 * failed to probe, a board without one). Also the baseline for model tests, where
 * only the hardware's own behaviour should show.
 */
#include <chargesim/policy.h>

static int none_probe(const struct cs_policy_desc *desc, struct cs_board *board, void *params,
		      void **priv)
{
	(void)desc;
	(void)board;
	(void)params;
	*priv = NULL;
	return 0;
}

const struct cs_policy_desc policy_none = {
	.abi = CS_POLICY_ABI,
	.name = "none",
	.summary = "no policy: the charger IC keeps its reset input limit and charges on its own",
	.probe = none_probe,
};
