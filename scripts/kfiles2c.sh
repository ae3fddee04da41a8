#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/kfiles2c.sh KDIR STOCK_SHA256 OBJDIR "SHARED..." DRIVER... - the identity of
# the kernel files each real driver was compiled from, as C for the generated module
# list (build/gen/cs_linux_modules.c; struct cs_kfile in chargesim/linux_module.h).
#
# For each DRIVER (drivers/power/supply/DRIVER.c, in cs_linux_modules[] order): the
# driver file, then the kernel files its object included (from the compiler's
# dependency file OBJDIR/drivers/power/supply/DRIVER.o.d), then the SHARED kernel files
# every driver runs with; each with the sha256 of the compiled copy (KDIR/.sha256) and
# its status against the tarball's list (STOCK_SHA256, empty without a tarball):
# "stock" (the same bytes), "edited" (other bytes) or "not-from-tarball" (the tarball
# was not there to compare with, or lacks the file). Computed when the build runs, so
# nothing reads a file when chargesim runs.
set -eu
kdir=$1
stock=$2
objdir=$3
shared=$4
shift 4

hash_of() { awk -v p="$2" '$2 == p { print $1; exit }' "$1"; }
status_of() {
	s=$(hash_of "$stock" "$1")
	if [ -z "$s" ]; then echo not-from-tarball
	elif [ "$s" = "$2" ]; then echo stock
	else echo edited
	fi
}

echo '/* The kernel files each driver was compiled from (scripts/kfiles2c.sh). */'
for d in "$@"; do
	sym=$(echo "$d" | tr -- '-' '_')
	files=$(
		{
			echo "drivers/power/supply/$d.c"
			if [ -f "$objdir/drivers/power/supply/$d.o.d" ]; then
				tr ' \\' '\n\n' <"$objdir/drivers/power/supply/$d.o.d" |
					sed -n "s|^$kdir/\\(.*[^:]\\)\$|\\1|p"
			fi
			for f in $shared; do echo "$f"; done
		} | awk 'NF && !seen[$0]++'
	)
	echo "static const struct cs_kfile *const cs_kfiles_$sym[] = {"
	for f in $files; do
		h=$(hash_of "$kdir/.sha256" "$f")
		if [ -z "$h" ]; then
			echo "kfiles2c: $kdir/$f: not in $kdir/.sha256" >&2
			exit 1
		fi
		echo "	&(const struct cs_kfile){ \"$f\", \"$h\", \"$(status_of "$f" "$h")\" },"
	done
	echo '	NULL,'
	echo '};'
done
echo 'const struct cs_kfile *const *const cs_linux_module_files[] = {'
for d in "$@"; do echo "	cs_kfiles_$(echo "$d" | tr -- '-' '_'),"; done
echo '	NULL,'
echo '};'
