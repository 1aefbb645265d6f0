# lib.sh: helpers of the real-components suite (tests/real/*.sh), on top of
# tests/e2e/lib.sh (fixture, run, run_json, expect_*). Here the NVIDIA
# software is the vendor's own: Debian bookworm's driver user space, which
# tools/install-deps --test unpacks into .cache/debian/real/PACKAGE/ (never
# installed), and the CUDA toolkit at /usr/local/cuda. Each test holds
# wslgpu's verdict and evidence against what that software answers in the
# same run, not against strings copied into the test.
#
#   real_require               skip the file (saying so) without the packages
#   scenario NAME BASE [ENV..] a root from fixture BASE (its fake NVIDIA
#                              libraries taken out, glibc put in), run in the
#                              fixture's environment plus ENV; sets $ROOT
#   native_base                a native-Linux base: no module, no /dev/nvidia*
#   install_pkg PKG..          the unpacked Debian package's files into $ROOT,
#                              recorded in its dpkg status with the real
#                              control data and a .list
#   debian_alternatives BRANCH the /etc/alternatives links that package's
#                              maintainer script makes (BRANCH: current,
#                              tesla-470), with the real update-alternatives
#   ubuntu_compute VER         the driver's libraries as Ubuntu's
#                              libnvidia-compute-NNN lays them out in
#                              /usr/lib/x86_64-linux-gnu (and nvidia-utils-NNN's
#                              nvidia-smi in /usr/bin), in its dpkg status
#   run_copy VER               the same files owned by no package (.run)
#   ldcache                    $ROOT/etc/ld.so.cache by the real ldconfig -r
#   in_root CMD..              CMD chrooted into $ROOT in the scenario's
#                              environment, unable to create device nodes
#   answer_in_root cuda|nvml|which [LIB]
#                              the real library's answers (tests/real/answer.c)
#                              under the root's own loader configuration
#   answer_here cuda|nvml LIB  the same in this machine's loader, for a file
#   todo REASON ASSERTION..    an assertion that fails today for REASON: not
#                              ok ... # TODO REASON (not a failure); once it
#                              holds it passes and says to drop the TODO
#   matrix_row SCENARIO ...    a row of the scenario table (${REAL_MATRIX:-})
#   no_wsl_words ID, all_no_wsl_words
#                              no WSL-only fix (cause) off WSL
#   no_native_steps            on WSL, no native Linux step
# shellcheck disable=SC1091
. "$(cd "$(dirname "$0")/../e2e" && pwd)/lib.sh"
REAL=${WSLGPU_CACHE:-$top/.cache}/debian/real
CUDA_TOOLKIT=${CUDA_TOOLKIT:-/usr/local/cuda}
T_TODO=0
TODO_REASON=""
OUT=""
ERR=""
ARCH_TRIPLET=x86_64-linux-gnu

# ---- results: TODO assertions ----

