/* cmd_info.c — `wavecc info FILE.hsaco`: list the kernels of a code object
 * with their decoded descriptors and metadata (loader/codeobj/codeobj.h). */
#include <string.h>

#include "../loader/codeobj/codeobj.h"
#include "../util/util.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: wavecc info FILE.hsaco [-v] [--version] [-h]\n"
		   "  Print the kernels of a code object: kernel descriptor fields (registers,\n"
		   "  LDS, kernarg size, enabled SGPRs/VGPRs, rsrc words) and the metadata note\n"
		   "  (arguments with offsets, sizes and kinds).\n"
		   "  -v  print the version\n");
}

int cmd_info(int argc, char **argv)
{
	const char *in = NULL;
	bool verbose = false;
	int rc;
	for (int i = 1; i < argc; i++) {
		if (opt_common(argv[i], "info", usage, &rc))
			return rc;
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			usage_err("info: unknown option '%s'", argv[i]);
		if (in)
			usage_err("info: more than one input file ('%s' and '%s')", in, argv[i]);
		in = argv[i];
	}
	if (opt_version_only(verbose, in))
		return 0;
	if (!in)
		usage_err("info: no input file");
	CodeObject co;
	Buf msg = {0};
	if (codeobj_read_file(in, &co, &msg) != 0) {
		print_file_error(in, buf_cstr(&msg));
		buf_free(&msg);
		codeobj_free(&co);
		return 1;
	}
	codeobj_print(&co, stdout);
	codeobj_free(&co);
	buf_free(&msg);
	return 0;
}
