# history.sh: `wslgpu history` on real database files -- one built here with
# the sqlite3 command-line tool in the documented schema (two machines, a
# driver downgrade that broke cuda.kernel), empty, missing, foreign and
# non-SQLite files -- and the whole path: smoke --record --db on a fixture,
# the driver downgraded, smoke again, history --changes naming the
# downgrade; two concurrent recorders; a recorder killed with SIGKILL.
. "$(dirname "$0")/lib.sh"
FIXTURE=history

# h ARGS...: runs wslgpu history ARGS in a clean environment (UTC, so that
# the local times printed are predictable; 1000 columns wide as in lib.sh's
# run, so that lines are asserted whole); sets $OUT, $ERR, $RC.
h() {
	# shellcheck disable=SC2086
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 TZ=UTC COLUMNS=1000 $H_ENV \
		"$WSLGPU" history "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	OUT=$(cat "$WORK/out")
	ERR=$(cat "$WORK/err")
}
H_ENV=""
hjson() {
	json_settle
	h --json "$@"
	JSON="$WORK/out.json"
	cp "$WORK/out" "$JSON"
	jq -e . "$JSON" >/dev/null 2>&1 || fail "output is not valid JSON"
}
same_bytes() { # FILE SUM: the file still has the checksum taken before
	if [ "$(sha256sum <"$1")" = "$2" ]; then ok "$(basename "$1") unchanged"
	else fail "$(basename "$1") was modified"; fi
}
mkdir -p "$WORK/home"

# ---- a database in the documented schema, written by sqlite3 ----
DB="$WORK/fleet.db"
A=3f2a9c1e0b7d4a55
B=77aa00bb11cc22dd
sqlite3 "$DB" >/dev/null <<EOF
PRAGMA journal_mode=WAL;
CREATE TABLE runs(id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, duration_ms REAL NOT NULL,
  command TEXT NOT NULL, exit_status INTEGER NOT NULL, machine TEXT NOT NULL,
  tool_version TEXT NOT NULL, policy_path TEXT, verdict TEXT NOT NULL, first_failure TEXT);
CREATE INDEX runs_by_time ON runs(started_at);
CREATE INDEX runs_by_machine ON runs(machine, started_at);
CREATE TABLE checks(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL, check_id TEXT NOT NULL, status TEXT NOT NULL, kb TEXT,
  detail TEXT NOT NULL, ms REAL, PRIMARY KEY(run_id, check_id)) WITHOUT ROWID;
CREATE TABLE facts(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY(run_id, key)) WITHOUT ROWID;
PRAGMA application_id=2001162325;
PRAGMA user_version=1;
INSERT INTO runs VALUES(1,'2025-11-03T09:00:00Z',2100,'smoke',0,'$A','0.1.0',NULL,'ok',NULL);
INSERT INTO runs VALUES(2,'2025-11-05T09:00:00Z',1900,'smoke',0,'$B','0.1.0',NULL,'ok',NULL);
INSERT INTO runs VALUES(3,'2025-11-10T09:00:00Z',2300,'smoke',1,'$A','0.1.0','/etc/wslgpu/policy.ini','fail','frameworks.torch');
INSERT INTO checks VALUES(1,0,'platform.kind','pass',NULL,'WSL2 (kernel 5.15.167.4-microsoft-standard-WSL2)',1);
INSERT INTO checks VALUES(1,17,'cuda.init','pass',NULL,'CUDA 13.0 driver, 1 device',3);
INSERT INTO checks VALUES(1,26,'frameworks.torch','pass',NULL,'PyTorch 2.9.0+cu130 runs on the GPU',900);
INSERT INTO checks VALUES(2,0,'platform.kind','pass',NULL,'WSL2',1);
INSERT INTO checks VALUES(3,0,'platform.kind','pass',NULL,'WSL2 (kernel 6.6.87.2-microsoft-standard-WSL2)',1);
INSERT INTO checks VALUES(3,17,'cuda.init','pass',NULL,'CUDA 12.7 driver, 1 device',3);
INSERT INTO checks VALUES(3,26,'frameworks.torch','fail','frameworks.torch.driver_too_old','PyTorch 2.9.0+cu130 is built for CUDA 13.0; the driver supports CUDA 12.7',800);
INSERT INTO facts VALUES(1,0,'platform','wsl2');
INSERT INTO facts VALUES(1,1,'kernel','5.15.167.4-microsoft-standard-WSL2');
INSERT INTO facts VALUES(1,3,'driver.version','580.88');
INSERT INTO facts VALUES(1,4,'driver.cuda','13.0');
INSERT INTO facts VALUES(1,12,'torch','2.9.0+cu130');
INSERT INTO facts VALUES(2,0,'platform','wsl2');
INSERT INTO facts VALUES(2,3,'driver.version','580.88');
INSERT INTO facts VALUES(3,0,'platform','wsl2');
INSERT INTO facts VALUES(3,1,'kernel','6.6.87.2-microsoft-standard-WSL2');
INSERT INTO facts VALUES(3,3,'driver.version','566.36');
INSERT INTO facts VALUES(3,4,'driver.cuda','12.7');
INSERT INTO facts VALUES(3,12,'torch','2.9.0+cu130');
EOF
SUM=$(sha256sum <"$DB")

