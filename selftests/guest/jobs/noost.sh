#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Firmware without _OST (booted with pad-noost.aml): requests are still
# honoured, and the missing _OST is neither fatal nor noisy.
. /pad/lib.sh
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }

tap_check "the firmware's request for 2 is made (SETN 2)" fw_exec SETN 2
tap_check "firmware asks 2: 2 CPUs forced idle" wait_count 2
tap_check "the firmware's request for 0 is made (SETN 0)" fw_exec SETN 0
tap_check "firmware asks 0: released" wait_count 0
tap_check "no _OST ran (the firmware has none)" [ "$(fw_ost | cut -d' ' -f1)" = 0 ]
tap_check "rmmod acpi_pad" rmmod acpi_pad
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
