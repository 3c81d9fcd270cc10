#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Everything at once, bounded in time (stressmins=N on the kernel command
# line, default 1) and in count (stresscycles=N per kind, default 100000):
#   fw        firmware requests (padfw): counts 0, 1, all
#             idleable, all, more than exist, and malformed _PUR answers
#   idlecpus, idlepct, rrtime
#             one writer each, valid and invalid values; every answer must
#             be one a writer may get (the value's own result, or ENOENT/
#             ENODEV while the driver is unbound)
#   hotplug   CPUs 1..N offline and online again in turn
#   bind      unbind and bind the PAD device
#   reload    rmmod and modprobe acpi_pad
#   powerclamp  intel_powerclamp loaded on a rotating mask, its cooling
#             device set, unloaded (where it loads: MWAIT and Intel vendor)
# Afterwards, with all CPUs online and acpi_pad bound again: a firmware
# request gets an _OST that agrees with idlecpus and with the CPUs whose
# idle_inject/N thread really runs; after rmmod no idle_inject thread runs;
# the kernel log has no report. Cycles per kind are TAP diagnostics
# ("# stress: KIND N cycles ..."), and "PAD-FIGURE stress ..." lines for
# scripts/stress.
. /pad/lib.sh
mins=$(sed -n 's/.*stressmins=\([0-9]*\).*/\1/p' /proc/cmdline)
max=$(sed -n 's/.*stresscycles=\([0-9]*\).*/\1/p' /proc/cmdline)
mins=${mins:-1} max=${max:-100000}
pdev=/sys/bus/platform/devices/ACPI000C:00
drv=/sys/bus/platform/drivers/processor_aggregator
st=/tmp/stress
mkdir -p $st

modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
ncpus=$(online_cpus | wc -w)
last=$((ncpus - 1))
[ "$ncpus" -ge 3 ] && [ -w /sys/devices/system/cpu/cpu1/online ] ||
	skip_all "need 3 CPUs and CPU hotplug"
tap_ok "acpi_pad binds; $ncpus CPUs; stress for $mins min, at most $max cycles per kind"

# Where intel_powerclamp should load (Intel vendor and MWAIT), it must.
clamp=0
if grep -q GenuineIntel /proc/cpuinfo && grep -qw monitor /proc/cpuinfo; then
	clamp=1
	tap_check "intel_powerclamp loads (cpumask=2)" modprobe intel_powerclamp cpumask=2
	rmmod intel_powerclamp 2>/dev/null
else
	diag "no intel_powerclamp: the CPU has no MWAIT or is not Intel (scripts/vm -c mwait)"
fi

start=$(date +%s)
end=$((start + mins * 60))
running() { [ "$(date +%s)" -lt $end ] && [ "$1" -lt $max ]; }
# count KIND CYCLES FAILS [NOTE]: the loop's counters so far.
count() { echo "$2 $3 ${4:-}" >"$st/$1"; }

# accept WHAT GOT ALLOWED...: GOT (padwrite's answer to WHAT) is one of
# ALLOWED; the others are collected in $st/unexpected.
accept() {
	what=$1 got=$2
	shift 2
	for a in "$@"; do [ "$got" = "$a" ] && return 0; done
	echo "$what: $got" >>"$st/unexpected"
	return 1
}

fw_loop() {
	n=0 f=0 bad=0
	# count:mode pairs; mode 0 answers the count, the others are
	# malformed (revision 2, three elements, one element, not a
	# package, the method faults).
	reqs="0:0 1:0 $last:0 $ncpus:0 64:0 2:1 2:2 1:0 2:3 2:6 2:8 0:0"
	while running $n; do
		for r in $reqs; do
			m=${r#*:}
			fw_mode "$m" && fw_exec SETN "${r%:*}" || f=$((f + 1))
			n=$((n + 1))
			[ "$m" = 0 ] || bad=$((bad + 1))
			count fw $n $f "$bad malformed"
		done
	done
	fw_mode 0
}

# gone GOT: the attribute was absent (ENOENT) or being removed (ENODEV).
gone() {
	case $1 in "open-errno ENOENT" | "open-errno ENODEV" | "errno ENODEV") return 0 ;; esac
	return 1
}

