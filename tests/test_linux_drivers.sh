#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_linux_drivers.sh - the real Linux drivers from the command line.
#
# Usage (from the repository root): tests/test_linux_drivers.sh build/chargesim
#
# `list policies` shows linux/<file> with its module parameters; every scenario under
# scenarios/linux runs with its expectations held; `compare` runs a port against its
# driver; a driver's sysfs attributes appear in --sysfs-at dumps and take user-space
# writes; a probe that fails and a bad module parameter are exit 2 with the driver
# and the errno or JSON path named, without outputs; `check -j 2` runs the drivers'
# scenarios one after another; a sweep over a driver gives the same results with -j 1
# and -j 2, and a variant's row does not depend on the variants run before it. Without
# real drivers in the build every check is reported as skipped, with the reason.
set -u

. "$(dirname "$0")/lib.sh"
tl_init linux "${1:-build/chargesim}" scenarios/linux

# ---- the layer's min()/max()/clamp(): signedness checked at compile time as by the
# kernel's include/linux/minmax.h, at -O0 as at -O2 (needs no driver) ----
KCC="cc -std=gnu11 -fsyntax-only -I. -Istack/include $(pkg-config --cflags glib-2.0)"
cat >"$TMP/mm.c" <<'C'
#include <linux/kernel.h>
int f(int i, unsigned int u, unsigned char c, long long l);
int f(int i, unsigned int u, unsigned char c, long long l)
{
	return (int)(min(u, 5) + min(c, -1) + max(l, i) + clamp(i, 0, 10) + min(i, (int)u));
#ifdef MIXED
	return (int)min(i, u);
#endif
#ifdef MIXED_CLAMP
	return clamp(u, -1, 10);
#endif
}
C
for o in -O0 -O2; do
	check "min/max/clamp with kernel-legal types compile ($o)" $KCC $o "$TMP/mm.c"
	if $KCC $o -DMIXED "$TMP/mm.c" 2>"$TMP/mm.err"; then
		not_ok "min(int, unsigned int) is a compile-time error ($o)" "it compiled"
	else
		check "min(int, unsigned int) is a compile-time error ($o)" grep -q "min(i, u) signedness error" "$TMP/mm.err"
	fi
	if $KCC $o -DMIXED_CLAMP "$TMP/mm.c" 2>"$TMP/mm.err"; then
		not_ok "clamp(unsigned int, -1, 10) is a compile-time error ($o)" "it compiled"
	else
		check "clamp(unsigned int, -1, 10) is a compile-time error ($o)" grep -q "signedness error" "$TMP/mm.err"
	fi
done

# ---- the kernel's core files the layer runs (docs/stack.md): extcon.c with devres.c and
# its private extcon.h, and phy.c, compiled as the kernel tree has them; none committed ----
check "no kernel core file is committed" test -z "$(git ls-files drivers/extcon drivers/usb)"
kdir=$(dirname "$BIN")/kernel
kcore="drivers/extcon/extcon.c drivers/extcon/devres.c drivers/extcon/extcon.h drivers/usb/phy/phy.c"
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
if [ -f "$kdir/drivers/usb/phy/phy.c" ] && [ -r "$tarball" ] &&
   ! grep -qF "$tarball " "$kdir/.origin" 2>/dev/null; then
	for f in $kcore; do skip "$f as the tarball has it" "built from KERNEL_SRC"; done
elif [ -f "$kdir/drivers/usb/phy/phy.c" ] && [ -r "$tarball" ]; then
	mkdir -p "$TMP/ktar"
	# shellcheck disable=SC2046
	tar -xJf "$tarball" -C "$TMP/ktar" --strip-components=1 \
		$(for f in $kcore; do echo "linux-source-6.12/$f"; done)
	for f in $kcore; do
		same "$f: the compiled copy is the tarball's, byte for byte" "$TMP/ktar/$f" "$kdir/$f"
	done
	for o in drivers/extcon/extcon.o drivers/extcon/devres.o drivers/usb/phy/phy.o; do
		check "$o is in the library" test -s "$(dirname "$BIN")/obj/kernel/$o"
	done
