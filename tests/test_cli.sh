#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_cli.sh - the chargesim command line, end to end.
#
# Usage (from the repository root): tests/test_cli.sh build/chargesim
#
# Checks exit statuses and messages against docs/scenarios.md 12.1 (0 ok, 1 an expectation
# failed, 2 bad usage or input with a message naming the file and JSON path), the
# outputs of `run` (trace.csv header, events.jsonl lines, metrics.json keys), and that
# two runs of the same scenario give byte-identical outputs. Prints one line per
# check ("ok - ..." or "not ok - ...") and exits non-zero when any check failed.
set -u

. "$(dirname "$0")/lib.sh"
tl_init cli "${1:-build/chargesim}" scenarios/demo.json

# ---- basics ----

run version --version
expect_status "--version" 0
check "--version prints the version" grep -q '^chargesim [0-9]' "$TMP/version.out"

run unknown frobnicate
expect_status "unknown subcommand" 2
expect_stderr "unknown subcommand is named" "frobnicate"

run noargs
expect_status "no subcommand" 2

run list list policies
expect_status "list policies" 0
check "list policies names the fixed policy" grep -q 'fixed' "$TMP/list.out"

run listscn list scenarios scenarios
expect_status "list scenarios scenarios" 0
check "list scenarios goes into subdirectories, as docs/scenarios.md 12 says" sh -c \
	"grep -q '^scenarios/bugzoo/twl4030-full-battery.json ' '$TMP/listscn.out' &&
	 grep -q '^scenarios/sweeps/full-charge.json ' '$TMP/listscn.out'"
check "list scenarios leaves sweep files out" sh -c "! grep -q 'ramp-policies' '$TMP/listscn.out'"

run runnoarg run
expect_status "run without a scenario" 2

# ---- bad input: exit 2, the file, the JSON path, found/expected ----

run missing run scenarios/does-not-exist.json -o "$TMP/o-missing"
expect_status "missing scenario file" 2
expect_stderr "missing file is named" "scenarios/does-not-exist.json"
check "missing file: no output directory" test ! -e "$TMP/o-missing"

printf '{\n  "name": "x",\n  "seed": }\n' >"$TMP/syntax.json"
run syntax run "$TMP/syntax.json" -o "$TMP/o-syntax"
expect_status "JSON syntax error" 2
# line 3 is `  "seed": }`: the '}' is column 11
expect_stderr "syntax error names FILE:LINE:COL" "$TMP/syntax.json:3:11"

printf '{ "device": { "pmic": { "iterm": "5 V" } } }\n' >"$TMP/unit.json"
run unit run "$TMP/unit.json" -o "$TMP/o-unit"
expect_status "unit of the wrong dimension" 2
expect_stderr "unit error names the file" "$TMP/unit.json"
expect_stderr "unit error names the JSON path" "device.pmic.iterm"
expect_stderr "unit error says what was found" 'found "5 V" (a voltage)'

printf '{ "source": { "ilimm": "1 A" } }\n' >"$TMP/key.json"
run key run "$TMP/key.json" -o "$TMP/o-key"
expect_status "unknown key" 2
expect_stderr "unknown key names the path" "source.ilimm"
expect_stderr "unknown key has a did-you-mean" 'did you mean "ilim"'

run badset run scenarios/demo.json -o "$TMP/o-badset" --set 'source.ilimm=1'
expect_status "--set of an unknown key" 2
expect_stderr "--set unknown key has a did-you-mean" 'did you mean "ilim"'

mkdir "$TMP/adir"
run dir run "$TMP/adir" -o "$TMP/o-dir"
expect_status "a directory as scenario" 2
expect_stderr "directory is named" "$TMP/adir"

# ---- a good run ----

OUT1="$TMP/run1"
OUT2="$TMP/run2"
run demo1 run scenarios/demo.json -o "$OUT1"
expect_status "run scenarios/demo.json -o DIR" 0
for f in trace.csv events.jsonl metrics.json; do
	check "run writes $f" test -s "$OUT1/$f"
done
check "no temporary files left in the output directory" \
	test -z "$(ls -A "$OUT1" | grep -v -x -e trace.csv -e events.jsonl -e metrics.json)"

HEADER='time_s,vsrc_V,vbus_V,ibus_A,ilim_A,vbat_V,ibat_A,soc,iload_A,charger_state,source_state'
if [ -f "$OUT1/trace.csv" ]; then
	first=$(head -n 1 "$OUT1/trace.csv")
	case $first in
	"$HEADER" | "$HEADER",*) ok "trace.csv header starts with the documented columns" ;;
	*) not_ok "trace.csv header starts with the documented columns" "$first" ;;
	esac
	check "trace.csv has data rows" test "$(wc -l <"$OUT1/trace.csv")" -gt 2
	# every row has as many fields as the header (no field contains a comma)
	check "trace.csv rows all have the header's field count" \
		awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$OUT1/trace.csv"
	# charger_state and source_state hold the documented labels
	check "trace.csv states are documented labels" \
		awk -F, 'NR > 1 && ($10 !~ /^(off|precharge|cc|cv|done|uvlo|fault)$/ ||
			$11 !~ /^(detached|on|limiting|tripped)$/) { bad = 1 } END { exit bad }' \
		"$OUT1/trace.csv"
	# time_s never goes backwards
	check "trace.csv time is non-decreasing" \
		awk -F, 'NR > 2 && $1 + 0 < prev { bad = 1 } NR > 1 { prev = $1 + 0 } END { exit bad }' \
		"$OUT1/trace.csv"
fi

