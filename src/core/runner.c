/* runner.c: isolated, concurrent probe execution. See runner.h. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buildinfo.h"
#include "interrupt.h"
#include "proc.h"
#include "kb_ids.h"
#include "rootfs.h"
#include "sandbox.h"

/*
 * Records the runner adds to a child's result stream (src/core/result.h has
 * the result's own): 'G' a command's process group (int32), 'I' the check
 * that starts now (int32 index), 'C' a cut decided in the child (int32),
 * 'M' the milliseconds the probe took, measured in the child (double),
 * 'R' the check running now is handed back, to run again: 'c' it wants to
 * run a command (then alone), 'w' it waits for such a check; 'W' a
 * CHECK_EARLY probe waits for its deps (double: the ms it ran before).
 */
#define REC_PGID 'G'
#define REC_BEGIN 'I'
#define REC_CUT 'C'
#define REC_MS 'M'
#define REC_DEFER 'R'
#define REC_WAIT 'W'

/*
 * The members of a child share its stdout and stderr (one pipe): before
 * each member the child writes a marker into it, so that what comes after
 * is that member's, in the order it was written. The marker holds a random
 * nonce of the run, so no output is mistaken for one:
 * ESC "]wslgpu:" NONCE(32 hex) ":" INDEX(5 digits) BEL.
 */
#define MARK_HEAD "\033]wslgpu:"
#define MARK_PREFIX_LEN (sizeof MARK_HEAD - 1 + 32)
#define MARK_LEN (MARK_PREFIX_LEN + 1 + 5 + 1)
static char mark_prefix[MARK_PREFIX_LEN + 1];

static void make_mark_prefix(void)
{
	unsigned char r[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, r, sizeof r) : -1;
	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)sizeof r) {
		/* No randomness: time and pid still make a collision unlikely. */
		double t = now_ms();
		pid_t p = getpid();
		memcpy(r, &t, sizeof t);
		memcpy(r + 8, &p, sizeof p < 8 ? sizeof p : 8);
	}
	memcpy(mark_prefix, MARK_HEAD, sizeof MARK_HEAD - 1);
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(mark_prefix + sizeof MARK_HEAD - 1 + 2 * i, 3, "%02x", r[i]);
}

enum state { ST_IDLE, ST_PENDING, ST_RUNNING, ST_DONE };

struct task {
	enum state state;
	bool solo;       /* after trouble in a shared child: next time alone */
	bool early;      /* CHECK_EARLY, started before its deps were done */
	bool late;       /* CHECK_EARLY whose early_if said no: runs as any check */
	bool waiting;    /* ...and waiting for them now (REC_WAIT) */
	bool go;         /* ...and sent them (REC_GO), whether it waits yet or not */
	double pre_ms;   /* what it ran before it waited */
	char deferred;   /* its run in a shared child is void: REC_DEFER's 'c' or 'w' */
	unsigned slot_id; /* the child running it (its output counts), 0: none */
	struct strbuf out; /* its captured stdout and stderr */
	bool out_truncated;
	double start;    /* when the parent saw it begin */
	double child_ms; /* from an 'M' record; < 0 when none came */
};

/* One child process: it runs its members in order, one after another. */
struct slot {
	bool used;
	pid_t pid;
	int wire_fd;   /* result records */
	int out_fd;    /* captured stdout/stderr */
	int ctl_fd;    /* more work for it, once it is idle (child_serve) */
	bool shared;   /* it runs shareable probes (which hand commands over) */
	bool once;     /* an early probe's: its control pipe brings only its deps */
	bool ours;     /* it runs only our code (shareable probes): no vendor probe */
	bool spare;    /* forked before any vendor probe could run: the first to go */
	bool released; /* idle with nothing left for it: told to exit (pipe closed) */
	bool *known;   /* the results it has: done when it was forked, or run in it */
	unsigned id;
	struct strbuf wire;
	struct strbuf scan;   /* output not yet assigned (a marker may be cut) */
	int out_owner;        /* the member whose output comes now, or -1 */
	bool wire_eof, out_eof, exited;
	int wstatus;
	size_t *members;
	size_t nmembers;
	size_t done;   /* members whose result is complete */
	int cur;       /* the member running now (its 'I' came), or -1 */
	double start, deadline;
	pid_t *pgids;  /* command groups the probes started */
	size_t npgids;
	bool corrupt;  /* bytes that are no record came on the wire */
	struct strbuf foreign; /* the first of them */
};

/* ---- the child's records ---- */

/*
 * What a child sends the runner on its result pipe, gathered and written
 * in one write(2) per batch: a result's records, a member's result with
 * the next one's start. Flushed before anything that may not return or
 * may not come back soon -- a probe's run (vendor code, commands), a step
 * (what comes next may crash), a command's group, a wait on the control
 * pipe, the end -- so that a crash or a kill loses nothing written before.
 */
static int child_wire_fd = -1;
static struct strbuf child_pending = STRBUF_INIT;

static void child_add(char type, const void *data, size_t len)
{
	wire_add(&child_pending, type, data, len);
}

static void child_flush(void)
{
	if (child_pending.len && child_wire_fd >= 0)
		wire_write(child_wire_fd, &child_pending);
	sb_reset(&child_pending);
}

static void add_i32(struct strbuf *sb, char type, int v);

static void child_add_i32(char type, int v)
{
	add_i32(&child_pending, type, v);
}

/* ---- helpers the probes call (they run in the child) ---- */

const struct result *probe_dep(struct probe_ctx *ctx, const char *id)
{
	for (size_t i = 0; i < ctx->n; i++)
		if (strcmp(ctx->defs[i].id, id) == 0)
			return ctx->results[i].ran ? &ctx->results[i] : NULL;
	return NULL;
}

const char *probe_dep_get(struct probe_ctx *ctx, const char *id, const char *key)
{
	const struct result *r = probe_dep(ctx, id);
	return r ? res_get(r, key) : NULL;
}

/* "ran" evidence: the guest path of argv[0] (the root's prefix taken off),
 * each argument (an inline script or a long one shown by its size only),
 * and the end. */
static void record_run(struct result *r, const char *const *argv, const struct proc_result *pr)
{
	struct strbuf sb = STRBUF_INIT;
	rootfs_guest_path(argv[0], &sb); /* argv[0] as it is when not inside the root */
	for (size_t i = 1; argv[i]; i++) {
		if (strlen(argv[i]) > 64 || strchr(argv[i], '\n'))
			sb_addf(&sb, " <%zu bytes>", strlen(argv[i]));
		else
			sb_addf(&sb, " %s", argv[i]);
	}
	sb_add(&sb, " (");
	proc_describe_end(pr, &sb);
	sb_addf(&sb, ", %.0f ms)", pr->ms);
	res_ev(r, "ran", "%s", sb.buf);
	sb_release(&sb);
}

int probe_run(struct probe_ctx *ctx, struct result *r, const char *const *argv,
	      const struct proc_opts *opts, struct proc_result *pr)
{
	struct proc_opts o = { 0 };
	if (opts)
		o = *opts;
	o.watch = ctx->procs;
	int rc = proc_run(argv, &o, pr);
	if (rc == 0 && ctx->procs) {
		record_run(r, argv, pr);
		if (pr->ran_here.len)
			res_ev(r, "ran_here", "%s", pr->ran_here.buf);
	}
	return rc;
}

bool probe_alone(struct probe_ctx *ctx)
{
	const struct proc_watch *w = ctx->procs;
	return w && w->defer && w->defer(w->arg);
}

void probe_step(struct probe_ctx *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ctx->wire_fd >= 0) { /* at once: what comes next may crash */
		child_add('T', sb.buf, sb.len);
		child_flush();
	}
	sb_release(&sb);
}

const char *probe_platform(struct probe_ctx *ctx)
{
	const char *k = probe_dep_get(ctx, "platform.kind", "kind");
	return k ? k : "unknown";
}

void probe_image_ev(struct probe_ctx *ctx, struct result *r)
{
	if (ctx->opts && ctx->opts->docker_image && *ctx->opts->docker_image)
		res_ev(r, "image", "%s", ctx->opts->docker_image);
}

bool probe_is_wsl2(struct probe_ctx *ctx)
{
	const char *k = probe_platform(ctx);
	return strcmp(k, "wsl2") == 0 || strcmp(k, "container-in-wsl2") == 0;
}

/* ---- dependencies ---- */

static int find_def(const struct check_def *defs, size_t n, const char *id)
{
	if (strncmp(id, CHECK_AFTER, sizeof CHECK_AFTER - 1) == 0)
		id += sizeof CHECK_AFTER - 1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(defs[i].id, id) == 0)
			return (int)i;
	return -1;
}

/* The deps of the table being run, resolved to indices once (-1: no such
 * check): the scheduler asks for them again and again. */
static const struct check_def *dt_defs;
static int *dt_idx;

