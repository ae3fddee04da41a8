## SPDX-License-Identifier: GPL-2.0-or-later
## plots/templates/heatmap.gp - the script of a heat map (chargesim plot --heatmap): up
## to three maps a row, one colour scale for all. Placeholders as in stacked.gp;
## @...Q@ values are quoted gnuplot strings, @MAPSQ@ the quoted map titles, @XTICS@ and
## @YTICS@ the categories with their positions.

##[script]
# @BASE@.gp - chargesim heat map: @Z@ over @X@ x @Y@@BY@, from @RESULTS@
# Written by chargesim; edit and render again from this directory with
#     gnuplot @BASE@.gp
# It reads @BASE@-heatmap.dat (one block per map: ix,iy,z,label).

if (!exists('FORMATS')) FORMATS = '@FORMATS@'
if (!exists('OUTBASE')) OUTBASE = '@BASE@'
W = @W@; H = @H@
DATA = '@BASE@-heatmap.dat'
NMAPS = @NMAPS@; NCOLS = @NCOLS@
array MAP[NMAPS] = [@MAPSQ@]
TITLE = @TITLEQ@
ZLABEL = @ZQ@
ZMIN = @ZMIN@; ZMAX = @ZMAX@   # one colour scale for every map
PW = @PW@; PH = @PH@   # one map, pixels

set datafile separator comma
do for [FMT in FORMATS] {
@TERMINAL@
	set output OUTBASE . '.' . FMT
	reset
	set datafile separator comma
	set multiplot title TITLE font ',13'
	set palette defined (0 '#ffffcc', 0.25 '#fed976', 0.5 '#fd8d3c', 0.75 '#e31a1c', 1 '#800026')
	set cbrange [ZMIN:ZMAX]; set cblabel ZLABEL
	set xrange [-0.5:@XLAST@.5]; set yrange [-0.5:@YLAST@.5]
	set xtics (@XTICS@)
	set ytics (@YTICS@)
	set xlabel @XQ@; YLABEL = @YQ@
	set tics scale 0; unset key; set border lc rgb '#888888'
	do for [m=1:NMAPS] {
		col = (m - 1) % NCOLS; row = (m - 1) / NCOLS
		set lmargin at screen (110.0 + col * (PW + 120)) / W
		set rmargin at screen (110.0 + col * (PW + 120) + PW) / W
		set tmargin at screen 1 - (70.0 + row * (PH + 80)) / H
		set bmargin at screen 1 - (70.0 + row * (PH + 80) + PH) / H
		set title MAP[m]
		# one colour scale for all: its box beside the last map of a row
		if (col == NCOLS - 1 || m == NMAPS) { set colorbox } else { unset colorbox }
		if (col == 0) { set ylabel YLABEL } else { unset ylabel }
		plot DATA index (m - 1) using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette, \
			DATA index (m - 1) using 1:2:4:(($3 - ZMIN) / (ZMAX - ZMIN) > 0.6 ? 0xffffff : 0x222222) with labels tc rgb variable font ',10'
	}
	unset multiplot
	unset output
}
