/*
 * rootfs: every file a probe reads, and every command it runs, goes through
 * here, relative to one root prefix (--root DIR, default "/").
 *
 * With the real root the kernel resolves paths as usual. With a fixture root
 * we resolve each path component ourselves so that an absolute symlink inside
 * the fixture (usr/lib/x86_64-linux-gnu/libcuda.so.1 -> /usr/lib/...) stays
 * inside the fixture, as it would on the machine the fixture describes, and a
 * symlink loop is reported as ELOOP instead of escaping or spinning.
 *
 * "Guest" paths are the paths as seen on the described machine
 * (/usr/lib/wsl/lib/libcuda.so.1); "host" paths are where those bytes are
 * on this machine (DIR/usr/lib/wsl/lib/libcuda.so.1). Reports show guest
 * paths; only exec and dlopen see host paths.
 *
 * All functions return 0 or a negative errno value.
 */
#ifndef WSLGPU_ROOTFS_H
#define WSLGPU_ROOTFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "strbuf.h"

/* Files larger than this are read only up to it and flagged as truncated. */
#define ROOTFS_READ_CAP_DEFAULT (4u << 20)
/* rootfs_lines cuts a longer line here (and says so). */
#define ROOTFS_LINE_MAX (1u << 20)

int rootfs_set(const char *root);
/*
 * on: from now on, what the resolver finds on its walks under a --root --
 * a directory, or nothing there -- is remembered, and not looked at again
 * (lstat) until rootfs_cache(false) or the next rootfs_cache(true), which
 * forget it. For a short-lived process that reads a root nobody changes
 * while it runs: the probe runner's children, each bounded by its time
 * limit. Symlinks are never remembered (a retargeted one is seen at once).
 * What changes while remembered is not seen: a path created is still
 * missing; a directory replaced by a symlink is walked through as a
 * directory, and the kernel follows that symlink when the host path is
 * used -- the race every path handed out as a string already has between
 * the walk and its use, only longer (see doc/hardening.md).
 */
void rootfs_cache(bool on);
const char *rootfs_root(void);
/* True when the root is "/": the probes look at this very machine. */
bool rootfs_is_real(void);

/*
 * Between guest and host paths, these functions and nothing else convert.
 *
 * rootfs_host_path: where a guest path is on this machine, following
 * symlinks inside the root (the last component too when follow_last).
 * -EINVAL for a relative guest path. -ENOENT or -ENOTDIR when a directory
 * on the way is missing: host still receives where the path would be (the
 * part resolved, then the rest as written) so that a message can name
 * what was tried. A missing last component is no error here.
 */
int rootfs_host_path(const char *guest, bool follow_last, struct strbuf *host);
/*
 * rootfs_guest_path: the guest path of a host path, the root prefix taken
 * off by whole components ("DIR" is "/", "DIR2/x" is outside "DIR"), after
 * lexical normalisation ("DIR/../x" is outside; no symlink is followed:
 * the host paths given here come from realpath, dlinfo or rootfs_which).
 * With the real root every absolute path is its own guest path. Returns 0,
 * -EINVAL for a relative path or -EXDEV for one outside the root; then
 * guest receives host as it is, so that a message can still show it.
 * host may be guest's own buffer.
 */
int rootfs_guest_path(const char *host, struct strbuf *guest);
/* text (a dlerror() message, a command's output; NULL is "") with each
 * host path inside the root written as its guest path, as reports show
 * paths. */
void rootfs_guest_text(const char *text, struct strbuf *out);
/*
 * realpath(3) on the described machine: the guest path with every symlink
 * followed inside the root, "." and ".." taken. Returns 0, or -errno when
 * the path or a link on the way does not exist (-ELOOP for a loop); then
 * out receives guest as given. host (may be NULL) receives the host path
 * of the result on success.
 */
int rootfs_realpath(const char *guest, struct strbuf *out, struct strbuf *host);
/*
 * The user's current directory on the described machine: getcwd(3) on the
 * real root, $PWD under a fixture root (which describes the user's shell;
 * ours is elsewhere). Returns 0, or -errno (-ENOENT for a fixture without
 * an absolute $PWD) with out empty.
 */
int rootfs_cwd(struct strbuf *out);

/*
 * A path the user typed (--python, --data), made absolute against
 * rootfs_cwd() the way the shell's path walk takes it: joined, not
 * normalised (".." is resolved by the walk, through symlinks). out is
 * replaced. Returns 0, or rootfs_cwd's error with the path taken from "/".
 */
int rootfs_absolute(const char *path, struct strbuf *out);

/*
 * Where an absolute guest path really leads: every symlink followed inside
 * the root the way the kernel's path walk does, also on the real root. A
 * missing component ends the walk: the rest is appended as written and
 * *missing set. first_link receives the first symlink's target ("" if
 * none). Returns 0, -ELOOP after 40 links, or another -errno.
 */
int rootfs_resolve(const char *guest, struct strbuf *out, bool *missing,
		   struct strbuf *first_link);

int rootfs_stat(const char *guest, struct stat *st);
int rootfs_lstat(const char *guest, struct stat *st);
int rootfs_readlink(const char *guest, struct strbuf *target);
int rootfs_access(const char *guest, int mode);
/* open(2) under the root; returns an fd or -errno. */
int rootfs_open(const char *guest, int flags);
/* A guest file opened for reading with rootfs_read's rules (regular files
 * only, -EINVAL and evidence "not_regular" otherwise), for a caller that
 * reads pieces of it (pread): a blocking fd, with its fstat in *st. */
