#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_outdir.sh - an output directory holds one complete set of outputs or none,
# whatever happens to the run: a full file system, a second run into the same
# directory, SIGKILL, a sweep killed while it tidies up (output/outset.h).
#
# Usage (from the repository root): tests/test_outdir.sh build/chargesim
#
# "One complete set" is checked against reference runs: the files in the directory
# must be byte for byte those of one run (trace.csv, events.jsonl and metrics.json of
# the same run, nothing else of chargesim's), and after the next run no temporary
# file or staging directory may be left. The full file system is a 1 MiB tmpfs,
# mounted in a private mount namespace (unshare -m) so that nothing outlives the test;
# without root or unshare that part is skipped, saying why.
set -u

. "$(dirname "$0")/lib.sh"
tl_init outdir "${1:-build/chargesim}" scenarios/demo.json

# two small runs that differ, and a long one (60000 fixed steps: about 6 MB of trace)
cat >"$TMP/a.json" <<'EOF'
{ "name": "a", "duration": "10 min", "source": { "kind": "dcp", "ilim": "2.2 A" } }
EOF
cat >"$TMP/b.json" <<'EOF'
{ "name": "b", "duration": "12 min", "source": { "kind": "sdp" } }
EOF
cat >"$TMP/long.json" <<'EOF'
{ "name": "long", "duration": "2 h", "source": { "kind": "dcp" }, "device": { "battery": { "soc": "50 %" } } }
EOF
"$BIN" run "$TMP/a.json" -o "$TMP/ref-a" -q && "$BIN" run "$TMP/b.json" -o "$TMP/ref-b" -q ||
	{ echo "the reference runs failed" >&2; exit 2; }

# is_set DIR REF: DIR holds exactly REF's outputs and nothing else (but hidden files:
# see clean)
is_set() {
	[ "$(ls "$1")" = "$(ls "$2")" ] || return 1
	for f in trace.csv events.jsonl metrics.json; do
		cmp -s "$1/$f" "$2/$f" || return 1
	done
}

# clean DIR: nothing temporary left
clean() {
	[ -z "$(find "$1" -name '.*tmp*' 2>/dev/null)" ]
}

# wait_for DIR: until a run is writing its trace into DIR's staging directory
wait_for() {
	i=0
	while [ $i -lt 200 ] && [ -z "$(find "$1" -path '*/.chargesim-set.tmp-*/trace.csv' 2>/dev/null)" ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# ---- two runs into one directory ----

# one runs long, the other starts meanwhile: refused at once, the first completes
D=$TMP/two
"$BIN" run "$TMP/long.json" -o "$D" -q --max-step 10ms --trace-dt 1s &
pid=$!
wait_for "$D"
run second run "$TMP/a.json" -o "$D" -q
expect_status "a second run into a directory in use" 2
expect_stderr "it says why" "another chargesim is writing into this directory"
wait $pid
status=$?
name=second
expect_status "the first run" 0
"$BIN" run "$TMP/long.json" -o "$TMP/ref-long" -q --max-step 10ms --trace-dt 1s
check "the directory holds the first run's set" is_set "$D" "$TMP/ref-long"
check "and nothing temporary" clean "$D"

# started together, again and again: every time one set, whole
D=$TMP/race
mixed=0
refused=0
i=0
while [ $i -lt 20 ]; do
	"$BIN" run "$TMP/a.json" -o "$D" -q 2>/dev/null &
	p1=$!
	"$BIN" run "$TMP/b.json" -o "$D" -q 2>/dev/null &
	p2=$!
	wait $p1
	s1=$?
	wait $p2
	s2=$?
	[ $s1 = 2 ] || [ $s2 = 2 ] && refused=$((refused + 1))
	if ! is_set "$D" "$TMP/ref-a" && ! is_set "$D" "$TMP/ref-b"; then
		mixed=$((mixed + 1))
	fi
	case "$s1$s2" in
	00 | 02 | 20) ;;
	*) mixed=$((mixed + 100)) ;;
	esac
	i=$((i + 1))
done
if [ $mixed = 0 ]; then
	ok "20 pairs of runs started together: each time one complete set ($refused times one was refused)"
else
	not_ok "20 pairs of runs started together: $mixed mixed sets or bad statuses"
fi
check "and nothing temporary" clean "$D"

# ---- nested output directories: a run into DIR/fixed and a compare into DIR (which
# replaces DIR/fixed) refuse each other, whichever starts first; siblings do not ----
cat >"$TMP/year.json" <<'EOF'
{ "name": "year", "duration": "8784 h", "source": { "kind": "dcp" },
  "events": [ { "at": "100 h", "do": "unplug" }, { "at": "101 h", "do": "plug" } ] }
