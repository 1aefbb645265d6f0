#!/bin/sh
# machine.sh: a check leaves the machine as it found it, and runs a
# described machine's programs in that machine.
#
# The real 535 libcuda and NVML, run as root with /dev/nvidiactl missing,
# create that node (mknod 195,255); so does nvidia-smi. This file runs in a
# mount namespace of its own whose /dev and /tmp are private copies (tmpfs),
# so that what it proves can never touch this machine's /dev: first that
# the real library, unconfined, does change /dev there (the test can see a
# change); then that `wslgpu check` with that library, NVML and nvidia-smi
# on the loader path and PATH changes nothing in /dev, /tmp or $HOME, as
# root with every capability, as root without CAP_SYS_ADMIN (Docker's
# default) and as a user.
if [ -z "${REAL_PRIVATE_NS:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		REAL_PRIVATE_NS=1 exec unshare -m --propagation private sh "$0" "$@"
	elif unshare -rm true 2>/dev/null; then
		REAL_PRIVATE_NS=1 exec unshare -rm --propagation private sh "$0" "$@"
	fi
	echo "skip: no private mount namespace here (needs root or user namespaces): machine changes are not tested"
	echo "e2e-result: 0 passed, 0 failed, 0 todo"
	exit 0
fi
# The private /tmp and /dev (the few nodes programs need, bound from the
# real /dev).
mount -t tmpfs -o size=256m,mode=1777 tmpfs /tmp || exit 3
mkdir /tmp/.hostdev && mount --rbind /dev /tmp/.hostdev || exit 3
mount -t tmpfs -o mode=755 tmpfs /dev || exit 3
for n in null zero full random urandom; do
	touch "/dev/$n" && mount --bind "/tmp/.hostdev/$n" "/dev/$n"
done
mkdir /dev/shm /dev/pts && mount -t tmpfs -o mode=1777 tmpfs /dev/shm
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr

. "$(dirname "$0")/lib.sh"
real_require
build_answer
FIXTURE=no-change
cur=$REAL/libcuda1/usr/lib/$ARCH_TRIPLET/nvidia/current
LIBS=$cur:$REAL/libnvidia-ml1/usr/lib/$ARCH_TRIPLET/nvidia/current:$REAL/libnvidia-ptxjitcompiler1/usr/lib/$ARCH_TRIPLET/nvidia/current
SMI_DIR=$REAL/nvidia-smi/usr/lib/nvidia/current

# What may change: /dev, /tmp (but the harness's own directory), $HOME.
HOME_DIR=/tmp/home
mkdir -p "$HOME_DIR"
snapshot() {
	{
		find /dev -xdev -printf '%p %y %M %u %s\n' 2>/dev/null
		find /tmp -xdev \( -path "$WORK" -o -path /tmp/.hostdev \) -prune -o -printf '%p %y %M %u %s %T@\n' 2>/dev/null
		find "$HOME_DIR" -printf '%p %y %M %u %s %T@\n' 2>/dev/null
	} | sort
}

# The control: the real libcuda, unconfined, as root, makes /dev/nvidiactl
# (here in the private /dev).
if [ "$(id -u)" = 0 ] && grep -q '^CapEff:.*' /proc/self/status && ! [ -e /dev/nvidiactl ]; then
	env -i "$ANSWER" cuda "$cur/libcuda.so.1" >/dev/null 2>&1
	if [ -c /dev/nvidiactl ]; then
		ok "control: the real libcuda's cuInit, unconfined as root, creates /dev/nvidiactl ($(stat -c '%t,%T' /dev/nvidiactl))"
	else
		echo "note: the real libcuda created no /dev/nvidiactl here (no CAP_MKNOD?): the control shows nothing"
	fi
	rm -f /dev/nvidiactl
fi

# check_unchanged LABEL [PREFIX...]: wslgpu check (PREFIX runs it: setpriv)
# with the real 535 driver user space on the loader path and nvidia-smi on
# PATH; nothing may change, and the vendor code must really have run.
check_unchanged() {
	label=$1
	shift
	json_settle
	before=$(snapshot)
	# shellcheck disable=SC2086
	env -i PATH="$SMI_DIR:/usr/bin:/bin" HOME="$HOME_DIR" LD_LIBRARY_PATH="$LIBS" COLUMNS=1000 \
		"$@" "$WSLGPU" $ROOT_ARG check --json >"$WORK/out" 2>"$WORK/err"
	JSON=$WORK/out
	OUT=$(head -c 3000 "$WORK/out")
	ERR=$(cat "$WORK/err")
	after=$(snapshot)
	expect_eq "$label: cuda.load loaded the real 535 libcuda" "$(ev cuda.load loaded)" "$WANT_LOADED"
	expect_eq "$label: cuInit ran and answered" "$(ev cuda.init result | code_of)" 100
	if [ -n "$ROOT_ARG" ]; then
		expect_eq "$label: nvmlInit ran and answered" "$(ev nvml.init code)" 9
		expect_json '[.checks[] | select(.id == "nvml.smi") | .evidence.ran] | flatten | any(test("/nvidia-smi "))'
	fi
	if [ "$before" = "$after" ]; then
		ok "$label: /dev, /tmp and \$HOME are as they were"
	else
		fail "$label: changed: $(printf '%s\n' "$before" >"$WORK/b"; printf '%s\n' "$after" >"$WORK/a"; diff "$WORK/b" "$WORK/a" | grep '^[<>]' | head -5 | tr '\n' ' ')"
	fi
	n=$(find /dev -name 'nvidia*' -type c | head -3 | tr '\n' ' ')
	if [ -n "$n" ]; then fail "$label: device nodes appeared: $n"; else ok "$label: no /dev/nvidia* device node"; fi
	expect_json '[.checks[] | .evidence.dev_changed // empty] | length == 0'
	expect_json '[.checks[] | .evidence.sandbox // empty] | length == 0'
}
ROOT_ARG=""
WANT_LOADED=$(readlink -f "$cur/libcuda.so.1")
check_unchanged "as $(id -un)"
if [ "$(id -u)" = 0 ]; then
	check_unchanged "root without CAP_SYS_ADMIN" "$SETPRIV" --bounding-set -sys_admin --inh-caps -sys_admin
	chmod 755 "$WORK"
	HOME_DIR=/tmp/home-nobody
	mkdir -p "$HOME_DIR" && chown 65534 "$HOME_DIR"
	check_unchanged "a user (uid 65534)" "$SETPRIV" --reuid 65534 --regid 65534 --clear-groups
fi

# Under --root the vendor code runs here just the same (the issue: the node
# appeared on the host): a native root whose module is "loaded" (stand-in
# nodes in the root), so that NVML and the root's nvidia-smi run too.
scenario native-535 native-nvidia
module_version 535.261.03
ubuntu_compute 535
ldcache
ROOT_ARG="--root $ROOT"
WANT_LOADED=/usr/lib/$ARCH_TRIPLET/libcuda.so.535.261.03
FIXTURE=no-change
HOME_DIR=/tmp/home
check_unchanged "--root, as $(id -un)"
ROOT_ARG=""

# --root: the described machine's nvidia-smi runs in it, on its loader and
# its NVML (exit 9, "couldn't communicate"), not on this machine's loader
# (which has no NVML: exit 12, "couldn't find libnvidia-ml.so").
FIXTURE=root-programs
scenario root-smi healthy-wsl2 LD_LIBRARY_PATH=:/usr/lib/x86_64-linux-gnu
ubuntu_compute 535
ldcache
run_json check --only nvml.smi
o=$(in_root /usr/bin/nvidia-smi 2>&1)
rc=$?
expect_eq "nvml.smi: the described machine's nvidia-smi, run there" "$(ev nvml.smi exit)" "exited with status $rc"
expect_json '[.checks[0].evidence.ran] | flatten | any(test("^/usr/bin/nvidia-smi "))'
expect_json '[.checks[0].evidence.ran_here // empty] | flatten | any(test("^/usr/bin/nvidia-smi ")) | not'
here=$(env -i "$REAL/nvidia-smi/usr/lib/nvidia/current/nvidia-smi" 2>&1)
here_rc=$?
if [ "$here_rc" != "$rc" ]; then
	ok "on this machine's loader the same nvidia-smi would say otherwise (exit $here_rc): it was not run there"
fi
# A root that cannot start it (no C library: the fixture trees): it runs
# here, and the evidence says so.
rm -f "$ROOT/lib64/ld-linux-x86-64.so.2"
run_json check --only nvml.smi
expect_json '[.checks[0].evidence.ran_here] | flatten | any(test("^/usr/bin/nvidia-smi ran on this machine .*: the described machine has no /lib64/ld-linux-x86-64.so.2$"))'

done_testing
