/*
 * io.c: the `bench io` engine — sequential throughput and the small-file
 * workload, per location, in a scratch directory that is always removed.
 *
 * Sequential: one file of --size bytes written and read in --block calls.
 * O_DIRECT when the file system takes it (open or the first write failing
 * with EINVAL means it does not: 9p, tmpfs on older kernels), so that
 * neither direction measures the page cache. Otherwise buffered writes and
 * an fsync (both inside the timed interval: data is written when it is on
 * the disk), then posix_fadvise(POSIX_FADV_DONTNEED) to drop the cached
 * pages before the read. DONTNEED is advice: tmpfs, for one, keeps the
 * pages because they are the file. So we look (mincore over a mapping) at
 * how much of the file is still cached before reading and report it; a
 * read from a cache that could not be dropped is called that, not disk
 * speed. Both match what fio does with direct=1, or with direct=0,
 * end_fsync=1 and its default invalidate=1 (bench/fio-compare.sh).
 *
 * Small files: create (open O_CREAT|O_EXCL, write --file-size bytes,
 * close), stat, read (open, read to EOF, close) and delete, each timed per
 * operation — the per-call round trip is what makes DrvFS slow, so we keep
 * the distribution (median, p99), not just a rate. Every phase stops at
 * --seconds; the delete phase always removes every file created.
 *
 * Everything lives in PATH/.wslgpu-bench-XXXXXX (mkdtemp); on success,
 * error or signal the directory and all it holds are removed.
 */
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "../core/path.h"
#include "../core/proc.h"
#include "../core/rootfs.h"
#include "../core/interrupt.h"
#include "../facts/wslhost.h"
#include "mounts.h"
#include "stats.h"
#include "kb_ids.h"

const char *const bench_op_names[BENCH_OP__COUNT] = { "create", "stat", "read", "delete" };

#define SEQ_NAME "seq.dat"
#define SMALL_DIR "small"
#define ALIGN 4096

/* ---- free space ---- */

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

bool bench_io_space_ok(uint64_t avail, const struct bench_io_params *p, uint64_t *need)
{
	/* A small file occupies at least one 4 KiB block on every disk we meet. */
	uint64_t per_file = round_up(p->file_size ? p->file_size : 1, ALIGN);
	uint64_t writes = p->size + (uint64_t)p->files * per_file;
	uint64_t margin = writes / 10 > BENCH_IO_MARGIN ? writes / 10 : BENCH_IO_MARGIN;
	*need = writes + margin;
	return avail >= *need;
}

bool bench_io_fit(uint64_t avail, const struct bench_io_params *p, uint64_t *size,
		  unsigned *files)
{
	*size = 0;
	*files = 0;
	uint64_t unit = p->block > (1ull << 20) ? p->block : 1ull << 20;
	if (unit > p->size)
		return false; /* nothing smaller than asked is a whole block */
	uint64_t per_file = round_up(p->file_size ? p->file_size : 1, ALIGN);
	/* The small files may take a quarter of what is left after the margin. */
	uint64_t room = avail > BENCH_IO_MARGIN ? avail - BENCH_IO_MARGIN : 0;
	unsigned f = p->files;
	while (f > 1 && (uint64_t)f * per_file > room / 4)
		f /= 2;
	if (f == 1 && per_file > room / 4)
		f = 0;
	uint64_t s = unit;
	while (s * 2 <= p->size && s * 2 <= room)
		s *= 2;
	for (; f || p->files == 0; f /= 2) {
		struct bench_io_params q = *p;
		uint64_t need;
		for (uint64_t t = s; t >= unit; t /= 2) {
			q.size = t;
			q.files = f;
			if (bench_io_space_ok(avail, &q, &need)) {
				*size = t;
				*files = f;
				return true;
			}
		}
		if (!f)
			break;
	}
	return false;
}

/* ---- locations ---- */

