# perf.sh: memory, swap, .wslconfig and where the data lives, on fixture machines.
. "$(dirname "$0")/lib.sh"

check_json() { expect_json "[.checks[] | select(.id == \"$1\")][0] | $2"; }
# expect_fast REF: the last run finished within twice REF, what a run of
# the same check on good input took just before (what this machine needs
# now, however busy), plus 3 s: no hang, no slow loop.
expect_fast() {
	if awk -v s="$SECS" -v r="$1" 'BEGIN { exit !(s < 2 * r + 3) }'; then ok "finished in ${SECS}s ($1 s on good input)"
	else fail "took ${SECS}s, $1 s on good input (bound: twice that + 3 s)"; fi
}

# Healthy WSL2: both checks pass.
fixture healthy-wsl2
run --only perf
expect_rc 0
expect_line '^✓ perf\.memory +15\.5 GiB of memory \(\.wslconfig memory=16GB\), 4\.0 GiB of swap, none in use$'
expect_line '^✓ perf\.storage +/home/user is on ext4 \(/dev/sdd, a Linux file system\)$'
run_json --only perf
expect_status perf.memory pass
expect_status perf.storage pass
check_json perf.memory '.evidence.wslconfig == "C:\\Users\\alice\\.wslconfig: memory=16GB (line 2), swap=4GB (line 3), processors=8 (line 4)"'
check_json perf.memory '.evidence.mem_total == "15.5 GiB (16303444 kB)"'
check_json perf.storage '.evidence.fstype == "ext4" and .evidence.mount == "/" and .evidence.source == "/dev/sdd"'
# A fixture need not hold the user's directory (git keeps no empty ones).
rm -rf "$ROOT/home/user"
run --only perf.storage
expect_rc 0
expect_line '^✓ perf\.storage +/home/user is on ext4 \(/dev/sdd, a Linux file system\)$'
# The driver store is 9p too, but not a Windows drive.
run --only perf.storage --data /usr/lib/wsl/drivers
expect_rc 0
expect_line '^✓ perf\.storage +none of the 2 paths is on a Windows drive$'

# Field case P01: the current directory and a --data path on Windows drives.
fixture dataset-on-9p
run --only perf.storage --data /mnt/d/datasets/imagenet
expect_rc 0
expect_line '^! perf\.storage +/mnt/c/Users/alice/data is on a Windows drive \(9p at /mnt/c\): file access there is slow; 2 of 2 paths are on Windows drives$'
expect_line 'cause +/mnt/c/Users/alice/data is on a Windows drive \(9p at /mnt/c, source C:\\\)\. WSL2 reaches'
expect_line 'fix +mkdir -p ~/data && cp -a /mnt/c/Users/alice/data ~/data/ +# then read it from ~/data/, under its own name$'
expect_line 'pack small files into a few large shards'
expect_line '^! No failures, 1 warning \(first: perf\.storage\)\.$'
run_json --only perf.storage --data /mnt/d/datasets/imagenet
check_json perf.storage '.kb == "perf.storage.windows_drive"'
check_json perf.storage '.evidence.fstype == ["9p", "9p"]'
check_json perf.storage '.evidence.mount == ["/mnt/c", "/mnt/d"]'
check_json perf.storage '.evidence.source == ["C:\\", "D:\\"]'
check_json perf.storage '.evidence.role == ["current directory", "--data"]'
run --only perf.storage --data /mnt/d/datasets/imagenet --strict
expect_rc 1
# A symlink into /mnt/c (~/.ollama, ollama/ollama#8043) is followed.
setenv PWD=/home/user
run --only perf.storage --data /home/user/.ollama/models
expect_rc 0
expect_line '^! perf\.storage +/home/user/\.ollama/models \(-> /mnt/c/Users/alice/\.ollama/models\) is on a Windows drive \(9p at /mnt/c\): file access there is slow$'
run_json --only perf.storage --data /home/user/.ollama/models
check_json perf.storage '.evidence.link == "/home/user/.ollama/models -> /mnt/c/Users/alice/.ollama"'
check_json perf.storage '.evidence.resolved == ["/home/user", "/mnt/c/Users/alice/.ollama/models"]'
# Relative --data paths start at the current directory.
run_json --only perf.storage --data .ollama
check_json perf.storage '.kb == "perf.storage.windows_drive"'
# Bad --data paths: a clear finding, never a hang.
ln -s /mnt/e/nothing "$ROOT/home/user/gone"
ln -s /home/user/loop2 "$ROOT/home/user/loop1"
ln -s /home/user/loop1 "$ROOT/home/user/loop2"
run --only perf.storage --data /home/user/gone
expect_rc 0
expect_line '^! perf\.storage +/home/user/gone: a dangling symlink \(its target does not exist\)$'
expect_line 'fix +namei -l /home/user/gone'
run --only perf.storage --data /home/user
ref=$SECS
run --only perf.storage --data /home/user/loop1/data
expect_rc 0
expect_fast "$ref"
expect_line '^! perf\.storage +/home/user/loop1/data: its symlinks form a loop$'
run --only perf.storage --data /no/such/dir
expect_line '^! perf\.storage +/no/such/dir: does not exist$'
# A Windows drive wins over a bad path as the headline.
run_json --only perf.storage --data /no/such/dir --data /mnt/d/datasets/imagenet
check_json perf.storage '.kb == "perf.storage.windows_drive"'
check_json perf.storage '.evidence.bad == "/no/such/dir: does not exist"'
# A mountinfo that is empty, binary or huge.
: >"$ROOT/proc/self/mountinfo"
run --only perf.storage
expect_line '^! perf\.storage +cannot tell where the data lives: /proc/self/mountinfo: no mount entries$'
head -c 100000 /dev/urandom >"$ROOT/proc/self/mountinfo"
run_json --only perf.storage
expect_status perf.storage warn
{ printf '62 67 8:48 / / rw - ext4 /dev/sdd rw,'; head -c 10000000 /dev/zero | tr '\0' 'o'; printf '\n'; } \
	>"$ROOT/proc/self/mountinfo"
