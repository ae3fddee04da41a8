#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_names.sh - hostile names: what a scenario's file name, its "name", a
# policy, a label, a title or an output name can and cannot do.
#
# Usage (from the repository root): tests/test_names.sh build/chargesim
#
# Names become directories (out/NAME), JUnit names and plot titles; the file names of
# plots go into gnuplot scripts, which gnuplot runs as commands. Each hostile text
# below carries `touch MARK` in backquotes, $(touch MARK) and system("touch MARK")
# after a line break: if any of them ever reached a shell or a gnuplot command, a
# MARK* file would appear somewhere under the scratch directory. So every case checks
# its exit status and message, and at the end no MARK* file may exist at all.
# The plotting cases need gnuplot (skipped without it).
set -u

. "$(dirname "$0")/lib.sh"
tl_init names "${1:-build/chargesim}" scenarios/demo.json

W=$TMP/work
mkdir "$W" || exit 2
# a short scenario without a "name": its file name names it
printf '{\n  "duration": "10 min",\n  "source": { "kind": "dcp", "ilim": "2.2 A" }\n}\n' >"$TMP/base.json"

NL='
'
# quotes, backquotes and $(): legal in a name, and must stay text
HOSTILE="q'a\"b\`touch MARK1\`\$(touch MARK2)"
# the same with a line break and a gnuplot command on the next line: not a name
HOSTILE_NL="n${NL}system(\"touch MARK3\")${NL}\`touch MARK4\`"

have_gnuplot=true
command -v "${CHARGESIM_GNUPLOT:-gnuplot}" >/dev/null 2>&1 || have_gnuplot=false

# no_marks WHAT: no MARK* file anywhere under $TMP
no_marks() {
	found=$(find "$TMP" -name 'MARK*' 2>/dev/null | head -5)
	if [ -z "$found" ]; then
		ok "$1: no command ran"
	else
		not_ok "$1: a command ran" "$found"
	fi
}

# ---- names from file names ----

cp "$TMP/base.json" "$W/$HOSTILE.json"
cd "$W" || exit 2
if $have_gnuplot; then
	run run-hostile run "$HOSTILE.json" --plot -q
	expect_status "run --plot of a file named with quotes, backquotes and \$()" 0
	check "its outputs are in out/NAME with the name unchanged" test -s "out/$HOSTILE/plot.png"
	check "its plot script reads the data by a fixed name in its directory" \
		grep -q "^array TRACE\\[N\\] = \\['plot-trace-1.csv'\\]" "out/$HOSTILE/plot.gp"
	run compare-hostile compare "$HOSTILE.json" --policy fixed --policy none --plot -q
	expect_status "compare --plot of the same file" 0
	check "compare's plot is in out/NAME-compare" test -s "out/$HOSTILE-compare/plot.png"
	no_marks "run and compare --plot with a hostile file name"
else
	skip "run --plot and compare --plot with a hostile file name" "gnuplot is not installed"
fi

cp "$TMP/base.json" "$W/$HOSTILE_NL.json"
run run-newline run "$HOSTILE_NL.json" --plot -q
expect_status "run --plot of a file name with a line break" 2
expect_stderr "the message suggests a \"name\"" 'add a "name" to the scenario'
check "nothing was written for it" test ! -e "out/n"
run compare-newline compare "$HOSTILE_NL.json" --policy fixed --plot -q
expect_status "compare --plot of a file name with a line break" 2

# the same file with a "name": the file name no longer matters
sed 's/^{/{ "name": "given",/' "$TMP/base.json" >"$W/$HOSTILE_NL.json"
if $have_gnuplot; then
	run run-named run "$HOSTILE_NL.json" --plot -q
	expect_status "a \"name\" makes the same file runnable" 0
	check "its outputs are in out/given" test -s out/given/metrics.json
fi

cp "$TMP/base.json" "$W/...json"
run run-dotdot run "...json" -q
expect_status "a file named ...json (name \"..\")" 2
expect_stderr "the message says why" 'starts with a dot'
check "nothing was written into out/.. (the current directory)" test ! -e trace.csv

printf 'caf\351' >"$TMP/latin1"
cp "$TMP/base.json" "$W/$(cat "$TMP/latin1").json"
run run-latin1 run "$(cat "$TMP/latin1").json" -q
expect_status "a file name that is not UTF-8" 2
expect_stderr "the message says why" 'is not UTF-8'

# a "name" with a line break or a slash is refused whatever the file is called
printf '{ "name": "a\\nb", "duration": "1 s" }\n' >"$W/nl-name.json"
run name-nl run nl-name.json -q
expect_status "a \"name\" with a line break" 2
expect_stderr "it names the rule" 'no slashes or control characters'

# ---- compare's policies become directories ----

run policy-dotdot compare "$TMP/base.json" --policy ../escape -o cmp
expect_status "compare --policy ../escape" 2
check "nothing was written beside cmp/" test ! -e escape
run policy-twice compare "$TMP/base.json" --policy fixed --policy fixed -o cmp
expect_status "compare --policy fixed twice" 2
expect_stderr "the message says twice" 'would both write to DIR/fixed/'

# ---- plot: output names, titles and labels ----

if $have_gnuplot; then
	"$BIN" run "$TMP/base.json" -o "$W/r" -q || not_ok "a run for the plots"
	run plot-name plot r/trace.csv -o "x'\`touch MARK5\`'\$(touch MARK6).png"
	expect_status "plot -o with quotes and backquotes in the file name" 0
	check "the image has that name" test -s "x'\`touch MARK5\`'\$(touch MARK6).png"
	run plot-title plot r/trace.csv -o t.svg --title "$HOSTILE_NL\\" --label "$HOSTILE_NL"
	expect_status "plot --title and --label with line breaks and gnuplot commands" 0
	check "the title is one line of text" grep -q "^TITLE = 'n system(\"touch MARK3\") \`touch MARK4\`\\\\ '\$" t.gp
	mkdir "$W/d$NL" && cp r/trace.csv "$W/d$NL/trace.csv"
	run plot-nl-path plot "d$NL/trace.csv" -o p.png
	expect_status "plot of a trace whose path has a line break" 2
	expect_stderr "the message asks for another name" 'rename the file'
	no_marks "plot with hostile names"
else
	skip "plot with hostile names" "gnuplot is not installed"
fi
cd - >/dev/null || exit 2

no_marks "all cases"
tl_finish
