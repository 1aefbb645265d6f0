#!/bin/sh
# report.sh: `wslgpu report` on the report-secrets fixture, whose files and
# environment are seeded with user and host names, home paths, a Windows
# profile, IPv4/IPv6/MAC addresses, a machine id, a GPU UUID and serial and
# secrets. No seeded value may appear anywhere in the bundle (every member,
# every member name, the raw tar stream); placeholders must be the same in
# every member; --no-redact must keep them; failures must leave no file.
. "$(dirname "$0")/lib.sh"

# Every seeded value (grep -i -F, one per line).
SEEDS="$WORK/seeds"
cat >"$SEEDS" <<'EOF'
marguerite
Marguerite.Dupont
Marguerite Dupont
LAPTOP-7QX3Z9K
172.28.160.1
192.168.50.7
10.20.30.40
fd12:3456:789a::17
fd12:3456:789a::2
00:15:5D:A1:B2:C3
5e0c1f8a9b2d4c6e8f0a1b2c3d4e5f60
3f2a9c41-7b6d-4e21-9a8c-0d1e2f3a4b5c
7c1e2d3f-4a5b-4c6d-8e9f-a0b1c2d3e4f5
1652221009876
ghp_R3dactM3Plz0123456789abcdefABCDEF
wJalrXUtnFEMIK7MDENGbPxRfiCYzEXAMPLEKEY
hf_qWeRtYuIoPaSdFgHjKlZxCvBnM123456
Sup3rS3cretPw
proxyuser
mdupont-hub
ghp_UsrPartTok3n0123456789abcdefABCDEF
mg-7f3a9c2e41b84d6a9e0fc0ndaT0k
ghp_InPathTok3n0123456789abcdefABCDEFG
hf_InPathTokenAbCdEfGhIjKlMnOpQrStU
acme-intranet
bWR1cG9udDpSM2dpc3RyeVBhc3M
glpat-GlAbCdEfGh0123456789xy
xoxb-123456789012-0987654321098-AbCdEfGhIjKlMnOpQrStUvWx
AKIAIOSFODNN7EXAMPL3
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj
MzEfYyjiWA4R4M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvuP
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
Wsl3ConfPassw0rd
Wsl3ConfT0kenQx7Zr2Lm9Kp4
EOF

# The fixture's environment as `run` builds it, for runs that need a pipe or
# the background.
fixture_vars() {
	vars="PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/user LANG=C.UTF-8"
	while IFS= read -r line; do
		case "$line" in ''|'#'*) continue ;; esac
		vars="$vars $line"
	done <"$top/tests/fixtures/$FIXTURE/env"
	echo "$vars"
}

check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

fixture report-secrets
cd "$WORK" || exit 3

# ---- the redacted bundle ----
run report -o "$WORK/b.tar.gz"
expect_rc 0
expect_err "wrote .*b\.tar\.gz .*redacted"
check "archive mode is 0600" '[ "$(stat -c %a "$WORK/b.tar.gz")" = 600 ]'
mkdir "$WORK/ex"
check "tar extracts it" 'tar xzf "$WORK/b.tar.gz" -C "$WORK/ex"'
TOPDIR=$(ls "$WORK/ex")
B="$WORK/ex/$TOPDIR"
check "one top directory wslgpu-report-<UTC>" 'echo "$TOPDIR" | grep -Eq "^wslgpu-report-[0-9]{8}T[0-9]{6}Z$"'
for m in README.txt check.json evidence/etc-os-release evidence/proc-version evidence/mountinfo \
	evidence/proc-modules evidence/ld.so.cache.txt evidence/ld.so.conf \
	evidence/ld.so.conf.d/ld.wsl.conf evidence/nvidia-smi-q.txt evidence/dpkg-gpu-packages.txt \
	evidence/docker-info.txt evidence/frameworks.txt evidence/wslconfig evidence/wsl.conf \
	evidence/environment.txt; do
	check "member $m" '[ -f "$B/$m" ]'
done
check "members are 0600" '[ -z "$(find "$B" -type f ! -perm 600)" ]'
json_settle
JSON="$B/check.json"
check "check.json is JSON" 'jq -e . "$JSON" >/dev/null'
expect_json '.schema == "wslgpu/check/2"'
expect_json '[.checks[] | select(.id == "libs.libcuda")] | length == 1'
expect_json '.checks | length > 20'

