#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_report.sh - the comparison as a document: compare's compare.csv,
# compare.json and report.html, run --report, read back in a real browser; and two
# frictions of the text a compare and a run print.
#
# Usage (from the repository root): tests/test_report.sh build/chargesim
#
# The tables are checked against each run's own metrics.json (every key, the same
# text), the report against the tables. The browser part renders report.html with
# headless chromium (Debian package `chromium`, installed by scripts/install-deps.sh
# when it can be) and reads the DOM it built: every policy named, the plot there as
# SVG, every table cell equal to compare.json. Without chromium those checks are
# reported as skipped with the reason, never passed; without gnuplot the checks of
# the plot are.
set -u

. "$(dirname "$0")/lib.sh"
tl_init report "${1:-build/chargesim}" scenarios/demo.json
POLICIES="fixed safe-ramp twl4030 ec-ramp none"
HAVE_GNUPLOT=0
command -v "${CHARGESIM_GNUPLOT:-gnuplot}" >/dev/null 2>&1 && HAVE_GNUPLOT=1

# metric_lines FILE: the metrics of a metrics.json as "KEY<TAB>VALUE" lines.
metric_lines() {
	sed -n 's/^[[:space:]]*"\([^"]*\)":[[:space:]]*\(.*\)$/\1	\2/p' "$1" | sed 's/,$//'
}

