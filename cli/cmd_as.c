/* cmd_as.c — `wavecc as FILE.s [-o OUT] [--mcpu CPU] [--llvm-mc PATH] [-v]`:
 * assemble with llvm-mc and link with our linker (asm/asm.h).
 *
 * The target is --mcpu (a target ID such as gfx942 or gfx942:sramecc-),
 * else the one the file's `.amdgcn_target` directive names, else gfx942.
 * The output follows util.h's rules (regular files replaced atomically,
 * devices and FIFOs written into, "-" is standard output), so a failure
 * leaves no file behind. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../asm/asm.h"
#include "../driver/driver.h"
#include "../loader/codeobj/codeobj.h"
#include "../util/util.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: wavecc as FILE.s [-o OUT] [--mcpu CPU] [--llvm-mc PATH] [-v] [--version] [-h]\n"
		   "  Assemble FILE.s with llvm-mc and link it into a loadable code object.\n"
		   "  -o OUT          output (default: FILE.s with .hsaco instead of .s; '-' is stdout;\n"
		   "                  also -oOUT, -o=OUT)\n"
		   "  --mcpu CPU      target ID: gfx942, gfx90a, gfx940, gfx941, gfx950, with optional\n"
		   "                  :sramecc+/- and :xnack+/- (also -mcpu=CPU); default: the file's\n"
		   "                  .amdgcn_target, else gfx942\n"
		   "  --llvm-mc PATH  the assembler to run (else $WAVECC_LLVM_MC, llvm-mc on PATH,\n"
		   "                  /opt/rocm/llvm/bin/llvm-mc, llvm-mc-19, ...)\n"
		   "  -v              print the version and say which llvm-mc runs\n");
}

int cmd_as(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *mcpu = NULL, *mc = NULL;
	bool verbose = false;
	int rc;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if (opt_common(argv[i], "as", usage, &rc)) {
			return rc;
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
	if (opt_version_only(verbose, in))
		return 0;
	if (!in)
		usage_err("as: no input file");
	if (mcpu && !asm_known_mcpu(mcpu))
		usage_err("as: unknown --mcpu '%s' (known: gfx942, gfx90a, gfx940, gfx941, gfx950, optionally with "
			  ":sramecc+/- and :xnack+/-)", mcpu);
	size_t len;
	char *text = read_file(in, &len);
	if (!text)
		err_at((Loc){in, 0, 0}, "cannot read: %s", file_strerror(errno));
	char file_id[128];
	if (!mcpu) {
		mcpu = "gfx942";
		if (asm_text_target(text, len, file_id, sizeof file_id)) {
			if (!asm_known_mcpu(file_id)) {
				free(text);
				err_at((Loc){in, 0, 0}, ".amdgcn_target names '%s', which wavecc does not know (give --mcpu)", file_id);
			}
			mcpu = file_id;
		}
	}
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
	AsmOptions o = {mc, mcpu, in, verbose};
	Buf obj = {0}, msg = {0};
	int r = compile_build(&o, text, len, &obj, &msg);
	if (msg.len)
		fprintf(stderr, "%s", buf_cstr(&msg));
	if (r == 0) {
		/* A code object without a kernel links, but can never run: almost
		 * always an empty or truncated source. */
		CodeObject co;
		Buf cm = {0};
		int cr = codeobj_read(obj.data, obj.len, in, &co, &cm);
		if (cr != 0 || co.nkernels == 0) {
			print_file_error(in, cr != 0 ? buf_cstr(&cm)
						  : "no kernel: the file defines no kernel descriptor (an .amdhsa_kernel "
						    "NAME block with a global NAME.kd symbol); nothing written");
			r = -1;
		}
		buf_free(&cm);
		codeobj_free(&co);
	}
	if (r == 0 && file_write_output(out, obj.data, obj.len, 0644) != 0) {
		fprintf(stderr, "wavecc: error: %s: cannot write: %s\n", out, strerror(errno));
		r = -1;
	}
	if (r == 0 && verbose)
		fprintf(stderr, "wavecc: wrote %s (%zu bytes) for %s\n", out, obj.len, mcpu);
	free(text);
	free(outbuf);
	buf_free(&obj);
	buf_free(&msg);
	return r == 0 ? 0 : 1;
}
