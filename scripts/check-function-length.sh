#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/check-function-length.sh - fail when a product function runs over MAX lines.
#
# Product code is kernel style: a function's opening and closing braces stand at
# column 0, and its signature starts at column 0 on the lines before (a signature
# continued over several lines is indented after its first). A function's length
# runs from the first line of its signature to its closing brace.
#
# Usage: scripts/check-function-length.sh [MAX] [ROOT]   (default 120 and .; exit 1
# and one line per function over MAX: length, file:line, the signature's first line)
set -eu
max=${1:-120}
root=${2:-.}
cd "$root"

long=$(find sim models stack traces run plots cli output -name '*.c' 2>/dev/null | sort |
	while read -r f; do
		awk -v f="$f" -v max="$max" '
		/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; sigl = NR }
		/^\{/ { start = NR; name = sig }
		/^\}/ && start {
			if (NR - sigl + 1 > max)
				printf "%d %s:%d %s\n", NR - sigl + 1, f, sigl, name
			start = 0
		}' "$f"
	done)
[ -z "$long" ] && exit 0
echo "functions over $max lines (split them into named steps):"
echo "$long"
exit 1