EOF
D=$TMP/nest
"$BIN" run "$TMP/long.json" -o "$D/fixed" -q --max-step 10ms --trace-dt 1s &
pid=$!
wait_for "$D/fixed"
run nest-compare compare "$TMP/a.json" -o "$D" --policy fixed --policy none -q
expect_status "a compare into the directory holding a run's" 2
expect_stderr "it says why" "another chargesim is writing into this directory (or one inside it)"
run nest-sibling run "$TMP/a.json" -o "$D/other" -q
expect_status "a run into a sibling directory meanwhile" 0
wait $pid
status=$?
name=nest
expect_status "the first run" 0
check "it holds its set" is_set "$D/fixed" "$TMP/ref-long"
D=$TMP/nest2
"$BIN" compare "$TMP/year.json" -o "$D" --policy fixed --policy none -q >/dev/null &
pid=$!
i=0
while [ $i -lt 200 ] && [ -z "$(find "$D" -name '.chargesim-set.tmp-*' 2>/dev/null)" ]; do
	sleep 0.02
	i=$((i + 1))
done
run nest-run run "$TMP/a.json" -o "$D/fixed" -q
expect_status "a run into a directory inside a compare's" 2
expect_stderr "it names the directory in use" "another chargesim is writing into $D, which holds this directory"
wait $pid
status=$?
name=nest2
expect_status "the compare" 0

# ---- SIGKILL, then the next run ----

D=$TMP/killed
"$BIN" run "$TMP/a.json" -o "$D" -q
"$BIN" run "$TMP/long.json" -o "$D" -q --max-step 1ms &
pid=$!
wait_for "$D"
kill -KILL $pid
wait $pid 2>/dev/null
check "after SIGKILL the directory still holds the previous set" is_set "$D" "$TMP/ref-a"
check "the killed run's staging directory is there" test -n "$(find "$D" -name '.chargesim-set.tmp-*')"
run rerun run "$TMP/b.json" -o "$D" -q
expect_status "the next run into it" 0
check "it holds the new set" is_set "$D" "$TMP/ref-b"
check "the killed run's leftovers are gone" clean "$D"

# a killed run into a new directory leaves no set at all, and the next run a whole one
D=$TMP/killed-new
"$BIN" run "$TMP/long.json" -o "$D" -q --max-step 1ms &
pid=$!
wait_for "$D"
kill -KILL $pid
wait $pid 2>/dev/null
check "after SIGKILL a new directory holds no output" \
	test -z "$(ls "$D" | grep -e trace.csv -e events.jsonl -e metrics.json)"
run rerun-new run "$TMP/a.json" -o "$D" -q
expect_status "the next run into it" 0
check "it holds the run's whole set" is_set "$D" "$TMP/ref-a"
check "nothing temporary" clean "$D"

# ---- a sweep killed while it removes its chunks ----

cat >"$TMP/sweep.json" <<'EOF'
{ "base": "a.json", "vary": { "source.ilim": ["1 A", "2 A", "3 A"] } }
EOF
run sweep sweep "$TMP/sweep.json" -o "$TMP/sw" -j 1 --chunk-rows 1 -q
expect_status "a sweep" 0
cp "$TMP/sw/results.csv" "$TMP/sweep-results.csv"
# what a kill between the complete manifest and the removal of the chunks leaves
head -n 2 "$TMP/sw/results.csv" | tail -n 1 >"$TMP/sw/results.part-000001.csv"
printf '2,not,a,row\n' >"$TMP/sw/results.part-000002.csv"
run resume sweep "$TMP/sweep.json" -o "$TMP/sw" --resume -q
expect_status "--resume of the complete sweep" 0
check "the leftover chunks are removed" test -z "$(ls "$TMP/sw" | grep part)"
same "results.csv is unchanged" "$TMP/sw/results.csv" "$TMP/sweep-results.csv"

# ---- writes checked as they happen ----

# A year-long run whose files may not pass 1 MiB (ulimit -f; SIGXFSZ ignored, so a
# write past it fails with EFBIG as on a full disk): it stops when the write fails,
# not after the year, exit 2 with the file and the time named, and no output left.
D=$TMP/fsize
(trap '' XFSZ; ulimit -f 2048; exec "$BIN" run scenarios/demo.json -o "$D" -q \
	--set "duration=8784 h") >"$TMP/fsize.out" 2>"$TMP/fsize.err"
status=$?
name=fsize
expect_status "a file size limit during a year-long run" 2
expect_stderr "names the file and the error" "trace.csv: cannot write output file: File too large"
t=$(sed -n 's/.*stopped at t = \([0-9.e+]*\) s.*/\1/p' "$TMP/fsize.err")
if [ -n "$t" ] && awk -v t="$t" 'BEGIN { exit !(t < 8784 * 3600 / 4) }'; then
	ok "it stopped when the write failed (t = $t s of 8784 h)"
