#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unbind, bind and module reload cycles while CPUs are forced idle. Each
# teardown must stop the injection at once (a busy task on a formerly forced
# CPU gets its CPU back), leave no CPU registered with idle_inject (the next
# bind forces CPUs again) and remove the notify handler (the firmware gets no
# _OST while no driver is bound); each new bind must answer the firmware.
. /pad/lib.sh
drv=/sys/bus/platform/drivers/processor_aggregator
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
name=${dev##*/}
[ "$(online_cpus | wc -w)" -ge 2 ] || skip_all "need 2 CPUs"

# force_one: force one CPU idle at idlepct 5 (95 % idle), without
# rotation; print it.
force_one() {
	d=$(pad_dev) && echo 99 >"$d/rrtime" && echo 5 >"$d/idlepct" &&
		echo 1 >"$d/idlecpus" && mask_cpus "$(idle_mask)"
}

# vs_ref CPU: busy tasks on CPU and on CPU 0 (never forced) for 2 s at once;
# prints their shares (%), CPU's first.
vs_ref() {
	s=$(cpu_shares 2 "$1" 0)
	echo "$(share_of "$1" "$s") $(share_of 0 "$s")"
}

# ost_calls: how many times _OST has been called so far.
ost_calls() { fw_ost | cut -d' ' -f1; }

for round in 1 2 3; do
	cpu=$(force_one)
	tap_check "round $round: one CPU forced ($cpu)" [ -n "$cpu" ]
	set -- $(vs_ref "${cpu:-1}")
	effect "round $round: CPU $cpu forced, a busy task there gets little" below 50 "${1:-}" "${2:-}"
	echo "$name" >"$drv/unbind"
	tap_check "round $round: unbind removes the device" [ -z "$(pad_dev)" ]
	set -- $(vs_ref "${cpu:-1}")
	effect "round $round: unbind stops the injection on CPU $cpu" above 50 "${1:-}" "${2:-}"
	before=$(ost_calls)
	fw_exec SETN 2 >/dev/null
	sleep 1
	after=$(ost_calls)
	tap_check "round $round: no _OST while unbound (calls $before, then $after)" \
		[ -n "$before" -a "$after" = "$before" ]
	echo "$name" >"$drv/bind"
	set -- $(fw_request 2)
	tap_check "round $round: bound again, firmware asks 2: _OST(0x80, 0, 2)" \
		[ "$2 $3 $4" = "128 0 2" -a "$(idle_count)" = 2 ]
	set -- $(fw_request 0)
	tap_check "round $round: firmware asks 0: _OST(0x80, 0, 0)" [ "$2 $3 $4" = "128 0 0" ]
done

for round in 1 2 3; do
	cpu=$(force_one)
	tap_check "reload $round: rmmod while CPU $cpu is forced" rmmod acpi_pad
	set -- $(vs_ref "${cpu:-1}")
	effect "reload $round: rmmod stops the injection on CPU $cpu" above 50 "${1:-}" "${2:-}"
	tap_check "reload $round: modprobe binds again" pad_load
	tap_check "reload $round: idlecpus reads 0 after reload" [ "$(idle_count)" = 0 ]
done

# Firmware requests and sysfs writes racing with unbind: nothing may be left
# half done, and the device must work after the last bind.
for round in 1 2 3 4 5; do
	fw_exec SETN 3 >/dev/null &
	(for i in 1 2 3 4 5 6 7 8; do echo 2 >"$dev/idlecpus"; done) 2>/dev/null &
	echo "$name" >"$drv/unbind"
	wait
	echo "$name" >"$drv/bind"
done
dev=$(pad_dev)
set -- $(fw_request 1)
tap_check "after racing unbinds: firmware asks 1: _OST(0x80, 0, 1)" \
	[ "$2 $3 $4" = "128 0 1" -a "$(idle_count)" = 1 ]
echo 0 >"$dev/idlecpus"
tap_check "rmmod acpi_pad" rmmod acpi_pad
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