if command -v python3 >/dev/null 2>&1; then
	check "events.jsonl: every line is valid JSON" \
		python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$OUT1/events.jsonl"
	check "events.jsonl: every record has t, src, ev; t never decreases" python3 -c '
import json, sys
prev = 0
for line in sys.stdin:
    r = json.loads(line)
    assert isinstance(r["t"], (int, float)) and r["t"] >= prev, line
    assert isinstance(r["src"], str) and isinstance(r["ev"], str), line
    prev = r["t"]
' <"$OUT1/events.jsonl"
	check "metrics.json has the documented keys" python3 -c '
import json, sys
m = json.load(sys.stdin)
keys = """vbus_min_V time_below_4v75_s source_trips uvlo_events brownouts ilim_final_A
ilim_max_A ibus_max_A charge_in_mAh energy_source_Wh soc_initial soc_final
time_to_soc_80_s time_to_full_s detected_type energy_balance_error events steps""".split()
missing = [k for k in keys if k not in m]
assert not missing, missing
assert m["soc_initial"] == 0.2, m["soc_initial"]
' <"$OUT1/metrics.json"
else
	not_ok "python3 is needed to check the JSON outputs"
fi

check "no NaN or Inf in any output" \
	sh -c '! grep -i -q -w -e nan -e inf -e infinity "$1"/trace.csv "$1"/events.jsonl "$1"/metrics.json' \
	sh "$OUT1"

run demo2 run scenarios/demo.json -o "$OUT2"
expect_status "second run of the same scenario" 0
for f in trace.csv events.jsonl metrics.json; do
	check "two runs give a byte-identical $f" cmp -s "$OUT1/$f" "$OUT2/$f"
done

# A run over an existing output directory replaces the files.
run demo3 run scenarios/demo.json -o "$OUT1" --quiet
expect_status "run into an existing output directory" 0
check "--quiet prints nothing" test ! -s "$TMP/demo3.out"
check "rerun over old outputs gives the same trace.csv" cmp -s "$OUT1/trace.csv" "$OUT2/trace.csv"

run vcd run scenarios/demo.json -o "$TMP/o-vcd" --vcd --quiet
expect_status "run --vcd" 0
check "--vcd writes trace.vcd with real variables" grep -q '^\$var real ' "$TMP/o-vcd/trace.vcd"

# ---- expectations ----

# The demo with an expectation that cannot hold (it never trips its source).
sed 's/{ "metric": "source_trips", "==": 0 }/{ "metric": "source_trips", "==": 1 }/' \
	scenarios/demo.json >"$TMP/failing.json"
if grep -q '"==": 1' "$TMP/failing.json"; then
	run failing run "$TMP/failing.json" -o "$TMP/o-failing"
	expect_status "a failing expectation" 1
	check "a failing expectation still writes the outputs" test -s "$TMP/o-failing/metrics.json"
else
	not_ok "could not derive a failing scenario from scenarios/demo.json"
fi

# Why a run failed goes to stderr, with or without --quiet (issue 16, item 3).
if [ -f "$TMP/failing.json" ]; then
	run failingq run "$TMP/failing.json" -o "$TMP/o-failingq" --quiet
	expect_status "a failing expectation with --quiet" 1
	check "--quiet: nothing on stdout" test ! -s "$TMP/failingq.out"
	expect_stderr "--quiet: the failed expectation is on stderr" "FAILED: metric source_trips == 1 (got 0)"
	expect_stderr "the failure names the scenario file" "$TMP/failing.json: FAILED"
	name=failing
	expect_stderr "without --quiet the failure is on stderr too" "FAILED: metric source_trips == 1"
	check "without --quiet stdout has no FAILED line" sh -c "! grep -q FAILED '$TMP/failing.out'"
	expect_in "the summary counts it and points to stderr" out "expectations: 1 held, 1 failed (listed on stderr)"
fi

# The summary's flags (item 8): a laptop port configured for 500 mA under an 800 mA
# system load must starve the phone (the port gives 0.5 A, the load takes 0.8 A), a
# healthy charge has no flag, and an overloaded adapter is flagged with the trips and
# UVLO events metrics.json counts.
cat >"$TMP/starve.json" <<'EOF'
{ "name": "starve", "duration": "20 min", "source": { "kind": "sdp" },
  "device": { "battery": { "preset": "eb425161lu", "soc": "50 %" },
              "gadget": { "configs": ["500 mA"] }, "load": { "current": "800 mA" } } }
EOF
run starve run "$TMP/starve.json" -o "$TMP/o-starve"
expect_status "a starving run still exits 0 (no expectation)" 0
expect_in "the summary flags the starving" out "! STARVED: the battery discharged for"
expect_in "the summary says the SOC fell" out "; SOC fell 50.0 % -> "
check "metrics agree: SOC fell, discharged for most of the 20 min" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["soc_final"] < m["soc_initial"], m
assert 0.9 * 1200 < m["discharged_while_plugged_s"] <= 1200, m["discharged_while_plugged_s"]
' "$TMP/o-starve/metrics.json"
name=demo1
check "a healthy charge has no flag" sh -c "! grep -q '^  !' '$TMP/demo1.out'"
# bug zoo 1's recharges let the battery carry the load for a moment (a fraction of a
# second in 3 h): counted in metrics.json, below the 10 s a STARVED flag needs
run zoo1 run scenarios/bugzoo/twl4030-full-battery.json -o "$TMP/o-zoo1"
d=$(sed -n 's/^[[:space:]]*"discharged_while_plugged_s":[[:space:]]*\([0-9.e+-]*\).*/\1/p' "$TMP/o-zoo1/metrics.json")
check "bug zoo 1: a moment of discharge ($d s) is counted but not flagged" sh -c \
	"awk -v d='$d' 'BEGIN { exit !(d > 0 && d < 10) }' && ! grep -q STARVED '$TMP/zoo1.out'"
