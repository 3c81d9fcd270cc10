# Benchmark phases for scripts/bench. For each driver module in /bench
# (acpi_pad built with different injection periods) and for the kernel's own
# acpi_pad: force one CPU idle, and at idlepct 5 and 50 measure what tasks on
# it see (padbench). Each phase is framed by BENCH-MARK lines, between which
# the host reads QEMU's own CPU time; results are BENCH lines.
. /pad/lib.sh
secs=6

# phase NAME CPU: a busy task on CPU 0 and on CPU for $secs s, then a 1 ms
# sleeper on CPU; print the results as one BENCH line.
phase() {
	echo "BENCH-MARK $1 start"
	padbench busy 0 "$secs" >/tmp/b0 &
	padbench busy "$2" "$secs" >/tmp/b1
	wait
	echo "BENCH-MARK $1 end"
	echo "BENCH $1 cpu0_$(cat /tmp/b0) $(cat /tmp/b1) $(padbench sleep "$2" 4)"
}

# driver NAME: bench the loaded acpi_pad as NAME.
driver() {
	dev=$(pad_dev) || { echo "BENCH $1 unavailable: acpi_pad did not bind"; return; }
	echo 99 >"$dev/rrtime"
	echo 1 >"$dev/idlecpus"
	cpu=$(mask_cpus "$(idle_mask)")
	[ -n "$cpu" ] || { echo "BENCH $1 unavailable: no CPU forced"; return; }
	for pct in 5 50; do
		echo $pct >"$dev/idlepct"
		sleep 1
		phase "$1/$pct" "$cpu"
	done
	echo 0 >"$dev/idlecpus"
}

phase none 1
for ko in /bench/*.ko; do
	[ -e "$ko" ] || continue
	name=${ko##*/}
	if insmod "$ko" 2>/tmp/err; then
		driver "${name%.ko}"
		rmmod acpi_pad
	else
		echo "BENCH ${name%.ko} unavailable: $(cat /tmp/err)"
	fi
done
if modprobe acpi_pad 2>/tmp/err; then
	driver kernel
	rmmod acpi_pad
else
	echo "BENCH kernel unavailable: $(cat /tmp/err)"
fi
dmesg_clean
