/* containers.c: Docker and the NVIDIA container toolkit (issue: check part 3). */
#include "probes.h"

const struct check_def containers_checks[] = {
	{ "containers.docker", "containers", "Docker GPU support", "docker engine, NVIDIA runtime or CDI spec, without starting a container", { "platform.kind" }, NULL },
	{ NULL, NULL, NULL, NULL, { NULL }, NULL },
};
