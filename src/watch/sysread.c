/* sysread.c: machine-wide counters for watch. See sysread.h. */
#include "sysread.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../core/proc.h"
#include "../core/rootfs.h"

#define PROC_PREAD_CAP (1u << 20)

int proc_pread(int fd, struct strbuf *sb)
{
	sb_reset(sb);
	if (fd < 0)
		return -EBADF;
	off_t off = 0;
	for (;;) {
		if (sb->len >= PROC_PREAD_CAP)
			break;
		sb_grow(sb, 4096);
		size_t room = sb->alloc - sb->len - 1;
		if (room > PROC_PREAD_CAP - sb->len)
			room = PROC_PREAD_CAP - sb->len;
		ssize_t n = pread(fd, sb->buf + sb->len, room, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		off += n;
	}
	return 0;
}

static int open_ro(const char *path)
{
	int fd = rootfs_open(path, O_RDONLY);
	if (fd >= 0) {
		/* rootfs_open adds O_NONBLOCK against FIFOs; /proc files never
		 * block, and a fixture's regular file neither. */
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	return fd;
}

void machine_open(struct machine_reader *m)
{
	m->fd_stat = open_ro("/proc/stat");
	m->fd_disk = open_ro("/proc/diskstats");
	m->fd_vm = open_ro("/proc/vmstat");
	m->fd_mem = open_ro("/proc/meminfo");
	sb_init(&m->buf);
}

void machine_read(struct machine_reader *m, struct machine_counters *c)
{
	memset(c, 0, sizeof *c);
	c->t_ms = now_ms();
	if (proc_pread(m->fd_stat, &m->buf) == 0)
		c->have_cpu = procstat_cpu_parse(m->buf.buf, m->buf.len, &c->cpu, &c->ncpu) == 0;
	if (proc_pread(m->fd_disk, &m->buf) == 0)
		c->have_disk = procstat_diskstats_parse(m->buf.buf, m->buf.len, &c->disk) == 0;
	if (proc_pread(m->fd_vm, &m->buf) == 0)
		vmstat_parse(m->buf.buf, m->buf.len, &c->vm);
	if (proc_pread(m->fd_mem, &m->buf) == 0)
		c->have_mem = meminfo_parse(m->buf.buf, m->buf.len, &c->mem) == 0 &&
			      (c->mem.have & MI_MEM_AVAILABLE);
}

void machine_close(struct machine_reader *m)
{
	int *fds[] = { &m->fd_stat, &m->fd_disk, &m->fd_vm, &m->fd_mem };
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	sb_release(&m->buf);
}
