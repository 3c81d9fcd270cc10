#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# CPU hotplug while intel_powerclamp starts and stops, in its default mode
# (all CPUs, the update() path): stopping idle injection must not make a
# CPU offline or online fail. idle_inject_stop() disabled CPU hotplug
# while it waited for the kthreads, and cpu_down()/cpu_up() failed with
# EBUSY meanwhile (patch "powercap: idle_inject: Do not disable CPU
# hotplug in idle_inject_stop()"). No acpi_pad here: intel_powerclamp
# alone. Needs a guest CPU on which intel_powerclamp loads (scripts/vm -c
# mwait) and a CPU that can go offline.
. /pad/lib.sh
f=/sys/devices/system/cpu/cpu1/online
[ -w $f ] || skip_all "need CPU hotplug of CPU 1"
if ! modprobe intel_powerclamp duration=25 2>/tmp/err; then
	skip_all "intel_powerclamp does not load here: $(cat /tmp/err)"
fi
for d in /sys/class/thermal/cooling_device*; do
	[ "$(cat "$d/type")" = intel_powerclamp ] && pc=$d
done
[ -n "${pc:-}" ] || { tap_fail "intel_powerclamp has a cooling device"; exit 1; }
# Its default mode first: every CPU forced, once started (with
# CONFIG_CPUMASK_OFFSTACK off, the mask stayed empty and none was before
# patch "thermal: intel: powerclamp: Use all CPUs by default without
# CPUMASK_OFFSTACK").
diag "intel_powerclamp cpumask=$(cat /sys/module/intel_powerclamp/parameters/cpumask), present CPUs $(cat /sys/devices/system/cpu/present)"
all=$(online_cpus | sed 's/ $//')
echo 50 >"$pc/cur_state"
got=$(injecting_cpus)
echo 0 >"$pc/cur_state"
tap_check "intel_powerclamp at 50 by default injects idle on every CPU ($all): on '$got'" \
	[ "$got" = "$all" ]

# Offline/online cycles of CPU 1 (pchcycles=N on the kernel command line:
# the window in which a stop could make one fail is short, and only a
# long run shows how often it did) and a time limit for them.
CYCLES=$(sed -n 's/.*pchcycles=\([0-9]*\).*/\1/p' /proc/cmdline)
CYCLES=${CYCLES:-200}
LIMIT=$((CYCLES * 2))

# The clamp loop: start and stop intel_powerclamp until told to end;
# count its starts.
rm -f /tmp/pc.stop
(
	n=0
	while [ ! -e /tmp/pc.stop ]; do
		echo 90 >"$pc/cur_state" 2>/dev/null && n=$((n + 1))
		sleep 0.1
		echo 0 >"$pc/cur_state"
	done
	echo $n >/tmp/pc.starts
) &
clamp=$!

fails=0 busy=0 n=0
start=$(date +%s)
end=$((start + LIMIT))
while [ $n -lt $CYCLES ] && [ "$(date +%s)" -lt $end ]; do
	for v in 0 1; do
		if ! echo $v >$f 2>/tmp/hp.err; then
			fails=$((fails + 1))
			grep -qi busy /tmp/hp.err && busy=$((busy + 1))
		fi
	done
	n=$((n + 1))
done
secs=$(($(date +%s) - start))
touch /tmp/pc.stop
wait $clamp
echo 1 >$f 2>/dev/null
starts=$(cat /tmp/pc.starts)
diag "CPU 1: $n offline/online cycles in ${secs}s, $fails failed writes ($busy EBUSY); intel_powerclamp started $starts times"
# How many cycles and starts fit is the machine's speed: only ask that
# both ran, and that they overlapped.
tap_check "offline/online cycles ran ($n of up to $CYCLES in ${secs}s)" [ $n -gt 0 ]
tap_check "intel_powerclamp started and stopped meanwhile ($starts times)" [ "$starts" -gt 1 ]
tap_check "no offline/online write failed while intel_powerclamp stopped ($fails, $busy EBUSY)" \
	[ $fails -eq 0 ]
tap_check "CPU 1 is online" [ "$(cat $f)" = 1 ]
tap_check "intel_powerclamp is stopped (cur_state 0)" [ "$(cat "$pc/cur_state")" = 0 ]
tap_check "rmmod intel_powerclamp" rmmod intel_powerclamp
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