static void loc_fail(struct bench_io_loc *loc, const char *kb, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void loc_fail(struct bench_io_loc *loc, const char *kb, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(loc->error);
	loc->error = sb_detach(&sb);
	free(loc->kb);
	loc->kb = kb ? xstrdup(kb) : NULL;
	loc->state = loc->named ? BENCH_LOC_FAILED : BENCH_LOC_SKIPPED;
}

/* Resolves loc->path into resolved (guest) and host; classifies the mount. */
static void resolve(struct bench_io_loc *loc, const struct mountinfo *mi, const char *automount)
{
	struct strbuf cwd = STRBUF_INIT, norm = STRBUF_INIT, res = STRBUF_INIT,
		      host = STRBUF_INIT;
	if (loc->path[0] == '/') {
		path_normalize(loc->path, &norm);
	} else if (rootfs_cwd(&cwd) == 0) {
		char *abs = path_join(cwd.buf, loc->path);
		sb_add(&norm, abs);
		free(abs);
	} else {
		loc_fail(loc, NULL, "the current directory is unknown");
		goto out;
	}
	int rc = rootfs_realpath(norm.buf, &res, &host);
	if (rc < 0) {
		loc_fail(loc, NULL, "%s: %s", norm.buf, strerror(-rc));
		goto out;
	}
	loc->resolved = sb_detach(&res);
	loc->host = sb_detach(&host);
	struct stat st;
	if (stat(loc->host, &st) < 0) {
		loc_fail(loc, NULL, "%s: %s", loc->resolved, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		loc_fail(loc, NULL, "%s is not a directory", loc->resolved);
		goto out;
	}
	const struct mount_entry *m = mountinfo_find(mi, loc->resolved);
	if (m) {
		loc->fstype = xstrdup(m->fstype);
		loc->source = xstrdup(m->source);
		loc->mount_point = xstrdup(m->mount_point);
		loc->windows_drive = mountinfo_windows_drive(m, automount);
	} else {
		loc->fstype = xstrdup("unknown");
		loc->source = xstrdup("");
		loc->mount_point = xstrdup("");
	}
	if (access(loc->host, W_OK) < 0)
		loc_fail(loc, KB_BENCH_IO_NOT_WRITABLE, "%s is not writable: %s", loc->resolved,
			 strerror(errno));
out:
	sb_release(&cwd);
	sb_release(&norm);
	sb_release(&res);
	sb_release(&host);
}

static struct bench_io_loc *add_loc(struct bench_io_loc **locs, size_t *n, const char *path,
				    bool named, const char *role)
{
	*locs = xrealloc(*locs, (*n + 1) * sizeof **locs);
	struct bench_io_loc *l = &(*locs)[(*n)++];
	memset(l, 0, sizeof *l);
	l->path = xstrdup(path);
	l->named = named;
	l->role = role ? xstrdup(role) : NULL;
	l->cache_resident_pct = -1;
	return l;
}

/* Windows profile names that are not a person's. */
static bool system_profile(const char *name)
{
	static const char *const skip[] = { "Public", "Default", "Default User", "All Users",
					    "defaultuser0", "WDAGUtilityAccount", "WsiAccount",
					    NULL };
	if (name[0] == '.' || strchr(name, '.'))
		return true; /* desktop.ini and the like */
	for (const char *const *s = skip; *s; s++)
		if (!strcasecmp(name, *s))
			return true;
	return false;
}

/* The Windows directory to measure: <C:>/Users/<name>, else <C:>/tmp. */
static char *windows_default(const char *cmnt)
{
	struct strbuf users = STRBUF_INIT;
	sb_addf(&users, "%s/Users", cmnt);
	DIR *d = rootfs_opendir(users.buf);
	char *pick = NULL, *only = NULL;
	int candidates = 0;
	const char *user = getenv("USER");
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			if (system_profile(de->d_name))
				continue;
			struct strbuf p = STRBUF_INIT;
			sb_addf(&p, "%s/%s", users.buf, de->d_name);
			struct stat st;
			if (rootfs_stat(p.buf, &st) == 0 && S_ISDIR(st.st_mode) &&
			    rootfs_access(p.buf, W_OK) == 0) {
				candidates++;
				if (user && !strcasecmp(user, de->d_name) && !pick)
					pick = xstrdup(p.buf);
				else if (!only || strcmp(p.buf, only) < 0) {
					free(only);
					only = xstrdup(p.buf);
				}
			}
			sb_release(&p);
		}
		closedir(d);
	}
	if (!pick && candidates == 1)
		pick = only, only = NULL;
	free(only);
	if (!pick) {
		struct strbuf t = STRBUF_INIT;
		sb_addf(&t, "%s/tmp", cmnt);
		struct stat st;
		if (rootfs_stat(t.buf, &st) == 0 && S_ISDIR(st.st_mode) &&
		    rootfs_access(t.buf, W_OK) == 0)
			pick = sb_detach(&t);
		sb_release(&t);
	}
	sb_release(&users);
	return pick;
}

