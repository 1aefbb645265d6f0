#!/bin/sh
# outputs.sh: `wslgpu smoke --prom FILE --junit FILE --push URL` end to end.
#   (a) every --prom output of several fixtures passes `promtool check
#       metrics`, every --junit output validates against Jenkins'
#       junit.xsd (tests/schemas/) with xmllint, hostile kernel strings
#       included; the files are written whole (no temp file left behind);
#   (b) a real prometheus-pushgateway on 127.0.0.1 (a free port): smoke
#       pushes, the series are read back with their job/instance labels;
#       a closed port and a gateway that never answers fail clearly.
# The writers and the push client are also tested without smoke, on
# hand-made results, in tests/unit/test_outputs.c.
# Missing tools (promtool, xmllint, prometheus-pushgateway, python3) are
# skips, counted and said.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

T_SKIP=0
SCHEMA="$top/tests/schemas/junit.xsd"
skip_test() { T_SKIP=$((T_SKIP + 1)); echo "skip: $1"; }
finish() {
	json_flush
	echo "e2e-result: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" -eq 0 ]
	exit $?
}
have() { command -v "$1" >/dev/null 2>&1; }

check_prom() { # FILE WHAT
	if ! have promtool; then skip_test "promtool not installed: $2 not validated"; return; fi
	if out=$(promtool check metrics <"$1" 2>&1) && [ -z "$out" ]; then
		ok "promtool check metrics: $2"
	else
		fail "promtool check metrics: $2: $out"
	fi
}
check_junit() { # FILE WHAT
	if ! have xmllint; then skip_test "xmllint not installed: $2 not validated"; return; fi
	if out=$(xmllint --noout --schema "$SCHEMA" "$1" 2>&1); then
		ok "xmllint --schema junit.xsd: $2"
	else
		fail "xmllint --schema junit.xsd: $2: $out"
	fi
}
expect_file_fixed() { # FILE STRING WHAT
	if grep -Fq -- "$2" "$1"; then ok "$3"; else fail "$3: no line has '$2' in $1"; fi
}
expect_file_line() { # FILE ERE WHAT
	if grep -Eq -- "$2" "$1"; then ok "$3"; else fail "$3: no line /$2/ in $1"; fi
}

