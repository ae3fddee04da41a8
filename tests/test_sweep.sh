#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_sweep.sh - `chargesim sweep` and `chargesim merge`, end to end.
#
# Usage (from the repository root): tests/test_sweep.sh build/chargesim
#
# The 200-variant sweep scenarios/sweeps/twl4030-grid.json runs three ways: -j 1,
# -j 2, and as 4 shards (run by GNU parallel when it is installed, else by a shell
# loop, which the output says) joined by `chargesim merge`; the three results.csv
# must be byte-identical. A sweep killed with kill -9 after some chunks, and one
# stopped with SIGINT, are resumed and must equal the uninterrupted run; a worker
# process that dies is an internal error naming its variant. Malformed
# sweep files, a bad --shard and mismatched shard sets exit 2 with a message naming
# the file and the JSON path. Also: the Slurm fallback, --keep-traces, --quiet and
# the plain progress lines. Prints "ok - ..." or "not ok - ..." per check and exits
# non-zero when any check failed. Takes about 20 s on 2 cores.
set -u

. "$(dirname "$0")/lib.sh"
SWEEP=scenarios/sweeps/twl4030-grid.json
tl_init sweep "${1:-build/chargesim}" "$SWEEP"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_STEP SLURM_CPUS_PER_TASK

# wait_chunks DIR N PID: wait until DIR holds N result chunks (or the sweep ended).
wait_chunks() {
	i=0
	while [ $i -lt 400 ]; do
		n=$(ls "$1" 2>/dev/null | grep -c '^results\.part-')
		[ "$n" -ge "$2" ] && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# ---- the reference: -j 1 ----

run j1 sweep "$SWEEP" -o "$TMP/j1" -j 1
expect_status "200-variant sweep, -j 1" 0
REF=$TMP/j1/results.csv
check "results.csv has a header and 200 rows" test "$(wc -l <"$REF")" -eq 201
check "header: index, the varied paths in file order, then the metrics" \
	grep -q '^index,duration,policy,source\.ilim,device\.load\.current,cable\.length,device\.battery\.soc,vbus_min_V,.*,error$' "$REF"
# policy is varied: one "policy" column, holding the varied value (issue 16, item 11)
check "header: every column name once (the policy metric is not repeated)" \
	sh -c "head -1 '$REF' | tr ',' '\n' | sort | uniq -d | grep -q . && exit 1 || exit 0"
check "csv.DictReader: the policy column cycles through the varied policies" python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
vary = doc["vary"]
pol = vary["policy"]
inner = doc.get("random", {}).get("n", 1)
for k in list(vary)[list(vary).index("policy") + 1:]:
    inner *= len(vary[k])
got = [r["policy"] for r in rows]
want = [pol[(i // inner) % len(pol)] for i in range(len(rows))]
assert got == want, (got[:8], want[:8])
' "$REF" "$SWEEP"
run heatby plot --heatmap "$REF" --x source.ilim --y cable.length --z source_trips --by policy \
	--agg max -o "$TMP/heatby.svg" --no-render
expect_status "plot --heatmap --by policy on the sweep's results.csv" 0
check "rows are in index order 0..199" \
	sh -c "sed 1d '$REF' | cut -d, -f1 | awk '\$1 != NR - 1 { exit 1 }'"
check "no variant failed (empty error cells)" sh -c "sed 1d '$REF' | grep -q -v ',\$' && exit 1 || exit 0"
check "manifest: complete, shard 0/1, 200 variants, SHA-256 of the sweep file" \
	sh -c "grep -q '\"complete\":[[:space:]]*true' '$TMP/j1/manifest.json' &&
	       grep -q '\"variants\":[[:space:]]*200' '$TMP/j1/manifest.json' &&
	       grep -q \"\$(sha256sum '$SWEEP' | cut -c1-64)\" '$TMP/j1/manifest.json'"
check "no chunk files left, no per-variant outputs without --keep-traces" \
	sh -c "! ls '$TMP/j1' | grep -q -e part -e variants"
check "plain progress on a non-terminal stderr" grep -q '^sweep: 200 variants' "$TMP/j1.err"
check "summary on stdout" grep -q 'variants/s' "$TMP/j1.out"

# ---- -j 2 ----

run j2 sweep "$SWEEP" -o "$TMP/j2" -j 2 -q
expect_status "same sweep, -j 2" 0
same "-j 2 results.csv byte-identical to -j 1" "$REF" "$TMP/j2/results.csv"
check "--quiet prints nothing" test ! -s "$TMP/j2.out" -a ! -s "$TMP/j2.err"

# ---- 4 shards, then merge ----

if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "# 4 shards run by GNU parallel"
	parallel --will-cite -j 4 "$BIN" sweep "$SWEEP" -o "$TMP/shards/{}" --shard {}/4 -j 1 -q ::: 0 1 2 3
	status=$?
else
	echo "# GNU parallel is not installed: running the 4 shards with a shell loop instead"
	status=0
	pids=
	for i in 0 1 2 3; do
		"$BIN" sweep "$SWEEP" -o "$TMP/shards/$i" --shard $i/4 -j 1 -q &
		pids="$pids $!"
	done
	for p in $pids; do
		wait "$p" || status=1
	done
fi
name=shards
expect_status "4 shards" 0
check "shard 1/4 holds variants 1, 5, ..., 197" \
	sh -c "sed 1d '$TMP/shards/1/results.csv' | cut -d, -f1 | awk '\$1 != 4 * NR - 3 { exit 1 } END { exit NR != 50 }'"
run merge merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/shards/2" "$TMP/shards/3" -o "$TMP/merged"
expect_status "merge of the 4 shards" 0
same "merged results.csv byte-identical to -j 1" "$REF" "$TMP/merged/results.csv"

run merge3 merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/shards/2" -o "$TMP/merged3"
expect_status "merge with a shard missing" 2
expect_stderr "the missing shard is named" "shard 3/4"
run mergedup merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/shards/2" "$TMP/shards/2" -o "$TMP/mergedup"
expect_status "merge with a shard given twice" 2
expect_stderr "the duplicate shard is named" "second time"
{ cat "$SWEEP"; echo; } >"$TMP/other.json"
sed -i 's|"\.\./bugzoo/|"'"$(pwd)"'/scenarios/bugzoo/|' "$TMP/other.json"
run other sweep "$TMP/other.json" -o "$TMP/other3" --shard 3/4 -q
run mergeother merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/shards/2" "$TMP/other3" -o "$TMP/mergeother"
expect_status "merge with a shard of another sweep file" 2
expect_stderr "the mismatch names the manifest key" "sweep_sha256"
cp -r "$TMP/shards/2" "$TMP/short2"
sed -i '$d' "$TMP/short2/results.csv"
run mergeshort merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/short2" "$TMP/shards/3" -o "$TMP/mergeshort"
expect_status "merge with a row missing" 2
expect_stderr "the missing row is reported" "short2/results.csv: line 51 (the row of variant 198): found the end of the file"

# ---- tampered shards (issue 36): every row is checked against the sweep file, and
# each shard's results.csv against the SHA-256 in its manifest ----

# tamper NAME PYTHON: a copy of shard 2/4 as t-NAME, edited by PYTHON (lines: its
# results.csv as a list of byte lines, man: its manifest as text), merged with the
# other three; the merge must fail (exit 2) and write no results.csv.
tamper() {
	rm -rf "$TMP/t-$1" "$TMP/m-$1"
	cp -r "$TMP/shards/2" "$TMP/t-$1"
	python3 - "$TMP/t-$1" "$TMP" <<EOF
import sys
d, tmp = sys.argv[1], sys.argv[2]
lines = open(d + "/results.csv", "rb").read().splitlines(keepends=True)
man = open(d + "/manifest.json").read()
$2
open(d + "/results.csv", "wb").write(b"".join(lines))
open(d + "/manifest.json", "w").write(man)
EOF
	run "merge-$1" merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/t-$1" "$TMP/shards/3" \
		-o "$TMP/m-$1"
	expect_status "merge refuses a shard with $3" 2
	expect_stderr "$3: the shard's file, row and cell are named" "t-$1$4"
	check "$3: nothing written, not even -o" test ! -e "$TMP/m-$1"
}
# line 4 of shard 2/4 is variant 10: 10,1 h,twl4030,0.8 A,500 mA,...
row4="line 4 (the row of variant 10): column"
tamper extra 'lines[3] = lines[3][:-1] + b",x\n"' "an extra cell" \
	"/results.csv: $row4 34 (past the last column): found a row of 34 cells, expected 33"
tamper varied 'lines[3] = lines[3].replace(b",0.8 A,", b",1.1 A,", 1)' "an edited varied value" \
	"/results.csv: $row4 4 (source.ilim): found \"1.1 A\", expected \"0.8 A\""
tamper nul 'c = lines[3].split(b","); c[8] = c[8][:2] + b"\0" + c[8][2:]; lines[3] = b",".join(c)' \
	"a NUL byte" "/results.csv: $row4 9 (time_below_4v75_s): found a NUL byte"
tamper utf8 'c = lines[3].split(b","); c[27] = b"USB\xff"; lines[3] = b",".join(c)' \
	"bytes that are not UTF-8" "/results.csv: $row4 28 (detected_type): found bytes that are not UTF-8"
tamper quoted 'c = lines[3].split(b","); c[27] = b"\"" + c[27] + b"\""; lines[3] = b",".join(c)' \
	"a needlessly quoted cell" "/results.csv: $row4 28 (detected_type): found quoting unlike chargesim"
tamper truncated 'lines[-1] = lines[-1][:40]' "a truncated last row" \
	"/results.csv: line 51 (the row of variant 198): column"
tamper dup 'lines[4] = lines[3]' "a duplicated row" \
	"/results.csv: line 5 (the row of variant 14): column 1 (index): found \"10\", expected \"14\""
tamper fewer 'import csv; c = next(csv.reader([lines[3].decode()])); lines[3] = ",".join(c[:-3]).encode() + b"\n"' "a missing cell" \
	"/results.csv: $row4 31 (steps): found a row of 30 cells"
tamper errcell 'lines[3] = lines[3][:-1] + b"oops\n"' "an error cell of another kind" \
	"/results.csv: $row4 33 (error): found \"oops\""
tamper failedmetric 'lines[3] = lines[3][:-1] + b"input error: x\n"' "metrics in a failed row" \
	"/results.csv: $row4 8 (vbus_min_V): found \"4."
# a metric changes no structure: only the checksum sees it
tamper metric 'c = lines[3].split(b","); c[8] = b"4.9"; lines[3] = b",".join(c)' \
	"an edited metric" "/results.csv: found SHA-256"
expect_stderr "an edited metric: the manifest's checksum is named" "results_sha256"
# the row of the same variant in a sweep file with another random seed
sed -e 's/"seed": 7/"seed": 8/' -e 's|"\.\./bugzoo/|"'"$(pwd)"'/scenarios/bugzoo/|' "$SWEEP" \
	>"$TMP/seed8.json"
"$BIN" sweep "$TMP/seed8.json" -o "$TMP/seed8" --shard 2/4 -q
tamper foreign 'lines[3] = open(tmp + "/seed8/results.csv", "rb").read().splitlines(keepends=True)[3]' \
	"a row of another sweep file" "/results.csv: $row4 6 (cable.length): found"
tamper mansum 'import re; man = re.sub(r"\"results_sha256\":\s*\"[0-9a-f]*\"", "\"results_sha256\": \"" + "0" * 64 + "\"", man)' \
	"an edited results_sha256" "/results.csv: found SHA-256"
tamper manidx 'man = man.replace("\"index\":\t2", "\"index\":\t1")' "an edited shard index" ": manifest.json: shard: found shard 1/4"
expect_stderr "an edited shard index: named" "a second time"
tamper old 'import re; man = re.sub(r",\s*\"results_sha256\":\s*\"[0-9a-f]*\"", "", man)' \
	"a manifest of the previous format" "/manifest.json: results_sha256: found nothing"
expect_stderr "the previous format: refused, with what to do" "results_sha256: found nothing"
expect_stderr "the previous format: refused, with what to do" "run the shard again"
# every manifest claims another sweep file: the sweep file given does not match
for i in 0 1 2 3; do
	rm -rf "$TMP/s-$i"; cp -r "$TMP/shards/$i" "$TMP/s-$i"
	sed -i 's/"sweep_sha256":\t"3/"sweep_sha256":\t"4/' "$TMP/s-$i/manifest.json"
done
run mergesha merge "$TMP/s-0" "$TMP/s-1" "$TMP/s-2" "$TMP/s-3" -o "$TMP/mergesha"
expect_status "merge of shards whose manifests all name another sweep file" 2
expect_stderr "the sweep file's hash is named" "not the sweep file the shards ran"
run mergesweep merge --sweep "$SWEEP" "$TMP/shards/0" "$TMP/shards/1" "$TMP/shards/2" \
	"$TMP/shards/3" -o "$TMP/mergesweep"
expect_status "merge --sweep FILE" 0
same "merge --sweep: byte-identical to -j 1" "$REF" "$TMP/mergesweep/results.csv"
check "the merged manifest's results_sha256 is its results.csv's" \
	grep -q "$(sha256sum "$TMP/mergesweep/results.csv" | cut -c1-64)" "$TMP/mergesweep/manifest.json"

# a manifest's N sizes nothing beyond the directories given (was an allocation abort)
rm -rf "$TMP/t-bign"; cp -r "$TMP/shards/0" "$TMP/t-bign"
sed -i 's/"count":\t4/"count":\t1e15/' "$TMP/t-bign/manifest.json"
run mergebign merge "$TMP/t-bign" -o "$TMP/m-bign"
expect_status "merge of a manifest claiming 10^15 shards" 2
expect_stderr "the claim is named" "found no directory for shard 1/1000000000000000"
# a FIFO as results.csv is refused, not waited on
rm -rf "$TMP/t-fifo"; cp -r "$TMP/shards/2" "$TMP/t-fifo"; rm "$TMP/t-fifo/results.csv"
mkfifo "$TMP/t-fifo/results.csv"
name=mergefifo
timeout 20 "$BIN" merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/t-fifo" "$TMP/shards/3" \
	-o "$TMP/m-fifo" >"$TMP/$name.out" 2>"$TMP/$name.err"
status=$?
expect_status "merge with a FIFO as a shard's results.csv" 2
expect_stderr "the FIFO is named" "t-fifo/results.csv: found a special file"
# the sweep file moved: merge says so and --sweep names it
rm -rf "$TMP/moved"; mkdir "$TMP/moved"; cp "$TMP/other.json" "$TMP/moved/other.json"
run movedrun sweep "$TMP/moved/other.json" -o "$TMP/moved/s" -q
mv "$TMP/moved/other.json" "$TMP/moved/renamed.json"
run mergemoved merge "$TMP/moved/s" -o "$TMP/moved/all"
expect_status "merge when the sweep file moved" 2
expect_stderr "the hint names --sweep" "pass --sweep FILE if it moved"
run mergemoved2 merge --sweep "$TMP/moved/renamed.json" "$TMP/moved/s" -o "$TMP/moved/all"
expect_status "merge --sweep with the moved sweep file" 0

# -o through a symbolic link to a shard: the shard is never overwritten
rm -rf "$TMP/lnout"; ln -s shards/1 "$TMP/lnout"
run mergeln merge "$TMP/shards/0" "$TMP/shards/1" "$TMP/shards/2" "$TMP/shards/3" -o "$TMP/lnout"
expect_status "merge -o a symbolic link to one of the shards" 2
expect_stderr "the shard is named" "shards/1: found the output directory among the shards"
check "the shard's results.csv is untouched (its 50 rows)" test "$(wc -l <"$TMP/shards/1/results.csv")" -eq 51

# ---- Slurm array fallback ----

SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=4 "$BIN" sweep "$SWEEP" -o "$TMP/slurm1" -j 2 \
	>"$TMP/slurm.out" 2>"$TMP/slurm.err"
status=$?
name=slurm
expect_status "shard from SLURM_ARRAY_TASK_ID/COUNT" 0
same "Slurm task 1 of 4 equals --shard 1/4" "$TMP/shards/1/results.csv" "$TMP/slurm1/results.csv"
expect_stderr "the Slurm shard is announced" "shard 1/4 (from SLURM_ARRAY_TASK_ID/COUNT)"

# ---- kill -9 midway, then --resume ----

"$BIN" sweep "$SWEEP" -o "$TMP/killed" -j 1 --chunk-rows 5 -q &
pid=$!
if wait_chunks "$TMP/killed" 4 $pid; then
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ -e "$TMP/killed/results.csv" ]; then
		not_ok "kill -9 midway (the sweep finished before it was killed)"
	else
		ok "kill -9 midway: $(ls "$TMP/killed" | grep -c '^results\.part-') chunks on disk, no results.csv"
	fi
else
	wait $pid 2>/dev/null
	not_ok "kill -9 midway (no chunks appeared)"
fi
run resume sweep "$SWEEP" -o "$TMP/killed" -j 2 --resume
expect_status "--resume after kill -9" 0
same "resumed results.csv byte-identical to an uninterrupted run" "$REF" "$TMP/killed/results.csv"
done_before=$(sed -n 's/.*resuming: \([0-9]*\) already done.*/\1/p' "$TMP/resume.err")
check "resume skipped the saved variants (${done_before:-?} of 200)" \
	test "${done_before:-0}" -gt 0 -a "${done_before:-200}" -lt 200
check "resume ran only the rest" grep -q "^sweep: $((200 - ${done_before:-0})) variants (plus ${done_before:-0} resumed)" "$TMP/resume.out"
run resume2 sweep "$SWEEP" -o "$TMP/killed" --resume
expect_status "--resume of a finished sweep" 0
check "a finished sweep runs nothing" grep -q 'nothing to run' "$TMP/resume2.out"
same "... and leaves results.csv alone" "$REF" "$TMP/killed/results.csv"

# ---- SIGINT midway, then --resume ----

"$BIN" sweep "$SWEEP" -o "$TMP/int" -j 2 --chunk-rows 5 -q 2>"$TMP/int.err" &
pid=$!
if wait_chunks "$TMP/int" 3 $pid; then
	kill -INT $pid
fi
wait $pid
status=$?
name=int
expect_status "SIGINT stops the sweep" 130
expect_stderr "SIGINT says how to continue" "continue with --resume"
check "SIGINT leaves no temporary files" sh -c "! ls -a '$TMP/int' | grep -q tmp"
run intresume sweep "$SWEEP" -o "$TMP/int" -j 1 --resume -q
expect_status "--resume after SIGINT" 0
same "resumed after SIGINT: byte-identical" "$REF" "$TMP/int/results.csv"

# ---- a worker process that dies: an internal error naming its variant ----

"$BIN" sweep "$SWEEP" -o "$TMP/crash" -j 2 --chunk-rows 5 -q 2>"$TMP/crash.err" &
pid=$!
if wait_chunks "$TMP/crash" 1 $pid; then
	kill -SEGV $(pgrep -P $pid | head -n 1)
fi
wait $pid
status=$?
name=crash
expect_status "a worker process killed by SIGSEGV" 3
check "the message names the variant and the signal" \
	grep -q "sweep: the worker process running variant [0-9]* was killed by signal 11" "$TMP/crash.err"
check "the other worker is gone too" sh -c "! pgrep -P $pid"

run again sweep "$SWEEP" -o "$TMP/int" -q
expect_status "a used directory without --resume" 2
expect_stderr "the message suggests --resume" "pass --resume"
run wrongshard sweep "$SWEEP" -o "$TMP/int" --shard 1/2 --resume -q
expect_status "--resume with another shard" 2

# ---- --keep-traces ----

run keep sweep "$SWEEP" -o "$TMP/keep" --shard 7/50 --keep-traces -q
expect_status "--keep-traces on shard 7/50" 0
check "each variant's outputs kept in DIR/variants/INDEX/" \
	test -s "$TMP/keep/variants/7/trace.csv" -a -s "$TMP/keep/variants/57/metrics.json" -a \
	-s "$TMP/keep/variants/157/events.jsonl"
check "its rows equal the same variants' rows of the full run" \
	sh -c "sed 1d '$TMP/keep/results.csv' > '$TMP/keep.rows' &&
	       awk -F, 'NR > 1 && \$1 % 50 == 7' '$REF' | cmp -s - '$TMP/keep.rows'"

# ---- malformed sweep files and options: exit 2, file and JSON path named ----

B=$(pwd)/scenarios/bugzoo/twl4030-full-battery.json
bad() {
	label=$1
	printf '%s\n' "$2" >"$TMP/bad-$label.json"
	run "bad-$label" sweep "$TMP/bad-$label.json" -o "$TMP/o-bad-$label"
	expect_status "malformed: $label" 2
	expect_stderr "$label: the message names the file and the JSON path" "$TMP/bad-$label.json: $3"
	check "$label: nothing written" test ! -e "$TMP/o-bad-$label"
}
bad unknown-path '{ "base": "'"$B"'", "vary": { "source.ilimm": ["1 A"] } }' 'vary["source.ilimm"][0]'
bad empty-list '{ "base": "'"$B"'", "vary": { "source.ilim": [] } }' 'vary["source.ilim"]: found an empty list'
bad mixed-dimensions '{ "base": "'"$B"'", "vary": { "source.ilim": ["1 A", "1.5 A", "4.5 V"] } }' 'vary["source.ilim"][2]: found "4.5 V" (voltage)'
bad missing-base '{ "vary": { "source.ilim": ["1 A"] } }' 'base: found nothing'
bad unreadable-base '{ "base": "nowhere.json", "vary": { "source.ilim": ["1 A"] } }' 'base:'
bad bad-policy '{ "base": "'"$B"'", "vary": { "policy": ["twl4030", "tw14030"] } }' 'vary["policy"][1]'
bad random-range '{ "base": "'"$B"'", "random": { "n": 2, "ranges": { "cable.length": ["2 m", "1 A"] } } }' 'random.ranges["cable.length"]'

run shard54 sweep "$SWEEP" -o "$TMP/o-shard54" --shard 5/4
expect_status "--shard 5/4" 2
expect_stderr "--shard 5/4 is named" '--shard: found "5/4"'
check "--shard 5/4: nothing written" test ! -e "$TMP/o-shard54"
SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4 "$BIN" sweep "$SWEEP" -o "$TMP/o-slurm4" \
	>"$TMP/slurm4.out" 2>"$TMP/slurm4.err"
status=$?
name=slurm4
expect_status "SLURM_ARRAY_TASK_ID=4 of 4" 2
expect_stderr "the Slurm variables are named" "SLURM_ARRAY_TASK_ID=4"
run noout sweep "$SWEEP"
expect_status "sweep without -o" 2

tl_finish
