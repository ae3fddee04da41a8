#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_plot.sh - plots end to end: run --plot, compare --plot, chargesim plot,
# heat maps, the scripts made from the templates, and the failures (gnuplot missing
# or failing, a CSV without the columns).
#
# Usage (from the repository root): tests/test_plot.sh build/chargesim
#
# What a panel shows is checked in gnuplot's own output: each plot.gp is rendered
# again with REPORT=map.txt, which makes the script print every panel's axis ranges
# and their pixel positions; with them the SVG's paths are read back: the 4.75 V and
# UVLO lines must lie at those voltages in the VBUS panel, and every source_trip and
# uvlo of events.jsonl must have its vertical line at its time. The PNG is checked by
# its signature and the dimensions in its IHDR header. Prints one line per check
# ("ok - ..." / "not ok - ...") and exits non-zero when any failed. The rendering
# checks are skipped (not failed) when gnuplot is not installed.
set -u

. "$(dirname "$0")/lib.sh"
ZOO=scenarios/bugzoo
tl_init plot "${1:-build/chargesim}" "$ZOO/twl4030-full-battery.json"

# png_ok FILE: the PNG signature.
png_ok() {
	[ -s "$1" ] && [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = "89504e470d0a1a0a" ]
}

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk (bytes 16-23, big-endian).
png_size() {
	od -An -tu1 -j16 -N8 "$1" |
		awk '{ printf "%d %d\n", (($1 * 256 + $2) * 256 + $3) * 256 + $4,
				     (($5 * 256 + $6) * 256 + $7) * 256 + $8 }'
}

# gp_value SCRIPT NAME: a "NAME = VALUE" assignment of a plot script.
gp_value() {
	sed -n "s/^\\(.*; \\)\\{0,1\\}$2 = \\([^; ]*\\).*\$/\\2/p" "$1" | head -1
}

# svg_text FILE TEXT: a <text> element holding exactly TEXT.
svg_text() {
	grep -F -q "<text>$2</text>" "$1"
}

# render DIR: render DIR/plot.gp (or $2) again as check.svg with the axes report map.txt.
render() {
	(cd "$1" && gnuplot -e "FORMATS='svg'; OUTBASE='check'; REPORT='map.txt'" "${2:-plot.gp}") \
		>"$TMP/render.out" 2>&1
}

# map_y MAP PANEL VALUE: the SVG y of VALUE on the panel's left axis.
map_y() {
	awk -v p="$2" -v v="$3" '$1 == "panel" && $2 == p {
		# panel P svg x X0 X1 y Y0 Y1 term TX0 TX1 TY0 TY1 canvas W H (y from the bottom)
		y0 = $8; y1 = $9; ty0 = $13; ty1 = $14; h = $17
		printf "%.3f\n", h - (ty0 + (v - y0) / (y1 - y0) * (ty1 - ty0)); exit }' "$1"
}

# map_x MAP PANEL VALUE: the SVG x of VALUE (in the axis unit) on the panel.
map_x() {
	awk -v p="$2" -v v="$3" '$1 == "panel" && $2 == p {
		x0 = $5; x1 = $6; tx0 = $11; tx1 = $12
		printf "%.3f\n", tx0 + (v - x0) / (x1 - x0) * (tx1 - tx0); exit }' "$1"
}

# map_field MAP PANEL N: field N of a panel's line.
map_field() {
	awk -v p="$2" -v n="$3" '$1 == "panel" && $2 == p { print $n; exit }' "$1"
}

# series_ys SVG TITLE: the y of every point the series titled TITLE draws inside the
# panels (x < XMAX px), one per line (the key sample, right of the panels, is left out).
series_ys() {
	awk -v t="<text>$2</text>" -v xmax="$3" '
		index($0, t) { on = 1; next }
		on && /<path/ { inpath = 1 }
		inpath {
			s = $0
			while (match(s, /[ML][0-9.]+,[0-9.]+/)) {
				split(substr(s, RSTART + 1, RLENGTH - 1), xy, ",")
				if (xy[1] + 0 <= xmax + 0.5)
					print xy[2]
				s = substr(s, RSTART + RLENGTH)
			}
			if (index($0, "/>")) exit
		}' "$1"
}

# all_near LIST VALUE TOL: every number of LIST (one per line) within TOL of VALUE,
# and at least one.
all_near() {
	printf '%s\n' "$1" | awk -v v="$2" -v tol="$3" '
		NF { n++; d = $1 - v; if (d < 0) d = -d; if (d > tol) bad++ }
		END { exit !(n > 0 && !bad) }'
}