h --db "$DB"
expect_rc 0
expect_line '^run +when +machine +verdict +problems +driver +kernel$'
expect_line '^ *1  Mon 3 Nov 2025 09:00 +3f2a9c1e0b7d4a55  ✓ ok +- +580\.88 +5\.15\.167\.4-microsoft-standard-WSL2$'
expect_line '^ *3  Mon 10 Nov 2025 09:00 +3f2a9c1e0b7d4a55  ✗ fail +frameworks\.torch +566\.36 +6\.6\.87\.2-microsoft-standard-WSL2$'
expect_line '^3 runs of 2 machines in .*fleet\.db\. What changed: wslgpu history --changes$'

h --db "$DB" --limit 1
expect_rc 0
expect_line '^ *3  Mon 10 Nov 2025'
expect_no_line '^ *1  Mon 3 Nov'
h --db "$DB" --machine 77AA
expect_line '^ *2  Wed 5 Nov 2025 09:00 +77aa00bb11cc22dd  ✓ ok'
expect_line '^1 run of 1 machine'
h --db "$DB" --since 2025-11-04
expect_line '^2 runs of 2 machines'
h --db "$DB" --since 100000w
expect_line '^3 runs'

# What changed: the downgrade with its explanation, the check it broke.
h --db "$DB" --changes
expect_rc 0
expect_line '^Mon 3 Nov 2025 09:00 → Mon 10 Nov 2025 09:00  \(machine 3f2a9c1e0b7d4a55, runs 1 → 3\)$'
expect_line '^  ! Windows driver 580\.88 → 566\.36: a downgrade — a Windows update may have reinstalled an older \(OEM\) driver$'
expect_line '^      cause  The Windows driver went from 580\.88 to 566\.36: a downgrade\. On WSL the driver is the Windows one'
expect_line '^      fix    # install the current NVIDIA driver'
expect_line 'Do not include drivers with Windows Updates'
expect_line '^  ! CUDA the driver supports 13\.0 → 12\.7: a downgrade$'
expect_line '^  · kernel 5\.15\.167\.4-microsoft-standard-WSL2 → 6\.6\.87\.2-microsoft-standard-WSL2: an upgrade — WSL or the kernel was updated$'
expect_line '^      more   wslgpu kb history\.kernel_changed$'
expect_line '^  ✗ frameworks\.torch pass → fail: broke — PyTorch 2\.9\.0\+cu130 is built for CUDA 13\.0; the driver supports CUDA 12\.7$'
expect_line '^      more   wslgpu kb frameworks\.torch\.driver_too_old$'
expect_no_line 'cuda\.init'
expect_no_line '· PyTorch'
expect_line '^4 changes; 3 runs of 2 machines in '

