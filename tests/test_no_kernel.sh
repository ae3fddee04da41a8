#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_no_kernel.sh - a machine without the kernel tree the real Linux drivers are
# compiled from (another distribution, a Debian 12 without its security suite).
#
# Usage (from the repository root): tests/test_no_kernel.sh
#
# Builds into build/nokernel/ (kept between runs, so a second run is incremental) with
# KERNEL_TARBALL pointing nowhere, and with dpkg-query, apt-cache and apt-get on PATH
# answering as on such a machine: linux-source-6.12 is neither installed nor in the
# package lists, and nothing can be installed. Then `make demo` and `make test` must
# pass, say once how to get the real drivers, and leave the main build's kernel files
# (build/kernel/) alone; the build lists no linux/ policy, and a scenario naming one
# is refused with exit 2 and the same pointer.
set -u

. "$(dirname "$0")/lib.sh"
tl_init no-kernel "${1:-build/chargesim}" docs/linux-drivers.md

B=build/nokernel
fake="$TMP/bin"
mkdir -p "$fake"
# dpkg-query: linux-source-6.12 not installed, every other package as on this machine
real_dpkg_query=$(command -v dpkg-query)
cat >"$fake/dpkg-query" <<SH
#!/bin/sh
for a in "\$@"; do
	[ "\$a" = linux-source-6.12 ] && { echo "dpkg-query: no packages found matching \$a" >&2; exit 1; }
done
exec $real_dpkg_query "\$@"
SH
# apt-cache: the package lists do not hold linux-source-6.12
cat >"$fake/apt-cache" <<'SH'
#!/bin/sh
echo "E: No packages found" >&2
exit 100
SH
# apt-get: nothing can be installed (and no network is used)
cat >"$fake/apt-get" <<'SH'
#!/bin/sh
echo "apt-get (test_no_kernel.sh): not available here" >&2
exit 100
SH
chmod +x "$fake/dpkg-query" "$fake/apt-cache" "$fake/apt-get"

origin_before=$(cat build/kernel/.origin 2>/dev/null || echo none)
mk() {
	PATH="$fake:$PATH" make --no-print-directory -j2 BUILD=$B WERROR="${WERROR:-1}" \
		KERNEL_TARBALL=/nonexistent/linux-source-6.12.tar.xz DEMO_OUT="$TMP/demo" "$@"
}

# ---- make demo ----
mk demo >"$TMP/demo.out" 2>&1
status=$?
if [ $status -eq 0 ]; then
	ok "make demo without the kernel tree"
else
	not_ok "make demo without the kernel tree (exit $status)" "$(tail -20 "$TMP/demo.out")"
fi
check "the demo wrote its outputs and plot" test -s "$TMP/demo/metrics.json" -a -s "$TMP/demo/trace.csv"
n=$(grep -c "make KERNEL_SRC=DIR" "$TMP/demo.out")
check "make demo says once how to get the real drivers (said $n times)" test "$n" -eq 1
check "... naming the package and docs/linux-drivers.md" \
	grep -q "linux-source-6.12 - building without the real Linux drivers (docs/linux-drivers.md)" "$TMP/demo.out"
check "... and the suite it is in" grep -q "bookworm-security" "$TMP/demo.out"

# ---- make test ----
mk test >"$TMP/test.out" 2>&1
status=$?
if [ $status -eq 0 ]; then
	ok "make test without the kernel tree"
else
	not_ok "make test without the kernel tree (exit $status)" "$(tail -20 "$TMP/test.out")"
fi
summary=$(grep -E '^[0-9]+ passed, 0 failed, [0-9]+ skipped \(linux-drivers' "$TMP/test.out")
check "every other suite passed, the driver tests skipped: $summary" test -n "$summary"
n=$(grep -c "make KERNEL_SRC=DIR" "$TMP/test.out")
check "make test says once how to get the real drivers (said $n times)" test "$n" -eq 1

# ---- the build without drivers ----
NK=$(pwd)/$B/chargesim
check "its list of policies has no linux/ policy" sh -c "! '$NK' list policies | grep -q '^linux/'"
"$NK" run scenarios/linux/twl4030-full-battery-driver.json -o "$TMP/nk" -q 2>"$TMP/nk.err"
status=$?
check "a scenario naming linux/twl4030_charger: exit 2 (was $status)" test $status -eq 2
check "... saying the build has no real drivers and where to read how" \
	grep -q "is a real Linux driver and this build has none.*docs/linux-drivers.md" "$TMP/nk.err"
tests/test_linux_drivers.sh "$B/chargesim" >"$TMP/tld.out" 2>&1
status=$?
check "tests/test_linux_drivers.sh passes with its driver checks skipped" \
	sh -c "[ $status -eq 0 ] && grep -q '# SKIP' '$TMP/tld.out'"
check "the main build's kernel files are left alone" \
	test "$(cat build/kernel/.origin 2>/dev/null || echo none)" = "$origin_before"

tl_finish
