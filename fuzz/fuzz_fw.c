/* fuzz_fw.c: the parsers of the toolkit, frameworks and containers layers,
 * all fed what an interpreter, docker or dpkg might print: the JSON
 * scanner, the framework probe's output, arch lists, dpkg's status file,
 * apt sources (both formats), docker info, nvidia-container-cli info and
 * nvcc --version, and the KB signature matcher over the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explain/matcher.h"
#include "parse/aptsources.h"
#include "parse/cudaarch.h"
#include "parse/dockerinfo.h"
#include "parse/dpkgstatus.h"
#include "parse/jsonscan.h"
#include "parse/nvccver.h"
#include "parse/pyprobe.h"
#include "probes/fwadvice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_pkg(const struct dpkg_pkg *p, void *arg)
{
	(*(size_t *)arg)++;
	dpkgstatus_present(p);
	dpkgstatus_provides(p, "libcuda.so.1");
	char name[64];
	size_t n = p->name.n < sizeof name - 1 ? p->name.n : sizeof name - 1;
	memcpy(name, p->name.p, n);
	name[n] = '\0';
	gpupkg_classify(name, p->provides.p, p->provides.n);
	return 0;
}

static int count_repo(const struct aptrepo *r, void *arg)
{
	(*(size_t *)arg) += strlen(r->uri) + strlen(r->flavour);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	struct js_val v, k, e;
	struct strbuf sb = STRBUF_INIT;
	if (js_parse(p, size, &v, NULL) == 0) {
		js_string(&v, &sb);
		size_t pos = 0;
		if (v.type == JS_OBJECT)
			while (js_object_next(&v, &pos, &k, &e) == 1)
				js_string(&k, &sb);
		else if (v.type == JS_ARRAY)
			while (js_array_next(&v, &pos, &e) == 1)
				js_string(&e, &sb);
	}
	sb_release(&sb);

	struct pyprobe pp;
	pyprobe_parse(p, size, &pp);
	pyprobe_get(&pp, "stage");
	/* The install facts come from the same untrusted output. */
	struct fw_origin o;
	fw_origin_judge(&pp, pyprobe_get(&pp, "dist"), &o);
	struct fw_want w = { "torch", "/usr/bin/python3", "torch", "--index-url x", true, "cupy", true };
	struct strbuf cmd = STRBUF_INIT;
	fw_install_words(&o, pyprobe_get(&pp, "user_site"), pyprobe_get(&pp, "site_dir"), &cmd);
	fw_install_cmd(&o, &w, &cmd);
	fw_repair_cmd(&o, &w, &cmd);
	fw_check_cmd(&o, &w, &cmd);
	sb_release(&cmd);
	pyprobe_free(&pp);

	struct cudaarch_verdict av;
	cudaarch_check(p, size, 8, 6, &av);
	cudaarch_check(p, size, 12, 0, &av);

	size_t n = 0;
	dpkgstatus_each(p, size, count_pkg, &n);
	aptsources_each(p, size, false, count_repo, &n);
	aptsources_each(p, size, true, count_repo, &n);

	struct dockerinfo di;
	dockerinfo_parse(p, size, &di);
	struct nvcli_info ni;
	nvcli_info_parse(p, size, &ni);
	char ver[32];
	nvccver_parse(p, size, ver, sizeof ver);

	explain_best(explain_db_builtin(), "frameworks.", p, size);
	explain_best(explain_db_builtin(), "containers.", p, size);

	/* String-taking helpers get a NUL-terminated copy. */
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
		int maj, min;
		cudaarch_parse_cc(s, &maj, &min);
		char fl[64];
		aptrepo_classify(s, fl, sizeof fl);
		gpupkg_classify(s, NULL, 0);
		free(s);
	}
	return 0;
}