# No seeded value anywhere: each member, the member names, the tar stream.
leaks=""
while IFS= read -r seed; do
	hit=$(grep -rilF -- "$seed" "$B")
	[ -n "$hit" ] && leaks="$leaks [$seed in $hit]"
	find "$B" | grep -qiF -- "$seed" && leaks="$leaks [$seed in a member name]"
	gzip -dc "$WORK/b.tar.gz" | grep -qaiF -- "$seed" && leaks="$leaks [$seed in the tar stream]"
done <"$SEEDS"
if [ -z "$leaks" ]; then ok "no seeded value in any member (of $(wc -l <"$SEEDS") values)"; else
	fail "seeded values leaked:$leaks"; fi

# The same placeholder for the same value, in every member.
U=$(sed -n 's/^USER=\(<user-[0-9]*>\)$/\1/p' "$B/evidence/environment.txt")
check "USER is a placeholder" '[ -n "$U" ]'
check "home path in check.json uses $U" 'grep -qF "/home/$U/projects" "$JSON"'
check "home path in environment.txt uses $U" 'grep -qF "LD_LIBRARY_PATH=/home/$U/.local/cuda/lib64" "$B/evidence/environment.txt"'
check "mount option in mountinfo uses $U" 'grep -qF "username=$U," "$B/evidence/mountinfo"'
check "wsl.conf default user is $U" 'grep -qF "default=$U" "$B/evidence/wsl.conf"'
check "docker root dir uses $U" 'grep -qF "/home/$U/docker-data" "$B/evidence/docker-info.txt"'
H=$(sed -n 's/^hostname=\(<host-[0-9]*>\)$/\1/p' "$B/evidence/wsl.conf")
check "host name is a placeholder" '[ -n "$H" ]'
check "docker info Name uses $H" 'grep -qF "Name: $H" "$B/evidence/docker-info.txt"'
check "check.json engine_name uses $H" 'grep -qF "\"engine_name\":\"$H\"" "$JSON"'
W=$(sed -n 's|^CUDA_CACHE_PATH=/mnt/c/Users/\(<user-[0-9]*>\)/cuda-cache$|\1|p' "$B/evidence/environment.txt")
check "Windows profile is a placeholder" '[ -n "$W" ] && [ "$W" != "$U" ]'
check ".wslconfig names the profile as $W" 'grep -qF "C:\\\\Users\\\\$W\\\\AppData" "$B/evidence/wslconfig" && grep -qF "C:\\Users\\$W\\.wslconfig" "$B/evidence/wslconfig"'
check "check.json names the profile as $W" 'grep -qF "C:\\\\Users\\\\$W\\\\.wslconfig" "$JSON"'
PROXY=$(sed -n 's|^https_proxy=\(.*\)$|\1|p' "$B/evidence/environment.txt")
check "proxy URL redacted into placeholders" 'echo "$PROXY" | grep -Eq "^http://<user-[0-9]+>:<secret-[0-9]+>@<ip-[0-9]+>:3128$"'
check "docker info shows the same proxy placeholders" 'grep -qF "HTTP Proxy: $PROXY" "$B/evidence/docker-info.txt"'
IP=$(echo "$PROXY" | sed 's/.*@\(<ip-[0-9]*>\).*/\1/')
check "the insecure registry is the proxy's $IP" 'grep -qF "  $IP:5000" "$B/evidence/docker-info.txt"'
check "machine id label redacted" 'grep -Eq "machine-id=<machine-id-[0-9]+>" "$B/evidence/docker-info.txt"'
check "GPU UUID and serial redacted in nvidia-smi -q" 'grep -Eq "GPU UUID +: GPU-<uuid-[0-9]+>" "$B/evidence/nvidia-smi-q.txt" && grep -Eq "Serial Number +: <serial-[0-9]+>" "$B/evidence/nvidia-smi-q.txt"'
check "MAC redacted in .wslconfig" 'grep -Eq "bridged adapter <mac-[0-9]+>" "$B/evidence/wslconfig"'
check "IPv6 mount redacted" 'grep -Eq "nfs4 \[<ip-[0-9]+>\]:/export .*clientaddr=<ip-[0-9]+>," "$B/evidence/mountinfo"'
for v in GITHUB_TOKEN AWS_SECRET_ACCESS_KEY HF_TOKEN; do
	check "$v is a secret placeholder" 'grep -Eq "^$v=<secret-[0-9]+>$" "$B/evidence/environment.txt"'
