/* watch.c: `wslgpu watch` (being built). */
#include <stdio.h>

#include "cli.h"

int cmd_watch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wslgpu watch: not built yet\n");
	return EXIT_INTERNAL;
}
