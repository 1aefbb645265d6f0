/* smoke.c: `wslgpu smoke` (being written). */
#include <stdio.h>

#include "cli.h"

int cmd_smoke(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wslgpu smoke: not implemented yet\n");
	return EXIT_INTERNAL;
}
