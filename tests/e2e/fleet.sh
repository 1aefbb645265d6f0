#!/bin/sh
# fleet.sh: what deploy/ ships for running a fleet (doc/fleet.md), tested
# with the real tools and servers:
#   (a) deploy/prometheus: promtool check rules / check config, and
#       `promtool test rules alerts_test.yml` (every rule firing and not);
#   (b) deploy/grafana/wslgpu.json: valid JSON, unique panel ids and refIds,
#       every target has an expression;
#   (c) deploy/systemd: systemd-analyze verify of the units, and
#       make install-systemd / uninstall into a scratch DESTDIR;
#   (d) deploy/windows: the Task Scheduler XML is well formed and runs
#       wsl.exe -d DISTRO -- wslgpu smoke daily;
#   (e) real servers on 127.0.0.1 (free ports, stopped on exit): a
#       Pushgateway, two node_exporters with the textfile collector and a
#       Prometheus with alerts.yml (its CHANGE WINDOW shortened to seconds,
#       nothing else changed), fed by wslgpu smoke on fixture machines. Each
#       alert becomes pending or firing for the machines it is about and for
#       no other, no rule fails to evaluate, every PromQL of the dashboard
#       runs without error and returns data, and --push-delete removes a
#       machine's group.
# promtool missing skips the whole test, saying so; the other tools
# (systemd-analyze, xmllint, prometheus, prometheus-pushgateway,
# prometheus-node-exporter) skip their part. CI installs them all
# (tools/install-deps --test).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

T_SKIP=0
DEPLOY="$top/deploy"
skip_test() { T_SKIP=$((T_SKIP + 1)); echo "skip: $1"; }
finish() {
	json_flush
	echo "e2e-result: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" -eq 0 ]
	exit $?
}
have() { command -v "$1" >/dev/null 2>&1; }
FIXTURE=deploy
OUT=""
ERR=""

if ! have promtool; then
	skip_test "promtool is not installed (Debian package prometheus): the alert rules, the dashboard's queries and the fleet servers are not tested"
	finish
fi

# ---- (a) the rules ----
OUT=$(promtool check rules "$DEPLOY/prometheus/alerts.yml" 2>&1); RC=$?
expect_rc 0
expect_line 'SUCCESS: 7 rules found'
OUT=$(cd "$DEPLOY/prometheus" && promtool test rules alerts_test.yml 2>&1); RC=$?
expect_rc 0
expect_line '^  SUCCESS$'
OUT=$(promtool check config "$DEPLOY/prometheus/prometheus.example.yml" 2>&1); RC=$?
expect_rc 0
# every rule has a unit test that fires and one that does not
for a in $(sed -n 's/^ *- alert: \([A-Za-z]*\)$/\1/p' "$DEPLOY/prometheus/alerts.yml"); do
	fires=$(grep -A2 "alertname: $a\$" "$DEPLOY/prometheus/alerts_test.yml" | grep -c 'exp_alerts:$')
	quiet=$(grep -A1 "alertname: $a\$" "$DEPLOY/prometheus/alerts_test.yml" | grep -c 'exp_alerts: \[\]')
	if [ "$fires" -ge 1 ] && [ "$quiet" -ge 1 ]; then ok "alerts_test.yml: $a fires and stays quiet"; else
		fail "alerts_test.yml: $a has $fires firing and $quiet quiet cases"; fi
done

# ---- (b) the dashboard ----
DASH="$DEPLOY/grafana/wslgpu.json"
if jq -e '.title and .uid and (.panels | length > 0)' "$DASH" >/dev/null 2>&1; then ok "wslgpu.json is a dashboard"; else
	fail "wslgpu.json: not valid JSON or no panels"; fi