# vline SVG RGB X Y_BOTTOM Y_TOP: a vertical line of that stroke colour at X (within
# 1 px) from Y_BOTTOM to Y_TOP (within 1 px).
vline() {
	grep -o "stroke='$2'[^>]*d='M[0-9.]*,[0-9.]* L[0-9.]*,[0-9.]*" "$1" |
		sed 's/.*d=.M\([0-9.]*\),\([0-9.]*\) L\([0-9.]*\),\([0-9.]*\)/\1 \2 \3 \4/' |
		awk -v x="$3" -v yb="$4" -v yt="$5" '
			function abs(v) { return v < 0 ? -v : v }
			abs($1 - x) <= 1 && abs($3 - x) <= 1 && abs($2 - yb) <= 1 && abs($4 - yt) <= 1 { found = 1 }
			END { exit !found }'
}

# event_times JSONL KIND: the "t" of every event of that kind, one per line.
event_times() {
	grep "\"ev\":\"$2\"" "$1" | sed 's/^{"t":\([-0-9.e+]*\),.*/\1/'
}

HAVE_GNUPLOT=1
command -v gnuplot >/dev/null 2>&1 || HAVE_GNUPLOT=0

# check_markers DIR SVG MAP KIND RGB: every KIND event of DIR/events.jsonl has its line
# in the VBUS panel at its time.
check_markers() {
	tu=$(gp_value "$1/plot.gp" TU)
	yb=$(awk '$1 == "panel" && $2 == "a" { print $17 - $13 }' "$3")
	yt=$(awk '$1 == "panel" && $2 == "a" { print $17 - $14 }' "$3")
	n=0
	bad=""
	for t in $(event_times "$1/events.jsonl" "$4"); do
		n=$((n + 1))
		x=$(map_x "$3" a "$(awk -v t="$t" -v u="$tu" 'BEGIN { printf "%.9f", t / u }')")
		vline "$2" "$5" "$x" "$yb" "$yt" || bad="$bad $t"
	done
	if [ -z "$bad" ]; then
		ok "$(basename "$1"): $n $4 line(s) at their times in the VBUS panel"
	else
		not_ok "$(basename "$1"): no $4 line at t =$bad s"
	fi
}

TRIP_RGB='rgb(214,  39,  40)'
UVLO_RGB='rgb(231,  41, 138)'

# ---- run --plot: the full-battery overload and its safe-ramp twin ----