# TAP, as tests/e2e/lib.sh writes it; a known failure carries prove's TODO
# directive ("not ok - ... # TODO reason"), which is not a failure.
ok() {
	[ -z "$JQ_Q$JQ_VALID" ] || json_flush
	selected || return 0
	T_PASS=$((T_PASS + 1))
	if [ -n "$TODO_REASON" ]; then
		printf 'ok - %s # TODO %s (holds now: take the TODO off)\n' \
			"$(printf '%s' "$FIXTURE: $1" | tr '\n#' ' ;')" "$TODO_REASON"
	else
		tap_line ok "$FIXTURE: $1"
	fi
}
fail() {
	[ -z "$JQ_Q$JQ_VALID" ] || json_flush
	selected || return 0
	if [ -n "$TODO_REASON" ]; then
		T_TODO=$((T_TODO + 1))
		printf 'not ok - %s # TODO %s\n' "$(printf '%s' "$FIXTURE: $1" | tr '\n#' ' ;')" \
			"$TODO_REASON"
		return 0
	fi
	T_FAIL=$((T_FAIL + 1))
	tap_line "not ok" "$FIXTURE: $1"
	{
		echo "---- stdout (cut)"; printf '%s\n' "$OUT" | head -c 1500; echo
		echo "---- stderr"; printf '%s\n' "$ERR" | head -20
	} | sed 's/^/# /'
}
todo() {
	TODO_REASON=$1
	shift
	"$@"
	TODO_REASON=""
}
done_testing() {
	json_flush
	echo "e2e-result: $T_PASS passed, $T_FAIL failed, $T_TODO todo"
	[ "$T_FAIL" -eq 0 ]
}
# expect_eq WHAT GOT WANT: the tool's GOT against the real software's WANT.
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1: $2"; else fail "$1: wslgpu has '$2', the real software '$3'"; fi
}
# ev ID KEY: evidence KEY of check ID in $JSON (empty when none).
ev() { jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .evidence[$k] // empty' "$JSON"; }
field() { jq -r --arg id "$1" --arg k "$2" '.checks[] | select(.id == $id) | .[$k] // empty' "$JSON"; }

real_require() {
	if [ ! -f "$REAL/.packages" ]; then
		echo "skip: no real NVIDIA packages in $REAL (tools/install-deps --test unpacks them)"
		done_testing
		exit 0
	fi
}
have_toolkit() { [ -x "$CUDA_TOOLKIT/bin/nvcc" ]; }
toolkit_skip() { echo "skip: no CUDA toolkit at $CUDA_TOOLKIT: $1 is not tested here (CI has one)"; }

# ---- building a scenario ----

# compile_prog DEST COMPILER ARG...: DEST built by COMPILER -o DEST ARG...
# (whose one source file names it). In a tests/run-tests.sh run each is
# built once ($WSLGPU_TEST_CACHE/progs) and copied: the real tests share
# them, and nvcc takes seconds.
compile_prog() {
	prog_dest=$1
	prog_cc=$2
	shift 2
	if [ -z "${WSLGPU_TEST_CACHE:-}" ]; then
		"$prog_cc" -o "$prog_dest" "$@"
		return
	fi
	prog_built=""
	for prog_arg in "$@"; do
		case $prog_arg in *.c | *.cu) prog_built=$WSLGPU_TEST_CACHE/progs/$(basename "$prog_arg") ;; esac
	done
	if [ ! -x "$prog_built" ]; then
		mkdir -p "$WSLGPU_TEST_CACHE/progs" || return 1
		"$prog_cc" -o "$prog_built.$$" "$@" || { rm -f "$prog_built.$$"; return 1; }
		mv -f "$prog_built.$$" "$prog_built" || return 1
	fi
	cp "$prog_built" "$prog_dest"
}

# The oracle: dlopens a library and says what it answers.
ANSWER=$WORK/answer
build_answer() {
	[ -x "$ANSWER" ] && return 0
	compile_prog "$ANSWER" cc -O1 "$top/tests/real/answer.c" -ldl || { echo "cannot build tests/real/answer.c" >&2; exit 3; }
}

scenario() {
	FIXTURE=$1
	ROOT=$WORK/$1
	base=$2
	shift 2
	fixture_tool --into "$ROOT" "$base" || exit 3
	# The fakes out: only real NVIDIA software in this root, but for the
	# Windows driver's libraries in /usr/lib/wsl, which no Linux package has.
	grep -rl '^#fake ' "$top/tests/fixtures/$base/root" 2>/dev/null |
		sed "s|^$top/tests/fixtures/$base/root||" | grep -v '^/usr/lib/wsl/' |
		while read -r f; do rm -f "$ROOT$f"; done
	rm -f "$ROOT/etc/ld.so.cache"
	RUN_VARS="$(fixture_tool --env "$base" | tr '\n' ' ') $*"
	VARS_OF=$FIXTURE
	EXTRA_ENV=""
	install_glibc
	build_answer
	cp "$ANSWER" "$ROOT/tmp/answer"
}

