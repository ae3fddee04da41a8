#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_expect_for.sh - expectations that say which policies they are for
# (docs/scenarios.md section 9, "for").
#
# Usage (from the repository root): tests/test_expect_for.sh build/chargesim
#
# An expectation with "for" is checked only in runs of the policies it names; one
# without is held against every policy. The bug zoo's fingerprints, golden traces and
# the symptoms of a port's bug are "for" that port (and for the real driver where it
# has the same bug), its requirements (no trips, VBUS kept up) for every policy. So
# `--policy linux/...` on a bug-zoo scenario passes or fails on what means something
# for the driver: the real twl4030_charger.c shows bug zoo 1 (the symptoms hold) and
# fails the fixed scenario's VBUS requirement with its 263.2 s below 4.75 V. The
# counts of the checked and the skipped are worked out here from the files.
set -u

. "$(dirname "$0")/lib.sh"
tl_init expfor "${1:-build/chargesim}" scenarios/bugzoo

# counts SCENARIO POLICY: "HELD_OR_FAILED OTHER" from the file's "for" members
counts() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = o = 0
for e in d["expect"]:
    f = e.get("for")
    if f is None or sys.argv[2] in ([f] if isinstance(f, str) else f):
        n += 1
    else:
        o += 1
print(n, o)
PY
}

zoo=scenarios/bugzoo/twl4030-full-battery.json
fix=scenarios/bugzoo/twl4030-full-battery-safe-ramp.json

# ---- every bug-zoo scenario says who its behaviour expectations are for ----
bad=$(python3 - <<'PY'
import glob, json
for f in sorted(glob.glob("scenarios/bugzoo/*.json")):
    d = json.load(open(f))
    p = d["policy"] if isinstance(d["policy"], str) else d["policy"].get("name")
    for i, e in enumerate(d["expect"]):
        f_ = e.get("for")
        names = [f_] if isinstance(f_, str) else (f_ or [])
        if ("fingerprint" in e or "golden" in e) and p not in names:
            print("%s: expect[%d] records %s's events but is not \"for\" it" % (f, i, p))
PY
)
if [ -z "$bad" ]; then ok "every bug-zoo fingerprint and golden trace is \"for\" its scenario's policy"
else not_ok "bug-zoo fingerprints and goldens have their \"for\"" "$bad"; fi

# ---- its own policy: every expectation checked, as before ----
run own run "$zoo" -o "$TMP/own"
expect_status "bug zoo 1 under its own policy" 0
set -- $(counts "$zoo" twl4030)
expect_in "... every expectation checked ($1)" out "  expectations: $1 held, 0 failed"
check "... the summary names no skipped ones" sh -c "! grep -q 'for other policies' '$TMP/own.out'"

# ---- another built-in policy: the port's behaviour is not its to show ----
run fx run "$zoo" --policy fixed -o "$TMP/fx"
set -- $(counts "$zoo" fixed)
expect_status "bug zoo 1 under --policy fixed: nothing of twl4030's checked, nothing fails" 0
expect_in "... the summary counts the $2 skipped" out "  expectations: $1 held, 0 failed; $2 for other policies not checked"

# ---- the fixed scenario's requirements are every policy's: fixed at 0.5 A keeps VBUS
# up on the 1.1 A adapter, fixed at its 1.5 A default pulls it into current limit ----
run fx2 run "$fix" --policy fixed:ilim=0.5A -o "$TMP/fx2"
set -- $(counts "$fix" fixed)
expect_status "safe-ramp's scenario under --policy fixed:ilim=0.5A: its requirements hold" 0
expect_in "... $1 checked, $2 (safe-ramp's own) skipped" out "  expectations: $1 held, 0 failed; $2 for other policies not checked"
run fx3 run "$fix" --policy fixed -o "$TMP/fx3"
expect_status "... under fixed at 1.5 A: the VBUS requirement fails" 1
expect_stderr "... named" "FAILED: metric time_below_4v75_s <= 5 s"

run list list policies
if ! grep -q '^linux/twl4030_charger ' "$TMP/list.out"; then
	for c in "bug zoo 1 with the real driver" "the fixed scenario with the real driver" "bug zoo 8 with the real driver"; do
		skip "$c" "this build has no real Linux drivers (linux-source-6.12 is not installed)"
	done
	tl_finish
	exit $?
fi

# ---- the real driver: bug zoo 1's symptoms are its own too (it climbs to 1.7 A on the
# 1.1 A adapter), its fingerprints and golden trace are the port's ----
run lx run "$zoo" --policy linux/twl4030_charger -o "$TMP/lx"
set -- $(counts "$zoo" linux/twl4030_charger)
expect_status "bug zoo 1 with linux/twl4030_charger: the symptoms hold" 0
expect_in "... $1 checked, $2 (the port's event fingerprints, golden trace) skipped" out \
	"  expectations: $1 held, 0 failed; $2 for other policies not checked"
check "... the symptoms were among the checked (5 of them)" test "$1" -eq 5
# ---- ... and fails the fixed scenario's requirement: a signal, not a mismatch ----
run lxf run "$fix" --policy linux/twl4030_charger -o "$TMP/lxf"
expect_status "safe-ramp's scenario with linux/twl4030_charger: a requirement fails" 1
expect_stderr "... VBUS below 4.75 V for 263.2 s (the bug), not a fingerprint" \
	"FAILED: metric time_below_4v75_s <= 5 s (got 263.2"
check "... and no fingerprint failed" sh -c "! grep -q 'FAILED: fingerprint' '$TMP/lxf.err'"
for r in lx lxf; do
	check "docs/scenarios.md quotes the summary's line of the $r run as it prints" \
		grep -qxF "$(grep '^  expectations' "$TMP/$r.out")" docs/scenarios.md
done
# ---- bug zoo 8: the real driver too leaves the charger latched off after the dip ----
run lxd run scenarios/bugzoo/twl4030-vbus-dip.json --policy linux/twl4030_charger -o "$TMP/lxd"
expect_status "bug zoo 8 with linux/twl4030_charger: the charger stays in UVLO at 30 min" 0
run lxdf run scenarios/bugzoo/twl4030-vbus-dip-safe-ramp.json --policy linux/twl4030_charger -o "$TMP/lxdf"
expect_status "... and the fixed scenario's requirement that charging resumes fails" 1
expect_stderr "... at 30 min the charger is still in UVLO" 'FAILED: signal charger_state at 30 min != uvlo (got uvlo)'

tl_finish