# ---- (a) the files, for several machines ----
for fx in healthy-wsl2 no-dxg distro-libcuda native-nvidia wsl1 torch-cpu-only; do
	[ -d "$top/tests/fixtures/$fx" ] || continue
	fixture "$fx"
	dir="$WORK/out-$fx"
	mkdir -p "$dir"
	run smoke --prom "$dir/wslgpu.prom" --junit "$dir/junit.xml"
	case "$RC" in
	0|1) ok "smoke exit status $RC" ;;
	*) fail "smoke exit status $RC" ;;
	esac
	if [ -s "$dir/wslgpu.prom" ] && [ -s "$dir/junit.xml" ]; then
		ok "both files written"
	else
		fail "files missing: $(ls -A "$dir")"
		continue
	fi
	left=""
	for f in "$dir"/* "$dir"/.[!.]*; do
		[ -e "$f" ] || continue
		case "${f##*/}" in wslgpu.prom|junit.xml) ;; *) left="$left ${f##*/}" ;; esac
	done
	if [ -z "$left" ]; then ok "no temporary file left"; else fail "left behind: $left"; fi
	check_prom "$dir/wslgpu.prom" "$fx"
	check_junit "$dir/junit.xml" "$fx"
	expect_file_line "$dir/wslgpu.prom" '^wslgpu_check_status\{check="platform\.kind",layer="platform",status="[a-z]+"\} 1$' "platform.kind has a status series"
	expect_file_line "$dir/wslgpu.prom" '^wslgpu_smoke_success [01]$' "wslgpu_smoke_success"
	expect_file_line "$dir/junit.xml" '<testcase classname="wslgpu\.platform" name="platform\.kind"' "junit testcase platform.kind"
	# JUnit failures and wslgpu_failures agree
	jf=$(sed -n 's/^<testsuites [^>]* failures="\([0-9]*\)".*/\1/p' "$dir/junit.xml")
	pf=$(sed -n 's/^wslgpu_failures \([0-9]*\)$/\1/p' "$dir/wslgpu.prom")
	if [ -n "$jf" ] && [ "$jf" = "$pf" ]; then ok "failures agree ($jf)"; else fail "junit failures '$jf', prom '$pf'"; fi
	# a failing run exits 1 and says so in both
	if [ "$RC" = 1 ]; then
		expect_file_line "$dir/wslgpu.prom" '^wslgpu_smoke_success 0$' "failing run: success 0"
	fi
done

# no-dxg: bridge.dxg fails, in both files
fixture no-dxg
run smoke --prom "$WORK/nodxg.prom" --junit "$WORK/nodxg.xml"
expect_file_line "$WORK/nodxg.prom" '^wslgpu_check_status\{check="bridge\.dxg",layer="bridge",status="fail"\} 1$' "no-dxg: bridge.dxg fail series is 1"
expect_file_line "$WORK/nodxg.xml" '<failure type="fail" message="' "no-dxg: a <failure>"

# Hostile machine strings: quotes, backslashes, markup, control bytes and
# invalid UTF-8 in the kernel release reach both outputs, still valid.
fixture healthy-wsl2
printf '5.15.167.4-microsoft-standard-WSL2 "q" \\b <x>&amp; \001\033[1m \377\376 end\n' \
	>"$ROOT/proc/sys/kernel/osrelease"
run smoke --prom "$WORK/hostile.prom" --junit "$WORK/hostile.xml"
check_prom "$WORK/hostile.prom" "hostile kernel string"
expect_file_fixed "$WORK/hostile.prom" 'wslgpu_kernel_info{release="5.15.167.4-microsoft-standard-WSL2 \"q\" \\b <x>&amp;' "hostile kernel: label value escaped"
expect_file_fixed "$WORK/hostile.xml" 'value="5.15.167.4-microsoft-standard-WSL2 &quot;q&quot; \b &lt;x&gt;&amp;amp;' "hostile kernel: XML attribute escaped"
check_junit "$WORK/hostile.xml" "hostile kernel string"

# ---- (c) what the output path is: written like a shell's "> PATH" ----
# Devices are replicas made with mknod inside $WORK (never the real /dev
# nodes: a regression would replace them); /dev/stdout is reached only
# through a symlink in $WORK, so a regression replaces that link, never
# the real one.
ftype() { stat -c %F "$1" 2>/dev/null; }
expect_type() { # PATH TYPE WHAT
	t=$(ftype "$1")
	if [ "$t" = "$2" ]; then ok "$3 is still a $2"; else fail "$3 is now a '$t', not a $2"; fi
}
# A FIFO reader that is ready before the writer opens: opens the read end
# without blocking, says so, then reads to EOF into $2.
fifo_reader() { # FIFO OUT
	rm -f "$2.ready"
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
os.set_blocking(fd, True)
open(sys.argv[2] + ".ready", "w").close()
seen, end = False, time.time() + 60
with open(sys.argv[2], "wb") as out:
    while time.time() < end:
        b = os.read(fd, 65536)
        if b:
            seen = True
            out.write(b)
        elif seen:
            break
        else:
            time.sleep(0.05)  # no writer yet: read() says EOF until one opens' "$1" "$2" &
	READER=$!
	i=0
	while [ ! -e "$2.ready" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.05; done
}
fixture healthy-wsl2
run smoke --prom "$WORK/base.prom"
BASE_RC=$RC
if [ "$BASE_RC" = 0 ]; then ok "healthy-wsl2 smoke exits 0 (the baseline)"; else fail "baseline smoke exit $RC"; fi
D="$WORK/paths"
mkdir -p "$D"
cd "$D" || exit 3
if mknod "$D/full" c 1 7 2>/dev/null && mknod "$D/null" c 1 3 2>/dev/null; then
	run smoke --prom "$D/full"
	expect_rc 1
	expect_err "--prom $D/full: .*No space left on device"
	expect_type "$D/full" "character special file" "a /dev/full replica after --prom"
	run smoke --junit "$D/full"
	expect_rc 1
	expect_err "--junit $D/full: .*No space left on device"
	run smoke --prom "$D/null" --junit "$D/null"
	expect_rc 0
	expect_type "$D/null" "character special file" "a /dev/null replica after --prom and --junit"
	run report -o "$D/full"
	expect_rc 1
	expect_err "wslgpu report: $D/full: .*No space left on device"
	expect_type "$D/full" "character special file" "a /dev/full replica after report -o"
	run report --markdown -o "$D/full"
	expect_rc 1
	expect_err "No space left on device"
	run report --markdown -o "$D/null"
	expect_rc 0
	expect_type "$D/null" "character special file" "a /dev/null replica after report --markdown -o"
	left=$(ls -A "$D" | grep -v -x -e full -e null)
	if [ -z "$left" ]; then ok "no temporary file next to the devices"; else fail "left behind: $left"; fi
else
	skip_test "mknod not permitted: device targets not tested"
fi
if have python3; then
	mkfifo "$D/fifo"
	fifo_reader "$D/fifo" "$D/fifo.got"
	run smoke --junit "$D/fifo"
	wait "$READER"
	expect_rc 0
	expect_type "$D/fifo" "fifo" "a FIFO after --junit"
	expect_file_line "$D/fifo.got" '^<testsuites ' "the FIFO's reader got the JUnit XML"
	# CI's --junit /dev/stdout, with standard output a pipe: a link to the FIFO
	ln -s "$D/fifo" "$D/stdout"
	fifo_reader "$D/stdout" "$D/stdout.got"
	run smoke --junit "$D/stdout"
	wait "$READER"
	expect_rc 0
	expect_type "$D/stdout" "symbolic link" "a link to a FIFO after --junit"
	expect_type "$D/fifo" "fifo" "its FIFO"
	expect_file_line "$D/stdout.got" '</testsuites>' "the reader behind the link got the XML"
	# nobody reads: an error at once, not a hang
	run smoke --junit "$D/fifo"
	expect_rc 1
	expect_err "--junit $D/fifo: .*no process is reading"
	if awk "BEGIN { exit !($SECS < 30) }"; then ok "a FIFO without a reader does not hang ($SECS s)"; else fail "took $SECS s"; fi
	expect_type "$D/fifo" "fifo" "a FIFO nobody reads"
else
	skip_test "python3 not installed: FIFO targets not tested"
fi
# the file standard output already is, through a link to /dev/stdout
ln -s /dev/stdout "$D/so"
run smoke --junit "$D/so"
expect_rc 0
expect_type "$D/so" "symbolic link" "a link to /dev/stdout after --junit"
expect_line '^<testsuites '
run smoke --junit -
expect_rc 0
expect_line '</testsuites>'
# a symlinked .prom: the target is replaced atomically, the link stays
echo "old" >"$D/real.prom"
ln -s real.prom "$D/link.prom"
run smoke --prom "$D/link.prom"
expect_rc 0
expect_type "$D/link.prom" "symbolic link" "a symlinked .prom"
expect_file_line "$D/real.prom" '^wslgpu_smoke_success [01]$' "the link's target was updated"
# a dangling link: its target is created, the link stays
mkdir "$D/sub"
ln -s sub/new.prom "$D/dangling.prom"
run smoke --prom "$D/dangling.prom"
expect_rc 0
expect_type "$D/dangling.prom" "symbolic link" "a dangling link"
expect_file_line "$D/sub/new.prom" '^wslgpu_smoke_success [01]$' "a dangling link's target was created"
ln -s bundle.tgz "$D/b.lnk"
run report -o "$D/b.lnk"
expect_rc 0
expect_type "$D/b.lnk" "symbolic link" "report -o through a link"
check_tgz() { gzip -t "$1" 2>/dev/null; }
if check_tgz "$D/bundle.tgz"; then ok "the bundle is the link's target"; else fail "no bundle at the link's target"; fi
# anything else is refused and left alone
mkdir "$D/adir"
run smoke --prom "$D/adir"
expect_rc 1
expect_err "--prom $D/adir: .*is a directory; refusing to replace it"
expect_type "$D/adir" "directory" "a directory given as --prom"
left=$(ls -A "$D" "$D/sub" | grep '\.tmp\.')
if [ -z "$left" ]; then ok "no temporary file left anywhere"; else fail "left behind: $left"; fi

# ---- (d) standard output on a full disk: every command says so and fails
# (tests/e2e/cli.sh covers check, history, kb, --list, help, --version)
fixture distro-libcuda
for args in "explain CUDA_ERROR_NO_DEVICE" "explain --list" "fix" "fix --json" "report --markdown" \
	"smoke" "smoke --json" "smoke --junit -" "--list"; do
	# shellcheck disable=SC2086
	env -i PATH=/usr/bin:/bin HOME=/home/user "$WSLGPU" --root "$ROOT" $args >/dev/full 2>"$WORK/err"
	RC=$?
	ERR=$(cat "$WORK/err")
	if [ "$RC" != 0 ] && printf '%s\n' "$ERR" | grep -q 'No space left on device'; then
		ok "$args > /dev/full: exit $RC and the error"
	else
		fail "$args > /dev/full: exit $RC, stderr: $ERR"
	fi
done

# ---- (b) a real Pushgateway ----
if ! have prometheus-pushgateway || ! have python3; then
	skip_test "prometheus-pushgateway or python3 not installed: push not tested end to end"
	finish
fi
# loopback only: no proxy from the developer's environment
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY
PGW_PID=""
SLOW_PID=""
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [ -n "$PGW_PID" ]; then kill "$PGW_PID" 2>/dev/null; wait "$PGW_PID" 2>/dev/null; fi
	if [ -n "$SLOW_PID" ]; then kill "$SLOW_PID" 2>/dev/null; wait "$SLOW_PID" 2>/dev/null; fi
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

port=$(free_port)
prometheus-pushgateway --web.listen-address="127.0.0.1:$port" --persistence.file="" \
	>"$WORK/pushgateway.log" 2>&1 &
PGW_PID=$!
if ! wait_http "http://127.0.0.1:$port/-/ready"; then
	fail "pushgateway did not become ready: $(tail -5 "$WORK/pushgateway.log")"
	finish
fi
ok "pushgateway ready on 127.0.0.1:$port"

fixture no-dxg
run smoke --push "http://127.0.0.1:$port"
if [ "$RC" = 2 ] || [ "$RC" = 3 ]; then fail "smoke --push exit status $RC"; else ok "smoke --push ran (exit $RC)"; fi
http_get "http://127.0.0.1:$port/metrics" >"$WORK/gw.txt"
expect_file_line "$WORK/gw.txt" '^wslgpu_check_status\{check="bridge\.dxg",instance="[^"]*",job="[^"]+",layer="bridge",status="fail"\} 1$' "pushed: bridge.dxg fail with job and instance"
expect_file_line "$WORK/gw.txt" '^wslgpu_smoke_success\{instance="[^"]*",job="[^"]+"\} 0$' "pushed: wslgpu_smoke_success 0"
expect_file_line "$WORK/gw.txt" '^push_time_seconds\{instance="[^"]*",job="[^"]+"\} ' "the gateway recorded the push"

# An instance name with '/' and a space travels as @base64 and reads back intact.
run smoke --push "http://127.0.0.1:$port" --instance "lab/rack 7"
http_get "http://127.0.0.1:$port/metrics" >"$WORK/gw2.txt"
expect_file_fixed "$WORK/gw2.txt" 'wslgpu_failures{instance="lab/rack 7",job="wslgpu"} ' "pushed with --instance 'lab/rack 7'"

# A closed port: a clear error, at once.
closed=$(free_port)
run smoke --push "http://127.0.0.1:$closed"
expect_err "cannot push to http://127\.0\.0\.1:$closed/metrics/job/.*Connection refused"
if awk "BEGIN { exit !($SECS < 60) }"; then ok "refused push returns ($SECS s)"; else fail "refused push took $SECS s"; fi
# Credentials in the URL never reach the message or the JSON (cron mail, CI logs).
run smoke --push "http://fleet:s3cr3t-pw@127.0.0.1:$closed" --json
expect_err "wslgpu smoke: --push http://<credentials>@127\.0\.0\.1:$closed: "
if printf '%s\n%s\n' "$OUT" "$ERR" | grep -q 's3cr3t-pw'; then fail "the push password was printed"; else ok "the push password is not printed"; fi

# A gateway that accepts and never answers: an error within the time-out.
slow_port=$(free_port)
python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8)
open(sys.argv[2], "w").close()
conns = []
while True:
    c, _ = s.accept(); conns.append(c)' "$slow_port" "$WORK/slow.ready" &
SLOW_PID=$!
i=0
while [ ! -e "$WORK/slow.ready" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.1; done
run smoke --push "http://127.0.0.1:$slow_port"
expect_err "the Pushgateway at http://127\.0\.0\.1:$slow_port/metrics/job/.* did not answer within [0-9.]+ s"
if awk "BEGIN { exit !($SECS < 90) }"; then ok "slow gateway cut off ($SECS s)"; else fail "slow gateway took $SECS s"; fi

finish