hjson --db "$DB" --changes
expect_rc 0
expect_json '.schema == "wslgpu/history-changes/1"'
expect_json '.runs == 3 and .machines == 2 and (.transitions | length) == 1'
expect_json '.transitions[0].from.id == 1 and .transitions[0].to.id == 3'
expect_json '.transitions[0].changes[] | select(.key == "driver.version") | .how == "downgrade" and .kb == "history.driver_downgrade" and .old == "580.88" and .new == "566.36" and .label == "Windows driver"'
expect_json '.transitions[0].changes[] | select(.key == "frameworks.torch") | .kind == "check" and .how == "broke" and .old == "pass" and .new == "fail" and .kb == "frameworks.torch.driver_too_old"'
expect_json '[.transitions[0].changes[].key] == ["driver.version", "driver.cuda", "frameworks.torch", "kernel"]'

hjson --db "$DB"
expect_json '.schema == "wslgpu/history/1" and (.runs | length) == 3'
expect_json '.runs[0].facts["driver.version"] == "580.88" and .runs[0].verdict == "ok"'
expect_json '.runs[2].failing == ["frameworks.torch"] and .runs[2].first_failure == "frameworks.torch"'
expect_json '.runs[2].policy == "/etc/wslgpu/policy.ini" and .runs[2].exit_status == 1'
expect_json '.runs[2].checks[2] == {"id":"frameworks.torch","status":"fail","kb":"frameworks.torch.driver_too_old","detail":"PyTorch 2.9.0+cu130 is built for CUDA 13.0; the driver supports CUDA 12.7"}'

# A global --root before the command is accepted and ignored.
env -i PATH=/usr/bin:/bin TZ=UTC "$WSLGPU" --root /nonexistent history --db "$DB" >"$WORK/out" 2>&1
RC=$?
OUT=$(cat "$WORK/out")
expect_rc 0
expect_line '^3 runs of 2 machines'
# Reading never writes.
same_bytes "$DB" "$SUM"

# ---- nothing recorded yet ----
H_ENV="XDG_STATE_HOME=$WORK/state"
h
expect_rc 0
expect_line "^No runs recorded yet in $WORK/state/wslgpu/history\.db\.$"
h --changes --json
expect_rc 0
expect_line '"transitions":\[\]'
[ ! -e "$WORK/state" ] && ok "history created nothing" || fail "history created $WORK/state"
H_ENV=""
: >"$WORK/empty.db"
h --db "$WORK/empty.db"
expect_rc 0
expect_line '^No runs recorded yet'

# ---- files that are not our database: exit 1, left as they were ----
h --db "$WORK/nope.db"
expect_rc 1
expect_err 'nope\.db: no such database'
[ ! -e "$WORK/nope.db" ] && ok "no file made" || fail "history created nope.db"

printf 'shopping list\n\001\002 eggs\n' >"$WORK/notes.db"
S=$(sha256sum <"$WORK/notes.db")
h --db "$WORK/notes.db" --changes
expect_rc 1
expect_err 'notes\.db is not an SQLite database \(so not a wslgpu history\); left untouched'
same_bytes "$WORK/notes.db" "$S"
[ ! -e "$WORK/notes.db-wal" ] && ok "no -wal beside it" || fail "a -wal appeared"

sqlite3 "$WORK/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES(1);"
S=$(sha256sum <"$WORK/other.db")
h --db "$WORK/other.db"
expect_rc 1
expect_err 'other\.db is an SQLite database of another program \(application_id 0x00000000, 1 schema objects\), not a wslgpu history; left untouched'
same_bytes "$WORK/other.db" "$S"

cp "$DB" "$WORK/newer.db"
sqlite3 "$WORK/newer.db" "PRAGMA user_version=7;"
h --db "$WORK/newer.db"
expect_rc 1
expect_err 'newer wslgpu \(schema 7; this one knows 1\)'

# ---- the limit is said: a database of 41 runs shown 20 at a time ----
cp "$DB" "$WORK/many.db"
sqlite3 "$WORK/many.db" "WITH RECURSIVE n(i) AS (SELECT 4 UNION ALL SELECT i + 1 FROM n WHERE i < 41)
INSERT INTO runs SELECT i, printf('2025-12-%02dT09:00:00Z', i - 10), 2000, 'smoke', 0, '$A', '0.1.0',
NULL, 'ok', NULL FROM n;"
h --db "$WORK/many.db"
expect_rc 0
expect_line '^The latest 20 of 41 runs \(--limit 0 for all\), of 1 machine \(2 in all\) in .*many\.db\. What changed: wslgpu history --changes$'
h --db "$WORK/many.db" --limit 0
expect_line '^41 runs of 2 machines in '
h --db "$WORK/many.db" --changes --limit 5
expect_line '^Nothing changed: the latest 5 of 41 runs \(--limit 0 for all\), of 1 machine \(2 in all\) in '
hjson --db "$WORK/many.db"
expect_json '(.runs | length) == 20 and .total.runs == 41 and .total.machines == 2'
expect_json '.runs[0].id == 22 and .runs[19].id == 41'
hjson --db "$WORK/many.db" --changes --limit 0
expect_json '.runs == 41 and .machines == 2 and .total.runs == 41'