done
check "Docker Hub user redacted" 'grep -Eq "Username: <user-[0-9]+>" "$B/evidence/docker-info.txt"'
# Secrets by their shape, and a company's own host names.
E="$B/evidence/environment.txt"
check "a token as a URL's user part" 'grep -Eq "^TORCH_HUB_URL=https://<secret-[0-9]+>@<host-[0-9]+>/hub$" "$E"'
check "a conda channel token" 'grep -Eq "^CONDA_CHANNELS=https://conda\.anaconda\.org/t/<secret-[0-9]+>/acme-private$" "$E"'
check "a token inside CUDA_HOME" 'grep -Eq "^CUDA_HOME=/opt/<secret-[0-9]+>/cuda$" "$E"'
check "a token inside CONDA_PREFIX" 'grep -Eq "^CONDA_PREFIX=/home/<user-[0-9]+>/miniconda3/envs/<secret-[0-9]+>$" "$E"'
check "the proxy's host name" 'grep -Eq "^HTTP_PROXY=http://<host-[0-9]+>:8080$" "$E"'
check "NO_PROXY's host names, loopback kept" 'grep -Eq "^NO_PROXY=localhost,127\.0\.0\.1,\.<host-[0-9]+>,<host-[0-9]+>$" "$E"'
check "the package index's host name" 'grep -Eq "^PIP_INDEX_URL=https://<host-[0-9]+>/simple$" "$E"'
check "a public index stays" 'grep -qx "PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cu124" "$E"'
check "known token prefixes (GitLab, Slack, AWS)" 'grep -Eq "^TORCH_BUILD_NOTE=<secret-[0-9]+>,<secret-[0-9]+>,<secret-[0-9]+>$" "$E"'
DAC=$(sed -n "s/^DOCKER_AUTH_CONFIG=//p" "$E")
check "DOCKER_AUTH_CONFIG is still JSON" 'printf "%s" "$DAC" | jq -e . >/dev/null'
check "DOCKER_AUTH_CONFIG: registry and auth redacted" 'printf "%s" "$DAC" | jq -e "(.auths | keys[0] | test(\"^<host-[0-9]+>$\")) and (.auths[] | .auth | test(\"^<secret-[0-9]+>$\"))" >/dev/null'
K="$B/evidence/ld.so.conf.d/zz-notes.txt"
check "a private key block in a collected file: markers kept, body redacted" 'grep -qx -- "-----BEGIN RSA PRIVATE KEY-----" "$K" && grep -Eqx "<secret-[0-9]+>" "$K" && grep -qx -- "-----END OPENSSH PRIVATE KEY-----" "$K"'
check "a password in a .wslconfig comment" 'grep -Eq "^# proxy password: <secret-[0-9]+> \(ask IT" "$B/evidence/wslconfig"'
check "a random word beside a secret-like one" 'grep -Eq "^# api token <secret-[0-9]+>$" "$B/evidence/wslconfig"'
check "check.json is JSON after every redaction" 'jq -e . "$JSON" >/dev/null'
check "Public is nobody's and stays" 'grep -rq "Users/Public\|Users\\\\Public" "$B" || ! grep -rq "<user-[0-9]*>/\.keep" "$B"'

# What must survive: versions that look like addresses, loopback.
check "kernel version kept" 'grep -qF "5.15.167.4-microsoft-standard-WSL2" "$B/evidence/proc-version"'
check "kernel recommendation kept in check.json" 'grep -qF "\"recommended\":\"5.10.16.3\"" "$JSON"'
check "driver 551.23 kept" 'grep -Eq "Driver Version +: 551\.23" "$B/evidence/nvidia-smi-q.txt"'
check "VBIOS 94.02.42.00.A9 kept" 'grep -qF "94.02.42.00.A9" "$B/evidence/nvidia-smi-q.txt"'
check "loopback registry kept" 'grep -qF "127.0.0.0/8" "$B/evidence/docker-info.txt"'
check "PCI bus id kept" 'grep -qF "00000000:01:00.0" "$B/evidence/nvidia-smi-q.txt"'

