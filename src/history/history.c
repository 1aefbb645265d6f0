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
 *   the support bundle's redactor (src/report/redact.h): user and host
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

#include "../core/check.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../report/redact.h"
#include "../version.h"
#include "sha256.h"

/* Distinguishes our machine hashes from any other use of the same id. */
#define MACHINE_SALT "wslgpu-history-machine-v1:"
#define MACHINE_HASH_LEN 16
/* The most one record or load may compute (a quick_check of a huge file, a
 * query): past it SQLite is interrupted, so every step is bounded in time
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

/*
 * Looks at the file before SQLite does. 1: missing or empty (a new
 * database), 0: an SQLite file, -1: anything else (err says what).
 */
static int look_at_file(const char *path, struct strbuf *err)
{
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
	unsigned char head[16];
	ssize_t n = read(fd, head, sizeof head);
	close(fd);
	if (n == 0)
		return 1;
	if (n != (ssize_t)sizeof head || memcmp(head, "SQLite format 3", 16) != 0) {
		sb_addf(err, "%s is not an SQLite database (so not a wslgpu history); left untouched",
			path);
		return -1;
	}
	return 0;
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
 * Before anything is written: is it ours (or empty), and undamaged? In one
 * read transaction, so that the header and the schema come from one
 * snapshot even while another writer commits. 0, or -1 with err set.
 */
static int first_look(sqlite3 *db, const char *path, struct strbuf *err)
{
	if (exec(db, path, "BEGIN", err) < 0)
		return -1;
	int rc = -1;
	int state = inspect(db, path, err);
	if (state == 1)
		rc = 0;
	if (state == 0) {
		/* A damaged page would otherwise surface half-way through the
		 * insert; look first, so that a damaged file is never written. */
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK) {
			db_error(db, path, "checking it", err);
		} else {
			int step = sqlite3_step(st);
			const char *ok = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
			if (ok && !strcmp(ok, "ok"))
				rc = 0;
			else if (ok)
				sb_addf(err, "%s is damaged (integrity check: %s); left untouched", path, ok);
			else
				db_error(db, path, "checking it", err);
			sqlite3_finalize(st);
		}
	}
	sqlite3_exec(db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int history_record(const char *db_path, const struct report *rep,
		   const struct history_meta *meta, struct strbuf *err)
{
	int look = look_at_file(db_path, err);
	if (look < 0)
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
	double deadline;
	sqlite3 *db = open_bounded(db_path, SQLITE_OPEN_READWRITE, &deadline, err);
	if (!db)
		return -1;
	int rc = -1;
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

static time_t parse_iso(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

static int load_details(sqlite3 *db, struct history_run *run)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT check_id, status, kb, detail FROM checks WHERE run_id=?1 ORDER BY seq",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
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
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT key, value FROM facts WHERE run_id=?1 ORDER BY seq", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
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
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int history_load(const char *db_path, const struct history_query *q,
		 struct history_runs *out, struct strbuf *err)
{
	out->v = NULL;
	out->n = 0;
	int look = look_at_file(db_path, err);
	if (look < 0)
		return -1;
	struct stat st_file;
	if (stat(db_path, &st_file) < 0) {
		sb_addf(err, "%s: %s", db_path, strerror(errno));
		return -ENOENT;
	}
	if (look == 1)
		return 0; /* an empty file: no runs yet */
	double deadline;
	sqlite3 *db = open_bounded(db_path, SQLITE_OPEN_READONLY, &deadline, err);
	if (!db)
		return -1;
	int rc = -1;
	sqlite3_stmt *st = NULL;
	/* One read transaction: a run recorded meanwhile is either wholly in
	 * the answer or not at all. */
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		db_error(db, db_path, "reading it", err);
		goto out;
	}
	int state = inspect(db, db_path, err);
	if (state < 0)
		goto out;
	if (state == 1) {
		rc = 0;
		goto out;
	}
	char since[32] = "";
	if (q && q->since)
		iso_time(q->since, since);
	if (sqlite3_prepare_v2(db,
			       "SELECT id, started_at, duration_ms, command, exit_status, machine,"
			       " tool_version, policy_path, verdict, first_failure FROM runs"
			       " WHERE (?1 IS NULL OR substr(machine, 1, length(?1)) = ?1)"
			       " AND started_at >= ?2 ORDER BY started_at DESC, id DESC LIMIT ?3",
			       -1, &st, NULL) != SQLITE_OK) {
		db_error(db, db_path, "reading the runs", err);
		goto out;
	}
	bind_text(st, 1, q ? q->machine : NULL);
	bind_text(st, 2, since);
	sqlite3_bind_int64(st, 3, q && q->limit ? (sqlite3_int64)q->limit : -1);
	size_t alloc = 0;
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			out->v = xrealloc(out->v, alloc * sizeof *out->v);
		}
		struct history_run *r = &out->v[out->n++];
		memset(r, 0, sizeof *r);
		r->id = sqlite3_column_int64(st, 0);
		r->started_at = column_dup(st, 1);
		r->when = parse_iso(r->started_at);
		r->duration_ms = sqlite3_column_double(st, 2);
		r->command = column_dup(st, 3);
		r->exit_status = sqlite3_column_int(st, 4);
		r->machine = column_dup(st, 5);
		r->tool_version = column_dup(st, 6);
		r->policy_path = column_dup(st, 7);
		r->verdict = column_dup(st, 8);
		r->first_failure = column_dup(st, 9);
		if (!r->started_at)
			r->started_at = xstrdup("");
		if (!r->machine)
			r->machine = xstrdup("unknown");
		if (!r->verdict)
			r->verdict = xstrdup("?");
	}
	if (step != SQLITE_DONE) {
		db_error(db, db_path, "reading the runs", err);
		goto out;
	}
	/* Newest first from the query (for LIMIT); oldest first for people. */
	for (size_t i = 0; i < out->n / 2; i++) {
		struct history_run t = out->v[i];
		out->v[i] = out->v[out->n - 1 - i];
		out->v[out->n - 1 - i] = t;
	}
	for (size_t i = 0; i < out->n; i++)
		if (load_details(db, &out->v[i]) < 0) {
			db_error(db, db_path, "reading a run's checks", err);
			goto out;
		}
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	if (rc < 0)
		history_runs_release(out);
	return rc;
}

void history_runs_release(struct history_runs *runs)
{
	for (size_t i = 0; i < runs->n; i++) {
		struct history_run *r = &runs->v[i];
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
	}
	free(runs->v);
	runs->v = NULL;
	runs->n = 0;
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
