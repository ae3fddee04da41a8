#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_traps.sh - no silent traps (issue 38, items 4 and 5): a run's warnings
# reach every path (run's summary, run -q, check, JUnit, sweeps); a check failure says
# where the run's outputs are and which `chargesim diff` shows every column; the
# expectations are echoed in the units the scenario wrote; compare and run give each
# --policy its own parameters; a set event on one policy's parameters is skipped for
# the others in a compare.
#
# Usage: tests/test_traps.sh path/to/chargesim   (from the repository root)

. "$(dirname "$0")/lib.sh"
tl_init traps "${1:-build/chargesim}" scenarios/bugzoo/twl4030-full-battery.json

ZOO1=scenarios/bugzoo/twl4030-full-battery.json

# expect_not WHAT out|err FIXED-STRING: the last run's stdout or stderr lacks it.
expect_not() {
	if grep -F -q -- "$3" "$TMP/$name.$2"; then
		not_ok "$1 ($2 has '$3')" "$(grep -F -- "$3" "$TMP/$name.$2" | head -c 800)"
	else
		ok "$1"
	fi
}

# ---- warnings reach every path ----
# Bug zoo 1 charges its cell to 4.35 V and stops at 80 mA: the OCV it ends at lies above
# the OCV table's 100 % point, and the SOC does pass 100 % (the trace's soc column
# peaks at 100.77 %, the figure issue 38 reports), which the pmic model warns of at t = 0.
run zoo1 run "$ZOO1" -o "$TMP/zoo1"
expect_status "bug zoo 1 runs" 0
check "bug zoo 1's SOC does pass 100 % (the warning is true)" python3 -c "
import csv, sys
m = max(float(r['soc']) for r in csv.DictReader(open(sys.argv[1])))
assert abs(m - 1.0077) < 5e-4, m" "$TMP/zoo1/trace.csv"
expect_in "run: the summary flags the warning" out "  ! WARNING: pmic: a charge to vreg 4.35 V ending at iterm 0.08 A"
expect_in "run: the summary's warning says SOC will pass 100 %" out "SOC will pass 100 %"
run zoo1q run -q "$ZOO1" -o "$TMP/zoo1q"
expect_status "run -q" 0
check "run -q prints nothing on stdout" test ! -s "$TMP/zoo1q.out"
expect_in "run -q: the warning is on stderr, with the file" err "chargesim: warning: $ZOO1: pmic: a charge to vreg 4.35 V"
run demo run -q scenarios/demo.json -o "$TMP/demo"
check "run -q of the demo: no warning" test ! -s "$TMP/demo.err"

run chk check "$ZOO1" scenarios/demo.json -o "$TMP/chk" --junit "$TMP/chk.xml"
expect_status "check of bug zoo 1 and the demo" 0
check "check: the warning follows the scenario's PASS line" python3 -c "
import sys
lines = open(sys.argv[1]).read().splitlines()
i = lines.index('PASS twl4030-full-battery')
assert lines[i + 1].startswith('  warning: pmic: a charge to vreg 4.35 V'), lines
assert 'SOC will pass 100 %' in lines[i + 1]
assert sum('warning:' in l for l in lines) == 1, lines" "$TMP/chk.out"
run chkq check -q "$ZOO1" scenarios/demo.json -o "$TMP/chk"
expect_status "check -q" 0
check "check -q: the warned scenario and its warning stay, the clean PASS goes" python3 -c "
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == 'PASS twl4030-full-battery', lines
assert lines[1].startswith('  warning: pmic: '), lines
assert lines[2:] == ['2 passed, 0 failed'], lines" "$TMP/chkq.out"
check "JUnit: the warning is the test case's system-err, the clean one has none" python3 -c "
import sys, xml.etree.ElementTree as ET
cases = {c.get('name'): c for c in ET.parse(sys.argv[1]).iter('testcase')}
err = cases['twl4030-full-battery'].find('system-err')
assert err is not None and err.text.startswith('warning: pmic: a charge to vreg 4.35 V'), err
assert 'SOC will pass 100 %' in err.text
assert cases['twl4030-full-battery'].find('failure') is None
assert cases['demo'].find('system-err') is None" "$TMP/chk.xml"