run --only perf.storage
expect_fast "$ref"
expect_line '^✓ perf\.storage +/home/user is on ext4 \(/dev/sdd, a Linux file system\)$'
rm "$ROOT/proc/self/mountinfo"
run --only perf.storage
expect_line '^! perf\.storage +cannot tell where the data lives: /proc/self/mountinfo: No such file or directory$'

# Small memory and swap in use.
fixture tiny-wslconfig
run --only perf.memory
expect_rc 0
expect_line '^! perf\.memory +only 1\.9 GiB of memory \(\.wslconfig memory=2GB\): too little for GPU training; also swap in use$'
expect_line 'cause +Linux has 1\.9 GiB \(2012345 kB\) of memory, less than the 3\.5 GiB this check asks for\.'
# A step that holds on any Linux first, then WSL2's own, marked as WSL2's.
expect_line 'fix +free -h +# the memory Linux has: "total"$'
expect_line '^ +notepad \$env:USERPROFILE\\\.wslconfig +# in PowerShell, on WSL2: under \[wsl2\] set memory=8GB or more'
expect_line 'wsl\.exe --shutdown +# on WSL2, in PowerShell; then reopen the distribution'
expect_line '^! No failures, 1 warning \(first: perf\.memory\)\.$'
run_json --only perf.memory
check_json perf.memory '.kb == "perf.memory.small"'
check_json perf.memory '.evidence.swap_used == "768 MiB"'
check_json perf.memory '.evidence.pswpin == "123456" and .evidence.pswpout == "234567"'
check_json perf.memory '.evidence.also == "768 MiB of swap in use (123456 pages swapped in since boot)"'
run --only perf.memory --strict
expect_rc 1
# Enough memory but swapping: the swap finding alone.
printf 'MemTotal: 16303444 kB\nMemAvailable: 402400 kB\nSwapTotal: 4194304 kB\nSwapFree: 1048576 kB\n' \
	>"$ROOT/proc/meminfo"
printf '[wsl2]\nmemory=16GB\n' >"$ROOT/mnt/c/Users/alice/.wslconfig"
run --only perf.memory
expect_line '^! perf\.memory +3\.0 GiB of swap in use \(123456 pages swapped in since boot\)$'
expect_line 'fix +vmstat 1 5'

# Field case M03: a UTF-16LE .wslconfig with BOM and CRLF, and the uncapped default.
fixture wslconfig-utf16
run --only perf.memory
expect_rc 0
expect_line '^! perf\.memory +C:\\Users\\alice\\\.wslconfig is saved as UTF-16LE with a byte-order mark: WSL may ignore it \(it asks for memory=6GB; Linux sees 31\.3 GiB: it was ignored\)$'
expect_line '^! No failures, 1 warning \(first: perf\.memory\)\.$'
expect_line 'fix +iconv -f UTF-16 -t UTF-8 /mnt/c/Users/alice/\.wslconfig \| tr -d .\\r. > /tmp/wslconfig && cp /tmp/wslconfig /mnt/c/Users/alice/\.wslconfig'
run_json --only perf.memory
check_json perf.memory '.kb == "perf.memory.wslconfig_encoding"'
check_json perf.memory '.evidence.applied | startswith("no:")'
check_json perf.memory '.evidence.wslconfig | test("UTF-16LE with a byte-order mark; CRLF line ends$")'
check_json perf.memory '.source | index("https://github.com/microsoft/WSL/issues/7851") != null'
run --only perf.memory --strict
expect_rc 1
# A Windows user name with a space: the fix quotes the path, so it can be pasted.
mv "$ROOT/mnt/c/Users/alice" "$ROOT/mnt/c/Users/Jane Doe"
run --only perf.memory
expect_line "fix +iconv -f UTF-16 -t UTF-8 '/mnt/c/Users/Jane Doe/\\.wslconfig' \\| tr -d .\\\\r. > /tmp/wslconfig && cp /tmp/wslconfig '/mnt/c/Users/Jane Doe/\\.wslconfig'"

