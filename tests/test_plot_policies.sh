#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_plot_policies.sh - plots that show every policy (issue 38, item 2): runs
# that agree to a pixel drawn as one line named for all of them, one compact band row
# per run, the system load and its steps, the USB budget and the PD contract's current.
#
# Usage (from the repository root): tests/test_plot_policies.sh build/chargesim
#
# The traces are made here, with offsets chosen against the panel's pixel as gnuplot
# reports it (REPORT= makes a plot script print each panel's axis range and its pixel
# extent): a line 0.4 px off another must merge, one 3.7 px off must not. Lines are
# found in the SVG by their key titles and their points mapped back to values.
set -u

. "$(dirname "$0")/lib.sh"
tl_init plot-policies "${1:-build/chargesim}" scenarios/demo.json

if ! command -v gnuplot >/dev/null 2>&1; then
	skip "plots of several policies" "gnuplot is not installed"
	tl_finish
	exit $?
fi

# svg_text FILE TEXT: a <text> element holding exactly TEXT.
svg_text() {
	grep -F -q "<text>$2</text>" "$1"
}

# render DIR SCRIPT: render again as DIR/check.svg with the axes report DIR/map.txt.
render() {
	(cd "$1" && gnuplot -e "FORMATS='svg'; OUTBASE='check'; REPORT='map.txt'" "$2") \
		>"$TMP/render.out" 2>&1
}

# px_per MAP PANEL: pixels per unit of the panel's left axis.
px_per() {
	awk -v p="$2" '$1 == "panel" && $2 == p { printf "%.6f\n", ($14 - $13) / ($9 - $8); exit }' "$1"
}

# map_y MAP PANEL VALUE: the SVG y of VALUE on the panel's left axis.
map_y() {
	awk -v p="$2" -v v="$3" '$1 == "panel" && $2 == p {
		printf "%.3f\n", $17 - ($13 + (v - $8) / ($9 - $8) * ($14 - $13)); exit }' "$1"
}

# map_x MAP PANEL VALUE: the SVG x of VALUE (in the axis unit) on the panel.
map_x() {
	awk -v p="$2" -v v="$3" '$1 == "panel" && $2 == p {
		printf "%.3f\n", $11 + (v - $5) / ($6 - $5) * ($12 - $11); exit }' "$1"
}

# series_ys SVG TITLE XMAX: the y of every point the series titled TITLE draws inside
# the panels (x <= XMAX px), one per line.
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