run cmpw compare "$ZOO1" --policy twl4030 --policy safe-ramp -o "$TMP/cmpw" -q
expect_status "compare of bug zoo 1" 0
expect_in "compare: each policy's warning on stderr, naming it" err "chargesim: warning: $ZOO1 (policy safe-ramp): pmic: a charge to vreg 4.35 V"

# A sweep's results.csv has a warnings column (before error): the zoo's variants carry
# the warning; merging shards keeps it.
mkdir -p "$TMP/sw"
cp "$ZOO1" "$TMP/sw/base.json"
cat >"$TMP/sw/sweep.json" <<'EOF'
{ "base": "base.json", "vary": { "device.load.current": ["250 mA", "400 mA"],
                                 "device.pmic.vreg": ["4.35 V", "4.2 V"] } }
EOF
run sweep sweep "$TMP/sw/sweep.json" -o "$TMP/sw/all" -q
expect_status "sweep of bug zoo 1 over vreg" 0
check "sweep: a warnings column before error; vreg 4.35 V warns, 4.2 V does not" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = list(rows[0].keys())
assert cols[-2:] == ['warnings', 'error'], cols
for r in rows:
    if r['device.pmic.vreg'] == '4.35 V':
        assert r['warnings'].startswith('pmic: a charge to vreg 4.35 V'), r
    else:
        assert r['warnings'] == '', r
    assert r['error'] == '', r" "$TMP/sw/all/results.csv"
run sh0 sweep "$TMP/sw/sweep.json" -o "$TMP/sw/s0" -q --shard 0/2
run sh1 sweep "$TMP/sw/sweep.json" -o "$TMP/sw/s1" -q --shard 1/2
run merge merge "$TMP/sw/s0" "$TMP/sw/s1" -o "$TMP/sw/merged"
expect_status "merge of two shards with warnings" 0
same "merged results.csv equals the unsharded one" "$TMP/sw/all/results.csv" "$TMP/sw/merged/results.csv"

# ---- a check failure says where to look ----
# Bug zoo 1 against its golden trace, with the adapter at 5.2 V instead of 5.1 V: vsrc_V
# is 100 mV off (above its 1 mV tolerance), and SOC ends below 99 %.
mkdir -p "$TMP/g/golden"
cp scenarios/bugzoo/golden/twl4030-full-battery.csv "$TMP/g/golden/"
python3 - "$ZOO1" "$TMP/g/s.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d['source']['voc'] = '5.2 V'
d['expect'] = [e for e in d['expect'] if 'golden' in e] + [
    {'metric': 'soc_final', '>=': '99 %'},
    {'metric': 'time_to_full_s', 'between': ['1 h', '2 h']},
    {'metric': 'charge_in_mAh', '>': '1.2 Ah'},
    {'signal': 'vbus_V', 'at': '5 min', '<': '4000 mV'},
    {'metric': 'soc_final', '>=': 0.99}]
json.dump(d, open(sys.argv[2], 'w'), indent=1)
EOF
(cd "$TMP/g" && "$BIN" check s.json -o out --junit j.xml >"$TMP/gfail.out" 2>"$TMP/gfail.err")
status=$?
name=gfail
expect_status "check of the golden at 5.2 V fails" 1
expect_in "the failure names the run's output directory" out "  outputs in out/s/"
check "the outputs are there" test -f "$TMP/g/out/s/trace.csv"
expect_in "the failure gives the diff of every column, with the tolerance" out \
	"  every column against ./golden/twl4030-full-battery.csv: chargesim diff out/s/trace.csv ./golden/twl4030-full-battery.csv --tol '*=abs:2e-06' --tol 'vbus_V=abs:1 mV' --tol 'vsrc_V=abs:1 mV' --tol 'ibus_A=abs:1 mA'"
