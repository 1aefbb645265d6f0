/*
 * pyprobe: reads what the framework probe script (src/probes/pyprobe.py,
 * embedded in the binary) printed on stdout.
 *
 * The script prints one line per stage it reaches:
 *
 *   @@wslgpu-pyprobe@@ {"probe": "wslgpu-pyprobe/1", "stage": "import", ...}
 *
 * each a complete snapshot of what it knows so far, so that a Python that
 * hangs or dies in the middle of `import torch` still leaves the stage it
 * reached. The object is flat: string, number, boolean and null values and
 * arrays of scalars (arch lists); nested objects are ignored. We take the
 * last marker line whose JSON is valid.
 *
 * The interpreter is not trusted — it may not be Python at all, print a
 * gigabyte, binary junk or half a line — so the parser is pure, bounded
 * (PYPROBE_MAX_KEYS keys, PYPROBE_MAX_VALUE bytes a value) and accepts only
 * keys made of [a-z0-9_.] (they become evidence keys and KB placeholders).
 */
#ifndef WSLGPU_PYPROBE_H
#define WSLGPU_PYPROBE_H

#include <stdbool.h>
#include <stddef.h>

#define PYPROBE_MARK "@@wslgpu-pyprobe@@"
#define PYPROBE_SCHEMA "wslgpu-pyprobe/1"
#define PYPROBE_MAX_KEYS 256
#define PYPROBE_MAX_KEY 64
#define PYPROBE_MAX_VALUE 4096

struct pyprobe_kv {
	char *key;
	char *val; /* strings decoded; true/false as "true"/"false"; arrays
		    * joined with single spaces; null values are left out */
};

struct pyprobe {
	struct pyprobe_kv *kv;
	size_t n;
	size_t snapshots;  /* marker lines with valid JSON */
	size_t bad_lines;  /* marker lines whose JSON did not parse */
};

/*
 * Parses the probe's stdout. Returns 0 with the last valid snapshot in out,
 * -ENOENT when no marker line was found, -EINVAL when marker lines were
 * found but none held a valid object. out is always initialised (release
 * it with pyprobe_free).
 */
int pyprobe_parse(const char *buf, size_t len, struct pyprobe *out);
void pyprobe_free(struct pyprobe *p);
/* Value of key in the snapshot, or NULL. */
const char *pyprobe_get(const struct pyprobe *p, const char *key);
/* True if key's value is "true". */
bool pyprobe_true(const struct pyprobe *p, const char *key);

#endif