static int dep_index(const struct check_def *defs, size_t n, size_t i, int d)
{
	if (defs == dt_defs && dt_idx)
		return dt_idx[i * CHECK_MAX_DEPS + (size_t)d];
	return find_def(defs, n, defs[i].deps[d]);
}

static void resolve_deps(const struct check_def *defs, size_t n)
{
	dt_defs = NULL;
	free(dt_idx);
	dt_idx = xcalloc(n * CHECK_MAX_DEPS + 1, sizeof *dt_idx);
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < CHECK_MAX_DEPS; d++)
			dt_idx[i * CHECK_MAX_DEPS + (size_t)d] =
				defs[i].deps[d] ? find_def(defs, n, defs[i].deps[d]) : -1;
	dt_defs = defs;
}

/* Returns the index of a dep that blocks check i, or -1. *pending is set when
 * some dep has not finished yet. */
static int blocking_dep(const struct check_def *defs, size_t n, struct result *results,
			size_t i, bool *pending)
{
	*pending = false;
	for (int d = 0; d < CHECK_MAX_DEPS && defs[i].deps[d]; d++) {
		int j = dep_index(defs, n, i, d);
		if (j < 0)
			continue; /* unknown checks block nothing */
		if (!results[j].ran) {
			*pending = true;
			continue;
		}
		if (strncmp(defs[i].deps[d], CHECK_AFTER, sizeof CHECK_AFTER - 1) == 0)
			continue; /* orders only: never blocks */
		if (status_is_failure(results[j].status) ||
		    (results[j].status == ST_SKIP && res_get(&results[j], "blocked_by")))
			return j;
	}
	return -1;
}

static void mark_skipped(struct result *r, const struct result *dep)
{
	/* Name the first broken check, not the one in between. */
	const char *root = res_get(dep, "blocked_by");
	if (!root)
		root = dep->def->id;
	res_set(r, ST_SKIP, NULL, "skipped: %s failed, fix that first", root);
	res_ev(r, "blocked_by", "%s", root);
	r->ran = true;
}

static void want_deps(const struct check_def *defs, size_t n, bool *want, size_t i)
{
	for (int d = 0; d < CHECK_MAX_DEPS && defs[i].deps[d]; d++) {
		int j = dep_index(defs, n, i, d);
		if (j >= 0 && !want[j]) {
			want[j] = true;
			want_deps(defs, n, want, (size_t)j);
		}
	}
}

/*
 * A check whose deps are done may be settled without running its probe:
 * skipped behind a failure, not started because the budget is spent, or
 * not checked in a static build. Returns true when it was. The parent and
 * a shared child (for the members whose deps ran in it) decide alike.
 */
static bool settle_unrun(const struct check_def *defs, size_t n, struct result *results,
			 size_t i, const struct run_opts *opts)
{
	bool pending;
	int b = blocking_dep(defs, n, results, i, &pending);
	if (b >= 0) {
		mark_skipped(&results[i], &results[b]);
		return true;
	}
	if (opts->budget_end_ms > 0 && now_ms() >= opts->budget_end_ms) {
		res_set(&results[i], ST_SKIP, KB_CORE_BUDGET_SPENT,
			"skipped: the run's time budget was spent before it could start");
		results[i].cut = CUT_NOT_STARTED;
		results[i].ran = true;
		return true;
	}
	const char *static_why = buildinfo_static_skip(defs[i].id);
	if (static_why) {
		/* A warning, not a quiet skip: the GPU path is unproven, and
		 * "no problems found" would be a lie. */
		res_set(&results[i], ST_WARN, KB_CORE_STATIC_BUILD, "not checked: %s", static_why);
		results[i].ran = true;
		return true;
	}
	return false;
}

/* ---- the child side ---- */

static void report_pgid(void *arg, pid_t pgid)
{
	(void)arg;
	/* At once: the runner kills the group if this child dies. */
	child_add_i32(REC_PGID, (int)pgid);
	child_flush();
}

/*
 * The next whole record of buf[0..len) (result.h's framing): its size
 * (header included) in *size, its payload length in *n and its int32
 * payload, if it has one, in *v. Returns false when the record is not
 * complete yet; a length over the limit is garbage: *size takes the rest.
 */
static bool next_record(const char *buf, size_t len, size_t *size, uint32_t *n, int32_t *v)
{
	if (len < 5)
		return false;
	const unsigned char *h = (const unsigned char *)buf;
	*n = (uint32_t)h[1] | (uint32_t)h[2] << 8 | (uint32_t)h[3] << 16 | (uint32_t)h[4] << 24;
	if (*n > (1u << 20)) {
		*size = len;
		*n = 0;
		*v = -1;
		return true;
	}
	if (len - 5 < *n)
		return false;
	*size = 5 + *n;
	*v = -1;
	if (*n == 4)
		memcpy(v, h + 5, 4);
	return true;
}

static void add_i32(struct strbuf *sb, char type, int v)
{
	int32_t x = (int32_t)v;
	wire_add(sb, type, &x, sizeof x);
}

/* In a shared child no command runs: the probe is handed over. */
static bool child_deferred;

/* The member running in this child: when it began, how long it waited
 * for its deps (probe_wait_deps). An early probe's deps are still to come
 * on the control pipe child_deps_fd while child_deps_pending. */
static double child_t0, child_waited;
static bool child_deps_pending;
static int child_deps_fd = -1;

/*
 * What the runner sends a child on its control pipe: REC_RESULT idx, then
 * that check's result records (a dep that ran elsewhere); REC_RUN idx to
 * run a check (an idle child); REC_GO idx: the deps of the early probe
 * running now are done, their results sent. The runner closes the pipe at
 * the end.
 */
#define REC_RESULT 'J'
#define REC_RUN 'X'
#define REC_GO 'Y'

/* Applies one control record to ctx (a dep's result arriving); returns its
 * type when it is REC_RUN or REC_GO with a valid index, else 0. */
static char ctl_apply(struct probe_ctx *ctx, const char *rec, size_t size, uint32_t n, int32_t v,
		      int *target)
{
	char type = rec[0];
	if (!n && size > 5)
		return 0; /* garbage */
	bool idx = n == 4 && v >= 0 && (size_t)v < ctx->n;
	if (type == REC_RESULT && idx) {
		*target = v;
		result_release(&ctx->results[v]);
		result_init(&ctx->results[v], &ctx->defs[v]);
	} else if (type == REC_CUT && n == 4 && *target >= 0) {
		ctx->results[*target].cut = (enum cut)v;
	} else if ((type == REC_RUN || type == REC_GO) && idx) {
		*target = -1;
		return type;
	} else if (type && *target >= 0) {
		wire_apply(&ctx->results[*target], rec, size);
	}
	return 0;
}