# compare_json_lines FILE: "POLICY<TAB>KEY<TAB>VALUE" for every metric of every
# policy of a compare.json (cJSON's layout: one member per line).
compare_json_lines() {
	awk '
	/^[ \t]*"policy":[ \t]*"/ && !inm { p = $0; sub(/^[^:]*:[ \t]*"/, "", p); sub(/",?$/, "", p) }
	/^[ \t]*"metrics":[ \t]*\{/ { inm = 1; next }
	inm && /^[ \t]*\}/ { inm = 0; next }
	inm { k = $0; sub(/^[ \t]*"/, "", k); v = k; sub(/".*/, "", k)
	      sub(/^[^"]*":[ \t]*/, "", v); sub(/,$/, "", v); print p "\t" k "\t" v }
	' "$1"
}

# ---- friction: the text table lines up with a long policy name ----
if "$BIN" list policies 2>/dev/null | grep -q '^linux/twl4030_charger '; then
	run align compare scenarios/bugzoo/twl4030-full-battery.json --set duration=10min \
		--policy twl4030 --policy linux/twl4030_charger -o "$TMP/align" -q
	expect_status "compare twl4030 and linux/twl4030_charger" 0
	# every line of the table (header to last row) as long as the header: the cells
	# are right-aligned, so a column wider than its cells would show here
	widths=$(sed -n '/^metric /,/^$/p' "$TMP/align.out" | grep -v '^$' |
		awk '{ print length($0) }' | sort -u)
	if [ "$(echo "$widths" | wc -l)" -eq 1 ] && grep -q 'linux/twl4030_charger' "$TMP/align.out"; then
		ok "compare: a long policy name keeps the columns aligned (every line $widths characters)"
	else
		not_ok "compare: a long policy name keeps the columns aligned" "$(cat "$TMP/align.out")"
	fi
else
	skip "compare: a long policy name keeps the columns aligned" \
		"this build has no real Linux drivers (linux/twl4030_charger, the long name)"
fi

# ---- friction: "simulated in" is the simulation's time, not gnuplot's ----
# A gnuplot that takes 2 s (and then fails): the demo simulates in milliseconds.
printf '#!/bin/sh\nsleep 2\necho "slow test gnuplot" >&2\nexit 1\n' >"$TMP/slowgp"
chmod +x "$TMP/slowgp"
CHARGESIM_GNUPLOT=$TMP/slowgp "$BIN" run scenarios/demo.json -o "$TMP/slow" --plot \
	>"$TMP/slow.out" 2>"$TMP/slow.err"
took=$(sed -n 's/.* simulated in \([0-9.e+]*\) \([a-z]*\) .*/\1 \2/p' "$TMP/slow.out")
if echo "$took" | awk '{ exit !($2 == "ms" || ($2 == "s" && $1 < 1)) }'; then
	ok "run --plot: the summary's time leaves gnuplot out ($took, gnuplot took 2 s)"
else
	not_ok "run --plot: the summary's time leaves gnuplot out (got '$took')" "$(head -3 "$TMP/slow.out")"
fi

# ---- compare -o DIR: the tables, every metric of every run ----
D=$TMP/five
set --
for p in $POLICIES; do set -- "$@" --policy "$p"; done
run five compare scenarios/demo.json "$@" -o "$D" --report -q
if [ $HAVE_GNUPLOT = 1 ]; then
	expect_status "compare of five policies --report" 0
else
	expect_status "compare --report without gnuplot: the plot failed" 2
fi
for f in compare.csv compare.json report.html; do
	check "compare wrote $f" test -s "$D/$f"
done
compare_json_lines "$D/compare.json" >"$TMP/json.tsv"
for p in $POLICIES; do
	metric_lines "$D/$p/metrics.json" | sed "s|^|$p	|" >"$TMP/want.tsv"
	grep "^$p	" "$TMP/json.tsv" >"$TMP/got.tsv"
	if [ -s "$TMP/want.tsv" ] && cmp -s "$TMP/want.tsv" "$TMP/got.tsv"; then
		ok "compare.json: $p has every metric of $p/metrics.json, same text, same order"
	else
		not_ok "compare.json: $p has every metric of $p/metrics.json" \
			"$(diff "$TMP/want.tsv" "$TMP/got.tsv" | head -20)"
	fi
done
# units from the names (docs/scenarios.md): a few by hand
for ku in 'vbus_min_V	V' 'charge_in_mAh	mAh' 'energy_source_Wh	Wh' 'time_to_full_s	s' \
	  'soc_final	fraction' 'source_trips	'; do
	k=${ku%%	*}
	u=${ku#*	}
	got=$(awk -v k="$k" '/"units":/ { inu = 1 } inu && index($0, "\"" k "\":") {
		v = $0; sub(/^[^:]*:[ \t]*"/, "", v); sub(/",?$/, "", v); print "<" v ">"; exit }' \
		"$D/compare.json" 2>/dev/null)
	check "compare.json: the unit of $k is '$u'" test "$got" = "<$u>"
done
check "compare.csv: a header and one row per policy" test "$(wc -l <"$D/compare.csv")" -eq 6
check "compare.csv: the header names each metric with its unit" \
	grep -q '^policy,vbus_min_V \[V\],time_below_4v75_s \[s\],' "$D/compare.csv"
# a cell of the CSV by hand: twl4030's ilim_max_A (its cap in this scenario's 1.05 A)
col=$(head -1 "$D/compare.csv" | tr ',' '\n' | grep -n '^ilim_max_A \[A\]$' | cut -d: -f1)
want=$(metric_lines "$D/twl4030/metrics.json" | sed -n 's/^ilim_max_A	//p')
got=$(grep '^twl4030,' "$D/compare.csv" | cut -d, -f"$col")
check "compare.csv: twl4030's ilim_max_A is its metrics.json's ($want)" test -n "$want" -a "$got" = "$want"

# ---- report.html: one file that needs nothing else ----
size=$(wc -c <"$D/report.html")
check "report.html of five policies is under 1 MB ($size bytes)" test "$size" -lt 1000000
if [ ! -s "$D/report.html" ] ||
   grep -Eiq '<script|<link|<img|<iframe|<object|<embed| src=|url\(|href="(https?:)?//' "$D/report.html"; then
	not_ok "report.html loads nothing: no script, stylesheet, image or absolute link" \
		"$(grep -Eio '.{40}(<script|<link|<img|<iframe|<object|<embed| src=|url\(|href="(https?:)?//).{40}' "$D/report.html" | head -5)"
else
	ok "report.html loads nothing: no script, stylesheet, image or absolute link"
fi
for p in $POLICIES; do
	for f in trace.csv events.jsonl metrics.json; do
		check "report.html links $p/$f, which exists" sh -c \
			"grep -q 'href=\"$p/$f\"' '$D/report.html' && test -s '$D/$p/$f'"
	done
done
run five2 compare scenarios/demo.json "$@" -o "$TMP/five2" --report -q
for f in compare.csv compare.json report.html; do
	same "compare again: $f byte-identical" "$D/$f" "$TMP/five2/$f"
done
run noplot compare scenarios/demo.json --policy fixed --policy none -o "$TMP/noplot" -q
expect_status "compare without --report" 0
check "compare without --report: report.html says how to get the plot" \
	grep -q 'id="no-plot".*--report' "$TMP/noplot/report.html"
check "compare without --report: no plot drawn" test ! -e "$TMP/noplot/plot.svg"

# a storm of events (bug zoo 3: thousands of UVLOs in 10 min) makes an SVG of
# megabytes; the page shows the PNG instead, still inside an <svg>, still one file
if [ $HAVE_GNUPLOT = 1 ]; then
	run storm compare scenarios/bugzoo/usb-charger-fw-merged.json --policy fixed \
		-o "$TMP/storm" --report -q
	expect_status "compare --report of an UVLO storm" 0
	size=$(wc -c <"$TMP/storm/report.html")
	svg=$(wc -c <"$TMP/storm/plot.svg")
	check "UVLO storm: report.html under 1 MB ($size bytes; plot.svg $svg bytes)" \
		test "$size" -lt 1000000 -a "$svg" -gt 1048576
	check "UVLO storm: the figure is the PNG as a data: URI inside an <svg>" sh -c \
		"tr -d '\n' <'$TMP/storm/report.html' | grep -q '<figure id=\"plot\"><svg [^>]*><image [^>]*href=\"data:image/png;base64,iVBORw0KGgo'"
else
	skip "compare --report of an UVLO storm" "gnuplot is not installed"
fi

# without gnuplot: the page still, saying why it has no plot; exit 2 as for --plot
name=nogp
CHARGESIM_GNUPLOT=$TMP/no-such-gnuplot "$BIN" compare scenarios/demo.json --policy fixed \
	--policy none -o "$TMP/nogp" --report -q >"$TMP/nogp.out" 2>"$TMP/nogp.err"
status=$?
expect_status "compare --report with no gnuplot" 2
check "compare --report with no gnuplot: report.html says why it has no plot" \
	grep -q 'id="no-plot">No plot: it could not be drawn: .*no-such-gnuplot' "$TMP/nogp/report.html"
check "compare --report with no gnuplot: the tables are there" test -s "$TMP/nogp/compare.json"

# ---- markup in a scenario stays text ----
sed -e 's|"name": "demo"|"name": "demo-markup"|' \
    -e 's|"description": "[^"]*"|"description": "<b>bold</b> \& <script>alert(1)</script> \\u001b[31m"|' \
	scenarios/demo.json >"$TMP/markup.json"
run markup compare "$TMP/markup.json" --policy fixed --policy none -o "$TMP/markup" -q
expect_status "compare a scenario whose description holds markup" 0
check "report.html: the description escaped, the escape character a blank" grep -qF \
	'<p id="description">&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;  [31m</p>' \
	"$TMP/markup/report.html"

# ---- run --report ----
R=$TMP/one
run one run scenarios/demo.json --policy safe-ramp -o "$R" --report
if [ $HAVE_GNUPLOT = 1 ]; then
	expect_status "run --report" 0
	check "run --report: plot.svg inlined" grep -q '<figure id="plot">' "$R/report.html"
	check "run --report: its plot has a zoom panel" grep -q '<text>zoom: ' "$R/plot.svg"
else
	expect_status "run --report without gnuplot" 2
fi
expect_in "run --report says where the report is" out "report: $R/report.html"
check "run --report: links its own files" grep -q 'href="trace.csv"' "$R/report.html"
run stale1 run scenarios/demo.json -o "$TMP/stale" --report -q
run stale2 run scenarios/demo.json -o "$TMP/stale" -q
check "run again without --report: the old report is gone (it showed replaced outputs)" \
	test ! -e "$TMP/stale/report.html"

# ---- in a browser ----
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
# dom FILE OUT: the DOM chromium built from FILE, serialised.
dom() {
	HOME=$TMP/home timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chromium" --dump-dom "file://$1" >"$2" 2>"$TMP/chromium.err"
}
# dom_cells DOM: "POLICY<TAB>KEY<TAB>TEXT" of every metrics cell.
dom_cells() {
	grep -o '<td[^>]*data-policy="[^"]*" data-metric="[^"]*"[^>]*>[^<]*</td>' "$1" |
		sed 's/.*data-policy="\([^"]*\)" data-metric="\([^"]*\)"[^>]*>\([^<]*\)<\/td>/\1	\2	\3/'
}
if [ -z "$CHROMIUM" ]; then
	why="chromium is not installed (scripts/install-deps.sh installs it: sudo apt-get install chromium)"
	for c in "every policy named" "the plot present as SVG" "table values equal compare.json" \
		 "run --report"; do
		skip "browser: $c" "$why"
	done
else
	if dom "$D/report.html" "$TMP/dom.html" && [ -s "$TMP/dom.html" ]; then
		ok "browser: chromium rendered report.html"
	else
		not_ok "browser: chromium rendered report.html" "$(tail -5 "$TMP/chromium.err")"
	fi
	for p in $POLICIES; do
		check "browser: $p heads a column of the table" \
			grep -q "<th class=\"policy\" data-policy=\"$p\">$p</th>" "$TMP/dom.html"
		check "browser: $p has its key events" \
			grep -q "<section class=\"events\" data-policy=\"$p\">" "$TMP/dom.html"
	done
	check "browser: the scenario's description" grep -q '<p id="description">A 1500 mAh phone' "$TMP/dom.html"
	if [ $HAVE_GNUPLOT = 1 ]; then
		check "browser: the plot is an SVG element in the figure" \
			sh -c "tr -d '\n' <'$TMP/dom.html' | grep -q '<figure id=\"plot\"> *<svg'"
		check "browser: the plot has its zoom panel" grep -q '<text>zoom: ' "$TMP/dom.html"
		for p in $POLICIES; do
			# its own legend entry, or one shared with the runs drawn as one line
			check "browser: the plot's legend names $p" grep -q "<text>[^<]*$p[^<]*</text>" "$TMP/dom.html"
		done
	else
		skip "browser: the plot present as SVG" "gnuplot is not installed"
	fi
	# every metric cell against compare.json (null: n/a; text unquoted)
	sed -e 's/	null$/	n\/a/' -e 's/	"\(.*\)"$/	\1/' "$TMP/json.tsv" | sort >"$TMP/want.tsv"
	dom_cells "$TMP/dom.html" | sort >"$TMP/got.tsv"
	if [ "$(wc -l <"$TMP/want.tsv")" -gt 20 ] && cmp -s "$TMP/want.tsv" "$TMP/got.tsv"; then
		ok "browser: table values equal compare.json ($(wc -l <"$TMP/want.tsv") cells)"
	else
		not_ok "browser: table values equal compare.json" "$(diff "$TMP/want.tsv" "$TMP/got.tsv" | head -20)"
	fi
	# run --report: the same against the run's metrics.json
	if dom "$R/report.html" "$TMP/dom1.html"; then
		metric_lines "$R/metrics.json" | sed -e 's/	null$/	n\/a/' -e 's/	"\(.*\)"$/	\1/' \
			-e 's/^/safe-ramp	/' | sort >"$TMP/want1.tsv"
		dom_cells "$TMP/dom1.html" | sort >"$TMP/got1.tsv"
		if [ -s "$TMP/want1.tsv" ] && cmp -s "$TMP/want1.tsv" "$TMP/got1.tsv"; then
			ok "browser: run --report's table equals its metrics.json"
		else
			not_ok "browser: run --report's table equals its metrics.json" \
				"$(diff "$TMP/want1.tsv" "$TMP/got1.tsv" | head -20)"
		fi
	else
		not_ok "browser: chromium rendered run --report's page" "$(tail -5 "$TMP/chromium.err")"
	fi
fi

tl_finish
