/*
 * osrelease (facts): the described machine's os-release(5) file, read
 * through rootfs. os-release(5): /etc/os-release, and /usr/lib/os-release
 * when that is missing. Parsing is parse/osrelease.h.
 */
#ifndef WSLGPU_FACTS_OSRELEASE_H
#define WSLGPU_FACTS_OSRELEASE_H

#include "../core/strbuf.h"

/* Reads the file into text (replaced); *path (may be NULL) gets the guest
 * path read. Returns 0, or the -errno of the last attempt. */
int os_release_read(struct strbuf *text, const char **path);
/* One value (ID, PRETTY_NAME, ...), unquoted, into val (replaced).
 * Returns 0, or -1 when the file or the key is missing. */
int os_release_value(const char *key, struct strbuf *val);

#endif
