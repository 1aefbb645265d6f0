/* program.c: what kind of program the watched job is. See program.h. */
#include "program.h"

#include <stdio.h>
#include <string.h>

#include "../core/rootfs.h"
#include "../core/strbuf.h"

static const struct {
	const char *name, *title;
} kinds[] = {
	[WP_UNKNOWN] = { "unknown", "unknown" },
	[WP_OTHER] = { "other", "a program that is not Python" },
	[WP_PYTHON] = { "python", "Python" },
	[WP_JAX] = { "jax", "JAX" },
	[WP_TENSORFLOW] = { "tensorflow", "TensorFlow" },
	[WP_PYTORCH] = { "pytorch", "PyTorch" },
};

const char *program_name(enum watch_program k)
{
	return (unsigned)k <= WP_PYTORCH ? kinds[k].name : "unknown";
}

const char *program_title(enum watch_program k)
{
	return (unsigned)k <= WP_PYTORCH ? kinds[k].title : "unknown";
}

bool program_is_framework(enum watch_program k)
{
	return k == WP_PYTORCH || k == WP_TENSORFLOW || k == WP_JAX;
}

bool program_is_python(enum watch_program k)
{
	return k == WP_PYTHON || program_is_framework(k);
}

static const char *base_name(const char *s, size_t n, size_t *bn)
{
	const char *b = s;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/')
			b = s + i + 1;
	*bn = (size_t)(s + n - b);
	return b;
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t l = strlen(prefix);
	return n >= l && !strncmp(s, prefix, l);
}

/* Whether s[0..n) holds word w not inside a longer identifier
 * ("import torch" in "import torchvision" does not count). */
static bool has_word(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);
	for (size_t i = 0; i + l <= n; i++) {
		if (strncmp(s + i, w, l))
			continue;
		char after = i + l < n ? s[i + l] : '\0';
		if (!(after == '_' || (after >= 'a' && after <= 'z') || (after >= '0' && after <= '9')))
			return true;
	}
	return false;
}

/* A framework an argument names: code run with -c, a module run with -m. */
static enum watch_program framework_in(const char *a, size_t n)
{
	if (has_word(a, n, "import torch") || has_word(a, n, "from torch") ||
	    starts(a, n, "torch."))
		return WP_PYTORCH;
	if (has_word(a, n, "import tensorflow") || has_word(a, n, "from tensorflow") ||
	    starts(a, n, "tensorflow."))
		return WP_TENSORFLOW;
	if (has_word(a, n, "import jax") || has_word(a, n, "from jax"))
		return WP_JAX;
	return WP_UNKNOWN;
}

enum watch_program program_from_cmdline(const char *buf, size_t len, const char *comm)
{
	enum watch_program k = WP_UNKNOWN;
	size_t i = 0, arg = 0;
	while (i < len) {
		const char *a = buf + i;
		size_t n = strnlen(a, len - i);
		if (arg == 0) {
			size_t bn;
			const char *b = base_name(a, n, &bn);
			if (starts(b, bn, "torchrun"))
				return WP_PYTORCH;
			if (starts(b, bn, "python"))
				k = WP_PYTHON;
		} else {
			enum watch_program f = framework_in(a, n);
			if (f != WP_UNKNOWN)
				return f;
		}
		i += n + 1;
		arg++;
	}
	if (k == WP_UNKNOWN && comm && !strncmp(comm, "python", 6))
		k = WP_PYTHON;
	if (k == WP_UNKNOWN && (arg > 0 || (comm && *comm)))
		k = WP_OTHER;
	return k;
}