void probe_wait_deps(struct probe_ctx *ctx)
{
	if (!child_deps_pending)
		return;
	child_deps_pending = false;
	double t0 = now_ms(), pre = t0 - child_t0 - child_waited;
	child_add(REC_WAIT, &pre, sizeof pre);
	child_flush();
	struct strbuf in = STRBUF_INIT;
	int target = -1;
	bool go = false;
	while (!go) {
		char buf[16384];
		ssize_t got = read(child_deps_fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			_exit(0); /* the runner ended the run, or this check: it kills us */
		sb_addn(&in, buf, (size_t)got);
		size_t used = 0, size;
		uint32_t n;
		int32_t v;
		while (!go && next_record(in.buf + used, in.len - used, &size, &n, &v)) {
			go = ctl_apply(ctx, in.buf + used, size, n, v, &target) == REC_GO;
			used += size;
		}
		memmove(in.buf, in.buf + used, in.len - used);
		in.len -= used;
	}
	sb_release(&in);
	child_waited += now_ms() - t0;
}

static bool defer_command(void *arg)
{
	(void)arg;
	if (!child_deferred) {
		child_add(REC_DEFER, "c", 1);
		child_flush();
	}
	child_deferred = true;
	return true;
}

static bool deps_ran(const struct probe_ctx *ctx, size_t i)
{
	for (int d = 0; d < CHECK_MAX_DEPS && ctx->defs[i].deps[d]; d++) {
		int j = dep_index(ctx->defs, ctx->n, i, d);
		if (j >= 0 && !ctx->results[j].ran)
			return false;
	}
	return true;
}

/* Runs check i in this child and sends its result. check_deps: its deps
 * may have run here (and failed, or been handed over: then it waits for
 * them in the parent); the first member's were done when the parent chose
 * it. */
static void child_member(struct probe_ctx *ctx, size_t i, bool check_deps, bool shared)
{
	struct result *r = &ctx->results[i];
	if (check_deps) {
		result_init(r, &ctx->defs[i]);
		if (!deps_ran(ctx, i)) {
			child_add_i32(REC_BEGIN, (int)i);
			child_add(REC_DEFER, "w", 1);
			wire_add_result(&child_pending, r);
			return;
		}
		if (settle_unrun(ctx->defs, ctx->n, ctx->results, i, ctx->opts)) {
			child_add_i32(REC_BEGIN, (int)i);
			if (r->cut != CUT_NONE)
				child_add_i32(REC_CUT, (int)r->cut);
			wire_add_result(&child_pending, r);
			return;
		}
	}
	/* Its start (and what came before it) goes out before it runs. */
	child_add_i32(REC_BEGIN, (int)i);
	child_flush();
	char mark[MARK_LEN + 1];
	fflush(stdout);
	fflush(stderr);
	snprintf(mark, sizeof mark, "%s:%05u\a", mark_prefix, (unsigned)i % 100000);
	ssize_t w = write(1, mark, MARK_LEN);
	(void)w;
	result_init(r, &ctx->defs[i]);
	child_deferred = false;
	rootfs_notes_to(&r->ev); /* what rootfs did not read shows as its evidence */
	/* Vendor code (a child of its own) runs where it cannot change this
	 * machine; a change to /dev that happens anyway is reported. */
	if (!shared)
		sandbox_child_begin();
	double t0 = now_ms();
	child_t0 = t0;
	child_waited = 0;
	ctx->defs[i].run(ctx, r);
	/* A result counts only once its deps are known (a dep that fails
	 * voids it): an early probe that did not ask waits now. */
	probe_wait_deps(ctx);
	if (!shared)
		sandbox_child_end(r);
	rootfs_notes_to(NULL);
	/* What the probe started and left running ends with it. (In a shared
	 * child nothing is started: commands are handed over.) */
	if (!shared)
		proc_end_children(NULL, 0);
	double ms = now_ms() - t0 - child_waited;
	if (!r->detail)
		r->detail = xstrdup("");
	fflush(stdout);
	fflush(stderr);
	child_add(REC_MS, &ms, sizeof ms);
	wire_add_result(&child_pending, r);
	r->ran = !child_deferred; /* for the members after it */
}

/* An idle child waits for more work on its control pipe (ctl_apply). */
static void child_serve(struct probe_ctx *ctx, bool shared, int ctl_fd)
{
	struct strbuf in = STRBUF_INIT;
	int target = -1;
	for (;;) {
		char buf[16384];
		child_flush(); /* the results so far, before waiting for more work */
		ssize_t got = read(ctl_fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		sb_addn(&in, buf, (size_t)got);
		size_t used = 0, size;
		uint32_t n;
		int32_t v;
		while (next_record(in.buf + used, in.len - used, &size, &n, &v)) {
			if (ctl_apply(ctx, in.buf + used, size, n, v, &target) == REC_RUN)
				child_member(ctx, (size_t)v, true, shared);
			used += size;
		}
		memmove(in.buf, in.buf + used, in.len - used);
		in.len -= used;
	}
	child_flush();
	_exit(0);
}

/*
 * A fork copies no page table entry of a mapped file: the child faults
 * again on every page of code it runs (16 at a time, the kernel's
 * fault-around), 20-27 faults in each probe child on the healthy fixture,
 * each tens of microseconds on a VM where a fault exits to the hypervisor.
 * One MADV_POPULATE_READ (Linux 5.14; refused harmlessly before) maps the
 * executable segments of our program and of libc at once.
 */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static int map_code_of(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	/* the program itself (no name) and libc: what every child runs */
	if (info->dlpi_name[0] && !strstr(info->dlpi_name, "/libc.so"))
		return 0;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t mask = (uintptr_t)(page > 0 ? page : 4096) - 1;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uintptr_t from = (uintptr_t)(info->dlpi_addr + ph->p_vaddr) & ~mask;
		uintptr_t to = ((uintptr_t)(info->dlpi_addr + ph->p_vaddr + ph->p_memsz) + mask) & ~mask;
		madvise((void *)from, to - from, MADV_POPULATE_READ);
	}
	return 0;
}

static void run_child(struct probe_ctx *ctx, const size_t *members, size_t nmembers,
		      bool shared, bool ours, bool early, int wire_fd, int out_fd, int ctl_fd,
		      const sigset_t *mask, pid_t runner)
{
	/* The code it runs, mapped at once; not for an early probe's child,
	 * which runs one command on the critical path and little of our code
	 * (its start came 0.08 ms sooner without, its probe no slower:
	 * doc/hardening.md). */
	if (!early)
		dl_iterate_phdr(map_code_of, NULL);
	/* A session of its own: no controlling terminal for the vendor code
	 * its probes load (nothing written to the user's terminal, its
	 * settings untouched, no job control stop). A child that runs only
	 * our code (shareable probes: files, and commands, which proc_run
	 * starts in sessions of their own) needs only a process group of its
	 * own, out of the terminal's foreground group: setsid() also makes a
	 * scheduler autogroup (CONFIG_SCHED_AUTOGROUP), 10-300 us measured
	 * here before the first probe could start, and again at its exit. */
	if (!ours || setpgid(0, 0) < 0)
		proc_detach();
	/* Dies with the runner (even a SIGKILLed one), and inherits what its
	 * descendants orphan, setsid()ed daemons too, to end it all below. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != runner)
		_exit(127);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* Default dispositions: a crash must end this child with the signal,
	 * whatever handlers the parent had (a test framework's, a sanitizer's,
	 * the runner's own for SIGINT, SIGTERM, SIGHUP and SIGCHLD). */
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGTERM,
				     SIGHUP, SIGCHLD };
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		signal(fatal[i], SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	sigprocmask(SIG_SETMASK, mask, NULL);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	fflush(stdout);
	fflush(stderr);
	dup2(out_fd, 1);
	dup2(out_fd, 2);
	/* Our two pipes go high (1023, 1022): vendor code that writes into a
	 * small number it does not own (fd 9, say) must miss the results.
	 * Nothing inherited reaches the probes and the vendor code they load:
	 * not the caller's open files, not the other probes' pipes (whose
	 * readers would never see EOF while we live). */
	wire_fd = proc_fd_high(wire_fd, 0);
	if (ctl_fd >= 0)
		ctl_fd = proc_fd_high(ctl_fd, 1);
	int keep[2] = { wire_fd, ctl_fd };
	proc_close_fds(keep, 2);
	ctx->wire_fd = wire_fd;
	/* Its probes walk the same directories again and again (/usr/lib):
	 * once is enough for a process this short-lived (rootfs.h). */
	rootfs_cache(true);
	child_deps_pending = early && ctl_fd >= 0;
	child_deps_fd = ctl_fd;
	child_wire_fd = wire_fd;
	/* The commands its probes run: their groups go to the parent, which
	 * kills them with the probe; a shared child runs none. */
	static struct proc_watch watch;
	watch.started = report_pgid;
	watch.defer = shared ? defer_command : NULL;
	ctx->procs = &watch;

	for (size_t m = 0; m < nmembers; m++)
		child_member(ctx, members[m], m > 0, shared);
	/* An early probe's control pipe brings nothing but its deps: its
	 * child ends at once, its exit beside the runner's reading of its
	 * result, not after a kill the runner sends then. */
	if (early) {
		child_flush();
		_exit(0);
	}
	child_serve(ctx, shared, ctl_fd);
}

/* ---- the parent side ---- */

struct run {
	const struct check_def *defs;
	size_t n;
	const struct run_opts *opts;
	struct result *results;
	struct task *tasks;
	struct slot *slots; /* n of them: never more children than checks */
	size_t running;     /* slots in use */
	double *height;     /* how many checks wait on each, through the chain */
	size_t forks;       /* children started */
};

/* Output of member i from slot s, kept up to the cap. */
static void out_emit(struct run *run, struct slot *s, const char *p, size_t n)
{
	int i = s->out_owner;
	if (i < 0 || !n || run->tasks[i].slot_id != s->id)
		return; /* a member handed over: its output here is void */
	struct task *t = &run->tasks[i];
	size_t room = t->out.len < RUNNER_OUTPUT_CAP ? RUNNER_OUTPUT_CAP - t->out.len : 0;
	if (n > room)
		t->out_truncated = true;
	sb_addn(&t->out, p, n < room ? n : room);
}

/* Splits the output at the members' markers; keeps back a tail that may be
 * the start of one (all of it when the child has ended: flush). */
static void out_feed(struct run *run, struct slot *s, bool flush)
{
	if (!s->scan.len)
		return;
	size_t off = 0;
	for (;;) {
		const char *base = s->scan.buf + off;
		size_t left = s->scan.len - off;
		const char *m = memmem(base, left, mark_prefix, MARK_PREFIX_LEN);
		if (!m || (size_t)(base + left - m) < MARK_LEN) {
			/* No whole marker: keep what could begin one. */
			size_t keep = 0;
			if (m)
				keep = (size_t)(base + left - m);
			else if (!flush)
				keep = left < MARK_PREFIX_LEN - 1 ? left : MARK_PREFIX_LEN - 1;
			if (flush)
				keep = 0;
			out_emit(run, s, base, left - keep);
			off += left - keep;
			break;
		}
		out_emit(run, s, base, (size_t)(m - base));
		const char *d = m + MARK_PREFIX_LEN + 1;
		int idx = 0;
		for (int k = 0; k < 5; k++)
			idx = idx * 10 + (d[k] >= '0' && d[k] <= '9' ? d[k] - '0' : 0);
		s->out_owner = idx < (int)run->n ? idx : -1;
		off = (size_t)(m - s->scan.buf) + MARK_LEN;
	}
	if (off) {
		memmove(s->scan.buf, s->scan.buf + off, s->scan.len - off);
		s->scan.len -= off;
		s->scan.buf[s->scan.len] = '\0';
	}
}

static void drain_out(struct run *run, struct slot *s)
{
	char buf[16384];
	for (;;) {
		ssize_t got = read(s->out_fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				s->out_eof = true;
			return;
		}
		sb_addn(&s->scan, buf, (size_t)got);
		out_feed(run, s, false);
	}
}

static void member_begins(struct run *run, struct slot *s, int i)
{
	double now = now_ms();
	s->cur = i;
	run->tasks[i].start = now;
	run->tasks[i].child_ms = -1;
	run->tasks[i].deferred = 0;
	s->deadline = now + run->opts->timeout_ms;
	if (run->opts->budget_end_ms > 0 && run->opts->budget_end_ms < s->deadline)
		s->deadline = run->opts->budget_end_ms;
}

/* A member handed over: what it found in the shared child is void; it
 * runs again alone (it is the one that wants a command: solo), or, when it
 * only waited for such a one, with the others. */
static void requeue(struct run *run, int i, bool solo)
{
	result_release(&run->results[i]);
	run->tasks[i].state = ST_PENDING;
	run->tasks[i].solo = solo;
	run->tasks[i].early = run->tasks[i].waiting = run->tasks[i].go = false;
	run->tasks[i].deferred = 0;
	run->tasks[i].slot_id = 0;
	sb_reset(&run->tasks[i].out);
	run->tasks[i].out_truncated = false;
}

static void member_complete(struct run *run, struct slot *s)
{
	int i = s->cur;
	struct result *r = &run->results[i];
	if (run->tasks[i].deferred) {
		requeue(run, i, run->tasks[i].deferred == 'c');
		s->done++;
		s->cur = -1;
		return;
	}
	struct task *t = &run->tasks[i];
	r->ms = t->child_ms >= 0 ? t->child_ms : now_ms() - t->start;
	r->ms_before_deps = t->early ? t->pre_ms : 0;
	r->ran = true;
	t->state = ST_DONE;
	s->known[i] = true;
	s->done++;
	s->cur = -1;
	if (run->opts->on_result)
		run->opts->on_result(run->opts->on_result_arg, (size_t)i, r);
}

/* Is this a record the child writes: a known type, of its size? */
static bool record_ok(unsigned char type, uint32_t n, const unsigned char *p)
{
	switch (type) {
	case REC_PGID: case REC_BEGIN: case REC_CUT:
		return n == 4;
	case REC_DEFER: case 'S':
		return n == 1;
	case REC_MS: case REC_WAIT:
		return n == sizeof(double);
	case 'D': case 'K': case 'T':
		return true;
	case 'E':
		return memchr(p, '\0', n) != NULL;
	default:
		return false;
	}
}

/* What is no record of ours: the slot's stream is void from here on (its
 * framing is lost); the first bytes are kept to show. */
static void wire_corrupt(struct slot *s, const char *at, size_t left)
{
	s->corrupt = true;
	sb_reset(&s->foreign);
	sb_addn(&s->foreign, at, left < 120 ? left : 120);
}

static void slot_absorb_wire(struct run *run, struct slot *s)
{
	size_t used = 0, size;
	uint32_t n;
	int32_t v;
	if (s->corrupt) {
		sb_reset(&s->wire);
		return;
	}
	while (next_record(s->wire.buf + used, s->wire.len - used, &size, &n, &v)) {
		const unsigned char *h = (const unsigned char *)s->wire.buf + used;
		const unsigned char *p = h + 5;
		if ((!n && size > 5) || !record_ok(h[0], n, p)) {
			wire_corrupt(s, s->wire.buf + used, s->wire.len - used);
			used = s->wire.len;
			break;
		}
		if (h[0] == REC_PGID && n == 4) {
			s->pgids = xrealloc(s->pgids, (s->npgids + 1) * sizeof *s->pgids);
			s->pgids[s->npgids++] = (pid_t)v;
		} else if (h[0] == REC_BEGIN && n == 4) {
			/* Only the member due next may begin. */
			if (s->cur < 0 && s->done < s->nmembers && (size_t)v == s->members[s->done])
				member_begins(run, s, v);
		} else if (h[0] == REC_CUT && n == 4 && s->cur >= 0) {
			if (v > CUT_NONE && v <= CUT_INTERRUPTED)
				run->results[s->cur].cut = (enum cut)v;
		} else if (h[0] == REC_DEFER && n == 1 && s->cur >= 0) {
			if (p[0] == 'c' || p[0] == 'w')
				run->tasks[s->cur].deferred = (char)p[0];
		} else if (h[0] == REC_MS && n == sizeof(double) && s->cur >= 0) {
			memcpy(&run->tasks[s->cur].child_ms, p, sizeof(double));
		} else if (h[0] == REC_WAIT && n == sizeof(double) && s->cur >= 0 &&
			   run->tasks[s->cur].early) {
			memcpy(&run->tasks[s->cur].pre_ms, p, sizeof(double));
			/* Its deps' own time limits hold while it waits for them;
			 * when their results were sent before it asked, it does
			 * not wait. */
			if (!run->tasks[s->cur].go) {
				run->tasks[s->cur].waiting = true;
				s->deadline = 1e300;
			}
		} else if (s->cur >= 0) {
			struct result *r = &run->results[s->cur];
			wire_apply(r, s->wire.buf + used, size);
			if (r->ran)
				member_complete(run, s);
		}
		used += size;
	}
	/* A record not complete yet: its type byte alone tells a foreign
	 * write, before the made-up length it implies has come. */
	if (used < s->wire.len && !memchr("GICRMSDKTEW", s->wire.buf[used], 11)) {
		wire_corrupt(s, s->wire.buf + used, s->wire.len - used);
		used = s->wire.len;
	}
	if (used) {
		memmove(s->wire.buf, s->wire.buf + used, s->wire.len - used);
		s->wire.len -= used;
		s->wire.buf[s->wire.len] = '\0';
	}
}

static void read_wire(struct run *run, struct slot *s)
{
	char buf[16384];
	for (;;) {
		ssize_t got = read(s->wire_fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				s->wire_eof = true;
			break;
		}
		sb_addn(&s->wire, buf, (size_t)got);
		slot_absorb_wire(run, s);
		if ((size_t)got < sizeof buf)
			break;
	}
}

static void set_timeout(struct result *r, double deadline, double began,
			const struct run_opts *opts)
{
	struct strbuf d = STRBUF_INIT;
	/* The limit said is the user's own (--timeout 2 is "2.0 s"), though a
	 * member of a shared child that started late had less of it left;
	 * only a deadline that was the end of smoke's budget is named so. */
	bool budget = opts->budget_end_ms > 0 && deadline >= opts->budget_end_ms - 1 &&
		      deadline - began < opts->timeout_ms - 1;
	r->cut = budget ? CUT_BUDGET : CUT_TIMEOUT;
	sb_addf(&d, "probe did not finish within %.1f s%s",
		(budget ? deadline - began : opts->timeout_ms) / 1000.0,
		budget ? " (what was left of the run's time budget)" : "");
	if (r->step)
		sb_addf(&d, " while waiting for: %s", r->step);
	r->status = ST_TIMEOUT;
	free(r->detail);
	r->detail = sb_detach(&d);
	free(r->kb);
	r->kb = xstrdup(KB_CORE_PROBE_TIMEOUT);
	res_ev(r, "waiting_for", "%s", r->step ? r->step : "unknown");
}

static void set_crash(struct result *r, int wstatus)
{
	char sigbuf[16];
	free(r->detail);
	free(r->kb);
	r->kb = xstrdup(KB_CORE_PROBE_CRASH);
	r->status = ST_CRASH;
	if (WIFSIGNALED(wstatus)) {
		const char *sig = signal_name(WTERMSIG(wstatus), sigbuf);
		r->detail = xasprintf("probe crashed (%s)%s%s", sig, r->step ? " while: " : "",
				      r->step ? r->step : "");
		res_ev(r, "signal", "%s", sig);
	} else {
		/* Exited without a complete result: something called exit(). */
		r->detail = xasprintf("probe exited (status %d) before reporting a result%s%s",
				      WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1,
				      r->step ? " while: " : "", r->step ? r->step : "");
	}
	res_ev(r, "during", "%s", r->step ? r->step : "unknown");
}

static void set_interrupted(struct result *r, int sig, bool started)
{
	char sigbuf[16];
	const char *name = signal_name(sig, sigbuf);
	free(r->kb);
	r->kb = NULL;
	r->status = ST_SKIP;
	r->cut = CUT_INTERRUPTED;
	free(r->detail);
	if (started)
		r->detail = xasprintf("interrupted by %s before it finished%s%s", name,
				      r->step ? " while waiting for: " : "", r->step ? r->step : "");
	else
		r->detail = xasprintf("not run: interrupted by %s", name);
	res_ev(r, "interrupted_by", "%s", name);
	r->ran = true;
}

/* Stopped (SIGSTOP; with no terminal, nothing else stops it): waiting
 * would only run into the time limit and read as a hung driver. */
static void set_stopped(struct result *r, int sig)
{
	char sigbuf[16];
	const char *name = signal_name(sig, sigbuf);
	free(r->detail);
	free(r->kb);
	r->kb = xstrdup(KB_CORE_PROBE_STOPPED);
	r->status = ST_CRASH;
	r->detail = xasprintf("probe was stopped (%s) and killed%s%s", name,
			      r->step ? " while: " : "", r->step ? r->step : "");
	res_ev(r, "stopped_by", "%s", name);
	res_ev(r, "during", "%s", r->step ? r->step : "unknown");
}

/* Bytes that are no record of ours came on the result pipe: code the probe
 * ran (a vendor library) wrote into a descriptor it does not own. */
static void set_foreign(struct result *r, const struct strbuf *bytes)
{
	free(r->detail);
	free(r->kb);
	r->kb = xstrdup(KB_CORE_PROBE_FOREIGN_WRITE);
	r->status = ST_CRASH;
	r->detail = xasprintf("the code the probe ran wrote into the probe's result pipe%s%s",
			      r->step ? " while: " : "", r->step ? r->step : "");
	res_ev_text(r, "foreign_bytes", bytes->len ? bytes->buf : "", 120);
	res_ev(r, "during", "%s", r->step ? r->step : "unknown");
}

/*
 * Ends a slot's child and everything it started, and settles its members:
 * the one running gets `how` ('t' timed out, 'x' exited or crashed, 'i'
 * interrupted by sig, 's' stopped by sig, 'w' wrote what is no record into
 * the result pipe, 'c' all complete); the ones not begun go back to
 * pending, to run alone (or are interrupted too).
 */
static void end_slot(struct run *run, struct slot *s, char how, int sig)
{
	kill(-s->pid, SIGKILL);
	kill(s->pid, SIGKILL); /* before its setsid() its group is not its own */
	for (size_t i = 0; i < s->npgids; i++)
		kill(-s->pgids[i], SIGKILL);
	if (!s->exited) {
		while (waitpid(s->pid, &s->wstatus, 0) < 0 && errno == EINTR)
			;
		s->exited = true;
	}
	/* What was written before the end still counts. */
	read_wire(run, s);
	drain_out(run, s);
	out_feed(run, s, true);
	/* Its orphans (setsid()ed daemons) are ours now: we are a subreaper.
	 * A child that completed every member has none (each vendor member
	 * ended what it started before its result came; a shared child starts
	 * nothing): the sweep at the run's end is enough, and each sweep
	 * reads /proc. */
	if (how != 'c') {
		pid_t *live = xcalloc(run->n + 1, sizeof *live);
		size_t nlive = 0;
		for (size_t k = 0; k < run->n; k++)
			if (run->slots[k].used && &run->slots[k] != s)
				live[nlive++] = run->slots[k].pid;
		proc_end_children(live, nlive);
		free(live);
	}

	if (s->cur >= 0 && run->tasks[s->cur].deferred && how != 'i') {
		/* Handed back before it ended: what happened since is void. */
		requeue(run, s->cur, run->tasks[s->cur].deferred == 'c');
		s->done++;
		s->cur = -1;
		for (size_t m = s->done; m < s->nmembers; m++)
			requeue(run, (int)s->members[m], true);
		s->done = s->nmembers;
	}
	if (s->done < s->nmembers) {
		/* The one running, or (no 'I' came yet) the one due. */
		int i = s->cur >= 0 ? s->cur : (int)s->members[s->done];
		struct result *r = &run->results[i];
		double began = s->cur >= 0 ? run->tasks[i].start : s->start;
		run->tasks[i].start = began;
		if (how == 't')
			set_timeout(r, s->deadline, began, run->opts);
		else if (how == 'i')
			set_interrupted(r, sig, true);
		else if (how == 's')
			set_stopped(r, sig);
		else if (how == 'w')
			set_foreign(r, &s->foreign);
		else
			set_crash(r, s->wstatus);
		r->ms = now_ms() - run->tasks[i].start;
		r->ran = true;
		run->tasks[i].state = ST_DONE;
		s->done++;
		for (size_t m = s->done; m < s->nmembers; m++)
			requeue(run, (int)s->members[m], true);
	}
	close(s->wire_fd);
	close(s->out_fd);
	if (s->ctl_fd >= 0)
		close(s->ctl_fd);
	sb_release(&s->wire);
	sb_release(&s->scan);
	sb_release(&s->foreign);
	free(s->pgids);
	free(s->members);
	free(s->known);
	memset(s, 0, sizeof *s);
	run->running--;
}

/* ---- choosing what runs together ---- */

/* May run in a shared child: no vendor code in its process (a command it
 * wants to run is handed over, REC_DEFER). */
static bool shareable(const struct run *run, size_t i)
{
	return run->defs[i].flags & (CHECK_FILES | CHECK_COMMANDS);
}

static bool deps_done_or_in(const struct run *run, size_t i, const bool *in)
{
	for (int d = 0; d < CHECK_MAX_DEPS && run->defs[i].deps[d]; d++) {
		int j = dep_index(run->defs, run->n, i, d);
		if (j < 0)
			continue;
		if (run->tasks[j].state != ST_DONE && !in[j])
			return false;
	}
	return true;
}

/* Does check i need one of in[] (a dep, not an after: one)? */
static bool depends_on_any(const struct run *run, size_t i, const bool *in)
{
	for (int d = 0; d < CHECK_MAX_DEPS && run->defs[i].deps[d]; d++) {
		int j = dep_index(run->defs, run->n, i, d);
		if (j >= 0 && in[j] &&
		    strncmp(run->defs[i].deps[d], CHECK_AFTER, sizeof CHECK_AFTER - 1) != 0)
			return true;
	}
	return false;
}

/*
 * Which of two ready members of a child runs first: one that may run a
 * command, so that its command starts at once in a child of its own (the
 * hand-over) instead of after every parser of the shared child (docker
 * info waited for toolkit.packages' read of dpkg's status); then the one
 * more checks wait on.
 */
static bool before(const struct run *run, size_t a, size_t b)
{
	bool ca = run->defs[a].flags & CHECK_COMMANDS, cb = run->defs[b].flags & CHECK_COMMANDS;
	if (ca != cb)
		return ca;
	return run->height[a] > run->height[b];
}

/*
 * The members of a new child that starts with check first. Probes of our
 * own code that only read files (CHECK_FILES) share a child with every
 * such probe that can run once the ones before it did: one fork for a
 * whole layer of parsers. A probe that runs vendor code takes along only
 * the checks of its own chain (cuda.load, then cuda.init...), never an
 * independent one, so that vendor calls still run in parallel and one
 * library's crash or hang costs only its own chain. Members come in
 * dependency order, in the order of before().
 */
static size_t choose_members(struct run *run, size_t first, size_t *out)
{
	bool *in = xcalloc(run->n, sizeof *in);
	size_t k = 0;
	out[k++] = first;
	in[first] = true;
	bool files = shareable(run, first);
	if (!run->tasks[first].solo) {
		for (;;) {
			int best = -1;
			for (size_t i = 0; i < run->n; i++) {
				const struct task *t = &run->tasks[i];
				if (t->state != ST_PENDING || in[i] || t->solo)
					continue;
				if (shareable(run, i) != files)
					continue;
				if (!deps_done_or_in(run, i, in))
					continue;
				if (!files && !depends_on_any(run, i, in))
					continue;
				if (best < 0 || before(run, i, (size_t)best))
					best = (int)i;
			}
			if (best < 0)
				break;
			in[best] = true;
			out[k++] = (size_t)best;
		}
	}
	free(in);
	return k;
}

/* How many checks wait on each one, directly or through others: the
 * ones that unblock the most run first. */
static void compute_heights(struct run *run)
{
	for (size_t i = 0; i < run->n; i++)
		run->height[i] = 0;
	/* deps point back in the table, mostly; iterate to a fixed point
	 * (bounded: a cycle would be a table bug). */
	for (size_t round = 0; round < run->n; round++) {
		bool changed = false;
		for (size_t i = 0; i < run->n; i++)
			for (int d = 0; d < CHECK_MAX_DEPS && run->defs[i].deps[d]; d++) {
				int j = dep_index(run->defs, run->n, i, d);
				double h = run->height[i] + 1;
				if (j >= 0 && run->height[j] < h) {
					run->height[j] = h;
					changed = true;
				}
			}
		if (!changed)
			break;
	}
}

static bool slot_idle(const struct slot *s);

/* start_slot's `first` for a spare child: one with no check yet, for the
 * first vendor probe whose deps are done (want_spare). */
#define SPARE ((size_t)-1)

static void start_slot(struct run *run, size_t first, const sigset_t *mask)
{
	bool spare = first == SPARE;
	/* Fewer children than checks run at any time, the spare aside: a
	 * slot is free, or the spare is idle and goes. */
	struct slot *s = run->slots;
	while (s < run->slots + run->n && s->used)
		s++;
	for (size_t k = 0; s == run->slots + run->n && k < run->n; k++)
		if (run->slots[k].spare && slot_idle(&run->slots[k])) {
			end_slot(run, &run->slots[k], 'c', 0);
			s = &run->slots[k];
		}
	if (s == run->slots + run->n)
		return; /* a spare; never a check, by the count above */
	size_t *members = xcalloc(run->n, sizeof *members);
	size_t nm = spare ? 0 : choose_members(run, first, members);
	int wp[2], op[2], cp[2] = { -1, -1 };
	if (pipe2(cp, O_CLOEXEC) < 0)
		cp[0] = cp[1] = -1; /* then no more work for it: it exits when done */
	if (spare && cp[0] < 0) {
		free(members);
		return;
	}
	/* A spare that cannot start (no descriptor, no process) is simply not
	 * there: it has no check of its own to fail (first is SPARE). */
	if (pipe2(wp, O_CLOEXEC) < 0) {
		if (!spare)
			res_set(&run->results[first], ST_CRASH, KB_CORE_PROBE_CRASH,
				"could not start the probe: %s", strerror(errno));
		if (cp[0] >= 0) {
			close(cp[0]);
			close(cp[1]);
		}
		goto failed;
	}
	if (pipe2(op, O_CLOEXEC) < 0) {
		if (!spare)
			res_set(&run->results[first], ST_CRASH, KB_CORE_PROBE_CRASH,
				"could not start the probe: %s", strerror(errno));
		close(wp[0]);
		close(wp[1]);
		if (cp[0] >= 0) {
			close(cp[0]);
			close(cp[1]);
		}
		goto failed;
	}
	struct probe_ctx ctx = { run->defs, run->results, run->n, run->opts, -1, NULL };
	fflush(stdout);
	fflush(stderr);
	pid_t runner = getpid();
	double start = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(wp[0]); close(wp[1]); close(op[0]); close(op[1]);
		if (cp[0] >= 0) {
			close(cp[0]);
			close(cp[1]);
		}
		if (!spare)
			res_set(&run->results[first], ST_CRASH, KB_CORE_PROBE_CRASH,
				"could not fork the probe: %s", strerror(e));
		goto failed;
	}
	bool ours = !spare && shareable(run, first);
	bool shared = ours && !run->tasks[first].solo;
	bool early = !spare && run->tasks[first].early;
	if (pid == 0) {
		if (cp[1] >= 0)
			close(cp[1]);
		run_child(&ctx, members, nm, shared, ours, early, wp[1], op[1], cp[0], mask, runner);
	}
	/* No setpgid(pid, pid): the child's setsid() (or its own setpgid())
	 * must come first (end_slot kills it by pid too). */
	close(wp[1]);
	close(op[1]);
	if (cp[0] >= 0)
		close(cp[0]);
	fcntl(wp[0], F_SETFL, O_NONBLOCK);
	fcntl(op[0], F_SETFL, O_NONBLOCK);
	static unsigned next_id;
	memset(s, 0, sizeof *s);
	s->used = true;
	s->id = ++next_id;
	s->out_owner = spare ? -1 : (int)members[0];
	s->pid = pid;
	run->forks++;
	s->wire_fd = wp[0];
	s->out_fd = op[0];
	/* A child that had trouble before runs alone and is not reused; an
	 * early probe's gets only its deps' results on its control pipe. */
	s->ctl_fd = !spare && run->tasks[first].solo && !early && cp[1] >= 0 ? (close(cp[1]), -1)
									      : cp[1];
	s->once = early;
	s->shared = shared;
	s->ours = ours;
	s->spare = spare;
	s->known = xcalloc(run->n, sizeof *s->known);
	for (size_t k = 0; k < run->n; k++)
		s->known[k] = run->tasks[k].state == ST_DONE;
	s->members = members;
	s->nmembers = nm;
	s->cur = -1;
	s->start = start;
	s->deadline = start + run->opts->timeout_ms;
	if (run->opts->budget_end_ms > 0 && run->opts->budget_end_ms < s->deadline)
		s->deadline = run->opts->budget_end_ms;
	for (size_t m = 0; m < nm; m++) {
		run->tasks[members[m]].state = ST_RUNNING;
		run->tasks[members[m]].start = start;
		run->tasks[members[m]].slot_id = s->id;
	}
	run->running++;
	return;
failed:
	if (!spare) {
		run->results[first].ran = true;
		run->tasks[first].state = ST_DONE;
	}
	free(members);
}

