/*
 * sandbox: vendor code runs where it cannot change this machine.
 *
 * A doctor must leave the machine as it found it. The real Linux driver's
 * libcuda and NVML, run as root with /dev/nvidiactl missing, create that
 * device node (mknod, char 195,255, mode 0666) during cuInit or nvmlInit;
 * nvidia-smi does the same through NVML; libcuda starts the setuid
 * nvidia-modprobe to create nodes and load modules; a JIT-compiled kernel
 * writes ~/.nv/ComputeCache. The next run would then see another machine.
 *
 * So the children that run vendor code (a probe that loads a vendor
 * library) run under a seccomp filter installed with no_new_privs
 * (SANDBOX_VENDOR): creating, removing, renaming or changing the
 * mode or owner of a file (open with O_CREAT or O_TRUNC, mkdir, unlink,
 * rename, link, symlink, chmod, chown, truncate, utimes, xattrs) answers
 * EROFS, as on a read-only file system, which programs treat as a cache
 * they cannot write; mknod, mount and loading or removing kernel modules
 * answer EPERM, as without the capability; and no_new_privs keeps a setuid
 * helper (nvidia-modprobe) from gaining root. Opening existing files and
 * device nodes, reading and ioctls are untouched, so a working GPU works.
 * A filter needs no privilege and no namespace: it works the same for
 * root with every capability, for root in a container without
 * CAP_SYS_ADMIN, and for a user (doc/hardening.md). What it cannot stop
 * (a write into a file that exists) is not what vendor initialisation does.
 *
 * Every command proc_run starts (nvidia-smi, docker, python) runs under the
 * same filter without the file rules (SANDBOX_COMMAND): no device nodes,
 * mounts or modules, and no setuid helper gains root. The filter sees an
 * open's flags, not its path, so the file rules would also refuse a
 * shell's ">/dev/null" (an open with O_CREAT | O_TRUNC), and a command
 * that is a shell script (a wrapper nvidia-smi, a pyenv or conda shim)
 * would fail at its first redirection.
 *
 * And a change that does happen is reported: a vendor child marks /dev
 * before each check it runs and looks again after it; an entry made,
 * changed or removed meanwhile becomes evidence "dev_changed" of that
 * check; a filter that could not be installed is evidence "sandbox".
 *
 * Programs of a described machine (--root DIR) run in it: when the root has
 * what the program needs to start (its ELF interpreter, or its #!
 * interpreter and that one's), the command runs chrooted into DIR (as a
 * user, in a user namespace of its own), so it loads the described
 * machine's libraries through the described machine's loader, ld.so.cache
 * and default directories, as it would there. When the root cannot run it
 * (a fixture tree with no C library, a user with no user namespaces), it
 * runs here as before and its result gets evidence "ran_here" saying so.
 */
#ifndef WSLGPU_SANDBOX_H
#define WSLGPU_SANDBOX_H

#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>

#include "strbuf.h"

struct result;

enum sandbox_scope {
	SANDBOX_VENDOR,  /* vendor code in a child of ours: no file changes either */
	SANDBOX_COMMAND, /* a command: no device nodes, mounts or modules */
};

/*
 * Installs no_new_privs and the filter for scope in this process (and
 * everything it starts). Returns 0, or -errno when the kernel refused (then
 * why says which step); a second call stacks a second filter.
 */
int sandbox_enter(enum sandbox_scope scope, struct strbuf *why);

/*
 * For a probe's child: sandbox_child_begin marks /dev and arms the vendor
 * filter; sandbox_before_vendor_code (called by src/gpu/ before it opens
 * libcuda or NVML) enters it, once per process, in an armed child only (a
 * run without children, bench and watch are not confined by it), so that
 * the commands a probe runs before any vendor code get only the commands'
 * filter; sandbox_child_end(r) adds to r what changed in /dev since, and
 * the failure to enter the filter, if any.
 */
void sandbox_child_begin(void);
void sandbox_before_vendor_code(void);
void sandbox_child_end(struct result *r);

/*
 * What changed in directory dir since sandbox_dir_mark: false when nothing
 * did (its mtime, ctime, size and link count as they were: one stat);
 * else true, with "DIR/NAME (TYPE)" for each entry made or changed since,
 * separated by "; " (a device node with its numbers: "character device
 * 195:255"), or that an entry was removed or renamed.
 */
struct sandbox_mark {
	bool known;
	struct stat st;
	struct timespec since; /* CLOCK_REALTIME_COARSE, as file times are kept */
};
void sandbox_dir_mark(const char *dir, struct sandbox_mark *m);
bool sandbox_dir_changes(const char *dir, const struct sandbox_mark *m, struct strbuf *out);

/*
 * How proc_run starts a command: sandbox_cmd_plan (before fork) decides
 * whether the program at host path prog runs chrooted into the described
 * machine; sandbox_cmd_enter (in the forked child, before execv) does it
 * and installs the filter, and returns the path to exec (NULL with errno
 * set when it could not enter the root). here holds why it
 * runs on this machine instead, for "ran_here" evidence ("" when it runs in
 * the described machine, or when the root is this machine).
 */
struct sandbox_cmd {
	bool chroot;
	struct strbuf root;  /* the directory to chroot into */
	struct strbuf path;  /* the program as the described machine names it */
	struct strbuf cwd;   /* the user's directory there, "/" if it has none */
	struct strbuf here;
};
void sandbox_cmd_plan(const char *prog, struct sandbox_cmd *c);
const char *sandbox_cmd_enter(const struct sandbox_cmd *c, const char *prog);
void sandbox_cmd_release(struct sandbox_cmd *c);

#endif