# ---- foreign files are judged by their header: SQLite never opens them ----
# Another program's database in WAL mode: opening it with SQLite would
# create -wal and -shm beside it.
sqlite3 "$WORK/walother.db" "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES(1);" >/dev/null
rm -f "$WORK/walother.db-wal" "$WORK/walother.db-shm"
S=$(sha256sum <"$WORK/walother.db")
h --db "$WORK/walother.db"
expect_rc 1
expect_err 'walother\.db is an SQLite database of another program \(application_id 0x00000000, 1 schema objects\)'
h --db "$WORK/walother.db" --changes --json
expect_rc 1
[ ! -e "$WORK/walother.db-wal" ] && [ ! -e "$WORK/walother.db-shm" ] && ok "no -wal/-shm beside a foreign WAL database" \
	|| fail "history left $(ls "$WORK" | grep walother | tr '\n' ' ')"
same_bytes "$WORK/walother.db" "$S"
sqlite3 "$WORK/appid.db" "PRAGMA journal_mode=WAL; PRAGMA application_id=1234; CREATE TABLE t(x);" >/dev/null
rm -f "$WORK/appid.db-wal" "$WORK/appid.db-shm"
h --db "$WORK/appid.db"
expect_rc 1
expect_err 'another program \(application_id 0x000004d2, 1 schema objects\)'
[ ! -e "$WORK/appid.db-shm" ] && ok "no -shm beside it either" || fail "-shm beside appid.db"
# A file cut short: SQLite finds it damaged.
head -c 5000 "$DB" >"$WORK/cut.db"
h --db "$WORK/cut.db"
expect_rc 1
expect_err 'cut\.db is damaged or not a database'

# ---- a WAL database in a directory the reader may not write ----
# (the fleet's shared copy): read immutable, nothing written.
mkdir -p "$WORK/ro"
cp "$DB" "$WORK/ro/fleet.db"
rm -f "$WORK/ro/fleet.db-wal" "$WORK/ro/fleet.db-shm"
chmod 755 "$WORK" "$WORK/ro"
chmod 644 "$WORK/ro/fleet.db"
chmod 555 "$WORK/ro"
as_user() { # runs history as an ordinary user (root writes anywhere)
	if [ "$(id -u)" = 0 ]; then
		env -i PATH=/usr/bin:/bin HOME=/nonexistent TZ=UTC setpriv --reuid=65534 --regid=65534 \
			--clear-groups "$WSLGPU" history "$@" >"$WORK/out" 2>"$WORK/err"
	else
		env -i PATH=/usr/bin:/bin HOME=/nonexistent TZ=UTC "$WSLGPU" history "$@" \
			>"$WORK/out" 2>"$WORK/err"
	fi
	RC=$?
	OUT=$(cat "$WORK/out")
	ERR=$(cat "$WORK/err")
}
as_user --db "$WORK/ro/fleet.db"
expect_rc 0
expect_line '^3 runs of 2 machines in '
as_user --db "$WORK/ro/fleet.db" --changes
expect_rc 0
expect_line '^4 changes; 3 runs of 2 machines in '
[ "$(ls "$WORK/ro")" = fleet.db ] && ok "nothing created in the read-only directory" || fail "created: $(ls "$WORK/ro")"
# With runs still in its write-ahead log, it cannot be read there: said so.
chmod 755 "$WORK/ro"
python3 - "$WORK/ro/fleet.db" <<'PY'
import sqlite3, sys, os
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("INSERT INTO runs VALUES(9,'2025-11-20T09:00:00Z',1,'smoke',0,'77aa00bb11cc22dd','0.1.0',NULL,'ok',NULL)")
c.commit()
os._exit(0)  # no close: the log stays unmerged, as a killed writer leaves it
PY
rm -f "$WORK/ro/fleet.db-shm"
chmod 555 "$WORK/ro"
as_user --db "$WORK/ro/fleet.db"
expect_rc 1
expect_err 'write-ahead log .* holds runs not yet merged into it'
chmod 755 "$WORK/ro"

