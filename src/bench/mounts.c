/* mounts.c: find the Windows system drive's mount. See mounts.h. */
#include "mounts.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

int mount_windows_c(const struct mountinfo *mi, const char *automount_root, struct strbuf *mnt)
{
	const struct mount_entry *by_source = NULL, *by_name = NULL;
	for (size_t i = 0; i < mi->n; i++) {
		const struct mount_entry *m = &mi->m[i];
		if (!mountinfo_windows_drive(m, automount_root))
			continue;
		size_t n = strlen(m->mount_point);
		if (!by_source && tolower((unsigned char)m->source[0]) == 'c' && m->source[1] == ':')
			by_source = m;
		if (!by_name && n >= 2 && m->mount_point[n - 2] == '/' &&
		    tolower((unsigned char)m->mount_point[n - 1]) == 'c')
			by_name = m;
	}
	const struct mount_entry *m = by_source ? by_source : by_name;
	if (!m)
		return -ENOENT;
	sb_reset(mnt);
	sb_add(mnt, m->mount_point);
	return 0;
}
