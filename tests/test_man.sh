#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_man.sh - the manual pages say what the binary does (issue 38).
#
# Usage (from the repository root): tests/test_man.sh build/chargesim
#
# docs/man/chargesim.1 must name every command `chargesim --help` lists (a section
# `.SS "chargesim CMD ..."` each), and in that section every option `chargesim CMD
# --help` shows, short and long, and every topic of `list`; so a new command or option
# without its manual entry fails here. Both pages must format without a warning
# (groff -ww, and man --warnings when man is installed). The scenario page's keys are
# checked against the loader's tables by tests/test_docs.c.
set -u
# --help as the C locale prints it (GLib translates its headers)
export LC_ALL=C

. "$(dirname "$0")/lib.sh"
tl_init man "${1:-build/chargesim}" docs/man/chargesim.1

PAGE1=docs/man/chargesim.1
PAGE5=docs/man/chargesim-scenario.5

# The page's text with roff escapes undone: \- is -, font changes go, and the
# alternating-font macros (.B, .BR, .IR ...) become their words.
plain() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(dq/"/g' -e 's/\\e/\\/g' \
		-e 's/^\.[BI][RI]* //' "$1"
}
plain "$PAGE1" >"$TMP/page1.txt"

# section CMD: the lines of CMD's section, from its .SS to the next .SS or .SH
section() {
	awk -v cmd="$1" '
		/^\.S[SH] / { on = index($0, ".SS \"chargesim " cmd " ") == 1 ||
				  $0 == ".SS \"chargesim " cmd "\"" }
		on' "$TMP/page1.txt"
}

# has_word FILE WORD: WORD appears with no letter, digit or - joined to either side
has_word() {
	awk -v w="$2" '
		{
			s = $0
			while ((i = index(s, w)) > 0) {
				b = i > 1 ? substr(s, i - 1, 1) : ""
				a = substr(s, i + length(w), 1)
				if (b !~ /[A-Za-z0-9-]/ && a !~ /[A-Za-z0-9-]/) {
					found = 1
					exit
				}
				s = substr(s, i + 1)
			}
		}
		END { exit !found }' "$1"
}

"$BIN" --help >"$TMP/help.txt" 2>&1
cmds=$(sed -n '/^Commands:/,/^$/p' "$TMP/help.txt" | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
ncmd=$(printf '%s\n' "$cmds" | grep -c .)
if [ "$ncmd" -ge 8 ]; then
	ok "chargesim --help lists $ncmd commands"
else
	not_ok "chargesim --help lists $ncmd commands, expected at least 8" "$(cat "$TMP/help.txt")"
fi

for cmd in $cmds; do
	section "$cmd" >"$TMP/sec-$cmd.txt"
	if [ ! -s "$TMP/sec-$cmd.txt" ]; then
		not_ok "chargesim.1 has a section for \`chargesim $cmd\`" \
			"no line .SS \"chargesim $cmd ...\" in $PAGE1"
		continue
	fi
	"$BIN" "$cmd" --help >"$TMP/help-$cmd.txt" 2>&1
	# "  -o, --output=DIR   ...", "  --plot   ...": the options after "Application Options:"
	opts=$(sed -n '/^Application Options:/,/^$/p' "$TMP/help-$cmd.txt" |
		sed -n 's/^  *\(-[A-Za-z0-9]\), \(--[a-z0-9-]*\).*/\1 \2/p; s/^  *\(--[a-z0-9-]*\).*/\1/p')
	missing=""
	n=0
	for o in $opts; do
		n=$((n + 1))
		has_word "$TMP/sec-$cmd.txt" "$o" || missing="$missing $o"
	done
	# list: its topics, from the usage line "[policies|sources|...|schema]"
	if [ "$cmd" = list ]; then
		topics=$(sed -n 's/^  chargesim list \[OPTION[^]]*\] \[\([a-z|]*\)\].*/\1/p' \
			"$TMP/help-$cmd.txt" | tr '|' ' ')
		[ -n "$topics" ] || missing="$missing (no topics found in list --help)"
		for t in $topics; do
			n=$((n + 1))
			grep -Eq "^\.?(TP|B|BR)? ?$t( |\$)|^$t( |\$)" "$TMP/sec-$cmd.txt" ||
				missing="$missing $t"
		done
	fi
	if [ -z "$missing" ]; then
		ok "chargesim.1, chargesim $cmd: all $n options of --help"
	else
		not_ok "chargesim.1, chargesim $cmd: missing$missing" \
			"chargesim $cmd --help shows them; document each in $PAGE1"
	fi
done

# the exit statuses the binary's --help names
statuses=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$TMP/page1.txt")
missing=""
for s in 0 1 2 3; do
	printf '%s\n' "$statuses" | grep -qx "$s" || missing="$missing $s"
done
if [ -z "$missing" ]; then
	ok "chargesim.1 EXIT STATUS has 0, 1, 2 and 3"
else
	not_ok "chargesim.1 EXIT STATUS lacks$missing"
fi
for h in ENVIRONMENT FILES EXAMPLES; do
	grep -q "^\.SH $h" "$PAGE1" && ok "chargesim.1 has $h" || not_ok "chargesim.1 has $h"
done

for p in "$PAGE1" "$PAGE5"; do
	w=$(groff -ww -z -man "$p" 2>&1)
	if [ -z "$w" ]; then
		ok "groff -ww -man $p: no warnings"
	else
		not_ok "groff -ww -man $p: no warnings" "$w"
	fi
	if command -v man >/dev/null 2>&1; then
		w=$(MANWIDTH=80 man --warnings -l "$p" 2>&1 >"$TMP/rendered")
		if [ -z "$w" ] && [ -s "$TMP/rendered" ]; then
			ok "man --warnings -l $p renders it without warnings"
		else
			not_ok "man --warnings -l $p renders it without warnings" "$w"
		fi
	else
		skip "man --warnings -l $p" "man is not installed"
	fi
done

tl_finish
