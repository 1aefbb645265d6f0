/*
 * version.c: what `wslgpu --version` prints: buildinfo's lines, and in the
 * dynamic build where the loader would find the libraries opened at use
 * (core/dynlib.h), read from this machine's ld.so.cache without loading
 * them, so that --version stays as fast as every command that needs
 * neither. Here rather than in core/: reading the cache is a parser's job
 * (src/parse/ldcache.h), and core/ includes no parser.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../core/buildinfo.h"
#include "../core/strbuf.h"
#include "../kb/versions.h"
#include "../parse/ldcache.h"

/* The file ld.so.cache names for soname (followed to its real name, so
 * that the version shows: ".../libcurl.so.4.8.0"), or "". */
static void locate(const char *soname, struct strbuf *out)
{
	sb_reset(out);
	/* This machine's loader cache, not the described machine's: the
	 * question is what this binary can load. */
	int fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	int rc = sb_read_fd(&buf, fd, 64u << 20, NULL);
	close(fd);
	struct ldcache c;
	if (rc == 0 && ldcache_parse(buf.buf ? buf.buf : "", buf.len, &c, &why) == 0) {
#if defined(__x86_64__)
		int32_t want = LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_X8664_LIB64;
#elif defined(__aarch64__)
		int32_t want = LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_AARCH64_LIB64;
#else
		int32_t want = LDCACHE_FLAG_ELF_LIBC6;
#endif
		ssize_t i = ldcache_lookup(&c, soname, want);
		if (i >= 0) {
			char *real = realpath(c.e[i].path, NULL);
			sb_add(out, real ? real : c.e[i].path);
			free(real);
		}
		ldcache_free(&c);
	}
	sb_release(&buf);
	sb_release(&why);
}

/* "libcurl.so.4 (smoke --push): /usr/lib/.../libcurl.so.4.8.0", or not found. */
static void describe_at_use(struct strbuf *out, const char *soname, const char *what,
			    const char *package)
{
	struct strbuf where = STRBUF_INIT;
	locate(soname, &where);
	if (where.len)
		sb_addf(out, "%s (%s): %s", soname, what, where.buf);
	else
		sb_addf(out, "%s (%s): not in ld.so.cache (install %s)", soname, what, package);
	sb_release(&where);
}

void buildinfo_describe(struct strbuf *out)
{
	buildinfo_build_lines(out, KNOWLEDGE_DATE, KNOWLEDGE_CHECKED);
	if (buildinfo_is_static())
		return;
	sb_add(out, "dlopen at use: ");
	describe_at_use(out, "libcurl.so.4", "smoke --push", "libcurl4");
	sb_add(out, "; ");
	describe_at_use(out, "libarchive.so.13", "report", "libarchive13");
	sb_add(out, "; ");
	describe_at_use(out, "libsqlite3.so.0", "history", "libsqlite3-0");
	sb_addc(out, '\n');
}
