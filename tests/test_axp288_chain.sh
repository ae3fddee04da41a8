#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/test_axp288_chain.sh - the AXP288 chain from VBUS to the charger's input limit,
# all of it the kernel's code: the PMIC's BC module (models/axp288) detects the port,
# Linux's drivers/extcon/extcon-axp288.c reads the result on its BC1.2 interrupt and
# sets the cable, Linux's drivers/power/supply/axp288_charger.c hears it and sets the
# input limit.
#
# Usage (from the repository root): tests/test_axp288_chain.sh build/chargesim
#
# Every port of scenarios/ports and the other port kinds and cables of the source
# model run with policy linux/axp288_charger; for each, the expected cable comes from
# BC1.2's logic on the port's data lines, worked out by hand below, and the limit from
# axp288_charger.c's cable worker (axp288_charger_extcon_evt_worker: SDP 500 mA, CDP
# 1500 mA, DCP 2000 mA). The driver names the cable it read from the extcon device in
# its own dev_dbg line ("USB DCP charger is connected"; policy parameter dyndbg).
set -u

. "$(dirname "$0")/lib.sh"
tl_init axp288 "${1:-build/chargesim}" scenarios/ports

run list list policies
if ! grep -q '^linux/axp288_charger' "$TMP/list.out"; then
	why="this build has no real Linux drivers (linux-source-6.12 is not installed and no KERNEL_SRC was given)"
	for c in "extcon-axp288.c compiled" "ports of scenarios/ports" "other port kinds" "unplug and replug" "two runs in one process"; do
		skip "$c" "$why"
	done
	tl_finish
	exit $?
fi

# ---- the kernel file: compiled in, not in the repository ----
KDIR=$(dirname "$BIN")/kernel
check "extcon-axp288.c is in the build's kernel tree ($KDIR)" test -f "$KDIR/drivers/extcon/extcon-axp288.c"
check "no kernel file is tracked by git" sh -c "! git ls-files | grep -q 'extcon-axp288\.c\$'"
check "its module is in the binary" sh -c "nm '$BIN' | grep -q ' cs_linux_module_extcon_axp288\$'"
# it keeps no run's state in static variables (docs/linux-drivers.md section 5): no
# zero-initialised statics, so nothing to put back between runs
KOBJ=$(dirname "$BIN")/obj/kernel/drivers/extcon/extcon-axp288.o
check "extcon-axp288.o has no zeroed statics (cs_kbss_extcon_axp288 is empty)" \
	sh -c "size -A '$KOBJ' | awk '\$1 == \"cs_kbss_extcon_axp288\" { n += \$2 } END { exit n != 0 }'"

# One run: the port's cable as the charger driver read it, the limit it set, and the
# time from the VBUS-valid interrupt to the BC1.2 interrupt, in ms.
# chain NAME SCENARIO [--set ...]
chain() {
	n=$1
	shift
	run "$n" run "$@" --policy linux/axp288_charger:dyndbg=true -o "$TMP/$n" -q
	python3 - "$TMP/$n/events.jsonl" >"$TMP/$n.got" <<'PY'
import json, sys
rise = done = None
cable, lim = "none", None
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["ev"] == "irq" and e["line"] == "axp288-vbus-rise" and rise is None:
        rise = e["t"]
    if e["ev"] == "irq" and e["line"] == "axp288-bc-usb-chng" and done is None:
        done = e["t"]
    if e["ev"] == "printk" and e.get("dev") == "axp288_charger" and \
            e["msg"].endswith("charger is connected") and cable == "none":
        cable = e["msg"].split()[1]
    if e["src"] == "axp288" and e["ev"] == "ilim_set":
        lim = e["request_mA"]
ms = round((done - rise) * 1000) if rise is not None and done is not None else "-"
print(cable, lim, ms)
PY
}

# expect NAME CABLE LIMIT_mA BC_ms WHY
expect() {
	got=$(cat "$TMP/$1.got")
	if [ "$status" -eq 0 ] || [ "$status" -eq 1 ]; then
		if [ "$got" = "$2 $3 $4" ]; then
			ok "$1: $2, $3 mA, BC1.2 done $4 ms after VBUS valid ($5)"
		else
			not_ok "$1: want '$2 $3 $4' (cable, limit mA, BC ms), got '$got'" "$5"
		fi
	else
		not_ok "$1: the run failed (exit $status)" "$(head -c 800 "$TMP/$1.err")"
	fi
}

