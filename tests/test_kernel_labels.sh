#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_kernel_labels.sh - the outputs of a real driver's runs name the kernel files
# it was compiled from (docs/linux-drivers.md section 2, "Which bytes made a result"):
# report.html of run and compare, the kernel_files record of events.jsonl (left out of
# fingerprints), and a sweep's manifest.json, whose merge refuses shards of other
# driver bytes. The hashes are checked against sha256sum of the
# compiled copies in build/kernel/, not against what chargesim prints elsewhere.
#
# Usage (from the repository root, after make): tests/test_kernel_labels.sh build/chargesim
set -u

. "$(dirname "$0")/lib.sh"
tl_init klabels "${1:-build/chargesim}" Makefile

rel=drivers/power/supply/twl4030_charger.c
if [ ! -s build/kernel/$rel ]; then
	skip "kernel files named in report.html and sweep manifests" \
		"this build has no real Linux drivers (linux-source-6.12 is not installed)"
	tl_finish
	exit $?
fi
sha=$(sha256sum build/kernel/$rel | cut -c1-64)
short=$(echo "$sha" | cut -c1-16)
scn=scenarios/bugzoo/twl4030-full-battery.json

# ---- report.html ----
run r run scenarios/linux/twl4030-early-max-driver.json -o "$TMP/r" --report -q
expect_status "run --report of a linux/ scenario" 0
row="<tr data-policy=\"linux/twl4030_charger\"><td>linux/twl4030_charger</td><td><code>$rel</code></td><td><code title=\"$sha\">$short</code></td><td class=\"kstatus stock\">stock</td></tr>"
check "report.html names the driver file, its sha256 ($short, sha256sum's) and stock" \
	grep -qF "$row" "$TMP/r/report.html"
# every kernel file of metrics.json is a row of the page, in its order
python3 - "$TMP/r/metrics.json" >"$TMP/want.rows" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["kernel_files"]:
    print("%s\t%s\t%s" % (f["path"], f["sha256"][:16], f["status"]))
PY
rows() {
	grep -o '<tr data-policy="[^"]*"><td>[^<]*</td><td><code>[^<]*</code></td><td><code title="[^"]*">[^<]*</code></td><td class="kstatus [^"]*">[^<]*</td></tr>' "$1" |
		sed 's|.*<code>\([^<]*\)</code></td><td><code title="[^"]*">\([^<]*\)</code></td><td[^>]*>\([^<]*\)</td></tr>|\1	\2	\3|'
}
rows "$TMP/r/report.html" >"$TMP/got.rows"
if [ "$(wc -l <"$TMP/want.rows")" -ge 2 ] && cmp -s "$TMP/want.rows" "$TMP/got.rows"; then
	ok "report.html lists every kernel file of metrics.json ($(wc -l <"$TMP/want.rows"))"
else
	not_ok "report.html lists every kernel file of metrics.json" "$(diff "$TMP/want.rows" "$TMP/got.rows" | head)"
fi
run c compare "$scn" --policy twl4030 --policy linux/twl4030_charger -o "$TMP/c" --report -q
expect_status "compare --report of the port and the real driver" 0
check "compare's report.html: the real driver's files, with the hash" grep -qF "$row" "$TMP/c/report.html"
check "... and no kernel file row for the port (it is no kernel code)" \
	sh -c "! grep -q '<tr data-policy=\"twl4030\"><td>' '$TMP/c/report.html'"
run p run "$scn" -o "$TMP/p" --report -q
check "a run of a port has no Kernel files section" sh -c "! grep -q 'kernel-files' '$TMP/p/report.html'"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROMIUM" ]; then
	HOME=$TMP/home timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chromium" --dump-dom "file://$TMP/c/report.html" \
		>"$TMP/dom.html" 2>"$TMP/chromium.err"
	rows "$TMP/dom.html" >"$TMP/dom.rows"
	if cmp -s "$TMP/want.rows" "$TMP/dom.rows"; then
		ok "browser: chromium shows the kernel files table as metrics.json has it"
	else
		not_ok "browser: chromium shows the kernel files table" "$(diff "$TMP/want.rows" "$TMP/dom.rows" | head)"
	fi
else
	skip "browser: the kernel files table" "chromium is not installed"
fi

# ---- events.jsonl ----
# one kernel_files record, at t 0 right after probe, listing what metrics.json lists
python3 - "$TMP/r/events.jsonl" "$TMP/r/metrics.json" "$sha" >"$TMP/ev.out" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
kf = [i for i, r in enumerate(recs) if r["ev"] == "kernel_files"]
want = json.load(open(sys.argv[2]))["kernel_files"]
i = kf[0] if len(kf) == 1 else None
print("one" if i is not None else "count %d" % len(kf))
if i is not None:
    r = recs[i]
    print("t0" if r["t"] == 0 and r["src"] == "stack" else "at %r" % r["t"])
    print("after-probe" if recs[i - 1]["ev"] == "probe" else "after %s" % recs[i - 1]["ev"])
    print("same" if r["files"] == want and r["policy"] == "linux/twl4030_charger" else "other")
    print("hash" if r["files"][0]["sha256"] == sys.argv[3] else "hash differs")