for scn in twl4030-full-battery twl4030-full-battery-safe-ramp trip; do
	D=$TMP/$scn
	case $scn in
	trip)
		# the overload with a 20 s overload timer: one source trip, then UVLO
		run $scn run "$ZOO/twl4030-full-battery.json" -o "$D" --plot \
			--set 'source.t_limit_max="20 s"' --set 'duration="60 min"'
		[ "$status" -eq 1 ] && status=0   # its expectations are the overload's
		;;
	*)
		run $scn run "$ZOO/$scn.json" -o "$D" --plot
		;;
	esac
	policy=$(sed -n 's/^[[:space:]]*"policy":[[:space:]]*"\([^"]*\)".*/\1/p' "$D/metrics.json" 2>/dev/null)
	if [ "$HAVE_GNUPLOT" -eq 0 ]; then
		skip "$scn: run --plot" "gnuplot is not installed"
		continue
	fi
	expect_status "$scn: run --plot" 0
	for f in trace.csv events.jsonl metrics.json plot.gp plot-events.dat plot-states.dat plot.png plot.svg; do
		check "$scn: $f written" test -s "$D/$f"
	done
	check "$scn: prints where the plot is" grep -q "plot: $D/plot.png, $D/plot.svg" "$TMP/$scn.out"
	check "$scn: plot.png is a PNG" png_ok "$D/plot.png"
	size=$(png_size "$D/plot.png")
	want="$(gp_value "$D/plot.gp" W) $(gp_value "$D/plot.gp" H)"
	if [ "$size" = "$want" ] && [ "${size%% *}" -eq 1280 ] && [ "${size#* }" -ge 600 ]; then
		ok "$scn: PNG is $size pixels, as plot.gp says"
	else
		not_ok "$scn: PNG is '$size' pixels, plot.gp says '$want'"
	fi
	S=$D/plot.svg
	for t in "VBUS at device (vbus_V)" "VBUS at source (vsrc_V)" "4.75 V (USB minimum)" \
	    "input current (ibus_A)" "programmed limit (ilim_A)" "source limit (src_ilim_A)" \
	    "battery voltage (vbat_V)" "SOC, right axis (soc)" "charger" "source" "detected" \
	    "time [min]"; do
		check "$scn: SVG shows \"$t\"" svg_text "$S" "$t"
	done
	uvlo=$(gp_value "$D/plot.gp" UVLO)
	check "$scn: SVG shows the UVLO line's title" svg_text "$S" "UVLO falling $(printf '%.2f' "$uvlo") V"
	check "$scn: title names scenario and policy" grep -q "<text>.*, policy $policy</text>" "$S"
	check "$scn: title has the metrics" grep -q "<text>$policy: VBUS min [0-9.]* V, .*trips [0-9]*, UVLO [0-9]*" "$S"

	if ! render "$D"; then
		not_ok "$scn: plot.gp renders again standalone" "$(cat "$TMP/render.out")"
		continue
	fi
	ok "$scn: plot.gp renders again standalone"
	check "$scn: the re-rendered SVG is identical" cmp -s "$S" "$D/check.svg"
	M=$D/map.txt
	check "$scn: four panels reported" test "$(grep -c '^panel [abcd] svg' "$M")" -eq 4
	xmax_px=$(map_field "$M" a 12)

	# (a) the 4.75 V and UVLO lines at their voltages
	ys=$(series_ys "$S" "4.75 V (USB minimum)" "$xmax_px")
	check "(a) $scn: the 4.75 V line lies at 4.75 V" all_near "$ys" "$(map_y "$M" a 4.75)" 0.6
	ys=$(series_ys "$S" "UVLO falling $(printf '%.2f' "$uvlo") V" "$xmax_px")
	check "(a) $scn: the UVLO line lies at $uvlo V" all_near "$ys" "$(map_y "$M" a "$uvlo")" 0.6
	vmin=$(sed -n 's/^[[:space:]]*"vbus_min_V":[[:space:]]*\([0-9.]*\).*/\1/p' "$D/metrics.json")
	check "(a) $scn: the VBUS axis holds VBUS min, 4.75 V and UVLO" awk -v lo="$(map_field "$M" a 8)" \
		-v hi="$(map_field "$M" a 9)" -v a="$vmin" -v b="$uvlo" \
		'BEGIN { exit !(lo < a && lo < b && lo < 4.75 && hi > 5.1) }'
	# (b) the current axis holds the largest programmed limit
	imax=$(sed -n 's/^[[:space:]]*"ilim_max_A":[[:space:]]*\([0-9.]*\).*/\1/p' "$D/metrics.json")
	check "(b) $scn: the current axis holds ilim_max ($imax A)" awk -v hi="$(map_field "$M" b 9)" \
		-v a="$imax" 'BEGIN { exit !(hi > a) }'
	# (c) SOC on the right axis
	check "(c) $scn: SOC [%] on a second axis" svg_text "$S" "SOC [%]"
	# (d) the states of the trace in the band (those lasting longer than an instant)
	missing=""
	for st in $(awk -F, 'NR > 1 {
			for (c = 10; c <= 11; c++) {
				if ($c != cur[c]) { if (NR > 2 && $1 > t0[c]) print cur[c]; cur[c] = $c; t0[c] = $1 }
			}
		}
		END { print cur[10]; print cur[11] }' "$D/trace.csv" | sort -u); do
		awk -F, -v st="$st" '!/^#/ && $5 == st { f = 1 } END { exit !f }' "$D/plot-states.dat" ||
			missing="$missing $st"
	done
	if [ -z "$missing" ]; then
		ok "(d) $scn: every charger_state and source_state of the trace is in the band"
	else
		not_ok "(d) $scn: states missing from the band:$missing"
	fi
	check "(d) $scn: the detection is labelled" svg_text "$S" "detect DCP"

	# markers at the trips and UVLOs of events.jsonl, where there are any
	trips=$(event_times "$D/events.jsonl" source_trip | wc -l)
	uvlos=$(event_times "$D/events.jsonl" uvlo | wc -l)
	if [ "$trips" -gt 0 ]; then
		check_markers "$D" "$S" "$M" source_trip "$TRIP_RGB"
	else
		check "$scn: no trips, no trip lines" sh -c "! grep -q \"stroke='$TRIP_RGB'\" '$S'"
	fi
	if [ "$uvlos" -gt 0 ]; then
		check_markers "$D" "$S" "$M" uvlo "$UVLO_RGB"
	fi
done
if [ "$HAVE_GNUPLOT" -eq 1 ]; then
	check "trip: the overload scenario has a trip and a UVLO to mark" \
		test "$(event_times "$TMP/trip/events.jsonl" source_trip | wc -l)" -ge 1 -a \
		"$(event_times "$TMP/trip/events.jsonl" uvlo | wc -l)" -ge 1
fi

# ---- compare --plot: every policy overlaid, a zoom panel ----

D=$TMP/compare
run compare compare "$ZOO/twl4030-full-battery.json" --policy twl4030 --policy safe-ramp \
	-o "$D" --plot -q
if [ "$HAVE_GNUPLOT" -eq 0 ]; then
	skip "compare --plot" "gnuplot is not installed"
