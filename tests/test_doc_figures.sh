#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_doc_figures.sh - what the docs quote is what this build does (issue 38).
#
# Usage (from the repository root): tests/test_doc_figures.sh build/chargesim
#
# 1. Every chargesim command line in a code block of README.md, docs/*.md, the other
#    READMEs and the manual pages' examples names a command `chargesim --help` lists
#    and only options that command's --help shows.
# 2. Every `$ chargesim ...` transcript in them is run (in a scratch directory, with
#    the repository's scenarios/) and its output compared with the quoted one: "..."
#    in a quoted line stands for any text, and the summary's wall-clock figures
#    ("simulated in 7.3 ms (3.3e+05x real time)") are not compared. A transcript whose
#    input file is the reader's own (a meter capture, a fragment) is listed below and
#    skipped with the reason.
# 3. The README's figures of "Checking the adaptive steps": the demo's step count, the
#    diff's verdict, the two termination times, the columns an exact diff fails, the
#    trace size `run` warns of at --max-step 1ms.
# 4. The gallery: every image a tracked Markdown file shows is tracked (a fresh
#    checkout has it); plots/gallery/README.md is what `make gallery-update` writes
#    (its metrics are this build's); `make gallery` changes no tracked file.
# 5. docs/scenarios.md 11.1: the trace excerpt of section 1's example and the row counts
#    of --trace-dt; docs/architecture.md's diagram names every command.
# 6. docs/models.md's measured tables: each worked example's energy balance error, and
#    the brute-force check of ex-e (steps, CV entry, time to 80 %, termination, energy
#    balance at each step size), from running the examples as the page writes them. A
#    quoted figure passes when it is the run's rounded to the digits quoted.
set -u
# --help as the C locale prints it (GLib translates its headers)
export LC_ALL=C

. "$(dirname "$0")/lib.sh"
tl_init docfigures "${1:-build/chargesim}" README.md
REPO=$(pwd)
DOCS="README.md scenarios/README.md fuzz/README.md plots/gallery/README.md $(ls docs/*.md)"

# ---- 1. command lines ----
"$BIN" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { on = 0 } on { print $1 }' \
	>"$TMP/cmds"
