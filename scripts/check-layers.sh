#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/check-layers.sh - fail when an #include goes up a layer.
#
# The layers, bottom to top (docs/architecture.md):
#   sim/      the engine: time, queue, kernel loop, solver, units, param, event log
#             (no file I/O)
#   models/   the electrical and protocol models          (uses sim/)
#   stack/    the kernel-style seam and the policies      (uses sim/)
#   traces/   reading and comparing CSV traces            (uses sim/)
#   output/   the files: atomic output files and sets, the trace writers (CSV, VCD),
#             events.jsonl                                 (uses sim/)
#   run/      the assembly of a run: scenario, world, board, metrics, expectations,
#             sweeps                                       (uses all of the above)
#   plots/    plots drawn by gnuplot                       (uses traces/, output/, run/, sim/)
#   report/   a run or comparison as a document (report.html, compare.csv/.json)
#                                                          (uses plots/ and all below)
#   cli/      the chargesim command                        (uses everything)
# tests/, bench/ and fuzz/ sit on top and may include anything. models/, stack/,
# traces/ and output/ are peers: none includes another (models/ and stack/ write no
# file: they hand records to the event log). Kernel-style headers (<linux/...>,
# <chargesim/...>) belong to stack/.
#
# Usage: scripts/check-layers.sh [ROOT]   (exit 1 and one line per offending include)
set -eu
root=${1:-.}
cd "$root"

allowed() {
	case $1 in
	sim) echo "sim" ;;
	models) echo "sim models" ;;
	stack) echo "sim stack" ;;
	traces) echo "sim traces" ;;
	output) echo "sim output" ;;
	run) echo "sim models stack traces output run" ;;
	plots) echo "sim traces output run plots" ;;
	report) echo "sim traces output run plots report" ;;
	cli) echo "sim models stack traces output run plots report cli" ;;
	esac
}

out=$(mktemp)
for layer in sim models stack traces output run plots report cli; do
	ok=$(allowed "$layer")
	files=$(find "$layer" -name '*.[ch]' 2>/dev/null | sort)
	for f in $files; do
		# "dir/file.h" includes name their layer by the first path element;
		# <linux/...> and <chargesim/...> are the stack's headers.
		grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("[^"]+"|<(linux|chargesim)/[^>]+>)' "$f" |
		while IFS= read -r line; do
			inc=$(printf '%s\n' "$line" | sed -E 's/^[0-9]+:[^"<]*["<]([^">]+)[">].*/\1/')
			case $inc in
			linux/* | chargesim/*) to=stack ;;
			*/*) to=${inc%%/*} ;;
			*) continue ;;   # a file beside it
			esac
			case " $ok " in
			*" $to "*) ;;
			*) echo "$f:${line%%:*}: includes $inc: $layer/ may not include $to/ (it is not below $layer/)" ;;
			esac
		done
	done
done >"$out" 2>&1 || true
if [ -s "$out" ]; then
	cat "$out"
	n=$(wc -l <"$out")
	rm -f "$out"
	echo "check-layers: $n includes go up a layer (see docs/architecture.md)"
	exit 1
fi
rm -f "$out"
echo "check-layers: every include stays within its layer or goes down"
