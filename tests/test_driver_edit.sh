#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_driver_edit.sh - the driver developer's loop (docs/linux-drivers.md
# section 2): an edited copy of a driver file and the stock one in one `compare`.
#
# Usage (from the repository root, after make): tests/test_driver_edit.sh build/chargesim
#
# In a scratch build directory (a copy of build/'s objects, so that only what the edit
# touches is compiled): twl4030_charger.c copied and edited with sed (its 1.7 A cap,
# USB_MAX_CURRENT, lowered to 1.2 A); `make driver-compare KERNEL_EDITED=DIR
# SCENARIO=...` builds it as linux/twl4030_charger@edited and runs it beside the stock
# driver in one compare: the edited column stops below 1.2 A, the stock one reaches
# regval2ua(1022) = 1.696719 A as before, its trace byte for byte the build/ binary's,
# and each column names its file's hash and stock / edited. Then the loop of section 2,
# edit - make - run a scenario, is timed against the figure the page gives.
set -u

. "$(dirname "$0")/lib.sh"
tl_init dedit "${1:-build/chargesim}" Makefile

stock=build/kernel-stock
rel=drivers/power/supply/twl4030_charger.c
scn=scenarios/bugzoo/twl4030-full-battery.json
if [ ! -s "$stock/.sha256" ]; then
	skip "an edited driver beside the stock one" \
		"this build has no real Linux drivers (linux-source-6.12 is not installed)"
	tl_finish
	exit $?
fi

b=$TMP/b
ed=$TMP/edit
mkdir -p "$b" "$ed/$(dirname $rel)"
cp -a build/obj build/gen build/kernel build/kernel-stock "$b/"
# the copied dependency files name build/...: make them name the copy's files
find "$b/obj" -name '*.d' -exec sed -i "s|build/|$b/|g" {} +
cp "$stock/$rel" "$ed/$rel"
chmod u+w "$ed/$rel"
sed -i 's/#define\tUSB_MAX_CURRENT\t1700000/#define\tUSB_MAX_CURRENT\t1200000/' "$ed/$rel"
check "the edit took (USB_MAX_CURRENT 1200000)" grep -q 'USB_MAX_CURRENT.1200000' "$ed/$rel"

make --no-print-directory driver-compare BUILD="$b" KERNEL_EDITED="$ed" SCENARIO="$scn" \
	COMPARE_OUT="$TMP/cmp" >"$TMP/dc.out" 2>"$TMP/dc.err"
st=$?
if [ $st -eq 0 ]; then ok "make driver-compare: built and compared (exit 0)"; else
	not_ok "make driver-compare (exit $st)" "$(tail -20 "$TMP/dc.err")"; fi
check "the table has both columns" grep -q 'linux/twl4030_charger  *linux/twl4030_charger@edited' "$TMP/dc.out"
m() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
s_max=$(m "$TMP/cmp/linux/twl4030_charger/metrics.json" ilim_max_A)
e_max=$(m "$TMP/cmp/linux/twl4030_charger@edited/metrics.json" ilim_max_A)
check "stock: the input limit reaches regval2ua(1022) = 1.696719 A within 0.1 mA (got $s_max)" \
	awk -v v="$s_max" 'BEGIN { exit !(v > 1.696619 && v < 1.696819) }'
check "edited: it stops under the edited 1.2 A cap (got $e_max)" \
	awk -v v="$e_max" 'BEGIN { exit !(v > 1.1 && v <= 1.2) }'
run ref run "$scn" --policy linux/twl4030_charger -o "$TMP/ref" -q
same "the stock column is the build/ binary's run, byte for byte (trace.csv)" \
	"$TMP/ref/trace.csv" "$TMP/cmp/linux/twl4030_charger/trace.csv"
same "... and events.jsonl" "$TMP/ref/events.jsonl" "$TMP/cmp/linux/twl4030_charger/events.jsonl"
h=$(sha256sum "$ed/$rel" | cut -c1-16)
hs=$(sha256sum "$stock/$rel" | cut -c1-16)
check "the stock column names its file as stock ($hs)" \
	grep -qF "  linux/twl4030_charger: $rel sha256 $hs (stock)" "$TMP/dc.out"
check "the edited column names the edited file's hash ($h)" \
	grep -qF "  linux/twl4030_charger@edited: $rel sha256 $h (edited)" "$TMP/dc.out"
