/* procstat.c: /proc counters for `wslgpu watch`. See procstat.h. */
#include "procstat.h"

#include <errno.h>
#include <string.h>

#include "meminfo.h"

/* A cursor over a buffer that is not NUL-terminated. */
struct cur {
	const char *p, *end;
};

static void skip_blanks(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* Unsigned decimal; a leading '-' (cutime is printed signed) reads as 0.
 * Returns false when there is no number here. Saturates on overflow. */
static bool next_u64(struct cur *c, unsigned long long *v)
{
	skip_blanks(c);
	bool neg = false;
	if (c->p < c->end && *c->p == '-') {
		neg = true;
		c->p++;
	}
	if (c->p >= c->end || *c->p < '0' || *c->p > '9')
		return false;
	unsigned long long x = 0;
	for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
		unsigned d = (unsigned)(*c->p - '0');
		x = x > (~0ULL - d) / 10 ? ~0ULL : x * 10 + d;
	}
	*v = neg ? 0 : x;
	return true;
}

/* Skips one blank-separated token; false at the end of the line. */
static bool skip_token(struct cur *c)
{
	skip_blanks(c);
	if (c->p >= c->end || *c->p == '\n')
		return false;
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\n')
		c->p++;
	return true;
}

unsigned long long cpu_times_total(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->idle + t->iowait + t->irq + t->softirq +
	       t->steal;
}

int procstat_cpu_parse(const char *buf, size_t len, struct cpu_times *t, unsigned *ncpu)
{
	memset(t, 0, sizeof *t);
	if (ncpu)
		*ncpu = 0;
	if (!buf)
		return -EINVAL;
	bool found = false;
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		size_t n = (size_t)(eol - p);
		if (n > 4 && memcmp(p, "cpu", 3) == 0) {
			if ((p[3] == ' ' || p[3] == '\t') && !found) {
				struct cur c = { p + 3, eol };
				unsigned long long *f[] = { &t->user, &t->nice, &t->system, &t->idle,
							    &t->iowait, &t->irq, &t->softirq, &t->steal };
				size_t got = 0;
				for (; got < sizeof f / sizeof f[0]; got++)
					if (!next_u64(&c, f[got]))
						break;
				if (got >= 4) /* user nice system idle: every kernel has them */
					found = true;
				else
					memset(t, 0, sizeof *t);
			} else if (p[3] >= '0' && p[3] <= '9' && ncpu) {
				(*ncpu)++;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return found ? 0 : -EINVAL;
}

int procstat_pid_parse(const char *buf, size_t len, struct pid_stat *ps)
{
	memset(ps, 0, sizeof *ps);
	if (!buf || !len)
		return -EINVAL;
	const char *end = buf + len;
	const char *nl = memchr(buf, '\n', len);
	if (nl)
		end = nl;
	const char *open = memchr(buf, '(', (size_t)(end - buf));
	const char *close = NULL;
	for (const char *q = end; q > buf; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!open || !close || close < open)
		return -EINVAL;
	struct cur c = { buf, open };
	unsigned long long v;
	if (!next_u64(&c, &v) || v == 0 || v > 0x7fffffff)
		return -EINVAL;
	ps->pid = (int)v;
	size_t clen = (size_t)(close - open - 1);
	if (clen >= sizeof ps->comm)
		clen = sizeof ps->comm - 1;
	memcpy(ps->comm, open + 1, clen);
	ps->comm[clen] = '\0';

	c.p = close + 1;
	c.end = end;
	skip_blanks(&c);
	if (c.p >= c.end)
		return -EINVAL;
	ps->state = *c.p++;
	/* Fields 4.. as proc(5) numbers them; we keep the ones listed. */
	unsigned long long f[23] = { 0 };
	int have = 0;
	for (int field = 4; field <= 22; field++) {
		if (!next_u64(&c, &f[field])) {
			/* priority and nice (18, 19) may be negative: "-" reads as 0
			 * above, so a missing number really is the end. */
			break;
		}
		have = field;
	}
	if (have < 22)
		return -EINVAL;
	ps->ppid = f[4] > 0x7fffffff ? 0 : (int)f[4];
	ps->pgrp = f[5] > 0x7fffffff ? 0 : (int)f[5];
	ps->utime = f[14];
	ps->stime = f[15];
	ps->cutime = f[16];
	ps->cstime = f[17];
	ps->num_threads = f[20] > 0x7fffffff ? 0x7fffffff : (long)f[20];
	ps->starttime = f[22];
	return 0;
}

int procstat_io_parse(const char *buf, size_t len, struct pid_io *io)
{
	static const struct {
		const char *key;
		unsigned bit;
		size_t off;
	} fields[] = {
		{ "rchar", PIO_RCHAR, offsetof(struct pid_io, rchar) },
		{ "wchar", PIO_WCHAR, offsetof(struct pid_io, wchar) },
		{ "read_bytes", PIO_READ_BYTES, offsetof(struct pid_io, read_bytes) },
		{ "write_bytes", PIO_WRITE_BYTES, offsetof(struct pid_io, write_bytes) },
	};
	memset(io, 0, sizeof *io);
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		unsigned long long v;
		if (procfile_u64(buf, len, fields[i].key, &v) == 0) {
			memcpy((char *)io + fields[i].off, &v, sizeof v);
			io->have |= fields[i].bit;
		}
	}
	unsigned need = PIO_READ_BYTES | PIO_WRITE_BYTES;
	return (io->have & need) == need ? 0 : -EINVAL;
}

bool procstat_disk_is_virtual(const char *name)
{
	static const char *const prefixes[] = { "loop", "ram", "zram", "dm-", "md", "sr", "fd" };
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t n = strlen(prefixes[i]);
		if (strncmp(name, prefixes[i], n) == 0)
			return true;
	}
	return false;
}