# only_near LIST TOL Y...: every number of LIST within TOL of one of the Ys, and each
# Y met at least once.
only_near() {
	list=$1
	tol=$2
	shift 2
	printf '%s\n' "$list" | awk -v tol="$tol" -v ys="$*" '
		BEGIN { n = split(ys, y, " ") }
		NF { m++; hit = 0
		     for (i = 1; i <= n; i++) { d = $1 - y[i]; if (d < 0) d = -d; if (d <= tol) { hit = 1; seen[i] = 1 } }
		     if (!hit) bad++ }
		END { for (i = 1; i <= n; i++) if (!seen[i]) bad++; exit !(m > 0 && !bad) }'
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

# trace FILE DT T_OFFSET DV [EXTRA_HEADER EXTRA_AWK]: a 120 s trace by hand: a row
# every DT s from T_OFFSET (and at 0 and 120), VBUS falling 2 mV/s from 4.9 V plus
# DV, the input current stepping from 0.5 A to 1 A at 60 s (two rows at one time);
# EXTRA_AWK prints the extra columns' values (t in t).
trace() {
	awk -v dt="$2" -v t0="$3" -v dv="$4" -v xh="${5:-}" "
		function row(t, i) {
			printf \"%.6f,5.1,%.9f,%s,1.5,%.6f,0.5,cc,on\", t, 4.9 - 0.002 * t + dv, i, 3.8 + 0.001 * t
			${6:-}
			printf \"\\n\"
		}
		BEGIN {
			print \"time_s,vsrc_V,vbus_V,ibus_A,ilim_A,vbat_V,soc,charger_state,source_state\" xh
			row(0, 0.5)
			for (t = t0; t < 120; t += dt) {
				if (t > 0 && prev < 60.05 && t >= 60.05) { row(60.05, 0.5); row(60.05, 1.0) }
				row(t, t < 60.05 ? 0.5 : 1.0); prev = t
			}
			row(120, 1.0)
		}" >"$1"
}

# ---- 1. runs that agree within a pixel are one line, named for all of them ----

D=$TMP/merge
mkdir -p "$D"
trace "$D/a.csv" 1 1 0
trace "$D/b.csv" 1 0.5 0.00007       # 70 uV higher, sampled half a second later
trace "$D/c.csv" 1 1 -0.03            # 30 mV lower: a few pixels
trace "$D/d.csv" 0.7 0.3 0.003        # 3 mV higher: under half a pixel
run merge plot "$D/a.csv" "$D/b.csv" "$D/c.csv" "$D/d.csv" -o "$D/m.svg" --uvlo 3.6V --zoom none
expect_status "plot four hand-made traces" 0
S=$D/m.svg
if render "$D" m.gp; then
	px=$(px_per "$D/map.txt" a)
	check "premise: 3 mV is under half a pixel of panel (a), 30 mV over 2 ($px px/V)" \
		awk -v p="$px" 'BEGIN { exit !(0.003 * p < 0.5 && 0.03 * p > 2) }'
else
	not_ok "m.gp renders again" "$(cat "$TMP/render.out")"
fi
check "(a): the runs within a pixel are one key entry naming all of them" svg_text "$S" "a = b = d"
check "(a): the run a few pixels off keeps its own entry" svg_text "$S" "c"
check "(a): no entry of its own for a merged run" sh -c "! grep -q '<text>b</text>' '$S'"
check "(b): every current agrees, c's too: one entry for the four" svg_text "$S" "a = b = c = d"
check "the title says which runs are one line, per panel" grep -q -F \
	"<text>drawn as one line (within a pixel): VBUS: a = b = d, currents: a = b = c = d, battery: a = b = c = d" "$S"
check "the merged runs are drawn in stripes over the first" sh -c \
	"grep -q \"TRACE\\[2\\] using (T(column('time_s'))):(column('vbus_V')) with lines lw 1.6 dt (24,12)\" '$D/m.gp' &&
	 grep -q \"TRACE\\[4\\] using (T(column('time_s'))):(column('vbus_V')) with lines lw 1.6 dt (12,24)\" '$D/m.gp'"
check "a merged run draws no other series of the panel" sh -c \
	"! grep -q \"TRACE\\[2\\] using (T(column('time_s'))):(column('vsrc_V'))\" '$D/m.gp'"
# one row 0.2 V higher (a spike a pixel wide) is no longer a's line
awk -F, -v OFS=, 'NR > 1 && $1 == 90 { $3 += 0.2 } { print }' "$D/a.csv" >"$D/f.csv"
run spike plot "$D/a.csv" "$D/f.csv" -o "$D/sp.svg" --uvlo 3.6V --zoom none
expect_status "plot a trace and the same with a spike" 0
check "(a): a spike the other run lacks keeps the runs apart (the rest merges)" grep -q -F \
	"<text>drawn as one line (within a pixel): currents: a = f, battery: a = f" "$D/sp.svg"

# a programmed limit 0.5 A higher: the currents differ, the input current does not
awk -F, -v OFS=, 'NR > 1 { $5 = 2.0; $3 += 0.00002 } { print }' "$D/a.csv" >"$D/e.csv"
run merge2 plot "$D/a.csv" "$D/e.csv" -o "$D/m2.svg" --uvlo 3.6V --zoom none
expect_status "plot a trace and one with another limit" 0
check "(a) merges them" svg_text "$D/m2.svg" "a = e"
check "(b): the agreeing input current is one line, named with its column" \
	svg_text "$D/m2.svg" "a = e (ibus_A)"
check "(b): e keeps its own limit line" \
	grep -q "TRACE\\[2\\] using (T(column('time_s'))):(column('ilim_A'))" "$D/m2.gp"
check "the title says only the input current is one line in (b)" \
	grep -q "<text>drawn as one line (within a pixel): .*input current only: a = e" "$D/m2.svg"

# ---- 2. the state band: one compact row per run ----

D=$TMP/five
run five compare scenarios/demo.json --policy fixed --policy safe-ramp --policy twl4030 \
	--policy hw-ico --policy none -o "$D" --plot -q
expect_status "compare five policies with --plot" 0
rows=$(awk -F, '!/^#/ { print $3 }' "$D/plot-states.dat" | sort -u | wc -l)
check "the band has one row per run or fewer ($rows for 5 runs)" test "$rows" -ge 1 -a "$rows" -le 5
names=$(sed -n "s/^[[:space:]]*set ytics scale 0 font ',8' (\\(.*\\))\$/\\1/p" "$D/plot.gp")
for p in fixed safe-ramp twl4030 hw-ico none; do
	check "the band rows name $p once" test "$(printf '%s\n' "$names" | tr ',=' '\n\n' |
		sed "s/^[ ']*//; s/'.*//" | grep -c -x "$p")" -eq 1
