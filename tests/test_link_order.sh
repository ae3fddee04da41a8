#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_link_order.sh - the binary's objects are linked in the order
# scripts/link-order.txt gives, and the scripts that make that order do what they say.
#
# scripts/archive-extract.sh and scripts/link-objects.sh on objects made here (the
# order, an unknown name, an option among the objects, the fallback for an archive with
# two members of one name); the link map of the binary given (BIN.map, written by
# every link) against scripts/link-order.txt; scripts/link-order.sh on one run of the
# demo scenario (skipped without valgrind).
# Usage: tests/test_link_order.sh build/chargesim
set -u
. "$(dirname "$0")/lib.sh"
tl_init link-order "${1:-build/chargesim}" scripts/link-order.txt
map=$BIN.map
names() { awk -f scripts/link-names.awk | awk '{ print $1 }'; }

# --- scripts/archive-extract.sh and scripts/link-objects.sh ------------------------
mkdir -p "$TMP/src/x" "$TMP/src/y" "$TMP/obj/m"
for m in a b c; do
	printf 'int f_%s(void) { return 1; }\n' "$m" >"$TMP/src/$m.c"
	cc -c "$TMP/src/$m.c" -o "$TMP/src/$m.o"
done
(cd "$TMP/src" && ar rc libt.a a.o b.o c.o)
scripts/archive-extract.sh "$TMP/src/libt.a" "$TMP/ar/libt.a"
got=$(sed "s|^$TMP/ar/libt.a/||" "$TMP/ar/libt.a/objects" | tr '\n' ' ')
if [ "$got" = "a.o b.o c.o " ] && cmp -s "$TMP/ar/libt.a/c.o" "$TMP/src/c.o"; then
	ok "archive-extract: every member, in the archive's order, as it was archived"
else
	not_ok "archive-extract: expected \"a.o b.o c.o \" and c.o as archived" "found \"$got\""
fi

cp "$TMP/src/a.o" "$TMP/obj/m/one.o"
cp "$TMP/src/b.o" "$TMP/obj/two.o"
printf '# a comment\nlibt.a:c.o\nlibother.a:b.o\nm/one.o\nlibt.a:gone.o\nlibt.a:a.o\n' >"$TMP/list"
# shellcheck disable=SC2046 # the paths have no spaces
got=$(scripts/link-objects.sh "$TMP/list" "$TMP/obj/two.o" -Wl,--opt "$TMP/obj/m/one.o" \
	$(cat "$TMP/ar/libt.a/objects") | names | tr '\n' ' ')
if [ "$got" = "libt.a:c.o m/one.o libt.a:a.o two.o - libt.a:b.o " ]; then
	ok "link-objects: the listed objects first in the list's order, then the rest in theirs"
else
	not_ok "link-objects: expected \"libt.a:c.o m/one.o libt.a:a.o two.o - libt.a:b.o \"" \
		"found \"$got\""
fi

printf 'int g(void) { return 2; }\n' >"$TMP/src/x/a.c"
printf 'int h(void) { return 3; }\n' >"$TMP/src/y/a.c"
cc -c "$TMP/src/x/a.c" -o "$TMP/src/x/a.o"
cc -c "$TMP/src/y/a.c" -o "$TMP/src/y/a.o"
(cd "$TMP/src" && ar qc libd.a x/a.o y/a.o)
scripts/archive-extract.sh "$TMP/src/libd.a" "$TMP/ar/libd.a"
got=$(tr '\n' ' ' <"$TMP/ar/libd.a/objects")
if [ "$got" = "-Wl,--whole-archive $TMP/src/libd.a -Wl,--no-whole-archive " ]; then
	ok "archive-extract: two members of one name: the archive whole, in its own order"
else
	not_ok "archive-extract: two members of one name" "found \"$got\""
fi

# --- the binary's link map ---------------------------------------------------------
# The objects of the .text input sections in address order, named as
# scripts/link-order.txt names them (the C start-up files left out).
if [ ! -f "$map" ]; then
	not_ok "the binary's link map $map is missing"
else
	awk -f scripts/link-map.awk "$map" | awk '{ print $3 }' | names | grep -vx -- - \
		>"$TMP/linked"
	grep -v '^#' scripts/link-order.txt >"$TMP/listed"
	# the listed objects that were linked, in the order they lie in the binary
	awk 'NR == FNR { want[$0] = 1; next } ($0 in want)' "$TMP/listed" "$TMP/linked" >"$TMP/lie"
	awk 'NR == FNR { have[$0] = 1; next } ($0 in have)' "$TMP/linked" "$TMP/listed" >"$TMP/asked"
	nlisted=$(wc -l <"$TMP/lie")
	if [ "$nlisted" -gt 0 ] && cmp -s "$TMP/lie" "$TMP/asked"; then
		ok "the $nlisted listed objects lie in the binary in the list's order"
	else
		not_ok "the listed objects are not in the list's order" \
			"$(diff "$TMP/asked" "$TMP/lie" | head -5)"
	fi
	if [ "$(head -n "$nlisted" "$TMP/linked")" = "$(cat "$TMP/lie")" ]; then
		ok "no unlisted object's code lies before a listed one's"
	else
		not_ok "an unlisted object lies among the listed ones" \
			"$(head -n "$nlisted" "$TMP/linked" | grep -vxF -f "$TMP/lie" | head -3)"
	fi
fi

# --- scripts/link-order.sh ---------------------------------------------------------
if ! command -v valgrind >/dev/null 2>&1; then
	skip "link-order.sh on a run of the demo" "valgrind is not installed"
elif ! BIN=$BIN MAP=$map scripts/link-order.sh scenarios/demo.json >"$TMP/order" 2>"$TMP/order.err"; then
	not_ok "link-order.sh failed" "$(cat "$TMP/order.err")"
else
	# every run goes through the event loop and the world, and `run` without --plot
	# draws nothing
	missing=""
	for o in sim/sim.o sim/queue.o run/world.o output/trace.o; do
		grep -qxF "$o" "$TMP/order" || missing="$missing $o"
	done
	if [ -z "$missing" ] && ! grep -q '^plots/' "$TMP/order" &&
		grep -q '^libglib-2.0.a:' "$TMP/order" && grep -q '^# 1 scenario' "$TMP/order"; then
		ok "link-order.sh lists the loop, the world, the trace and GLib's objects, no plot code"
	else
		not_ok "link-order.sh on the demo" "missing:$missing; $(grep -c . "$TMP/order") lines"
	fi
	if grep -v '^#' "$TMP/order" | grep -qvxF -f "$TMP/linked"; then
		not_ok "link-order.sh names an object the binary does not hold" \
			"$(grep -v '^#' "$TMP/order" | grep -vxF -f "$TMP/linked" | head -3)"
	else
		ok "every object link-order.sh names is one the binary links"
	fi
fi
tl_finish
