#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The scripts given bad arguments and a bad environment: each must stop with
# an "ERROR: " line that says what to do, exit non-zero, and leave nothing
# half-written behind. TAP on stdout. scripts/test runs it.
#
#   bad arguments: an unknown queue, vm options and jobs, build names
#   KERNEL_TREE: missing, not git, not a kernel, the wrong release
#   missing tools and packages: qemu and iasl absent from PATH; apt-get
#     failing; not root (a PATH shim for dpkg-query and apt-get)
#   a full disk (root only: a small tmpfs as PAD_CACHE): scripts/initramfs
#     failing in its copy and in its cpio write, scripts/tree failing to
#     unpack the base (when the base tarball is in the real PAD_CACHE)
#
# Everything runs with PAD_CACHE in a temporary directory: the real cache
# and kernel tree are only read (the base tarball, for the tree test).
set -euo pipefail
shopt -s inherit_errexit

REPO=$(cd "$(dirname "$0")/../.." && pwd)
REAL_CACHE=${PAD_CACHE:-/var/tmp/acpi-pad}
tmp=$(mktemp -d /tmp/pad-scripts.XXXXXX)
chmod 755 "$tmp"	# the not-root test runs the shim as nobody
mounts=()
cleanup() {
	local m
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
S=$REPO/scripts
# shellcheck source=scripts/tap.sh
source "$S/tap.sh"
tap_begin

ok() { tap_result 0 "$*"; }
not_ok() { tap_result 1 "$*"; }
# skip DESC: REASON
skip() { tap_result 4 "${1%%: *}" "${1#*: }"; }
check() { tap_test "$@"; }

# expect_error DESC PATTERN CMD...: CMD exits non-zero and its stderr has
# an "ERROR: " line matching PATTERN (extended regexp).
expect_error() {
	local desc=$1 pat=$2 rc=0
	shift 2
	"$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
	if ((rc != 0)) && grep -qE "^ERROR: .*$pat" "$tmp/err"; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc, want an ERROR: line matching '$pat')"
		sed 's/^/#   /' "$tmp/err" | tail -n 5
	fi
}

# A private PAD_CACHE for each group of tests.
export PAD_CACHE=$tmp/cache
unset KERNEL_TREE PAD_QUEUE

echo "# bad arguments"
expect_error "an unknown queue (PAD_QUEUE=9.9): names the queues" "no base file .*PAD_QUEUE is one of: .*7\.3" \
	env PAD_QUEUE=9.9 "$S/vm" boot
expect_error "scripts/test 9.9: names the queues" "no queue '9\.9' \(bases/: .*7\.3" "$S/test" 9.9
expect_error "vm -t abc: wants seconds" "-t takes seconds, not 'abc'" "$S/vm" -t abc boot
expect_error "vm with an unknown option: usage" "usage: scripts/vm" "$S/vm" -z boot
expect_error "vm without a job: usage" "usage: scripts/vm" "$S/vm"
expect_error "vm -n nosuch: says to build" "build 'nosuch' of queue 7\.3 is incomplete: run scripts/build" \
	"$S/vm" -n nosuch boot
expect_error "initramfs of a missing build: says to build" "no build 'nosuch' .*run scripts/build" \
	"$S/initramfs" nosuch
expect_error "apply --upto x: usage" "usage: scripts/apply" "$S/apply" --upto x
expect_error "kunit with an argument: usage" "usage: scripts/kunit" "$S/kunit" 7.3
expect_error "bench --idle with no number: says what it takes" "--idle takes milliseconds" \
	"$S/bench" --idle 0,x
expect_error "bench --rt with a variant: refuses" "--rt takes no other option" \
	"$S/bench" --rt --period 100
expect_error "bench --rt --unbounded: refuses" "--rt takes no other option" \
	"$S/bench" --rt --unbounded
expect_error "bench --rt --residency: refuses" "--rt takes no other option" \
	"$S/bench" --rt --residency