# ---- usage ----
for bad in "--limit x" "--limit -1" "--since yesterday" "--machine xyz" "--bogus" "extra"; do
	# shellcheck disable=SC2086
	h --db "$DB" $bad
	if [ "$RC" = 2 ]; then ok "usage error for '$bad'"; else fail "'$bad' exited $RC, expected 2"; fi
done
h --help
expect_rc 0
expect_line '^usage: wslgpu history'

# ---- a downgrade's fix lines, chosen for the later run's platform ----
# As check chose them on that run (finding_for_platform): a kernel
# downgrade on native Linux shows no WSL step (wsl.exe --version), the same
# downgrade on WSL2 keeps it. The fleet's schema, with runs of its own.
PDB="$WORK/platforms.db"
sqlite3 "$DB" ".backup '$PDB'"
N=1111aaaa2222bbbb
W=3333cccc4444dddd
sqlite3 "$PDB" >/dev/null <<EOF
DELETE FROM facts; DELETE FROM checks; DELETE FROM runs;
INSERT INTO runs VALUES(1,'2025-11-03T09:00:00Z',2100,'smoke',0,'$N','0.1.0',NULL,'ok',NULL);
INSERT INTO runs VALUES(2,'2025-11-10T09:00:00Z',2100,'smoke',0,'$N','0.1.0',NULL,'ok',NULL);
INSERT INTO runs VALUES(3,'2025-11-03T09:00:00Z',2100,'smoke',0,'$W','0.1.0',NULL,'ok',NULL);
INSERT INTO runs VALUES(4,'2025-11-10T09:00:00Z',2100,'smoke',0,'$W','0.1.0',NULL,'ok',NULL);
INSERT INTO facts VALUES(1,0,'platform','native');
INSERT INTO facts VALUES(1,1,'kernel','6.8.0-45-generic');
INSERT INTO facts VALUES(2,0,'platform','native');
INSERT INTO facts VALUES(2,1,'kernel','6.5.0-44-generic');
INSERT INTO facts VALUES(3,0,'platform','wsl2');
INSERT INTO facts VALUES(3,1,'kernel','6.6.87.2-microsoft-standard-WSL2');
INSERT INTO facts VALUES(4,0,'platform','wsl2');
INSERT INTO facts VALUES(4,1,'kernel','5.15.167.4-microsoft-standard-WSL2');
EOF
h --db "$PDB" --changes --machine "$N"
expect_rc 0
expect_line '^  ! kernel 6\.8\.0-45-generic → 6\.5\.0-44-generic: a downgrade'
expect_line '^      fix    wslgpu check --only platform,bridge'
expect_no_line 'wsl\.exe|PowerShell'
h --db "$PDB" --changes --machine "$W"
expect_rc 0
expect_line '^  ! kernel 6\.6\.87\.2-microsoft-standard-WSL2 → 5\.15\.167\.4-microsoft-standard-WSL2: a downgrade'
expect_line '^             wsl\.exe --version   # on WSL, in PowerShell'

# ---- the whole path, through wslgpu smoke --record ----
fixture healthy-wsl2
printf '0123456789abcdef0123456789abcdef\n' >"$ROOT/etc/machine-id"
SDB="$WORK/smoke/history.db"
setenv TZ=UTC
run smoke --record --db "$SDB"
[ -f "$SDB" ] && ok "smoke --db created the database" || fail "smoke --db made no database ($ERR)"
[ "$(stat -c %a "$SDB" 2>/dev/null)" = 600 ] && ok "database is 0600" || fail "database mode $(stat -c %a "$SDB")"
[ "$(stat -c %a "$WORK/smoke" 2>/dev/null)" = 700 ] && ok "directory is 0700" || fail "directory mode"
hjson --db "$SDB"
expect_json '(.runs | length) == 1 and .runs[0].command == "smoke"'
# reading leaves no -wal or -shm file beside the database
for f in "$SDB-wal" "$SDB-shm"; do
	if [ -e "$f" ]; then fail "history --db left $f"; else ok "history --db left no ${f##*-} file"; fi
