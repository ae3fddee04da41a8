#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_install.sh - the installed chargesim finds its scenario library, and its
# manual pages, bash completion and scenario JSON Schema are installed.
#
# Usage (from the repository root): tests/test_install.sh build/chargesim
#
# `make install` into a temporary DESTDIR (the build directory of BIN, nothing
# rebuilt when it is up to date), then the installed binary is run from another
# directory: `list scenarios` and `check` without a path use
# PREFIX/share/chargesim/scenarios, CHARGESIM_SCENARIOS overrides it, and a binary with
# no library anywhere says so with exit 2 (it used to print "no scenario directory"
# and exit 0, or an ERROR line naming a missing scenarios/).
set -u

. "$(dirname "$0")/lib.sh"
tl_init install "${1:-build/chargesim}" scenarios/demo.json

BUILD=$(dirname "$BIN")
DEST=$TMP/dest
if ! make -s --no-print-directory install BUILD="$BUILD" DESTDIR="$DEST" PREFIX=/usr/local \
	>"$TMP/install.log" 2>&1; then
	not_ok "make install DESTDIR=... PREFIX=/usr/local" "$(tail -20 "$TMP/install.log")"
	tl_finish
	exit 1
fi
ok "make install DESTDIR=... PREFIX=/usr/local"
LIB=$DEST/usr/local/share/chargesim/scenarios
IBIN=$DEST/usr/local/bin/chargesim
check "the scenario library is installed" test -f "$LIB/demo.json"
check "with its golden traces" test -n "$(find "$LIB" -path '*/golden/*.csv' | head -1)"
want=$("$BIN" check scenarios -q -o "$TMP/o-tree" | tail -n 1)

# the manual pages, the completion and the scenario schema (issue 38)
SHARE=$DEST/usr/local/share
check "chargesim(1) is installed as the tree's" cmp docs/man/chargesim.1 "$SHARE/man/man1/chargesim.1"
check "chargesim-scenario(5) is installed as the tree's" \
	cmp docs/man/chargesim-scenario.5 "$SHARE/man/man5/chargesim-scenario.5"
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man --warnings -M "$SHARE/man" chargesim >"$TMP/man1.txt" 2>"$TMP/man1.err"
	if [ -s "$TMP/man1.txt" ] && [ ! -s "$TMP/man1.err" ] &&
		grep -q 'chargesim run' "$TMP/man1.txt"; then
		ok "man -M PREFIX/share/man chargesim finds and renders the page"
	else
		not_ok "man -M PREFIX/share/man chargesim" "$(cat "$TMP/man1.err")"
	fi
	MANWIDTH=80 man --warnings -M "$SHARE/man" 5 chargesim-scenario >"$TMP/man5.txt" 2>"$TMP/man5.err"
	[ -s "$TMP/man5.txt" ] && [ ! -s "$TMP/man5.err" ] &&
		ok "man -M PREFIX/share/man 5 chargesim-scenario finds and renders the page" ||
		not_ok "man 5 chargesim-scenario" "$(cat "$TMP/man5.err")"
else
	skip "man chargesim from PREFIX/share/man" "man is not installed"
fi
SCHEMA=$SHARE/chargesim/scenario.schema.json
"$IBIN" list schema >"$TMP/schema.json"
check "the installed scenario.schema.json is the tables' (list schema)" cmp "$TMP/schema.json" "$SCHEMA"
check "and the one shipped in docs/" cmp docs/scenario.schema.json "$SCHEMA"
"$IBIN" list --schema >"$TMP/schema2.json"
check "list --schema prints it too" cmp "$TMP/schema2.json" "$SCHEMA"
COMPL=$SHARE/bash-completion/completions/chargesim
if command -v bash >/dev/null 2>&1; then
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" li); COMP_CWORD=1; _chargesim; echo "${COMPREPLY[*]}"' \
		sh "$COMPL" "$IBIN")
	[ "$got" = list ] && ok "the installed completion completes the installed binary (li -> list)" ||
		not_ok "installed completion: li gave \"$got\""
	got=$(bash -c '. "$1"; complete -p chargesim' sh "$COMPL")
	[ "$got" = "complete -F _chargesim chargesim" ] &&
		ok "it registers _chargesim for chargesim" || not_ok "complete -p chargesim: $got"
else
	skip "the installed completion" "bash is not installed"
fi

mkdir "$TMP/elsewhere"
cd "$TMP/elsewhere" || exit 2
BIN=$IBIN   # run() runs $BIN
run list list scenarios
expect_status "installed: list scenarios (no path), from another directory" 0
expect_in "it lists the installed library" out "$LIB/demo.json"
run check check -q -j 2
name=check
expect_status "installed: check (no path), from another directory" 0
expect_in "it checks the whole library" out "$want"
check "its outputs are under out/check here" test -d out/check

mkdir -p "$TMP/mine"
cp "$LIB/demo.json" "$TMP/mine/only.json"
CHARGESIM_SCENARIOS=$TMP/mine "$IBIN" list scenarios >"$TMP/env.out" 2>&1
status=$?
name=env
expect_status "CHARGESIM_SCENARIOS overrides the library" 0
expect_in "it lists that directory" out "$TMP/mine/only.json"
CHARGESIM_SCENARIOS=$TMP/nowhere "$IBIN" check >"$TMP/envbad.out" 2>"$TMP/envbad.err"
status=$?
name=envbad
expect_status "CHARGESIM_SCENARIOS naming no directory" 2
expect_stderr "it says so" "CHARGESIM_SCENARIOS=$TMP/nowhere: no such directory"

# the binary alone, without a library anywhere
mkdir -p "$TMP/bare/bin"
cp "$IBIN" "$TMP/bare/bin/"
"$TMP/bare/bin/chargesim" check >"$TMP/bare.out" 2>"$TMP/bare.err"
status=$?
name=bare
expect_status "check without any scenario library" 2
expect_stderr "it says there is none" "found no scenario library"
"$TMP/bare/bin/chargesim" list scenarios >"$TMP/bare2.out" 2>"$TMP/bare2.err"
status=$?
name=bare2
expect_status "list scenarios without any scenario library" 2
"$TMP/bare/bin/chargesim" list scenarios "$TMP/nowhere" >"$TMP/bare3.out" 2>"$TMP/bare3.err"
status=$?
name=bare3
expect_status "list scenarios of a missing directory" 2
expect_stderr "it names the directory" "$TMP/nowhere: found no such directory"
cd - >/dev/null || exit 2

tl_finish