if jq -e '[.panels[].id] | length == (unique | length)' "$DASH" >/dev/null; then ok "panel ids unique"; else fail "duplicate panel ids"; fi
if jq -e 'all(.panels[]; (.targets | length > 0) and ([.targets[].refId] | length == (unique | length)) and all(.targets[]; (.expr | type) == "string" and (.expr | length) > 0))' "$DASH" >/dev/null; then
	ok "every panel has targets with an expression and unique refIds"; else fail "a panel without targets, expressions or unique refIds"; fi
if jq -e 'all(.panels[]; .datasource.uid == "${datasource}")' "$DASH" >/dev/null; then ok "panels use the datasource variable"; else fail "a panel with a fixed datasource"; fi
for want in Machines "Failing checks per layer" "Kernel launch time"; do
	if jq -e --arg t "$want" 'any(.panels[]; .title == $t)' "$DASH" >/dev/null; then ok "panel '$want'"; else fail "no panel '$want'"; fi
done

# ---- (c) systemd units ----
SD="$WORK/units"
mkdir -p "$SD" "$WORK/xdg-runtime"
sed "s|^ExecStart=/usr/local/bin/wslgpu |ExecStart=$WSLGPU |" "$DEPLOY/systemd/wslgpu-smoke.service" >"$SD/wslgpu-smoke.service"
cp "$DEPLOY/systemd/wslgpu-smoke.timer" "$SD/"
verify_units() { # DIR WHAT
	if ! have systemd-analyze; then
		skip_test "systemd-analyze not installed: $2 not verified"
		return
	fi
	OUT=$(cd "$1" && XDG_RUNTIME_DIR="$WORK/xdg-runtime" systemd-analyze --user verify --man=no \
		./wslgpu-smoke.service ./wslgpu-smoke.timer 2>&1); RC=$?
	if [ "$RC" = 0 ] && [ -z "$OUT" ]; then ok "systemd-analyze verify: $2"; else fail "systemd-analyze verify: $2 (rc $RC): $OUT"; fi
}
verify_units "$SD" "deploy/systemd units"
if grep -q '^ExecStart=/usr/local/bin/wslgpu smoke \$WSLGPU_SMOKE_ARGS$' "$DEPLOY/systemd/wslgpu-smoke.service"; then
	ok "the service runs wslgpu smoke \$WSLGPU_SMOKE_ARGS"; else fail "ExecStart of wslgpu-smoke.service"; fi
if grep -q '^Persistent=true$' "$DEPLOY/systemd/wslgpu-smoke.timer" && grep -q '^OnCalendar=daily$' "$DEPLOY/systemd/wslgpu-smoke.timer"; then
	ok "the timer runs daily, and makes up missed runs"; else fail "the timer's schedule"; fi
# The schedule and the stale alert's allowance go together.
if grep -q 'time() - wslgpu_smoke_last_run_timestamp_seconds > 3 \* 86400' "$DEPLOY/prometheus/alerts.yml"; then
	ok "stale allowance three days for a daily timer"; else fail "WslgpuSmokeStale's allowance changed: change the timer, the task and doc/fleet.md with it"; fi

D="$WORK/stage"
if make -s -C "$top" BUILD="$BUILD" DESTDIR="$D" PREFIX=/usr install-systemd >"$WORK/make.log" 2>&1; then
	ok "make install-systemd"; else fail "make install-systemd: $(tail -5 "$WORK/make.log")"; fi
for u in wslgpu-smoke.service wslgpu-smoke.timer; do
	f="$D/usr/lib/systemd/user/$u"
	if [ -f "$f" ] && [ "$(stat -c %a "$f")" = 644 ]; then ok "/usr/lib/systemd/user/$u mode 644"; else
		fail "/usr/lib/systemd/user/$u: $(stat -c %a "$f" 2>&1)"; fi
done
if grep -q '^ExecStart=/usr/bin/wslgpu smoke ' "$D/usr/lib/systemd/user/wslgpu-smoke.service"; then
	ok "installed service runs \$(BINDIR)/wslgpu"; else fail "installed ExecStart: $(grep ExecStart "$D/usr/lib/systemd/user/wslgpu-smoke.service")"; fi