run trip run scenarios/bugzoo/twl4030-full-battery.json -o "$TMP/o-trip" \
	--set 'source.t_limit_max="20 s"' --set 'duration="60 min"'
trips=$(sed -n 's/^[[:space:]]*"source_trips":[[:space:]]*\([0-9]*\).*/\1/p' "$TMP/o-trip/metrics.json")
uvlos=$(sed -n 's/^[[:space:]]*"uvlo_events":[[:space:]]*\([0-9]*\).*/\1/p' "$TMP/o-trip/metrics.json")
check "the overload trips its adapter ($trips trips, $uvlos UVLO events)" test "${trips:-0}" -ge 1 -a "${uvlos:-0}" -ge 1
expect_in "the trips are flagged with their count" out "! SOURCE TRIP: the port's protection cut VBUS $trips time"
expect_in "the UVLO events are flagged with their count" out "! UVLO: the charger's input dropped out on undervoltage $uvlos time"

# Summary numbers a person reads (item 10): no exponents, "not reached" said plainly.
name=demo1
check "summary: no exponent outside the energy balance error" sh -c \
	"! sed 's/energy balance error [^;]*;//' '$TMP/demo1.out' | grep -E -q '[0-9]e[-+]?[0-9]'"
below=$(python3 -c 'import json,sys; print("%.1f min" % (json.load(open(sys.argv[1]))["time_below_4v75_s"] / 60))' "$OUT1/metrics.json")
vmin=$(python3 -c 'import json,sys; print("%.3f V" % json.load(open(sys.argv[1]))["vbus_min_V"])' "$OUT1/metrics.json")
expect_in "summary: time below 4.75 V in minutes ($below)" out "VBUS min $vmin, $below below 4.75 V"
expect_in "summary: the duration in hours" out "scenario demo, policy fixed: 2.00 h simulated in "
name=starve
expect_in "summary: 80 % not reached" out "; 80 % not reached; full not reached"
check "summary: never \"at not reached\"" sh -c "! grep -q 'at not reached' '$TMP/starve.out'"

# --help names the program and the command (item 16).
for c in run check compare sweep merge plot diff list; do
	run help-$c $c --help
	expect_status "$c --help" 0
	check "$c --help: usage line \"chargesim $c [OPTION...]\"" grep -q "^  chargesim $c \[OPTION\.\.\.\]" "$TMP/help-$c.out"
done
name=help-list
for t in policies sources pmics batteries scenarios "chargesim list scenarios scenarios/bugzoo"; do
	expect_in "list --help explains \"$t\"" out "  $t"
done

# --set with a unit written the way a shell user types it (no JSON quotes): the value
# is not JSON, so it is the string "100mA" and means 0.1 A, not 100 A.
cat >"$TMP/quick.json" <<'EOF'
{
  "name": "quick",
  "duration": "10 min",
  "source": { "kind": "dcp" },
  "device": { "battery": { "soc": "50 %" } }
}
EOF
run quick run "$TMP/quick.json" -o "$TMP/o-quick" --quiet
expect_status "a scenario without expectations" 0
run setunit run "$TMP/quick.json" -o "$TMP/o-setunit" --quiet --set device.load.current=100mA
expect_status "--set device.load.current=100mA" 0
run setquoted run "$TMP/quick.json" -o "$TMP/o-setq" --quiet --set 'device.load.current="100 mA"'
expect_status "--set device.load.current=\"100 mA\"" 0
if [ -f "$TMP/o-setunit/trace.csv" ] && [ -f "$TMP/o-setq/trace.csv" ]; then
	check "--set 100mA and \"100 mA\" give the same run" \
		cmp -s "$TMP/o-setunit/trace.csv" "$TMP/o-setq/trace.csv"
else
	not_ok "--set 100mA and \"100 mA\" give the same run (outputs missing)"
fi

# ---- an output directory that cannot be made (its parent is a file) ----
: >"$TMP/afile"
run outfile run scenarios/demo.json -o "$TMP/afile/out"
expect_status "-o below a regular file" 2
expect_stderr "-o below a regular file: says so" "$TMP/afile/out: cannot create output directory"

# ---- Ctrl-C during a run: exit 130, nothing under a final name, no temporary file ----
cat >"$TMP/long.json" <<'JSON'
{ "duration": "2 h", "source": { "kind": "dcp" }, "device": { "battery": { "soc": "50 %" } } }
JSON
tl_interrupt '[ -n "$(find "$TMP/o-int" -path "*/.chargesim-set.tmp-*/trace.csv" 2>/dev/null)" ]' "$TMP/int.err" \
	"$BIN" run "$TMP/long.json" -o "$TMP/o-int" -q --max-step 100us
name=int
expect_status "SIGINT during a run" 130
expect_stderr "SIGINT: says no output was completed" "no output was completed"
check "SIGINT: no trace.csv, events.jsonl or metrics.json" \
	sh -c "! ls '$TMP/o-int' | grep -q -e trace.csv -e events.jsonl -e metrics.json"
check "SIGINT: no temporary files left" sh -c "! ls -a '$TMP/o-int' | grep -q tmp"

# --max-step without --trace-dt (item 5): a warning with the size before the run; with
# --trace-dt the trace keeps the last row (at the duration) and both sides of a jump.
tl_interrupt 'grep -q warning "$TMP/bigtrace.err" 2>/dev/null' "$TMP/bigtrace.err" \
	"$BIN" run scenarios/demo.json -o "$TMP/o-bigtrace" -q --max-step 1ms
