/* cmd_info.c — `wavecc info FILE.hsaco`: list the kernels of a code object
 * with their decoded descriptors and metadata (loader/codeobj/codeobj.h). */
#include <string.h>

#include "../loader/codeobj/codeobj.h"
#include "../loader/emu/emu.h"
#include "../util/util.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: wavecc info FILE.hsaco [--disasm] [-v] [--version] [-h]\n"
		   "  Print the kernels of a code object: kernel descriptor fields (registers,\n"
		   "  LDS, kernarg size, enabled SGPRs/VGPRs, rsrc words) and the metadata note\n"
		   "  (arguments with offsets, sizes and kinds).\n"
		   "  --disasm  also list each kernel's instructions as the emulator decodes them\n"
		   "            (offsets from the kernel's entry); exit 1 if any encoding is one\n"
		   "            the emulator does not know (each is listed as such)\n"
		   "  -v  print the version\n");
}

/* A kernel's code: from its entry to the end of its function symbol, or
 * else to the next kernel's entry or the end of the executable segment. */
static size_t disasm_kernels(const CodeObject *co, FILE *out)
{
	EmuArch arch = strcmp(co->mcpu, "gfx90a") == 0 ? EMU_GFX90A : strcmp(co->mcpu, "gfx950") == 0 ? EMU_GFX950
												 : EMU_GFX942;
	size_t unknown = 0;
	for (size_t i = 0; i < co->nkernels; i++) {
		const CodeKernel *k = &co->kernels[i];
		uint64_t lo = k->entry_vaddr, hi = co->exec_hi > lo ? co->exec_hi : co->base + co->image_size;
		if (k->code_size)
			hi = lo + k->code_size;
		else
			for (size_t j = 0; j < co->nkernels; j++)
				if (co->kernels[j].entry_vaddr > lo && co->kernels[j].entry_vaddr < hi)
					hi = co->kernels[j].entry_vaddr;
		if (lo < co->base || hi > co->base + co->image_size || hi < lo) {
			fprintf(out, "\ncode of %s: entry 0x%llx outside the image\n", k->name, (unsigned long long)lo);
			unknown++;
			continue;
		}
		fprintf(out, "\ncode of %s (0x%llx..0x%llx):\n", k->name, (unsigned long long)lo,
			(unsigned long long)hi);
		size_t n = emu_disassemble(arch, co->image + (lo - co->base), hi - lo, 0, out);
		if (n)
			fprintf(out, "%zu encodings the emulator does not know in %s\n", n, k->name);
		unknown += n;
	}
	return unknown;
}

int cmd_info(int argc, char **argv)
{
	const char *in = NULL;
	bool verbose = false, disasm = false;
	int rc;
	for (int i = 1; i < argc; i++) {
		if (opt_common(argv[i], "info", usage, &rc))
			return rc;
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
			continue;
		}
		if (strcmp(argv[i], "--disasm") == 0) {
			disasm = true;
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
	size_t unknown = disasm ? disasm_kernels(&co, stdout) : 0;
	codeobj_free(&co);
	buf_free(&msg);
	return unknown ? 1 : 0;
}
