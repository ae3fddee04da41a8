#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/same-outputs.sh OLD NEW [DIR...] - do two chargesim binaries write the same
# outputs? Every scenario under DIR (default: the scenario library, scenarios/; sweep
# files, those with a "vary" key, left out) is run by both, each as
# `chargesim run SCENARIO -o OUT --vcd -q`, and their exit statuses and every file
# they write (trace.csv, trace.vcd, events.jsonl, metrics.json, ...) are compared
# byte for byte. A scenario named demo.json is also run decimated, with the options
# of $trace_dt_opts below (a polling policy at --trace-dt 60s: the rows an event
# leaves or forces, issue 38), so that a change to --trace-dt shows too. For a change
# meant to leave every result alone, such as a speed-up: `make same-outputs BASE=REV`
# builds REV and runs this against the current build.
#
# Prints one line per scenario that differs and a summary. Exit status 0 when every
# scenario gives the same, 1 when one does not, 2 on a usage error.
set -u

usage() {
	echo "usage: $0 OLD_CHARGESIM NEW_CHARGESIM [SCENARIO_DIR...]" >&2
	exit 2
}

[ $# -ge 2 ] || usage
old=$1
new=$2
shift 2
for b in "$old" "$new"; do
	if [ ! -x "$b" ] || [ -d "$b" ]; then
		echo "$0: $b: not an executable file (expected a chargesim binary)" >&2
		exit 2
	fi
done
if [ $# -eq 0 ]; then
	set -- "$(cd "$(dirname "$0")/.." && pwd)/scenarios"
fi
for d in "$@"; do
	if [ ! -d "$d" ]; then
		echo "$0: $d: not a directory (expected a directory of scenarios)" >&2
		exit 2
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/same-outputs-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

trace_dt_opts="--policy safe-ramp --trace-dt 60s"

# compare SCENARIO [OPTION...]: both builds run it with the options; a line when
# their exit statuses or files differ
compare() {
	f=$1
	shift
	"$old" run "$f" -o "$tmp/old" --vcd -q "$@" >/dev/null 2>&1
	ro=$?
	"$new" run "$f" -o "$tmp/new" --vcd -q "$@" >/dev/null 2>&1
	rn=$?
	what=
	if [ $ro -ne $rn ]; then
		what="exit status $ro against $rn"
	fi
	# files only one of them wrote, then files both wrote that differ
	(cd "$tmp" && for d in old new; do [ ! -d $d ] || find $d -type f; done) |
		sed 's|^[^/]*/||' | LC_ALL=C sort -u >"$tmp/files"
	while IFS= read -r x; do
		if ! cmp -s "$tmp/old/$x" "$tmp/new/$x"; then
			what="${what:+$what; }$x"
		fi
	done <"$tmp/files"
	if [ -n "$what" ]; then
		echo "differ: $f${1:+ $*}: $what"
		bad=$((bad + 1))
	fi
	rm -rf "$tmp/old" "$tmp/new"
}

n=0
m=0
bad=0
list=$tmp/list
find "$@" -name '*.json' -type f | LC_ALL=C sort >"$list"
while IFS= read -r f; do
	grep -q '"vary"[[:space:]]*:' "$f" && continue
	n=$((n + 1))
	compare "$f"
	case $f in
	*/demo.json)
		m=$((m + 1))
		# word splitting of the options is meant
		# shellcheck disable=SC2086
		compare "$f" $trace_dt_opts
		;;
	esac
done <"$list"

if [ $n -eq 0 ]; then
	echo "$0: no scenario (*.json) found under $*" >&2
	exit 2
fi
echo "$n scenarios and $m more runs with $trace_dt_opts, $bad with different outputs (OLD $old, NEW $new)"
[ $bad -eq 0 ]
