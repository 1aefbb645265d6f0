/* datafs.c: which file systems the job's open files are on. See datafs.h. */
#include "datafs.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/rootfs.h"
#include "../facts/wslhost.h"

/* At most this many fds per process are looked at in one scan. */
#define DATAFS_MAX_FDS 1024

static const char *const remote_types[] = { "nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph",
					    "glusterfs", "fuse.sshfs", "fuse.rclone",
					    "fuse.s3fs", "fuse.gcsfuse", "9p", NULL };

const char *datafs_classify(const struct mount_entry *m, const char *automount_root,
			    struct strbuf *what)
{
	if (!m || !m->fstype)
		return NULL;
	sb_reset(what);
	if (mountinfo_windows_drive(m, automount_root)) {
		sb_add(what, m->fstype);
		struct strbuf v = STRBUF_INIT;
		if (mountinfo_option(m->super_options, "aname", &v)) {
			/* "drvfs;path=C:\;uid=..." — the first part is enough. */
			char *semi = strchr(v.buf, ';');
			if (semi)
				*semi = '\0';
			sb_addf(what, ", aname=%s", v.buf);
		}
		sb_release(&v);
		return "windows-drive";
	}
	for (const char *const *t = remote_types; *t; t++)
		if (!strcmp(m->fstype, *t)) {
			/* WSL's own 9p shares hold the driver store, not data. */
			if (!strcmp(*t, "9p") && m->mount_point &&
			    (!strncmp(m->mount_point, "/usr/lib/wsl", 12) ||
			     !strncmp(m->mount_point, "/mnt/wslg", 9) ||
			     !strncmp(m->mount_point, "/gpu_", 5)))
				return NULL;
			sb_addf(what, "%s, %s", m->fstype, m->source ? m->source : "?");
			return "network";
		}
	return NULL;
}

void datafs_init(struct data_seen *d)
{
	memset(d, 0, sizeof *d);
	sb_init(&d->automount);
}

void datafs_release(struct data_seen *d)
{
	if (d->have_mi)
		mountinfo_free(&d->mi);
	for (size_t i = 0; i < d->n; i++) {
		free(d->p[i].mount);
		free(d->p[i].what);
		free(d->p[i].example);
	}
	free(d->p);
	for (size_t i = 0; i < d->npaths; i++)
		free(d->paths[i]);
	free(d->paths);
	sb_release(&d->automount);
	memset(d, 0, sizeof *d);
}

/* Paths that are never the job's data. */
static bool not_data(const char *path)
{
	static const char *const skip[] = { "/dev/", "/proc/", "/sys/", "/usr/lib/wsl/",
					    "/run/", "/memfd:", NULL };
	if (path[0] != '/')
		return true; /* pipe:[..], socket:[..], anon_inode:... */
	for (const char *const *s = skip; *s; s++)
		if (!strncmp(path, *s, strlen(*s)))
			return true;
	return false;
}

static bool seen(struct data_seen *d, const char *path)
{
	for (size_t i = 0; i < d->npaths; i++)
		if (!strcmp(d->paths[i], path))
			return true;
	return false;
}

static void count(struct data_seen *d, const char *path)
{
	if (d->npaths >= DATAFS_MAX_PATHS || seen(d, path) || !d->have_mi)
		return;
	if (d->npaths % 64 == 0)
		d->paths = xrealloc(d->paths, (d->npaths + 64) * sizeof *d->paths);
	d->paths[d->npaths++] = xstrdup(path);
	const struct mount_entry *m = mountinfo_find(&d->mi, path);
	struct strbuf what = STRBUF_INIT;
	const char *kind = datafs_classify(m, d->automount.buf, &what);
	if (!kind) {
		d->local_files++;
		sb_release(&what);
		return;
	}
	struct data_place *p = NULL;
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->p[i].mount, m->mount_point))
			p = &d->p[i];
	if (!p) {
		d->p = xrealloc(d->p, (d->n + 1) * sizeof *d->p);
		p = &d->p[d->n++];
		p->mount = xstrdup(m->mount_point);
		p->what = sb_detach(&what);
		p->kind = kind;
		p->example = xstrdup(path);
		p->files = 0;
	}
	p->files++;
	sb_release(&what);
}

static void load_mountinfo(struct data_seen *d, int pid)
{
	if (d->have_mi)
		return;
	if (!d->automount.len)
		wslhost_automount_root(&d->automount);
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/mountinfo", pid);
	/* Line by line, whole: no mount is missed however many there are. */
	d->have_mi = mountinfo_read(path, &d->mi) > 0;
	if (!d->have_mi)
		mountinfo_free(&d->mi);
}

