#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# install-deps.sh - make sure the Debian 12 packages chargesim builds with are present.
#
# Checks each package with dpkg-query and installs only the missing ones. As root it
# runs apt-get; as anyone else it prints the exact command to run and exits 1, so that
# `make demo` / `make test` stop with a clear instruction instead of a compiler error.
# linux-source-6.12 (the kernel tree the real Linux drivers are compiled from, see
# docs/linux-drivers.md) and chromium (the browser tests/test_report.sh renders
# report.html in) are optional: installed with the others when possible; without them,
# not root or where apt-get cannot install them, the build goes on without the real
# drivers and the tests say what they skipped and why.
# Usage: scripts/install-deps.sh [--check]   (--check: only report, never install)
set -u

PACKAGES="build-essential pkg-config libglib2.0-dev libcsv-dev libcjson-dev libcunit1-dev gnuplot-nox linux-source-6.12 chromium"
OPTIONAL="linux-source-6.12 chromium"

# What goes without an optional package.
without() {
	case $1 in
	linux-source-6.12) echo "building without the real Linux drivers (docs/linux-drivers.md)" ;;
	chromium) echo "tests/test_report.sh skips its browser checks (docs/report.md)" ;;
	esac
}

# How to have it.
how_to_get() {
	case $1 in
	linux-source-6.12)
		echo "(to have them: sudo apt-get install -y linux-source-6.12, which Debian 12 has in its" \
			"bookworm-security suite; or any Linux 6.12 tree: make KERNEL_SRC=DIR)" ;;
	*) echo "(sudo apt-get install -y $1 to have it)" ;;
	esac
}

# say_optional PKG...: one line each on what goes without it, and how to have it.
say_optional() {
	for p in "$@"; do
		echo "chargesim: optional package missing: $p - $(without "$p")" >&2
		echo "    $(how_to_get "$p")" >&2
	done
}

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

# Only optional packages missing, and no way to install them: say so and go on.
required=""
optional=""
for p in $missing; do
	case " $OPTIONAL " in
	*" $p "*) optional="$optional $p" ;;
	*) required="$required $p" ;;
	esac
done
if [ -z "$required" ] && { [ "${1:-}" = "--check" ] || [ "$(id -u)" -ne 0 ]; }; then
	# shellcheck disable=SC2086
	say_optional $optional
	exit 0
fi

if [ "${1:-}" = "--check" ]; then
	echo "chargesim: missing Debian packages:$missing" >&2
	exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "chargesim: these Debian packages are needed to build:$missing" >&2
	echo "Install them with:" >&2
	echo "    sudo apt-get install -y$missing" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# apt_install PKG...: install, refreshing the package lists once when that fails (a
# fresh machine may have empty ones).
apt_install() {
	apt-get install -y --no-install-recommends "$@" ||
		{ apt-get update && apt-get install -y --no-install-recommends "$@"; }
}
if [ -n "$required" ]; then
	echo "chargesim: installing missing Debian packages:$required"
	# shellcheck disable=SC2086
	if ! apt_install $required; then
		echo "chargesim: apt-get could not install:$required" >&2
		exit 1
	fi
fi
# The optional ones one by one: one that cannot be had costs only what it is for. One
# the package lists do not hold (another release, a Debian 12 without its security
# suite) is not tried at all, so that each make demo / make test does not go to the
# network again for it.
for p in $optional; do
	if apt-cache show "$p" >/dev/null 2>&1; then
		echo "chargesim: installing the optional Debian package $p"
		apt_install "$p" || say_optional "$p"
	else
		say_optional "$p"
	fi
done
exit 0
