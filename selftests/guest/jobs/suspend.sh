# Suspend to idle (echo freeze > /sys/power/state, woken by the CMOS RTC
# alarm) while CPUs are forced idle: the suspend returns, the forced set
# survives it (same idlecpus, and exactly those CPUs inject idle again),
# the firmware is still answered, and the kernel log has no report.
# Needs a kernel with CONFIG_SUSPEND and an RTC with a wake alarm (the "san"
# build has them: kernel-config/san/suspend.config); skips (exit 4) without.
. /pad/lib.sh
rtc=/sys/class/rtc/rtc0
grep -qw freeze /sys/power/state 2>/dev/null ||
	{ echo "# SKIP no suspend to idle: 'freeze' not in /sys/power/state (kernel without CONFIG_SUSPEND)"; exit 4; }
[ -w $rtc/wakealarm ] ||
	{ echo "# SKIP no RTC wake alarm ($rtc/wakealarm): nothing would wake the guest"; exit 4; }
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
ncpus=$(online_cpus | wc -w)
last=$((ncpus - 1))

# freeze SECS: suspend to idle for SECS seconds (RTC alarm); fail when the
# write fails. Whether it returns at all is the scripts/vm time limit's.
freeze() {
	echo 0 >$rtc/wakealarm
	echo "+$1" >$rtc/wakealarm || return 1
	t0=$(date +%s)
	echo freeze >/sys/power/state || return 1
	diag "suspended to idle and back after $(($(date +%s) - t0)) s (alarm +$1 s)"
}

tap_check "suspend to idle without forced CPUs" freeze 3
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
		tap_check "idlecpus=$count, round $round: suspend to idle returns" freeze 3
		after=$(idle_mask)
		inj=$(injecting_cpus)
		tap_check "idlecpus=$count, round $round: forced set kept ($before -> $after), injecting [$inj]" \
			[ "$after" = "$before" -a "$inj" = "$(mask_cpus "$after")" ]
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
