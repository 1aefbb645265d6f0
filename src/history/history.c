/*
 * history.c: the run history database itself -- creating it, recording a
 * run, loading runs back.
 *
 * Why it is built this way:
 * - A file is ours only if SQLite says so and its application_id is
 *   HISTORY_APPLICATION_ID. Anything else (not SQLite at all, another
 *   program's database, a newer schema, a damaged file) is reported and
 *   left exactly as it was: we look before we touch, and the first write
 *   (even switching to WAL) happens only after the look.
 * - WAL mode and one BEGIN IMMEDIATE transaction per run: a run is all
 *   there or not there, concurrent `smoke --record` runs queue on the write
 *   lock (busy_timeout bounds the wait), readers never block writers, and
 *   a writer killed mid-transaction leaves only an uncommitted WAL tail that
 *   SQLite discards on the next open. synchronous=FULL makes a committed
 *   run survive a power cut too; a run is a few kilobytes once in a while,
 *   so the fsync costs nothing that matters.
 * - No raw machine id and no user names are stored: the machine is a
 *   salted SHA-256 of its machine-id, and every stored text goes through
 *   the support bundle's redactor (src/bundle/redact.h): user and host
 *   names, machine ids, addresses and secrets become <user-1>, <host-1>...
 */
#include "history.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bundle/redact.h"
#include "../core/check.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../version.h"
#include "../core/sha256.h"
#include "sqlite_api.h"

/* Distinguishes our machine hashes from any other use of the same id. */
#define MACHINE_SALT "wslgpu-history-machine-v1:"
#define MACHINE_HASH_LEN 16
/* The most one record or load may compute (a query over a huge file): past it SQLite is interrupted, so every step is bounded in time
 * (lock waits are bounded by HISTORY_BUSY_TIMEOUT_MS). */
#define WORK_LIMIT_MS 30000

static const char schema_sql[] =
	"CREATE TABLE runs("
	" id INTEGER PRIMARY KEY,"
	" started_at TEXT NOT NULL," /* UTC ISO-8601 */
	" duration_ms REAL NOT NULL,"
	" command TEXT NOT NULL,"
	" exit_status INTEGER NOT NULL,"
	" machine TEXT NOT NULL,"    /* salted SHA-256 of the machine id, 16 hex */
	" tool_version TEXT NOT NULL,"
	" policy_path TEXT,"
	" verdict TEXT NOT NULL,"    /* ok, warn, fail */
	" first_failure TEXT);"
	"CREATE INDEX runs_by_time ON runs(started_at);"
	"CREATE INDEX runs_by_machine ON runs(machine, started_at);"
	"CREATE TABLE checks("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL,"     /* chain order */
	" check_id TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" kb TEXT,"
	" detail TEXT NOT NULL,"
	" ms REAL,"
	" PRIMARY KEY(run_id, check_id)) WITHOUT ROWID;"
	"CREATE TABLE facts("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL,"
	" key TEXT NOT NULL,"
	" value TEXT NOT NULL,"
	" PRIMARY KEY(run_id, key)) WITHOUT ROWID;";

/* The checks that fail or warn, by run in chain order: what the table of
 * runs names, found without reading the other checks and their details.
 * Created by every record (IF NOT EXISTS: a database of an earlier version
 * gains it, once, on its next record; SQLite keeps it from then on, also
 * under an earlier version). The query's IN list must be written exactly
 * as here for SQLite to use the index. */
#define PROBLEM_STATUSES "('fail','crash','timeout','warn')"
static const char problems_index_sql[] =
	"CREATE INDEX IF NOT EXISTS checks_problems ON checks(run_id, seq, status, check_id)"
	" WHERE status IN " PROBLEM_STATUSES;

/* ---- paths, machine id ---- */

void history_default_path(struct strbuf *out)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	/* The XDG spec: a relative value is invalid and is ignored. */
	if (xdg && xdg[0] == '/') {
		sb_addf(out, "%s/wslgpu/history.db", xdg);
		return;
	}
	const char *home = getenv("HOME");
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(getuid());
		home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : ".";
	}
	sb_addf(out, "%s/.local/state/wslgpu/history.db", home);
}

/* A machine-id is 32 lower-case hex digits (machine-id(5)); systemd writes
 * "uninitialized" while the first boot is not complete. */
static bool valid_machine_id(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]))
			return false;
	return n == 32;
}

void history_machine_hash(struct strbuf *out)
{
	static const char *const files[] = { "/etc/machine-id", "/var/lib/dbus/machine-id" };
	struct strbuf id = STRBUF_INIT;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (rootfs_read(files[i], 4096, &id, NULL) < 0)
			continue;
		sb_rtrim(&id);
		if (!valid_machine_id(sb_str(&id)))
			continue;
		struct strbuf salted = STRBUF_INIT;
		sb_addf(&salted, "%s%s", MACHINE_SALT, id.buf);
		char hex[65];
		sha256_hex(salted.buf, salted.len, hex);
		sb_addn(out, hex, MACHINE_HASH_LEN);
		sb_release(&salted);
		sb_release(&id);
		return;
	}
	sb_release(&id);
	sb_add(out, "unknown");
}

