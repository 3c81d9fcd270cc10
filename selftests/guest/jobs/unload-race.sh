#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reproducer of a kernel crash, not run by scripts/test: unload an ACPI table
# through configfs while the bus scan queued by a table load runs.
#   scripts/vm -n san -a none -k unloadcycles=100 [-k unloadmode=sleep] unload-race
# With no PAD in the firmware, each cycle of the default mode loads the
# emulated PAD's SSDT (/pad/pad.aml: \_SB.PAD0, ACPI000C, with acpi_pad
# bound, and devices with Serialized _STA methods), makes a firmware
# request (padfw SETN 1: one more table, whose load queues a bus scan;
# padfw returns once that scan has started) and unloads both tables at
# once, as the kselftest's cleanup did. unloadmode=sleep loads
# /pad/unload.aml instead (selftests/firmware/unload.asl: one device whose
# _STA sleeps 50 ms) and unloads it 20 ms later. "not ok" and a kernel
# report when it hit the crash (a KASAN use-after-free on the san kernel).
. /pad/lib.sh
arg() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
cycles=$(arg unloadcycles)
mode=$(arg unloadmode)
: "${cycles:=100}" "${mode:=pad}"
t=/sys/kernel/config/acpi/table
[ -d $t ] || mount -t configfs none /sys/kernel/config 2>/dev/null
[ -d $t ] || modprobe acpi_configfs
[ -d $t ] || skip_all "no ACPI configfs"
! pad_dev >/dev/null 2>&1 || skip_all "the firmware has a PAD: boot with -a none"
modprobe acpi_pad
i=0
while [ $i -lt "$cycles" ]; do
	if [ "$mode" = sleep ]; then
		mkdir $t/race && cat /pad/unload.aml >$t/race/aml || break
		usleep 20000
		rmdir $t/race || break
	else
		mkdir $t/race && cat /pad/pad.aml >$t/race/aml || break
		wait_for 100 pad_dev >/dev/null || { diag "acpi_pad did not bind"; break; }
		fw_exec SETN 1 >/dev/null || { diag "the request failed"; break; }
		rmdir $t/padfw.* $t/race || break
		rm -f /tmp/padfw.next
	fi
	dmesg | grep -qE 'BUG|Oops|general protection' && break
	i=$((i + 1))
done
diag "$i of $cycles cycles ($mode) done"
tap_check "$cycles cycles of loading a table and unloading it during a bus scan complete" test $i = "$cycles"
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
