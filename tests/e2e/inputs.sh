# inputs.sh: no silent cut, no hang on what is not a file. A mountinfo of
# 100,000 mounts with the 9p drive last; a 2 MiB /etc/wsl.conf (cut, and
# said); a FIFO and a character device where /etc/wsl.conf, ~/.bashrc and
# .wslconfig belong, for check, report and fix (refused, named, fast).
. "$(dirname "$0")/lib.sh"

check_json() { expect_json "[.checks[] | select(.id == \"$1\")][0] | $2"; }
# expect_fast REF [S]: the last run took less than twice REF, what the same
# command took just before on the healthy fixture (what this machine needs
# now, however busy), plus S seconds (default 10). The runs give probes
# --timeout 60, so that a read that hung would take longer whatever the load.
expect_fast() {
	if awk -v s="$SECS" -v r="$1" -v m="${2:-10}" 'BEGIN { exit !(s < 2 * r + m) }'; then
		ok "finished in ${SECS}s ($1 s on the healthy fixture)"
	else fail "took ${SECS}s, $1 s on the healthy fixture (bound: twice that + ${2:-10} s)"; fi
}
# The references, on the healthy fixture.
fixture healthy-wsl2
run_json --timeout 60 --only platform,libs
ref_check=$SECS
run_json --timeout 60 --only perf.memory
ref_memory=$SECS
run report --timeout 60 -o "$WORK/ref.tar.gz"
ref_report=$SECS
fixture distro-libcuda
run fix --timeout 60
ref_fix=$SECS

# ---- a mountinfo of 100,000 overlay mounts, the 9p drive last ----
fixture healthy-wsl2
mi=$ROOT/proc/self/mountinfo
grep -v ' /mnt/c ' "$mi" >"$WORK/mi.head"
grep ' /mnt/c ' "$mi" >"$WORK/mi.9p"
{ cat "$WORK/mi.head"
  awk 'BEGIN { for (i = 0; i < 100000; i++)
	printf "%d 62 0:%d / /var/lib/docker/overlay2/%064d/merged rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A%d,upperdir=/u%d,workdir=/w%d\n", 1000 + i, 100 + i % 900, i, i, i, i }'
  cat "$WORK/mi.9p"; } >"$mi"
size=$(stat -c %s "$mi")
[ "$size" -gt $((4 * 1048576)) ] && ok "mountinfo is $size bytes (more than the old 4 MiB cap)" || fail "mountinfo only $size bytes"
run_json --timeout 60 --only perf.storage --data /mnt/c/Users/alice/data
check_json perf.storage '.status != "timeout"'
# Read in linear time: seconds of CPU time even under a sanitizer, where a
# quadratic reader takes minutes. CPU time (GNU time's user + system), as a
# busy machine stretches the wall time (18 s was seen at load 19) but not it.
if [ -x /usr/bin/time ] && selected; then
	# shellcheck disable=SC2046
	/usr/bin/time -f '%U %S' -o "$WORK/cpu" env -i $(fixture_tool --env "$FIXTURE") \
		"$WSLGPU" --root "$ROOT" check --json --timeout 60 --only perf.storage \
		--data /mnt/c/Users/alice/data >/dev/null 2>&1
	cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$WORK/cpu")
	if awk -v c="$cpu" 'BEGIN { exit !(c < 20) }'; then ok "read in ${cpu} s of CPU time"
	else fail "${cpu} s of CPU time to read 100,000 mounts"; fi
else
	echo "skip: no GNU time (/usr/bin/time): the mountinfo reader's CPU time is not measured"
fi
check_json perf.storage '.kb == "perf.storage.windows_drive"'
check_json perf.storage '.evidence.slow_fstype == "9p" and .evidence.slow_mount == "/mnt/c"'
check_json perf.storage '.evidence.input_cut == null'

# ---- a cap on input is said: a 2 MiB /etc/wsl.conf ----
fixture healthy-wsl2
{ printf '[boot]\nsystemd=true\n'; head -c 2200000 /dev/zero | tr '\0' '#'; printf '\n'; } \
	>"$ROOT/etc/wsl.conf"
run_json --only platform
expect_json '[.checks[].evidence.input_cut | select(. != null)] | flatten | any(test("^/etc/wsl\\.conf: read only its first 1 MiB of 2200[0-9]+ bytes"))'

# ---- a FIFO and a device where /etc/wsl.conf belongs ----
fixture healthy-wsl2
rm -f "$ROOT/etc/wsl.conf"
mkfifo "$ROOT/etc/wsl.conf"
run_json --timeout 60 --only platform,libs
expect_fast "$ref_check"
expect_json '[.checks[].evidence.not_regular | select(. != null)] | flatten | any(. == "/etc/wsl.conf: a FIFO, not a regular file: not read")'
run report --timeout 60 -o "$WORK/fifo.tar.gz"
expect_fast "$ref_report" 30
expect_rc 0
mkdir -p "$WORK/fifo"
tar xzf "$WORK/fifo.tar.gz" -C "$WORK/fifo" 2>/dev/null
m=$(ls "$WORK"/fifo/*/evidence/wsl.conf 2>/dev/null | head -1)
if [ -n "$m" ] && grep -q '^\[wslgpu: /etc/wsl\.conf is a FIFO, not a regular file: not read\]$' "$m"; then
	ok "the bundle names the FIFO"; else fail "bundle wsl.conf: $(cat "$m" 2>/dev/null | head -2)"; fi

if [ "$(id -u)" = 0 ] && rm -f "$ROOT/etc/wsl.conf" && mknod "$ROOT/etc/wsl.conf" c 1 5 2>/dev/null; then
	# /dev/zero's numbers: read, it would never end.
	run_json --timeout 60 --only platform,libs
	expect_fast "$ref_check"
	expect_json '[.checks[].evidence.not_regular | select(. != null)] | flatten | any(. == "/etc/wsl.conf: a character device, not a regular file: not read")'
	run report --timeout 60 -o "$WORK/chr.tar.gz"
	expect_fast "$ref_report" 30
	expect_rc 0
else
	echo "skip: a character device needs root (mknod)"
fi

# ---- a FIFO as .wslconfig (on the 9p drive): report, check ----
fixture healthy-wsl2
wc=$(ls "$ROOT"/mnt/c/Users/*/.wslconfig | head -1)
rm -f "$wc"
mkfifo "$wc"
run report --timeout 60 -o "$WORK/wslconfig.tar.gz"
expect_fast "$ref_report" 30
expect_rc 0
rm -rf "$WORK/b" && mkdir -p "$WORK/b"
tar xzf "$WORK/wslconfig.tar.gz" -C "$WORK/b" 2>/dev/null
if grep -q 'wslconfig is a FIFO, not a regular file: not read' "$WORK"/b/*/evidence/wslconfig* 2>/dev/null; then
	ok "the bundle names the .wslconfig FIFO"; else fail "no FIFO note in the bundle's wslconfig"; fi
run_json --timeout 60 --only perf.memory
expect_fast "$ref_memory"
expect_json '[.checks[].evidence.not_regular | select(. != null)] | flatten | any(test("\\.wslconfig: a FIFO, not a regular file"))'

# ---- a FIFO as ~/.bashrc: fix plans without it, and says so ----
fixture distro-libcuda
rm -f "$ROOT/home/user/.bashrc"
mkfifo "$ROOT/home/user/.bashrc"
run fix --timeout 60
expect_fast "$ref_fix" 30
expect_line '^# note: .*not read, so not searched: /home/user/\.bashrc: a FIFO, not a regular file: not read'

done_testing
