#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_layers.sh - scripts/check-layers.sh fails on an include that goes up a
# layer, and passes on the tree as it is.
#
# The layer folders are copied into a scratch directory and one include is added
# there to a file of sim/ (the engine: below everything): a run/ header, then an
# output/ header. Each copy must make the check exit 1 and name the file.
# Usage: tests/test_layers.sh   (from the repository root; needs no build)
set -u
. "$(dirname "$0")/lib.sh"
if [ ! -x scripts/check-layers.sh ]; then
	echo "$0: run from the repository root" >&2
	exit 2
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-layers.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
layers="sim models stack traces output run plots report cli"

# copy LABEL: a fresh copy of the layers in $TMP/LABEL
copy() {
	mkdir -p "$TMP/$1"
	for l in $layers; do
		cp -R "$l" "$TMP/$1/"
	done
}

copy clean
if out=$(scripts/check-layers.sh "$TMP/clean" 2>&1); then
	ok "the tree as it is passes"
else
	not_ok "the tree as it is passes" "$out"
fi

for inc in run/world.h output/trace.h; do
	label=$(echo "$inc" | tr '/.' '__')
	copy "$label"
	printf '#include "%s"\n' "$inc" >>"$TMP/$label/sim/sim.c"
	out=$(scripts/check-layers.sh "$TMP/$label" 2>&1)
	status=$?
	if [ $status -eq 1 ] && printf '%s\n' "$out" | grep -q "^sim/sim.c:.*includes $inc"; then
		ok "sim/ including $inc: exit 1, the include named"
	else
		not_ok "sim/ including $inc: exit 1, the include named" "exit $status: $out"
	fi
done
tl_finish
