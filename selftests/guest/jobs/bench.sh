#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One driver's part of scripts/bench, chosen on the kernel command line:
#   bench=DRIVER      ours (the series' acpi_pad), idle-NNms, period-NNms or
#                     unbounded or residency (the series' acpi_pad with NN ms
#                     idle periods, with a fixed NN ms period, without the
#                     bound on its idle periods, or with them trimmed by the
#                     idle time really got; /bench/DRIVER.ko),
#                     stock (the base's acpi_pad with MWAIT ECX=0,
#                     /bench/stock-ecx0.ko) or powerclamp (intel_powerclamp;
#                     powerclamp-all is the same, named apart for the host)
#   benchmode=MODE    accuracy (default), scale or powerclamp
#   benchn=N          CPUs to force idle (accuracy; default 1)
#   benchpcts=P,P..   idlepct values (accuracy; default 5,25,50,75,95)
#   benchsecs=S       seconds per measurement (default 3)
#   benchreps=R       measurements per idlepct (powerclamp mode; default 4)
#   benchwake=P,P..   idlepct values at which a 1 ms sleeper on a forced CPU
#                     measures its wake-up delay (accuracy; default 50)
#   benchfifo=R,R..   SCHED_FIFO priorities of more such sleepers, at
#                     idlepct 50 (accuracy; default none)
#   benchfree=1       the same sleepers first on the CPU to be forced, while
#                     it is free (accuracy; reported as pct=100), and how
#                     long softirq work raised there waits to run, free and
#                     forced at idlepct 50 (tracefs events irq:softirq_*)
#   benchresponses=R  requests and releases traced (accuracy; default 1)
# idlepct is what the ACPI PAD driver's sysfs attribute means: the share of
# its time a forced CPU keeps for tasks. intel_powerclamp is given the same
# request as its idle percentage, 100 - idlepct, and the CPUs the series'
# driver would pick. With benchn as large as the number of CPUs, that is
# every CPU: its default, full-mask mode (the update() callback, package
# C-state feedback; at most 75 % idle), measured against a first phase
# with nothing forced, as no CPU is left free for reference.
#
# Results are lines for the host (scripts/bench):
#   BENCH-MARK NAME start|end     frame a phase: the host reads QEMU's CPU time
#   BENCH NAME pct=P forced=C,C shares=CPU:SHARE,...
#   BENCH-WAKE NAME pct=P prio=R cpu=C wake_p50_ms=.. wake_p99_ms=.. wake_max_ms=..
#                                      (prio=0: a normal task)
#   BENCH-SOFTIRQ NAME pct=P cpu=C n=.. p50_ms=.. p99_ms=.. max_ms=..
#                                      softirq work raised on CPU: from the
#                                      raise that made a vector pending to
#                                      its handler's entry
#   BENCH-EVENT NAME request|release T   (CLOCK_MONOTONIC ms): the sysfs
#                                      write (powerclamp), or the Notify
#                                      (PAD drivers: when its work was
#                                      queued on kacpi_notify, tracefs
#                                      event workqueue:workqueue_queue_work;
#                                      without it, the start of the read
#                                      whose _SUN makes the Notify)
#   BENCH-TRIGGER NAME request|release START END  that read of NTFY's sun
#   BENCH-WRITE NAME request|release START END    intel_powerclamp's write
#                                      (it returns once the idle periods
#                                      ended)
#   BENCH-NOTIFY NAME request|release T START END SWITCH ON BLOCKED PREEMPTED
#                                      the Notify, when traced: T as above,
#                                      its handler's work item's start and
#                                      end, the first switch to an
#                                      injection thread after the start,
#                                      and the handler's worker in between:
#                                      ms on its CPU, asleep and preempted
#                                      ("-": not traced)
#   BENCH-FORCED NAME C,C                the CPUs forced during the request
#   BENCH-GAP NAME CPU START END         (a busy task kept off its CPU)
#   BENCH-SCALE NAME cpus=M forced=N up_ms=.. change_ms=.. down_ms=..
#                count_ms=.. empty_ms=..
#   BENCH-FAIL NAME WHY
#   BENCH-SKIP NAME WHY                this boot cannot measure (exit 4)
. /pad/lib.sh

