#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/link-order.sh - list the object files whose code a `chargesim run` executes,
# for the link to place them first (scripts/link-order.txt, read by the Makefile).
#
# Why: the first call into a page of code the process has not touched is a page fault,
# and the kernel then maps the pages around it, up to 64 kB (fault-around); at exit it
# unmaps them all again. A whole run executes about 150 kB of the binary's 1.4 MB of
# code, but in the linker's own order (our objects, then GLib's in its archive's order)
# that code lay in 15 windows of 64 kB. The linker lays out code, constants and data in
# the order of the object files it is given, so listing the objects a run uses first
# gathers all three. docs/scaling.md has the measurements.
#
# How: each scenario is run under callgrind (valgrind), which records every instruction
# executed; the link map (build/chargesim.map, written by every link) tells in which
# object file's .text each address lies. An object file is listed when one of the runs
# executed code in it, those most runs need first, then by name. Only the order changes:
# the same objects are linked, and a stale list costs speed, never correctness (a name
# that no longer exists is skipped).
#
# Names: one of the build's own objects as its path under build/obj/ ("output/trace.o"),
# a member of a static library as ARCHIVE:MEMBER ("libglib-2.0.a:gstring.c.o"), as
# scripts/link-names.awk has it. The Makefile takes GLib's archive apart
# (scripts/archive-extract.sh) and orders the link's objects (scripts/link-objects.sh).
#
# Usage: scripts/link-order.sh [SCENARIO.json ...] > scripts/link-order.txt
#        (make link-order). Without arguments: every library scenario but the sweeps.
# Needs valgrind and a built build/chargesim with its map (BIN= and MAP= name others).
# Exit 2 when a tool or file is missing or a run left no profile.
set -eu

bin=${BIN:-build/chargesim}
map=${MAP:-build/chargesim.map}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "link-order.sh: valgrind not found (apt-get install valgrind)" >&2
	exit 2
fi
if [ ! -x "$bin" ] || [ ! -f "$map" ]; then
	echo "link-order.sh: $bin or its link map $map is missing: run make first" >&2
	exit 2
fi
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # library file names have no spaces
	set -- $(find scenarios -name '*.json' ! -path 'scenarios/sweeps/*' | LC_ALL=C sort)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
binpath=$(realpath "$bin")

# hex("0x1f") = 31; awk has no hexadecimal input of its own (mawk, Debian's default)
hexfn='function hex(s,   i, v) {
	v = 0
	s = tolower(substr(s, 3))
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}'

# The .text input sections of the map (scripts/link-map.awk), "START END FILE" in
# decimal, by address.
awk -f "$(dirname "$0")/link-map.awk" "$map" |
	awk "$hexfn"'{ printf "%.0f %.0f %s\n", hex($1), hex($1) + hex($2), $3 }' |
	sort -n -k1,1 >"$tmp/sections"
if [ ! -s "$tmp/sections" ]; then
	echo "link-order.sh: no .text input sections in $map" >&2
	exit 2
fi

n=0
for sc in "$@"; do
	n=$((n + 1))
	# a run whose expectation fails (exit 1) still ran its code
	valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no \
		--callgrind-out-file="$tmp/cg" "$bin" run "$sc" -o "$tmp/out" --vcd -q \
		>/dev/null 2>&1 || :
	if [ ! -s "$tmp/cg" ]; then
		echo "link-order.sh: no profile from $bin run $sc" >&2
		exit 2
	fi
	# addresses executed in the binary itself, then the file whose .text holds each
	awk -v bin="$binpath" '
		/^ob=/ { inbin = substr($0, 4) == bin; next }
		inbin && /^0x/ { print $1 }
	' "$tmp/cg" | sort -u >"$tmp/addrs"
	awk "$hexfn"'
		NR == FNR { lo[NR] = $1; hi[NR] = $2; file[NR] = $3; ns = NR; next }
		{
			a = hex($1)
			l = 1
			h = ns
			while (l < h) {	# the last section starting at or before a
				m = int((l + h + 1) / 2)
				if (lo[m] <= a)
					l = m
				else
					h = m - 1
			}
			if (a >= lo[l] && a < hi[l])
				print file[l]
		}
	' "$tmp/sections" "$tmp/addrs" | sort -u >>"$tmp/hot"
	rm -rf "$tmp/cg" "$tmp/out"
done

# Most-needed first, then by name, so that the list depends on the runs only; objects
# named as scripts/link-names.awk names them. Left out: the C start-up files (crt*.o),
# and a member the linker took from an archive ("DIR/libcsv.a(libcsv.o)"), which lies
# where the archive was searched, not where a list could put it.
printf '# SPDX-License-Identifier: GPL-2.0-or-later\n'
printf '# scripts/link-order.txt - written by scripts/link-order.sh (make link-order) from\n'
printf '# %d scenario runs: the object files whose code they executed, most-needed first.\n' "$n"
sort "$tmp/hot" | uniq -c | sort -k1,1nr -k2,2 | awk '$2 !~ /\)$/ { print $2 }' |
	awk -f "$(dirname "$0")/link-names.awk" | awk '$1 != "-" { print $1 }'
