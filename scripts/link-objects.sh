#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/link-objects.sh - put a link's objects in the order scripts/link-order.txt
# gives (scripts/link-order.sh says why).
#
# Usage: scripts/link-objects.sh LIST OBJECT...
#
# Prints the OBJECTs (one per line) that LIST names, in LIST's order, then the others in
# the order given. An object is named as scripts/link-names.awk names it; a name LIST
# gives that no OBJECT has is skipped, and an argument that is no object (a linker
# option) stays among the others, in its place.
set -eu

if [ $# -lt 1 ]; then
	echo "usage: scripts/link-objects.sh LIST OBJECT..." >&2
	exit 2
fi
list=$1
shift
[ $# -gt 0 ] || exit 0
printf '%s\n' "$@" | awk -f "$(dirname "$0")/link-names.awk" | awk '
	FILENAME == ARGV[1] {
		if ($0 !~ /^#/ && NF)
			order[++n] = $1
		next
	}
	{ name[++m] = $1; path[m] = $2; if (!($1 in at)) at[$1] = m }
	END {
		for (i = 1; i <= n; i++)
			if (order[i] != "-" && (order[i] in at) && !(order[i] in done)) {
				print path[at[order[i]]]
				done[order[i]] = at[order[i]]
			}
		for (j = 1; j <= m; j++)
			if (!(name[j] in done) || done[name[j]] != j)
				print path[j]
	}
' "$list" -
