#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the acpi kselftests the way test farms do (run_kselftest.sh), then
# restate each test's result as a top-level TAP line for the host to count.
. /pad/lib.sh
modprobe acpi_pad
cd /kselftest || { tap_fail "kselftests installed in the initramfs"; exit 1; }
./run_kselftest.sh -c acpi >/tmp/kselftest.out 2>&1
rc=$?
sed 's/^/    /' /tmp/kselftest.out
# "# ok N name # SKIP reason", "# ok N name", "# not ok N name": the
# results of pad_test, one level down. The description goes before the
# directive, the reason after it.
grep -E '^# (not )?ok [0-9]+ ' /tmp/kselftest.out >/tmp/kselftest.res
while read -r line; do
	case $line in
	"# ok "*"# SKIP"*)
		line=${line#\# ok * }
		tap_skip_desc "${line%% \# SKIP*}" "${line#*\# SKIP }" ;;
	"# ok "*) tap_ok "${line#\# ok [0-9]* }" ;;
	"# not ok "*) tap_fail "${line#\# not ok [0-9]* }" ;;
	esac
done </tmp/kselftest.res
[ -s /tmp/kselftest.res ] || tap_fail "run_kselftest.sh ran no test (exit $rc)"

# Kill pad_test as run_kselftest.sh's timeout does (SIGTERM) while it forces
# CPUs, and check that it put everything back before dying of the signal.
# Not checked: that it brings back a CPU it took offline; its hotplug tests
# keep a CPU offline for a few milliseconds only.
forcing() { d=$(pad_dev) && [ -n "$(mask_cpus "$(cat "$d/idlecpus")")" ]; }
not_forcing() { ! forcing; }
no_tables() { ! ls -d /sys/kernel/config/acpi/table/ksft_pad* >/dev/null 2>&1; }
# The 6.12 backport's older pad_test (no firmware part: no KSFTREQ request
# table) has no signal handler.
if ! grep -q KSFTREQ ./acpi/pad_test; then
	tap_skip_desc "pad_test killed by SIGTERM while forcing CPUs cleans up" "this pad_test does not catch signals (the 6.12 backport's)"
else
	./acpi/pad_test >/tmp/killed.out 2>&1 &
	pid=$!
	if wait_for 600 forcing; then
		sleep 0.5
		kill -TERM $pid
		rc=0
		wait $pid || rc=$?
		tail -n 3 /tmp/killed.out | sed 's/^/    /'
		tap_check "pad_test killed by SIGTERM while forcing CPUs dies of the signal (exit $rc)" \
			test $rc = 143
		tap_check "... after saying it cleaned up" grep -q 'killed by a signal: cleaned up' /tmp/killed.out
		tap_check "... and no CPU is left forced" not_forcing
		tap_check "... its ACPI tables are unloaded" no_tables
	else
		kill -KILL $pid 2>/dev/null
		wait $pid
		tap_skip_desc "pad_test killed by SIGTERM while forcing CPUs cleans up" "it forced no CPU within 60 s"
	fi
fi
if clock_ok; then
	tap_ok "the clock measured CPU shares truthfully (tsc, stable)"
else
	tap_skip_desc "the clock measured CPU shares truthfully" "the clocksource changed during the run: shares measured after that are not trustworthy"
fi
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
