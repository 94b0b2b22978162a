/* cmd_as.c — `wavecc as FILE.s [-o FILE.hsaco] [--mcpu CPU] [--llvm-mc PATH]
 * [-v]`: assemble with llvm-mc and link with our linker (asm/asm.h). The
 * output is written atomically, so a failure leaves no file behind. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../asm/asm.h"
#include "../util/util.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: wavecc as FILE.s [-o FILE.hsaco] [--mcpu gfx942|gfx90a] [--llvm-mc PATH] [-v]\n"
		   "  Assemble FILE.s with llvm-mc and link it into a loadable code object.\n"
		   "  -o FILE        output (default: FILE.s with .hsaco instead of .s)\n"
		   "  --mcpu CPU     target processor (default gfx942)\n"
		   "  --llvm-mc PATH the assembler to run (else $WAVECC_LLVM_MC, llvm-mc on PATH,\n"
		   "                 /opt/rocm/llvm/bin/llvm-mc, llvm-mc-19, ...)\n"
		   "  -v             say which llvm-mc runs\n");
}

int cmd_as(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *mcpu = "gfx942", *mc = NULL;
	bool verbose = false;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (opt_value(argc, argv, &i, "-o", &v)) {
			out = v;
		} else if (opt_value(argc, argv, &i, "--mcpu", &v)) {
			mcpu = v;
		} else if (opt_value(argc, argv, &i, "--llvm-mc", &v)) {
			mc = v;
		} else if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			usage_err("as: unknown option '%s'", argv[i]);
		} else if (!in) {
			in = argv[i];
		} else {
			usage_err("as: more than one input file ('%s' and '%s')", in, argv[i]);
		}
	}
	if (!in)
		usage_err("as: no input file (try 'wavecc help as')");
	if (!asm_known_mcpu(mcpu))
		usage_err("as: unknown --mcpu '%s' (known: gfx942, gfx90a, gfx940, gfx941, gfx950)", mcpu);
	char *outbuf = NULL;
	if (!out) {
		size_t n = strlen(in);
		outbuf = xmalloc(n + 8);
		memcpy(outbuf, in, n + 1);
		if (n > 2 && strcmp(in + n - 2, ".s") == 0)
			outbuf[n - 2] = 0;
		strcat(outbuf, ".hsaco");
		out = outbuf;
	}
	size_t len;
	char *text = read_file(in, &len);
	if (!text)
		err("%s: cannot read: %s", in, strerror(errno));
	AsmOptions o = {mc, mcpu, in, verbose};
	Buf obj = {0}, msg = {0};
	int r = asm_build(&o, text, len, &obj, &msg);
	if (msg.len)
		fprintf(stderr, "%s", buf_cstr(&msg));
	if (r == 0 && write_file_atomic(out, obj.data, obj.len, 0644) != 0) {
		fprintf(stderr, "wavecc: error: %s: cannot write: %s\n", out, strerror(errno));
		r = -1;
	}
	if (r == 0 && verbose)
		fprintf(stderr, "wavecc: wrote %s (%zu bytes)\n", out, obj.len);
	free(text);
	free(outbuf);
	buf_free(&obj);
	buf_free(&msg);
	return r == 0 ? 0 : 1;
}