# The README: summary, what was redacted (counts, never values), members.
R="$B/README.txt"
check "README says it is redacted" 'grep -q "^Redacted by default" "$R"'
check "README: machine line" 'grep -Eq "^Machine +wsl2, kernel 5\.15\.167\.4-microsoft-standard-WSL2, Ubuntu 22\.04\.4 LTS, driver 551\.23" "$R"'
check "README: verdict" 'grep -Eq "^Verdict +" "$R"'
for cat in user host ip mac machine-id uuid serial secret; do
	check "README counts <$cat-N>" 'grep -Eq "^  <$cat-N> +[1-9][0-9]* values?, +[1-9][0-9]* occurrences?" "$R"'
done
check "README lists the members" 'grep -q "evidence/nvidia-smi-q.txt" "$R" && grep -q "check.json" "$R"'
check "README is not the --no-redact one" '! grep -q "NOT REDACTED" "$R"'

# ---- --no-redact keeps the values ----
run report --no-redact -o "$WORK/raw.tar.gz"
expect_rc 0
expect_err "NOT REDACTED"
mkdir "$WORK/raw"
tar xzf "$WORK/raw.tar.gz" -C "$WORK/raw"
RAW="$WORK/raw/$(ls "$WORK/raw")"
check "--no-redact: README says NOT REDACTED" 'grep -q "THIS BUNDLE IS NOT REDACTED" "$RAW/README.txt"'
check "--no-redact: archive still 0600" '[ "$(stat -c %a "$WORK/raw.tar.gz")" = 600 ]'
for seed in marguerite Marguerite.Dupont LAPTOP-7QX3Z9K 192.168.50.7 fd12:3456:789a::17 \
	00:15:5D:A1:B2:C3 3f2a9c41-7b6d-4e21-9a8c-0d1e2f3a4b5c 1652221009876 \
	ghp_R3dactM3Plz0123456789abcdefABCDEF hf_qWeRtYuIoPaSdFgHjKlZxCvBnM123456 Sup3rS3cretPw; do
	check "--no-redact keeps $seed" 'grep -rqiF -- "$seed" "$RAW"'
done

# ---- errors leave nothing behind ----
run report -o "$WORK/missing-dir/b.tar.gz"
expect_rc 1
expect_err "missing-dir does not exist"
check "nothing created for a missing directory" '[ ! -e "$WORK/missing-dir" ]'
: >"$WORK/afile"
run report -o "$WORK/afile/b.tar.gz"
expect_rc 1
run report -o "$WORK"
expect_rc 1
expect_err "is a directory"
if [ "$(id -u)" != 0 ]; then
	mkdir "$WORK/ro" && chmod 555 "$WORK/ro"
	run report -o "$WORK/ro/b.tar.gz"
	expect_rc 1
	check "nothing in the read-only directory" '[ -z "$(ls -A "$WORK/ro")" ]'
	chmod 755 "$WORK/ro"
else
	ok "read-only directory: not testable as root (root writes anyway)"
fi
# A failure in the middle of writing: a file size limit with SIGXFSZ
# ignored makes write() fail with EFBIG after the temporary file exists.
mkdir "$WORK/small"
vars=$(fixture_vars)
# shellcheck disable=SC2086
(trap '' XFSZ; ulimit -f 4; env -i $vars "$WSLGPU" --root "$ROOT" report -o "$WORK/small/b.tar.gz" \
	>"$WORK/small.out" 2>"$WORK/small.err"; echo $? >"$WORK/small.rc")
RC=$(cat "$WORK/small.rc"); ERR=$(cat "$WORK/small.err"); OUT=""
expect_rc 1
check "a failed write leaves no file and no temporary" '[ -z "$(ls -A "$WORK/small")" ]'
# SIGTERM while it runs: a complete archive or nothing, never a temporary.
mkdir "$WORK/sig"
# shellcheck disable=SC2086
env -i $vars "$WSLGPU" --root "$ROOT" report -o "$WORK/sig/b.tar.gz" >/dev/null 2>&1 &
pid=$!
sleep 0.4
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "SIGTERM leaves no temporary file" '[ -z "$(ls -A "$WORK/sig" | grep -v "^b\.tar\.gz$")" ]'
check "SIGTERM leaves no partial archive" '[ ! -e "$WORK/sig/b.tar.gz" ] || gzip -t "$WORK/sig/b.tar.gz"'
check "no temporary files in the work directory" '[ -z "$(ls -A "$WORK" | grep "\.tmp\.")" ]'

