/* cmd_dump_graph.c — `wavecc dump-graph K.json`: load and validate a kernel
 * graph (frontend/) and print its IR (graph_print). Bad input: located
 * messages on stderr, exit 1, nothing on stdout. */
#include <string.h>

#include "../frontend/frontend.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wavecc dump-graph K.json [-v] [--version] [-h]\n\n"
		     "Loads the kernel graph K.json (docs/kernel-format.md), validates it and prints\n"
		     "the graph IR: symbols with their resolved values, constraints, arguments and\n"
		     "one line per op with its inferred type. Exit 1 if the input is invalid.\n");
}

int cmd_dump_graph(int argc, char **argv)
{
	const char *path = NULL;
	bool verbose = false;
	int rc;
	for (int i = 1; i < argc; i++) {
		if (opt_common(argv[i], "dump-graph", usage, &rc))
			return rc;
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			usage_err("dump-graph: unknown option '%s'", argv[i]);
		if (path)
			usage_err("dump-graph: one input file expected");
		path = argv[i];
	}
	if (opt_version_only(verbose, path))
		return 0;
	if (!path)
		usage_err("dump-graph: no kernel file");
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	if (!k)
		return 1;
	Buf b = {0};
	graph_print(&b, k);
	fputs(buf_cstr(&b), stdout);
	buf_free(&b);
	kernel_free(k);
	return 0;
}