check "JUnit: the failure's text says where the outputs are and which diff to run" python3 -c "
import sys, xml.etree.ElementTree as ET
f = next(ET.parse(sys.argv[1]).iter('failure'))
assert '  outputs in out/s/' in f.text, f.text
assert 'chargesim diff out/s/trace.csv ./golden/twl4030-full-battery.csv --tol' in f.text, f.text
assert 'outputs in' not in f.get('message'), f.get('message')" "$TMP/g/j.xml"
(cd "$TMP/g" && "$BIN" check -q s.json -o out >"$TMP/gfailq.out" 2>&1)
check "check -q: the failure still says where to look" grep -q '^  every column against' "$TMP/gfailq.out"
cmd=$(sed -n 's/^  every column against [^:]*: chargesim diff //p' "$TMP/gfail.out")
(cd "$TMP/g" && eval "\"\$BIN\" diff $cmd" >"$TMP/gdiff.out" 2>"$TMP/gdiff.err")
status=$?
name=gdiff
expect_status "the suggested diff runs and fails as the check did" 1
check "the diff lists every column, vsrc_V 100 mV off" python3 -c "
import sys
t = open(sys.argv[1]).read()
cols = ['vsrc_V', 'vbus_V', 'ibus_A', 'ilim_A', 'vbat_V', 'ibat_A', 'soc', 'iload_A',
        'charger_state', 'source_state', 'vsys_V', 'src_ilim_A', 'temp_C']
rows = {l.split()[0]: l for l in t.splitlines()[3:] if l.split()}
for c in cols:
    assert c in rows, (c, t)
assert rows['vsrc_V'].split()[1] == 'FAIL' and rows['vsrc_V'].split()[2:4] == ['100', 'mV'], rows['vsrc_V']
" "$TMP/gdiff.out"

# ---- expectations in the scenario's units ----
name=gfail
expect_in "a SOC written in % is echoed in % with the run's value in %" out "metric soc_final >= 99 % (got 9"
check "the value in % is metrics.json's fraction times 100" python3 -c "
import json, re, sys
soc = json.load(open(sys.argv[2]))['soc_final']
t = open(sys.argv[1]).read()
m = re.search(r'metric soc_final >= 99 % \(got ([0-9.]+) %\)', t)
assert m and abs(float(m.group(1)) - soc * 100) < 1e-4 * soc * 100, (m and m.group(1), soc)
m = re.search(r'metric time_to_full_s between 1 h and 2 h \(got ([0-9.]+) h\)', t)
tf = json.load(open(sys.argv[2]))['time_to_full_s']
assert m and abs(float(m.group(1)) - tf / 3600) < 1e-5 * tf / 3600, (m and m.group(1), tf)
m = re.search(r'metric charge_in_mAh > 1.2 Ah \(got ([0-9.]+) Ah\)', t)
q = json.load(open(sys.argv[2]))['charge_in_mAh']
assert m and abs(float(m.group(1)) - q / 1000) < 1e-5 * q / 1000, (m and m.group(1), q)
" "$TMP/gfail.out" "$TMP/g/out/s/metrics.json"
expect_in "a signal's time and value in the written units" out "signal vbus_V at 5 min < 4000 mV (got 5"
expect_in "a bare number stays in the base unit" out "metric soc_final >= 0.99 (got 0.9"
expect_not "no fraction where % was written" out "soc_final >= 0.99 %"

# ---- compare for real work: each --policy with parameters of its own ----
# levels.py TRACE: the input limits a run set, in order, with the time of each change
cat >"$TMP/levels.py" <<'EOF'
import csv, sys
levels = []
for r in csv.DictReader(open(sys.argv[1])):
    v = float(r['ilim_A'])
    if not levels or levels[-1][1] != v:
        levels.append((float(r['time_s']), v))
