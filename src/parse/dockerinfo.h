/*
 * dockerinfo: what `docker info --format '{{json .}}'` and
 * `nvidia-container-cli info` say, as facts.
 *
 * docker info's JSON is the engine's /info answer plus the CLI's own
 * fields. We read: ServerVersion, OperatingSystem ("Docker Desktop" for
 * Docker Desktop, the distribution's name for an engine inside it), Name
 * ("docker-desktop"), KernelVersion, DefaultRuntime, Runtimes (an object
 * keyed by runtime name: {"nvidia": {"path": "nvidia-container-runtime"}}),
 * CDISpecDirs (engine 25+), and ServerErrors — newer CLIs print the JSON
 * even when the daemon cannot be reached and put "Cannot connect to the
 * Docker daemon at unix:///var/run/docker.sock. Is the docker daemon
 * running?" there, older ones print only that text on stderr.
 *
 * nvidia-container-cli info prints "NVRM version:   531.18",
 * "CUDA version:   12.1" and one block per device ("Model:", "Architecture:
 * 8.6"), or an initialization error such as "nvidia-container-cli:
 * initialization error: WSL environment detected but no adapters were
 * found" (field cases D03, D05, D07).
 *
 * Pure over (buf, len).
 */
#ifndef WSLGPU_DOCKERINFO_H
#define WSLGPU_DOCKERINFO_H

#include <stdbool.h>
#include <stddef.h>

#define DOCKERINFO_MAX_RUNTIMES 16
#define DOCKERINFO_MAX_LIST 8

struct dockerinfo {
	bool json;                /* the text held a JSON object */
	char server_version[64];  /* "" when the daemon did not answer */
	char os[96];              /* OperatingSystem */
	char name[96];            /* Name */
	char kernel[96];          /* KernelVersion */
	char default_runtime[48];
	char context[64];         /* ClientInfo.Context */
	size_t nruntimes;
	char runtimes[DOCKERINFO_MAX_RUNTIMES][48];
	char runtime_paths[DOCKERINFO_MAX_RUNTIMES][128];
	size_t ncdi_dirs;
	char cdi_dirs[DOCKERINFO_MAX_LIST][128];
	size_t nerrors;
	char errors[DOCKERINFO_MAX_LIST][256]; /* ServerErrors */
	bool desktop;             /* Docker Desktop's engine */
	bool rootless;            /* SecurityOptions name=rootless */
};

/* Fills info from docker info's stdout. Returns 0 when it held a JSON
 * object, -1 otherwise (info then says nothing). */
int dockerinfo_parse(const char *buf, size_t len, struct dockerinfo *info);
/*
 * The text form of `docker info`, which is what users paste (the probe asks
 * for JSON). Since Docker 19.03 the CLI prints a "Client:" and a "Server:"
 * section with keys one space in ("Server Version: 23.0.3", "Runtimes:
 * io.containerd.runc.v2 nvidia runc", "Default Runtime: runc", "Kernel
 * Version", "Operating System", "Name", "CDI spec directories:" with one
 * directory a line below it, "Security Options:" with "rootless" among its
 * items, and the client's "Context"); older engines print the same keys in
 * column 0 without sections. Keys deeper in (plugin lists, storage driver
 * details) are not read. "ERROR: ..." lines and "Cannot connect to the
 * Docker daemon ..." are kept as errors. Fills the same struct (json is
 * false); returns 0 when the text held at least one of those lines, -1
 * otherwise.
 */
int dockerinfo_parse_text(const char *buf, size_t len, struct dockerinfo *info);
/* True if a runtime of that name is registered. */
bool dockerinfo_has_runtime(const struct dockerinfo *info, const char *name);

struct nvcli_info {
	char nvrm[32];        /* "531.18" */
	char cuda[16];        /* "12.1" */
	int devices;          /* "Device Index:" blocks */
	char model[96];       /* the first device's Model */
	char arch[16];        /* its Architecture ("8.6") */
	char error[256];      /* the first "nvidia-container-cli: ..." error line */
};

void nvcli_info_parse(const char *buf, size_t len, struct nvcli_info *info);

#endif
