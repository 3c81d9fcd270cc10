#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# CPU hotplug while the forced set rotates every second: changing the set
# must never make CPU hotplug fail. Offlining and onlining a CPU that is
# not kept running, in a loop, must succeed every time (before idle_inject
# could change a device's CPUs, each rotation stopped injection, which
# disables CPU hotplug for a moment, and cpu_down() failed with EBUSY).
# Phase 1: idlecpus=1, CPU 1 (never forced: only rotation changes the set).
# Phase 2: idlecpus=2, CPU 3 (forced: each offline replaces it).
. /pad/lib.sh
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
[ "$(online_cpus | wc -w)" -ge 4 ] && [ -w /sys/devices/system/cpu/cpu1/online ] &&
	[ -w /sys/devices/system/cpu/cpu3/online ] ||
	skip_all "need 4 CPUs and CPU hotplug"
echo 1 >"$dev/rrtime"
echo 50 >"$dev/idlepct"

CYCLES=300	# per phase
LIMIT=240	# seconds per phase

# cycle CPU: offline and online CPU once; count the failed writes in
# fails and those that failed with EBUSY in busy.
cycle() {
	f=/sys/devices/system/cpu/cpu$1/online
	for v in 0 1; do
		if ! echo $v >"$f" 2>/tmp/hp.err; then
			fails=$((fails + 1))
			grep -qi busy /tmp/hp.err && busy=$((busy + 1))
		fi
	done
}

# phase COUNT CPU: force COUNT CPUs idle and cycle CPU until CYCLES cycles
# are done or LIMIT seconds have passed.
phase() {
	count=$1 cpu=$2
	echo "$count" >"$dev/idlecpus"
	tap_check "idlecpus=$count: $count CPUs forced" wait_count "$count"
	fails=0 busy=0 n=0
	start=$(date +%s)
	end=$((start + LIMIT))
	while [ $n -lt $CYCLES ] && [ "$(date +%s)" -lt $end ]; do
		cycle "$cpu"
		n=$((n + 1))
	done
	secs=$(($(date +%s) - start))
	# Whatever happened, leave the CPU online.
	echo 1 >"/sys/devices/system/cpu/cpu$cpu/online" 2>/dev/null
	diag "idlecpus=$count, CPU $cpu: $n cycles in ${secs}s, $fails failed writes ($busy EBUSY)"
	total=$((total + n))
	# How many cycles fit in LIMIT is the machine's speed, not the driver's
	# behaviour: only ask that some ran.
	tap_check "idlecpus=$count, CPU $cpu: offline/online cycles ran ($n of up to $CYCLES in ${secs}s)" \
		[ $n -gt 0 ]
	tap_check "idlecpus=$count, CPU $cpu: no offline/online write failed ($fails, $busy EBUSY)" \
		[ $fails -eq 0 ]
	tap_check "idlecpus=$count, CPU $cpu: $count CPUs still forced" wait_count "$count"
}

total=0
phase 1 1
phase 2 3
diag "total: $total offline/online cycles"

echo 0 >"$dev/idlecpus"
tap_check "idlecpus=0: nothing forced" wait_count 0
tap_check "rmmod acpi_pad" rmmod acpi_pad
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