# FILE:LINE<TAB>the command line, continuation lines joined
for f in $DOCS; do
	awk -v f="$f" '
		/^```/ { code = !code; next }
		!code { next }
		cont { line = line " " $0; sub(/\\$/, "", line); if ($0 !~ /\\$/) { print at "\t" line; cont = 0 }; next }
		/^ *(\$ )?(build\/)?chargesim / {
			line = $0; at = f ":" NR
			sub(/^ *(\$ )?(build\/)?chargesim /, "", line)
			sub(/ +#.*/, "", line)
			if (line ~ /\\$/) { sub(/\\$/, "", line); cont = 1; next }
			print at "\t" line
		}' "$f"
done >"$TMP/lines"
# and the examples of the manual pages (.nf ... .fi), roff escapes undone
for f in docs/man/*.[1-9]; do
	sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(aq/'"'"'/g' "$f" | awk -v f="$f" '
		/^\.nf/ { code = 1; next }
		/^\.fi/ { code = 0; next }
		!code { next }
		cont { line = line " " $0; sub(/\\$/, "", line); if ($0 !~ /\\$/) { print at "\t" line; cont = 0 }; next }
		/^ *chargesim / {
			line = $0; at = f ":" NR
			sub(/^ *chargesim /, "", line)
			if (line ~ /\\$/) { sub(/\\$/, "", line); cont = 1; next }
			print at "\t" line
		}'
done >>"$TMP/lines"
bad=""
n=0
while IFS=$(printf '\t') read -r at line; do
	set -f
	# shellcheck disable=SC2086
	set -- $line
	set +f
	cmd=$1
	n=$((n + 1))
	case $cmd in
	--help | --version) continue ;;
	esac
	if ! grep -qx -- "$cmd" "$TMP/cmds"; then
		bad="$bad
$at: \"$cmd\" is no command of chargesim --help"
		continue
	fi
	[ -s "$TMP/opts-$cmd" ] || { "$BIN" "$cmd" --help | grep -o -- '--[a-z0-9-]*' | sort -u; } \
		>"$TMP/opts-$cmd"
	shift
	for w in "$@"; do
		case $w in
		--*) ;;
		*) continue ;;
		esac
		o=${w%%=*}
		grep -qx -- "$o" "$TMP/opts-$cmd" || bad="$bad
$at: chargesim $cmd has no option $o"
	done
done <"$TMP/lines"
if [ -z "$bad" ] && [ "$n" -ge 30 ]; then
	ok "$n chargesim command lines in the docs name real commands and options"
else
	not_ok "chargesim command lines in the docs ($n)" "$bad"
fi

# make targets the docs name are the Makefile's (link-order: scaling.md tells of its removal)
bad=""
for t in $(grep -ohE '`make [a-z][a-z-]*|^make [a-z][a-z-]*' $DOCS | sed 's/^`\{0,1\}make //' | sort -u); do
	[ "$t" = link-order ] && continue
	grep -Eq "^$t:|^\.PHONY:.* $t( |\$)" Makefile || bad="$bad make $t"
done
[ -z "$bad" ] && ok "every make target the docs name is the Makefile's" ||
	not_ok "make targets the docs name that the Makefile lacks:$bad"
# the README says scenarios/README.md lists every file of the library (sweeps by folder)
bad=""
for f in $(find scenarios -name '*.json' -not -path '*/golden/*' -not -path 'scenarios/sweeps/*'); do
	grep -q -- "$(basename "$f" .json)" scenarios/README.md || bad="$bad $f"
done
[ -z "$bad" ] && ok "scenarios/README.md names every scenario of the library" ||
	not_ok "scenarios/README.md does not name:$bad"

# ---- 2. transcripts ----
# Blocks not run: the file, a file the block's commands name, and why.
SKIP="
docs/diff.md meter.csv is the reader's own USB power meter capture
docs/scaling.md bad.json is the section's sweep with a misspelt path, not written out
docs/scenarios.md fp.json is a scenario around the section's fingerprint fragment
docs/policy-sdk.md template.so is built and this listing compared by tests/test_plugin.sh
"
mkdir -p "$TMP/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$BIN" >"$TMP/bin/chargesim"
chmod +x "$TMP/bin/chargesim"

# mask: the wall-clock part of run's summary, which no two runs share
mask() {
	sed -e 's/ simulated in [^)]*real time)/ simulated in (time)/'
}

# matches FILE-QUOTED FILE-GOT: line by line, "..." in a quoted line matching anything
matches() {
	awk 'NR == FNR { want[NR] = $0; nw = NR; next }
		{ got[FNR] = $0; ng = FNR }
		END {
			if (nw != ng) { print "quoted " nw " lines, got " ng; exit 1 }
			for (i = 1; i <= nw; i++) {
				n = split(want[i], part, /\.\.\./); s = got[i]; okay = 1
				for (k = 1; k <= n; k++) {
					p = index(s, part[k])
					if (p == 0 || (k == 1 && p != 1)) { okay = 0; break }
					s = substr(s, p + length(part[k]))
				}
				if (okay && n > 0 && part[n] != "" && s != "") okay = 0
				if (!okay) { print "line " i ": quoted: " want[i]; print "line " i ":    got: " got[i]; exit 1 }
			}
		}' "$1" "$2"
}

nt=0
for f in $DOCS; do
	# each transcript block into $TMP/t/FILE-LINE.blk; the last ```json block before it
	# into FILE-LINE.json (a scenario the transcript may name)
	rm -rf "$TMP/t"
	mkdir -p "$TMP/t"
	awk -v dir="$TMP/t" '
		/^```json$/ { injson = 1; json = ""; next }
		injson && /^```$/ { injson = 0; lastjson = json; next }
		injson { json = json $0 "\n"; next }
		/^```/ { if (code && blk != "") { printf "%s", blk > (dir "/" start ".blk"); printf "%s", lastjson > (dir "/" start ".json") }
			 code = !code; blk = ""; start = 0; next }
		code && /^\$ chargesim / && start == 0 { start = NR }
		code && start { blk = blk $0 "\n" }' "$f"
	for blk in "$TMP"/t/*.blk; do
		[ -e "$blk" ] || continue
		at="$f:$(basename "$blk" .blk)"
		why=""
		for word in $(grep '^\$ ' "$blk"); do
			why=$(printf '%s\n' "$SKIP" | sed -n "s|^$f ${word##*/} \(.*\)|${word##*/} \1|p")
			[ -n "$why" ] && break
		done
		if [ -n "$why" ]; then
			skip "transcript $at" "$why"
			continue
		fi
		nt=$((nt + 1))
		w=$TMP/w-$nt
		mkdir -p "$w"
		ln -s "$REPO/scenarios" "$w/scenarios"
		json=${blk%.blk}.json
		# the command, continuation lines joined; the quoted output after it
		awk -v dir="$w" '
			/^\$ / { n++; cmd = substr($0, 3); cont = (cmd ~ /\\$/); sub(/\\$/, "", cmd)
				 printf "%s", cmd > (dir "/cmd" n); if (!cont) print "" > (dir "/cmd" n)
				 printf "" > (dir "/want" n); next }
			cont { c = $0; cont = (c ~ /\\$/); sub(/\\$/, "", c); printf " %s", c > (dir "/cmd" n)
			       if (!cont) print "" > (dir "/cmd" n); next }
			{ print > (dir "/want" n) }' "$blk"
		problem=""
		k=1
		while [ -e "$w/cmd$k" ]; do
			# a file the command names that is not there: the scenario just above
			for word in $(cat "$w/cmd$k"); do
				case $word in
				*.json) [ -e "$w/$word" ] || [ ! -s "$json" ] || cp "$json" "$w/$word" ;;
				esac
			done
			(cd "$w" && PATH="$TMP/bin:$PATH" sh -c "$(cat "$w/cmd$k")" >"$w/got$k" 2>&1)
			if [ -s "$w/want$k" ]; then
				mask <"$w/want$k" >"$w/want$k.m"
				mask <"$w/got$k" >"$w/got$k.m"
				d=$(matches "$w/want$k.m" "$w/got$k.m") ||
					problem="$problem
\$ $(cat "$w/cmd$k")
$d"
			fi
			k=$((k + 1))
		done
		if [ -z "$problem" ]; then
			ok "transcript $at: the quoted output is this build's"
		else
			not_ok "transcript $at: the quoted output is this build's" "$problem"
		fi
	done
done
[ "$nt" -ge 2 ] && ok "$nt transcripts run" || not_ok "only $nt transcripts run"

# ---- 3. README: checking the adaptive steps ----
mkdir -p "$TMP/a"
ln -s "$REPO/scenarios" "$TMP/a/scenarios"
cd "$TMP/a" || exit 2
"$BIN" run scenarios/demo.json -o out/adaptive >run1.out 2>&1
"$BIN" run scenarios/demo.json -o out/fixed --max-step 10ms --trace-dt 1s >run2.out 2>&1
"$BIN" diff out/adaptive/trace.csv out/fixed/trace.csv --time-shift 200ms \
	--tol '*=abs:1e-6,rel:1e-4' >diff.out 2>&1
"$BIN" diff out/adaptive/trace.csv out/fixed/trace.csv --time-shift 200ms >exact.out 2>&1
"$BIN" run scenarios/demo.json --max-step 1ms -o /dev/null/x >warn.out 2>&1
"$BIN" diff out/adaptive/trace.csv out/fixed/trace.csv --tol '*=abs:1e-6,rel:1e-4' >noshift.out 2>&1
echo $? >noshift.rc
cd "$REPO" || exit 2
readme=$(tr '\n' ' ' <README.md | tr -s ' ')

# quoted REGEX: the README's text matching REGEX (sed -E), its first group
quoted() {
	printf '%s\n' "$readme" | sed -nE "s/.*$1.*/\\1/p"
}
steps=$(sed -n 's/.*; \([0-9][0-9]*\) steps, .*/\1/p' "$TMP/a/run1.out")
q=$(quoted '\(the demo: ([0-9]+) steps in 2 h\)')
[ -n "$q" ] && [ "$q" = "$steps" ] && ok "README: the demo takes $steps steps" ||
	not_ok "README: the demo's step count" "README says \"$q\", run prints \"$steps steps\""
verdict=$(tail -n 1 "$TMP/a/diff.out")
q=$(quoted 'It ends with `([^`]*)`')
[ -n "$q" ] && [ "$q" = "$verdict" ] && ok "README: the diff ends with \"$verdict\"" ||
	not_ok "README: the diff's verdict" "README says \"$q\", diff prints \"$verdict\""
done_at() {
	sed -n 's/^{"t":\([0-9.]*\),"src":"pmic","ev":"charger_state","state":"done"}$/\1/p' "$1" |
		head -n 1
}
t1=$(done_at "$TMP/a/out/adaptive/events.jsonl")
t2=$(done_at "$TMP/a/out/fixed/events.jsonl")
want=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f s apart (%.2f s and %.2f s)", b - a, a, b }')
q=$(quoted 'terminate ([0-9.]+ s apart \([0-9.]+ s and [0-9.]+ s\))')
[ -n "$t1" ] && [ "$q" = "$want" ] && ok "README: the runs terminate $want" ||
	not_ok "README: the termination times" "README says \"$q\", the runs give \"$want\""
nfail=$(grep -c '^[a-zA-Z_]*  *FAIL ' "$TMP/a/exact.out")
q=$(quoted 'the last printed digit differs in ([0-9]+) columns')
[ -n "$q" ] && [ "$q" = "$nfail" ] && ok "README: an exact diff fails $nfail columns" ||
	not_ok "README: the columns an exact diff fails" "README says \"$q\", diff fails $nfail"
cv=$(awk '$1 == "charger_state" && $2 == "FAIL" { printf "%.1f", $5 }' "$TMP/a/noshift.out")
q=$(quoted 'and at the CV entry, ([0-9.]+) s\) compare different charger states and fail')
[ "$(cat "$TMP/a/noshift.rc")" = 1 ] && [ -n "$q" ] && [ "$q" = "$cv" ] &&
	ok "README: without --time-shift the diff fails on charger_state, first at $cv s" ||
	not_ok "README: without --time-shift" "README says \"$q\", diff: $(grep charger_state "$TMP/a/noshift.out")"
w=$(sed -n 's/.*writes about \([0-9.]* million\) trace rows (about \([0-9]* MB\)).*/\1 rows, about \2/p' \
	"$TMP/a/warn.out")
q=$(quoted 'that is about ([0-9.]+ million rows, about [0-9]+ MB)')
[ -n "$w" ] && [ "$q" = "$w" ] && ok "README: --max-step 1ms warns of $w" ||
	not_ok "README: the --max-step 1ms trace size" "README says \"$q\", run warns \"$w\""

# ---- 5. docs/scenarios.md 11.1 and docs/architecture.md ----
# the excerpt is of section 1's example (weak-adapter.json, written by the transcripts
# above from the same block): each quoted row is a row of its trace, the header first
mkdir -p "$TMP/s11"
awk '/^## 1\. /{ on = 1 } on && /^```json$/{ j = 1; next } on && j && /^```$/{ exit } on && j' \
	docs/scenarios.md >"$TMP/s11/weak-adapter.json"
"$BIN" run "$TMP/s11/weak-adapter.json" -o "$TMP/s11/wa" -q >/dev/null 2>&1
awk '/^### 11\.1 / { sec = 1 } /^```$/ { if (on) exit } on { print } /^```$/ { next }
	sec && /^time_s,/ && !on { on = 1; print }' \
	docs/scenarios.md | awk '!/^```/' >"$TMP/s11/quoted"
bad=""
first=1
while IFS= read -r row; do
	[ "$row" = "..." ] && continue
	if [ $first -eq 1 ]; then
		[ "$row" = "$(head -n 1 "$TMP/s11/wa/trace.csv")" ] || bad="$bad
header: quoted $row"
		first=0
	elif ! grep -qxF -- "$row" "$TMP/s11/wa/trace.csv"; then
		bad="$bad
not a row of the trace: $row"
	fi
done <"$TMP/s11/quoted"
[ -z "$bad" ] && [ "$(wc -l <"$TMP/s11/quoted")" -ge 5 ] &&
	ok "docs/scenarios.md 11.1: the quoted trace rows are the example's" ||
	not_ok "docs/scenarios.md 11.1: the quoted trace rows" "$bad"
"$BIN" run scenarios/demo.json --policy safe-ramp -o "$TMP/s11/sr" -q >/dev/null 2>&1
"$BIN" run scenarios/demo.json --policy safe-ramp -o "$TMP/s11/sr60" -q --trace-dt 60s >/dev/null 2>&1
want="$(($(wc -l <"$TMP/s11/sr/trace.csv") - 1)) rows without the option and $(($(wc -l <"$TMP/s11/sr60/trace.csv") - 1)) with"
q=$(tr '\n' ' ' <docs/scenarios.md | tr -s ' ' | sed -nE 's/.* writes ([0-9,]+ rows without the option and [0-9,]+ with) `--trace-dt 60s`.*/\1/p' | tr -d ,)
[ "$q" = "$want" ] && ok "docs/scenarios.md 11.1: safe-ramp's demo writes $want --trace-dt 60s" ||
	not_ok "docs/scenarios.md 11.1: the rows of --trace-dt" "the doc says \"$q\", the runs give \"$want\""
line=$(grep -m 1 '^ *cli/ *chargesim ' docs/architecture.md)
missing=""
for c in $(cat "$TMP/cmds"); do
	printf '%s\n' "$line" | grep -qw -- "$c" || missing="$missing $c"
done
[ -n "$line" ] && [ -z "$missing" ] && ok "docs/architecture.md's diagram names every command" ||
	not_ok "docs/architecture.md's diagram lacks:$missing" "$line"

# ---- 6. docs/models.md: the worked examples' measured figures ----
mkdir -p "$TMP/ex"
awk -v dir="$TMP/ex" '
	/^```json$/ { j = 1; b = ""; next }
	j && /^```$/ { j = 0
		if (b ~ /^\{ "name": "ex-/) { match(b, /"ex-[a-z]+"/); printf "%s", b > (dir "/" substr(b, RSTART + 1, RLENGTH - 2) ".json") }
		next }
	j { b = b $0 "\n" }' docs/models.md
# near QUOTED ACTUAL: ACTUAL rounded to QUOTED's digits is QUOTED ("3.5e-7" and
# 3.45e-07, "2078.364783" and 2078.364782537)
near() {
	awk -v q="$1" -v a="$2" 'BEGIN {
		m = q; e = 0
		if (match(q, /[eE]/)) { m = substr(q, 1, RSTART - 1); e = substr(q, RSTART + 1) + 0 }
		d = index(m, ".") ? length(m) - index(m, ".") : 0
		exit !(a != "" && (q - a < 0 ? a - q : q - a) <= 0.5 * 10 ^ (e - d) * 1.0001)
	}'
}
# metric DIR KEY: a value of DIR/metrics.json
metric() {
	sed -n "s/^[[:space:]]*\"$2\":[[:space:]]*\\([^,]*\\),\\{0,1\\}\$/\\1/p" "$1/metrics.json"
}
# ex-g has no block of its own: "Take the same run [ex-f] with `"ilim": "0.8 A",
# "overload": "hiccup", "t_limit_max": "500 ms"`" (its section), as long as it says so
EXG='Take the same run with `"ilim": "0.8 A", "overload": "hiccup", "t_limit_max": "500 ms"`.'
runex() {  # runex NAME OPTS...: run the example into $TMP/ex/out-NAME-OPTS
	n=$1
	shift
	d="$TMP/ex/out-$n$(printf '%s' "$*" | tr -c 'a-z0-9' '_')"
	f=$TMP/ex/$n.json
	if [ "$n" = ex-g ] && [ ! -e "$f" ] && grep -qxF "$EXG" docs/models.md; then
		f=$TMP/ex/ex-f.json
		set -- "$@" --set source.ilim=0.8A --set source.overload=hiccup \
			--set source.t_limit_max=500ms
	fi
	[ -e "$d/metrics.json" ] || "$BIN" run "$f" -o "$d" -q "$@" >/dev/null 2>&1
	echo "$d"
}
bad=""
rows=0
while IFS='|' read -r _ what value _; do
	n=$(printf '%s' "$what" | sed -n 's/^ *\(ex-[a-z]*\).*/\1/p')
	[ -n "$n" ] || continue
	rows=$((rows + 1))
	ms=$(printf '%s' "$what" | sed -n 's/.*`\(--max-step [0-9a-z]*\)`.*/\1/p')
	# shellcheck disable=SC2086
	d=$(runex "$n" $ms)
	v=$(printf '%s' "$value" | tr -d ' ')
	got=$(metric "$d" energy_balance_error)
	near "$v" "$got" || bad="$bad
$n$([ -n "$ms" ] && echo " $ms"): docs/models.md says energy_balance_error $v, the run gives $got"
done <<EOF2
$(sed -n '/^| example | energy_balance_error |$/,/^$/p' docs/models.md)
EOF2
[ -z "$bad" ] && [ "$rows" -ge 6 ] && ok "docs/models.md: the $rows examples' energy balance errors" ||
	not_ok "docs/models.md: the examples' energy balance errors ($rows rows)" "$bad"
bad=""
rows=0
while IFS='|' read -r _ how steps cv soc80 term eb _; do
	case $how in
	*adaptive*) opt="" ;;
	*--max-step*) opt=$(printf '%s' "$how" | sed -n 's/.*`\(--max-step [0-9a-z]*\)`.*/\1/p') ;;
	*) continue ;;
	esac
	rows=$((rows + 1))
	# shellcheck disable=SC2086
	d=$(runex ex-e $opt)
	gcv=$(sed -n 's/^{"t":\([0-9.]*\),"src":"pmic","ev":"charger_state","state":"cv"}$/\1/p' \
		"$d/events.jsonl" | head -n 1)
	for pair in "steps $steps $(metric "$d" steps)" "CV-entry ${cv% s} $gcv" \
		"time_to_soc_80_s $soc80 $(metric "$d" time_to_soc_80_s)" \
		"termination ${term% s} $(metric "$d" time_to_full_s)" \
		"energy_balance_error $eb $(metric "$d" energy_balance_error)"; do
		set -- $pair
		near "$2" "${3:-}" || bad="$bad