# writer ATTR VALID INVALID: write the values in turn; a cycle is one
# write. The driver may be unbound or going away meanwhile (gone).
writer() {
	attr=$1 valid=$2 invalid=$3 n=0 f=0 inv=0
	while running $n; do
		for v in $valid; do
			got=$(padwrite "$pdev/$attr" "$v")
			gone "$got" || accept "$attr=$v" "$got" "ret ${#v}" || f=$((f + 1))
			n=$((n + 1))
		done
		for v in $invalid; do
			got=$(padwrite "$pdev/$attr" "$v")
			gone "$got" || accept "$attr=$v" "$got" "errno EINVAL" || f=$((f + 1))
			n=$((n + 1)) inv=$((inv + 1))
		done
		count "$attr" $n $f "$inv invalid"
	done
}

hotplug_loop() {
	n=0 f=0 busy=0
	while running $n; do
		for c in $(seq 1 $last); do
			for v in 0 1; do
				got=$(padwrite /sys/devices/system/cpu/cpu$c/online $v)
				case $got in
				"ret 1") ;;
				"errno EBUSY") busy=$((busy + 1)) ;;
				*) f=$((f + 1)); echo "cpu$c online=$v: $got" >>"$st/unexpected" ;;
				esac
			done
			n=$((n + 1))
			count hotplug $n $f "$busy EBUSY"
		done
	done
}

bind_loop() {
	n=0 f=0 r=0 rf=0
	while running $n; do
		echo "${pdev##*/}" >"$drv/unbind" && echo "${pdev##*/}" >"$drv/bind" ||
			f=$((f + 1))
		n=$((n + 1))
		count bind $n $f
		# Every fourth cycle, unload and load the module as well.
		[ $((n % 4)) -eq 0 ] || continue
		rmmod acpi_pad && modprobe acpi_pad && [ -e "$pdev/idlecpus" ] || rf=$((rf + 1))
		r=$((r + 1))
		count reload $r $rf
	done
}

# Starting fails with EAGAIN while acpi_pad holds one of its CPUs (an idle
# injection device each; idle_inject refuses a CPU twice): counted apart.
clamp_loop() {
	n=0 f=0 held=0
	while running $n; do
		for m in 2 4 8 c 6; do
			if modprobe intel_powerclamp cpumask=$m; then
				cd=$(grep -l '^intel_powerclamp$' /sys/class/thermal/cooling_device*/type | head -n1)
				cd=${cd%/type}
				for s in 25 49 10 0; do
					got=$(padwrite "$cd/cur_state" $s)
					[ "$got" != "errno EAGAIN" ] || { held=$((held + 1)); continue; }
					accept "powerclamp cpumask=$m cur_state=$s" "$got" "ret ${#s}" ||
						f=$((f + 1))
				done
				rmmod intel_powerclamp || f=$((f + 1))
			else
				f=$((f + 1))
			fi
			n=$((n + 1))
			count powerclamp $n $f "$held refused (CPU held by acpi_pad)"
		done
	done
}

echo 1 >"$dev/rrtime"
echo 50 >"$dev/idlepct"
fw_loop & pids=$!
writer idlecpus "0 1 2 3 64 4294967295 0x2 07" "-1 abc 4294967296 1.5" & pids="$pids $!"
writer idlepct "1 50 99 5 0x20" "0 100 -5 x" & pids="$pids $!"
writer rrtime "1 2 99 3" "0 100 -3 0x" & pids="$pids $!"
hotplug_loop & pids="$pids $!"
bind_loop & pids="$pids $!"
[ $clamp = 0 ] || { clamp_loop & pids="$pids $!"; }
diag "stress started: pids $pids"

# Wait for the loops: they stop at the deadline; each step is bounded, so
# 180 s more means something hangs.
hung=""
for p in $pids; do
	while kill -0 "$p" 2>/dev/null && [ "$(date +%s)" -lt $((end + 180)) ]; do
		sleep 1
	done
	kill -0 "$p" 2>/dev/null && hung="$hung $p"