else
	expect_status "compare --plot" 0
	check "compare: plot.png is a PNG" png_ok "$D/plot.png"
	for t in twl4030 safe-ramp "solid: VBUS at device (vbus_V)" "dashed: VBUS at source (vsrc_V)" \
	    "4.75 V (USB minimum)" "row: charger state; stripes:" "source: limiting"; do
		check "compare: SVG shows \"$t\"" svg_text "$D/plot.svg" "$t"
	done
	check "compare: a zoom panel, titled by its rule" grep -q "<text>zoom: .*first VBUS sag below 4.75 V" "$D/plot.svg"
	if render "$D"; then
		check "compare: five panels reported" test "$(grep -c '^panel [abcde] svg' "$D/map.txt")" -eq 5
		# the zoom window holds the first recharge, where twl4030 sits in current limit
		check "compare: the zoom window holds the first sag" awk -v a="$(map_field "$D/map.txt" e 5)" \
			-v b="$(map_field "$D/map.txt" e 6)" 'BEGIN { exit !(a < 2203.2 && b > 2293) }'
		check "compare: two colours in the VBUS panel" sh -c "grep -q \"stroke='rgb(  0, 114, 178)'\" '$D/plot.svg' && grep -q \"stroke='rgb(213,  94,   0)'\" '$D/plot.svg'"
	else
		not_ok "compare: plot.gp renders again standalone" "$(cat "$TMP/render.out")"
	fi
fi

# ---- what a design review needs (issue 16, item 9; item 4) ----

# thin_ok ORIG THIN MAP PANEL COLUMN: every row of the trace ORIG lies within half a
# pixel (at the panel's scale, from the axes report) of the thinned copy THIN read as
# gnuplot draws it, straight between its rows; jumps (rows at one time) are skipped.
thin_ok() {
	python3 - "$@" <<'PY'
import csv, sys
orig, thin, mapf, panel, col = sys.argv[1:6]
for l in open(mapf):
    f = l.split()
    if f[:2] == ["panel", panel]:
        y0, y1, ty0, ty1 = float(f[7]), float(f[8]), float(f[12]), float(f[13])
        break
px = (ty1 - ty0) / (y1 - y0)
def rows(p):
    return [r for r in csv.DictReader(l for l in open(p) if not l.startswith("#"))]
o, t = rows(orig), rows(thin)
tt = [float(r["time_s"]) for r in t]
tv = [float(r[col]) for r in t]
to = [float(r["time_s"]) for r in o]
worst, j = 0.0, 0
for i, r in enumerate(o):
    x = to[i]
    if (i > 0 and to[i - 1] == x) or (i + 1 < len(o) and to[i + 1] == x):
        continue
    while j + 1 < len(tt) and tt[j + 1] <= x:
        j += 1
    if j + 1 < len(tt) and tt[j + 1] > tt[j]:
        y = tv[j] + (tv[j + 1] - tv[j]) * (x - tt[j]) / (tt[j + 1] - tt[j])
    else:
        y = tv[j]
    worst = max(worst, abs(float(r[col]) - y) * px)
print("%.3f px, %d of %d rows" % (worst, len(t), len(o)))
sys.exit(0 if worst <= 0.5 else 1)
PY
}

if [ "$HAVE_GNUPLOT" -eq 1 ]; then
	# thinning: the overload's traces keep their shape within half a pixel
	D=$TMP/twl4030-full-battery
	for c in vbus_V:a ibus_A:b vbat_V:c; do
		if out=$(thin_ok "$D/trace.csv" "$D/plot-trace-1.csv" "$D/map.txt" "${c#*:}" "${c%:*}"); then
			ok "thinned copy: ${c%:*} within half a pixel of every trace row ($out)"
		else
			not_ok "thinned copy: ${c%:*} off by more than half a pixel" "$out"
		fi
	done
	check "compare: reads the thinned copies, names the traces" sh -c \
		"grep -q \"array TRACE\\[N\\] = \\['plot-trace-1.csv', 'plot-trace-2.csv'\\]\" '$TMP/compare/plot.gp' &&
		 grep -q \"# ORIGINAL: \\['twl4030/trace.csv', 'safe-ramp/trace.csv'\\]\" '$TMP/compare/plot.gp'"

	# a 3 h run of a policy polling every 100 ms (safe-ramp checking every 100 ms on a
	# Type-C port through a thin cable: a row every 100 ms, 108,000 rows of two flat
	# lines) gives a small SVG
	cat >"$TMP/poll.json" <<'EOF'
{ "name": "poll", "duration": "3 h", "source": { "kind": "typec", "rp": "3.0A" },
  "cable": { "length": "2 m", "awg": 28 },
  "device": { "pmic": { "preset": "bq25890" },
              "battery": { "preset": "eb425161lu", "capacity": "4 Ah", "soc": "20 %" },
              "load": { "current": "150 mA" } },
  "policy": { "name": "safe-ramp", "params": { "stable_interval": "100 ms" } } }
