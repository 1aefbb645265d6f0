/* path.c: lexical path operations. See path.h. */
#include "path.h"

#include <string.h>

bool path_push(struct strbuf *sb, const char *comp, size_t n, bool relative)
{
	if (n == 1 && comp[0] == '.')
		return false;
	if (n == 2 && comp[0] == '.' && comp[1] == '.') {
		while (sb->len > 0 && sb->buf[sb->len - 1] != '/')
			sb->len--;
		if (sb->len > 0)
			sb->len--; /* the slash */
		if (sb->buf) /* a fresh strbuf has no buffer yet: "/.." */
			sb->buf[sb->len] = '\0';
		return false;
	}
	if (!relative || sb->len)
		sb_addc(sb, '/');
	sb_addn(sb, comp, n);
	return true;
}

void path_normalize(const char *path, struct strbuf *out)
{
	sb_reset(out);
	bool relative = path[0] != '/';
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, "/");
		path_push(out, p, n, relative);
		p += n;
	}
	if (!out->len)
		sb_add(out, relative ? "." : "/");
}

char *path_join(const char *dir, const char *name)
{
	struct strbuf j = STRBUF_INIT, n = STRBUF_INIT;
	sb_add(&j, dir);
	sb_addc(&j, '/');
	sb_add(&j, name);
	path_normalize(j.buf, &n);
	sb_release(&j);
	return sb_detach(&n);
}

void path_dirname(const char *path, struct strbuf *out)
{
	sb_reset(out);
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (!slash)
		sb_add(out, ".");
	else if (slash == path)
		sb_add(out, "/");
	else
		sb_addn(out, path, (size_t)(slash - path));
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

bool path_within(const char *path, const char *dir)
{
	size_t dl = strlen(dir);
	while (dl > 0 && dir[dl - 1] == '/')
		dl--;
	if (dl == 0) /* "/" */
		return path[0] == '/';
	return strncmp(path, dir, dl) == 0 && (path[dl] == '/' || path[dl] == '\0');
}