/* The framework a mapped library belongs to, by its file name and path. */
static enum watch_program framework_of_lib(const char *path, size_t n)
{
	size_t bn;
	const char *b = base_name(path, n, &bn);
	if (starts(b, bn, "libtorch") || starts(b, bn, "libc10.so") || starts(b, bn, "libc10_cuda.so"))
		return WP_PYTORCH;
	if (starts(b, bn, "libtensorflow_framework.so") || starts(b, bn, "libtensorflow_cc.so") ||
	    starts(b, bn, "_pywrap_tensorflow_internal.so"))
		return WP_TENSORFLOW;
	if (starts(b, bn, "xla_extension.so") || starts(b, bn, "libjax"))
		return WP_JAX;
	for (size_t i = 0; i + 8 <= n; i++)
		if (!strncmp(path + i, "/jaxlib/", 8))
			return WP_JAX;
	return WP_UNKNOWN;
}

enum watch_program program_from_maps(const char *buf, size_t len, const char **lib,
				     size_t *liblen)
{
	enum watch_program best = WP_UNKNOWN;
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		/* the path is the sixth field; a path starts with '/' */
		const char *path = memchr(p, '/', (size_t)(eol - p));
		if (path) {
			size_t n = (size_t)(eol - path);
			const char *del = NULL;
			for (const char *q = path; q + 10 <= eol; q++)
				if (!strncmp(q, " (deleted)", 10))
					del = q;
			if (del)
				n = (size_t)(del - path);
			enum watch_program f = framework_of_lib(path, n);
			if (f > best) {
				best = f;
				if (lib) {
					size_t bn;
					*lib = base_name(path, n, &bn);
					*liblen = bn;
				}
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return best;
}

static bool seen_pid(struct program_seen *p, int pid, const char *comm)
{
	comm = comm ? comm : "";
	for (size_t i = 0; i < p->npids; i++)
		if (p->seen[i].pid == pid) {
			if (!strcmp(p->seen[i].comm, comm))
				return true;
			snprintf(p->seen[i].comm, sizeof p->seen[i].comm, "%s", comm);
			return false;
		}
	if (p->npids < PROGRAM_MAX_PIDS) {
		p->seen[p->npids].pid = pid;
		snprintf(p->seen[p->npids].comm, sizeof p->seen[p->npids].comm, "%s", comm);
		p->npids++;
	}
	return false;
}

/* A stronger kind than known so far: it and how it was seen. */
static void found(struct program_seen *p, enum watch_program k, const char *how, const char *comm,
		  int pid)
{
	if (k <= p->kind)
		return;
	p->kind = k;
	snprintf(p->what, sizeof p->what, "%s%s%s, pid %d", how, *how ? " by " : "",
		 comm && *comm ? comm : "?", pid);
}

static void scan_maps(struct program_seen *p, int pid, const char *comm)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", pid);
	struct strbuf sb = STRBUF_INIT;
	if (rootfs_read(path, 8u << 20, &sb, NULL) == 0) {
		const char *lib = NULL;
		size_t n = 0;
		enum watch_program k = program_from_maps(sb.buf, sb.len, &lib, &n);
		if (k != WP_UNKNOWN) {
			char how[96];
			snprintf(how, sizeof how, "%.*s mapped", (int)(n < 64 ? n : 64), lib);
			found(p, k, how, comm, pid);
		}
	}
	sb_release(&sb);
}

void program_scan(struct program_seen *p, int pid, const char *comm, bool maps)
{
	if (!seen_pid(p, pid, comm)) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
		struct strbuf sb = STRBUF_INIT;
		if (rootfs_read(path, 64u << 10, &sb, NULL) == 0 || (comm && *comm)) {
			enum watch_program k = program_from_cmdline(sb.buf ? sb.buf : "", sb.len, comm);
			found(p, k, program_is_framework(k) ? "named on the command line" : "", comm,
			      pid);
			bool listed = false;
			for (size_t i = 0; i < p->npython; i++)
				listed |= p->python[i] == pid;
			if (k == WP_PYTHON && !listed &&
			    p->npython < sizeof p->python / sizeof p->python[0])
				p->python[p->npython++] = pid;
		}
		sb_release(&sb);
	}
	if (!maps || program_is_framework(p->kind))
		return;
	for (size_t i = 0; i < p->npython; i++)
		if (p->python[i] == pid)
			scan_maps(p, pid, comm);
}