EOF
	run poll run "$TMP/poll.json" -o "$TMP/poll" --plot -q
	expect_status "3 h of 100 ms polling: run --plot" 0
	rows=$(wc -l <"$TMP/poll/trace.csv")
	svg=$(wc -c <"$TMP/poll/plot.svg")
	check "3 h of 100 ms polling: $rows trace rows, an SVG of $svg bytes (under 300 kB)" \
		test "$rows" -gt 100000 -a "$svg" -lt 300000
	if render "$TMP/poll"; then
		out=$(thin_ok "$TMP/poll/trace.csv" "$TMP/poll/plot-trace-1.csv" "$TMP/poll/map.txt" c vbat_V) &&
			ok "3 h of polling: vbat_V within half a pixel ($out)" ||
			not_ok "3 h of polling: vbat_V off by more than half a pixel" "$out"
	fi
	# a VBUS sag lasting the whole run is how it goes, not an event: no zoom on it
	run pollcmp compare "$TMP/poll.json" --policy safe-ramp --policy twl4030 -o "$TMP/pollcmp" --plot -q
	expect_status "compare the polling run" 0
	z0=$(gp_value "$TMP/pollcmp/plot.gp" Z0)
	z1=$(gp_value "$TMP/pollcmp/plot.gp" Z1)
	check "the zoom is not on the sag of the whole run ($z0 to $z1 s)" \
		sh -c "! grep -q 'first VBUS sag' '$TMP/pollcmp/plot.gp'"
	check "the zoom window holds an event of a run" awk -v a="$z0" -v b="$z1" -F'[:,]' '
		/"t":/ { t = $2 + 0; if (t > a && t < b && $0 !~ /"ev":"probe"/) n++ } END { exit !(n > 0) }' \
		"$TMP/pollcmp/safe-ramp/events.jsonl" "$TMP/pollcmp/twl4030/events.jsonl"

	# battery current in panel (b); the band always has the detected and psy type rows
	S=$TMP/twl4030-full-battery/plot.svg
	check "panel (b) draws the battery current" svg_text "$S" "battery current (ibat_A)"
	check "the band has a psy type row where it agrees with the detection" svg_text "$S" "psy type"

	# PD 9 V: the contract and its 95 % minimum, not the USB 2.0 4.75 V line; the
	# source's 3 A limit far above a 0.5 A draw is neither drawn nor in the legend
	cat >"$TMP/pd9.json" <<'EOF'
{ "name": "pd9", "duration": "2 min", "source": { "kind": "pd", "pdos": ["5V 3A", "9V 3A"] },
  "device": { "battery": { "preset": "eb425161lu", "soc": "50 %" }, "phy": { "pd_max_v": "9 V" } },
  "policy": { "name": "fixed", "params": { "ilim": "500 mA" } } }
EOF
	run pd9 run "$TMP/pd9.json" -o "$TMP/pd9" --plot -q
	expect_status "PD 9 V: run --plot" 0
	S=$TMP/pd9/plot.svg
	check "PD 9 V: the contract is drawn" svg_text "$S" "PD contract"
	check "PD 9 V: its minimum is drawn" svg_text "$S" "95 % of contract (minimum)"
	check "PD 9 V: no 4.75 V (USB minimum) line" sh -c "! grep -q '4.75 V (USB minimum)' '$S'"
	rdy=$(grep '"msg":"PS_RDY"' "$TMP/pd9/events.jsonl" | head -1 | sed 's/^{"t":\([0-9.e+-]*\),.*/\1/')
	acc=$(grep '"msg":"Accept"' "$TMP/pd9/events.jsonl" | head -1 | sed 's/.*"V":\([0-9.]*\).*/\1/')
	check "PD 9 V: the contract steps from 5 V to the accepted $acc V at PS_RDY ($rdy s)" \
		awk -F, -v t="$rdy" -v v="$acc" '!/^#/ && NF == 3 { n++; if (n == 1) ok1 = ($2 == 5); if (n == 2) ok2 = ($1 == t && $2 == v) }
			END { exit !(ok1 && ok2) }' "$TMP/pd9/plot-contract.dat"
	check "PD 9 V: no source limit in the legend (3 A, far above the axis)" \
		sh -c "! grep -q 'source limit' '$S'"
	if render "$TMP/pd9"; then
		check "PD 9 V: the current axis stops below the source's 3 A" \
			awk -v hi="$(map_field "$TMP/pd9/map.txt" b 9)" 'BEGIN { exit !(hi < 3) }'
	fi

	# identical runs: none and axp288 leave the limit at 500 mA on a PD port alike
	run same compare "$TMP/pd9.json" --policy none --policy axp288 --policy fixed -o "$TMP/same" --plot -q
	expect_status "compare two identical runs and a third" 0
	if cmp -s "$TMP/same/none/trace.csv" "$TMP/same/axp288/trace.csv"; then
		S=$TMP/same/plot.svg
		check "identical runs: the later one is named as such" svg_text "$S" "axp288: the same trace and states as none (drawn dashed over it)"
		# fixed at 500 mA does the same as them, to a pixel: one line for the three
		check "identical runs: one legend entry names them" svg_text "$S" "none = axp288 = fixed"
		check "identical runs: drawn in a dash pattern" grep -q "dt (24,12)" "$TMP/same/plot.gp"
		check "identical runs: one band row for them" svg_text "$S" "none=axp288=fixed"
		check "identical runs: no rows of their own" sh -c "! grep -q '<text>axp288</text>' '$S'"
	else
		not_ok "none and axp288 should give identical traces on a PD port at 500 mA"
	fi
