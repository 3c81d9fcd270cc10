#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The CPU kept running is the first online CPU that does scheduler and
# timer housekeeping. Booted with isolcpus=0 (CPU 0 out of the scheduler
# domains), that is CPU 1; when it goes offline the next housekeeping CPU
# takes its role and must leave the forced set, and when it comes back the
# set grows again. CPU 0, isolated, is never forced, though all CPUs are
# asked for.
. /pad/lib.sh
grep -q 'isolcpus=0' /proc/cmdline || skip_all "boot with isolcpus=0"
[ -w /sys/devices/system/cpu/cpu1/online ] && [ "$(online_cpus | wc -w)" -ge 4 ] ||
	skip_all "need 4 CPUs and CPU hotplug"
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
echo 99 >"$dev/rrtime"
# CPU 0 is never forced: run this job there, and let forced CPUs run 90% of
# the time anyway.
taskset -p 1 $$ >/dev/null
echo 90 >"$dev/idlepct"

# wait_cpus LIST: poll (bounded, 5 s) until the forced CPUs are LIST.
wait_cpus() {
	wait_for 50 cpus_are "$1" && return 0
	diag "forced: $(mask_cpus "$(idle_mask)"), want: $1"
	return 1
}
cpus_are() { [ "$(mask_cpus "$(idle_mask)")" = "$1" ]; }

echo 4 >"$dev/idlecpus"
tap_check "idlecpus=4 with isolcpus=0: CPUs 2 3 forced, CPU 1 kept, CPU 0 isolated" wait_cpus "2 3"
echo 0 >/sys/devices/system/cpu/cpu1/online
tap_check "CPU 1 offline: CPU 2 is kept instead, CPU 3 forced" wait_cpus "3"
echo 1 >/sys/devices/system/cpu/cpu1/online
tap_check "CPU 1 online: kept again, CPUs 2 3 forced" wait_cpus "2 3"
set -- $(fw_request 2)
tap_check "firmware asks 2: _OST(0x80, 0, 2), CPU 1 not forced" \
	[ "$2 $3 $4" = "128 0 2" -a -z "$(mask_cpus "$(idle_mask)" | grep -w 1)" ]
echo 0 >"$dev/idlecpus"
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