PY
check "events.jsonl of a linux/ run: one kernel_files record" grep -qx one "$TMP/ev.out"
check "... at t 0 from stack" grep -qx t0 "$TMP/ev.out"
check "... right after the probe record" grep -qx after-probe "$TMP/ev.out"
check "... its files those of metrics.json" grep -qx same "$TMP/ev.out"
check "... the driver file's hash sha256sum's" grep -qx hash "$TMP/ev.out"
check "a port's events.jsonl has none" sh -c "! grep -q '\"ev\":\"kernel_files\"' '$TMP/p/events.jsonl'"
# a fingerprint leaves it out (docs/scenarios.md section 9.4): computed here from the
# records of src and kind without it, the run's check passes
fp=$(python3 - "$TMP/r/events.jsonl" <<'PY'
import hashlib, json, sys
h = hashlib.sha256()
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["src"] == "metrics" or r["ev"] == "kernel_files":
        continue
    h.update((r["src"] + "\x1f" + r["ev"] + "\x1f\x1e").encode())
print(h.hexdigest()[:16])
PY
)
python3 - scenarios/linux/twl4030-early-max-driver.json "$fp" >"$TMP/fp.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["expect"] = [{"fingerprint": sys.argv[2], "of": ["src", "kind"]}]
print(json.dumps(s))
PY
run fp run "$TMP/fp.json" -o "$TMP/fp" -q
expect_status "a fingerprint of src and kind without the kernel_files record ($fp) holds" 0

# ---- a sweep's manifest ----
cat >"$TMP/sw.json" <<J
{ "base": "$(pwd)/$scn", "vary": { "duration": ["10 min"],
  "policy": ["twl4030", "linux/twl4030_charger"], "source.ilim": ["1.1 A", "2 A"] } }
J
cat >"$TMP/port.json" <<J
{ "base": "$(pwd)/$scn", "vary": { "duration": ["10 min"], "source.ilim": ["1.1 A", "2 A"] } }
J
run s0 sweep "$TMP/sw.json" --shard 0/2 -o "$TMP/s0" -q
run s1 sweep "$TMP/sw.json" --shard 1/2 -o "$TMP/s1" -q
expect_status "a sweep varying the policy over a port and linux/twl4030_charger" 0
kf() { python3 -c 'import json, sys
m = json.load(open(sys.argv[1])).get("kernel_files")
print("none" if m is None else " ".join("%s:%s:%s:%s" % (p, f["path"], f["sha256"], f["status"]) for p in m for f in m[p][:1]))' "$1"; }
check "its manifest names linux/twl4030_charger's driver file, sha256sum's hash, stock" \
	test "$(kf "$TMP/s0/manifest.json")" = "linux/twl4030_charger:$rel:$sha:stock"
check "... results.csv has no column for it (the manifest is the label)" \
	sh -c "! head -1 '$TMP/s0/results.csv' | grep -q sha256"
run pt sweep "$TMP/port.json" -o "$TMP/pt" -q
check "a sweep of ports only: no kernel_files in its manifest" test "$(kf "$TMP/pt/manifest.json")" = none
run m merge "$TMP/s0" "$TMP/s1" -o "$TMP/m"
expect_status "merge of shards of one build" 0
check "... the merged manifest keeps the kernel files" \
	test "$(kf "$TMP/m/manifest.json")" = "linux/twl4030_charger:$rel:$sha:stock"
# a shard whose driver was other bytes (as a rebuilt edit would give; its results.csv
# checksum still holds, so only the kernel files tell)
cp -r "$TMP/s1" "$TMP/s1x"
sed -i "s/$sha/$(echo "$sha" | tr '0-9a-f' 'a-f0-9')/" "$TMP/s1x/manifest.json"
run mx merge "$TMP/s0" "$TMP/s1x" -o "$TMP/mx"
expect_status "merge of shards of other driver bytes: refused" 2
expect_stderr "... naming the shard, the file and the difference" \
	"$TMP/s1x: manifest.json: kernel_files: \"linux/twl4030_charger\": found \"$rel\" with SHA-256"
check "... and nothing written" test ! -e "$TMP/mx"
# a manifest's kernel_files of the wrong shape, or a control byte in a name: exit 2 with
# the shard named, never a crash, the byte escaped
for k in '["x"]' '"x"' '{"linux/twl4030_charger": [3]}' '{"linux/twl4030_charger": [{"path": "a\u001b", "sha256": 1}]}'; do
	rm -rf "$TMP/s1y" "$TMP/my"
	cp -r "$TMP/s1" "$TMP/s1y"
	python3 - "$TMP/s1y/manifest.json" "$k" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["kernel_files"] = json.loads(sys.argv[2])
json.dump(m, open(sys.argv[1], "w"))
PY
	run my merge "$TMP/s0" "$TMP/s1y" -o "$TMP/my"
	check "merge with kernel_files $k in a shard: exit 2 naming it, no raw control byte ($status)" \
		sh -c "[ $status -eq 2 ] && grep -q '$TMP/s1y: manifest.json: kernel_files' '$TMP/my.err' &&
		       ! grep -q \"\$(printf '\\033')\" '$TMP/my.err' && test ! -e '$TMP/my'"
done
run rx sweep "$TMP/sw.json" --shard 1/2 -o "$TMP/s1x" -q --resume
expect_status "--resume of a shard started with other driver bytes: refused" 2
expect_stderr "... saying the driver was rebuilt" "kernel_files: found other driver bytes"
run r1 sweep "$TMP/sw.json" --shard 1/2 -o "$TMP/s1" -q --resume
expect_status "... while the same build resumes (here: finds it complete)" 0

tl_finish
