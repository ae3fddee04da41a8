#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/baseline-build.sh REV|PATH [BUILD [TARGET...]] - the chargesim binary of
# another revision, for comparisons (`make bench`, `make same-outputs`).
#
# PATH, an existing file, is printed as it is. REV, a git revision of this repository,
# is exported with `git archive` into BUILD/baseline-HASH (BUILD defaults to build,
# HASH is REV's abbreviated commit) and its build/chargesim built there once, then each
# TARGET of its Makefile (say build/bench/bench_regret), which may fail: the caller
# then goes without it. Prints the absolute path of the chargesim; the builds' output
# goes to BUILD/baseline-HASH.log. Exit status 1 when the revision's chargesim does not
# build, 2 when the argument is neither a file nor a revision.
set -eu

base=${1-}
build=${2:-build}
shift $(($# < 2 ? $# : 2))
make=${MAKE:-make}

if [ -n "$base" ] && [ -f "$base" ]; then
	realpath "$base"
	exit 0
fi
if [ -z "$base" ] || ! hash=$(git rev-parse --short=7 --verify --quiet "$base^{commit}"); then
	echo "baseline-build.sh: '$base' is neither a file nor a git revision of this repository" >&2
	exit 2
fi
dir=$build/baseline-$hash
if [ ! -x "$dir/build/chargesim" ]; then
	echo "== building the baseline $base ($hash) in $dir (log: $dir.log)" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	git archive "$hash" | tar -x -C "$dir"
	if ! $make --no-print-directory -C "$dir" build/chargesim >"$dir.log" 2>&1; then
		echo "the baseline $base did not build, see $dir.log" >&2
		exit 1
	fi
fi
for t in "$@"; do
	[ -e "$dir/$t" ] || $make --no-print-directory -C "$dir" "$t" >>"$dir.log" 2>&1 ||
		echo "== the baseline $base has no $t (see $dir.log)" >&2
done
realpath "$dir/build/chargesim"
