#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_kernel_staleness.sh - the build's copies of kernel files are stale by
# content, not by time stamp (docs/linux-drivers.md, "The build").
#
# Usage (from the repository root, after make): tests/test_kernel_staleness.sh build/chargesim
#
# In a scratch build directory with a scratch kernel tree (KERNEL_SRC, a copy of the
# stock files): a first make compiles twl4030_charger.o; a second compiles nothing; a
# file only touched (a newer or an older time stamp, the same bytes) compiles nothing;
# an edit compiles it again; the original restored with `cp -p` and with `tar -x` (an
# older time stamp than the object) compiles it again, giving the first object byte
# for byte; going back to the tarball with the same bytes compiles nothing, and a
# copy edited by hand in the build directory is put back to the tarball's bytes.
set -u

. "$(dirname "$0")/lib.sh"
tl_init kstale "${1:-build/chargesim}" Makefile

stock=build/kernel-stock
rel=drivers/power/supply/twl4030_charger.c
if [ ! -s "$stock/.sha256" ]; then
	skip "kernel files stale by content" \
		"this build has no real Linux drivers (linux-source-6.12 is not installed)"
	tl_finish
	exit $?
fi

b=$TMP/b
tree=$TMP/tree
obj=$b/obj/kernel/${rel%.c}.o
# the stock tree as extracted (its time stamps are the tarball's, years before now)
mkdir -p "$b/kernel"
cp -a "$stock" "$b/kernel-stock"
cp -p build/kernel/.kfiles "$b/kernel/.kfiles"
cp -a "$stock" "$tree"
chmod -R u+w "$tree"

# mk NAME [VAR=VALUE...]: make the object; compiled=1 when the compiler ran for it
mk() {
	n=$1
	shift
	make --no-print-directory BUILD="$b" "$@" "$obj" >"$TMP/$n.log" 2>&1
	mk_status=$?
	if grep -q -- "-c $b/kernel/$rel " "$TMP/$n.log"; then compiled=1; else compiled=0; fi
}
# compiles WHAT WANT(1|0)
compiles() {
	if [ "$mk_status" -ne 0 ]; then
		not_ok "$1 (make failed)" "$(tail -5 "$TMP/$n.log")"
	elif [ "$compiled" -eq "$2" ]; then
		ok "$1"
	else
		not_ok "$1 (compiled: $compiled, want $2)" "$(cat "$TMP/$n.log")"
	fi
}

mk first KERNEL_SRC="$tree"
compiles "a first make compiles twl4030_charger.o" 1
cp "$obj" "$TMP/stock.o"
mk again KERNEL_SRC="$tree"
compiles "make again: nothing compiled" 0
touch -d '+1 hour' "$tree/$rel"
mk newer KERNEL_SRC="$tree"
compiles "the tree's file touched (a newer time stamp, same bytes): nothing compiled" 0
touch -d '2001-01-01' "$tree/$rel"
mk older KERNEL_SRC="$tree"
compiles "... an older time stamp, same bytes: nothing compiled" 0

sed -i 's/#define\tUSB_MAX_CURRENT\t1700000/#define\tUSB_MAX_CURRENT\t1200000/' "$tree/$rel"
check "the edit took (USB_MAX_CURRENT 1200000)" grep -q 'USB_MAX_CURRENT.1200000' "$tree/$rel"
mk edit KERNEL_SRC="$tree"
compiles "an edit in KERNEL_SRC compiles it again" 1
check "... into another object" sh -c "! cmp -s '$obj' '$TMP/stock.o'"

cp -p "$stock/$rel" "$tree/$rel"
mk cpp KERNEL_SRC="$tree"
compiles "the original restored with cp -p (older than the object): compiled again" 1
same "... the stock object again" "$obj" "$TMP/stock.o"

sed -i 's/USB_MAX_CURRENT\t1700000/USB_MAX_CURRENT\t1200000/' "$tree/$rel"
mk edit2 KERNEL_SRC="$tree"
compiles "edited again: compiled" 1
(cd "$stock" && tar -cf "$TMP/orig.tar" "$rel")
tar -xf "$TMP/orig.tar" -C "$tree"
mk tarx KERNEL_SRC="$tree"
compiles "the original restored with tar -x (its old time stamp kept): compiled again" 1
same "... the stock object again" "$obj" "$TMP/stock.o"
mk tarx2 KERNEL_SRC="$tree"
compiles "make again: nothing compiled" 0

mk tarball
compiles "back to the tarball, whose bytes are the tree's: nothing compiled" 0
sed -i 's/USB_MAX_CURRENT\t1700000/USB_MAX_CURRENT\t1200000/' "$b/kernel/$rel"
mk byhand
compiles "a copy edited by hand in the build directory is put back and compiled" 1
same "... the stock object" "$obj" "$TMP/stock.o"
check "... its bytes are the tarball's" cmp -s "$b/kernel/$rel" "$stock/$rel"

# a header of the tree a driver includes is tracked too (the object's dependency file
# names the object, not the compiler's temporary output)
obj=$b/obj/kernel/drivers/power/supply/charger-manager.o
rel=drivers/power/supply/charger-manager.c
h=include/linux/power/charger-manager.h
mk cm1 KERNEL_SRC="$tree"
compiles "charger-manager.o built" 1
mk cm2 KERNEL_SRC="$tree"
compiles "... once" 0
printf '/* an edit */\n' >>"$tree/$h"
mk cm3 KERNEL_SRC="$tree"
compiles "an edit of $h in KERNEL_SRC compiles charger-manager.o again" 1

# the module list names the same files whichever way the build directory is spelt
# (`make install BUILD=/abs/path`, as tests/test_install.sh runs it, wrote it without
# the headers: the dependency files' relative paths did not match)
cp build/gen/cs_linux_modules.c "$TMP/reg.c"
make --no-print-directory -W scripts/kfiles2c.sh BUILD="$(pwd)/build" \
	"$(pwd)/build/gen/cs_linux_modules.c" >"$TMP/abs.log" 2>&1
same "the module list regenerated with BUILD=$(pwd)/build is the same" \
	"$TMP/reg.c" build/gen/cs_linux_modules.c
check "... and names the tree's header twl4030_charger.c includes" \
	grep -q '"include/linux/devm-helpers.h"' build/gen/cs_linux_modules.c

tl_finish
