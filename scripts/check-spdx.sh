#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/check-spdx.sh - every tracked source file (C, headers, shell scripts, the
# Makefile, CI) carries the project's licence identifier (LICENSE: GPL-2.0-or-later)
# in its first lines. Exit 1 and the files without it.
set -eu
cd "${1:-.}"
missing=$(git ls-files '*.c' '*.h' '*.sh' Makefile .ci/run | while IFS= read -r f; do
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later' || echo "$f"
done)
if [ -n "$missing" ]; then
	echo "$missing"
	echo "check-spdx: these files lack 'SPDX-License-Identifier: GPL-2.0-or-later' in their first 3 lines"
	exit 1
fi
echo "check-spdx: every source file names its licence"
