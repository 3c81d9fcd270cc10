#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Invalid writes to every sysfs attribute of the PAD (idlecpus, idlepct,
# rrtime): each must fail with exactly EINVAL and change nothing (all three
# attributes and the forced CPUs read back the same); an empty write writes
# 0 bytes and changes nothing (sysfs never calls the store function). One
# write(2) per input (padwrite), so the bytes are exact: no trailing newline
# unless the input has one. Reports how many inputs were tried and how many
# changed state ("# invalid inputs: N tried, M changed state").
. /pad/lib.sh
modprobe acpi_pad && dev=$(pad_dev) || { tap_fail "acpi_pad binds"; exit 1; }
[ "$(online_cpus | wc -w)" -ge 4 ] || skip_all "need 4 CPUs"

# Rejected by all three (kstrtouint, base 0, then the driver's checks).
# A page of digits is cut to PAGE_SIZE by kernfs and then overflows.
common='\n|-1|-0|+-1|++1|abc|1x|x1|0x|0xg|0b1|08|09|1.5|1e3| 1|1 |\t1|1\n\n|1,2|1-2|\x00|\x001|\xd9\xa1|4294967296|0x100000000|18446744073709551616|99999999999999999999999'
# Numbers outside 1..99, for idlepct and rrtime.
range='0|00|0x0|100|0x64|0144|4294967295|0xffffffff'

# state: the three attributes and the forced CPUs, on one line.
state() {
	echo "idlecpus=$(cat "$dev/idlecpus") idlepct=$(cat "$dev/idlepct") rrtime=$(cat "$dev/rrtime")"
}

tried=0 changed=0
# table ATTR INPUTS EXPECT [TIMES]: write each |-separated input (TIMES
# times over, in one write) to ATTR; EXPECT is what padwrite must print
# ("errno EINVAL", or "ret 0"). INPUTS "|" is the one empty input.
table() {
	attr=$1 inputs=$2 want=$3 times=${4:-1} bad=0
	before=$(state)
	set -f
	IFS='|'
	set -- $inputs
	unset IFS
	set +f
	tried=$((tried + $#))
	for input in "$@"; do
		got=$(padwrite "$dev/$attr" "$input" "$times")
		after=$(state)
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			diag "$attr <- '$input' x$times: $got, want $want"
		fi
		if [ "$after" != "$before" ]; then
			bad=$((bad + 1)) changed=$((changed + 1))
			diag "$attr <- '$input' x$times changed state: $before -> $after"
		fi
	done
	[ $bad -eq 0 ]
}

# A known state that no rotation changes: rrtime 42 and idlepct 37 (not the
# defaults), 2 CPUs forced (the core outside CPU 0's, so nothing rotates).
echo 42 >"$dev/rrtime" && echo 37 >"$dev/idlepct" && echo 2 >"$dev/idlecpus"
tap_check "known state: 2 CPUs forced, idlepct 37, rrtime 42" wait_count 2
diag "state: $(state)"

for attr in idlecpus idlepct rrtime; do
	n=$(echo "$common" | tr '|' '\n' | wc -l)
	tap_check "$attr: $n malformed writes: EINVAL, nothing changed" table $attr "$common" "errno EINVAL"
	for times in 4096 5000; do
		tap_check "$attr: $times digits (kernfs passes one page): EINVAL, nothing changed" \
			table $attr 1 "errno EINVAL" $times
	done
	tap_check "$attr: empty write: 0 bytes, nothing changed" table $attr "|" "ret 0"
done
for attr in idlepct rrtime; do
	n=$(echo "$range" | tr '|' '\n' | wc -l)
	tap_check "$attr: $n numbers outside 1..99: EINVAL, nothing changed" table $attr "$range" "errno EINVAL"
done

# The same with nothing forced: a rejected idlecpus write must not force.
echo 0 >"$dev/idlecpus"
wait_count 0
tap_check "idlecpus at 0: malformed writes force nothing" table idlecpus "$common" "errno EINVAL"

# Valid edge values still work (the table did not wedge the device).
tap_check "valid edges: idlepct 1 and 99, rrtime 1 and 99, idlecpus 4294967295 and 0" sh -c "
	echo 1 >$dev/idlepct && echo 99 >$dev/idlepct && echo 1 >$dev/rrtime &&
	echo 99 >$dev/rrtime && echo 4294967295 >$dev/idlecpus && echo 0 >$dev/idlecpus"
tap_check "idlecpus 0: nothing forced" wait_count 0

diag "invalid inputs: $tried tried, $changed changed state"
echo "PAD-FIGURE badinput tried=$tried changed=$changed"
tap_check "rmmod acpi_pad" rmmod acpi_pad
tap_check "no warning, oops or lockdep report in the kernel log" dmesg_clean
tap_done