fi

# item 4: a run written again without --plot removes the old plot
run stale1 run scenarios/demo.json -o "$TMP/stale" --plot -q
run stale2 run scenarios/demo.json -o "$TMP/stale"
expect_status "a run again into a directory with a plot" 0
check "the old plot.gp, plot.png, plot.svg and their data are gone" \
	sh -c "! ls '$TMP/stale' | grep -q '^plot'"
expect_in "the summary says why" out "removed the plot of an earlier run"
run stale3 compare "$ZOO/twl4030-full-battery.json" --policy twl4030 --policy safe-ramp -o "$TMP/stalecmp" --plot -q
run stale4 compare "$ZOO/twl4030-full-battery.json" --policy twl4030 --policy safe-ramp -o "$TMP/stalecmp" -q
check "compare again without --plot: the old plot is gone" test ! -e "$D/../stalecmp/plot.svg"

# ---- chargesim plot: any trace with the standard columns ----

# a small trace by hand: other column order, CRLF line ends, no extras, no events
printf 'soc,time_s,vbus_V,vsrc_V,ibus_A,ilim_A,vbat_V,charger_state,source_state\r\n' >"$TMP/hand.csv"
printf '0.5,0,0,0,0,0.1,3.8,off,detached\r\n' >>"$TMP/hand.csv"
printf '0.5,1,5.0,5.1,0.45,0.5,3.85,cc,on\r\n' >>"$TMP/hand.csv"
printf '0.52,60,4.9,5.05,0.5,0.5,3.9,cc,limiting\r\n' >>"$TMP/hand.csv"
printf '0.55,120,4.95,5.08,0.48,0.5,3.95,cv,on\r\n' >>"$TMP/hand.csv"
for fmt in svg png; do
	run hand-$fmt plot "$TMP/hand.csv" -o "$TMP/hand.$fmt" --uvlo 3.6V --label "by hand"
	if [ "$HAVE_GNUPLOT" -eq 0 ]; then
		skip "plot a hand-made trace as $fmt" "gnuplot is not installed"
		continue
	fi
	expect_status "plot a hand-made trace (CRLF, columns reordered) as $fmt" 0
done
if [ "$HAVE_GNUPLOT" -eq 1 ]; then
	check "hand.png is a PNG" png_ok "$TMP/hand.png"
	size=$(png_size "$TMP/hand.png")
	check "hand.png is 1280 wide and as tall as hand.gp says ($size)" \
		test "$size" = "1280 $(gp_value "$TMP/hand.gp" H)"
	for t in "VBUS at device (vbus_V)" "input current (ibus_A)" "battery voltage (vbat_V)" \
	    "4.75 V (USB minimum)" "UVLO falling 3.60 V" "time [s]" "limiting"; do
		check "hand.svg shows \"$t\"" svg_text "$TMP/hand.svg" "$t"
	done
	check "hand.svg: no source limit without src_ilim_A" sh -c "! grep -q 'src_ilim_A' '$TMP/hand.svg'"
	check "hand.gp reads the trace by column name" grep -q "column('vbus_V')" "$TMP/hand.gp"
	# two traces overlaid, one of them edited by hand
	cp "$TMP/twl4030-full-battery/trace.csv" "$TMP/edited-trace.csv"
	sed -i 's/,done,on,/,done,limiting,/' "$TMP/edited-trace.csv"
	run overlay plot "$TMP/twl4030-full-battery/trace.csv" "$TMP/edited-trace.csv" -o "$TMP/overlay.svg"
	expect_status "plot two traces overlaid, one edited by hand" 0
	# the edit changes a state, no number: one line in the signal panels, two band rows
	check "overlay: both labels on the one line's legend entry" svg_text "$TMP/overlay.svg" \
		"1: twl4030-full-battery = 2: edited-trace"
	check "overlay: the edited state is drawn" awk -F, '$3 == 1 && $5 == "limiting" { f = 1 } END { exit !f }' \
		"$TMP/overlay-states.dat"
	check "overlay: a zoom panel by default" grep -q '<text>zoom: ' "$TMP/overlay.svg"
fi

# a CSV without the columns: exit 2, the missing columns named
printf 'time_s,vbus_V,ibus_A\n0,5,0.1\n' >"$TMP/short.csv"
run short plot "$TMP/short.csv" -o "$TMP/short.png"
expect_status "plot a CSV lacking columns" 2
expect_stderr "the missing columns are named" "missing columns vsrc_V, ilim_A, vbat_V, soc, charger_state, source_state"
expect_stderr "the file is named" "$TMP/short.csv"
check "no image for a CSV lacking columns" test ! -e "$TMP/short.png"

