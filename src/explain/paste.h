/*
 * paste: the listings people paste next to an error, read with the parsers
 * that know them, so that explain can say what they show:
 *   - `ldconfig -p` (src/parse/ldconfigp.h): which libcuda.so.1 and
 *     libnvidia-ml.so.1 the loader takes from the cache (ldcache_lookup, as
 *     ld.so does when LD_LIBRARY_PATH does not name one first), the other
 *     copies listed, and whether WSL's copy is the one taken;
 *   - `pip list`, `pip freeze` and collect_env's package section
 *     (src/parse/piplist.h): the torch wheel and the CUDA it was built for,
 *     and the nvidia-* CUDA wheels (with a mix of CUDA majors called out).
 * Nothing here changes explain's verdict or exit status: it reads a listing,
 * not this machine. explain keeps the first PASTE_KEEP bytes of its input
 * for it (the matcher itself streams).
 */
#ifndef WSLGPU_EXPLAIN_PASTE_H
#define WSLGPU_EXPLAIN_PASTE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/json.h"
#include "../core/strbuf.h"

#define PASTE_KEEP (4u << 20)
#define PASTE_WHEELS 16
#define PASTE_COPIES 8

struct paste_lib {
	const char *soname;           /* "libcuda.so.1" */
	char *taken;                  /* the path ld.so takes, or NULL (not listed) */
	char *other[PASTE_COPIES];    /* the other paths listed for it */
	size_t nother;
};

struct paste {
	size_t ld_entries;            /* ldconfig -p entry lines read (0: no listing) */
	bool ld_full;                 /* with its "N libs found in cache" header */
	struct paste_lib lib[2];      /* libcuda.so.1, libnvidia-ml.so.1 */
	char torch[64];               /* the torch wheel's version, "" if not listed */
	char torch_cuda[16];          /* "12.1", "cpu", "" (no label) */
	struct { char name[96], version[64]; } wheel[PASTE_WHEELS];
	size_t nwheel, more_wheels;
	bool mixed_cuda;              /* nvidia-*-cu11 and -cu12 (or -cu13) together */
};

/* Reads len bytes; never fails. */
void paste_read(const char *buf, size_t len, struct paste *p);
/* True when it found something to say. */
bool paste_any(const struct paste *p);
/* Lines for explain's text report (each begins with two blanks). */
void paste_text(struct strbuf *out, const struct paste *p);
/* The "pasted" member of explain's JSON (null when nothing was found). */
void paste_json(struct json_writer *jw, const struct paste *p);
void paste_free(struct paste *p);

#endif