# An environment without one GPU-related variable (a cron job, a service):
# the environment member says so, nothing undefined on the way (UBSan).
mkdir -p "$WORK/bareenv"
env -i "$WSLGPU" --root "$ROOT" report -o "$WORK/bareenv/b.tar.gz" >"$WORK/bareenv.out" 2>"$WORK/bareenv.err"
RC=$?; ERR=$(cat "$WORK/bareenv.err"); OUT=""
check "no environment at all: the bundle is written (exit $RC: $(head -c 200 "$WORK/bareenv.err"))" \
	'[ "$RC" -le 1 ] && gzip -t "$WORK/bareenv/b.tar.gz"'
check "no environment at all: its member names no variable" \
	'[ -z "$(tar xzf "$WORK/bareenv/b.tar.gz" -O --wildcards "*/evidence/environment.txt" | grep -v "^#")" ]'

# ---- few descriptors (ulimit -n 4..12) ----
# The output is opened first (its directory and its temporary file: two
# descriptors). At 4 that fails: a clear error before any work, never a
# crash, nothing left. At 5 and 6 no reading child can start (a pipe needs
# two more), up to 10 no command can (three pipes): the bundle is written,
# and a member that could not be read says why instead of being empty.
for n in 4 5 6 7 8 9 10 11 12; do
	d="$WORK/fd$n"
	mkdir -p "$d/x"
	# shellcheck disable=SC2086
	# exec, redirected outside: the shell cannot save a descriptor above the limit
	(ulimit -n "$n" && exec env -i $vars "$WSLGPU" --root "$ROOT" report -o "$d/b.tar.gz") \
		>"$d/out" 2>"$d/err"
	echo $? >"$d/rc"
	rc=$(cat "$d/rc")
	if [ "$n" = 4 ]; then
		check "ulimit -n 4: a clear error, no crash (exit $rc: $(head -c 200 "$d/err"))" \
			'[ "$rc" != 0 ] && [ "$rc" -lt 128 ] && grep -q "b\.tar\.gz: .*Too many open files" "$d/err"'
		check "ulimit -n 4: nothing left" '[ "$(ls -A "$d")" = "$(printf "err\nout\nrc\nx")" ]'
		# the members, as they would be: --markdown to standard output needs no file
		(ulimit -n 4 && exec env -i $vars "$WSLGPU" --root "$ROOT" report --markdown) \
			>"$d/md" 2>"$d/md.err"
		rc=$?
		check "ulimit -n 4: report --markdown works (exit $rc)" '[ "$rc" -lt 128 ] && grep -q "^### wslgpu check" "$d/md"'
		continue
	fi
	check "ulimit -n $n: exit 0, no crash (exit $rc: $(head -c 200 "$d/err"))" '[ "$rc" = 0 ]'
	check "ulimit -n $n: nothing left beside the bundle" '[ "$(ls -A "$d")" = "$(printf "b.tar.gz\nerr\nout\nrc\nx")" ]'
	tar xzf "$d/b.tar.gz" -C "$d/x" 2>/dev/null
	X=$(find "$d/x" -mindepth 1 -maxdepth 1 -type d | head -1)
	check "ulimit -n $n: the bundle extracts, with every member" '[ -n "$X" ] && [ -f "$X/evidence/mountinfo" ] && [ -f "$X/evidence/docker-info.txt" ] && [ -f "$X/check.json" ]'
	check "ulimit -n $n: no member is empty" '[ -n "$X" ] && [ -z "$(find "$X" -type f -empty)" ]'
	check "ulimit -n $n: check.json is JSON" 'jq -e . "$X/check.json" >/dev/null'
	if [ "$n" -le 6 ]; then
		for m in mountinfo proc-version etc-os-release ld.so.cache.txt wsl.conf dpkg-gpu-packages.txt; do
			check "ulimit -n $n: $m says why it is missing" 'grep -q "^\[wslgpu: reading .* failed: Too many open files\]$" "$X/evidence/$m"'
		done
		check "ulimit -n $n: the ld.so.conf.d listing says why" 'grep -q "listing /etc/ld.so.conf.d failed: Too many open files" "$X/evidence/ld.so.conf.d.txt"'
		check "ulimit -n $n: the .wslconfig search says why" 'grep -q "looking for .wslconfig files failed: Too many open files" "$X/evidence/wslconfig"'
	fi
	if [ "$n" -le 10 ]; then
		check "ulimit -n $n: nvidia-smi says why it did not run" 'grep -q "nvidia-smi could not be started: Too many open files" "$X/evidence/nvidia-smi-q.txt"'
	fi
	if [ "$n" -ge 7 ]; then
		check "ulimit -n $n: the files are read" 'grep -q "^Linux version 5\.15\.167\.4" "$X/evidence/proc-version" && grep -q "ld.wsl.conf\|/usr/lib/wsl/lib" "$X/evidence/ld.so.conf.d/ld.wsl.conf"'
		check "ulimit -n $n: an empty file is said to be empty" 'grep -qx "\[wslgpu: /proc/modules is empty\]" "$X/evidence/proc-modules"'
	fi
	leaks=""
	while IFS= read -r seed; do
		grep -rqiF -- "$seed" "$X" && leaks="$leaks $seed"
	done <"$SEEDS"
	check "ulimit -n $n: no seeded value in the bundle${leaks:+ (leaked:$leaks)}" '[ -z "$leaks" ]'
