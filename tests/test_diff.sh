#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_diff.sh - `chargesim diff`, end to end.
#
# Usage (from the repository root): tests/test_diff.sh build/chargesim
#
# Exit statuses (0 within tolerance, 1 outside, 2 bad usage or input), the table and
# the verdict line, a power-meter style CSV against a chargesim trace with --map,
# and error messages naming the file, the line and the column. The traces are small
# hand-written files; one check diffs two real runs of scenarios/demo.json. Prints
# "ok - ..." or "not ok - ..." per check and exits non-zero when any failed.
set -u

. "$(dirname "$0")/lib.sh"
tl_init diff "${1:-build/chargesim}" scenarios/demo.json

# run NAME ARGS...: run `chargesim diff ARGS`, keeping status, stdout and stderr.
run() {
	name=$1
	shift
	"$BIN" diff "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	status=$?
}

# B: the reference; A: the same times, vbus 20 mV low at t = 2, an extra column.
cat >"$TMP/b.csv" <<'CSV'
time_s,vbus_V,ibus_A,charger_state
0,5.1,0,off
1,5.0,1.0,cc
1,4.9,1.5,cc
2,4.9,1.5,cv
CSV
cat >"$TMP/a.csv" <<'CSV'
time_s,vbus_V,ibus_A,charger_state,temp_C
0,5.1,0,off,25
1,5.0,1.0,cc,25
1,4.9,1.5,cc,25
1.5,4.9,1.5,cc,25
2,4.88,1.5,cv,26
CSV

run help --help
expect_status "--help" 0
expect_in "--help states the rule" out "|A - B| <= abs + rel * |B|"

run same "$TMP/b.csv" "$TMP/b.csv"
expect_status "a trace against itself" 0
expect_in "verdict line PASS" out "PASS: 3 columns within tolerance over 4 rows"

run exact "$TMP/a.csv" "$TMP/b.csv"
expect_status "20 mV off with no tolerance" 1
expect_in "worst deviation reported" out "20 mV"
expect_in "extra column listed" out "only in A (not compared): temp_C"
expect_in "verdict names the column" out "FAIL: 1 of 3 columns outside tolerance: vbus_V"

run tol "$TMP/a.csv" "$TMP/b.csv" --tol vbus_V=abs:25mV
expect_status "within abs 25 mV" 0

run tolrel "$TMP/a.csv" "$TMP/b.csv" --tol 'vbus_V=abs:10mV,rel:0.2%'
expect_status "20 mV outside 10 mV + 0.2 % of B = 4.9 V (19.8 mV)" 1
run tolrel2 "$TMP/a.csv" "$TMP/b.csv" --tol 'vbus_V=abs:11mV,rel:0.2%'
expect_status "20 mV within 11 mV + 0.2 % of B = 4.9 V (20.8 mV)" 0

run star "$TMP/a.csv" "$TMP/b.csv" --tol '*=abs:0.05'
expect_status "\"*\" default covers vbus_V" 0

run quiet "$TMP/a.csv" "$TMP/b.csv" -q
if [ "$(wc -l <"$TMP/quiet.out")" -eq 1 ]; then ok "--quiet prints one line"; else not_ok "--quiet prints one line"; fi

# Time ranges: B stops at 2 s, A' goes to 3 s.
cp "$TMP/a.csv" "$TMP/long.csv"
echo "3,4.88,1.5,cv,26" >>"$TMP/long.csv"
run span "$TMP/long.csv" "$TMP/b.csv" --tol '*=abs:0.05'
expect_status "different time ranges fail" 1
expect_in "says the ranges differ" out "time ranges differ"
run overlap "$TMP/long.csv" "$TMP/b.csv" --tol '*=abs:0.05' --overlap-only
expect_status "--overlap-only" 0

# A power meter capture against a chargesim-style reference. Its one row at t = 1
# (an event instant in B) meets B's last row there, the state after the event.
printf 'Time(s),Voltage(V),Current(A)\r\n0,5.09,0.00\r\n0.5,5.06,0.49\r\n1.0,4.91,1.49\r\n' >"$TMP/meter.csv"
run meter "$TMP/meter.csv" "$TMP/b.csv" --overlap-only --map 'Voltage(V)=vbus_V' \
	--map 'Current(A)=ibus_A' --tol vbus_V=abs:20mV --tol ibus_A=abs:20mA
expect_status "power meter capture with --map" 0
expect_in "meter's time column found" out 'time column "Time(s)"'