/* mkdir -p for the directory of path, each new directory 0700. */
static int make_parents(const char *path, struct strbuf *err)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir) {
		free(dir);
		return 0;
	}
	*slash = '\0';
	for (char *s = dir + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char keep = *s;
		*s = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			sb_addf(err, "cannot create the directory %s: %s", dir, strerror(errno));
			free(dir);
			return -1;
		}
		*s = keep;
		if (!keep)
			break;
	}
	free(dir);
	return 0;
}

/* What the 100-byte header of an SQLite file says (the SQLite file
 * format, "The Database Header"), read without SQLite: a file that is not
 * ours is refused before SQLite opens it, since an open can create -wal
 * and -shm files beside it. */
struct db_header {
	bool wal;            /* read/write versions 2: WAL mode */
	uint32_t app_id;     /* offset 68 */
	uint32_t user_version; /* offset 60 */
	unsigned page_size;
	int schema_cells;    /* cells on page 1 when it is a leaf, else -1 */
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * Looks at the file before SQLite does. 1: missing or empty (a new
 * database), 0: an SQLite file (h filled), -1: anything else (err says what).
 */
static int look_at_file(const char *path, struct db_header *h, struct strbuf *err)
{
	memset(h, 0, sizeof *h);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		sb_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		sb_addf(err, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	unsigned char head[108];
	ssize_t n = pread(fd, head, sizeof head, 0);
	close(fd);
	if (n == 0)
		return 1;
	if (n < 16 || memcmp(head, "SQLite format 3", 16) != 0) {
		sb_addf(err, "%s is not an SQLite database (so not a wslgpu history); left untouched",
			path);
		return -1;
	}
	if (n < (ssize_t)sizeof head) {
		sb_addf(err, "%s is damaged (shorter than an SQLite header); left untouched", path);
		return -1;
	}
	h->page_size = (unsigned)head[16] << 8 | head[17];
	if (h->page_size == 1)
		h->page_size = 65536;
	h->wal = head[18] == 2 && head[19] == 2;
	h->user_version = be32(head + 60);
	h->app_id = be32(head + 68);
	h->schema_cells = head[100] == 0x0d ? (int)((unsigned)head[103] << 8 | head[104]) : -1;
	if (h->page_size < 512 || (h->page_size & (h->page_size - 1))) {
		sb_addf(err, "%s is damaged (page size %u in its header); left untouched", path,
			h->page_size);
		return -1;
	}
	/* No judgement from the header's page count: a writer's checkpoint
	 * updates page 1 before the file has grown, so a reader without
	 * SQLite's locks may see it ahead; SQLite, which takes them, reports
	 * a file that is really cut short as damaged. */
	return 0;
}

/* Whether the header alone is the truth: no write-ahead log holds pages
 * the main file does not have yet. */
static bool header_current(const char *path, const struct db_header *h)
{
	if (!h->wal)
		return true;
	struct strbuf wal = STRBUF_INIT;
	sb_addf(&wal, "%s-wal", path);
	struct stat st;
	bool current = stat(wal.buf, &st) < 0 || st.st_size == 0;
	sb_release(&wal);
	return current;
}

/* The refusals the header can decide, with the same words as inspect(). */
static int judge_header(const char *path, const struct db_header *h, struct strbuf *err)
{
	if (h->app_id == HISTORY_APPLICATION_ID && h->user_version > HISTORY_SCHEMA_VERSION) {
		sb_addf(err, "%s was written by a newer wslgpu (schema %u; this one knows %d); left untouched",
			path, h->user_version, HISTORY_SCHEMA_VERSION);
		return -1;
	}
	bool foreign = h->app_id != HISTORY_APPLICATION_ID && h->app_id != 0;
	/* application_id 0 with tables: another program's, when no WAL says otherwise. */
	if (!foreign && h->app_id == 0 && h->schema_cells != 0 && header_current(path, h))
		foreign = true;
	if (!foreign)
		return 0;
	if (h->schema_cells >= 0)
		sb_addf(err, "%s is an SQLite database of another program (application_id 0x%08x, %d "
			"schema objects), not a wslgpu history; left untouched", path, h->app_id,
			h->schema_cells);
	else
		sb_addf(err, "%s is an SQLite database of another program (application_id 0x%08x, a "
			"schema of more than one page), not a wslgpu history; left untouched", path,
			h->app_id);
	return -1;
}

/* ---- SQLite helpers ---- */

static void db_error(sqlite3 *db, const char *path, const char *what, struct strbuf *err)
{
	int code = sqlite3_extended_errcode(db);
	if (code == SQLITE_INTERRUPT)
		sb_addf(err, "%s: %s took longer than %d s; gave up", path, what, WORK_LIMIT_MS / 1000);
	else if ((code & 0xff) == SQLITE_NOTADB || (code & 0xff) == SQLITE_CORRUPT)
		sb_addf(err, "%s is damaged or not a database (%s: %s); left untouched", path, what,
			sqlite3_errmsg(db));
	else
		sb_addf(err, "%s: %s: %s", path, what, sqlite3_errmsg(db));
}

static int past_deadline(void *deadline)
{
	return now_ms() > *(const double *)deadline;
}

/* Opens path with flags, bounded: lock waits by the busy timeout, work by
 * *deadline (which must outlive the connection). NULL with err set. */
static sqlite3 *open_bounded(const char *path, int flags, double *deadline, struct strbuf *err)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		sb_addf(err, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, HISTORY_BUSY_TIMEOUT_MS);
	*deadline = now_ms() + WORK_LIMIT_MS;
	sqlite3_progress_handler(db, 10000, past_deadline, deadline);
	return db;
}

/* The first column of the first row of sql as an integer; -1 on error. */
static int query_int(sqlite3 *db, const char *sql, long long *v)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * Decides whether db is ours. 0: ours, of a schema we know; 1: empty (a new
 * database); -1: refused, err says why.
 */
static int inspect(sqlite3 *db, const char *path, struct strbuf *err)
{
	long long app, ver, tables;
	if (query_int(db, "PRAGMA application_id", &app) < 0 ||
	    query_int(db, "PRAGMA user_version", &ver) < 0 ||
	    query_int(db, "SELECT count(*) FROM sqlite_master", &tables) < 0) {
		db_error(db, path, "reading its header", err);
		return -1;
	}
	if (app == HISTORY_APPLICATION_ID) {
		if (ver > HISTORY_SCHEMA_VERSION) {
			sb_addf(err, "%s was written by a newer wslgpu (schema %lld; this one knows %d); left untouched",
				path, ver, HISTORY_SCHEMA_VERSION);
			return -1;
		}
		return 0;
	}
	if (app == 0 && tables == 0)
		return 1;
	sb_addf(err, "%s is an SQLite database of another program (application_id 0x%08llx, %lld "
		"schema objects), not a wslgpu history; left untouched", path, (unsigned long long)(uint32_t)app,
		tables);
	return -1;
}

static int exec(sqlite3 *db, const char *path, const char *sql, struct strbuf *err)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	db_error(db, path, sql[0] == 'C' ? "creating the schema" : sql, err);
	return -1;
}