# A root has a C library: the described machine's programs (nvidia-smi)
# run on its loader (this machine's glibc files, copied).
GLIBC_FILES=$WORK/glibc.files
install_glibc() {
	if [ ! -f "$GLIBC_FILES" ]; then
		{
			dpkg -L libc6 2>/dev/null |
				grep -E "^(/usr)?/lib(64)?/($ARCH_TRIPLET/)?(ld-linux[^/]*|lib[a-z_]+)\.so(\.[0-9]+)*$"
			ls /lib/$ARCH_TRIPLET/libgcc_s.so.1 /usr/lib/$ARCH_TRIPLET/libstdc++.so.6* 2>/dev/null
		} | while read -r f; do [ -e "$f" ] && echo "$f"; done >"$GLIBC_FILES"
	fi
	# shellcheck disable=SC2046
	cp -Pl --parents $(cat "$GLIBC_FILES") "$ROOT/" 2>/dev/null ||
		cp -P --parents $(cat "$GLIBC_FILES") "$ROOT/"
}

# A hard link where it can (the files are large and never written), a copy
# otherwise; a symlink stays a symlink.
copy() { cp -Pl "$1" "$2" 2>/dev/null || cp -P "$1" "$2"; }

# Native Linux with no NVIDIA module: native-nvidia without its module,
# /proc/driver/nvidia and device-node stand-ins.
native_base() {
	rm -rf "$ROOT/proc/driver/nvidia" "$ROOT"/dev/nvidia* \
		"$ROOT/usr/lib/$ARCH_TRIPLET"/libcuda.so* "$ROOT/usr/lib/$ARCH_TRIPLET"/libnvidia-ml.so*
	grep -v '^nvidia' "$ROOT/proc/modules" >"$ROOT/proc/modules.new"
	mv "$ROOT/proc/modules.new" "$ROOT/proc/modules"
}

pkg_arch_name() { # PKG: PKG:amd64 for a Multi-Arch: same package (dpkg's .list name)
	if grep -q '^Multi-Arch: same' "$REAL/$1/DEBIAN/control"; then
		echo "$1:$(sed -n 's/^Architecture: //p' "$REAL/$1/DEBIAN/control")"
	else
		echo "$1"
	fi
}

# Records PKG in $ROOT's dpkg status (control stanza as shipped, installed)
# with FILE... (guest paths) in its .list.
dpkg_record() {
	ctl=$1
	name=$2
	shift 2
	mkdir -p "$ROOT/var/lib/dpkg/info"
	touch "$ROOT/var/lib/dpkg/status"
	# The database format with arch-qualified .list names (dpkg >= 1.16.2),
	# as every Debian and Ubuntu system has: dpkg-query reads them so.
	[ -f "$ROOT/var/lib/dpkg/info/format" ] || echo 1 >"$ROOT/var/lib/dpkg/info/format"
	{
		[ -s "$ROOT/var/lib/dpkg/status" ] && echo
		sed -n '1p' "$ctl"
		echo "Status: install ok installed"
		sed -n '2,$p' "$ctl"
	} >>"$ROOT/var/lib/dpkg/status"
	# dpkg's .list: "/.", every directory on the way, then the files.
	printf '%s\n' "$@" | awk '{ print; n = split($0, p, "/"); d = ""
		for (i = 2; i < n; i++) { d = d "/" p[i]; dirs[d] = 1 } }
		END { print "/." > "/dev/stderr"; for (d in dirs) print d > "/dev/stderr" }' \
		2>"$WORK/dirs" >"$WORK/files"
	{ sort -u "$WORK/dirs"; cat "$WORK/files"; } >"$ROOT/var/lib/dpkg/info/$name.list"
}

install_pkg() {
	for p in "$@"; do
		[ -d "$REAL/$p" ] || { echo "no $REAL/$p: tools/install-deps --test" >&2; exit 3; }
		files=$(cd "$REAL/$p" && find . -path ./DEBIAN -prune -o \( -type f -o -type l \) -print | sed 's|^\.||')
		cp -Pal "$REAL/$p/." "$ROOT/" 2>/dev/null || cp -Pa "$REAL/$p/." "$ROOT/"
		rm -rf "$ROOT/DEBIAN"
		# shellcheck disable=SC2086
		dpkg_record "$REAL/$p/DEBIAN/control" "$(pkg_arch_name "$p")" $files
	done
}

