/* runner.c: isolated, concurrent probe execution. See runner.h. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buildinfo.h"
#include "proc.h"
#include "registry.h"

enum state { ST_IDLE, ST_PENDING, ST_RUNNING, ST_DONE };

struct slot {
	enum state state;
	pid_t pid;
	int wire_fd;   /* result records */
	int out_fd;    /* captured stdout/stderr */
	struct strbuf wire;
	struct strbuf out;
	bool out_truncated;
	bool wire_eof, out_eof, exited;
	int wstatus;
	double start, deadline;
	pid_t *pgids;  /* command groups the probe started */
	size_t npgids;
};

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

void probe_step(struct probe_ctx *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ctx->wire_fd >= 0)
		wire_put(ctx->wire_fd, 'T', sb.buf, sb.len);
	sb_release(&sb);
}

const char *probe_platform(struct probe_ctx *ctx)
{
	const char *k = probe_dep_get(ctx, "platform.kind", "kind");
	return k ? k : "unknown";
}

bool probe_is_wsl2(struct probe_ctx *ctx)
{
	const char *k = probe_platform(ctx);
	return strcmp(k, "wsl2") == 0 || strcmp(k, "container-in-wsl2") == 0;
}

/* ---- the child side ---- */

static int child_wire_fd = -1;

static void report_pgid(pid_t pgid)
{
	if (child_wire_fd >= 0) {
		int32_t v = (int32_t)pgid;
		wire_put(child_wire_fd, 'G', &v, sizeof v);
	}
}

static void run_child(struct probe_ctx *ctx, size_t idx, int wire_fd, int out_fd,
		      struct slot *slots)
{
	/* Other probes' pipes were inherited by fork: close them, or their
	 * readers would never see EOF while we live. */
	for (size_t i = 0; i < ctx->n; i++)
		if (slots[i].state == ST_RUNNING) {
			close(slots[i].wire_fd);
			close(slots[i].out_fd);
		}
	setpgid(0, 0);
	/* Default dispositions: a crash must end this child with the signal,
	 * whatever handlers the parent had (a test framework's, a sanitizer's). */
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGTERM };
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		signal(fatal[i], SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	fflush(stdout);
	fflush(stderr);
	dup2(out_fd, 1);
	dup2(out_fd, 2);
	close(out_fd);
	ctx->wire_fd = wire_fd;
	child_wire_fd = wire_fd;
	proc_spawn_hook = report_pgid;

	struct result *r = &ctx->results[idx];
	result_init(r, &ctx->defs[idx]);
	proc_evidence = r; /* every command the probe runs shows as "ran" evidence */
	ctx->defs[idx].run(ctx, r);
	if (!r->detail)
		r->detail = xstrdup("");
	fflush(stdout);
	fflush(stderr);
	wire_put_result(wire_fd, r);
	_exit(0);
}

/* ---- the parent side ---- */

static void slot_absorb_wire(struct slot *s, struct result *r)
{
	size_t used = 0;
	/* 'G' records are the runner's, not the result's. */
	while (s->wire.len - used >= 5) {
		const unsigned char *h = (const unsigned char *)s->wire.buf + used;
		uint32_t n = (uint32_t)h[1] | (uint32_t)h[2] << 8 | (uint32_t)h[3] << 16 |
			     (uint32_t)h[4] << 24;
		if (s->wire.len - used - 5 < n)
			break;
		if (h[0] == 'G' && n == 4) {
			int32_t v;
			memcpy(&v, h + 5, 4);
			s->pgids = xrealloc(s->pgids, (s->npgids + 1) * sizeof *s->pgids);
			s->pgids[s->npgids++] = (pid_t)v;
			used += 9;
			continue;
		}
		size_t k = wire_apply(r, s->wire.buf + used, 5 + n);
		if (k == 0)
			break;
		used += k;
	}
	if (used) {
		memmove(s->wire.buf, s->wire.buf + used, s->wire.len - used);
		s->wire.len -= used;
		s->wire.buf[s->wire.len] = '\0';
	}
}

static void kill_slot(struct slot *s)
{
	kill(-s->pid, SIGKILL);
	for (size_t i = 0; i < s->npgids; i++)
		kill(-s->pgids[i], SIGKILL);
}

