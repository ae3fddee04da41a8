#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# coverage-summary.sh BUILD_DIR - line and branch coverage per source directory.
# Uses gcovr when it is installed; otherwise runs gcov on every object and sums its
# "Lines executed" / "Taken at least once" figures per top-level directory.
set -u
b=$1
if command -v gcovr >/dev/null 2>&1; then
	for d in sim models stack cli; do
		printf '%-8s ' "$d"
		gcovr -r . --object-directory "$b/obj" -f "$d/" --branches --print-summary -o /dev/null 2>/dev/null |
			tr '\n' ' '
		echo
	done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for gcda in $(find "$b/obj" -name '*.gcda'); do
	src=${gcda#"$b"/obj/}
	src=${src%.gcda}.c
	(cd "$tmp" && gcov -b -o "$OLDPWD/$(dirname "$gcda")" "$OLDPWD/$src" 2>/dev/null) |
		awk -v f="$src" '
			/^File / { cur = $2; gsub(/\x27/, "", cur) }
			/^Lines executed/ && cur == f { split($0, a, ":"); print f, "lines", a[2] + 0, $NF }
			/^Taken at least once/ && cur == f { split($0, a, ":"); print f, "branches", a[2] + 0, $NF }'
done | awk '
	{ split($1, p, "/"); dir = p[1]; pct = $3 + 0; n = $4 + 0
	  if ($2 == "lines") { lt[dir] += n; lc[dir] += pct * n / 100 }
	  else { bt[dir] += n; bc[dir] += pct * n / 100 } }
	END { for (d in lt) printf "%-8s lines %5.1f %% of %d, branches %5.1f %% of %d\n", d,
	      100 * lc[d] / lt[d], lt[d], bt[d] ? 100 * bc[d] / bt[d] : 0, bt[d] }' | sort
