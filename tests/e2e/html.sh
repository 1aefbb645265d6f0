#!/bin/sh
# html.sh: `wslgpu report --html` and `wslgpu history --html`, one
# self-contained page each: no script, no request, every machine text
# escaped (a hostile data path must not become markup), the state
# directory's watch chart and bench results shown, the history timeline
# with its kernel change marked; then, where Debian's chromium is
# installed, the page rendered headless: a screenshot, and the verdict in
# the DOM chromium built.
. "$(dirname "$0")/lib.sh"

STATE="$WORK/state"
mkdir -p "$STATE/wslgpu"
setstate() { setenv "XDG_STATE_HOME=$STATE"; }
page_ok() { # FILE: self-contained, no script, no outside reference
	if grep -Eqi '<script|src="(https?:|//)|href="(https?:|//)|@import|url\(' "$1"; then
		fail "$1 loads or runs something: $(grep -Eoi '<script[^>]*>|(src|href)="[^"]*"|@import|url\([^)]*\)' "$1" | head -3)"
	else ok "$1: no script, no outside reference"; fi
	if head -1 "$1" | grep -q '^<!DOCTYPE html>' && tail -1 "$1" | grep -q '^</html>$'; then
		ok "$1 is one whole page"
	else fail "$1 is not a whole page"; fi
}

# ---- history: two recorded runs of one machine, the kernel changed ----
fixture healthy-wsl2
setstate
run smoke --record
expect_rc 0
printf '6.6.87.2-microsoft-standard-WSL2\n' >"$ROOT/proc/sys/kernel/osrelease"
sed -i 's/5\.15\.167\.4-microsoft-standard-WSL2/6.6.87.2-microsoft-standard-WSL2/' "$ROOT/proc/version"
run smoke --record
expect_rc 0
run history --html
expect_rc 0
printf '%s\n' "$OUT" >"$WORK/history.html"
page_ok "$WORK/history.html"
expect_line '<svg xmlns="http://www.w3.org/2000/svg"'
expect_line '>kernel</text>'
expect_line 'kernel 5\.15\.167\.4-microsoft-standard-WSL2 → 6\.6\.87\.2-microsoft-standard-WSL2'
run history --html --json
expect_rc 2

# ---- report --html: a broken machine, a hostile path in a finding ----
fixture no-dxg
setstate
# A watch chart and bench results kept in the state directory.
cat >"$STATE/wslgpu/watch.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="5" height="5"/></svg>
SVG
cat >"$STATE/wslgpu/bench.csv" <<'CSV'
bench,target,metric,stat,size_bytes,value,unit
io,/data,seq_read,rate,1073741824,2147483648,B/s
io,/mnt/c/data,seq_read,rate,1073741824,104857600,B/s
gpu,0,h2d,rate,268435456,12000000000,B/s
CSV
hostile='<img src=x onerror=alert(1)><script>alert(2)</script>'
mkdir -p "$WORK/$hostile"
run report --html -o "$WORK/report.html" --data "$WORK/$hostile/missing"
page_ok "$WORK/report.html"
if grep -q 'onerror=alert' "$WORK/report.html" && ! grep -q '&lt;img src=x onerror=alert(1)&gt;' "$WORK/report.html"; then
	fail "the hostile path reached the page unescaped"
elif grep -q '&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;' "$WORK/report.html"; then
	ok "the hostile path is shown, escaped"
else fail "the hostile path is not on the page: $(grep -c missing "$WORK/report.html")"; fi
if grep -q 'id="verdict">✗' "$WORK/report.html"; then ok "the verdict: broken"; else fail "no verdict on the page"; fi
if grep -q '<article class="finding fail">' "$WORK/report.html" && grep -q '<b>Fix:</b>' "$WORK/report.html"; then
	ok "findings with their fixes"
else fail "no finding with a fix"; fi
# The chart as an image (an image runs no script), the bench as bars.
if grep -q '<img alt="watch chart" src="data:image/svg+xml;base64,' "$WORK/report.html"; then ok "watch chart inlined as an image"
else fail "no watch chart"; fi
if [ "$(grep -c '<rect width=' "$WORK/report.html")" -ge 3 ]; then ok "bench bars"; else fail "no bench bars"; fi
# Without anything in the state directory: said, nothing made up.
rm -f "$STATE/wslgpu/watch.svg" "$STATE/wslgpu/bench.csv"
run report --html -o -
expect_line 'No chart: <code>wslgpu watch --svg'
expect_line 'No results: <code>wslgpu bench --csv'

# ---- a real browser ----
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "skip: chromium is not installed (Debian package chromium): the page is not rendered"
else
	cr() { timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$WORK/chromium" --disable-dev-shm-usage "$@" 2>>"$WORK/chromium.log"; }
	t0=$(date +%s.%N)
	(cd "$WORK" && cr --window-size=1000,2000 --screenshot="$WORK/report.png" "file://$WORK/report.html") >/dev/null
	t1=$(date +%s.%N)
	if [ -s "$WORK/report.png" ] && [ "$(head -c 8 "$WORK/report.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
		ok "chromium rendered the page to a PNG ($(wc -c <"$WORK/report.png") bytes, $(echo "$t1 $t0" | awk '{printf "%.1f", $1 - $2}') s)"
	else fail "no screenshot: $(tail -3 "$WORK/chromium.log")"; fi
	cr --dump-dom "file://$WORK/report.html" >"$WORK/dom.html"
	if grep -q 'id="verdict">✗ ' "$WORK/dom.html"; then ok "chromium's DOM holds the verdict"
	else fail "the verdict is not in chromium's DOM: $(head -c 300 "$WORK/dom.html")"; fi
	if grep -qi '<script' "$WORK/dom.html"; then fail "chromium's DOM has a script element"
	else ok "chromium's DOM has no script element"; fi
	cr --dump-dom "file://$WORK/history.html" >"$WORK/hdom.html"
	if grep -q '>kernel</text>' "$WORK/hdom.html"; then ok "chromium renders the history timeline"
	else fail "the timeline is not in chromium's DOM"; fi
fi

done_testing
