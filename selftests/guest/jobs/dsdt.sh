#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the DSDT QEMU built for this machine, base64-encoded between markers,
# for scripts/lib.sh's dsdt64_initrd, which raises its revision to 2.
echo DSDT-BEGIN
base64 /sys/firmware/acpi/tables/DSDT
echo DSDT-END