n=$(find "$D" -type f | wc -l)
[ "$n" = 2 ] && ok "two files installed" || fail "$n files installed: $(find "$D" -type f)"
# the installed units verify too, pointed at the binary under test
mkdir -p "$WORK/units-installed"
sed "s|^ExecStart=/usr/bin/wslgpu |ExecStart=$WSLGPU |" "$D/usr/lib/systemd/user/wslgpu-smoke.service" >"$WORK/units-installed/wslgpu-smoke.service"
cp "$D/usr/lib/systemd/user/wslgpu-smoke.timer" "$WORK/units-installed/"
verify_units "$WORK/units-installed" "installed units"
if make -s -C "$top" BUILD="$BUILD" DESTDIR="$D" PREFIX=/usr uninstall >"$WORK/make.log" 2>&1; then
	ok "make uninstall"; else fail "make uninstall: $(tail -5 "$WORK/make.log")"; fi
left=$(find "$D" -type f -o -type l)
[ -z "$left" ] && ok "uninstall removes the units" || fail "left behind: $left"

# ---- (d) the Windows scheduled task ----
XML="$DEPLOY/windows/wslgpu-smoke.xml"
if have xmllint; then
	xp() { xmllint --xpath "string(/*[local-name()='Task']/$1)" "$XML" 2>/dev/null; }
	if xmllint --noout "$XML" 2>"$WORK/xmllint.err"; then ok "wslgpu-smoke.xml is well formed"; else fail "wslgpu-smoke.xml: $(cat "$WORK/xmllint.err")"; fi
	ns=$(xmllint --xpath 'namespace-uri(/*)' "$XML" 2>/dev/null)
	[ "$ns" = "http://schemas.microsoft.com/windows/2004/02/mit/task" ] && ok "the Task Scheduler namespace" || fail "namespace '$ns'"
	cmd=$(xp "*[local-name()='Actions']/*[local-name()='Exec']/*[local-name()='Command']")
	[ "$cmd" = 'C:\Windows\System32\wsl.exe' ] && ok "the task runs wsl.exe" || fail "the task runs '$cmd'"
	args=$(xp "*[local-name()='Actions']/*[local-name()='Exec']/*[local-name()='Arguments']")
	case "$args" in
	"-d "*" -- /usr/local/bin/wslgpu smoke "*) ok "wsl.exe -d DISTRO -- wslgpu smoke ..." ;;
	*) fail "the task's arguments: '$args'" ;;
	esac
	days=$(xp "*[local-name()='Triggers']/*[local-name()='CalendarTrigger']/*[local-name()='ScheduleByDay']/*[local-name()='DaysInterval']")
	[ "$days" = 1 ] && ok "the task runs daily" || fail "DaysInterval '$days'"
	swa=$(xp "*[local-name()='Settings']/*[local-name()='StartWhenAvailable']")
	[ "$swa" = true ] && ok "a missed day runs when the PC is next on" || fail "StartWhenAvailable '$swa'"
	logon=$(xp "*[local-name()='Principals']/*[local-name()='Principal']/*[local-name()='LogonType']")
	[ "$logon" = InteractiveToken ] && ok "runs as the logged-on user (WSL distributions are per user)" || fail "LogonType '$logon'"
else
	skip_test "xmllint not installed: the scheduled task XML not checked"
fi
for f in "$XML" "$top/doc/fleet.md"; do
	if grep -Fq 'Register-ScheduledTask -Xml (Get-Content .\wslgpu-smoke.xml | Out-String) -TaskName' "$f"; then
		ok "${f##*/} gives the Register-ScheduledTask line"; else fail "${f##*/}: no Register-ScheduledTask line"; fi
done

# ---- (e) the servers ----
for t in prometheus prometheus-pushgateway prometheus-node-exporter python3; do
	if ! have "$t"; then
		skip_test "$t not installed: the alerts and the dashboard are not tested against real servers"
		finish
	fi
done
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY
PIDS=""
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
t_start=$(date +%s)

