## SPDX-License-Identifier: GPL-2.0-or-later
## plots/templates/panels.gp - the panels of a stacked plot of traces: (a) VBUS, (b) input
## current and limits, (c) battery voltage and SOC, (d) the state band and the event
## labels, (e) the zoom. Each panel has its settings ([a], ...), the series each run
## draws ([a-series]: one series a line), the key of line styles drawn when several
## runs share the panel ([a-legend]) and, for (a) and (e), the [limits].
##
## Placeholders (plots/gp.h): @MARGINS@, @KEY@ and @REPORT@ are the [margins], [key]
## and [report] lines below; @PLOT@ the plot command made of the series. In a series,
## @RUN@ is the run's number; with one run the colours and titles take their defaults,
## with several @C@ is the run's colour, @LEGEND@ the run's entry in the key (on the
## series that carries it) and @NOLEGEND@ "notitle". A run whose first series agrees
## with an earlier run's to a pixel draws it in the dash pattern @DASH@ over the other
## run's line, and when the panel's other series agree too it draws none of them
## (@FULL@ is not given).
##
##[margins] the panel's top and bottom, screen fractions
	set tmargin at screen @TOP@; set bmargin at screen @BOTTOM@
##[key] the key beside a signal panel, at its top
	set key at screen @KEY_X@, screen @KEY_Y@ left top Left reverse samplen 2.5 spacing 1.05 font ',9' maxrows auto nobox
##[report] with REPORT set, each panel prints its axes and where they are drawn (tests)
	if (REPORT ne '') { print sprintf('panel @PANEL@ %s x %.10g %.10g y %.10g %.10g term %g %g %g %g canvas %d %d', FMT, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, W, H) }
##
##[a] (a) VBUS

	# (a) VBUS at the device and at the source
@MARGINS@
@KEY@
	set ylabel 'VBUS [V]'
	set yrange [@YLO@:@YHI@]
@PLOT@
@REPORT@
	unset label
##[a-series]
		TRACE[@RUN@] using (T(column('time_s'))):(column('vbus_V')) with lines lw 1.6 dt @DASH|1@ lc rgb '@C|#0072b2@' @LEGEND|title 'VBUS at device (vbus_V)'@
@?FULL@		TRACE[@RUN@] using (T(column('time_s'))):(column('vsrc_V')) with lines lw 1.2 dt 2 lc rgb '@C|#56b4e9@' @NOLEGEND|title 'VBUS at source (vsrc_V)'@
##[a-legend]
		NaN with lines lw 1.2 dt 1 lc rgb '#333333' title 'solid: VBUS at device (vbus_V)'
		NaN with lines lw 1.2 dt 2 lc rgb '#333333' title 'dashed: VBUS at source (vsrc_V)'
##[limits] the USB minimum (when no run has a PD contract above 5 V) and, when known,
## the charger's UVLO threshold
@?USBMIN@		VBUS_MIN with lines lw 1.2 dt 3 lc rgb '#e69f00' title '4.75 V (USB minimum)'
@?UVLO@		UVLO with lines lw 1.2 dt 4 lc rgb '#7b3294' title sprintf('UVLO falling %.2f V', UVLO)
##[contract] one run's PD contract (the source's nominal voltage) and the minimum a
## source may deliver under it; @IDX@ the run's block in CONTRACT, @TF@ T or Z
		CONTRACT index @IDX@ using (@TF@($1)):2 with steps lw 1.2 dt 5 lc rgb '@C|#555555@' @CTITLE|title 'PD contract'@
		CONTRACT index @IDX@ using (@TF@($1)):(VBUS_FRACTION * $2) with steps lw 1.2 dt 3 lc rgb '@C|#e69f00@' @MTITLE|title sprintf('%.0f %% of contract (minimum)', 100 * VBUS_FRACTION)@
##[contract-current] the current of one run's PD contract (panel (b)), where the trace has
## no budget_A column (which holds it)
		CONTRACT index @IDX@ using (@TF@($1)):3 with steps lw 1.2 dt 5 lc rgb '@C|#555555@' @CTITLE|title 'PD contract current'@
##[contract-current-legend]
		NaN with lines lw 1.2 dt 5 lc rgb '#333333' title 'dash-dot-dot: PD contract current'
##[merge-key] a group of runs drawn as one line in a panel whose key has no run colours
		NaN with lines lw 1.6 dt 1 lc rgb '@C@' title @TEXTQ@
##[contract-legend] several runs: the contract lines take the run's colour
		NaN with lines lw 1.2 dt 5 lc rgb '#333333' title 'dash-dot-dot: PD contract'
		NaN with lines lw 1.2 dt 3 lc rgb '#333333' title sprintf('dotted: %.0f %% of contract (min.)', 100 * VBUS_FRACTION)
