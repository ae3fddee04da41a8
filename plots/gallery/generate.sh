#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# plots/gallery/generate.sh - regenerate the design-review gallery from the bug zoo.
#
# Usage (from the repository root; `make gallery` and `make gallery-update` run it):
#     [GALLERY=DIR] [TRACKED="NAME..."] plots/gallery/generate.sh [path/to/chargesim]
#
# For every bug-zoo group in scenarios/bugzoo/ (ZOO=DIR to use another directory) it
# runs each scenario into out/gallery/<name>/ (WORK=DIR to move it), overlays the
# failure and its fix with `chargesim plot` (same panels as `run --plot`, one colour per
# scenario, a zoom panel on the interesting window) into GALLERY/<failure>.png, and
# writes the index GALLERY/README.md: one section per group, the picture, one paragraph
# from the scenarios' descriptions and a row of metrics per scenario. The HEADLINE
# scenarios are also drawn alone, as `run --plot` draws them (GALLERY/run-<name>.png),
# and the twl4030-grid sweep as a heat map (GALLERY/heatmap-twl4030-grid.png).
#
# GALLERY is build/gallery by default: `make gallery` writes no tracked file. The
# tracked gallery, plots/gallery/, is rewritten only by `make gallery-update`, which
# gives TRACKED: the pictures (names without .png) the repository keeps. Only those are
# copied there and shown in its README; every other group's section says how to draw
# its picture, so a fresh checkout's README shows no missing image
# (tests/test_doc_figures.sh checks it, and that its figures are this build's).
#
# Grouping: scenarios whose description says "Bug zoo N" belong to group N ("Bug zoo N,
# fixed" marks a fix, anything else a failure); a scenario without that phrase pairs by
# name, X.json with X-<fix>.json. A group without a fix (two setups compared) is
# shown the same way, its scenarios named instead of called failure and fix. The editable gnuplot scripts stay beside the images
# under out/gallery/ (cd out/gallery && gnuplot <failure>.gp).
set -eu

BIN=${1:-build/chargesim}
ZOO=${ZOO:-scenarios/bugzoo}
# scenarios also drawn alone (`run --plot`) as plots/gallery/run-<name>.png, for
# docs/plots.md
HEADLINE=${HEADLINE:-"twl4030-full-battery twl4030-full-battery-safe-ramp"}
GALLERY=${GALLERY:-build/gallery}
WORK=${WORK:-out/gallery}
TRACKED=${TRACKED-}

if [ ! -x "$BIN" ]; then
	echo "usage: $0 path/to/chargesim (run from the repository root; build it first)" >&2
	exit 2
fi
if [ ! -d "$ZOO" ]; then
	echo "$0: no scenario directory $ZOO (run from the repository root)" >&2
	exit 2
fi
mkdir -p "$GALLERY" "$WORK"