int rootfs_open_regular(const char *guest, struct stat *st);
/*
 * Reads at most cap bytes (0 = ROOTFS_READ_CAP_DEFAULT) into out (replacing
 * its contents). *truncated, if given, says whether the file had more; a
 * cut is never silent: rootfs_note_cut names the file.
 * Only a regular file is read (/proc and /sys files are regular): a FIFO,
 * socket or device where a file belongs is refused with -EINVAL, without
 * reading (a FIFO would block, /dev/zero never end), and a probe gets
 * evidence "not_regular" naming it. rootfs_strerror says it in words.
 */
int rootfs_read(const char *guest, size_t cap, struct strbuf *out, bool *truncated);
/*
 * A file's first cap bytes (0 = ROOTFS_READ_CAP_DEFAULT) to read in place,
 * with rootfs_read's rules and notes: v->p, v->n (not NUL-terminated),
 * until rootfs_view_release. Mapped where the file has a size (no buffer
 * of zeroed pages faulted in and copied into: a 1 MB dpkg status costs 0.1
 * ms where rootfs_read takes 0.6 on a VM), read where it has none (/proc).
 * A file cut shorter by someone else while it is mapped raises SIGBUS on a
 * read past its new end: a probe's child reports that as its crash. For
 * files that are replaced, not rewritten in place (dpkg's status is
 * renamed over). v->p is "" after an error.
 */
struct rootfs_view {
	const char *p;
	size_t n;
	void *map;            /* the mapping, or NULL */
	struct strbuf owned;  /* or the bytes read */
};
int rootfs_view(const char *guest, size_t cap, struct rootfs_view *v, bool *truncated);
void rootfs_view_release(struct rootfs_view *v);
/* strerror(-rc) for rootfs_read's answers, -EINVAL as "not a regular file"
 * and -ETIMEDOUT as a read that did not finish in time. */
const char *rootfs_strerror(int rc);
/* "a FIFO", "a character device", "a directory"... for a stat mode. */
const char *rootfs_mode_name(mode_t mode);
/*
 * Says that input was cut: "what" (e.g. "read only its first 1 MiB")
 * about the guest file. In a probe as evidence "input_cut"; in the main
 * process as a warning on stderr.
 */
void rootfs_note_cut(const char *guest, const char *what);
/*
 * Where the notes above (input_cut, not_regular) go: the probe runner
 * points them at the running probe's evidence while it runs, and back at
 * NULL (a warning on stderr) after. A registration, not an argument: the
 * notes come from parsers far below the probe (dpkg, mountinfo, meminfo),
 * which take no probe context.
 */
struct evidence;
void rootfs_notes_to(struct evidence *ev);

/*
 * A file line by line, read in 64 KiB pieces: memory holds one line,
 * whatever the length of the file (a mountinfo of 100,000 mounts, a dpkg
 * status of every package). A line longer than ROOTFS_LINE_MAX is cut
 * there, the rest of it skipped, and the cut noted (rootfs_note_cut).
 * Same file rules as rootfs_read.
 *   struct rootfs_lines l;
 *   if (rootfs_lines_open(&l, "/proc/self/mountinfo") == 0) {
 *           while (rootfs_lines_next(&l) > 0) use(l.line, l.len);
 *           rootfs_lines_close(&l);
 *   }
 */
struct rootfs_lines {
	const char *line; /* the current line, NUL-terminated, without its newline */
	size_t len;
	size_t lineno;    /* 1-based */
	size_t bytes;     /* read so far, newlines included */
	size_t cut_lines; /* lines cut at ROOTFS_LINE_MAX */
	int err;          /* a read error (-errno) that ended the file early */
	/* private */
	int fd;
	char *guest;
	struct strbuf buf, cur;
	size_t pos;
	bool eof;
};
int rootfs_lines_open(struct rootfs_lines *l, const char *guest);
/* The same for name in a directory opened with rootfs_opendir (guest is
 * its guest path, for messages): a regular file is opened relative to the
 * directory, without resolving every component again (a scan of 2,000
 * dpkg lists); anything else goes through rootfs_lines_open. */
int rootfs_lines_openat(struct rootfs_lines *l, DIR *dir, const char *name, const char *guest);
/* 1: l->line holds the next line; 0: the end (or l->err). */
int rootfs_lines_next(struct rootfs_lines *l);
void rootfs_lines_close(struct rootfs_lines *l);

/*
 * For the main process (report, fix), which has no probe runner around it:
 * fn(arg, out) runs in a child process with a time limit, so that a hung
 * 9p mount (/mnt/c) or any other read that never returns costs at most
 * timeout_ms. What fn put in out comes back (at most cap bytes, 0: 64 MiB).
 * Returns fn's return value, -ETIMEDOUT (the child is killed) or -errno.
 */
int rootfs_isolated(int (*fn)(void *arg, struct strbuf *out), void *arg, int timeout_ms,
		    size_t cap, struct strbuf *out);
/* rootfs_read in such a child: the same answers, or -ETIMEDOUT. */
int rootfs_read_bounded(const char *guest, size_t cap, int timeout_ms, struct strbuf *out,
			bool *truncated);
/* opendir(3) under the root; NULL with errno set on failure. */
DIR *rootfs_opendir(const char *guest);

/*
 * Finds an external command: each directory of the tool's own PATH, taken
 * under the root, then the fixed directories /usr/local/bin, /usr/bin, /bin,
 * /usr/lib/wsl/lib (WSL puts nvidia-smi on PATH only for sessions it starts,
 * so sudo, ssh and services miss it; see FACTS.md). guest receives where it
 * is on the described machine, host where to exec it. on_path says whether
 * PATH found it (false: only the fixed directories did).
 */
int rootfs_which(const char *cmd, struct strbuf *guest, struct strbuf *host, bool *on_path);

#endif
