/* osrelease.c: the described machine's os-release (see osrelease.h). */
#include "osrelease.h"

#include "../core/rootfs.h"
#include "../parse/osrelease.h"

/* Larger is no os-release; rootfs_read says it was cut. */
#define OS_RELEASE_MAX 65536

int os_release_read(struct strbuf *text, const char **path)
{
	static const char *const paths[] = { "/etc/os-release", "/usr/lib/os-release" };
	int rc = -1;
	for (size_t i = 0; i < 2; i++) {
		sb_reset(text);
		rc = rootfs_read(paths[i], OS_RELEASE_MAX, text, NULL);
		if (rc == 0) {
			if (path)
				*path = paths[i];
			return 0;
		}
	}
	return rc;
}

int os_release_value(const char *key, struct strbuf *val)
{
	struct strbuf text = STRBUF_INIT;
	sb_reset(val);
	int rc = os_release_read(&text, NULL) == 0 &&
				 osrelease_get(text.buf, text.len, key, val) == 0
			 ? 0
			 : -1;
	sb_release(&text);
	return rc;
}
