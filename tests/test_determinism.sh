#!/bin/sh
# tests/test_determinism.sh - the same inputs give the same bytes.
#
# Runs every scenario of the library twice and compares trace.csv, events.jsonl and
# metrics.json byte for byte; then runs `check` with -j 1 and -j 2 and compares every
# output file of the two. Usage: tests/test_determinism.sh build/chargesim
set -u
cs=${1:-build/chargesim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

for f in $(find scenarios -name '*.json' | sort); do
	grep -q '"vary"' "$f" && continue   # sweep files
	n=$((n + 1))
	"$cs" run "$f" -o "$tmp/a" -q >/dev/null 2>&1
	"$cs" run "$f" -o "$tmp/b" -q >/dev/null 2>&1
	for out in trace.csv events.jsonl metrics.json; do
		if ! cmp -s "$tmp/a/$out" "$tmp/b/$out"; then
			echo "not ok - $f: $out differs between two runs"
			fail=$((fail + 1))
		fi
	done
	rm -rf "$tmp/a" "$tmp/b"
done
echo "ok - $n scenarios run twice"

"$cs" check scenarios -j 1 -o "$tmp/j1" -q >/dev/null 2>&1
"$cs" check scenarios -j 2 -o "$tmp/j2" -q >/dev/null 2>&1
if diff -r "$tmp/j1" "$tmp/j2" >/dev/null; then
	echo "ok - check -j 1 and -j 2 write identical outputs ($(find "$tmp/j1" -type f | wc -l) files)"
else
	echo "not ok - check -j 1 and -j 2 outputs differ: $(diff -rq "$tmp/j1" "$tmp/j2" | head -3)"
	fail=$((fail + 1))
fi
echo "# $fail failed"
[ $fail -eq 0 ]