arg() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
drv=$(arg bench)
[ "$drv" != powerclamp-all ] || drv=powerclamp
mode=$(arg benchmode)
n=$(arg benchn)
pcts=$(arg benchpcts | tr , ' ')
secs=$(arg benchsecs)
reps=$(arg benchreps)
wake=$(arg benchwake | tr , ' ')
fifo=$(arg benchfifo | tr , ' ')
responses=$(arg benchresponses)
: "${mode:=accuracy}" "${n:=1}" "${pcts:=5 25 50 75 95}" "${secs:=3}" "${reps:=4}" "${wake:=50}"
: "${responses:=1}"
cpus=$(online_cpus)
ncpus=$(echo $cpus | wc -w)

fail() { echo "BENCH-FAIL $drv $*"; dmesg | tail -n 20; exit 1; }

# The CPUs the series' driver forces first: the last N, leaving the boot
# CPU's core alone. intel_powerclamp gets the same ones.
last_cpus() { echo $cpus | tr ' ' '\n' | tail -n "$1" | tr '\n' ' '; }
hexmask() {
	m=0
	for c in $1; do m=$((m | (1 << c))); done
	printf '%x' $m
}

# Driver operations: load, force N CPUs at PCT (sysfs), release, and the
# forced CPUs.
load() {
	case $drv in
	ours) modprobe acpi_pad ;;
	idle-* | period-* | unbounded | residency) insmod "/bench/$drv.ko" ;;
	stock) insmod /bench/stock-ecx0.ko ;;
	powerclamp)
		if [ "$n" -ge "$ncpus" ]; then
			modprobe intel_powerclamp cpumask="$(hexmask "$cpus")" max_idle=75
		else
			# cpumask first: max_idle is checked against it.
			modprobe intel_powerclamp \
				cpumask="$(hexmask "$(last_cpus "$n")")" max_idle=100
		fi || return 1
		for d in /sys/class/thermal/cooling_device*; do
			[ "$(cat "$d/type")" = intel_powerclamp ] && cdev=$d
		done
		[ -n "${cdev:-}" ]
		;;
	*) return 1 ;;
	esac
	[ $drv = powerclamp ] || {
		dev=$(pad_dev) && echo 99 >"$dev/rrtime" && ntfy=$(fw_file NTFY sun)
	}
}
force() {
	if [ $drv = powerclamp ]; then
		echo $((100 - $2)) >"$cdev/cur_state"
	else
		echo "$2" >"$dev/idlepct" && echo "$1" >"$dev/idlecpus"
	fi
}
release() {
	if [ $drv = powerclamp ]; then echo 0 >"$cdev/cur_state"; else echo 0 >"$dev/idlecpus"; fi
}
# The stock driver's kthreads (acpi_pad/N) are bound to the CPU they force.
forced() {
	case $drv in
	powerclamp) last_cpus "$n" ;;
	stock)
		for s in /proc/[0-9]*/status; do
			grep -q '^Name:.*acpi_pad/' "$s" 2>/dev/null &&
				sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$s"
		done | sort -n | tr '\n' ' '
		;;
	*) mask_cpus "$(idle_mask)" ;;
	esac
}
# notify_trace on|off: trace the work items queued on kacpi_notify, where
# ACPICA queues each Notify for its handler, when that work item starts
# and ends (the handler's run), the worker's context switches and when an
# injection thread (idle_inject/N, the stock driver's acpi_pad/N) is
# switched in (tracefs, CLOCK_MONOTONIC). "off" prints, in ms, when the
# first Notify was queued, when its work started and ended, the first
# switch to an injection thread after the start, and how the worker spent
# the time from the start to that switch: on its CPU, blocked (asleep) and
# preempted ("-" for what was not traced); or nothing if no Notify was
# traced or the kernel has no such event. A bus scan of a table load
# (acpi_table_events_fn) that ran between the Notify and the handler's end
# leaves /tmp/notify.scan.
notify_trace() {
	tr=/sys/kernel/tracing
	wq=$tr/events/workqueue
	sw=$tr/events/sched/sched_switch
	[ -d $tr/events ] || mount -t tracefs nodev $tr 2>/dev/null
	[ -d $wq/workqueue_queue_work ] || return 0
	if [ "$1" = on ]; then
		rm -f /tmp/notify.scan
		echo 0 >$tr/tracing_on && echo mono >$tr/trace_clock &&
			echo >$tr/trace &&
			echo 'workqueue == "kacpi_notify"' >$wq/workqueue_queue_work/filter &&
			echo 1 >$wq/workqueue_queue_work/enable &&
			echo 1 >$wq/workqueue_execute_start/enable &&
			echo 1 >$wq/workqueue_execute_end/enable ||
			fail "cannot trace the Notify"
		if [ -d $sw ]; then
			f='prev_comm ~ "kworker/*" || next_comm ~ "kworker/*"'
			f="$f"' || next_comm ~ "idle_inject/*" || next_comm ~ "acpi_pad/*"'
			echo "$f" >$sw/filter && echo 1 >$sw/enable ||
				fail "cannot trace context switches"
		fi
		echo 1 >$tr/tracing_on || fail "cannot trace the Notify"
		return 0
	fi
	echo 0 >$tr/tracing_on
	echo 0 >$wq/enable
	[ ! -d $sw ] || echo 0 >$sw/enable
	awk 'function ms(line) {
		match(line, /[0-9]+\.[0-9]+: /)
		return substr(line, RSTART, RLENGTH - 2) * 1000
	}
	function work(line) {
		match(line, /work struct[= ][0-9a-f]+/)
		return substr(line, RSTART + 12, RLENGTH - 12)
	}
	function field(line, name) {
		match(line, name "=[^ ]+")
		return substr(line, RSTART + length(name) + 1, RLENGTH - length(name) - 1)
	}
	function fmt(x) { return x == "" ? "-" : sprintf("%.3f", x) }
	# The bus scan of the arming table load, if it ran while the handler
	# did (between the Notify and the handler'"'"'s end): flagged for a note.
	/workqueue_execute_start: .* acpi_table_events_fn/ {
		started[work($0)] = 1; scanning++
		if (q != "" && e == "")
			scan = 1
	}
	/workqueue_execute_end: .* acpi_table_events_fn/ {
		if (q != "" && (e == "" || !(work($0) in started)))
			scan = 1
		if (scanning)
			scanning--
	}
	/workqueue_queue_work:/ && q == "" {
		q = ms($0); w = work($0)
		if (scanning)
			scan = 1
		next
	}
	q == "" { next }
	/workqueue_execute_start:/ && s == "" && work($0) == w {
		s = ms($0); on = s
		pid = match($0, /-[0-9]+ +\[/) ? substr($0, RSTART + 1, RLENGTH - 1) + 0 : -1
	}
	/workqueue_execute_end:/ && e == "" && work($0) == w { e = ms($0) }
	!/sched_switch:/ || s == "" || r != "" { next }
	{ t = ms($0) }
	field($0, "next_comm") ~ /^(idle_inject|acpi_pad)\// {
		r = t
		if (on != "")
			run += t - on
		else if (why == "R")
			cpu += t - off
		else
			slept += t - off
		next
	}
	field($0, "prev_pid") == pid && on != "" {
		run += t - on; on = ""; off = t
		why = substr(field($0, "prev_state"), 1, 1)
	}
	field($0, "next_pid") == pid && on == "" {
		if (why == "R")
			cpu += t - off
		else
			slept += t - off
		on = t
	}
	END {
		if (scan)
			print "scan" >"/tmp/notify.scan"
		if (q == "")
			exit
		printf "%s %s %s %s", fmt(q), fmt(s), fmt(e), fmt(r)
		if (r == "")
			print " - - -"
		else
			printf " %.3f %.3f %.3f\n", run, slept, cpu
	}' $tr/trace
	echo >$tr/trace
}

