/* emu_harness.c — see emu_harness.h. Each assembly runs in its own temp
 * directory under $(BUILD)/tests/tmp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include "emu_harness.h"
#include "../../../asm/asm.h"

/* The bytes of section `name` of the ELF object elf (what `llvm-objcopy -O
 * binary --only-section=NAME` writes), heap; NULL if there is none. Read
 * here rather than by llvm-objcopy: starting an LLVM tool (the relocation
 * of its shared library) costs as much as the assembly. */
static uint8_t *elf_section(Elf *e, const char *name, size_t *n)
{
	*n = 0;
	uint8_t *out = NULL;
	size_t shstr;
	if (e && elf_getshdrstrndx(e, &shstr) == 0)
		for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
			GElf_Shdr sh;
			const char *sn;
			if (!gelf_getshdr(scn, &sh) || !(sn = elf_strptr(e, shstr, sh.sh_name)) || strcmp(sn, name))
				continue;
			Elf_Data *d = elf_getdata(scn, NULL);
			if (d && d->d_buf && d->d_size == sh.sh_size && sh.sh_size) {
				out = xmalloc(sh.sh_size);
				memcpy(out, d->d_buf, sh.sh_size);
				*n = sh.sh_size;
			}
			break;
		}
	return out;
}

/* elf_section of the object file at path */
static uint8_t *file_section(const char *path, const char *name, size_t *n)
{
	*n = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	Elf *e = elf_version(EV_CURRENT) == EV_NONE ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	uint8_t *out = elf_section(e, name, n);
	if (e)
		elf_end(e);
	close(fd);
	return out;
}

/* The snippet goes through the library's assembler (asm/llvm_mc.c: the
 * llvm-mc for mcpu, LLVM 22 for gfx950, the object cache when
 * $WAVECC_ASM_CACHE is set) and its .text comes out of the object in
 * memory. */
size_t h_assemble(const char *body, uint8_t **code, const char *mcpu)
{
	Buf text = {0}, obj = {0}, msg = {0};
	buf_printf(&text, ".text\n%s\ns_endpgm\n", body);
	AsmOptions o = {.mcpu = mcpu, .source_name = "snippet"};
	size_t n = 0;
	if (asm_assemble(&o, text.data, text.len, &obj, &msg) != 0) {
		fprintf(stderr, "assembler failed:\n%s\n", buf_cstr(&msg));
	} else {
		Elf *e = elf_version(EV_CURRENT) == EV_NONE ? NULL : elf_memory((char *)obj.data, obj.len);
		uint8_t *t = elf_section(e, ".text", &n);
		if (e)
			elf_end(e);
		if (t)
			*code = t;
	}
	buf_free(&text);
	buf_free(&obj);
	buf_free(&msg);
	return n;
}

void h_init(Harness *h, const char *body)
{
	memset(h, 0, sizeof *h);
	h->code_size = h_assemble(body, &h->code, "gfx942");
	ck_assert_msg(h->code_size > 0, "assembly failed");
	h->mem = emu_mem_new();
	ck_assert_int_eq(emu_mem_map_at(h->mem, H_CODE_ADDR, h->code, h->code_size, false, "code"), 0);
	KernelDescriptor *kd = &h->l.kd;
	kd->kernel_code_entry_byte_offset = 0;
	kd->vgpr_alloc = 256;
	kd->accum_offset = 128;
	kd->sgpr_alloc = 104;
	kd->user_kernarg_segment_ptr = true;
	kd->user_sgpr_count = 2;
	kd->sgpr_private_segment_buffer = kd->sgpr_dispatch_ptr = kd->sgpr_queue_ptr = -1;
	kd->sgpr_dispatch_id = kd->sgpr_flat_scratch_init = kd->sgpr_private_segment_size = -1;
	kd->sgpr_kernarg_ptr = 0;
	kd->sgpr_wgid[0] = 2, kd->sgpr_wgid[1] = 3, kd->sgpr_wgid[2] = 4;
	kd->enable_wgid[0] = kd->enable_wgid[1] = kd->enable_wgid[2] = true;
	kd->sgpr_wg_info = -1;
	kd->vgpr_workitem_id = 2;
	kd->group_segment_fixed_size = 0;
	h->l.arch = EMU_GFX942;
	h->l.kd_addr = H_CODE_ADDR;
	h->l.kernarg_addr = emu_mem_map(h->mem, h->kernarg, sizeof h->kernarg, 16, false, "kernarg");
	h->l.grid[0] = h->l.grid[1] = h->l.grid[2] = 1;
	h->l.wg_size[0] = 64, h->l.wg_size[1] = h->l.wg_size[2] = 1;
	h->l.max_instructions = 1000000;
}