static void bench_io_free_one(struct bench_io_loc *l)
{
	free(l->path);
	free(l->resolved);
	free(l->host);
	free(l->role);
	free(l->fstype);
	free(l->source);
	free(l->mount_point);
	free(l->error);
	free(l->kb);
	free(l->method);
	memset(l, 0, sizeof *l);
}

void bench_io_free(struct bench_io_loc *locs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		bench_io_free_one(&locs[i]);
	free(locs);
}

void bench_io_locations(const char *const *paths, size_t npaths, struct bench_io_loc **locs,
			size_t *nlocs)
{
	*locs = NULL;
	*nlocs = 0;
	struct mountinfo mi = { 0 };
	mountinfo_read("/proc/self/mountinfo", &mi); /* line by line, whole */
	/* Windows drives sit under wsl.conf's [automount] root, /mnt/ by default. */
	struct strbuf automount = STRBUF_INIT;
	wslhost_automount_root(&automount);

	if (npaths) {
		for (size_t i = 0; i < npaths; i++)
			add_loc(locs, nlocs, paths[i], true, NULL);
	} else {
		struct strbuf cwd = STRBUF_INIT;
		if (rootfs_cwd(&cwd) == 0)
			add_loc(locs, nlocs, cwd.buf, false, "current directory");
		sb_release(&cwd);
		const char *home = getenv("HOME");
		if (home && home[0] == '/')
			add_loc(locs, nlocs, home, false, "home");
		struct strbuf c = STRBUF_INIT;
		if (mount_windows_c(&mi, automount.buf, &c) == 0) {
			char *w = windows_default(c.buf);
			if (w)
				add_loc(locs, nlocs, w, false, "Windows drive");
			free(w);
		}
		sb_release(&c);
	}
	for (size_t i = 0; i < *nlocs; i++)
		resolve(&(*locs)[i], &mi, automount.buf);
	/* The same directory twice (cwd = $HOME) is measured, and listed, once. */
	size_t kept = 0;
	for (size_t i = 0; i < *nlocs; i++) {
		struct bench_io_loc *a = &(*locs)[i];
		bool dup = false;
		for (size_t j = 0; j < kept && !dup; j++) {
			const struct bench_io_loc *b = &(*locs)[j];
			dup = !strcmp(a->path, b->path) ||
			      (a->resolved && b->resolved && !strcmp(a->resolved, b->resolved));
		}
		if (dup) {
			bench_io_free_one(a);
			continue;
		}
		if (kept != i)
			(*locs)[kept] = *a;
		kept++;
	}
	*nlocs = kept;
	mountinfo_free(&mi);
	sb_release(&automount);
}



/* ---- progress ---- */

struct progress {
	bool on;
	double last;
	const char *where;
	unsigned trial, trials;
};

static void progress(struct progress *pr, const char *phase, uint64_t done, uint64_t total,
		     bool bytes)
{
	if (!pr->on)
		return;
	double now = now_ms();
	if (done != 0 && done != total && now - pr->last < 100)
		return;
	pr->last = now;
	char trial[48] = "";
	if (pr->trials > 1)
		snprintf(trial, sizeof trial, " (trial %u/%u)", pr->trial, pr->trials);
	if (bytes)
		fprintf(stderr, "\r\033[K%s%s: %s %llu/%llu MiB", pr->where, trial, phase,
			(unsigned long long)(done >> 20), (unsigned long long)(total >> 20));
	else
		fprintf(stderr, "\r\033[K%s%s: %s %llu/%llu", pr->where, trial, phase,
			(unsigned long long)done, (unsigned long long)total);
	fflush(stderr);
}