##
##[b] (b) currents

	# (b) input current, the programmed input limit, the source's limit
@MARGINS@
@KEY@
	set ylabel 'current [A]'
	set yrange [@YLO@:@YHI@]
@PLOT@
@REPORT@
##[b-series] the source's limit when the trace has src_ilim_A and some of it lies on the
## axis (none while detached), the battery current when the trace has ibat_A, the
## system load with iload_A, what the port allows (the USB budget) with budget_A
		TRACE[@RUN@] using (T(column('time_s'))):(column('ibus_A')) with lines lw 1.6 dt @DASH|1@ lc rgb '@C|#d55e00@' @NOLEGEND|title 'input current (ibus_A)'@
@?FULL@		TRACE[@RUN@] using (T(column('time_s'))):(column('ilim_A')) with lines lw 1.2 dt 2 lc rgb '@C|#0072b2@' @NOLEGEND|title 'programmed limit (ilim_A)'@
@?SRC_ILIM@		TRACE[@RUN@] using (T(column('time_s'))):(column('src_ilim_A') > 0 ? column('src_ilim_A') : NaN) with lines lw 1.2 dt 3 lc rgb '@C|#555555@' @NOLEGEND|title 'source limit (src_ilim_A)'@
@?IBAT@		TRACE[@RUN@] using (T(column('time_s'))):(column('ibat_A')) with lines lw 1.2 dt 4 lc rgb '@C|#009e73@' @NOLEGEND|title 'battery current (ibat_A)'@
@?ILOAD@		TRACE[@RUN@] using (T(column('time_s'))):(column('iload_A')) with lines lw 1.2 dt (2,3) lc rgb '@C|#8c564b@' @NOLEGEND|title 'system load (iload_A)'@
@?BUDGET@		TRACE[@RUN@] using (T(column('time_s'))):(column('budget_A') > 0 ? column('budget_A') : NaN) with lines lw 2.2 dt (14,5) lc rgb '@C|#cc0000@' @NOLEGEND|title 'USB budget (budget_A)'@
##[b-legend]
		NaN with lines lw 1.2 dt 1 lc rgb '#333333' title 'solid: input current (ibus_A)'
		NaN with lines lw 1.2 dt 2 lc rgb '#333333' title 'dashed: input limit (ilim_A)'
@?SRC_ILIM@		NaN with lines lw 1.2 dt 3 lc rgb '#333333' title 'dotted: source limit (src_ilim_A)'
@?IBAT@		NaN with lines lw 1.2 dt 4 lc rgb '#333333' title 'dash-dot: battery current (ibat_A)'
@?ILOAD@		NaN with lines lw 1.2 dt (2,3) lc rgb '#333333' title 'short dash: load (iload_A)'
@?BUDGET@		NaN with lines lw 2.2 dt (14,5) lc rgb '#333333' title 'long dash: budget (budget_A)'
##
##[c] (c) battery

	# (c) battery voltage, SOC on the right axis
@MARGINS@
@KEY@
	set ylabel 'VBAT [V]'; set y2label 'SOC [%]'; set y2tics; set ytics nomirror
	set yrange [@YLO@:@YHI@]
	set y2range [@Y2LO@:@Y2HI@]
@PLOT@
@REPORT@
	unset y2tics; unset y2label
##[c-series]
		TRACE[@RUN@] using (T(column('time_s'))):(column('vbat_V')) with lines lw 1.6 dt @DASH|1@ lc rgb '@C|#009e73@' @NOLEGEND|title 'battery voltage (vbat_V)'@
@?FULL@		TRACE[@RUN@] using (T(column('time_s'))):(100*column('soc')) axes x1y2 with lines lw 1.2 dt 2 lc rgb '@C|#cc79a7@' @NOLEGEND|title 'SOC, right axis (soc)'@
##[c-legend]
		NaN with lines lw 1.2 dt 1 lc rgb '#333333' title 'solid: battery voltage (vbat_V)'
		NaN with lines lw 1.2 dt 2 lc rgb '#333333' title 'dashed: SOC, right axis (soc)'
##
##[d] (d) the state band: @ROWS@ the band rows' names and heights, @STRIP@ the rows
## above them for the event labels, @KEY_Y@ the panel's top

	# (d) state band (STATES) and event labels (EVENTS), time axis labels
@MARGINS@
	NROWS = @NROWS@; PXU = (RM - LM) * W / (XMAX - XMIN)   # pixels per time unit
	LROW = @LROW@   # a line of event labels, in rows
