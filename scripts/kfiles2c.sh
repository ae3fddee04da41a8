#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/kfiles2c.sh KDIR KEDIR STOCK_SHA256 OBJROOT "SHARED..." DRIVER... - the
# identity of the kernel files each real driver was compiled from, as C for the
# generated module list (build/gen/cs_linux_modules.c; struct cs_kfile in
# chargesim/linux_module.h).
#
# For each DRIVER (drivers/power/supply/DRIVER.c, in cs_linux_modules[] order; a
# DRIVER@edited is the copy in KEDIR from KERNEL_EDITED): the driver file, then the
# kernel files its object included (from the compiler's dependency file under
# OBJROOT/kernel or OBJROOT/kernel-edited), then the build's other kernel .c files
# (SHARED: those a machine loads beside its driver, drivers/extcon/extcon-axp288.c);
# each with the sha256 of the compiled copy (KDIR/.sha256, KEDIR/.sha256)
# and its status against the tarball's list (STOCK_SHA256, empty without a tarball):
# "stock" (the same bytes), "edited" (other bytes) or "not-from-tarball" (the tarball
# was not there to compare with, or lacks the file). Computed when the build runs, so
# nothing reads a file when chargesim runs.
set -eu
kdir=$1
kedir=$2
stock=$3
objroot=$4
shared=$5
shift 5

hash_of() { [ -f "$1" ] && awk -v p="$2" '$2 == p { print $1; exit }' "$1"; }
status_of() {
	s=$(hash_of "$stock" "$1" || :)
	if [ -z "$s" ]; then echo not-from-tarball
	elif [ "$s" = "$2" ]; then echo stock
	else echo edited
	fi
}
kabs=$(cd "$kdir" 2>/dev/null && pwd -P || echo "$kdir")
cwd=$(pwd -P)
# tree_files_of DEPFILE: the files of KDIR a compiler's dependency file names, as paths
# in the tree. Its paths are as make spelt them (relative or absolute): compared as
# absolute paths.
tree_files_of() {
	[ -f "$1" ] || return 0
	tr ' \\' '\n\n' <"$1" | awk -v k="$kabs/" -v c="$cwd/" '
		NF && !/:$/ { p = /^\// ? $0 : c $0
			if (index(p, k) == 1) print substr(p, length(k) + 1) }'
}
sym_of() { echo "$1" | sed 's/@edited$/__edited/' | tr -- '-' '_'; }

echo '/* The kernel files each driver was compiled from (scripts/kfiles2c.sh). */'
for d in "$@"; do
	file=drivers/power/supply/${d%@edited}.c
	dep=$objroot/kernel/${file%.c}.o.d
	own=$kdir
	if [ "$d" != "${d%@edited}" ]; then
		dep=$objroot/kernel-edited/${file%.c}.o.d
		own=$kedir
	fi
	files=$(
		{
			echo "$file"
			tree_files_of "$dep"
			for f in $shared; do
				echo "$f"
				tree_files_of "$objroot/kernel/${f%.c}.o.d"
				tree_files_of "$objroot/kernel/${f%.c}.d"
			done
		} | awk 'NF && !seen[$0]++'
	)
	echo "static const struct cs_kfile *const cs_kfiles_$(sym_of "$d")[] = {"
	for f in $files; do
		if [ "$f" = "$file" ]; then h=$(hash_of "$own/.sha256" "$f" || :)
		else h=$(hash_of "$kdir/.sha256" "$f" || :)
		fi
		if [ -z "$h" ]; then
			echo "kfiles2c: $f ($d): no hash in $own/.sha256 or $kdir/.sha256" >&2
			exit 1
		fi
		echo "	&(const struct cs_kfile){ \"$f\", \"$h\", \"$(status_of "$f" "$h")\" },"
	done
	echo '	NULL,'
	echo '};'
done
echo 'const struct cs_kfile *const *const cs_linux_module_files[] = {'
for d in "$@"; do echo "	cs_kfiles_$(sym_of "$d"),"; done
echo '	NULL,'
echo '};'
