/*
 * tree: the CPU time and I/O of a process and all its descendants, the
 * way `time` would count them, sampled while they run.
 *
 * Membership. The tree is the root pid plus every process whose parent is
 * a member. tree_scan finds new members by reading the ppid of processes in
 * /proc it has not classified yet (the kernel's task/TID/children files
 * would be cheaper but need CONFIG_PROC_CHILDREN, which many kernels lack).
 * A process once seen outside the tree stays outside while it lives (a
 * parent never changes to one of ours), so later scans read only the stat
 * of processes that are new since the previous scan. Even that readdir of
 * /proc is skipped while the last pid the kernel handed out (the last
 * field of /proc/loadavg, per pid namespace) has not changed: then no
 * process at all was created, so on a quiet training machine finding new
 * workers costs one tiny read per tick. Now and then (the caller says
 * when: watch does every 30 s) a full scan forgets the cache, in case a
 * pid was reused.
 *
 * Counting. Each member's cumulative figures are utime+stime+cutime+cstime
 * and, from /proc/PID/io, rchar, read_bytes and write_bytes — the kernel
 * adds a child's totals to its parent's c* fields and I/O when the parent
 * reaps it. So the sum over live members stays continuous when a member
 * exits and is reaped by another member, and includes short-lived
 * processes that lived and died between two scans. When a member vanishes
 * and its last known parent is not a member (the root, or an orphan
 * reparented to init), its last figures move to a "retired" total instead.
 *
 * A process found by a scan may have run for a while before (scans are
 * periodic; with --pid the whole tree is older than watch): its figures at
 * discovery are its "base" and do not count, so that they do not show up
 * as a burst in the interval it was found in. When such a member is reaped
 * by a member parent, the parent's c* fields gain its whole life, base
 * included; the base is then taken off the retired total, for the same
 * reason.
 * A member's fds stay open (pread each tick) for the first TREE_FD_CACHE
 * members; an fd of a dead process reads ESRCH, so pid reuse cannot mix
 * two processes up.
 *
 * Everything is read through rootfs; the unit tests feed a recorded /proc.
 */
#ifndef WSLGPU_WATCH_TREE_H
#define WSLGPU_WATCH_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/strbuf.h"

#define TREE_MAX_MEMBERS 4096
#define TREE_FD_CACHE 256

struct tree_member {
	int pid, ppid;
	char state;
	char comm[32];
	int fd_stat, fd_io;          /* -1: opened per read */
	unsigned long long cpu;      /* utime+stime+cutime+cstime, ticks */
	unsigned long long own;      /* utime+stime */
	unsigned long long own_prev; /* own at the previous tree_sample */
	unsigned long long rchar, rd, wr;
	/* The figures at discovery, which do not count (see above). */
	unsigned long long base_cpu, base_rchar, base_rd, base_wr;
	bool io_ok;
};

struct tree_totals {
	unsigned long long cpu;          /* ticks */
	unsigned long long rchar, rd, wr; /* bytes */
	unsigned nprocs;
	unsigned nblocked;               /* members in state D */
	unsigned nrunnable;              /* members in state R: running or waiting for a CPU */
	unsigned long long top_delta;    /* busiest member's own ticks since the last sample */
	int top_pid;
	char top_comm[32];
	bool io_ok;                      /* /proc/PID/io readable for every member */
	bool root_alive;
	char root_state;
};

struct proc_tree {
	int root;
	struct tree_member *m;
	size_t n, cap;
	/* Signed: a reaped member's base is taken off (see above). */
	long long retired_cpu, retired_rchar, retired_rd, retired_wr;
	int *outside;                    /* sorted pids known not to be members */
	size_t nout;
	bool full;                       /* TREE_MAX_MEMBERS reached */
	int fd_loadavg;                  /* /proc/loadavg, for its last pid */
	long last_pid;                   /* at the previous scan; -1 unknown */
	struct strbuf buf;
};

void tree_init(struct proc_tree *t, int root);
void tree_release(struct proc_tree *t);
/* Finds new descendants; returns how many were added. full: read every
 * process again, not only those new since the last scan. */
int tree_scan(struct proc_tree *t, bool full);
/* Reads every member; vanished members are dropped (and retired). */
void tree_sample(struct proc_tree *t, struct tree_totals *tot);

#endif