done

# ---- -o - to a pipe ----
# shellcheck disable=SC2086
{ env -i $vars "$WSLGPU" --root "$ROOT" report -o - 2>"$WORK/pipe.err"; echo $? >"$WORK/pipe.rc"; } |
	tar tzf - >"$WORK/pipe.list" 2>&1
check "-o - to a pipe exits 0" '[ "$(cat "$WORK/pipe.rc")" = 0 ]'
check "-o - writes a tar.gz to the pipe" 'grep -q "/README.txt$" "$WORK/pipe.list" && grep -q "/evidence/mountinfo$" "$WORK/pipe.list"'
check "-o - says where it wrote" 'grep -q "standard output" "$WORK/pipe.err"'

# ---- -o - on a terminal is refused ----
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "env -i $vars $WSLGPU --root $ROOT report -o -" /dev/null >"$WORK/tty.out" 2>&1
	RC=$?; OUT=$(cat "$WORK/tty.out"); ERR=""
	expect_rc 2
	expect_line "standard output is a terminal"
else
	ok "-o - on a terminal: not testable (no script(1) or no pseudo-terminal here)"
fi

# ---- the default name, in the current directory ----
mkdir "$WORK/cwd"
# shellcheck disable=SC2086
(cd "$WORK/cwd" && env -i $vars "$WSLGPU" --root "$ROOT" report >/dev/null 2>&1)
check "default name wslgpu-report-YYYYmmddTHHMMSSZ.tar.gz, as its directory" 'ls "$WORK/cwd" | grep -Eq "^wslgpu-report-[0-9]{8}T[0-9]{6}Z\.tar\.gz$"'

# ---- members are bounded ----
fixture report-secrets
awk 'BEGIN { for (i = 0; i < 120000; i++) printf "mod%06d 16384 0 - Live 0x0000000000000000 marguerite\n", i }' \
	>"$ROOT/proc/modules"
run report -o "$WORK/big.tar.gz"
expect_rc 0
mkdir "$WORK/big"
tar xzf "$WORK/big.tar.gz" -C "$WORK/big"
BIG="$WORK/big/$(ls "$WORK/big")/evidence/proc-modules"
check "a 6 MiB file is capped at 4 MiB" '[ "$(stat -c %s "$BIG")" -le $((4 * 1048576 + 100)) ]'
check "the cut is marked" 'tail -1 "$BIG" | grep -q "truncated at 4096 KiB"'
check "the capped member is redacted too" '! grep -qi marguerite "$BIG"'

# ---- a UTF-16 .wslconfig is converted, so its names can be redacted ----
fixture wslconfig-utf16
run report -o "$WORK/u16.tar.gz"
expect_rc 0
mkdir "$WORK/u16"
tar xzf "$WORK/u16.tar.gz" -C "$WORK/u16"
U16="$WORK/u16/$(ls "$WORK/u16")"
check "UTF-16 .wslconfig shown as UTF-8" 'grep -q "^memory=6GB" "$U16/evidence/wslconfig" && grep -q "the file is UTF-16" "$U16/evidence/wslconfig"'
check "UTF-16 fixture: the Windows user is redacted everywhere" '! grep -rqi alice "$U16" && grep -q "Users.<user-1>" "$U16/evidence/wslconfig"'