static bool slot_idle(const struct slot *s)
{
	return s->used && !s->once && s->ctl_fd >= 0 && !s->exited && s->done == s->nmembers;
}

/* Sends child s every result that is done and that it does not have, as
 * a fresh fork would have them, then the order `type` for check i: all
 * in one write. A child that is busy does not read: unless `busy` is
 * false, all of it must fit in its empty control pipe, or nothing is sent
 * (returns false) -- a write that blocks here would hold every time limit
 * of the run. */
static bool send_done_results(struct run *run, struct slot *s, char type, size_t i, bool busy)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t j = 0; j < run->n; j++) {
		if (s->known[j] || run->tasks[j].state != ST_DONE || !run->results[j].ran)
			continue;
		add_i32(&sb, REC_RESULT, (int)j);
		if (run->results[j].cut != CUT_NONE)
			add_i32(&sb, REC_CUT, (int)run->results[j].cut);
		wire_add_result(&sb, &run->results[j]);
	}
	add_i32(&sb, type, (int)i);
	int room = busy ? fcntl(s->ctl_fd, F_GETPIPE_SZ) : 0;
	bool sent = !busy || (room > 0 && sb.len <= (size_t)room);
	if (sent) {
		for (size_t j = 0; j < run->n; j++)
			if (run->tasks[j].state == ST_DONE && run->results[j].ran)
				s->known[j] = true;
		wire_write(s->ctl_fd, &sb);
	}
	sb_release(&sb);
	return sent;
}