run noext plot "$TMP/hand.csv" -o "$TMP/hand.jpg"
expect_status "plot -o with an unknown extension" 2

# ---- heat maps ----

cat >"$TMP/results.csv" <<'EOF'
index,source.ilim,cable.length,policy,source_trips,time_to_full_s,detected_type
0,0.8 A,0.5 m,twl4030,12,,USB_DCP
1,0.8 A,0.5 m,safe-ramp,0,5400,USB_DCP
2,0.8 A,2 m,twl4030,30,,USB_DCP
3,0.8 A,2 m,safe-ramp,0,5600,USB_DCP
4,1.5 A,0.5 m,twl4030,0,4000,USB_DCP
5,1.5 A,0.5 m,safe-ramp,0,4100,USB_DCP
6,1.5 A,2 m,twl4030,1,4200,USB_DCP
7,1.5 A,2 m,safe-ramp,0,4300,USB_DCP
EOF
run heat plot --heatmap "$TMP/results.csv" --x source.ilim --y cable.length --z source_trips \
	--by policy -o "$TMP/heat.svg"
if [ "$HAVE_GNUPLOT" -eq 0 ]; then
	skip "heat map" "gnuplot is not installed"
else
	expect_status "heat map of trips, one map per policy" 0
	for t in "policy = twl4030" "policy = safe-ramp" "0.8 A" "2 m" "30" "12"; do
		check "heat.svg shows \"$t\"" svg_text "$TMP/heat.svg" "$t"
	done
	run heatagg plot --heatmap "$TMP/results.csv" --x source.ilim --y cable.length \
		--z source_trips --agg max -o "$TMP/heatagg.png"
	expect_status "heat map with --agg max" 0
	check "heatagg.png is a PNG" png_ok "$TMP/heatagg.png"

	# labels from sweep values are text: markup, U+FFFE, U+FFFF, controls and quotes in
	# them leave the SVG well-formed (XML 1.0 has no U+FFFE or U+FFFF at all)
	printf 'index,source.ilim,cable.length,policy,source_trips\n0,"0.8 A<&\357\277\276\357\277\277\033]0;x\007""'"'"'",0.5 m,"p</text><x a=""&amp;\357\277\276",12\n1,"1.5 A</svg>",0.5 m,"p</text><x a=""&amp;\357\277\276",0\n2,0.8 A,"2 m&#xFFFE;\302\233",q]]>,3\n' \
		>"$TMP/hostile.csv"
	run heathostile plot --heatmap "$TMP/hostile.csv" --x source.ilim --y cable.length \
		--z source_trips --by policy -o "$TMP/hostile.svg"
	expect_status "heat map of hostile labels" 0
	check "the SVG of hostile labels is well-formed" python3 -c '
import sys, xml.etree.ElementTree as E
E.parse(sys.argv[1])' "$TMP/hostile.svg"
	check "a label with markup is shown as text" grep -F -q "1.5 A&lt;/svg>" "$TMP/hostile.svg"
fi
run heatdup plot --heatmap "$TMP/results.csv" --x source.ilim --y cable.length --z source_trips -o "$TMP/dup.png"
expect_status "heat map: rows sharing a cell without --by" 2
expect_stderr "heat map: says which column differs" "they differ in policy"
run heatcol plot --heatmap "$TMP/results.csv" --x source.ilim --y cable.len --z source_trips -o "$TMP/c.png"
expect_status "heat map: unknown column" 2
expect_stderr "heat map: names the unknown column" "no column for --y cable.len"
run heatstr plot --heatmap "$TMP/results.csv" --x source.ilim --y cable.length --z detected_type --by policy -o "$TMP/s.png"
expect_status "heat map: a text metric" 2