static void finish_slot(struct slot *s, struct result *r, const struct run_opts *opts,
			bool timed_out)
{
	char sigbuf[16];
	r->ms = now_ms() - s->start;
	if (s->out.len) {
		r->output = xstrndup(s->out.buf, s->out.len);
		r->output_truncated = s->out_truncated;
	}
	if (timed_out) {
		struct strbuf d = STRBUF_INIT;
		r->cut = s->deadline - s->start < opts->timeout_ms - 1 ? CUT_BUDGET : CUT_TIMEOUT;
		sb_addf(&d, "probe did not finish within %.1f s%s",
			(s->deadline - s->start) / 1000.0,
			r->cut == CUT_BUDGET ? " (what was left of the run's time budget)" : "");
		if (r->step)
			sb_addf(&d, " while waiting for: %s", r->step);
		r->status = ST_TIMEOUT;
		free(r->detail);
		r->detail = sb_detach(&d);
		free(r->kb);
		r->kb = xstrdup("core.probe_timeout");
		res_ev(r, "waiting_for", "%s", r->step ? r->step : "unknown");
	} else if (WIFSIGNALED(s->wstatus)) {
		struct strbuf d = STRBUF_INIT;
		const char *sig = signal_name(WTERMSIG(s->wstatus), sigbuf);
		sb_addf(&d, "probe crashed (%s)", sig);
		if (r->step)
			sb_addf(&d, " while: %s", r->step);
		r->status = ST_CRASH;
		free(r->detail);
		r->detail = sb_detach(&d);
		free(r->kb);
		r->kb = xstrdup("core.probe_crash");
		res_ev(r, "signal", "%s", sig);
		res_ev(r, "during", "%s", r->step ? r->step : "unknown");
	} else if (!r->ran) {
		/* Exited without a complete result: something called exit(). */
		r->status = ST_CRASH;
		free(r->detail);
		r->detail = xasprintf("probe exited (status %d) before reporting a result%s%s",
				      WIFEXITED(s->wstatus) ? WEXITSTATUS(s->wstatus) : -1,
				      r->step ? " while: " : "", r->step ? r->step : "");
		free(r->kb);
		r->kb = xstrdup("core.probe_crash");
		res_ev(r, "during", "%s", r->step ? r->step : "unknown");
	}
	r->ran = true;
	s->state = ST_DONE;
}

static int find_def(const struct check_def *defs, size_t n, const char *id)
{
	if (strncmp(id, CHECK_AFTER, sizeof CHECK_AFTER - 1) == 0)
		id += sizeof CHECK_AFTER - 1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(defs[i].id, id) == 0)
			return (int)i;
	return -1;
}

/* Returns the index of a dep that blocks check i, or -1. *pending is set when
 * some dep has not finished yet. */
static int blocking_dep(const struct check_def *defs, size_t n, struct result *results,
			size_t i, bool *pending)
{
	*pending = false;
	for (int d = 0; d < CHECK_MAX_DEPS && defs[i].deps[d]; d++) {
		int j = find_def(defs, n, defs[i].deps[d]);
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
		int j = find_def(defs, n, defs[i].deps[d]);
		if (j >= 0 && !want[j]) {
			want[j] = true;
			want_deps(defs, n, want, (size_t)j);
		}
	}
}

void runner_run(const struct run_opts *opts, bool *want, struct result *results)
{
	size_t n;
	const struct check_def *defs = registry_checks(&n);
	runner_run_table(defs, n, opts, want, results);
}

