#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# plots/safe-ramp/generate.sh - the plots of docs/safe-ramp.md (run from the repo root:
# plots/safe-ramp/generate.sh build/chargesim). Each is `chargesim compare --plot` of a
# scenario under the ramps the note discusses; the PNGs are copied beside this script.
set -eu
cs=${1:-build/chargesim}
out=out/safe-ramp-plots
here=$(dirname "$0")
plot() {	# name scenario policies...
	name=$1 scn=$2
	shift 2
	args=""
	for p in "$@"; do args="$args --policy $p"; done
	# shellcheck disable=SC2086
	"$cs" compare "$scn" $args -o "$out/$name" --plot -q >/dev/null
	cp "$out/$name/plot.png" "$here/$name.png"
	echo "$here/$name.png"
}
plot full-battery scenarios/bugzoo/twl4030-full-battery.json twl4030 ec-ramp safe-ramp
plot framework-1a scenarios/bugzoo/usb-charger-fw-2016.json usb-charger-fw safe-ramp
plot vbus-dip scenarios/bugzoo/twl4030-vbus-dip.json twl4030 safe-ramp
plot healthy scenarios/policies/healthy-2a.json ec-ramp safe-ramp
plot thin-cable scenarios/policies/thin-cable-vindpm.json twl4030 hw-ico safe-ramp
