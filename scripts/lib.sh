# shellcheck shell=bash
# Shared helpers for the scripts in this directory. Source it; do not run it.
#
# Environment (all optional):
#   PAD_CACHE     where trees, build directories, ccache and images live
#                 (default /var/tmp/acpi-pad; always outside the repository)
#   KERNEL_TREE   a git kernel tree to use instead of Debian's linux-source-6.12
#   PAD_ACCEL     tcg (default) or kvm; kvm falls back to tcg when it cannot boot
#   DEBUG=1       trace every command

set -euo pipefail
[[ ${DEBUG:-0} == 1 ]] && set -x

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAD_CACHE=${PAD_CACHE:-/var/tmp/acpi-pad}
SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
DEFAULT_TREE=$PAD_CACHE/linux
TREE=${KERNEL_TREE:-$DEFAULT_TREE}
WORK_BRANCH=acpi-pad
OUT=$PAD_CACHE/out
export CCACHE_DIR=${CCACHE_DIR:-$PAD_CACHE/ccache}

# The project identity: patches are authored and signed off with it.
PAD_NAME="ACPI PAD series"
PAD_EMAIL="acpi-pad@example.invalid"

# Packages every script may need on a fresh Debian 12 machine.
PAD_PACKAGES=(
	acpica-tools bc bison build-essential busybox-static ccache clang-16
	coreutils cpio flex gcc-aarch64-linux-gnu git kmod libelf-dev
	libssl-dev linux-source-6.12 lld-16 llvm-16 perl python3 python3-git
	python3-ply
	qemu-system-x86 rsync sparse xz-utils
)

_step_n=0
_step_total=0