# BC1.2 [BC1.2 3.2] with the PHY's timing (device.phy defaults: TDCD_DBNC 10 ms,
# TVDPSRC_ON = TVDMSRC_ON = 40 ms, 1 ms to report) and the AXP288's data contact
# detect timeout at its reset value (BC_GLOBAL bits 6:5 = 0: 300 ms):
#   D+ pulled low at plug (host pull-downs, a D+/D- short): DCD 10 ms; primary
#     detection (VDP_SRC on D+) reads D- below VDAT_REF: SDP at 10 + 40 + 1 = 51 ms;
#     D- at VDP_SRC (a CDP's VDM_SRC, or the short): secondary detection (VDM_SRC on
#     D-) reads D+: low CDP, high DCP, at 10 + 40 + 40 + 1 = 91 ms;
#   a divider holding D+ high (Apple, Samsung): DCD times out at 300 ms; D- (2.0 V or
#     2.7 V or 1.2 V) is above VDAT_REF, so is D+: DCP at 300 + 40 + 40 + 1 = 381 ms;
#   lines that never touch: DCD times out, D- reads 0 V: SDP at 300 + 40 + 1 = 341 ms.
# The AXP288 reads no ID pin and no CC line: an ACA is judged by its lines (D+ low, D-
# low: SDP) and a Type-C or PD charger by its legacy D+/D- short (DCP), whatever its Rp.
while read -r port cable lim ms why; do
	chain "port-$port" "scenarios/ports/$port.json"
	expect "port-$port" "$cable" "$lim" "$ms" "$why"
