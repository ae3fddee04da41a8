#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_safe_ramp_cable.sh - the figures docs/safe-ramp.md quotes for safe-ramp on
# a cable that degrades mid-charge (issue 39, item 5; R4 "The source line moves"):
# scenarios/policies/cable-degrades-ladder.json and cable-degrades-held-rung.json run
# for their 3 h under safe-ramp and under a fixed 1.5 A limit.
#
# Usage (from the repository root): tests/test_safe_ramp_cable.sh build/chargesim
#
# What the figures must show, worked out by hand: on the ladder scenario the new
# 0.75 ohm path lets the bq24190's own VINDPM (4.36 V) hold the input at
# (5.1 - 4.36) / 0.75 = 0.987 A, under the adapter's 1.0 A wall, above the 0.4 A load:
# no brownout, and the input limit never on the 0.15 A rung after the first seconds
# of the run. On the held-rung scenario 0.9 A flows at 4.695 V on the new 0.45 ohm
# path: the limit never goes back to the 0.5 A rung.
set -u

. "$(dirname "$0")/lib.sh"
tl_init safe-ramp-cable "${1:-build/chargesim}" scenarios/policies/cable-degrades-ladder.json

# rung_s DIR AMPS: seconds after the first minute with the input limit at AMPS (trace.csv)
rung_s() {
	awk -F, -v a="$2" 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
		{ if (on) s += $c["time_s"] - t; t = $c["time_s"];
		  on = t >= 60 && $c["ilim_A"] + 0 == a + 0 }
		END { printf "%.1f\n", s }' "$1/trace.csv"
}

for sc in ladder:68.9:69.4 held-rung:70.8:70.6; do
	n=${sc%%:*}
	rest=${sc#*:}
	sr=${rest%%:*}
	fx=${rest#*:}
	f=scenarios/policies/cable-degrades-$n.json
	run "sr-$n" run "$f" -o "$TMP/sr-$n"
	expect_status "$n: safe-ramp meets the scenario's expectations" 0
	expect_in "$n: safe-ramp ends at $sr %" out "SOC 7.0 % -> $sr %"
	expect_in "$n: safe-ramp: no trip, UVLO or brownout" out \
		"source trips 0, UVLO events 0, brownouts 0"
	run "fx-$n" run "$f" --policy fixed:ilim=1.5A -o "$TMP/fx-$n"
	expect_in "$n: a fixed 1.5 A limit ends at $fx %" out "SOC 7.0 % -> $fx %"
done
t=$(rung_s "$TMP/sr-ladder" 0.15)
check "ladder: never on the 0.15 A rung after the first minute (got $t s)" [ "$t" = "0.0" ]
t=$(rung_s "$TMP/sr-held-rung" 0.5)
check "held-rung: on the 0.5 A rung at most 0.1 s after the first minute (got $t s)" \
	[ "$(echo "$t <= 0.1" | bc)" = 1 ]

tl_finish