log() { printf '%s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# steps N: announce how many numbered steps follow; step MSG: print "[i/N] MSG".
steps() { _step_total=$1; _step_n=0; }
step() { _step_n=$((_step_n + 1)); printf '[%d/%d] %s\n' "$_step_n" "$_step_total" "$*" >&2; }

# Install the packages above that are missing (root only; no-op when all present).
ensure_packages() {
	local missing=() p
	for p in "${PAD_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	((${#missing[@]})) || return 0
	log "Installing ${missing[*]}"
	[[ $(id -u) == 0 ]] || die "need root to install: ${missing[*]}"
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null
}

# git in the kernel tree, as the project identity.
kgit() {
	git -C "$TREE" -c user.name="$PAD_NAME" -c user.email="$PAD_EMAIL" "$@"
}

# The commit the series applies to.
base_commit() {
	if [[ -n ${KERNEL_TREE:-} ]]; then
		git -C "$TREE" rev-parse "${PAD_BASE:-refs/heads/acpi-pad-base}" 2>/dev/null ||
			git -C "$TREE" rev-parse HEAD
	else
		[[ -f $PAD_CACHE/base-commit ]] || die "no base tree yet: run scripts/tree"
		cat "$PAD_CACHE/base-commit"
	fi
}

# Patches in quilt order, as paths.
series_patches() {
	local p
	while read -r p; do
		[[ -z $p || $p == \#* ]] && continue
		printf '%s\n' "$REPO/patches/$p"
	done <"$REPO/series"
}

# Run a command with a time limit, killing its whole process group on expiry.
with_timeout() {
	local secs=$1
	shift
	timeout --kill-after=10 "$secs" "$@"
}

# Compile selftests/firmware/pad.asl (variant: pad, or pad-noost without _OST)
# into $OUT/aml and print the path of the AML.
firmware_aml() {
	local variant=${1:-pad} out=$OUT/aml defs=()
	[[ $variant == pad-noost ]] && defs=(-D NO_OST)
	mkdir -p "$out"
	if [[ ! -f $out/$variant.aml || $REPO/selftests/firmware/pad.asl -nt $out/$variant.aml ]]; then
		iasl -vs "${defs[@]}" -p "$out/$variant" "$REPO/selftests/firmware/pad.asl" >"$out/$variant.iasl.log" 2>&1 ||
			{ cat "$out/$variant.iasl.log" >&2; die "iasl failed on pad.asl ($variant)"; }
	fi
	printf '%s\n' "$out/$variant.aml"
}

# True when KVM can boot our kernel here (checked once per cache; a broken
# /dev/kvm must not hang a run).
kvm_usable() {
	local mark=$PAD_CACHE/kvm-usable
	if [[ ! -f $mark ]]; then
		if [[ -w /dev/kvm ]] && with_timeout 60 qemu-system-x86_64 -accel kvm -cpu host \
			-m 256M -nodefaults -display none -no-reboot -serial stdio \
			-kernel "$OUT/pad/bzImage" -initrd "$OUT/pad/initramfs.cpio" \
			-append "console=ttyS0 panic=-1 padjob=boot" </dev/null 2>/dev/null |
			grep -q '^PAD-JOB-EXIT 0'; then
			echo yes >"$mark"
		else
			echo no >"$mark"
		fi
	fi
	[[ $(cat "$mark") == yes ]]
}

# configure SRC OBJ [MAKE_ARGS...] -- FRAGMENT...: tinyconfig, then merge the
# fragments with merge_config.sh, then olddefconfig.
configure() {
	local src=$1 obj=$2 margs=() frags
	shift 2
	while [[ $1 != -- ]]; do margs+=("$1"); shift; done
	shift
	frags=("$@")
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" "${margs[@]}" tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"${frags[@]}" >/dev/null)
	make -s -C "$src" O="$obj" "${margs[@]}" olddefconfig >/dev/null
}

# check_config CONFIG FRAGMENT...: fail when an option a fragment requests is
# not in CONFIG (Kconfig silently drops options with unmet dependencies).
check_config() {
	local cfg=$1 frag line opt bad=0
	shift
	for frag in "$@"; do
		while read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF "$line" "$cfg" || { log "missing: $line (${frag##*/})"; bad=1; } ;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }; opt=${opt%% *}
				! grep -q "^$opt=" "$cfg" || { log "not unset: $opt (${frag##*/})"; bad=1; } ;;
			esac
		done <"$frag"
	done
	((bad == 0)) || die "kernel config is missing requested options (unmet dependencies?)"
}

# dsdt64_initrd NAME: print the path of build NAME's initramfs with, in front
# of it, an uncompressed cpio holding kernel/firmware/acpi/dsdt.aml: QEMU's
# DSDT for the default guest, with revision 2 (64-bit AML Integers) and a
# higher OEM revision, so that the kernel's initrd table upgrade replaces it.
dsdt64_initrd() {
	local name=$1 b=$OUT/$1 dat=$OUT/aml/dsdt-q35.dat t
	mkdir -p "$OUT/aml"
	if [[ ! -s $dat ]]; then
		"$REPO/scripts/vm" -n "$name" -t 120 dsdt >/dev/null 2>&1 || true
		sed -n '/^DSDT-BEGIN$/,/^DSDT-END$/{//!p}' "$b/dsdt.log" | base64 -d >"$dat" ||
			die "could not read the DSDT from the guest (see $b/dsdt.log)"
	fi
	t=$(mktemp -d)
	mkdir -p "$t/kernel/firmware/acpi"
	python3 - "$dat" "$t/kernel/firmware/acpi/dsdt.aml" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
assert d[:4] == b'DSDT' and int.from_bytes(d[4:8], 'little') == len(d), 'not a DSDT'
d[8] = 2                                         # revision: 64-bit Integers
oem = int.from_bytes(d[24:28], 'little') + 1     # upgrade needs a newer one
d[24:28] = oem.to_bytes(4, 'little')
d[9] = 0
d[9] = -sum(d) & 0xff                            # checksum
open(sys.argv[2], 'wb').write(d)
PY
	(cd "$t" && find kernel | LC_ALL=C sort | cpio -o -H newc --quiet) >"$b/dsdt64.cpio"
	rm -rf "$t"
	cat "$b/dsdt64.cpio" "$b/initramfs.cpio" >"$b/initramfs-dsdt64.cpio"
	printf '%s\n' "$b/initramfs-dsdt64.cpio"
}