# The links Debian's nvidia-alternative (nvidia-tesla-470-alternative)
# maintainer script makes with update-alternatives, for the files present:
# the slaves are read from its real postinst.
debian_alternatives() {
	branch=$1
	case $branch in
	current) pkg=nvidia-alternative ;;
	*) pkg=nvidia-$branch-alternative ;;
	esac
	post=$REAL/$pkg/DEBIAN/postinst
	prio=$(sed -n "s|.*update-alternatives --install /usr/lib/nvidia/nvidia nvidia /usr/lib/nvidia/$branch \([0-9]*\) .*|\1|p" "$post" | head -1)
	set --
	# add_multiarch_slave /usr/lib "" NAME /usr/lib nvidia/BRANCH/
	for name in $(sed -n "s|.*add_multiarch_slave /usr/lib \"\" \([^ ]*\) /usr/lib nvidia/$branch/).*|\1|p" "$post"); do
		src=/usr/lib/$ARCH_TRIPLET/nvidia/$branch/$name
		[ -e "$ROOT$src" ] || [ -L "$ROOT$src" ] || continue
		set -- "$@" --slave "/usr/lib/$ARCH_TRIPLET/$name" "nvidia--$name-$ARCH_TRIPLET" "$src"
	done
	# add_slave TARGET NAME SOURCE (nvidia-smi and its page)
	for line in $(sed -n "s|.*add_slave \(/usr/bin/[^ ]*\) \([^ ]*\) \(/usr/lib/nvidia/$branch/[^ )]*\)).*|\1,\2,\3|p" "$post"); do
		t=${line%%,*}; rest=${line#*,}; name=${rest%%,*}; src=${rest#*,}
		[ -e "$ROOT$src" ] || continue
		mkdir -p "$ROOT$(dirname "$t")"
		set -- "$@" --slave "$t" "nvidia--$name" "$src"
	done
	mkdir -p "$ROOT/etc/alternatives" "$ROOT/var/lib/dpkg/alternatives" "$ROOT/usr/lib/nvidia/$branch"
	update-alternatives --root "$ROOT" --quiet --install /usr/lib/nvidia/nvidia nvidia \
		"/usr/lib/nvidia/$branch" "${prio:-100}" "$@" >/dev/null || { echo "update-alternatives failed" >&2; exit 3; }
}

# Ubuntu's layout of the driver of Debian's package trees (the same NVIDIA
# files): libnvidia-compute-NNN puts the libraries in the multiarch
# directory, nvidia-utils-NNN puts nvidia-smi in /usr/bin.
ubuntu_compute() {
	flat_copy "$1"
	ver=$(cd "$ROOT/usr/lib/$ARCH_TRIPLET" && ls libcuda.so.[0-9]*.* | sed 's/libcuda\.so\.//')
	br=${ver%%.*}
	ctl=$WORK/ubuntu.control
	for p in "libnvidia-compute-$br" "nvidia-utils-$br"; do
		cat >"$ctl" <<-EOF
		Package: $p
		Priority: optional
		Section: $(case $p in nvidia-utils*) echo utils ;; *) echo libs ;; esac)
		Architecture: amd64
		Source: nvidia-graphics-drivers-$br
		Version: $ver-0ubuntu0.22.04.1
		Description: NVIDIA driver ($p)
		EOF
		case $p in
		nvidia-utils*) dpkg_record "$ctl" "$p" /usr/bin/nvidia-smi ;;
		*) dpkg_record "$ctl" "$p:amd64" $(cd "$ROOT" && find "usr/lib/$ARCH_TRIPLET" -maxdepth 1 -name 'lib*nvidia*' -o -maxdepth 1 -name 'libcuda*' | sed 's|^|/|') ;;
		esac
	done
}

