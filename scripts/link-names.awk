# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/link-names.awk - the name scripts/link-order.txt gives an object file.
#
# Reads one path per line, as a link map or a link command names an object, and prints
# "NAME PATH": one of the build's own objects "build/obj/output/trace.o" is "output/trace.o";
# an archive member "DIR/libcsv.a(libcsv.o)", or one taken out of its archive by
# scripts/archive-extract.sh ("build/ar/libglib-2.0.a/gstring.c.o"), is "libcsv.a:libcsv.o"
# and "libglib-2.0.a:gstring.c.o". Anything else (the C start-up files, an option) is
# named "-". Used by scripts/link-order.sh, scripts/link-objects.sh and the tests.
match($0, /\(.*\)$/) {
	a = substr($0, 1, RSTART - 1)
	sub(/.*\//, "", a)
	print a ":" substr($0, RSTART + 1, RLENGTH - 2), $0
	next
}
match($0, /\/ar\/[^\/]+\.a\/[^\/]+$/) {
	f = substr($0, RSTART + 4)
	sub(/\//, ":", f)
	print f, $0
	next
}
match($0, /(^|\/)obj\//) {
	print substr($0, RSTART + RLENGTH), $0
	next
}
{ print "-", $0 }
