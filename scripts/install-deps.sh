#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# install-deps.sh - make sure the Debian 12 packages chargesim builds with are present.
#
# Checks each package with dpkg-query and installs only the missing ones. As root it
# runs apt-get; as anyone else it prints the exact command to run and exits 1, so that
# `make demo` / `make test` stop with a clear instruction instead of a compiler error.
# linux-source-6.12 (the kernel tree the real Linux drivers are compiled from, see
# docs/linux-drivers.md) is installed with the others; without it, and not root, the
# build goes on without those drivers and the tests say what they skipped.
# Usage: scripts/install-deps.sh [--check]   (--check: only report, never install)
set -u

PACKAGES="build-essential pkg-config libglib2.0-dev libcsv-dev libcjson-dev libcunit1-dev gnuplot-nox linux-source-6.12"
OPTIONAL="linux-source-6.12"

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
for p in $missing; do
	case " $OPTIONAL " in
	*" $p "*) ;;
	*) required="$required $p" ;;
	esac
done
if [ -z "$required" ] && { [ "${1:-}" = "--check" ] || [ "$(id -u)" -ne 0 ]; }; then
	echo "chargesim: optional package missing:$missing - building without the real Linux drivers" >&2
	echo "    (sudo apt-get install -y$missing to build them; docs/linux-drivers.md)" >&2
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

echo "chargesim: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends $missing; then
	# A fresh machine may have empty package lists: refresh once and retry.
	apt-get update && apt-get install -y --no-install-recommends $missing || {
		echo "chargesim: apt-get could not install:$missing" >&2
		exit 1
	}
fi
