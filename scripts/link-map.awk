# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/link-map.awk - the .text input sections of a GNU ld link map (-Map=FILE).
#
# Prints "START SIZE FILE" for each, as the map gives them (START and SIZE in hex,
# FILE the object or "archive(member)" it came from), in the map's order, which is
# the order of their addresses. An input section line starts with one space; a long
# section name puts the rest on the next line. Used by scripts/link-order.sh and
# tests/test_link_order.sh.
/^ \.text[ \t]*$/ { pending = 1; next }
pending && /^[ \t]+0x/ { print $1, $2, $3; pending = 0; next }
{ pending = 0 }
/^ \.text[ \t]+0x/ { print $2, $3, $4 }