name=bigtrace
expect_stderr "--max-step 1ms: warns before the run" "warning: --max-step 1ms over the scenario's 2.00 h writes about 7.2 million trace rows (about 540 MB)"
expect_stderr "--max-step 1ms: says how to avoid it" "add --trace-dt 1s"
run fixed run scenarios/demo.json -o "$TMP/o-fixed" -q --max-step 10ms --trace-dt 1s
expect_status "--max-step 10ms --trace-dt 1s" 0
check "--max-step 10ms (720000 rows, 54 MB): no warning" test ! -s "$TMP/fixed.err"
check "--trace-dt: the last row is at the duration (7200 s)" \
	test "$(tail -n 1 "$TMP/o-fixed/trace.csv" | cut -d, -f1)" = 7200
# the fixed policy sets its 2 A limit at 0.01 s (ilim_set in events.jsonl): the rows
# before (0.5 A, the charger's default) and after it are both there
check "--trace-dt: both sides of the 0.01 s limit jump" sh -c \
	"grep -q '\"t\":0.01,.*\"ev\":\"ilim_set\",\"request_mA\":2000' '$TMP/o-fixed/events.jsonl' &&
	 awk -F, '\$1 == \"0.01\" { s = s \$5 \" \" } END { exit s != \"0.5 2 \" }' '$TMP/o-fixed/trace.csv'"
check "--trace-dt 1s: about one row per second (7200 to 7300 rows)" \
	test "$(wc -l <"$TMP/o-fixed/trace.csv")" -gt 7200 -a "$(wc -l <"$TMP/o-fixed/trace.csv")" -lt 7300

# --trace-dt on a polling policy (issue 38, item 5): safe-ramp reads VBUS every second,
# and each poll that moved nothing used to write the row the decimation left out and
# then the same row again, so --trace-dt 60s gave twice the rows of no option. The
# rule: at most one row per interval plus the rows events and state changes force, a
# row pair only where a value jumps, the last row at the duration.
run poll run scenarios/demo.json --policy safe-ramp -o "$TMP/o-poll" -q
expect_status "demo, safe-ramp" 0
run poll60 run scenarios/demo.json --policy safe-ramp -o "$TMP/o-poll60" -q --trace-dt 60s
expect_status "demo, safe-ramp, --trace-dt 60s" 0
check "--trace-dt 60s on a polling policy: fewer rows than without the option" \
	test "$(wc -l <"$TMP/o-poll60/trace.csv")" -lt "$(wc -l <"$TMP/o-poll/trace.csv")"
check "--trace-dt 60s: no two identical consecutive rows" \
	test -z "$(uniq -d "$TMP/o-poll60/trace.csv")"
# one row per 60 s over 2 h, plus at most two per record of events.jsonl
check "--trace-dt 60s: at most one row per interval plus those of the events" \
	test "$(wc -l <"$TMP/o-poll60/trace.csv")" -le \
	"$((7200 / 60 + 2 + 2 * $(wc -l <"$TMP/o-poll60/events.jsonl")))"
# every ilim_set that changed the limit (applied_mA) is a pair at its time: the row
# with the limit before, then the row with the new one (ilim_A, the 5th column); and
# two rows at one time are a jump: they differ
cat >"$TMP/pair.awk" <<'AWK'
FNR == NR {
	t = $0; sub(/^\{"t":/, "", t); sub(/,.*/, "", t)
	a = $0; sub(/.*"applied_mA":/, "", a); sub(/[^0-9].*/, "", a)
	ev[++n] = t; ma[n] = a; next
}
FNR == 2 { last = $5 * 1000 }
FNR > 1 { rows[$1] = rows[$1] $5 " " }
FNR > 2 && $1 == prev_t && $0 == prev { print "no jump at " $1; bad = 1 }
FNR > 1 { prev_t = $1; prev = $0 }
END {
	for (i = 1; i <= n; i++) {
		if (ma[i] != last) {
			want = last / 1000 " " ma[i] / 1000 " "
			if (rows[ev[i]] != want) { print ev[i] ": " rows[ev[i]] "want " want; bad = 1 }
			pairs++
		}
		last = ma[i]
	}
	exit bad || !pairs
}
AWK
grep '"ev":"ilim_set"' "$TMP/o-poll60/events.jsonl" >"$TMP/poll60-ilim.jsonl"
check "--trace-dt 60s: a row pair (before, after) at each limit change, and only at a jump" \
	awk -F, -f "$TMP/pair.awk" "$TMP/poll60-ilim.jsonl" "$TMP/o-poll60/trace.csv"
check "--trace-dt 60s: the last row is at the duration (7200 s)" \
	test "$(tail -n 1 "$TMP/o-poll60/trace.csv" | cut -d, -f1)" = 7200
# the figures docs/scenarios.md 11.1 quotes for these two runs
rows_doc=$(tr '\n' ' ' <docs/scenarios.md |
	sed -n 's/.*`safe-ramp` (which reads VBUS every second) writes \([0-9,]*\) rows without the option *and \([0-9,]*\) with `--trace-dt 60s`.*/\1 \2/p' | tr -d ,)
rows_run="$(($(wc -l <"$TMP/o-poll/trace.csv") - 1)) $(($(wc -l <"$TMP/o-poll60/trace.csv") - 1))"
check "docs/scenarios.md 11.1 quotes the rows of these runs ($rows_run; the doc: $rows_doc)" \
	test "$rows_doc" = "$rows_run"

# The README's "Using it" lines can be pasted (issue 16, item 14): each names a real
# command, pipes nothing into nothing, and uses only options its --help lists; every
# command of `chargesim --help` appears there.
awk '/^## Using it/ { on = 1; next } on && /^```$/ { n++; if (n == 2) exit; next }
	on && n == 1 { print }' README.md | sed 's/  *#.*$//' >"$TMP/readme-use.txt"
run mainhelp --help
bad=""
while IFS= read -r line; do
	set -- $line
	[ "$1" = build/chargesim ] || { bad="$bad [not build/chargesim: $line]"; continue; }
	cmd=$2
	[ "$cmd" = --help ] && continue
	case $line in *" | "*) bad="$bad [a pipe: $line]" ;; esac
	"$BIN" "$cmd" --help >"$TMP/readme-help.txt" 2>&1 || { bad="$bad [no command $cmd]"; continue; }
	for w in $line; do
		case $w in
		--*) opt=${w%%=*}
			grep -q -- "$opt" "$TMP/readme-help.txt" || bad="$bad [$cmd has no $opt]" ;;
		esac
	done
