/* tree.c: CPU and I/O of a process tree. See tree.h. */
#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/rootfs.h"
#include "../parse/procstat.h"
#include "sysread.h"

/* rootfs_open adds O_NONBLOCK (against FIFOs planted in fixtures); reads
 * of /proc files and of regular files ignore it, so it stays. */
static int open_proc(int pid, const char *file)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", pid, file);
	return rootfs_open(path, O_RDONLY);
}

/* Reads /proc/PID/FILE through the cached fd, or a fresh one. */
static int read_proc(int pid, int cached_fd, const char *file, struct strbuf *sb)
{
	if (cached_fd >= 0)
		return proc_pread(cached_fd, sb);
	int fd = open_proc(pid, file);
	if (fd < 0)
		return fd;
	int rc = proc_pread(fd, sb);
	close(fd);
	return rc;
}

static struct tree_member *find_member(struct proc_tree *t, int pid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->m[i].pid == pid)
			return &t->m[i];
	return NULL;
}

static void fill_from_stat(struct tree_member *m, const struct pid_stat *ps)
{
	m->ppid = ps->ppid;
	m->state = ps->state;
	snprintf(m->comm, sizeof m->comm, "%s", ps->comm);
	m->own = ps->utime + ps->stime;
	m->cpu = m->own + ps->cutime + ps->cstime;
}

static void read_io(struct proc_tree *t, struct tree_member *m)
{
	struct pid_io io;
	if (read_proc(m->pid, m->fd_io, "io", &t->buf) == 0 &&
	    procstat_io_parse(t->buf.buf, t->buf.len, &io) == 0) {
		m->rchar = io.rchar;
		m->rd = io.read_bytes;
		m->wr = io.write_bytes;
		m->io_ok = true;
	} else if (m->state != 'Z') {
		/* Another user's process (EACCES), or /proc/PID/io missing.
		 * A zombie keeps its last figures. */
		m->io_ok = false;
	}
}

static void add_member(struct proc_tree *t, const struct pid_stat *ps)
{
	if (t->n >= TREE_MAX_MEMBERS) {
		t->full = true;
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->m = xrealloc(t->m, t->cap * sizeof *t->m);
	}
	struct tree_member *m = &t->m[t->n++];
	memset(m, 0, sizeof *m);
	m->pid = ps->pid;
	m->fd_stat = m->fd_io = -1;
	if (t->n <= TREE_FD_CACHE) {
		m->fd_stat = open_proc(ps->pid, "stat");
		m->fd_io = open_proc(ps->pid, "io");
	}
	fill_from_stat(m, ps);
	m->own_prev = m->own;
	read_io(t, m);
	m->base_cpu = m->cpu;
	m->base_rchar = m->rchar;
	m->base_rd = m->rd;
	m->base_wr = m->wr;
}

void tree_init(struct proc_tree *t, int root)
{
	memset(t, 0, sizeof *t);
	t->root = root;
	t->last_pid = -1;
	t->fd_loadavg = rootfs_open("/proc/loadavg", O_RDONLY);
	sb_init(&t->buf);
	struct pid_stat ps;
	if (read_proc(root, -1, "stat", &t->buf) == 0 &&
	    procstat_pid_parse(t->buf.buf, t->buf.len, &ps) == 0 && ps.pid == root)
		add_member(t, &ps);
}

static void close_member(struct tree_member *m)
{
	if (m->fd_stat >= 0)
		close(m->fd_stat);
	if (m->fd_io >= 0)
		close(m->fd_io);
	m->fd_stat = m->fd_io = -1;
}

void tree_release(struct proc_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		close_member(&t->m[i]);
	free(t->m);
	free(t->outside);
	if (t->fd_loadavg >= 0)
		close(t->fd_loadavg);
	sb_release(&t->buf);
	memset(t, 0, sizeof *t);
	t->fd_loadavg = -1;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static bool is_outside(const struct proc_tree *t, int pid)
{
	return t->nout &&
	       bsearch(&pid, t->outside, t->nout, sizeof *t->outside, cmp_int) != NULL;
}

static void push_int(int **v, size_t *n, size_t *cap, int x)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = x;
}

/* The last pid handed out, from /proc/loadavg ("0.50 0.40 0.30 2/130
 * 27550"); -1 when unknown. */
