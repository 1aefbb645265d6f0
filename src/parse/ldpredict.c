/* ldpredict.c: glibc's search for a bare soname, as a pure decision. See ldpredict.h. */
#include "ldpredict.h"

#include <stdlib.h>
#include <string.h>

#include "../core/path.h"

const struct ld_abi ld_abi_x86_64 = { "x86-64", LDCACHE_FLAG_X8664_LIB64 | LDCACHE_FLAG_ELF_LIBC6,
				      2, 62 /* EM_X86_64 */, "x86_64-linux-gnu" };
static const struct ld_abi ld_abi_aarch64 = { "AArch64",
					      LDCACHE_FLAG_AARCH64_LIB64 | LDCACHE_FLAG_ELF_LIBC6, 2,
					      183 /* EM_AARCH64 */, "aarch64-linux-gnu" };

const struct ld_abi *ld_abi_host(void)
{
#if defined(__aarch64__)
	return &ld_abi_aarch64;
#else
	(void)ld_abi_aarch64;
	return &ld_abi_x86_64;
#endif
}

static unsigned u16le(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

enum ld_kind ld_classify(const unsigned char *h, size_t len, const struct ld_abi *abi,
			 const char **why)
{
	static const char *dummy;
	if (!why)
		why = &dummy;
	*why = NULL;
	/* The order of glibc's open_verify: length, magic, class, data,
	 * version, OS ABI, ABI version, padding, then the header fields. */
	if (len < 64) {
		*why = "file too short";
		return LD_BROKEN;
	}
	if (memcmp(h, "\177ELF", 4) != 0) {
		*why = "invalid ELF header";
		return LD_BROKEN;
	}
	if (h[4] != abi->elf_class) {
		*why = abi->elf_class == 2 ? "wrong ELF class: ELFCLASS32" : "wrong ELF class: ELFCLASS64";
		return LD_OTHER_ABI;
	}
	if (h[5] != 1) {
		*why = "ELF file data encoding not little-endian";
		return LD_BROKEN;
	}
	if (h[6] != 1) {
		*why = "ELF file version ident does not match current one";
		return LD_BROKEN;
	}
	if (h[7] != 0 && h[7] != 3) { /* ELFOSABI_SYSV, ELFOSABI_GNU */
		*why = "ELF file OS ABI invalid";
		return LD_BROKEN;
	}
	if (h[8] != 0 && !(h[7] == 3 && h[8] < 4)) {
		*why = "ELF file ABI version invalid";
		return LD_BROKEN;
	}
	for (int i = 9; i < 16; i++)
		if (h[i] != 0) {
			*why = "nonzero padding in e_ident";
			return LD_BROKEN;
		}
	if ((uint32_t)u16le(h + 20) + ((uint32_t)u16le(h + 22) << 16) != 1) {
		*why = "ELF file version does not match current one";
		return LD_BROKEN;
	}
	if (u16le(h + 18) != abi->elf_machine) {
		*why = "built for another machine";
		return LD_OTHER_ABI;
	}
	unsigned type = u16le(h + 16);
	if (type != 3 && type != 2) {
		*why = "only ET_DYN and ET_EXEC can be loaded";
		return LD_BROKEN;
	}
	if (u16le(h + 54) != 56) {
		*why = "ELF file's phentsize not the expected size";
		return LD_BROKEN;
	}
	return LD_LOADABLE;
}

const char *ld_via_name(enum ld_via v)
{
	switch (v) {
	case LD_VIA_LD_LIBRARY_PATH: return "LD_LIBRARY_PATH";
	case LD_VIA_CACHE: return "ld.so.cache";
	case LD_VIA_DEFAULT: return "default path";
	case LD_VIA_NONE: break;
	}
	return "none";
}

size_t ld_split_path(const char *llp, const char *cwd, char ***dirs)
{
	*dirs = NULL;
	if (!llp || !*llp)
		return 0; /* glibc: an empty LD_LIBRARY_PATH is no list at all */
	if (!cwd || cwd[0] != '/')
		cwd = "/";
	size_t n = 1;
	for (const char *c = llp; *c; c++)
		if (*c == ':' || *c == ';')
			n++;
	char **v = xcalloc(n, sizeof *v);
	size_t k = 0;
	const char *p = llp;
	for (;;) {
		size_t len = strcspn(p, ":;");
		if (len == 0) {
			v[k++] = xstrdup(cwd); /* "" is the current directory */
		} else if (memchr(p, '$', len)) {
			v[k++] = xstrndup(p, len);
		} else {
			struct strbuf raw = STRBUF_INIT, norm = STRBUF_INIT;
			if (p[0] != '/') {
				sb_add(&raw, cwd);
				sb_addc(&raw, '/');
			}
			sb_addn(&raw, p, len);
			path_normalize(raw.buf, &norm);
			v[k++] = sb_detach(&norm);
			sb_release(&raw);
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	*dirs = v;
	return k;
}

void ld_free_dirs(char **dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

struct predictor {
	const struct ld_search *s;
	struct ld_prediction *p;
	bool decided;
	struct ld_dev { uint64_t dev, ino; } *ids; /* parallel to p->seen */
};

/* Records a file in the seen list unless it was seen already (same path,
 * or the same file by device and inode); returns its index, or -1 for a
 * file that is not there. */
static ssize_t add_seen(struct predictor *pr, const char *path, enum ld_via via,
			const struct ld_file *f)
{
	struct ld_prediction *p = pr->p;
	if (f->kind == LD_MISSING)
		return -1;
	for (size_t i = 0; i < p->nseen; i++) {
		if (!strcmp(p->seen[i].path, path))
			return (ssize_t)i;
		if (f->ino && pr->ids[i].ino == f->ino && pr->ids[i].dev == f->dev)
			return (ssize_t)i;
	}
	p->seen = xrealloc(p->seen, (p->nseen + 1) * sizeof *p->seen);
	pr->ids = xrealloc(pr->ids, (p->nseen + 1) * sizeof *pr->ids);
	struct ld_seen *e = &p->seen[p->nseen];
	memset(e, 0, sizeof *e);
	e->path = xstrdup(path);
	e->via = via;
	e->kind = f->kind;
	e->why = f->why;
	pr->ids[p->nseen].dev = f->dev;
	pr->ids[p->nseen].ino = f->ino;
	return (ssize_t)p->nseen++;
}

/* The loader's decision at one file it opens. */
static void decide(struct predictor *pr, const char *path, enum ld_via via,
		   const struct ld_file *f, ssize_t idx)
{
	struct ld_prediction *p = pr->p;
	if (pr->decided)
		return;
	switch (f->kind) {
	case LD_LOADABLE:
		p->resolved = xstrdup(path);
		p->via = via;
		pr->decided = true;
		if (idx >= 0)
			p->seen[idx].chosen = true;
		break;
	case LD_BROKEN:
		p->broken = xstrdup(path);
		p->broken_why = f->why;
		p->broken_via = via;
		pr->decided = true;
		break;
	case LD_OTHER_ABI:
		p->other_abi = true;
		break;
	case LD_MISSING:
	case LD_UNREADABLE:
		break;
	}
}

/* One directory list (LD_LIBRARY_PATH or the defaults), as open_path. */
static void search_dirs(struct predictor *pr, const char *const *dirs, size_t n, const char *soname,
			enum ld_via via)
{
	bool abandoned = false; /* an open error ends this list for the loader */
	for (size_t i = 0; i < n; i++) {
		if (strchr(dirs[i], '$')) {
			struct ld_prediction *p = pr->p;
			p->skipped = xrealloc(p->skipped, (p->nskipped + 1) * sizeof *p->skipped);
			p->skipped[p->nskipped++] = xstrdup(dirs[i]);
			continue;
		}
		char *path = path_join(dirs[i], soname);
		struct ld_file f = { LD_MISSING, NULL, 0, 0 };
		pr->s->stat(path, &f, pr->s->arg);
		ssize_t idx = add_seen(pr, path, via, &f);
		if (!abandoned) {
			decide(pr, path, via, &f, idx);
			if (!pr->decided && f.kind == LD_UNREADABLE) {
				abandoned = true;
				if (via == LD_VIA_LD_LIBRARY_PATH)
					pr->p->llp_abandoned = true;
			}
		}
		free(path);
	}
}

static void search_cache(struct predictor *pr, const char *soname)
{
	const struct ldcache *c = pr->s->cache;
	if (!c)
		return;
	ssize_t pick = ldcache_lookup(c, soname, pr->s->abi->cache_flags);
	const char *cwd = pr->s->cwd && pr->s->cwd[0] == '/' ? pr->s->cwd : "/";
	for (size_t i = 0; i < c->n; i++) {
		if ((ssize_t)i != pick && strcmp(c->e[i].name, soname) != 0)
			continue;
		char *path = c->e[i].path[0] == '/' ? path_join("/", c->e[i].path)
						     : path_join(cwd, c->e[i].path);
		struct ld_file f = { LD_MISSING, NULL, 0, 0 };
		pr->s->stat(path, &f, pr->s->arg);
		ssize_t idx = add_seen(pr, path, LD_VIA_CACHE, &f);
		if ((ssize_t)i == pick && !pr->decided) {
			decide(pr, path, LD_VIA_CACHE, &f, idx);
			if (!pr->decided) {
				/* The loader does not try the next entry: it goes on
				 * to the default directories. */
				pr->p->stale = xstrdup(path);
				pr->p->stale_why = f.kind == LD_MISSING ? "no such file" : f.why;
			}
		}
		free(path);
	}
}

void ld_predict(const char *soname, const struct ld_search *s, struct ld_prediction *p)
{
	memset(p, 0, sizeof *p);
	struct predictor pr = { s, p, false, NULL };
	char **dirs;
	size_t n = ld_split_path(s->ld_library_path, s->cwd, &dirs);
	search_dirs(&pr, (const char *const *)dirs, n, soname, LD_VIA_LD_LIBRARY_PATH);
	ld_free_dirs(dirs, n);
	search_cache(&pr, soname);
	size_t nd = 0;
	while (s->default_dirs && s->default_dirs[nd])
		nd++;
	search_dirs(&pr, s->default_dirs, nd, soname, LD_VIA_DEFAULT);
	free(pr.ids);
}

void ld_prediction_free(struct ld_prediction *p)
{
	free(p->resolved);
	free(p->broken);
	free(p->stale);
	for (size_t i = 0; i < p->nseen; i++)
		free(p->seen[i].path);
	free(p->seen);
	for (size_t i = 0; i < p->nskipped; i++)
		free(p->skipped[i]);
	free(p->skipped);
	memset(p, 0, sizeof *p);
}
