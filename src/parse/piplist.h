/*
 * piplist: Python packages as users paste them, in the three forms seen in
 * threads:
 *
 *  - `pip list`: a "Package  Version" header, a rule of dashes, then
 *    "name  version [location]" rows (`pip list | grep torch` drops the
 *    header: two-word "name version" lines count then too);
 *  - `pip freeze`: "name==version" (also "===", and "name @ url", which has
 *    no version); "-e ..." lines are skipped;
 *  - the "Versions of relevant libraries" section of
 *    `python -m torch.utils.collect_env`: "[pip3] name==version" and
 *    "[conda] name  version  build  channel" (kept apart, conda = true).
 *
 * A name must be a valid project name (PEP 508) and a version must start
 * with a digit, so that prose and other report lines are not packages.
 * Names compare as PEP 503 normalises them: case-insensitively, with runs
 * of '-', '_' and '.' equal ("aiohttp_socks" is "aiohttp-socks").
 */
#ifndef WSLGPU_PIPLIST_H
#define WSLGPU_PIPLIST_H

#include <stdbool.h>
#include <stddef.h>

struct pip_pkg {
	char name[96];
	char version[64]; /* "" for "name @ url" */
	bool conda;       /* a "[conda]" row of collect_env */
	int line;         /* 1-based */
};

struct piplist {
	struct pip_pkg *p;
	size_t n;
	size_t npip, nconda;
};

/* Parses len bytes; never fails. Returns the number of packages. */
size_t piplist_parse(const char *buf, size_t len, struct piplist *pl);
void piplist_free(struct piplist *pl);
/* The first package of that name (pip's when conda is false), or NULL. */
const struct pip_pkg *piplist_find(const struct piplist *pl, const char *name, bool conda);
/* True if two project names are equal once normalised (PEP 503). */
bool piplist_same_name(const char *a, const char *b);
/*
 * The CUDA release a PyTorch wheel's local version label names, as the
 * download index spells them (download.pytorch.org/whl/cu121 for 12.1):
 * "2.1.0+cu121" -> "12.1", "+cu118" -> "11.8", "+cu92" -> "9.2";
 * "+cpu" -> "cpu"; "+rocm6.0" -> "rocm6.0"; "" when there is no label (a
 * wheel from PyPI, whose CUDA the version alone does not say).
 */
void piplist_torch_cuda(const char *version, char *out, size_t n);
/* The CUDA libraries pip installs: nvidia-<lib>-cu11, -cu12, -cu13 wheels. */
bool piplist_is_nvidia_wheel(const char *name);

#endif