PGW_PORT=$(free_port)
NE1_PORT=$(free_port)
NE2_PORT=$(free_port)
PROM_PORT=$(free_port)
PGW="http://127.0.0.1:$PGW_PORT"
PROM="http://127.0.0.1:$PROM_PORT"
mkdir -p "$WORK/tf-broken" "$WORK/tf-healthy" "$WORK/tsdb"
# The CHANGE WINDOW (alerts.yml: offset 1h) shortened to WINDOW seconds, so
# that a driver downgrade and a kernel change show within the test.
WINDOW=6
sed "s/offset 1h/offset ${WINDOW}s/g" "$DEPLOY/prometheus/alerts.yml" >"$WORK/alerts.yml"
if grep -q 'offset 1h' "$WORK/alerts.yml" || ! grep -q "offset ${WINDOW}s" "$WORK/alerts.yml"; then
	fail "the change window is not 'offset 1h' any more: update this test"
fi
cat >"$WORK/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $WORK/alerts.yml
scrape_configs:
  - job_name: pushgateway
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$PGW_PORT']
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NE1_PORT']
        labels:
          instance: tf-broken
      - targets: ['127.0.0.1:$NE2_PORT']
        labels:
          instance: tf-healthy
EOF
prometheus-pushgateway --web.listen-address="127.0.0.1:$PGW_PORT" --persistence.file="" >"$WORK/pushgateway.log" 2>&1 &
PIDS="$PIDS $!"
prometheus-node-exporter --web.listen-address="127.0.0.1:$NE1_PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$WORK/tf-broken" >"$WORK/ne1.log" 2>&1 &
PIDS="$PIDS $!"
prometheus-node-exporter --web.listen-address="127.0.0.1:$NE2_PORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$WORK/tf-healthy" >"$WORK/ne2.log" 2>&1 &
PIDS="$PIDS $!"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
	--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
PIDS="$PIDS $!"

# The machines through node_exporter's textfile collector (no server needed yet).
fixture no-dxg
run smoke --prom "$WORK/tf-broken/wslgpu.prom"
[ "$RC" = 1 ] && ok "tf-broken: smoke fails (exit 1)" || fail "tf-broken: smoke exit $RC"
fixture healthy-wsl2
run smoke --prom "$WORK/tf-healthy/wslgpu.prom"
[ "$RC" = 0 ] && ok "tf-healthy: smoke passes" || fail "tf-healthy: smoke exit $RC"

for u in "$PGW/-/ready" "http://127.0.0.1:$NE1_PORT/metrics" "http://127.0.0.1:$NE2_PORT/metrics" "$PROM/-/ready"; do
	if wait_http "$u"; then ok "ready: ${u%/*}"; else
		fail "not ready: $u: $(tail -3 "$WORK"/*.log)"
		finish
	fi
done

push() { # INSTANCE ARGS...: smoke on the current fixture, pushed as INSTANCE
	inst=$1
	shift
	run smoke --push "$PGW" --instance "$inst" "$@"
	if printf '%s\n' "$ERR" | grep -q -- '--push'; then fail "$inst: the push failed: $ERR"; else ok "$inst: pushed (smoke exit $RC)"; fi
}
# ws-changing first: the downgrade later needs WINDOW seconds of its old state.
fixture healthy-wsl2
push ws-changing
t_changing=$(date +%s)
fixture healthy-wsl2
mkdir -p "$ROOT/mnt/c/Windows/System32"
cp "$top/tests/fakes/windows/nvidia-smi.exe" "$top/tests/fakes/windows/wsl.exe" \
	"$top/tests/fakes/windows/reg.exe" "$ROOT/mnt/c/Windows/System32/"
push ws-healthy --windows
fixture no-dxg
push ws-broken
P="$WORK/policy.ini"
printf '[driver]\nmin = 551.23\n' >"$P"
fixture smoke-driver-downgrade
push ws-policy --policy "$P"
fixture healthy-wsl2
setenv FAKE_CUDA_HANG=cuModuleLoadData
# --budget 15: room for the push under a loaded sanitizer run (a quarter is
# kept for it); --timeout 30: the budget, not the probe limit, cuts the hang.
push ws-slow --budget 15 --timeout 30

