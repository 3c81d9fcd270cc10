# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# TAP from the host scripts, in the form the guests' ktap_helpers.sh prints:
# "TAP version 13", the plan, a line per test, a "# Totals:" line. Sourced
# by scripts/lib.sh, and by selftests/host/scripts.sh, which tests the
# scripts without their library.

# tap_begin [N]: the header, and the plan when the number of tests is known
# (otherwise tap_end prints it).
tap_begin() {
	TAP_N=0 TAP_PASS=0 TAP_FAIL=0 TAP_SKIP=0 TAP_PLAN=${1:-}
	echo "TAP version 13"
	[[ -z $TAP_PLAN ]] || echo "1..$TAP_PLAN"
}

# tap_result STATUS DESC [REASON]: one test. STATUS 0: passed; 4: skipped,
# REASON says why; anything else: failed.
tap_result() {
	TAP_N=$((TAP_N + 1))
	case $1 in
	0) TAP_PASS=$((TAP_PASS + 1)) && echo "ok $TAP_N $2" ;;
	4) TAP_SKIP=$((TAP_SKIP + 1)) && echo "ok $TAP_N $2 # SKIP ${3:-}" ;;
	*) TAP_FAIL=$((TAP_FAIL + 1)) && echo "not ok $TAP_N $2" ;;
	esac
}

# tap_test DESC CMD...: one test, passed when CMD succeeds.
tap_test() {
	local desc=$1
	shift
	if "$@"; then tap_result 0 "$desc"; else tap_result 1 "$desc"; fi
}

# tap_end: the plan (unless tap_begin printed it) and the totals. Fails when
# a test failed.
tap_end() {
	[[ -n $TAP_PLAN ]] || echo "1..$TAP_N"
	echo "# Totals: pass:$TAP_PASS fail:$TAP_FAIL xfail:0 xpass:0 skip:$TAP_SKIP error:0"
	((TAP_FAIL == 0))
}
