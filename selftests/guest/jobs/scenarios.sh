#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Firmware scenarios: what _OST receives and what idlecpus shows for good and
# malformed _PUR answers and for unsupported notifications. Booted with
# acpica_no_return_repair, ACPICA hands the driver _PUR's raw object;
# otherwise it repairs what it can first (a String element becomes an
# Integer), and the expectations below say which result applies.
. /pad/lib.sh
repair=1
grep -q acpica_no_return_repair /proc/cmdline && repair=0
# AML Integers are 64 bits wide with a DSDT of revision 2 or more (QEMU's is
# 1; scripts/test also boots with a revision 2 copy through the initrd).
width=32
[ "$(od -An -tu1 -j8 -N1 /sys/firmware/acpi/tables/DSDT | tr -d ' ')" -ge 2 ] && width=64
grep -q padwidth=64 /proc/cmdline && [ $width = 32 ] &&
	{ tap_fail "the revision 2 DSDT from the initrd is in effect"; exit 1; }

modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds to ACPI000C"; exit 1; }
tap_ok "acpi_pad binds to ACPI000C (ACPICA return repair: $repair, $width-bit Integers)"
echo 99 >"$dev/rrtime"
ncpus=$(online_cpus | wc -w)
idleable=$(idleable_cpus)

# expect DESC COUNT STATUS IDLED: request COUNT, check _OST and idlecpus.
expect() {
	got=$(fw_request "$2") || { tap_fail "$1: _OST not called"; return; }
	set -- "$1" "$2" "$3" "$4" $got
	mask=$(idle_mask)
	if [ "$6" = 128 ] && [ "$7" = "$3" ] && [ "$8" = "$4" ] &&
		[ "$(mask_weight "$mask")" = "$4" ] && ! mask_has0 "$mask"; then
		tap_ok "$1: _OST(0x80, $7, $8), idlecpus $mask"
	else
		tap_fail "$1: _OST(0x$(printf %x "$6"), $7, $8), idlecpus $mask; want _OST(0x80, $3, $4)"
	fi
}
mask_has0() { case " $(mask_cpus "$1") " in *" 0 "*) return 0 ;; esac; return 1; }
# malformed MODE DESC STATUS IDLED: _PUR answers in MODE, asking for 1 CPU,
# with 2 CPUs forced idle before.
malformed() {
	fw_mode 0
	fw_request 2 >/dev/null
	fw_mode "$1"
	expect "$2" 1 "$3" "$4"
	fw_mode 0
}

expect "count 1" 1 0 1
expect "count 0 releases" 0 0 0
expect "count 2" 2 0 2
expect "count = idleable CPUs ($idleable)" $idleable 0 $idleable
expect "count = all CPUs ($ncpus): the boot CPU stays" $ncpus 0 $idleable
expect "count 64: more than exist" 64 0 $idleable
fw_mode 16
if [ $width = 32 ]; then
	expect "count Ones (0xffffffff)" 1 0 $idleable
else
	expect "count Ones (0xffffffffffffffff): clamped, all that can be" 1 0 $idleable
fi
fw_mode 0
expect "count 0 again" 0 0 0

malformed 1 "revision 2: no action" 1 2
tap_check "revision 2 is named in the log" sh -c 'dmesg | grep -q "_PUR revision 2 is not supported"'
malformed 2 "three elements: no action" 1 2
tap_check "element count is named in the log" sh -c 'dmesg | grep -q "_PUR is not a package of two elements"'
malformed 3 "one element: no action" 1 2
if [ $repair = 1 ]; then
	malformed 4 "count is a String: repaired to Integer 2" 0 2
	malformed 5 "revision is a String: repaired to Integer 1" 0 1
	malformed 7 "count is a Buffer: repaired to Integer 2" 0 2
else
	malformed 4 "count is a String: no action" 1 2
	malformed 5 "revision is a String: no action" 1 2
	malformed 7 "count is a Buffer: no action" 1 2
fi
tap_check "wrong element types are named in the log" sh -c \
	"[ $repair = 1 ] || dmesg | grep -q '_PUR elements are not integers'"
malformed 6 "not a package: no action" 1 2
malformed 8 "method faults (divide by zero): no action" 1 2
tap_check "failed evaluation is named in the log" sh -c 'dmesg | grep -q "_PUR evaluation failed: AE_AML_DIVIDE_BY_ZERO"'
if [ $width = 32 ]; then
	# With 32-bit Integers the count 0x100000002 is truncated to 2 when
	# the table loads.
	malformed 9 "64-bit count in a 32-bit namespace: loads as 2" 0 2
else
	malformed 9 "count 0x100000002 beyond 32 bits: clamped, all that can be" 0 $idleable
fi

fw_request 1 >/dev/null
calls=$(fw_ost | cut -d' ' -f1)
mask=$(idle_mask)
fw_notify 81
fw_notify 90
sleep 1
tap_check "notify 0x81 and 0x90: _OST not called" [ "$(fw_ost | cut -d' ' -f1)" = "$calls" ]
tap_check "notify 0x81 and 0x90: idlecpus unchanged" [ "$(idle_mask)" = "$mask" ]
tap_check "notify 0x81 is logged as unsupported" sh -c 'dmesg | grep -q "unsupported notification 0x81"'

fw_request 0 >/dev/null
tap_check "rmmod acpi_pad" rmmod acpi_pad
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
