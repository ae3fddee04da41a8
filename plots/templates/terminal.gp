## SPDX-License-Identifier: GPL-2.0-or-later
## plots/templates/terminal.gp - the terminals every plot renders with, inside its
## "do for [FMT in FORMATS]" loop (W and H are the canvas in pixels). Edit the font or
## the background here; `make` compiles the templates into the binary.

##[select] the terminal of format FMT
	if (FMT eq 'png') {
		set terminal pngcairo size W,H font 'sans,10' noenhanced background '#ffffff'
	} else {
		set terminal svg size W,H font 'sans,10' noenhanced background '#ffffff'
	}