# kept NAME: is the picture NAME (no .png) one this gallery holds? (all without TRACKED)
kept() {
	[ -z "$TRACKED" ] && return 0
	case " $TRACKED " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# publish FILE NAME: copy the picture FILE into the gallery as NAME.png, when kept
publish() {
	kept "$2" || return 0
	cp "$1" "$GALLERY/$2.png"
	echo "$GALLERY/$2.png"
}

# picture NAME ALT: the README's line for the picture NAME: the image when the gallery
# holds it, else where `make gallery` draws it
picture() {
	if kept "$1"; then
		echo "![$2]($1.png)"
	else
		echo "*Picture: \`make gallery\` draws it as \`build/gallery/$1.png\`.*"
	fi
}
LIST=$WORK/.scenarios
TAB=$(printf '\t')
"$BIN" list scenarios "$ZOO" >"$LIST"

# One line per scenario: GROUP<TAB>ROLE<TAB>NAME<TAB>PATH<TAB>DESCRIPTION, where GROUP
# sorts the groups (bug-zoo numbers first, zero-padded) and ROLE is 0 failure, 1 fix.
TABLE=$WORK/.groups
: >"$TABLE"
while IFS= read -r line; do
	path=${line%% *}
	desc=$(printf '%s\n' "${line#"$path"}" | sed 's/^ *//')
	name=$(basename "$path" .json)
	num=$(printf '%s\n' "$desc" | sed -n 's/^.*Bug zoo \([0-9][0-9]*\).*$/\1/p')
	if [ -n "$num" ]; then
		group=$(printf 'zoo%04d' "$num")
		case $desc in
		*"Bug zoo $num, fixed"*) role=1 ;;
		*) role=0 ;;
		esac
	else
		group=""
		role=0
		for other in "$ZOO"/*.json; do
			o=$(basename "$other" .json)
			case $name in
			"$o"-*) group="name-$o"; role=1 ;;
			esac
		done
		[ -z "$group" ] && group="name-$name"
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$group" "$role" "$name" "$path" "$desc" >>"$TABLE"
done <"$LIST"
sort -t "$TAB" -k1,1 -k2,2n -k3,3 "$TABLE" -o "$TABLE"

# metric FILE KEY FORMAT [SCALE]: a value of metrics.json, printf-formatted after
# multiplying by SCALE ("-" when null or absent).
metric() {
	v=$(sed -n "s/^[[:space:]]*\"$2\":[[:space:]]*\\([^,]*\\),\\{0,1\\}[[:space:]]*\$/\\1/p" "$1")
	case $v in
	"" | null) echo "-" ;;
	*) awk -v v="$v" -v f="$3" -v k="${4:-1}" 'BEGIN { printf f "\n", v * k }' ;;
	esac
}

README=$GALLERY/README.md
TMPREADME=$GALLERY/.README.md.tmp
{
	echo "# Bug-zoo gallery"
	echo
	echo "Each picture overlays a scenario of the bug zoo (\`$ZOO/\`) that shows a charging"
	echo "bug and the same setup with the fix, in one colour each. Panels, top to bottom:"
	echo "(a) VBUS at the device (solid) and at the source (dashed) with the 4.75 V USB"
	echo "minimum and the charger's UVLO threshold; (b) the input current (solid), the"
	echo "programmed input limit (dashed) and the source's current limit (dotted); (c) the"
	echo "battery voltage and the SOC (right axis, dashed); (d) the state band (charger state,"
	echo "source state, detected port, boot stage) under the event labels; (e) a zoom on the"
	echo "interesting window: the first trip, UVLO or brownout, else the first VBUS sag"
	echo "below 4.75 V, else the end of the input-limit ramp (shaded yellow above)."
	echo "See [docs/plots.md](../../docs/plots.md) for how to read and make these plots."
	echo
	if [ -n "$TRACKED" ]; then
		echo "This is the gallery the repository keeps, rewritten by \`make gallery-update\`"
		echo "with the pictures listed in the Makefile's GALLERY_TRACKED; \`make gallery\` draws"
		echo "every picture into \`build/gallery/\` and touches no tracked file. The editable"
		echo "gnuplot scripts and the runs are under \`$WORK/\`."
	else
		echo "Made by \`make gallery\` (this file and the PNGs); the editable gnuplot"
		echo "scripts and the runs are under \`$WORK/\`."
	fi
} >"$TMPREADME"

status=0
groups=$(cut -f1 "$TABLE" | uniq)
for g in $groups; do
	set --
	labels=""
	names=""
	failure=""
	while IFS=$TAB read -r grp role name path desc; do
		[ "$grp" = "$g" ] || continue
		dir=$WORK/$name
		rc=0
		plot=""
		case " $HEADLINE " in
		*" $name "*) plot=--plot ;;
		esac
		"$BIN" run "$path" -o "$dir" -q $plot || rc=$?
		if [ "$rc" -ge 2 ]; then
			echo "$0: chargesim run $path failed (exit $rc)" >&2
			status=1
			continue
		fi
		[ "$rc" -eq 1 ] && echo "$0: warning: $path: an expectation failed" >&2
		if [ -n "$plot" ] && [ -s "$dir/plot.png" ]; then
			publish "$dir/plot.png" "run-$name"
		fi
		[ -z "$failure" ] && failure=$name
		set -- "$@" --label "$name" "$dir/trace.csv"
		names="$names $name"
	done <"$TABLE"
	[ -n "$failure" ] || continue
	count=$(grep -c "^$g$TAB" "$TABLE")
	case $g in
	zoo*) title="Bug zoo $(echo "$g" | sed 's/^zoo0*//')" ;;
	*) title="${g#name-}" ;;
	esac
	first_path=$(grep "^$g$TAB" "$TABLE" | head -1 | cut -f4)
	if ! "$BIN" plot --title "$title: $(echo "$names" | sed "s/^ //; s/ / vs /g")" --scenario "$first_path" -o "$WORK/$failure.png" \
	    "$@" >/dev/null; then
		echo "$0: plotting $title failed" >&2
		status=1
		continue
	fi
	publish "$WORK/$failure.png" "$failure"

	{
		echo
		if [ "$count" -gt 1 ]; then
			echo "## $title: $(echo "$names" | sed 's/^ //; s/ / vs /g')"
		else
			echo "## $title: $failure (no fix in the zoo yet)"
		fi
		echo
		picture "$failure" "$title"
		echo
		para=""
		fixes=$(awk -F "$TAB" -v g="$g" '$1 == g && $2 == 1' "$TABLE" | wc -l)
		while IFS=$TAB read -r grp role name path desc; do
			[ "$grp" = "$g" ] || continue
			text=$(printf '%s\n' "$desc" | sed 's/^Bug zoo [0-9][0-9]*\( ([^)]*)\)\{0,1\}\(, fixed\)\{0,1\}: //')
			note=$(printf '%s\n' "$desc" | sed -n 's/^Bug zoo [0-9][0-9]* (\([^)]*\)).*$/, \1/p')
			if [ "$fixes" -eq 0 ]; then
				para="$para **\`$name\`**$note: $text."
			elif [ "$role" -eq 1 ]; then
				para="$para **Fix** (\`$name\`$note): $text."
			else
				para="$para **Failure** (\`$name\`$note): $text."
			fi
		done <"$TABLE"
		printf '%s\n' "${para# }" | sed 's/\.\././g' | fold -s -w 90 | sed 's/ *$//'
		echo
		echo "| scenario | VBUS min | below 4.75 V | trips | UVLO | brownouts | limit max | SOC at end | full at |"
		echo "|---|---|---|---|---|---|---|---|---|"
		for name in $names; do
			m=$WORK/$name/metrics.json
			printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" \
				"$(metric "$m" vbus_min_V "%.3f V")" "$(metric "$m" time_below_4v75_s "%.1f s")" \
				"$(metric "$m" source_trips %d)" "$(metric "$m" uvlo_events %d)" \
				"$(metric "$m" brownouts %d)" "$(metric "$m" ilim_max_A "%.2f A")" \
				"$(metric "$m" soc_final "%.1f %%" 100)" \
				"$(metric "$m" time_to_full_s "%.1f min" 0.016666666666666666)"
		done
	} >>"$TMPREADME"