done
expect_json '.runs[0].facts["driver.version"] == "551.23" and .runs[0].facts.platform == "wsl2"'
expect_json '.runs[0].machine | test("^[0-9a-f]{16}$")'
expect_json '[.runs[0].machine] | inside(["0123456789abcdef"]) | not'
if sqlite3 "$SDB" "SELECT detail FROM checks UNION ALL SELECT value FROM facts" | grep -q alice; then
	fail "a user name was stored"
else
	ok "no user name stored"
fi

# A week later Windows Update has put back the OEM driver 531.79: the same
# machine (same machine-id), described by the smoke-driver-downgrade fixture.
fixture smoke-driver-downgrade
printf '0123456789abcdef0123456789abcdef\n' >"$ROOT/etc/machine-id"
setenv TZ=UTC
run smoke --record --db "$SDB"
h --db "$SDB" --changes
expect_rc 0
expect_line '^  ! Windows driver 551\.23 → 531\.79: a downgrade — a Windows update may have reinstalled an older \(OEM\) driver$'
expect_line '^  ! CUDA the driver supports 12\.4 → 12\.1: a downgrade$'
expect_line '^2 changes; 2 runs of 1 machine in '
hjson --db "$SDB" --changes
expect_json '.transitions[0].changes[] | select(.key == "driver.version") | .how == "downgrade"'

# Two recorders at once: both runs land, the database stays consistent.
before=$(sqlite3 "$SDB" "SELECT count(*) FROM runs")
for i in 1 2; do
	env -i PATH=/usr/bin:/bin HOME="$WORK/home" "$WSLGPU" --root "$ROOT" smoke --record --db "$SDB" \
		>"$WORK/par$i.out" 2>&1 &
done
wait
after=$(sqlite3 "$SDB" "SELECT count(*) FROM runs")
[ "$after" = $((before + 2)) ] && ok "two concurrent runs recorded" || fail "runs $before -> $after"
[ "$(sqlite3 "$SDB" 'PRAGMA integrity_check')" = ok ] && ok "integrity_check ok" || fail "integrity_check"

# A recorder killed with SIGKILL at some moment: whatever it did, every
# earlier run is still there and the database is consistent.
env -i PATH=/usr/bin:/bin HOME="$WORK/home" "$WSLGPU" --root "$ROOT" smoke --record --db "$SDB" \
	>/dev/null 2>&1 &
pid=$!
sleep 0.$(( $(od -An -N1 -tu1 /dev/urandom) % 9 + 1 ))
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ "$(sqlite3 "$SDB" 'PRAGMA integrity_check')" = ok ] && ok "integrity_check ok after kill -9" || fail "integrity after kill"
n=$(sqlite3 "$SDB" "SELECT count(*) FROM runs")
[ "$n" -ge "$after" ] && ok "no run lost after kill -9" || fail "runs $after -> $n after kill -9"
h --db "$SDB"
expect_rc 0

# A damaged page where the next run goes: refused, the file left byte for
# byte (SQLite's own page checks on the insert's path; no whole-file scan).
cp "$SDB" "$WORK/dmg.db"
sqlite3 "$WORK/dmg.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
ps=$(sqlite3 "$WORK/dmg.db" "PRAGMA page_size")
root=$(sqlite3 "$WORK/dmg.db" "SELECT rootpage FROM sqlite_master WHERE name = 'runs'")
rm -f "$WORK/dmg.db-wal" "$WORK/dmg.db-shm"
printf '\132%.0s' $(seq "$ps") | dd of="$WORK/dmg.db" bs="$ps" seek=$((root - 1)) conv=notrunc 2>/dev/null
S=$(sha256sum <"$WORK/dmg.db")
run smoke --only platform --record --db "$WORK/dmg.db"
expect_err 'dmg\.db is damaged or not a database .*left untouched'
same_bytes "$WORK/dmg.db" "$S"

done_testing