# notify_wait: wait (at most 10 s) until the handler of the Notify traced
# now (notify_trace on) has returned.
notify_wait() {
	[ $drv != powerclamp ] && [ -n "$t0" ] || return 0
	[ -f /sys/kernel/tracing/events/workqueue/workqueue_execute_end/enable ] || return 0
	i=0
	while [ $i -lt 50 ] && ! awk '/workqueue_queue_work:/ && w == "" {
		match($0, /work struct=[0-9a-f]+/); w = substr($0, RSTART + 12, RLENGTH - 12)
	}
	w != "" && /workqueue_execute_end:/ && index($0, "work struct " w ":") { found = 1; exit }
	END { exit !found }' /sys/kernel/tracing/trace; do
		sleep 0.2
		i=$((i + 1))
	done
}

# event NAME WHAT COUNT: a firmware request for COUNT CPUs through the
# emulated PAD: ARMN stores the count (padfw: a table load, and the bus
# scan it queues, which takes ACPICA's locks; traced from before the load,
# and a BENCH-NOTE says when that scan ran between the Notify and its
# handler's end); 0.3 s later, time for that scan to end, a read of NTFY's
# sun attribute runs its _SUN, which makes Notify(0x80) as a GPE's method
# would, with no table load or scan in the way (reported as BENCH-TRIGGER
# NAME WHAT START END); or, for intel_powerclamp, which has
# no firmware interface, its cooling device's state set to 100 - idlepct
# (COUNT 0: 0), timed from the write (BENCH-EVENT, BENCH-WRITE).
# event_done NAME WHAT, once the driver had time to answer: the BENCH-EVENT
# line for the firmware's request, timed from the Notify (BENCH-NOTIFY),
# or from the start of the read when the Notify was not traced.
event() {
	t0=
	if [ $drv = powerclamp ]; then
		t=$(padbench now)
		echo $(($3 ? 100 - pct : 0)) >"$cdev/cur_state" || return 1
		echo "BENCH-EVENT $1 $2 $t"
		echo "BENCH-WRITE $1 $2 $t $(padbench now)"
		return 0
	fi
	notify_trace on
	padfw ARMN "$3" || { notify_trace off >/dev/null; return 1; }
	sleep 0.3
	t0=$(padbench now)
	read -r _ <"$ntfy" || return 1
	echo "BENCH-TRIGGER $1 $2 $t0 $(padbench now)"
}
event_done() {
	[ $drv != powerclamp ] && [ -n "$t0" ] || return 0
	at=$(notify_trace off)
	[ ! -f /tmp/notify.scan ] ||
		echo "BENCH-NOTE $drv: the arming table load's bus scan ran during a Notify's handler (the 0.3 s wait was too short)"
	if [ -n "$at" ]; then
		echo "BENCH-NOTIFY $1 $2 $at"
		echo "BENCH-EVENT $1 $2 ${at%% *}"
	else
		echo "BENCH-EVENT $1 $2 $t0"
	fi
}