/* May child s run check i: a shareable probe in a shared child, a vendor
 * probe in the child of its own chain (the one that ran a check it needs:
 * nvml.devices after nvml.init)? */
static bool slot_fits(const struct run *run, const struct slot *s, size_t i)
{
	bool sh = shareable(run, i);
	if (run->tasks[i].solo || s->shared != sh || (s->ours && !sh))
		return false;
	if (sh || s->spare)
		return true;
	bool *in = xcalloc(run->n, sizeof *in);
	for (size_t m = 0; m < s->nmembers; m++)
		in[s->members[m]] = true;
	bool mine = depends_on_any(run, i, in);
	free(in);
	return mine;
}

/*
 * Gives check i to an idle child instead of forking one (slot_fits). The
 * child gets every result that is done and that it does not have, as a
 * fresh fork would, then the check to run. Returns false when no child
 * fits.
 */
static bool give_to_idle(struct run *run, size_t i)
{
	struct slot *s = NULL;
	/* the child of its own chain first, then the spare */
	for (int pass = 0; pass < 2 && !s; pass++)
		for (size_t k = 0; k < run->n && !s; k++)
			if (slot_idle(&run->slots[k]) && run->slots[k].spare == (pass == 1) &&
			    slot_fits(run, &run->slots[k], i))
				s = &run->slots[k];
	if (!s)
		return false;
	s->spare = false;
	send_done_results(run, s, REC_RUN, i, false);
	double now = now_ms();
	/* A member handed back (REC_DEFER) may come here again: a child can
	 * run more checks than the table has. */
	s->members = xrealloc(s->members, (s->nmembers + 1) * sizeof *s->members);
	s->members[s->nmembers++] = i;
	s->cur = -1;
	s->start = now;
	s->deadline = now + run->opts->timeout_ms;
	if (run->opts->budget_end_ms > 0 && run->opts->budget_end_ms < s->deadline)
		s->deadline = run->opts->budget_end_ms;
	run->tasks[i].state = ST_RUNNING;
	run->tasks[i].start = now;
	run->tasks[i].slot_id = s->id;
	return true;
}