done <"$TMP/readme-use.txt"
for c in $(awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }' "$TMP/mainhelp.out"); do
	grep -q "^build/chargesim $c " "$TMP/readme-use.txt" || bad="$bad [README lacks $c]"
done
if [ -z "$bad" ] && [ -s "$TMP/readme-use.txt" ]; then
	ok "README: every command line can be pasted, every command shown"
else
	not_ok "README: lines that cannot be pasted or commands missing" "$bad"
fi

# ---- -jN written together, as make(1) takes it ----
mkdir -p "$TMP/jobs"
cp scenarios/ec/ec-no-ramp.json scenarios/ec/ec-ramp-limit.json "$TMP/jobs/"
run jobs_apart check "$TMP/jobs" -j 2 -o "$TMP/o-jobs-apart"
expect_status "check -j 2" 0
run jobs_together check "$TMP/jobs" -j2 -o "$TMP/o-jobs-together"
expect_status "check -j2 (no space)" 0
check "check -j2 and -j 2 print the same" cmp -s "$TMP/jobs_apart.out" "$TMP/jobs_together.out"
run jobs_bad check "$TMP/jobs" -jx
expect_status "check -jx" 2
# after "--" a word that reads -jN is an operand, not split (it once wrote past the vector)
run jobs_operand check -j2 -- -j3 -j4
expect_status "check -j2 -- -j3 -j4: operands, refused as files" 2
expect_stderr "the operand is named as a file" "no such file or directory"

# A model's warning reaches the terminal, not only events.jsonl: bug zoo 1 charges its
# cell to 4.35 V with an 80 mA termination, which ends above the OCV table's 100 % point.
run warn run scenarios/bugzoo/twl4030-full-battery.json -o "$TMP/warn"
expect_status "a run with a model warning still succeeds" 0
expect_in "the warning is a flag of the summary" out "! WARNING: pmic: a charge to vreg 4.35 V"
run warnq run -q scenarios/bugzoo/twl4030-full-battery.json -o "$TMP/warn"
expect_stderr "with -q the warning is on stderr, with the file" "warning: scenarios/bugzoo/twl4030-full-battery.json: pmic: a charge to vreg 4.35 V"
check "the demo gives no warning" sh -c "! grep -q 'warning:' '$TMP/demo1.err'"

# ---- check DIR: symbolic links followed, each directory and file once ----
mkdir -p "$TMP/walk/sub" "$TMP/walk/real"
cp "$TMP/quick.json" "$TMP/walk/sub/a.json"
ln -s . "$TMP/walk/loop"           # a link to itself: was walked 41 times
ln -s .. "$TMP/walk/sub/up"        # and a second loop: two hung the walk
ln -s a.json "$TMP/walk/sub/b.json"  # the same file under another name
ln -s ../real "$TMP/walk/sub/linked"
sed 's/"quick"/"quick-c"/' "$TMP/quick.json" >"$TMP/walk/real/c.json"   # a name of its own
timeout 20 "$BIN" check "$TMP/walk" -o "$TMP/o-walk" >"$TMP/walk.out" 2>"$TMP/walk.err"
status=$?
name=walk
expect_status "check of a directory with symlink loops" 0
expect_in "each scenario runs once" out "2 passed, 0 failed"
timeout 20 "$BIN" list scenarios "$TMP/walk" >"$TMP/walk-list.out" 2>"$TMP/walk-list.err"
status=$?
name=walk-list
expect_status "list scenarios of the same directory" 0
check "list names each scenario once" test "$(wc -l <"$TMP/walk-list.out")" -eq 2

# ---- check --accept through a symbolic link rewrites the real file ----
# (the link stays inside the checked directory: one out of it is refused, below)
mkdir -p "$TMP/acc/suite/zreal"
sed 's/"fingerprint": "[0-9a-f]*"/"fingerprint": "0000000000000000"/' scenarios/ec/ec-no-ramp.json \
	>"$TMP/acc/suite/zreal/s.json"
chmod 664 "$TMP/acc/suite/zreal/s.json"
ln -s zreal/s.json "$TMP/acc/suite/s.json"
run accept check "$TMP/acc/suite" --accept -o "$TMP/o-acc"
expect_status "check --accept of a failing fingerprint" 1
check "the scenario is still a symbolic link" test -L "$TMP/acc/suite/s.json"
check "the real file got the new fingerprint" sh -c "! grep -q 0000000000000000 '$TMP/acc/suite/zreal/s.json'"
check "the real file kept its permissions" test "$(stat -c %a "$TMP/acc/suite/zreal/s.json")" = 664
run accept2 check "$TMP/acc/suite" -o "$TMP/o-acc"
expect_status "after --accept the check passes" 0