done
check "no row per state kind ('fixed charger', 'fixed source')" sh -c \
	"! grep -q -e '<text>fixed charger</text>' -e '<text>fixed source</text>' '$D/plot.svg'"
if render "$D" plot.gp; then
	h=$(awk '$1 == "panel" && $2 == "d" { print $14 - $13; exit }' "$D/map.txt")
	check "the band is at most 22 px a run and the label strip (${h} px for 5 runs)" \
		awk -v h="$h" 'BEGIN { exit !(h <= 5 * 22 + 60 + 1) }'
fi
for t in "row: charger state; stripes:" "detected: DCP" "psy type: USB_DCP"; do
	check "the band's key explains the stripes: \"$t\"" svg_text "$D/plot.svg" "$t"
done
check "the charger state fills the row and is named; the others are stripes" awk -F, '
	!/^#/ { if ($6 == -0.42 && $7 == 0.42 && $8 == 1) fill++; else if ($8 == 0 && $7 - $6 < 0.2) stripe++; else bad++ }
	END { exit !(fill > 0 && stripe > 0 && !bad) }' "$D/plot-states.dat"
check "the source's usual 'on' is no stripe" sh -c "! awk -F, '\$5 == \"on\"' '$D/plot-states.dat' | grep -q ."

# ---- 3. the system load and its steps ----

D=$TMP/load
mkdir -p "$D"
trace "$D/load.csv" 1 1 0 ",iload_A" 'printf ",%s", (t < 30) ? 0.15 : 0.6'
# the step as a trace keeps it: two rows at 30 s
awk -F, 'NR > 1 && $1 == 30 { l = $0; sub(/,0\.6$/, ",0.15", l); print l } { print }' \
	"$D/load.csv" >"$D/l.csv"
mv "$D/l.csv" "$D/load.csv"
run load plot "$D/load.csv" -o "$D/load.svg" --uvlo 3.6V
expect_status "plot a trace with iload_A" 0
S=$D/load.svg
check "panel (b) draws the system load" svg_text "$S" "system load (iload_A)"
check "the load step is labelled with the new load" svg_text "$S" "load 600 mA"
if render "$D" load.gp; then
	M=$D/map.txt
	xmax=$(awk '$1 == "panel" && $2 == "b" { print $12; exit }' "$M")
	ys=$(series_ys "$S" "system load (iload_A)" "$xmax")
	check "the system load is drawn at 0.15 A and 0.6 A" only_near "$ys" 0.6 \
		"$(map_y "$M" b 0.15)" "$(map_y "$M" b 0.6)"
	x=$(map_x "$M" a 30)
	yb=$(awk '$1 == "panel" && $2 == "a" { print $17 - $13 }' "$M")
	yt=$(awk '$1 == "panel" && $2 == "a" { print $17 - $14 }' "$M")
	check "a load-step line at 30 s across panel (a)" vline "$S" 'rgb(188, 189,  34)' "$x" "$yb" "$yt"
fi
# a 5 mA step: under 10 mA (and under two pixels of the 0-1.65 A axis, 17 mA)
trace "$D/small.csv" 1 1 0 ",iload_A" 'printf ",%s", (t < 30) ? 0.150 : 0.155'
run small plot "$D/small.csv" -o "$D/small.svg" --uvlo 3.6V
expect_status "plot a trace with a 5 mA load step" 0
check "a 5 mA load step is not marked" sh -c "! grep -q '<text>load ' '$D/small.svg'"
trace "$D/noload.csv" 1 1 0
run noload plot "$D/noload.csv" -o "$D/noload.svg" --uvlo 3.6V
check "no iload_A, no system load and no load step" sh -c \
	"! grep -q -e 'system load' -e 'load step' '$D/noload.svg'"