/* True when name is a partition of disk: disk + digits ("sda1"), or, for
 * a disk whose name ends in a digit, disk + 'p' + digits ("nvme0n1p1"). */
static bool is_partition_of(const char *name, const char *disk)
{
	size_t dl = strlen(disk);
	if (!dl || strncmp(name, disk, dl) != 0)
		return false;
	const char *rest = name + dl;
	if (disk[dl - 1] >= '0' && disk[dl - 1] <= '9') {
		if (*rest != 'p')
			return false;
		rest++;
	}
	if (!*rest)
		return false;
	for (; *rest; rest++)
		if (*rest < '0' || *rest > '9')
			return false;
	return true;
}

#define DISK_MAX 512

struct disk_line {
	char name[32];
	unsigned long long rd, wr;
};

int procstat_diskstats_parse(const char *buf, size_t len, struct disk_totals *t)
{
	memset(t, 0, sizeof *t);
	if (!buf)
		return -EINVAL;
	struct disk_line lines[DISK_MAX]; /* 24 KiB: more devices are ignored */
	size_t n = 0;
	const char *p = buf, *end = buf + len;
	while (p < end && n < DISK_MAX) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct cur c = { p, eol };
		unsigned long long major, minor, f[8];
		/* major minor name reads merged sectors_read ms writes merged sectors_written */
		if (next_u64(&c, &major) && next_u64(&c, &minor)) {
			skip_blanks(&c);
			const char *name = c.p;
			if (skip_token(&c)) {
				size_t nlen = (size_t)(c.p - name);
				bool ok = nlen < sizeof lines[n].name;
				for (int i = 0; ok && i < 7; i++)
					ok = next_u64(&c, &f[i]);
				if (ok) {
					memcpy(lines[n].name, name, nlen);
					lines[n].name[nlen] = '\0';
					lines[n].rd = f[2];
					lines[n].wr = f[6];
					n++;
				}
			}
		}
		(void)major;
		(void)minor;
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (procstat_disk_is_virtual(lines[i].name))
			continue;
		bool part = false;
		for (size_t j = 0; j < n && !part; j++)
			part = j != i && is_partition_of(lines[i].name, lines[j].name);
		if (part)
			continue;
		t->sectors_read += lines[i].rd;
		t->sectors_written += lines[i].wr;
		t->ndisks++;
	}
	return 0;
}