print(levels)
EOF
# safe-ramp starts at its "start" (0.5 A) once the DCP is detected and raises the limit
# by "step" every "interval" while the draw reaches it (docs/safe-ramp.md R1-R3): with
# step 50 mA and 200 mA, every 2 s, the limits are 0.5, 0.55, 0.6 A and 0.5, 0.7, 0.9 A,
# 2 s apart.
# ramp_ok WHAT TRACE STEP: the first three limits from 0.5 A by STEP A, 2 s apart.
ramp_ok() {
	check "$1" python3 -c "
import ast, subprocess, sys
lv = ast.literal_eval(subprocess.check_output([sys.executable, sys.argv[1], sys.argv[2]]).decode())
step = float(sys.argv[3])
assert [round(v, 6) for _, v in lv[:3]] == [0.5, round(0.5 + step, 6), round(0.5 + 2 * step, 6)], lv[:4]
assert abs(lv[2][0] - lv[1][0] - 2.0) < 1e-6, lv[:4]" "$TMP/levels.py" "$2" "$3"
}
run cmpp compare scenarios/demo.json --policy 'safe-ramp:step=50mA,interval=2s' \
	--policy 'safe-ramp:step=200mA, interval=2s' --policy fixed -o "$TMP/cmpp" -q
expect_status "compare: one policy twice with other parameters" 0
check "each run of safe-ramp has its own directory, named by its parameters" \
	test -f "$TMP/cmpp/safe-ramp:step=50mA,interval=2s/trace.csv" -a \
	-f "$TMP/cmpp/safe-ramp:step=200mA,interval=2s/trace.csv" -a -f "$TMP/cmpp/fixed/trace.csv"
ramp_ok "compare: step=50mA ramps 0.5, 0.55, 0.6 A, 2 s apart" \
	"$TMP/cmpp/safe-ramp:step=50mA,interval=2s/trace.csv" 0.05
ramp_ok "compare: step=200mA ramps 0.5, 0.7, 0.9 A, 2 s apart" \
	"$TMP/cmpp/safe-ramp:step=200mA,interval=2s/trace.csv" 0.2
expect_in "compare: the table's columns are named by the parameters" out "safe-ramp:step=200mA,interval=2s"
run runp run scenarios/demo.json --policy 'safe-ramp:step=200mA,interval=2s' -o "$TMP/runp"
expect_status "run --policy with parameters" 0
ramp_ok "run: step=200mA ramps 0.5, 0.7, 0.9 A, 2 s apart" "$TMP/runp/trace.csv" 0.2
expect_in "run: the summary names the parameters" out "policy safe-ramp:step=200mA,interval=2s:"
# the demo's own policy is fixed with "ilim": "2 A"; fixed:ilim=1A goes over it
run runf run scenarios/demo.json --policy fixed:ilim=1A -o "$TMP/runf" -q
expect_status "run --policy fixed:ilim=1A (the scenario's policy, its parameter given again)" 0
check "the limit is 1 A, not the scenario's 2 A" python3 -c "
import json, sys
m = json.load(open(sys.argv[1]))
assert m['ilim_max_A'] == 1 and m['ibus_max_A'] <= 1 + 1e-9, m" "$TMP/runf/metrics.json"
run badkey compare scenarios/demo.json --policy safe-ramp:stepp=50mA --policy fixed -o "$TMP/badkey"
expect_status "compare: an unknown parameter" 2
expect_stderr "it names the --policy, the key and the keys there are" "--policy safe-ramp:stepp=50mA: stepp: found an unknown key \"stepp\", expected one of: start, step,"
expect_stderr "with a suggestion" "(did you mean \"step\"?)"
check "nothing written" test ! -e "$TMP/badkey"
run badval run scenarios/demo.json --policy safe-ramp:step=5V -o "$TMP/badval"
expect_status "run: a value of the wrong dimension" 2
expect_stderr "it names the --policy and the key" "--policy safe-ramp:step=5V: step: found \"5V\" (a voltage), expected a current"
run badrange run scenarios/demo.json --policy safe-ramp:step=5A -o "$TMP/badval"
expect_status "run: a value out of the parameter's range" 2
expect_stderr "it names the key" "--policy safe-ramp:step=5A: step: found"
run noitem run scenarios/demo.json --policy safe-ramp:step -o "$TMP/badval"
expect_status "run: a parameter without a value" 2
expect_stderr "it says KEY=VALUE" "found \"step\", expected KEY=VALUE"
run noparams run scenarios/demo.json --policy none:x=1 -o "$TMP/badval"
expect_status "run: parameters for a policy that takes none" 2
expect_stderr "it says so" "policy \"none\" takes no parameters"
check "no bad run wrote anything" test ! -e "$TMP/badval"
run twice compare scenarios/demo.json --policy safe-ramp:step=50mA --policy 'safe-ramp:step = 50mA' -o "$TMP/twice"
expect_status "compare: one policy twice with the same parameters" 2
expect_stderr "both would write one directory" "would both write to DIR/safe-ramp:step=50mA/"
# a plugin file takes parameters too (docs/policy-sdk/template_policy.c: "limit")
if cc -shared -fPIC -I. -Istack/include $(pkg-config --cflags glib-2.0) -I/usr/include/cjson \
	docs/policy-sdk/template_policy.c -o "$TMP/template.so" 2>"$TMP/cc.err"; then
	top=$(pwd)
	(cd "$TMP" && "$BIN" run "$top/scenarios/demo.json" --policy ./template.so:limit=900mA \
		-o plug -q >"$TMP/plug.out" 2>"$TMP/plug.err")
	status=$?
	name=plug
	expect_status "run --policy ./template.so:limit=900mA" 0
	check "the plugin's limit is 900 mA" python3 -c "
