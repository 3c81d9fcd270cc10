#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The driver and intel_powerclamp share idle_inject, where a CPU belongs to
# one user at a time. The policy (Documentation/ABI/testing/
# sysfs-devices-platform-ACPI-PAD): first come, first served, per CPU.
# - acpi_pad forces only CPUs no other idle injection user holds; a request
#   it cannot fully meet gets fewer CPUs, and _OST says how many;
# - it takes CPUs that another user releases at its next rotation (rrtime);
# - intel_powerclamp leaves out the CPUs acpi_pad forces, and cannot start
#   (its cooling device state write fails) while acpi_pad forces every CPU
#   of its cpumask; acpi_pad is not disturbed.
# Needs a guest CPU on which intel_powerclamp loads (MWAIT, Intel vendor:
# scripts/vm -c mwait) with 4 CPUs (2 cores x 2 threads):
# acpi_pad keeps CPU 0's core (0, 1) for last and forces 2, 3 first.
. /pad/lib.sh
[ "$(online_cpus | wc -w)" -ge 4 ] || skip_all "need 4 CPUs"
if ! modprobe intel_powerclamp cpumask=4 max_idle=100 2>/tmp/err; then
	skip_all "intel_powerclamp does not load here: $(cat /tmp/err)"
fi
for d in /sys/class/thermal/cooling_device*; do
	[ "$(cat "$d/type")" = intel_powerclamp ] && pc=$d
done
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
[ -n "${pc:-}" ] || { tap_fail "intel_powerclamp has a cooling device"; exit 1; }
echo 1 >"$dev/rrtime"
echo 50 >"$dev/idlepct"

# has CPU: CPU is in the forced set.
has() { case " $(mask_cpus "$(idle_mask)") " in *" $1 "*) return 0 ;; esac; return 1; }
# ost_is STATUS COUNT: the answer fw_request printed.
ost_is() { [ "$ost" = "$ost_calls 128 $1 $2" ]; }
request() {
	ost=$(fw_request "$1") || ost="no _OST"
	ost_calls=${ost%% *}
	diag "request $1: _OST $ost, forced $(idle_mask)"
}

tap_check "intel_powerclamp starts on CPU 2 (cur_state 50)" sh -c "echo 50 >$pc/cur_state"
request 2
tap_check "request 2 with CPU 2 taken: _OST(0x80, 0, 2)" ost_is 0 2
tap_check "request 2: CPUs 1 and 3 forced, not CPU 2" sh -c "[ $(idle_count) = 2 ]"
tap_check "request 2: CPU 2 is not in the forced set" eval '! has 2'
request 3
tap_check "request 3 with one of 3 CPUs taken: _OST(0x80, 0, 2), the truth" ost_is 0 2
# Shares against CPU 0's, measured in the same window: CPU 0 is never forced.
echo 5 >"$dev/idlepct"
shares=$(cpu_shares 3 0 1 2 3)
echo 50 >"$dev/idlepct"
diag "shares (CPU percent): $(echo $shares)"
ref=$(share_of 0 "$shares")
effect "CPU 2 is clamped by intel_powerclamp at 50" below 80 "$(share_of 2 "$shares")" "$ref"
effect "CPU 3 is forced by acpi_pad at idlepct 5" below 50 "$(share_of 3 "$shares")" "$ref"

echo 0 >"$pc/cur_state"
tap_check "intel_powerclamp stopped: acpi_pad takes CPU 2 at its next rotation" wait_count 3
tap_check "CPU 2 is now forced by acpi_pad" has 2
if echo 50 >"$pc/cur_state" 2>/tmp/err; then
	tap_fail "intel_powerclamp cannot start on CPU 2 while acpi_pad forces it"
else
	tap_ok "intel_powerclamp cannot start on CPU 2 while acpi_pad forces it ($(cat /tmp/err))"
fi
tap_check "intel_powerclamp's state is back to 0" sh -c "[ $(cat "$pc/cur_state") = 0 ]"
# With every CPU in its mask, intel_powerclamp leaves out the ones acpi_pad
# forces (1, 2, 3) and clamps the rest (0).
pcp=/sys/module/intel_powerclamp/parameters
echo 50 >$pcp/max_idle && echo f >$pcp/cpumask
tap_check "intel_powerclamp with cpumask f starts beside acpi_pad" sh -c "echo 50 >$pc/cur_state"
inj=$(injecting_cpus)
diag "injecting: $inj, forced by acpi_pad: $(idle_mask)"
tap_check "CPU 0 is clamped and 1-3 still forced: idle injection on 0 1 2 3" [ "$inj" = "0 1 2 3" ]
tap_check "intel_powerclamp logs that it clamps CPU 0 of 0-3" \
	sh -c "dmesg | grep -q 'clamping CPUs 0 of 0-3: another idle injection user holds the others'"
echo 0 >"$pc/cur_state"
echo 4 >$pcp/cpumask && echo 100 >$pcp/max_idle
tap_check "acpi_pad still forces 3 CPUs" wait_count 3
sleep 2
tap_check "3 CPUs still forced after two rotations" wait_count 3

request 0
tap_check "request 0: released, _OST(0x80, 0, 0)" ost_is 0 0
tap_check "intel_powerclamp starts once acpi_pad has released CPU 2" sh -c "echo 50 >$pc/cur_state"
echo 0 >"$pc/cur_state"

# The other way round: intel_powerclamp holds every CPU first, so a request
# gets none, says so, and gets them once intel_powerclamp stops.
echo 50 >$pcp/max_idle && echo f >$pcp/cpumask
tap_check "intel_powerclamp with cpumask f starts on every CPU" sh -c "echo 50 >$pc/cur_state"
request 2
tap_check "request 2 with every CPU taken: _OST(0x80, 0, 0)" ost_is 0 0
tap_check "request 2 with every CPU taken: none forced" sh -c "[ $(idle_count) = 0 ]"
echo 0 >"$pc/cur_state"
tap_check "intel_powerclamp stopped: acpi_pad takes 2 CPUs at its next rotation" wait_count 2
request 0
tap_check "intel_powerclamp and acpi_pad refusing each other logged no error" \
	sh -c "! dmesg | grep -qE 'already registered|idle_inject_register failed'"
rmmod acpi_pad
rmmod intel_powerclamp
sleep 0.5
running=$(cat /proc/[0-9]*/stat 2>/dev/null | awk '$2 ~ /^\(idle_inject\// && $3 != "S" { print $2 $3 }')
tap_check "no idle injection kthread runs after both are unloaded ${running:+($running)}" [ -z "$running" ]
tap_check "no kernel report (WARNING, BUG, lockdep, ...)" dmesg_clean
if clock_ok; then
	tap_ok "the clock measured CPU shares truthfully (tsc, stable)"
else
	tap_skip_desc "the clock measured CPU shares truthfully" "the clocksource changed during the run: shares measured after that are not trustworthy"
fi
tap_done
