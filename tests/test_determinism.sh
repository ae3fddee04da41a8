#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_determinism.sh - the same inputs give the same bytes.
#
# Runs every scenario of the library twice and compares trace.csv, events.jsonl and
# metrics.json byte for byte; then runs `check` with -j 1 and -j 2 and compares every
# output file of the two. Usage: tests/test_determinism.sh build/chargesim
set -u
. "$(dirname "$0")/lib.sh"
tl_init determinism "${1:-build/chargesim}" scenarios/demo.json
cs=$BIN tmp=$TMP
n=0 differ=0

for f in $(find scenarios -name '*.json' | sort); do
	grep -q '"vary"' "$f" && continue   # sweep files
	n=$((n + 1))
	"$cs" run "$f" -o "$tmp/a" -q >/dev/null 2>&1
	"$cs" run "$f" -o "$tmp/b" -q >/dev/null 2>&1
	for out in trace.csv events.jsonl metrics.json; do
		if ! cmp -s "$tmp/a/$out" "$tmp/b/$out"; then
			not_ok "$f: $out differs between two runs"
			differ=$((differ + 1))
		fi
	done
	rm -rf "$tmp/a" "$tmp/b"
done
[ $differ -eq 0 ] && ok "$n scenarios run twice give byte-identical outputs"

"$cs" check scenarios -j 1 -o "$tmp/j1" -q >/dev/null 2>&1
"$cs" check scenarios -j 2 -o "$tmp/j2" -q >/dev/null 2>&1
if diff -r "$tmp/j1" "$tmp/j2" >/dev/null; then
	ok "check -j 1 and -j 2 write identical outputs ($(find "$tmp/j1" -type f | wc -l) files)"
else
	not_ok "check -j 1 and -j 2 outputs differ" "$(diff -rq "$tmp/j1" "$tmp/j2" | head -3)"
fi
tl_finish
