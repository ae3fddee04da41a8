#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_same_outputs.sh - scripts/same-outputs.sh, the check that two builds
# write the same outputs (`make same-outputs`), finds what differs and only that.
#
# The "other build" is the same binary behind a wrapper that changes one thing: a
# byte of one scenario's trace.csv, a file more, an exit status. Usage:
# tests/test_same_outputs.sh build/chargesim
set -u
. "$(dirname "$0")/lib.sh"
tl_init same_outputs "${1:-build/chargesim}" scripts/same-outputs.sh
tool=scripts/same-outputs.sh
lib=$TMP/lib
mkdir -p "$lib/sweeps"
cp scenarios/demo.json scenarios/ports/dcp.json scenarios/ports/sdp.json "$lib/"
cp scenarios/sweeps/twl4030-grid.json "$lib/sweeps/"

# wrap NAME BODY: an executable $TMP/NAME that runs chargesim with the same
# arguments, then BODY (shell; $scn is the scenario, $out the output directory,
# $st chargesim's exit status, which BODY may change).
wrap() {
	cat >"$TMP/$1" <<WRAP
#!/bin/sh
scn=\$2 out=\$4
"$BIN" "\$@"
st=\$?
$2
exit \$st
WRAP
	chmod +x "$TMP/$1"
}

# differs NAME OLD NEW LINE WHAT: the tool on OLD and NEW (one of them the wrapper
# NAME) exits 1 and reports one scenario, in a line that matches LINE (a regex).
differs() {
	"$tool" "$2" "$3" "$lib" >"$TMP/$1.out" 2>&1
	status=$?
	if [ $status -eq 1 ] && grep -q "$4" "$TMP/$1.out" &&
	   [ "$(grep -c '^differ:' "$TMP/$1.out")" -eq 1 ]; then
		ok "$5"
	else
		not_ok "$5" "status $status: $(cat "$TMP/$1.out")"
	fi
}

"$tool" "$BIN" "$BIN" "$lib" >"$TMP/same.out" 2>&1
status=$?
if [ $status -eq 0 ] &&
   grep -q '^3 scenarios and 1 more runs with --policy safe-ramp --trace-dt 60s, 0 with different outputs' "$TMP/same.out"; then
	ok "the same binary twice: 3 scenarios and demo.json decimated, none differs, exit 0 (the sweep file left out)"
else
	not_ok "the same binary twice" "status $status: $(cat "$TMP/same.out")"
fi

wrap byte 'case $scn in *dcp.json) printf x >>"$out/trace.csv" ;; esac'
differs byte "$BIN" "$TMP/byte" '^differ: .*/dcp.json: trace.csv$' \
	"a byte more in one trace.csv: that scenario and that file named, exit 1"
# a change to --trace-dt alone (issue 38: nothing ran it, so its rows doubled unseen)
wrap tracedt 'case "$*" in *--trace-dt*) printf x >>"$out/trace.csv" ;; esac'
differs tracedt "$BIN" "$TMP/tracedt" \
	'^differ: .*/demo.json --policy safe-ramp --trace-dt 60s: trace.csv$' \
	"a byte more in the trace of the demo at --trace-dt 60s (safe-ramp): that run named"
wrap extra 'case $scn in *sdp.json) : >"$out/extra.txt" ;; esac'
differs extra "$TMP/extra" "$BIN" '^differ: .*/sdp.json: extra.txt$' \
	"a file only the old build writes is named"
wrap status 'case "$*" in *--trace-dt*) ;; *demo.json*) st=1 ;; esac'
differs status "$BIN" "$TMP/status" '^differ: .*/demo.json: exit status 0 against 1$' \
	"a different exit status is named"

"$tool" "$BIN" >"$TMP/usage.out" 2>&1
s1=$?
"$tool" "$BIN" "$TMP/none" >"$TMP/nobin.out" 2>&1
s2=$?
"$tool" "$BIN" "$BIN" "$TMP/nodir" >"$TMP/nodir.out" 2>&1
s3=$?
if [ $s1 -eq 2 ] && [ $s2 -eq 2 ] && grep -q 'none: not an executable file' "$TMP/nobin.out" &&
   [ $s3 -eq 2 ] && grep -q 'nodir: not a directory' "$TMP/nodir.out"; then
	ok "usage errors (an argument missing, no such binary, no such directory): exit 2, said"
else
	not_ok "usage errors" "$s1 $s2 $s3: $(cat "$TMP/usage.out" "$TMP/nobin.out" "$TMP/nodir.out")"
fi
tl_finish