# .wslconfig asks for 6GB but the VM has 15.5 GiB: not applied.
fixture healthy-wsl2
printf '[wsl2]\nmemory=6GB\n' >"$ROOT/mnt/c/Users/alice/.wslconfig"
run --only perf.memory
expect_rc 0
expect_line '^! perf\.memory +C:\\Users\\alice\\\.wslconfig asks for memory=6GB, but Linux sees 15\.5 GiB: not applied$'
expect_line 'fix +wsl\.exe --shutdown'
run_json --only perf.memory
check_json perf.memory '.kb == "perf.memory.wslconfig_not_applied"'
check_json perf.memory '.cause | startswith(".wslconfig asks for memory=6GB (C:\\Users\\alice\\.wslconfig line 2), but Linux sees 15.5 GiB")'
# Mistakes WSL skips: the first named with file:line, all in the evidence.
printf '[wsl2]\nmemory=16gb\nswp=4GB\n[wsl]\nprocessors=8\n' >"$ROOT/mnt/c/Users/alice/.wslconfig"
run --only perf.memory
expect_rc 0
expect_line '^! perf\.memory +C:\\Users\\alice\\\.wslconfig:2: memory=16gb is not a size WSL reads .* \(and 2 more\)$'
run_json --only perf.memory
check_json perf.memory '.kb == "perf.memory.wslconfig_invalid"'
check_json perf.memory '.evidence.problem | length == 3'
check_json perf.memory '.evidence.problem[1] == "C:\\Users\\alice\\.wslconfig:3: unknown key swp= in [wsl2] (did you mean swap?)"'
check_json perf.memory '.evidence.problem[2] | test(":5: \\[wsl\\] is not a .wslconfig section \\(did you mean \\[wsl2\\]\\?\\)")'
# Several users: each file is reported.
mkdir -p "$ROOT/mnt/c/Users/bob"
printf '[wsl2]\nmemory=16GB\n' >"$ROOT/mnt/c/Users/alice/.wslconfig"
printf '[wsl2]\nmemory=8GB\n' >"$ROOT/mnt/c/Users/bob/.wslconfig"
run_json --only perf.memory
ref_mem=$SECS
expect_status perf.memory pass
check_json perf.memory '.evidence.wslconfig | length == 2'
# Hostile .wslconfig files: binary, huge, unreadable (a directory).
head -c 4000 /dev/urandom >"$ROOT/mnt/c/Users/bob/.wslconfig"
run_json --only perf.memory
expect_status perf.memory warn
{ printf '[wsl2]\nmemory='; head -c 10000000 /dev/zero | tr '\0' '9'; printf '\n'; } >"$ROOT/mnt/c/Users/bob/.wslconfig"
run_json --only perf.memory
expect_fast "$ref_mem"
expect_status perf.memory warn
check_json perf.memory '.evidence.wslconfig[1] | test("longer than 1 MiB")'
rm "$ROOT/mnt/c/Users/bob/.wslconfig"
mkdir "$ROOT/mnt/c/Users/bob/.wslconfig"
run --only perf.memory
expect_line '^! perf\.memory +C:\\Users\\bob\\\.wslconfig: cannot be read: Is a directory$'
rm -r "$ROOT/mnt/c/Users/bob"
# Hostile /proc/meminfo and /proc/vmstat.
: >"$ROOT/proc/meminfo"
run --only perf.memory
expect_line '^! perf\.memory +cannot read the memory size: /proc/meminfo: no MemTotal line$'
expect_line 'fix +cat /proc/meminfo'
head -c 5000 /dev/urandom | tr -d 'M' >"$ROOT/proc/meminfo"
run_json --only perf.memory
check_json perf.memory '.kb == "perf.memory.unreadable"'
printf 'MemTotal:       16303444 kB\nSwapTo' >"$ROOT/proc/meminfo"
head -c 3000 /dev/urandom >"$ROOT/proc/vmstat"
run_json --only perf.memory
expect_status perf.memory pass
check_json perf.memory '.evidence.swap_total == "unknown"'
# A 10 MB junk line before MemTotal: read line by line, the junk line cut
# at 1 MiB (and said), MemTotal still found.
{ head -c 10000000 /dev/zero | tr '\0' 'x'; printf '\nMemTotal: 16303444 kB\n'; } >"$ROOT/proc/meminfo"
run_json --only perf.memory
expect_fast "$ref_mem"
check_json perf.memory '.evidence.mem_total | test("15\\.5 GiB")'
check_json perf.memory '.evidence.input_cut | test("^/proc/meminfo: line 1 is longer than 1 MiB")'
rm "$ROOT/proc/meminfo"
run --only perf.memory
expect_line '^! perf\.memory +cannot read the memory size: /proc/meminfo: No such file or directory$'

# Native Linux: no .wslconfig is looked for.
fixture native-nvidia
run_json --only perf
expect_rc 0
expect_status perf.memory pass
expect_status perf.storage pass
check_json perf.memory '.evidence.wslconfig == null and .evidence.config_file == null'

done_testing