static long last_pid(struct proc_tree *t)
{
	if (t->fd_loadavg < 0 || proc_pread(t->fd_loadavg, &t->buf) < 0 || !t->buf.len)
		return -1;
	const char *end = t->buf.buf + t->buf.len;
	while (end > t->buf.buf && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	const char *p = end;
	while (p > t->buf.buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == end || p == t->buf.buf || p[-1] != ' ')
		return -1;
	return strtol(p, NULL, 10);
}

int tree_scan(struct proc_tree *t, bool full)
{
	if (!t->n)
		return 0;
	long lp = last_pid(t);
	if (!full && lp >= 0 && lp == t->last_pid)
		return 0; /* no process was created since the last scan */
	t->last_pid = lp;
	DIR *d = rootfs_opendir("/proc");
	if (!d)
		return 0;
	bool trust_cache = !full;
	int self = getpid();
	int *out = NULL;
	size_t nout = 0, aout = 0;
	struct pid_stat *cand = NULL;
	size_t ncand = 0, acand = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *s = de->d_name;
		if (*s < '1' || *s > '9')
			continue;
		char *end;
		long pid = strtol(s, &end, 10);
		if (*end || pid <= 0 || pid > 0x7fffffff)
			continue;
		if (pid == self || find_member(t, (int)pid))
			continue;
		if (trust_cache && is_outside(t, (int)pid)) {
			push_int(&out, &nout, &aout, (int)pid);
			continue;
		}
		struct pid_stat ps;
		if (read_proc((int)pid, -1, "stat", &t->buf) < 0 ||
		    procstat_pid_parse(t->buf.buf, t->buf.len, &ps) < 0 || ps.pid != pid)
			continue; /* gone already */
		if (ncand == acand) {
			acand = acand ? acand * 2 : 64;
			cand = xrealloc(cand, acand * sizeof *cand);
		}
		cand[ncand++] = ps;
	}
	closedir(d);

	/* Parents may be listed after their children (pids wrap), so repeat
	 * until no candidate joins. */
	int added = 0;
	bool changed = true;
	while (changed && !t->full) {
		changed = false;
		for (size_t i = 0; i < ncand; i++) {
			if (cand[i].pid && find_member(t, cand[i].ppid)) {
				add_member(t, &cand[i]);
				cand[i].pid = 0;
				added++;
				changed = true;
			}
		}
	}
	for (size_t i = 0; i < ncand; i++)
		if (cand[i].pid)
			push_int(&out, &nout, &aout, cand[i].pid);
	if (nout)
		qsort(out, nout, sizeof *out, cmp_int);
	free(t->outside);
	t->outside = out;
	t->nout = nout;
	free(cand);
	return added;
}

/* How far a cumulative figure is above its base (never negative). */
static long long above(unsigned long long v, unsigned long long base)
{
	return v > base ? (long long)(v - base) : 0;
}

/* Whether the figures of a vanished member reach a live member through its
 * last known parents (who reap it and add it to their c* fields). */
static bool accounted_by_parent(const struct proc_tree *t, const bool *gone, int ppid)
{
	for (size_t hops = 0; hops < t->n; hops++) {
		size_t i;
		for (i = 0; i < t->n; i++)
			if (t->m[i].pid == ppid)
				break;
		if (i == t->n)
			return false;
		if (!gone[i])
			return true;
		ppid = t->m[i].ppid;
	}
	return false;
}

void tree_sample(struct proc_tree *t, struct tree_totals *tot)
{
	memset(tot, 0, sizeof *tot);
	tot->io_ok = true;
	bool *gone = xcalloc(t->n ? t->n : 1, sizeof *gone);
	for (size_t i = 0; i < t->n; i++) {
		struct tree_member *m = &t->m[i];
		struct pid_stat ps;
		int rc = read_proc(m->pid, m->fd_stat, "stat", &t->buf);
		if (rc < 0 && rc != -ESRCH && rc != -ENOENT)
			continue; /* EMFILE, ENOMEM...: keep its last figures */
		if (rc < 0 || procstat_pid_parse(t->buf.buf, t->buf.len, &ps) < 0 ||
		    ps.pid != m->pid) {
			gone[i] = true;
			continue;
		}
		fill_from_stat(m, &ps);
		read_io(t, m);
	}
	for (size_t i = 0; i < t->n; i++) {
		struct tree_member *m = &t->m[i];
		if (!gone[i])
			continue;
		if (accounted_by_parent(t, gone, m->ppid)) {
			/* The parent's totals now hold its whole life. */
			t->retired_cpu -= (long long)m->base_cpu;
			t->retired_rchar -= (long long)m->base_rchar;
			t->retired_rd -= (long long)m->base_rd;
			t->retired_wr -= (long long)m->base_wr;
		} else {
			t->retired_cpu += above(m->cpu, m->base_cpu);
			t->retired_rchar += above(m->rchar, m->base_rchar);
			t->retired_rd += above(m->rd, m->base_rd);
			t->retired_wr += above(m->wr, m->base_wr);
		}
	}
	size_t keep = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (gone[i]) {
			close_member(&t->m[i]);
			continue;
		}
		t->m[keep++] = t->m[i];
	}
	t->n = keep;
	free(gone);

	long long cpu = t->retired_cpu, rchar = t->retired_rchar, rd = t->retired_rd,
		  wr = t->retired_wr;
	for (size_t i = 0; i < t->n; i++) {
		struct tree_member *m = &t->m[i];
		cpu += above(m->cpu, m->base_cpu);
		rchar += above(m->rchar, m->base_rchar);
		rd += above(m->rd, m->base_rd);
		wr += above(m->wr, m->base_wr);
		if (!m->io_ok)
			tot->io_ok = false;
		if (m->state != 'Z')
			tot->nprocs++;
		if (m->state == 'D')
			tot->nblocked++;
		if (m->state == 'R')
			tot->nrunnable++;
		unsigned long long delta = m->own >= m->own_prev ? m->own - m->own_prev : 0;
		if (delta > tot->top_delta || !tot->top_pid) {
			tot->top_delta = delta;
			tot->top_pid = m->pid;
			snprintf(tot->top_comm, sizeof tot->top_comm, "%s", m->comm);
		}
		m->own_prev = m->own;
		if (m->pid == t->root) {
			tot->root_alive = m->state != 'Z' && m->state != 'X';
			tot->root_state = m->state;
		}
	}
	tot->cpu = cpu > 0 ? (unsigned long long)cpu : 0;
	tot->rchar = rchar > 0 ? (unsigned long long)rchar : 0;
	tot->rd = rd > 0 ? (unsigned long long)rd : 0;
	tot->wr = wr > 0 ? (unsigned long long)wr : 0;
}
