#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_bench_builds.sh - bench/bench_builds (make bench) compares this build with
# a baseline on inputs the baseline understands: the scenario library as it stood at
# the baseline's revision, not today's (b52e5c8 refuses today's source.pmax and more,
# so the benchmark could not run at all). Only `check -j 1` runs (BENCH_ONLY).
#
# The "baseline" is this binary behind a wrapper that refuses, as b52e5c8 does, a
# library holding ports/power-limited-brick.json (exit 2), and keeps the library it
# was given. Usage: tests/test_bench_builds.sh build/chargesim
set -u
. "$(dirname "$0")/lib.sh"
tl_init bench_builds "${1:-build/chargesim}" bench/bench_builds.c
bench=$(dirname "$BIN")/bench/bench_builds
rev=b52e5c8

if [ ! -x "$bench" ]; then
	skip "bench_builds against a baseline" "no $bench (make bench-build)"
	tl_finish
	exit $?
fi
if ! git cat-file -e "$rev^{commit}" 2>/dev/null; then
	skip "bench_builds against a baseline" "no revision $rev here (a shallow clone)"
	tl_finish
	exit $?
fi

# base STATUS: $TMP/base/chargesim, the wrapper; STATUS, when set, replaces every
# check's exit status (1: an expectation failed; 3: an internal error)
base() {
	mkdir -p "$TMP/base"
	cat >"$TMP/base/chargesim" <<WRAP
#!/bin/sh
lib=\$2
if [ "\$1" = check ]; then
	(cd "\$lib" && find . -name '*.json' | sort) >"$TMP/lib.txt"
	[ -e "\$lib/ports/power-limited-brick.json" ] && exit 2
fi
"$BIN" "\$@"
st=\$?
[ "\$1" = check ] && [ -n "$1" ] && st=$1
exit \$st
WRAP
	chmod +x "$TMP/base/chargesim"
}

# bench NAME: the check workload, this build against the wrapper, on $rev's library
bench() {
	BENCH_ONLY="check scenarios/ -j 1" "$bench" "$TMP/base" "$rev" 1 >"$TMP/$1.out" 2>&1
	status=$?
}

base ""
bench plain
if [ $status -eq 0 ] && grep -q "^check scenarios/ -j 1 " "$TMP/plain.out"; then
	ok "the check workload runs against a baseline that refuses today's library"
else
	not_ok "the check workload runs against a baseline that refuses today's library" \
	       "status $status; $(cat "$TMP/plain.out")"
fi

# the library is the revision's: a file of today's library is absent, one of the
# revision's present, the second scenario named gpio-charger-static-type gone, the
# sweep of 1,000 variants added
if ! grep -q 'power-limited-brick' "$TMP/lib.txt" && grep -q '^./demo.json$' "$TMP/lib.txt" &&
   [ "$(grep -c '/gpio-charger-static-type.json$' "$TMP/lib.txt")" -eq 1 ] &&
   grep -q '^./bugzoo/gpio-charger-static-type.json$' "$TMP/lib.txt" &&
   grep -q '^./sweeps/full-charge-1k.json$' "$TMP/lib.txt"; then
	ok "both builds check the library of $rev, one scenario a name, with the 1,000-variant sweep"
else
	not_ok "both builds check the library of $rev, one scenario a name, with the 1,000-variant sweep" \
	       "$(cat "$TMP/lib.txt")"
fi

base 1
bench failed
if [ $status -eq 0 ]; then
	ok "a check whose expectations fail (exit 1) is a run like any other"
else
	not_ok "a check whose expectations fail (exit 1) is a run like any other" \
	       "status $status; $(cat "$TMP/failed.out")"
fi

base 3
bench internal
if [ $status -ne 0 ] && grep -q 'failed' "$TMP/internal.out"; then
	ok "an internal error (exit 3) stops the benchmark"
else
	not_ok "an internal error (exit 3) stops the benchmark" \
	       "status $status; $(cat "$TMP/internal.out")"
fi

tl_finish
