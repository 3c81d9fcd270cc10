#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo: the firmware asks for N idle CPUs (padcount= on the command line,
# default 2), the driver idles them, _OST tells the firmware; then release.
. /pad/lib.sh
n=$(sed -n 's/.*padcount=\([0-9]*\).*/\1/p' /proc/cmdline)
n=${n:-2}
rc=0

# One CPU at a time: with a busy vCPU per host core, QEMU's timing (not the
# driver) would decide what the tasks get.
show_shares() {
	mask=$(idle_mask)
	forced=" $(mask_cpus "$mask") "
	printf '   %-4s %-8s %s\n' CPU forced "busy task got"
	for cpu in $(online_cpus); do
		f=no
		case $forced in *" $cpu "*) f=yes ;; esac
		printf '   %-4s %-8s %3s%%\n' "$cpu" "$f" "$(share_of "$cpu" "$(cpu_shares 2 "$cpu")")"
	done
}

echo "== Loading acpi_pad"
modprobe acpi_pad || exit 1
dev=$(pad_dev) || { echo "no ACPI000C device bound to processor_aggregator"; exit 1; }
echo "   bound: $dev"
echo "   CPUs online: $(online_cpus)(SMT pairs: $(cat /sys/devices/system/cpu/cpu*/topology/thread_siblings_list | sort -u | tr '\n' ' '))"
echo "   idlepct=$(cat "$dev/idlepct") (a forced CPU runs tasks $(cat "$dev/idlepct")% of each period, plus what the" \
	"scheduler's fair server grants: 50 ms a second) rrtime=$(cat "$dev/rrtime")s"
echo 99 >"$dev/rrtime"	# keep the forced set still while we measure

echo "== Before any request"
show_shares

echo "== Firmware: _PUR answers $n, Notify(\\_SB.PAD0, 0x80)"
ost=$(fw_request "$n") || { echo "   _OST was not called"; exit 1; }
# shellcheck disable=SC2086 # four numbers
set -- $ost
echo "   _OST(0x$(printf %x "$2"), status $3, idled $4)  [call $1]"
mask=$(idle_mask)
echo "   idlecpus: $mask -> CPUs $(mask_cpus "$mask")"
[ "$2" = 128 ] && [ "$3" = 0 ] && [ "$4" = "$(mask_weight "$mask")" ] || rc=1
show_shares
echo "   threads: $(ps -o comm | grep -c '^idle_inject/') idle_inject/N (none named acpi_pad/N: $(ps -o comm | grep -c '^acpi_pad/'))"

echo "== Firmware: _PUR answers 0, Notify(\\_SB.PAD0, 0x80)"
ost=$(fw_request 0) || { echo "   _OST was not called"; exit 1; }
# shellcheck disable=SC2086 # four numbers
set -- $ost
echo "   _OST(0x$(printf %x "$2"), status $3, idled $4)  [call $1]"
echo "   idlecpus: $(idle_mask)"
[ "$3" = 0 ] && [ "$4" = 0 ] || rc=1
show_shares

echo 1 >"$dev/rrtime"
rmmod acpi_pad || rc=1
# The shares are shown, not checked: a changed clock makes them untrustworthy,
# not the demo wrong.
clock_ok || echo "note: the shares above are not trustworthy: the guest clock changed"
dmesg_clean || { echo "the kernel log has the reports above"; rc=1; }
exit $rc
