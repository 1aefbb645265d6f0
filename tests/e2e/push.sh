# push.sh: smoke --push's time limit, instance and messages. A gateway that
# accepts and never answers must be given up within --timeout (not 10 s
# whatever it says) and within the budget; under --root the instance is
# the described machine's /etc/hostname, not this host's name; a URL with
# a query is refused without repeating it.
. "$(dirname "$0")/lib.sh"
fixture no-dxg

# A gateway that accepts connections and never answers.
slow_port=$(free_port)
python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8)
open(sys.argv[2], "w").close()
conns = []
end = time.time() + 120
while time.time() < end:
    c, _ = s.accept(); conns.append(c)' "$slow_port" "$WORK/slow.ready" &
SLOW_PID=$!
# A gateway that answers 200 and writes down each request's method and path.
ok_port=$(free_port)
python3 -c 'import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        n = int(self.headers.get("Content-Length", 0)); self.rfile.read(n)
        open(sys.argv[2], "a").write("PUT " + self.path + "\n")
        self.send_response(200); self.end_headers()
    do_DELETE = do_PUT
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H)
open(sys.argv[3], "w").close()
s.serve_forever()' "$ok_port" "$WORK/requests" "$WORK/ok.ready" &
OK_PID=$!
trap 'kill $SLOW_PID $OK_PID 2>/dev/null; rm -rf "$WORK"' EXIT INT TERM
i=0
while { [ ! -e "$WORK/slow.ready" ] || [ ! -e "$WORK/ok.ready" ]; } && [ $i -lt 100 ]; do
	i=$((i + 1)); sleep 0.1
done

# What this machine needs now (it may be busy), timed just before: smoke
# without a push, and the binary's start and exit alone.
run smoke
ref=$SECS
run --version
start=$SECS
# --timeout bounds the push: twice the smoke without it, the 2 s limit and
# 2 s; not the 10 s default.
run smoke --timeout 2 --push "http://127.0.0.1:$slow_port"
expect_rc 1
expect_err "did not answer within 2 s"
if awk -v s="$SECS" -v r="$ref" 'BEGIN { exit !(s < 2 * r + 2 + 2 && s < r + 10) }'; then
	ok "push given up at --timeout 2 ($SECS s, $ref s without a push)"
else fail "push with --timeout 2 took $SECS s, $ref s without a push"; fi
# So does the budget: 3 s, 2 s, twice a start and exit.
run smoke --budget 3 --push "http://127.0.0.1:$slow_port"
expect_rc 1
if awk -v s="$SECS" -v t="$start" 'BEGIN { exit !(s < 3 + 2 + 2 * t) }'; then
	ok "push within --budget 3 ($SECS s; a start and exit take $start s)"
else fail "push with --budget 3 took $SECS s (a start and exit take $start s)"; fi
# And --push-delete takes --timeout.
run smoke --push-delete "http://127.0.0.1:$slow_port" --timeout 1
expect_rc 1
expect_err "did not answer within 1 s"

# Under --root: the described machine's /etc/hostname names the instance.
printf '# the lab machine\nws-lab-07\n' >"$ROOT/etc/hostname"
: >"$WORK/requests"
run smoke --push "http://127.0.0.1:$ok_port"
expect_file() { if grep -q "$1" "$WORK/requests"; then ok "$2"; else fail "$2: $(cat "$WORK/requests")"; fi; }
expect_file '^PUT /metrics/job/wslgpu/instance/ws-lab-07$' "instance from the described machine's /etc/hostname"
if grep -q "/instance/$(hostname)\$" "$WORK/requests"; then fail "this host's name was pushed"; else ok "not this host's name"; fi
# Without one: "unknown", and a warning asking for --instance.
rm "$ROOT/etc/hostname"
: >"$WORK/requests"
run smoke --push "http://127.0.0.1:$ok_port"
expect_err 'names no host \(no /etc/hostname\): the Pushgateway instance is "unknown"; give it with --instance NAME'
expect_file '^PUT /metrics/job/wslgpu/instance/unknown$' "instance unknown without /etc/hostname"
run smoke --push "http://127.0.0.1:$ok_port" --instance asset-42
expect_file '^PUT /metrics/job/wslgpu/instance/asset-42$' "--instance wins"

# A URL with a query is refused, and the query is not repeated.
run smoke --push "http://127.0.0.1:$ok_port/?token=s3cr3t-t0ken" --json
expect_rc 1
expect_err "--push http://127\.0\.0\.1:$ok_port/\\?<query>: the URL may not contain a query"
if printf '%s\n%s\n' "$OUT" "$ERR" | grep -q 's3cr3t-t0ken'; then fail "the token was printed"
else ok "the token is not printed"; fi
run smoke --push "http://u:pw-s3cr3t@127.0.0.1:$ok_port/#frag-s3cr3t"
if printf '%s\n' "$ERR" | grep -q 's3cr3t'; then fail "a secret was printed: $ERR"; else ok "credentials and fragment not printed"; fi

done_testing
