#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/baseline-build.sh REV|PATH [BUILD] - the chargesim binary of another
# revision, for comparisons (`make bench`, `make same-outputs`).
#
# PATH, an existing file, is printed as it is. REV, a git revision of this repository,
# is exported with `git archive` into BUILD/baseline-HASH (BUILD defaults to build,
# HASH is REV's abbreviated commit) and built there once; the absolute path of its
# chargesim is printed (the build's output goes to BUILD/baseline-HASH.log). An empty
# argument prints an empty line. A value that is neither a file nor a revision prints
# an empty line too, with a message on stderr, so that a caller can go on without a
# baseline. Exit status 1 when the revision does not build.
set -eu

base=${1-}
build=${2:-build}
make=${MAKE:-make}

if [ -z "$base" ] || [ -f "$base" ]; then
	echo "$base"
	exit 0
fi
if ! hash=$(git rev-parse --short=7 --verify --quiet "$base^{commit}"); then
	echo "== no baseline: $base is neither a file nor a git revision of this repository" >&2
	echo
	exit 0
fi
dir=$build/baseline-$hash
if [ ! -x "$dir/build/chargesim" ]; then
	echo "== building the baseline $base ($hash) in $dir (log: $dir.log)" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	git archive "$hash" | tar -x -C "$dir"
	if ! "$make" --no-print-directory -C "$dir" build/chargesim >"$dir.log" 2>&1; then
		echo "the baseline $base did not build, see $dir.log" >&2
		exit 1
	fi
fi
realpath "$dir/build/chargesim"
