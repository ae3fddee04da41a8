#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/check-debian-chroot.sh - check the README's quick start on a fresh Debian 12
# whose apt sources lack the bookworm-security suite (so linux-source-6.12, the tree
# the real Linux drivers are compiled from, cannot be had; docs/linux-drivers.md):
#
#   1. debootstrap a minimal Debian 12 (bookworm, --variant=minbase) into TARGET, with
#      /etc/apt/sources.list holding only bookworm main and bookworm-updates;
#   2. export this repository's HEAD into TARGET/root/chargesim (git archive: a clean
#      tree, as a new user has it);
#   3. in the chroot, as root: apt-get install make (the one thing the README assumes),
#      then `make demo` and `make test` in /root/chargesim, as the README says;
#
# then prints a summary: the commit, each command's exit status and wall time, the
# lines scripts/install-deps.sh printed about the optional packages, and the test
# summary line. Exit status 0 when both make commands passed.
#
# It needs root (debootstrap, chroot, mounts), debootstrap (installed with apt-get when
# missing) and a reachable Debian mirror, and takes a few minutes and about 2 GB (1.8 GB
# measured), so it is not part of CI or `make test`.
#
# Usage: scripts/check-debian-chroot.sh [--reuse] TARGET [MIRROR]
#   TARGET  a directory that does not exist or is empty (--reuse: a chroot this script
#           made before; debootstrap is skipped and the packages it holds stay)
#   MIRROR  default http://deb.debian.org/debian
# The output of each step is kept in TARGET.logs/.
set -u

reuse=0
if [ "${1:-}" = "--reuse" ]; then
	reuse=1
	shift
fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 [--reuse] TARGET [MIRROR]" >&2
	exit 2
fi
target=$1
mirror=${2:-http://deb.debian.org/debian}
suite=bookworm

if [ "$(id -u)" -ne 0 ]; then
	echo "check-debian-chroot: needs root (debootstrap, chroot, mounts)" >&2
	exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse HEAD) || exit 2
case "$target" in /*) ;; *) target=$(pwd)/$target ;; esac
logs=$target.logs
mkdir -p "$logs" || exit 2

if [ $reuse -eq 0 ] && [ -d "$target" ] && [ -n "$(ls -A "$target")" ]; then
	echo "check-debian-chroot: $target is not empty (remove it, or --reuse a chroot made by this script)" >&2
	exit 2
fi
if [ $reuse -eq 1 ] && [ ! -x "$target/usr/bin/apt-get" ]; then
	echo "check-debian-chroot: --reuse: $target holds no Debian system" >&2
	exit 2
fi

# now: seconds since the epoch, with decimals.
now() { date +%s.%N; }
# elapsed START: seconds since START, one decimal.
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

mounted=""
cleanup() {
	for m in $mounted; do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	mounted=""
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. The system.
if [ $reuse -eq 0 ]; then
	command -v debootstrap >/dev/null 2>&1 ||
		apt-get install -y debootstrap >"$logs/debootstrap-install.log" 2>&1 || {
		echo "check-debian-chroot: cannot install debootstrap (see $logs/debootstrap-install.log)" >&2
		exit 2
	}
	echo "check-debian-chroot: debootstrap --variant=minbase $suite $target $mirror"
	t=$(now)
	debootstrap --variant=minbase "$suite" "$target" "$mirror" >"$logs/debootstrap.log" 2>&1
	rc=$?
	debootstrap_time="$(elapsed "$t") s"
	if [ $rc -ne 0 ]; then
		echo "check-debian-chroot: debootstrap failed ($rc; see $logs/debootstrap.log)" >&2
		exit 2
	fi
else
	debootstrap_time="(reused)"
fi
# Only main and updates: no bookworm-security.
printf 'deb %s %s main\ndeb %s %s-updates main\n' "$mirror" "$suite" "$mirror" "$suite" \
	>"$target/etc/apt/sources.list"
rm -f "$target"/etc/apt/sources.list.d/*
cp /etc/resolv.conf "$target/etc/resolv.conf" 2>/dev/null
for m in proc sys dev dev/pts; do
	mkdir -p "$target/$m"
	case $m in
	proc) mount -t proc proc "$target/proc" ;;
	sys) mount -t sysfs sysfs "$target/sys" ;;
	dev) mount --bind /dev "$target/dev" ;;
	dev/pts) mount -t devpts devpts "$target/dev/pts" ;;
	esac || { echo "check-debian-chroot: cannot mount $target/$m" >&2; exit 2; }
	mounted="$target/$m $mounted"
done

# 2. The tree.
rm -rf "$target/root/chargesim"
git -C "$repo" archive --prefix=chargesim/ "$commit" | tar -x -C "$target/root/" || exit 2

# in_chroot CMD: run CMD with sh in the chroot, as a login would (clean environment).
in_chroot() {
	chroot "$target" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c "$1"
}

# 3. The quick start. make first: the README's commands assume it, a minbase system
# (and a default Debian install) lacks it.
t=$(now)
in_chroot 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends make' \
	>"$logs/make-install.log" 2>&1
make_install_rc=$?
make_install_time=$(elapsed "$t")

t=$(now)
in_chroot 'cd /root/chargesim && make demo' >"$logs/make-demo.log" 2>&1
demo_rc=$?
demo_time=$(elapsed "$t")

if [ $demo_rc -eq 0 ]; then
	t=$(now)
	in_chroot 'cd /root/chargesim && make test' >"$logs/make-test.log" 2>&1
	test_rc=$?
	test_time=$(elapsed "$t")
else
	test_rc="(not run)"
	test_time="-"
	: >"$logs/make-test.log"
fi
cleanup

echo "check-debian-chroot: $suite minbase at $target, sources: $mirror $suite main, $suite-updates main (no $suite-security)"
echo "  commit:                 $commit"
echo "  debootstrap:            $debootstrap_time"
echo "  apt-get install make:   exit $make_install_rc, ${make_install_time} s"
echo "  make demo:              exit $demo_rc, ${demo_time} s"
echo "  make test:              exit $test_rc, ${test_time} s"
echo "  optional packages (make demo):"
grep -A1 '^chargesim: optional package missing' "$logs/make-demo.log" | grep -v '^--$' | sed 's/^/    /'
echo "  optional packages (make test):"
grep -A1 '^chargesim: optional package missing' "$logs/make-test.log" | grep -v '^--$' | sed 's/^/    /'
echo "  test summary:"
grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/make-test.log" | sed 's/^/    /'
echo "  logs: $logs/"
[ "$demo_rc" = 0 ] && [ "$test_rc" = 0 ]