static int create_schema(sqlite3 *db, const char *path, struct strbuf *err)
{
	struct strbuf sql = STRBUF_INIT;
	sb_addf(&sql, "%sPRAGMA application_id=%d;PRAGMA user_version=%d;", schema_sql,
		HISTORY_APPLICATION_ID, HISTORY_SCHEMA_VERSION);
	int rc = exec(db, path, sql.buf, err);
	sb_release(&sql);
	return rc;
}

static void iso_time(time_t t, char out[32])
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Inserts the run, its checks and its facts; called inside the transaction. */
static int insert_run(sqlite3 *db, const char *path, const struct report *rep,
		      const struct history_meta *meta, struct strbuf *err)
{
	struct summary sum;
	report_summarize(rep, &sum);
	struct strbuf machine = STRBUF_INIT;
	history_machine_hash(&machine);
	char when[32];
	iso_time(meta->when, when);
	struct redactor *rd = redactor_new();
	redact_learn_machine(rd, environ);
	redact_learn_results(rd, rep->results, rep->n);
	char *command = redact_dup(rd, NULL, meta->command ? meta->command : "smoke");
	char *policy = redact_dup(rd, NULL, meta->policy_path);
	int rc = -1;
	sqlite3_stmt *run = NULL, *chk = NULL, *fact = NULL;
	struct history_kv *facts = NULL;
	size_t nfacts = 0;
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO runs(started_at, duration_ms, command, exit_status, machine,"
			       " tool_version, policy_path, verdict, first_failure)"
			       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
			       -1, &run, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       "INSERT INTO checks(run_id, seq, check_id, status, kb, detail, ms)"
			       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			       -1, &chk, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO facts(run_id, seq, key, value) VALUES(?1, ?2, ?3, ?4)",
			       -1, &fact, NULL) != SQLITE_OK) {
		db_error(db, path, "preparing the insert", err);
		goto out;
	}
	bind_text(run, 1, when);
	sqlite3_bind_double(run, 2, meta->duration_ms);
	bind_text(run, 3, command);
	sqlite3_bind_int(run, 4, meta->exit_status);
	bind_text(run, 5, machine.buf);
	bind_text(run, 6, WSLGPU_VERSION);
	bind_text(run, 7, policy);
	bind_text(run, 8, sum.status);
	bind_text(run, 9, sum.first_failure && sum.first_failure->def ? sum.first_failure->def->id : NULL);
	if (sqlite3_step(run) != SQLITE_DONE) {
		db_error(db, path, "recording the run", err);
		goto out;
	}
	sqlite3_int64 id = sqlite3_last_insert_rowid(db);
	for (size_t i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		if (!r->ran || !r->def)
			continue;
		char *detail = redact_dup(rd, NULL, r->detail ? r->detail : "");
		sqlite3_reset(chk);
		sqlite3_bind_int64(chk, 1, id);
		sqlite3_bind_int64(chk, 2, (sqlite3_int64)i);
		bind_text(chk, 3, r->def->id);
		bind_text(chk, 4, status_name(r->status));
		bind_text(chk, 5, r->kb);
		bind_text(chk, 6, detail);
		sqlite3_bind_double(chk, 7, r->ms);
		int step = sqlite3_step(chk);
		free(detail);
		if (step != SQLITE_DONE) {
			db_error(db, path, "recording a check", err);
			goto out;
		}
	}
	history_extract_facts(rep, &facts, &nfacts);
	for (size_t i = 0; i < nfacts; i++) {
		char *val = redact_dup(rd, NULL, facts[i].val);
		sqlite3_reset(fact);
		sqlite3_bind_int64(fact, 1, id);
		sqlite3_bind_int64(fact, 2, (sqlite3_int64)i);
		bind_text(fact, 3, facts[i].key);
		bind_text(fact, 4, val);
		int step = sqlite3_step(fact);
		free(val);
		if (step != SQLITE_DONE) {
			db_error(db, path, "recording a fact", err);
			goto out;
		}
	}
	rc = 0;