# ---- check DIR never reads a file through a link out of DIR ----
# A pull request can add scenarios/x.json -> a secret file: the walk finds it, but it is
# an ERROR naming the link, and nothing of the target is read or printed; named on the
# command line itself, the same file is the user's choice and checked.
mkdir -p "$TMP/out-link/suite" "$TMP/out-link/secret"
printf 'SECRET-TOKEN {\n' >"$TMP/out-link/secret/s.json"
cp scenarios/ec/ec-no-ramp.json "$TMP/out-link/suite/ok.json"
ln -s ../secret/s.json "$TMP/out-link/suite/x.json"
run outlink check "$TMP/out-link/suite" -o "$TMP/o-outlink"
expect_status "check of a directory with a link out of it" 2
expect_in "the link is an ERROR, the other scenario runs" out "1 passed, 0 failed, 1 could not run"
expect_in "the ERROR names the link and where it leads" out "found a symbolic link to"
check "nothing of the target is printed" sh -c "! grep -q SECRET-TOKEN '$TMP/outlink.out' '$TMP/outlink.err'"
run outlink2 check "$TMP/out-link/suite/x.json" -o "$TMP/o-outlink2"
expect_status "named on the command line, the file itself is checked (a syntax error)" 2
expect_in "its own error is given" out "JSON"

# ---- check: two scenarios of one name are an ERROR naming both files (issue 38) ----
mkdir -p "$TMP/dupname/a" "$TMP/dupname/b"
cp scenarios/ec/ec-no-ramp.json "$TMP/dupname/a/x.json"
cp scenarios/ec/ec-no-ramp.json "$TMP/dupname/b/y.json"
run dupname check "$TMP/dupname" -o "$TMP/o-dupname"
expect_status "check of two scenarios with one name" 2
expect_in "the first runs, the second is an ERROR" out "1 passed, 0 failed, 1 could not run"
expect_in "the ERROR names both files" out "b/y.json: found the name \"ec-no-ramp\", which $TMP/dupname/a/x.json also has"
run libnames check -o "$TMP/o-libnames" -q -j 2
expect_status "the scenario library's names are all different" 0

# ---- check --filter GLOB: only the files whose path matches ----
run filter check scenarios/ --filter '*bugzoo/twl4030*' -o "$TMP/o-filter"
expect_status "check --filter" 0
check "only the matching scenarios ran" sh -c "grep -c '^PASS' '$TMP/filter.out' | grep -qx 4 && ! grep -q PASS.demo '$TMP/filter.out'"
run filter0 check scenarios/ --filter 'no-such-*' -o "$TMP/o-filter0"
expect_status "check --filter that matches nothing" 2
expect_stderr "the message names the pattern" "--filter no-such-*: found no scenario file whose path matches"

# ---- check --junit: XML any parser reads, classes relative, errors apart ----
mkdir -p "$TMP/ju/suite/sub"
printf '{ "duration": "10 min", "source": { "kind": "dcp" } }\n' >"$TMP/ju/suite/a.json"
cp "$TMP/ju/suite/a.json" "$TMP/ju/suite/sub/b.json"
cp "$TMP/ju/suite/a.json" "$TMP/ju/suite/sub/$(printf 'caf\351').json"   # not UTF-8: an ERROR
printf '{ "duration": "x" }\n' >"$TMP/ju/suite/sub/bad <&>.json"
run junit check "$TMP/ju/suite" -o "$TMP/o-ju" --junit "$TMP/ju.xml"
expect_status "check with scenarios that cannot run" 2
expect_in "the summary counts errors apart from failures" out "2 passed, 0 failed, 2 could not run"
if command -v python3 >/dev/null 2>&1; then
	check "the JUnit XML parses, with classes relative to the checked directory" python3 -c '
import sys, xml.etree.ElementTree as E
t = E.parse(sys.argv[1])
cases = {c.get("name"): c for c in t.iter("testcase")}
assert t.getroot().get("errors") == "2" and t.getroot().get("failures") == "0", t.getroot().attrib
assert cases["a"].get("classname") == "suite", cases["a"].attrib
assert cases["b"].get("classname") == "suite.sub", cases["b"].attrib
assert sum(1 for c in t.iter("error")) == 2
' "$TMP/ju.xml"
else
	not_ok "python3 is needed to parse the JUnit XML"
fi


# ---- text that stays text, stdout errors, special files (issue 36) ----

# run_t NAME ARGS...: run, but killed after 20 s (a blocked read is a failure, not a hang)
run_t() {
	name=$1
	shift
	timeout -k 5 20 "$BIN" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
	status=$?
}

# no_control FILE: no control character but line feed and tab (ESC, CR, BEL, C1 ...)
no_control() {
	! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" &&
		! grep -q "$(printf '\302[\200-\237]')" "$1"
}

# XML 1.0 forbids U+FFFE, U+FFFF and most C0 controls: the JUnit report stays well-formed
mkdir -p "$TMP/xt/suite"
printf '{ "name": "n\\u001b[2J\\uFFFE\\uFFFF\\u0007<&>", "duration": "10 min", "source": { "kind": "dcp" } }\n' \
	>"$TMP/xt/suite/bad-name.json"
printf '{ "duration": "10 min", "description": "d\\uFFFE\\u0001", "source": { "kind": "dcp" }, "expect": [ { "at_end": "battery.soc >= 200 %%" } ] }\n' \
	>"$TMP/xt/suite/$(printf 'f\357\277\276\357\277\277').json"
