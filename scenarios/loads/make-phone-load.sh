#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scenarios/loads/make-phone-load.sh - writes phone-load.csv, the measured-style load
# trace of phone-bursty.json: an hour of a phone in use, as a USB meter logging at 1 Hz
# with its radio bursts caught between samples would show it.
#
# Usage: sh scenarios/loads/make-phone-load.sh >scenarios/loads/phone-load.csv
#
# Deterministic: its own random numbers (the Park-Miller "minimal standard" generator,
# s = 16807 s mod (2^31 - 1), exact in awk's doubles), no awk rand(). The shape, in
# round numbers for a phone (assumed, no one device's figures):
#   idle with the screen off 120 mA, +-20 mA of noise, a sample a second;
#   screen on for 1-5 minutes at a time, 350-500 mA;
#   radio bursts (a push message, a sync) of 0.2-0.6 s at 0.8-1.2 A, about one a
#   minute with the screen off and one every 15 s with it on;
#   a camera session from 40:00 to 41:30 at 1.5 A.
awk 'BEGIN {
	s = 20260407
	print "time_s,current_A"
	screen = 0; screen_end = 0; next_on = 300
	for (t = 0; t < 3600; t++) {
		if (!screen && t >= next_on) {
			screen = 1; screen_end = t + 60 + int(rnd() * 240)
			level = 0.35 + rnd() * 0.15
		} else if (screen && t >= screen_end) {
			screen = 0; next_on = t + 120 + int(rnd() * 600)
		}
		i = screen ? level : 0.12
		if (t >= 2400 && t < 2490)
			i = 1.5
		printf "%d,%.3f\n", t, i + (rnd() - 0.5) * 0.04
		if (rnd() < (screen ? 1 / 15 : 1 / 60)) {
			at = t + 0.1 + int(rnd() * 3) / 10
			len = 0.2 + int(rnd() * 5) / 10
			printf "%.1f,%.3f\n", at, 0.8 + rnd() * 0.4
			printf "%.1f,%.3f\n", at + len, i
		}
	}
}
function rnd() {
	s = (s * 16807) % 2147483647
	return s / 2147483647
}'
