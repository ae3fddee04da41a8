## SPDX-License-Identifier: GPL-2.0-or-later
## plots/templates/stacked.gp - the script of a stacked plot of traces (chargesim run
## --plot, compare --plot, chargesim plot): its head, the variables chosen from the
## data, and the frame every panel shares. The panels are in panels.gp.
##
## Placeholders (plots/gp.h): @NAME@ is a value the plot fills in, @NAME|TEXT@ that
## value or TEXT, and a line starting with @?NAME@ is written only when NAME is given.
## Numbers come formatted for gnuplot, @...Q@ values as quoted gnuplot strings.

##[head] what the script is; @BASE@ its name without .gp, @ZOOM_PANEL@ ", (e) zoom" or ""
# @BASE@.gp - chargesim plot: @TITLE@
#
# Written by chargesim; edit freely and render again from this directory with
#     gnuplot @BASE@.gp
# which writes @BASE@.{@FORMATS@} (gnuplot -e "FORMATS='svg'" @BASE@.gp for one format).
# It reads the traces below (by column name, so any column order works) in copies
# thinned to what the picture shows (@BASE@-trace-N.csv: the rows within a quarter
# pixel of a straight line between their neighbours left out; put the traces of
# ORIGINAL into TRACE to draw every row), @BASE@-events.dat (event markers) and
# @BASE@-states.dat (the state band)@CONTRACT_FILE@.
# Ranges, the time unit and the zoom window were chosen from the data when this
# file was written: change them here. Panels: (a) VBUS, (b) input current and
# limits, (c) battery voltage and SOC, (d) states and events@ZOOM_PANEL@.

if (!exists('FORMATS')) FORMATS = '@FORMATS@'
if (!exists('OUTBASE')) OUTBASE = '@BASE@'
if (!exists('REPORT')) REPORT = ''   # a file: print each panel's axes (for tests)
if (REPORT ne '') { set print REPORT }

##[variables] the choices made from the data; @SUBTITLES@ the SUB1 = ... lines
W = @W@; H = @H@   # canvas, pixels
N = @N@
array TRACE[N] = [@TRACES@]
# ORIGINAL: [@ORIGINALS@]
array LABEL[N] = [@LABELS@]
EVENTS = '@BASE@-events.dat'
STATES = '@BASE@-states.dat'
NE = @NE@   # event markers in EVENTS

TU = @TU@; TUNIT = '@TUNIT@'   # time axis: seconds per unit
T(t) = t / TU
XMIN = T(@TMIN@); XMAX = T(@TMAX@)
VBUS_MIN = @VBUS_MIN@   # V, USB 2.0 minimum at the device
UVLO = @UVLO@   # V, the charger's UVLO falling threshold (NaN: unknown)
@?CONTRACT@CONTRACT = '@BASE@-contract.dat'   # each run's PD contract, a block per run
@?CONTRACT@VBUS_FRACTION = @VBUS_FRACTION@   # the lowest VBUS a source may deliver: 95 % of its contract (USB PD vSrcNew)
@?ZOOM@Z0 = @Z0@; Z1 = @Z1@   # zoom window, s: rule in docs/plots.md
@?ZOOM@ZREASON = @ZREASONQ@
@?ZOOM@ZU = @ZU@; ZUNIT = '@ZUNIT@'
@?ZOOM@Z(t) = t / ZU
TITLE = @TITLEQ@
@SUBTITLES@

# panel layout: fixed margins so the time axes line up
LM = @LM@; RM = @RM@

set datafile separator comma
# event lines: arrays of EVENTS' columns (t_s, run, group, rgb, main, mlevel, zoom)
array EVT[NE > 0 ? NE : 1]; array EVR[NE > 0 ? NE : 1]; array EVC[NE > 0 ? NE : 1]
array EVM[NE > 0 ? NE : 1]; array EVZ[NE > 0 ? NE : 1]
if (NE > 0) {
	stats EVENTS using (k = int($0) + 1, EVT[k] = $1, EVR[k] = $2, EVC[k] = int($4), EVM[k] = $5, EVZ[k] = $7, 0) nooutput
}
EVDT(k) = N > 1 ? int(EVR[k]) : 1   # dash type of an event line: the run's number

##[subtitle] one line under the title: @I@ its number
SUB@I@ = @TEXTQ@
##[frame] the settings every panel shares; @TERMINAL@ is terminal.gp, @TITLES@ the [title] lines
do for [FMT in FORMATS] {
@TERMINAL@
	set output OUTBASE . '.' . FMT
	reset   # nothing carries over from the previous format
	set datafile separator comma
	set multiplot
	set lmargin at screen LM; set rmargin at screen RM
	set xrange [XMIN:XMAX]
	set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1
	set border lc rgb '#444444'
	set ytics nomirror; unset y2tics
	set format x ''; unset xlabel
	set mxtics
@TITLES@
@?ZOOM@	# the zoom window, shaded in the main panels
@?ZOOM@	set object 1 rect from first T(Z0), graph 0 to first T(Z1), graph 1 behind fc rgb '#fff1c1' fs solid 1.0 noborder
@?EVENTS@	do for [k=1:NE] { if (EVM[k] == 1) { set arrow k from first T(EVT[k]), graph 0 to first T(EVT[k]), graph 1 nohead back lw 1 lc rgb sprintf('#40%06x', EVC[k]) dt EVDT(k) } }
##[title] the title at @Y@ (screen fraction)
	set label 1 TITLE at screen 0.5, screen @Y@ center font 'sans,13'
##[subtitle-label] sub-title line @I@ at @Y@, in the colour of its run (grey for one run)
	set label @LABEL@ SUB@I@ at screen 0.5, screen @Y@ center font 'sans,9' tc rgb '@RGB@'
##[end]
	unset multiplot
	unset output
}