run_t xt check "$TMP/xt/suite" -o "$TMP/o-xt" --junit "$TMP/xt.xml"
expect_status "check of scenarios with U+FFFE, U+FFFF and ESC in names" 2
check "the JUnit XML is well-formed" python3 -c '
import sys, xml.etree.ElementTree as E
t = E.parse(sys.argv[1])
assert sum(1 for c in t.iter("testcase")) == 2
' "$TMP/xt.xml"
if command -v xmllint >/dev/null 2>&1; then
	check "xmllint reads the JUnit XML" xmllint --noout "$TMP/xt.xml"
fi
check "the check report shows no raw control character" no_control "$TMP/xt.out"
expect_in "the report shows ESC as \\x1b" out 'n\u001b[2J'

# a description with ESC, CR, BEL and a C1 CSI, listed: shown escaped
mkdir -p "$TMP/xt/list"
printf '{ "name": "esc", "description": "a\\u001b]0;owned\\u0007\\rb\\u009b2J", "duration": "10 min", "source": { "kind": "dcp" } }\n' \
	>"$TMP/xt/list/esc.json"
run_t xtlist list scenarios "$TMP/xt/list"
expect_status "list scenarios of a description with control characters" 0
check "list shows no raw control character" no_control "$TMP/xtlist.out"
expect_in "list shows ESC as \\x1b" out 'a\x1b]0;owned\x07\x0db\u009b2J'

# a CSV column name with ESC, in diff's output and messages
printf 'time_s,v\033[31m\n0,1\n1,1\n' >"$TMP/xt/esc.csv"
printf 'time_s,v\033[31m\n0,1\n1,2\n' >"$TMP/xt/esc2.csv"
run_t xtdiff diff "$TMP/xt/esc.csv" "$TMP/xt/esc2.csv"
check "diff shows no raw control character (stdout)" no_control "$TMP/xtdiff.out"
check "diff shows no raw control character (stderr)" no_control "$TMP/xtdiff.err"

# sweep --show of a base scenario whose file name holds ESC: the command line is escaped
cp scenarios/demo.json "$TMP/xt/b$(printf '\033')[2J.json"
printf '{ "base": "b\u001b[2J.json", "vary": { "source.ilim": ["1 A"] } }\n' >"$TMP/xt/esc-sweep.json"
run_t xtshow sweep --show=0 "$TMP/xt/esc-sweep.json"
expect_status "sweep --show of a base with ESC in its name" 0
check "sweep --show prints no raw control character" no_control "$TMP/xtshow.out"
expect_in "sweep --show shows ESC as \\x1b" out 'b\x1b[2J.json'

# a write error on stdout is no success
for c in "list" "list policies" "list scenarios $TMP/xt/list" "--version" "run --help" \
	"sweep --show=0 scenarios/sweeps/cable-random.json" \
	"diff tests/bad-inputs/helpers/trace-ok.csv tests/bad-inputs/helpers/trace-ok.csv" \
	"check -q $TMP/xt/list -o $TMP/o-full"; do
	# shellcheck disable=SC2086
	timeout -k 5 60 "$BIN" $c >/dev/full 2>"$TMP/full.err"
	st=$?
	if [ "$st" -eq 2 ] && grep -q "cannot write to standard output" "$TMP/full.err"; then
		ok "$c > /dev/full: exit 2 with a message"
	else
		not_ok "$c > /dev/full: exit $st, want 2 with a message" "$(head -c 500 "$TMP/full.err")"
	fi
done

# special files where a regular file is expected: refused at once, never read
mkdir -p "$TMP/sf/dir"
cp scenarios/demo.json "$TMP/sf/dir/a.json"
mkfifo "$TMP/sf/fifo.json" "$TMP/sf/fifo.csv" "$TMP/sf/dir/b.json"
run_t sfrun run "$TMP/sf/fifo.json" -o "$TMP/o-sf"
expect_status "run of a FIFO" 2
expect_stderr "run of a FIFO names it and what was expected" "$TMP/sf/fifo.json: found a FIFO (named pipe), expected a scenario file"
run_t sfcheck check "$TMP/sf/dir" -q -o "$TMP/o-sf"
expect_status "check of a directory holding a FIFO" 2
expect_in "check names the FIFO" out "ERROR b.json: $TMP/sf/dir/b.json: found a FIFO"
run_t sfsweep sweep --show=0 "$TMP/sf/fifo.json"
expect_status "sweep --show of a FIFO" 2
expect_stderr "sweep names the FIFO" "$TMP/sf/fifo.json: found a FIFO (named pipe)"
run_t sfplot plot "$TMP/sf/fifo.csv" -o "$TMP/sf/p.svg"
expect_status "plot of a FIFO" 2
expect_stderr "plot names the FIFO" "$TMP/sf/fifo.csv: found a FIFO (named pipe), expected a CSV file"
run_t sfdiff diff "$TMP/sf/fifo.csv" tests/bad-inputs/helpers/trace-ok.csv
expect_status "diff of a FIFO" 2
expect_stderr "diff names the FIFO" "$TMP/sf/fifo.csv: found a FIFO (named pipe), expected a CSV file"
mkdir -p "$TMP/sf/gold"
mkfifo "$TMP/sf/gold/g.csv"
printf '{ "name": "gf", "duration": "10 min", "source": { "kind": "dcp" }, "expect": [ { "golden": "g.csv" } ] }\n' \
	>"$TMP/sf/gold/s.json"
