/*
 * bundle: the support bundle of `wslgpu report`: a tar.gz holding a
 * README.txt summary, the full `check -v --json` and the raw evidence of
 * the described machine (files read through rootfs, nvidia-smi -q and
 * docker info run through proc with a time limit), every member redacted
 * unless asked not to. All libarchive use is in bundle.c.
 */
#ifndef WSLGPU_BUNDLE_H
#define WSLGPU_BUNDLE_H

#include <stdbool.h>
#include <time.h>

#include "../core/strbuf.h"
#include "../report/report.h"
#include "redact.h"

/* No member is larger than this; longer ones end with a marker line. */
#define BUNDLE_MEMBER_CAP (4u << 20)

struct bundle_opts {
	const char *path;          /* the archive; "-": standard output */
	struct redactor *redactor; /* NULL: --no-redact */
	int timeout_ms;            /* for each command run (nvidia-smi -q, docker info) */
	time_t now;                /* names the top directory, wslgpu-report-<UTC> */
	const char *command_line;  /* how the tool was called, for the README */
};

/*
 * Collects the evidence and writes the archive, atomically (temporary file
 * and rename; nothing is left behind on an error or SIGINT/SIGTERM), mode
 * 0600. Returns 0, or -1 with a one-line reason in err. On success
 * members receives one "NAME  SIZE" line per member.
 */
int bundle_write(const struct report *rep, const struct bundle_opts *o,
		 struct strbuf *members, struct strbuf *err);

#endif