# wake NAME PCT CPU PRIO: a 1 ms sleeper on CPU, normal (PRIO 0) or
# SCHED_FIFO PRIO; one BENCH-WAKE line.
wake() {
	if [ "$4" = 0 ]; then
		echo "BENCH-WAKE $1 pct=$2 prio=0 cpu=$3 $(padbench sleep "$3" "$secs")"
	else
		echo "BENCH-WAKE $1 pct=$2 prio=$4 cpu=$3 $(padbench sleep "$3" "$secs" "$4")"
	fi
}

# softirqs NAME PCT CPU: for $secs s, how long each softirq vector raised on
# CPU stays pending before its handler runs (from the raise that made it
# pending); one BENCH-SOFTIRQ line, or a BENCH-NOTE without tracefs events.
softirqs() {
	t=/sys/kernel/tracing
	[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null
	if [ ! -d $t/events/irq/softirq_raise ]; then
		echo "BENCH-NOTE $drv: no tracefs softirq events: softirq wait not measured"
		return 0
	fi
	echo 0 >$t/tracing_on && echo >$t/trace && echo 4096 >$t/buffer_size_kb &&
		echo 1 >$t/events/irq/softirq_raise/enable &&
		echo 1 >$t/events/irq/softirq_entry/enable && echo 1 >$t/tracing_on ||
		fail "cannot trace softirq events"
	sleep "$secs"
	echo 0 >$t/tracing_on
	echo 0 >$t/events/irq/softirq_raise/enable
	echo 0 >$t/events/irq/softirq_entry/enable
	awk 'match($0, /[0-9]+\.[0-9]+: softirq_(raise|entry): vec=[0-9]+/) {
		split(substr($0, RSTART, RLENGTH), f, /[: =]+/)
		if (f[2] == "softirq_raise") {
			if (!(f[4] in up)) up[f[4]] = f[1]
		} else if (f[4] in up) {
			printf "%.3f\n", (f[1] - up[f[4]]) * 1000
			delete up[f[4]]
		}
	}' $t/per_cpu/cpu"$3"/trace | sort -n >/tmp/softirq
	echo >$t/trace
	echo "BENCH-SOFTIRQ $1 pct=$2 cpu=$3 $(awk '{ d[NR] = $1 }
		END { i = int(NR * 0.99 + 0.999); if (i < 1) i = 1
		      printf "n=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f", NR, d[int((NR + 1) / 2)], d[i], d[NR] }' /tmp/softirq)"
}

