#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/kernel-sync.sh FROM KDIR FILE... - bring the build's copies of kernel files
# (KDIR/FILE) to the bytes of FROM/FILE, copying only the files whose bytes differ.
#
# The Makefile runs it at every make: a copy's time stamp then moves exactly when its
# content changed, so objects are rebuilt by content and not by the time stamps of the
# origin (a file restored with `cp -p` or `tar -x` has an older time stamp than the
# object built from the edit; a file only touched has the same bytes). When it copied a
# file it touches KDIR/.extracted, and it rewrites KDIR/.sha256 (sha256 of each copy,
# as sha256sum prints them) only when a hash changed.
set -eu
from=$1
kdir=$2
shift 2
copied=0
mkdir -p "$kdir"
for f in "$@"; do
	if [ ! -f "$from/$f" ]; then
		echo "kernel-sync: $from/$f: no such file (the kernel tree lacks a file the build needs)" >&2
		exit 1
	fi
	if ! cmp -s "$from/$f" "$kdir/$f"; then
		mkdir -p "$kdir/$(dirname "$f")"
		rm -f "$kdir/$f"
		cp "$from/$f" "$kdir/$f"
		chmod u+w "$kdir/$f"
		copied=1
	fi
done
(cd "$kdir" && sha256sum "$@") >"$kdir/.sha256.tmp"
if cmp -s "$kdir/.sha256.tmp" "$kdir/.sha256"; then
	rm -f "$kdir/.sha256.tmp"
else
	mv "$kdir/.sha256.tmp" "$kdir/.sha256"
fi
if [ $copied -eq 1 ] || [ ! -e "$kdir/.extracted" ]; then
	touch "$kdir/.extracted"
fi