out:
	sqlite3_finalize(run);
	sqlite3_finalize(chk);
	sqlite3_finalize(fact);
	history_kv_free(facts, nfacts);
	sb_release(&machine);
	free(command);
	free(policy);
	redactor_free(rd);
	return rc;
}

/*
 * Before anything is written: is it ours (or empty)? In one read
 * transaction, so that the header and the schema come from one snapshot
 * even while another writer commits. 0, or -1 with err set.
 *
 * No PRAGMA quick_check: it reads the whole file, so each run cost more
 * than the one before (45 ms at 100 runs, 183 ms at 20,000). What keeps a
 * damaged file unwritten instead: look_at_file's header checks, and
 * SQLite's own checks of every page a run reads on its way to where it
 * inserts (with cell_size_check on, the stricter ones): a damaged page
 * there fails the insert with SQLITE_CORRUPT, the transaction is rolled
 * back, and nothing reaches the file. A damaged page the insert does not
 * touch is left as it was, and so is every run on it.
 */
static int first_look(sqlite3 *db, const char *path, struct strbuf *err)
{
	if (exec(db, path, "BEGIN", err) < 0)
		return -1;
	int state = inspect(db, path, err);
	sqlite3_exec(db, state >= 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
	return state >= 0 ? 0 : -1;
}

int history_record(const char *db_path, const struct report *rep,
		   const struct history_meta *meta, struct strbuf *err)
{
	struct db_header hdr;
	int look = look_at_file(db_path, &hdr, err);
	if (look < 0 || (look == 0 && judge_header(db_path, &hdr, err) < 0))
		return -1;
	if (look == 1) {
		if (make_parents(db_path, err) < 0)
			return -1;
		/* Created here, not by SQLite, so that it is 0600 whatever the
		 * umask; SQLite gives the -wal and -shm files the same mode. */
		int fd = open(db_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0) {
			sb_addf(err, "cannot create %s: %s", db_path, strerror(errno));
			return -1;
		}
		close(fd);
	}
	if (sqlite_api_load(err) < 0)
		return -1;
	double deadline;
	sqlite3 *db = open_bounded(db_path, SQLITE_OPEN_READWRITE, &deadline, err);
	if (!db)
		return -1;
	int rc = -1;
	sqlite3_exec(db, "PRAGMA cell_size_check=ON", NULL, NULL, NULL);
	if (first_look(db, db_path, err) < 0)
		goto out;
	/* Not fatal when another connection holds the file and the mode cannot
	 * change now: the rollback journal is just as safe, only slower, and
	 * the next run switches. */
	sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	if (exec(db, db_path, "PRAGMA synchronous=FULL", err) < 0 ||
	    exec(db, db_path, "BEGIN IMMEDIATE", err) < 0)
		goto out;
	/* Another writer may have created the schema while we waited. */
	int state = inspect(db, db_path, err);
	if (state < 0 || (state == 1 && create_schema(db, db_path, err) < 0) ||
	    exec(db, db_path, problems_index_sql, err) < 0 ||
	    insert_run(db, db_path, rep, meta, err) < 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	if (exec(db, db_path, "COMMIT", err) < 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	rc = 0;
out:
	sqlite3_close(db);
	return rc;
}

/* ---- reading ---- */

static char *column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? xstrdup((const char *)s) : NULL;
}

/* The digits s[0..n) as a number, or -1. */
static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar (H.
 * Hinnant's days_from_civil, howardhinnant.github.io/date_algorithms.html). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static time_t parse_iso(const char *s)
{
	/* What history_record writes, YYYY-MM-DDTHH:MM:SSZ, read by hand:
	 * sscanf and timegm cost 4,000 instructions a run of the table. */
	if (s && strlen(s) >= 19 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' &&
	    s[16] == ':') {
		int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
		int h = digits(s + 11, 2), mi = digits(s + 14, 2), sec = digits(s + 17, 2);
		if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h < 24 &&
		    mi >= 0 && mi < 60 && sec >= 0 && sec < 60)
			return (time_t)(days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 +
					h * 3600 + mi * 60 + sec);
	}
	/* Anything else as before (timegm normalises a day 31 of a short month). */
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

struct history_reader {
	sqlite3 *db;          /* NULL: an empty file, no runs */
	double deadline;
	char *path;
	sqlite3_stmt *checks, *facts;
	bool problems_index;  /* checks_problems exists */
};

static int load_details(struct history_reader *r, struct history_run *run)
{
	sqlite3_stmt *st = r->checks;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run->id);
	size_t alloc = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (run->nchecks == alloc) {
			alloc = alloc ? 2 * alloc : 32;
			run->checks = xrealloc(run->checks, alloc * sizeof *run->checks);
		}
		struct history_check *c = &run->checks[run->nchecks++];
		c->id = column_dup(st, 0);
		c->status = column_dup(st, 1);
		c->kb = column_dup(st, 2);
		c->detail = column_dup(st, 3);
		if (!c->id)
			c->id = xstrdup("?");
		if (!c->status)
			c->status = xstrdup("?");
	}
	if (rc != SQLITE_DONE)
		return -1;
	st = r->facts;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run->id);
	alloc = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (run->nfacts == alloc) {
			alloc = alloc ? 2 * alloc : 32;
			run->facts = xrealloc(run->facts, alloc * sizeof *run->facts);
		}
		struct history_kv *kv = &run->facts[run->nfacts++];
		kv->key = column_dup(st, 0);
		kv->val = column_dup(st, 1);
		if (!kv->key)
			kv->key = xstrdup("?");
		if (!kv->val)
			kv->val = xstrdup("");
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

/* "file:" URI of path with immutable=1 (sqlite.org/uri.html): the
 * characters a URI gives a meaning to are %-escaped. */
static char *immutable_uri(const char *path)
{
	struct strbuf u = STRBUF_INIT;
	sb_add(&u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' || *p >= 0x7f)
			sb_addf(&u, "%%%02X", *p);
		else
			sb_addc(&u, (char)*p);
	}
	sb_add(&u, "?immutable=1");
	return sb_detach(&u);
}

/*
 * How to open a WAL database for reading. SQLite needs its -shm file, and
 * creates it (and -wal) when missing: in a directory we may not write to
 * (a fleet's shared, read-only copy) that fails. Then, when there is no
 * -wal with pages in it, every run is in the main file and the file can
 * be opened immutable (no -shm, no locks: nobody can write there either).
 * 1: immutable, 0: normally, -1: cannot be read (err set).
 */
static int open_mode(const char *path, const struct db_header *h, struct strbuf *err)
{
	if (!h->wal)
		return 0;
	struct strbuf shm = STRBUF_INIT, dir = STRBUF_INIT;
	sb_addf(&shm, "%s-shm", path);
	sb_add(&dir, path);
	char *slash = strrchr(dir.buf, '/');
	if (slash) {
		*(slash == dir.buf ? slash + 1 : slash) = '\0';
	} else {
		sb_reset(&dir);
		sb_add(&dir, ".");
	}
	int mode = 0;
	if (access(shm.buf, F_OK) < 0 && access(dir.buf, W_OK) < 0) {
		if (header_current(path, h)) {
			mode = 1;
		} else {
			sb_addf(err, "%s: its write-ahead log (%s-wal) holds runs not yet merged into it, "
				"and SQLite cannot create %s in a directory it may not write to: copy the "
				"database with its -wal file somewhere writable to read it", path, path,
				shm.buf);
			mode = -1;
		}
	}
	sb_release(&shm);
	sb_release(&dir);
	return mode;
}

int history_open(const char *db_path, struct history_reader **out, struct strbuf *err)
{
	*out = NULL;
	struct db_header hdr;
	int look = look_at_file(db_path, &hdr, err);
	if (look < 0)
		return -1;
	struct stat st_file;
	if (stat(db_path, &st_file) < 0) {
		sb_addf(err, "%s: %s", db_path, strerror(errno));
		return -ENOENT;
	}
	if (look == 0 && judge_header(db_path, &hdr, err) < 0)
		return -1;
	struct history_reader *r = xcalloc(1, sizeof *r);
	r->path = xstrdup(db_path);
	*out = r;
	if (look == 1)
		return 0; /* an empty file: no runs yet */
	int mode = open_mode(db_path, &hdr, err);
	if (mode < 0 || sqlite_api_load(err) < 0)
		goto fail;
	if (mode == 1) {
		char *uri = immutable_uri(db_path);
		r->db = open_bounded(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, &r->deadline, err);
		free(uri);
	} else {
		/* Read-write where the file and its directory may be written:
		 * only then does the last connection's close checkpoint the WAL
		 * and remove the -wal and -shm files that opening a WAL
		 * database makes; a read-only one leaves them behind. Nothing
		 * here writes a row. */
		char *dir = xstrdup(db_path), *slash = strrchr(dir, '/');
		if (slash)
			slash[slash == dir ? 1 : 0] = '\0';
		bool writable = access(db_path, W_OK) == 0 && access(slash ? dir : ".", W_OK) == 0;
		free(dir);
		r->db = open_bounded(db_path, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY,
				     &r->deadline, err);
	}
	if (!r->db)
		goto fail;
	/* One read transaction: a run recorded meanwhile is either wholly in
	 * every answer of this reader or in none. */
	if (sqlite3_exec(r->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		db_error(r->db, db_path, "reading it", err);
		goto fail;
	}
	int state = inspect(r->db, db_path, err);
	if (state < 0)
		goto fail;
	if (state == 1) { /* SQLite, but no schema yet: no runs */
		sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(r->db);
		r->db = NULL;
		return 0;
	}
	if (sqlite3_prepare_v2(r->db, "SELECT check_id, status, kb, detail FROM checks WHERE "
				      "run_id=?1 ORDER BY seq", -1, &r->checks, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(r->db, "SELECT key, value FROM facts WHERE run_id=?1 ORDER BY seq",
			       -1, &r->facts, NULL) != SQLITE_OK) {
		db_error(r->db, db_path, "reading a run's checks", err);
		goto fail;
	}
	long long has_index = 0;
	query_int(r->db, "SELECT count(*) FROM sqlite_master WHERE type = 'index'"
			 " AND name = 'checks_problems'", &has_index);
	r->problems_index = has_index > 0;
	return 0;
fail:
	history_close(r);
	*out = NULL;
	return -1;
}

void history_close(struct history_reader *r)
{
	if (!r)
		return;
	if (r->db) { /* else SQLite may not be loaded: nothing of it to release */
		sqlite3_finalize(r->checks);
		sqlite3_finalize(r->facts);
		sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(r->db);
	}
	free(r->path);
	free(r);
}

/* The filter of a query: ?1 machine prefix, ?2 since. */
#define RUN_FILTER "(?1 IS NULL OR substr(machine, 1, length(?1)) = ?1) AND started_at >= ?2"
#define RUN_COLUMNS "id, started_at, duration_ms, command, exit_status, machine, tool_version," \
		    " policy_path, verdict, first_failure"

static void bind_query(sqlite3_stmt *st, const struct history_query *q, char since[32])
{
	since[0] = '\0';
	if (q && q->since)
		iso_time(q->since, since);
	bind_text(st, 1, q ? q->machine : NULL);
	bind_text(st, 2, since);
	if (sqlite3_bind_parameter_count(st) >= 3)
		sqlite3_bind_int64(st, 3, q && q->limit ? (sqlite3_int64)q->limit : -1);
}

/* sql prepared in *st with q's values bound (since[] holds the text of
 * --since while st lives); -1 with err saying while doing what, when the
 * statement cannot be prepared. */
static int prepare_query(struct history_reader *r, const char *sql, const struct history_query *q,
			 char since[32], const char *doing, sqlite3_stmt **st, struct strbuf *err)
{
	if (sqlite3_prepare_v2(r->db, sql, -1, st, NULL) != SQLITE_OK) {
		if (err)
			db_error(r->db, r->path, doing, err);
		return -1;
	}
	bind_query(*st, q, since);
	return 0;
}

/* Two counts of one statement's single row. */
static int count2(struct history_reader *r, const char *sql, const struct history_query *q,
		  size_t *a, size_t *b, struct strbuf *err)
{
	sqlite3_stmt *st;
	char since[32];
	if (prepare_query(r, sql, q, since, "counting the runs", &st, err) < 0)
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*a = (size_t)sqlite3_column_int64(st, 0);
		*b = (size_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		db_error(r->db, r->path, "counting the runs", err);
		return -1;
	}
	return 0;
}

int history_count(struct history_reader *r, const struct history_query *q,
		  struct history_counts *c, struct strbuf *err)
{
	memset(c, 0, sizeof *c);
	if (!r->db)
		return 0;
	/* DISTINCT along the runs_by_machine index: count(DISTINCT machine)
	 * would build a temporary B-tree of every run's machine. */
	if (count2(r, "SELECT (SELECT count(*) FROM runs WHERE " RUN_FILTER "),"
		      " (SELECT count(*) FROM (SELECT DISTINCT machine FROM runs WHERE " RUN_FILTER "))",
		   q, &c->total, &c->total_machines, err) < 0)
		return -1;
	if (!q || !q->limit || q->limit >= c->total) {
		c->runs = c->total;
		c->machines = c->total_machines;
		return 0;
	}
	return count2(r, "SELECT count(*), count(DISTINCT machine) FROM (SELECT machine FROM runs"
			 " WHERE " RUN_FILTER " ORDER BY started_at DESC, id DESC LIMIT ?3)",
		      q, &c->runs, &c->machines, err);
}

int history_each(struct history_reader *r, const struct history_query *q, history_run_fn fn,
		 void *arg, struct strbuf *err)
{
	if (!r->db)
		return 0;
	/* Oldest first. All runs: straight along the runs_by_time index;
	 * the latest N: those N (newest first, for LIMIT), then turned. */
	const char *sql = q && q->limit
		? "SELECT * FROM (SELECT " RUN_COLUMNS " FROM runs WHERE " RUN_FILTER
		  " ORDER BY started_at DESC, id DESC LIMIT ?3) ORDER BY started_at, id"
		: "SELECT " RUN_COLUMNS " FROM runs WHERE " RUN_FILTER " ORDER BY started_at, id";
	sqlite3_stmt *st;
	char since[32];
	if (prepare_query(r, sql, q, since, "reading the runs", &st, err) < 0)
		return -1;
	int step, rc = 0;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct history_run run;
		memset(&run, 0, sizeof run);
		run.id = sqlite3_column_int64(st, 0);
		run.started_at = column_dup(st, 1);
		run.when = parse_iso(run.started_at);
		run.duration_ms = sqlite3_column_double(st, 2);
		run.command = column_dup(st, 3);
		run.exit_status = sqlite3_column_int(st, 4);
		run.machine = column_dup(st, 5);
		run.tool_version = column_dup(st, 6);
		run.policy_path = column_dup(st, 7);
		run.verdict = column_dup(st, 8);
		run.first_failure = column_dup(st, 9);
		if (!run.started_at)
			run.started_at = xstrdup("");
		if (!run.machine)
			run.machine = xstrdup("unknown");
		if (!run.verdict)
			run.verdict = xstrdup("?");
		if (load_details(r, &run) < 0) {
			db_error(r->db, r->path, "reading a run's checks", err);
			rc = -1;
		} else {
			rc = fn(&run, arg);
		}
		history_run_release(&run);
	}
	if (rc == 0 && step != SQLITE_DONE) {
		db_error(r->db, r->path, "reading the runs", err);
		rc = -1;
	}
	sqlite3_finalize(st);
	return rc;
}

/* ---- the table's rows ---- */

/* A run's problems as "status id" items joined by char(31), in chain
 * order: through the partial index when it exists (its order is the
 * chain's), else ordered here. */
#define ROW_COLUMNS(problems_from) \
	"r.id, r.started_at, r.machine, r.verdict, d.value, k.value," \
	" (SELECT group_concat(status || ' ' || check_id, char(31)) FROM " problems_from ")"
#define PROBLEMS_INDEXED "checks WHERE run_id = r.id AND status IN " PROBLEM_STATUSES
#define PROBLEMS_SORTED "(SELECT status, check_id FROM checks WHERE run_id = r.id" \
	" AND status IN " PROBLEM_STATUSES " ORDER BY seq)"
/* The facts as joins, not subqueries: SQLite keeps their cursors open
 * from run to run (2,000 instructions a run fewer). */
#define ROW_FROM "runs r LEFT JOIN facts d ON d.run_id = r.id AND d.key = 'driver.version'" \
	" LEFT JOIN facts k ON k.run_id = r.id AND k.key = 'kernel'"
#define ROWS_SQL(problems_from) \
	"SELECT " ROW_COLUMNS(problems_from) " FROM " ROW_FROM " WHERE " RUN_FILTER \
	" ORDER BY r.started_at, r.id"
#define ROWS_LIMIT_SQL(problems_from) \
	"SELECT * FROM (SELECT " ROW_COLUMNS(problems_from) " FROM " ROW_FROM " WHERE " \
	RUN_FILTER " ORDER BY r.started_at DESC, r.id DESC LIMIT ?3) ORDER BY 2, 1"

/* A problem counted into row (status and id; id lives as long as row). */
static void row_problem(struct history_row *row, const char *status, const char *id)
{
	if (status_name_is_failure(status)) {
		if (row->nfailing < 3)
			row->failing[row->nfailing] = id;
		row->nfailing++;
	} else if (!strcmp(status, "warn")) {
		if (row->nwarning < 3)
			row->warning[row->nwarning] = id;
		row->nwarning++;
	}
}

void history_row_of_run(const struct history_run *run, struct history_row *row)
{
	memset(row, 0, sizeof *row);
	row->id = run->id;
	row->when = run->when;
	row->machine = run->machine;
	row->verdict = run->verdict;
	row->driver = history_run_fact(run, "driver.version");
	row->kernel = history_run_fact(run, "kernel");
	for (size_t i = 0; i < run->nchecks; i++)
		row_problem(row, run->checks[i].status, run->checks[i].id);
}

/* Calls fn with each row st gives (ROW_COLUMNS' order). problems is
 * scratch space for the problem list, which is cut in place. */
static int step_rows(struct history_reader *r, sqlite3_stmt *st, int pass, history_row_fn fn,
		     void *arg, struct strbuf *err)
{
	int step, rc = 0;
	struct strbuf problems = STRBUF_INIT;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct history_row row;
		memset(&row, 0, sizeof row);
		row.id = sqlite3_column_int64(st, 0);
		const char *started = (const char *)sqlite3_column_text(st, 1);
		row.when = parse_iso(started);
		row.machine = (const char *)sqlite3_column_text(st, 2);
		row.verdict = (const char *)sqlite3_column_text(st, 3);
		row.driver = (const char *)sqlite3_column_text(st, 4);
		row.kernel = (const char *)sqlite3_column_text(st, 5);
		const char *p = (const char *)sqlite3_column_text(st, 6);
		if (!row.machine)
			row.machine = "unknown";
		if (!row.verdict)
			row.verdict = "?";
		sb_reset(&problems);
		sb_add(&problems, p ? p : "");
		for (char *item = problems.len ? problems.buf : NULL; item;) {
			char *next = strchr(item, '\x1f');
			if (next)
				*next++ = '\0';
			char *id = strchr(item, ' ');
			if (id) {
				*id++ = '\0';
				row_problem(&row, item, id);
			}
			item = next;
		}
		rc = fn(&row, pass, arg);
	}
	if (rc == 0 && step != SQLITE_DONE) {
		db_error(r->db, r->path, "reading the runs", err);
		rc = -1;
	}
	sb_release(&problems);
	return rc;
}

/* The rows of q straight from the database, once. */
static int rows_direct(struct history_reader *r, const struct history_query *q, int pass,
		       history_row_fn fn, void *arg, struct strbuf *err)
{
	const char *sql = r->problems_index
		? (q && q->limit ? ROWS_LIMIT_SQL(PROBLEMS_INDEXED) : ROWS_SQL(PROBLEMS_INDEXED))
		: (q && q->limit ? ROWS_LIMIT_SQL(PROBLEMS_SORTED) : ROWS_SQL(PROBLEMS_SORTED));
	sqlite3_stmt *st;
	char since[32];
	if (prepare_query(r, sql, q, since, "reading the runs", &st, err) < 0)
		return -1;
	int rc = step_rows(r, st, pass, fn, arg, err);
	sqlite3_finalize(st);
	return rc;
}

/* The rows of q copied into a temporary table: 0, or -1 when SQLite can
 * make none here (no writable temporary directory). */
static int rows_to_temp(struct history_reader *r, const struct history_query *q)
{
	const char *sql = r->problems_index
		? (q && q->limit ? "INSERT INTO temp.wslgpu_rows " ROWS_LIMIT_SQL(PROBLEMS_INDEXED)
				 : "INSERT INTO temp.wslgpu_rows " ROWS_SQL(PROBLEMS_INDEXED))
		: (q && q->limit ? "INSERT INTO temp.wslgpu_rows " ROWS_LIMIT_SQL(PROBLEMS_SORTED)
				 : "INSERT INTO temp.wslgpu_rows " ROWS_SQL(PROBLEMS_SORTED));
	/* On disk past SQLite's page cache, whatever its build's default. */
	sqlite3_exec(r->db, "PRAGMA temp_store=FILE", NULL, NULL, NULL);
	if (sqlite3_exec(r->db, "DROP TABLE IF EXISTS temp.wslgpu_rows;"
				"CREATE TEMP TABLE wslgpu_rows(id, started_at, machine, verdict,"
				" driver, kernel, problems)", NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	sqlite3_stmt *st;
	char since[32];
	if (prepare_query(r, sql, q, since, NULL, &st, NULL) < 0)
		return -1;
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int history_each_row(struct history_reader *r, const struct history_query *q, int passes,
		     history_row_fn fn, void *arg, struct strbuf *err)
{
	if (!r->db)
		return 0;
	if (passes > 1 && rows_to_temp(r, q) == 0) {
		sqlite3_stmt *st;
		int rc = 0;
		if (sqlite3_prepare_v2(r->db, "SELECT * FROM temp.wslgpu_rows ORDER BY rowid", -1, &st,
				       NULL) != SQLITE_OK) {
			db_error(r->db, r->path, "reading the runs", err);
			rc = -1;
		}
		for (int pass = 0; rc == 0 && pass < passes; pass++) {
			sqlite3_reset(st);
			rc = step_rows(r, st, pass, fn, arg, err);
		}
		sqlite3_finalize(st);
		sqlite3_exec(r->db, "DROP TABLE temp.wslgpu_rows", NULL, NULL, NULL);
		return rc;
	}
	int rc = 0;
	for (int pass = 0; rc == 0 && pass < passes; pass++)
		rc = rows_direct(r, q, pass, fn, arg, err);
	return rc;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void history_run_copy(struct history_run *dst, const struct history_run *src)
{
	*dst = *src;
	dst->started_at = dup_or_null(src->started_at);
	dst->command = dup_or_null(src->command);
	dst->machine = dup_or_null(src->machine);
	dst->tool_version = dup_or_null(src->tool_version);
	dst->policy_path = dup_or_null(src->policy_path);
	dst->verdict = dup_or_null(src->verdict);
	dst->first_failure = dup_or_null(src->first_failure);
	dst->facts = xcalloc(src->nfacts + 1, sizeof *dst->facts);
	for (size_t i = 0; i < src->nfacts; i++) {
		dst->facts[i].key = xstrdup(src->facts[i].key);
		dst->facts[i].val = xstrdup(src->facts[i].val);
	}
	dst->checks = xcalloc(src->nchecks + 1, sizeof *dst->checks);
	for (size_t i = 0; i < src->nchecks; i++) {
		dst->checks[i].id = xstrdup(src->checks[i].id);
		dst->checks[i].status = xstrdup(src->checks[i].status);
		dst->checks[i].kb = dup_or_null(src->checks[i].kb);
		dst->checks[i].detail = dup_or_null(src->checks[i].detail);
	}
}

void history_run_release(struct history_run *r)
{
	free(r->started_at);
	free(r->command);
	free(r->machine);
	free(r->tool_version);
	free(r->policy_path);
	free(r->verdict);
	free(r->first_failure);
	history_kv_free(r->facts, r->nfacts);
	for (size_t c = 0; c < r->nchecks; c++) {
		free(r->checks[c].id);
		free(r->checks[c].status);
		free(r->checks[c].kb);
		free(r->checks[c].detail);
	}
	free(r->checks);
	memset(r, 0, sizeof *r);
}

/* history_load: the runs kept, each a copy. */
static int keep_run(const struct history_run *run, void *arg)
{
	struct history_runs *out = arg;
	if (!(out->n & (out->n - 1))) /* 0, 1, 2, 4...: doubled each time it is full */
		out->v = xrealloc(out->v, (out->n ? 2 * out->n : 1) * sizeof *out->v);
	history_run_copy(&out->v[out->n++], run);
	return 0;
}

int history_load(const char *db_path, const struct history_query *q,
		 struct history_runs *out, struct strbuf *err)
{
	memset(out, 0, sizeof *out);
	struct history_reader *r;
	int rc = history_open(db_path, &r, err);
	if (rc < 0)
		return rc;
	struct history_counts c;
	rc = history_count(r, q, &c, err);
	if (rc == 0)
		rc = history_each(r, q, keep_run, out, err);
	out->total = c.total;
	out->total_machines = c.total_machines;
	history_close(r);
	if (rc < 0)
		history_runs_release(out);
	return rc;
}

void history_runs_release(struct history_runs *runs)
{
	for (size_t i = 0; i < runs->n; i++)
		history_run_release(&runs->v[i]);
	free(runs->v);
	memset(runs, 0, sizeof *runs);
}

const char *history_run_fact(const struct history_run *run, const char *key)
{
	for (size_t i = 0; i < run->nfacts; i++)
		if (!strcmp(run->facts[i].key, key))
			return run->facts[i].val;
	return NULL;
}

const struct history_check *history_run_check(const struct history_run *run, const char *id)
{
	for (size_t i = 0; i < run->nchecks; i++)
		if (!strcmp(run->checks[i].id, id))
			return &run->checks[i];
	return NULL;
}
