#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One kselftest of the acpi suite, named by padtest= on the kernel command
# line, run directly (not through run_kselftest.sh) so that its TAP reaches
# the console as it goes: for a driver that may hang the guest (scripts/stock).
# padtest=LIST prints "PAD-TEST NAME" for each test instead: the test binary
# is listed where it may run, in the guest, never on the host.
. /pad/lib.sh
t=$(sed -n 's/.*padtest=\([^ ]*\).*/\1/p' /proc/cmdline)
[ -n "$t" ] || { tap_fail "padtest= names a test"; exit 1; }
modprobe acpi_pad
if [ "$t" = LIST ]; then
	# kselftest_harness -l: a header, then "FIXTURE VARIANT TEST" rows
	# with separator lines between fixtures.
	/kselftest/acpi/pad_test -l 2>&1 | awk '!/^#/ && !/^---/ && NF { print "PAD-TEST " $NF }' | sort -u
	exit 0
fi
/kselftest/acpi/pad_test -t "$t"
rc=$?
dmesg_clean || { echo "# kernel log has a warning, oops or lockdep report"; rc=1; }
exit $rc