else
	for f in $kcore; do skip "$f as the tarball has it" "no kernel tarball or no build/kernel"; done
fi

run list list policies
if ! grep -q '^linux/' "$TMP/list.out"; then
	why="this build has no real Linux drivers (linux-source-6.12 is not installed and no KERNEL_SRC was given)"
	for c in "list policies" "scenarios/linux" "compare" "sysfs" "probe failure" "module parameter" "check -j 2" "sweep -j 2" "plugin unload"; do
		skip "$c" "$why"
	done
	tl_finish
	exit $?
fi

# ---- list ----
expect_in "list policies names linux/twl4030_charger" out "linux/twl4030_charger - the real driver: Linux 6.12 drivers/power/supply/twl4030_charger.c"
expect_in "its module parameter, with MODULE_PARM_DESC" out "module parameter: Allow USB charge drawing default current"
expect_in "list policies names linux/bq25890_charger" out "linux/bq25890_charger"
expect_in "list policies names linux/gpio-charger" out "linux/gpio-charger"
expect_in "list policies names linux/axp288_charger" out "linux/axp288_charger"
expect_in "list policies names linux/charger-manager" out "linux/charger-manager - the real driver: Linux 6.12 drivers/power/supply/charger-manager.c"

# ---- the scenario library ----
for f in scenarios/linux/*.json; do
	run scn run "$f" -o "$TMP/scn" -q
	expect_status "$f: expectations hold" 0
done

# ---- check -j 2: three twl4030_charger scenarios among them, run one after another ----
run chk check scenarios/linux -j 2 -o "$TMP/chk" -q
expect_status "check scenarios/linux -j 2" 0
check "every one passed" grep -q "^$(ls scenarios/linux/*.json | wc -l) passed, 0 failed" "$TMP/chk.out"

# ---- compare: port and driver side by side ----
run cmp compare scenarios/bugzoo/twl4030-full-battery.json --policy twl4030 \
	--policy linux/twl4030_charger -o "$TMP/cmp" -q
expect_status "compare --policy twl4030 --policy linux/twl4030_charger" 0
if grep -q 'VBUS < 95 % contract \[s\] *263.2 *263.2' "$TMP/cmp.out"; then
	ok "both spend 263.2 s below 4.75 V"
else
	not_ok "both spend 263.2 s below 4.75 V" "$(cat "$TMP/cmp.out")"
fi

# ---- each output names the kernel files the driver was compiled from, with the sha256
# of the compiled copy (computed here by sha256sum) and stock / edited ----
k=drivers/power/supply/twl4030_charger.c
h=$(sha256sum "build/kernel/$k" | cut -c1-64)
hs=$(awk -v p="$k" '$2 == p { print $1 }' build/kernel-stock/.sha256)
st=stock; [ "$h" = "$hs" ] || st=edited
expect_in "compare names the driver file, its hash and '$st' under the table" out \
	"  linux/twl4030_charger: $k sha256 $(echo "$h" | cut -c1-16) ($st)"
check "... and nothing for the port" sh -c "! grep -q '^  twl4030: ' '$TMP/cmp.out'"
cat >"$TMP/kf.py" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
f = m["kernel_files"][0]
assert (f["path"], f["sha256"], f["status"]) == tuple(sys.argv[2:5]), f
assert m["policy"] == "linux/twl4030_charger"
c = json.load(open(sys.argv[1].replace("linux/twl4030_charger/metrics.json", "compare.json")))
runs = {r["policy"]: r for r in c["policies"]}
assert runs["linux/twl4030_charger"]["kernel_files"] == m["kernel_files"], runs
assert "kernel_files" not in runs["twl4030"]
PY
python3 "$TMP/kf.py" "$TMP/cmp/linux/twl4030_charger/metrics.json" "$k" "$h" "$st" >"$TMP/kf.out" 2>&1
check "metrics.json's kernel_files: the driver file first, its sha256 and status; compare.json's the same" \
	test ! -s "$TMP/kf.out"
check "a port's metrics.json has no kernel_files" sh -c "! grep -q kernel_files '$TMP/cmp/twl4030/metrics.json'"
run kfr run scenarios/linux/charger-manager-dcp.json -o "$TMP/kfr"
expect_in "the run's summary names the driver file" out "  kernel file drivers/power/supply/charger-manager.c sha256 "
expect_in "... and the tree's header it included" out "  kernel file include/linux/power/charger-manager.h sha256 "
if [ "$st" = stock ]; then
	sfx=$(grep '^linux/twl4030_charger ' "$TMP/list.out" | sed "s/.*; this build's file: /this build's file: /")
	check "list policies ends linux/twl4030_charger's line as docs/linux-drivers.md quotes it" \
		grep -qF "(\`$sfx\`)" docs/linux-drivers.md
	for f in drivers/power/supply/charger-manager.c include/linux/power/charger-manager.h; do
		check "docs/linux-drivers.md quotes the summary's line for $f" \
			grep -qxF "$(grep "^  kernel file $f " "$TMP/kfr.out")" docs/linux-drivers.md
	done
fi

# ---- sysfs: a driver's attributes, read and written ----
run sysfs run scenarios/linux/twl4030-full-battery-driver.json -o "$TMP/sysfs" -q --sysfs-at 30s
expect_status "--sysfs-at with a real driver" 0
d="$TMP/sysfs/sysfs-30s/class/power_supply/twl4030_usb"
check "the driver's DEVICE_ATTR(mode) is in the dump" grep -qx 'off \[auto\] continuous' "$d/mode"
# regval2ua(1022, CGAIN) = (1022 * 16618 - 8500000) / 5 (the driver's integer formula)
check "input_current_limit shows the user-space write's effect" grep -qx '1696719' "$d/input_current_limit"
cat >"$TMP/off.json" <<JSON
{ "name": "twl-off", "duration": "2 min", "source": { "kind": "dcp", "ilim": "2 A" },
  "device": { "pmic": { "preset": "twl4030" }, "battery": { "soc": "50 %" } },
  "policy": { "name": "linux/twl4030_charger", "params": { "userspace": {
    "path": "class/power_supply/twl4030_usb/mode", "value": "off", "after_plug": "5 s" } } } }
JSON
run off run "$TMP/off.json" -o "$TMP/off" -q
expect_status "writing 'off' to the driver's mode attribute" 0
last=$(tail -1 "$TMP/off/trace.csv" | cut -d, -f4,10)
if [ "$last" = "0,off" ]; then
	ok "mode=off stops charging (the store() function ran): IBUS 0, charger off"
else
	not_ok "mode=off stops charging" "last trace row: ibus_A,charger_state = $last"
fi

# ---- probe failure and bad parameters: exit 2, named, no outputs ----
cat >"$TMP/bad.json" <<JSON
{ "name": "bad", "duration": "1 min", "source": { "kind": "dcp" },
  "device": { "pmic": { "preset": "bq25890" } },
  "policy": { "name": "linux/bq25890_charger",
    "params": { "of": "/delete-property/ ti,battery-regulation-voltage;" } } }
JSON
run bad run "$TMP/bad.json" -o "$TMP/bad"
expect_status "probe failure (a required device-tree property deleted)" 2
expect_stderr "names the driver" 'policy "linux/bq25890_charger" failed to probe'
expect_stderr "names the errno" "-EINVAL"
expect_stderr "names the property" "ti,battery-regulation-voltage"
check "leaves no metrics.json" test ! -e "$TMP/bad/metrics.json"
sed 's|"of": "/delete-property/ ti,battery-regulation-voltage;"|"of": "linux,iinlim-percentage = <101>;"|' "$TMP/bad.json" >"$TMP/bad2.json"
run bad2 run "$TMP/bad2.json" -o "$TMP/bad2"
expect_status "probe failure (a property out of range)" 2
expect_stderr "the driver's own message" "Error linux,iinlim-percentage 101 > 100"
# A u32 property given 65 cells: the driver's device_property_read_u32() reads the first
# one, as on Linux (it overran the driver's stack: SIGSEGV); a text past the parser's
# limit is refused with the limit named.
cells=$(seq 0 63 | tr '\n' ' ')
sed "s|\"of\": \"/delete-property/ ti,battery-regulation-voltage;\"|\"of\": \"ti,charge-current = <1500000 $cells>;\"|" \
	"$TMP/bad.json" >"$TMP/cells.json"
run cells run "$TMP/cells.json" -o "$TMP/cells" -q
expect_status "a u32 property with 65 cells reads the first" 0
# ... and with 2 cells (it wrote 4 bytes past the driver's variable): the same run as
# with the one cell, which is what of_property_read_u32() reads on Linux
for n in 1 2; do
	c="1500000"; [ $n -eq 2 ] && c="1500000 7"
	sed "s|\"of\": \"/delete-property/ ti,battery-regulation-voltage;\"|\"of\": \"ti,charge-current = <$c>;\"|" \
		"$TMP/bad.json" >"$TMP/cells$n.json"
	run cells$n run "$TMP/cells$n.json" -o "$TMP/cells$n" -q
	expect_status "ti,charge-current with $n cell(s)" 0
done
same "2 cells read as 1: the same trace" "$TMP/cells1/trace.csv" "$TMP/cells2/trace.csv"
same "65 cells read as 1: the same trace" "$TMP/cells1/trace.csv" "$TMP/cells/trace.csv"
awk 'BEGIN { printf "{ \"name\": \"big\", \"duration\": \"1 min\", \"source\": { \"kind\": \"dcp\" },"
	printf " \"device\": { \"pmic\": { \"preset\": \"bq25890\" } }, \"policy\": {"
	printf " \"name\": \"linux/bq25890_charger\", \"params\": { \"of\": \""
	for (i = 0; i < 300000; i++) printf "p%d = <%d>; ", i, i
	printf "\" } } }\n" }' >"$TMP/bigof.json"
run bigof run "$TMP/bigof.json" -o "$TMP/bigof"
expect_status "a 4 MB device-tree text is refused at once" 2
expect_stderr "names the limit" "policy.params.of: the text is longer than 65536 bytes"
check "leaves no metrics.json" test ! -e "$TMP/bigof/metrics.json"
cat >"$TMP/badp.json" <<JSON
{ "name": "badp", "duration": "1 min", "source": { "kind": "dcp" },
  "device": { "pmic": { "preset": "twl4030" } },
  "policy": { "name": "linux/twl4030_charger", "params": { "allow_usb": 1 } } }
JSON
run badp run "$TMP/badp.json" -o "$TMP/badp"
expect_status "a bad module parameter" 2
expect_stderr "names the JSON path" "policy.params.allow_usb"
sed 's/"twl4030"/"bq25890"/' "$TMP/badp.json" | sed 's/"allow_usb": 1/"allow_usb": true/' >"$TMP/badc.json"
run badc run "$TMP/badc.json" -o "$TMP/badc"
expect_status "a charger preset the driver's chip is not" 2
expect_stderr "names the preset" 'device.pmic.preset: found "bq25890", expected "twl4030"'

# ---- sweeps: each worker process has its own driver statics, and every run of a driver
# starts from their first state, so rows depend on neither -j nor the runs before ----
cat >"$TMP/sw.json" <<JSON
{ "description": "t", "base": "$(pwd)/scenarios/bugzoo/twl4030-full-battery.json",
  "vary": { "source.ilim": ["0.8 A", "1.0 A", "1.5 A"],
            "policy": ["twl4030", "linux/twl4030_charger", "linux/gpio-charger",
                       "linux/charger-manager"] } }
JSON
run sw1 sweep "$TMP/sw.json" -o "$TMP/sw1" -j 1 -q
run sw2 sweep "$TMP/sw.json" -o "$TMP/sw2" -j 2 -q
same "sweep with real drivers: -j 1 and -j 2 give the same results.csv" "$TMP/sw1/results.csv" "$TMP/sw2/results.csv"
# variant 11 (charger-manager at 1.5 A) runs after two charger-manager runs in one worker;
# alone in its shard it must give the same row
run sw11 sweep "$TMP/sw.json" -o "$TMP/sw11" --shard 11/12 -j 1 -q
if [ "$(tail -n 1 "$TMP/sw11/results.csv")" = "$(grep '^11,' "$TMP/sw1/results.csv")" ]; then
	ok "a driver's row does not depend on the runs before it (--shard 11/12 = the full sweep's row 11)"
else
	not_ok "a driver's row does not depend on the runs before it" \
		"$(tail -n 1 "$TMP/sw11/results.csv") vs $(grep '^11,' "$TMP/sw1/results.csv")"
fi
# the same in one process without workers: check runs a scenario twice, by two names,
# one after the other; the second run of charger-manager starts on the statics the first
# left unless they are put back (b52e5c8 gave VBUS min 4.83284 V, then 4.836134 V)
mkdir -p "$TMP/twice"
for n in first second; do
	python3 - "$n" "$TMP/twice/$n.json" <<'PY'
import json, sys
d = json.load(open("scenarios/bugzoo/twl4030-full-battery.json"))
d["name"], d["source"]["ilim"], d["policy"] = sys.argv[1], "1.5 A", "linux/charger-manager"
del d["expect"]
json.dump(d, open(sys.argv[2], "w"))
PY
done
run twice check "$TMP/twice" -j 1 -o "$TMP/twice-o"
m1=$(find "$TMP/twice-o" -path '*first/metrics.json')
m2=$(find "$TMP/twice-o" -path '*second/metrics.json')
if [ -n "$m1" ] && grep -q 'linux/charger-manager' "$m1"; then
	same "check: a driver's second run in one process = its first (metrics.json)" "$m1" "$m2"
	same "check: ... and events.jsonl" "${m1%metrics.json}events.jsonl" "${m2%metrics.json}events.jsonl"
else
	not_ok "check: two runs of charger-manager" "no metrics.json of linux/charger-manager in $TMP/twice-o"
fi
cat >"$TMP/lx.json" <<JSON
{ "description": "t", "base": "$(pwd)/scenarios/linux/bq25890-ico-weak-adapter.json",
  "vary": { "source.ilim": ["0.6 A", "0.8 A", "1.0 A", "1.2 A", "1.5 A", "2.0 A"] } }
JSON
run lx1 sweep "$TMP/lx.json" -o "$TMP/lx1" -j 1 -q
run lx2 sweep "$TMP/lx.json" -o "$TMP/lx2" -j 2 -q
expect_status "a linux/bq25890_charger sweep at -j 2" 0
check "... ran the driver in every variant" sh -c "test \$(grep -c ',linux/bq25890_charger,,\$' '$TMP/lx2/results.csv') -eq 6"
same "a linux/ sweep: -j 2 gives the same results.csv as -j 1" "$TMP/lx1/results.csv" "$TMP/lx2/results.csv"

# ---- set events on a loaded driver: what /sys/module and user space could change ----
# twl4030_charger.c resets its USB target on each plug notification to 500 mA with
# allow_usb (a 0644 module parameter), else 100 mA: after a set to false and a replug,
# the ramp stays at the 100 mA target until user space writes its limit 1 s later.
for v in false true; do
	cat >"$TMP/au-$v.json" <<JSON
{ "name": "twl-allow-$v", "duration": "50 s", "source": { "kind": "sdp" },
  "device": { "pmic": { "preset": "twl4030" }, "battery": { "soc": "50 %" } },
  "policy": { "name": "linux/twl4030_charger" },
  "events": [ { "at": "30 s", "do": "set", "path": "policy.params.allow_usb", "value": $v },
              { "at": "40 s", "do": "unplug" }, { "at": "45 s", "do": "plug" } ] }
JSON
	run au-$v run "$TMP/au-$v.json" -o "$TMP/au-$v" -q
	expect_status "set policy.params.allow_usb=$v on the loaded driver" 0
done
peak() { awk -F, 'NR > 1 && $1 > 45.05 && $1 < 46 && $5 > m { m = $5 } END { print m + 0 }' "$1"; }
pf=$(peak "$TMP/au-false/trace.csv"); pt=$(peak "$TMP/au-true/trace.csv")
check "allow_usb=false: the replug's target is 100 mA (peak ilim $pf A before user space writes)" \
	awk -v p="$pf" 'BEGIN { exit !(p > 0.09 && p <= 0.1) }'
check "allow_usb=true: the ramp goes past 100 mA in that second (peak $pt A)" \
	awk -v p="$pt" 'BEGIN { exit !(p > 0.15) }'
check "the write is logged" grep -q '"ev":"module_params"' "$TMP/au-false/events.jsonl"
sed 's|"path": "policy.params.allow_usb", "value": false|"path": "policy.params.of", "value": "x;"|' \
	"$TMP/au-false.json" >"$TMP/au-of.json"
run au-of run "$TMP/au-of.json" -o "$TMP/au-of"
expect_status "a set of policy.params.of (read only at probe) is refused" 2
expect_stderr "says why" "reads only when it probes"
sed 's|"path": "policy.params.allow_usb", "value": false|"path": "policy.params.userspace", "value": {}|' \
	"$TMP/au-false.json" >"$TMP/au-grp.json"
run au-grp run "$TMP/au-grp.json" -o "$TMP/au-grp"
expect_status "a set of the whole userspace group is refused" 2
expect_stderr "names a key to set instead" "policy.params.userspace.path"
sed 's|"path": "policy.params.allow_usb", "value": false|"path": "policy.params.userspace.value", "value": "900000"|' \
	"$TMP/au-false.json" >"$TMP/au-us.json"
run au-us run "$TMP/au-us.json" -o "$TMP/au-us" -q
expect_status "a set of policy.params.userspace.value (a nested key) runs" 0

# ---- a plugin built with a kernel file: its module records (module_param,
# MODULE_DESCRIPTION, ...) leave the list when compare unloads it, so the linux/ run
# after it does not follow them into the unmapped object (it was SIGSEGV) ----
cat >"$TMP/kmod.c" <<'C'
// SPDX-License-Identifier: GPL-2.0-or-later
#include <linux/module.h>
static bool allow_usb = true;
module_param(allow_usb, bool, 0644);
MODULE_PARM_DESC(allow_usb, "the plugin's copy of a parameter");
MODULE_DESCRIPTION("a kernel file compiled into a policy plugin");
MODULE_LICENSE("GPL");
C
if cc -shared -fPIC -std=gnu11 -I. -Istack/include $(pkg-config --cflags glib-2.0 libcjson) \
	-DKBUILD_MODNAME='"gpio_charger"' docs/policy-sdk/template_policy.c "$TMP/kmod.c" \
	-o "$TMP/kplug.so" 2>"$TMP/kplug.err"; then
	cat >"$TMP/kplug.json" <<JSON
{ "name": "plugin-unload", "duration": "30 s", "source": { "kind": "dcp", "ilim": "2 A" },
  "policy": { "name": "fixed", "params": { "ilim": "0.5 A" } } }
JSON
	run kpl compare "$TMP/kplug.json" --policy "$TMP/kplug.so" --policy linux/gpio-charger \
		--policy linux/charger-manager -o "$TMP/kpl" -q
	expect_status "compare: a plugin with module records, then linux/ drivers" 0
	run kpl1 run "$TMP/kplug.json" --policy linux/gpio-charger -o "$TMP/kpl1" -q
	same "the driver's run after the plugin is the run without it" \
		"$TMP/kpl1/trace.csv" "$TMP/kpl/linux/gpio-charger/trace.csv"
else
	not_ok "a plugin with a kernel file builds" "$(cat "$TMP/kplug.err")"
fi

tl_finish