check "... and its metrics.json says edited" \
	grep -q '"status":.*"edited"' "$TMP/cmp/linux/twl4030_charger@edited/metrics.json"
for l in "input limit max [A]" "  linux/twl4030_charger: " "  linux/twl4030_charger@edited: "; do
	check "docs/linux-drivers.md quotes compare's line '$l...' as it prints" \
		grep -qxF "$(grep -F -m1 "$l" "$TMP/dc.out")" docs/linux-drivers.md
done
# does the edit fix bug zoo 1? The fixed scenario's requirements say: no
"$b/chargesim" run scenarios/bugzoo/twl4030-full-battery-safe-ramp.json \
	--policy linux/twl4030_charger@edited -o "$TMP/fix" >"$TMP/fix.out" 2>"$TMP/fix.err"
st=$?
check "bug zoo 1's fixed scenario with the edited driver: its VBUS requirement fails (exit $st)" \
	sh -c "[ $st -eq 1 ] && grep -q 'FAILED: metric time_below_4v75_s <= 5 s' '$TMP/fix.err'"
check "... as docs/linux-drivers.md quotes it" \
	grep -qxF "$(grep -m1 'FAILED' "$TMP/fix.err")" docs/linux-drivers.md
check "... the stock driver's symptoms and the port's fingerprints not checked for it" \
	grep -q 'for other policies not checked' "$TMP/fix.out"
"$b/chargesim" list policies >"$TMP/lp.out" 2>&1
check "list policies shows linux/twl4030_charger@edited, its file edited, with its hash" \
	grep -q "^linux/twl4030_charger@edited - .*as KERNEL_EDITED has it.*; this build's file: edited, sha256 $h\$" "$TMP/lp.out"
check "... and linux/twl4030_charger's file stock" \
	grep -q "^linux/twl4030_charger - .*; this build's file: stock, sha256 $hs\$" "$TMP/lp.out"
check "... with its module parameter" \
	sh -c "grep -A1 '^linux/twl4030_charger@edited' '$TMP/lp.out' | grep -q '^ *allow_usb '"
"$b/chargesim" list policies linux/twl4030_charger@edited >"$TMP/lp1.out" 2>&1
check "... once (its twin's records are not its own)" \
	sh -c "test \$(grep -c 'allow_usb' '$TMP/lp1.out') -eq 1"

# errors: no scenario, a directory without a driver file
make --no-print-directory driver-compare BUILD="$b" KERNEL_EDITED="$ed" >/dev/null 2>"$TMP/u.err"
st=$?
check "driver-compare without SCENARIO: exit 2 with the usage ($st)" \
	sh -c "[ $st -ne 0 ] && grep -q 'usage: make driver-compare' '$TMP/u.err'"
mkdir -p "$TMP/empty"
make --no-print-directory driver-compare BUILD="$b" KERNEL_EDITED="$TMP/empty" SCENARIO="$scn" \
	>/dev/null 2>"$TMP/e.err"
st=$?
check "a KERNEL_EDITED without driver files: refused, naming what it looks for" \
	sh -c "[ $st -ne 0 ] && grep -q 'holds no driver file of this build' '$TMP/e.err'"

# ---- the loop of docs/linux-drivers.md section 2, timed: edit, make, run ----
loop_limit=$(sed -n 's/.*the loop takes less than \([0-9]*\) s.*/\1/p' docs/linux-drivers.md | head -1)
t0=$(date +%s.%N)
sed -i 's/USB_MAX_CURRENT\t1200000/USB_MAX_CURRENT\t1300000/' "$ed/$rel"
# (a status of 1 would be an expectation failed: the run itself went through)
st=0
make --no-print-directory BUILD="$b" KERNEL_EDITED="$ed" "$b/chargesim" >"$TMP/l.out" 2>&1 || st=$?
"$b/chargesim" run "$scn" --policy linux/twl4030_charger@edited -o "$TMP/loop" -q >/dev/null 2>&1
[ $? -le 1 ] || st=1
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
echo "# edit - make - run took $secs s"
if [ -z "$loop_limit" ]; then
	not_ok "docs/linux-drivers.md gives the loop's time ('the loop takes less than N s')"
elif [ $st -eq 0 ] && awk -v s="$secs" -v l="$loop_limit" 'BEGIN { exit !(s < l) }'; then
	ok "edit - make - run: $secs s, less than the $loop_limit s docs/linux-drivers.md says"