/*
 * An idle child that no check still to run could go to is told to exit
 * (its control pipe closed) while the others run: it ends beside them, not
 * after the last result, when the run would wait for it (a process's end
 * is not free: its memory is taken apart, and on a VM that costs ms).
 * Returns whether it released one.
 */
static bool release_unneeded(struct run *run)
{
	bool any = false;
	for (size_t k = 0; k < run->n; k++) {
		struct slot *s = &run->slots[k];
		if (!slot_idle(s))
			continue;
		bool wanted = false;
		for (size_t i = 0; i < run->n && !wanted; i++)
			wanted = run->tasks[i].state == ST_PENDING && slot_fits(run, s, i);
		if (wanted)
			continue;
		close(s->ctl_fd);
		s->ctl_fd = -1;
		s->released = true;
		/* It exits at once; a child that does not is ended then. */
		s->deadline = now_ms() + 1000;
		any = true;
	}
	return any;
}

static size_t busy_slots(const struct run *run)
{
	size_t k = 0;
	for (size_t i = 0; i < run->n; i++)
		k += run->slots[i].used && !slot_idle(&run->slots[i]);
	return k;
}

/*
 * A vendor probe gets a child of its own when its deps are done: a fork
 * and a child's start on the run's longest chain (libcuda's checks wait
 * for the file probes' results), 1-3 ms of it on this loaded 2-CPU
 * machine. One spare child, forked while the deps run, takes the first
 * vendor probe that is ready instead (give_to_idle), as an idle child of
 * its chain would, and is that probe's child from then on. Is one wanted
 * now: a vendor probe waiting for deps that do not block it, no idle
 * vendor child, room for one more?
 */
