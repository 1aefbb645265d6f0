# inputs.sh: no silent cut, no hang on what is not a file. A mountinfo of
# 100,000 mounts with the 9p drive last; a 2 MiB /etc/wsl.conf (cut, and
# said); a FIFO and a character device where /etc/wsl.conf, ~/.bashrc and
# .wslconfig belong, for check, report and fix (refused, named, fast).
. "$(dirname "$0")/lib.sh"

check_json() { expect_json "[.checks[] | select(.id == \"$1\")][0] | $2"; }
expect_fast() { # the last run finished within $1 seconds (default 10)
	if awk -v s="$SECS" -v m="${1:-10}" 'BEGIN { exit !(s < m) }'; then ok "finished in ${SECS}s"
	else fail "took ${SECS}s"; fi
}

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
run_json --only perf.storage --data /mnt/c/Users/alice/data
expect_fast 20
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
run_json --only platform,libs
expect_fast
expect_json '[.checks[].evidence.not_regular | select(. != null)] | flatten | any(. == "/etc/wsl.conf: a FIFO, not a regular file: not read")'
run report -o "$WORK/fifo.tar.gz"
expect_fast 30
expect_rc 0
mkdir -p "$WORK/fifo"
tar xzf "$WORK/fifo.tar.gz" -C "$WORK/fifo" 2>/dev/null
m=$(ls "$WORK"/fifo/*/evidence/wsl.conf 2>/dev/null | head -1)
if [ -n "$m" ] && grep -q '^\[wslgpu: /etc/wsl\.conf is a FIFO, not a regular file: not read\]$' "$m"; then
	ok "the bundle names the FIFO"; else fail "bundle wsl.conf: $(cat "$m" 2>/dev/null | head -2)"; fi

if [ "$(id -u)" = 0 ] && rm -f "$ROOT/etc/wsl.conf" && mknod "$ROOT/etc/wsl.conf" c 1 5 2>/dev/null; then
	# /dev/zero's numbers: read, it would never end.
	run_json --only platform,libs
	expect_fast
	expect_json '[.checks[].evidence.not_regular | select(. != null)] | flatten | any(. == "/etc/wsl.conf: a character device, not a regular file: not read")'
	run report -o "$WORK/chr.tar.gz"
	expect_fast 30
	expect_rc 0
else
	echo "skip: a character device needs root (mknod)"
fi

# ---- a FIFO as .wslconfig (on the 9p drive): report, check ----
fixture healthy-wsl2
wc=$(ls "$ROOT"/mnt/c/Users/*/.wslconfig | head -1)
rm -f "$wc"
mkfifo "$wc"
run report -o "$WORK/wslconfig.tar.gz"
expect_fast 30
expect_rc 0
rm -rf "$WORK/b" && mkdir -p "$WORK/b"
tar xzf "$WORK/wslconfig.tar.gz" -C "$WORK/b" 2>/dev/null
if grep -q 'wslconfig is a FIFO, not a regular file: not read' "$WORK"/b/*/evidence/wslconfig* 2>/dev/null; then
	ok "the bundle names the .wslconfig FIFO"; else fail "no FIFO note in the bundle's wslconfig"; fi
run_json --only perf.memory
expect_fast
expect_json '[.checks[].evidence.not_regular | select(. != null)] | flatten | any(test("\\.wslconfig: a FIFO, not a regular file"))'

# ---- a FIFO as ~/.bashrc: fix plans without it, and says so ----
fixture distro-libcuda
rm -f "$ROOT/home/user/.bashrc"
mkfifo "$ROOT/home/user/.bashrc"
run fix
expect_fast 30
expect_line '^# note: .*not read, so not searched: /home/user/\.bashrc: a FIFO, not a regular file: not read'

done_testing
