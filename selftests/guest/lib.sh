# Helpers for the guest jobs: TAP output, the PAD device, the emulated firmware.
# Sourced by the scripts in jobs/.

_tap_n=0
_tap_fail=0

tap_ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n $*"; }
tap_fail() { _tap_n=$((_tap_n + 1)); _tap_fail=$((_tap_fail + 1)); echo "not ok $_tap_n $*"; }
tap_skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }
# tap_check DESC CMD...: one TAP line for whether CMD succeeds.
tap_check() {
	desc=$1
	shift
	if "$@"; then tap_ok "$desc"; else tap_fail "$desc"; fi
}
tap_done() { echo "1..$_tap_n"; [ "$_tap_fail" -eq 0 ]; }
diag() { echo "# $*"; }

# The bound PAD device's sysfs directory (empty when none).
pad_dev() {
	for d in /sys/bus/platform/drivers/processor_aggregator/ACPI000C:*; do
		[ -e "$d/idlecpus" ] && { echo "$d"; return 0; }
	done
	return 1
}

pad_load() { modprobe acpi_pad && pad_dev >/dev/null; }

# Number of CPUs in a hex cpumask such as "0000000c" or "00000000,0000000c".
mask_weight() {
	hex=$(echo "$1" | tr -d ',\n')
	n=0
	while [ -n "$hex" ]; do
		d=${hex%"${hex#?}"}
		hex=${hex#?}
		case $d in
		0) ;; 1|2|4|8) n=$((n + 1)) ;; 3|5|6|9|a|A|c|C) n=$((n + 2)) ;;
		7|b|B|d|D|e|E) n=$((n + 3)) ;; f|F) n=$((n + 4)) ;;
		esac
	done
	echo "$n"
}

