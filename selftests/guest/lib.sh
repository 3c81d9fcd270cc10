# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Helpers for the guest jobs: TAP output, the PAD device, the emulated firmware.
# Sourced by the scripts in jobs/.

# TAP through the kselftest helpers (installed with the kselftests): the
# header first, results numbered as they come, then the plan and the totals
# at the end, as the jobs do not know their count up front.
# The header comes with the first result, so that jobs that report none
# (the demo) print none.
. /kselftest/kselftest/ktap_helpers.sh

tap_head() { [ -n "${_tap_head:-}" ] || { ktap_print_header; _tap_head=1; }; }
tap_ok() { tap_head; ktap_test_pass "$*"; }
tap_fail() { tap_head; ktap_test_fail "$*"; }
tap_skip() { tap_head; ktap_test_skip "$*"; }
# tap_skip_desc DESC REASON: a skipped test, and why.
tap_skip_desc() { tap_skip "$1 (skipped: $2)"; }
# tap_check DESC CMD...: one result for whether CMD succeeds (CMD's words
# stay as they are, which ktap_test_result does not keep).
tap_check() {
	desc=$1
	shift
	if "$@"; then tap_ok "$desc"; else tap_fail "$desc"; fi
}
# tap_done: the plan and the totals; fails when a test failed.
tap_done() {
	tap_head
	ktap_set_plan $((KTAP_TESTNO - 1))
	ktap_print_totals
	[ "$KTAP_CNT_FAIL" -eq 0 ]
}
# skip_all REASON: the job cannot run here; exit 4 (KSFT_SKIP).
skip_all() { tap_head; ktap_skip_all "$*"; exit "$KSFT_SKIP"; }
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