done
# A sweep heat map, when the sweep command and the sweep file are there: the largest
# input limit each policy programs over adapter limit x system load.
SWEEP=scenarios/sweeps/twl4030-grid.json
if [ -f "$SWEEP" ] && "$BIN" sweep --help >/dev/null 2>&1; then
	SW=$WORK/sweep-twl4030-grid
	rm -rf "$SW"
	if "$BIN" sweep "$SWEEP" -o "$SW" -q >/dev/null &&
	    "$BIN" plot --heatmap "$SW/results.csv" --x source.ilim --y device.load.current \
		--z ilim_max_A --by policy --agg max \
		--title "twl4030-grid sweep: largest input limit programmed (max over each cell's random samples)" \
		-o "$WORK/heatmap-twl4030-grid.png" >/dev/null; then
		publish "$WORK/heatmap-twl4030-grid.png" heatmap-twl4030-grid
		sdesc=$(sed -n 's/^[[:space:]]*"description":[[:space:]]*"\(.*\)",\{0,1\}[[:space:]]*$/\1/p' "$SWEEP" | head -1)
		sdesc=${sdesc%.}
		{
			echo
			echo "## Sweep: the input limit over adapter and load"
			echo
			picture heatmap-twl4030-grid "twl4030-grid heat map"
			echo
			printf '%s\n' "The largest input limit each policy programs (\`ilim_max_A\`, the maximum over the random samples of a cell), over the adapter's current limit and the system load, one map per policy, from \`$SWEEP\` ($sdesc). Made with \`chargesim sweep\` and \`chargesim plot --heatmap $SW/results.csv --x source.ilim --y device.load.current --z ilim_max_A --by policy --agg max\`." |
				fold -s -w 90 | sed 's/ *$//'
		} >>"$TMPREADME"
	else
		echo "$0: warning: the sweep heat map of $SWEEP failed" >&2
	fi
fi
mv "$TMPREADME" "$README"
echo "$README"
exit $status