static void progress_clear(struct progress *pr)
{
	if (pr->on) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

/* ---- scratch directory ---- */

/* Removes dir (a path) with the files and the one level of directories the
 * benchmark creates inside it; symlinks are removed, never followed. */
static int remove_tree_at(int parent, const char *name, int depth)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		return -e;
	}
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(fd, de->d_name, 0) == 0)
			continue;
		if ((errno == EISDIR || errno == EPERM) && depth > 0) {
			int r = remove_tree_at(fd, de->d_name, depth - 1);
			if (r == 0 && unlinkat(fd, de->d_name, AT_REMOVEDIR) < 0)
				r = -errno;
			if (r < 0 && rc == 0)
				rc = r;
		} else if (rc == 0) {
			rc = -errno;
		}
	}
	closedir(d);
	return rc;
}

static int remove_scratch(const char *dir)
{
	int rc = remove_tree_at(AT_FDCWD, dir, 1);
	if (rmdir(dir) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* ---- the phases ---- */

struct run {
	struct bench_io_loc *loc;
	struct bench_io_trial *t; /* what this trial measures */
	const struct bench_io_params *p;
	int dirfd;
	unsigned char *buf;   /* --block bytes, aligned for O_DIRECT */
	struct progress pr;
	int err;              /* first errno */
	char *what;           /* what failed */
};

static void run_error(struct run *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void run_error(struct run *r, int err, const char *fmt, ...)
{
	if (r->err)
		return;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	sb_addf(&sb, ": %s", strerror(err));
	r->err = err;
	r->what = sb_detach(&sb);
}

static bool stop_now(void)
{
	return interrupt_signal() != 0;
}

static void fill_pattern(unsigned char *buf, size_t n, uint64_t seed)
{
	/* xorshift64*: incompressible, so a compressing or deduplicating
	 * file system cannot make the numbers look better than the disk. */
	uint64_t x = seed | 1;
	for (size_t i = 0; i + 8 <= n; i += 8) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		uint64_t v = x * 0x2545F4914F6CDD1Dull;
		memcpy(buf + i, &v, 8);
	}
	for (size_t i = n & ~(size_t)7; i < n; i++)
		buf[i] = (unsigned char)i;
}

static int open_seq(struct run *r, int flags, bool direct)
{
	int fd;
	do
		fd = openat(r->dirfd, SEQ_NAME, flags | O_CLOEXEC | (direct ? O_DIRECT : 0), 0600);
	while (fd < 0 && errno == EINTR && !stop_now());
	return fd;
}

static void seq_write(struct run *r)
{
	const struct bench_io_params *p = r->p;
	struct bench_io_loc *loc = r->loc;
	bool direct = p->block % ALIGN == 0;
	int flags = O_WRONLY | O_CREAT | O_TRUNC;
	int fd = open_seq(r, flags, direct);
	if (fd < 0 && direct && errno == EINVAL) {
		direct = false;
		fd = open_seq(r, flags, false);
	}
	if (fd < 0) {
		run_error(r, errno, "create %s", SEQ_NAME);
		return;
	}
	uint64_t done = 0;
	double t0 = now_ms(), limit = bench_io_phase_seconds(p) * 1000.0;
	while (done < p->size && !stop_now()) {
		if (now_ms() - t0 > limit) {
			r->t->write.time_bound = true;
			break;
		}
		uint64_t blockno = done / p->block;
		memcpy(r->buf, &blockno, sizeof blockno);
		ssize_t w = write(fd, r->buf, (size_t)p->block);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && direct && errno == EINVAL && done == 0) {
			/* Took O_DIRECT at open, refuses it on write: buffered. */
			close(fd);
			direct = false;
			fd = open_seq(r, flags, false);
			if (fd < 0) {
				run_error(r, errno, "create %s", SEQ_NAME);
				return;
			}
			t0 = now_ms();
			continue;
		}
		if (w < 0) {
			run_error(r, errno, "write %s", SEQ_NAME);
			break;
		}
		done += (uint64_t)w;
		progress(&r->pr, "sequential write", done, p->size, true);
	}
	if (!r->err && !stop_now() && fsync(fd) < 0 && errno != EINVAL)
		run_error(r, errno, "fsync %s", SEQ_NAME);
	double secs = (now_ms() - t0) / 1000.0;
	if (!direct)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	loc->direct = direct;
	free(loc->method);
	loc->method = xstrdup(direct ? "O_DIRECT" : "buffered+fsync+FADV_DONTNEED");
	r->t->write.bytes = done;
	r->t->write.seconds = secs;
	r->t->write.bytes_per_s = secs > 0 ? (double)done / secs : 0;
}

/* Percentage of the file's pages in the page cache; -1 if unknown. */
static int cached_pct(int fd, uint64_t len)
{
	if (len == 0)
		return -1;
	long pg = sysconf(_SC_PAGESIZE);
	if (pg <= 0)
		return -1;
	void *m = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -1;
	size_t pages = (size_t)((len + (uint64_t)pg - 1) / (uint64_t)pg);
	unsigned char *vec = xmalloc(pages);
	int pct = -1;
	if (mincore(m, (size_t)len, vec) == 0) {
		size_t in = 0;
		for (size_t i = 0; i < pages; i++)
			in += vec[i] & 1;
		pct = (int)((in * 100 + pages / 2) / pages);
	}
	free(vec);
	munmap(m, (size_t)len);
	return pct;
}

static void seq_read(struct run *r)
{
	const struct bench_io_params *p = r->p;
	struct bench_io_loc *loc = r->loc;
	uint64_t total = r->t->write.bytes;
	bool direct = loc->direct;
	int fd = open_seq(r, O_RDONLY, direct);
	if (fd < 0 && direct && errno == EINVAL) {
		direct = false;
		fd = open_seq(r, O_RDONLY, false);
	}
	if (fd < 0) {
		run_error(r, errno, "open %s", SEQ_NAME);
		return;
	}
	if (!direct) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		r->t->cache_resident_pct = cached_pct(fd, total);
		if (loc->direct) {
			loc->direct = false;
			free(loc->method);
			loc->method = xstrdup("O_DIRECT write, buffered read");
		}
	}
	uint64_t done = 0;
	double t0 = now_ms(), limit = bench_io_phase_seconds(p) * 1000.0;
	while (done < total && !stop_now()) {
		if (now_ms() - t0 > limit) {
			r->t->read.time_bound = true;
			break;
		}
		ssize_t n = read(fd, r->buf, (size_t)p->block);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			run_error(r, errno, "read %s", SEQ_NAME);
			break;
		}
		if (n == 0)
			break;
		done += (uint64_t)n;
		progress(&r->pr, "sequential read", done, total, true);
	}
	double secs = (now_ms() - t0) / 1000.0;
	close(fd);
	r->t->read.bytes = done;
	r->t->read.seconds = secs;
	r->t->read.bytes_per_s = secs > 0 ? (double)done / secs : 0;
	if (unlinkat(r->dirfd, SEQ_NAME, 0) < 0 && !r->err)
		run_error(r, errno, "remove %s", SEQ_NAME);
}