/* True when /proc/PID/fdinfo/FD says the fd was opened write-only. */
static bool write_only(int pid, const char *fd)
{
	char path[320];
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%s", pid, fd);
	struct strbuf sb = STRBUF_INIT;
	bool wo = false;
	if (rootfs_read(path, 4096, &sb, NULL) == 0) {
		const char *f = strstr(sb.buf, "flags:");
		if (f) {
			unsigned long flags = strtoul(f + 6, NULL, 8);
			wo = (flags & O_ACCMODE) == O_WRONLY;
		}
	}
	sb_release(&sb);
	return wo;
}

static void strip_deleted(struct strbuf *sb)
{
	static const char suffix[] = " (deleted)";
	size_t n = sizeof suffix - 1;
	if (sb->len > n && !memcmp(sb->buf + sb->len - n, suffix, n)) {
		sb->len -= n;
		sb->buf[sb->len] = '\0';
	}
}

static void scan_fds(struct data_seen *d, int pid)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
	DIR *dp = rootfs_opendir(dir);
	if (!dp)
		return;
	struct strbuf link = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	int looked = 0;
	while ((de = readdir(dp)) && looked < DATAFS_MAX_FDS) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		looked++;
		sb_reset(&path);
		sb_addf(&path, "%s/%s", dir, de->d_name);
		if (rootfs_readlink(path.buf, &link) < 0)
			continue;
		strip_deleted(&link);
		if (not_data(link.buf) || seen(d, link.buf))
			continue;
		const struct mount_entry *m = d->have_mi ? mountinfo_find(&d->mi, link.buf) : NULL;
		struct strbuf what = STRBUF_INIT;
		bool slow = datafs_classify(m, d->automount.buf, &what) != NULL;
		sb_release(&what);
		/* Logs and checkpoints written to /mnt/c are not what it reads. */
		if (slow && write_only(pid, de->d_name))
			continue;
		count(d, link.buf);
	}
	closedir(dp);
	sb_release(&link);
	sb_release(&path);
}

/* The pathname column of a maps line, or NULL. */
static const char *maps_path(const char *line, const char *eol, bool *exec)
{
	/* address perms offset dev inode pathname */
	const char *p = line;
	for (int field = 0; field < 5; field++) {
		while (p < eol && *p != ' ')
			p++;
		while (p < eol && *p == ' ')
			p++;
		if (field == 0 && p + 4 <= eol)
			*exec = p[2] == 'x';
	}
	return p < eol && *p == '/' ? p : NULL;
}

static void scan_maps(struct data_seen *d, int pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", pid);
	struct strbuf sb = STRBUF_INIT, one = STRBUF_INIT;
	if (rootfs_read(path, 4u << 20, &sb, NULL) < 0) {
		sb_release(&sb);
		return;
	}
	/* Two passes: first the paths that have an executable mapping. */
	char **execs = NULL;
	size_t nexec = 0;
	for (int pass = 0; pass < 2; pass++) {
		const char *p = sb.buf, *end = sb.buf + sb.len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *eol = nl ? nl : end;
			bool exec = false;
			const char *name = maps_path(p, eol, &exec);
			if (name) {
				sb_reset(&one);
				sb_addn(&one, name, (size_t)(eol - name));
				strip_deleted(&one);
				if (pass == 0 && exec) {
					execs = xrealloc(execs, (nexec + 1) * sizeof *execs);
					execs[nexec++] = xstrdup(one.buf);
				} else if (pass == 1 && !not_data(one.buf)) {
					bool is_exec = false;
					for (size_t i = 0; i < nexec && !is_exec; i++)
						is_exec = !strcmp(execs[i], one.buf);
					if (!is_exec)
						count(d, one.buf);
				}
			}
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	for (size_t i = 0; i < nexec; i++)
		free(execs[i]);
	free(execs);
	sb_release(&sb);
	sb_release(&one);
}

void datafs_scan(struct data_seen *d, int pid, bool maps)
{
	load_mountinfo(d, pid);
	if (!d->have_mi)
		return;
	scan_fds(d, pid);
	if (maps)
		scan_maps(d, pid);
}

const struct data_place *datafs_worst(const struct data_seen *d)
{
	const struct data_place *best = NULL;
	for (size_t i = 0; i < d->n; i++) {
		const struct data_place *p = &d->p[i];
		if (!best) {
			best = p;
			continue;
		}
		bool p_win = !strcmp(p->kind, "windows-drive"), b_win = !strcmp(best->kind, "windows-drive");
		if ((p_win && !b_win) || (p_win == b_win && p->files > best->files))
			best = p;
	}
	return best;
}