# wait_for TENTHS CMD...: run CMD every 0.1 s until it succeeds, at most
# TENTHS times; fails when it never did.
wait_for() {
	local n=$1 i=0
	shift
	while [ $i -lt "$n" ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

count_is() { [ "$(idle_count)" = "$1" ]; }

# wait_count N: poll (bounded, 5 s) until N CPUs are forced idle.
wait_count() {
	wait_for 50 count_is "$1" && return 0
	diag "forced: $(idle_mask), want $1 CPUs"
	return 1
}

# Firmware side (selftests/firmware/pad.asl). A method of \_SB.PAD0 runs
# from the module-level code of a small SSDT loaded through ACPI configfs
# (padfw), as firmware would run it; what _OST received is read from the
# _STA of \_SB.PAD0.OSTR, which /sys/bus/acpi/devices/*/status evaluates on
# every read. No ACPICA debugger: its user interface sometimes garbled a
# command and then answered none.

# fw_exec METHOD [ARG]: run \_SB.PAD0.METHOD (SETN COUNT, SETM MODE, NT81,
# NT90); it has run when this returns. Fails, saying why, when the table
# does not load.
fw_exec() { padfw "$@"; }
fw_mode() { fw_exec SETM "$1"; }
# fw_notify 81 or 90: Notify(PAD0, 0x81 or 0x90).
fw_notify() { fw_exec "NT$1"; }

# fw_file DEVICE ATTR: the sysfs file ATTR of \_SB.PAD0.DEVICE.
fw_file() {
	for d in /sys/bus/acpi/devices/*; do
		[ "$(cat "$d/path" 2>/dev/null)" = "\\_SB_.PAD0.$1" ] && { echo "$d/$2"; return 0; }
	done
	return 1
}
# The status file of \_SB.PAD0.OSTR.
ost_file() { fw_file OSTR status; }

# What _OST last received: "calls arg0 arg1 idled" in decimal, calls modulo
# 256, the others as 8, 4 and 8 bits (255 15 255 before the first call).
fw_ost() {
	local f sta
	f=$(ost_file) && sta=$(cat "$f") || { diag "no \\_SB.PAD0.OSTR status to read _OST from"; return 1; }
	[ $((sta & 15)) -eq 15 ] || { diag "OSTR _STA reads $sta"; return 1; }
	echo "$(((sta >> 4) & 255)) $(((sta >> 16) & 255)) $(((sta >> 12) & 15)) $(((sta >> 24) & 255))"
}

# fw_request COUNT: _PUR will answer COUNT, Notify(PAD0, 0x80), then wait up
# to 10 s for _OST to be called once more. Prints fw_ost's answer; fails
# when the request could not be made or _OST was not called.
fw_request() {
	local before
	before=$(fw_ost) || return 1
	fw_exec SETN "$1" || return 1
	if ! wait_for 100 ost_since "${before%% *}"; then
		diag "fw_request $1: no _OST within 10 s (still $before)"
		return 1
	fi
	fw_ost
}

# ost_since CALLS: _OST has been called since the count was CALLS.
ost_since() { local now; now=$(fw_ost) && [ "${now%% *}" != "$1" ]; }

# Kernel reports a test must never cause (ACPICA's own "ACPI Warning" and
# "ACPI Error" lines are allowed): WARN/BUG/Oops, lockdep, KASAN, UBSAN,
# KFENCE ("BUG: KFENCE:"), soft lockup ("BUG: soft lockup"), hung task, RCU
# stall, debug objects (ODEBUG). Prints the reports it counts.
dmesg_clean() {
	dmesg | awk '
		/WARNING:|BUG:|Oops|general protection fault|INFO: task .* blocked|rcu: INFO|UBSAN:|KASAN:|KFENCE:|ODEBUG:|INFO: trying to register non-static key|self-detected stall|detected stalls on CPUs/ {
			if (blk != "") { bad = 1; printf "%s", blk }
			blk = ""; inblk = 1
		}
		inblk { blk = blk $0 "\n" }
		inblk && /---\[ end trace/ { bad = 1; printf "%s", blk; blk = ""; inblk = 0 }
		END { if (blk != "") { bad = 1; printf "%s", blk } exit bad }
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

# effect DESC below|above PCT SHARE REF: one TAP line for whether SHARE (the
# percentage of its CPU a busy task got) is below or above PCT % of REF, the
# percentage a busy task got in the same window on a CPU that is not forced.
# Effects are asserted against that reference, never as absolute shares: a
# slow, loaded or sanitizer kernel moves both. A skip, never a failure,
# when REF is below 50: the machine is then too loaded to tell.
effect() {
	if [ -z "$4" ] || [ -z "$5" ]; then
		tap_fail "$1 (no share measured: '$4' against '$5')"
	elif [ "$5" -lt 50 ]; then
		tap_skip "$1: the reference CPU gave a busy task only $5%, too loaded to compare"
	elif [ "$2" = below ]; then
		tap_check "$1 ($4% against $5%: below $3% of it)" [ $(($4 * 100)) -lt $(($5 * $3)) ]
	else
		tap_check "$1 ($4% against $5%: above $3% of it)" [ $(($4 * 100)) -gt $(($5 * $3)) ]
	fi
}

# All online CPUs, space-separated.
online_cpus() {
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		c=${d##*cpu}
		[ ! -e "$d/online" ] || [ "$(cat "$d/online")" = 1 ] && echo "$c"
	done | sort -n | tr '\n' ' '
}

# cpulist_cpus LIST...: the CPUs of cpulists ("0-2,5"), one per line;
# anything else ("(null)" from an empty nohz_full) is ignored.
cpulist_cpus() {
	echo "$*" | tr ', ' '\n\n' |
		awk -F- '$1 ~ /^[0-9]+$/ { e = NF > 1 ? $2 : $1; for (c = $1; c <= e; c++) print c }'
}

# How many CPUs acpi_pad may force: the online ones but the kept one (the
# first that is not isolated) and those isolated with isolcpus= or
# nohz_full=, which are never forced.
idleable_cpus() {
	iso=" $(cpulist_cpus "$(cat /sys/devices/system/cpu/isolated \
		/sys/devices/system/cpu/nohz_full 2>/dev/null)" | tr '\n' ' ') "
	n=0 kept=
	for c in $(online_cpus); do
		case $iso in *" $c "*) continue ;; esac
		[ -n "$kept" ] && n=$((n + 1)) || kept=$c
	done
	echo "$n"
}

# True while task CPU time can be trusted: the clocksource is still the TSC
# and nobody marked it or sched_clock unstable (under TCG the clocksource
# watchdog does that once CPUs idle, unless the guest runs with
# tsc=reliable; from then on shares measured from CPU time are wrong).
clock_ok() {
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	if [ "$cs" != tsc ]; then
		diag "clocksource is $cs, not tsc" >&2
		dmesg | grep -iE 'tsc|clocksource' | tail -n 3 >&2
		return 1
	fi
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