uint64_t h_buffer(Harness *h, void *p, size_t size, unsigned off, bool writable)
{
	uint64_t a = emu_mem_map(h->mem, p, size, 256, writable, "buf");
	memcpy(h->kernarg + off, &a, 8);
	return a;
}

void h_arg32(Harness *h, unsigned off, uint32_t v) { memcpy(h->kernarg + off, &v, 4); }

int h_run(Harness *h)
{
	int rc = emu_launch(h->mem, &h->l, &h->stats, h->err, sizeof h->err);
	if (rc != 0 && getenv("EMU_TEST_VERBOSE"))
		fprintf(stderr, "emu: %s\n", h->err);
	return rc;
}

void h_free(Harness *h)
{
	emu_mem_free(h->mem);
	free(h->code);
}

bool h_init_cl(Harness *h, const char *source, const char *mcpu, const char *flags)
{
	/* LLVM 19 does not know gfx950 */
	return h_init_cl_llvm(h, source, mcpu, flags, strcmp(mcpu, "gfx950") == 0 ? 22 : 19);
}

bool h_init_cl_llvm(Harness *h, const char *source, const char *mcpu, const char *flags, int v)
{
	static int seq;
	char name[64];
	snprintf(name, sizeof name, "emu-cl-%d-%d", (int)getpid(), seq++);
	const char *dir = test_tmpdir(name);
	Buf path = {0}, cmd = {0};
	buf_printf(&path, "%s/k.cl", dir);
	FILE *f = fopen(buf_cstr(&path), "w");
	if (!f)
		die("cannot write %s", buf_cstr(&path));
	fputs(source, f);
	fclose(f);
	buf_printf(&cmd, "cd '%s' && exec clang-%d -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -O3 %s -c k.cl -o k.o",
		   dir, v, mcpu, flags ? flags : "");
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	buf_free(&cmd);
	buf_free(&path);
	if (r.status != 0) {
		fprintf(stderr, "clang-%d failed:\n%s\n", v, r.err);
		cmd_result_free(&r);
		return false;
	}
	cmd_result_free(&r);
	memset(h, 0, sizeof *h);
	Buf obj = {0};
	buf_printf(&obj, "%s/k.o", dir);
	size_t kn = 0;
	h->code = file_section(buf_cstr(&obj), ".text", &h->code_size);
	uint8_t *kd = file_section(buf_cstr(&obj), ".rodata", &kn);
	buf_free(&obj);
	ck_assert_msg(h->code && kd && kn >= KD_SIZE, "no .text or kernel descriptor");
	char why[128];
	ck_assert_msg(kd_decode(kd, &h->l.kd, why, sizeof why) == 0, "kd_decode: %s", why);
	free(kd);
	h->mem = emu_mem_new();
	ck_assert_int_eq(emu_mem_map_at(h->mem, H_CODE_ADDR, h->code, h->code_size, false, "code"), 0);
	/* the KD's entry offset is a relocation in the .o: the kernel is at .text+0 */
	h->l.kd.kernel_code_entry_byte_offset = 0;
	h->l.arch = strcmp(mcpu, "gfx90a") == 0 ? EMU_GFX90A : strcmp(mcpu, "gfx950") == 0 ? EMU_GFX950 : EMU_GFX942;
	h->l.kd_addr = H_CODE_ADDR;
	h->l.kernarg_addr = emu_mem_map(h->mem, h->kernarg, sizeof h->kernarg, 16, false, "kernarg");
	h->l.grid[0] = h->l.grid[1] = h->l.grid[2] = 1;
	h->l.wg_size[0] = 64, h->l.wg_size[1] = h->l.wg_size[2] = 1;
	h->l.max_instructions = 10000000;
	test_rmdir(dir);
	return true;
}

bool h_have_tool(const char *name)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", name);
	return system(cmd) == 0;
}
