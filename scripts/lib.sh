# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the scripts in this directory. Source it; do not run it.
#
# Environment (all optional):
#   PAD_QUEUE     which queue to work on: 7.3 (default, the upstream series in
#                 patches/ and series) or 6.12 (the backport in backport-6.12/);
#                 each has its base described in bases/QUEUE
#   PAD_CACHE     where trees, build directories, ccache and images live
#                 (default /var/tmp/acpi-pad; always outside the repository)
#   KERNEL_TREE   a git kernel tree of the queue's release to use instead of
#                 Debian's linux-source package
#   PAD_ACCEL     tcg (default) or kvm; kvm falls back to tcg when it cannot boot
#   DEBUG=1       trace every command

set -euo pipefail
shopt -s inherit_errexit
[[ ${DEBUG:-0} == 1 ]] && set -x

# -h or --help, to any script: its header comment is its usage.
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
	sed -n '2,/^[^#]/{ /^# shellcheck/d; /SPDX-License-Identifier/d; s/^# \{0,1\}//p; }' "$0" | sed '/^$/N;/^\n$/D'
	exit 0
fi

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/tap.sh
source "$REPO/scripts/tap.sh"
PAD_CACHE=${PAD_CACHE:-/var/tmp/acpi-pad}
PAD_QUEUE=${PAD_QUEUE:-7.3}
WORK_BRANCH=acpi-pad
export CCACHE_DIR=${CCACHE_DIR:-$PAD_CACHE/ccache}

# The project identity: patches are authored and signed off with it.
PAD_NAME="ACPI PAD series"
PAD_EMAIL="acpi-pad@example.invalid"

log() { printf '%s\n' "$*" >&2; }

# replace_literal OLD NEW: copy stdin to stdout with every OLD replaced by
# NEW, both taken literally (no regex, no & or \ in NEW).
replace_literal() {
	OLD=$1 NEW=$2 awk '{
		out = ""
		while ((i = index($0, ENVIRON["OLD"])) > 0) {
			out = out substr($0, 1, i - 1) ENVIRON["NEW"]
			$0 = substr($0, i + length(ENVIRON["OLD"]))
		}
		print out $0
	}'
}

# fail_note STATUS WHAT DIR: say that WHAT failed (the messages before say
# why) and, when DIR's file system is short of space, how much is free.
fail_note() {
	local free
	free=$(df -Pk "$3" 2>/dev/null | awk 'NR == 2 { print $4 }')
	log "ERROR: $2 failed (exit status $1; the messages above say why)"
	[[ -z $free ]] || ((free > 3 * 1024 * 1024)) ||
		log "       only $((free / 1024)) MiB are free in $3: free some space, or set PAD_CACHE to a larger disk"
}