run_t sfgold check "$TMP/sf/gold" -o "$TMP/o-sf"
expect_status "check of a scenario whose golden trace is a FIFO" 2
expect_in "check names the FIFO golden trace" out "g.csv: found a FIFO (named pipe), expected a CSV file"
run_t sfdev run /dev/null -o "$TMP/o-sf"
expect_status "run of a character device" 2
expect_stderr "run of /dev/null says what it is" "/dev/null: found a character device"

# a NUL escape in a sweep file would cut a varied value short
printf '{ "base": "%s/scenarios/demo.json", "vary": { "name": ["a\\u0000b"] } }\n' "$(pwd)" \
	>"$TMP/sf/nul-sweep.json"
run_t sfnul sweep --show=0 "$TMP/sf/nul-sweep.json"
expect_status "sweep file with \\u0000 in a string" 2
expect_stderr "the sweep message names \\u0000" 'found \u0000 in a string'

# ---- paths confined (issue 36, part 2): a scenario names files inside its directory ----
# A golden path through a symbolic link out of the scenario's directory is refused with
# nothing of the target printed, and check --accept creates nothing outside the tree.
mkdir -p "$TMP/conf/tree" "$TMP/conf/secret"
printf 'SECRET-TOKEN=1\n' >"$TMP/conf/secret/.env"
ln -s ../secret "$TMP/conf/tree/link"
conf_scn() {   # conf_scn NAME GOLDEN: a valid scenario comparing against GOLDEN
	printf '{ "name": "%s", "duration": "10 s", "source": { "kind": "dcp" }, "expect": [ { "golden": "%s" } ] }\n' \
		"$1" "$2" >"$TMP/conf/tree/$1.json"
}
conf_scn sym link/.env
conf_scn symnew link/new.csv
conf_scn up ../secret/up.csv
conf_scn abs "$TMP/conf/secret/abs.csv"
run confsym check "$TMP/conf/tree/sym.json" -o "$TMP/o-conf"
expect_status "a golden through a link out of the tree" 2
expect_in "the refusal names the file, the JSON path and the path" out \
	"$TMP/conf/tree/sym.json: expect[0].golden: found \"link/.env\", expected a path inside"
check "nothing of the file outside is printed" sh -c "! grep -q SECRET-TOKEN '$TMP/confsym.out' '$TMP/confsym.err'"
run confacc check --accept "$TMP/conf/tree/symnew.json" "$TMP/conf/tree/up.json" \
	"$TMP/conf/tree/abs.json" -o "$TMP/o-conf"
expect_status "check --accept with goldens outside the tree" 2
check "check --accept created nothing outside the tree" sh -c \
	"[ \"\$(ls -A '$TMP/conf/secret')\" = .env ]"
expect_in "an absolute golden is named" out "found \"$TMP/conf/secret/abs.csv\""
conf_scn inside golden/in.csv
run confin check --accept "$TMP/conf/tree/inside.json" -o "$TMP/o-conf"
check "check --accept still writes a golden inside the tree" test -s "$TMP/conf/tree/golden/in.csv"
# a sweep's base: the sweep file's tree or a scenario library, after links
printf '{ "base": "link/.env", "vary": { "source.ilim": ["1 A"] } }\n' >"$TMP/conf/tree/sw.json"
run confsw sweep --show=0 "$TMP/conf/tree/sw.json"
expect_status "a sweep's base through a link out of the tree" 2
expect_stderr "the refusal names the base and where it leads" \
	"base: found \"link/.env\", expected a scenario inside $TMP/conf/tree"
check "nothing of the base outside is printed" sh -c "! grep -q SECRET-TOKEN '$TMP/confsw.out' '$TMP/confsw.err'"
conf_root=$(pwd)
(cd / && "$BIN" sweep --show=0 "$conf_root/scenarios/sweeps/twl4030-grid.json") >"$TMP/confsw2.out" 2>&1
status=$? name=confsw2
expect_status "a library sweep run from elsewhere still finds its base (../bugzoo)" 0

# ---- out of memory (issue 36, helper F): a valid 4 MB file under tight ulimit -v
# limits is exit 2 "out of memory" naming the input (or it fits: exit 2 for its unknown
# key), never a "JSON syntax error" (cJSON's allocation failures looked like one) nor
# GLib's abort (exit 133). Every limit from 20 to 70 MB is tried. ----
awk 'BEGIN { printf "{\"name\": \"oom\", \"extra\": {"
	for (i = 0; i < 300000; i++) printf "%s\"k%d\": 0", i ? ", " : "", i
	print "}}" }' >"$TMP/oom.json"
bad=
oom=0
for v in 20000 25000 30000 35000 40000 45000 50000 55000 60000 70000; do
	(ulimit -v $v; exec "$BIN" run "$TMP/oom.json" -o "$TMP/oom") >/dev/null 2>"$TMP/oom.err"
	s=$?
	if [ $s = 2 ] && grep -q "out of memory" "$TMP/oom.err"; then
		grep -q "$TMP/oom.json" "$TMP/oom.err" || bad="$bad $v:unnamed"
		oom=$((oom + 1))
	elif [ $s != 2 ] || ! grep -q 'unknown key "extra"' "$TMP/oom.err"; then
		bad="$bad $v:exit-$s:$(head -c 120 "$TMP/oom.err")"
	fi
done
if [ -z "$bad" ] && [ $oom -gt 0 ]; then
	ok "tight ulimit -v: out of memory is exit 2 naming the file ($oom of 10 limits)"
else
	not_ok "tight ulimit -v: out of memory is exit 2 naming the file" "$bad (out of memory $oom times)"
fi
check "no output is left" test -z "$(ls -A "$TMP/oom" 2>/dev/null)"

tl_finish