echo "# KERNEL_TREE"
mk_tree() {	# mk_tree DIR [VERSION PATCHLEVEL SUBLEVEL]: a git tree
	mkdir -p "$1"
	git -C "$1" init -q
	(($# == 1)) || printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' "$2" "$3" "$4" >"$1/Makefile"
	git -C "$1" add -A
	git -C "$1" -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m t
}
mk_tree "$tmp/notkernel"
mk_tree "$tmp/k61" 6 1 0
mk_tree "$tmp/k612" 6 12 5
no_base_branch() { [[ -z $(git -C "$1" branch --list 'acpi-pad*') ]]; }
expect_error "KERNEL_TREE missing, scripts/tree: not a git tree" "KERNEL_TREE=/nonexistent is not a git tree" \
	env KERNEL_TREE=/nonexistent "$S/tree"
expect_error "KERNEL_TREE missing, scripts/apply: not a git tree" "KERNEL_TREE=/nonexistent is not a git tree" \
	env KERNEL_TREE=/nonexistent "$S/apply"
expect_error "KERNEL_TREE missing, scripts/build: says how to get a tree" "no kernel tree at /nonexistent: run scripts/apply" \
	env KERNEL_TREE=/nonexistent "$S/build"
expect_error "KERNEL_TREE not a kernel, scripts/tree: says so" "is not a kernel tree .*point KERNEL_TREE at a 7\.3\.y" \
	env KERNEL_TREE="$tmp/notkernel" "$S/tree"
check "KERNEL_TREE not a kernel: no branch made in it" no_base_branch "$tmp/notkernel"
expect_error "KERNEL_TREE of Linux 6.1, scripts/tree: the release and what to use" \
	"holds Linux 6\.1\.0, but queue 7\.3 is for Linux 7\.3\.y .*Use a 7\.3\.y tree, no queue is for that release" \
	env KERNEL_TREE="$tmp/k61" "$S/tree"
check "KERNEL_TREE of Linux 6.1: no branch made in it" no_base_branch "$tmp/k61"
expect_error "KERNEL_TREE of Linux 6.12 for queue 7.3: points to PAD_QUEUE=6.12" \
	"holds Linux 6\.12\.5, but queue 7\.3 .*or PAD_QUEUE=6\.12 for its queue" \
	env KERNEL_TREE="$tmp/k612" "$S/tree"
expect_error "KERNEL_TREE of Linux 6.1, scripts/build: refuses before configuring" \
	"holds Linux 6\.1\.0, but queue 7\.3" env KERNEL_TREE="$tmp/k61" "$S/build"
check "bad arguments and trees leave PAD_CACHE untouched" test ! -e "$PAD_CACHE"

echo "# work the scripts do not own"
# A 7.3.y tree whose acpi-pad branch holds a commit that is not in the queue.
mk_tree "$tmp/k73" 7 3 9
env KERNEL_TREE="$tmp/k73" "$S/tree" >/dev/null 2>&1
git -C "$tmp/k73" checkout -q -b acpi-pad
echo work >"$tmp/k73/work"
git -C "$tmp/k73" add work
git -C "$tmp/k73" -c user.name=t -c user.email=t@t.invalid commit -q -m "my unexported work"
expect_error "apply --upto 1 over unexported work: refuses and says what to run" \
	"branch acpi-pad .* has work that is not in the queue, from commit .*my unexported work" \
	env KERNEL_TREE="$tmp/k73" "$S/apply" --upto 1
check "apply --upto 1 over unexported work: the work is still on acpi-pad" \
	test "$(git -C "$tmp/k73" log -1 --format=%s acpi-pad)" = "my unexported work"
# The same after a pull changed the queue: scripts/apply had built acpi-pad
# from a first patch the queue no longer holds (its ref records that), and
# the work sits on top. scripts/export would overwrite the pulled queue, so
# the advice must not say to run it.
g() { git -C "$tmp/k73" -c user.name=t -c user.email=t@t.invalid "$@"; }
g checkout -q -B acpi-pad acpi-pad-base-7.3
echo old >"$tmp/k73/old"
g add old
g commit -q -m "the first patch as the queue had it before a pull"
g update-ref refs/acpi-pad/applied-7.3 HEAD
echo work >"$tmp/k73/work"
g add work
g commit -q -m "my work after the pull"
expect_error "apply over unexported work after the queue changed: refuses" \
	"branch acpi-pad .* has work that is not in the queue, from commit .*my work after the pull" \
	env KERNEL_TREE="$tmp/k73" "$S/apply"
check "apply over unexported work after the queue changed: does not advise exporting over it" \
	grep -q "The queue has also changed since scripts/apply built acpi-pad" "$tmp/err"
check "apply over unexported work after the queue changed: advises cherry-picking instead" \
	grep -q "then cherry-pick them from my-work" "$tmp/err"
mkdir -p "$tmp/mine"
echo keep >"$tmp/mine/file"
expect_error "send --to-dir into a non-empty directory: refuses" \
	"--to-dir .*/mine exists and is not empty: name a new or empty directory" \
	env SUBMITTER="A Tester <a@t.invalid>" "$S/send" --to-dir "$tmp/mine"
check "send --to-dir into a non-empty directory: it is left as it was" \
	test "$(ls -A "$tmp/mine")" = file
# A copy of the queue with one defect each: send refuses it, before it
# needs a kernel tree.
bad_queue() {
	rm -rf "$tmp/q"
	mkdir "$tmp/q"
	cp -r "$REPO"/series "$REPO"/patches "$REPO"/cover-letter-*.txt "$tmp/q"
	sed -i "$1" "$tmp/q/$2"
}
# send_refuses DESC PATTERN OUT: send on the copy refuses with PATTERN.
send_refuses() {
	expect_error "send with $1: refuses" "$2" \
		env PAD_QUEUE_DIR="$tmp/q" SUBMITTER="A Tester <a@t.invalid>" "$S/send" --to-dir "$tmp/out-$3"
}
bad_queue '0,/^#= /s//# /' series
send_refuses "patches in no series" "put every patch in a series" ungrouped
bad_queue '/^#= idle-inject$/s/idle-inject/fixes/' series
send_refuses "a series named twice" "names a series twice: fixes" twice
bad_queue '$a #= empty' series
send_refuses "an empty series" "series empty in .* has no patch" empty
bad_queue '' series
rm "$tmp/q/cover-letter-fixes.txt"
send_refuses "a series without its cover letter" \
	"series fixes has no cover letter: write .*cover-letter-fixes.txt" nocover
bad_queue 's/^Subject: \(\[[^]]*\]\) .*/Subject: \1 *** SUBJECT HERE ***/' cover-letter-acpi-pad.txt
send_refuses "git's placeholders in a cover letter" \
	"cover-letter-acpi-pad.txt still has git's placeholders" placeholder

echo "# scripts/check in the user's tree (KERNEL_TREE)"
# A 7.3.y tree as a user has it: the series on acpi-pad (with an ABI file,
# for the abi check's planted defect), a b4 prep branch of their own, a
# worktree of theirs, and uncommitted work on the branch they have out.
mk_tree "$tmp/kc" 7 3 4
env KERNEL_TREE="$tmp/kc" "$S/tree" >/dev/null 2>&1
gc() { git -C "$tmp/kc" -c user.name=t -c user.email=t@t.invalid "$@"; }
gc checkout -q -b acpi-pad acpi-pad-base-7.3
# A stand-in for the tree's ABI validator: it reports tags it does not know.
mkdir -p "$tmp/kc/tools/docs"
cat >"$tmp/kc/tools/docs/get_abi.py" <<'EOF'
import os, re
for d, _, files in os.walk("Documentation/ABI"):
    for f in files:
        for n, line in enumerate(open(os.path.join(d, f)), 1):
            m = re.match(r"([A-Za-z]+):", line)
            if m and m.group(1) not in ("What", "Description"):
                print(f"[WARNING] {d}/{f}:{n}: tag '{m.group(1)}' is invalid")
EOF
gc add -A
gc commit -q -m "the base's ABI tool"
gc branch -f acpi-pad-base-7.3
mkdir -p "$tmp/kc/Documentation/ABI/testing"
printf 'What:\t\t/sys/x\nDescription:\tx\n' >"$tmp/kc/Documentation/ABI/testing/sysfs-x"
gc add -A
gc commit -q -m "the series"
gc branch b4/acpi-pad-fixes
gc checkout -q -b mine
gc worktree add -q -b theirs "$tmp/kc-theirs"
echo "uncommitted" >>"$tmp/kc/Makefile"
kc_state() {
	git -C "$tmp/kc" for-each-ref --format='%(refname) %(objectname)'
	git -C "$tmp/kc" worktree list --porcelain
	git -C "$tmp/kc" status --porcelain
	git -C "$tmp/kc" config --local --list
}
kc_state >"$tmp/kc.before"
# all_ok: $tmp/out is TAP whose every planned test passed.
all_ok() {
	[[ $(grep -c '^ok ' "$tmp/out") == "$(sed -n 's/^1\.\.//p' "$tmp/out")" ]] &&
		! grep -q '^not ok' "$tmp/out" || { sed 's/^/#   /' "$tmp/err" | tail -n 5; false; }
}
env KERNEL_TREE="$tmp/kc" "$S/check" queue abi >"$tmp/out" 2>"$tmp/err" || true
check "check queue abi with KERNEL_TREE: both pass" all_ok
# Defects planted in copies of the queue, and in a commit on top of the
# series (in a worktree of the user's tree): each must be caught.
env KERNEL_TREE="$tmp/kc" "$S/check" --self-test queue abi >"$tmp/out" 2>"$tmp/err" || true
check "check --self-test queue abi with KERNEL_TREE: every defect caught" all_ok
check "check --self-test abi: caught by the ABI tool, on the planted tag" \
	grep -q "sysfs-x:2: tag 'Descrption' is invalid" "$tmp/err"
kc_state >"$tmp/kc.after"
check "check with KERNEL_TREE: the user's branches, worktrees and checkout are as before" \
	diff -u "$tmp/kc.before" "$tmp/kc.after"

echo "# scripts/stock runs test binaries in guests only"
# A copy of the scripts whose tree, build, initramfs and vm are stand-ins:
# the "build" leaves a pad_test that records being run, the "guest" lists
# one test. The queue is a selftest patch of a scratch tree.
ks=$tmp/ks
mk_tree "$ks" 7 3 4
env KERNEL_TREE="$ks" "$S/tree" >/dev/null 2>&1
mkdir -p "$ks/tools/testing/selftests/acpi" "$tmp/sq/patches"
echo 'int main(void) { return 0; }' >"$ks/tools/testing/selftests/acpi/pad_test.c"
git -C "$ks" add -A
git -C "$ks" -c user.name=t -c user.email=t@t.invalid commit -q -m "selftests: acpi: Add a test"
git -C "$ks" format-patch -q -1 -o "$tmp/sq/patches"
git -C "$ks" reset -q --hard HEAD~
(cd "$tmp/sq/patches" && ls) >"$tmp/sq/series"
mkdir -p "$tmp/repo"
cp -r "$REPO/scripts" "$REPO/bases" "$REPO/selftests" "$REPO/kernel-config" "$tmp/repo/"
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/repo/scripts/$1"; chmod +x "$tmp/repo/scripts/$1"; }
stub tree 'exit 0'
stub initramfs 'exit 0'
stub build "t=\$1/tools/testing/selftests/acpi/pad_test
printf '#!/bin/sh\ntouch $tmp/ran-on-host\necho PAD-TEST t1\n' >\"\$t\"
chmod +x \"\$t\""
stub vm "for a; do job=\$a; done
mkdir -p \"\$PAD_CACHE/out/7.3/stock\"
printf 'PAD-TEST t1\nok 1 t1\nPAD-JOB-EXIT 0\n' >\"\$PAD_CACHE/out/7.3/stock/\$job.log\""
rc=0
env KERNEL_TREE="$ks" PAD_QUEUE_DIR="$tmp/sq" "$tmp/repo/scripts/stock" kselftest >"$tmp/out" 2>"$tmp/err" || rc=$?
check "stock (build and guest stand-ins): runs to its report" \
	grep -q '^Tests that fail on the stock 7\.3\.[0-9]* driver: 0$' "$tmp/out"
check "stock: no test binary ran on the host (the build stand-in made one)" \
	test ! -e "$tmp/ran-on-host" -a -x "$PAD_CACHE/stock-7.3/tools/testing/selftests/acpi/pad_test"
[[ $rc == 0 ]] || sed 's/^/#   /' "$tmp/err" | tail -n 5

echo "# missing tools and packages"
# A complete-looking build, so that vm gets past its own checks.
fake=$PAD_CACHE/out/7.3/pad
mkdir -p "$fake"
: >"$fake/bzImage"
: >"$fake/initramfs.cpio"
expect_error "vm with an unknown job: lists the jobs" "no guest job 'nosuch' \(selftests/guest/jobs/: .*stress" \
	"$S/vm" nosuch
expect_error "vm -a with a missing SSDT" "no such SSDT: /nonexistent\.aml" "$S/vm" -a /nonexistent.aml boot
expect_error "vm -i with a missing initramfs" "no such initramfs: /nonexistent" "$S/vm" -i /nonexistent boot
# without CMD...: a PATH of everything the system has but CMD.
without() {
	local d=$tmp/path-${*// /-} f
	rm -rf "$d"
	mkdir -p "$d"
	for f in /usr/local/bin/* /usr/bin/* /bin/* /usr/sbin/* /sbin/*; do
		[[ -e $d/${f##*/} ]] || ln -s "$f" "$d/${f##*/}"
	done
	for f in "$@"; do rm -f "$d/$f"; done
	echo "$d"
}
expect_error "qemu not installed: says which package" \
	"could not find qemu-system-x86_64: install it \(apt-get install qemu-system-x86\)" \
	env PATH="$(without qemu-system-x86_64)" "$S/vm" boot