# The CPUs in a hex cpumask, as a space-separated list.
mask_cpus() {
	hex=$(echo "$1" | tr -d ',\n')
	cpu=$((${#hex} * 4 - 1))
	out=""
	while [ -n "$hex" ]; do
		d=$((0x${hex%"${hex#?}"}))
		hex=${hex#?}
		for bit in 8 4 2 1; do
			[ $((d & bit)) -ne 0 ] && out="$cpu $out"
			cpu=$((cpu - 1))
		done
	done
	echo $out
}

idle_mask() { cat "$(pad_dev)/idlecpus"; }
idle_count() { mask_weight "$(idle_mask)"; }

# wait_count N: poll (bounded, 5 s) until N CPUs are forced idle.
wait_count() {
	i=0
	while [ $i -lt 50 ]; do
		[ "$(idle_count)" = "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	diag "forced: $(idle_mask), want $1 CPUs"
	return 1
}

# Firmware side, through the ACPICA debugger. Method arguments are taken as
# decimal here ("execute SETM 10" passes 10, not 0x10: measured).
# Each call is bounded: the debugger sometimes never returns after an AML fault
# (FW_TIMEOUT seconds, default 10; the stress job gives it more).
fw() { timeout "${FW_TIMEOUT:-10}" acpidbg -b "$*" 2>&1; }
# fw_exec METHOD [ARG]: execute a PAD0 method; a debugger call that timed out
# or lost its answer is retried (at most 3 times): the tool, not the driver.
fw_exec() {
	i=0
	while [ $i -lt 3 ]; do
		fw "execute \\_SB.PAD0.$*" | grep -q 'returned object' && return 0
		i=$((i + 1))
	done
	return 1
}
fw_mode() { fw_exec SETM "$1"; }
# fw_notify 81 or 90: Notify(PAD0, 0x81 or 0x90).
fw_notify() { fw_exec "NT$1"; }

# What _OST last received: "calls arg0 arg1 idled" in decimal. A debugger
# call that lost its answer is retried (at most 3 times). After an AML fault
# the debugger prints results to the kernel log instead of stdout: then the
# last GOST result in the log is the answer.
fw_ost() {
	i=0
	while [ $i -lt 3 ]; do
		fw 'evaluate \_SB.PAD0.GOST' >/tmp/gost.out
		grep -q 'GOST returned' /tmp/gost.out && break
		i=$((i + 1))
	done
	[ $i -lt 3 ] || dmesg >/tmp/gost.out
	vals=$(awk '/GOST returned/ { n = 0; v = "" }
		/\[Integer\] = / && n < 4 { sub(/.*\[Integer\] = /, ""); v = v " " $1; n++ }
		END { print v }' /tmp/gost.out)
	set -- $vals
	[ $# -eq 4 ] || return 1
	echo "$((0x$1)) $((0x$2)) $((0x$3)) $((0x$4))"
}

# fw_request COUNT: _PUR will answer COUNT, Notify(PAD0, 0x80), then wait
# (bounded) until _OST has been called once more. Prints fw_ost's answer.
fw_request() {
	before=$(fw_ost | cut -d' ' -f1)
	fw_exec SETN "$1"
	i=0
	while [ $i -lt 100 ]; do
		now=$(fw_ost) && [ "${now%% *}" -gt "${before:-0}" ] && { echo "$now"; return 0; }
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Kernel reports a test must never cause (ACPICA's own "ACPI Warning" and
# "ACPI Error" lines are allowed): WARN/BUG/Oops, lockdep, KASAN, UBSAN,
# KFENCE ("BUG: KFENCE:"), soft lockup ("BUG: soft lockup"), hung task, RCU
# stall, debug objects (ODEBUG). One report is known and not ours: the
# ACPI debugger that drives the firmware takes a mutex in a wait condition
# (acpi_aml_kern_readable), which DEBUG_ATOMIC_SLEEP reports; skip such
# warnings whose trace is in acpi_aml_* (never a sanitizer's report).
# Prints the reports it counts.
dmesg_clean() {
	dmesg | awk '
		/WARNING:|BUG:|Oops|general protection fault|INFO: task .* blocked|rcu: INFO|UBSAN:|KASAN:|KFENCE:|ODEBUG:|INFO: trying to register non-static key|self-detected stall|detected stalls on CPUs/ {
			if (blk != "" && !known) { bad = 1; printf "%s", blk }
			blk = ""; known = 0; inblk = 1
			san = /UBSAN:|KASAN:|KFENCE:|ODEBUG:|stall/
		}
		inblk { blk = blk $0 "\n"; if (/acpi_aml_/ && !san) known = 1 }
		inblk && /---\[ end trace/ { if (!known) { bad = 1; printf "%s", blk } blk = ""; inblk = 0 }
		END { if (blk != "" && !known) { bad = 1; printf "%s", blk } exit bad }
	' >&2
}

# cpu_shares SECS CPU...: run a busy task pinned to each CPU at once for SECS
# seconds and print "CPU PERCENT" lines: the share of its CPU each task got,
# from its own CPU time over wall time (padbench).
cpu_shares() {
	secs=$1
	shift
	for cpu in "$@"; do
		padbench busy "$cpu" "$secs" >"/tmp/share.$cpu" &
	done
	wait
	for cpu in "$@"; do
		awk -v c="$cpu" -F'[= ]' '{ printf "%s %d\n", c, $2 * 100 + 0.5 }' "/tmp/share.$cpu"
	done
}

# share_of CPU SHARES: the percentage for CPU in cpu_shares' output.
share_of() { echo "$2" | awk -v c="$1" '$1 == c { print $2 }'; }

# All online CPUs, space-separated.
online_cpus() {
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		c=${d##*cpu}
		[ ! -e "$d/online" ] || [ "$(cat "$d/online")" = 1 ] && echo "$c"
	done | sort -n | tr '\n' ' '
}

# True while task CPU time can be trusted: the clocksource is still the TSC
# and nobody marked it or sched_clock unstable (under TCG the clocksource
# watchdog does that once CPUs idle, unless the guest runs with
# tsc=reliable; from then on shares measured from CPU time are wrong).
clock_ok() {
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	[ "$cs" = tsc ] || { diag "clocksource is $cs, not tsc"; return 1; }
	! dmesg | grep -E 'Marking TSC unstable|sched_clock: Marking unstable' >&2
}

# idle_inject_switches: "idle_inject/N SWITCHES" for each CPU's idle
# injection thread (voluntary context switches: one per injected period).
idle_inject_switches() {
	for t in /proc/[0-9]*; do
		case $(cat "$t/comm" 2>/dev/null) in
		idle_inject/*) echo "$(cat "$t/comm") $(awk '/^voluntary_ctxt_switches/ { print $2 }' "$t/status")" ;;
		esac
	done
}

# injecting_cpus: the CPUs (sorted, space-separated) whose idle_inject/N
# thread ran within 2 s: the CPUs idle injection really forces now,
# whoever asked. Nothing but injection wakes these threads (and CPU
# hotplug, which parks and unparks them: do not hotplug meanwhile).
injecting_cpus() {
	idle_inject_switches >/tmp/sw.0
	sleep 2
	idle_inject_switches >/tmp/sw.1
	awk 'NR == FNR { a[$1] = $2; next } $2 != a[$1] { sub(/.*\//, "", $1); print $1 }' \
		/tmp/sw.0 /tmp/sw.1 | sort -n | tr '\n' ' ' | sed 's/ $//'
}