else
	not_ok "edit - make - run: $secs s (exit $st), docs/linux-drivers.md says less than $loop_limit s" \
		"$(tail -5 "$TMP/l.out")"
fi
check "... the make compiled the edited file and no other kernel file" \
	sh -c "test \$(grep -c -- '-c $b/kernel-edited/$rel ' '$TMP/l.out') -eq 1 &&
	       ! grep -q -- '-c $b/kernel/' '$TMP/l.out'"
e2=$(m "$TMP/loop/metrics.json" ilim_max_A)
check "... and the run saw the new edit (1.3 A cap: max $e2 A)" \
	awk -v v="$e2" 'BEGIN { exit !(v > 1.2 && v <= 1.3) }'

# ---- a score's shards from two builds whose linux/twl4030_charger differ in bytes are
# not one score: merge refuses them ----
tree=$TMP/tree
cp -a "$stock" "$tree"
chmod -R u+w "$tree"
cp "$ed/$rel" "$tree/$rel"
make --no-print-directory BUILD="$b" KERNEL_SRC="$tree" "$b/chargesim" >"$TMP/src.out" 2>&1 ||
	not_ok "make KERNEL_SRC=(the edited tree)" "$(tail -5 "$TMP/src.out")"
"$BIN" score --policy linux/twl4030_charger -n 4 --shard 0/2 -o "$TMP/s0" -q
"$b/chargesim" score --policy linux/twl4030_charger -n 4 --shard 1/2 -o "$TMP/s1" -q
check "each shard's manifest names its driver's bytes" \
	sh -c "grep -q '\"status\":.*\"stock\"' '$TMP/s0/score-manifest.json' &&
	       grep -q '\"status\":.*\"edited\"' '$TMP/s1/score-manifest.json'"
run mg merge "$TMP/s0" "$TMP/s1" -o "$TMP/mg"
expect_status "merge of shards scored with stock and edited twl4030_charger.c" 2
expect_stderr "... says the kernel files may differ" "their kernel files"
"$BIN" score --policy linux/twl4030_charger -n 4 --shard 1/2 -o "$TMP/s1b" -q
run mg2 merge "$TMP/s0" "$TMP/s1b" -o "$TMP/mg2"
expect_status "... while shards of one build merge" 0
# ... nor are a sweep's (docs/scaling.md): its manifest names the driver's bytes
printf '{ "base": "%s", "vary": { "duration": ["10 min"], "policy": ["linux/twl4030_charger"], "source.ilim": ["1.1 A", "2 A"] } }\n' \
	"$(pwd)/$scn" >"$TMP/sw.json"
"$BIN" sweep "$TMP/sw.json" --shard 0/2 -o "$TMP/w0" -q
"$b/chargesim" sweep "$TMP/sw.json" --shard 1/2 -o "$TMP/w1" -q
run wm merge "$TMP/w0" "$TMP/w1" -o "$TMP/wm"
expect_status "merge of sweep shards run with stock and edited twl4030_charger.c" 2
expect_stderr "... naming the driver file whose bytes differ" "kernel_files: \"linux/twl4030_charger\": found \"$rel\""

# ---- a KERNEL_SRC build on a machine without the tarball: nothing to compare with ----
make --no-print-directory BUILD="$b" KERNEL_SRC="$tree" KERNEL_TARBALL=/nowhere "$b/chargesim" \
	>"$TMP/nt.out" 2>&1 || not_ok "make KERNEL_SRC=... without a tarball" "$(tail -5 "$TMP/nt.out")"
"$b/chargesim" list policies >"$TMP/nt.lp" 2>&1
check "without the tarball every linux/ driver file is not-from-tarball" \
	sh -c "test \$(grep -c '^linux/' '$TMP/nt.lp') -ge 1 &&
	       test \$(grep '^linux/' '$TMP/nt.lp' | grep -vc \"this build's file: not-from-tarball, sha256\") -eq 0"
"$b/chargesim" run "$scn" --policy linux/twl4030_charger -o "$TMP/nt" -q >/dev/null 2>&1
check "... and so says metrics.json, with the edited file's hash" \
	grep -q "\"sha256\":.*\"$(sha256sum "$ed/$rel" | cut -c1-64)\"" "$TMP/nt/metrics.json"
check "... as not-from-tarball" grep -q '"status":.*"not-from-tarball"' "$TMP/nt/metrics.json"

tl_finish
