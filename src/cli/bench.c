/* bench.c: `wslgpu bench` (being built). */
#include <stdio.h>

#include "cli.h"

int cmd_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wslgpu bench: not built yet\n");
	return EXIT_INTERNAL;
}
