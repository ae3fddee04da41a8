#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_bad_inputs.sh - feed chargesim the bad-input corpus of tests/bad-inputs/.
#
# Usage (from anywhere): tests/test_bad_inputs.sh build/chargesim
#
# tests/bad-inputs/MANIFEST lists the cases, one a line: FILE|COMMAND|EXIT|WORDS (its
# header explains the fields). For each case the runner calls chargesim under
# `timeout 20` with a fresh output directory and checks:
#   - the exit status is EXIT (a timeout, a crash or a signal never is);
#   - stdout+stderr contain every WORDS item (&&-separated; %F is the input path);
#   - stderr has no GLib critical/warning, assertion or sanitizer report;
#   - no .NAME.tmp-* file is left anywhere in the output directory;
#   - no output file (csv, json, jsonl) holds NaN or Inf;
#   - when chargesim exits 2, no trace.csv, events.jsonl or metrics.json was written;
#   - no PWNED-* file appeared (hostile names carry `touch PWNED-N` and $(...)).
# Inputs that git cannot or should not hold are made at run time in a temporary
# directory (the @gen: cases): a 100 MB file, JSON nested 100000 deep, a file with
# mode 000, more events than allowed, a file whose read fails, /dev/zero, FIFOs, file names
# with line breaks, quotes or bytes that are not UTF-8, directories with link loops.
# Cases run concurrently, BAD_INPUTS_JOBS (32) at a time; the report keeps the
# manifest's order:
#   ok - FILE [(COMMAND)]
#   not ok - FILE [(COMMAND)]: expected exit N with "WORDS", got exit M: FIRST LINE
# and ends with "N passed, N failed". Exit status 1 when a case failed, 2 on bad usage.
set -u

