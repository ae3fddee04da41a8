#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_completion.sh - the bash completion (cli/completion.bash, installed as
# PREFIX/share/bash-completion/completions/chargesim) completes what the binary takes.
#
# Usage (from the repository root): tests/test_completion.sh build/chargesim
#
# Each case sources the file in a fresh bash, sets COMP_WORDS and COMP_CWORD as bash
# does for the line typed (the binary's path as the first word), calls _chargesim and
# compares COMPREPLY with what the binary itself lists: its commands (--help), a
# command's options (COMMAND --help), the policies (list policies), list's topics;
# scenario files (*.json, and directories) in a scratch directory.
set -u
# --help as the C locale prints it (GLib translates its headers)
export LC_ALL=C

. "$(dirname "$0")/lib.sh"
tl_init completion "${1:-build/chargesim}" cli/completion.bash
COMP=$(pwd)/cli/completion.bash

if ! command -v bash >/dev/null 2>&1; then
	skip "bash completion" "bash is not installed"
	tl_finish
	exit
fi

# complete WORD...: the completions of the line "BIN WORD..." with the cursor in the
# last word (give "" to complete a new word), sorted, one per line
complete_line() {
	bash -c '
		. "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_chargesim
		printf "%s\n" "${COMPREPLY[@]}" | sort -u | sed "/^\$/d"
	' sh "$COMP" "$BIN" "$@"
}

# expect_set WHAT WANT-FILE GOT-FILE: the same sets of lines
expect_set() {
	if diff "$2" "$3" >"$TMP/d" 2>&1; then
		ok "$1"
	else
		not_ok "$1" "$(cat "$TMP/d")"
	fi
}

# the binary's own lists, read independently of the completion's sed
"$BIN" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { on = 0 } on { print $1 }' |
	sort >"$TMP/cmds"
"$BIN" list policies | grep -E '^[^ ]+ - ' | cut -d' ' -f1 | sort >"$TMP/pols"
[ "$(wc -l <"$TMP/cmds")" -ge 8 ] && [ "$(wc -l <"$TMP/pols")" -ge 8 ] &&
	ok "the binary lists $(wc -l <"$TMP/cmds") commands and $(wc -l <"$TMP/pols") policies" ||
	not_ok "the binary's lists" "$(cat "$TMP/cmds" "$TMP/pols")"

complete_line "" >"$TMP/got"
expect_set "chargesim <TAB>: every command" "$TMP/cmds" "$TMP/got"
complete_line ru >"$TMP/got"
echo run >"$TMP/want"
expect_set "chargesim ru<TAB>: run" "$TMP/want" "$TMP/got"

for cmd in $(cat "$TMP/cmds"); do
	{
		"$BIN" "$cmd" --help | awk '/^Application Options:/ { on = 1; next }
			on && NF == 0 { on = 0 }
			on { o = $1 ~ /^-[^-],$/ ? $2 : $1; if (o ~ /^--/) { sub(/=.*/, "", o); print o } }'
		echo --help
	} | sort -u >"$TMP/want"
	complete_line "$cmd" -- >"$TMP/got"
	expect_set "chargesim $cmd --<TAB>: the options of $cmd --help" "$TMP/want" "$TMP/got"
done

mkdir "$TMP/empty"
(cd "$TMP/empty" && complete_line run x.json --policy "") >"$TMP/got"
expect_set "run --policy <TAB>: every policy of list policies" "$TMP/pols" "$TMP/got"
complete_line compare x.json --policy saf >"$TMP/got"
echo safe-ramp >"$TMP/want"
expect_set "compare --policy saf<TAB>: safe-ramp" "$TMP/want" "$TMP/got"
complete_line run --policy = saf >"$TMP/got"
expect_set "run --policy=saf<TAB> (= a word of its own): safe-ramp" "$TMP/want" "$TMP/got"
complete_line run --policy=saf >"$TMP/got"
echo --policy=safe-ramp >"$TMP/want2"
expect_set "run --policy=saf<TAB> (one word): --policy=safe-ramp" "$TMP/want2" "$TMP/got"
complete_line list policies linux/b >"$TMP/got"
grep '^linux/b' "$TMP/pols" >"$TMP/want"
expect_set "list policies linux/b<TAB>: the drivers of this build" "$TMP/want" "$TMP/got"

"$BIN" list --help | sed -n 's/.*chargesim list \[OPTION[^]]*\] \[\([a-z|]*\)\].*/\1/p' |
	tr '|' '\n' | sort >"$TMP/want"
complete_line list "" >"$TMP/got"
[ "$(wc -l <"$TMP/want")" -ge 6 ] && expect_set "list <TAB>: every topic" "$TMP/want" "$TMP/got" ||
	not_ok "list --help names its topics" "$(cat "$TMP/want")"

# files: scenarios where a scenario goes, directories for -o, traces for diff
mkdir -p "$TMP/w/sub" "$TMP/w/out"
: >"$TMP/w/a.json"
: >"$TMP/w/b.json"
: >"$TMP/w/notes.txt"
: >"$TMP/w/t.csv"
: >"$TMP/w/my.so"
cd "$TMP/w" || exit 2
complete_line run "" >"$TMP/got"
printf 'a.json\nb.json\nout\nsub\n' >"$TMP/want"
expect_set "run <TAB>: the *.json files and directories" "$TMP/want" "$TMP/got"
complete_line check -j 2 "" >"$TMP/got"
expect_set "check -j 2 <TAB>: the value of -j is no command word" "$TMP/want" "$TMP/got"
complete_line run a.json -o "" >"$TMP/got"
printf 'out\nsub\n' >"$TMP/want"
expect_set "run a.json -o <TAB>: directories only" "$TMP/want" "$TMP/got"
complete_line diff "" >"$TMP/got"
printf 'out\nsub\nt.csv\n' >"$TMP/want"
expect_set "diff <TAB>: the *.csv files and directories" "$TMP/want" "$TMP/got"
complete_line run a.json --policy m >"$TMP/got"
echo my.so >"$TMP/want"
expect_set "run --policy m<TAB>: a plugin file" "$TMP/want" "$TMP/got"
complete_line run a.json --set "" >"$TMP/got"
: >"$TMP/want"
expect_set "run --set <TAB>: nothing (a PATH=VALUE is typed)" "$TMP/want" "$TMP/got"
cd - >/dev/null || exit 2

tl_finish
