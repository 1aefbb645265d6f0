/* explain.c: `wslgpu explain` (being built). */
#include <stdio.h>

#include "cli.h"

int cmd_explain(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wslgpu explain: not built yet\n");
	return EXIT_INTERNAL;
}