# run_strict CMD...: run CMD in a subshell with errexit in force and set
# strict_status to its exit status; never fails itself. Call it as a plain
# command: under if, while, ||, && or ! bash ignores errexit in everything
# the command runs, functions and subshells included.
run_strict() { set +e; (set -e; "$@"); strict_status=$?; set -e; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# read_conf FILE PREFIX KEY...: read FILE's key=value lines (data, not code:
# nothing in it is executed) into PREFIX_KEY variables; the KEYs listed must
# be there.
read_conf() {
	local file=$1 prefix=$2 key val v
	shift 2
	[[ -f $file ]] || die "no such file: $file"
	while IFS='=' read -r key val; do
		[[ -z $key || $key == \#* ]] && continue
		[[ $key =~ ^[a-z0-9_]+$ ]] || die "$file: bad line '$key=$val'"
		printf -v "${prefix}_${key^^}" '%s' "$val"
	done <"$file"
	for key in "$@"; do
		v=${prefix}_${key^^}
		[[ -n ${!v:-} ]] || die "$file: no $key="
	done
}

# base_load FILE: the base description of a queue (see bases/) as BASE_*.
base_load() {
	[[ -f $1 ]] || die "no base file $1 (PAD_QUEUE is one of: $(ls "$REPO/bases" | paste -sd' '))"
	read_conf "$1" BASE release queue package version suite deb_sha256 tarball tarball_sha256 commit
}
base_load "$REPO/bases/$PAD_QUEUE"
QUEUE=$REPO/$BASE_QUEUE		# the queue: series, patches/ (and the cover letter)
QUEUE=${QUEUE%/.}
# A copy of the queue with a planted defect (scripts/check --self-test).
QUEUE=${PAD_QUEUE_DIR:-$QUEUE}
DEFAULT_TREE=$PAD_CACHE/linux-$PAD_QUEUE
TREE=${KERNEL_TREE:-$DEFAULT_TREE}
OUT=$PAD_CACHE/out/$PAD_QUEUE

# Packages every script may need on a fresh Debian 12 machine.
PAD_PACKAGES=(
	acpica-tools bc bison build-essential busybox-static ccache clang-19
	coreutils cpio curl flex gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu git kmod libelf-dev
	libc6-dev-arm64-cross libssl-dev lld-19 llvm-19 perl python3 python3-git
	python3-ply qemu-efi-aarch64 qemu-system-arm qemu-system-x86 rsync xz-utils
)

_step_n=0
_step_total=0
_step_names=()
_step_starts=()

# steps N: announce how many numbered steps follow; step MSG: print "[i/N] MSG"
# with the time of day, and note when the step began (step_times).
steps() { _step_total=$1; _step_n=0; _step_names=(); _step_starts=(); }
step() {
	_step_n=$((_step_n + 1))
	_step_names+=("$*")
	_step_starts+=("$SECONDS")
	printf '[%d/%d] %(%H:%M:%S)T %s\n' "$_step_n" "$_step_total" -1 "$*" >&2
}

# step_times: how long each step took, in minutes, longest first, and in
# all ("# " lines on stdout, for the end of a long run).
step_times() {
	local i end
	((${#_step_starts[@]})) || return 0
	echo "# time per step (min), longest first:"
	for i in "${!_step_starts[@]}"; do
		end=${_step_starts[$((i + 1))]:-$SECONDS}
		printf '%d %s\n' $((end - _step_starts[i])) "${_step_names[$i]}"
	done | sort -rn | awk '{ t = $1; $1 = ""; printf "#   %5.1f %s\n", t / 60, substr($0, 2) }'
	printf '#   %5.1f in all\n' "$(bc <<<"scale=1; ($SECONDS - ${_step_starts[0]}) / 60")"
}

# Install the packages above that are missing (root only; no-op when all present).
ensure_packages() {
	local missing=() p
	for p in "${PAD_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	((${#missing[@]})) || return 0
	log "Installing ${missing[*]}"
	[[ $(id -u) == 0 ]] ||
		die "missing packages: ${missing[*]}. Run as root (the scripts then install them), or install them: apt-get install ${missing[*]}"
	apt-get update -q >/dev/null &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			"${missing[@]}" >/dev/null ||
		die "apt-get could not install ${missing[*]} (its messages are above): check the network and the apt sources, or install them by hand"
}

# build_lock: take the machine's one kernel build slot (2 cores: one kernel
# build at a time), waiting for it if need be; held on fd 9 until
# build_unlock or the script's exit.
build_lock() {
	local t0=$SECONDS
	mkdir -p "$PAD_CACHE"
	exec 9>"$PAD_CACHE/build.lock"
	flock -n 9 || { log "waiting for another kernel build to finish ($PAD_CACHE/build.lock)"; flock 9; }
	((SECONDS - t0 < 2)) || log "    waited $((SECONDS - t0)) s for the build slot"
}
build_unlock() { exec 9>&-; }

# quiet_shared: scripts/bench measures on a quiet machine. Kernel builds and
# guests hold $PAD_CACHE/quiet.lock shared (on fd 8, so until the script and
# what it started exit); scripts/bench takes it exclusively while it
# measures, and its own guests (PAD_QUIET_HELD=1) do not wait for it. Both
# pass through quiet.gate first, so that a waiting bench is not starved by
# guests and builds that keep starting.
quiet_shared() {
	[[ ${PAD_QUIET_HELD:-0} == 1 ]] && return 0
	mkdir -p "$PAD_CACHE"
	exec 7>"$PAD_CACHE/quiet.gate"
	flock -n 7 || { log "waiting for scripts/bench to finish measuring"; flock 7; }
	exec 8>"$PAD_CACHE/quiet.lock"
	flock -s 8
	exec 7>&-
}

# quiet_exclusive: wait until no build or guest runs, then keep others out
# until this script exits.
quiet_exclusive() {
	mkdir -p "$PAD_CACHE"
	exec 7>"$PAD_CACHE/quiet.gate"
	flock 7
	exec 8>"$PAD_CACHE/quiet.lock"
	flock -x -n 8 || { log "waiting for kernel builds and guests to finish, to measure on a quiet machine"; flock -x 8; }
	exec 7>&-
	export PAD_QUIET_HELD=1
}

# git in the kernel tree, as the project identity.
kgit() {
	git -C "$TREE" -c user.name="$PAD_NAME" -c user.email="$PAD_EMAIL" "$@"
}

# The commit the series applies to.
base_commit() {
	if [[ -n ${KERNEL_TREE:-} ]]; then
		git -C "$TREE" rev-parse "refs/heads/acpi-pad-base-$PAD_QUEUE" 2>/dev/null ||
			die "KERNEL_TREE has no acpi-pad-base-$PAD_QUEUE branch yet: run scripts/tree"
	else
		[[ -f $PAD_CACHE/base-commit-$PAD_QUEUE ]] || die "no base tree yet: run scripts/tree"
		cat "$PAD_CACHE/base-commit-$PAD_QUEUE"
	fi
}

# tree_release DIR: the kernel release in DIR's top Makefile ("7.3.4").
tree_release() {
	awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2; exit } END { if (v != "") print v "." p "." s }' "$1/Makefile"
}

# check_release DIR: DIR holds the release series this queue is for (same
# major.minor as the base: a 7.3.y tree for the 7.3 queue), or stop.
check_release() {
	local rel hint
	hint="no queue is for that release (bases/: $(ls "$REPO/bases" | paste -sd' '))"
	rel=$(tree_release "$1" 2>/dev/null || true)
	[[ -n $rel ]] || die "$1 is not a kernel tree (no VERSION in its Makefile): point KERNEL_TREE at a ${BASE_RELEASE%.*}.y kernel tree"
	[[ ! -f $REPO/bases/${rel%.*} ]] || hint="or PAD_QUEUE=${rel%.*} for its queue"
	[[ ${rel%.*} == "${BASE_RELEASE%.*}" ]] ||
		die "$1 holds Linux $rel, but queue $PAD_QUEUE is for Linux ${BASE_RELEASE%.*}.y (base $BASE_RELEASE). Use a ${BASE_RELEASE%.*}.y tree, $hint"
	[[ $rel == "$BASE_RELEASE" ]] ||
		log "note: $1 is Linux $rel; the queue is tested on $BASE_RELEASE"
}

# debian_mirror: the Debian mirror of the system's apt sources (the one that
# serves the release itself), without a trailing slash.
debian_mirror() {
	local m
	m=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' |
		awk '$3 == "main" && $2 !~ /-/ { print $1; exit }')
	[[ -n $m ]] || die "no Debian mirror in the system's apt sources"
	printf '%s\n' "${m%/}"
}

# apt_download DIR SUITE ARCH PACKAGE[=VERSION]: download the package for
# ARCH from the system's Debian mirror and SUITE into DIR, with a source list
# and package lists of DIR's own (the system's apt sources stay as they
# are); print the path of the .deb.
apt_download() {
	local dir=$1 suite=$2 arch=$3 pkg=$4 mirror opts
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	mirror=$(debian_mirror)
	[[ $suite != *-security ]] || mirror+=-security
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
		"$mirror" "$suite" >"$dir/sources.list"
	opts=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache::Archives="$dir/archives"
		-o APT::Architecture="$arch" -o APT::Architectures::="$arch"
		-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root)
	apt-get "${opts[@]}" update -q >"$dir/apt.log" 2>&1 ||
		{ tail -n 5 "$dir/apt.log" >&2; die "apt-get update for $suite ($arch) failed: is the Debian mirror reachable?"; }
	rm -f "$dir"/*.deb
	(cd "$dir" && apt-get "${opts[@]}" download "$pkg" >>"$dir/apt.log" 2>&1) ||
		{ tail -n 5 "$dir/apt.log" >&2; die "cannot download $pkg from $suite ($arch)"; }
	ls "$dir"/*.deb
}

# deb_fetch PACKAGE VERSION SUITE SHA256 DEB: download exactly that version
# of a Debian package into the file DEB and check its SHA-256.
deb_fetch() {
	local pkg=$1 ver=$2 suite=$3 sum=$4 deb=$5 got
	if [[ -f $deb ]] && sha256sum -c --status <<<"$sum  $deb"; then
		return 0
	fi
	log "Fetching $pkg $ver ($suite)"
	mkdir -p "$(dirname "$deb")"
	got=$(apt_download "$PAD_CACHE/apt/$suite" "$suite" "$(dpkg --print-architecture)" "$pkg=$ver")
	mv "$got" "$deb"
	sha256sum -c --status <<<"$sum  $deb" || { rm -f "$deb"; die "$pkg $ver: checksum differs from the one recorded"; }
}

# base_tarball: fetch the base's Debian package (bases/QUEUE), unpack it and
# print the path of its kernel source tarball, checked against its SHA-256.
base_tarball() {
	local d=$PAD_CACHE/base/$PAD_QUEUE/$BASE_VERSION
	local tb=$d/${BASE_TARBALL##*/}
	if [[ -f $tb.ok ]]; then
		printf '%s\n' "$tb"
		return 0
	fi
	deb_fetch "$BASE_PACKAGE" "$BASE_VERSION" "$BASE_SUITE" "$BASE_DEB_SHA256" \
		"$d/${BASE_PACKAGE}_$BASE_VERSION.deb"
	rm -rf "$d/x"
	dpkg-deb -x "$d/${BASE_PACKAGE}_$BASE_VERSION.deb" "$d/x"
	mv "$d/x/$BASE_TARBALL" "$tb"
	rm -rf "$d/x"
	sha256sum -c --status <<<"$BASE_TARBALL_SHA256  $tb" ||
		die "$tb: checksum differs from bases/$PAD_QUEUE"
	touch "$tb.ok"
	printf '%s\n' "$tb"
}

# b4 ARGS...: b4 at the version scripts/b4.conf names (unpacked from its
# Debian package into $PAD_CACHE/b4; its dependencies are bookworm's).
b4() {
	local d=$PAD_CACHE/b4
	if [[ ! -f $d/ok ]]; then
		read_conf "$REPO/scripts/b4.conf" B4 package version suite deb_sha256
		local PAD_PACKAGES=(b4)	# bookworm's b4 brings the dependencies
		ensure_packages
		deb_fetch "$B4_PACKAGE" "$B4_VERSION" "$B4_SUITE" "$B4_DEB_SHA256" "$d/b4.deb"
		rm -rf "$d/x"
		dpkg-deb -x "$d/b4.deb" "$d/x"
		touch "$d/ok"
	fi
	PYTHONPATH=$d/x/usr/lib/python3/dist-packages /usr/bin/python3 \
		-c 'import sys; from b4.command import cmd; sys.exit(cmd())' "$@"
}

# sparse_path: the path of the sparse that scripts/sparse.conf names, built
# once from its Debian source tarball in $PAD_CACHE/sparse (in a scratch
# directory, renamed when it is complete).
sparse_path() {
	local d=$PAD_CACHE/sparse url
	read_conf "$REPO/scripts/sparse.conf" SPARSE package version orig orig_sha256
	d+=/$SPARSE_VERSION
	if [[ ! -x $d/sparse ]]; then
		command -v curl >/dev/null || die "could not find curl: install it (apt-get install curl)"
		url=$(debian_mirror)/pool/main/${SPARSE_PACKAGE:0:1}/$SPARSE_PACKAGE/$SPARSE_ORIG
		log "Building sparse $SPARSE_VERSION from $url"
		rm -rf "$d" "$d.tmp"
		mkdir -p "$d.tmp"
		curl -fsSL --retry 3 --connect-timeout 30 -o "$d.tmp/$SPARSE_ORIG" "$url" ||
			die "cannot download $url: is the Debian mirror reachable, and does it still hold sparse $SPARSE_VERSION (scripts/sparse.conf)?"
		sha256sum -c --status <<<"$SPARSE_ORIG_SHA256  $d.tmp/$SPARSE_ORIG" ||
			die "$SPARSE_ORIG: checksum differs from scripts/sparse.conf"
		tar -xzf "$d.tmp/$SPARSE_ORIG" -C "$d.tmp" --strip-components=1
		make -C "$d.tmp" -j"$(nproc)" sparse >"$d.tmp/build.log" 2>&1 ||
			{ tail -n 20 "$d.tmp/build.log" >&2; die "sparse $SPARSE_VERSION does not build (log: $d.tmp/build.log)"; }
		mv "$d.tmp" "$d"
	fi
	printf '%s\n' "$d/sparse"
}

# drop_worktree TREE PATH: remove TREE's worktree at PATH, and its record
# even when the directory is gone. Not git worktree prune: that would also
# drop the records of the user's worktrees whose disk is not mounted.
drop_worktree() {
	local d common
	git -C "$1" worktree remove --force "$2" >/dev/null 2>&1 && return 0
	rm -rf "$2"
	common=$(git -C "$1" rev-parse --path-format=absolute --git-common-dir)
	for d in "$common"/worktrees/*/; do
		[[ -f ${d}gitdir && $(<"${d}gitdir") == "$2/.git" ]] && rm -rf "$d"
	done
	return 0
}

# sparse_checkout WT REV PATTERN...: check out REV, detached, in the
# worktree WT with only what the (non-cone) PATTERNs name. The patterns go
# to WT's own info/sparse-checkout and core.sparseCheckout is set for the
# checkout alone: git sparse-checkout would write extensions.worktreeConfig
# into the configuration all worktrees of the user's tree share.
sparse_checkout() {
	local wt=$1 rev=$2 f
	shift 2
	f=$(git -C "$wt" rev-parse --path-format=absolute --git-path info/sparse-checkout)
	mkdir -p "${f%/*}"
	printf '%s\n' "$@" >"$f"
	git -C "$wt" -c core.sparseCheckout=true checkout -q -f --detach "$rev"
}

# format_queue BRANCH DIR [FROM [PREFIX]]: write BRANCH's commits since the
# base (or since FROM) to DIR as the queue keeps them: format-patch mails,
# blank context lines as empty lines (see scripts/export), plus
# 0000-cover-letter.patch; PREFIX (e.g. RFC) follows PATCH, as b4 puts it.
format_queue() {
	local base=${3:-}
	[[ -n $base ]] || base=$(base_commit)
	# The queue's form, whatever the user's git configuration says.
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$TREE" \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.algorithm=myers \
		-c diff.renames=true -c diff.relative=false -c diff.suppressBlankEmpty=false \
		-c format.signOff=false -c format.numbered=auto -c format.suffix=.patch \
		-c format.thread=false -c format.from=false -c core.abbrev=9 \
		-c user.name="$PAD_NAME" -c user.email="$PAD_EMAIL" \
		format-patch -q --zero-commit --no-signature --cover-letter \
		--subject-prefix="PATCH${4:+ $4}" -o "$2" "$base..$1"
	# A blank context line is " " in git's output. checkpatch.pl checks a file
	# that git tracks (as the queue is) as source, where that space is
	# trailing whitespace; git am, git apply and patch(1) all take an empty
	# line as an empty context line (the same tree after applying).
	sed -i 's/^ $//' "$2"/0*.patch
}

# applied_ref: where scripts/apply records the commit it built the work
# branch up to, so that the branch is compared with the queue it was built
# from, not with today's (which a pull may have changed).
applied_ref() { printf 'refs/acpi-pad/applied-%s\n' "$PAD_QUEUE"; }

# cover_parts COVER DIR: the subject and the blurb (the text before the
# shortlog, without trailing blank lines) of the cover letter COVER, as the
# files DIR/subject and DIR/blurb.
cover_parts() {
	sed -n 's/^Subject: \[[^]]*\] //p' "$1" | head -n1 >"$2/subject"
	awk '/^$/ && !body { body = 1; next } body && /^[^ ].* \([0-9]+\):$/ { exit } body' "$1" |
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$2/blurb"
}

# unexported BRANCH: print the first commit of BRANCH that is not exported
# yet: the first one after the commit scripts/apply built it up to, or, for
# a branch rewritten since (or made otherwise), the first one whose mail
# differs from the queue. Print nothing when BRANCH is absent, is as
# scripts/apply built it, or holds exactly the queue.
unexported() {
	local n c head applied
	head=$(git -C "$TREE" rev-parse -q --verify "refs/heads/$1") || return 0
	if applied=$(git -C "$TREE" rev-parse -q --verify "$(applied_ref)"); then
		[[ $head != "$applied" ]] || return 0
		if git -C "$TREE" merge-base --is-ancestor "$applied" "$head"; then
			c=$(git -C "$TREE" rev-list --reverse "$applied..$head" | head -n1)
			git -C "$TREE" log -1 --format='%h ("%s")' "$c"
			return 0
		fi
	fi
	n=$(queue_diverges "$1")
	[[ -z $n ]] ||
		git -C "$TREE" log -1 --format='%h ("%s")' "$(git -C "$TREE" rev-list --reverse "$(base_commit)..$1" | sed -n "${n}p")"
}

# queue_diverges REV: the number (from 1) of the first of REV's commits since
# the base whose mail differs from the queue's patch at its place; nothing
# when each matches (REV may hold fewer commits than the queue).
queue_diverges() {
	local t p i=0 q=()
	t=$(mktemp -d)
	format_queue "$1" "$t"
	mapfile -t q < <(series_patches)
	for p in "$t"/0*.patch; do
		[[ ${p##*/} == 0000-cover-letter.patch ]] && continue
		if [[ $i -ge ${#q[@]} ]] || ! cmp -s "$p" "${q[$i]}"; then
			echo $((i + 1))
			break
		fi
		i=$((i + 1))
	done
	rm -rf "$t"
}

# queue_moved: true when the queue's patches differ from the ones
# scripts/apply last built the work branch from (a pull or an edit of the
# queue since); false when they match, or apply never ran.
queue_moved() {
	git -C "$TREE" rev-parse -q --verify "$(applied_ref)" >/dev/null &&
		[[ -n $(queue_diverges "$(applied_ref)") ]]
}

# unexported_advice COMMIT: what to do with the work branch's commits from
# COMMIT on, which the queue does not hold. Exporting is the way only when
# the queue is still what the branch was built from: otherwise it would
# overwrite what changed in the queue since.
unexported_advice() {
	if queue_moved; then
		printf '%s\n' "The queue has also changed since scripts/apply built $WORK_BRANCH (a pull?), so scripts/export would overwrite those changes.
       Keep your commits on a branch of your own ('git -C $TREE branch my-work $WORK_BRANCH'), drop $WORK_BRANCH ('git -C $TREE branch -D $WORK_BRANCH'), run scripts/apply, then cherry-pick them from my-work onto it."
	else
		printf '%s\n' "Run scripts/export to keep it, or 'git -C $TREE branch -D $WORK_BRANCH' to drop it."
	fi
}

# Patches in quilt order, as paths.
series_patches() {
	local p
	while read -r p; do
		[[ -z $p || $p == \#* ]] && continue
		printf '%s\n' "$QUEUE/patches/$p"
	done <"$QUEUE/series"
}

# The queue is sent as several series, each marked in the series file by a
# line "#= NAME [PREFIX...]" before its first patch: the fixes, then the
# series that build on them, in order. PREFIX (e.g. RFC) goes in front of
# PATCH in the subjects; each series of the upstream queue has its cover
# letter in cover-letter-NAME.txt.

# series_names: the names of the series, in order.
series_names() { awk '$1 == "#=" { print $2 }' "$QUEUE/series"; }

# series_prefix NAME: the subject prefixes of series NAME ("" or "RFC").
series_prefix() {
	awk -v n="$1" '$1 == "#=" && $2 == n { $1 = $2 = ""; sub(/^ +/, ""); print }' "$QUEUE/series"
}

# series_of NAME: the patches of series NAME, in quilt order, as paths.
series_of() {
	local p cur=
	while read -r p; do
		[[ $p == '#= '* ]] && { cur=$(awk '{ print $2 }' <<<"$p"); continue; }
		[[ -z $p || $p == \#* || $cur != "$1" ]] && continue
		printf '%s\n' "$QUEUE/patches/$p"
	done <"$QUEUE/series"
}

# check_series_groups: every patch belongs to a series, and no series is
# empty or named twice; or stop.
check_series_groups() {
	local n names total=0
	names=$(series_names)
	[[ -n $names ]] || die "$QUEUE/series marks no series (a line \"#= NAME\" before each one's first patch)"
	[[ -z $(sort <<<"$names" | uniq -d) ]] || die "$QUEUE/series names a series twice: $(sort <<<"$names" | uniq -d | paste -sd' ')"
	for n in $names; do
		[[ -n $(series_of "$n") ]] || die "series $n in $QUEUE/series has no patch"
		total=$((total + $(series_of "$n" | wc -l)))
	done
	((total == $(series_patches | wc -l))) ||
		die "$QUEUE/series lists $(series_patches | wc -l) patches, $total of them after a \"#= NAME\" line: put every patch in a series"
}

# Run a command with a time limit, killing its whole process group on expiry.
with_timeout() {
	local secs=$1
	shift
	timeout --kill-after=10 "$secs" "$@"
}

# pack_cpio ROOT OUT BUSYBOX CC: complete the guest's root ROOT with BUSYBOX,
# a link for each of its applets, and a small static timeout that knows
# --foreground (run_kselftest.sh needs it; busybox's does not) built with
# CC; then pack ROOT as the initramfs OUT, written whole or not at all.
pack_cpio() {
	local r=$1 out=$2 bb=$3 cc=$4 applet
	[[ -x /bin/busybox ]] || die "no /bin/busybox: apt-get install busybox-static"
	mkdir -p "$r/bin" "$r/usr/bin"
	install -m755 "$bb" "$r/bin/busybox"
	# The applets of the host's busybox: the same version, any architecture.
	for applet in $(/bin/busybox --list); do
		[[ -e $r/bin/$applet ]] || ln -s busybox "$r/bin/$applet"
	done
	"$cc" -O2 -Wall -static -o "$r/usr/bin/timeout" "$REPO/selftests/farm/timeout.c"
	(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out.tmp"
	mv "$out.tmp" "$out"
}

# Compile selftests/firmware/pad.asl (variant: pad, or pad-noost without _OST)
# into $OUT/aml and print the path of the AML. The AML is named by its
# source's checksum, so checkouts of this repository that share $OUT, even
# running at once, each boot the firmware of their own source.
firmware_aml() {
	local variant=${1:-pad} out=$OUT/aml defs=() src=$REPO/selftests/firmware/pad.asl sum aml
	[[ $variant == pad-noost ]] && defs=(-D NO_OST)
	command -v iasl >/dev/null ||
		die "could not find iasl: install it (apt-get install acpica-tools), or run scripts/test or scripts/demo, which install what they need"
	[[ -f $src ]] || die "no firmware source $src"
	mkdir -p "$out"
	sum=$(sha256sum <"$src")
	aml=$out/$variant-${sum:0:16}.aml
	# Compiled under a name of its own and renamed, so that a guest started
	# meanwhile by another run never reads a half-written table.
	if [[ ! -f $aml ]]; then
		iasl -vs "${defs[@]}" -p "$out/$variant-tmp$$" "$src" >"$out/$variant-tmp$$.log" 2>&1 ||
			{ cat "$out/$variant-tmp$$.log" >&2; rm -f "$out/$variant-tmp$$".*; die "iasl failed on pad.asl ($variant)"; }
		mv -f "$out/$variant-tmp$$.aml" "$aml"
		rm -f "$out/$variant-tmp$$.log"
	fi
	printf '%s\n' "$aml"
}

# qemu_conf NAME: the QEMU settings of scripts/qemu/NAME.conf (x86_64, the
# test guest; farm-ARCH, scripts/farm's) as QEMU_*, and check that the
# emulator is installed.
qemu_conf() {
	unset QEMU_BIOS	# optional
	read_conf "$REPO/scripts/qemu/$1.conf" QEMU arch binary package machine cpu smp memory console cmdline
	command -v "$QEMU_BINARY" >/dev/null ||
		die "could not find $QEMU_BINARY: install it (apt-get install $QEMU_PACKAGE), or run scripts/test or scripts/demo, which install what they need"
	[[ -z ${QEMU_BIOS:-} || -f $QEMU_BIOS ]] ||
		die "could not find the firmware $QEMU_BIOS: install it (apt-get install qemu-efi-aarch64)"
}

# qemu_cmd KERNEL INITRD [SETTING=VALUE...] [-- QEMU_ARG...]: the QEMU
# command line for the settings qemu_conf read, in the array QEMU_CMD: no
# devices but the serial console (and the monitor on it), no display, no
# reboot. A SETTING=VALUE overrides one setting (accel, default tcg; cpu,
# smp, memory), or adds to the kernel command line (append=...). The
# QEMU_ARGs go before -append.
qemu_cmd() {
	local kernel=$1 initrd=$2 k
	local -A set=([accel]=tcg [cpu]=$QEMU_CPU [smp]=$QEMU_SMP [memory]=$QEMU_MEMORY [append]="")
	shift 2
	while (($#)) && [[ $1 != -- ]]; do
		k=${1%%=*}
		[[ $1 == *=* && -v set[$k] ]] || die "qemu_cmd: no setting '$1'"
		set[$k]=${1#*=}
		shift
	done
	(($# == 0)) || shift
	QEMU_CMD=("$QEMU_BINARY" -accel "${set[accel]}" -machine "$QEMU_MACHINE"
		-cpu "$(cpu_model "$QEMU_ARCH" "${set[cpu]}")" -smp "${set[smp]}" -m "${set[memory]}"
		-nodefaults -display none -no-reboot -serial mon:stdio)
	[[ -z ${QEMU_BIOS:-} ]] || QEMU_CMD+=(-bios "$QEMU_BIOS")
	QEMU_CMD+=(-kernel "$kernel" -initrd "$initrd" "$@"
		-append "console=$QEMU_CONSOLE $QEMU_CMDLINE${set[append]:+ ${set[append]}}")
}

# qmp SOCKET COMMAND: run one QMP command (no arguments) on the QEMU behind
# the unix socket SOCKET; print its return value as JSON. Fails when QEMU
# does not answer within 5 s or answers with an error.
qmp() {
	python3 - "$1" "$2" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
f = s.makefile('rw')
json.loads(f.readline())
for cmd in ('qmp_capabilities', sys.argv[2]):
    f.write(json.dumps({'execute': cmd}) + '\n')
    f.flush()
    r = {}
    while 'return' not in r and 'error' not in r:
        r = json.loads(f.readline())
    if 'error' in r:
        sys.exit(f"QMP {cmd}: {r['error'].get('desc', r['error'])}")
print(json.dumps(r['return']))
PY
}

# cpu_model ARCH NAME: the QEMU -cpu value of NAME in
# scripts/qemu/ARCH-cpus.conf, or NAME itself when that file does not name it.
cpu_model() {
	local f=$REPO/scripts/qemu/$1-cpus.conf m=""
	[[ ! -f $f ]] || m=$(sed -n "s/^$2=//p" "$f" | head -n1)
	printf '%s\n' "${m:-$2}"
}

# kvm_usable [NAME]: whether KVM can boot build NAME (default pad), probed
# once per PAD_CACHE with a 60 s limit (a /dev/kvm that exists but cannot
# run a guest must not hang a run). Uses the settings of qemu_conf.
kvm_usable() {
	local mark=$PAD_CACHE/kvm-usable b=$OUT/${1:-pad}
	if [[ ! -f $mark ]]; then
		qemu_cmd "$b/bzImage" "$b/initramfs.cpio" accel=kvm cpu=host memory=256M append=padjob=boot
		if [[ -w /dev/kvm ]] && with_timeout 60 "${QEMU_CMD[@]}" </dev/null 2>/dev/null |
			grep -q '^PAD-JOB-EXIT 0'; then
			echo yes >"$mark"
		else
			echo no >"$mark"
		fi
	fi
	[[ $(cat "$mark") == yes ]]
}

# config_fragments [DIR [NAME]]: the fragments for this queue's x86_64 guest:
# first the kselftest's own config (the tree's tools/testing/selftests/acpi/
# config, as test farms merge it), then DIR's (default kernel-config) common
# ones, then those for the queue's base, then those of build NAME, if it has a
# directory of its own (kernel-config/san/ for the sanitizer build "san"; NAME
# must not be a queue or arm64). The kselftest's config is read from a copy,
# $OUT/selftest-acpi.config, rewritten only when it changes: builds of the
# commits before the selftest patch (scripts/check) merge the same options.
config_fragments() {
	local d=${1:-$REPO/kernel-config} name=${2:-} st=$TREE/tools/testing/selftests/acpi/config
	if [[ -f $st ]]; then
		mkdir -p "$OUT"
		cmp -s "$st" "$OUT/selftest-acpi.config" || cp "$st" "$OUT/selftest-acpi.config"
		printf '%s\n' "$OUT/selftest-acpi.config"
	fi
	ls "$d"/*.config
	[[ ! -d $d/$PAD_QUEUE ]] || ls "$d/$PAD_QUEUE"/*.config
	[[ -z $name || ! -d $d/$name ]] || ls "$d/$name"/*.config
}

# build_dir SRC NAME: the build directory (O=) of build NAME of the tree SRC.
# In a tree these scripts made (under $PAD_CACHE), a direct subdirectory of
# it: kbuild then names every source by a relative path (srctree is ".."),
# so ccache serves one tree's objects to another tree's build with the same
# config (the stock kernel and the check's from the series' build). In any
# other tree (KERNEL_TREE), $OUT/NAME/obj: nothing is written into it.
build_dir() {
	if [[ $1 == "$PAD_CACHE"/* && $1 != "${KERNEL_TREE:-/nonexistent}" ]]; then
		echo "$1/obj-$2"
	else
		echo "$OUT/$2/obj"
	fi
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
	local name=$1 b=$PAD_CACHE/out/$PAD_QUEUE/$1 dat=$PAD_CACHE/out/$PAD_QUEUE/aml/dsdt-q35.dat t
	mkdir -p "${dat%/*}"
	if [[ ! -s $dat ]]; then
		PAD_QUEUE=$PAD_QUEUE "$REPO/scripts/vm" -n "$name" -t 120 dsdt >/dev/null 2>&1 || true
		sed -n '/^DSDT-BEGIN$/,/^DSDT-END$/{//!p}' "$b/dsdt.log" | base64 -d >"$dat.$$" ||
			{ rm -f "$dat.$$"; die "could not read the DSDT from the guest (see $b/dsdt.log)"; }
		mv -f "$dat.$$" "$dat"
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
	(cd "$t" && find kernel | LC_ALL=C sort | cpio -o -H newc --quiet) >"$t/dsdt64.cpio"
	cat "$t/dsdt64.cpio" "$b/initramfs.cpio" >"$b/initramfs-dsdt64.cpio.$$"
	mv -f "$b/initramfs-dsdt64.cpio.$$" "$b/initramfs-dsdt64.cpio"
	rm -rf "$t"
	printf '%s\n' "$b/initramfs-dsdt64.cpio"
}