prom_api() { # PATH [QUERY]: the API's JSON answer, for errors too
	python3 - "$PROM$1" "${2-}" <<'PY'
import sys, urllib.parse, urllib.request, urllib.error
url = sys.argv[1]
if sys.argv[2]:
    url += "?" + urllib.parse.urlencode({"query": sys.argv[2]})
try:
    with urllib.request.urlopen(url, timeout=5) as r:
        sys.stdout.write(r.read().decode())
except urllib.error.HTTPError as e:
    sys.stdout.write(e.read().decode())
except Exception as e:
    sys.stdout.write('{"status":"error","error":%s}' % repr(str(e)).replace("'", '"'))
PY
}
query() { prom_api /api/v1/query "$1"; }
# instances of the result of QUERY, sorted, on one line
instances() { query "$1" | jq -r '[.data.result[]?.metric.instance] | unique | join(" ")'; }
wait_for() { # QUERY: until it returns a series (up to 20 s)
	i=0
	until [ -n "$(query "$1" | jq -r '.data.result[0].metric // empty | tostring')" ]; do
		i=$((i + 1))
		[ $i -ge 80 ] && return 1
		sleep 0.25
	done
}

# every machine is in Prometheus, from both ways in
if wait_for 'count(wslgpu_smoke_last_run_timestamp_seconds) >= 7'; then
	ok "Prometheus holds the seven machines"; else fail "machines in Prometheus: $(instances wslgpu_smoke_last_run_timestamp_seconds)"; fi
got=$(instances 'wslgpu_smoke_success{job="node"}')
[ "$got" = "tf-broken tf-healthy" ] && ok "the textfile machines, through node_exporter" || fail "textfile machines: '$got'"
got=$(instances 'wslgpu_smoke_success{job="wslgpu"}')
[ "$got" = "ws-broken ws-changing ws-healthy ws-policy ws-slow" ] && ok "the pushed machines, with their job and instance" || fail "pushed machines: '$got'"
got=$(query 'node_textfile_scrape_error' | jq -r '[.data.result[].value[1]] | unique | join(" ")')
[ "$got" = 0 ] && ok "node_exporter reads the textfiles without error" || fail "node_textfile_scrape_error: '$got'"
got=$(query 'wslgpu_wsl_info{instance="ws-healthy"}' | jq -r '.data.result[0].metric.version // empty')
[ "$got" = 2.3.26.0 ] && ok "wslgpu_wsl_info from wsl.exe --version" || fail "wslgpu_wsl_info: '$got'"
got=$(query 'wslgpu_driver_version{instance="ws-healthy"}' | jq -r '.data.result[0].value[1] // empty')
[ "$got" = 551023000 ] && ok "wslgpu_driver_version 551.23 = 551023000" || fail "wslgpu_driver_version: '$got'"

# ws-changing a WINDOW later: Windows Update put back an older driver, and
# the kernel was updated.
wait=$((t_changing + WINDOW + 2 - $(date +%s)))
[ "$wait" -gt 0 ] && sleep "$wait"
fixture smoke-driver-downgrade
printf '6.6.87.2-microsoft-standard-WSL2\n' >"$ROOT/proc/sys/kernel/osrelease"
push ws-changing

