/*
 * containers_judge.h: the decision of containers.docker, apart from the
 * reading (src/probes/containers.c). The collector finds the docker CLI,
 * runs `docker info`, looks for the NVIDIA Container Toolkit, reads
 * /etc/docker/daemon.json and the CDI specs, and runs nvidia-container-cli
 * and the opt-in `docker run`; it fills a struct docker_facts. judge_docker
 * turns those facts into the result with no I/O (the built-in KB, constant
 * data, names the failures), so a unit test can judge any machine from a
 * table (tests/unit/test_judge_containers.c).
 */
#ifndef WSLGPU_CONTAINERS_JUDGE_H
#define WSLGPU_CONTAINERS_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/proc.h"
#include "../core/result.h"
#include "../parse/dockerinfo.h"

/* The NVIDIA Container Toolkit's programs, in the order they are looked
 * for; the first two are the hooks dockerd needs on its PATH. */
enum {
	NCT_RUNTIME_HOOK, NCT_CDI_HOOK, NCT_RUNTIME, NCT_CTK, NCT_CLI, NCT__COUNT
};

/* A CDI spec file (/etc/cdi, /var/run/cdi). */
struct cdi_spec {
	const char *path;
	bool nvidia;     /* it names nvidia.com/gpu */
};

/* A command the collector ran: rc is probe_run's answer (< 0: not run). */
struct docker_cmd {
	bool ran;
	int rc;
	const struct proc_result *pr;
	int limit_ms;
};

struct docker_facts {
	bool wsl;
	const char *docker;        /* the CLI's guest path; NULL: not found */
	/* When it is not found: */
	const char *desktop_link;  /* a dangling link into Docker Desktop's CLI mount */
	bool desktop_mount;        /* /mnt/wsl/docker-desktop exists */
	/* When it is: */
	const char *docker_host;   /* $DOCKER_HOST */
	const char *cli_link;      /* the CLI is a link into docker-desktop: its target */
	const char *pid1;          /* platform.systemd's PID 1 name, or NULL */
	/* Nothing at this default socket (and nothing names another): docker
	 * info was not run, the daemon is not running. NULL: it was run. */
	const char *no_socket;
	struct docker_cmd info;    /* docker info --format '{{json .}}' */
	const struct dockerinfo *di; /* info's stdout, parsed */
	const char *toolkit[NCT__COUNT]; /* guest paths of the toolkit's programs, or NULL */
	const char *daemon_json;   /* /etc/docker/daemon.json's text; NULL: unreadable */
	size_t daemon_json_len;
	const struct cdi_spec *cdi;
	size_t ncdi;
	const char *stale_path;    /* a driver-store path a spec names that is gone */
	const char *stale_file;    /* the spec naming it */
	struct docker_cmd nvcli;   /* nvidia-container-cli info */
	const char *image;         /* --docker-image */
	struct docker_cmd run;     /* docker run --rm --gpus all IMAGE nvidia-smi */
};

/* Whether `docker info` reached a daemon. */
bool docker_reachable(const struct docker_cmd *info, const struct dockerinfo *di);
/* Fills r (evidence, then the verdict) from the facts. */
void judge_docker(const struct docker_facts *f, struct result *r);

#endif
