#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# System suspend while CPUs are forced idle, woken by the CMOS RTC alarm:
# the suspend returns, the forced set survives it or is restored (as many
# CPUs forced as before, and exactly the CPUs idlecpus shows inject idle),
# the firmware is still answered, and the kernel log has no report.
# pmstate=STATE on the kernel command line picks the state: mem (default:
# suspend to RAM, S3 on QEMU's q35; the non-boot CPUs go offline and come
# back, so the driver must restore the forced set) or freeze (suspend to
# idle). Suspend to idle is skipped unless asked for: nothing wakes a
# suspended-to-idle QEMU TCG guest here (measured: the RTC alarm fires
# through HPET and, with hpet=disable, on IRQ 8, and the guest sleeps on
# until the time limit), and a test that can only hang tells nothing.
# Needs CONFIG_SUSPEND and an RTC with a wake alarm (the "san" build has
# them: kernel-config/san/suspend.config); skips (exit 4) without.
. /pad/lib.sh
rtc=/sys/class/rtc/rtc0
state=$(sed -n 's/.*pmstate=\([a-z]*\).*/\1/p' /proc/cmdline)
state=${state:-mem}
grep -qw "$state" /sys/power/state 2>/dev/null ||
	skip_all "'$state' not in /sys/power/state ($(cat /sys/power/state 2>/dev/null)): kernel without CONFIG_SUSPEND?"
[ -w $rtc/wakealarm ] ||
	skip_all "no RTC wake alarm ($rtc/wakealarm): nothing would wake the guest"
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
ncpus=$(online_cpus | wc -w)
last=$((ncpus - 1))
[ "$state" = freeze ] ||
	tap_skip "suspend to idle: nothing wakes a suspended-to-idle QEMU TCG guest (RTC alarm through HPET or IRQ 8); boot with pmstate=freeze to try"
[ "$state" != mem ] || diag "suspend to RAM: mem_sleep is $(cat /sys/power/mem_sleep)"

# suspend SECS: suspend to $state for SECS seconds (RTC alarm); fail when
# the write fails. QEMU drops an alarm that fires before the guest is in S3
# (a CI run hung on the first 3 s alarm; with a 1 s alarm 1 of 3 boots slept
# on); scripts/vm then wakes the guest after 30 s, and a diag says so. A
# resume that hangs is the scripts/vm time limit's.
suspend() {
	echo 0 >$rtc/wakealarm
	echo "+$1" >$rtc/wakealarm || return 1
	t0=$(date +%s)
	echo "$state" >/sys/power/state || return 1
	back=$(($(date +%s) - t0))
	diag "$state: back after $back s (alarm +$1 s)"
	[ $back -lt 30 ] ||
		diag "woken by scripts/vm, not by the alarm: QEMU dropped it, or the kernel lost the wakeup"
}

tap_check "$state without forced CPUs returns" suspend 3
echo 50 >"$dev/idlepct"
echo 99 >"$dev/rrtime"
for count in 2 $last; do
	echo $count >"$dev/idlecpus"
	wait_count $count
	before=$(idle_mask)
	inj=$(injecting_cpus)
	tap_check "idlecpus=$count: [$(mask_cpus "$before")] inject idle before ([$inj])" \
		[ "$inj" = "$(mask_cpus "$before")" ]
	for round in 1 2; do
		tap_check "idlecpus=$count, round $round: $state returns" suspend 3
		wait_count $count
		after=$(idle_mask)
		inj=$(injecting_cpus)
		tap_check "idlecpus=$count, round $round: $count CPUs forced again ($before -> $after), the same inject idle ([$inj])" \
			[ "$(mask_weight "$after")" = $count -a "$inj" = "$(mask_cpus "$after")" ]
		[ "$after" = "$before" ] ||
			diag "the forced CPUs moved across $state: [$(mask_cpus "$before")] -> [$(mask_cpus "$after")] (CPUs are used again in the order they come online)"
	done
done
set -- $(fw_request 1)
tap_check "after resume the firmware asks 1: _OST(0x80, 0, 1)" [ "$2 $3 $4" = "128 0 1" -a "$(idle_count)" = 1 ]
set -- $(fw_request 0)
tap_check "firmware asks 0: _OST(0x80, 0, 0), nothing injecting" \
	[ "$2 $3 $4" = "128 0 0" -a -z "$(injecting_cpus)" ]
tap_check "rmmod acpi_pad" rmmod acpi_pad
tap_check "no kernel report (warning, oops, lockdep, KASAN, UBSAN, KFENCE, hung task, RCU stall, ODEBUG)" dmesg_clean
tap_done
