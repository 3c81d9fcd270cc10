# One kselftest of the acpi suite, named by padtest= on the kernel command
# line, run directly (not through run_kselftest.sh) so that its TAP reaches
# the console as it goes: for a driver that may hang the guest (scripts/stock).
. /pad/lib.sh
t=$(sed -n 's/.*padtest=\([^ ]*\).*/\1/p' /proc/cmdline)
[ -n "$t" ] || { tap_fail "padtest= names a test"; exit 1; }
modprobe acpi_pad
/kselftest/acpi/pad_test -t "$t"
rc=$?
dmesg_clean || { echo "# kernel log has a warning, oops or lockdep report"; rc=1; }
exit $rc