static void file_name(char *buf, size_t n, unsigned i)
{
	snprintf(buf, n, "f%06u", i);
}

/* Writes all of n bytes; false with errno set on failure. */
static bool write_all(int fd, const unsigned char *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR && !stop_now())
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return false;
		}
		b += w;
		n -= (size_t)w;
	}
	return true;
}

static void finish_phase(struct bench_opstats *st, double *t, size_t n, double secs)
{
	struct bench_summary s;
	bench_summarise(t, n, &s);
	st->ops = n;
	st->seconds = secs;
	st->ops_per_s = secs > 0 ? (double)n / secs : 0;
	st->median_us = s.median;
	st->p99_us = s.p99;
	st->mean_us = s.mean;
}

static void small_files(struct run *r)
{
	const struct bench_io_params *p = r->p;
	struct bench_io_trial *tr = r->t;
	if (mkdirat(r->dirfd, SMALL_DIR, 0700) < 0) {
		run_error(r, errno, "create %s/", SMALL_DIR);
		return;
	}
	int sfd = openat(r->dirfd, SMALL_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sfd < 0) {
		run_error(r, errno, "open %s/", SMALL_DIR);
		return;
	}
	size_t fsz = (size_t)p->file_size;
	unsigned char *fbuf = xmalloc(fsz + 1);
	fill_pattern(fbuf, fsz, 0x5eed);
	double *t = xcalloc(p->files ? p->files : 1, sizeof *t);
	double limit = bench_io_phase_seconds(p) * 1000.0;
	char name[32];
	unsigned created = 0;

	for (int op = 0; op < BENCH_OP__COUNT && !stop_now(); op++) {
		unsigned total = op == BENCH_OP_CREATE ? p->files : created;
		size_t n = 0;
		double start = now_ms();
		for (unsigned i = 0; i < total && !stop_now() && !r->err; i++) {
			/* Delete is cleanup too: it is never cut short by time. */
			if (op != BENCH_OP_DELETE && now_ms() - start > limit)
				break;
			file_name(name, sizeof name, i);
			double t0 = now_ms();
			int fd;
			struct stat st;
			switch (op) {
			case BENCH_OP_CREATE:
				fd = openat(sfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
				if (fd < 0) {
					run_error(r, errno, "create %s/%s", SMALL_DIR, name);
					break;
				}
				created++;
				if (fsz && !write_all(fd, fbuf, fsz))
					run_error(r, errno, "write %s/%s", SMALL_DIR, name);
				if (close(fd) < 0)
					run_error(r, errno, "close %s/%s", SMALL_DIR, name);
				break;
			case BENCH_OP_STAT:
				if (fstatat(sfd, name, &st, 0) < 0)
					run_error(r, errno, "stat %s/%s", SMALL_DIR, name);
				break;
			case BENCH_OP_READ:
				fd = openat(sfd, name, O_RDONLY | O_CLOEXEC);
				if (fd < 0) {
					run_error(r, errno, "open %s/%s", SMALL_DIR, name);
					break;
				}
				for (;;) {
					ssize_t k = read(fd, fbuf, fsz + 1);
					if (k < 0 && errno == EINTR && !stop_now())
						continue;
					if (k < 0)
						run_error(r, errno, "read %s/%s", SMALL_DIR, name);
					if (k <= 0)
						break;
				}
				close(fd);
				break;
			case BENCH_OP_DELETE:
				if (unlinkat(sfd, name, 0) < 0)
					run_error(r, errno, "remove %s/%s", SMALL_DIR, name);
				break;
			}
			t[n++] = (now_ms() - t0) * 1000.0;
			progress(&r->pr, bench_op_names[op], i + 1, total, false);
		}
		finish_phase(&tr->op[op], t, n, (now_ms() - start) / 1000.0);
		if (r->err)
			break;
	}
	tr->files_created = created;
	double per_file = 0;
	for (int op = 0; op < BENCH_OP__COUNT; op++)
		per_file += tr->op[op].mean_us;
	tr->per_file_us = per_file;
	free(t);
	free(fbuf);
	close(sfd);
	if (!r->err && !stop_now() && unlinkat(r->dirfd, SMALL_DIR, AT_REMOVEDIR) < 0)
		run_error(r, errno, "remove %s/", SMALL_DIR);
}

double bench_io_phase_seconds(const struct bench_io_params *p)
{
	return p->seconds / (p->trials ? p->trials : 1);
}

/* The trial whose figure f is nearest the median of them all. */
static const struct bench_io_trial *nearest(const struct bench_io_loc *loc,
					    const struct bench_trials *f, double median)
{
	size_t best = 0;
	for (size_t i = 1; i < loc->trials && i < f->n; i++)
		if (fabs(f->v[i] - median) < fabs(f->v[best] - median))
			best = i;
	return &loc->trial[best];
}

/* A trial done: its figures join the location's, which become the
 * medians of all its trials. */
static void add_trial(struct bench_io_loc *loc, const struct bench_io_trial *t)
{
	if (loc->trials >= BENCH_IO_MAX_TRIALS)
		return;
	unsigned i = loc->trials++;
	loc->trial[i] = *t;
	loc->t_write.v[i] = t->write.bytes_per_s;
	loc->t_read.v[i] = t->read.bytes_per_s;
	loc->t_small.v[i] = t->per_file_us;
	loc->t_write.n = loc->t_read.n = loc->t_small.n = loc->trials;
	struct bench_spread sp;
	bench_spread_of(&loc->t_write, &sp);
	loc->write = nearest(loc, &loc->t_write, sp.median)->write;
	loc->write.bytes_per_s = sp.median;
	bench_spread_of(&loc->t_read, &sp);
	const struct bench_io_trial *rt = nearest(loc, &loc->t_read, sp.median);
	loc->read = rt->read;
	loc->read.bytes_per_s = sp.median;
	loc->cache_resident_pct = rt->cache_resident_pct;
	bench_spread_of(&loc->t_small, &sp);
	const struct bench_io_trial *st = nearest(loc, &loc->t_small, sp.median);
	memcpy(loc->op, st->op, sizeof loc->op);
	loc->files_created = st->files_created;
	loc->per_file_us = sp.median;
}

int bench_io_run(struct bench_io_loc *loc, const struct bench_io_params *p)
{
	if (loc->state != BENCH_LOC_PENDING && loc->state != BENCH_LOC_DONE)
		return 0;
	struct statvfs vfs;
	if (statvfs(loc->host, &vfs) == 0) {
		loc->free_bytes = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
		if (!bench_io_space_ok(loc->free_bytes, p, &loc->need_bytes)) {
			struct strbuf f = STRBUF_INIT, nd = STRBUF_INIT;
			bench_format_size(&f, loc->free_bytes);
			bench_format_size(&nd, loc->need_bytes);
			loc_fail(loc, KB_BENCH_IO_NO_SPACE,
				 "not enough free space: %s free, the benchmark needs %s", f.buf,
				 nd.buf);
			bench_io_fit(loc->free_bytes, p, &loc->fit_size, &loc->fit_files);
			/* Refusing is a failure even for a default location: the
			 * user should know the disk is nearly full. */
			loc->state = BENCH_LOC_FAILED;
			sb_release(&f);
			sb_release(&nd);
			return 0;
		}
	}
	struct strbuf scratch = STRBUF_INIT;
	sb_addf(&scratch, "%s%s.wslgpu-bench-XXXXXX", loc->host,
		loc->host[strlen(loc->host) - 1] == '/' ? "" : "/");
	if (!mkdtemp(scratch.buf)) {
		loc_fail(loc, KB_BENCH_IO_NOT_WRITABLE, "cannot create a scratch directory in %s: %s",
			 loc->resolved, strerror(errno));
		sb_release(&scratch);
		return 0;
	}
	struct bench_io_trial trial = { .cache_resident_pct = -1 };
	struct run r = { .loc = loc, .t = &trial, .p = p, .dirfd = -1 };
	r.pr.on = p->progress;
	r.pr.where = loc->resolved;
	r.pr.trial = loc->trials + 1;
	r.pr.trials = p->trials;
	r.dirfd = open(scratch.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.dirfd < 0) {
		run_error(&r, errno, "open the scratch directory");
	} else if (posix_memalign((void **)&r.buf, ALIGN, (size_t)p->block) != 0) {
		run_error(&r, ENOMEM, "allocate %llu bytes", (unsigned long long)p->block);
	} else {
		fill_pattern(r.buf, (size_t)p->block, 0xbe7c4);
		if (p->size) {
			seq_write(&r);
			if (!r.err && !stop_now())
				seq_read(&r);
		}
		if (!r.err && !stop_now())
			small_files(&r);
	}
	progress_clear(&r.pr);
	free(r.buf);
	if (r.dirfd >= 0)
		close(r.dirfd);
	int rm = remove_scratch(scratch.buf);
	if (r.err) {
		loc->state = BENCH_LOC_FAILED;
		free(loc->error);
		loc->error = r.what;
		r.what = NULL;
	} else if (rm < 0) {
		loc->state = BENCH_LOC_FAILED;
		free(loc->error);
		loc->error = xasprintf("could not remove the scratch directory %s: %s",
				       scratch.buf, strerror(-rm));
	} else if (!stop_now()) {
		loc->state = BENCH_LOC_DONE;
		add_trial(loc, &trial);
	}
	free(r.what);
	sb_release(&scratch);
	return stop_now() ? -EINTR : 0;
}
