# faults.sh: the fault-injection matrix. Every dependency of every probe —
# the files it reads, the commands it runs, the vendor libraries it loads —
# is broken in each way a broken machine breaks it, on a copy of the
# healthy-torch fixture, and each run must still:
#
#   - exit within the time limit (--timeout 4; 60 for the 100 MB files) +
#     2 s, plus twice what a healthy run takes on this machine (measured
#     first, and again when a case is over: a loaded CI box is slow, and
#     its load changes while the cases run);
#   - print a complete report: the JSON parses and lists every check the
#     healthy run lists;
#   - give the right finding: no check crashes or times out because of a
#     bad file (parsers never fail); a command or library that hangs or
#     dies shows as the documented timeout/crash/fail in the check that
#     uses it, with the check id;
#   - exit with the documented status: 1 when a check failed, crashed or
#     timed out, else 0 (never 2 or 3, never a signal);
#   - leave no process behind in its session (run under setsid), nor one
#     that left it (setsid()ed daemons record their pids), no file in its
#     TMPDIR (a fresh, empty directory), and no byte in a descriptor it
#     inherited (9, open on a file of the test's);
#   - stay under RSS_LIMIT_KB of peak memory (with GNU time installed;
#     bench/rss.sh reports the real figures).
#
# Files are broken at test time in the fixture copy (the 100 MB files are
# sparse or generated), never committed. EACCES cases (chmod 000) run the
# tool as nobody when the test runs as root (which ignores permissions), or
# are skipped where setpriv is missing. Cases run in a pool of FAULT_JOBS
# (default 2) workers.
#
#   sh tests/e2e/faults.sh            BUILD=build by default
#   FAULT_ONLY=REGEX sh tests/e2e/faults.sh    only the matching cases
#   tests/run-tests.sh 'faults:lib:hang-*'     the same, by a pattern of ids
# (each case runs this script again: what a case's process starts, it
# starts 133 times, so it reads its directory without dirname)
case $0 in */*) . "${0%/*}/lib.sh" ;; *) . ./lib.sh ;; esac

# --timeout for every run: short, so that the hang cases stay quick, yet
# long enough for an ASan build on a loaded 2-core machine.
LIMIT=${FAULT_TIMEOUT:-4}
# The 100 MB cases get more: reading and parsing what the caps let through
# (up to 64 MiB for dpkg's status file) took more than 10 s under ASan on a
# machine at load 20. A read that the caps did not bound would still run
# into this limit. They must still end within it + 2 s.
BIG_LIMIT=${FAULT_BIG_TIMEOUT:-60}
FAULT_JOBS=${FAULT_JOBS:-2}
TIME_BIN=/usr/bin/time
# Root ignores file permissions, so as root the EACCES cases run the tool as
# nobody (setpriv, util-linux); without setpriv they are skipped. Found
# once, and passed to the cases.
if [ -z "${FAULT_UID:-}" ]; then
	FAULT_UID=$(id -u)
	AS_USER=""
	if [ "$FAULT_UID" = 0 ] && command -v setpriv >/dev/null 2>&1; then
		AS_USER="$(command -v setpriv) --reuid=65534 --regid=65534 --clear-groups"
	fi
	SETSID=$(command -v setsid || echo /usr/bin/setsid)
fi
RSS_LIMIT_KB=${RSS_LIMIT_KB:-1048576} # 1 GiB, generous: ASan builds are fat

# ---- one case ----

# pids_alive FILE: the pids listed in FILE that still run (not zombies).
pids_alive() {
	[ -f "$1" ] || return 0
	while read -r p; do
		st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)
		[ -n "$st" ] && [ "$st" != Z ] && echo "$p"
	done <"$1"
}

# break_file PATH FAULT: applies FAULT to guest PATH under $ROOT.
# Returns 2 when the case cannot be made here (EACCES as root), 3 when it
# means nothing for this path (truncating a directory).
break_file() {
	f="$ROOT$1"
	if [ -d "$f" ] && [ ! -L "$f" ]; then
		case "$2" in truncated|big|bigtext) return 3 ;; esac
	fi
	case "$2" in
	missing) rm -rf "$f" ;;
	eacces)
		[ "$FAULT_UID" = 0 ] && [ -z "$AS_USER" ] && return 2
		[ -e "$f" ] || : >"$f"
		chmod 000 "$f"
		;;
	empty)
		if [ -d "$f" ] && [ ! -L "$f" ]; then
			rm -rf "$f" && mkdir "$f"
		else
			rm -f "$f" && : >"$f"
		fi
		;;
	truncated)
		# The first half of the file (at least one byte less).
		n=$(wc -c <"$f")
		head -c $((n / 2)) "$f" >"$f.cut" && rm -f "$f" && mv "$f.cut" "$f"
		;;
	big)
		# 100 MB of NUL bytes, sparse: costs no disk, reads like a huge file.
		rm -f "$f" && truncate -s 100M "$f"
		;;
	bigtext)
		# 100 MB of the file's own first line, repeated: the parser sees a
		# huge but well-formed file.
		line=$(head -n 1 "$f")
		rm -f "$f"
		yes "$line" | head -c 100000000 >"$f"
		;;
	garbage)
		# 64 KiB of machine code: binary junk, deterministic per build.
		rm -rf "$f" && tail -c 65536 "$WSLGPU" >"$f"
		;;
	loop)
		b=$(basename "$f")
		rm -rf "$f" && ln -s "$b.loop" "$f" && ln -s "$b" "$f.loop"
		;;
	*) echo "unknown file fault $2" >&2; exit 3 ;;
	esac
	return 0
}

# A command replaced by a script that misbehaves in one way.
break_command() {
	f="$ROOT$1"
	mkdir -p "$(dirname "$f")"
	rm -f "$f"
	case "$2" in
	hang) body='exec sleep 1000' ;;
	flood) body='yes "flood flood flood flood flood flood flood flood" | head -c 100000000; exit 0' ;;
	segv) body='echo "partial output"; kill -SEGV $$' ;;
	sigkill) body='echo "partial output"; kill -KILL $$' ;;
	grandchild)
		# The child exits at once; a grandchild keeps stdout open and sleeps.
		body='sleep 1000 & echo "partial output"; exit 0' ;;
	daemon)
		# A grandchild in a session of its own (out of the command's
		# process group and of the run's session); its pid is recorded.
		# (No redirection that creates a file, /dev/null included: the
		# sandbox refuses O_CREAT; the pids file exists.)
		body="setsid sh -c 'echo \$\$ | dd of=\"$case_dir/pids\" oflag=append conv=notrunc,nocreat status=none; exec sleep 1000' <&- >&- 2>&- &
echo \"partial output\"; exit 0" ;;
	closes)
		# Closes stdout and stderr, then exits a moment later.
		body='echo "partial output"; exec >&- 2>&-; sleep 0.3; exit 0' ;;
	garbage) body="tail -c 65536 '$WSLGPU'; exit 0" ;;
	*) echo "unknown command fault $2" >&2; exit 3 ;;
	esac
	printf '#!/bin/sh\n# faults.sh: %s\n%s\n' "$2" "$body" >"$f"
	chmod 755 "$f"
}

# Times are hundredths of a second, from /proc/uptime (lib.sh's centisecs)
# and the shell's arithmetic: a case starts no date or awk to time itself.
# cs_of SECS: SECS (N, N.D or N.DD) in hundredths, in $CS_OF.
cs_of() {
	case $1 in
	*.*) _cs_i=${1%%.*} _cs_f=${1#*.}00 ;;
	*) _cs_i=$1 _cs_f=00 ;;
	esac
	_cs_f=${_cs_f%"${_cs_f#??}"} # its first two digits
	CS_OF=$((${_cs_i:-0} * 100 + 1$_cs_f - 100))
}
# secs_of CS: CS hundredths as seconds with two decimals (awk's %.2f).
secs_of() {
	SECS_OF=$(($1 / 100)).$(($1 % 100 / 10))$(($1 % 10))
}

# run_case ID KIND WHAT FAULT EXPECT
# KIND file|cmd|lib; WHAT a guest path, or for lib the VAR=VALUE to set;
# EXPECT "CHECK:STATUS|STATUS..." or "-" for no expectation beyond the
# general ones (a file fault must never crash or time out a probe).
run_case() {
	id=$1 kind=$2 what=$3 fault=$4 expect=$5
	# this process's own directory (lib.sh's $WORK, gone when it exits):
	# one case a process
	case_dir=$WORK/case
	tmpd=$case_dir/tmp
	mkdir "$case_dir" "$tmpd"
	: >"$case_dir/pids" # vendor code may append to it, not create it
	ROOT=$case_dir/root
	cp -a "$BASE" "$ROOT"
	extra=""
	args=""
	case $kind in
	file)
		# Running as nobody: /dev/dxg is 0666 on a real machine.
		if [ "$fault" = eacces ] && [ -n "$AS_USER" ] && [ -f "$ROOT/dev/dxg" ]; then
			chmod 666 "$ROOT/dev/dxg"
		fi
		# WHAT may name several files (comma-separated), broken together.
		brc=0
		set -f
		old_ifs=$IFS
		IFS=,
		# shellcheck disable=SC2086
		set -- $what
		IFS=$old_ifs
		set +f
		for path; do
			break_file "$path" "$fault" || { brc=$?; break; }
		done
		if [ $brc -ne 0 ]; then
			if [ $brc -eq 2 ]; then
				echo "skip $id: running as root, which ignores file permissions"
			else
				echo "skip $id: a directory cannot be truncated or grown"
			fi
			rm -rf "$case_dir"
			return 0
		fi
		;;
	cmd)
		break_command "$what" "$fault"
		case $what in *.exe) args=--windows ;; esac
		;;
	lib) extra=$what ;;
	esac
	limit=$LIMIT
	case $fault in big|bigtext) limit=$BIG_LIMIT ;; esac
	# Twice the healthy run: the machine's load changes while cases run.
	cs_of "$limit"
	limit_cs=$CS_OF
	cs_of "$BASE_SECS"
	base_cs=$CS_OF
	bound_cs=$((limit_cs + 200 + 2 * base_cs))
	envfile="$top/tests/fixtures/$FAULT_FIXTURE/env"
	vars="PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/user LANG=C.UTF-8"
	while IFS= read -r line; do
		case "$line" in ''|'#'*) continue ;; esac
		vars="$vars $line"
	done <"$envfile"
	timer=""
	[ -x "$TIME_BIN" ] && timer="$TIME_BIN -f %M -o $case_dir/rss"
	asuser=""
	if [ "$fault" = eacces ] && [ -n "$AS_USER" ]; then
		# nobody must reach the copy, write its session id and use TMPDIR.
		asuser=$AS_USER
		chmod 711 "$WORK"
		chmod 777 "$case_dir" "$tmpd"
	fi
	centisecs
	t0=$CS
	# The shell records its pid, which setsid made the session id, then
	# becomes wslgpu.
	# shellcheck disable=SC2086
	env -i $vars $extra FAKE_CUDA_SPAWN_PIDS="$case_dir/pids" TMPDIR="$tmpd" \
		WSLGPU_FAULT_RUN="$case_dir" $timer $asuser \
		"$SETSID" -w sh -c 'echo $$ >"$0"; exec "$@"' \
		"$case_dir/sid" "$WSLGPU" --root "$ROOT" --json --timeout "$limit" $args \
		>"$case_dir/out" 2>"$case_dir/err" 9>>"$case_dir/inherited"
	rc=$?
	centisecs
	secs_cs=$((CS - t0))
	secs_of $secs_cs
	secs=$SECS_OF
	J=$case_dir/out
	bad=""
	note() { bad="$bad; $*"; }

	# Time. Over the bound, a healthy run is timed again: when the machine
	# has slowed since the baseline, twice what it takes now is the bound.
	if [ $secs_cs -gt $bound_cs ]; then
		centisecs
		h0=$CS
		# shellcheck disable=SC2086
		env -i $vars "$WSLGPU" --root "$BASE" --json --timeout "$LIMIT" >/dev/null 2>&1
		centisecs
		now_cs=$((CS - h0))
		secs_of $now_cs
		now=$SECS_OF
		[ $now_cs -gt $base_cs ] && base_cs=$now_cs
		bound_cs=$((limit_cs + 200 + 2 * base_cs))
		if [ $secs_cs -gt $bound_cs ]; then
			secs_of $bound_cs
			note "took $secs s, bound $SECS_OF s (--timeout $limit + 2 s + twice a healthy run's $BASE_SECS s, $now s now)"
		fi
	fi
	# A complete report, the exit status as documented, the right finding:
	# one jq pass over the report gives every value the assertions need.
	if ! jq -r '
		([.checks[].id] | sort | join(" ")),
		((.summary.status and .summary.counts) | tostring),
		([.checks[] | select(.status == "fail" or .status == "crash" or .status == "timeout")] | length),
		([.checks[] | select(.status == "crash" or .status == "timeout") |
		  "\(.id) \(.status): \(.detail)"] | join("; ")),
		(.checks[] | "\(.id) \(.status) \(.detail[0:160] | gsub("\n"; " "))")
		' "$J" >"$case_dir/facts" 2>/dev/null; then
		note "output is not JSON (exit $rc): $(head -c 300 "$case_dir/err")"
	else
		ids="" summary="" nfail="" crashed=""
		{ IFS= read -r ids; IFS= read -r summary; IFS= read -r nfail; IFS= read -r crashed; } <"$case_dir/facts"
		[ "$ids" = "$BASE_IDS" ] || note "checks listed differ from the healthy run's: $ids"
		[ "$summary" = true ] || note "no summary"
		want=0
		[ "$nfail" -gt 0 ] && want=1
		[ "$rc" = "$want" ] || note "exit status $rc, expected $want ($nfail failed/crashed/timed out)"
		if [ "$kind" = file ] && [ -n "$crashed" ]; then
			note "a bad file crashed or timed out a probe: $crashed"
		fi
		# EXPECT: "-", or CHECK:STATUS|STATUS,... for each check it names.
		set -f
		old_ifs=$IFS
		IFS=,
		# shellcheck disable=SC2086
		set -- $expect
		IFS=$old_ifs
		set +f
		for e; do
			[ "$e" = - ] && continue
			check=${e%%:*}
			want_st=${e#*:}
			# CHECK's line of the facts (from the fifth), its status the
			# second word
			line="" n=0
			while IFS= read -r l; do
				n=$((n + 1))
				[ $n -ge 5 ] || continue
				case $l in "$check "*) line=${line:+$line$NL}$l ;; esac
			done <"$case_dir/facts"
			case $line in
			*"$NL"*) got=$(echo "$line" | awk '{print $2}') ;;
			*) got=${line#"$check "} got=${got%% *} ;;
			esac
			# Is it one of STATUS|STATUS...? (grep -Eqx where they are
			# more than words)
			st_ok=""
			case $want_st in
			*[!a-z\|]*) echo "$got" | grep -Eqx "$want_st" && st_ok=1 ;;
			*)
				case $got in
				*[!a-z]*) echo "$got" | grep -Eqx "$want_st" && st_ok=1 ;;
				*) case "|$want_st|" in *"|$got|"*) st_ok=1 ;; esac ;;
				esac
				;;
			esac
			if [ -z "$st_ok" ]; then
				note "$check is '${got:-missing}' (${line#* * }), expected $want_st"
			fi
		done
	fi
	# No stray processes: the session is empty once wslgpu has exited (give
	# the kernel a moment to reap what was SIGKILLed).
	sid=""
	{ read -r sid; } 2>/dev/null <"$case_dir/sid"
	if [ -n "$sid" ]; then
		left=""
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			left=$(session_members "$sid")
			[ -z "$left" ] && break
			sleep 0.2
		done
		if [ -n "$left" ]; then
			note "processes left in the session: $(echo "$left" | head -3 | tr '\n' ' ')"
			echo "$left" | awk '{print $1}' | xargs -r kill -9 2>/dev/null
		fi
	else
		note "no session id recorded"
	fi
	# Probes and commands have sessions of their own (no terminal): what
	# is left of the run carries its mark in its environment.
	left=""
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		left=$(grep -lsz "^WSLGPU_FAULT_RUN=$case_dir\$" /proc/[0-9]*/environ |
			while read -r p; do
				p=${p#/proc/} p=${p%/environ}
				[ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" = Z ] || echo "$p"
			done)
		[ -z "$left" ] && break
		sleep 0.2
	done
	if [ -n "$left" ]; then
		note "processes of the run left: $(echo "$left" | head -3 | tr '\n' ' ')"
		echo "$left" | xargs -r kill -9 2>/dev/null
	fi
	# Nor a daemon that left the session (setsid), nor a write into a
	# descriptor the run inherited (9, a file of ours).
	left=$(pids_alive "$case_dir/pids")
	if [ -n "$left" ]; then
		note "processes that left the session live on: $(echo "$left" | tr '\n' ' ')"
		echo "$left" | xargs -r kill -9 2>/dev/null
	fi
	[ -s "$case_dir/inherited" ] && note "something wrote into the inherited descriptor 9"
	# No temp files (the shell's globs see them; ls names them).
	for x in "$tmpd"/* "$tmpd"/.[!.]* "$tmpd"/..?*; do
		if [ -e "$x" ] || [ -L "$x" ]; then
			note "temp files left: $(ls -A "$tmpd" | head -5 | tr '\n' ' ')"
			break
		fi
	done
	# Memory: the last line GNU time wrote.
	rss=""
	{ while IFS= read -r l || [ -n "$l" ]; do rss=$l; done; } 2>/dev/null <"$case_dir/rss"
	case $rss in
	''|*[!0-9]*) rss=? ;;
	*) [ "$rss" -le "$RSS_LIMIT_KB" ] || note "peak RSS $rss KiB over $RSS_LIMIT_KB KiB" ;;
	esac

	if [ -z "$bad" ]; then
		tap_line ok "$id: exit $rc in $secs s, peak RSS ${rss} KiB"
	else
		tap_line "not ok" "$id:${bad#;}"
		{ echo "---- stderr"; head -c 1500 "$case_dir/err"; echo; } | sed 's/^/# /'
	fi
	# lib.sh's exit removes $WORK, the case with it; what was made
	# unreadable first made readable again
	[ "$fault" = eacces ] && chmod -R u+rwx "$case_dir" 2>/dev/null
	[ -n "${FAULT_KEEP:-}" ] && cp "$J" "$FAULT_KEEP.$$.json"
	return 0
}

# ---- the matrix ----

# FILE faults. Files whose reader others depend on (platform.kind's, the
# loader's, the driver libraries) are broken one at a time: a failure there
# skips later layers, which would hide the other files. The leaf readers'
# files are broken all together, one run per fault: each has its own check,
# so a finding still names its file. The second column names the reader.
FILE_FAULTS="missing eacces empty truncated big garbage loop"
single_files() {
	cat <<'EOF'
/proc/sys/kernel/osrelease                   platform.kind, platform.kernel
/proc/version                                platform.kind
/proc/1/cgroup                               platform.kind
/dev/dxg                                     bridge.dxg
/etc/ld.so.cache                             libs.libcuda, libs.libnvml
/etc/ld.so.conf                              libs.wsl_dir
/etc/ld.so.conf.d/ld.wsl.conf                libs.wsl_dir
/usr/lib/wsl/lib                             libs.wsl_dir, then everything that loads
/usr/lib/wsl/lib/libcuda.so.1                libs.libcuda, cuda.load
/usr/lib/wsl/lib/libnvidia-ml.so.1           libs.libnvml, nvml.init
EOF
}
# Read by platform.distro, platform.systemd, platform.interop,
# host.driver_store, libs.kernel_modules, libs.libcuda (package owners),
# toolkit.packages, perf.memory (four of them) and perf.storage.
LEAF_FILES=/etc/os-release,/etc/wsl.conf,/proc/sys/fs/binfmt_misc/WSLInterop
LEAF_FILES=$LEAF_FILES,/usr/lib/wsl/drivers/nv_dispi.inf_amd64_7e5fd280efaa5445/nv_dispi.inf
LEAF_FILES=$LEAF_FILES,/proc/modules,/var/lib/dpkg/info/libc6:amd64.list,/var/lib/dpkg/status
LEAF_FILES=$LEAF_FILES,/proc/meminfo,/proc/vmstat,/sys/devices/system/cpu/online
LEAF_FILES=$LEAF_FILES,/mnt/c/Users/alice/.wslconfig,/proc/self/mountinfo
BIGTEXT_FILES=/proc/self/mountinfo,/proc/modules,/var/lib/dpkg/info/libc6:amd64.list
BIGTEXT_FILES=$BIGTEXT_FILES,/proc/meminfo,/var/lib/dpkg/status

# Where a file is a check's whole evidence, that check may not pass.
strict_expect() {
	case "$1:$2" in
	# The first half of a file still holds what its check reads; a half
	# ELF file may still map (the loader reads its headers first).
	*:truncated|*:eacces) echo - ;;
	leaf:*) echo "platform.distro:warn|fail,perf.memory:warn|fail|skip" ;;
	/dev/dxg:missing|/dev/dxg:loop) echo "bridge.dxg:fail" ;;
	/usr/lib/wsl/lib/libcuda.so.1:*) echo "cuda.load:fail|crash|skip|warn" ;;
	*) echo - ;;
	esac
}

# COMMAND faults: guest path and the check that runs it.
CMD_FAULTS="hang flood segv sigkill grandchild daemon closes garbage"
commands() {
	cat <<'EOF'
/usr/lib/wsl/lib/nvidia-smi   nvml.smi
/usr/bin/python3              frameworks.torch
/usr/bin/docker               containers.docker
/usr/bin/nvcc                 toolkit.nvcc
/usr/bin/wsl.exe              host.driver
EOF
}
cmd_expect() {
	check=$2
	case "$1:$3" in
	# Killed at its own or the probe's time limit: a timeout or a fail
	# naming it; a Windows program that hangs is a note (warn) only.
	*.exe:*) echo "$check:pass|warn" ;;
	*:hang) echo "$check:fail|timeout|warn" ;;
	*:segv|*:sigkill) echo "$check:fail|crash|warn" ;;
	# Junk, a flood, or output cut short by a grandchild: never a pass.
	*) echo "$check:fail|warn" ;;
	esac
}

# LIBRARY faults (the fakes' modes, tests/fakes/README.md).
libs() {
	cat <<'EOF'
crash-cuInit        FAKE_CUDA_CRASH=cuInit             cuda.init:crash
hang-cuInit         FAKE_CUDA_HANG=cuInit              cuda.init:timeout
crash-launch        FAKE_CUDA_CRASH=cuLaunchKernel     cuda.kernel:crash
hang-module         FAKE_CUDA_HANG=cuModuleLoadData    cuda.kernel:timeout
crash-nvmlInit      FAKE_NVML_CRASH=nvmlInit           nvml.init:crash
hang-nvmlInit       FAKE_NVML_HANG=nvmlInit            nvml.init:timeout
crash-nvmlCount     FAKE_NVML_CRASH=nvmlDeviceGetCount nvml.devices:crash
hang-nvmlMem        FAKE_NVML_HANG=nvmlDeviceGetMemoryInfo nvml.devices:timeout
helper-cuInit       FAKE_CUDA_SPAWN=helper             cuda.kernel:pass
daemon-cuInit       FAKE_CUDA_SPAWN=daemon             cuda.kernel:pass
scribble-cuInit     FAKE_CUDA_WRITE_FD=9               cuda.kernel:pass
scribble-all        FAKE_CUDA_WRITE_FD=all             cuda.init:crash
stop-cuInit         FAKE_CUDA_STOP=SIGSTOP             cuda.init:crash
ttou-cuInit         FAKE_CUDA_STOP=SIGTTOU             cuda.kernel:pass
ttin-cuInit         FAKE_CUDA_STOP=SIGTTIN             cuda.kernel:pass
EOF
}

# Every case as one line: ID KIND WHAT FAULT EXPECT
cases() {
	single_files | while read -r path _readers; do
		for fault in $FILE_FAULTS; do
			echo "file:$path:$fault file $path $fault $(strict_expect "$path" "$fault")"
		done
	done
	for fault in $FILE_FAULTS; do
		echo "file:leaf-files:$fault file $LEAF_FILES $fault $(strict_expect leaf "$fault")"
	done
	# Huge but well-formed text, for the line-oriented parsers.
	echo "file:text-files:bigtext file $BIGTEXT_FILES bigtext -"
	commands | while read -r path check; do
		for fault in $CMD_FAULTS; do
			echo "cmd:$path:$fault cmd $path $fault $(cmd_expect "$path" "$check" "$fault")"
		done
	done
	libs | while read -r name var expect; do
		echo "lib:$name lib $var - $expect"
	done
}

if [ "${1:-}" = --case ]; then
	shift
	# one argument: the case's line, as cases gives it
	if [ $# -eq 1 ]; then
		set -f
		# shellcheck disable=SC2086
		set -- $1
		set +f
	fi
	run_case "$@"
	exit 0
fi

# ---- what a run leaves behind, and how long it waits ----
# Targeted cases first, on the healthy WSL2 fixture: vendor code and
# commands that outlive their caller, hold its pipes, close their output
# early or write into descriptors they inherited.

expect_gone() { # FILE WHAT: every pid in FILE has ended
	sleep 0.2
	left=$(pids_alive "$1")
	if [ ! -s "$1" ]; then
		fail "$2: no process recorded its pid (the fake did not run?)"
	elif [ -z "$left" ]; then
		ok "$2: nothing left running ($(wc -l <"$1") started)"
	else
		fail "$2: left running: $(echo "$left" | tr '\n' ' ')"
		echo "$left" | xargs -r kill -9 2>/dev/null
	fi
}
expect_secs_below() {
	if awk -v s="$SECS" -v m="$1" 'BEGIN { exit !(s < m) }'; then ok "took ${SECS}s (< $1 s)"
	else fail "took ${SECS}s, expected < $1 s"; fi
}
SMI_FAKES=$top/tests/fakes/nvidia-smi

# A driver whose cuInit forks a helper that keeps every descriptor, the
# result pipe too, and lives 30 s: the deadline holds until the result is
# in, and the helper dies with the probe. A run that waited for the helper
# would take its 30 s, or the 25 s limit; one that does not, about what
# the layer takes without it, timed just before (a sanitizer build on a
# busy machine is slow).
fixture healthy-wsl2
run_json --timeout 25 --only cuda
ref=$SECS
: >"$WORK/helper.pids" # the sandbox lets vendor code append, not create
setenv FAKE_CUDA_SPAWN=helper FAKE_CUDA_SPAWN_PIDS=$WORK/helper.pids
run_json --timeout 25 --only cuda
expect_rc 0
expect_status cuda.init pass
expect_status cuda.kernel pass
expect_secs_below "$(echo "$ref" | awk '{ printf "%.2f", 2 * $1 + 3 }')"
expect_gone "$WORK/helper.pids" "cuInit's helper"
: >"$WORK/helper.pids"
run smoke --budget 25 --timeout 25 --only cuda
expect_secs_below "$(echo "$ref" | awk '{ printf "%.2f", 2 * $1 + 3 }')"
expect_line '^smoke: PASS in [0-9.]+ s of a 25 s budget'
took=$(printf '%s\n' "$OUT" | sed -n 's/^smoke: PASS in \([0-9.]*\) s of a 25 s budget.*/\1/p')
if awk -v t="${took:-99}" 'BEGIN { exit !(t <= 25) }'; then ok "a PASS within its budget (${took} s)"
else fail "PASS in ${took} s of a 25 s budget"; fi
expect_gone "$WORK/helper.pids" "cuInit's helper (smoke)"
# A hang after the helper started: cut at the budget, and smoke fails.
setenv FAKE_CUDA_HANG=cuModuleLoadData
run smoke --budget 3 --only cuda
expect_rc 1
expect_secs_below 7
expect_line '^smoke: FAIL in [0-9.]+ s of a 3 s budget: .*the time budget ran out: 1 cut short'

# Daemons: cuInit double-forks a setsid()ed grandchild; nvidia-smi leaves
# one in a session of its own. Both die with the probe.
fixture healthy-wsl2
cp "$SMI_FAKES/daemon" "$ROOT/usr/lib/wsl/lib/nvidia-smi"
: >"$WORK/daemon.pids"
: >"$WORK/smi.pids"
setenv FAKE_CUDA_SPAWN=daemon FAKE_CUDA_SPAWN_PIDS=$WORK/daemon.pids FAKE_SMI_PIDS=$WORK/smi.pids
run_json --timeout 4
expect_rc 0
expect_status cuda.kernel pass
expect_status nvml.smi pass
expect_gone "$WORK/daemon.pids" "cuInit's setsid()ed daemons"
expect_gone "$WORK/smi.pids" "nvidia-smi's setsid()ed daemons"

# An nvidia-smi that closes stdout and stderr, then exits 0: a working
# nvidia-smi, not one killed when its pipes closed.
fixture healthy-wsl2
cp "$SMI_FAKES/closes-early" "$ROOT/usr/lib/wsl/lib/nvidia-smi"
run_json --only nvml.smi
expect_rc 0
expect_status nvml.smi pass
expect_json '.checks[] | select(.id == "nvml.smi") | .evidence.ran | test("exited with status 0")'

# Descriptors the caller had open reach neither vendor code nor commands:
# descriptor 9 is a file of the test's; the fake libcuda writes into 9 if
# it is open; the fake nvidia-smi lists what it inherited.
fixture healthy-wsl2
cp "$SMI_FAKES/fds" "$ROOT/usr/lib/wsl/lib/nvidia-smi"
: >"$WORK/inherited"
: >"$WORK/smi.fds"
setenv FAKE_CUDA_WRITE_FD=9 FAKE_SMI_FDS=$WORK/smi.fds
run_json --only cuda,nvml.smi 9>>"$WORK/inherited"
expect_status cuda.init pass
expect_status nvml.smi pass
OUT=$(cat "$WORK/inherited")
if [ -s "$WORK/inherited" ]; then fail "the fake libcuda wrote into the caller's descriptor 9"
else ok "vendor code did not inherit the caller's descriptor 9"; fi
# Only 0, 1 and 2 (and what ls itself opens to list them, or the shell to
# read the script).
OUT=$(cat "$WORK/smi.fds" 2>/dev/null)
extra=$(awk '$(NF-1) == "->" && $(NF-2) > 2 && $NF !~ /nvidia-smi$|^\/proc\// { print $(NF-2), $NF }' \
	"$WORK/smi.fds" 2>/dev/null)
if [ -s "$WORK/smi.fds" ] && [ -z "$extra" ]; then ok "nvidia-smi inherited only stdin, stdout and stderr"
else fail "nvidia-smi inherited: $(echo "$extra" | tr '\n' ';')"; fi

# ---- main: the baseline, then the pool ----

# tests/run-tests.sh faults:ID selects fault cases by id (a pattern:
# 'lib:hang-*', 'file:/dev/dxg:*'), not fixtures; the baseline they are
# compared with runs whichever is selected.
FAULT_CASE=${WSLGPU_TEST_CASE:-*}
WSLGPU_TEST_CASE=""
fixture healthy-torch
# Later cases add the scripts below; give the baseline a dpkg status so
# that its faults have a file to break.
mkdir -p "$ROOT/var/lib/dpkg"
printf 'Package: libc6\nStatus: install ok installed\nArchitecture: amd64\nVersion: 2.35-0ubuntu3.8\n\n' \
	>"$ROOT/var/lib/dpkg/status"
BASE=$ROOT
# (not t0: run sets its own, and so, with date's t1, made the baseline
# 1.8e9 s and every case's bound void)
centisecs
base_t0=$CS
run_json --timeout "$LIMIT"
centisecs
secs_of $((CS - base_t0))
base_secs=$SECS_OF
expect_rc 0
BASE_IDS=$(jq -r '[.checks[].id] | sort | join(" ")' "$JSON")
BASE_SECS=$base_secs
echo "# baseline: $(jq '.checks | length' "$JSON") checks in $base_secs s; each case must end within its --timeout ($LIMIT s, 100 MB cases $BIG_LIMIT s) + 2 s + 2 x $base_secs s"
FAULT_FIXTURE=$FIXTURE
export BASE BASE_IDS BASE_SECS FAULT_FIXTURE BUILD TOP="$top" FAULT_UID AS_USER SETSID

results=$WORK/results
cases | { if [ -n "${FAULT_ONLY:-}" ]; then grep -E -- "$FAULT_ONLY"; else cat; fi; } |
	while read -r line; do
		# shellcheck disable=SC2254
		case ${line%% *} in $FAULT_CASE) echo "$line" ;; esac
	done | tr '\n' '\0' |
	xargs -0 -P "$FAULT_JOBS" -n 1 sh "$0" --case >"$results" 2>&1
cat "$results"
n_ok=$(grep -c '^ok ' "$results")
n_fail=$(grep -c '^not ok ' "$results")
n_skip=$(grep -c '^skip ' "$results")
T_PASS=$((T_PASS + n_ok))
T_FAIL=$((T_FAIL + n_fail))
echo "# faults: $n_ok cases passed, $n_fail failed, $n_skip skipped"
done_testing