static bool want_spare(const struct run *run, int max_parallel)
{
	if (run->opts->no_fork || run->running + 2 > run->n ||
	    (int)busy_slots(run) >= max_parallel)
		return false;
	for (size_t k = 0; k < run->n; k++)
		if (slot_idle(&run->slots[k]) && !run->slots[k].ours)
			return false;
	for (size_t i = 0; i < run->n; i++) {
		const struct task *t = &run->tasks[i];
		bool pending;
		if (t->state == ST_PENDING && !t->solo && !shareable(run, i) &&
		    blocking_dep(run->defs, run->n, run->results, i, &pending) < 0 && pending)
			return true;
	}
	return false;
}

/*
 * An early probe's deps are settled: it gets their results and goes on
 * (or will, when it asks for them: the results wait in its control pipe,
 * and its wait costs no round trip through this process), with a time
 * limit of its own again if it was waiting (REC_WAIT); or, when they block
 * it (or the budget is spent), what it found is dropped, it is settled as
 * a check not run would be, and its child ends, waiting or not. Returns
 * true when it did either.
 */
static bool release_waiting(struct run *run, size_t i)
{
	bool pending;
	int b = blocking_dep(run->defs, run->n, run->results, i, &pending);
	if (b < 0 && pending)
		return false;
	struct task *t = &run->tasks[i];
	struct slot *s = NULL;
	for (size_t k = 0; k < run->n && !s; k++)
		if (run->slots[k].used && run->slots[k].id == t->slot_id)
			s = &run->slots[k];
	bool was_waiting = t->waiting;
	t->waiting = false;
	if (!s)
		return false;
	/* Settled as a check not run is, from a fresh result: what it found
	 * so far is dropped with its child. */
	struct result kept = run->results[i];
	result_init(&run->results[i], &run->defs[i]);
	if (settle_unrun(run->defs, run->n, run->results, i, run->opts)) {
		result_release(&kept);
		t->state = ST_DONE;
		t->slot_id = 0; /* its output is void */
		sb_reset(&t->out);
		s->done++;
		s->cur = -1;
		kill(-s->pid, SIGKILL);
		kill(s->pid, SIGKILL);
		return true;
	}
	result_release(&run->results[i]);
	run->results[i] = kept;
	double now = now_ms();
	/* Still in its first part, it reads nothing now: the results go
	 * ahead only when they fit in its pipe, else when it waits. */
	if (!send_done_results(run, s, REC_GO, i, !was_waiting))
		return false;
	t->go = true;
	if (!was_waiting)
		return true; /* its time limit runs on */
	s->deadline = now + run->opts->timeout_ms;
	if (run->opts->budget_end_ms > 0 && run->opts->budget_end_ms < s->deadline)
		s->deadline = run->opts->budget_end_ms;
	return true;
}

/* Starts a CHECK_EARLY probe whose deps are not done yet in a child of
 * its own, where it waits for them (probe_wait_deps). Returns whether it
 * did. */
static bool start_early(struct run *run, size_t i, int max_parallel, const sigset_t *mask)
{
	struct task *t = &run->tasks[i];
	if (!(run->defs[i].flags & CHECK_EARLY) || run->opts->no_fork || t->solo || t->late ||
	    (int)busy_slots(run) >= max_parallel)
		return false;
	bool pending;
	if (blocking_dep(run->defs, run->n, run->results, i, &pending) >= 0 || !pending)
		return false;
	/* Nothing to run beside its deps (no nvcc): a fork of its own would
	 * buy nothing; it runs after them with the shared child's parsers. */
	if (run->opts->early_pays && !run->opts->early_pays(&run->defs[i])) {
		t->late = true;
		return false;
	}
	t->early = t->solo = true;
	start_slot(run, i, mask);
	return true;
}

static void run_in_process(struct run *run, size_t i)
{
	struct probe_ctx ctx = { run->defs, run->results, run->n, run->opts, -1, NULL };
	double t0 = now_ms();
	result_init(&run->results[i], &run->defs[i]);
	run->defs[i].run(&ctx, &run->results[i]);
	if (!run->results[i].detail)
		run->results[i].detail = xstrdup("");
	run->results[i].ms = now_ms() - t0;
	run->results[i].ran = true;
	run->tasks[i].state = ST_DONE;
}

static void show_progress(struct run *run)
{
	size_t done = 0, total = 0;
	double oldest = 0;
	const char *longest = NULL;
	for (size_t i = 0; i < run->n; i++) {
		const struct task *t = &run->tasks[i];
		if (t->state == ST_IDLE)
			continue;
		total++;
		if (t->state == ST_DONE)
			done++;
	}
	for (size_t k = 0; k < run->n; k++) {
		const struct slot *s = &run->slots[k];
		if (s->used && s->cur >= 0 && (!longest || run->tasks[s->cur].start < oldest)) {
			oldest = run->tasks[s->cur].start;
			longest = run->defs[s->cur].id;
		}
	}
	run->opts->progress(done, total, longest);
}

/* Set when a child exited or stopped (the handler runs only inside ppoll,
 * where SIGCHLD is unblocked): the slots are waited for then, not after
 * every wakeup for output. */
static volatile sig_atomic_t child_changed;

static void on_sigchld(int sig)
{
	(void)sig; /* wakes ppoll: a child exited or stopped */
	child_changed = 1;
}

