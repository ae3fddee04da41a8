#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_budget.sh - the port's budget in what a user reads (issue 38, item 3):
# the run summary's "! OVER BUDGET" flag and its figures, and the VBUS floor the
# summary names for a 5 V and a 9 V contract.
#
# Usage (from the repository root): tests/test_budget.sh build/chargesim
#
# The figures, worked out by hand (docs/models.md, "Budget: what the port allows"):
# on scenarios/ports/laptop-suspend.json, fixed keeps 500 mA through the 10 min
# suspend, whose allowance is 2.5 mA, less the 10 ms a device has to follow it, and
# draws 500 mA against one unit load (100 mA) for the 61 ms between the charger's
# connect (100 ms) and the host's configuration (161 ms):
#   (0.061 * 0.4 + 599.99 * 0.4975) / 3.6 = 82.92 mAh over 600.051 s ("10.0 min").
# safe-ramp on that port (a bq25890, EN_HIZ) takes the input off: no flag.
set -u

. "$(dirname "$0")/lib.sh"
tl_init budget "${1:-build/chargesim}" scenarios/ports/laptop-suspend.json

# metric DIR KEY: a number of DIR/metrics.json
metric() {
	sed -n "s/^[[:space:]]*\"$2\":[[:space:]]*\\([^,]*\\),\\{0,1\\}\$/\\1/p" "$1/metrics.json"
}

run fixed run scenarios/ports/laptop-suspend.json --policy fixed -o "$TMP/fixed"
expect_status "laptop port, fixed: a flag changes no exit status (its expectations fail)" 1
expect_in "fixed through a suspend: flagged with the excess and its time" out \
	"! OVER BUDGET: drew 82.9 mAh more than the port allowed, for 10.0 min"
check "fixed: over_budget_s = 600.051 s (metrics.json)" \
	awk -v v="$(metric "$TMP/fixed" over_budget_s)" 'BEGIN { exit !(v > 600.05 && v < 600.052) }'
check "fixed: over_budget_mAh = 82.92 mAh (metrics.json)" \
	awk -v v="$(metric "$TMP/fixed" over_budget_mAh)" 'BEGIN { exit !(v > 82.91 && v < 82.93) }'

run sr run scenarios/ports/laptop-suspend.json -o "$TMP/sr"
expect_status "laptop port, safe-ramp: its expectations hold" 0
check "safe-ramp: no OVER BUDGET flag" sh -c "! grep -q 'OVER BUDGET' '$TMP/sr.out'"
check "safe-ramp: over_budget_s 0" test "$(metric "$TMP/sr" over_budget_s)" = 0
check "safe-ramp: the input off for the suspend (input_enable false at 600 s)" \
	grep -q '"t":600,"src":"stack","ev":"input_enable","on":"false"' "$TMP/sr/events.jsonl"
check "trace.csv has the budget_A column" sh -c "head -1 '$TMP/sr/trace.csv' | grep -q ',budget_A'"

run ico run scenarios/policies/pd-9v-2a22-hw-ico.json -o "$TMP/ico"
expect_status "hw-ico on a 2.22 A PD contract: its expectations hold" 0
expect_in "hw-ico above the contract: flagged" out "! OVER BUDGET: drew "
run icosr run scenarios/policies/pd-9v-2a22-hw-ico.json --policy safe-ramp -o "$TMP/icosr"
check "safe-ramp on the contract: no flag" sh -c "! grep -q 'OVER BUDGET' '$TMP/icosr.out'"

# the floor of the summary: 95 % of the negotiated voltage, 4.75 V at 5 V
expect_in "safe-ramp under 9 V: the floor is 8.55 V, said as such" out \
	"never below 95 % of the negotiated voltage (4.75 V at 5 V, 8.55 V at 9 V)"
# compare's table: the budget figures per policy (fixed's as above)
run cmp compare scenarios/ports/laptop-suspend.json --policy fixed --policy safe-ramp -o "$TMP/cmp"
check "compare: an over budget [mAh] row, fixed 82.92, safe-ramp 0.00" \
	grep -E -q '^over budget \[mAh\] +82\.92 +0\.00$' "$TMP/cmp.out"
check "compare: an over budget [s] row, fixed 600.1, safe-ramp 0.0" \
	grep -E -q '^over budget \[s\] +600\.1 +0\.0$' "$TMP/cmp.out"

run demo run scenarios/demo.json -o "$TMP/demo"
expect_in "a 5 V run keeps its words: below 4.75 V" out " below 4.75 V; source trips"
check "vbus_negotiated_V is 5 V at 5 V" test "$(metric "$TMP/demo" vbus_negotiated_V)" = 5

tl_finish