void runner_run_table(const struct check_def *defs, size_t n, const struct run_opts *opts,
		      bool *want, struct result *results)
{
	struct slot *slots = xcalloc(n, sizeof *slots);
	struct probe_ctx ctx = { defs, results, n, opts, -1 };
	int max_parallel = opts->max_parallel > 0 ? opts->max_parallel : 16;
	int running = 0;

	for (size_t i = 0; i < n; i++)
		if (want[i])
			want_deps(defs, n, want, i);
	for (size_t i = 0; i < n; i++) {
		result_init(&results[i], &defs[i]);
		slots[i].wire_fd = slots[i].out_fd = -1;
		if (!want[i])
			continue;
		slots[i].state = ST_PENDING;
	}

	for (;;) {
		bool progress = true;
		/* Start (or skip) everything whose deps are done. */
		while (progress) {
			progress = false;
			for (size_t i = 0; i < n; i++) {
				if (slots[i].state != ST_PENDING)
					continue;
				bool pending;
				int b = blocking_dep(defs, n, results, i, &pending);
				if (b >= 0) {
					mark_skipped(&results[i], &results[b]);
					slots[i].state = ST_DONE;
					progress = true;
					continue;
				}
				if (pending || running >= max_parallel)
					continue;
				if (opts->budget_end_ms > 0 && now_ms() >= opts->budget_end_ms) {
					res_set(&results[i], ST_SKIP, "core.budget_spent",
						"skipped: the run's time budget was spent before it could start");
					results[i].cut = CUT_NOT_STARTED;
					results[i].ran = true;
					slots[i].state = ST_DONE;
					progress = true;
					continue;
				}
				const char *static_why = buildinfo_static_skip(defs[i].id);
				if (static_why) {
					/* A warning, not a quiet skip: the GPU path is unproven,
					 * and "no problems found" would be a lie. */
					res_set(&results[i], ST_WARN, "core.static_build",
						"not checked: %s", static_why);
					results[i].ran = true;
					slots[i].state = ST_DONE;
					progress = true;
					continue;
				}
				if (opts->no_fork) {
					double t0 = now_ms();
					result_init(&results[i], &defs[i]);
					defs[i].run(&ctx, &results[i]);
					if (!results[i].detail)
						results[i].detail = xstrdup("");
					results[i].ms = now_ms() - t0;
					results[i].ran = true;
					slots[i].state = ST_DONE;
					progress = true;
					continue;
				}
				int wp[2], op[2];
				if (pipe2(wp, O_CLOEXEC) < 0 || pipe2(op, O_CLOEXEC) < 0) {
					res_set(&results[i], ST_CRASH, "core.probe_crash",
						"could not start the probe: %s", strerror(errno));
					results[i].ran = true;
					slots[i].state = ST_DONE;
					progress = true;
					continue;
				}
				fflush(stdout);
				fflush(stderr);
				slots[i].start = now_ms();
				pid_t pid = fork();
				if (pid < 0) {
					close(wp[0]); close(wp[1]); close(op[0]); close(op[1]);
					res_set(&results[i], ST_CRASH, "core.probe_crash",
						"could not fork the probe: %s", strerror(errno));
					results[i].ran = true;
					slots[i].state = ST_DONE;
					progress = true;
					continue;
				}
				if (pid == 0) {
					close(wp[0]);
					close(op[0]);
					run_child(&ctx, i, wp[1], op[1], slots);
				}
				setpgid(pid, pid);
				close(wp[1]);
				close(op[1]);
				slots[i].pid = pid;
				slots[i].wire_fd = wp[0];
				slots[i].out_fd = op[0];
				slots[i].deadline = slots[i].start + opts->timeout_ms;
				if (opts->budget_end_ms > 0 && opts->budget_end_ms < slots[i].deadline)
					slots[i].deadline = opts->budget_end_ms;
				slots[i].state = ST_RUNNING;
				running++;
				progress = true;
			}
		}
		if (running == 0)
			break;
		if (opts->progress) {
			size_t done = 0, total = 0;
			double oldest = 0;
			const char *longest = NULL;
			for (size_t i = 0; i < n; i++) {
				if (slots[i].state == ST_IDLE)
					continue;
				total++;
				if (slots[i].state == ST_DONE)
					done++;
				if (slots[i].state == ST_RUNNING &&
				    (!longest || slots[i].start < oldest)) {
					oldest = slots[i].start;
					longest = defs[i].id;
				}
			}
			opts->progress(done, total, longest);
		}

		/* Wait for output, exits or the nearest deadline. */
		struct pollfd *pfd = xcalloc(2 * n, sizeof *pfd);
		size_t *who = xcalloc(2 * n, sizeof *who);
		size_t np = 0;
		double now = now_ms(), next = now + 1000;
		for (size_t i = 0; i < n; i++) {
			struct slot *s = &slots[i];
			if (s->state != ST_RUNNING)
				continue;
			if (s->deadline < next)
				next = s->deadline;
			if (!s->wire_eof) {
				pfd[np].fd = s->wire_fd;
				pfd[np].events = POLLIN;
				who[np++] = i;
			}
			if (!s->out_eof) {
				pfd[np].fd = s->out_fd;
				pfd[np].events = POLLIN;
				who[np++] = i;
			}
			if (s->wire_eof && s->out_eof && next > now + 5)
				next = now + 5; /* closed its pipes: poll for the exit */
		}
		int wait_ms = next > now ? (int)(next - now) + 1 : 0;
		if (opts->progress && wait_ms > 100)
			wait_ms = 100;
		int pr = poll(pfd, np, wait_ms);
		if (pr > 0) {
			for (size_t k = 0; k < np; k++) {
				if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				struct slot *s = &slots[who[k]];
				char buf[16384];
				ssize_t got = read(pfd[k].fd, buf, sizeof buf);
				if (got < 0 && (errno == EINTR || errno == EAGAIN))
					continue;
				if (pfd[k].fd == s->wire_fd) {
					if (got <= 0) {
						s->wire_eof = true;
					} else {
						sb_addn(&s->wire, buf, (size_t)got);
						slot_absorb_wire(s, &results[who[k]]);
					}
				} else {
					if (got <= 0) {
						s->out_eof = true;
					} else {
						size_t room = s->out.len < RUNNER_OUTPUT_CAP
								      ? RUNNER_OUTPUT_CAP - s->out.len : 0;
						if ((size_t)got > room)
							s->out_truncated = true;
						sb_addn(&s->out, buf, (size_t)got < room ? (size_t)got : room);
					}
				}
			}
		}
		free(pfd);
		free(who);

		now = now_ms();
		for (size_t i = 0; i < n; i++) {
			struct slot *s = &slots[i];
			if (s->state != ST_RUNNING)
				continue;
			if (!s->exited && waitpid(s->pid, &s->wstatus, WNOHANG) == s->pid)
				s->exited = true;
			bool timed_out = !s->exited && now >= s->deadline;
			/* The result pipe closes when the probe exits (no command
			 * inherits it); the output pipe may be held open by a
			 * grandchild, so it is not waited for. */
			bool done = s->exited && s->wire_eof;
			if (!timed_out && !done)
				continue;
			kill_slot(s);
			if (!s->exited)
				waitpid(s->pid, &s->wstatus, 0);
			slot_absorb_wire(s, &results[i]);
			finish_slot(s, &results[i], opts, timed_out);
			close(s->wire_fd);
			close(s->out_fd);
			sb_release(&s->wire);
			sb_release(&s->out);
			free(s->pgids);
			running--;
		}
	}
	free(slots);
}
