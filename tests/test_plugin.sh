#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_plugin.sh - the policy SDK from a clean install prefix.
#
# Installs chargesim into a fresh prefix, builds docs/policy-sdk/template_policy.c
# against the installed headers with exactly the command the docs give, runs it from
# a scenario, and checks the errors for a plugin that does not load, lacks its entry
# symbol or carries the wrong ABI version (ABI 2, the one before probe got its
# descriptor, among them). Then the trust boundary (docs/policy-sdk.md, "Plugins are
# code"): a plugin a scenario or sweep file names is refused unless it lies under an
# --allow-plugins directory, by every route (relative path, no suffix, a link out of
# the allowed directory, a FIFO, sweep --show, check of a directory), and its
# constructor never runs. Usage: tests/test_plugin.sh (repo root).
set -u
. "$(dirname "$0")/lib.sh"
bad() { not_ok "$*"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
make install PREFIX="$prefix" >/dev/null 2>&1 || { echo "not ok - make install"; exit 1; }
ok "make install PREFIX=$prefix"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cs="$prefix/bin/chargesim"

if cc -shared -fPIC $(pkg-config --cflags chargesim) docs/policy-sdk/template_policy.c \
	-o "$tmp/template.so" 2>"$tmp/cc.err"; then
	ok "template builds with pkg-config --cflags chargesim"
else
	bad "template build failed: $(cat "$tmp/cc.err")"
fi

cat >"$tmp/plug.json" <<JSON
{ "name": "plugin-test", "duration": "1 min",
  "source": { "kind": "dcp", "ilim": "2 A" },
  "policy": { "plugin": "template.so", "params": { "limit": "900 mA" } },
  "expect": [ { "metric": "ilim_max_A", "==": "0.9 A" } ] }
JSON
if "$cs" run "$tmp/plug.json" -o "$tmp/out" -q --allow-plugins "$tmp"; then
	ok "a scenario runs the plugin (relative path resolved against the scenario)"
else
	bad "plugin run exited $?"
fi
grep -q '"request_mA":900' "$tmp/out/events.jsonl" && ok "the plugin set 900 mA" || bad "no 900 mA ilim_set"
# docs/policy-sdk.md section 3 quotes this run's summary (the block after the one that
# runs plug.json): it must be what the run prints, the wall-clock figures aside
(cd "$tmp" && "$cs" run plug.json --allow-plugins . >sum.out 2>&1)
awk '/^```/ { if (!code && prev) grab = 1; else if (code && grab) exit; code = !code; next }
	code && /chargesim run plug\.json --allow-plugins \.$/ { prev = 1 }
	code && grab' docs/policy-sdk.md >"$tmp/sum.doc"
mask() { sed 's/ simulated in [^)]*real time)/ simulated in (time)/' "$1"; }
if [ -s "$tmp/sum.doc" ] && [ "$(mask "$tmp/sum.doc")" = "$(mask "$tmp/sum.out")" ]; then
	ok "docs/policy-sdk.md section 3 quotes the plugin run's summary as it prints"
else
	bad "docs/policy-sdk.md section 3's summary differs: $(diff "$tmp/sum.doc" "$tmp/sum.out")"
fi

# compare and run take a plugin file for --policy (issue 16): the same file as the
# scenario's plugin gets the scenario's params (900 mA), a copy under another name runs
# with the template's default limit (1.5 A on a DCP, template_policy.c), a built-in
# beside them; each run lands in DIR/<file name without .so>/.
cp "$tmp/template.so" "$tmp/other.so"
if (cd "$tmp" && "$cs" compare plug.json --policy ./template.so --policy other.so \
	--policy fixed -o cmp -q >cmp.out 2>cmp.err); then
	ok "compare --policy ./template.so --policy other.so --policy fixed"
else
	bad "compare with plugins exited $?: $(cat "$tmp/cmp.err")"
fi
metric() { sed -n "s/^[[:space:]]*\"$2\":[[:space:]]*\([^,]*\),\{0,1\}\$/\1/p" "$1"; }
[ "$(metric "$tmp/cmp/template/metrics.json" ilim_max_A)" = 0.9 ] &&
	ok "compare: the scenario's own plugin ran with its params (0.9 A)" ||
	bad "compare: template ilim_max_A $(metric "$tmp/cmp/template/metrics.json" ilim_max_A), want 0.9"
[ "$(metric "$tmp/cmp/other/metrics.json" ilim_max_A)" = 1.5 ] &&
	ok "compare: a plugin given by file name alone ran with its defaults (1.5 A)" ||
	bad "compare: other ilim_max_A $(metric "$tmp/cmp/other/metrics.json" ilim_max_A), want 1.5"
[ "$(metric "$tmp/cmp/fixed/metrics.json" policy)" = '"fixed"' ] &&
	ok "compare: the built-in ran beside the plugins" || bad "compare: no fixed run"
grep -q '^metric  *template  *other  *fixed$' "$tmp/cmp.out" &&
	ok "compare: the table names the plugins by file name" || bad "compare table: $(head -1 "$tmp/cmp.out")"
(cd "$tmp" && "$cs" compare plug.json --policy ./template.so --policy "$tmp/template.so" \
	-o cmp2 -q >/dev/null 2>cmp2.err); rc=$?
[ $rc -eq 2 ] && grep -q 'would both write to' "$tmp/cmp2.err" &&
	ok "compare: two policies with one directory name: exit 2" || bad "compare duplicate: rc $rc $(cat "$tmp/cmp2.err")"
# (its expectation of 0.9 A is the scenario's plugin's, so it fails: exit 1)
"$cs" run "$tmp/plug.json" --policy "$tmp/other.so" -o "$tmp/o-run" -q 2>/dev/null; rc=$?
if [ $rc -eq 1 ] && [ "$(metric "$tmp/o-run/metrics.json" ilim_max_A)" = 1.5 ]; then
	ok "run --policy FILE.so runs the plugin"
else
	bad "run --policy FILE.so: $(cat "$tmp/o-run/metrics.json" 2>&1)"
fi

# A plugin parameter that does not exist is an input error.
sed 's/"limit"/"limt"/' "$tmp/plug.json" >"$tmp/badparam.json"
"$cs" run "$tmp/badparam.json" -o "$tmp/o2" -q --allow-plugins "$tmp" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'did you mean "limit"' "$tmp/err" && ok "unknown plugin parameter: exit 2, did you mean" || bad "unknown plugin parameter: rc $rc $(cat "$tmp/err")"

# Missing file.
sed 's/template.so/missing.so/' "$tmp/plug.json" >"$tmp/missing.json"
"$cs" run "$tmp/missing.json" -o "$tmp/o3" -q --allow-plugins "$tmp" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'cannot load' "$tmp/err" && ok "missing plugin: exit 2, cannot load" || bad "missing plugin: rc $rc $(cat "$tmp/err")"

# No entry symbol.
echo 'int not_a_policy = 1;' >"$tmp/nosym.c"
cc -shared -fPIC "$tmp/nosym.c" -o "$tmp/nosym.so"
sed 's/template.so/nosym.so/' "$tmp/plug.json" >"$tmp/nosym.json"
"$cs" run "$tmp/nosym.json" -o "$tmp/o4" -q --allow-plugins "$tmp" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'has no symbol "chargesim_policy"' "$tmp/err" && ok "no entry symbol: exit 2" || bad "no entry symbol: rc $rc $(cat "$tmp/err")"

# Wrong ABI version.
cat >"$tmp/abi.c" <<'C'
#include <chargesim/policy.h>
const struct cs_policy_desc chargesim_policy = { .abi = CS_POLICY_ABI + 41, .name = "old" };
C
cc -shared -fPIC $(pkg-config --cflags chargesim) "$tmp/abi.c" -o "$tmp/abi.so"
sed 's/template.so/abi.so/' "$tmp/plug.json" >"$tmp/abi.json"
"$cs" run "$tmp/abi.json" -o "$tmp/o5" -q --allow-plugins "$tmp" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'ABI' "$tmp/err" && ok "wrong ABI: exit 2" || bad "wrong ABI: rc $rc $(cat "$tmp/err")"

# A plugin built for ABI 2 (probe without its descriptor) is refused before any of
# its functions is called, with both ABI numbers and the files named.
cat >"$tmp/abi2.c" <<'C'
#include <chargesim/policy.h>
static int old_probe(struct cs_board *board, void *params, void **priv)
{
	(void)board; (void)params; *priv = 0;
	return 0;
}
const struct cs_policy_desc chargesim_policy = { .abi = 2, .name = "abi2", .probe = (void *)old_probe };
C
cc -shared -fPIC $(pkg-config --cflags chargesim) "$tmp/abi2.c" -o "$tmp/abi2.so"
sed 's/template.so/abi2.so/' "$tmp/plug.json" >"$tmp/abi2.json"
(cd "$tmp" && "$cs" run abi2.json -o o7 -q --allow-plugins . 2>abi2.err); rc=$?
want='abi2.json: policy.plugin: "./abi2.so" was built for policy ABI 2, expected ABI 3 (rebuild it against this chargesim)'
[ $rc -eq 2 ] && grep -qF "$want" "$tmp/abi2.err" && [ ! -e "$tmp/o7/metrics.json" ] &&
	ok "an ABI 2 plugin: exit 2, both ABIs and the files named, no outputs" ||
	bad "ABI 2 plugin: rc $rc $(cat "$tmp/abi2.err")"

# Not a shared object at all.
echo "garbage" >"$tmp/junk.so"
sed 's/template.so/junk.so/' "$tmp/plug.json" >"$tmp/junk.json"
"$cs" run "$tmp/junk.json" -o "$tmp/o6" -q --allow-plugins "$tmp" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok "not a shared object: exit 2" || bad "junk plugin: rc $rc"

# list policies FILE.so (issue 38): a file named on the command line is the user's own
# choice, as with run --policy FILE.so, so it is loaded and its parameters listed with
# the defaults of docs/policy-sdk/template_policy.c (limit 1.5 A, vbus_min 4.6 V);
# NAME lists one built-in; a file that is no plugin, or of another ABI, is exit 2.
(cd "$tmp" && "$cs" list policies ./template.so fixed >lp.out 2>lp.err); rc=$?
if [ $rc -eq 0 ] && grep -q '^template (plugin ./template.so) - ' "$tmp/lp.out" &&
	grep -Eq '^    limit +1\.5 A +input limit on a dedicated charging port$' "$tmp/lp.out" &&
	grep -Eq '^    vbus_min +4\.6 V ' "$tmp/lp.out" && grep -q '^fixed - ' "$tmp/lp.out" &&
	! grep -q '^safe-ramp - ' "$tmp/lp.out"; then
	ok "list policies ./template.so fixed: the plugin's parameters and defaults, then fixed alone"
else
	bad "list policies FILE.so: rc $rc $(cat "$tmp/lp.out" "$tmp/lp.err")"
fi
# docs/policy-sdk.md section 4 quotes that listing: it must be what the command prints
sed -n '/^\$ chargesim list policies \.\/template\.so$/,/^```$/p' docs/policy-sdk.md |
	sed '1d;$d' >"$tmp/lp.doc"
(cd "$tmp" && "$cs" list policies ./template.so >lp1.out 2>&1)
if [ -s "$tmp/lp.doc" ] && cmp -s "$tmp/lp.doc" "$tmp/lp1.out"; then
	ok "docs/policy-sdk.md quotes list policies ./template.so as it prints"
else
	bad "docs/policy-sdk.md's list policies ./template.so block differs: $(diff "$tmp/lp.doc" "$tmp/lp1.out")"
fi
(cd "$tmp" && "$cs" list policies abi.so >/dev/null 2>lp2.err); rc=$?
[ $rc -eq 2 ] && grep -q 'list policies: "[^"]*abi.so" was built for policy ABI 44, expected ABI' "$tmp/lp2.err" &&
	ok "list policies FILE.so of another ABI: exit 2" || bad "list policies abi.so: rc $rc $(cat "$tmp/lp2.err")"
(cd "$tmp" && "$cs" list policies fixed junk.so >lp3.out 2>lp3.err); rc=$?
[ $rc -eq 2 ] && grep -q 'cannot load' "$tmp/lp3.err" && [ ! -s "$tmp/lp3.out" ] &&
	ok "list policies fixed FILE.so, no shared object: exit 2, nothing on stdout" ||
	bad "list policies junk.so: rc $rc $(cat "$tmp/lp3.err")"
"$cs" list policies no-such-policy >/dev/null 2>"$tmp/lp4.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'found "no-such-policy", expected one of' "$tmp/lp4.err" &&
	ok "list policies NAME of no policy: exit 2 with the names" ||
	bad "list policies no-such-policy: rc $rc $(cat "$tmp/lp4.err")"

# ---- the trust boundary ----
# marker.so's constructor writes $MARKER: the file appears if and only if its code ran.
# It lives in evil/, outside the allowed directory allowed/; the scenarios in data/.
mkdir "$tmp/evil" "$tmp/allowed" "$tmp/data"
cat >"$tmp/marker.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void mark(void)
{
	FILE *f = fopen(getenv("MARKER"), "w");

	if (f)
		fclose(f);
}
C
cc -shared -fPIC "$tmp/marker.c" -o "$tmp/evil/marker.so"
export MARKER="$tmp/MARKER"
cp "$tmp/template.so" "$tmp/allowed/template.so"
ln -s ../evil/marker.so "$tmp/allowed/link.so"
mkfifo "$tmp/allowed/fifo.so"
scen() {  # scen FILE PLUGIN: a scenario naming PLUGIN
	printf '{ "name": "t", "duration": "1 min", "source": { "kind": "dcp" },\n  "policy": { "plugin": "%s" } }\n' \
		"$2" >"$1"
}
scen "$tmp/data/rel.json" ../evil/marker.so
scen "$tmp/data/nosuffix.json" ../evil/marker
scen "$tmp/data/link.json" ../allowed/link.so
scen "$tmp/data/fifo.json" ../allowed/fifo.so
scen "$tmp/data/abs.json" "$tmp/evil/marker.so"
# refused CASE RC WORDS -- CMD...: exit RC, WORDS in stderr, and the marker absent
refused() {
	what=$1 want=$2 words=$3
	shift 4
	rm -f "$MARKER"
	timeout 20 "$@" >"$tmp/r.out" 2>"$tmp/r.err"; rc=$?
	if [ $rc -eq "$want" ] && grep -qF -- "$words" "$tmp/r.out" "$tmp/r.err" && [ ! -e "$MARKER" ]; then
		ok "$what: exit $want, no code ran"
	else
		bad "$what: rc $rc, marker $([ -e "$MARKER" ] && echo WRITTEN || echo absent): $(cat "$tmp/r.err")"
	fi
}
allow='pass --allow-plugins DIR'
refused "run: a relative plugin path" 2 "$allow" -- "$cs" run "$tmp/data/rel.json" -o "$tmp/t1" -q
refused "run: an absolute plugin path" 2 "$allow" -- "$cs" run "$tmp/data/abs.json" -o "$tmp/t1" -q
refused "run: a plugin under another allowed directory" 2 "$allow" -- \
	"$cs" run "$tmp/data/rel.json" -o "$tmp/t1" -q --allow-plugins "$tmp/allowed"
refused "run: a name without .so (even in an allowed directory)" 2 'without ".so"' -- \
	"$cs" run "$tmp/data/nosuffix.json" -o "$tmp/t1" -q --allow-plugins "$tmp/evil"
refused "run: a link from the allowed directory to outside" 2 "$tmp/evil/marker.so" -- \
	"$cs" run "$tmp/data/link.json" -o "$tmp/t1" -q --allow-plugins "$tmp/allowed"
refused "run: a FIFO named as plugin (allowed directory)" 2 "found a FIFO" -- \
	"$cs" run "$tmp/data/fifo.json" -o "$tmp/t1" -q --allow-plugins "$tmp/allowed"
refused "run --policy FIFO.so" 2 "found a FIFO" -- \
	"$cs" run "$tmp/data/rel.json" --policy "$tmp/allowed/fifo.so" -o "$tmp/t1" -q
refused "run --set policy.plugin=... (a file's value, not --policy)" 2 "$allow" -- \
	"$cs" run "$tmp/plug.json" --set "policy.plugin=$tmp/evil/marker.so" -o "$tmp/t1" -q
refused "check of a directory holding such scenarios" 2 "0 passed, 0 failed, 5 could not run" -- \
	"$cs" check "$tmp/data" -o "$tmp/t2" -q
refused "check --allow-plugins of another directory" 2 "$allow" -- \
	"$cs" check "$tmp/data/rel.json" -o "$tmp/t2" --allow-plugins "$tmp/allowed"
refused "compare: the scenario's plugin is not loaded" 0 "metric" -- \
	"$cs" compare "$tmp/data/rel.json" --policy fixed -o "$tmp/t3"
refused "list scenarios of that directory" 0 "rel.json" -- "$cs" list scenarios "$tmp/data"
refused "--allow-plugins of a file" 2 "expected a directory" -- \
	"$cs" run "$tmp/data/rel.json" --allow-plugins "$tmp/evil/marker.so" -o "$tmp/t1"
mkdir "$tmp/ev"
refused "run: --allow-plugins of a directory whose name is a prefix" 2 "$allow" -- \
	"$cs" run "$tmp/data/rel.json" -o "$tmp/t1" -q --allow-plugins "$tmp/ev"
# sweeps: the base names a built-in, the sweep varies the policy over the plugin
mkdir "$tmp/sw"
printf '{ "name": "b", "duration": "1 min", "source": { "kind": "dcp" } }\n' >"$tmp/sw/base.json"
printf '{ "base": "base.json", "vary": { "policy.plugin": ["fixed.so", "%s"] } }\n' \
	"$tmp/evil/marker.so" >"$tmp/sw/sweep.json"
cp "$tmp/template.so" "$tmp/sw/fixed.so"
refused "sweep --show varying over a plugin" 2 'vary["policy.plugin"][1]' -- \
	"$cs" sweep "$tmp/sw/sweep.json" --show 0 --allow-plugins "$tmp/sw"
refused "sweep varying over a plugin" 2 "$allow" -- \
	"$cs" sweep "$tmp/sw/sweep.json" -o "$tmp/t4" -q --allow-plugins "$tmp/sw"
refused "sweep --show --allow-plugins: prints, opens nothing" 0 "--allow-plugins" -- \
	"$cs" sweep "$tmp/sw/sweep.json" --show 1 --allow-plugins "$tmp/evil" --allow-plugins "$tmp/sw"
if "$cs" sweep "$tmp/sw/sweep.json" -o "$tmp/t7" -q --allow-plugins "$tmp/evil" \
	--allow-plugins "$tmp/sw" 2>/dev/null; [ -e "$MARKER" ]; then
	ok "sweep --allow-plugins: the allowed plugins run"
else
	bad "sweep --allow-plugins: the marker plugin did not run"
fi

# The allowed routes: a plugin under an --allow-plugins directory (given through a
# link too), and one named with --policy.
ln -s allowed "$tmp/allowed-link"
scen "$tmp/data/ok.json" ../allowed/template.so
if "$cs" check "$tmp/data/ok.json" -o "$tmp/t5" -q --allow-plugins "$tmp/allowed-link" >"$tmp/r.out"; then
	ok "check --allow-plugins (through a link): the plugin under it runs"
else
	bad "check --allow-plugins: $(cat "$tmp/r.out")"
fi
rm -f "$MARKER"
"$cs" run "$tmp/data/rel.json" --policy "$tmp/evil/marker.so" -o "$tmp/t6" -q 2>/dev/null
[ -e "$MARKER" ] && ok "run --policy FILE.so loads the file the user named (its constructor ran)" ||
	bad "run --policy FILE.so did not load the plugin"

tl_finish
