# Run the acpi kselftests the way test farms do (run_kselftest.sh), then
# restate each test's result as a top-level TAP line for the host to count.
. /pad/lib.sh
modprobe acpi_pad
cd /kselftest || { tap_fail "kselftests installed in the initramfs"; exit 1; }
./run_kselftest.sh -c acpi >/tmp/kselftest.out 2>&1
rc=$?
sed 's/^/    /' /tmp/kselftest.out
n=0
while read -r line; do
	n=$((n + 1))
	case $line in
	"# ok "*"# SKIP"*) tap_skip "${line#\# ok * }" ;;
	"# ok "*) tap_ok "${line#\# ok [0-9]* }" ;;
	"# not ok "*) tap_fail "${line#\# not ok [0-9]* }" ;;
	esac
done <<INNER
$(grep -E '^# (not )?ok [0-9]+ ' /tmp/kselftest.out)
INNER
[ $n -gt 0 ] || tap_fail "run_kselftest.sh ran no test (exit $rc)"
tap_check "the clock measured CPU shares truthfully (tsc, stable)" clock_ok
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