# ---- no plot overwrites its own input (issue 36, part 2; no gnuplot needed) ----
mkdir -p "$TMP/own"
cp "$TMP/twl4030-full-battery/trace.csv" "$TMP/own/X-trace-1.csv"
cp "$TMP/own/X-trace-1.csv" "$TMP/own/keep.csv"
run ownplot plot "$TMP/own/X-trace-1.csv" -o "$TMP/own/X.svg" --no-render
expect_status "plot X-trace-1.csv -o X.svg: the data file would be its input" 2
expect_stderr "the refusal names the input" "$TMP/own/X-trace-1.csv: found an input of the plot among the files it writes"
same "the input is left as it was" "$TMP/own/keep.csv" "$TMP/own/X-trace-1.csv"
check "nothing was written" test ! -e "$TMP/own/X.gp"
# an earlier plot's stale data file (NAME-trace-3.csv, removed by a new plot NAME) as input
cp "$TMP/own/keep.csv" "$TMP/own/W-trace-3.csv"
run ownstale plot "$TMP/own/W-trace-3.csv" -o "$TMP/own/W.svg" --no-render
expect_status "plot W-trace-3.csv -o W.svg: the plot would remove its input" 2
check "the stale-named input is still there" test -s "$TMP/own/W-trace-3.csv"
# the script's own name, and through a symbolic link
cp "$TMP/own/keep.csv" "$TMP/own/S.gp"
run ownscript plot "$TMP/own/S.gp" -o "$TMP/own/S.png" --no-render
expect_status "plot S.gp -o S.png: the script would be its input" 2
ln -s keep.csv "$TMP/own/L.svg"
run ownlink plot "$TMP/own/keep.csv" -o "$TMP/own/L.svg" --no-render
expect_status "plot keep.csv -o L.svg, L.svg a link to keep.csv" 2
same "the linked input is left as it was" "$TMP/own/keep.csv" "$TMP/own/X-trace-1.csv"
cp "$TMP/results.csv" "$TMP/own/R-heatmap.dat"
run ownheat plot --heatmap "$TMP/own/R-heatmap.dat" --x source.ilim --y cable.length \
	--z source_trips --by policy -o "$TMP/own/R.png" --no-render
expect_status "plot --heatmap R-heatmap.dat -o R.png: the data file would be its input" 2
same "the heat map's input is left as it was" "$TMP/results.csv" "$TMP/own/R-heatmap.dat"

# ---- the scripts come from the templates in plots/templates/ (no gnuplot needed) ----

run tplrun plot "$TMP/twl4030-full-battery/trace.csv" "$TMP/hand.csv" -o "$TMP/tpl.svg" --no-render \
	--uvlo 3.6V --zoom 30:90
expect_status "plot --no-render: the script and its data, no image" 0
check "--no-render writes no image" test ! -e "$TMP/tpl.svg"
run tplheat plot --heatmap "$TMP/results.csv" --x source.ilim --y cable.length \
	--z source_trips --by policy -o "$TMP/tplheat.png" --no-render
expect_status "plot --heatmap --no-render" 0
for f in tpl.gp tplheat.gp; do
	check "$f: every template placeholder filled in" sh -c "! grep -n '@[A-Z?]' '$TMP/$f'"
	check "$f: renders each format in FORMATS" grep -q "do for \\[FMT in FORMATS\\]" "$TMP/$f"
done
check "tpl.gp: a zoom panel as asked, the UVLO line" sh -c \
	"grep -q '^Z0 = 30; Z1 = 90 ' '$TMP/tpl.gp' && grep -q 'UVLO with lines' '$TMP/tpl.gp'"

# ---- gnuplot missing or failing ----

D=$TMP/nognuplot
CHARGESIM_GNUPLOT=/nonexistent/gnuplot "$BIN" run "$ZOO/twl4030-full-battery.json" -o "$D" --plot \
	>"$TMP/nognuplot.out" 2>"$TMP/nognuplot.err"
status=$?
name=nognuplot
expect_status "run --plot with CHARGESIM_GNUPLOT pointing nowhere" 2
expect_stderr "prints the install command" "apt-get install gnuplot-nox"
expect_stderr "names the variable" "CHARGESIM_GNUPLOT=/nonexistent/gnuplot"
for f in trace.csv events.jsonl metrics.json plot.gp; do
	check "gnuplot missing: $f still written" test -s "$D/$f"
done
check "gnuplot missing: no plot.png" test ! -e "$D/plot.png"
check "gnuplot missing: the summary still printed" grep -q "outputs in $D/" "$TMP/nognuplot.out"

D=$TMP/nopath
PATH=/nonexistent "$BIN" run "$ZOO/twl4030-full-battery.json" -o "$D" --plot \
	>"$TMP/nopath.out" 2>"$TMP/nopath.err"
status=$?
name=nopath
expect_status "run --plot without gnuplot in PATH" 2
expect_stderr "no gnuplot in PATH: install command" "sudo apt-get install gnuplot-nox"
check "no gnuplot in PATH: trace.csv still written" test -s "$D/trace.csv"

# a gnuplot that fails: its stderr is shown
printf '#!/bin/sh\necho "\\"plot.gp\\" line 42: undefined variable: BOGUS" >&2\nexit 1\n' >"$TMP/badgnuplot"
chmod +x "$TMP/badgnuplot"
D=$TMP/badgp
CHARGESIM_GNUPLOT=$TMP/badgnuplot "$BIN" run "$ZOO/twl4030-full-battery.json" -o "$D" --plot -q \
	>"$TMP/badgp.out" 2>"$TMP/badgp.err"
status=$?
name=badgp
expect_status "run --plot with a failing gnuplot" 2
expect_stderr "gnuplot's error is shown" 'line 42: undefined variable: BOGUS'
check "failing gnuplot: no half-written images left" sh -c "! ls -a '$D' | grep -q 'tmp'"

tl_finish