@?EVENTS@	# frequent kinds (main = 2): lines over the event labels only
@?EVENTS@	do for [k=1:NE] { if (EVM[k] == 2) { set arrow k from first T(EVT[k]), first NROWS + 0.5 to first T(EVT[k]), graph 1 nohead back lw 1 lc rgb sprintf('#40%06x', EVC[k]) dt EVDT(k) } }
	set yrange [0.5:NROWS + 0.5 + @STRIP@]
	unset ylabel; set grid noytics
	set ytics scale 0 font ',8' (@ROWS@)
	set format x '%g'; set xlabel sprintf('time [%s]', TUNIT)
	set key at screen @KEY_X@, screen @KEY_Y@ left top Left reverse samplen 1.5 spacing 0.95 font ',8' maxrows @MAXROWS@ noopaque nobox
@PLOT@
@REPORT@
##[d-series] the states and their names, the event labels (when some are placed)
		STATES using (T(($1 + $2) / 2)):($3 + ($6 + $7) / 2):(T(($2 - $1) / 2)):(($7 - $6) / 2):4 with boxxyerror fs solid 1.0 noborder lc rgb variable notitle
		STATES using (T(($1 + $2) / 2)):3:($8 != 0 && (T($2) - T($1)) * PXU > 6 * strlen(strcol(5)) + 6 ? strcol(5) : '') with labels font ',8' tc rgb '#222222' notitle
@?LABELS@		EVENTS using ($6 >= 0 ? T($1) : NaN):(NROWS + 0.5 + LROW * (0.45 + 0.85 * $6)):9:11 with labels left offset char 0.3,0 font ',8' tc rgb variable notitle
##[d-kind-key] one run: an entry per kind of event drawn, in its colour
		NaN with lines lw 2 lc rgb '@RGB@' title '@KIND@'
##[d-stripe-head] several runs: one row per run, the charger state named in it
		NaN with lines lw 1 lc rgb '#ffffff' title 'row: charger state; stripes:'
##[d-stripe-key] a state drawn in a stripe of the rows: @TEXTQ@ "kind: state"
		NaN with lines lw 5 lc rgb '@RGB@' title @TEXTQ@
##[d-legend] several runs: event lines take the run's colour and dash
		NaN with lines lw 1 dt 1 lc rgb '#333333' title 'event lines: run colour,'
		NaN with lines lw 1 dt 2 lc rgb '#333333' title 'dash = run number'
##
##[e] (e) the zoom window: @ZLAB_TOP@ and @ZLAB_SPAN@ place the event labels

	# (e) zoom: VBUS (left), input current and limit (right)
	unset object 1; unset arrow; unset label
@?EVENTS@	do for [k=1:NE] { if (EVZ[k]) { set arrow k from first Z(EVT[k]), graph 0 to first Z(EVT[k]), graph 1 nohead back lw 1 lc rgb sprintf('#40%06x', EVC[k]) dt EVDT(k) } }
@MARGINS@
@KEY@
	set xrange [Z(Z0):Z(Z1)]; set xlabel sprintf('time [%s]', ZUNIT)
	set ytics autofreq nomirror font ',10'; set grid xtics ytics; set y2tics
	set ylabel 'VBUS [V]'; set y2label 'current [A]'
	set title sprintf('zoom: %g to %g s, %s', Z0, Z1, ZREASON) font ',10' offset 0,-0.6
	set yrange [@YLO@:@YHI@]
	set y2range [@Y2LO@:@Y2HI@]
@?LABELS@	ZLAB(l) = @ZLAB_TOP@ - (0.07 + 0.075 * l) * (@ZLAB_SPAN@)
@PLOT@
@REPORT@
	unset title
##[e-series]
		TRACE[@RUN@] using (Z(column('time_s'))):(column('vbus_V')) with lines lw 1.6 dt @DASH|1@ lc rgb '@C|#0072b2@' @LEGEND|title 'VBUS at device (vbus_V)'@
@?FULL@		TRACE[@RUN@] using (Z(column('time_s'))):(column('ibus_A')) axes x1y2 with lines lw 1.2 dt 2 lc rgb '@C|#d55e00@' @NOLEGEND|title 'IBUS, right axis (ibus_A)'@
@?FULL@		TRACE[@RUN@] using (Z(column('time_s'))):(column('ilim_A')) axes x1y2 with lines lw 1.2 dt 3 lc rgb '@C|#555555@' @NOLEGEND|title 'limit, right axis (ilim_A)'@
##[e-legend]
		NaN with lines lw 1.2 dt 1 lc rgb '#333333' title 'solid: VBUS at device (vbus_V)'
		NaN with lines lw 1.2 dt 2 lc rgb '#333333' title 'dashed: IBUS, right axis (ibus_A)'
		NaN with lines lw 1.2 dt 3 lc rgb '#333333' title 'dotted: limit, right axis (ilim_A)'
##[e-labels] the event labels of the zoom (when some are placed)
		EVENTS using ($8 >= 0 ? Z($1) : NaN):(ZLAB($8)):10:12 with labels left offset char 0.3,0 font ',8' tc rgb variable notitle
