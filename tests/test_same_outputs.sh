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

# outcome NAME OLD NEW: run the tool, status in $status, output in $TMP/NAME.out
outcome() {
	"$tool" "$2" "$3" "$lib" >"$TMP/$1.out" 2>&1
	status=$?
}

outcome same "$BIN" "$BIN"
if [ $status -eq 0 ] && grep -q '^3 scenarios, 0 with different outputs' "$TMP/same.out"; then
	ok "the same binary twice: 3 scenarios, none differs, exit 0 (the sweep file left out)"
else
	not_ok "the same binary twice" "status $status: $(cat "$TMP/same.out")"
fi

wrap byte 'case $scn in *dcp.json) printf x >>"$out/trace.csv" ;; esac'
outcome byte "$BIN" "$TMP/byte"
if [ $status -eq 1 ] && grep -q '^differ: .*/dcp.json: trace.csv$' "$TMP/byte.out" &&
   [ "$(grep -c '^differ:' "$TMP/byte.out")" -eq 1 ]; then
	ok "a byte more in one trace.csv: that scenario and that file named, exit 1"
else
	not_ok "a byte more in one trace.csv" "status $status: $(cat "$TMP/byte.out")"
fi

wrap extra 'case $scn in *sdp.json) : >"$out/extra.txt" ;; esac'
outcome extra "$TMP/extra" "$BIN"
if [ $status -eq 1 ] && grep -q '^differ: .*/sdp.json: extra.txt$' "$TMP/extra.out"; then
	ok "a file only the old build writes is named"
else
	not_ok "a file only one build writes" "status $status: $(cat "$TMP/extra.out")"
fi

wrap status 'case $scn in *demo.json) st=1 ;; esac'
outcome status "$BIN" "$TMP/status"
if [ $status -eq 1 ] && grep -q '^differ: .*/demo.json: exit status 0 against 1$' "$TMP/status.out"; then
	ok "a different exit status is named"
else
	not_ok "a different exit status" "status $status: $(cat "$TMP/status.out")"
fi

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