# shares NAME PCT FORCED: a busy task on every CPU for $secs s; one BENCH line.
shares() {
	echo "BENCH-MARK $1 start"
	for c in $cpus; do padbench busy "$c" "$secs" >"/tmp/busy.$c" & done
	wait
	echo "BENCH-MARK $1 end"
	out=""
	for c in $cpus; do
		out="$out,$c:$(sed -n 's/^share=\([^ ]*\).*/\1/p' "/tmp/busy.$c")"
	done
	echo "BENCH $1 pct=$2 forced=$(echo $3 | tr ' ' ,) shares=${out#,}"
}

# response NAME PCT: trace every CPU while the request comes and goes.
response() {
	pct=$2
	[ $drv = powerclamp ] || echo "$pct" >"$dev/idlepct" || fail "cannot set idlepct $pct"
	rm -f /tmp/trace.stop
	for c in $cpus; do padbench trace "$c" 60 /tmp/trace.stop >"/tmp/trace.$c" & done
	sleep 0.5
	event "$1" request "$n" || fail "request failed"
	sleep 1.5
	notify_wait
	event_done "$1" request
	echo "BENCH-FORCED $1 $(forced | tr ' ' ,)"
	if ! event "$1" release 0; then
		echo "BENCH-NOTE $drv: the release through the firmware failed; released through sysfs"
		release
	fi
	# The busy tasks' traces go on until the release's handler returned,
	# and 1.5 s more.
	sleep 1.5
	notify_wait
	touch /tmp/trace.stop
	wait
	event_done "$1" release
	for c in $cpus; do sed "s|^gap |BENCH-GAP $1 $c |" "/tmp/trace.$c"; done
}

# skip WHY: this boot cannot measure (exit 4: scripts/bench says so and
# goes on); its results, if any, are dropped.
skip() { echo "BENCH-SKIP $drv $*"; exit 4; }

clock_ok 2>/tmp/clock || skip "the guest clock is not usable for measuring: $(tr '\n' ' ' </tmp/clock)"
load 2>/tmp/err || fail "cannot load: $(cat /tmp/err)"
echo "BENCH-INFO $drv cpus=$ncpus n=$n"

