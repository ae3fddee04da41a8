#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_determinism.sh - the same inputs give the same bytes.
#
# Runs every scenario of the library twice (scripts/same-outputs.sh with this binary
# as both builds) and compares every output file and the exit status byte for byte;
# then runs `check` with -j 1 and -j 2 and compares every output file of the two.
# Usage: tests/test_determinism.sh build/chargesim
set -u
. "$(dirname "$0")/lib.sh"
tl_init determinism "${1:-build/chargesim}" scenarios/demo.json
cs=$BIN tmp=$TMP

if scripts/same-outputs.sh "$cs" "$cs" scenarios >"$tmp/twice.out" 2>&1; then
	ok "$(tail -n 1 "$tmp/twice.out" | cut -d' ' -f1) scenarios run twice give byte-identical outputs"
else
	not_ok "scenarios run twice differ" "$(cat "$tmp/twice.out")"
fi

"$cs" check scenarios -j 1 -o "$tmp/j1" -q >/dev/null 2>&1
"$cs" check scenarios -j 2 -o "$tmp/j2" -q >/dev/null 2>&1
if diff -r "$tmp/j1" "$tmp/j2" >/dev/null; then
	ok "check -j 1 and -j 2 write identical outputs ($(find "$tmp/j1" -type f | wc -l) files)"
else
	not_ok "check -j 1 and -j 2 outputs differ" "$(diff -rq "$tmp/j1" "$tmp/j2" | head -3)"
fi
tl_finish