# The alerts. Pending counts: the rules' for: is minutes, the test seconds.
active() { # ALERTNAME: instances with the alert pending or firing now
	prom_api /api/v1/alerts | jq -r --arg a "$1" \
		'[.data.alerts[] | select(.labels.alertname == $a and (.state == "pending" or .state == "firing")) | .labels.instance] | unique | join(" ")'
}
seen() { # ALERTNAME: instances that had it pending or firing in the last 2 minutes
	instances "max_over_time(ALERTS{alertname=\"$1\"}[2m])"
}
expect_alert() { # ALERTNAME HOW(active|seen) INSTANCES
	i=0
	while got=$("$2" "$1"); [ "$got" != "$3" ] && [ $i -lt 60 ]; do i=$((i + 1)); sleep 0.25; done
	if [ "$got" = "$3" ]; then ok "$1: ${3:-no machine}"; else fail "$1 for '$got', expected '$3'"; fi
}
expect_alert WslgpuSmokeFailing active "tf-broken ws-broken ws-slow"
expect_alert WslgpuPolicyViolation active "ws-policy"
expect_alert WslgpuSmokeBudgetExhausted active "ws-slow"
expect_alert WslgpuDriverDowngrade seen "ws-changing"
expect_alert WslgpuKernelChanged seen "ws-changing"
expect_alert WslgpuSmokeStale seen ""
a=$(prom_api /api/v1/alerts)
got=$(printf '%s' "$a" | jq -r '[.data.alerts[] | select(.labels.alertname == "WslgpuSmokeFailing") | "\(.labels.instance):\(.labels.layer):\(.labels.check):\(.labels.status)"] | sort | join(" ")')
[ "$got" = "tf-broken:bridge:bridge.dxg:fail ws-broken:bridge:bridge.dxg:fail ws-slow:cuda:cuda.kernel:timeout" ] &&
	ok "WslgpuSmokeFailing by layer and check" || fail "WslgpuSmokeFailing labels: $got"
got=$(printf '%s' "$a" | jq -r '.data.alerts[] | select(.labels.alertname == "WslgpuSmokeFailing" and .labels.instance == "ws-broken") | .annotations.description')
case "$got" in
*"first failure is bridge.dxg (bridge layer), knowledge-base entry bridge.dxg.missing (\`wslgpu kb bridge.dxg.missing\`)"*)
	ok "the first failure and its KB entry in the annotation" ;;
*) fail "WslgpuSmokeFailing description: $got" ;;
esac
got=$(printf '%s' "$a" | jq -r '.data.alerts[] | select(.labels.alertname == "WslgpuPolicyViolation") | .annotations.description')
case "$got" in "Failing: policy.driver. "*) ok "the policy alert names policy.driver" ;; *) fail "WslgpuPolicyViolation description: $got" ;; esac
got=$(query 'max_over_time(ALERTS{alertname="WslgpuDriverDowngrade"}[2m])' | jq -r '.data.result | length')
if [ "$got" -ge 1 ]; then
	# the summary, as Alertmanager would get it, from the rule's last firing
	got=$(prom_api /api/v1/rules | jq -r '[.data.groups[].rules[] | select(.name == "WslgpuDriverDowngrade") | .alerts[]?.annotations.summary] | first // empty')
	case "$got" in ""|*"went down from 551.23 to 531.79") ok "downgrade summary: ${got:-(already resolved)}" ;; *) fail "downgrade summary: $got" ;; esac
fi
# the healthy machines: no alert at all, ever
got=$(instances 'max_over_time(ALERTS{instance=~"ws-healthy|tf-healthy"}[5m])')
[ -z "$got" ] && ok "no alert for the healthy machines" || fail "alerts for healthy machines: $got"
# every rule evaluates (a many-to-many join would fail here, not in promtool)
got=$(prom_api /api/v1/rules | jq -r '[.data.groups[].rules[] | select(.health != "ok") | "\(.name): \(.lastError)"] | join("; ")')
n=$(prom_api /api/v1/rules | jq -r '[.data.groups[].rules[]] | length')
[ -z "$got" ] && [ "$n" = 7 ] && ok "all $n rules evaluate" || fail "rules: $n loaded; errors: $got"