case $mode in
accuracy)
	shares "$drv/none" 100 ""
	if [ "$(arg benchfree)" = 1 ]; then
		set -- $(last_cpus "$n")
		for r in 0 $fifo; do wake "$drv/free" 100 "$1" "$r"; done
		softirqs "$drv/free" 100 "$1"
	fi
	for pct in $pcts; do
		force "$n" "$pct" || fail "cannot force $n CPUs at $pct"
		sleep 1
		f=$(forced)
		[ "$(echo $f | wc -w)" = "$n" ] || fail "forced '$f', want $n CPUs"
		shares "$drv/$pct" "$pct" "$f"
		set -- $f
		case " $wake " in
		*" $pct "*) wake "$drv/$pct" "$pct" "$1" 0 ;;
		esac
		if [ "$pct" = 50 ]; then
			for r in $fifo; do wake "$drv/50" 50 "$1" "$r"; done
			[ "$(arg benchfree)" != 1 ] || softirqs "$drv/50" 50 "$1"
		fi
		release
	done
	for r in $(seq "$responses"); do
		sleep 1
		response "$drv/response.$r" 50
	done
	;;
powerclamp)
	# intel_powerclamp alone, at each idlepct, benchreps times in turn.
	[ $drv = powerclamp ] || fail "benchmode=powerclamp is for bench=powerclamp"
	[ "$n" -lt "$ncpus" ] || shares "$drv/none" 0 ""
	i=0
	while [ $i -lt "$reps" ]; do
		for pct in $pcts; do
			force "$n" "$pct" || fail "cannot start intel_powerclamp at $((100 - pct))%"
			sleep 1
			shares "$drv/$pct" "$pct" "$(forced)"
			release
		done
		i=$((i + 1))
	done
	;;
scale)
	# idlecpus 0 -> all -> all - 1 (what a rotation or hotplug does: one
	# CPU leaves the forced set) -> 0, five times; the time each write takes.
	# Each time includes starting one padbench: "empty" is that alone (two
	# timestamps with nothing between them); "count" is the counting of the
	# forced CPUs between the first two writes, which is not timed as a write.
	echo 50 >"$dev/idlepct"
	i=0
	while [ $i -lt 5 ]; do
		t0=$(padbench now)
		echo "$ncpus" >"$dev/idlecpus"
		t1=$(padbench now)
		m=$(echo $(forced) | wc -w)
		t2=$(padbench now)
		echo $((m - 1)) >"$dev/idlecpus"
		t3=$(padbench now)
		echo 0 >"$dev/idlecpus"
		t4=$(padbench now)
		t5=$(padbench now)
		echo "BENCH-SCALE $drv cpus=$ncpus forced=$m" \
			"$(echo "$t0 $t1 $t2 $t3 $t4 $t5" | awk '{ printf "up_ms=%.2f change_ms=%.2f down_ms=%.2f count_ms=%.2f empty_ms=%.2f", $2 - $1, $4 - $3, $5 - $4, $3 - $2, $6 - $5 }')"
		sleep 0.5
		i=$((i + 1))
	done
	;;
*) fail "unknown benchmode=$mode" ;;
esac
dmesg_clean || fail "kernel report"
# Softirq work left pending when a forced CPU stopped its tick.
n=$(dmesg | grep -c 'NOHZ tick-stop error')
[ "$n" = 0 ] || echo "BENCH-NOTE $drv: $n 'NOHZ tick-stop error' lines in the kernel log"
if ! clock_ok 2>/tmp/clock; then
	# The stock driver marks the TSC unstable itself on CPUs without
	# NONSTOP_TSC (TCG's): say so with its results instead of skipping.
	[ $drv = stock ] && dmesg | grep -q 'Marking TSC unstable due to TSC halts in idle' ||
		skip "the guest clock went wrong during the run: $(tr '\n' ' ' </tmp/clock)"
	echo "BENCH-NOTE stock: the stock driver marked the TSC unstable (TSC halts in idle)"
fi