done
secs=$(($(date +%s) - start))
if [ -n "$hung" ]; then
	tap_fail "stress loops stopped within 180 s of the deadline (still running: $hung)"
	for p in $hung; do
		diag "$p: $(cat /proc/$p/cmdline | tr '\0' ' ')"
		for t in /proc/[0-9]*; do
			grep -q "^PPid:	$p$" "$t/status" 2>/dev/null || continue
			diag "  child ${t#/proc/} $(cat "$t/comm"): $(tr '\n' '|' <"$t/stack" 2>/dev/null)"
		done
	done
	dmesg_clean
	tap_done
	exit 1
fi
tap_ok "stress loops stopped in time (${secs}s of stress)"

total=0
for k in fw idlecpus idlepct rrtime hotplug bind reload powerclamp; do
	[ -f $st/$k ] || { [ $k = powerclamp ] && [ $clamp = 0 ] && continue; }
	set -- $(cat $st/$k 2>/dev/null)
	n=${1:-0} f=${2:-0}
	shift 2 2>/dev/null
	diag "stress: $k $n cycles, $f failed${*:+, $*}"
	echo "PAD-FIGURE stress kind=$k cycles=$n failed=$f secs=$secs${*:+ note=$(echo "$*" | tr ' ' '~')}"
	total=$((total + n))
	tap_check "stress: $k ran ($n cycles), none failed ($f)" [ "$n" -gt 0 -a "$f" = 0 ]
done
[ ! -s $st/unexpected ] || { diag "unexpected answers:"; sort $st/unexpected | uniq -c | sed 's/^/#   /'; }

# Back to a known state: every CPU online, intel_powerclamp unloaded,
# acpi_pad bound.
for c in $(seq 1 $last); do echo 1 >/sys/devices/system/cpu/cpu$c/online 2>/dev/null; done
tap_check "all $ncpus CPUs online again" [ "$(online_cpus | wc -w)" = "$ncpus" ]
! grep -q '^intel_powerclamp ' /proc/modules || rmmod intel_powerclamp
[ -e "$pdev/idlecpus" ] || modprobe acpi_pad
[ -e "$pdev/idlecpus" ] || echo "${pdev##*/}" >"$drv/bind" 2>/dev/null
dev=$(pad_dev)
tap_check "acpi_pad bound after the stress" [ -n "$dev" ]

# agree COUNT WANT: the firmware asks COUNT; _OST, idlecpus and the
# injecting CPUs must all say WANT CPUs.
agree() {
	got=$(fw_request "$1") || { tap_fail "firmware asks $1: _OST not called"; return; }
	set -- "$1" "$2" $got
	sleep 0.5
	cpus=$(mask_cpus "$(idle_mask)")
	inj=$(injecting_cpus)
	if [ "$4 $5 $6" = "128 0 $2" ] && [ "$(mask_weight "$(idle_mask)")" = "$2" ] &&
		[ "$inj" = "$cpus" ]; then
		tap_ok "firmware asks $1: _OST(0x80, 0, $2), idlecpus [$cpus], injecting [$inj]"
	else
		tap_fail "firmware asks $1: _OST(0x$(printf %x "$4"), $5, $6), idlecpus [$cpus], injecting [$inj]; want $2 CPUs everywhere"
	fi
}
echo 50 >"$dev/idlepct"
echo 99 >"$dev/rrtime"
fw_mode 0
agree 2 2
agree 64 $last
agree 1 1
agree 0 0
echo 2 >"$dev/idlecpus"
wait_count 2
tap_check "rmmod acpi_pad while 2 CPUs are forced" rmmod acpi_pad
inj=$(injecting_cpus)
tap_check "after rmmod no idle_inject thread runs (injecting: [$inj])" [ -z "$inj" ]
tap_check "no intel_powerclamp cooling device left" \
	sh -c '! grep -qs intel_powerclamp /sys/class/thermal/cooling_device*/type'
diag "stress: $total cycles in $secs s"
tap_check "no kernel report (warning, oops, lockdep, KASAN, UBSAN, KFENCE, hung task, RCU stall, ODEBUG)" dmesg_clean
tap_done
