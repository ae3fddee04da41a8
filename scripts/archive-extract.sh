#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/archive-extract.sh - take a static library apart, so that a link can place
# its objects one by one (in the order scripts/link-order.txt gives: see
# scripts/link-order.sh).
#
# Usage: scripts/archive-extract.sh ARCHIVE DIR
#
# Extracts the members of ARCHIVE into DIR (emptied first) and writes DIR/objects, their
# paths one per line in the archive's order: linking them all is what
# `--whole-archive ARCHIVE` does. An archive holding two members of one name cannot be
# taken apart by name: DIR/objects then holds the archive itself between
# --whole-archive and --no-whole-archive.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: scripts/archive-extract.sh ARCHIVE DIR" >&2
	exit 2
fi
archive=$(realpath "$1")
dir=${2%/}

rm -rf "$dir"
mkdir -p "$dir"
ar t "$archive" >"$dir/members"
if [ -n "$(sort "$dir/members" | uniq -d)" ]; then
	printf '%s\n' -Wl,--whole-archive "$archive" -Wl,--no-whole-archive >"$dir/objects.new"
else
	(cd "$dir" && ar x "$archive")
	sed "s|^|$dir/|" "$dir/members" >"$dir/objects.new"
fi
mv "$dir/objects.new" "$dir/objects"