ex-e ${opt:-adaptive}: docs/models.md says $1 $2, the run gives ${3:-nothing}"
	done
done <<EOF2
$(sed -n '/^| run | steps | CV entry | time_to_soc_80_s | termination | energy_balance_error |$/,/^$/p' \
	docs/models.md | sed 's/ s |/ |/g')
EOF2
[ -z "$bad" ] && [ "$rows" -eq 3 ] && ok "docs/models.md: ex-e adaptive against --max-step, all figures" ||
	not_ok "docs/models.md: the brute-force check of ex-e ($rows rows)" "$bad"

# ---- 4. the gallery ----
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files >"$TMP/tracked"
	missing=""
	for f in $(git ls-files '*.md'); do
		d=$(dirname "$f")
		for img in $(grep -o '!\[[^]]*\]([^)]*)' "$f" | sed 's/.*](\([^)]*\))/\1/'); do
			case $img in
			http*) continue ;;
			esac
			p=$(cd "$d" && realpath -m --relative-to="$REPO" "$img")
			grep -qx -- "$p" "$TMP/tracked" || missing="$missing
$f shows $img, which a fresh checkout has not"
		done
	done
	[ -z "$missing" ] && ok "every image a tracked Markdown file shows is tracked" ||
		not_ok "images a fresh checkout lacks" "$missing"
	kept=$(git ls-files 'plots/gallery/*.png' | sed 's|.*/||; s|\.png$||' | tr '\n' ' ')
	git status --porcelain --untracked-files=all plots scenarios docs >"$TMP/before"
	if GALLERY=$TMP/g TRACKED="$kept" plots/gallery/generate.sh "$BIN" \
		>"$TMP/g.log" 2>&1 && diff plots/gallery/README.md "$TMP/g/README.md" >"$TMP/g.diff"; then
		ok "plots/gallery/README.md is what make gallery-update writes (its figures are this build's)"
	else
		not_ok "plots/gallery/README.md is what make gallery-update writes" \
			"$(cat "$TMP/g.diff" "$TMP/g.log" | head -40)
(run make gallery-update and commit plots/gallery/README.md)"
	fi
	# the rule's own command (make -n: the package check of check-deps is not run here)
	cmd=$(make -n --no-print-directory gallery BUILD="$(dirname "$BIN")" 2>/dev/null |
		grep 'plots/gallery/generate.sh')
	if [ -n "$cmd" ]; then
		sh -c "$cmd" >"$TMP/mg.log" 2>&1
	else
		echo "make -n gallery runs no plots/gallery/generate.sh" >"$TMP/mg.log"
	fi
	git status --porcelain --untracked-files=all plots scenarios docs >"$TMP/after"
	if diff "$TMP/before" "$TMP/after" >"$TMP/st.diff" &&
		[ -s "$(dirname "$BIN")/gallery/README.md" ]; then
		ok "make gallery writes build/gallery/ and no tracked file"
	else
		not_ok "make gallery writes no tracked file" "$(cat "$TMP/st.diff" "$TMP/mg.log" | head -20)"
	fi
else
	skip "the gallery's tracked images" "not a git checkout"
fi

tl_finish
