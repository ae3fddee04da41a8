#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_score_field.sh - the built-in `field` population of `chargesim score`
# (docs/score.md section 4, docs/safe-ramp.md "The field population", issue 39).
#
# It loads by name and is the file populations/field.json; the first 60 setups of seed 1
# draw every one of its nine classes; the draws of the field conditions land in the
# ranges the file gives (checked on the scenarios --explain writes, against the numbers
# written here, not the code's): a degrading cable's `set` event comes at 5-60 min and
# raises cable.r_loop 2-6 times (within 0.2-1.2 ohm), a hot cell's ambient is 35-45 C
# with the thermal model on, a short timer is 50-500 ms, a bursty load is a profile of
# bursts; and a small score on it gives the same score.csv at -j 1 and -j 2.
# Usage: tests/test_score_field.sh build/chargesim (repo root).
set -u
. "$(dirname "$0")/lib.sh"
tl_init score-field "${1:-build/chargesim}" populations/field.json

B=$BIN
N=60
mkdir -p "$TMP/ex"
i=0
while [ $i -lt $N ]; do
	"$B" score --population field --seed 1 --explain $i -o "$TMP/ex" >/dev/null 2>&1 || break
	i=$((i + 1))
done
if [ $i -eq $N ]; then ok "--population field --explain: $N setups written"; else not_ok "--population field --explain $i failed"; fi

# every class of the file is drawn
want=$(python3 -c 'import json; print(" ".join(json.load(open("populations/field.json"))["classes"]))')
missing=""
for c in $want; do
	ls "$TMP/ex" | grep -q -- "-$c.json\$" || missing="$missing $c"
done
if [ "$(echo $want | wc -w)" -eq 9 ] && [ -z "$missing" ]; then ok "all 9 classes drawn in $N setups"
else not_ok "classes not drawn:$missing (file has: $want)"; fi

# the name and the file draw the same setup (the built-in text is the file's)
"$B" score --population field --seed 1 --explain 5 >"$TMP/byname.json" 2>/dev/null
"$B" score --population populations/field.json --seed 1 --explain 5 >"$TMP/byfile.json" 2>/dev/null
if cmp -s "$TMP/byname.json" "$TMP/byfile.json"; then ok "--population field is populations/field.json"
else not_ok "--population field differs from populations/field.json"; fi

# the field conditions' ranges, on every scenario drawn
python3 - "$TMP/ex" >"$TMP/ranges.out" 2>&1 <<'PY'
import json, glob, os, sys
S = {"ms": 1e-3, "s": 1, "min": 60, "h": 3600, "ohm": 1, "mohm": 1e-3, "C": 1, "A": 1, "mA": 1e-3}
def q(t):
    v, u = t.split()
    return float(v) * S[u]
bad, seen = [], {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(f))
    cls = d["name"].split("-", 3)[3]
    seen[cls] = seen.get(cls, 0) + 1
    src, dev = d.get("source", {}), d["device"]
    if cls == "degrading-cable":
        (e,) = d["events"]
        r0, r1 = q(d["cable"]["r_loop"]), q(e["value"])
        ok = e["do"] == "set" and e["path"] == "cable.r_loop" and 300 <= q(e["at"]) <= 3600
        ok = ok and 0.2 - 1e-3 <= r1 <= 1.2 + 1e-3
        ok = ok and (r1 >= 2 * r0 * 0.999 or r1 >= 0.2 - 1e-3) and (r1 <= 6 * r0 * 1.001 or r1 <= 0.2 + 1e-3)
        ok or bad.append((f, e, r0))
    elif cls == "hot-cell":
        b = dev["battery"]
        if not (b.get("thermal") is True and 35 <= q(b["temperature"]) <= 45):
            bad.append((f, b))
    elif cls == "short-timer":
        if not 0.05 <= q(src["t_limit_max"]) <= 0.5:
            bad.append((f, src))
    elif cls == "bursty":
        p = dev["load"]["profile"]
        cur = [q(s["current"]) for s in p]
        if not (len(p) >= 30 and max(cur) >= 0.8 and min(cur) <= 0.4 and max(cur) >= 2 * min(cur)):
            bad.append((f, len(p)))
    elif cls == "overstated-rp":
        rp = {"1.5A": 1.5, "3.0A": 3.0}[src["rp"]]
        if not q(src["ilim"]) < rp:
            bad.append((f, src))
    elif cls == "power-limited":
        if not 5 <= float(src["pmax"].split()[0]) <= 12:
            bad.append((f, src))
    elif cls == "drift":
        if not (float(src["ilim_drift"].split()[0]) < 0 and 5 <= float(src["ilim_tolerance"].split()[0]) <= 10):
            bad.append((f, src))
print("checked", seen)
if bad:
    print("out of range:", bad[:3])
    sys.exit(1)
PY
if [ $? -eq 0 ]; then ok "field draws within the file's ranges: $(cat "$TMP/ranges.out")"
else not_ok "field draws out of range" "$(cat "$TMP/ranges.out")"; fi

# a small score is the same at -j 1 and -j 2
P="--population field --setups 18 --seed 3 --policy safe-ramp --policy fixed:ilim=1A -q"
if "$B" score $P -j 1 -o "$TMP/j1" && "$B" score $P -j 2 -o "$TMP/j2" &&
	cmp "$TMP/j1/score.csv" "$TMP/j2/score.csv" && cmp "$TMP/j1/score.json" "$TMP/j2/score.json"; then
	ok "field score: -j 1 and -j 2 give the same score.csv and score.json"
else
	not_ok "field score differs between -j 1 and -j 2"
fi
tl_finish
