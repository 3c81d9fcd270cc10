#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kselftest killed in the middle, as run_kselftest.sh kills a test that
# overruns its timeout (SIGTERM): while one of its tests has CPUs forced and
# a CPU offline. Afterwards everything must be as before the run: all CPUs
# online, nothing forced, the test's tables unloaded and the driver module
# it loaded unloaded. Boot without a PAD (-a none): the test then brings its
# own firmware, so that there is the most to undo.
. /pad/lib.sh
cpus=/sys/devices/system/cpu/online
before=$(cat $cpus)
[ -w /sys/devices/system/cpu/cpu1/online ] || skip_all "no CPU hotplug"
/kselftest/acpi/pad_test -t hotplug_replace -t hotplug_no_replacement >/tmp/ksft.out 2>&1 &
pid=$!
# Bounded: 60 s for a test to have a CPU offline and CPUs forced.
offline_and_forced() {
	[ "$(cat $cpus)" != "$before" ] && [ -n "$(pad_dev)" ] && [ "$(idle_count)" -gt 0 ]
}
wait_for 600 offline_and_forced
state="online $(cat $cpus), forced [$(mask_cpus "$(idle_mask 2>/dev/null)")]"
if [ "$(cat $cpus)" = "$before" ]; then
	kill -TERM $pid 2>/dev/null
	wait $pid
	sed 's/^/    /' /tmp/ksft.out
	skip_all "the test never had a CPU offline with CPUs forced within 60 s ($state)"
fi
diag "SIGTERM to pad_test while $state"
kill -TERM $pid
wait $pid
rc=$?
sed 's/^/    /' /tmp/ksft.out
tap_check "pad_test ended by the SIGTERM (exit status $rc)" [ $rc -eq 143 ]
tap_check "it said it cleaned up" grep -q 'killed by signal 15: cleaned up' /tmp/ksft.out
tap_check "all CPUs online again ($(cat $cpus), before: $before)" [ "$(cat $cpus)" = "$before" ]
tap_check "no test process left" sh -c '! grep -qx pad_test /proc/[0-9]*/comm'
tap_check "the test's tables unloaded" sh -c '[ -z "$(ls /sys/kernel/config/acpi/table 2>/dev/null)" ]'
tap_check "the driver module it loaded is unloaded" sh -c '! grep -q "^acpi_pad " /proc/modules'
tap_check "no idle injection thread runs" [ -z "$(injecting_cpus)" ]
tap_check "no kernel report (warning, oops, lockdep, ...)" dmesg_clean
tap_done