# ---- the dashboard's queries, as Grafana would send them ----
# "All" of a multi-value variable is its allValue, .+
grafana_expr() {
	sed -e 's/\${\(job\|instance\)}/.+/g' -e 's/\$\(job\|instance\)\([^A-Za-z0-9_]\)/.+\2/g' \
		-e 's/\$\(job\|instance\)$/.+/'
}
jq -r '.panels[] | .title as $t | .targets[] | "\($t)\t\(.refId)\t\(.expr | gsub("\n"; " "))"' "$DASH" >"$WORK/exprs.tsv"
# one process for all of them: TITLE REF STATUS SERIES ERROR EXPR per line,
# split at \037 (a tab would fold an empty ERROR away)
grafana_expr <"$WORK/exprs.tsv" | python3 -c 'import json, sys, urllib.parse, urllib.request, urllib.error
for line in sys.stdin:
    title, ref, expr = line.rstrip("\n").split("\t", 2)
    url = sys.argv[1] + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            ans = json.load(r)
    except urllib.error.HTTPError as e:
        ans = json.load(e)
    except Exception as e:
        ans = {"status": "error", "error": str(e)}
    n = len((ans.get("data") or {}).get("result") or [])
    print("\037".join([title, ref, ans.get("status", "?"), str(n), ans.get("error", ""), expr]))' "$PROM" >"$WORK/answers.tsv"
nq=0
while IFS="$(printf '\037')" read -r title ref st n err e; do
	nq=$((nq + 1))
	if printf '%s' "$e" | grep -Eq '\$\{?[A-Za-z_]'; then fail "$title $ref: a variable the test does not know: $e"; continue; fi
	if [ "$st" = success ] && [ "$n" -gt 0 ]; then ok "dashboard: $title $ref ($n series)"; else
		fail "dashboard: $title $ref: status $st, $n series, $err: $e"; fi
done <"$WORK/answers.tsv"
[ "$nq" -ge 20 ] && ok "$nq dashboard queries run" || fail "only $nq dashboard queries"
# the variables' label_values(SELECTOR, LABEL), as group by (LABEL) (SELECTOR)
jq -r '.templating.list[] | select(.type == "query") | .definition' "$DASH" | while IFS= read -r def; do
	e=$(printf '%s' "$def" | grafana_expr | sed -n 's/^label_values(\(.*\), *\([a-z_]*\))$/group by (\2) (\1)/p')
	n=$(query "$e" | jq -r '.data.result | length')
	if [ "${n:-0}" -gt 0 ]; then ok "dashboard variable: $def"; else fail "dashboard variable $def: $e gave ${n:-nothing}"; fi
done
# the machine table: one row per machine, with the right first failure
got=$(query 'max by (instance, check, kb) (wslgpu_smoke_first_failure_info{instance="ws-broken"})' | jq -r '.data.result[0].metric | "\(.check) \(.kb)"')
[ "$got" = "bridge.dxg bridge.dxg.missing" ] && ok "table: ws-broken's first failure bridge.dxg (bridge.dxg.missing)" || fail "first failure: $got"

# ---- retiring a machine: --push-delete ----
OUT=$("$WSLGPU" smoke --push-delete "$PGW" --instance ws-broken 2>"$WORK/err"); RC=$?
ERR=$(cat "$WORK/err")
expect_rc 0
expect_line "^smoke: deleted the group job=wslgpu instance=ws-broken from the Pushgateway at $PGW\$"
if http_get "$PGW/metrics" | grep -q 'instance="ws-broken"'; then fail "ws-broken still on the Pushgateway"; else ok "ws-broken's group is gone from the Pushgateway"; fi
if http_get "$PGW/metrics" | grep -q 'instance="ws-policy"'; then ok "the other groups stay"; else fail "ws-policy's group went too"; fi
i=0
while [ -n "$(instances 'wslgpu_smoke_success{instance="ws-broken"}')" ] && [ $i -lt 40 ]; do i=$((i + 1)); sleep 0.25; done
[ $i -lt 40 ] && ok "Prometheus no longer sees ws-broken" || fail "ws-broken still in Prometheus"

echo "# servers part: $(($(date +%s) - t_start)) s"
finish