# the steps of a scenario's load profile, at its times (5 min and 15 min)
cat >"$TMP/profile.json" <<'EOF'
{ "name": "profile", "duration": "20 min", "source": { "kind": "dcp", "ilim": "1 A" },
  "cable": { "length": "1 m", "awg": 26 },
  "device": { "pmic": { "preset": "bq25890" }, "battery": { "preset": "eb425161lu", "soc": "30 %" },
    "load": { "current": "150 mA",
              "profile": [ { "at": "5 min", "current": "600 mA" }, { "at": "15 min", "current": "300 mA" } ] } },
  "policy": { "name": "safe-ramp" } }
EOF
run profile run "$TMP/profile.json" -o "$TMP/profile" --plot -q
expect_status "run a load profile with --plot" 0
check "the profile's steps are marked at 300 s and 900 s, no others" sh -c "
	awk -F, '!/^#/ && \$3 == 10 { print \$1 \" \" \$9 }' '$TMP/profile/plot-events.dat' >'$TMP/steps' &&
	test \"\$(cat '$TMP/steps')\" = \"\$(printf '300 load 600 mA\\n900 load 300 mA')\""

# ---- 4. the USB budget and the PD contract ----

D=$TMP/budget
mkdir -p "$D"
# 500 mA configured, 2.5 mA while suspended from 40 s to 80 s (USB 2.0 7.2.3)
trace "$D/budget.csv" 1 1 0 ",budget_A" 'printf ",%s", (t >= 40 && t < 80) ? 0.0025 : 0.5'
run budget plot "$D/budget.csv" -o "$D/budget.svg" --uvlo 3.6V
expect_status "plot a trace with budget_A" 0
S=$D/budget.svg
check "panel (b) draws the budget" svg_text "$S" "USB budget (budget_A)"
if render "$D" budget.gp; then
	M=$D/map.txt
	xmax=$(awk '$1 == "panel" && $2 == "b" { print $12; exit }' "$M")
	ys=$(series_ys "$S" "USB budget (budget_A)" "$xmax")
	check "the budget is drawn at 500 mA and at the suspend's 2.5 mA" only_near "$ys" 0.6 \
		"$(map_y "$M" b 0.5)" "$(map_y "$M" b 0.0025)"
fi
check "no budget_A, no budget line" sh -c "! grep -q 'USB budget' '$TMP/load/load.svg'"

# a 9 V 2.22 A contract: its current in (b), its voltage in (a)
cat >"$TMP/pd.json" <<'EOF'
{ "name": "pd", "duration": "1 min", "source": { "kind": "pd", "pdos": ["5V 3A", "9V 2.22A"] },
  "device": { "battery": { "preset": "eb425161lu", "soc": "50 %" }, "phy": { "pd_max_v": "9 V" } },
  "policy": { "name": "fixed", "params": { "ilim": "1 A" } } }
EOF
run pd compare "$TMP/pd.json" --policy fixed --policy hw-ico -o "$TMP/pd" --plot -q
expect_status "compare on a 9 V 2.22 A contract" 0
S=$TMP/pd/plot.svg
# the runs' traces have budget_A (the port's allowance: the Rp's 3.0 A, then the
# contract's current from PS_RDY on), which the plot draws in place of a contract
# current of its own
check "panel (b) draws the contract's current (as the budget)" svg_text "$S" "long dash: budget (budget_A)"
check "and (a) the contract's voltage" svg_text "$S" "PD contract"
run pdone run "$TMP/pd.json" -o "$TMP/pdone" --plot -q
S=$TMP/pdone/plot.svg
check "one run: panel (b) draws the budget" svg_text "$S" "USB budget (budget_A)"
if render "$TMP/pdone" plot.gp; then
	M=$TMP/pdone/map.txt
	xmax=$(awk '$1 == "panel" && $2 == "b" { print $12; exit }' "$M")
	ys=$(series_ys "$S" "USB budget (budget_A)" "$xmax")
	check "the contract's current is drawn at 2.22 A (the Rp's 3.0 A before PS_RDY)" \
		only_near "$ys" 0.6 "$(map_y "$M" b 2.22)" "$(map_y "$M" b 3.0)"
fi

tl_finish