done <<'TABLE'
sdp SDP 500 51 host pull-downs, D- low
sdp-usb3 SDP 500 51 host pull-downs, D- low
laptop-suspend SDP 500 51 host pull-downs, D- low
cdp CDP 1500 91 D- answers VDM_SRC, D+ stays low
dcp DCP 2000 91 D+/D- shorted
drifting-adapter DCP 2000 91 D+/D- shorted
power-limited-brick DCP 2000 91 D+/D- shorted
dcp-floating-data SDP 500 341 floating lines: DCD timeout, D- low
apple-1a DCP 2000 381 divider D+ 2.0 V, D- 2.7 V
apple-2.1a DCP 2000 381 divider D+ 2.7 V, D- 2.0 V
apple-2.4a DCP 2000 381 divider D+ 2.7 V, D- 2.7 V
samsung-2a DCP 2000 381 divider D+ 1.2 V, D- 1.2 V
aca SDP 500 51 no ID pin read: D+ low, D- low
typec-default DCP 2000 91 the Type-C charger's D+/D- short
typec-1.5a DCP 2000 91 the Type-C charger's D+/D- short, Rp not read
typec-3.0a DCP 2000 91 the Type-C charger's D+/D- short, Rp not read
pd-9v DCP 2000 91 the PD charger's D+/D- short, no PD on the PMIC
pd-pps DCP 2000 91 the PD charger's D+/D- short, no PD on the PMIC
TABLE
n_ports=$(ls scenarios/ports/*.json | wc -l)
check "every port of scenarios/ports is in the table ($n_ports)" \
	sh -c "test \$(ls '$TMP' | grep -c '^port-.*\.got\$') -eq $n_ports"

# ---- the port kinds and cables scenarios/ports lacks ----
cat >"$TMP/base.json" <<JSON
{ "name": "axp-base", "duration": "5 s", "source": { "kind": "dcp" },
  "device": { "battery": { "soc": "50 %" } } }
JSON
# no port: no VBUS, no interrupt, the limit stays at CHRG_BAK_CTRL's reset 500 mA
chain none "$TMP/base.json" --set source.kind=none
expect none none 500 - "no VBUS: no detection, the reset limit"
# a cable whose data lines touch 200 ms after VBUS: D+ reads low at 0.2 s, 100 ms after
# VBUS valid (the charger's 100 ms input deglitch), so DCD ends at 100 + 10 ms
chain late "$TMP/base.json" --set 'cable.data={"late": "200 ms"}'
expect late DCP 2000 191 "DCD waits for contact: 100 + 10 + 40 + 40 + 1 ms"
# ... 500 ms after VBUS: DCD times out at 300 ms, primary detection at 340 ms reads D-
# on lines not yet touching: an SDP, the misdetection BC1.2's DCD timeout allows
chain late500 "$TMP/base.json" --set 'cable.data={"late": "500 ms"}'
expect late500 SDP 500 341 "contact after the DCD timeout: 300 + 40 + 1 ms"
# other sources by kind: a bare Type-C source and a PD source at their defaults
chain kind-typec "$TMP/base.json" --set source.kind=typec
expect kind-typec DCP 2000 91 "Type-C: its D+/D- short"
chain kind-cdp "$TMP/base.json" --set source.kind=cdp
expect kind-cdp CDP 1500 91 "CDP"

# ---- unplug and replug: VBUS fall clears the cable, the next plug detects again ----
cat >"$TMP/replug.json" <<JSON
{ "name": "axp-replug", "duration": "20 s", "source": { "kind": "cdp" },
  "device": { "battery": { "soc": "50 %" } }, "policy": "linux/axp288_charger",
  "events": [ { "at": "5 s", "do": "unplug" }, { "at": "8 s", "do": "plug" } ] }
JSON
run replug run "$TMP/replug.json" --policy linux/axp288_charger:dyndbg=true -o "$TMP/replug" -q
expect_status "unplug and replug" 0
python3 - "$TMP/replug/events.jsonl" >"$TMP/replug.seq" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["ev"] == "irq" and e["line"] in ("axp288-vbus-rise", "axp288-vbus-fall", "axp288-bc-usb-chng"):
        print(e["line"])
    elif e["ev"] == "usb_role":
        print("role-" + e["role"])
PY
want="role-none axp288-vbus-rise axp288-bc-usb-chng role-device axp288-vbus-fall role-none axp288-vbus-rise axp288-bc-usb-chng role-device"
got=$(tr '\n' ' ' <"$TMP/replug.seq" | sed 's/ $//')
if [ "$got" = "$want" ]; then
	ok "interrupts and USB roles in order: VBUS rise, BC1.2 done (device role), VBUS fall (no role), again"
else
	not_ok "interrupts and USB roles in order" "want: $want
got:  $got"
fi
# edge-driven: the cable is set when the PMIC interrupts, not on every world update, so
# the charger's cable worker reads a cable once per detection
check "the charger's cable worker read the CDP once per plug" \
	sh -c "test \$(grep -c 'USB CDP charger is connected' '$TMP/replug/events.jsonl') -eq 2"
check "extcon-axp288 took the Cherry Trail path (USB role by VBUS)" \
	grep -q 'controlling USB role based on Vbus presence' "$TMP/replug/events.jsonl"
check "two detections, each a CDP" sh -c "test \$(grep -c '\"step\":\"done\",\"result\":\"cdp\"' '$TMP/replug/events.jsonl') -eq 2"
# unplugged, the charger stops charging (its worker reads VBUS not valid): no charge
# current between 5.2 s and 8 s
check "unplugged: no input current" awk -F, 'NR > 1 && $1 > 5.2 && $1 < 8 && $4 > 0 { bad = 1 } END { exit bad }' "$TMP/replug/trace.csv"

# ---- one process, two runs: extcon-axp288.c is loaded once at a time, and a second run
# gives what the first gave; a sweep's rows do not depend on -j ----
mkdir -p "$TMP/two"
for n in first second; do
	sed "s/\"name\": \"axp-replug\"/\"name\": \"$n\"/" "$TMP/replug.json" >"$TMP/two/$n.json"
done
run two check "$TMP/two" -j 2 -o "$TMP/two-o" -q
expect_status "check: two linux/axp288_charger scenarios, -j 2" 0
m1=$(find "$TMP/two-o" -path '*first/events.jsonl')
m2=$(find "$TMP/two-o" -path '*second/events.jsonl')
if [ -n "$m1" ] && [ -n "$m2" ]; then
	same "the second run in one process = the first (events.jsonl)" "$m1" "$m2"
else
	not_ok "the second run in one process = the first" "no events.jsonl under $TMP/two-o"
fi
cat >"$TMP/sw.json" <<JSON
{ "description": "t", "base": "$TMP/base.json",
  "vary": { "source.kind": ["sdp", "cdp", "dcp", "apple-2.1a"], "policy": ["linux/axp288_charger"] } }
JSON
run sw1 sweep "$TMP/sw.json" -o "$TMP/sw1" -j 1 -q
run sw2 sweep "$TMP/sw.json" -o "$TMP/sw2" -j 2 -q
expect_status "a linux/axp288_charger sweep at -j 2" 0
same "... gives the same results.csv as -j 1" "$TMP/sw1/results.csv" "$TMP/sw2/results.csv"

tl_finish