rm -rf "$PAD_CACHE/out/7.3/aml"
expect_error "iasl not installed: says which package" "could not find iasl: install it \(apt-get install acpica-tools\)" \
	env PATH="$(without iasl)" "$S/vm" boot
no_aml() { ! compgen -G "$PAD_CACHE/out/7.3/aml/*.aml" >/dev/null; }
check "iasl not installed: no AML written" no_aml
rm -rf "$PAD_CACHE"

# Two checkouts share PAD_CACHE: each boots the firmware of its own source,
# even when that source is older than the AML in the cache.
aml_of() { bash -c 'source "$1/scripts/lib.sh" && cat "$(firmware_aml pad)"' _ "$1"; }
differ() { ! cmp -s "$1" "$2"; }
if command -v iasl >/dev/null; then
	for c in fw1 fw2; do
		mkdir -p "$tmp/$c"
		cp -r "$REPO/scripts" "$REPO/bases" "$REPO/selftests" "$tmp/$c/"
	done
	sed -i 's/Name (ARMC, Zero)/Name (ARMC, 0x42)/' "$tmp/fw2/selftests/firmware/pad.asl"
	touch -d '2001-01-01' "$tmp/fw2/selftests/firmware/pad.asl"
	# compile CHECKOUT OUTPUT: its AML in OUTPUT, errors in fw.err.
	compile() {
		aml_of "$tmp/$1" >"$tmp/$2" 2>>"$tmp/fw.err" || echo "$1: exit status $?" >>"$tmp/fw.err"
	}
	compile fw1 fw1.aml
	compile fw2 fw2.aml
	compile fw1 fw1-again.aml
	check "firmware of two checkouts: compiled, with no error" \
		test -s "$tmp/fw1.aml" -a -s "$tmp/fw2.aml" -a -s "$tmp/fw1-again.aml" -a ! -s "$tmp/fw.err"
	check "firmware of an older source in another checkout: compiled again" \
		differ "$tmp/fw1.aml" "$tmp/fw2.aml"
	check "firmware: back to the first checkout, its own AML again" \
		cmp -s "$tmp/fw1.aml" "$tmp/fw1-again.aml"
	rm -rf "$PAD_CACHE"
