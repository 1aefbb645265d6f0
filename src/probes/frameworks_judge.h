/*
 * frameworks_judge.h: the decisions of frameworks.torch, .tensorflow, .jax
 * and .cupy, apart from running the probe script (src/probes/frameworks.c).
 * The collector runs pyprobe.py in each interpreter, parses what it
 * reported and looks up how the framework was installed (dpkg); it fills a
 * struct fw_run per interpreter. judge_framework_run turns one into a
 * result with no I/O (the built-in KB, constant data, names the failures),
 * so a unit test can judge any snapshot from a table
 * (tests/unit/test_judge_frameworks.c).
 */
#ifndef WSLGPU_FRAMEWORKS_JUDGE_H
#define WSLGPU_FRAMEWORKS_JUDGE_H

#include <stdbool.h>

#include "../core/proc.h"
#include "../core/result.h"
#include "../parse/pyprobe.h"

/* What we keep of a run's output; the probe's own stdout is a few KiB. */
#define FW_OUTPUT_CAP (128u << 10)

struct fwdesc {
	const char *name;    /* module and argument: "torch" */
	const char *label;   /* "PyTorch" */
};

/* One interpreter's run of the probe script. */
struct fw_run {
	const char *python;  /* the interpreter, as the user names it */
	int missing;         /* -errno when an explicit --python is not there; 0 */
	struct proc_result pr;
	int started;         /* probe_run's answer */
	struct pyprobe snap; /* what the script reported, paths as the guest names them */
	int parsed;          /* pyprobe_parse's answer */
	int limit_ms;
	const char *dpkg_package; /* the Debian package that installed the module, or NULL */
	bool apt;            /* dpkg's status database exists: apt installs here */
};

/* Fills t (evidence, then the verdict) from one run; wsl: WSL2 or a
 * container in it; cvd: $CUDA_VISIBLE_DEVICES. */
void judge_framework_run(const struct fwdesc *d, const struct fw_run *run, bool wsl,
			 const char *cvd, struct result *t);

#endif
