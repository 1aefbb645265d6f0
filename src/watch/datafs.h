/*
 * datafs: where the watched job's data lives — the storage half of an
 * input-bound verdict ("it reads from /mnt/c (9p, aname=drvfs)").
 *
 * Every few seconds watch looks at the files the job's processes have
 * open for reading (/proc/PID/fd links, with O_WRONLY ones left out via
 * /proc/PID/fdinfo) and, less often, at the files they map without
 * executing them (/proc/PID/maps: model weights are often mmapped; a path
 * with any executable mapping is a library or program and is skipped).
 * Each path is placed on its mount with src/parse/mountinfo, using the
 * job's own /proc/PID/mountinfo (a container has its own view), and the
 * mount is classified with the decision check's perf.storage makes
 * (mountinfo_windows_drive, with the automount root of /etc/wsl.conf): a
 * Windows drive (9p with aname=drvfs, drvfs, virtiofs under the automount
 * root) is slow for many files and large reads (FACTS.md, storage; field
 * case P01); a network or FUSE file system is remote. Files on
 * the distribution's own disk, /dev, /proc, /sys and the WSL driver store
 * are not data.
 */
#ifndef WSLGPU_WATCH_DATAFS_H
#define WSLGPU_WATCH_DATAFS_H

#include <stdbool.h>
#include <stddef.h>

#include "../parse/mountinfo.h"

#define DATAFS_MAX_PATHS 4096

struct data_place {
	char *mount;    /* mount point: "/mnt/c" */
	char *what;     /* "9p, aname=drvfs" */
	const char *kind; /* "windows-drive" or "network" */
	char *example;  /* the first file seen there */
	unsigned files; /* distinct files seen open there */
};

struct data_seen {
	struct mountinfo mi;
	bool have_mi;
	struct strbuf automount; /* [automount] root= of /etc/wsl.conf */
	struct data_place *p;
	size_t n;
	char **paths;   /* distinct paths already counted */
	size_t npaths;
	unsigned local_files; /* data files elsewhere (the Linux disk) */
};

void datafs_init(struct data_seen *d);
void datafs_release(struct data_seen *d);
/* Looks at one process's open files (and, with maps, its mappings). */
void datafs_scan(struct data_seen *d, int pid, bool maps);
/* The slow place with the most files (Windows drives first), or NULL. */
const struct data_place *datafs_worst(const struct data_seen *d);

/* The class of a mount for data: "windows-drive", "network", or NULL for
 * local storage; automount_root NULL means "/mnt/". Pure; exposed for the
 * unit tests. */
const char *datafs_classify(const struct mount_entry *m, const char *automount_root,
			    struct strbuf *what);

#endif