else
	skip "firmware of two checkouts: compiled, with no error: iasl is not installed"
	skip "firmware of an older source in another checkout: compiled again: iasl is not installed"
	skip "firmware: back to the first checkout, its own AML again: iasl is not installed"
fi

# A package that dpkg says is missing, and an apt-get that cannot get it.
shim=$tmp/shim
mkdir -p "$shim"
cat >"$shim/dpkg-query" <<'EOF'
#!/bin/sh
# dpkg-query as it answers for a package that is not installed.
for a; do [ "$a" = acpica-tools ] && { echo "dpkg-query: no packages found matching acpica-tools" >&2; exit 1; }; done
exec /usr/bin/dpkg-query "$@"
EOF
cat >"$shim/apt-get" <<'EOF'
#!/bin/sh
echo "E: Unable to locate package acpica-tools (simulated)" >&2
exit 100
EOF
chmod +x "$shim/dpkg-query" "$shim/apt-get"
if [[ $(id -u) == 0 ]]; then
	expect_error "a package apt-get cannot install: says what failed and what to do" \
		"apt-get could not install acpica-tools .*install them by hand" \
		env PATH="$shim:$PATH" "$S/tree"
	check "a package apt-get cannot install: no tree started" test ! -e "$PAD_CACHE/linux-7.3.tmp" -a ! -e "$PAD_CACHE/linux-7.3"
	rm -rf "$PAD_CACHE"
	if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$S/lib.sh"; then
		expect_error "a missing package, not root: run as root or apt-get install" \
			"missing packages: acpica-tools\. Run as root .*apt-get install acpica-tools" \
			setpriv --reuid=65534 --regid=65534 --clear-groups env PATH="$shim:$PATH" PAD_CACHE="$PAD_CACHE" "$S/tree"
	else
		skip "a missing package, not root: no setpriv, or nobody cannot read the repository"
	fi
