#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_install.sh - the installed chargesim finds its scenario library.
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
