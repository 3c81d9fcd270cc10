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
if clock_ok; then
	tap_ok "the clock measured CPU shares truthfully (tsc, stable)"
else
	tap_skip_desc "the clock measured CPU shares truthfully" "the clocksource changed during the run: shares measured after that are not trustworthy"
fi
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
