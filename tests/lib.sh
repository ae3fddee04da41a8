# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# tests/lib.sh - what the end-to-end scripts tests/test_*.sh share.
#
# Source it, then call `tl_init LABEL BIN FILE`: BIN is the chargesim binary the
# script was given (made absolute), FILE a path that must exist relative to the
# current directory (it proves the script runs from the repository root). tl_init
# makes $TMP, a scratch directory removed on exit. Each check prints one line,
# "ok - WHAT" or "not ok - WHAT" followed by the evidence indented with "#   ", and
# tl_finish prints "N passed, N failed" (and "N skipped" when some were) and returns
# non-zero when any check failed. A script can redefine run() after sourcing, as
# test_diff.sh does to prefix the subcommand.

passed=0
failed=0
skipped=0

tl_init() {
	BIN=$2
	case $BIN in
	/*) ;;
	*) BIN=$(pwd)/$BIN ;;
	esac
	if [ ! -x "$BIN" ]; then
		echo "usage: $0 path/to/chargesim (run from the repository root)" >&2
		exit 2
	fi
	if [ ! -e "$3" ]; then
		echo "$0: run from the repository root ($3 not found)" >&2
		exit 2
	fi
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-$1.XXXXXX") || exit 2
	trap 'rm -rf "$TMP"' EXIT
	trap 'exit 130' INT TERM
}

ok() {
	passed=$((passed + 1))
	echo "ok - $1"
}

# not_ok WHAT [EVIDENCE]
not_ok() {
	failed=$((failed + 1))
	echo "not ok - $1"
	if [ $# -gt 1 ]; then
		printf '%s\n' "$2" | sed 's/^/#   /'
	fi
}

# skip WHAT WHY: a check that cannot run here (a missing optional tool).
skip() {
	skipped=$((skipped + 1))
	echo "ok - $1 # SKIP $2"
}

# run NAME ARGS...: run chargesim, keeping the status in $status and stdout and
# stderr in $TMP/NAME.out and $TMP/NAME.err.
run() {
	name=$1
	shift
	"$BIN" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	status=$?
}

# expect_status WHAT WANT: the last run's exit status.
expect_status() {
	if [ "$status" -eq "$2" ]; then
		ok "$1 (exit $2)"
	else
		not_ok "$1 (exit $status, want $2)" "$(head -c 1500 "$TMP/$name.err")"
	fi
}

# expect_in WHAT out|err FIXED-STRING: the last run's stdout or stderr contains it.
expect_in() {
	if grep -F -q -- "$3" "$TMP/$name.$2"; then
		ok "$1"
	else
		not_ok "$1 ($2 lacks '$3')" "$(head -c 800 "$TMP/$name.$2")"
	fi
}

# expect_stderr WHAT FIXED-STRING
expect_stderr() {
	expect_in "$1" err "$2"
}

# check WHAT COMMAND...: the command succeeds.
check() {
	what=$1
	shift
	if "$@"; then
		ok "$what"
	else
		not_ok "$what"
	fi
}

# same WHAT FILE1 FILE2: byte-identical files.
same() {
	if cmp "$2" "$3" >"$TMP/cmp.out" 2>&1; then
		ok "$1"
	else
		not_ok "$1" "$(cat "$TMP/cmp.out")"
	fi
}

# tl_interrupt WHEN ERRFILE CMD...: run CMD in the background with its stderr in
# ERRFILE, wait up to 10 s until the shell condition WHEN holds (e.g. a grep of
# ERRFILE), then send SIGINT and wait for it; $status is CMD's exit status.
tl_interrupt() {
	tl_when=$1
	tl_err=$2
	shift 2
	"$@" 2>"$tl_err" &
	tl_pid=$!
	tl_i=0
	while [ $tl_i -lt 200 ] && ! eval "$tl_when"; do
		sleep 0.05
		tl_i=$((tl_i + 1))
	done
	kill -INT $tl_pid 2>/dev/null
	wait $tl_pid
	status=$?
}

tl_finish() {
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
}