else
	skip "a package apt-get cannot install: needs root"
	skip "a package apt-get cannot install: no tree started"
	expect_error "a missing package, not root: run as root or apt-get install" \
		"missing packages: acpica-tools\. Run as root .*apt-get install acpica-tools" \
		env PATH="$shim:$PATH" "$S/tree"
fi

echo "# a full disk"
full_tests=6
if [[ $(id -u) != 0 ]]; then
	for _ in $(seq $full_tests); do skip "full disk: mounting a tmpfs needs root"; done
else
	disk=$tmp/disk
	mkdir -p "$disk"
	mount -t tmpfs -o size=64m padtest "$disk"
	mounts+=("$disk")
	export PAD_CACHE=$disk
	b=$disk/out/7.3/x
	mkdir -p "$b/root/lib/modules"
	head -c 1048576 /dev/urandom >"$b/root/lib/modules/filler"
	used() { df -Pk "$disk" | awk 'NR == 2 { print $3 }'; }
	# A first image on a roomy disk: the one that must survive.
	"$S/initramfs" x >/dev/null 2>"$tmp/err" || { sed 's/^/#   /' "$tmp/err"; }
	if [[ ! -s $b/initramfs.cpio ]]; then
		for _ in $(seq $full_tests); do not_ok "full disk: scripts/initramfs on a roomy tmpfs failed"; done
	else
		sum=$(sha256sum <"$b/initramfs.cpio")
		stage=$(du -sk "$b/initramfs.d" | cut -f1)
		image=$(du -sk "$b/initramfs.cpio" | cut -f1)
		rm -rf "$b/initramfs.d"
		nothing_left() {
			[[ ! -e $b/initramfs.d && ! -e $b/initramfs.cpio.tmp ]] &&
				[[ $(sha256sum <"$b/initramfs.cpio") == "$sum" ]]
		}
		# Room for half the staging directory: the copy fails.
		mount -o remount,size=$(($(used) + stage / 2))k "$disk"
		expect_error "full disk while staging: scripts/initramfs says so" \
			"packing the initramfs of 'x' \(nothing was written\) failed" "$S/initramfs" x
		check "full disk while staging: no staging left, the previous image unchanged" nothing_left
		# Room for the staging directory and half the image: cpio fails.
		mount -o remount,size=$(($(used) + stage + 256 + image / 2))k "$disk"
		expect_error "full disk while writing the image: scripts/initramfs says so" \
			"packing the initramfs of 'x' \(nothing was written\) failed" "$S/initramfs" x
		check "full disk while writing the image: no partial image, the previous one unchanged" nothing_left
	fi
	rm -rf "${disk:?}"/*
	# The base tree: the real base tarball, and room for a tenth of the tree.
	version=$(sed -n 's/^version=//p' "$REPO/bases/7.3")
	base=$REAL_CACHE/base/7.3/$version
	tarball=$(ls "$base"/*.tar.xz 2>/dev/null | head -n1 || true)
	if [[ -z $tarball || ! -f $tarball.ok ]]; then
		skip "full disk while unpacking the base: no base tarball in $base (run scripts/tree once)"
		skip "full disk while unpacking the base: nothing left"
	else
		mount -o remount,size=$(($(du -sk "$tarball" | cut -f1) + 262144))k "$disk"
		mkdir -p "$disk/base/7.3/$version"
		cp "$tarball" "$disk/base/7.3/$version/"
		: >"$disk/base/7.3/$version/${tarball##*/}.ok"
		expect_error "full disk while unpacking the base: scripts/tree says so" \
			"creating the base tree in .* failed" "$S/tree"
		check "full disk while unpacking the base: no partial tree, no base commit recorded" \
			test ! -e "$disk/linux-7.3.tmp" -a ! -e "$disk/linux-7.3" -a ! -e "$disk/base-commit-7.3"
	fi
fi

tap_end