# The driver's files where NVIDIA's .run installer puts them, owned by no
# package: VER is 535 or 470 (which unpacked packages to take).
flat_copy() {
	case $1 in
	535) dir=$REAL/libcuda1/usr/lib/$ARCH_TRIPLET/nvidia/current; ml=$REAL/libnvidia-ml1/usr/lib/$ARCH_TRIPLET/nvidia/current
		jit=$REAL/libnvidia-ptxjitcompiler1/usr/lib/$ARCH_TRIPLET/nvidia/current; smi=$REAL/nvidia-smi/usr/lib/nvidia/current/nvidia-smi ;;
	470) dir=$REAL/libnvidia-tesla-470-cuda1/usr/lib/$ARCH_TRIPLET/nvidia/tesla-470; ml=$REAL/libnvidia-tesla-470-ml1/usr/lib/$ARCH_TRIPLET/nvidia/tesla-470
		jit=$REAL/libnvidia-tesla-470-ptxjitcompiler1/usr/lib/$ARCH_TRIPLET/nvidia/tesla-470; smi=$REAL/nvidia-tesla-470-smi/usr/lib/nvidia/tesla-470/nvidia-smi ;;
	esac
	to=$ROOT/usr/lib/$ARCH_TRIPLET
	mkdir -p "$to" "$ROOT/usr/bin"
	for f in "$dir"/libcuda.so* "$ml"/libnvidia-ml.so* "$jit"/libnvidia-ptxjitcompiler.so*; do
		copy "$f" "$to/$(basename "$f")"
	done
	copy "$smi" "$ROOT/usr/bin/nvidia-smi"
}

# The toolkit's stub libcuda (and cudart, nvcc) under /usr/local/cuda-VER
# of the root, /usr/local/cuda linking to it, as NVIDIA's packages do.
install_toolkit() {
	real=$(readlink -f "$CUDA_TOOLKIT")
	v=$(basename "$real")
	to=$ROOT/usr/local/$v
	mkdir -p "$to/bin" "$to/lib/stubs"
	copy "$real/bin/nvcc" "$to/bin/nvcc"
	copy "$real/lib/stubs/libcuda.so" "$to/lib/stubs/libcuda.so"
	for f in "$real"/lib/libcudart.so*; do copy "$f" "$to/lib/$(basename "$f")"; done
	ln -sfn lib "$to/lib64"
	ln -sfn "$v" "$ROOT/usr/local/cuda"
}

ldcache() {
	rm -f "$ROOT/etc/ld.so.cache"
	if [ "$(id -u)" = 0 ]; then
		ldconfig -r "$ROOT" 2>/dev/null
	else
		unshare -r ldconfig -r "$ROOT" 2>/dev/null
	fi
	[ -f "$ROOT/etc/ld.so.cache" ] || { echo "skip: ldconfig -r needs root or user namespaces here"; done_testing; exit 0; }
}

# in_root CMD...: CMD chrooted into $ROOT with the scenario's environment
# (and setenv's), in its user's directory, unable to create device nodes
# (the real driver creates /dev/nvidiactl as root).
SETPRIV=$(command -v setpriv || echo /usr/bin/setpriv)
CHROOT=$(PATH=/usr/sbin:/sbin:$PATH command -v chroot || echo /usr/sbin/chroot)
UNSHARE=$(command -v unshare || echo /usr/bin/unshare)
in_root() {
	# shellcheck disable=SC2086
	if [ "$(id -u)" = 0 ]; then
		env -i $RUN_VARS $EXTRA_ENV "$SETPRIV" --bounding-set -mknod,-sys_module "$CHROOT" "$ROOT" "$@"
	else
		env -i $RUN_VARS $EXTRA_ENV "$UNSHARE" -r "$CHROOT" "$ROOT" "$@"
	fi
}

# The user's directory in the scenario (the loader takes an empty
# LD_LIBRARY_PATH entry from it).
scenario_pwd() { printf '%s\n' $RUN_VARS $EXTRA_ENV | sed -n 's/^PWD=//p' | tail -1; }

# answer_in_root REQUEST [LIB]: sets $ANS (key=value lines).
answer_in_root() {
	ANS=$(in_root /tmp/answer -C "$(scenario_pwd)" "$@" 2>&1)
}
answer_here() {
	# shellcheck disable=SC2086
	if [ "$(id -u)" = 0 ]; then
		ANS=$(env -i "$SETPRIV" --bounding-set -mknod,-sys_module "$ANSWER" "$@" 2>&1)
	else
		ANS=$(env -i "$ANSWER" "$@" 2>&1)
	fi
}
ans() { printf '%s\n' "$ANS" | sed -n "s/^$1=//p" | head -1; }