import json, sys
assert json.load(open(sys.argv[1]))['ilim_max_A'] == 0.9" "$TMP/plug/metrics.json"
	(cd "$TMP" && "$BIN" run "$top/scenarios/demo.json" --policy ./template.so:limitt=1A \
		-o plug -q >"$TMP/plugbad.out" 2>"$TMP/plugbad.err")
	status=$?
	name=plugbad
	expect_status "a plugin's unknown parameter" 2
	expect_stderr "named against the plugin's table" "limitt: found an unknown key \"limitt\", expected one of: limit"
else
	skip "a plugin with parameters" "no C compiler ($(head -c 200 "$TMP/cc.err"))"
fi

# ---- a set event for one policy's parameter, in a compare ----
python3 - scenarios/demo.json "$TMP/setev.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d['name'] = 'setev'
d['policy'] = {'name': 'safe-ramp', 'params': {'interval': '2 s'}}
d['events'] = [{'at': '10 s', 'do': 'set', 'path': 'policy.params.step', 'value': '200 mA'}]
del d['expect']
json.dump(d, open(sys.argv[2], 'w'), indent=1)
EOF
run setev compare "$TMP/setev.json" --policy safe-ramp --policy fixed -o "$TMP/setev" -q
expect_status "compare: a set of safe-ramp's step with fixed beside it" 0
check "one line on stderr, naming the event and the policy it is skipped for" python3 -c "
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l]
assert len(lines) == 1, lines
l = lines[0]
assert 'events[0] (set policy.params.step at 10 s) skipped' in l, l
assert 'policy \"fixed\" has no such parameter' in l and '(policy fixed)' in l, l" "$TMP/setev.err"
check "fixed's events.jsonl has the warning, and no set" python3 -c "
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
w = [r for r in recs if r['ev'] == 'warning' and r['src'] == 'scenario']
assert len(w) == 1 and w[0]['policy'] == 'fixed' and w[0]['path'] == 'policy.params.step', w
assert not [r for r in recs if r['ev'] == 'set'], recs" "$TMP/setev/fixed/events.jsonl"
# safe-ramp's default step is 100 mA (docs/safe-ramp.md): 100 mA steps until 10 s, then
# the 200 mA of the event
check "safe-ramp got the set: 100 mA steps until 10 s, then 200 mA" python3 -c "
import ast, subprocess, sys
lv = ast.literal_eval(subprocess.check_output([sys.executable, sys.argv[1], sys.argv[2]]).decode())
d = [(b[0], round(b[1] - a[1], 6)) for a, b in zip(lv, lv[1:])]
before = [x for t, x in d if t < 10]
after = [x for t, x in d if 10 < t < 13]
assert before and set(before) == {0.1}, lv[:8]
assert after == [0.2, 0.2], lv[:8]" "$TMP/levels.py" "$TMP/setev/safe-ramp/trace.csv"
run setevrun run "$TMP/setev.json" --policy fixed -o "$TMP/setevrun"
expect_status "run --policy fixed with that set event: an error" 2
expect_stderr "naming the policy" "(the parameters of policy \"fixed\", which this run uses)"

tl_finish
