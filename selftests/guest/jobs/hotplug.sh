#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# CPU hotplug during injection, driven by the firmware: a forced CPU going
# offline is replaced, an onlined CPU is used while the request is unmet,
# and idlecpus and _OST stay true.
. /pad/lib.sh
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
echo 99 >"$dev/rrtime"
ncpus=$(online_cpus | wc -w)
[ "$ncpus" -ge 3 ] && [ -w /sys/devices/system/cpu/cpu1/online ] ||
	skip_all "need 3 CPUs and CPU hotplug"

# wait_mask CMD: poll (bounded, 5 s) until CMD "$(idle_mask)" succeeds.
wait_mask() { wait_for 50 mask_matches "$@"; }
mask_matches() { "$@" "$(idle_mask)"; }
weight_is() { [ "$(mask_weight "$2")" = "$1" ]; }
# lacks CPU N MASK: CPU is not in MASK, which has N CPUs.
lacks() { case " $(mask_cpus "$3") " in *" $1 "*) return 1 ;; esac; weight_is "$2" "$3"; }

set -- $(fw_request 1)
first=$(mask_cpus "$(idle_mask)")
tap_check "firmware asks 1: _OST(0x80, 0, 1)" [ "$2 $3 $4" = "128 0 1" ]
echo 0 >"/sys/devices/system/cpu/cpu$first/online"
tap_check "forced CPU $first offline: replaced by another CPU" wait_mask lacks "$first" 1
echo 1 >"/sys/devices/system/cpu/cpu$first/online"

all=$((ncpus - 1))
set -- $(fw_request $ncpus)
tap_check "firmware asks $ncpus: _OST(0x80, 0, $all)" [ "$2 $3 $4" = "128 0 $all" ]
victim=$(mask_cpus "$(idle_mask)" | awk '{ print $NF }')
echo 0 >"/sys/devices/system/cpu/cpu$victim/online"
tap_check "CPU $victim offline with no spare: $((all - 1)) forced, $victim not among them" \
	wait_mask lacks "$victim" $((all - 1))
set -- $(fw_request $ncpus)
tap_check "firmware asks again while CPU $victim is offline: _OST(0x80, 0, $((all - 1)))" \
	[ "$2 $3 $4" = "128 0 $((all - 1))" ]
echo 1 >"/sys/devices/system/cpu/cpu$victim/online"
tap_check "CPU $victim back online: used again, $all forced" wait_mask weight_is $all

set -- $(fw_request 0)
tap_check "firmware asks 0: _OST(0x80, 0, 0)" [ "$2 $3 $4" = "128 0 0" ]
tap_check "rmmod acpi_pad" rmmod acpi_pad
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