# The rows of the scenario x verdict table, when $REAL_MATRIX names a file:
# the tool's status of each check named, then what the real software said.
matrix_row() {
	[ -n "${REAL_MATRIX:-}" ] || return 0
	sc=$1
	real=$2
	shift 2
	cells=""
	for id in "$@"; do
		s=$(jq -r --arg id "$id" '.checks[] | select(.id == $id) | "\(.status): \(.detail)"' "$JSON" | head -1 | tr '|' '/' | cut -c1-160)
		cells="$cells | $id ${s:--}"
	done
	printf '| %s | %s |%s\n' "$sc" "$real" "${cells# |}" >>"$REAL_MATRIX"
}

# The loaded module's version in /proc/driver/nvidia/version (native-nvidia's
# stand-in), as the driver VER prints it.
module_version() {
	sed -i "s/Kernel Module  [0-9.]*/Kernel Module  $1/" "$ROOT/proc/driver/nvidia/version"
}

# ---- the tool against the real software, in one scenario ----

# The code in "NAME (CODE)" evidence: CUDA_ERROR_NO_DEVICE (100) -> 100.
code_of() { sed -n 's/.*(\([0-9-]*\))$/\1/p'; }
# CUDA's version number as the driver API gives it: 12020 -> 12.2.
cuda_dotted() { [ -n "$1" ] && echo "$(($1 / 1000)).$(($1 % 1000 / 10))"; }