int runner_run_table(const struct check_def *defs, size_t n, const struct run_opts *opts,
		     bool *want, struct result *results)
{
	struct run run = { defs, n, opts, results, xcalloc(n, sizeof(struct task)),
			   xcalloc(n, sizeof(struct slot)), 0, xcalloc(n, sizeof(double)), 0 };
	int max_parallel = opts->max_parallel > 0 ? opts->max_parallel : 16;
	resolve_deps(defs, n);
	compute_heights(&run);
	make_mark_prefix();

	/* SIGINT and SIGTERM are recorded, not fatal, and with SIGCHLD they
	 * are blocked except while waiting in ppoll, so none is missed
	 * between a check of the flag and the wait. Not with --no-fork: a
	 * probe hung in this process could then not be interrupted. */
	struct sigaction chld = { 0 }, old_chld, ign = { 0 }, old_pipe;
	sigset_t block, oldmask;
	int was_subreaper = 0;
	sigemptyset(&oldmask);
	if (!opts->no_fork) {
		interrupt_install();
		chld.sa_handler = on_sigchld;
		sigemptyset(&chld.sa_mask);
		sigaction(SIGCHLD, &chld, &old_chld);
		/* An idle child that died cannot take more work: EPIPE, not death. */
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		sigaction(SIGPIPE, &ign, &old_pipe);
		interrupt_sigset(&block);
		sigaddset(&block, SIGCHLD);
		sigprocmask(SIG_BLOCK, &block, &oldmask);
		/* What a probe's descendants orphan when the probe is killed
		 * comes to us, to be ended (proc_end_children). */
		prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	}

	for (size_t i = 0; i < n; i++)
		if (want[i])
			want_deps(defs, n, want, i);
	for (size_t i = 0; i < n; i++) {
		result_init(&results[i], &defs[i]);
		run.tasks[i].state = want[i] ? ST_PENDING : ST_IDLE;
	}

	/* What ppoll waits on: two pipes a slot. Allocated once, not at each
	 * wakeup (fresh pages there fault, shared with the children). */
	struct pollfd *pfd = xcalloc(2 * n + 1, sizeof *pfd);
	struct slot **who = xcalloc(2 * n + 1, sizeof *who);

	/* The early probes fork first: their commands are the longest waits
	 * (nvcc --version), and nothing waits for them. */
	for (size_t i = 0; i < n; i++)
		if (run.tasks[i].state == ST_PENDING)
			start_early(&run, i, max_parallel, &oldmask);
	int sig = 0;
	bool spare = false; /* one spare child a run (want_spare) */
	for (;;) {
		if (!opts->no_fork && (sig = interrupt_signal()))
			break;
		bool progress = true;
		/* Settle or start everything whose deps are done. */
		while (progress) {
			progress = false;
			for (size_t i = 0; i < n; i++) {
				/* An early probe gets its deps' results as soon as
				 * they are done, not after it asked (REC_WAIT). */
				if ((run.tasks[i].waiting ||
				     (run.tasks[i].early && !run.tasks[i].go &&
				      run.tasks[i].state == ST_RUNNING)) &&
				    release_waiting(&run, i))
					progress = true;
				if (run.tasks[i].state != ST_PENDING)
					continue;
				bool pending;
				int b = blocking_dep(defs, n, results, i, &pending);
				if (b < 0 && pending) {
					progress |= start_early(&run, i, max_parallel, &oldmask);
					continue;
				}
				if (settle_unrun(defs, n, results, i, opts)) {
					run.tasks[i].state = ST_DONE;
					progress = true;
					continue;
				}
				if (opts->no_fork) {
					run_in_process(&run, i);
					progress = true;
					continue;
				}
				if (give_to_idle(&run, i)) {
					progress = true;
					continue;
				}
				if ((int)busy_slots(&run) >= max_parallel)
					continue;
				/* No child could take it: a probe that may run a
				 * command gets one of its own at once, not a
				 * shared one that would hand it over to a second
				 * fork. */
				if (defs[i].flags & CHECK_COMMANDS)
					run.tasks[i].solo = true;
				start_slot(&run, i, &oldmask);
				progress = true;
			}
		}
		if (!spare && want_spare(&run, max_parallel)) {
			start_slot(&run, SPARE, &oldmask);
			spare = true;
		}
		release_unneeded(&run);
		if (busy_slots(&run) == 0) {
			/* Nothing left to give them: the idle children go, all
			 * killed before the first is waited for. */
			for (size_t k = 0; k < n; k++)
				if (run.slots[k].used)
					kill(-run.slots[k].pid, SIGKILL);
			for (size_t k = 0; k < n; k++)
				if (run.slots[k].used)
					end_slot(&run, &run.slots[k], 'c', 0);
			break;
		}
		if (opts->progress)
			show_progress(&run);

		/* Wait for output, exits, a signal or the nearest deadline. */
		size_t np = 0;
		double now = now_ms(), next = now + 1000;
		for (size_t k = 0; k < n; k++) {
			struct slot *s = &run.slots[k];
			if (!s->used)
				continue;
			if (s->deadline < next)
				next = s->deadline;
			if (!s->wire_eof) {
				pfd[np] = (struct pollfd){ s->wire_fd, POLLIN, 0 };
				who[np++] = s;
			}
			if (!s->out_eof) {
				pfd[np] = (struct pollfd){ s->out_fd, POLLIN, 0 };
				who[np++] = s;
			}
		}
		double wait = next > now ? next - now + 1 : 0;
		if (opts->progress && wait > 100)
			wait = 100;
		struct timespec ts = { (time_t)(wait / 1000), (long)((long long)wait % 1000) * 1000000 };
		int pr = ppoll(pfd, np, &ts, &oldmask);
		if (pr > 0) {
			for (size_t k = 0; k < np; k++) {
				if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				struct slot *s = who[k];
				if (!s->used)
					continue;
				if (pfd[k].fd == s->wire_fd)
					read_wire(&run, s);
				else
					drain_out(&run, s);
			}
		}

		now = now_ms();
		/* SIGCHLD may stand for several children: each slot is asked. */
		bool reap = child_changed;
		child_changed = 0;
		for (size_t k = 0; k < n; k++) {
			struct slot *s = &run.slots[k];
			if (!s->used)
				continue;
			int st, stopped = 0;
			if (reap && !s->exited && waitpid(s->pid, &st, WNOHANG | WUNTRACED) == s->pid) {
				if (WIFSTOPPED(st)) {
					stopped = WSTOPSIG(st);
				} else {
					s->wstatus = st;
					s->exited = true;
				}
			}
			bool unfinished = s->done < s->nmembers;
			if (stopped && unfinished)
				end_slot(&run, s, 's', stopped); /* not a hang: stopped */
			else if (s->corrupt && unfinished)
				end_slot(&run, s, 'w', 0); /* its results are lost */
			else if (slot_idle(s) && !stopped && !s->corrupt)
				s->deadline = 1e300; /* waits for more work: no time limit */
			else if (s->released && !s->exited && !stopped && now < s->deadline)
				; /* released: its exit is on its way */
			else if (s->done == s->nmembers)
				end_slot(&run, s, 'c', 0); /* complete: it ends */
			else if (s->exited)
				end_slot(&run, s, 'x', 0); /* a result never came */
			else if (now >= s->deadline)
				end_slot(&run, s, 't', 0); /* until its result: the deadline holds */
		}
	}

	if (sig) {
		for (size_t k = 0; k < n; k++)
			if (run.slots[k].used)
				end_slot(&run, &run.slots[k], 'i', sig);
		for (size_t i = 0; i < n; i++)
			if (run.tasks[i].state == ST_PENDING) {
				set_interrupted(&results[i], sig, false);
				run.tasks[i].state = ST_DONE;
			}
	}
	/* Whatever a child left behind, all children ended: one sweep. */
	if (run.forks)
		proc_end_children(NULL, 0);
	/* The output each check's probe wrote. */
	for (size_t i = 0; i < n; i++) {
		struct task *t = &run.tasks[i];
		if (t->out.len && results[i].ran) {
			free(results[i].output);
			results[i].output = xstrndup(t->out.buf, t->out.len);
			results[i].output_truncated = t->out_truncated;
		}
		sb_release(&t->out);
	}
	if (!opts->no_fork) {
		if (!was_subreaper)
			prctl(PR_SET_CHILD_SUBREAPER, 0);
		sigprocmask(SIG_SETMASK, &oldmask, NULL);
		sigaction(SIGCHLD, &old_chld, NULL);
		sigaction(SIGPIPE, &old_pipe, NULL);
		interrupt_restore();
	}
	free(pfd);
	free(who);
	free(run.tasks);
	free(run.slots);
	free(run.height);
	free(dt_idx);
	dt_idx = NULL;
	dt_defs = NULL;
	return sig;
}

/* ---- the critical path ---- */

/* Did its probe run (not skipped behind a failure, not left unstarted)? */
static bool probe_ran(const struct result *r)
{
	return r->ran && !res_get(r, "blocked_by") && r->cut != CUT_NOT_STARTED &&
	       !(r->cut == CUT_INTERRUPTED && r->ms == 0);
}

size_t runner_critical_path(const struct check_def *defs, size_t n, const struct result *results,
			    size_t *path, double *ms)
{
	double *len = xcalloc(n, sizeof *len);
	int *via = xcalloc(n, sizeof *via);
	bool *known = xcalloc(n, sizeof *known);
	/* len[i]: the longest chain of checks that ends with i, i's time
	 * included. The table's deps may point anywhere: relax to a fixed
	 * point (at most n rounds). */
	for (size_t i = 0; i < n; i++) {
		via[i] = -1;
		len[i] = probe_ran(&results[i]) ? results[i].ms : 0;
	}
	for (size_t round = 0; round < n; round++) {
		bool changed = false;
		for (size_t i = 0; i < n; i++) {
			if (!probe_ran(&results[i]))
				continue;
			/* An early probe ran its first part beside its deps:
			 * only what it ran after them follows them. */
			double pre = defs[i].flags & CHECK_EARLY ? results[i].ms_before_deps : 0;
			for (int d = 0; d < CHECK_MAX_DEPS && defs[i].deps[d]; d++) {
				int j = dep_index(defs, n, i, d);
				if (j < 0 || !probe_ran(&results[j]) || len[j] <= pre)
					continue;
				double l = len[j] + results[i].ms - pre;
				if (l > len[i] + 1e-9) {
					len[i] = l;
					via[i] = j;
					changed = true;
				}
			}
		}
		if (!changed)
			break;
	}
	int end = -1;
	for (size_t i = 0; i < n; i++)
		if (probe_ran(&results[i]) && (end < 0 || len[i] > len[end]))
			end = (int)i;
	size_t k = 0;
	*ms = end >= 0 ? len[end] : 0;
	/* Walk back from the end, then reverse. */
	for (int i = end; i >= 0 && k < n && !known[i]; i = via[i]) {
		known[i] = true;
		path[k++] = (size_t)i;
	}
	for (size_t a = 0, b = k ? k - 1 : 0; a < b; a++, b--) {
		size_t t = path[a];
		path[a] = path[b];
		path[b] = t;
	}
	free(len);
	free(via);
	free(known);
	return k;
}