else
	not_ok "it stopped when the write failed" "$(cat "$TMP/fsize.err")"
fi
check "no output is left" test -z "$(ls -A "$D" 2>/dev/null)"

# A run that writes over 100 MB of trace is warned about whatever its options: here
# the estimate before the run (75 bytes a row) stays under 100 MB, the trace does not
D=$TMP/bigtrace
run bigtrace run scenarios/demo.json -o "$D" --max-step 1ms --set "duration=22 min"
expect_in "a trace past 100 MB is warned about (a flag of the summary)" out "! WARNING: trace.csv passed 100 MB at t ="
expect_in "with what to do" out "--trace-dt 1s keeps one row per second"
rm -rf "$D"

# ---- a full file system ----

# A run whose trace.csv (about 220 KB) and events.jsonl (35 KB) fill the space left at
# one point or another: before output sets, with 252 KiB free a new directory got a
# lone trace.csv and with 256 KiB a trace and events without metrics. Each amount from
# 236 to 264 KiB is tried, into a directory holding a set and into a new one: the run
# must exit 0 with its whole set, or 2 leaving the old set (or nothing). The steps
# run as root in a private mount namespace and print one line per case.
BIG=scenarios/bugzoo/dead-battery-boot-loop.json
"$BIN" run "$BIG" -o "$TMP/ref-big" -q || { echo "the reference run of $BIG failed" >&2; exit 2; }
cat >"$TMP/full.sh" <<'EOF'
M=$TMP/full
mkdir -p "$M"
mount -t tmpfs -o size=1m tmpfs "$M" || exit 3
is_set() {
	[ "$(ls "$1")" = "$(ls "$2")" ] || return 1
	for f in trace.csv events.jsonl metrics.json; do
		cmp -s "$1/$f" "$2/$f" || return 1
	done
}
free=236
while [ $free -le 264 ]; do
	for c in existing new; do
		rm -rf "$M/d"
		if [ $c = existing ]; then
			"$BIN" run "$TMP/a.json" -o "$M/d" -q || exit 4
		fi
		avail=$(($(stat -f -c '%a * %S' "$M")))
		head -c $((avail - free * 1024)) /dev/zero >"$M/filler" || exit 4
		"$BIN" run "$BIG" -o "$M/d" -q 2>"$TMP/full.err"
		s=$?
		rm -f "$M/filler"
		r=good
		if [ $s = 0 ]; then
			is_set "$M/d" "$TMP/ref-big" || r="bad: exit 0 without the run's whole set"
		elif [ $s = 2 ]; then
			grep -q "No space left on device" "$TMP/full.err" || r="bad: the message does not say the disk is full"
			if [ $c = existing ]; then
				is_set "$M/d" "$TMP/ref-a" || r="bad: the old set changed: $(ls "$M/d" | tr '\n' ' ')"
			elif [ -n "$(ls "$M/d")" ]; then
				r="bad: outputs written: $(ls "$M/d" | tr '\n' ' ')"
			fi
		else
			r="bad: exit $s"
		fi
		[ -z "$(find "$M/d" -name '.*tmp*' 2>/dev/null)" ] || r="bad: temporary files left"
		echo "$free KiB free, $c directory: exit $s, $r"
	done
	free=$((free + 4))
done
# with the space back, the next run writes its whole set
{ "$BIN" run "$TMP/b.json" -o "$M/d" -q && is_set "$M/d" "$TMP/ref-b"; } || echo "then with space: bad"
umount "$M"
EOF

if [ "$(id -u)" != 0 ]; then
	skip "a full file system" "needs root to mount a small tmpfs"
elif ! command -v unshare >/dev/null 2>&1 || ! unshare -m true 2>/dev/null; then
	skip "a full file system" "unshare -m is not available"
else
	BIN=$BIN TMP=$TMP BIG=$BIG unshare -m sh "$TMP/full.sh" >"$TMP/full.log"
	case $? in
	0)
		if grep -q bad "$TMP/full.log"; then
			not_ok "a full file system: one complete set or none" "$(grep bad "$TMP/full.log")"
		else
			ok "a full file system ($(grep -c 'exit 2' "$TMP/full.log") cases full, $(grep -c 'exit 0' "$TMP/full.log") not): one complete set or none"
		fi
		check "a full file system: some runs did find it full" grep -q 'exit 2, good' "$TMP/full.log"
		;;
	3) skip "a full file system" "cannot mount a tmpfs here" ;;
	*) not_ok "a full file system: the first run into the small tmpfs failed" ;;
	esac
fi

tl_finish