# compare_cuda: the file cuda.load loaded is the one the real loader maps
# under the root's configuration; cuInit's code is what that library's
# cuInit returns on this machine. Sets REAL_CUDA (for the table).
compare_cuda() {
	answer_in_root which libcuda.so.1
	want=$(ans loaded)
	[ -n "$want" ] || want="none ($(ans dlerror))"
	expect_eq "cuda.load loaded what the real loader maps for libcuda.so.1" "$(ev cuda.load loaded)" "$want"
	REAL_CUDA="loader: $want"
	case $want in /*) ;; *) return 0 ;; esac
	answer_here cuda "$ROOT$want"
	REAL_CUDA="$REAL_CUDA; cuDriverGetVersion $(ans cuDriverGetVersion); cuInit $(ans cuInit)"
	case $(status_of cuda.init) in
	skip) ;;
	pass) expect_eq "cuda.init's code is the real cuInit's" 0 "$(ans cuInit)" ;;
	*) expect_eq "cuda.init's code is the real cuInit's" "$(ev cuda.init result | code_of)" "$(ans cuInit)" ;;
	esac
}

# compare_nvml: the same for libnvidia-ml.so.1 and nvmlInit_v2.
compare_nvml() {
	answer_in_root which libnvidia-ml.so.1
	want=$(ans loaded)
	REAL_NVML="loader: ${want:-none}"
	if [ "$(status_of nvml.init)" = skip ]; then
		return 0
	fi
	expect_eq "nvml.init loaded what the real loader maps for libnvidia-ml.so.1" "$(ev nvml.init loaded)" "${want:-none}"
	case $want in /*) ;; *) return 0 ;; esac
	answer_here nvml "$ROOT$want"
	REAL_NVML="$REAL_NVML; nvmlInit_v2 $(ans nvmlInit_v2)"
	expect_eq "nvml.init's code is the real nvmlInit_v2's" "$(ev nvml.init code)" "$(ans nvmlInit_v2)"
}

# compare_smi: the described machine's own nvidia-smi, run in it, against
# what nvml.smi reports (exit status, first line). Only where the root
# has no stand-in device nodes (regular files where /dev/nvidia* would be:
# the real NVML, as root, removes such a file to make the node).
compare_smi() {
	smi=$(ev nvml.smi path)
	[ -n "$smi" ] || return 0
	o=$(in_root "$smi" 2>&1)
	rc=$?
	REAL_SMI="$smi: exit $rc, $(printf '%s\n' "$o" | head -1 | cut -c1-70)"
	expect_eq "nvml.smi: $smi's exit status" "$(ev nvml.smi exit)" "exited with status $rc"
	expect_eq "nvml.smi: $smi's first line" "$(ev nvml.smi output | head -1)" "$(printf '%s\n' "$o" | head -1)"
}

# Each "dpkg -S PATH" a fix line prints must be one the real dpkg answers
# on that machine (a path no package owns, such as a Debian alternatives
# link, makes it a dead end).
dpkg_s_answers() {
	for id in $(jq -r '.checks[] | select((.fix // []) | map(test("dpkg -S /")) | any) | .id' "$JSON"); do
		for p in $(jq -r --arg id "$id" '.checks[] | select(.id == $id) | .fix[] | scan("dpkg -S (/[^ )]*)")[]' "$JSON"); do
			if dpkg-query --admindir="$ROOT/var/lib/dpkg" -S "$p" >/dev/null 2>&1; then
				ok "$id: dpkg -S $p names a package"
			else
				fail "$id: the fix says dpkg -S $p, which answers \"no path found\" on that machine ($(owner_by_link "$p"))"
			fi
		done
	done
}
# Who owns the file a link leads to (what the tool could name instead).
owner_by_link() {
	t=$(in_root /tmp/answer realpath "$1" 2>/dev/null | sed -n 's/^loaded=//p')
	[ -n "$t" ] || t=$1
	o=$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -S "$t" 2>/dev/null | cut -d: -f1)
	echo "its target $t is ${o:-owned by no package}"
}

# fixes_chosen_here: every check's fixes are chosen for the platform the
# run found (sets $kind to it)
fixes_chosen_here() {
	kind=$(jq -r '.platform.kind' "$JSON")
	n=$(jq --arg k "$kind" '[.checks[] | select(.fixes_for != $k)] | length' "$JSON")
	if [ "$n" = 0 ]; then ok "every check's fixes are chosen for $kind"
	else fail "$n checks' fixes are not chosen for $kind"; fi
}
# Words only WSL's advice has. On native Linux and in containers a fix or
# a cause must not lead there.
WSL_WORDS='/usr/lib/wsl|ld\.wsl\.conf|wsl(\.exe)? |\.wslconfig|/dev/dxg|--windows|PowerShell'
# no_wsl_words ID: check ID's fix lines have none of them.
no_wsl_words() {
	w=$(jq -r --arg id "$1" '.checks[] | select(.id == $id) | (.fix // [])[]' "$JSON" | grep -E "$WSL_WORDS" | head -1)
	if [ -z "$w" ]; then ok "$1: no WSL-only fix on $(jq -r '.checks[] | select(.id == "platform.kind") | .evidence.kind // "?"' "$JSON")"
	else fail "$1: a WSL-only fix on native Linux: $w"; fi
}
# all_no_wsl_words: the same for every check's fix lines and cause; and
# every fix line, later ones too, has no WSL or Windows step at all (an
# aside "on WSL: ..." included), chosen for the machine's platform.
WSL_STEP_WORDS="$WSL_WORDS|nvidia-smi\\.exe|Windows driver|on WSL|in WSL|under WSL"
all_no_wsl_words() {
	fixes_chosen_here
	w=$(jq -r '.checks[] | (.fix // [])[]' "$JSON" | grep -E "$WSL_STEP_WORDS" | head -1)
	if [ -z "$w" ]; then ok "no fix line names a WSL or Windows step on $kind"
	else fail "a fix line names a WSL or Windows step on $kind: $w"; fi
	for id in $(jq -r '.checks[] | select(((.fix // []) | length) > 0 or .cause != null) | .id' "$JSON"); do
		w=$(jq -r --arg id "$id" '.checks[] | select(.id == $id) | ((.fix // [])[]), (.cause // empty)' "$JSON" |
			grep -E "$WSL_WORDS" | head -1)
		if [ -z "$w" ]; then ok "$id: no WSL-only fix or cause off WSL"
		else fail "$id: a WSL-only fix or cause off WSL: $w"; fi
	done
}
# no_native_steps: on WSL the mirror: every check's fixes are chosen for
# WSL, and no fix line is a step for native Linux's kernel driver.
NATIVE_STEP_WORDS='/proc/driver/nvidia|sudo reboot|natively|modprobe nvidia|dkms status|mokutil|ubuntu-drivers'
no_native_steps() {
	fixes_chosen_here
	w=$(jq -r '.checks[] | (.fix // [])[]' "$JSON" | grep -E "$NATIVE_STEP_WORDS" | head -1)
	if [ -z "$w" ]; then ok "no fix line is a native Linux step on $kind"
	else fail "a fix line is a native Linux step on $kind: $w"; fi
}
