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
# peaks above 1: 100.77 %), which the pmic model warns of at t = 0.
run zoo1 run "$ZOO1" -o "$TMP/zoo1"
expect_status "bug zoo 1 runs" 0
check "bug zoo 1's SOC does pass 100 % (the warning is true)" python3 -c "
import csv, sys
m = max(float(r['soc']) for r in csv.DictReader(open(sys.argv[1])))
assert m > 1.0, m" "$TMP/zoo1/trace.csv"
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
(cd "$TMP/g" && "$BIN" check s.json -o out >"$TMP/gfail.out" 2>"$TMP/gfail.err")
status=$?
name=gfail
expect_status "check of the golden at 5.2 V fails" 1
expect_in "the failure names the run's output directory" out "  outputs in out/s/"
check "the outputs are there" test -f "$TMP/g/out/s/trace.csv"
expect_in "the failure gives the diff of every column, with the tolerance" out \
	"  every column against ./golden/twl4030-full-battery.csv: chargesim diff out/s/trace.csv ./golden/twl4030-full-battery.csv --tol '*=abs:2e-06' --tol 'vbus_V=abs:1 mV' --tol 'vsrc_V=abs:1 mV' --tol 'ibus_A=abs:1 mA'"
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

tl_finish