# Bad usage and input: exit 2, named file, line and column.
run oneargs "$TMP/a.csv"
expect_status "one file only" 2
run missing "$TMP/a.csv" "$TMP/nope.csv"
expect_status "missing file" 2
expect_in "missing file named" err "nope.csv"
run badtol "$TMP/a.csv" "$TMP/b.csv" --tol vbus_V=abs:5mA
expect_status "tolerance of the wrong unit" 2
expect_in "unit error" err 'found "5mA" (a current)'
run typo "$TMP/a.csv" "$TMP/b.csv" --tol vbus_v=abs:5mV
expect_status "tolerance for no such column" 2
expect_in "did you mean" err 'did you mean "vbus_V"'
printf 'time_s,vbus_V\n0,5\n1,nan\n' >"$TMP/nan.csv"
run nan "$TMP/nan.csv" "$TMP/b.csv"
expect_status "NaN cell" 2
expect_in "NaN names line and column" err 'nan.csv: line 3, column "vbus_V": found "nan"'
printf 'time_s,vbus_V\n0,5\n2,5\n1,5\n' >"$TMP/back.csv"
run back "$TMP/back.csv" "$TMP/b.csv"
expect_status "time going backwards" 2
expect_in "backwards names the line" err "line 4"
printf 'a,b\n1,2\n' >"$TMP/notime.csv"
run notime "$TMP/notime.csv" "$TMP/b.csv"
expect_status "no time column" 2
expect_in "hint at --time-column" err "--time-column"
run timecol "$TMP/notime.csv" "$TMP/notime.csv" --time-column a
expect_status "--time-column" 0
: >"$TMP/empty.csv"
run empty "$TMP/empty.csv" "$TMP/b.csv"
expect_status "empty file" 2

# Two real runs.
if [ -f scenarios/demo.json ]; then
	"$BIN" run scenarios/demo.json -o "$TMP/r1" -q >/dev/null 2>&1
	"$BIN" run scenarios/demo.json -o "$TMP/r2" -q --set device.load.current=10mA >/dev/null 2>&1
	run real1 "$TMP/r1/trace.csv" "$TMP/r1/trace.csv"
	expect_status "a real trace against itself" 0
	run real2 "$TMP/r2/trace.csv" "$TMP/r1/trace.csv"
	expect_status "10 mA more load differs" 1
	expect_in "the load column is reported" out "iload_A"
fi

# --time-shift on the command line: A's step 0.25 s after B's
printf 'time_s,v,state\n0,0,off\n10,0,off\n10,1,on\n20,1,on\n' >"$TMP/sb.csv"
printf 'time_s,v,state\n0,0,off\n10.25,0,off\n10.25,1,on\n20,1,on\n' >"$TMP/sa.csv"
run shift0 "$TMP/sa.csv" "$TMP/sb.csv"
expect_status "a step 0.25 s late, no --time-shift" 1
run shift1 "$TMP/sa.csv" "$TMP/sb.csv" --time-shift 100ms
expect_status "a step 0.25 s late, --time-shift 100ms" 1
run shift2 "$TMP/sa.csv" "$TMP/sb.csv" --time-shift 0.3s
expect_status "a step 0.25 s late, --time-shift 0.3s" 0
expect_in "the report states the shift" out "--time-shift 0.3 s: a value of A also passes"
run shiftbad "$TMP/sa.csv" "$TMP/sb.csv" --time-shift 5V
expect_status "--time-shift 5V" 2
expect_in "--time-shift 5V is named" err "--time-shift"

# The README's brute-force check, run as written there (build/chargesim and out/
# replaced by the binary under test and a scratch directory): it must end in PASS.
awk '/^### Checking the adaptive steps/ { on = 1 } on && /^```$/ { n++; if (n == 2) exit; next }
	on && n == 1 && /^build\/chargesim / { print }' README.md >"$TMP/readme-check.txt"
check "the README shows the brute-force check (3 commands)" test "$(wc -l <"$TMP/readme-check.txt")" -eq 3
mkdir -p "$TMP/readme"
i=0
while IFS= read -r line; do
	i=$((i + 1))
	cmd=$(printf '%s\n' "$line" | sed "s|^build/chargesim|\"\$BIN\"|; s|out/|$TMP/readme/|g")
	eval "$cmd" >"$TMP/readme-$i.out" 2>"$TMP/readme-$i.err"
	status=$?
	name=readme-$i
done <"$TMP/readme-check.txt"
expect_status "the README's diff of the adaptive run against the fixed-step run" 0
readme_pass=$(sed -n 's/^It ends with `\(PASS: [^`]*\)`.*/\1/p' README.md)
check "the README names the line the check ends with" test -n "$readme_pass"
expect_in "it ends as the README says ($readme_pass)" out "$readme_pass"
check "the fixed-step run's trace stays small (under 2 MB)" \
	test "$(wc -c <"$TMP/readme/fixed/trace.csv")" -lt 2000000
# and the same options still fail a run that differs: 10 mA more system load
dcmd=$(sed -n 3p "$TMP/readme-check.txt" | sed "s|^build/chargesim|\"\$BIN\"|; s|out/adaptive/|$TMP/r2/|; s|out/|$TMP/readme/|g")
if [ -f "$TMP/r2/trace.csv" ]; then
	eval "$dcmd" >"$TMP/readme-load.out" 2>&1
	status=$?
	name=readme-load
	expect_status "the README's options fail a run with 10 mA more load" 1
fi

tl_finish
