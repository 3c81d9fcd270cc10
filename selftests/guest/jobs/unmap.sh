#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory unmapped on forced CPUs. All CPUs that can be forced are forced
# idle 95 ms of every 100 ms; on every CPU a loop of processes maps, touches and unmaps
# 64 MB (dd bs=32M count=2) for unmapsecs= seconds (default 90). Every loop
# must end in time and the kernel log stay clean. Without "sched/idle: Mark
# only the injecting task when an idle period ends", a task on a forced CPU
# of a PREEMPT_NONE kernel looped in zap_pte_range() for good (a soft
# lockup): with isolcpus=0, in 4 of 5 boots within 90 s of load, when
# isolated CPUs were still forced last. A loop
# stuck on the CPU this script runs on stops the script too: then the host's
# time limit ends the boot, which counts as failed.
. /pad/lib.sh
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
secs=${unmapsecs:-90}
cpus=$(online_cpus)
n=$(idleable_cpus)
[ "$n" -ge 1 ] || skip_all "need a CPU that can be forced"
echo 5 >"$dev/idlepct"
echo "$n" >"$dev/idlecpus"
tap_check "$n CPUs forced idle at idlepct 5" wait_count "$n"

end=$(($(date +%s) + secs))
for c in $cpus; do
	(
		runs=0
		while [ "$(date +%s)" -lt "$end" ]; do
			taskset -c "$c" dd if=/dev/zero of=/dev/null bs=32M count=2 2>/dev/null ||
				{ echo "dd failed" >"/tmp/unmap.$c"; exit 1; }
			runs=$((runs + 1))
		done
		echo "$runs runs" >"/tmp/unmap.$c"
	) &
done
# A run takes under a second on a free CPU and a few on a forced one: a
# loop still going 60 s after its end is stuck.
all_done() { for c in $cpus; do [ -e "/tmp/unmap.$c" ] || return 1; done; }
while ! all_done && [ "$(date +%s)" -lt $((end + 60)) ]; do
	sleep 1
done
stuck=0
for c in $cpus; do
	if [ -e "/tmp/unmap.$c" ]; then
		tap_check "CPU $c: the map/unmap loop ended ($(cat "/tmp/unmap.$c"))" grep -q runs "/tmp/unmap.$c"
	else
		tap_fail "CPU $c: the map/unmap loop ended (still running 60 s after its end)"
		stuck=1
	fi
done
# Releasing the CPUs waits for every injecting thread, which a stuck CPU
# never runs again: release them only when no loop is stuck.
[ $stuck = 1 ] || tap_check "all CPUs released" sh -c "echo 0 >'$dev/idlecpus'"
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
