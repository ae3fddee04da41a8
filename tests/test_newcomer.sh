#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_newcomer.sh - a newcomer's first hour (issue 16), replayed: the three
# scenarios of tests/newcomer/, written from docs/scenarios.md alone, run, compared
# and plotted the way the README shows, and what the person was left to find out by
# themselves checked against what chargesim now says.
#
# Usage (from the repository root): tests/test_newcomer.sh build/chargesim
#
# The physics behind each check is worked out by hand in the comments: an 800 mA load
# on a port configured for 500 mA discharges the battery; a PD 9 V contract puts VBUS
# near 9 V, so 4.75 V is the wrong floor. Prints "ok - ..." or "not ok - ..." per check
# and exits non-zero when any failed. The plot checks are skipped without gnuplot.
set -u

. "$(dirname "$0")/lib.sh"
N=tests/newcomer
tl_init newcomer "${1:-build/chargesim}" "$N/laptop-gadget.json"
HAVE_GNUPLOT=1
command -v gnuplot >/dev/null 2>&1 || HAVE_GNUPLOT=0

# metric DIR KEY: a number of DIR/metrics.json
metric() {
	sed -n "s/^[[:space:]]*\"$2\":[[:space:]]*\\([^,]*\\),\\{0,1\\}\$/\\1/p" "$1/metrics.json"
}

# ---- the laptop port: the phone starves, the expectation fails ----

# 500 mA at 5 V is 2.5 W in, 800 mA at 3.8 V is 3 W out: the battery makes up the rest
# for the whole hour, and the expectation that it gains must fail.
run laptop run "$N/laptop-gadget.json" -o "$TMP/laptop"
expect_status "laptop port: the failed expectation exits 1" 1
expect_stderr "laptop port: why it failed is on stderr" "laptop-gadget.json: FAILED: metric soc_final > 50 % (got 34.9"
expect_in "laptop port: the summary flags the starving" out "! STARVED: the battery discharged for"
expect_in "laptop port: and says the SOC fell" out "; SOC fell 50.0 % -> "
check "laptop port: SOC really fell (metrics.json)" \
	awk -v a="$(metric "$TMP/laptop" soc_initial)" -v b="$(metric "$TMP/laptop" soc_final)" 'BEGIN { exit !(b < a) }'
run laptopq run "$N/laptop-gadget.json" -o "$TMP/laptop" --quiet
expect_status "laptop port --quiet: exit 1" 1
check "laptop port --quiet: nothing on stdout" test ! -s "$TMP/laptopq.out"
expect_stderr "laptop port --quiet: the reason still on stderr" "FAILED: metric soc_final > 50 % (got 34.9"

# ---- the phone on Type-C: 3 h, safe-ramp polling every 100 ms ----

run phone run "$N/phone-typec.json" -o "$TMP/phone"
expect_status "phone on Type-C" 0
expect_in "phone: 3 h said in hours" out ": 3.00 h simulated in "
expect_in "phone: SOC 80 % not reached, said plainly" out "; 80 % not reached; full not reached"
check "phone: no number in the summary written with an exponent" sh -c \
	"! sed 's/energy balance error [^;]*;//' '$TMP/phone.out' | grep -E -q '[0-9]e[-+]?[0-9]'"

if [ "$HAVE_GNUPLOT" -eq 1 ]; then
	run phoneplot run "$N/phone-typec.json" -o "$TMP/phone" --plot -q
	expect_status "phone: run --plot" 0
	rows=$(wc -l <"$TMP/phone/trace.csv")
	svg=$(wc -c <"$TMP/phone/plot.svg")
	check "phone: $rows trace rows plot as an SVG of $svg bytes (was 7.9 MB; under 300 kB)" \
		test "$svg" -lt 300000
	# running again without --plot must not leave that picture behind
	run phoneagain run "$N/phone-typec.json" -o "$TMP/phone"
	check "phone: a run without --plot removes the old plot" test ! -e "$TMP/phone/plot.svg"
else
	skip "phone: plot size" "gnuplot is not installed"
fi

# ---- the PD 9 V source ----

run pd run "$N/pd-9v.json" -o "$TMP/pd" --plot -q
if [ "$HAVE_GNUPLOT" -eq 1 ]; then
	expect_status "PD 9 V: run --plot" 0
	check "PD 9 V: the plot shows the contract" grep -q "<text>PD contract</text>" "$TMP/pd/plot.svg"
	check "PD 9 V: and not the 5 V contract's 4.75 V floor" \
		sh -c "! grep -q '4.75 V (USB minimum)' '$TMP/pd/plot.svg'"
	check "PD 9 V: panel (b) has the battery current" grep -q "<text>battery current (ibat_A)</text>" "$TMP/pd/plot.svg"
else
	skip "PD 9 V: the plot" "gnuplot is not installed"
fi

# ---- compare, the README's way, with every built-in ramp ----

run cmp compare "$N/pd-9v.json" --policy fixed --policy none --policy axp288 -o "$TMP/cmp" --plot -q
if [ "$HAVE_GNUPLOT" -eq 1 ]; then
	expect_status "compare fixed, none, axp288" 0
	# none and axp288 both leave the charger's 500 mA: the same trace, told apart
	if cmp -s "$TMP/cmp/none/trace.csv" "$TMP/cmp/axp288/trace.csv"; then
		check "compare: identical runs say so" grep -q "<text>axp288: the same trace and states as none" "$TMP/cmp/plot.svg"
		check "compare: one line and one band row for them" sh -c \
			"grep -q '<text>[^<]*none = axp288</text>' '$TMP/cmp/plot.svg' &&
			 grep -q '<text>[^<]*none=axp288</text>' '$TMP/cmp/plot.svg'"
	else
		not_ok "compare: none and axp288 should run alike at 500 mA"
	fi
else
	skip "compare --plot" "gnuplot is not installed"
fi

# ---- the README's brute-force line, pasted: it warns before writing half a gigabyte ----

tl_interrupt 'grep -q warning "$TMP/brute.err" 2>/dev/null' "$TMP/brute.err" \
	"$BIN" run "$N/phone-typec.json" -o "$TMP/brute" -q --max-step 1ms
name=brute
expect_stderr "--max-step 1ms over 3 h: a warning with the size (10.8 million rows)" "writes about 11 million trace rows"
expect_stderr "--max-step: the way out" "add --trace-dt 1s"

# ---- --help ----

run help run --help
check "run --help: \"Usage: chargesim run\"" grep -q "^  chargesim run \[OPTION\.\.\.\]" "$TMP/help.out"

tl_finish