# ---- --markdown ----
fixture report-secrets
run report --markdown
expect_rc 0
expect_line '^### wslgpu check: '
expect_line '^\*\*wsl2\*\* · kernel 5\.15\.167\.4-microsoft-standard-WSL2 · Ubuntu 22\.04\.4 LTS · driver 551\.23'
expect_line '^\| layer \| \| checks \|$'
expect_line '^\| libs \| ! \| ! `libs\.env`; [0-9]+ passed \|$'
expect_line '^<details><summary>'
expect_line '&lt;user-[0-9]+&gt;'
expect_line '^<sub>Redacted: .*[0-9]+ user'
MD="$WORK/md"
printf '%s\n' "$OUT" >"$MD"
leaks=""
while IFS= read -r seed; do grep -qiF -- "$seed" "$MD" && leaks="$leaks $seed"; done <"$SEEDS"
if [ -z "$leaks" ]; then ok "markdown: no seeded value"; else fail "markdown leaks:$leaks"; fi
check "markdown is short ($(wc -l <"$MD") lines)" '[ "$(wc -l <"$MD")" -le 60 ]'
check "markdown: no raw placeholder for HTML to eat" '! grep -v "^    \|^[!✗☠T] " "$MD" | sed "/^\`\`\`/,/^\`\`\`/d" | grep -q "<user-"'

fixture distro-libcuda
run report --markdown
expect_rc 0
expect_line '^### wslgpu check: ✗ broken at the libs layer \(`libs\.libcuda`\)$'
expect_line '^\*\*✗ `libs\.libcuda`\*\*: the loader picks'
expect_line '^> \*\*Cause:\*\* '
expect_line '^\*\*Fix\*\* \(`wslgpu kb libs\.'
expect_line '^unset LD_LIBRARY_PATH'
expect_line '^\| cuda \| ✗ \| ✗ `cuda\.load`; [0-9]+ skipped \|$'   # it observes what libs predicted
expect_line '^Also:$'
check "markdown of a broken machine is short ($(printf '%s\n' "$OUT" | wc -l) lines)" \
	'[ "$(printf "%s\n" "$OUT" | wc -l)" -le 90 ]'
run report --markdown --no-redact
expect_rc 0
expect_line '^<sub>NOT redacted'
run report --markdown -o "$WORK/issue.md"
expect_rc 0
check "--markdown -o FILE writes the file, mode 0600" 'grep -q "^### wslgpu check: ✗" "$WORK/issue.md" && [ "$(stat -c %a "$WORK/issue.md")" = 600 ]'
check "--markdown -o FILE prints nothing on standard output" '[ -z "$OUT" ]'
expect_err "^wslgpu report: wrote $WORK/issue\.md \(redacted: see its last line\); a check failed, the report says which$"

# ---- usage ----
run report --bogus
expect_rc 2
run report extra-word
expect_rc 2
run report --help
expect_rc 0
expect_line '--no-redact'

# A hung nvidia-smi and a docker that floods: the bundle is still written, within
# the time limit, and its members say how the commands ended.
# In time: within twice what the same report takes without them, timed just
# before (what this machine needs now, however busy), plus 10 s for the
# commands' 2 s limits; never near the 60 s nvidia-smi would hang.
fixture report-secrets
run report --timeout 2 -o "$WORK/ref.tar.gz"
ref=$SECS
printf '#!/bin/sh\nexec sleep 60\n' >"$ROOT/usr/lib/wsl/lib/nvidia-smi"
printf '#!/bin/sh\nexec yes flood\n' >"$ROOT/usr/bin/docker"
run report --timeout 2 -o "$WORK/hung.tar.gz"
expect_rc 0
check "report with a hung nvidia-smi finishes in time ($SECS s, $ref s without it)" \
	'awk -v s="$SECS" -v r="$ref" "BEGIN { b = 2 * r + 10; if (b > 55) b = 55; exit !(s < b) }"'
rm -rf "$WORK/hung" && mkdir -p "$WORK/hung"
check "the bundle extracts" 'tar xzf "$WORK/hung.tar.gz" -C "$WORK/hung"'
H=$(find "$WORK/hung" -maxdepth 1 -mindepth 1 -type d | head -1)
check "nvidia-smi -q member says it was stopped" 'grep -Eqi "time limit|did not finish|killed|timed out" "$H/evidence/nvidia-smi-q.txt"'
check "docker info member is capped" '[ "$(wc -c <"$H/evidence/docker-info.txt")" -lt 8388608 ]'

done_testing