BIN=${1:-build/chargesim}
case $BIN in
/*) ;;
*) BIN=$(pwd)/$BIN ;;
esac
if [ ! -x "$BIN" ]; then
	echo "usage: $0 path/to/chargesim" >&2
	exit 2
fi

# Run from the repository root so the paths in messages are tests/bad-inputs/...
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$ROOT" || exit 2
CORPUS=tests/bad-inputs
MANIFEST=$CORPUS/MANIFEST
if [ ! -f "$MANIFEST" ]; then
	echo "$0: $MANIFEST not found" >&2
	exit 2
fi
TIMEOUT=${BAD_INPUTS_TIMEOUT:-20}
JOBS=${BAD_INPUTS_JOBS:-32}    # cases run at once

TMP=$(mktemp -d "${TMPDIR:-/tmp}/chargesim-bad-inputs.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
GEN=$TMP/gen
mkdir "$GEN" "$TMP/res" "$TMP/out" || exit 2

# ---- inputs made at run time ----

# a scenario that loads and runs (the unreadable copies are of it)
VALID=$CORPUS/helpers/valid.json

# gen NAME: create $GEN/NAME. Prints a reason and returns 1 when it cannot be made
# here (its cases are then skipped).
gen() {
	g=$GEN/$1
	case $1 in
	huge.json | huge-sweep.json | huge.csv)
		# 100 MB: sparse where the file system allows, which is all the loaders see
		truncate -s 100M "$g" 2>/dev/null ||
			dd if=/dev/zero of="$g" bs=1048576 count=100 2>/dev/null ||
			{ echo "cannot create a 100 MB file"; return 1; }
		;;
	profile-huge.json)
		# a load profile CSV over its 512 MiB cap (sparse), named by a scenario beside it
		truncate -s 600M "$GEN/profile-huge.csv" 2>/dev/null ||
			{ echo "cannot create a sparse 600 MB file"; return 1; }
		printf '{ "name": "bad", "duration": "10 s", "device": { "load": { "profile": "profile-huge.csv" } } }\n' >"$g"
		;;
	deep-array.json | deep-sweep.json)
		awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' >"$g"
		;;
	deep-object.json)
		awk 'BEGIN { for (i = 0; i < 100000; i++) printf "{\"a\":"; printf "1";
			     for (i = 0; i < 100000; i++) printf "}"; print "" }' >"$g"
		;;
	too-many-events.json)
		awk 'BEGIN { printf "{\"name\": \"bad\", \"duration\": \"10 s\", \"events\": [";
			     for (i = 0; i < 100001; i++) printf "%s{\"at\": 0, \"do\": \"suspend\"}", i ? "," : "";
			     print "]}" }' >"$g"
		;;
	dev-zero.json)
		[ -c /dev/zero ] || { echo "no /dev/zero"; return 1; }
		ln -s /dev/zero "$g"
		;;
	io-error.json)
		# open() succeeds, read() fails with EIO: page 0 of the reader's own memory
		[ -e /proc/self/mem ] || { echo "no /proc/self/mem"; return 1; }
		ln -s /proc/self/mem "$g"
		;;
	unreadable.json | unreadable.csv)
		if [ "$1" = unreadable.csv ]; then
			cp "$CORPUS/helpers/trace-ok.csv" "$g"
		else
			cp "$VALID" "$g"
		fi
		chmod 000 "$g"
		;;
	name-dotdot.json | name-newline.json | name-latin1.json | name-too-long.json | \
	name-tab.json | name-del.json | plot-hostile-name.json | compare-hostile-name.json)
		# a scenario without "name", so its file name names it: the file, with a name a
		# manifest line cannot hold, in the directory $g; $g.path says which
		case $1 in
		*hostile*)
			command -v "${CHARGESIM_GNUPLOT:-gnuplot}" >/dev/null 2>&1 ||
				{ echo "gnuplot is not installed"; return 1; }
			;;
		esac
		mkdir "$g" || return 1
		case $1 in
		name-dotdot.json) f=.. ;;
		name-newline.json) f="a
b" ;;
		name-latin1.json) f=$(printf 'caf\351') ;;
		name-too-long.json) f=$(awk 'BEGIN { while (i++ < 201) printf "n" }') ;;
		name-tab.json) f=$(printf 'a\tb') ;;
		name-del.json) f=$(printf 'a\177b') ;;
		*) f="q'a\"b\`touch PWNED-1\`\$(touch PWNED-2)" ;;
		esac
		grep -v '"name"' "$VALID" >"$g/$f.json" || return 1
		printf '%s' "$g/$f.json" >"$g.path"
		;;
	walk-loops)
		# a scenario among two symbolic link loops and a link to itself
		mkdir -p "$g/sub" && cp "$VALID" "$g/sub/a.json" && ln -s . "$g/loop" &&
			ln -s .. "$g/sub/up" && ln -s a.json "$g/sub/b.json" || return 1
		;;
	walk-dangling)
		mkdir "$g" && ln -s no-such-file.json "$g/b.json" || return 1
		;;
	fifo.json | fifo.csv)
		mkfifo "$g" || { echo "cannot make a FIFO"; return 1; }
		;;
	fifo-in-dir)
		# a FIFO named like a scenario in a checked directory: nothing may wait for a writer
		mkdir "$g" && mkfifo "$g/b.json" ||
			{ echo "cannot make a FIFO"; return 1; }
		;;
	many-keys-dup.json | many-keys-sweep-dup.json)
		# 300000 keys in one object (about 4 MB), the last one given twice: the
		# duplicate check must not be quadratic (pairwise, it took minutes); the
		# sweep's base lies beside it (paths stay inside the sweep file's directory)
		cp "$VALID" "$GEN/many-keys-base.json" || return 1
		awk -v sweep="$([ "$1" = many-keys-sweep-dup.json ] && echo many-keys-base.json)" 'BEGIN {
			if (sweep != "") printf "{\"base\": \"%s\", \"vary\": {", sweep
			else printf "{\"name\": \"keys\", \"extra\": {"
			for (i = 0; i < 300000; i++) printf "\"k%d\": [1], ", i
			print "\"k299999\": [2]}}" }' >"$g"
		;;
	*)
		echo "no generator for @gen:$1"
		return 1
		;;
	esac
}

# Root reads mode-000 files: run those cases as nobody when that works, else skip.
AS_NOBODY=
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1 &&
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --version >/dev/null 2>&1; then
		AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
		chmod 711 "$TMP"
		chmod 755 "$GEN" "$TMP/out"
	fi
fi

# ---- one case ----

# first_line FILE...: the first non-empty line of the first file that has one
first_line() {
	for f in "$@"; do
		l=$(grep -a -m 1 -v '^[[:space:]]*$' "$f" 2>/dev/null)
		if [ -n "$l" ]; then
			printf '%s' "$l" | cut -c 1-300
			return
		fi
	done
	printf '(no output)'
}

# run_case N FILE COMMAND EXIT WORDS: writes the report line to $TMP/res/N
run_case() {
	n=$1 file=$2 cmd=$3 want=$4 words=$5
	res=$TMP/res/$n
	out=$TMP/out/$n
	label=$file
	case $cmd in
	run) ;;
	*) label="$file ($cmd)" ;;
	esac
	pre=
	case $file in
	@gen:*)
		name=${file#@gen:}
		if [ -f "$GEN/.skip-$name" ]; then
			echo "ok - $label # SKIP $(cat "$GEN/.skip-$name")" >"$res"
			return
		fi
		path=$GEN/$name
		[ -f "$GEN/$name.path" ] && path=$(cat "$GEN/$name.path")
		case $name in
		unreadable.*)
			if [ "$(id -u)" = 0 ]; then
				if [ -z "$AS_NOBODY" ]; then
					echo "ok - $label # SKIP running as root, and cannot drop to nobody" >"$res"
					return
				fi
				pre=$AS_NOBODY
			fi
			;;
		esac
		;;
	*) path=$CORPUS/$file ;;
	esac
	mkdir "$out" || { echo "not ok - $label: cannot create $out" >"$res"; return; }
	[ -n "$pre" ] && chmod 777 "$out"

	# argv: SUBCOMMAND FILE OPTIONS... [-o OUT]; @x in OPTIONS is $CORPUS/x
	set -f
	# shellcheck disable=SC2086
	set -- $cmd
	set +f
	sub=$1
	shift
	cnt=$#
	set -- "$@" "$sub" "$path"
	while [ "$cnt" -gt 0 ]; do
		a=$1
		shift
		case $a in
		@*) a=$CORPUS/${a#@} ;;
		esac
		set -- "$@" "$a"
		cnt=$((cnt - 1))
	done
	case $sub in
	run | check | compare | sweep) set -- "$@" -o "$out/o" ;;
	esac

	# shellcheck disable=SC2086
	timeout -k 5 "$TIMEOUT" $pre "$BIN" "$@" >"$out.stdout" 2>"$out.stderr" </dev/null
	got=$?
	cat "$out.stdout" "$out.stderr" >"$out.all"

	problems=
	add() { problems="${problems:+$problems; }$1"; }

	# the status and the words
	missing=
	rest=$words
	while [ -n "$rest" ]; do
		w=${rest%%&&*}
		if [ "$w" = "$rest" ]; then rest=; else rest=${rest#*&&}; fi
		while :; do
			case $w in
			*%F*) w=${w%%"%F"*}$path${w#*"%F"} ;;
			*) break ;;
			esac
		done
		grep -a -F -q -e "$w" "$out.all" || missing="${missing:+$missing, }\"$w\""
	done
	what=$got
	case $got in
	124) what="124 (timed out after $TIMEOUT s)" ;;
	137) what="137 (killed after $TIMEOUT s)" ;;
	13[0-9] | 1[4-9][0-9] | 2[0-9][0-9]) what="$got (signal $((got - 128)))" ;;
	esac
	if [ "$got" != "$want" ] || [ -n "$missing" ]; then
		msg="expected exit $want with \"$words\", got exit $what: $(first_line "$out.stderr" "$out.stdout")"
		if [ "$got" = "$want" ]; then
			msg="$msg (missing $missing)"
		fi
		add "$msg"
	fi

	# the rest of the contract, whatever the status
	if grep -a -q -E 'CRITICAL|GLib-[A-Za-z]*-WARNING|\*\*: |runtime error:|AddressSanitizer|LeakSanitizer|Assertion .* failed' "$out.stderr"; then
		add "stderr reports a critical, assertion or sanitizer error: $(grep -a -m 1 -E 'CRITICAL|WARNING|\*\*: |runtime error:|Sanitizer|Assertion' "$out.stderr" | cut -c 1-200)"
	fi
	if [ -d "$out/o" ]; then
		left=$(find "$out/o" -name '.*.tmp-*' 2>/dev/null | sed "s|^$out/o/||" | head -3 | tr '\n' ' ')
		[ -n "$left" ] && add "left temporary files: $left"
		nan=$(find "$out/o" -type f \( -name '*.csv' -o -name '*.json' -o -name '*.jsonl' \) \
			-exec grep -a -l -i -E '(^|[^a-z0-9_])[-+]?(nan|inf|infinity)([^a-z0-9_]|$)' {} + 2>/dev/null |
			sed "s|^$out/o/||" | head -3 | tr '\n' ' ')
		[ -n "$nan" ] && add "NaN or Inf in outputs: $nan"
		if [ "$got" = 2 ]; then
			partial=$(find "$out/o" -type f \( -name trace.csv -o -name events.jsonl -o -name metrics.json \) 2>/dev/null |
				sed "s|^$out/o/||" | head -3 | tr '\n' ' ')
			[ -n "$partial" ] && add "exit 2 but outputs were written: $partial"
		fi
	fi

	# hostile names carry `touch PWNED-N`: nothing may ever run it
	pwned=$(find "$out" "$GEN" "$ROOT" -maxdepth 3 -name 'PWNED-*' 2>/dev/null | head -3 | tr '\n' ' ')
	[ -n "$pwned" ] && add "a command in a name ran: $pwned"

	if [ -z "$problems" ]; then
		echo "ok - $label" >"$res"
	else
		echo "not ok - $label: $problems" >"$res"
	fi
}

# ---- the manifest ----

n=0
while IFS='|' read -r file cmd want words || [ -n "$file" ]; do
	case $file in
	'' | '#'*) continue ;;
	esac
	n=$((n + 1))
	if [ -z "$cmd" ] || [ -z "$want" ]; then
		echo "not ok - $file: malformed MANIFEST line (want FILE|COMMAND|EXIT|WORDS)" >"$TMP/res/$n"
		continue
	fi
	# generated inputs are made here, one at a time, before their case starts
	case $file in
	@gen:*)
		g=${file#@gen:}
		if [ ! -e "$GEN/$g" ] && [ ! -L "$GEN/$g" ] && [ ! -f "$GEN/.skip-$g" ]; then
			why=$(gen "$g") || echo "$why" >"$GEN/.skip-$g"
		fi
		;;
	esac
	# a rolling pool: case N writes $TMP/res/N when it is done
	while [ $((n - 1 - $(find "$TMP/res" -type f | wc -l))) -ge "$JOBS" ]; do
		sleep 0.1 2>/dev/null || sleep 1
	done
	run_case "$n" "$file" "$cmd" "$want" "$words" &
done <"$MANIFEST"
wait

# every file of the corpus is a case (helpers/ holds the inputs cases refer to)
for f in "$CORPUS"/* "$CORPUS"/.[!.]*; do
	[ -e "$f" ] || continue
	b=${f##*/}
	case $b in
	MANIFEST | README* | helpers) continue ;;
	esac
	if ! cut -d '|' -f 1 "$MANIFEST" | grep -q -F -x -e "$b"; then
		n=$((n + 1))
		echo "not ok - $b: in $CORPUS/ but not in MANIFEST" >"$TMP/res/$n"
	fi
done

passed=0
failed=0
i=1
while [ "$i" -le "$n" ]; do
	if [ -f "$TMP/res/$i" ]; then
		line=$(cat "$TMP/res/$i")
	else
		line="not ok - case $i: no result"
	fi
	echo "$line"
	case $line in
	ok*) passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	i=$((i + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
